//! One relation of an evaluation, split the semi-naive way: facts older
//! than the last round (*stable*), facts of the last round (*recent*, what
//! operators read), and facts derived in this round (*pending*, seen only
//! from the next round on).
//!
//! This plays the part of a datafrog `Variable`, with one difference that
//! pays for itself: every fact is kept in a hash map together with where it
//! came from. That map is the deduplication (a fact derived again is
//! dropped on arrival, with no sorting or merging against older batches)
//! and the provenance at once, and a fork shares it (a [`TupleMap`]).
//! Only a variable that a join reads keeps its facts as sorted batches
//! too, because the join looks keys up in them (datafrog's `ExtendWith`);
//! and a variable whose facts are new by construction and only ever read
//! as they arrive (tier copies, reached groups) keeps none at all.

use super::layered::LayerValue;
use super::tuple::Tuple;
use super::tuple_map::TupleMap;
use crate::lang::program::Value;
use crate::lang::value::{WhereOp, singleton};
use datafrog::Relation;
use std::sync::Arc;

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

/// The rule id of facts a pencil-mark state brings: digits placed and
/// candidates removed in the input.
pub const INPUT_RULE: u32 = u32::MAX - 1;

/// The rule id of facts forcing brought back from its hypotheses (see
/// `solve::forcing`): no rule of the program derived them, the forks did.
pub const FORCING_RULE: u32 = u32::MAX - 2;

/// A fact is in one layer only, and its first origin stands.
impl LayerValue for FactOrigin {
    fn absorb(&mut self, _newer: &Self) {}
}

impl FactOrigin {
    /// The origin of a fact no rule derived, arriving at `step`: a guess,
    /// a loaded fact, or one a store moves between its own variables
    /// (tier copies, reached groups).
    pub fn unruled(step: u32) -> FactOrigin {
        FactOrigin {
            rule: NO_RULE,
            step,
        }
    }

    /// The origin of a fact the input states (a pencil-mark state's
    /// placed digit or removed candidate), arriving at `step`.
    pub fn input(step: u32) -> FactOrigin {
        FactOrigin {
            rule: INPUT_RULE,
            step,
        }
    }

    /// The origin of a fact forcing derived, arriving at `step`.
    pub fn forced(step: u32) -> FactOrigin {
        FactOrigin {
            rule: FORCING_RULE,
            step,
        }
    }

    /// Whether no rule of the program derived the fact: a guess, what the
    /// input states, or what forcing brought back.
    pub fn is_unruled(&self) -> bool {
        self.rule >= FORCING_RULE
    }

    /// Whether forcing derived the fact (see [`FactOrigin::forced`]).
    pub fn is_forced(&self) -> bool {
        self.rule == FORCING_RULE
    }

    /// Whether the fact is a guess of the branching layer (no rule derived
    /// it, and the input did not state it).
    pub fn is_guess(&self) -> bool {
        self.rule == NO_RULE
    }

    /// Whether the input stated the fact (see [`FactOrigin::input`]).
    pub fn is_input(&self) -> bool {
        self.rule == INPUT_RULE
    }
}

/// What a variable keeps of its facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every fact with its origin (deduplication, provenance, lookups).
    Facts,
    /// The same, and the stable facts as sorted batches for a join.
    Sorted,
    /// Only how many arrived: every fact inserted is new by construction,
    /// and nothing reads the variable but operators taking recent facts.
    Count,
    /// Only the sorted batches, deduplicated within each round and as
    /// batches merge, not against older facts: for a join's operand that
    /// is no program relation (a relation re-keyed for the join), whose
    /// facts nobody looks up or explains. A fact that arrives again makes
    /// the join find again what it found before, which the join's output
    /// drops; keeping no map of such operands saves its memory (a tenth of
    /// the peak with every tier on 9x9; the time is about the same, as the
    /// batches are sorted anyway).
    Batches,
}

