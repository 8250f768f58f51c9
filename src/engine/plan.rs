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
//! - a changing atom is an [`Op::Join`]: a datafrog merge join of the chain
//!   (keyed on the shared variables) with an index variable of the atom's
//!   relation, so both sides' deltas are joined with the other's history
//!   (when neither side has values beside the key, a *probe* join instead
//!   looks each new tuple up in the other side's facts).
//!
//! Every operator reads a *frame* of up to twelve slots and writes one tuple
//! per surviving binding, laid out for the next operator.

use super::ir::{AggDef, ERule, Lowered};
use super::tuple::{FRAME, Frame, HALF, SLOTS, Tuple};
use super::var::Keep;
use crate::lang::program::{Arg, Atom, Expr, RelId, Value, VarId};
use crate::lang::value::CmpOp;
use rustc_hash::{FxHashMap, FxHashSet};

/// Index of a datafrog variable within a plan's store.
pub type VarIdx = usize;
/// Index of a static index in [`Indexes`].
pub type IndexId = usize;
/// Index of a guard in [`Plan::guards`].
pub type GuardId = usize;

/// What a check looks a tuple up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A static index (a negated static atom).
    Static(IndexId),
    /// A relation of the state (a guard), as known before the round.
    State(GuardId),
    /// A guard with `where`: a fact of the state known before the round
    /// whose spread column (see [`ProjectionSpec::spread`]) stands in the
    /// relation to the value.
    StateWhere(GuardId, CmpOp, Value),
}

/// A projection of a relation of the state that guards look facts up in:
/// the first round each projected tuple was known, and for a guard with
/// `where`, the values of one more column with the round each arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectionSpec {
    /// The relation's variable.
    pub var: VarIdx,
    /// The columns kept, in order: the guard's bound columns.
    pub cols: Vec<usize>,
    /// The column a guard's `where` compares, whose values are kept per
    /// projected tuple.
    pub spread: Option<usize>,
}

/// A guard's lookup (`unless placed(C, _)`): a relation of the fixpoint,
/// looked up by all its columns or, with `_` columns, through one of the
/// variable's projections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardSpec {
    /// The relation's variable.
    pub var: VarIdx,
    /// The projection of that variable to look in (see
    /// [`Plan::projections`]), its number among that variable's own; `None`
    /// to look up the whole tuple.
    pub projection: Option<usize>,
}

/// How to build a static index from a complete (flat) static relation:
/// keep tuples matching `consts` and `eqs`, put `key` columns in the first
/// half and `val` columns in the second.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexSpec {
    /// The relation (engine id).
    pub rel: RelId,
    /// Columns forming the key, in key order.
    pub key: Vec<usize>,
    /// Columns forming the value, in order.
    pub val: Vec<usize>,
    /// Columns that must equal a constant.
    pub consts: Vec<(usize, Value)>,
    /// Pairs of columns that must be equal.
    pub eqs: Vec<(usize, usize)>,
}

impl IndexSpec {
    /// The flat layout of a relation of `arity` columns: slots in column order.
    pub fn flat(rel: RelId, arity: usize) -> IndexSpec {
        IndexSpec {
            rel,
            key: (0..arity.min(HALF)).collect(),
            val: (HALF.min(arity)..arity).collect(),
            consts: Vec::new(),
            eqs: Vec::new(),
        }
    }

    /// Whether a flat tuple passes the filters.
    pub fn accepts(&self, t: &Tuple) -> bool {
        use super::tuple::slot;
        self.consts.iter().all(|&(c, v)| slot(t, c) == v)
            && self.eqs.iter().all(|&(a, b)| slot(t, a) == slot(t, b))
    }

    /// Re-lays a flat tuple into `(key, val)`.
    pub fn layout(&self, t: &Tuple) -> Tuple {
        use super::tuple::slot;
        let mut out = super::tuple::EMPTY;
        for (i, &c) in self.key.iter().enumerate() {
            out.0[i] = slot(t, c);
        }
        for (i, &c) in self.val.iter().enumerate() {
            out.1[i] = slot(t, c);
        }
        out
    }
}

/// All index specs of a compiled rule set, deduplicated.
#[derive(Clone, Debug, Default)]
pub struct Indexes {
    /// The specs by id.
    pub specs: Vec<IndexSpec>,
    /// The ids that negations probe: they also get a hash set.
    pub probed: FxHashSet<IndexId>,
    ids: FxHashMap<IndexSpec, IndexId>,
}

impl Indexes {
    /// The id of an index already asked for.
    pub fn find(&self, spec: &IndexSpec) -> Option<IndexId> {
        self.ids.get(spec).copied()
    }

    /// The id of an index, registering it if new.
    pub fn id(&mut self, spec: IndexSpec) -> IndexId {
        if let Some(&id) = self.ids.get(&spec) {
            return id;
        }
        let id = self.specs.len();
        self.ids.insert(spec.clone(), id);
        self.specs.push(spec);
        id
    }
}

/// An expression over frame slots.
#[derive(Clone, Debug, PartialEq)]
pub enum CExpr {
    /// A frame slot.
    Slot(u8),
    /// A constant.
    Const(Value),
    /// `a + b`.
    Add(Box<CExpr>, Box<CExpr>),
    /// `a - b`.
    Sub(Box<CExpr>, Box<CExpr>),
    /// `-a`.
    Neg(Box<CExpr>),
}

impl CExpr {
    /// The frame slots the expression reads.
    pub fn slots(&self) -> Box<dyn Iterator<Item = u8> + '_> {
        match self {
            CExpr::Slot(i) => Box::new(std::iter::once(*i)),
            CExpr::Const(_) => Box::new(std::iter::empty()),
            CExpr::Add(a, b) | CExpr::Sub(a, b) => Box::new(a.slots().chain(b.slots())),
            CExpr::Neg(a) => a.slots(),
        }
    }

    /// Evaluates over a frame; `None` on overflow.
    #[inline]
    pub fn eval(&self, f: &Frame) -> Option<Value> {
        match self {
            CExpr::Slot(i) => Some(f.get(*i as usize)),
            CExpr::Const(c) => Some(*c),
            CExpr::Add(a, b) => a.eval(f)?.checked_add(b.eval(f)?),
            CExpr::Sub(a, b) => a.eval(f)?.checked_sub(b.eval(f)?),
            CExpr::Neg(a) => a.eval(f)?.checked_neg(),
        }
    }
}

/// A slot or a constant: the operands most expressions are, evaluated
/// without recursion or overflow checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simple {
    /// A frame slot.
    Slot(u8),
    /// A constant.
    Const(Value),
}

