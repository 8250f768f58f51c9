//! A checked rule program: relations resolved to ids, variables numbered,
//! constants turned into values, every rule known to be safe, well typed,
//! monotone and stratified. The engine compiles this, never the raw AST.

use super::ast::{CmpOp, Fold, SourceSet, Span, Type, WhereOp};
use super::rules_error::RulesError;
use super::symbols::Symbols;
use rustc_hash::FxHashSet;

pub use super::builtin::{Builtin, MAX_SET};
pub use super::value::{Value, cell_coords, cell_value};

/// Index of a relation in [`Program::relations`].
pub type RelId = usize;
/// Index of a variable inside one rule.
pub type VarId = usize;

/// The most columns a relation may have: the engine's tuples hold eight
/// values (`engine::tuple::SLOTS`).
pub const MAX_COLUMNS: usize = 8;

/// The name of the view of open candidates, which rules may not use.
pub const CANDIDATE_VIEW: &str = "candidate";

/// A relation of the program.
#[derive(Clone, Debug)]
pub struct Relation {
    /// Its name.
    pub name: String,
    /// Column names and types.
    pub columns: Vec<(String, Type)>,
    /// Which built-in it is, if any.
    pub builtin: Option<Builtin>,
    /// Its doc comment (for user relations).
    pub doc: String,
    /// Where it was declared (user relations).
    pub decl: Option<Span>,
    /// Whether its facts can change as the solve goes on (it depends on
    /// `placed` or `eliminated`): such relations live in the fixpoint.
    pub dynamic: bool,
    /// Whether it depends on the puzzle's givens (else it is pure geometry
    /// and is computed once per grid size).
    pub per_puzzle: bool,
    /// Declared `.input`: its facts come with each puzzle (the clue lines
    /// after it); where that is written.
    pub input: Option<Span>,
}

impl Relation {
    /// The number of columns.
    pub fn arity(&self) -> usize {
        self.columns.len()
    }
}

/// An arithmetic expression over variables of type `V`: a rule's
/// variables (`VarId`) in the checked program, a frame's slots in the
/// engine's plans (`engine::plan::CExpr`). One type, so that rules,
/// `explain`'s re-derivations and the engine evaluate arithmetic alike.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr<V = VarId> {
    /// A variable (a slot, in a plan).
    Var(V),
    /// A constant.
    Const(Value),
    /// `a + b`.
    Add(Box<Expr<V>>, Box<Expr<V>>),
    /// `a - b`.
    Sub(Box<Expr<V>>, Box<Expr<V>>),
    /// `-a`.
    Neg(Box<Expr<V>>),
    /// `a * b`.
    Mul(Box<Expr<V>>, Box<Expr<V>>),
    /// `a / b`, Euclid's division (no value when `b` is 0).
    Div(Box<Expr<V>>, Box<Expr<V>>),
    /// `a % b`, the remainder of Euclid's division, never negative (no
    /// value when `b` is 0).
    Mod(Box<Expr<V>>, Box<Expr<V>>),
    /// `a | b`, the union of two sets (bitmasks).
    Union(Box<Expr<V>>, Box<Expr<V>>),
    /// `a & b`, the intersection of two sets.
    Inter(Box<Expr<V>>, Box<Expr<V>>),
}

