//! Counts and sets at run time: the counters of each count (sparse by
//! group, or arrays by a numbered static seed's row), bumping them with a
//! body's new bindings, count chains replayed from the memo, and emitting
//! exact counts at a fixpoint. Lowering counts is `ir`, planning their
//! bodies `plan`, the arrays themselves `needs`, their seeds `seeds`.

use super::memo;
use super::needs::Needs;
use super::ops::{Extension, Lookups, extend_into};
use super::plan::{self, Lookup, Op, Plan, SeedSource};
use super::seeds::SeedRows;
use super::statics::Statics;
use super::store::Store;
use super::tuple::{Frame, HALF, Half, Tuple};
use super::var::FactOrigin;
use crate::lang::program::Value;
use crate::lang::value::{CmpOp, MAX_SET_MEMBER};
use plan::IndexId;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The counters of one count.
#[derive(Clone)]
pub(super) enum Counters {
    /// By group tuple: `(count, bound)`.
    Sparse(FxHashMap<Tuple, (u32, i64)>),
    /// By the group's row in a numbered static seed: how many more body
    /// tuples the group needs (its bound minus its count so far). Shared
    /// with the grid's starting array and with forks until first changed.
    Dense(Arc<Needs>),
    /// A set's groups: the bitmask of the values collected so far.
    Sets(FxHashMap<Tuple, u32>),
    /// A set's groups by their row in a numbered static seed.
    DenseSets(Vec<u32>),
    /// A value aggregate's groups (`sum`, `min`, `max`): the value so far.
    Folds(FxHashMap<Tuple, i64>),
}

/// A set's memoised row: the group's row and the value's bit together
/// (values are at most 30: five bits).
pub(super) fn set_row(row: Value, value: Value) -> Option<u32> {
    let fits = usize::try_from(row).is_ok_and(|r| r < MAX_SET_GROUPS);
    (fits && (1..=MAX_SET_MEMBER).contains(&i64::from(value)))
        .then_some((row as u32) << 5 | value as u32)
}

/// The most groups a set over a numbered static seed can have: its rows
/// share a word with a value's five bits (see [`set_row`]). A seed that
/// large (4 GiB of tuples, only with a raised `--max-facts`) stops the run
/// at the fact limit rather than mix up its groups.
pub(super) const MAX_SET_GROUPS: usize = 1 << 27;

impl Store {
    /// Counts compared with `=`, `<`, ... read only complete relations, so
    /// at the first fixpoint their counters are final: emit their groups.
    pub(super) fn finalize_exact_counts(&mut self, plan: &Plan, statics: &Statics) -> bool {
        let mut any = false;
        for (i, agg) in plan.aggs.iter().enumerate() {
            if self.finalized[i] || agg.grows || matches!(agg.op, CmpOp::Ge | CmpOp::Gt) {
                continue;
            }
            let seeds: Vec<Tuple> = match agg.seed {
                SeedSource::Static(index) => {
                    self.finalized[i] = true;
                    statics.seed(index).iter().collect()
                }
                // Groups that come from the state keep arriving: each
                // fixpoint emits those that arrived since the last one (the
                // body is static, so their counts are complete by then).
                SeedSource::Var(v) => {
                    let all = self.tuples(v);
                    let done = &mut self.finalized_groups[i];
                    all.into_iter().filter(|t| done.insert(*t)).collect()
                }
            };
            let out: Vec<Tuple> = seeds
                .into_iter()
                .enumerate()
                .filter_map(|(row, t)| {
                    let bound = threshold(&agg.bound, &t);
                    // A set's value is its bitmask (empty if nothing matched).
                    let count = match &self.counters[i] {
                        // A group without a value (the least of nothing,
                        // or a sum past the values' range) is left out.
                        Counters::Folds(m) => {
                            let key = key_prefix(&t, agg.key_len);
                            let folded = m.get(&key).copied().or(agg.fold?.empty())?;
                            Value::try_from(folded).ok()? as i64
                        }
                        Counters::Sparse(m) => m
                            .get(&key_prefix(&t, agg.key_len))
                            .map_or(0, |c| c.0 as i64),
                        Counters::Dense(left) => left.get(row).map_or(0, |l| bound - l),
                        Counters::Sets(m) => {
                            m.get(&key_prefix(&t, agg.key_len)).map_or(0, |&s| s as i64)
                        }
                        Counters::DenseSets(sets) => sets.get(row).map_or(0, |&s| s as i64),
                    };
                    let mut key = key_prefix(&t, agg.key_len);
                    if agg.value {
                        super::tuple::set_slot(&mut key, agg.key_len, count as Value);
                        Some(key)
                    } else {
                        agg.op.holds(count, bound).then_some(key)
                    }
                })
                .collect();
            if !out.is_empty() {
                any = true;
                self.insert_var(agg.reached, &out, FactOrigin::unruled(self.step));
            }
        }
        any
    }

