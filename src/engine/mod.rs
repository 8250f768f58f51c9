//! The evaluator: a checked program compiled once into datafrog plans, run
//! per puzzle as one semi-naive fixpoint.
//!
//! Static relations (geometry, and whatever rules derive from it without
//! looking at the state) are evaluated stratum by stratum, once per grid
//! size, and cached; those that read the givens once per puzzle. The state
//! (`placed`, `eliminated`, and everything that depends on them) lives in
//! one [`Store`], which the branching layer can fork.

pub mod facts;
pub mod ir;
mod memo;
mod needs;
pub mod plan;
pub mod seeds;
pub mod show_plan;
pub mod store;
pub mod tuple;
pub mod var;

use crate::grid::Geometry;
use crate::lang::diag::{Diagnostic, Diagnostics};
use crate::lang::graph::Dependencies;
use crate::lang::program::{Builtin, Program, RelId, Value, cell_coords, cell_value};
use crate::lang::value::CmpOp;
use ir::Lowered;
use plan::{IndexSpec, Indexes, Plan, PlanError};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
pub use store::{FactOrigin, RunEnd, Statics, Store};
use tuple::{Tuple, flat, slot};

/// Facts a branch (or a static stratum) may store before it is stopped as
/// runaway (rules that generate values without end). The default solve
/// stores far fewer at any size; every tier on a 16x16 grid passes it
/// (hidden subsets' groups of units, digit sets and digits).
pub const DEFAULT_FACT_LIMIT: u64 = 2_000_000;

/// Region maps whose statics are kept at once.
const REGION_CACHE_SIZE: usize = 64;

/// One static stratum, ready to run.
struct StaticStage {
    plan: Plan,
    members: Vec<RelId>,
    per_puzzle: bool,
}

/// A rule set compiled for evaluation. Shareable across threads; each
/// puzzle gets its own [`Solve`].
pub struct Engine {
    program: Arc<Program>,
    lowered: Lowered,
    indexes: Indexes,
    stages: Vec<StaticStage>,
    dynamic: Plan,
    /// Statics per grid size (box sizes 2 to 5), computed by the first
    /// puzzle of that size; the lock is held while they are computed, so
    /// threads never compute them twice (unless a deadline cut them).
    geometry_cache: [Mutex<Option<Arc<Statics>>>; 4],
    /// Statics per jigsaw region map (bounded, see [`REGION_CACHE_SIZE`]).
    region_cache: Mutex<FxHashMap<Vec<u8>, Arc<Statics>>>,
    placed: usize,
    eliminated: usize,
    contradiction: usize,
    /// Seeds with a row-number column, with the column's position.
    numbered: FxHashMap<RelId, usize>,
    /// Whether to show where derived facts came from (they are always
    /// kept: a relation's fact map holds each one's origin).
    pub provenance: bool,
    /// Facts a branch or a static stratum may store (see
    /// [`DEFAULT_FACT_LIMIT`]).
    pub fact_limit: u64,
}