impl<V: Copy> Expr<V> {
    /// Appends the variables the expression reads.
    pub fn vars(&self, out: &mut Vec<V>) {
        match self {
            Expr::Var(v) => out.push(*v),
            Expr::Const(_) => {}
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::Mod(a, b)
            | Expr::Union(a, b)
            | Expr::Inter(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Neg(a) => a.vars(out),
        }
    }

    /// Whether `holds` is true of every variable of the expression (each
    /// bound, say), without listing them.
    pub fn all_vars(&self, holds: &impl Fn(V) -> bool) -> bool {
        match self {
            Expr::Var(v) => holds(*v),
            Expr::Const(_) => true,
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::Mod(a, b)
            | Expr::Union(a, b)
            | Expr::Inter(a, b) => a.all_vars(holds) && b.all_vars(holds),
            Expr::Neg(a) => a.all_vars(holds),
        }
    }

    /// The expression's value, with `var` giving each variable's value;
    /// `None` on overflow or a division by zero.
    #[inline]
    pub fn eval(&self, var: &impl Fn(V) -> Value) -> Option<Value> {
        match self {
            Expr::Var(v) => Some(var(*v)),
            Expr::Const(c) => Some(*c),
            Expr::Add(a, b) => a.eval(var)?.checked_add(b.eval(var)?),
            Expr::Sub(a, b) => a.eval(var)?.checked_sub(b.eval(var)?),
            Expr::Neg(a) => a.eval(var)?.checked_neg(),
            Expr::Mul(a, b) => a.eval(var)?.checked_mul(b.eval(var)?),
            Expr::Div(a, b) => a.eval(var)?.checked_div_euclid(b.eval(var)?),
            Expr::Mod(a, b) => a.eval(var)?.checked_rem_euclid(b.eval(var)?),
            Expr::Union(a, b) => Some(a.eval(var)? | b.eval(var)?),
            Expr::Inter(a, b) => Some(a.eval(var)? & b.eval(var)?),
        }
    }
}

/// An argument of a body atom.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A variable (bound here or earlier).
    Var(VarId),
    /// A constant the column must equal.
    Const(Value),
    /// `_`: any value.
    Wild,
    /// The column of a guard's `where S op R` (`unless tint(D, B, S, _)
    /// where S < R`, `unless filled(U, P) where P in T`): any value that
    /// stands in `op` to the variable `R`.
    Cmp(WhereOp, VarId),
}

impl Arg {
    /// The variable the argument reads, if any: its own, or the one a
    /// guard's `where` compares the column with.
    pub fn var(&self) -> Option<VarId> {
        match self {
            Arg::Var(v) | Arg::Cmp(_, v) => Some(*v),
            Arg::Const(_) | Arg::Wild => None,
        }
    }
}

/// An atom over a relation.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// The relation.
    pub rel: RelId,
    /// One argument per column.
    pub args: Vec<Arg>,
    /// Where it is written.
    pub span: Span,
}

/// A conjunct of a checked rule body.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A positive atom.
    Atom(Atom),
    /// A negated atom (the relation is static).
    Neg(Atom),
    /// A guard, `unless atom` (the relation is part of the solving state):
    /// the rule fires only if the atom is not known yet when it does. It
    /// filters derivations and never adds one, so a rule that is true
    /// without its guards stays true with them.
    Guard(Atom),
    /// A comparison. With `=` and an unbound variable on one side it binds it.
    Cmp(Expr, CmpOp, Expr, Span),
    /// `count : { body } op bound`.
    Count(Aggregate),
}

/// A counting aggregate.
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    /// The literals inside the braces.
    pub body: Vec<Literal>,
    /// The comparison with the bound.
    pub op: CmpOp,
    /// The bound.
    pub bound: Expr,
    /// Variables shared with the rest of the rule (bound outside): the group.
    pub group: Vec<VarId>,
    /// Variables local to the body: what is counted (distinct bindings).
    pub local: Vec<VarId>,
    /// `V = count : { ... }` with `V` unbound: the count (over static
    /// relations), the set or the folded value is bound to `V` instead of
    /// being compared.
    pub value: Option<VarId>,
    /// `V = set X : { ... }` or `V = sum X : { ... }`: the variable whose
    /// values are collected (always bound to `V`); `None` for a count.
    pub elem: Option<VarId>,
    /// `sum`, `min` or `max`: the values of `elem` folded into one (over
    /// the state, only a `sum` of digits or a `max`, which grow); `None`
    /// for a count or a set.
    pub fold: Option<Fold>,
    /// Where it is written.
    pub span: Span,
}

