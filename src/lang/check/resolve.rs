//! Name resolution: each atom's relation (declared, with the right
//! number of columns, "did you mean" otherwise), each variable numbered
//! within its rule, each constant turned into a value (integers that fit,
//! cells on some grid, symbols interned), guards' `where`, and counts.
//! Resolving an atom also gives its variables the types of its columns
//! ([`Checker::set_type`]).

use super::types::set_constant_fits;
use super::{Checker, Scope};
use crate::lang::ast::{self, AggFunc, BinOp, CmpOp, Fold, Span, Type, TypeFamily, WhereOp};
use crate::lang::diag::Diagnostic;
use crate::lang::parser::unit_constant_parts;
use crate::lang::program::{
    Aggregate, Arg, Atom, CANDIDATE_VIEW, Expr, GridConstant, GridName, Literal, RelId,
};
use crate::lang::symbols::MAX_SIDE;
use crate::lang::value::{CELL_STRIDE, MAX_SET_MEMBER, Value};
use itertools::Itertools;

fn builtin_help(name: &str) -> String {
    format!(
        "`{name}` is filled from the grid and the puzzle; derive a relation of your own instead (`.decl my_{name}(...)`)"
    )
}

impl Checker<'_> {
    /// Resolves a rule's head relation (which must be one rules may add
    /// facts to) and, after `body` has numbered the variables, its
    /// arguments; `None` in either place when it has an error.
    pub(super) fn head(
        &mut self,
        head: &ast::Atom,
        body: &[ast::Literal],
        scope: &mut Scope,
    ) -> (Option<RelId>, Option<Vec<Literal>>, Option<Vec<Expr>>) {
        let head_rel = self.resolve_rel(head);
        if let Some(h) = head_rel {
            let rel = &self.relations[h];
            if let Some(b) = rel.builtin
                && !b.info().rules_add
            {
                let name = rel.name.clone();
                self.error(
                    Diagnostic::new(
                        head.name_span,
                        format!("rules cannot add facts to `{name}`"),
                    )
                    .label("built in")
                    .help(builtin_help(&name)),
                );
            }
        }
        let body = self.literals(body, scope, 0);
        let mut args = Vec::new();
        for a in &head.args {
            if let Some(e) = self.expr(a, scope, "a rule head") {
                args.push(e);
            }
        }
        let args = (args.len() == head.args.len()).then_some(args);
        (head_rel, body, args)
    }

    /// Resolves an atom's relation and checks its arity.
    pub(super) fn resolve_rel(&mut self, atom: &ast::Atom) -> Option<RelId> {
        if atom.rel == CANDIDATE_VIEW && !self.queries {
            self.error(
                Diagnostic::new(atom.name_span, "rules cannot use `candidate`")
                    .label("a view for reports, not a relation")
                    .help("a candidate is a digit not yet eliminated, which can change as the solve goes on; state what you know monotonically with `eliminated`, e.g. `count : { eliminated(C, E), E != D } >= N - 1`"),
            );
            return None;
        }
        let Some(&id) = self.by_name.get(&atom.rel) else {
            let cols = (1..=atom.args.len())
                .map(|i| format!("x{i}: number"))
                .join(", ");
            self.error(
                Diagnostic::new(
                    atom.name_span,
                    format!("undeclared relation `{}`", atom.rel),
                )
                .label("not declared")
                .help(match crate::lang::suggest::closest(
                    &atom.rel,
                    self.by_name.keys().map(String::as_str),
                ) {
                    Some(known) => format!(
                        "did you mean `{known}`? Otherwise declare it before use, e.g. `.decl {}({})`",
                        atom.rel, cols
                    ),
                    None => format!(
                        "declare it before use, e.g. `.decl {}({})`, or check the spelling",
                        atom.rel, cols
                    ),
                }),
            );
            return None;
        };
        let arity = self.relations[id].arity();
        if atom.args.len() != arity {
            let cols = self.relations[id]
                .columns
                .iter()
                .map(|(n, t)| format!("{n}: {t}"))
                .join(", ");
            self.error(
                Diagnostic::new(
                    atom.span,
                    format!(
                        "`{}` has {} column{} but is used with {}",
                        atom.rel,
                        arity,
                        if arity == 1 { "" } else { "s" },
                        atom.args.len()
                    ),
                )
                .label("wrong number of arguments")
                .help(format!("it is declared as `{}({})`", atom.rel, cols)),
            );
            return None;
        }
        Some(id)
    }

    fn constant(&mut self, e: &ast::Expr) -> Option<(Value, TypeFamily)> {
        match e {
            ast::Expr::Int(v, span) => match Value::try_from(*v) {
                Ok(v) => Some((v, TypeFamily::Number)),
                Err(_) => {
                    self.error(
                        Diagnostic::new(*span, format!("integer {v} does not fit in 32 bits"))
                            .label("too large")
                            .help("values range from -2147483648 to 2147483647"),
                    );
                    None
                }
            },
            ast::Expr::Str(s, span) => {
                // `box10` and `"box10"` are one symbol: either names a unit
                // that only larger grids have.
                if let Some((kind, number)) = unit_constant_parts(s) {
                    self.grid_names.push(GridConstant {
                        what: GridName::Unit { kind, number },
                        span: *span,
                        rule: 0,
                    });
                }
                Some((self.symbols.intern(s), TypeFamily::Symbol))
            }
            // A set is a bitmask, bit `x` for member `x` (as `show_set`
            // prints it); `in_set` and `set` aggregates read bits 1 to
            // MAX_SET_MEMBER only, so no other member could be read back.
            ast::Expr::Set(members, span) => {
                match members
                    .iter()
                    .find(|&&m| !(1..=MAX_SET_MEMBER).contains(&m))
                {
                    Some(m) => {
                        self.error(
                            Diagnostic::new(*span, format!("a set cannot hold {m}"))
                                .label("out of range")
                                .help(format!("members of a set run from 1 to {MAX_SET_MEMBER}")),
                        );
                        None
                    }
                    None => Some((
                        members.iter().fold(0, |mask, &m| mask | 1 << m),
                        TypeFamily::Number,
                    )),
                }
            }
            ast::Expr::Cell { row, col, span } => {
                let max = MAX_SIDE as u32;
                if *row == 0 || *col == 0 || *row > max || *col > max {
                    self.error(
                        Diagnostic::new(*span, format!("no grid has a cell r{row}c{col}"))
                            .label("out of range")
                            .help(format!("rows and columns run from 1 to at most {max}")),
                    );
                    return None;
                }
                self.grid_names.push(GridConstant {
                    what: GridName::Cell {
                        row: *row,
                        col: *col,
                    },
                    span: *span,
                    rule: 0,
                });
                Some((
                    (*row as Value - 1) * CELL_STRIDE + (*col as Value - 1),
                    TypeFamily::Cell,
                ))
            }
            _ => None,
        }
    }

    /// Reports a number written as a side of `|` or `&` (`S | 3`, `S &
    /// (K * 2)`): a bitmask that reads as a set of other members, the slip
    /// a set constant `{3}` is there to avoid. A sum or difference may be
    /// one of sets (`F - M`); its variables are typed later
    /// (`check_arith`).
    fn set_operands(&mut self, op: BinOp, sides: [&ast::Expr; 2], span: Span) {
        let number = |e: &ast::Expr| match e {
            ast::Expr::Int(..) | ast::Expr::Neg(..) => true,
            ast::Expr::Binary(o, ..) => matches!(o, BinOp::Mul | BinOp::Div | BinOp::Mod),
            _ => false,
        };
        if sides.iter().any(|e| number(e)) {
            self.error(
                Diagnostic::new(span, format!("type clash: a number in a set's `{op}`"))
                    .label("not a set")
                    .help("`|` and `&` take sets: write a set constant such as `{3}`, or a set variable"),
            );
        }
    }

    /// Resolves an expression (no wildcards allowed).
    fn expr(&mut self, e: &ast::Expr, scope: &mut Scope, ctx: &str) -> Option<Expr> {
        match e {
            ast::Expr::Var(name, span) => Some(Expr::Var(scope.var(name, *span))),
            ast::Expr::Wildcard(span) => {
                self.error(
                    Diagnostic::new(*span, format!("`_` cannot be used in {ctx}"))
                        .label("needs a value")
                        .help("use a named variable that the body binds"),
                );
                None
            }
            ast::Expr::Int(..)
            | ast::Expr::Str(..)
            | ast::Expr::Set(..)
            | ast::Expr::Cell { .. } => self.constant(e).map(|(v, _)| Expr::Const(v)),
            ast::Expr::Binary(op, a, b, span) => {
                if matches!(op, BinOp::Union | BinOp::Inter) {
                    self.set_operands(*op, [a, b], *span);
                }
                let a = self.expr(a, scope, ctx);
                let b = self.expr(b, scope, ctx);
                let (a, b) = (Box::new(a?), Box::new(b?));
                Some(match op {
                    BinOp::Add => Expr::Add(a, b),
                    BinOp::Sub => Expr::Sub(a, b),
                    BinOp::Mul => Expr::Mul(a, b),
                    BinOp::Union => Expr::Union(a, b),
                    BinOp::Inter => Expr::Inter(a, b),
                    BinOp::Div => Expr::Div(a, b),
                    BinOp::Mod => Expr::Mod(a, b),
                })
            }
            ast::Expr::Neg(a, _) => Some(Expr::Neg(Box::new(self.expr(a, scope, ctx)?))),
        }
    }

    /// Resolves a body atom; expression arguments become fresh variables
    /// plus an equality appended to `extra`.
    fn body_atom(
        &mut self,
        atom: &ast::Atom,
        scope: &mut Scope,
        extra: &mut Vec<Literal>,
        counted: bool,
    ) -> Option<Atom> {
        let rel = self.resolve_rel(atom)?;
        let mut args = Vec::new();
        let mut ok = true;
        for (i, a) in atom.args.iter().enumerate() {
            let ty = self.relations[rel].columns[i].1;
            let arg = match a {
                ast::Expr::Var(name, span) => {
                    let v = scope.var(name, *span);
                    self.set_type(scope, v, ty, *span);
                    Arg::Var(v)
                }
                ast::Expr::Wildcard(span) => {
                    let v = scope.fresh("_", *span);
                    scope.types[v] = Some((ty, *span));
                    // Inside a count, `_` is counted like a named variable
                    // (`count : { eliminated(C, _) }` counts digits).
                    if counted { Arg::Var(v) } else { Arg::Wild }
                }
                ast::Expr::Int(..)
                | ast::Expr::Str(..)
                | ast::Expr::Set(..)
                | ast::Expr::Cell { .. } => match self.constant(a) {
                    Some((v, fam)) => {
                        if fam != ty.family() {
                            self.type_clash(a.span(), &format!("a {fam} constant"), ty);
                            ok = false;
                        } else if !set_constant_fits(a, ty) {
                            self.type_clash(a.span(), "a set constant", ty);
                            ok = false;
                        }
                        Arg::Const(v)
                    }
                    None => {
                        ok = false;
                        Arg::Wild
                    }
                },
                ast::Expr::Binary(_, _, _, span) | ast::Expr::Neg(_, span) => {
                    let Some(e) = self.expr(a, scope, "an expression") else {
                        ok = false;
                        continue;
                    };
                    let v = scope.fresh(&format!("_e{}", scope.names.len()), *span);
                    self.set_type(scope, v, ty, *span);
                    extra.push(Literal::Cmp(Expr::Var(v), CmpOp::Eq, e, *span));
                    Arg::Var(v)
                }
            };
            args.push(arg);
        }
        ok.then_some(Atom {
            rel,
            args,
            span: atom.span,
        })
    }

    /// A guard with `where X op Y`: `X` must be a variable that appears in
    /// the atom once and is the guard's own (the atom's column then holds
    /// any value in `op` to `Y`), `Y` a variable of the rule.
    fn guard_where(
        &mut self,
        atom: &ast::Atom,
        cond: &ast::GuardWhere,
        scope: &mut Scope,
        extra: &mut Vec<Literal>,
    ) -> Option<Atom> {
        // The guard's own variable: in the atom once, and not a variable
        // the rule has named before.
        let column_of = |e: &ast::Expr| match e {
            ast::Expr::Var(name, _) if !scope.names.contains(name) => {
                let cols: Vec<usize> = atom
                    .args
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| matches!(a, ast::Expr::Var(n, _) if n == name))
                    .map(|(i, _)| i)
                    .collect();
                (cols.len() == 1).then_some(cols[0])
            }
            _ => None,
        };
        let (col, op, other) = match (column_of(&cond.left), column_of(&cond.right)) {
            (Some(c), None) => (c, cond.op, &cond.right),
            (None, Some(c)) => match cond.op.flipped() {
                Some(op) => (c, op, &cond.left),
                None => {
                    self.error(
                    Diagnostic::new(cond.span, "`where X in S` asks whether the guard's column `X` is in the set `S`")
                        .label("the guard's own variable is on the right")
                        .help("put the variable of the guard's atom on the left and a set of the rule on the right, e.g. `unless filled(U, P) where P in T`"),
                    );
                    return None;
                }
            },
            _ => {
                self.error(
                    Diagnostic::new(cond.span, "`where` must compare one new variable of the guard's atom with a variable of the rule")
                        .label("not one new variable of the atom on one side")
                        .help("name the compared column with a variable that appears once in the atom and nowhere before it in the rule, e.g. `unless tint(D, B, S, _) where S < R`"),
                );
                return None;
            }
        };
        let ast::Expr::Var(name, span) = other else {
            self.error(
                Diagnostic::new(other.span(), "`where` compares with a variable")
                    .label("not a variable")
                    .help("bind the value to a variable of the rule first, e.g. `R1 = R + 1`, and compare with that"),
            );
            return None;
        };
        let mut plain = atom.clone();
        plain.args[col] = ast::Expr::Wildcard(atom.args[col].span());
        let mut checked = self.body_atom(&plain, scope, extra, false)?;
        let v = scope.var(name, *span);
        let ty = self.relations[checked.rel].columns[col].1;
        if op == WhereOp::In {
            if ty.family() != TypeFamily::Number || ty == Type::Set {
                self.error(
                    Diagnostic::new(atom.args[col].span(), format!("`in` asks for a member of a set, and this column holds a {ty}"))
                        .label(format!("a {ty}"))
                        .help("`where X in S` needs a column of digits or numbers (`unless filled(U, P) where P in T`)"),
                );
                return None;
            }
            self.set_type(scope, v, Type::Set, *span);
            if let Some((ty, _)) = scope.types[v]
                && ty != Type::Set
            {
                self.error(
                    Diagnostic::new(*span, "`in` needs a set on its right")
                        .label(format!("a {ty}"))
                        .help("compare with a set of the rule, bound by `digit_set(S, K)` or `S = set X : { ... }`"),
                );
                return None;
            }
        } else {
            self.set_type(scope, v, ty, *span);
        }
        checked.args[col] = Arg::Cmp(op, v);
        Some(checked)
    }

    /// Resolves a body (`depth` 1 inside a count): relations, variables
    /// (numbered in `scope`, with the types their columns give them) and
    /// constants; an expression argument becomes a fresh variable and an
    /// equality after the body's literals.
    pub(super) fn literals(
        &mut self,
        body: &[ast::Literal],
        scope: &mut Scope,
        depth: usize,
    ) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        let mut extra = Vec::new();
        let mut ok = true;
        for lit in body {
            let r = match lit {
                ast::Literal::Atom(a) => self
                    .body_atom(a, scope, &mut extra, depth > 0)
                    .map(Literal::Atom),
                ast::Literal::Neg(a, _) => self
                    .body_atom(a, scope, &mut extra, false)
                    .map(Literal::Neg),
                ast::Literal::Guard(a, cond, span) => {
                    if depth > 0 {
                        self.error(
                            Diagnostic::new(*span, "a guard inside a count is not supported")
                                .label("guard in a count")
                                .help("put the guard after the count, in the rule's own body: it then filters what the rule derives"),
                        );
                        None
                    } else {
                        match cond {
                            None => self.body_atom(a, scope, &mut extra, false),
                            Some(w) => self.guard_where(a, w, scope, &mut extra),
                        }
                        .map(Literal::Guard)
                    }
                }
                ast::Literal::Cmp(a, op, b, span) => {
                    scope.comparisons.push((a.clone(), *op, b.clone(), *span));
                    let a = self.expr(a, scope, "a comparison");
                    let b = self.expr(b, scope, "a comparison");
                    match (a, b) {
                        (Some(a), Some(b)) => Some(Literal::Cmp(a, *op, b, *span)),
                        _ => None,
                    }
                }
                ast::Literal::Aggregate {
                    func,
                    body,
                    op,
                    bound,
                    span,
                } => {
                    if depth > 0 {
                        self.error(
                            Diagnostic::new(*span, "a count inside a count is not supported")
                                .label("nested count")
                                .help("derive the inner count into a relation of its own first"),
                        );
                        None
                    } else {
                        self.aggregate(func, body, *op, bound, *span, scope)
                            .map(Literal::Count)
                    }
                }
            };
            match r {
                Some(l) => out.push(l),
                None => ok = false,
            }
        }
        out.extend(extra);
        ok.then_some(out)
    }

    /// Resolves a count or set (`count : { ... } op bound`, `V = set X :
    /// { ... }`) of a rule's own body: its literals, its bound and the
    /// variable a set collects. Its group and local variables are found by
    /// the range restriction ([`Checker::check_safety`]).
    fn aggregate(
        &mut self,
        func: &AggFunc,
        body: &[ast::Literal],
        op: CmpOp,
        bound: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> Option<Aggregate> {
        let inner = self.literals(body, scope, 1);
        // A count, a set and a sum are numbers: their bound must be one
        // too. A least or greatest value is of its variable's type.
        match func {
            AggFunc::Fold {
                fold: Fold::Min | Fold::Max,
                elem,
                span,
            } => scope.comparisons.push((
                ast::Expr::Var(elem.clone(), *span),
                CmpOp::Eq,
                bound.clone(),
                bound.span(),
            )),
            _ => scope
                .comparisons
                .push((ast::Expr::Int(0, span), op, bound.clone(), bound.span())),
        }
        let bound_span = bound.span();
        let bound = self.expr(bound, scope, "a count's bound");
        // A set's variable holds a set (shown `{2,7}`).
        if let (AggFunc::Set { .. }, Some(Expr::Var(v))) = (func, &bound) {
            self.set_type(scope, *v, Type::Set, bound_span);
        }
        // A set collects numbers: its variable is one.
        let (elem, fold) = match func {
            AggFunc::Count => (Some(None), None),
            AggFunc::Set { elem, span } | AggFunc::Fold { elem, span, .. } => {
                let var = ast::Expr::Var(elem.clone(), *span);
                let fold = match func {
                    AggFunc::Fold { fold, .. } => Some(*fold),
                    _ => None,
                };
                // A set gathers numbers, a sum adds them up.
                if matches!(fold, None | Some(Fold::Sum)) {
                    scope.comparisons.push((
                        ast::Expr::Int(0, *span),
                        CmpOp::Eq,
                        var.clone(),
                        *span,
                    ));
                }
                let what = fold.map_or("a set", Fold::name);
                match self.expr(&var, scope, what) {
                    Some(Expr::Var(v)) => (Some(Some(v)), fold),
                    _ => (None, fold),
                }
            }
        };
        match (inner, bound, elem) {
            (Some(body), Some(bound), Some(elem)) => Some(Aggregate {
                body,
                op,
                bound,
                group: Vec::new(),
                local: Vec::new(),
                value: None,
                elem,
                fold,
                span,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{check_text, errors, passes};
    use crate::lang::program::{Arg, Expr, Literal};
    use crate::lang::value::cell_value;

    #[test]
    fn an_unknown_relation_suggests_a_known_one() {
        let d = check_text("eliminated(C, D) :- celll(C), digit(D).").unwrap_err();
        assert_eq!(d.items[0].message, "undeclared relation `celll`");
        assert!(d.items[0].help.starts_with("did you mean `cell`?"));
    }

    #[test]
    fn atoms_have_their_relations_arity_and_heads_may_add_facts() {
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C, 2)."),
            ["`cell` has 1 column but is used with 2"]
        );
        assert_eq!(
            errors("given(C, 1) :- cell(C)."),
            ["rules cannot add facts to `given`"]
        );
        assert_eq!(
            errors("eliminated(C, D) :- candidate(C, D)."),
            ["rules cannot use `candidate`"]
        );
    }

    #[test]
    fn constants_must_fit() {
        assert_eq!(
            errors("eliminated(r26c1, 1)."),
            ["no grid has a cell r26c1"]
        );
        assert_eq!(
            errors("eliminated(C, 4294967296) :- cell(C)."),
            ["integer 4294967296 does not fit in 32 bits"]
        );
    }

    #[test]
    fn counts_do_not_nest_and_hold_no_guard() {
        let nested = "eliminated(C, D) :- cell(C), digit(D),
            count : { digit(E), count : { cell(F) } >= 1 } >= 1.";
        assert_eq!(errors(nested), ["a count inside a count is not supported"]);
        let guarded = "eliminated(C, D) :- cell(C), digit(D),
            count : { digit(E), unless placed(C, E) } >= 1.";
        assert_eq!(errors(guarded), ["a guard inside a count is not supported"]);
    }

    #[test]
    fn variables_are_numbered_and_expressions_become_equalities() {
        let p = passes(
            ".decl below(c: cell)
            below(C) :- row(C, 1 + 1), cell(r2c1).",
        );
        let rule = &p.rules[0];
        assert_eq!(rule.var_names[0], "C");
        // `1 + 1` is a fresh variable, equated after the body's atoms.
        let [
            Literal::Atom(row),
            Literal::Atom(cell),
            Literal::Cmp(Expr::Var(e), _, _, _),
        ] = &rule.body[..]
        else {
            panic!("{:?}", rule.body);
        };
        assert_eq!(row.args, [Arg::Var(0), Arg::Var(*e)]);
        assert_eq!(cell.args, [Arg::Const(cell_value(1, 0))]);
        assert_eq!(p.grid_constants.len(), 1);
    }
}
