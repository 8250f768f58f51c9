//! Indexes computed on demand instead of stored.
//!
//! - `covers(M, T)` is a function of the grid size alone (T a set of up
//!   to four numbers, M any set holding every number outside T), and
//!   stored it is the largest static relation by far (222,050 tuples on
//!   25x25, twice that while its index is sorted). Where the plans only
//!   look it up (an extension by a key, or a negation's probe), the lookup
//!   computes the matching tuples; where a plan loads it whole (a seed, a
//!   variable), it is stored as before.
//! - `in_set(D, S)` looked up by its set is computed always: a set that a
//!   rule computed (`S = set X : {...}`, `F - H`) may hold any of the
//!   numbers 1 to 30, far beyond the sets of up to four that the stored
//!   relation enumerates, and its members must be found all the same.

use super::plan::{IndexId, IndexSpec, Op, Plan, SeedSource};
use super::tuple::{EMPTY, Half, Tuple, flat, slot};
use crate::lang::program::{MAX_SET, RelId, Value};
use crate::lang::value::MAX_SET_MEMBER;
use rustc_hash::{FxHashMap, FxHashSet};

/// Which built-in a computed index answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Computed {
    /// `covers(m, t)`, by either column.
    Covers,
    /// `in_set(d, s)`, by its set (`s` bound).
    InSet,
}

/// An index of `covers` or `in_set` whose lookups are computed for a grid
/// of `n` digits.
#[derive(Clone, Debug)]
pub struct ComputedIndex {
    spec: IndexSpec,
    which: Computed,
    /// Bits `1..=n`: every number of the grid.
    all: Value,
}

/// Bits `1..=MAX_SET_MEMBER`: every number a set can hold.
const SET_BITS: Value = ((1i64 << (MAX_SET_MEMBER + 1)) - 2) as Value;

impl ComputedIndex {
    /// The index `spec` of `covers` (or `in_set`) for a grid of `n` digits.
    pub fn new(spec: IndexSpec, which: Computed, n: usize) -> ComputedIndex {
        let all = (1..=n as Value).fold(0, |m, d| m | 1 << d);
        ComputedIndex { spec, which, all }
    }

    /// Whether the flat fact `(a, b)` holds.
    fn holds(&self, a: Value, b: Value) -> bool {
        match self.which {
            Computed::Covers => self.covers(a, b),
            Computed::InSet => {
                (1..=MAX_SET_MEMBER as Value).contains(&a) && b & SET_BITS & (1 << a) != 0
            }
        }
    }

    /// Whether `(m, t)` is a fact of `covers`: `t` is a set of 1 to
    /// [`MAX_SET`] numbers of the grid, and `m`, also within the grid,
    /// holds every number outside `t`.
    fn covers(&self, m: Value, t: Value) -> bool {
        let within = |s: Value| s & !self.all == 0;
        t != 0
            && within(t)
            && within(m)
            && t.count_ones() as usize <= MAX_SET
            && (self.all & !t) & !m == 0
    }

    /// The value halves the index holds under `key`, in its layout, into
    /// `out` (cleared first, sorted, without repeats): the flat facts
    /// `(m, t)` that agree with the key (the index's key columns bound to
    /// it). Called once per looked-up tuple, so it allocates nothing
    /// beyond `out`.
    pub fn values_into(&self, key: &Half, out: &mut Vec<Half>) {
        out.clear();
        let bound = |col: usize| (self.spec.key.iter().position(|&c| c == col)).map(|i| key[i]);
        let mut push = |a: Value, b: Value| {
            let f = flat(&[a, b]);
            if self.holds(a, b) && self.spec.accepts(&f) {
                out.push(self.spec.layout(&f).1);
            }
        };
        match (self.which, bound(0), bound(1)) {
            (_, Some(a), Some(b)) => push(a, b),
            (Computed::Covers, Some(m), None) => self.each_set_covered_by(m, &mut |t| push(m, t)),
            (Computed::Covers, None, Some(t)) => self.each_set_covering(t, &mut |m| push(m, t)),
            (Computed::InSet, None, Some(s)) => {
                let mut rest = s & SET_BITS;
                while rest != 0 {
                    push(rest.trailing_zeros() as Value, s);
                    rest &= rest - 1;
                }
            }
            // `computed_indexes` computes no `in_set` index keyed on its
            // member alone: the sets holding it are not to be listed.
            (_, _, None) => {}
        }
        out.sort_unstable();
        out.dedup();
    }

