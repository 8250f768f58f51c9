//! The compiled plans in words (`sudolog check --plan`, and the planner's
//! tests): every operator of the static strata and of the fixpoint on one
//! line, under the rule it was planned for.
//!
//! An operator reads a *frame* of slots: `$0`-`$7` the tuple it reads
//! (`$0`-`$3` its key), `$8`-`$11` the values its index or join partner
//! adds. A static index is shown as its relation's atom: `$1` a column
//! looked up with that slot's value, `->$8` a column whose values it
//! proposes into slot 8, a constant a column it keeps to that value, `_` a
//! column it does not read. Where an operator sends its tuples: a relation
//! of the program (`placed($0, $8)`), a variable of the plan (`[key | values]`,
//! a *pipe* if only the next operator reads it), or a count's counters.

use super::Engine;
use super::ir::RelOrigin;
use super::plan::{CExpr, ChainRole, Check, IndexSpec, Op, Out, Plan, SeedSource, Simple, VarIdx};
use super::tuple::{HALF, SLOTS};
use crate::lang::program::{RelId, Rule, Value};
use crate::lang::value::{CmpOp, Type, WhereOp};
use rustc_hash::FxHashMap;
use std::fmt::{self, Display, Formatter};

/// The engine's plans in words: the static strata in the order they run,
/// then the fixpoint; each operator numbered as in its plan.
pub fn render(engine: &Engine) -> String {
    Listing { engine }.to_string()
}

const LEGEND: &str = "\
Plans: one line per operator, under the rule it was planned for. An operator
reads the slots $0-$7 of a tuple (its key: $0-$3) and $8-$11, the values its
index or join partner adds (->$8: an index column proposed into $8). It sends
its tuples to a relation, a variable [key | values] (a pipe: straight to the
next operator) or a count; [memo]: its outputs are memoised per grid size.
";

struct Listing<'a> {
    engine: &'a Engine,
}

impl Display for Listing<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(LEGEND)?;
        let e = self.engine;
        let mut shown = vec![false; e.program.rules.len()];
        for (i, stage) in e.stages.iter().enumerate() {
            let when = if stage.per_puzzle {
                "once per puzzle"
            } else {
                "once per grid size"
            };
            let members: Vec<&str> = stage
                .members
                .iter()
                .map(|&r| e.lowered.rels[r].name.as_str())
                .collect();
            writeln!(
                f,
                "\nstatic stratum {} of {}, {when}: {}",
                i + 1,
                e.stages.len(),
                members.join(", ")
            )?;
            PlanText::new(e, &stage.plan, false).write(f, &mut shown)?;
        }
        let (vars, ops) = e.plan_size();
        writeln!(f, "\nfixpoint: {vars} variables, {ops} operators")?;
        PlanText::new(e, &e.dynamic, true).write(f, &mut shown)
    }
}

/// What the operators of a run of one plan were planned for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    /// A program rule (its id).
    Rule(usize),
    /// The body of a count (the lowered aggregate's id).
    Count(usize),
    /// The rule filling a count's groups (the lowered aggregate's id).
    Seed(usize),
    /// Nothing known: operators no rule's last operator follows.
    Shared,
}

/// The operators of `plan` in runs that end with a rule's (or count
/// body's) last operator: the planner compiles one rule at a time, so a run
/// is one rule's chain (with the index maps it was the first to need).
pub(super) fn runs(engine: &Engine, plan: &Plan) -> Vec<(Purpose, Vec<usize>)> {
    let rel_of: FxHashMap<VarIdx, RelId> = plan.rel_var.iter().map(|(&r, &v)| (v, r)).collect();
    let mut runs: Vec<(Purpose, Vec<usize>)> = Vec::new();
    let mut pending = Vec::new();
    for (i, op) in plan.ops.iter().enumerate() {
        let to = match op {
            Op::Map { to, .. } | Op::Join { to, .. } | Op::Extend { to, .. } => to,
            Op::SeedCheck { agg, .. } => {
                let purpose = count_purpose(engine, plan, &rel_of, *agg);
                match runs.last_mut() {
                    Some((p, ops)) if *p == purpose => ops.push(i),
                    _ => runs.push((purpose, vec![i])),
                }
                continue;
            }
        };
        pending.push(i);
        if let Some(purpose) = end_of_run(engine, plan, &rel_of, to) {
            runs.push((purpose, std::mem::take(&mut pending)));
        }
    }
    if !pending.is_empty() {
        runs.push((Purpose::Shared, pending));
    }
    runs
}