    /// Each new body tuple of a count bumps its group's counter once; a
    /// group is reached when its counter hits the bound.
    pub(super) fn bump_counters(&mut self, agg: usize, tuples: &[Tuple], plan: &Plan) {
        let a = &plan.aggs[agg];
        let monotone = matches!(a.op, CmpOp::Ge | CmpOp::Gt);
        let mut reached = std::mem::take(&mut self.reached_buf);
        reached.clear();
        match &mut self.counters[agg] {
            Counters::Sparse(counters) => {
                for t in tuples {
                    let key = key_prefix(t, a.key_len);
                    let (count, bound) = counters
                        .entry(key)
                        .or_insert_with(|| (0, threshold(&a.bound, &key)));
                    *count += 1;
                    if monotone && *count as i64 == *bound {
                        reached.push(key);
                    }
                }
            }
            Counters::Folds(values) => {
                let (slot, fold) = (a.elem_slot.unwrap_or_default(), a.fold);
                let mut touched = FxHashSet::default();
                for t in tuples {
                    let x = i64::from(super::tuple::slot(t, slot));
                    let key = key_prefix(t, a.key_len);
                    let acc = values.entry(key);
                    let before = match &acc {
                        std::collections::hash_map::Entry::Occupied(o) => Some(*o.get()),
                        std::collections::hash_map::Entry::Vacant(_) => None,
                    };
                    let folded = fold.map_or(x, |f| f.step(before, x));
                    *acc.or_insert(folded) = folded;
                    if a.grows && before != Some(folded) && touched.insert(key) {
                        reached.push(key);
                    }
                }
                // Over the state, a value that grew is emitted once a
                // batch, as it ends up (a sum past the values' range has
                // no value, and stops); over static relations, once
                // complete, by `finalize_exact_counts`.
                reached.retain_mut(|fact| {
                    let folded = values.get(fact).copied();
                    match folded.and_then(|v| Value::try_from(v).ok()) {
                        Some(v) => {
                            super::tuple::set_slot(fact, a.key_len, v);
                            true
                        }
                        None => false,
                    }
                });
            }
            Counters::Sets(sets) => {
                let slot = a.elem_slot.unwrap_or_default();
                let mut touched = FxHashSet::default();
                for t in tuples {
                    let x = super::tuple::slot(t, slot);
                    // Numbers outside 1..=30 have no bit (see the README).
                    if !(1..=MAX_SET_MEMBER).contains(&i64::from(x)) {
                        continue;
                    }
                    let key = key_prefix(t, a.key_len);
                    let set = sets.entry(key).or_insert(0);
                    let grown = *set | 1 << x;
                    if grown != *set {
                        *set = grown;
                        if touched.insert(key) {
                            reached.push(key);
                        }
                    }
                }
                // A set that grew is emitted once a batch, as it ends up.
                if a.grows {
                    for fact in &mut reached {
                        let set = sets.get(fact).copied().unwrap_or_default();
                        super::tuple::set_slot(fact, a.key_len, set as Value);
                    }
                } else {
                    reached.clear();
                }
            }
            Counters::DenseSets(sets) => {
                let (row_slot, elem_slot) = (
                    a.row_slot.unwrap_or_default(),
                    a.elem_slot.unwrap_or_default(),
                );
                let mut keys = FxHashMap::default();
                let rows: Vec<u32> = tuples
                    .iter()
                    .filter_map(|t| {
                        let row = super::tuple::slot(t, row_slot);
                        keys.entry(row as usize)
                            .or_insert_with(|| key_prefix(t, a.key_len));
                        set_row(row, super::tuple::slot(t, elem_slot))
                    })
                    .collect();
                let grown = grow_sets(sets, &rows);
                grown_facts(sets, &grown, a, |row| keys.get(&row).copied(), &mut reached);
            }
            Counters::Dense(shared) => {
                let slot = a.row_slot.unwrap_or_default();
                let rows = tuples.iter().map(|t| super::tuple::slot(t, slot) as usize);
                // A numbered seed's row is its group's key.
                Arc::make_mut(shared).count_down(rows, monotone, |i| {
                    reached.push(key_prefix(&tuples[i], a.key_len));
                });
            }
        }
        if !reached.is_empty() {
            self.insert_var(a.reached, &reached, FactOrigin::unruled(self.step));
        }
        self.reached_buf = reached;
    }