impl Simple {
    /// The operand's value in a frame.
    #[inline]
    pub fn get(self, f: &Frame) -> Value {
        match self {
            Simple::Slot(i) => f.get(i as usize),
            Simple::Const(c) => c,
        }
    }
}

impl CExpr {
    /// The expression as a [`Simple`] operand, if it is one.
    pub fn simple(&self) -> Option<Simple> {
        match self {
            CExpr::Slot(i) => Some(Simple::Slot(*i)),
            CExpr::Const(c) => Some(Simple::Const(*c)),
            _ => None,
        }
    }
}

/// A condition on a frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// A comparison of two simple operands.
    Fast(Simple, CmpOp, Simple),
    /// A comparison with arithmetic.
    Cmp(CExpr, CmpOp, CExpr),
    /// A negated static atom: the tuple built from `key` (laid out by the
    /// index spec) must not be in the index.
    Absent {
        /// The index to look in.
        index: IndexId,
        /// Values for the index's key then value columns.
        key: Vec<CExpr>,
    },
    /// A guard: the tuple built from `key` (the atom's columns other than
    /// `_`, in order) must not be known before the current round; with
    /// `bound`, no such fact whose `where` column stands in the relation to
    /// the bound's value.
    Unknown {
        /// The guard (index in [`Plan::guards`]).
        guard: GuardId,
        /// Values for the looked-up columns.
        key: Vec<CExpr>,
        /// The comparison of a guard's `where`, and what it compares with.
        bound: Option<(CmpOp, CExpr)>,
    },
}

impl Check {
    /// A comparison, in its fast form when both sides are simple.
    pub fn cmp(a: CExpr, op: CmpOp, b: CExpr) -> Check {
        match (a.simple(), b.simple()) {
            (Some(x), Some(y)) => Check::Fast(x, op, y),
            _ => Check::Cmp(a, op, b),
        }
    }
}

/// The output of an operator: one expression per output slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Emit {
    /// Expressions for slots `0..SLOTS`.
    pub slots: Vec<CExpr>,
    /// The same when every slot is simple (the usual case).
    pub fast: Option<Vec<Simple>>,
}

impl Emit {
    /// An emit from per-slot expressions.
    pub fn new(slots: Vec<CExpr>) -> Emit {
        let fast = slots.iter().map(CExpr::simple).collect();
        Emit { slots, fast }
    }
}

/// Where an operator's output goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Out {
    /// The variable receiving the tuples (unused when `count` is set).
    pub var: VarIdx,
    /// For the last operator of a program rule: the rule and the relation
    /// it derives (for provenance and firing counts).
    pub rule: Option<(usize, RelId)>,
    /// For the last operator of a count's body: the aggregate (index in
    /// [`Plan::aggs`]) whose counters the tuples bump. They are full
    /// bindings of the body, so semi-naive evaluation yields each one
    /// exactly once and they need not be stored.
    pub count: Option<usize>,
}

impl Out {
    /// Output into a variable.
    pub fn to_var(var: VarIdx) -> Out {
        Out {
            var,
            rule: None,
            count: None,
        }
    }
}

/// One operator, run once per round on the newest tuples.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Filter and re-lay the recent tuples of a variable.
    Map {
        /// Input variable.
        from: VarIdx,
        /// Conditions.
        checks: Vec<Check>,
        /// Output layout.
        emit: Emit,
        /// Destination.
        to: Out,
    },
    /// Merge join of two variables keyed on their first half.
    Join {
        /// Left input (the chain so far).
        left: VarIdx,
        /// Right input (an index variable).
        right: VarIdx,
        /// Neither side has values beside the key (the join is an
        /// intersection, as in `placed(C, D), eliminated(C, D)`): each new
        /// tuple is looked up in the other side's facts instead of merged
        /// with its sorted batches, so neither side needs them.
        probe: bool,
        /// Conditions.
        checks: Vec<Check>,
        /// Output layout.
        emit: Emit,
        /// Destination.
        to: Out,
    },
    /// Leapjoin of a variable's recent tuples with a static index.
    Extend {
        /// Input variable.
        source: VarIdx,
        /// The static index proposing values.
        index: IndexId,
        /// The key, over the source's slots.
        key: Vec<CExpr>,
        /// Conditions: first those that read only the input tuple, which
        /// are tested once per tuple, before its values are proposed.
        checks: Vec<Check>,
        /// How many of `checks` read only the input tuple.
        early: usize,
        /// Output layout.
        emit: Emit,
        /// Destination.
        to: Out,
    },
    /// Emits groups whose bound is already met with a count of zero.
    SeedCheck {
        /// The seed variable.
        seed: VarIdx,
        /// The aggregate (index in [`Plan::aggs`]).
        agg: usize,
    },
}

/// A count as a plan runs it.
#[derive(Clone, Debug)]
pub struct PlanAgg {
    /// Number of key slots (a flat prefix of the body's output).
    pub key_len: usize,
    /// Emit every group with its count in slot `key_len` (`V = count`).
    pub value: bool,
    /// A set (`V = set X : {...}`): the slot of `X` in the body's output.
    pub elem_slot: Option<usize>,
    /// A set over the state: each group is emitted whenever its set grows.
    pub grows: bool,
    /// The counter value at which the group is reached (over key slots),
    /// for monotone counts; the bound for others.
    pub bound: CExpr,
    /// The comparison.
    pub op: CmpOp,
    /// Receives reached groups.
    pub reached: VarIdx,
    /// The seed: a variable of this plan, or a static index (flat).
    pub seed: SeedSource,
    /// For a static, numbered seed: the slot of the body's output holding
    /// the group's row number, for array counters.
    pub row_slot: Option<usize>,
}