/// What a rule's last operator (one writing `to`) was planned for; `None`
/// for an operator inside a chain.
fn end_of_run(
    engine: &Engine,
    plan: &Plan,
    rel_of: &FxHashMap<VarIdx, RelId>,
    to: &Out,
) -> Option<Purpose> {
    if let Some(agg) = to.count {
        return Some(count_purpose(engine, plan, rel_of, agg));
    }
    if let Some((rule, _)) = to.rule {
        return Some(Purpose::Rule(rule));
    }
    let rel = rel_of.get(&to.var)?;
    Some(match engine.lowered.rels[*rel].origin {
        RelOrigin::Seed(a) => Purpose::Seed(a),
        RelOrigin::Reached(a) => Purpose::Count(a),
        RelOrigin::Program => Purpose::Shared,
    })
}

/// The purpose of the plan's count `agg`: the lowered aggregate whose
/// `reached` relation it fills.
fn count_purpose(
    engine: &Engine,
    plan: &Plan,
    rel_of: &FxHashMap<VarIdx, RelId>,
    agg: usize,
) -> Purpose {
    let reached = plan.aggs[agg].reached;
    match rel_of
        .get(&reached)
        .map(|&r| &engine.lowered.rels[r].origin)
    {
        Some(RelOrigin::Reached(a)) => Purpose::Count(*a),
        _ => Purpose::Shared,
    }
}

/// A run of operators' purpose in words: the words before the rule's name
/// (`the body of count#3 of `, or none for the rule itself) and the rule,
/// if it is known; `None` for index maps that no one rule owns.
pub(super) fn purpose_rule(engine: &Engine, purpose: Purpose) -> Option<(String, Option<&Rule>)> {
    let (rule, what) = match purpose {
        Purpose::Rule(r) => (Some(r), String::new()),
        Purpose::Count(a) | Purpose::Seed(a) => {
            let word = match purpose {
                Purpose::Seed(_) => "the groups",
                _ => "the body",
            };
            let rule = engine.lowered.aggs.get(a).map(|agg| agg.body.from_rule);
            (rule, format!("{word} of count#{a} of "))
        }
        Purpose::Shared => return None,
    };
    Some((what, rule.and_then(|r| engine.program.rules.get(r))))
}

/// One plan, with what its rendering needs to know.
struct PlanText<'a> {
    engine: &'a Engine,
    plan: &'a Plan,
    /// The relation each of the plan's relation variables holds.
    rel_of: FxHashMap<VarIdx, RelId>,
    /// Per variable: its name as shown (with its number if the name is not
    /// unique in the plan).
    names: Vec<String>,
    /// Whether to show the rules' tiers (the fixpoint's gates; the static
    /// strata run every rule).
    tiers: bool,
}