    /// Runs count chain `c` (see [`plan::CountChain`]) on its input's new
    /// tuples: replays (or computes and memoises) the counter rows each one
    /// bumps, and bumps them.
    pub(super) fn run_count_chain(&mut self, c: usize, plan: &Plan, statics: &Statics) {
        let chain = &plan.count_chains[c];
        let Some(Op::Extend { source, .. }) = chain.ops.first().map(|&h| &plan.ops[h]) else {
            return;
        };
        let agg = &plan.aggs[chain.agg];
        let (Some(row_slot), SeedSource::Static(seed)) = (agg.row_slot, agg.seed) else {
            return;
        };
        let piped = self.take_pipe(*source, plan);
        let monotone = matches!(agg.op, CmpOp::Ge | CmpOp::Gt);
        let seeds = statics.seed(seed);
        // A chain always ends in an array count or set (see
        // `find_count_chains`).
        let (mut left, sets) = match &mut self.counters[chain.agg] {
            Counters::Dense(shared) => (Some(Arc::make_mut(shared)), None),
            Counters::DenseSets(sets) => (None, Some(sets)),
            Counters::Sparse(_) | Counters::Sets(_) | Counters::Folds(_) => {
                self.return_pipe(*source, piped);
                return;
            }
        };
        let mut set_rows: Vec<u32> = Vec::new();
        let mut reached = std::mem::take(&mut self.reached_buf);
        reached.clear();
        {
            let recent = self.vars[*source].recent();
            let input = piped.as_deref().unwrap_or(&recent.elements);
            let lookups = Lookups::new(statics, &self.vars, plan, self.step);
            let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
            // One input's fan-out is bounded like an operator's output.
            let room = self.op_room;
            let cut = std::cell::Cell::new(false);
            let compute = |t: &Tuple, rows: &mut Vec<u32>| {
                let (mut tuples, mut next) = (vec![*t], Vec::new());
                for &at in &chain.ops {
                    if let Some(ext) = Extension::of(&plan.ops[at], statics) {
                        extend_into(&tuples, &ext, &absent, room, &mut next);
                        if next.len() >= room {
                            cut.set(true);
                        }
                        std::mem::swap(&mut tuples, &mut next);
                        next.clear();
                    }
                }
                let slot = super::tuple::slot;
                match agg.elem_slot {
                    None => rows.extend(tuples.iter().map(|o| slot(o, row_slot) as u32)),
                    Some(e) => rows.extend(
                        tuples
                            .iter()
                            .filter_map(|o| set_row(slot(o, row_slot), slot(o, e))),
                    ),
                }
            };
            let bump = |rows: &[u32]| match left.as_deref_mut() {
                Some(left) => {
                    let each = rows.iter().map(|&row| row as usize);
                    left.count_down(each, monotone, |i| {
                        // A numbered seed's row is its group's key.
                        if let Some(t) = seeds.get(rows[i] as usize) {
                            reached.push(key_prefix(&t, agg.key_len));
                        }
                    });
                }
                // A set's rows are gathered, so that a group that grows
                // several times in a round is emitted once.
                None => set_rows.extend_from_slice(rows),
            };
            memo::rows_memoised(statics.memo_scope, c as u32, input, compute, bump);
            if let Some(sets) = sets {
                let grown = grow_sets(sets, &set_rows);
                let key = |row: usize| seeds.get(row).map(|t| key_prefix(&t, agg.key_len));
                grown_facts(sets, &grown, agg, key, &mut reached);
            }
            if cut.get() {
                // The memo now holds a cut input's rows: a later run must
                // not replay them as if they were whole.
                memo::forget();
                self.overflowed = true;
            }
        }
        self.return_pipe(*source, piped);
        if !reached.is_empty() {
            self.insert_var(agg.reached, &reached, FactOrigin::unruled(self.step));
        }
        self.reached_buf = reached;
    }
}