    /// [`ComputedIndex::values_into`] into a new vector.
    #[cfg(test)]
    fn values(&self, key: &Half) -> Vec<Half> {
        let mut out = Vec::new();
        self.values_into(key, &mut out);
        out
    }

    /// Each `t` with `covers(m, t)`: the numbers missing from `m`, with
    /// any of `m`'s own added, up to [`MAX_SET`] in all (the empty set
    /// too, which `covers` then refuses).
    fn each_set_covered_by(&self, m: Value, f: &mut impl FnMut(Value)) {
        let missing = self.all & !m;
        if missing.count_ones() as usize > MAX_SET || m & !self.all != 0 {
            return;
        }
        let room = MAX_SET - missing.count_ones() as usize;
        add_up_to(m, room, missing, f);
    }

    /// Each `m` with `covers(m, t)`: the numbers outside `t` and any part
    /// of `t`.
    fn each_set_covering(&self, t: Value, f: &mut impl FnMut(Value)) {
        let outside = self.all & !t;
        let mut part = t;
        loop {
            f(outside | part);
            if part == 0 {
                break;
            }
            part = (part - 1) & t;
        }
    }

    /// Whether a tuple, in the index's layout, is missing from it.
    pub fn absent(&self, t: &Tuple) -> bool {
        let mut f = EMPTY;
        let place = |f: &mut Tuple, col: usize, v: Value| {
            if col < super::tuple::HALF {
                f.0[col] = v;
            } else {
                f.1[col - super::tuple::HALF] = v;
            }
        };
        for (i, &c) in self.spec.key.iter().enumerate() {
            place(&mut f, c, t.0[i]);
        }
        for (i, &c) in self.spec.val.iter().enumerate() {
            place(&mut f, c, t.1[i]);
        }
        !(self.holds(slot(&f, 0), slot(&f, 1)) && self.spec.accepts(&f))
    }
}

/// Each set `base | extra` for `extra` a set of the bits of `members`, at
/// most `room` of them (recursion at most `room` deep).
fn add_up_to(members: Value, room: usize, base: Value, f: &mut impl FnMut(Value)) {
    f(base);
    if room == 0 {
        return;
    }
    let mut rest = members;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        rest &= !low;
        add_up_to(rest, room - 1, base | low, f);
    }
}

/// The indexes that lookups compute, with the built-in each answers for:
/// those of `covers` (relation `covers`) that the plans only look up, not
/// loaded into a variable, not a count's seed, and keyed on a column (a
/// lookup binds it); and every index of `in_set` (relation `in_set`)
/// keyed on its set and not loaded whole, so that its members are found
/// in any set.
pub fn computed_indexes<'p>(
    covers: RelId,
    in_set: RelId,
    specs: &[IndexSpec],
    plans: impl Iterator<Item = &'p Plan>,
) -> FxHashMap<IndexId, Computed> {
    let mut stored: FxHashSet<IndexId> = FxHashSet::default();
    let mut covers_loaded = false;
    for plan in plans {
        stored.extend(plan.loads.iter().map(|&(index, _)| index));
        for a in &plan.aggs {
            if let SeedSource::Static(index) = a.seed {
                stored.insert(index);
            }
        }
        // Loaded whole: every index of it may as well be stored.
        covers_loaded |= plan.base_loads.iter().any(|&(r, _)| r == covers);
        for op in &plan.ops {
            if let Op::Extend { index, key, .. } = op
                && key.is_empty()
            {
                stored.insert(*index);
            }
        }
    }
    let which = |s: &IndexSpec| match s.rel {
        r if r == covers && !covers_loaded && !s.key.is_empty() => Some(Computed::Covers),
        r if r == in_set && s.key.contains(&1) => Some(Computed::InSet),
        _ => None,
    };
    (specs.iter().enumerate())
        .filter(|(id, _)| !stored.contains(id))
        .filter_map(|(id, s)| Some((id, which(s)?)))
        .collect()
}