impl<'a> PlanText<'a> {
    fn new(engine: &'a Engine, plan: &'a Plan, tiers: bool) -> PlanText<'a> {
        let rel_of = plan.rel_var.iter().map(|(&r, &v)| (v, r)).collect();
        let mut uses: FxHashMap<&str, usize> = FxHashMap::default();
        for n in &plan.vars {
            *uses.entry(n.as_str()).or_default() += 1;
        }
        let names = plan
            .vars
            .iter()
            .enumerate()
            .map(|(i, n)| match uses[n.as_str()] {
                _ if plan.unit_loads.contains(&i) => "()".to_string(),
                1 => n.clone(),
                _ => format!("{n}#v{i}"),
            })
            .collect();
        PlanText {
            engine,
            plan,
            rel_of,
            names,
            tiers,
        }
    }

    /// The operators, in runs by purpose, each run under a heading; a rule
    /// shows its text the first time (`shown`, by program rule id).
    fn write(&self, f: &mut Formatter<'_>, shown: &mut [bool]) -> fmt::Result {
        for (purpose, ops) in runs(self.engine, self.plan) {
            self.heading(f, purpose, shown)?;
            for i in ops {
                self.op(f, i)?;
            }
        }
        Ok(())
    }

    fn heading(&self, f: &mut Formatter<'_>, purpose: Purpose, shown: &mut [bool]) -> fmt::Result {
        let e = self.engine;
        let Some((what, rule)) = purpose_rule(e, purpose) else {
            return writeln!(f, "  (index maps)");
        };
        let Some(rule) = rule else {
            return writeln!(f, "  {what}(a rule)");
        };
        write!(f, "  {what}{}", rule.name)?;
        if self.tiers {
            write!(f, " (tier {})", rule.tier)?;
        }
        if let Some(seen) = shown.get_mut(rule.id)
            && !*seen
        {
            *seen = true;
            write!(f, ": {}", rule_text(e, rule))?;
        }
        writeln!(f)?;
        if let Purpose::Count(a) = purpose {
            self.count_line(f, a)?;
        }
        Ok(())
    }

    /// What a count does with its body's tuples.
    fn count_line(&self, f: &mut Formatter<'_>, lowered_agg: usize) -> fmt::Result {
        let Some(agg) = self.plan.aggs.iter().find(|a| {
            self.rel_of
                .get(&a.reached)
                .map(|&r| &self.engine.lowered.rels[r].origin)
                == Some(&RelOrigin::Reached(lowered_agg))
        }) else {
            return Ok(());
        };
        let group = match agg.key_len {
            0 => "one group".to_string(),
            1 => "per group $0".to_string(),
            n => format!("per group $0-${}", n - 1),
        };
        let seed = match agg.seed {
            SeedSource::Var(v) => self.names[v].clone(),
            SeedSource::Static(index) => {
                let rel = self.engine.indexes.specs[index].rel;
                let counters = match agg.row_slot {
                    Some(row) => format!(", array counters by the row in ${row}"),
                    None => String::new(),
                };
                format!("{} (static{counters})", self.engine.lowered.rels[rel].name)
            }
        };
        let what = if let Some(elem) = agg.elem_slot {
            let when = if agg.grows {
                "each time it grows"
            } else {
                "once complete"
            };
            format!("the set of ${elem} {group}, {when}")
        } else if agg.value {
            format!("the count {group}, once complete")
        } else if matches!(agg.op, CmpOp::Ge | CmpOp::Gt) {
            format!("reached once the count >= {}", Expr(&agg.bound))
        } else {
            format!(
                "once complete, reached if the count {} {}",
                agg.op,
                Expr(&agg.bound)
            )
        };
        let what = if agg.elem_slot.is_some() || agg.value {
            what
        } else {
            format!("counted {group}; {what}")
        };
        writeln!(
            f,
            "    count#{lowered_agg} over {seed}: {what} -> {}",
            self.names[agg.reached]
        )
    }

    /// One operator's line.
    fn op(&self, f: &mut Formatter<'_>, i: usize) -> fmt::Result {
        write!(f, "    {i:>3}  ")?;
        match &self.plan.ops[i] {
            Op::Map {
                from,
                checks,
                emit,
                to,
            } => {
                write!(f, "map {}", self.names[*from])?;
                self.checks(f, "if", checks)?;
                self.out(f, &emit.slots, to)?;
            }
            Op::Join {
                left,
                right,
                probe,
                checks,
                emit,
                to,
            } => {
                let how = if *probe { "probe" } else { "join" };
                write!(f, "{how} {} with {}", self.names[*left], self.names[*right])?;
                self.checks(f, "if", checks)?;
                self.out(f, &emit.slots, to)?;
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
                // The checks of the input tuple alone come before the index
                // that extends it, as they run before it proposes anything.
                let (input, values) = checks.split_at((*early).min(checks.len()));
                write!(f, "extend {}", self.names[*source])?;
                self.checks(f, "if", input)?;
                f.write_str(" by ")?;
                self.index(f, &self.engine.indexes.specs[*index], key)?;
                self.checks(f, "if", values)?;
                self.out(f, &emit.slots, to)?;
            }
            Op::SeedCheck { seed, agg } => {
                write!(
                    f,
                    "seed check {}: groups whose bound is met at zero -> {}",
                    self.names[*seed], self.names[self.plan.aggs[*agg].reached]
                )?;
            }
        }
        self.memo(f, i)?;
        writeln!(f)
    }

    /// A static index as its relation's atom: key columns with the key's
    /// values, proposed columns with the slot they go to.
    fn index(&self, f: &mut Formatter<'_>, spec: &IndexSpec, key: &[CExpr]) -> fmt::Result {
        let rel = spec.rel;
        let arity = self.engine.lowered.rels[rel].arity;
        let mut cols = vec!["_".to_string(); arity];
        for (i, &c) in spec.key.iter().enumerate() {
            if let (Some(col), Some(e)) = (cols.get_mut(c), key.get(i)) {
                *col = Expr(e).to_string();
            }
        }
        for (i, &c) in spec.val.iter().enumerate() {
            if let Some(col) = cols.get_mut(c) {
                *col = format!("->${}", SLOTS + i);
            }
        }
        for &(c, v) in &spec.consts {
            if let Some(col) = cols.get_mut(c) {
                *col = self.constant(Some(rel), c, v);
            }
        }
        for &(a, b) in &spec.eqs {
            let same = cols.get(a).map(|s| s.trim_start_matches("->").to_string());
            if let (Some(same), Some(col)) = (same, cols.get_mut(b)) {
                *col = same;
            }
        }
        write!(
            f,
            "{}({})",
            self.engine.lowered.rels[rel].name,
            cols.join(", ")
        )
    }

    fn checks(&self, f: &mut Formatter<'_>, word: &str, checks: &[Check]) -> fmt::Result {
        for (i, c) in checks.iter().enumerate() {
            let sep = if i == 0 {
                format!(" {word} ")
            } else {
                ", ".into()
            };
            f.write_str(&sep)?;
            self.check(f, c)?;
        }
        Ok(())
    }

    fn check(&self, f: &mut Formatter<'_>, check: &Check) -> fmt::Result {
        match check {
            Check::Fast(a, op, b) => write!(f, "{} {op} {}", Operand(*a), Operand(*b)),
            Check::Cmp(a, op, b) => write!(f, "{} {op} {}", Expr(a), Expr(b)),
            Check::Static {
                index,
                key,
                negated,
            } => {
                let spec = &self.engine.indexes.specs[*index];
                let arity = self.engine.lowered.rels[spec.rel].arity;
                let mut cols = vec!["_".to_string(); arity];
                for (&c, e) in spec.key.iter().chain(&spec.val).zip(&key.slots) {
                    if let Some(col) = cols.get_mut(c) {
                        *col = self.column_value(Some(spec.rel), c, e);
                    }
                }
                let name = &self.engine.lowered.rels[spec.rel].name;
                let not = if *negated { "!" } else { "" };
                write!(f, "{not}{name}({})", cols.join(", "))
            }
            Check::Unknown { guard, key, bound } => {
                self.guard(f, *guard, &key.slots, bound.as_ref())
            }
        }
    }

    /// A guard as written: `unless placed($0, _)`, with `where` if it has
    /// one (the compared column shown by its name).
    fn guard(
        &self,
        f: &mut Formatter<'_>,
        guard: usize,
        key: &[CExpr],
        bound: Option<&(WhereOp, CExpr)>,
    ) -> fmt::Result {
        let Some(spec) = self.plan.guards.get(guard) else {
            return f.write_str("unless ?");
        };
        let rel = self.rel_of.get(&spec.var).copied();
        let arity = rel.map_or(key.len(), |r| self.engine.lowered.rels[r].arity);
        let projection = spec.projection.and_then(|n| {
            self.plan
                .projections
                .iter()
                .filter(|p| p.var == spec.var)
                .nth(n)
        });
        let (cols, spread) = match projection {
            Some(p) => (p.cols.clone(), p.spread),
            None => ((0..arity).collect(), None),
        };
        let mut shown = vec!["_".to_string(); arity];
        for (&c, e) in cols.iter().zip(key) {
            if let Some(col) = shown.get_mut(c) {
                *col = self.column_value(rel, c, e);
            }
        }
        let spread_name = spread.map(|c| self.column_name(rel, c));
        if let (Some(c), Some(name)) = (spread, &spread_name)
            && let Some(col) = shown.get_mut(c)
        {
            col.clone_from(name);
        }
        write!(f, "unless {}({})", self.names[spec.var], shown.join(", "))?;
        if let (Some((op, e)), Some(name)) = (bound, spread_name) {
            write!(f, " where {name} {op} {}", Expr(e))?;
        }
        Ok(())
    }

    /// Where an operator's tuples go.
    fn out(&self, f: &mut Formatter<'_>, slots: &[CExpr], to: &Out) -> fmt::Result {
        if let Some(agg) = to.count {
            let reached = self.plan.aggs[agg].reached;
            let name = match count_purpose(self.engine, self.plan, &self.rel_of, agg) {
                Purpose::Count(a) => format!("count#{a}"),
                _ => format!("the count of {}", self.names[reached]),
            };
            return write!(f, " -> {name} [{}]", exprs(trimmed(slots)));
        }
        if let Some(&rel) = self.rel_of.get(&to.var) {
            let arity = self.engine.lowered.rels[rel].arity;
            let cols: Vec<String> = slots
                .iter()
                .take(arity)
                .enumerate()
                .map(|(c, e)| self.column_value(Some(rel), c, e))
                .collect();
            return write!(f, " -> {}({})", self.names[to.var], cols.join(", "));
        }
        let (key, values) = slots.split_at(HALF.min(slots.len()));
        write!(f, " -> {} [{}", self.names[to.var], exprs(trimmed(key)))?;
        let values = trimmed(values);
        if !values.is_empty() {
            write!(f, " | {}", exprs(values))?;
        }
        f.write_str("]")?;
        if self.plan.is_pipe(to.var) {
            f.write_str(" (pipe)")?;
        }
        Ok(())
    }

    /// Whether an operator is memoised, alone or as part of a count chain.
    fn memo(&self, f: &mut Formatter<'_>, i: usize) -> fmt::Result {
        match self.plan.chain_role.get(i) {
            Some(ChainRole::Head(n)) => {
                let chain = &self.plan.count_chains[*n];
                let ops: Vec<String> = chain.ops.iter().map(ToString::to_string).collect();
                return write!(f, "  [memo: count chain {}]", ops.join(", "));
            }
            Some(ChainRole::Member) => return f.write_str("  [in a count chain]"),
            Some(ChainRole::Alone) | None => {}
        }
        if self.plan.memo.get(i).copied().unwrap_or(false) {
            f.write_str("  [memo]")?;
        }
        Ok(())
    }

    /// What goes into column `col` of `rel`: a slot, an expression, or a
    /// constant as the column's type reads.
    fn column_value(&self, rel: Option<RelId>, col: usize, e: &CExpr) -> String {
        match e {
            CExpr::Const(v) => self.constant(rel, col, *v),
            e => Expr(e).to_string(),
        }
    }

    /// A constant of column `col` of `rel`, as its type reads.
    fn constant(&self, rel: Option<RelId>, col: usize, v: Value) -> String {
        let program = &self.engine.program;
        let ty = rel
            .and_then(|r| program.relations.get(r))
            .and_then(|r| r.columns.get(col))
            .map(|(_, ty)| *ty);
        match ty {
            Some(Type::Symbol | Type::Unit) => format!("{:?}", program.symbols.name(v)),
            Some(Type::Cell) => crate::lang::value::cell_name(v),
            _ => v.to_string(),
        }
    }

    fn column_name(&self, rel: Option<RelId>, col: usize) -> String {
        rel.and_then(|r| self.engine.program.relations.get(r))
            .and_then(|r| r.columns.get(col))
            .map_or_else(|| format!("column {col}"), |(name, _)| name.clone())
    }
}