/// Where a count's groups come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedSource {
    /// A variable of the plan.
    Var(VarIdx),
    /// A complete static relation, as a flat index.
    Static(IndexId),
}

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

    /// What each variable keeps of its facts (see [`Keep`]): sorted
    /// batches for merge-join operands; only a count for tier copies and
    /// reached groups (new by construction) that nothing looks up; every
    /// fact otherwise.
    pub fn var_keeps(&self) -> Vec<Keep> {
        let mut keeps = vec![Keep::Facts; self.vars.len()];
        let mut streams = vec![false; self.vars.len()];
        for c in &self.copies {
            streams[c.to] = true;
        }
        for a in &self.aggs {
            streams[a.reached] = true;
        }
        // Looked up by a join, read whole as a seed, or a relation.
        let mut looked_up = vec![false; self.vars.len()];
        for a in &self.aggs {
            if let SeedSource::Var(v) = a.seed {
                looked_up[v] = true;
            }
        }
        for &v in self.rel_var.values() {
            looked_up[v] = true;
        }
        for op in &self.ops {
            match op {
                Op::Join {
                    left, right, probe, ..
                } => {
                    for v in [*left, *right] {
                        looked_up[v] = true;
                        if !probe {
                            keeps[v] = Keep::Sorted;
                        }
                    }
                }
                Op::SeedCheck { seed, .. } => looked_up[*seed] = true,
                _ => {}
            }
        }
        for (v, keep) in keeps.iter_mut().enumerate() {
            if streams[v] && !looked_up[v] {
                *keep = Keep::Count;
            }
        }
        keeps
    }

    /// Finds the count chains (see [`CountChain`]) among the memoisable
    /// operators.
    pub fn find_count_chains(&mut self) {
        let memo = |i: usize| self.memo.get(i).copied().unwrap_or(false);
        // The operator reading each pipe.
        let mut pipe_reader: FxHashMap<VarIdx, usize> = FxHashMap::default();
        for (i, op) in self.ops.iter().enumerate() {
            if let Op::Extend { source, .. } = op
                && self.is_pipe(*source)
            {
                pipe_reader.insert(*source, i);
            }
        }
        let mut chains = Vec::new();
        let mut role = vec![ChainRole::Alone; self.ops.len()];
        for head in 0..self.ops.len() {
            // Members come after their head, so they are marked by now.
            if !memo(head) || role[head] != ChainRole::Alone {
                continue;
            }
            let mut ops = vec![head];
            let mut at = head;
            let agg = loop {
                let Op::Extend { to, .. } = &self.ops[at] else {
                    break None;
                };
                if let Some(agg) = to.count {
                    break Some(agg);
                }
                match pipe_reader.get(&to.var) {
                    Some(&next) if self.is_pipe(to.var) && memo(next) => {
                        ops.push(next);
                        at = next;
                    }
                    _ => break None,
                }
            };
            let Some(agg) = agg else { continue };
            let a = &self.aggs[agg];
            if a.row_slot.is_none() || !matches!(a.seed, SeedSource::Static(_)) {
                continue;
            }
            role[head] = ChainRole::Head(chains.len());
            for &m in &ops[1..] {
                role[m] = ChainRole::Member;
            }
            chains.push(CountChain { ops, agg });
        }
        self.count_chains = chains;
        self.chain_role = role;
    }
}

/// Rules of tiers at or above this one run only when every easier tier is
/// stalled.
pub const FIRST_GATED_TIER: u32 = 2;

/// A gated tier's copy of a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierCopy {
    /// The tier reading it.
    pub tier: u32,
    /// The relation's variable.
    pub from: VarIdx,
    /// The copy.
    pub to: VarIdx,
}

/// A rule too wide for the fixed tuple: more live variables than slots.
#[derive(Clone, Debug)]
pub struct PlanError {
    /// The program rule (or the rule holding the count) concerned.
    pub rule: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// Compiles the rules and counts whose heads are `members` into a plan.
pub fn compile(
    lowered: &Lowered,
    members: &[RelId],
    indexes: &mut Indexes,
    base_facts: &dyn Fn(RelId) -> bool,
) -> Result<Plan, PlanError> {
    let mut b = Builder {
        lowered,
        plan: Plan::default(),
        indexes,
        index_vars: FxHashMap::default(),
        copy_vars: FxHashMap::default(),
        tier: 0,
    };
    for &r in members {
        let v = b.new_var(&lowered.rels[r].name);
        b.plan.rel_var.insert(r, v);
        if base_facts(r) {
            b.plan.base_loads.push((r, v));
        }
    }
    for agg in &lowered.aggs {
        if members.contains(&agg.reached) {
            b.tier = agg.body.tier;
            b.compile_agg(agg)?;
            b.plan.op_tiers.resize(b.plan.ops.len(), b.tier);
        }
    }
    for rule in &lowered.rules {
        if members.contains(&rule.head) {
            b.tier = rule.tier;
            b.plan.max_tier = b.plan.max_tier.max(rule.tier);
            if let Some(r) = rule.source_rule {
                b.plan.rule_tiers.insert(r, rule.tier);
            }
            let var = b.plan.rel_var[&rule.head];
            let out = Out {
                var,
                rule: rule.source_rule.map(|r| (r, rule.head)),
                count: None,
            };
            b.compile_rule(rule, out, rule.source_rule)?;
            b.plan.op_tiers.resize(b.plan.ops.len(), b.tier);
        }
    }
    b.plan.resets_tiers = tier_resetting_rules(lowered, &b.plan.rule_tiers);
    b.plan.pipes = pipes(&b.plan);
    Ok(b.plan)
}

/// The rules of gated tiers among `rule_tiers` whose head relation a rule
/// (or a count's body) of an easier tier reads (see
/// [`Plan::resets_tiers`]).
fn tier_resetting_rules(lowered: &Lowered, rule_tiers: &FxHashMap<usize, u32>) -> FxHashSet<usize> {
    let mut easiest_reader: FxHashMap<RelId, u32> = FxHashMap::default();
    let mut read = |atoms: &[Atom], tier: u32| {
        for a in atoms {
            let t = easiest_reader.entry(a.rel).or_insert(tier);
            *t = (*t).min(tier);
        }
    };
    for r in &lowered.rules {
        read(&r.atoms, r.tier);
        read(&r.negs, r.tier);
        read(&r.guards, r.tier);
    }
    for a in &lowered.aggs {
        read(&a.body.atoms, a.body.tier);
        read(&a.body.negs, a.body.tier);
    }
    lowered
        .rules
        .iter()
        .filter_map(|r| {
            let id = r.source_rule?;
            let tier = *rule_tiers.get(&id)?;
            let easier_reads = easiest_reader.get(&r.head).is_some_and(|&t| t < tier);
            (tier >= FIRST_GATED_TIER && easier_reads).then_some(id)
        })
        .collect()
}

/// Finds the pipes of a plan (see [`Plan::pipes`]): variables written by
/// one operator and read only by one later `Extend` or `Map`, which reads
/// just the newest tuples anyway. Skipping the variable is sound because an
/// intermediate keeps every variable still needed: a count body's keeps
/// every variable of its binding, so distinct inputs stay distinct; a
/// rule's may repeat tuples across rounds, which its head deduplicates.
fn pipes(plan: &Plan) -> Vec<bool> {
    let n = plan.vars.len();
    let mut writer: Vec<Option<usize>> = vec![None; n];
    let mut writers = vec![0usize; n];
    let mut reader: Vec<Option<usize>> = vec![None; n];
    let mut reads = vec![0usize; n];
    let mut pinned = vec![false; n];
    for (i, op) in plan.ops.iter().enumerate() {
        let (inputs, out): (Vec<VarIdx>, Option<&Out>) = match op {
            Op::Map { from, to, .. } => (vec![*from], Some(to)),
            Op::Extend { source, to, .. } => (vec![*source], Some(to)),
            Op::Join {
                left, right, to, ..
            } => {
                // A join reads its inputs' whole history.
                pinned[*left] = true;
                pinned[*right] = true;
                (vec![*left, *right], Some(to))
            }
            Op::SeedCheck { seed, agg } => {
                pinned[*seed] = true;
                pinned[plan.aggs[*agg].reached] = true;
                (vec![*seed], None)
            }
        };
        for v in inputs {
            reads[v] += 1;
            reader[v] = Some(i);
        }
        if let Some(out) = out
            && out.count.is_none()
        {
            writers[out.var] += 1;
            writer[out.var] = Some(i);
            if out.rule.is_some() {
                pinned[out.var] = true;
            }
        }
    }
    for &v in plan.rel_var.values() {
        pinned[v] = true;
    }
    for &(_, v) in &plan.loads {
        pinned[v] = true;
    }
    for &v in &plan.unit_loads {
        pinned[v] = true;
    }
    for &(_, v) in &plan.base_loads {
        pinned[v] = true;
    }
    for c in &plan.copies {
        pinned[c.from] = true;
        pinned[c.to] = true;
    }
    for a in &plan.aggs {
        pinned[a.reached] = true;
        if let SeedSource::Var(v) = a.seed {
            pinned[v] = true;
        }
    }
    (0..n)
        .map(|v| {
            !pinned[v]
                && writers[v] == 1
                && reads[v] == 1
                && matches!((writer[v], reader[v]), (Some(w), Some(r)) if r > w)
        })
        .collect()
}

struct Builder<'a> {
    lowered: &'a Lowered,
    plan: Plan,
    indexes: &'a mut Indexes,
    index_vars: FxHashMap<(IndexSpec, u32), VarIdx>,
    copy_vars: FxHashMap<(RelId, u32), VarIdx>,
    /// The tier of the rule being compiled.
    tier: u32,
}