impl Engine {
    /// Compiles a checked program.
    pub fn new(program: Program) -> Result<Engine, Diagnostics> {
        let lowered = ir::lower(&program);
        let mut indexes = Indexes::default();
        let to_diag = |e: PlanError| Diagnostics {
            items: vec![
                Diagnostic::new(
                    e.rule
                        .and_then(|r| program.rules.get(r))
                        .map(|r| r.span)
                        .unwrap_or_default(),
                    format!("this rule cannot be planned: {}", e.message),
                )
                .help("split the rule into smaller rules through a relation of your own"),
            ],
            sources: program.sources.clone(),
        };
        let has_base = |r: RelId| {
            program
                .relations
                .get(r)
                .is_some_and(|rel| rel.builtin.is_some_and(Builtin::extended_by_rules))
        };
        // Static strata over engine relations (synthetic ones included).
        let n = lowered.rels.len();
        let mut deps = Dependencies::new(n);
        let mut defined = vec![false; n];
        for r in &lowered.rules {
            if lowered.rels[r.head].dynamic {
                continue;
            }
            defined[r.head] = true;
            for a in &r.atoms {
                deps.add(a.rel, r.head, false, r.from_rule);
            }
            for a in &r.negs {
                deps.add(a.rel, r.head, true, r.from_rule);
            }
        }
        for a in &lowered.aggs {
            if lowered.rels[a.reached].dynamic {
                continue;
            }
            defined[a.reached] = true;
            for at in &a.body.atoms {
                deps.add(at.rel, a.reached, false, a.body.from_rule);
            }
            for at in &a.body.negs {
                deps.add(at.rel, a.reached, true, a.body.from_rule);
            }
        }
        // The checker ruled out cycles through negation; one here would be
        // lowering's.
        let strata = deps.stratify().map_err(|cycle| {
            to_diag(PlanError {
                rule: Some(cycle.rule),
                message: format!("`{}` is negated in a cycle", lowered.rels[cycle.body].name),
            })
        })?;
        let mut stages = Vec::new();
        for scc in strata {
            let members: Vec<RelId> = scc
                .into_iter()
                .filter(|&r| !lowered.rels[r].dynamic && defined[r])
                .collect();
            if members.is_empty() {
                continue;
            }
            let plan =
                plan::compile(&lowered, &members, &mut indexes, &has_base).map_err(to_diag)?;
            let per_puzzle = members.iter().any(|&r| lowered.rels[r].per_puzzle);
            stages.push(StaticStage {
                plan,
                members,
                per_puzzle,
            });
        }
        let dynamic_members: Vec<RelId> = (0..n).filter(|&r| lowered.rels[r].dynamic).collect();
        let mut dynamic =
            plan::compile(&lowered, &dynamic_members, &mut indexes, &|_| false).map_err(to_diag)?;
        let geometric = |index: plan::IndexId| !lowered.rels[indexes.specs[index].rel].per_puzzle;
        let from_state = state_fed_vars(
            &dynamic,
            &[
                program.builtin(Builtin::Placed),
                program.builtin(Builtin::Eliminated),
            ],
        );
        dynamic.memo = dynamic
            .ops
            .iter()
            .map(|op| match op {
                plan::Op::Extend { index, checks, .. } => {
                    geometric(*index)
                        && checks.iter().all(|c| match c {
                            plan::Check::Absent { index, .. } => geometric(*index),
                            // A guard reads the state: its answer changes.
                            plan::Check::Unknown { .. } => false,
                            _ => true,
                        })
                }
                _ => false,
            })
            .collect();
        dynamic.find_count_chains();
        // A count chain's memo is compact (counter rows), so it pays even
        // for inputs that rarely repeat; a single operator's memo stores
        // whole tuples. Above locked candidates, an operator reading the
        // techniques' own helper facts (groups over digit sets, links) sees
        // inputs from a large domain: its memo costs memory for no gain.
        for (i, op) in dynamic.ops.iter().enumerate() {
            if let plan::Op::Extend { source, .. } = op
                && dynamic.chain_role[i] == plan::ChainRole::Alone
                && dynamic
                    .op_tiers
                    .get(i)
                    .is_some_and(|&t| t > plan::FIRST_GATED_TIER)
                && !from_state[*source]
            {
                dynamic.memo[i] = false;
            }
        }
        let var_of = |b: Builtin| dynamic.rel_var.get(&program.builtin(b)).copied();
        let (Some(placed), Some(eliminated), Some(contradiction)) = (
            var_of(Builtin::Placed),
            var_of(Builtin::Eliminated),
            var_of(Builtin::Contradiction),
        ) else {
            return Err(to_diag(PlanError {
                rule: None,
                message: "the state relations are missing from the fixpoint".into(),
            }));
        };
        let parts = lowered
            .products
            .iter()
            .flat_map(|p| &p.parts)
            .map(|part| (part.rel, part.key_pos.len()));
        let numbered = lowered
            .aggs
            .iter()
            .filter(|a| a.row.is_some())
            .map(|a| (a.seed, a.key.len()))
            .chain(parts)
            .collect();
        Ok(Engine {
            numbered,
            program: Arc::new(program),
            lowered,
            indexes,
            stages,
            dynamic,
            geometry_cache: Default::default(),
            region_cache: Default::default(),
            placed,
            eliminated,
            contradiction,
            provenance: true,
            fact_limit: DEFAULT_FACT_LIMIT,
        })
    }

