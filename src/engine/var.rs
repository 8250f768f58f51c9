//! One relation of an evaluation, split the semi-naive way: facts older
//! than the last round (*stable*), facts of the last round (*recent*, what
//! operators read), and facts derived in this round (*pending*, seen only
//! from the next round on).
//!
//! This plays the part of a datafrog `Variable`, with one difference that
//! pays for itself: every fact is kept in a hash map together with where it
//! came from. That map is the deduplication (a fact derived again is
//! dropped on arrival, with no sorting or merging against older batches)
//! and the provenance at once, and copying it is a flat copy when a branch
//! forks. Only a variable that a merge join reads keeps its facts as
//! sorted batches too, because datafrog's `from_join` walks them in order.

use super::tuple::Tuple;
use datafrog::Relation;
use rustc_hash::FxHashMap;

/// Where a fact came from: the rule that first derived it and the round
/// (step) in which it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactOrigin {
    /// Program rule id ([`NO_RULE`] for guesses and loaded facts).
    pub rule: u32,
    /// Fixpoint step.
    pub step: u32,
}

/// The rule id of facts no rule derived: guesses and loaded facts.
pub const NO_RULE: u32 = u32::MAX;

/// One relation of a store.
#[derive(Clone)]
pub struct Var {
    /// Every fact (stable, recent and pending) with its origin.
    facts: FxHashMap<Tuple, FactOrigin>,
    /// The stable facts as sorted batches (geometrically merged, as
    /// datafrog does), kept only when `batched`.
    stable: Vec<Relation<Tuple>>,
    /// The last round's facts; sorted when `batched`.
    recent: Relation<Tuple>,
    /// This round's new facts.
    pending: Vec<Tuple>,
    /// Whether a merge join reads this variable.
    batched: bool,
}

impl Var {
    /// An empty variable; `batched` when a merge join reads it.
    pub fn new(batched: bool) -> Var {
        Var {
            facts: FxHashMap::default(),
            stable: Vec::new(),
            recent: Relation {
                elements: Vec::new(),
            },
            pending: Vec::new(),
            batched,
        }
    }

    /// Adds facts, keeping those not known yet with `origin`. Returns how
    /// many were new.
    pub fn insert(&mut self, tuples: &[Tuple], origin: FactOrigin) -> u32 {
        let before = self.pending.len();
        for &t in tuples {
            if let std::collections::hash_map::Entry::Vacant(e) = self.facts.entry(t) {
                e.insert(origin);
                self.pending.push(t);
            }
        }
        (self.pending.len() - before) as u32
    }

    /// Ends a round: the last round's facts become stable and this
    /// round's become recent. Returns whether there are recent facts.
    pub fn advance(&mut self) -> bool {
        if self.recent.is_empty() && self.pending.is_empty() {
            return false;
        }
        let mut recent = std::mem::take(&mut self.pending);
        if self.batched {
            recent.sort_unstable();
            let mut batch = std::mem::replace(&mut self.recent, Relation { elements: recent });
            if !batch.is_empty() {
                // Merge with smaller batches so there stay few of them.
                while self
                    .stable
                    .last()
                    .is_some_and(|last| last.len() <= 2 * batch.len())
                {
                    if let Some(last) = self.stable.pop() {
                        batch = batch.merge(last);
                    }
                }
                self.stable.push(batch);
            }
        } else {
            // Reuse the old recent buffer for the next round's facts.
            let mut old = std::mem::replace(&mut self.recent.elements, recent);
            old.clear();
            self.pending = old;
        }
        !self.recent.is_empty()
    }

    /// The last round's facts (what operators read).
    pub fn recent(&self) -> &Relation<Tuple> {
        &self.recent
    }

    /// The stable facts as sorted batches (empty unless batched).
    pub fn stable_batches(&self) -> &[Relation<Tuple>] {
        &self.stable
    }

    /// The number of facts (including this round's).
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Every fact with its origin, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Tuple, &FactOrigin)> {
        self.facts.iter()
    }

    /// Whether a fact arrived before round `step` (stable or recent then).
    pub fn known_before(&self, t: &Tuple, step: u32) -> bool {
        self.facts.get(t).is_some_and(|o| o.step < step)
    }

    /// Where a fact came from, if it is known.
    pub fn origin(&self, t: &Tuple) -> Option<FactOrigin> {
        self.facts.get(t).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tuple::flat;

    const O: FactOrigin = FactOrigin { rule: 0, step: 1 };

    #[test]
    fn a_fact_is_new_once_and_visible_after_one_round() {
        let mut v = Var::new(true);
        assert_eq!(v.insert(&[flat(&[2]), flat(&[1]), flat(&[2])], O), 2);
        assert!(v.recent().is_empty());
        assert!(v.advance());
        assert_eq!(v.recent().elements, vec![flat(&[1]), flat(&[2])]);
        assert_eq!(v.insert(&[flat(&[1]), flat(&[3])], O), 1);
        assert!(v.advance());
        assert_eq!(v.recent().elements, vec![flat(&[3])]);
        assert_eq!(v.stable_batches().len(), 1);
        assert!(!v.advance());
        // The two rounds' batches were merged into one sorted batch.
        assert_eq!(v.stable_batches().len(), 1);
        assert_eq!(
            v.stable_batches()[0].elements,
            vec![flat(&[1]), flat(&[2]), flat(&[3])]
        );
        assert_eq!(v.len(), 3);
    }

    #[test]
    fn an_unbatched_variable_keeps_no_stable_copy() {
        let mut v = Var::new(false);
        v.insert(&[flat(&[5]), flat(&[4])], O);
        assert!(v.advance());
        assert_eq!(v.recent().elements, vec![flat(&[5]), flat(&[4])]);
        assert!(!v.advance());
        assert!(v.stable_batches().is_empty());
        assert_eq!(v.origin(&flat(&[4])), Some(O));
        assert_eq!(v.len(), 2);
    }
}
