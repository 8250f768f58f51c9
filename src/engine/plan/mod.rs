//! Join plans: each engine rule becomes a chain of datafrog operators over
//! [`Tuple`](super::tuple::Tuple) relations, planned once per rule set.
//!
//! A chain starts from a *driver*: a relation that changes inside this
//! evaluation (its `recent` tuples are the semi-naive delta), or a static
//! relation loaded once. Each further atom is one operator:
//!
//! - a static atom is an [`Op::Extend`]: a datafrog leapjoin that proposes
//!   the atom's new values from a pre-built index, with the rule's
//!   comparisons and negations as value filters;
//! - a changing atom is an [`Op::Join`]: a join of the chain
//!   (keyed on the shared variables) with an index variable of the atom's
//!   relation, so both sides' deltas are joined with the other's history
//!   (when neither side has values beside the key, a *probe* join instead
//!   looks each new tuple up in the other side's facts).
//!
//! Every operator reads a *frame* of up to twelve slots and writes one tuple
//! per surviving binding, laid out for the next operator.
//!
//! The planner's files: `ops` the operators and their parts (what a plan
//! says), `eval` what checks and emits compute on a frame (the functions
//! every operator calls per tuple), `build` the planning of rules and
//! counts into operators, `layout` which variable sits in which slot of a
//! chain's tuples, `analysis` what is worked out from a finished plan
//! (pipes, what each variable keeps, count chains). This file holds the
//! [`Plan`] itself.

mod analysis;
mod build;
mod eval;
mod layout;
mod ops;

pub use super::tiers::{FIRST_GATED_TIER, TierCopy};
pub use build::compile;
pub use eval::{emit, passes};
pub use ops::{
    CExpr, Check, Emit, GuardId, GuardSpec, IndexId, IndexSpec, Indexes, Lookup, Op, Out, PlanAgg,
    ProjectionSpec, SeedSource, Simple, VarIdx, reads_right,
};

use crate::lang::program::RelId;
use rustc_hash::{FxHashMap, FxHashSet};

/// A compiled evaluation: the variables of one datafrog iteration and the
/// operators to run each round.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Variable names (for debugging).
    pub vars: Vec<String>,
    /// The variable holding each relation of this evaluation (flat layout).
    pub rel_var: FxHashMap<RelId, VarIdx>,
    /// Static data loaded into variables before the first round.
    pub loads: Vec<(IndexId, VarIdx)>,
    /// Variables that start with the single empty tuple (rules without atoms).
    pub unit_loads: Vec<VarIdx>,
    /// Relations whose built-in base facts are loaded into their variable.
    pub base_loads: Vec<(RelId, VarIdx)>,
    /// The operators, in order.
    pub ops: Vec<Op>,
    /// The counts evaluated here.
    pub aggs: Vec<PlanAgg>,
    /// Copies of relations that rules of a gated tier read: fed only while
    /// the tier is active (and refilled when it is switched on again).
    pub copies: Vec<TierCopy>,
    /// The tier of each program rule compiled here.
    pub rule_tiers: FxHashMap<usize, u32>,
    /// Per operator: the tier of the rule (or count) it was compiled for.
    pub op_tiers: Vec<u32>,
    /// The program rules of gated tiers whose new facts switch the gated
    /// tiers off again: those deriving what a rule of an easier tier reads
    /// (new placements and eliminations, above all). A helper that only
    /// its own tier or harder ones read (`fits`, `link`) does not: easier
    /// techniques could do nothing new with it.
    pub resets_tiers: FxHashSet<usize>,
    /// The highest tier of any rule here.
    pub max_tier: u32,
    /// Per variable: whether it is a *pipe*, an intermediate result that one
    /// later operator of the same round reads and nothing else does. Its
    /// tuples go straight to that operator instead of through a datafrog
    /// variable (no sorting into batches, no deduplication against history).
    pub pipes: Vec<bool>,
    /// Per variable: the operators that read it, in order, so that a round
    /// runs only the operators with something new to read.
    pub readers: Vec<Vec<u32>>,
    /// Per operator: whether its outputs depend only on its input tuple and
    /// the grid size's geometry, so they may be memoised (set by the engine
    /// for the fixpoint's plan; empty elsewhere).
    pub memo: Vec<bool>,
    /// The guards the operators check (see [`Check::Unknown`]).
    pub guards: Vec<GuardSpec>,
    /// Projections the store keeps of some variables, for guards with `_`
    /// columns: the variable and the columns kept, in the order they are
    /// registered with the variable.
    pub projections: Vec<ProjectionSpec>,
    /// Chains of memoisable operators that end in an array count (found by
    /// [`Plan::find_count_chains`] once `memo` is set).
    pub count_chains: Vec<CountChain>,
    /// Per operator: its part in a count chain.
    pub chain_role: Vec<ChainRole>,
}

/// A chain of memoisable `Extend`s, each feeding the next through a pipe,
/// whose last one bumps an array count (a static, numbered seed). For one
/// input tuple the chain always bumps the same counter rows, so the whole
/// chain is memoised as input -> rows: no intermediate or output tuples are
/// built once it has seen an input.
#[derive(Clone, Debug)]
pub struct CountChain {
    /// The operators, in order; the first reads the chain's input.
    pub ops: Vec<usize>,
    /// The count bumped (index in [`Plan::aggs`]).
    pub agg: usize,
}

/// An operator's part in a count chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChainRole {
    /// Not in a chain: run on its own.
    #[default]
    Alone,
    /// The first operator of chain `n`: runs the whole chain.
    Head(usize),
    /// A later operator of a chain: run by its head.
    Member,
}

impl Plan {
    /// Whether a variable is a pipe (see [`Plan::pipes`]).
    pub fn is_pipe(&self, var: VarIdx) -> bool {
        self.pipes.get(var).copied().unwrap_or(false)
    }
}

/// A rule too wide for the fixed tuple: more live variables than slots.
#[derive(Clone, Debug)]
pub struct PlanError {
    /// The program rule (or the rule holding the count) concerned.
    pub rule: Option<usize>,
    /// What is wrong.
    pub message: String,
}
