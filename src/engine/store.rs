//! The fact store of one evaluation: one semi-naive [`Var`] per plan
//! variable (each fact with its provenance), the counters of incremental
//! counts, and the rounds that run datafrog's joins over them to a
//! fixpoint. Forking it copies the facts and counters so a branch continues
//! where its parent stalled.

use super::memo;
use super::needs::Needs;
use super::plan::{
    self, ChainRole, Check, FIRST_GATED_TIER, IndexId, Lookup, Op, Out, Plan, SeedSource,
};
use super::seeds::{ProductSeed, SeedRows};
use super::tuple::{EMPTY, Frame, HALF, Half, Key, Tuple};
pub use super::var::FactOrigin;
use super::var::{NO_RULE, Var};
use crate::lang::program::{RelId, Value};
use crate::lang::value::{CmpOp, MAX_SET_MEMBER};
use datafrog::{ExtendWith, Leapers, Relation, ValueFilter};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Complete static relations (flat) and the indexes built from them.
#[derive(Clone, Default)]
pub struct Statics {
    /// The memo scope of these indexes (see `engine::memo`); 0 for none.
    pub memo_scope: u64,
    /// By engine relation id.
    pub rels: Vec<Option<Arc<Relation<Tuple>>>>,
    /// By index id.
    pub indexes: Vec<Option<Arc<Relation<Tuple>>>>,
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
        match self.probe_sets.get(id) {
            Some(Some(set)) => !set.contains(&Key(*t)),
            _ => self.index_tuples(id).binary_search(t).is_err(),
        }
    }
}

/// What checks look tuples up in during a round: the static indexes for
/// negations, and for guards the state as it stood before the round.
struct Lookups<'a> {
    statics: &'a Statics,
    vars: &'a [Var],
    plan: &'a Plan,
    step: u32,
}

impl<'a> Lookups<'a> {
    /// The lookups of round `step` of a store with `vars`.
    fn new(statics: &'a Statics, vars: &'a [Var], plan: &'a Plan, step: u32) -> Lookups<'a> {
        Lookups {
            statics,
            vars,
            plan,
            step,
        }
    }

    /// Whether a tuple is missing from what a check looks in.
    fn absent(&self, lookup: Lookup, t: &Tuple) -> bool {
        match lookup {
            Lookup::Static(id) => self.statics.absent(id, t),
            Lookup::State(g) => {
                let guard = &self.plan.guards[g];
                !self.vars[guard.var].known_before_in(guard.projection, t, self.step)
            }
            Lookup::StateWhere(g, op, value) => {
                let guard = &self.plan.guards[g];
                let projection = guard.projection.unwrap_or_default();
                !self.vars[guard.var].known_before_where(projection, t, self.step, op, value)
            }
        }
    }
}

/// The counters of one count.
#[derive(Clone)]
enum Counters {
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
}

/// A set's memoised row: the group's row and the value's bit together
/// (values are at most 30: five bits).
fn set_row(row: Value, value: Value) -> Option<u32> {
    let fits = usize::try_from(row).is_ok_and(|r| r < MAX_SET_GROUPS);
    (fits && (1..=MAX_SET_MEMBER).contains(&i64::from(value)))
        .then_some((row as u32) << 5 | value as u32)
}

/// The most groups a set over a numbered static seed can have: its rows
/// share a word with a value's five bits (see [`set_row`]). A seed that
/// large (4 GiB of tuples, only with a raised `--max-facts`) stops the run
/// at the fact limit rather than mix up its groups.
const MAX_SET_GROUPS: usize = 1 << 27;

/// What stops a run early.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// New facts stored past which the run stops: a runaway rule set.
    pub facts: u64,
    /// When to stop.
    pub deadline: Option<std::time::Instant>,
}

/// How a run of the fixpoint ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Nothing new can be derived.
    Fixpoint,
    /// The watched relation (`contradiction`) received a fact.
    Contradiction,
    /// A limit on derived facts was hit.
    FactLimit,
    /// The deadline passed.
    Timeout,
}