/// A rule's text on one line: comments dropped, spaces collapsed.
pub(super) fn rule_text(engine: &Engine, rule: &Rule) -> String {
    let span = rule.span;
    let sources = &engine.program.sources;
    let text = sources.text(span.file);
    let Some(text) = text.get(span.start..span.end.min(text.len())) else {
        return String::new();
    };
    let mut code = String::new();
    let mut in_string = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            in_string = !in_string;
        } else if c == '/' && !in_string && chars.peek() == Some(&'/') {
            while chars.next_if(|&c| c != '\n').is_some() {}
            continue;
        }
        code.push(c);
    }
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The slots of a tuple up to its last one that is not a zero constant
/// (the padding of a layout).
fn trimmed(slots: &[CExpr]) -> &[CExpr] {
    let len = slots
        .iter()
        .rposition(|e| *e != CExpr::Const(0))
        .map_or(0, |i| i + 1);
    &slots[..len]
}

fn exprs(slots: &[CExpr]) -> String {
    slots
        .iter()
        .map(|e| Expr(e).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An expression over frame slots, as `$8 - 1`.
struct Expr<'a>(&'a CExpr);

impl Display for Expr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            CExpr::Var(i) => write!(f, "${i}"),
            CExpr::Const(v) => write!(f, "{v}"),
            CExpr::Add(a, b) => write!(f, "{} + {}", Expr(a), Operand2(b)),
            CExpr::Sub(a, b) => write!(f, "{} - {}", Expr(a), Operand2(b)),
            CExpr::Neg(a) => write!(f, "-{}", Operand2(a)),
            CExpr::Mul(a, b) => write!(f, "{} * {}", Operand2(a), Operand2(b)),
            CExpr::Div(a, b) => write!(f, "{} / {}", Operand2(a), Operand2(b)),
            CExpr::Mod(a, b) => write!(f, "{} % {}", Operand2(a), Operand2(b)),
            CExpr::Union(a, b) => write!(f, "{} | {}", Expr(a), Operand2(b)),
            CExpr::Inter(a, b) => write!(f, "{} & {}", Operand2(a), Operand2(b)),
        }
    }
}

