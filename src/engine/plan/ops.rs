//! The operators of a plan and their parts: variables and static indexes by
//! number, the expressions and checks over a frame's slots, where outputs
//! go, and a count as a plan runs it. This is the vocabulary the planner
//! writes, the store runs and `show_plan` words; it is apart so that each
//! of them reads it without the others.

use crate::engine::tuple::{EMPTY, Frame, HALF, SLOTS, Tuple, set_slot};
use crate::lang::program::{Expr, RelId, Value};
use crate::lang::value::{CmpOp, Fold, WhereOp};
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
    StateWhere(GuardId, WhereOp, Value),
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
        use crate::engine::tuple::slot;
        self.consts.iter().all(|&(c, v)| slot(t, c) == v)
            && self.eqs.iter().all(|&(a, b)| slot(t, a) == slot(t, b))
    }

    /// Re-lays a flat tuple into `(key, val)`.
    pub fn layout(&self, t: &Tuple) -> Tuple {
        use crate::engine::tuple::slot;
        let mut out = crate::engine::tuple::EMPTY;
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

/// An expression over frame slots: the checked program's [`Expr`] with
/// slots for variables (`CExpr::Var(3)` reads slot 3), evaluated by the
/// same code.
pub type CExpr = Expr<u8>;

impl CExpr {
    /// Evaluates over a frame; `None` on overflow.
    #[inline]
    pub fn eval_in(&self, f: &Frame) -> Option<Value> {
        match self {
            // Most operands are a slot or a constant: read them here, in
            // the caller's loop, rather than through the general evaluator.
            CExpr::Var(i) => Some(f.get(usize::from(*i))),
            CExpr::Const(c) => Some(*c),
            _ => self.eval(&|i| f.get(usize::from(i))),
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
            CExpr::Var(i) => Some(Simple::Slot(*i)),
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
    /// A static atom as a check: the tuple built from `key` (laid out by
    /// the index spec) must be in the index, or with `negated` must not
    /// (a negation). An atom whose variables are all bound is one, in the
    /// operator that binds the last of them, rather than an operator of its
    /// own.
    Static {
        /// The index to look in.
        index: IndexId,
        /// Values for the index's key then value columns.
        key: Emit,
        /// A negation: the tuple must be missing.
        negated: bool,
    },
    /// A guard: the tuple built from `key` (the atom's columns other than
    /// `_`, in order) must not be known before the current round; with
    /// `bound`, no such fact whose `where` column stands in the relation to
    /// the bound's value.
    Unknown {
        /// The guard (index in [`Plan::guards`]).
        guard: GuardId,
        /// Values for the looked-up columns.
        key: Emit,
        /// The comparison of a guard's `where`, and what it compares with.
        bound: Option<(WhereOp, CExpr)>,
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
    pub fast: Option<FastEmit>,
}

/// An emit whose slots are all frame slots or constants, as a gather: the
/// output is built from the frame without a branch per slot.
#[derive(Clone, Debug, PartialEq)]
pub struct FastEmit {
    /// The frame slot each output slot copies ([`Frame::ZERO`] for a
    /// constant or an unused slot).
    pub picks: [u8; SLOTS],
    /// The constants in their slots, 0 elsewhere: an output slot is its
    /// pick or'ed with its base, one of which is 0.
    pub base: Tuple,
}

impl Emit {
    /// An emit from per-slot expressions.
    pub fn new(slots: Vec<CExpr>) -> Emit {
        let fast = slots
            .iter()
            .map(CExpr::simple)
            .collect::<Option<Vec<Simple>>>()
            .map(|simple| {
                let mut picks = [Frame::ZERO as u8; SLOTS];
                let mut base = EMPTY;
                for (i, s) in simple.into_iter().enumerate().take(SLOTS) {
                    match s {
                        Simple::Slot(from) => picks[i] = from,
                        Simple::Const(c) => set_slot(&mut base, i, c),
                    }
                }
                FastEmit { picks, base }
            });
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
    /// A set, a `sum` of digits or a `max` over the state: each group is
    /// emitted whenever its value grows.
    pub grows: bool,
    /// A value aggregate: the `elem_slot` values folded by group.
    pub fold: Option<Fold>,
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

/// Whether a check reads the right half of a frame (a join's right value
/// or a proposed extension), rather than only the left tuple.
pub fn reads_right(check: &Check) -> bool {
    let right = |e: &CExpr| {
        let mut slots = Vec::new();
        e.vars(&mut slots);
        slots.iter().any(|&s| usize::from(s) >= 2 * HALF)
    };
    match check {
        Check::Fast(a, _, b) => [a, b]
            .iter()
            .any(|x| matches!(x, Simple::Slot(s) if *s as usize >= 2 * HALF)),
        Check::Cmp(a, _, b) => right(a) || right(b),
        Check::Static { key, .. } => key.slots.iter().any(right),
        Check::Unknown { key, bound, .. } => {
            key.slots.iter().any(right) || bound.as_ref().is_some_and(|(_, e)| right(e))
        }
    }
}
