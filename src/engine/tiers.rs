//! Gated tiers: rules of a technique's tier at or above [`FIRST_GATED_TIER`]
//! run only when every easier tier is stalled. The planner gives each gated
//! tier its own copies of the relations it reads ([`TierCopy`]) and finds
//! the rules whose facts switch the gated tiers off again
//! ([`tier_resetting_rules`]); the store feeds the copies while their tier
//! is on, keeps what they missed while it is off, and switches tiers on and
//! off. Both halves are here so that the scheme reads in one place.

use super::ir::Lowered;
use super::plan::{Plan, VarIdx};
use super::store::Store;
use super::var::FactOrigin;
use crate::lang::program::{Atom, RelId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rules of tiers at or above this one run only when every easier tier is
/// stalled.
pub const FIRST_GATED_TIER: u32 = 2;

/// A gated tier's copy of a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierCopy {
    /// The tier reading it.
    pub tier: u32,
    /// The relation's variable.
    pub from: VarIdx,
    /// The copy.
    pub to: VarIdx,
}

/// The rules of gated tiers among `rule_tiers` whose head relation a rule
/// (or a count's body) of an easier tier reads (see
/// [`Plan::resets_tiers`]).
pub(super) fn tier_resetting_rules(
    lowered: &Lowered,
    rule_tiers: &FxHashMap<usize, u32>,
) -> FxHashSet<usize> {
    let mut easiest_reader: FxHashMap<RelId, u32> = FxHashMap::default();
    let mut read = |atoms: &[Atom], tier: u32| {
        for a in atoms {
            let t = easiest_reader.entry(a.rel).or_insert(tier);
            *t = (*t).min(tier);
        }
    };
    for r in &lowered.rules {
        read(&r.atoms, r.tier);
        read(&r.negs, r.tier);
        read(&r.guards, r.tier);
    }
    for a in &lowered.aggs {
        read(&a.body.atoms, a.body.tier);
        read(&a.body.negs, a.body.tier);
    }
    lowered
        .rules
        .iter()
        .filter_map(|r| {
            let id = r.source_rule?;
            let tier = *rule_tiers.get(&id)?;
            let easier_reads = easiest_reader.get(&r.head).is_some_and(|&t| t < tier);
            (tier >= FIRST_GATED_TIER && easier_reads).then_some(id)
        })
        .collect()
}

impl Store {
    /// Switches the gated tiers off: after new knowledge (a guess), the
    /// easiest techniques run first again.
    pub fn reset_tiers(&mut self) {
        self.active_tier = FIRST_GATED_TIER - 1;
    }

    /// Switches on the next tier above the active one, if any, feeding its
    /// copies everything they missed. Returns whether one was switched on.
    pub(super) fn next_tier(&mut self, plan: &Plan) -> bool {
        let next = plan
            .copies
            .iter()
            .map(|c| c.tier)
            .filter(|&t| t > self.active_tier && t <= self.tier_cap)
            .min();
        let Some(tier) = next else {
            self.active_tier = self.active_tier.max(plan.max_tier.min(self.tier_cap));
            return false;
        };
        self.active_tier = tier;
        for (i, c) in plan.copies.iter().enumerate() {
            if c.tier == tier {
                // Taken out to be read while the store takes them in; the
                // emptied buffer goes back for the next time.
                let mut missed = std::mem::take(&mut self.missed[i]);
                self.insert_var(c.to, &missed, FactOrigin::unruled(self.step));
                missed.clear();
                self.missed[i] = missed;
            }
        }
        true
    }

    /// Inserts the recent facts of variable `from` into variable `to`.
    pub(super) fn copy_recent(&mut self, from: usize, to: usize, origin: FactOrigin) {
        // Borrow the two variables apart; a variable's own recent facts
        // are already known to it, so copying onto itself adds nothing.
        let vars = &mut self.vars;
        let (source, target) = match from.cmp(&to) {
            std::cmp::Ordering::Less => {
                let (a, b) = vars.split_at_mut(to);
                (&a[from], &mut b[0])
            }
            std::cmp::Ordering::Greater => {
                let (a, b) = vars.split_at_mut(from);
                (&b[0], &mut a[to])
            }
            std::cmp::Ordering::Equal => return,
        };
        let new = target.insert(source.recent(), origin);
        self.note_touched(to, new);
    }
}