/// A checked rule (or fact, with an empty body).
#[derive(Clone, Debug)]
pub struct Rule {
    /// Its index in [`Program::rules`].
    pub id: usize,
    /// The relation it derives.
    pub head_rel: RelId,
    /// One expression per head column (variables bound by the body).
    pub head: Vec<Expr>,
    /// The body.
    pub body: Vec<Literal>,
    /// Variable names by id (generated names for `_` start with `_`).
    pub var_names: Vec<String>,
    /// Variable types by id.
    pub var_types: Vec<Type>,
    /// What the rule means, from its comment.
    pub doc: String,
    /// `file:line`, how reports name the rule.
    pub name: String,
    /// The technique it belongs to (its file's stem, e.g. `singles`).
    pub technique: String,
    /// Its technique's tier: 0 always runs, 1 too (the easiest
    /// technique); a higher tier runs only when every lower one is stalled.
    pub tier: u32,
    /// Where it is written.
    pub span: Span,
    /// How hard its steps are (`.rating`): the first alternative whose
    /// condition holds rates a step; empty when its file rates nothing.
    pub rating: Vec<RatingAlternative>,
}

/// One `.rating` line of a rule, checked: where `when` holds for a
/// derivation of the rule's fact, the step is rated `tenths` (Sudoku
/// Explainer's scale times ten), plus the length bonus if asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingAlternative {
    /// The rating in tenths (`4.2` is 42).
    pub tenths: u32,
    /// Whether the pattern's length adds to it (`+ length`).
    pub length_bonus: bool,
    /// Literals over the rule's variables (empty: always).
    pub when: Vec<Literal>,
    /// The `.rating` line, for listings.
    pub span: Span,
}

impl Rule {
    /// The name of the technique a rule's comment starts with
    /// (`Naked single: every other digit ...` is `Naked single`), if it
    /// starts with one: a few words before a colon.
    pub fn label(&self) -> Option<&str> {
        let (name, _) = self.doc.split_once(':')?;
        let name = name.trim();
        let words = name.split_whitespace().count();
        (words > 0 && words <= 4 && !name.contains('.')).then_some(name)
    }
}

/// What a grid constant names: a cell by its row and column, or one of
/// the grid's own units by its kind and number (all 1-based, as written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridName {
    /// A cell (`r10c1`).
    Cell {
        /// The row.
        row: u32,
        /// The column.
        col: u32,
    },
    /// A row, a column or a box (`box10`, or `"box10"`).
    Unit {
        /// `"row"`, `"col"` or `"box"`.
        kind: &'static str,
        /// Its number.
        number: u64,
    },
}

/// A cell or unit constant a rule names (`r10c1`, `box10`), and where.
/// The checker keeps them because rules are written for every grid size: a
/// constant beyond a puzzle's grid is no error, but matches nothing of
/// that puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridConstant {
    /// What it names.
    pub what: GridName,
    /// Where it is written.
    pub span: Span,
    /// The rule that names it ([`Rule::id`]).
    pub rule: usize,
}

impl GridConstant {
    /// The largest number in it: a row or a column, or a unit's number.
    pub fn largest(&self) -> u64 {
        match self.what {
            GridName::Cell { row, col } => u64::from(row.max(col)),
            GridName::Unit { number, .. } => number,
        }
    }

    /// Whether it lies outside an `n`x`n` grid (a number larger than `n`).
    pub fn outside(&self, n: usize) -> bool {
        self.largest() > n as u64
    }

    /// What it names in general: `"cell"` or `"unit"`.
    pub fn kind(&self) -> &'static str {
        match self.what {
            GridName::Cell { .. } => "cell",
            GridName::Unit { .. } => "unit",
        }
    }

    /// Its name, as reports print it (`r10c1`, `box10`).
    pub fn name(&self) -> String {
        match self.what {
            GridName::Cell { row, col } => super::value::cell_name(super::value::cell_value(
                (row as usize).saturating_sub(1),
                (col as usize).saturating_sub(1),
            )),
            GridName::Unit { kind, number } => format!("{kind}{number}"),
        }
    }
}