/// One relation of a store.
pub struct Var {
    /// Every fact (stable, recent and pending) with its origin, unless
    /// `keep` is [`Keep::Count`].
    facts: TupleMap<FactOrigin>,
    /// How many facts arrived, for [`Keep::Count`].
    arrived: usize,
    /// The stable facts as sorted batches (geometrically merged, as
    /// datafrog does), for [`Keep::Sorted`].
    stable: Vec<Arc<Relation<Tuple>>>,
    /// The last round's facts; sorted for [`Keep::Sorted`].
    recent: Relation<Tuple>,
    /// This round's new facts.
    pending: Vec<Tuple>,
    keep: Keep,
    /// Projections for guards with `_` columns: the columns kept, and each
    /// projected tuple with the step its first fact arrived at.
    projections: Vec<Projection>,
}

/// A variable's facts projected on some columns (a guard such as `unless
/// placed(C, _)` asks whether any fact with that cell is known), kept up
/// to date as facts arrive so that a projected tuple is known from the
/// same step as the first fact behind it.
struct Projection {
    cols: Vec<usize>,
    first_step: TupleMap<u32>,
    /// For a guard with `where`: the column it compares, and per projected
    /// tuple that column's values, each with the round it arrived in.
    spread: Option<(usize, SpreadValues)>,
}

/// Per projected tuple, the values of a guard's compared column, each with
/// the round it arrived in.
/// (Values arrive per layer: a fork adds to its own layer's list.)
type SpreadValues = TupleMap<Vec<(Value, u32)>>;

impl Projection {
    fn fork(&mut self) -> Projection {
        Projection {
            cols: self.cols.clone(),
            first_step: self.first_step.fork(),
            spread: self.spread.as_mut().map(|(c, values)| (*c, values.fork())),
        }
    }
}

/// The largest batch of facts for which [`Var::insert`] makes room in one
/// step.
const RESERVE_BATCH: usize = 1024;

impl Var {
    /// A copy (for a fork) that shares the facts known so far (see
    /// [`LayeredMap::fork`]) and the stable batches, neither of which ever
    /// changes, and whose buffer for this round's facts starts with room
    /// for a small batch (a fork's rounds derive about as much as its
    /// parent's did, but a deep search keeps many forks at once).
    pub fn fork(&mut self) -> Var {
        let mut pending = Vec::with_capacity(self.pending.capacity().min(RESERVE_BATCH));
        pending.extend_from_slice(&self.pending);
        Var {
            facts: self.facts.fork(),
            arrived: self.arrived,
            stable: self.stable.clone(),
            recent: Relation {
                elements: self.recent.elements.clone(),
            },
            pending,
            keep: self.keep,
            projections: self.projections.iter_mut().map(Projection::fork).collect(),
        }
    }

    /// Freezes the facts known so far (see [`LayeredMap::freeze`]), so
    /// that forks share them.
    pub fn freeze(&mut self) {
        self.facts.freeze();
        for projection in &mut self.projections {
            projection.first_step.freeze();
            if let Some((_, values)) = &mut projection.spread {
                values.freeze();
            }
        }
    }

    /// An empty variable keeping what `keep` says.
    pub fn new(keep: Keep) -> Var {
        Var {
            facts: TupleMap::default(),
            arrived: 0,
            stable: Vec::new(),
            recent: Relation {
                elements: Vec::new(),
            },
            pending: Vec::new(),
            keep,
            projections: Vec::new(),
        }
    }

    /// Starts keeping the projection of the facts on `cols` (before any
    /// fact arrives). Projections are numbered in the order they are added,
    /// from 0, as [`Var::known_before_in`] names them.
    ///
    /// With `spread`, the projection also keeps, per projected tuple, the
    /// values of that column (for [`Var::known_before_where`]).
    pub fn add_projection(&mut self, cols: &[usize], spread: Option<usize>) {
        self.projections.push(Projection {
            cols: cols.to_vec(),
            first_step: TupleMap::default(),
            spread: spread.map(|c| (c, TupleMap::default())),
        });
    }

