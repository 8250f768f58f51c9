//! Static relations: what rules derive without looking at the state
//! (geometry, and per puzzle the givens), computed stratum by stratum before
//! the fixpoint, with the indexes the plans read built from them. Those of
//! a grid size (or a jigsaw's region map) are computed by its first puzzle
//! and cached; a puzzle adds its givens' strata to a copy. Apart from the
//! store because they are complete before any round runs and shared,
//! read-only, by every branch.

use super::clues::ClueTuples;
use super::computed::{ComputedIndex, ComputedIndexes};
use super::needs::Needs;
use super::plan::{self, IndexId, IndexSpec};
use super::seeds::{self, ProductSeed, SeedRows};
use super::store::{self, RunEnd, Store};
use super::tuple::{self, Key, Tuple};
use super::{Engine, REGION_CACHE_SIZE, facts, memo};
use crate::grid::Geometry;
use crate::lang::program::{RelId, Value};
use crate::lang::value::CmpOp;
use datafrog::Relation;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Complete static relations (flat) and the indexes built from them.
#[derive(Clone, Default)]
pub struct Statics {
    /// The memo scope of these indexes (see `engine::memo`); 0 for none.
    pub memo_scope: u64,
    /// By engine relation id.
    pub rels: Vec<Option<Arc<Relation<Tuple>>>>,
    /// By index id.
    pub indexes: Vec<Option<Arc<Relation<Tuple>>>>,
    /// The indexes computed on demand instead (see `engine::computed`).
    pub computed: ComputedIndexes,
    /// The indexes that negations probe, as hash sets (by index id): a
    /// probe per candidate binding is the hottest check of the counts over
    /// digit sets, and hashing beats a binary search there.
    pub probe_sets: Vec<Option<Arc<FxHashSet<Key>>>>,
    /// The starting array counters of counts over numbered static seeds,
    /// by the seed's index: each group's bound. Shared copy-on-write by
    /// every store of the grid size.
    pub counter_init: FxHashMap<IndexId, Arc<Needs>>,
    /// The groups of those counts reached before any body tuple (a bound
    /// of zero or less), by the seed's index: what every new store starts
    /// with in the count's `reached` relation.
    pub reached_at_start: FxHashMap<IndexId, Arc<Vec<Tuple>>>,
    /// A static relation that hit the fact limit (a runaway rule), if any:
    /// solves with these statics stop at once and name it.
    pub overflow: Option<String>,
    /// The seeds kept as products of their parts, by the seed's flat index.
    pub products: FxHashMap<IndexId, Arc<ProductSeed>>,
    /// The deadline of the solve that computed these statics passed before
    /// they were complete: that solve stops at once with a timeout, and the
    /// statics are not cached for the next puzzle.
    pub timed_out: bool,
}

static NO_TUPLES: Relation<Tuple> = Relation {
    elements: Vec::new(),
};

impl Statics {
    /// An index (empty if it was never built, which a correct plan avoids).
    pub fn index_tuples(&self, id: IndexId) -> &Relation<Tuple> {
        self.indexes
            .get(id)
            .and_then(|r| r.as_deref())
            .unwrap_or(&NO_TUPLES)
    }

    /// The groups of a count over a numbered static seed (its flat index).
    pub fn seed(&self, id: IndexId) -> SeedRows<'_> {
        match self.products.get(&id) {
            Some(p) => SeedRows::Product(p),
            None => SeedRows::Stored(self.index_tuples(id)),
        }
    }

    /// Whether a static seed is complete (stored or as a product).
    pub fn has_seed(&self, id: IndexId) -> bool {
        self.products.contains_key(&id) || self.indexes.get(id).is_some_and(|i| i.is_some())
    }

    /// Whether a tuple is absent from an index.
    pub fn absent(&self, id: IndexId, t: &Tuple) -> bool {
        if let Some(c) = self.computed.get(&id) {
            return c.absent(t);
        }
        match self.probe_sets.get(id) {
            Some(Some(set)) => !set.contains(&Key(*t)),
            _ => self.index_tuples(id).binary_search(t).is_err(),
        }
    }
}

/// What a puzzle brings to the static relations: its jigsaw regions, its
/// givens and its clue facts (no givens and no clues for the statics a
/// grid size shares).
#[derive(Clone, Copy)]
pub(super) struct PuzzleInput<'a> {
    /// The jigsaw's region map, if any.
    pub regions: Option<&'a [u8]>,
    /// The givens, row-major (0 = empty).
    pub cells: &'a [u8],
    /// The clue facts of its `.input` relations.
    pub clues: &'a ClueTuples,
}

impl Engine {
    /// The facts a relation starts with: a built-in's from the grid (and
    /// the givens), an `.input`'s from the puzzle's clues.
    pub(super) fn base_facts(
        &self,
        rel: RelId,
        g: &Geometry,
        input: PuzzleInput<'_>,
    ) -> Vec<Tuple> {
        let Some(relation) = self.program.relations.get(rel) else {
            return Vec::new();
        };
        match relation.builtin {
            Some(b) => facts::base_facts(b, g, input.regions, &self.program.symbols, input.cells),
            None if relation.input.is_some() => input.clues.of(rel),
            None => Vec::new(),
        }
    }