/// The state of one evaluation.
pub struct Store {
    vars: Vec<Var>,
    counters: Vec<Counters>,
    /// Exact counts over a static seed: emitted (at the first fixpoint).
    finalized: Vec<bool>,
    /// Exact counts over a changing seed: the groups emitted so far.
    finalized_groups: Vec<FxHashSet<Tuple>>,
    /// The step number of the last round (a fork continues its parent's
    /// numbering, so steps order facts along a branch's whole path).
    pub step: u32,
    /// Rounds this store ran itself (not counting its parent's).
    pub rounds: u32,
    /// New facts per program rule, derived by this store itself.
    pub firings: FxHashMap<u32, u32>,
    /// New facts this store inserted into variables (for the fact limit).
    pub derived: u64,
    /// The hardest tier switched on (tiers below [`FIRST_GATED_TIER`] always run).
    pub active_tier: u32,
    /// Set when a rule of a gated tier derived a new fact this round that
    /// an easier tier reads (see [`Plan::resets_tiers`]).
    gated_fired: bool,
    /// Per tier copy (index in [`Plan::copies`]): the tuples its source
    /// gained while its tier was off, fed to it when the tier is switched
    /// on, so a switch costs what was missed rather than everything.
    missed: Vec<Vec<Tuple>>,
    /// Per variable: the tuples a pipe carries to its reader this round
    /// (always empty between rounds).
    pipe_buf: Vec<Vec<Tuple>>,
    /// Scratch for operators' outputs (reused every round, so a round
    /// allocates nothing once the buffers have grown).
    out_buf: Vec<Tuple>,
    /// Scratch for the groups a count reaches in one round.
    reached_buf: Vec<Tuple>,
    /// How many tuples one operator may produce in a round (the fact
    /// limit): a rule whose one step would make more (a runaway, or every
    /// digit set of a 25x25 grid) is cut there rather than allowed to take
    /// the machine's memory before the round ends.
    op_room: usize,
    /// Set when an operator was cut at `op_room`.
    overflowed: bool,
}

impl Store {
    /// A store for `plan`, loaded with its static inputs and base facts.
    pub fn new(plan: &Plan, statics: &Statics, base_facts: &dyn Fn(RelId) -> Vec<Tuple>) -> Store {
        let mut vars: Vec<Var> = plan.var_keeps().into_iter().map(Var::new).collect();
        for p in &plan.projections {
            vars[p.var].add_projection(&p.cols, p.spread);
        }
        let loaded = FactOrigin::unruled(0);
        for &(index, var) in &plan.loads {
            vars[var].insert(statics.index_tuples(index), loaded);
        }
        for &var in &plan.unit_loads {
            vars[var].insert(&[EMPTY], loaded);
        }
        for &(rel, var) in &plan.base_loads {
            vars[var].insert(&base_facts(rel), loaded);
        }
        let mut too_many_groups = false;
        let mut store = Store {
            vars,
            counters: plan
                .aggs
                .iter()
                .map(|a| match (a.row_slot, a.seed) {
                    (Some(_), SeedSource::Static(index)) if a.elem_slot.is_some() => {
                        let groups = statics.seed(index).len();
                        too_many_groups |= groups > MAX_SET_GROUPS;
                        Counters::DenseSets(vec![0; groups.min(MAX_SET_GROUPS)])
                    }
                    _ if a.elem_slot.is_some() => Counters::Sets(FxHashMap::default()),
                    (Some(_), SeedSource::Static(index)) => Counters::Dense(
                        statics
                            .counter_init
                            .get(&index)
                            .cloned()
                            .unwrap_or_else(|| Arc::new(counter_init(statics, index, a))),
                    ),
                    _ => Counters::Sparse(FxHashMap::default()),
                })
                .collect(),
            finalized: vec![false; plan.aggs.len()],
            finalized_groups: vec![FxHashSet::default(); plan.aggs.len()],
            step: 0,
            rounds: 0,
            firings: FxHashMap::default(),
            derived: 0,
            active_tier: FIRST_GATED_TIER - 1,
            gated_fired: false,
            missed: vec![Vec::new(); plan.copies.len()],
            pipe_buf: vec![Vec::new(); plan.vars.len()],
            out_buf: Vec::new(),
            reached_buf: Vec::new(),
            op_room: usize::MAX,
            overflowed: too_many_groups,
        };
        // Groups of static seeds already satisfied with a count of zero.
        for (i, agg) in plan.aggs.iter().enumerate() {
            if let SeedSource::Static(index) = agg.seed
                && matches!(agg.op, CmpOp::Ge | CmpOp::Gt)
            {
                let seeds = statics.seed(index);
                let computed: Vec<Tuple>;
                let reached: &[Tuple] =
                    match (&store.counters[i], statics.reached_at_start.get(&index)) {
                        // Found once per grid size with the starting array.
                        (Counters::Dense(_), Some(known)) => known,
                        // The shared starting array already holds each bound.
                        (Counters::Dense(left), None) => {
                            computed = reached_at_start(left, seeds, agg.key_len);
                            &computed
                        }
                        (Counters::Sparse(_) | Counters::Sets(_) | Counters::DenseSets(_), _) => {
                            computed = seeds
                                .iter()
                                .filter(|t| threshold(&agg.bound, t) <= 0)
                                .map(|t| key_prefix(&t, agg.key_len))
                                .collect();
                            &computed
                        }
                    };
                if !reached.is_empty() {
                    store.vars[plan.aggs[i].reached].insert(reached, loaded);
                }
            }
        }
        store
    }