/// The groups of a count over a numbered static seed whose starting
/// counter (bound minus count) is already at most zero.
pub fn reached_at_start(left: &Needs, seeds: SeedRows, key_len: usize) -> Vec<Tuple> {
    left.satisfied()
        .into_iter()
        .filter_map(|row| seeds.get(row))
        .map(|t| key_prefix(&t, key_len))
        .collect()
}

/// Adds each set row's value to its group's set (see [`set_row`]) and
/// returns the rows whose set grew, once each.
fn grow_sets(sets: &mut [u32], rows: &[u32]) -> Vec<usize> {
    let mut grown = Vec::new();
    for &r in rows {
        let (row, bit) = ((r >> 5) as usize, r & 31);
        let Some(set) = sets.get_mut(row) else {
            continue;
        };
        let bigger = *set | 1 << bit;
        if bigger != *set {
            if *set & 1 == 0 {
                // Bit 0 is never a member: here it marks a row listed.
                grown.push(row);
            }
            *set = bigger | 1;
        }
    }
    for &row in &grown {
        sets[row] &= !1;
    }
    grown
}

/// The facts of a growing set's groups `rows` (their keys from `key`, each
/// with its set).
fn grown_facts(
    sets: &[u32],
    rows: &[usize],
    a: &plan::PlanAgg,
    key: impl Fn(usize) -> Option<Tuple>,
    out: &mut Vec<Tuple>,
) {
    if !a.grows {
        return;
    }
    for &row in rows {
        if let Some(mut fact) = key(row) {
            super::tuple::set_slot(&mut fact, a.key_len, sets[row] as Value);
            out.push(fact);
        }
    }
}

/// Each group's bound, for a count over a numbered static seed.
pub fn counter_init(statics: &Statics, seed: IndexId, agg: &plan::PlanAgg) -> Needs {
    let seeds = statics.seed(seed);
    let bounds = seeds.iter().map(|t| threshold(&agg.bound, &t));
    Needs::new(bounds, seeds.len(), matches!(agg.op, CmpOp::Ge | CmpOp::Gt))
}

/// The value of a count's bound for a group (key slots of a flat tuple).
pub(super) fn threshold(bound: &plan::CExpr, key: &Tuple) -> i64 {
    let zero: Half = [0; HALF];
    let f = Frame::new(key, &zero);
    bound.eval_in(&f).map_or(i64::MAX, |v| v as i64)
}

pub(super) fn key_prefix(t: &Tuple, len: usize) -> Tuple {
    let mut k = *t;
    for i in len..super::tuple::SLOTS {
        super::tuple::set_slot(&mut k, i, 0 as Value);
    }
    k
}

#[cfg(test)]
mod set_row_tests {
    use super::*;

    #[test]
    fn a_set_row_holds_its_group_and_value_or_nothing() {
        assert_eq!(set_row(3, 7), Some(3 << 5 | 7));
        // No bit for a value outside 1..=30, no room for a row past the bound.
        assert_eq!(set_row(3, 0), None);
        assert_eq!(set_row(3, 31), None);
        assert_eq!(set_row(MAX_SET_GROUPS as Value - 1, 30), Some(u32::MAX - 1));
        assert_eq!(set_row(MAX_SET_GROUPS as Value, 1), None);
        assert_eq!(set_row(-1, 1), None);
    }
}
