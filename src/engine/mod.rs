//! The evaluator: a checked program compiled once into datafrog plans, run
//! per puzzle as one semi-naive fixpoint.
//!
//! Static relations (geometry, and whatever rules derive from it without
//! looking at the state) are evaluated stratum by stratum, once per grid
//! size, and cached; those that read the givens once per puzzle. The state
//! (`placed`, `eliminated`, and everything that depends on them) lives in
//! one [`Store`], which the branching layer can fork.
//!
//! The engine's files, one concept each: [`ir`] lowers counts, [`plan`]
//! plans rules into operators, `compile` builds an [`Engine`] (strata,
//! plans, memo marks), `statics` computes and caches the static relations,
//! `branch` is one puzzle's [`Solve`]; at run time [`store`] holds the
//! facts and runs rounds, `ops` runs one operator, `counts` the counters,
//! `tiers` the gated tiers, [`profile`] the time per rule (`--profile`),
//! with [`var`] (its facts in a `tuple_map`), [`seeds`], `needs`, `memo`
//! and [`tuple`] beneath them.
//! This file holds the [`Engine`] itself.

mod branch;
pub mod clues;
mod compile;
mod computed;
mod counts;
pub mod facts;
pub mod ir;
mod layered;
mod memo;
mod needs;
mod ops;
pub mod plan;
pub mod profile;
pub mod seeds;
pub mod show_plan;
mod statics;
pub mod store;
mod tiers;
pub mod tuple;
mod tuple_map;
pub mod var;

use crate::lang::program::{Program, RelId};
use ir::Lowered;
use plan::{Indexes, Plan};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

pub use branch::{Guess, Solve, Status};
pub use statics::Statics;
pub use store::{FactOrigin, RunEnd, Store};

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

/// A static relation's flat tuples, sorted, as the statics hold them.
pub type StaticTuples = datafrog::Relation<tuple::Tuple>;

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
    /// The digit-set built-ins that the statics drop (see
    /// `drop_unread_sets`), made again when inspection first reads one, by
    /// relation and grid size: grading reads `covers` for every puzzle.
    inspected_sets: Mutex<FxHashMap<(RelId, usize), Arc<StaticTuples>>>,
    placed: usize,
    eliminated: usize,
    contradiction: usize,
    /// Seeds with a row-number column, with the column's position.
    numbered: FxHashMap<RelId, usize>,
    /// Whether to show where derived facts came from (they are always
    /// kept: a relation's fact map holds each one's origin).
    provenance: bool,
    /// Facts a branch or a static stratum may store (see
    /// [`DEFAULT_FACT_LIMIT`]).
    fact_limit: u64,
    /// The same program without the techniques that assume one solution,
    /// when it has any: what counting solutions runs.
    counting: Option<Box<Engine>>,
    /// The rules that place, eliminate or end a branch only because their
    /// technique assumes one solution (ids of [`Engine::program`]).
    assuming: rustc_hash::FxHashSet<usize>,
    /// The indexes of `covers` and `in_set` that lookups compute rather
    /// than store (see [`computed`]).
    computed: rustc_hash::FxHashMap<plan::IndexId, computed::Computed>,
    /// Per operator of the fixpoint, the time its runs took, when asked
    /// for (see [`Engine::enable_profile`]).
    profile: Option<profile::Profile>,
}

impl Engine {
    /// The checked program this engine runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The engine that counts solutions: this one without the techniques
    /// that assume there is only one (`.assumes unique`), which would
    /// otherwise rule the second solution out. The same program, so rule
    /// ids in an outcome of either read the same.
    pub fn counting(&self) -> &Engine {
        self.counting.as_deref().unwrap_or(self)
    }

    /// Whether a solve's rule firings (`(rule id, facts)`, as in its
    /// stats) include a conclusion that rests on the assumption of one
    /// solution: then an answer of "no solution", or a grade, must be
    /// checked without it.
    pub fn used_assumption(&self, firings: &[(usize, u64)]) -> bool {
        !self.assuming.is_empty() && firings.iter().any(|(rule, _)| self.assuming.contains(rule))
    }

    /// Sets how many facts a branch or a static stratum may store (see
    /// [`DEFAULT_FACT_LIMIT`]), for counting too.
    pub fn set_fact_limit(&mut self, limit: u64) {
        self.fact_limit = limit;
        if let Some(c) = &mut self.counting {
            c.set_fact_limit(limit);
        }
    }

    /// The fact limit ([`Engine::set_fact_limit`]).
    pub fn fact_limit(&self) -> u64 {
        self.fact_limit
    }

    /// Sets whether reports show where derived facts came from (they are
    /// always kept; off saves the time of showing them), for counting too.
    pub fn set_provenance(&mut self, on: bool) {
        self.provenance = on;
        if let Some(c) = &mut self.counting {
            c.set_provenance(on);
        }
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
}