    /// The checked program this engine runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The number of datafrog variables and operators of the fixpoint (for
    /// `check` and benchmarks).
    pub fn plan_size(&self) -> (usize, usize) {
        (self.dynamic.vars.len(), self.dynamic.ops.len())
    }

    /// How reports name an engine relation: a program relation by name, a
    /// count's groups by the rule holding the count.
    fn describe(&self, rel: Option<RelId>) -> String {
        let Some(r) = rel.and_then(|r| self.lowered.rels.get(r)) else {
            return "a relation".to_string();
        };
        let agg = match r.origin {
            ir::RelOrigin::Program => return format!("relation `{}`", r.name),
            ir::RelOrigin::Seed(a) | ir::RelOrigin::Reached(a) => a,
        };
        self.lowered
            .aggs
            .get(agg)
            .and_then(|a| self.program.rules.get(a.body.from_rule))
            .map_or_else(
                || format!("relation `{}`", r.name),
                |rule| format!("the count of the rule at {}", rule.name),
            )
    }

    fn base_facts(
        &self,
        rel: RelId,
        g: &Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
    ) -> Vec<Tuple> {
        match self.program.relations.get(rel).and_then(|r| r.builtin) {
            Some(b) => facts::base_facts(b, g, regions, &self.program.symbols, cells),
            None => Vec::new(),
        }
    }