/// Which variable sits in each slot of a tuple.
type Layout = [Option<VarId>; SLOTS];

fn cexpr(e: &Expr, env: &FxHashMap<VarId, CExpr>) -> Option<CExpr> {
    Some(match e {
        Expr::Var(v) => env.get(v)?.clone(),
        Expr::Const(c) => CExpr::Const(*c),
        Expr::Add(a, b) => CExpr::Add(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Sub(a, b) => CExpr::Sub(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Neg(a) => CExpr::Neg(Box::new(cexpr(a, env)?)),
    })
}

impl Builder<'_> {
    fn new_var(&mut self, name: &str) -> VarIdx {
        self.plan.vars.push(name.to_string());
        self.plan.vars.len() - 1
    }

    fn in_plan(&self, rel: RelId) -> bool {
        self.plan.rel_var.contains_key(&rel)
    }

    fn compile_agg(&mut self, agg: &AggDef) -> Result<(), PlanError> {
        let reached = self.plan.rel_var[&agg.reached];
        // Bound over the key slots of the count's flat output.
        let env: FxHashMap<VarId, CExpr> = agg
            .key
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, CExpr::Slot(i as u8)))
            .collect();
        let mut bound = if agg.value {
            CExpr::Const(0)
        } else {
            cexpr(&agg.bound, &env).ok_or_else(|| PlanError {
                rule: None,
                message: "a count's bound uses a variable outside its group".into(),
            })?
        };
        if agg.op == CmpOp::Gt {
            bound = CExpr::Add(Box::new(bound), Box::new(CExpr::Const(1)));
        }
        let seed = match self.plan.rel_var.get(&agg.seed) {
            Some(&v) => SeedSource::Var(v),
            None => SeedSource::Static(
                self.indexes
                    .id(IndexSpec::flat(agg.seed, self.lowered.rels[agg.seed].arity)),
            ),
        };
        let idx = self.plan.aggs.len();
        let row_slot = match (seed, agg.row) {
            (SeedSource::Static(_), Some(_)) => Some(agg.key.len() + agg.local.len()),
            _ => None,
        };
        self.plan.aggs.push(PlanAgg {
            key_len: agg.key.len(),
            value: agg.value,
            elem_slot: agg.elem.map(|i| agg.key.len() + i),
            grows: agg.grows,
            bound,
            op: agg.op,
            reached,
            seed,
            row_slot,
        });
        let out = Out {
            var: reached,
            rule: None,
            count: Some(idx),
        };
        self.compile_rule(&agg.body, out, None)?;
        if let SeedSource::Var(seed) = seed
            && matches!(agg.op, CmpOp::Ge | CmpOp::Gt)
        {
            self.plan.ops.push(Op::SeedCheck { seed, agg: idx });
        }
        Ok(())
    }

    /// Compiles one conjunctive rule into a chain ending in `out`.
    fn compile_rule(
        &mut self,
        rule: &ERule,
        out: Out,
        source_rule: Option<usize>,
    ) -> Result<(), PlanError> {
        let err = |message: String| PlanError {
            rule: source_rule.or(Some(rule.from_rule)),
            message,
        };
        let mut remaining: Vec<&Atom> = rule.atoms.iter().collect();
        let mut pending_cmps: Vec<&(Expr, CmpOp, Expr)> = rule.cmps.iter().collect();
        let mut pending_negs: Vec<&Atom> = rule.negs.iter().collect();
        let mut atom_vars = Vec::new();
        for a in &rule.atoms {
            super::ir::atom_vars(a, &mut atom_vars);
        }
        // Guards are checked by the last operator, in the round that
        // derives the head: an earlier operator may run rounds before it,
        // and `explain` re-checks a guard against the facts known before
        // the head's own step. The first operator that binds a guard's
        // variables checks it too, to prune early: the state only grows,
        // so a guard that fails then would fail at the last operator too.
        let guards: Vec<&Atom> = rule.guards.iter().collect();
        let mut early_guards: Vec<&Atom> = guards.iter().copied().chain(&rule.prunes).collect();

        // The driver: a changing relation if there is one. `dirty` marks
        // slots of a stored relation that hold values the rule ignores (a
        // `_` column): such a layout cannot serve as a join key as it is.
        // `wide` marks a stored relation with values in the second half
        // that the layout may not show.
        let (mut current, mut layout, mut driver_checks, mut dirty, mut wide) =
            match remaining.iter().position(|a| self.in_plan(a.rel)) {
                Some(i) => {
                    let atom = remaining.remove(i);
                    let var = self.input_var(atom.rel);
                    let (layout, checks) = flat_atom_layout(atom);
                    let arity = atom.args.len();
                    (
                        var,
                        layout,
                        checks,
                        (0..HALF).any(|s| s < arity && layout[s].is_none()),
                        arity > HALF,
                    )
                }
                None if !remaining.is_empty() => {
                    let atom = remaining.remove(0);
                    let (spec, layout) = self.static_load_spec(atom);
                    let arity = atom.args.len();
                    let dirty = (0..HALF).any(|s| s < arity && layout[s].is_none());
                    let index = self.indexes.id(spec);
                    let var = self.new_var(&format!("load:{}", self.lowered.rels[atom.rel].name));
                    self.plan.loads.push((index, var));
                    (var, layout, Vec::new(), dirty, arity > HALF)
                }
                None => {
                    let var = self.new_var("unit");
                    self.plan.unit_loads.push(var);
                    (var, [None; SLOTS], Vec::new(), false, false)
                }
            };
        let mut bound: Vec<VarId> = layout.iter().flatten().copied().collect();
        // Pruning guards that the driver binds filter it before anything
        // fans out (a digit set's groups: hundreds per tuple).
        let (ready, later): (Vec<&Atom>, Vec<&Atom>) = early_guards
            .iter()
            .partition(|a| rule.prunes.contains(a) && binds_all(&bound, a));
        early_guards = later;
        if !ready.is_empty() && !remaining.is_empty() {
            let env = layout_env(&layout, 0);
            let mut checks = std::mem::take(&mut driver_checks);
            checks.extend(self.guard_checks(&ready, &env).unwrap_or_default());
            let v = self.new_var("pruned");
            self.plan.ops.push(Op::Map {
                from: current,
                checks,
                emit: emit_layout(&layout, &env),
                to: Out::to_var(v),
            });
            current = v;
        }

        loop {
            let next = self.choose_next(&remaining, &|v| bound.contains(&v));
            let Some(ni) = next else {
                // Last operator: a map to the head (or straight output).
                let env = layout_env(&layout, 0);
                let (env, mut checks) = self.apply_filters(
                    env,
                    &mut pending_cmps,
                    &mut pending_negs,
                    driver_checks,
                    &atom_vars,
                );
                checks.extend(
                    self.guard_checks(&guards, &env)
                        .ok_or_else(|| err("a guard uses variables no atom binds".into()))?,
                );
                let emit = self
                    .emit_flat(&rule.head_args, &env)
                    .ok_or_else(|| err("a head variable is not bound by the body".into()))?;
                if !pending_cmps.is_empty() || !pending_negs.is_empty() {
                    return Err(err("a condition uses variables no atom binds".into()));
                }
                self.plan.ops.push(Op::Map {
                    from: current,
                    checks,
                    emit,
                    to: out,
                });
                return Ok(());
            };
            let atom = remaining.remove(ni);
            let is_last = remaining.is_empty();
            // Key: bound variables (first occurrence) and the atom's shape.
            let mut key_cols = Vec::new();
            let mut key_vars = Vec::new();
            let mut val_cols = Vec::new();
            let mut val_vars = Vec::new();
            let mut consts = Vec::new();
            let mut eqs = Vec::new();
            // Bound variables beyond the key's four slots are compared after the join.
            let mut extra_eq = Vec::new();
            let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
            for (c, arg) in atom.args.iter().enumerate() {
                match arg {
                    Arg::Const(v) => consts.push((c, *v)),
                    // A guard's `where` column: never in a joined atom.
                    Arg::Wild | Arg::Cmp(..) => {}
                    Arg::Var(v) => {
                        if let Some(&first) = seen.get(v) {
                            eqs.push((first, c));
                            continue;
                        }
                        seen.insert(*v, c);
                        if bound.contains(v) {
                            if key_cols.len() < HALF {
                                key_cols.push(c);
                                key_vars.push(*v);
                            } else {
                                extra_eq.push((c, *v));
                            }
                        } else {
                            val_cols.push(c);
                            val_vars.push(Some(*v));
                        }
                    }
                }
            }
            for &(c, _) in &extra_eq {
                val_cols.push(c);
                val_vars.push(None);
            }
            if val_cols.len() > HALF {
                return Err(err(format!(
                    "an atom of `{}` binds more than {HALF} new variables at once",
                    self.lowered.rels[atom.rel].name
                )));
            }
            let spec = IndexSpec {
                rel: atom.rel,
                key: key_cols,
                val: val_cols,
                consts,
                eqs,
            };
            // Frame of this operator: slots 0..8 from the chain, 8..12 the new values.
            let dynamic = self.in_plan(atom.rel);
            if dynamic && (dirty || !is_keyed(&layout, &key_vars)) {
                // Re-key the chain so its first half is this join's key.
                let env = layout_env(&layout, 0);
                let (env, checks) = self.apply_filters(
                    env,
                    &mut pending_cmps,
                    &mut pending_negs,
                    std::mem::take(&mut driver_checks),
                    &atom_vars,
                );
                let needed =
                    self.needed(rule, &remaining, Some(atom), &pending_cmps, &pending_negs);
                let new_layout = keyed_layout(&key_vars, &needed, &env)
                    .ok_or_else(|| err("more than eight variables are alive at once".into()))?;
                let emit = emit_layout(&new_layout, &env);
                let v = self.new_var("rekey");
                self.plan.ops.push(Op::Map {
                    from: current,
                    checks,
                    emit,
                    to: Out::to_var(v),
                });
                current = v;
                layout = new_layout;
                dirty = false;
                wide = false;
                bound = layout.iter().flatten().copied().collect();
            }
            let mut env = layout_env(&layout, 0);
            for (i, v) in val_vars.iter().enumerate() {
                if let Some(v) = v {
                    env.insert(*v, CExpr::Slot((SLOTS + i) as u8));
                }
            }
            let mut checks = std::mem::take(&mut driver_checks);
            for (i, &(_, v)) in extra_eq.iter().enumerate() {
                let pos = val_vars.len() - extra_eq.len() + i;
                if let Some(e) = env.get(&v) {
                    checks.push(Check::cmp(
                        e.clone(),
                        CmpOp::Eq,
                        CExpr::Slot((SLOTS + pos) as u8),
                    ));
                }
            }
            bound.extend(val_vars.iter().flatten());
            let (env, more) = self.apply_filters(
                env,
                &mut pending_cmps,
                &mut pending_negs,
                Vec::new(),
                &atom_vars,
            );
            checks.extend(more);
            if is_last {
                checks.extend(
                    self.guard_checks(&guards, &env)
                        .ok_or_else(|| err("a guard uses variables no atom binds".into()))?,
                );
            } else {
                let (ready, later): (Vec<&Atom>, Vec<&Atom>) = early_guards.iter().partition(|a| {
                    a.args
                        .iter()
                        .all(|x| x.var().is_none_or(|v| env.contains_key(&v)))
                });
                early_guards = later;
                checks.extend(self.guard_checks(&ready, &env).unwrap_or_default());
            }
            let (emit, next_layout, to) = if is_last {
                let emit = self
                    .emit_flat(&rule.head_args, &env)
                    .ok_or_else(|| err("a head variable is not bound by the body".into()))?;
                if !pending_cmps.is_empty() || !pending_negs.is_empty() {
                    return Err(err("a condition uses variables no atom binds".into()));
                }
                (emit, [None; SLOTS], out.clone())
            } else {
                let needed = self.needed(rule, &remaining, None, &pending_cmps, &pending_negs);
                // Lay out for the next step if it will be a join.
                let next_key = self.peek_join_key(&remaining, &env);
                let l = match next_key {
                    Some(k) => keyed_layout(&k, &needed, &env),
                    None => flat_layout(&needed, &env),
                }
                .ok_or_else(|| err("more than eight variables are alive at once".into()))?;
                let v = self.new_var(&format!("chain:{}", rule.from_rule));
                (emit_layout(&l, &env), l, Out::to_var(v))
            };
            let target = to.var;
            if dynamic {
                let probe =
                    !wide && layout[HALF..].iter().all(Option::is_none) && spec.val.is_empty();
                let right = self.index_var(spec);
                self.plan.ops.push(Op::Join {
                    left: current,
                    right,
                    probe,
                    checks,
                    emit,
                    to,
                });
            } else {
                let chain_env = layout_env(&layout, 0);
                let key = key_vars
                    .iter()
                    .map(|v| chain_env.get(v).cloned().unwrap_or(CExpr::Const(0)))
                    .collect();
                let index = self.indexes.id(spec);
                let (mut checks, late): (Vec<Check>, Vec<Check>) =
                    checks.into_iter().partition(|c| !reads_right(c));
                let early = checks.len();
                checks.extend(late);
                self.plan.ops.push(Op::Extend {
                    source: current,
                    index,
                    key,
                    checks,
                    early,
                    emit,
                    to,
                });
            }
            if is_last {
                return Ok(());
            }
            current = target;
            layout = next_layout;
            wide = false;
            bound = layout.iter().flatten().copied().collect();
        }
    }

    /// The atom to join next: the one whose columns are most constrained
    /// (the largest share bound or constant, which keeps intermediate
    /// results small), static before changing, then in body order.
    fn choose_next(&self, remaining: &[&Atom], is_bound: &dyn Fn(VarId) -> bool) -> Option<usize> {
        remaining
            .iter()
            .enumerate()
            .max_by_key(|(i, a)| {
                let constrained = a
                    .args
                    .iter()
                    .filter(|x| match x {
                        Arg::Var(v) => is_bound(*v),
                        Arg::Const(_) => true,
                        Arg::Wild | Arg::Cmp(..) => false,
                    })
                    .count();
                // A `_` column neither narrows the join nor widens its output.
                let relevant = a.args.iter().filter(|x| !matches!(x, Arg::Wild)).count();
                let share = constrained * 1000 / relevant.max(1);
                (share, !self.in_plan(a.rel), usize::MAX - i)
            })
            .map(|(i, _)| i)
    }

    /// If the best next atom is a changing relation, the variables of its key.
    fn peek_join_key(
        &self,
        remaining: &[&Atom],
        env: &FxHashMap<VarId, CExpr>,
    ) -> Option<Vec<VarId>> {
        let next = remaining[self.choose_next(remaining, &|v| env.contains_key(&v))?];
        if !self.in_plan(next.rel) {
            return None;
        }
        let mut key = Vec::new();
        for arg in &next.args {
            if let Arg::Var(v) = arg
                && env.contains_key(v)
                && !key.contains(v)
                && key.len() < HALF
            {
                key.push(*v);
            }
        }
        Some(key)
    }

    /// Adds to `env` the assignments that became computable and returns the
    /// checks now decidable, removing them from the pending lists.
    fn apply_filters(
        &mut self,
        mut env: FxHashMap<VarId, CExpr>,
        cmps: &mut Vec<&(Expr, CmpOp, Expr)>,
        negs: &mut Vec<&Atom>,
        mut checks: Vec<Check>,
        atom_vars: &[VarId],
    ) -> (FxHashMap<VarId, CExpr>, Vec<Check>) {
        loop {
            let mut progress = false;
            let mut i = 0;
            while i < cmps.len() {
                let (a, op, b) = cmps[i];
                if let (Some(x), Some(y)) = (cexpr(a, &env), cexpr(b, &env)) {
                    checks.push(Check::cmp(x, *op, y));
                    cmps.remove(i);
                    progress = true;
                    continue;
                }
                if *op == CmpOp::Eq {
                    // `V = e` assigns only a variable that no atom binds:
                    // one that an atom binds later is compared with `e`
                    // once it is (a join would otherwise overwrite it).
                    let assign = match (a, b) {
                        (Expr::Var(v), e) | (e, Expr::Var(v))
                            if !env.contains_key(v) && !atom_vars.contains(v) =>
                        {
                            cexpr(e, &env).map(|c| (*v, c))
                        }
                        _ => None,
                    };
                    if let Some((v, c)) = assign {
                        env.insert(v, c);
                        cmps.remove(i);
                        progress = true;
                        continue;
                    }
                }
                i += 1;
            }
            if !progress {
                break;
            }
        }
        negs.retain(|atom| {
            let mut key = Vec::new();
            let mut cols = Vec::new();
            for (c, arg) in atom.args.iter().enumerate() {
                match arg {
                    Arg::Var(v) => match env.get(v) {
                        Some(e) => {
                            key.push(e.clone());
                            cols.push(c);
                        }
                        None => return true,
                    },
                    Arg::Const(k) => {
                        key.push(CExpr::Const(*k));
                        cols.push(c);
                    }
                    // A guard's `where` column: never in a negation.
                    Arg::Wild | Arg::Cmp(..) => {}
                }
            }
            let spec = IndexSpec {
                rel: atom.rel,
                key: cols.iter().copied().take(HALF).collect(),
                val: cols.iter().copied().skip(HALF).collect(),
                consts: Vec::new(),
                eqs: Vec::new(),
            };
            let index = self.indexes.id(spec);
            self.indexes.probed.insert(index);
            checks.push(Check::Absent { index, key });
            false
        });
        (env, checks)
    }

    /// The checks of a rule's guards, over the variables of `env`; `None`
    /// if a guard's variable is not bound there.
    fn guard_checks(
        &mut self,
        guards: &[&Atom],
        env: &FxHashMap<VarId, CExpr>,
    ) -> Option<Vec<Check>> {
        let mut checks = Vec::new();
        for atom in guards {
            let var = *self.plan.rel_var.get(&atom.rel)?;
            let mut cols = Vec::new();
            let mut key = Vec::new();
            let mut spread = None;
            let mut bound = None;
            for (c, arg) in atom.args.iter().enumerate() {
                match arg {
                    Arg::Var(v) => key.push(env.get(v)?.clone()),
                    Arg::Const(k) => key.push(CExpr::Const(*k)),
                    Arg::Wild => continue,
                    Arg::Cmp(op, v) => {
                        spread = Some(c);
                        bound = Some((*op, env.get(v)?.clone()));
                        continue;
                    }
                }
                cols.push(c);
            }
            let projection = (cols.len() < atom.args.len())
                .then(|| self.projection(ProjectionSpec { var, cols, spread }));
            let spec = GuardSpec { var, projection };
            let guard = match self.plan.guards.iter().position(|g| *g == spec) {
                Some(g) => g,
                None => {
                    self.plan.guards.push(spec);
                    self.plan.guards.len() - 1
                }
            };
            checks.push(Check::Unknown { guard, key, bound });
        }
        Some(checks)
    }

    /// The number, among its variable's projections, of the one `spec`
    /// describes (registered if new).
    fn projection(&mut self, spec: ProjectionSpec) -> usize {
        let own: Vec<&ProjectionSpec> = self
            .plan
            .projections
            .iter()
            .filter(|p| p.var == spec.var)
            .collect();
        if let Some(n) = own.iter().position(|p| **p == spec) {
            return n;
        }
        let n = own.len();
        self.plan.projections.push(spec);
        n
    }

    /// Variables still needed after the current step.
    fn needed(
        &self,
        rule: &ERule,
        remaining: &[&Atom],
        joining: Option<&Atom>,
        cmps: &[&(Expr, CmpOp, Expr)],
        negs: &[&Atom],
    ) -> Vec<VarId> {
        let mut vs = Vec::new();
        for e in &rule.head_args {
            e.vars(&mut vs);
        }
        for a in remaining.iter().chain(joining.iter()).chain(negs.iter()) {
            super::ir::atom_vars(a, &mut vs);
        }
        for a in &rule.guards {
            super::ir::atom_vars(a, &mut vs);
        }
        for (a, _, b) in cmps {
            a.vars(&mut vs);
            b.vars(&mut vs);
        }
        vs.sort_unstable();
        vs.dedup();
        vs
    }

    fn emit_flat(&self, exprs: &[Expr], env: &FxHashMap<VarId, CExpr>) -> Option<Emit> {
        let mut slots = Vec::with_capacity(SLOTS);
        for e in exprs {
            slots.push(cexpr(e, env)?);
        }
        slots.resize(SLOTS, CExpr::Const(0));
        Some(Emit::new(slots))
    }

    /// A one-shot load of a static atom: its tuples, filtered by the atom's
    /// constants and repeated variables, in flat layout.
    fn static_load_spec(&self, atom: &Atom) -> (IndexSpec, Layout) {
        let arity = self.lowered.rels[atom.rel].arity;
        let mut spec = IndexSpec::flat(atom.rel, arity);
        let mut layout = [None; SLOTS];
        let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
        for (c, arg) in atom.args.iter().enumerate() {
            match arg {
                Arg::Const(v) => spec.consts.push((c, *v)),
                Arg::Wild | Arg::Cmp(..) => {}
                Arg::Var(v) => {
                    if let Some(&first) = seen.get(v) {
                        spec.eqs.push((first, c));
                    } else {
                        seen.insert(*v, c);
                        layout[c] = Some(*v);
                    }
                }
            }
        }
        (spec, layout)
    }

    /// The variable a rule of the current tier reads a changing relation
    /// from: the relation itself, or for a gated tier its copy.
    fn input_var(&mut self, rel: RelId) -> VarIdx {
        let base = self.plan.rel_var[&rel];
        let program_rel = self.lowered.rels[rel].origin == super::ir::RelOrigin::Program;
        if self.tier < FIRST_GATED_TIER || !program_rel {
            return base;
        }
        if let Some(&v) = self.copy_vars.get(&(rel, self.tier)) {
            return v;
        }
        let name = format!("tier{}:{}", self.tier, self.lowered.rels[rel].name);
        let v = self.new_var(&name);
        self.plan.copies.push(TierCopy {
            tier: self.tier,
            from: base,
            to: v,
        });
        self.copy_vars.insert((rel, self.tier), v);
        v
    }

    /// The variable holding a changing relation keyed for a join.
    fn index_var(&mut self, spec: IndexSpec) -> VarIdx {
        if let Some(&v) = self.index_vars.get(&(spec.clone(), self.tier)) {
            return v;
        }
        let from = self.input_var(spec.rel);
        if spec == IndexSpec::flat(spec.rel, self.lowered.rels[spec.rel].arity) {
            // The relation's own tuples are already keyed this way.
            return from;
        }
        let name = format!("index:{}", self.lowered.rels[spec.rel].name);
        let v = self.new_var(&name);
        let mut checks = Vec::new();
        for &(c, k) in &spec.consts {
            checks.push(Check::cmp(CExpr::Slot(c as u8), CmpOp::Eq, CExpr::Const(k)));
        }
        for &(a, b) in &spec.eqs {
            checks.push(Check::Cmp(
                CExpr::Slot(a as u8),
                CmpOp::Eq,
                CExpr::Slot(b as u8),
            ));
        }
        let mut slots = vec![CExpr::Const(0); SLOTS];
        for (i, &c) in spec.key.iter().enumerate() {
            slots[i] = CExpr::Slot(c as u8);
        }
        for (i, &c) in spec.val.iter().enumerate() {
            slots[HALF + i] = CExpr::Slot(c as u8);
        }
        self.plan.ops.push(Op::Map {
            from,
            checks,
            emit: Emit::new(slots),
            to: Out::to_var(v),
        });
        self.index_vars.insert((spec, self.tier), v);
        v
    }
}