/// The right operand of `+` or `-` (and the operand of `-`), in
/// parentheses unless it is a slot or a constant.
struct Operand2<'a>(&'a CExpr);

impl Display for Operand2<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            CExpr::Var(_) | CExpr::Const(_) => Expr(self.0).fmt(f),
            e => write!(f, "({})", Expr(e)),
        }
    }
}

/// A simple operand of a fast comparison.
struct Operand(Simple);

impl Display for Operand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Simple::Slot(i) => write!(f, "${i}"),
            Simple::Const(v) => write!(f, "{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSources;
    use crate::engine::var::Keep;
    use expect_test::{Expect, expect};

    /// An engine over `text` alone (no standard library).
    fn engine(text: &str) -> Engine {
        let mut sources = RuleSources::default();
        sources.add_text("t.dl", text);
        let program = match sources.load() {
            Ok(p) => p,
            Err(e) => panic!("the test rules do not load:\n{e}"),
        };
        match Engine::new(program) {
            Ok(e) => e,
            Err(d) => panic!("the test rules do not compile:\n{}", d.render()),
        }
    }

    /// The rendering of `text`'s plans without the legend.
    fn check(text: &str, expected: Expect) {
        let shown = render(&engine(text));
        let plans = shown.strip_prefix(LEGEND).unwrap_or(&shown);
        expected.assert_eq(plans.trim_start());
    }

    #[test]
    fn joins_of_state_relations() {
        check(
            r#"
.decl twin(a: cell, b: cell)
// The same digit placed in two cells.
twin(A, B) :- placed(A, D), placed(B, D), A != B.
contradiction("both", C) :- placed(C, D), eliminated(C, D).
"#,
            expect![[r#"
                fixpoint: 6 variables, 4 operators
                  t.dl:4 (tier 0): twin(A, B) :- placed(A, D), placed(B, D), A != B.
                      0  map placed -> rekey [$1 | $0]
                      1  map placed -> index:placed [$1 | $0]
                      2  join rekey with index:placed if $4 != $8 -> twin($4, $8)
                  t.dl:5 (tier 0): contradiction("both", C) :- placed(C, D), eliminated(C, D).
                      3  probe placed with eliminated -> contradiction("both", $0)
            "#]],
        );
    }

    #[test]
    fn extend_with_static_relations_and_negation() {
        check(
            "eliminated(X, D) :- placed(C, D), in_unit(C, U), in_unit(X, U), X != C, !given(X, D).",
            expect![[r#"
                fixpoint: 4 variables, 2 operators
                  t.dl:1 (tier 0): eliminated(X, D) :- placed(C, D), in_unit(C, U), in_unit(X, U), X != C, !given(X, D).
                      0  extend placed by in_unit($0, ->$8) -> chain:0 [$0 $1 $8] (pipe)  [memo]
                      1  extend chain:0 by in_unit(->$8, $2) if $8 != $0, !given($8, $1) -> eliminated($8, $1)
            "#]],
        );
    }

    #[test]
    fn a_static_atom_its_variables_bound_is_a_check_of_the_operator_binding_them() {
        // `in_unit(C, V)` has all its variables once `in_unit(X, ->V)`
        // proposes V: it is tested there, as the comparison is, rather than
        // by an operator of its own that every proposed tuple goes through.
        check(
            "eliminated(X, D) :- placed(C, D), in_unit(C, U), in_unit(X, U), in_unit(X, V), \
             in_unit(C, V), U != V, unless placed(X, _).",
            expect![[r#"
                fixpoint: 5 variables, 3 operators
                  t.dl:1 (tier 0): eliminated(X, D) :- placed(C, D), in_unit(C, U), in_unit(X, U), in_unit(X, V), in_unit(C, V), U != V, unless placed(X, _).
                      0  extend placed by in_unit($0, ->$8) -> chain:0#v3 [$0 $1 $8] (pipe)  [memo]
                      1  extend chain:0#v3 by in_unit(->$8, $2) if unless placed($8, _) -> chain:0#v4 [$0 $1 $2 $8] (pipe)
                      2  extend chain:0#v4 if unless placed($3, _) by in_unit($3, ->$8) if $2 != $8, in_unit($0, $8) -> eliminated($3, $1)
            "#]],
        );
    }

    #[test]
    fn a_static_atom_on_an_assigned_variable_is_a_lookup() {
        // `U = K | {1}` is computed, and `digit_set(U, _)` tests it, right
        // after the driver and after a join alike: no listing of every set
        // compared with `U`.
        check(
            r#"
.decl k(c: cell, s: set)
k(C, S) :- placed(C, D), digit_set(S, 1), in_set(D, S).
.decl u(c: cell, s: set)
u(C, U) :- k(C, K), U = K | {1}, digit_set(U, _).
.decl w(c: cell, s: set)
w(C, U) :- k(C, K), k(C, J), K != J, U = K | J, digit_set(U, _).
"#,
            expect![[r#"
                fixpoint: 8 variables, 5 operators
                  t.dl:3 (tier 0): k(C, S) :- placed(C, D), digit_set(S, 1), in_set(D, S).
                      0  extend placed by digit_set(->$8, 1) if in_set($1, $8) -> k($0, $8)  [memo]
                  t.dl:5 (tier 0): u(C, U) :- k(C, K), U = K | {1}, digit_set(U, _).
                      1  map k if digit_set($1 | 2, _) -> u($0, $1 | 2)
                  t.dl:7 (tier 0): w(C, U) :- k(C, K), k(C, J), K != J, U = K | J, digit_set(U, _).
                      2  map k -> rekey [$0 | $1]
                      3  map k -> index:k [$0 | $1]
                      4  join rekey with index:k if $4 != $8, digit_set($4 | $8, _) -> w($0, $4 | $8)
            "#]],
        );
    }

    #[test]
    fn threshold_count() {
        check(
            "placed(C, D) :- cell(C), digit(D), size(N), // every other digit:\n    count : { eliminated(C, E), E != D } >= N - 1.",
            expect![[r#"
                static stratum 1 of 3, once per grid size: seed#0.2
                  the groups of count#0 of t.dl:1: placed(C, D) :- cell(C), digit(D), size(N), count : { eliminated(C, E), E != D } >= N - 1.
                      0  map load:size -> seed#0.2($0, 0)

                static stratum 2 of 3, once per grid size: seed#0.1
                  the groups of count#0 of t.dl:1
                      0  map load:digit -> seed#0.1($0, 0)

                static stratum 3 of 3, once per grid size: seed#0.0
                  the groups of count#0 of t.dl:1
                      0  map load:cell -> seed#0.0($0, 0)

                fixpoint: 6 variables, 4 operators
                  the body of count#0 of t.dl:1 (tier 0)
                    count#0 over seed#0 (static, array counters by the row in $4): counted per group $0-$2; reached once the count >= $2 - 1 -> reached#0
                      0  extend eliminated by seed#0.0($0, ->$8) -> chain:0#v4 [$0 $1 $8] (pipe)  [memo: count chain 0, 1, 2]
                      1  extend chain:0#v4 by seed#0.1(->$8, ->$9) if $1 != $8 -> chain:0#v5 [$0 $8 $1 $2 | $9] (pipe)  [in a count chain]
                      2  extend chain:0#v5 by seed#0.2(->$8, ->$9) -> count#0 [$0 $1 $8 $2 $3 + $4 + $9]  [in a count chain]
                  t.dl:1 (tier 0)
                      3  map reached#0 -> placed($0, $1)
            "#]],
        );
    }

    #[test]
    fn guards() {
        check(
            r#"
.decl open(c: cell)
.decl best(c: cell, d: digit)
open(C) :- eliminated(C, _), unless placed(C, _).
best(C, D) :- eliminated(C, D), unless best(C, E) where E < D.
"#,
            expect![[r#"
                fixpoint: 5 variables, 2 operators
                  t.dl:4 (tier 0): open(C) :- eliminated(C, _), unless placed(C, _).
                      0  map eliminated if unless placed($0, _) -> open($0)
                  t.dl:5 (tier 0): best(C, D) :- eliminated(C, D), unless best(C, E) where E < D.
                      1  map eliminated if unless best($0, d) where d < $1 -> best($0, $1)
            "#]],
        );
    }

    #[test]
    fn set_aggregate() {
        check(
            ".decl gone(c: cell, m: set)\ngone(C, M) :- cell(C), M = set E : { eliminated(C, E) }.",
            expect![[r#"
                static stratum 1 of 1, once per grid size: seed#0
                  the groups of count#0 of t.dl:2: gone(C, M) :- cell(C), M = set E : { eliminated(C, E) }.
                      0  map load:cell -> seed#0($0, 0)

                fixpoint: 5 variables, 2 operators
                  the body of count#0 of t.dl:2 (tier 0)
                    count#0 over seed#0 (static, array counters by the row in $2): the set of $1 per group $0, each time it grows -> reached#0
                      0  extend eliminated by seed#0($0, ->$8) -> count#0 [$0 $1 $8]  [memo: count chain 0]
                  t.dl:2 (tier 0)
                      1  map reached#0 -> gone($0, $1)
            "#]],
        );
    }

    // The planner's decisions that matter for speed, each on the smallest
    // rule that makes it.

    fn var(e: &Engine, name: &str) -> VarIdx {
        match e.dynamic.vars.iter().position(|v| v == name) {
            Some(v) => v,
            None => panic!("no variable {name}"),
        }
    }

    /// A join of two relations with nothing beside the key (an
    /// intersection) probes each new tuple in the other side's facts, so
    /// neither keeps sorted batches; a join with values merges them.
    #[test]
    fn an_intersection_is_a_probe_join() {
        let e = engine(
            ".decl twin(a: cell, b: cell)\n\
             twin(A, B) :- placed(A, D), placed(B, D), A != B.\n\
             contradiction(\"both\", C) :- placed(C, D), eliminated(C, D).",
        );
        let joins: Vec<(VarIdx, VarIdx, bool)> = e
            .dynamic
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Join {
                    left, right, probe, ..
                } => Some((*left, *right, *probe)),
                _ => None,
            })
            .collect();
        let (placed, eliminated) = (var(&e, "placed"), var(&e, "eliminated"));
        let (rekey, index) = (var(&e, "rekey"), var(&e, "index:placed"));
        assert_eq!(joins, [(rekey, index, false), (placed, eliminated, true)]);
        let keeps = e.dynamic.var_keeps();
        // Re-keyed for the join only: batches, no map of facts.
        assert_eq!(keeps[rekey], Keep::Batches);
        assert_eq!(keeps[index], Keep::Batches);
        assert_eq!(keeps[placed], Keep::Facts);
        assert_eq!(keeps[eliminated], Keep::Facts);
    }

    /// A join's operands that lead into a count keep every fact: a tuple
    /// arriving twice would count one binding twice.
    #[test]
    fn operands_of_a_counted_join_keep_their_facts() {
        let e = engine(
            ".decl crowded(c: cell)\n\
             crowded(C) :- cell(C), count : { placed(A, D), placed(B, D), row(C, R), row(A, R), A != B } >= 2.",
        );
        let operands: Vec<VarIdx> = (e.dynamic.ops.iter())
            .filter_map(|op| match op {
                Op::Join { left, right, .. } => Some([*left, *right]),
                _ => None,
            })
            .flatten()
            .collect();
        assert!(!operands.is_empty(), "the count's body joins two relations");
        let keeps = e.dynamic.var_keeps();
        for v in operands {
            assert_ne!(keeps[v], Keep::Batches, "operand {v}");
        }
    }

    /// An extension's conditions on its input tuple alone come first and
    /// are counted in `early` (tested once per tuple, before any value is
    /// proposed), whatever their order in the rule.
    #[test]
    fn checks_of_the_input_alone_come_first() {
        let e = engine("eliminated(C, E) :- placed(C, D), digit(E), E != D, D > 1.");
        let [Op::Extend { checks, early, .. }] = e.dynamic.ops.as_slice() else {
            panic!("one extend expected: {:?}", e.dynamic.ops);
        };
        assert_eq!(*early, 1);
        let one = Simple::Const(1);
        assert_eq!(
            checks,
            &[
                Check::Fast(Simple::Slot(1), CmpOp::Gt, one),
                Check::Fast(Simple::Slot(8), CmpOp::Ne, Simple::Slot(1)),
            ]
        );
    }

    /// An extension over pure geometry is memoised; one that reads the
    /// givens (which differ per puzzle) or checks a guard (which reads the
    /// state) is not.
    #[test]
    fn only_extensions_over_geometry_without_guards_are_memoised() {
        let e = engine(
            ".decl open(c: cell, d: digit)\n\
             eliminated(C, E) :- placed(C, D), digit(E), E != D.\n\
             eliminated(C, E) :- placed(C, D), digit(E), !given(C, E).\n\
             open(C, E) :- placed(C, D), digit(E), unless eliminated(C, E).",
        );
        assert!(
            e.dynamic
                .ops
                .iter()
                .all(|op| matches!(op, Op::Extend { .. })),
            "{:?}",
            e.dynamic.ops
        );
        let guarded = |op: &Op| match op {
            Op::Extend { checks, .. } => checks.iter().any(|c| matches!(c, Check::Unknown { .. })),
            _ => false,
        };
        assert!(guarded(&e.dynamic.ops[2]));
        assert_eq!(e.dynamic.memo, [true, false, false]);
    }
}