    /// A copy of this store that evolves independently (a branch). Only
    /// valid at a fixpoint, when no tuple is waiting to be merged.
    pub fn fork(&self, plan: &Plan) -> Store {
        Store {
            vars: self.vars.clone(),
            counters: self.counters.clone(),
            finalized: self.finalized.clone(),
            finalized_groups: self.finalized_groups.clone(),
            step: self.step,
            rounds: 0,
            firings: FxHashMap::default(),
            derived: 0,
            active_tier: self.active_tier,
            gated_fired: false,
            missed: self.missed.clone(),
            pipe_buf: vec![Vec::new(); plan.vars.len()],
            out_buf: Vec::new(),
            reached_buf: Vec::new(),
            op_room: self.op_room,
            overflowed: false,
        }
    }

    /// Switches the gated tiers off: after new knowledge (a guess), the
    /// easiest techniques run first again.
    pub fn reset_tiers(&mut self) {
        self.active_tier = FIRST_GATED_TIER - 1;
    }

    /// Switches on the next tier above the active one, if any, feeding its
    /// copies everything they missed. Returns whether one was switched on.
    fn next_tier(&mut self, plan: &Plan) -> bool {
        let next = plan
            .copies
            .iter()
            .map(|c| c.tier)
            .filter(|&t| t > self.active_tier)
            .min();
        let Some(tier) = next else {
            self.active_tier = self.active_tier.max(plan.max_tier);
            return false;
        };
        self.active_tier = tier;
        for (c, missed) in plan.copies.iter().zip(&mut self.missed) {
            if c.tier == tier {
                self.vars[c.to].insert(missed, FactOrigin::unruled(self.step));
                missed.clear();
            }
        }
        true
    }

    /// Adds facts to a variable (a guess), recording their origin.
    pub fn insert(&mut self, var: usize, tuples: &[Tuple], origin: FactOrigin) {
        self.vars[var].insert(tuples, origin);
    }

    /// Where a fact of a variable came from.
    pub fn origin(&self, var: usize, t: &Tuple) -> Option<FactOrigin> {
        self.vars[var].origin(t)
    }

    /// Facts of program relations first derived after `step`, with their
    /// origin, in step order.
    pub fn facts_since(&self, plan: &Plan, step: u32) -> Vec<(RelId, Tuple, FactOrigin)> {
        let mut out: Vec<(RelId, Tuple, FactOrigin)> = plan
            .rel_var
            .iter()
            .flat_map(|(&rel, &var)| {
                self.vars[var]
                    .iter()
                    .filter(|(_, o)| o.step > step)
                    .map(move |(t, o)| (rel, *t, *o))
            })
            .collect();
        out.sort_unstable_by_key(|(rel, t, o)| (o.step, o.rule, *rel, *t));
        out
    }

    /// The number of tuples of a variable.
    pub fn len(&self, var: usize) -> usize {
        self.vars[var].len()
    }

    /// Calls `f` on every tuple of a variable, in no particular order and
    /// without sorting.
    pub fn for_each_tuple(&self, var: usize, mut f: impl FnMut(&Tuple)) {
        self.vars[var].iter().for_each(|(t, _)| f(t));
    }