/// Flat layout of a changing atom used as a driver, with the checks its
/// constants and repeated variables impose.
fn flat_atom_layout(atom: &Atom) -> (Layout, Vec<Check>) {
    let mut layout = [None; SLOTS];
    let mut checks = Vec::new();
    let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
    for (c, arg) in atom.args.iter().enumerate() {
        match arg {
            Arg::Const(v) => checks.push(Check::cmp(
                CExpr::Slot(c as u8),
                CmpOp::Eq,
                CExpr::Const(*v),
            )),
            Arg::Wild | Arg::Cmp(..) => {}
            Arg::Var(v) => {
                if let Some(&first) = seen.get(v) {
                    checks.push(Check::cmp(
                        CExpr::Slot(first as u8),
                        CmpOp::Eq,
                        CExpr::Slot(c as u8),
                    ));
                } else {
                    seen.insert(*v, c);
                    layout[c] = Some(*v);
                }
            }
        }
    }
    (layout, checks)
}

fn layout_env(layout: &Layout, offset: usize) -> FxHashMap<VarId, CExpr> {
    layout
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (v, CExpr::Slot((i + offset) as u8))))
        .collect()
}

fn is_keyed(layout: &Layout, key: &[VarId]) -> bool {
    key.iter().enumerate().all(|(i, v)| layout[i] == Some(*v))
        && layout[key.len()..HALF].iter().all(|s| s.is_none())
}

