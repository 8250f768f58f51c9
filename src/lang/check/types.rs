//! Types: inference for the variables only comparisons mention, and
//! checks that every use of a variable, both sides of every comparison,
//! arithmetic and the head's columns agree (cells, numbers and digits,
//! symbols and units are the three families that must not meet).

use super::{Checker, Scope};
use crate::lang::ast::{self, CmpOp, Span, Type, TypeFamily};
use crate::lang::diag::Diagnostic;
use crate::lang::program::{Expr, Literal, RelId, VarId};

impl Checker<'_> {
    /// Reports a term of another family (`what`) where a column of type
    /// `expected` stands.
    pub(super) fn type_clash(&mut self, span: Span, what: &str, expected: Type) {
        self.error(
            Diagnostic::new(
                span,
                format!("type clash: {what} where a {expected} is expected"),
            )
            .label(format!("expected a {expected}"))
            .help(match expected.family() {
                TypeFamily::Cell => "cells are written like r3c5 or bound by cell(C)",
                TypeFamily::Number => "digits and numbers are integers",
                TypeFamily::Symbol => "units and symbols are strings like \"row3\"",
            }),
        );
    }

    /// Gives variable `v` the type of a column it stands in (at `span`), or
    /// reports a clash with the family it already has.
    pub(super) fn set_type(&mut self, scope: &mut Scope, v: VarId, ty: Type, span: Span) {
        match scope.types[v] {
            None => scope.types[v] = Some((ty, span)),
            Some((old, old_span)) => {
                if old.family() != ty.family() {
                    let name = scope.names[v].clone();
                    let (line, _) = self.sources.line_col(old_span.file, old_span.start);
                    self.error(
                        Diagnostic::new(
                            span,
                            format!("type clash: `{name}` is used as a {ty} here but as a {old} on line {line}"),
                        )
                        .label(format!("a {ty} here"))
                        .help("use two different variables, or join the values through a relation such as row(C, R)"),
                    );
                } else if old == Type::Number && ty != Type::Number {
                    // Keep the most specific type for printing values.
                    scope.types[v] = Some((ty, span));
                }
            }
        }
    }

    fn expr_family(&self, e: &Expr, scope: &Scope) -> Option<TypeFamily> {
        match e {
            Expr::Var(v) => scope.types[*v].map(|(t, _)| t.family()),
            Expr::Const(_) => None, // constants were checked where they stand
            _ => Some(TypeFamily::Number),
        }
    }

    fn literal_family(&self, e: &ast::Expr) -> Option<TypeFamily> {
        match e {
            ast::Expr::Int(..) | ast::Expr::Set(..) => Some(TypeFamily::Number),
            ast::Expr::Str(..) => Some(TypeFamily::Symbol),
            ast::Expr::Cell { .. } => Some(TypeFamily::Cell),
            _ => None,
        }
    }

    pub(super) fn infer_and_check_types(
        &mut self,
        scope: &mut Scope,
        head_rel: RelId,
        head: &[Expr],
        ast_head: &ast::Atom,
        body: &[Literal],
    ) {
        self.check_comparison_types(scope, body);
        let cols: Vec<Type> = self.relations[head_rel]
            .columns
            .iter()
            .map(|c| c.1)
            .collect();
        self.check_head_types(scope, head, ast_head, &cols);
    }

    /// Infers the types of variables only comparisons mention, and checks
    /// that both sides of every comparison and arithmetic agree.
    pub(super) fn check_comparison_types(&mut self, scope: &mut Scope, body: &[Literal]) {
        let comparisons = std::mem::take(&mut scope.comparisons);
        for _ in 0..3 {
            for (a, _, b, _) in &comparisons {
                for (x, y) in [(a, b), (b, a)] {
                    if let ast::Expr::Var(name, _) = x
                        && let Some(&v) = scope.ids.get(name)
                        && scope.types[v].is_none()
                        && let Some(t) = written_type(y, scope)
                    {
                        scope.types[v] = Some((t, scope.first_use[v]));
                    }
                }
            }
        }
        for (a, op, b, span) in &comparisons {
            let fa = written_type(a, scope).map(Type::family);
            let fb = written_type(b, scope).map(Type::family);
            if let (Some(fa), Some(fb)) = (fa, fb)
                && fa != fb
            {
                self.error(
                    Diagnostic::new(*span, format!("type clash: comparing a {fa} with a {fb}"))
                        .label(format!("`{op}` between different types"))
                        .help("both sides of a comparison must be cells, numbers (digits), or symbols (units)"),
                );
            } else if let Some(t) = [(a, b), (b, a)].into_iter().find_map(|(x, y)| {
                let t = written_type(y, scope)?;
                (!set_constant_fits(x, t) && t == Type::Digit).then_some(t)
            }) {
                self.error(
                    Diagnostic::new(*span, format!("type clash: comparing a set with a {t}"))
                        .label(format!("`{op}` between a set and a {t}"))
                        .help("a digit is written as a number (`D = 3`); a set constant such as `{3}` compares with a set"),
                );
            }
        }
        let mut cmps = Vec::new();
        collect_cmps(body, &mut cmps);
        for (a, _, b, span) in &cmps {
            self.check_arith(a, scope, *span);
            self.check_arith(b, scope, *span);
        }
    }

    fn check_head_types(
        &mut self,
        scope: &Scope,
        head: &[Expr],
        ast_head: &ast::Atom,
        cols: &[Type],
    ) {
        for (i, e) in head.iter().enumerate() {
            let span = ast_head.args[i].span();
            self.check_arith(e, scope, span);
            let fam = match e {
                Expr::Const(_) => self.literal_family(&ast_head.args[i]),
                _ => self.expr_family(e, scope),
            };
            if let Some(f) = fam
                && f != cols[i].family()
            {
                self.type_clash(span, &format!("a {f}"), cols[i]);
            } else if !set_constant_fits(&ast_head.args[i], cols[i]) {
                self.type_clash(span, "a set constant", cols[i]);
            }
        }
    }

    fn check_arith(&mut self, e: &Expr, scope: &Scope, span: Span) {
        if let Expr::Union(a, b) | Expr::Inter(a, b) = e {
            for x in [a, b] {
                if let Some((v, t)) = not_a_set(x, scope) {
                    let name = &scope.names[v];
                    self.error(
                        Diagnostic::new(span, format!("type clash: `{name}`, a {t}, in a union or intersection"))
                            .label("not a set")
                            .help("`|` and `&` take sets, such as a `set` column's value or `{2,7}`; a digit D is the set `{D}` only through `in_set(D, S)`"),
                    );
                    return;
                }
                self.check_arith(x, scope, span);
            }
            return;
        }
        if let Expr::Add(a, b)
        | Expr::Sub(a, b)
        | Expr::Mul(a, b)
        | Expr::Div(a, b)
        | Expr::Mod(a, b) = e
        {
            for x in [a, b] {
                if let Some(f) = self.expr_family(x, scope)
                    && f != TypeFamily::Number
                {
                    self.error(
                        Diagnostic::new(span, format!("type clash: arithmetic on a {f}"))
                            .label("not a number")
                            .help("`+`, `-`, `*`, `/` and `%` work on numbers and digits only"),
                    );
                    return;
                }
                self.check_arith(x, scope, span);
            }
        }
    }
}

