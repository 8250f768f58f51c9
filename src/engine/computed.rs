//! Indexes computed on demand instead of stored: `covers(M, T)` is a
//! function of the grid size alone (T a set of up to four numbers, M any
//! set holding every number outside T), and stored it is the largest
//! static relation by far (222,050 tuples on 25x25, twice that while its
//! index is sorted). Where the plans only look it up (an extension by a
//! key, or a negation's probe), the lookup computes the matching tuples;
//! where a plan loads it whole (a seed, a variable), it is stored as
//! before.

use super::plan::{IndexId, IndexSpec, Op, Plan, SeedSource};
use super::tuple::{EMPTY, Half, Tuple, flat, slot};
use crate::lang::program::{MAX_SET, RelId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// A `covers` index whose lookups are computed for a grid of `n` digits.
#[derive(Clone, Debug)]
pub struct ComputedIndex {
    spec: IndexSpec,
    /// Bits `1..=n`: every number of the grid.
    all: Value,
}

impl ComputedIndex {
    /// The index `spec` of `covers` for a grid of `n` digits.
    pub fn new(spec: IndexSpec, n: usize) -> ComputedIndex {
        let all = (1..=n as Value).fold(0, |m, d| m | 1 << d);
        ComputedIndex { spec, all }
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
        let mut push = |m: Value, t: Value| {
            let f = flat(&[m, t]);
            if self.covers(m, t) && self.spec.accepts(&f) {
                out.push(self.spec.layout(&f).1);
            }
        };
        match (bound(0), bound(1)) {
            (Some(m), Some(t)) => push(m, t),
            (Some(m), None) => self.each_set_covered_by(m, &mut |t| push(m, t)),
            (None, Some(t)) => self.each_set_covering(t, &mut |m| push(m, t)),
            (None, None) => {}
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
        !(self.covers(slot(&f, 0), slot(&f, 1)) && self.spec.accepts(&f))
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

/// The indexes of `covers` (relation `rel`) that the plans only look up,
/// so that they are computed: not loaded into a variable, not a count's
/// seed, and keyed on a column (a lookup binds it).
pub fn computed_indexes<'p>(
    rel: RelId,
    specs: &[IndexSpec],
    plans: impl Iterator<Item = &'p Plan>,
) -> FxHashSet<IndexId> {
    let mut stored: FxHashSet<IndexId> = FxHashSet::default();
    for plan in plans {
        stored.extend(plan.loads.iter().map(|&(index, _)| index));
        for a in &plan.aggs {
            if let SeedSource::Static(index) = a.seed {
                stored.insert(index);
            }
        }
        if plan.base_loads.iter().any(|&(r, _)| r == rel) {
            // Loaded whole: every index of it may as well be stored.
            return FxHashSet::default();
        }
        for op in &plan.ops {
            if let Op::Extend { index, key, .. } = op
                && key.is_empty()
            {
                stored.insert(*index);
            }
        }
    }
    (specs.iter().enumerate())
        .filter(|(id, s)| s.rel == rel && !s.key.is_empty() && !stored.contains(id))
        .map(|(id, _)| id)
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
            let by_m = IndexSpec {
                rel: 0,
                key: vec![0],
                val: vec![1],
                consts: Vec::new(),
                eqs: Vec::new(),
            };
            let by_t = IndexSpec {
                key: vec![1],
                val: vec![0],
                ..by_m.clone()
            };
            for spec in [by_m, by_t] {
                let computed = ComputedIndex::new(spec.clone(), g.n);
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
}