    /// Every tuple of a variable, sorted.
    pub fn tuples(&self, var: usize) -> Vec<Tuple> {
        let mut all: Vec<Tuple> = self.vars[var].iter().map(|(t, _)| *t).collect();
        all.sort_unstable();
        all
    }

    /// The number of stored tuples per variable (for debugging plans).
    pub fn sizes(&self) -> Vec<usize> {
        self.vars.iter().map(Var::len).collect()
    }

    /// Ends a round in every variable (see [`Var::advance`]); returns
    /// whether any has new facts.
    fn advance(&mut self) -> bool {
        let mut changed = false;
        for v in &mut self.vars {
            changed |= v.advance();
        }
        changed
    }

    /// Runs rounds until a fixpoint, a fact in `stop`, more than
    /// `limits.facts` facts stored, or `limits.deadline`.
    pub fn run(
        &mut self,
        plan: &Plan,
        statics: &Statics,
        stop: Option<usize>,
        limits: RunLimits,
        complete: Option<(usize, usize)>,
    ) -> RunEnd {
        self.op_room = usize::try_from(limits.facts).unwrap_or(usize::MAX);
        loop {
            if limits
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                return RunEnd::Timeout;
            }
            if !self.advance() {
                if self.finalize_exact_counts(plan, statics) {
                    continue;
                }
                // A complete grid needs no harder technique.
                let done = complete.is_some_and(|(var, n)| self.len(var) >= n);
                if !done && self.next_tier(plan) {
                    continue;
                }
                return RunEnd::Fixpoint;
            }
            self.step += 1;
            self.rounds += 1;
            if let Some(s) = stop
                && !self.vars[s].recent().is_empty()
            {
                return RunEnd::Contradiction;
            }
            for (c, missed) in plan.copies.iter().zip(&mut self.missed) {
                if c.tier <= self.active_tier {
                    copy_recent(&mut self.vars, c.from, c.to, FactOrigin::unruled(self.step));
                } else {
                    missed.extend_from_slice(self.vars[c.from].recent());
                }
            }
            for (i, op) in plan.ops.iter().enumerate() {
                if self.idle(op, plan) {
                    continue;
                }
                match plan.chain_role.get(i) {
                    Some(&ChainRole::Head(c)) if statics.memo_scope != 0 => {
                        self.run_count_chain(c, plan, statics)
                    }
                    Some(ChainRole::Member) if statics.memo_scope != 0 => {}
                    _ => self.run_op(i, op, plan, statics),
                }
            }
            if std::mem::take(&mut self.gated_fired) {
                self.reset_tiers();
            }
            if self.derived > limits.facts || self.overflowed {
                return RunEnd::FactLimit;
            }
        }
    }

    /// Whether an operator has nothing to read this round (most have, in
    /// most rounds: skipping them is most of a quiet round's cost).
    fn idle(&self, op: &Op, plan: &Plan) -> bool {
        let empty = |var: usize| {
            if plan.is_pipe(var) {
                self.pipe_buf[var].is_empty()
            } else {
                self.vars[var].recent().is_empty()
            }
        };
        match op {
            Op::Map { from, .. } => empty(*from),
            Op::Extend { source, .. } => empty(*source),
            Op::Join { left, right, .. } => empty(*left) && empty(*right),
            Op::SeedCheck { seed, .. } => empty(*seed),
        }
    }

    /// The relation holding the most facts (after a fact limit: the one
    /// that grew without end).
    pub fn largest_relation(&self, plan: &Plan) -> Option<RelId> {
        plan.rel_var
            .iter()
            .max_by_key(|&(_, &v)| self.len(v))
            .map(|(&rel, _)| rel)
    }

    /// Counts compared with `=`, `<`, ... read only complete relations, so
    /// at the first fixpoint their counters are final: emit their groups.
    fn finalize_exact_counts(&mut self, plan: &Plan, statics: &Statics) -> bool {
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
                self.vars[agg.reached].insert(&out, FactOrigin::unruled(self.step));
            }
        }
        any
    }

    /// An empty output buffer (see [`Store::output`]).
    fn take_out(&mut self) -> Vec<Tuple> {
        let mut out = std::mem::take(&mut self.out_buf);
        out.clear();
        out
    }

    /// Sends an operator's output where it goes, keeping the buffer.
    fn output(&mut self, to: &Out, mut tuples: Vec<Tuple>, plan: &Plan) {
        self.deliver(to, &mut tuples, plan);
        tuples.clear();
        if tuples.capacity() > self.out_buf.capacity() {
            self.out_buf = tuples;
        }
    }

    fn deliver(&mut self, to: &Out, tuples: &mut Vec<Tuple>, plan: &Plan) {
        if tuples.is_empty() {
            return;
        }
        if plan.is_pipe(to.var) && to.count.is_none() {
            let pipe = &mut self.pipe_buf[to.var];
            if pipe.is_empty() {
                // Hand the buffer over rather than copy it.
                std::mem::swap(pipe, tuples);
            } else {
                pipe.extend_from_slice(tuples);
            }
            return;
        }
        if let Some(agg) = to.count {
            // Full bindings of a count's body, each new: no sorting needed.
            self.bump_counters(agg, tuples, plan);
            return;
        }
        let origin = FactOrigin {
            rule: to.rule.map_or(NO_RULE, |(rule, _)| rule as u32),
            step: self.step,
        };
        let new = self.vars[to.var].insert(tuples, origin);
        self.derived += new as u64;
        if let Some((rule, _)) = to.rule
            && new > 0
        {
            *self.firings.entry(rule as u32).or_default() += new;
            if plan.resets_tiers.contains(&rule) {
                self.gated_fired = true;
            }
        }
    }

    /// Each new body tuple of a count bumps its group's counter once; a
    /// group is reached when its counter hits the bound.
    fn bump_counters(&mut self, agg: usize, tuples: &[Tuple], plan: &Plan) {
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
            self.vars[a.reached].insert(&reached, FactOrigin::unruled(self.step));
        }
        self.reached_buf = reached;
    }

    /// Runs count chain `c` (see [`plan::CountChain`]) on its input's new
    /// tuples: replays (or computes and memoises) the counter rows each one
    /// bumps, and bumps them.
    fn run_count_chain(&mut self, c: usize, plan: &Plan, statics: &Statics) {
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
            Counters::Sparse(_) | Counters::Sets(_) => {
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
                    if let Op::Extend {
                        index,
                        key,
                        checks,
                        early,
                        emit,
                        ..
                    } = &plan.ops[at]
                    {
                        let ext = Extension {
                            index: statics.index_tuples(*index),
                            key,
                            checks,
                            early: *early,
                            emit,
                        };
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
            self.vars[agg.reached].insert(&reached, FactOrigin::unruled(self.step));
        }
        self.reached_buf = reached;
    }

    /// The tuples waiting in a pipe (see [`Plan::pipes`]), or `None` if the
    /// variable is not one and its newest tuples are to be read instead.
    fn take_pipe(&mut self, var: usize, plan: &Plan) -> Option<Vec<Tuple>> {
        plan.is_pipe(var)
            .then(|| std::mem::take(&mut self.pipe_buf[var]))
    }

    /// Gives a pipe its buffer back once read (its allocation is reused).
    fn return_pipe(&mut self, var: usize, piped: Option<Vec<Tuple>>) {
        if let Some(mut buf) = piped {
            buf.clear();
            self.pipe_buf[var] = buf;
        }
    }

    fn run_op(&mut self, at: usize, op: &Op, plan: &Plan, statics: &Statics) {
        match op {
            Op::Map {
                from,
                checks,
                emit,
                to,
            } => {
                let piped = self.take_pipe(*from, plan);
                let mut out = self.take_out();
                {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let recent = self.vars[*from].recent();
                    let input = piped.as_deref().unwrap_or(&recent.elements);
                    let zero: Half = [0; HALF];
                    out.extend(input.iter().filter_map(|t| {
                        let f = Frame::new(t, &zero);
                        if plan::passes(checks, &f, &absent) {
                            plan::emit(emit, &f)
                        } else {
                            None
                        }
                    }));
                }
                self.return_pipe(*from, piped);
                self.output(to, out, plan);
            }
            Op::Join {
                left,
                right,
                probe,
                checks,
                emit,
                to,
            } => {
                let out = {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let l = &self.vars[*left];
                    let r = &self.vars[*right];
                    if *probe {
                        probe_join(l, r, self.step, checks, emit, &absent)
                    } else {
                        join(l, r, checks, emit, &absent, self.op_room)
                    }
                };
                if out.len() >= self.op_room {
                    self.overflowed = true;
                }
                self.output(to, out, plan);
            }
            Op::Extend {
                source,
                index,
                key,
                checks,
                early,
                emit,
                to,
            } => {
                let piped = self.take_pipe(*source, plan);
                let memoised = statics.memo_scope != 0 && plan.memo.get(at) == Some(&true);
                let mut out = self.take_out();
                {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let recent = self.vars[*source].recent();
                    let input = piped.as_deref().unwrap_or(&recent.elements);
                    let ext = Extension {
                        index: statics.index_tuples(*index),
                        key,
                        checks,
                        early: *early,
                        emit,
                    };
                    let room = self.op_room;
                    let compute = |input: &[Tuple], out: &mut Vec<Tuple>| {
                        extend_into(input, &ext, &absent, room, out)
                    };
                    if memoised {
                        memo::extend_memoised(
                            statics.memo_scope,
                            at as u32,
                            input,
                            |t, out| compute(std::slice::from_ref(t), out),
                            |outputs| {
                                let fits = room.saturating_sub(out.len()).min(outputs.len());
                                out.extend_from_slice(&outputs[..fits]);
                            },
                        );
                    } else {
                        compute(input, &mut out);
                    }
                }
                if out.len() >= self.op_room {
                    self.overflowed = true;
                }
                self.return_pipe(*source, piped);
                self.output(to, out, plan);
            }
            Op::SeedCheck { seed, agg } => {
                let a = &plan.aggs[*agg];
                let out: Vec<Tuple> = self.vars[*seed]
                    .recent()
                    .iter()
                    .filter(|t| threshold(&a.bound, t) <= 0)
                    .copied()
                    .collect();
                let v = a.reached;
                self.output(&Out::to_var(v), out, plan);
            }
        }
    }
}