/// The technique of the grid's own file (`grid.dl`): the meaning of the
/// units, the one place where a tier-0 rule may conclude the state without
/// adding a constraint beyond the units (see
/// [`Program::non_unit_constraint`]).
pub const GRID_TECHNIQUE: &str = "grid";

/// A technique: the rules of one file, and when they run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Technique {
    /// The file's stem (`singles`, `locked`).
    pub name: String,
    /// Its tier (`.tier N`).
    pub tier: u32,
    /// How many rules it has.
    pub rules: usize,
    /// Whether its file says `.assumes unique`: its rules hold only for a
    /// puzzle with one solution (unique rectangles), so counting solutions
    /// switches it off ([`Program::without_uniqueness`]).
    pub assumes_unique: bool,
    /// Whether its file says `.assumes stalled`: its rules hold only on a
    /// state where the singles (tier 1) have nothing left to derive, so
    /// it needs a tier-1 technique beside it
    /// ([`Program::stalled_without_singles`]), and a hint tries it only
    /// on such a state.
    pub assumes_stalled: bool,
}

/// A whole checked rule set.
#[derive(Clone, Debug)]
pub struct Program {
    /// Every relation, built-ins first in [`Builtin::ALL`] order.
    pub relations: Vec<Relation>,
    /// Every rule, in file order.
    pub rules: Vec<Rule>,
    /// Interned symbols.
    pub symbols: Symbols,
    /// The source texts (for reports).
    pub sources: SourceSet,
    /// The techniques, easiest tier first.
    pub techniques: Vec<Technique>,
    /// What is allowed but probably not meant (`sudolog check` shows it):
    /// see [`super::lint`].
    pub warnings: Vec<super::diag::Diagnostic>,
    /// Every cell and unit constant the rules name, in file order: `check`
    /// warns about those outside a 9x9 grid, and a run notes those outside
    /// its puzzles' grids ([`GridConstant::outside`]).
    pub grid_constants: Vec<GridConstant>,
}

impl Program {
    /// The id of a relation by name.
    pub fn relation(&self, name: &str) -> Option<RelId> {
        self.relations.iter().position(|r| r.name == name)
    }

    /// Keeps only the rules of the named techniques (and of tier 0, the
    /// grid's meaning, which always stays). Names a technique that does not
    /// exist as an error.
    pub fn restrict_techniques(&mut self, names: &[String]) -> Result<(), RulesError> {
        for n in names {
            if !self.techniques.iter().any(|t| &t.name == n) {
                return Err(RulesError::UnknownTechnique {
                    name: n.clone(),
                    known: self.techniques.iter().map(|t| t.name.clone()).collect(),
                });
            }
        }
        let selected = |r: &Rule| r.tier == 0 || names.contains(&r.technique);
        let support = self.support_relations(&selected);
        self.retain_rules(|r| selected(r) || support.contains(&r.head_rel));
        self.techniques
            .retain(|t| t.tier == 0 || names.contains(&t.name));
        Ok(())
    }

    /// Switches off the techniques that assume the puzzle has one solution
    /// (`.assumes unique`): for counting solutions, where a second
    /// solution must not be ruled out by the assumption that there is none.
    pub fn without_uniqueness(&mut self) {
        let names: Vec<String> = (self.techniques.iter())
            .filter(|t| !t.assumes_unique)
            .map(|t| t.name.clone())
            .collect();
        // Every name comes from the list itself.
        let _ = self.restrict_techniques(&names);
    }

    /// The ids of the rules that counting solutions leaves out: those of
    /// the techniques that assume one solution, except the ones deriving a
    /// helper that another technique reads.
    pub fn uniqueness_rules(&self) -> FxHashSet<usize> {
        let assumes =
            |r: &Rule| (self.techniques.iter()).any(|t| t.assumes_unique && t.name == r.technique);
        let kept = |r: &Rule| !assumes(r);
        let support = self.support_relations(&kept);
        (self.rules.iter())
            .filter(|r| assumes(r) && !support.contains(&r.head_rel))
            .map(|r| r.id)
            .collect()
    }