/// A variable of another type than a set's (a digit, a cell) among the
/// terms that make a side of `|` or `&`, through sums and differences of
/// sets (`S | (D + 0)`, with `D` a digit).
fn not_a_set(e: &Expr, scope: &Scope) -> Option<(VarId, Type)> {
    match e {
        Expr::Var(v) => {
            let (t, _) = scope.types[*v]?;
            (t != Type::Set && t != Type::Number).then_some((*v, t))
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => not_a_set(a, scope).or_else(|| not_a_set(b, scope)),
        _ => None,
    }
}

/// Whether a term may stand where a value of type `ty` does as far as
/// sets go: a set constant such as `{3}`, or a union or intersection, is
/// a number to the engine (a bitmask), but it stands for a set, so only a
/// `set` column or a set's side of a comparison takes it (`placed(C, {3})`
/// would mean digit 8).
pub(super) fn set_constant_fits(e: &ast::Expr, ty: Type) -> bool {
    !is_set_valued(e) || ty == Type::Set
}

/// Whether a term as written is a set: a set constant, or a union or
/// intersection.
fn is_set_valued(e: &ast::Expr) -> bool {
    matches!(
        e,
        ast::Expr::Set(..) | ast::Expr::Binary(ast::BinOp::Union | ast::BinOp::Inter, ..)
    )
}

/// The type of a term as written: a variable's inferred type, a constant's
/// own type, and numbers for arithmetic.
fn written_type(e: &ast::Expr, scope: &Scope) -> Option<Type> {
    match e {
        ast::Expr::Var(name, _) => scope
            .ids
            .get(name)
            .and_then(|&v| scope.types[v])
            .map(|(t, _)| t),
        ast::Expr::Binary(ast::BinOp::Union | ast::BinOp::Inter, ..) => Some(Type::Set),
        ast::Expr::Int(..) | ast::Expr::Binary(..) | ast::Expr::Neg(..) => Some(Type::Number),
        ast::Expr::Str(..) => Some(Type::Symbol),
        ast::Expr::Set(..) => Some(Type::Set),
        ast::Expr::Cell { .. } => Some(Type::Cell),
        ast::Expr::Wildcard(_) => None,
    }
}

fn collect_cmps<'a>(body: &'a [Literal], out: &mut Vec<(&'a Expr, CmpOp, &'a Expr, Span)>) {
    for lit in body {
        match lit {
            Literal::Cmp(a, op, b, span) => out.push((a, *op, b, *span)),
            Literal::Count(agg) => {
                collect_cmps(&agg.body, out);
                out.push((&agg.bound, CmpOp::Eq, &agg.bound, agg.span));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{errors, passes};
    use crate::lang::ast::Type;

    #[test]
    fn a_variable_keeps_one_family() {
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), digit(C)."),
            ["type clash: `C` is used as a digit here but as a cell on line 1"]
        );
    }

    #[test]
    fn comparisons_arithmetic_and_heads_agree() {
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), C > 3."),
            ["type clash: comparing a cell with a number"]
        );
        assert_eq!(
            errors("eliminated(C, D) :- cell(C), digit(D), D = C + 1."),
            ["type clash: arithmetic on a cell"]
        );
        assert_eq!(
            errors("eliminated(D, D) :- digit(D)."),
            ["type clash: a number where a cell is expected"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), unit_kind(U, K), K = \"row\" + 1."),
            ["type clash: comparing a symbol with a number"]
        );
    }

    #[test]
    fn a_set_constant_stands_only_for_a_set() {
        // `{3}` is the bitmask 8: as a digit it would silently mean 8.
        assert_eq!(
            errors("eliminated(C, 1) :- placed(C, {3})."),
            ["type clash: a set constant where a digit is expected"]
        );
        assert_eq!(
            errors("eliminated(C, {3}) :- cell(C)."),
            ["type clash: a set constant where a digit is expected"]
        );
        assert_eq!(
            errors("eliminated(C, D) :- given(C, D), D = {3}."),
            ["type clash: comparing a set with a digit"]
        );
        passes(".decl f(c: cell, s: set)\nf(C, S) :- cell(C), digit_set(S, 2), S != {3, 4}.");
        passes(".decl f(c: cell)\nf(C) :- cell(C), in_set(2, {2, 7}).");
    }

    #[test]
    fn unions_and_intersections_take_sets() {
        let p = passes(
            ".decl f(c: cell, s: set)\nf(C, U) :- cell(C), digit_set(S, 2), digit_set(T, 3), U = S | T & {1, 2}.",
        );
        let u = p.rules[0].var_names.iter().position(|n| n == "U").unwrap();
        assert_eq!(p.rules[0].var_types[u], Type::Set);
        assert_eq!(
            errors(
                ".decl f(c: cell, s: set)\nf(C, U) :- placed(C, D), digit_set(S, 2), U = S | D."
            ),
            ["type clash: `D`, a digit, in a union or intersection"]
        );
        assert_eq!(
            errors(".decl f(c: cell, s: set)\nf(C, U) :- cell(C), digit_set(S, 2), U = S & C."),
            ["type clash: `C`, a cell, in a union or intersection"]
        );
        // A number is a bitmask of other members (3 is {0,1}), a digit
        // through a sum too; a union compared with a digit is a clash.
        assert_eq!(
            errors(".decl f(c: cell, s: set)\nf(C, U) :- cell(C), digit_set(S, 2), U = S | 3."),
            ["type clash: a number in a set's `|`"]
        );
        assert_eq!(
            errors(
                ".decl f(c: cell, s: set)\nf(C, U) :- placed(C, D), digit_set(S, 2), U = S | (D + 0)."
            ),
            ["type clash: `D`, a digit, in a union or intersection"]
        );
        assert_eq!(
            errors(".decl f(c: cell)\nf(C) :- placed(C, D), digit_set(S, 2), D = S & {1, 2}."),
            ["type clash: comparing a set with a digit"]
        );
        passes(".decl f(s: set)\nf(U) :- digit_set(S, 2), digit_set(T, 1), U = (S - T) | T & S.");
    }

    #[test]
    fn a_variable_only_compared_takes_the_others_type() {
        let p = passes("eliminated(C, E) :- given(C, D), E = D.");
        let rule = &p.rules[0];
        let e = rule.var_names.iter().position(|n| n == "E").unwrap();
        assert_eq!(rule.var_types[e], Type::Digit);
    }
}