/// Inserts the recent facts of variable `from` into variable `to`.
fn copy_recent(vars: &mut [Var], from: usize, to: usize, origin: FactOrigin) {
    // Borrow the two variables apart; a variable's own recent facts are
    // already known to it, so copying onto itself adds nothing.
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
    target.insert(source.recent(), origin);
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
fn threshold(bound: &plan::CExpr, key: &Tuple) -> i64 {
    let zero: Half = [0; HALF];
    let f = Frame::new(key, &zero);
    bound.eval(&f).map_or(i64::MAX, |v| v as i64)
}

fn key_prefix(t: &Tuple, len: usize) -> Tuple {
    let mut k = *t;
    for i in len..super::tuple::SLOTS {
        super::tuple::set_slot(&mut k, i, 0 as Value);
    }
    k
}

/// Semi-naive merge join of two variables (datafrog's `Relation::from_join`
/// over new-with-old, old-with-new and new-with-new batches).
fn join(
    left: &Var,
    right: &Var,
    checks: &[Check],
    emit: &plan::Emit,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
    room: usize,
) -> Vec<Tuple> {
    let l_recent = left.recent();
    let r_recent = right.recent();
    let mut out = Vec::new();
    let mut logic = |k: &Half, v1: &Half, v2: &Half| -> Option<Tuple> {
        let lt = (*k, *v1);
        let f = Frame::new(&lt, v2);
        if plan::passes(checks, &f, absent) {
            plan::emit(emit, &f)
        } else {
            None
        }
    };
    if !l_recent.is_empty() {
        for batch in right.stable_batches() {
            join_in_pieces(l_recent, batch, &mut logic, room, &mut out);
        }
    }
    if !r_recent.is_empty() {
        for batch in left.stable_batches() {
            join_in_pieces(batch, r_recent, &mut logic, room, &mut out);
        }
    }
    if !l_recent.is_empty() && !r_recent.is_empty() {
        join_in_pieces(l_recent, r_recent, &mut logic, room, &mut out);
    }
    out
}

/// datafrog's merge join of `a` and `b` into `out`, stopping once `out`
/// holds `room` tuples. `from_join` keeps one result per matching pair, so
/// `a` is joined in pieces small enough that a piece's pairs fit in `room`
/// (each tuple of `a` meets at most all of `b`); only a join that could
/// outgrow the limit is split, and only it pays for copying its pieces.
fn join_in_pieces(
    a: &Relation<Tuple>,
    b: &Relation<Tuple>,
    logic: &mut impl FnMut(&Half, &Half, &Half) -> Option<Tuple>,
    room: usize,
    out: &mut Vec<Tuple>,
) {
    let collect = |r: Relation<Option<Tuple>>, out: &mut Vec<Tuple>| {
        out.extend(r.elements.into_iter().flatten())
    };
    let piece = (room / b.len().max(1)).max(1);
    if a.len() <= piece {
        collect(Relation::from_join(a, b, &mut *logic), out);
        return;
    }
    for chunk in a.elements.chunks(piece) {
        if out.len() >= room {
            return;
        }
        let part = Relation {
            elements: chunk.to_vec(),
        };
        collect(Relation::from_join(&part, b, &mut *logic), out);
    }
}

/// A join of two variables without values beside the key (see
/// `Op::Join::probe`) in round `step`: each new left tuple is looked up
/// among the right's facts known before this round, each new right tuple
/// among the left's facts older than the last round. These are the pairs
/// the merge join sees (new with old, old with new, new with new), found
/// without sorted batches.
fn probe_join(
    left: &Var,
    right: &Var,
    step: u32,
    checks: &[Check],
    emit: &plan::Emit,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
) -> Vec<Tuple> {
    let zero: Half = [0; HALF];
    let logic = |t: &Tuple| -> Option<Tuple> {
        let f = Frame::new(t, &zero);
        if plan::passes(checks, &f, absent) {
            plan::emit(emit, &f)
        } else {
            None
        }
    };
    let new_left = left.recent().iter().filter(|t| right.known_before(t, step));
    let new_right = right
        .recent()
        .iter()
        .filter(|t| left.known_before(t, step.saturating_sub(1)));
    new_left.chain(new_right).filter_map(logic).collect()
}

/// What one `Extend` operator does: propose values from a static index by
/// a key over the input, keep those passing the checks, lay them out.
#[derive(Clone, Copy)]
struct Extension<'a> {
    index: &'a Relation<Tuple>,
    key: &'a [plan::CExpr],
    checks: &'a [Check],
    /// How many of `checks` (the first) read only the input tuple.
    early: usize,
    emit: &'a plan::Emit,
}