    /// Builds every index whose relation is complete.
    fn build_indexes(&self, st: &mut Statics) {
        st.indexes.resize(self.indexes.specs.len(), None);
        for (id, spec) in self.indexes.specs.iter().enumerate() {
            if st.indexes[id].is_some() {
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

    fn run_stages(
        &self,
        st: &mut Statics,
        g: &Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
        per_puzzle: bool,
        deadline: Option<Instant>,
    ) {
        for stage in self.stages.iter().filter(|s| s.per_puzzle == per_puzzle) {
            self.build_indexes(st);
            let base = |r: RelId| self.base_facts(r, g, regions, cells);
            let mut store = Store::new(&stage.plan, st, &base);
            // Static strata have no contradiction to watch; a runaway is
            // cut by the fact limit, and every solve with these statics
            // then reports the relation that grew.
            let limits = store::RunLimits {
                facts: self.fact_limit,
                deadline,
            };
            match store.run(&stage.plan, st, None, limits, None) {
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
    fn init_counters(&self, st: &mut Statics) {
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
    fn geometry_statics(
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
            counter_init: FxHashMap::default(),
            reached_at_start: FxHashMap::default(),
        };
        for (id, rel) in self.program.relations.iter().enumerate() {
            if rel.builtin.is_some() && !rel.dynamic && !rel.per_puzzle {
                let defined = self.stages.iter().any(|s| s.members.contains(&id));
                if !defined {
                    st.rels[id] = Some(Arc::new(self.base_facts(id, g, regions, &[]).into()));
                }
            }
        }
        self.run_stages(&mut st, g, regions, &[], false, deadline);
        if !st.timed_out {
            self.build_products(&mut st);
            self.init_counters(&mut st);
            self.drop_unread_sets(&mut st);
        }
        st
    }

    /// Drops the flat copies of the digit-set built-ins that only indexes
    /// of another layout read (every index is built by now): `covers` alone
    /// is 222,050 tuples on 25x25. [`Solve::relation_facts`] recomputes them
    /// for inspection: they depend on the grid size alone.
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

    /// Starts solving a puzzle: static relations ready, givens loaded, no
    /// round run yet.
    pub fn start(&self, g: Geometry, cells: &[u8]) -> Solve<'_> {
        self.start_with_regions(g, None, cells)
    }

    /// Starts solving a puzzle whose boxes are a jigsaw's regions (or the
    /// regular boxes when `regions` is `None`).
    pub fn start_with_regions(
        &self,
        g: Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
    ) -> Solve<'_> {
        self.start_until(g, regions, cells, None)
    }

    /// Starts solving a puzzle, computing the static relations it needs
    /// (the first puzzle of a grid size computes the shared ones) until
    /// `deadline`: if it passes first, the solve's first run ends at once
    /// with [`Status::Timeout`].
    pub fn start_until(
        &self,
        g: Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
        deadline: Option<Instant>,
    ) -> Solve<'_> {
        let geo = self.geometry_statics(&g, regions, deadline);
        let mut st = (*geo).clone();
        if !st.timed_out {
            let given = self.program.builtin(Builtin::Given);
            st.rels[given] = Some(Arc::new(self.base_facts(given, &g, regions, cells).into()));
            self.run_stages(&mut st, &g, regions, cells, true, deadline);
        }
        if !st.timed_out {
            self.init_counters(&mut st);
        }
        let store = Store::new(&self.dynamic, &st, &|_| Vec::new());
        Solve {
            engine: self,
            geometry: g,
            statics: Arc::new(st),
            store,
            branch: Vec::new(),
        }
    }
}

/// Locks a cache, taking it over from a thread that panicked holding it
/// (a cache is consistent between its operations).
fn lock_ignoring_poison<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The variables of a plan whose tuples come from `placed` or `eliminated`
/// alone (the relations, their tier copies, and what operators compute from
/// them): their tuples range over cells and digits, so an operator reading
/// them sees the same few inputs again in every round and puzzle, which is
/// what a memo of whole output tuples needs. An operator reading a
/// technique's helper facts (reached groups of the counts over digit sets,
/// say) sees inputs from a large domain: memoising its tuples took 20 to 30
/// MiB on 9x9 with every tier, for no gain in time.
fn state_fed_vars(plan: &Plan, state: &[RelId]) -> Vec<bool> {
    let mut fed = vec![false; plan.vars.len()];
    for rel in state {
        if let Some(&v) = plan.rel_var.get(rel) {
            fed[v] = true;
        }
    }
    for c in &plan.copies {
        fed[c.to] = fed[c.from];
    }
    for op in &plan.ops {
        let (source, to) = match op {
            plan::Op::Extend { source, to, .. } => (*source, to),
            plan::Op::Map { from, to, .. } => (*from, to),
            _ => continue,
        };
        if to.count.is_none() && !plan.rel_var.values().any(|&v| v == to.var) {
            fed[to.var] = fed[source];
        }
    }
    fed
}

/// How a run of the rules ended for one puzzle (or one branch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every cell holds exactly one digit and nothing more follows.
    Solved,
    /// The rules can derive nothing more and some cells are open.
    Stalled,
    /// A `contradiction` fact was derived.
    Contradiction,
    /// The rules placed two digits in one cell without deriving a contradiction.
    Conflict,
    /// Too many facts were derived (a runaway rule set): the relation
    /// that grew most, as reports name it (``relation `m` ``).
    FactLimit(String),
    /// The deadline passed before the fixpoint.
    Timeout,
}

/// A guess the branching layer made: cell index, digit, the candidates it
/// was chosen from, and what became of those tried before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// Cell index (row-major).
    pub cell: usize,
    /// The digit placed.
    pub digit: u8,
    /// The candidates the cell had, in the order they are tried.
    pub options: Vec<u8>,
    /// For each option tried before `digit` (the options before it), the
    /// branches the search opened under it, every one of which ended in a
    /// contradiction (or the search would not have moved on).
    pub refuted: Vec<u64>,
}

/// The solving state of one puzzle (or one branch of it).
pub struct Solve<'e> {
    engine: &'e Engine,
    geometry: Geometry,
    statics: Arc<Statics>,
    store: Store,
    /// The guesses on the path to this branch.
    pub branch: Vec<Guess>,
}