fn keyed_layout(key: &[VarId], needed: &[VarId], env: &FxHashMap<VarId, CExpr>) -> Option<Layout> {
    let mut l = [None; SLOTS];
    for (i, &v) in key.iter().enumerate() {
        l[i] = Some(v);
    }
    let mut next = HALF;
    for &v in needed {
        if key.contains(&v) || !env.contains_key(&v) {
            continue;
        }
        if next >= SLOTS {
            return None;
        }
        l[next] = Some(v);
        next += 1;
    }
    Some(l)
}

fn flat_layout(needed: &[VarId], env: &FxHashMap<VarId, CExpr>) -> Option<Layout> {
    let mut l = [None; SLOTS];
    let mut next = 0;
    for &v in needed {
        if !env.contains_key(&v) {
            continue;
        }
        if next >= SLOTS {
            return None;
        }
        l[next] = Some(v);
        next += 1;
    }
    Some(l)
}

fn emit_layout(layout: &Layout, env: &FxHashMap<VarId, CExpr>) -> Emit {
    Emit::new(
        layout
            .iter()
            .map(|v| match v {
                Some(v) => env.get(v).cloned().unwrap_or(CExpr::Const(0)),
                None => CExpr::Const(0),
            })
            .collect(),
    )
}

/// Evaluates checks on a frame; `absent` says whether a tuple is missing
/// from what a negation or a guard looks in.
#[inline]
pub fn passes(checks: &[Check], frame: &Frame, absent: &dyn Fn(Lookup, &Tuple) -> bool) -> bool {
    checks.iter().all(|c| match c {
        Check::Fast(a, op, b) => op.holds(a.get(frame), b.get(frame)),
        Check::Cmp(a, op, b) => match (a.eval(frame), b.eval(frame)) {
            (Some(x), Some(y)) => op.holds(x, y),
            _ => false,
        },
        Check::Absent { index, key } => {
            lookup_key(key, frame).is_some_and(|t| absent(Lookup::Static(*index), &t))
        }
        Check::Unknown {
            guard,
            key,
            bound: None,
        } => lookup_key(key, frame).is_some_and(|t| absent(Lookup::State(*guard), &t)),
        Check::Unknown {
            guard,
            key,
            bound: Some((op, e)),
        } => match (lookup_key(key, frame), e.eval(frame)) {
            (Some(t), Some(v)) => absent(Lookup::StateWhere(*guard, *op, v), &t),
            _ => false,
        },
    })
}