    /// Adds facts, keeping those not known yet with `origin`. Returns how
    /// many were new.
    pub fn insert(&mut self, tuples: &[Tuple], origin: FactOrigin) -> u32 {
        if matches!(self.keep, Keep::Count | Keep::Batches) {
            self.pending.extend_from_slice(tuples);
            self.arrived += tuples.len();
            return tuples.len() as u32;
        }
        let before = self.pending.len();
        // Room for a small batch at once: growing step by step would
        // rehash the facts several times per solve (most batches are new).
        // A large batch may be mostly known facts: it grows the table as
        // it goes, so that memory follows what is new.
        if let Some(sample) = tuples.first()
            && tuples.len() <= RESERVE_BATCH
        {
            self.facts.reserve(tuples.len(), sample);
            self.pending.reserve(tuples.len());
        }
        for &t in tuples {
            if self.facts.insert_new(&t, origin) {
                self.pending.push(t);
            }
        }
        for p in &mut self.projections {
            for t in &self.pending[before..] {
                let mut key = super::tuple::EMPTY;
                for (i, &c) in p.cols.iter().enumerate() {
                    super::tuple::set_slot(&mut key, i, super::tuple::slot(t, c));
                }
                p.first_step.insert_new(&key, origin.step);
                if let Some((c, values)) = &mut p.spread {
                    let value = super::tuple::slot(t, *c);
                    values.own_entry(&key).push((value, origin.step));
                }
            }
        }
        (self.pending.len() - before) as u32
    }

    /// Ends a round: the last round's facts become stable and this
    /// round's become recent. Returns whether there are recent facts.
    pub fn advance(&mut self) -> bool {
        if !self.has_input() {
            return false;
        }
        let mut recent = std::mem::take(&mut self.pending);
        if matches!(self.keep, Keep::Sorted | Keep::Batches) {
            super::tuple::sort_tuples(&mut recent);
            if self.keep == Keep::Batches {
                recent.dedup();
            }
            let mut batch = std::mem::replace(&mut self.recent, Relation { elements: recent });
            if !batch.is_empty() {
                // Merge with smaller batches so there stay few of them.
                while self
                    .stable
                    .last()
                    .is_some_and(|last| last.len() <= 2 * batch.len())
                {
                    if let Some(last) = self.stable.pop() {
                        batch = batch.merge(Arc::unwrap_or_clone(last));
                    }
                }
                self.stable.push(Arc::new(batch));
            }
        } else {
            // Reuse the old recent buffer for the next round's facts.
            let mut old = std::mem::replace(&mut self.recent.elements, recent);
            old.clear();
            self.pending = old;
        }
        !self.recent.is_empty()
    }

    /// Whether facts wait to be advanced: this round's, or last round's
    /// still recent.
    pub fn has_input(&self) -> bool {
        !(self.recent.is_empty() && self.pending.is_empty())
    }

    /// The last round's facts (what operators read).
    pub fn recent(&self) -> &Relation<Tuple> {
        &self.recent
    }

    /// The stable facts as sorted batches (empty unless [`Keep::Sorted`]
    /// or [`Keep::Batches`]).
    pub fn stable_batches(&self) -> &[Arc<Relation<Tuple>>] {
        &self.stable
    }

    /// The number of facts (including this round's).
    pub fn len(&self) -> usize {
        self.facts.len() + self.arrived
    }

    /// Whether no fact arrived at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every fact with its origin, in no particular order (none for
    /// [`Keep::Count`]).
    pub fn iter(&self) -> impl Iterator<Item = (Tuple, &FactOrigin)> {
        self.facts.iter()
    }

    /// Whether a fact arrived before round `step` (stable or recent then).
    pub fn known_before(&self, t: &Tuple, step: u32) -> bool {
        self.facts.get(t).is_some_and(|o| o.step < step)
    }