impl Solve<'_> {
    /// The grid's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Runs the fixpoint until it is reached or a contradiction appears.
    pub fn run(&mut self) -> Status {
        self.run_until(None)
    }

    /// Runs the fixpoint until it is reached, a contradiction appears, the
    /// fact limit is hit or `deadline` passes.
    pub fn run_until(&mut self, deadline: Option<Instant>) -> Status {
        let e = self.engine;
        if let Some(grew) = &self.statics.overflow {
            return Status::FactLimit(grew.clone());
        }
        if self.statics.timed_out {
            return Status::Timeout;
        }
        let cells = self.geometry.n * self.geometry.n;
        let limits = store::RunLimits {
            facts: e.fact_limit,
            deadline,
        };
        match self.store.run(
            &e.dynamic,
            &self.statics,
            Some(e.contradiction),
            limits,
            Some((e.placed, cells)),
        ) {
            store::RunEnd::Contradiction => Status::Contradiction,
            store::RunEnd::FactLimit => {
                Status::FactLimit(e.describe(self.store.largest_relation(&e.dynamic)))
            }
            store::RunEnd::Timeout => Status::Timeout,
            store::RunEnd::Fixpoint => {
                let placed = self.placed_facts();
                let cells = self.geometry.n * self.geometry.n;
                let mut count = vec![0u8; cells];
                for (c, _) in &placed {
                    count[*c] += 1;
                }
                if count.iter().any(|&k| k > 1) {
                    Status::Conflict
                } else if count.iter().all(|&k| k == 1) {
                    Status::Solved
                } else {
                    Status::Stalled
                }
            }
        }
    }

    /// A dump of the fixpoint's plan with the size of every variable, for
    /// looking into performance.
    pub fn debug_dump(&self) -> String {
        let sizes = self.store.sizes();
        let mut out = String::new();
        for (i, name) in self.engine.dynamic.vars.iter().enumerate() {
            out.push_str(&format!("var {i:3} {name:<24} {}\n", sizes[i]));
        }
        for op in &self.engine.dynamic.ops {
            out.push_str(&format!("{op:?}\n"));
        }
        out
    }

    /// A copy that continues independently (call at a fixpoint).
    pub fn fork(&self) -> Self {
        Solve {
            engine: self.engine,
            geometry: self.geometry,
            statics: self.statics.clone(),
            store: self.store.fork(&self.engine.dynamic),
            branch: self.branch.clone(),
        }
    }

    /// Places a digit as a guess.
    pub fn guess(&mut self, guess: Guess) {
        let n = self.geometry.n;
        let t = flat(&[
            cell_value(guess.cell / n, guess.cell % n),
            guess.digit as Value,
        ]);
        let origin = FactOrigin::unruled(self.store.step);
        self.store.insert(self.engine.placed, &[t], origin);
        self.store.reset_tiers();
        self.branch.push(guess);
    }

    fn cell_index(&self, v: Value) -> Option<usize> {
        let (r, c) = cell_coords(v);
        let n = self.geometry.n;
        (v >= 0 && r < n && c < n).then_some(r * n + c)
    }

    fn digit_ok(&self, d: Value) -> Option<u8> {
        (1..=self.geometry.n as Value)
            .contains(&d)
            .then_some(d as u8)
    }

    /// `(cell index, digit)` of every placed fact, in no particular order.
    pub fn placed_facts(&self) -> Vec<(usize, u8)> {
        let mut out = Vec::with_capacity(self.geometry.n * self.geometry.n);
        self.store.for_each_tuple(self.engine.placed, |t| {
            if let (Some(c), Some(d)) = (self.cell_index(slot(t, 0)), self.digit_ok(slot(t, 1))) {
                out.push((c, d));
            }
        });
        out
    }

    /// The grid of placed digits (0 where none).
    pub fn grid(&self) -> Vec<u8> {
        let mut g = vec![0; self.geometry.n * self.geometry.n];
        for (c, d) in self.placed_facts() {
            g[c] = d;
        }
        g
    }

    /// Candidate bitmask per cell: bit `d` set when digit `d` is not
    /// eliminated (the `candidate` view).
    pub fn candidates(&self) -> Vec<u32> {
        let n = self.geometry.n;
        let all: u32 = ((1u64 << (n + 1)) - 2) as u32;
        let mut m = vec![all; n * n];
        self.store.for_each_tuple(self.engine.eliminated, |t| {
            if let (Some(c), Some(d)) = (self.cell_index(slot(t, 0)), self.digit_ok(slot(t, 1))) {
                m[c] &= !(1 << d);
            }
        });
        m
    }

    /// The contradiction facts: reason and cell index.
    pub fn contradictions(&self) -> Vec<(String, Option<usize>)> {
        let syms = &self.engine.program.symbols;
        self.store
            .tuples(self.engine.contradiction)
            .iter()
            .map(|t| {
                (
                    syms.name(slot(t, 0)).to_string(),
                    self.cell_index(slot(t, 1)),
                )
            })
            .collect()
    }

    /// The fixpoint step reached (numbering continues across forks).
    pub fn steps(&self) -> u32 {
        self.store.step
    }

    /// Fixpoint rounds this branch ran itself.
    pub fn rounds(&self) -> u32 {
        self.store.rounds
    }

    /// New facts per program rule id, derived by this branch itself.
    pub fn firings(&self) -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = self
            .store
            .firings
            .iter()
            .map(|(&r, &k)| (r as usize, k))
            .collect();
        v.sort_unstable();
        v
    }

    /// Tuples this branch inserted into the fact store's variables.
    pub fn derived(&self) -> u64 {
        self.store.derived
    }

    /// The rule that placed the digit now in a cell (`file:line`), or
    /// "a guess".
    pub fn placed_by(&self, cell: usize) -> Option<String> {
        let n = self.geometry.n;
        let digit = *self.grid().get(cell)?;
        let t = flat(&[cell_value(cell / n, cell % n), digit as Value]);
        let origin = self.origin(self.engine.program.builtin(Builtin::Placed), &t)?;
        Some(match self.engine.program.rules.get(origin.rule as usize) {
            Some(r) => r.name.clone(),
            None => "a guess".to_string(),
        })
    }

    /// Every fact of a program relation (flat tuples), with where it came
    /// from: `None` for static facts (geometry, givens, and what rules
    /// derive from them before the fixpoint).
    pub fn relation_facts(&self, rel: RelId) -> Vec<(Tuple, Option<FactOrigin>)> {
        if let Some(&var) = self.engine.dynamic.rel_var.get(&rel) {
            return self
                .store
                .tuples(var)
                .into_iter()
                .map(|t| (t, self.origin(rel, &t)))
                .collect();
        }
        match self.statics.rels.get(rel) {
            Some(Some(r)) => r.iter().map(|t| (*t, None)).collect(),
            // A digit-set built-in that was not kept (see `drop_unread_sets`).
            _ => self
                .engine
                .base_facts(rel, &self.geometry, None, &[])
                .into_iter()
                .map(|t| (t, None))
                .collect(),
        }
    }

    /// Facts first derived by this branch after `step`, in step order
    /// (none when provenance is not shown).
    pub fn facts_since(&self, step: u32) -> Vec<(RelId, Tuple, FactOrigin)> {
        if !self.engine.provenance {
            return Vec::new();
        }
        self.store.facts_since(&self.engine.dynamic, step)
    }

    /// The engine this state belongs to.
    pub fn engine(&self) -> &Engine {
        self.engine
    }

    /// Where each fact of a program relation came from (when provenance is shown).
    pub fn origin(&self, rel: RelId, t: &Tuple) -> Option<FactOrigin> {
        let var = *self.engine.dynamic.rel_var.get(&rel)?;
        self.store.origin(var, t).filter(|_| self.engine.provenance)
    }
}