    /// Builds every index whose relation is complete.
    fn build_indexes(&self, st: &mut Statics) {
        st.indexes.resize(self.indexes.specs.len(), None);
        for (id, spec) in self.indexes.specs.iter().enumerate() {
            if st.indexes[id].is_some() || self.computed.contains_key(&id) {
                continue;
            }
            if let Some(Some(rel)) = st.rels.get(spec.rel) {
                // A flat index is the relation itself (sorted the same
                // way): share it rather than copy it (the counts' groups
                // are most of the statics).
                let flat = *spec == IndexSpec::flat(spec.rel, self.lowered.rels[spec.rel].arity);
                let index: Arc<datafrog::Relation<Tuple>> = if flat {
                    rel.clone()
                } else {
                    let v: Vec<Tuple> = rel
                        .iter()
                        .filter(|t| spec.accepts(t))
                        .map(|t| spec.layout(t))
                        .collect();
                    let mut index: datafrog::Relation<Tuple> = v.into();
                    // Filtered, it grew by doubling: give back the slack
                    // (a tenth of the statics on 25x25).
                    index.elements.shrink_to_fit();
                    Arc::new(index)
                };
                if self.indexes.probed.contains(&id) {
                    if st.probe_sets.len() <= id {
                        st.probe_sets.resize(id + 1, None);
                    }
                    st.probe_sets[id] =
                        Some(Arc::new(index.iter().map(|t| tuple::Key(*t)).collect()));
                }
                st.indexes[id] = Some(index);
            }
        }
    }

    pub(super) fn run_stages(
        &self,
        st: &mut Statics,
        g: &Geometry,
        input: PuzzleInput<'_>,
        per_puzzle: bool,
        deadline: Option<Instant>,
    ) {
        for stage in self.stages.iter().filter(|s| s.per_puzzle == per_puzzle) {
            self.build_indexes(st);
            let base = |r: RelId| self.base_facts(r, g, input);
            let mut store = Store::new(&stage.plan, st, &base);
            // Static strata have no contradiction to watch; a runaway is
            // cut by the fact limit, and every solve with these statics
            // then reports the relation that grew.
            let limits = store::RunLimits {
                facts: self.fact_limit,
                deadline,
            };
            match store.run(&stage.plan, st, None, limits, None, None) {
                RunEnd::FactLimit if st.overflow.is_none() => {
                    st.overflow = Some(self.describe(store.largest_relation(&stage.plan)));
                }
                RunEnd::Timeout => {
                    // Later strata would read this one's partial relations.
                    st.timed_out = true;
                    return;
                }
                _ => {}
            }
            for &m in &stage.members {
                let var = stage.plan.rel_var[&m];
                let mut tuples = store.tuples(var);
                if let Some(&key_len) = self.numbered.get(&m) {
                    // Row numbers in sorted order: counters become arrays.
                    for (row, t) in tuples.iter_mut().enumerate() {
                        tuple::set_slot(t, key_len, row as Value);
                    }
                }
                st.rels[m] = Some(Arc::new(tuples.into()));
            }
        }
        self.build_indexes(st);
    }

    /// Computes the starting array counters of the fixpoint's counts whose
    /// seeds are complete and not yet done.
    pub(super) fn init_counters(&self, st: &mut Statics) {
        for a in &self.dynamic.aggs {
            if let (Some(_), plan::SeedSource::Static(index)) = (a.row_slot, a.seed)
                && !st.counter_init.contains_key(&index)
                && st.has_seed(index)
            {
                let init = store::counter_init(st, index, a);
                if matches!(a.op, CmpOp::Ge | CmpOp::Gt) {
                    let reached = store::reached_at_start(&init, st.seed(index), a.key_len);
                    st.reached_at_start.insert(index, Arc::new(reached));
                }
                st.counter_init.insert(index, Arc::new(init));
            }
        }
    }

    /// Static relations for a grid size (and a jigsaw's region map),
    /// computed once and cached (unless `deadline` cut them short).
    pub(super) fn geometry_statics(
        &self,
        g: &Geometry,
        regions: Option<&[u8]>,
        deadline: Option<Instant>,
    ) -> Arc<Statics> {
        let Some(map) = regions else {
            let slot = g.box_size.saturating_sub(2).min(3);
            let mut cached = lock_ignoring_poison(&self.geometry_cache[slot]);
            if let Some(st) = &*cached {
                return st.clone();
            }
            let st = Arc::new(self.compute_geometry_statics(g, None, deadline));
            if !st.timed_out {
                *cached = Some(st.clone());
            }
            return st;
        };
        if let Some(st) = lock_ignoring_poison(&self.region_cache).get(map) {
            return st.clone();
        }
        let st = Arc::new(self.compute_geometry_statics(g, Some(map), deadline));
        if st.timed_out {
            return st;
        }
        let mut cache = lock_ignoring_poison(&self.region_cache);
        // Jigsaw files often give every puzzle its own map: keep a few.
        if cache.len() >= REGION_CACHE_SIZE {
            cache.clear();
        }
        cache.insert(map.to_vec(), st.clone());
        st
    }