/// The computed indexes of one grid size, by index id.
pub type ComputedIndexes = FxHashMap<IndexId, ComputedIndex>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::facts::base_facts;
    use crate::grid::Geometry;
    use crate::lang::program::Builtin;
    use crate::lang::symbols::Symbols;
    use std::collections::BTreeMap;

    /// An index of a two-column relation keyed on column `key`, the
    /// other column its value.
    fn keyed_on(key: usize) -> IndexSpec {
        IndexSpec {
            rel: 0,
            key: vec![key],
            val: vec![1 - key],
            consts: Vec::new(),
            eqs: Vec::new(),
        }
    }

    /// The stored index a spec would give: the flat facts, filtered and
    /// laid out, grouped by key.
    fn stored(spec: &IndexSpec, facts: &[Tuple]) -> BTreeMap<Half, Vec<Half>> {
        let mut by_key: BTreeMap<Half, Vec<Half>> = BTreeMap::new();
        for f in facts.iter().filter(|f| spec.accepts(f)) {
            let t = spec.layout(f);
            by_key.entry(t.0).or_default().push(t.1);
        }
        for v in by_key.values_mut() {
            v.sort_unstable();
        }
        by_key
    }

    #[test]
    fn lookups_give_what_the_stored_index_holds() {
        for g in Geometry::all().filter(|g| g.n <= 9) {
            let facts = base_facts(Builtin::Covers, &g, None, &Symbols::new(), &[]);
            for spec in [keyed_on(0), keyed_on(1)] {
                let computed = ComputedIndex::new(spec.clone(), Computed::Covers, g.n);
                let index = stored(&spec, &facts);
                for (key, values) in &index {
                    assert_eq!(&computed.values(key), values, "n={} key {key:?}", g.n);
                    for v in values {
                        assert!(!computed.absent(&(*key, *v)));
                    }
                }
                // Keys the index lacks propose nothing, and a tuple it
                // lacks is absent: a set outside the grid, an empty one.
                for m in [0, 1 << 30, (1 << (g.n + 1)) | 2] {
                    let key = [m, 0, 0, 0];
                    if !index.contains_key(&key) {
                        assert!(computed.values(&key).is_empty(), "n={} key {m}", g.n);
                    }
                }
                assert!(computed.absent(&([0, 0, 0, 0], [0, 0, 0, 0])));
            }
        }
    }

    #[test]
    fn in_set_lookups_find_the_members_of_any_set() {
        let computed = ComputedIndex::new(keyed_on(1), Computed::InSet, 9);
        // Nine members, beyond the four of the stored sets; bit 0 and the
        // sign bit are no members.
        let set: Value = (1..=9).fold(1, |m, d| m | 1 << d) | i32::MIN;
        let members: Vec<Value> = computed
            .values(&[set, 0, 0, 0])
            .iter()
            .map(|h| h[0])
            .collect();
        assert_eq!(members, (1..=9).collect::<Vec<_>>());
        assert!(!computed.absent(&([set, 0, 0, 0], [9, 0, 0, 0])));
        assert!(computed.absent(&([set, 0, 0, 0], [10, 0, 0, 0])));
        assert!(computed.absent(&([set, 0, 0, 0], [0, 0, 0, 0])));
        // 30 is the largest member a set holds.
        let high: Value = 1 << 30;
        assert_eq!(computed.values(&[high, 0, 0, 0]), vec![[30, 0, 0, 0]]);
        assert!(computed.values(&[0, 0, 0, 0]).is_empty());
    }
}