    /// A technique that assumes the singles are stalled (`.assumes
    /// stalled`) in a program with no technique of tier 1 (the singles),
    /// which is what makes that true wherever a gated tier runs. The
    /// command line refuses such a selection; a caller that restricts the
    /// techniques itself should ask too (`hint` instead tries such a
    /// technique only on a stalled state).
    pub fn stalled_without_singles(&self) -> Option<&Technique> {
        let singles = self.has_singles();
        (self.techniques.iter()).find(|t| t.assumes_stalled && !singles)
    }

    /// Whether a technique of tier 1 (the singles) has rules here.
    pub fn has_singles(&self) -> bool {
        (self.techniques.iter()).any(|t| t.tier == 1 && t.rules > 0)
    }

    /// Whether a technique that assumes one solution is in the program.
    pub fn assumes_unique(&self) -> bool {
        self.techniques.iter().any(|t| t.assumes_unique)
    }

    /// A rule that constrains the grid other than through units: a tier-0
    /// rule outside the grid's own file (`grid.dl`) that places, eliminates
    /// or ends a branch (anti-king, non-consecutive). The uniqueness
    /// techniques rest on a deadly pattern: four cells whose two digits
    /// can be swapped, which keeps every unit valid but may break such a
    /// constraint; so with one, they are off.
    pub fn non_unit_constraint(&self) -> Option<&Rule> {
        let concludes = |r: &Rule| {
            self.relations[r.head_rel]
                .builtin
                .is_some_and(Builtin::dynamic)
        };
        (self.rules.iter()).find(|r| r.tier == 0 && r.technique != GRID_TECHNIQUE && concludes(r))
    }

    /// Makes the program derive one step of its techniques from a state
    /// given as input, for `hint`: tier 0's rules that place or eliminate
    /// because of the state (a placed digit's eliminations, a variant's)
    /// are dropped, keeping those that read only the givens and the grid
    /// (`placed(C, D) :- given(C, D)`); and the techniques' placements and
    /// eliminations go to two relations of their own, which no rule reads.
    /// The state then stays as entered, and what the techniques derive
    /// follows from it alone: no grid consequence and no conclusion of
    /// their own feeds them (their helpers' recursion, a chain's closure,
    /// still runs to its fixpoint). Returns the two relations: the step's
    /// placements and its eliminations.
    ///
    /// With `label`, only the conclusions of the rules of that name
    /// ([`Rule::label`]) are kept: the step of one named pattern.
    pub fn freeze_state(&mut self, label: Option<&str>) -> (RelId, RelId) {
        let placed = self.builtin(Builtin::Placed);
        let eliminated = self.builtin(Builtin::Eliminated);
        let relations = &self.relations;
        let reads_state = |r: &Rule| {
            let mut reads = Vec::new();
            body_relations(&r.body, &mut reads);
            reads.iter().any(|&(rel, _)| relations[rel].dynamic)
        };
        let concludes = |r: &Rule| r.head_rel == placed || r.head_rel == eliminated;
        let consequence = |r: &Rule| {
            concludes(r)
                && ((r.tier == 0 && reads_state(r))
                    || (r.tier > 0 && label.is_some_and(|l| r.label() != Some(l))))
        };
        let dropped: Vec<usize> = self
            .rules
            .iter()
            .filter(|r| consequence(r))
            .map(|r| r.id)
            .collect();
        self.retain_rules(|r| !dropped.contains(&r.id));
        // Names no rule can write, so no user relation is taken.
        let mut step_copy = |of: RelId, name: &str| {
            let mut rel = self.relations[of].clone();
            rel.name = name.to_string();
            rel.builtin = None;
            rel.dynamic = true;
            self.relations.push(rel);
            self.relations.len() - 1
        };
        let step_placed = step_copy(placed, "placed@step");
        let step_eliminated = step_copy(eliminated, "eliminated@step");
        for r in self.rules.iter_mut().filter(|r| r.tier > 0) {
            if r.head_rel == placed {
                r.head_rel = step_placed;
            } else if r.head_rel == eliminated {
                r.head_rel = step_eliminated;
            }
        }
        (step_placed, step_eliminated)
    }