    /// Whether a tuple is known before round `step`: a fact, or with
    /// `projection`, a tuple of that projection (see [`Var::add_projection`]).
    pub fn known_before_in(&self, projection: Option<usize>, t: &Tuple, step: u32) -> bool {
        match projection.and_then(|p| self.projections.get(p)) {
            Some(p) => p.first_step.get(t).is_some_and(|&s| s < step),
            None => self.known_before(t, step),
        }
    }

    /// Whether a fact matching the projected tuple `t` was known before
    /// round `step` with a value `x` of the projection's spread column such
    /// that `x op value` (a guard's `where`).
    pub fn known_before_where(
        &self,
        projection: usize,
        t: &Tuple,
        step: u32,
        op: WhereOp,
        value: Value,
    ) -> bool {
        self.spread_values(projection, t)
            .any(|&(x, s)| s < step && op.holds(x, value))
    }

    /// The values of a projection's spread column for the projected tuple
    /// `t`, each with the round it arrived in (none without a spread).
    fn spread_values(&self, projection: usize, t: &Tuple) -> impl Iterator<Item = &(Value, u32)> {
        self.projections
            .get(projection)
            .and_then(|p| p.spread.as_ref())
            .into_iter()
            .flat_map(move |(_, values)| values.get_all(t).flatten())
    }

    /// The numbers of the projection's spread column known before round
    /// `step` for the projected tuple `t`, as a set (a bitmask of the
    /// members `1..=MAX_SET_MEMBER`): what a guard's `where X in S` meets.
    pub fn members_known_before(&self, projection: usize, t: &Tuple, step: u32) -> Value {
        self.spread_values(projection, t)
            .filter(|&&(_, s)| s < step)
            .fold(0, |m, &(x, _)| m | singleton(x))
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
        let mut v = Var::new(Keep::Sorted);
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
        let mut v = Var::new(Keep::Facts);
        v.insert(&[flat(&[5]), flat(&[4])], O);
        assert!(v.advance());
        assert_eq!(v.recent().elements, vec![flat(&[5]), flat(&[4])]);
        assert!(!v.advance());
        assert!(v.stable_batches().is_empty());
        assert_eq!(v.origin(&flat(&[4])), Some(O));
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn a_projection_knows_a_tuple_from_the_step_of_its_first_fact() {
        // `unless placed(C, _)`: the cell column alone, known from the
        // first fact with that cell.
        let mut v = Var::new(Keep::Facts);
        v.add_projection(&[0], None);
        let at = |step| FactOrigin { rule: 0, step };
        v.insert(&[flat(&[7, 3])], at(4));
        v.insert(&[flat(&[7, 5]), flat(&[8, 1])], at(6));
        let cell = |c| flat(&[c]);
        assert!(!v.known_before_in(Some(0), &cell(7), 4));
        assert!(v.known_before_in(Some(0), &cell(7), 5));
        assert!(!v.known_before_in(Some(0), &cell(8), 6));
        assert!(v.known_before_in(Some(0), &cell(8), 7));
        assert!(!v.known_before_in(Some(0), &cell(9), 100));
        // Without a projection the whole tuple is looked up.
        assert!(v.known_before_in(None, &flat(&[7, 5]), 7));
        assert!(!v.known_before_in(None, &flat(&[7, 5]), 6));
    }

    #[test]
    fn a_counting_variable_passes_every_fact_on_and_keeps_none() {
        let mut v = Var::new(Keep::Count);
        assert_eq!(v.insert(&[flat(&[5]), flat(&[4])], O), 2);
        assert!(v.advance());
        assert_eq!(v.recent().elements, vec![flat(&[5]), flat(&[4])]);
        assert!(!v.advance());
        assert_eq!(v.len(), 2);
        assert_eq!(v.iter().count(), 0);
    }
}