/// Leapjoin of new tuples with a static index: datafrog's `ExtendWith`
/// proposes the index's values for each tuple's key and a `ValueFilter`
/// applies the rule's conditions. This is datafrog's leapjoin loop, except
/// that results are appended unsorted: count bodies never need sorting, and
/// other outputs are sorted once, unstably, by [`Store::output`]. It stops
/// once `out` holds `room` tuples.
fn extend_into(
    source: &[Tuple],
    ext: &Extension,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
    room: usize,
    out: &mut Vec<Tuple>,
) {
    let Extension {
        index,
        key,
        checks,
        early,
        emit,
    } = *ext;
    let zero: Half = [0; HALF];
    let (early, checks) = checks.split_at(early);
    let key_of = |t: &Tuple| -> Half {
        let f = Frame::new(t, &zero);
        let mut k = [0; HALF];
        for (i, e) in key.iter().enumerate().take(HALF) {
            k[i] = match e {
                plan::CExpr::Slot(s) => f.get(*s as usize),
                e => e.eval(&f).unwrap_or(Value::MIN),
            };
        }
        k
    };
    let filter = |t: &Tuple, v: &Half| {
        let f = Frame::new(t, v);
        plan::passes(checks, &f, absent)
    };
    let mut leapers = (ExtendWith::from(index, key_of), ValueFilter::from(filter));
    let mut values: Vec<&Half> = Vec::new();
    for t in source.iter() {
        if !early.is_empty() && !plan::passes(early, &Frame::new(t, &zero), absent) {
            continue;
        }
        let mut min = (usize::MAX, usize::MAX);
        leapers.for_each_count(t, |i, count| {
            if count < min.1 {
                min = (i, count);
            }
        });
        if min.1 == 0 || min.0 == usize::MAX {
            continue;
        }
        leapers.propose(t, min.0, &mut values);
        leapers.intersect(t, min.0, &mut values);
        for v in values.drain(..) {
            let f = Frame::new(t, v);
            if let Some(o) = plan::emit(emit, &f) {
                out.push(o);
            }
        }
        if out.len() >= room {
            // The caller sees the operator was cut: a fact limit.
            return;
        }
    }
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