    /// Keeps the rules `keep` says, renumbered in order.
    fn retain_rules(&mut self, keep: impl Fn(&Rule) -> bool) {
        self.rules.retain(|r| keep(r));
        // Rules are renumbered: a cell constant follows its rule, or goes
        // with it.
        let mut new_id = vec![None; self.rules.iter().map(|r| r.id + 1).max().unwrap_or(0)];
        for (i, r) in self.rules.iter_mut().enumerate() {
            new_id[r.id] = Some(i);
            r.id = i;
        }
        self.grid_constants
            .retain_mut(|c| match new_id.get(c.rule).copied().flatten() {
                Some(i) => {
                    c.rule = i;
                    true
                }
                None => false,
            });
    }

    /// The helper relations (neither the state nor `contradiction`) that
    /// the selected rules read, directly or through other helpers. Their
    /// rules stay even when their own technique is not selected, so that a
    /// technique may use another file's helper (W-wing and the single-digit
    /// patterns share the strong links); they derive no placement or
    /// elimination, so the unselected technique still never fires.
    fn support_relations(&self, selected: &dyn Fn(&Rule) -> bool) -> FxHashSet<RelId> {
        let is_state = |rel: RelId| self.relations[rel].builtin.is_some_and(Builtin::dynamic);
        let mut needed = FxHashSet::default();
        let mut todo: Vec<&Rule> = self.rules.iter().filter(|r| selected(r)).collect();
        while let Some(rule) = todo.pop() {
            let mut reads = Vec::new();
            body_relations(&rule.body, &mut reads);
            for (rel, _) in reads {
                if is_state(rel) || !needed.insert(rel) {
                    continue;
                }
                todo.extend(
                    self.rules
                        .iter()
                        .filter(|r| r.head_rel == rel && !selected(r)),
                );
            }
        }
        needed
    }

    /// The highest tier of any technique.
    pub fn highest_tier(&self) -> u32 {
        self.techniques.iter().map(|t| t.tier).max().unwrap_or(0)
    }

    /// Keeps only techniques up to a tier.
    pub fn restrict_tier(&mut self, max: u32) {
        let names: Vec<String> = self
            .techniques
            .iter()
            .filter(|t| t.tier <= max)
            .map(|t| t.name.clone())
            .collect();
        // Every name comes from the list itself.
        let _ = self.restrict_techniques(&names);
    }

    /// The id of a built-in relation: built-ins come first, in
    /// [`Builtin::ALL`] order.
    pub fn builtin(&self, which: Builtin) -> RelId {
        which as RelId
    }
}

/// The relations a body reads, each with whether the reading is
/// non-monotone (negation, or a count compared other than with `>=`/`>`).
pub fn body_relations(body: &[Literal], out: &mut Vec<(RelId, bool)>) {
    for lit in body {
        match lit {
            Literal::Atom(a) => out.push((a.rel, false)),
            Literal::Neg(a) => out.push((a.rel, true)),
            // A guard reads the state as it grows: monotone by construction
            // (it can only make a rule fire less), so no stratum waits on it.
            Literal::Guard(a) => out.push((a.rel, false)),
            Literal::Cmp(..) => {}
            Literal::Count(agg) => {
                let strict = agg.elem.is_some() || !matches!(agg.op, CmpOp::Ge | CmpOp::Gt);
                let mut inner = Vec::new();
                body_relations(&agg.body, &mut inner);
                out.extend(inner.into_iter().map(|(r, s)| (r, s || strict)));
                if strict {
                    // An exact count needs its group fixed first: the rule's
                    // other atoms must be complete too.
                    for l in body {
                        if let Literal::Atom(a) = l {
                            out.push((a.rel, true));
                        }
                    }
                }
            }
        }
    }
}
