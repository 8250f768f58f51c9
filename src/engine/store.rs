//! The fact store of one evaluation: one semi-naive [`Var`] per plan
//! variable (each fact with its provenance), the counters of incremental
//! counts, and the rounds that run datafrog's joins over them to a
//! fixpoint. Forking it copies the facts and counters so a branch continues
//! where its parent stalled.
//!
//! This file holds the store and its round loop; running one operator is
//! `ops`, the counters `counts`, switching tiers `tiers`, and the static
//! relations a store reads `statics`.

use super::counts::{Counters, MAX_SET_GROUPS, key_prefix, threshold};
use super::plan::{ChainRole, FIRST_GATED_TIER, Op, Out, Plan, SeedSource};
use super::profile::Profile;
use super::tuple::{EMPTY, Tuple};
use super::var::{NO_RULE, Var};
use crate::lang::program::RelId;
use crate::lang::value::CmpOp;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;
use std::time::Instant;

// Kept at their paths from before the store was split.
pub use super::counts::{counter_init, reached_at_start};
pub use super::statics::Statics;
pub use super::var::FactOrigin;

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
    pub(super) vars: Vec<Var>,
    pub(super) counters: Vec<Counters>,
    /// Exact counts over a static seed: emitted (at the first fixpoint).
    pub(super) finalized: Vec<bool>,
    /// Exact counts over a changing seed: the groups emitted so far.
    pub(super) finalized_groups: Vec<FxHashSet<Tuple>>,
    /// The step number of the last round (a fork continues its parent's
    /// numbering, so steps order facts along a branch's whole path).
    pub step: u32,
    /// Rounds this store ran itself (not counting its parent's).
    pub rounds: u32,
    /// New facts per program rule, derived by this store itself.
    pub firings: FxHashMap<u32, u32>,
    /// New facts this store inserted into variables (for the fact limit).
    pub derived: u64,
    /// `rounds`, `derived` and `firings` as last reported (see
    /// `Solve::take_counts`): a store that goes on after a report (a
    /// forcing step, its last option's guess) reports only what is new.
    pub reported: (u32, u64, FxHashMap<u32, u32>),
    /// The hardest tier switched on (tiers below [`FIRST_GATED_TIER`] always run).
    pub active_tier: u32,
    /// The hardest tier this store may switch on (forcing's forks may run
    /// fewer techniques than their parent).
    pub tier_cap: u32,
    /// Set when a rule of a gated tier derived a new fact this round that
    /// an easier tier reads (see [`Plan::resets_tiers`]).
    gated_fired: bool,
    /// Per tier copy (index in [`Plan::copies`]): the tuples its source
    /// gained while its tier was off, fed to it when the tier is switched
    /// on, so a switch costs what was missed rather than everything.
    pub(super) missed: Vec<Vec<Tuple>>,
    /// Per variable: the tuples a pipe carries to its reader this round
    /// (always empty between rounds).
    pipe_buf: Vec<Vec<Tuple>>,
    /// Scratch for operators' outputs (reused every round, so a round
    /// allocates nothing once the buffers have grown).
    out_buf: Vec<Tuple>,
    /// Scratch for the groups a count reaches in one round.
    pub(super) reached_buf: Vec<Tuple>,
    /// How many tuples one operator may produce in a round (the fact
    /// limit): a rule whose one step would make more (a runaway, or every
    /// digit set of a 25x25 grid) is cut there rather than allowed to take
    /// the machine's memory before the round ends.
    pub(super) op_room: usize,
    /// Set when an operator was cut at `op_room`.
    pub(super) overflowed: bool,
    /// The operators to run this round, a bit each: those reading a
    /// variable with recent facts or a pipe filled earlier in the round
    /// (most operators have nothing to read in most rounds, and looking at
    /// each of them was a tenth of a quiet round's cost).
    active: Vec<u64>,
    /// Scratch: the variables with recent facts this round.
    fresh: Vec<usize>,
    /// The variables that received facts since the last round began (see
    /// [`Store::insert_var`]), each listed once: with `fresh`, all that
    /// the next round must advance (a round looked at every variable
    /// before, and with hundreds of them that was a tenth of the time).
    touched: Vec<usize>,
    /// Per variable: whether it is in `touched`.
    is_touched: Vec<bool>,
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
        let n_vars = vars.len();
        let mut store = Store {
            vars,
            counters: plan
                .aggs
                .iter()
                .map(|a| match (a.row_slot, a.seed) {
                    _ if a.fold.is_some() => Counters::Folds(FxHashMap::default()),
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
            reported: Default::default(),
            active_tier: FIRST_GATED_TIER - 1,
            tier_cap: u32::MAX,
            gated_fired: false,
            missed: vec![Vec::new(); plan.copies.len()],
            pipe_buf: vec![Vec::new(); plan.vars.len()],
            out_buf: Vec::new(),
            reached_buf: Vec::new(),
            op_room: usize::MAX,
            overflowed: too_many_groups,
            active: vec![0; plan.ops.len().div_ceil(64)],
            fresh: Vec::new(),
            // Loading filled some: the first round looks at all.
            touched: (0..n_vars).collect(),
            is_touched: vec![true; n_vars],
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
                        (
                            Counters::Sparse(_)
                            | Counters::Sets(_)
                            | Counters::DenseSets(_)
                            | Counters::Folds(_),
                            _,
                        ) => {
                            computed = seeds
                                .iter()
                                .filter(|t| threshold(&agg.bound, t) <= 0)
                                .map(|t| key_prefix(&t, agg.key_len))
                                .collect();
                            &computed
                        }
                    };
                if !reached.is_empty() {
                    store.insert_var(plan.aggs[i].reached, reached, loaded);
                }
            }
        }
        store
    }

    /// A copy of this store that evolves independently (a branch). Only
    /// valid at a fixpoint, when no tuple is waiting to be merged.
    pub fn fork(&mut self, plan: &Plan) -> Store {
        Store {
            vars: self.vars.iter_mut().map(Var::fork).collect(),
            counters: self.counters.clone(),
            finalized: self.finalized.clone(),
            finalized_groups: self.finalized_groups.clone(),
            step: self.step,
            rounds: 0,
            firings: FxHashMap::default(),
            derived: 0,
            reported: Default::default(),
            active_tier: self.active_tier,
            tier_cap: self.tier_cap,
            gated_fired: false,
            missed: self.missed.clone(),
            pipe_buf: vec![Vec::new(); plan.vars.len()],
            out_buf: Vec::new(),
            reached_buf: Vec::new(),
            op_room: self.op_room,
            overflowed: false,
            active: vec![0; plan.ops.len().div_ceil(64)],
            fresh: Vec::new(),
            touched: self.touched.clone(),
            is_touched: self.is_touched.clone(),
        }
    }

    /// Freezes every variable's facts so that the forks that follow share
    /// them (see [`Var::freeze`]).
    pub fn freeze(&mut self) {
        self.vars.iter_mut().for_each(Var::freeze);
    }

    /// Adds facts to a variable (a guess), recording their origin.
    pub fn insert(&mut self, var: usize, tuples: &[Tuple], origin: FactOrigin) {
        self.insert_var(var, tuples, origin);
    }

    /// Adds facts to a variable, noting it for the next round's advance;
    /// returns how many were new. Every fact enters a variable here, or
    /// through `copy_recent`, which notes it the same way.
    pub(super) fn insert_var(&mut self, var: usize, tuples: &[Tuple], origin: FactOrigin) -> u32 {
        let new = self.vars[var].insert(tuples, origin);
        self.note_touched(var, new);
        new
    }

    /// Notes that `var` received `new` new facts (see `touched`).
    pub(super) fn note_touched(&mut self, var: usize, new: u32) {
        if new > 0 && !self.is_touched[var] {
            self.is_touched[var] = true;
            self.touched.push(var);
        }
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
                    .map(move |(t, o)| (rel, t, *o))
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
        self.vars[var].iter().for_each(|(t, _)| f(&t));
    }

    /// Every tuple of a variable, sorted.
    pub fn tuples(&self, var: usize) -> Vec<Tuple> {
        let mut all: Vec<Tuple> = self.vars[var].iter().map(|(t, _)| t).collect();
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
        // Last round's fresh variables drop their recent facts; touched
        // ones take their pending facts as recent; no other has either.
        let mut visit = std::mem::take(&mut self.touched);
        visit.append(&mut self.fresh);
        visit.sort_unstable();
        visit.dedup();
        for &i in &visit {
            self.is_touched[i] = false;
            if self.vars[i].advance() {
                self.fresh.push(i);
            }
        }
        if cfg!(debug_assertions) {
            for (i, v) in self.vars.iter().enumerate() {
                assert!(
                    visit.binary_search(&i).is_ok() || !v.has_input(),
                    "variable {i} has facts to advance but was not touched"
                );
            }
        }
        visit.clear();
        self.touched = visit;
        !self.fresh.is_empty()
    }

    /// Marks the operators reading variable `var` to run this round.
    fn wake_readers(&mut self, var: usize, plan: &Plan) {
        for &op in &plan.readers[var] {
            self.active[op as usize / 64] |= 1 << (op % 64);
        }
    }

    /// Takes the next operator marked to run, in plan order.
    fn next_active(&mut self) -> Option<usize> {
        for (w, bits) in self.active.iter_mut().enumerate() {
            if *bits != 0 {
                let b = bits.trailing_zeros() as usize;
                *bits &= !(1 << b);
                return Some(w * 64 + b);
            }
        }
        None
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
        profile: Option<&Profile>,
    ) -> RunEnd {
        self.op_room = usize::try_from(limits.facts).unwrap_or(usize::MAX);
        loop {
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return RunEnd::Timeout;
            }
            let round_started = profile.map(|_| Instant::now());
            let advanced = self.advance();
            if let (Some(p), Some(t)) = (profile, round_started) {
                p.record_round(t.elapsed());
            }
            if !advanced {
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
            for (i, c) in plan.copies.iter().enumerate() {
                if c.tier <= self.active_tier {
                    self.copy_recent(c.from, c.to, FactOrigin::unruled(self.step));
                } else {
                    self.missed[i].extend_from_slice(self.vars[c.from].recent());
                }
            }
            self.active.fill(0);
            for k in 0..self.fresh.len() {
                self.wake_readers(self.fresh[k], plan);
            }
            // Debug builds check that every operator left asleep has
            // nothing to read, which is what makes waking only some right
            // (pipes are empty here: a pipe's reader comes after its
            // writer, so one left full would show up here next round).
            if cfg!(debug_assertions) {
                for (i, op) in plan.ops.iter().enumerate() {
                    let awake = self.active[i / 64] & (1 << (i % 64)) != 0;
                    assert!(
                        awake || self.idle(op, plan),
                        "operator {i} has input but sleeps"
                    );
                }
            }
            while let Some(i) = self.next_active() {
                let op = &plan.ops[i];
                if self.idle(op, plan) {
                    continue;
                }
                let started = profile.map(|_| (Instant::now(), self.derived));
                match plan.chain_role.get(i) {
                    Some(&ChainRole::Head(c)) if statics.memo_scope != 0 => {
                        self.run_count_chain(c, plan, statics)
                    }
                    // Its chain's head ran it: nothing to run, or to time.
                    Some(ChainRole::Member) if statics.memo_scope != 0 => continue,
                    _ => self.run_op(i, op, plan, statics),
                }
                if let (Some(p), Some((t, before))) = (profile, started) {
                    p.record_op(i, t.elapsed(), self.derived - before);
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

    /// An empty output buffer (see [`Store::output`]).
    pub(super) fn take_out(&mut self) -> Vec<Tuple> {
        let mut out = std::mem::take(&mut self.out_buf);
        out.clear();
        out
    }

    /// Sends an operator's output where it goes, keeping the buffer.
    pub(super) fn output(&mut self, to: &Out, mut tuples: Vec<Tuple>, plan: &Plan) {
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
            self.wake_readers(to.var, plan);
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
        let new = self.insert_var(to.var, tuples, origin);
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

    /// The tuples waiting in a pipe (see [`Plan::pipes`]), or `None` if the
    /// variable is not one and its newest tuples are to be read instead.
    pub(super) fn take_pipe(&mut self, var: usize, plan: &Plan) -> Option<Vec<Tuple>> {
        plan.is_pipe(var)
            .then(|| std::mem::take(&mut self.pipe_buf[var]))
    }

    /// Gives a pipe its buffer back once read (its allocation is reused).
    pub(super) fn return_pipe(&mut self, var: usize, piped: Option<Vec<Tuple>>) {
        if let Some(mut buf) = piped {
            buf.clear();
            self.pipe_buf[var] = buf;
        }
    }
}