    fn compute_geometry_statics(
        &self,
        g: &Geometry,
        regions: Option<&[u8]>,
        deadline: Option<Instant>,
    ) -> Statics {
        let mut st = Statics {
            memo_scope: memo::new_scope(),
            overflow: None,
            timed_out: false,
            products: FxHashMap::default(),
            rels: vec![None; self.lowered.rels.len()],
            indexes: Vec::new(),
            probe_sets: Vec::new(),
            computed: (self.computed.iter())
                .map(|(&id, &which)| {
                    let spec = self.indexes.specs[id].clone();
                    (id, ComputedIndex::new(spec, which, g.n))
                })
                .collect(),
            counter_init: FxHashMap::default(),
            reached_at_start: FxHashMap::default(),
        };
        // A relation whose every index is computed is never stored.
        let computed_only = |id: RelId| {
            let mut specs = self
                .indexes
                .specs
                .iter()
                .enumerate()
                .filter(|(_, s)| s.rel == id);
            self.computed
                .keys()
                .any(|&c| self.indexes.specs[c].rel == id)
                && specs.all(|(i, _)| self.computed.contains_key(&i))
        };
        for (id, rel) in self.program.relations.iter().enumerate() {
            if rel.builtin.is_some() && !rel.dynamic && !rel.per_puzzle {
                let defined = self.stages.iter().any(|s| s.members.contains(&id));
                if !defined && !computed_only(id) {
                    let none = ClueTuples::default();
                    let input = PuzzleInput {
                        regions,
                        cells: &[],
                        clues: &none,
                    };
                    let facts = self.base_facts(id, g, input);
                    st.rels[id] = Some(Arc::new(facts.into()));
                }
            }
        }
        let none = ClueTuples::default();
        let shared = PuzzleInput {
            regions,
            cells: &[],
            clues: &none,
        };
        self.run_stages(&mut st, g, shared, false, deadline);
        if !st.timed_out {
            self.build_products(&mut st);
            self.init_counters(&mut st);
            self.drop_unread_sets(&mut st);
        }
        st
    }

    /// Drops the flat copies of the digit-set built-ins that only indexes
    /// of another layout read (every index is built by now): `covers` alone
    /// is 222,050 tuples on 25x25. [`Solve::static_relation`] makes them
    /// again for inspection, once per grid size: they depend on it alone.
    fn drop_unread_sets(&self, st: &mut Statics) {
        for (id, rel) in self.program.relations.iter().enumerate() {
            let size_only = rel.builtin.is_some_and(|b| b.info().indexes_only);
            let flat = plan::IndexSpec::flat(id, self.lowered.rels[id].arity);
            if size_only && self.indexes.find(&flat).is_none() {
                st.rels[id] = None;
            }
        }
    }

    /// Puts together the product seeds from their parts (computed by the
    /// static strata, numbered 0, 1, ...): each part renumbered with its
    /// stride, and its indexes built again.
    fn build_products(&self, st: &mut Statics) {
        for def in &self.lowered.products {
            let parts: Option<Vec<_>> = def
                .parts
                .iter()
                .map(|p| Some((st.rels[p.rel].clone()?, p.key_pos.clone())))
                .collect();
            let Some(parts) = parts else {
                continue;
            };
            let key_len = self.lowered.rels[def.seed].arity - 1;
            let max = usize::try_from(self.fact_limit).unwrap_or(usize::MAX);
            let Some(product) = seeds::ProductSeed::new(parts, key_len, max) else {
                // As many groups as the fact limit: stored, the seed would
                // have stopped there.
                if st.overflow.is_none() {
                    st.overflow = Some(self.describe(Some(def.seed)));
                }
                continue;
            };
            for (def_part, part) in def.parts.iter().zip(&product.parts) {
                st.rels[def_part.rel] = Some(part.tuples.clone());
                for (id, spec) in self.indexes.specs.iter().enumerate() {
                    if spec.rel == def_part.rel {
                        if let Some(slot) = st.indexes.get_mut(id) {
                            *slot = None;
                        }
                        if let Some(slot) = st.probe_sets.get_mut(id) {
                            *slot = None;
                        }
                    }
                }
            }
            let seed_index = self
                .indexes
                .find(&plan::IndexSpec::flat(def.seed, key_len + 1));
            if let Some(id) = seed_index {
                st.products.insert(id, Arc::new(product));
            }
        }
        self.build_indexes(st);
    }
}

/// Locks a cache, taking it over from a thread that panicked holding it
/// (a cache is consistent between its operations).
fn lock_ignoring_poison<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