/// Whether a check reads the right half of a frame (a join's right value
/// or a proposed extension), rather than only the left tuple.
pub fn reads_right(check: &Check) -> bool {
    let right = |e: &CExpr| e.slots().any(|s| s as usize >= 2 * HALF);
    match check {
        Check::Fast(a, _, b) => [a, b]
            .iter()
            .any(|x| matches!(x, Simple::Slot(s) if *s as usize >= 2 * HALF)),
        Check::Cmp(a, _, b) => right(a) || right(b),
        Check::Absent { key, .. } => key.iter().any(right),
        Check::Unknown { key, bound, .. } => {
            key.iter().any(right) || bound.as_ref().is_some_and(|(_, e)| right(e))
        }
    }
}

/// The tuple a negation or a guard looks up; `None` on overflow.
#[inline]
fn lookup_key(key: &[CExpr], frame: &Frame) -> Option<Tuple> {
    let mut t = super::tuple::EMPTY;
    for (i, e) in key.iter().enumerate() {
        super::tuple::set_slot(&mut t, i, e.eval(frame)?);
    }
    Some(t)
}

/// Builds an operator's output tuple; `None` on arithmetic overflow.
#[inline]
pub fn emit(emit: &Emit, frame: &Frame) -> Option<Tuple> {
    let mut t = super::tuple::EMPTY;
    if let Some(fast) = &emit.fast {
        for (i, s) in fast.iter().enumerate().take(SLOTS) {
            let v = s.get(frame);
            if i < HALF {
                t.0[i] = v;
            } else {
                t.1[i - HALF] = v;
            }
        }
        return Some(t);
    }
    for (i, e) in emit.slots.iter().enumerate() {
        super::tuple::set_slot(&mut t, i, e.eval(frame)?);
    }
    Some(t)
}

const _: () = assert!(FRAME == SLOTS + HALF);

/// Whether every variable of `atom` is among `bound`.
fn binds_all(bound: &[VarId], atom: &Atom) -> bool {
    atom.args
        .iter()
        .all(|x| x.var().is_none_or(|v| bound.contains(&v)))
}
