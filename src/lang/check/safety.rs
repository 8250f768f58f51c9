//! Range restriction (safety): every variable of the head, of a negation,
//! a guard, a comparison or a count's bound is bound by a positive atom
//! or an `=` assignment; each count's group is bound outside it, and its
//! local variables (what it counts) are found here; a count or set given
//! to a new variable (`V = count : {...}`) binds it.

use super::{Checker, Scope};
use crate::lang::ast::{self, CmpOp};
use crate::lang::diag::Diagnostic;
use crate::lang::program::{Aggregate, Arg, Expr, Literal};

impl Checker<'_> {
    /// Range restriction: every variable of the head, of a negation and of a
    /// comparison must be bound by a positive atom (or an `=` assignment).
    pub(super) fn check_safety(
        &mut self,
        scope: &mut Scope,
        head: &[Expr],
        ast_head: &ast::Atom,
        body: &mut [Literal],
    ) {
        let mut bound = vec![false; scope.names.len()];
        bind_positive(body, &mut bound);
        // A count compared with `=` to a variable nothing else binds gives
        // that variable its value.
        let mut plain = vec![false; scope.names.len()];
        bind(body, &mut plain, false);
        for lit in body.iter_mut() {
            if let Literal::Count(agg) = lit
                && agg.op == CmpOp::Eq
                && let Expr::Var(v) = agg.bound
                && !plain[v]
                && bound[v]
            {
                agg.value = Some(v);
            }
        }
        for lit in body.iter() {
            if let Literal::Count(agg) = lit
                && agg.elem.is_some()
                && agg.value.is_none()
            {
                let d = match agg.fold {
                    None => Diagnostic::new(agg.span, "a set must be given to a new variable")
                        .label("a set compared with something")
                        .help("write `S = set X : { ... }` with a variable `S` that nothing else binds, and use `S` in other literals (a set over the solving state only as a lower bound: `in_set`, `covers`)"),
                    Some(fold) => {
                        let name = fold.name();
                        Diagnostic::new(agg.span, format!("a {name} must be given to a new variable"))
                            .label(format!("a {name} compared with something"))
                            .help(format!("write `V = {name} X : {{ ... }}` with a variable `V` that nothing else binds, and compare `V` in other literals"))
                    }
                };
                self.error(d);
            }
        }
        // Variables used outside every aggregate (to find each count's group).
        let mut outside = vec![false; scope.names.len()];
        for e in head {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            for v in vs {
                outside[v] = true;
            }
        }
        for lit in body.iter() {
            mark_vars(lit, &mut outside, false);
        }
        for (i, e) in head.iter().enumerate() {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            for v in vs {
                if !bound[v] {
                    let name = scope.names[v].clone();
                    self.error(
                        Diagnostic::new(ast_head.args[i].span(), format!("variable `{name}` in the head is not bound by the body"))
                            .label("unbound")
                            .help(format!("use `{name}` in a positive atom of the body, e.g. `cell({name})` or `digit({name})`")),
                    );
                }
            }
        }
        self.check_literals(scope, body, &mut bound, &outside, false);
    }

    /// Range restriction of a `.rating` line's `when` over the rule's
    /// `body`: what it reads is bound by the body or by the condition
    /// itself, and each count in it finds its group (the variables it
    /// shares with the rule) and its own variables, which it counts (a
    /// variable that only another count of the rule uses is its own too).
    pub(super) fn check_when(&mut self, scope: &Scope, body: &[Literal], when: &mut [Literal]) {
        let mut bound = vec![false; scope.names.len()];
        bind_positive(body, &mut bound);
        bind_positive(when, &mut bound);
        let mut outside = vec![false; scope.names.len()];
        for lit in body.iter().chain(when.iter()) {
            mark_vars(lit, &mut outside, false);
        }
        self.check_literals(scope, when, &mut bound, &outside, false);
    }

    /// Range restriction of the literals of a body (`inner` inside a
    /// count): what they read must be bound.
    fn check_literals(
        &mut self,
        scope: &Scope,
        body: &mut [Literal],
        bound: &mut [bool],
        outside: &[bool],
        inner: bool,
    ) {
        for lit in body.iter_mut() {
            match lit {
                Literal::Atom(_) => {}
                Literal::Neg(_) | Literal::Guard(_) => {
                    let (a, what, label) = match &*lit {
                        Literal::Neg(a) => (a, "a negation", "unbound in `!`"),
                        Literal::Guard(a) => (a, "a guard", "unbound in `unless`"),
                        _ => continue,
                    };
                    for arg in &a.args {
                        if let Some(v) = arg.var()
                            && !bound[v]
                        {
                            let v = &v;
                            let name = scope.names[*v].clone();
                            self.error(
                                    Diagnostic::new(a.span, format!("variable `{name}` in {what} is not bound"))
                                        .label(label)
                                        .help(format!("bind `{name}` with a positive atom first, or write `_` if any value will do")),
                                );
                        }
                    }
                }
                Literal::Cmp(a, _, b, span) => {
                    let mut vs = Vec::new();
                    a.vars(&mut vs);
                    b.vars(&mut vs);
                    for v in vs {
                        if !bound[v] {
                            let name = scope.names[v].clone();
                            self.error(
                                Diagnostic::new(*span, format!("variable `{name}` in a comparison is not bound"))
                                    .label("unbound")
                                    .help(format!("bind `{name}` with a positive atom, or assign it with `{name} = ...` from bound values")),
                            );
                        }
                    }
                }
                Literal::Count(agg) => {
                    if !inner {
                        self.check_count(scope, agg, bound, outside);
                    }
                }
            }
        }
    }

    /// A count of the rule's own body: its bound's variables are bound
    /// (unless the count gives them their value), its group (the variables
    /// it shares with the rest of the rule) is bound outside it, a set
    /// collects a variable of its own, and its body is range-restricted.
    fn check_count(
        &mut self,
        scope: &Scope,
        agg: &mut Aggregate,
        bound: &[bool],
        outside: &[bool],
    ) {
        let mut vs = Vec::new();
        if agg.value.is_none() {
            agg.bound.vars(&mut vs);
        }
        for v in vs {
            if !bound[v] {
                let name = scope.names[v].clone();
                self.error(
                    Diagnostic::new(
                        agg.span,
                        format!("variable `{name}` in the count's bound is not bound"),
                    )
                    .label("unbound")
                    .help(format!(
                        "bind `{name}` outside the count, e.g. `size({name})`"
                    )),
                );
            }
        }
        // The body's own positive atoms bind its local variables.
        let mut inner_bound = bound.to_vec();
        bind_positive(&agg.body, &mut inner_bound);
        let mut in_body = vec![false; bound.len()];
        for l in &agg.body {
            mark_vars(l, &mut in_body, true);
        }
        let mut group = Vec::new();
        let mut local = Vec::new();
        for v in 0..bound.len() {
            if !in_body[v] {
                continue;
            }
            if outside[v] {
                if !bound[v] {
                    let name = scope.names[v].clone();
                    self.error(
                        Diagnostic::new(agg.span, format!("variable `{name}` is shared with the count but not bound outside it"))
                            .label("unbound group variable")
                            .help(format!("bind `{name}` with a positive atom outside the count")),
                    );
                }
                group.push(v);
            } else {
                local.push(v);
            }
        }
        if let Some(e) = agg.elem
            && !(local.contains(&e) && inner_bound[e])
        {
            let name = scope.names[e].clone();
            let (what, func) = match agg.fold {
                None => ("set collects", "set"),
                Some(fold) => ("value aggregate folds", fold.name()),
            };
            self.error(
                Diagnostic::new(agg.span, format!("the {what} `{name}`, which its body does not bind"))
                    .label("not the body's own variable")
                    .help(format!("bind `{name}` in a positive atom inside the braces (and nowhere outside them), e.g. `{func} {name} : {{ pos(Y, U, {name}), eliminated(Y, D) }}`")),
            );
        }
        agg.group = group;
        agg.local = local;
        self.check_literals(scope, &mut agg.body, &mut inner_bound, outside, true);
    }
}

/// Marks variables bound by positive atoms and `=` assignments of `body`
/// (not entering aggregates: their variables are local to them).
fn bind_positive(body: &[Literal], bound: &mut [bool]) {
    bind(body, bound, true)
}

/// [`bind_positive`], optionally without `V = count : {...}` bindings.
fn bind(body: &[Literal], bound: &mut [bool], with_counts: bool) {
    for lit in body {
        if let Literal::Atom(a) = lit {
            for arg in &a.args {
                if let Arg::Var(v) = arg {
                    bound[*v] = true;
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for lit in body {
            // `V = count : { ... }` binds V once the count's group is bound.
            if let Literal::Count(agg) = lit
                && with_counts
                && agg.op == CmpOp::Eq
                && let Expr::Var(v) = agg.bound
                && !bound[v]
                && count_is_value(agg, bound)
            {
                bound[v] = true;
                changed = true;
            }
            if let Literal::Cmp(a, CmpOp::Eq, b, _) = lit {
                for (x, y) in [(a, b), (b, a)] {
                    if let Expr::Var(v) = x {
                        let mut vs = Vec::new();
                        y.vars(&mut vs);
                        if !bound[*v] && vs.iter().all(|w| bound[*w]) {
                            bound[*v] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Whether `V = count : { body }` can bind `V`: every variable the body
/// shares with the rest of the rule (other than `V`) is bound.
fn count_is_value(agg: &Aggregate, bound: &[bool]) -> bool {
    let Expr::Var(value) = agg.bound else {
        return false;
    };
    let mut inner = vec![false; bound.len()];
    for l in &agg.body {
        mark_vars(l, &mut inner, true);
    }
    // Variables the body binds itself are local; the others must be bound.
    let mut own = vec![false; bound.len()];
    bind_positive(&agg.body, &mut own);
    (0..bound.len()).all(|v| v == value || !inner[v] || own[v] || bound[v])
}

/// Marks the variables a literal mentions (inside aggregates only when `inner`).
pub(super) fn mark_vars(lit: &Literal, seen: &mut [bool], inner: bool) {
    let mut vs = Vec::new();
    match lit {
        Literal::Atom(a) | Literal::Neg(a) | Literal::Guard(a) => {
            vs.extend(a.args.iter().filter_map(Arg::var));
        }
        Literal::Cmp(a, _, b, _) => {
            a.vars(&mut vs);
            b.vars(&mut vs);
        }
        Literal::Count(agg) => {
            agg.bound.vars(&mut vs);
            if inner {
                for l in &agg.body {
                    mark_vars(l, seen, inner);
                }
            }
        }
    }
    for v in vs {
        seen[v] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{errors, passes};
    use crate::lang::program::Literal;

    #[test]
    fn every_variable_is_bound_by_the_body() {
        assert_eq!(
            errors("eliminated(C, D) :- digit(D)."),
            ["variable `C` in the head is not bound by the body"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), !given(C, D)."),
            ["variable `D` in a negation is not bound"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), D > 2."),
            ["variable `D` in a comparison is not bound"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), count : { digit(E) } >= N."),
            ["variable `N` in the count's bound is not bound"]
        );
    }

    #[test]
    fn a_set_is_given_to_a_new_variable() {
        assert_eq!(
            errors(
                "eliminated(C, 1) :- cell(C), digit_set(S, 2), S = set X : { eliminated(C, X) }."
            ),
            ["a set must be given to a new variable"]
        );
    }

    #[test]
    fn a_value_aggregate_is_given_to_a_new_variable_over_static_relations() {
        passes(
            ".decl total(r: number, s: number)
            total(R, S) :- row(_, R), S = sum D : { row(C, R), given(C, D) }.
            .decl first(r: number, c: cell)
            first(R, X) :- row(_, R), X = min C : { row(C, R), given(C, _) }.",
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), digit(S), S = max X : { digit(X) }."),
            ["a max must be given to a new variable"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), S = sum X : { digit(Y) }, S > 3."),
            ["the value aggregate folds `X`, which its body does not bind"]
        );
        // Over the state, a sum of digits grows (see `monotone`); a least
        // value shrinks.
        passes("eliminated(C, 1) :- cell(C), S = sum X : { eliminated(C, X) }, S > 3.");
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), S = min X : { eliminated(C, X) }, S > 3."),
            ["`min` over the solving state is not supported"]
        );
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), S = min X : { in_unit(X, U) }, S > 3."),
            ["type clash: comparing a cell with a number"]
        );
    }

    #[test]
    fn a_count_finds_its_group_and_what_it_counts() {
        let p = passes(
            ".decl full(c: cell, k: number)
            full(C, K) :- cell(C), K = count : { in_unit(C, _) }.
            contradiction(\"full\", C) :- cell(C), size(N), count : { eliminated(C, D) } >= N.",
        );
        let names = |rule: usize, vars: &[usize]| -> Vec<String> {
            vars.iter()
                .map(|&v| p.rules[rule].var_names[v].clone())
                .collect()
        };
        let Literal::Count(value) = &p.rules[0].body[1] else {
            panic!("{:?}", p.rules[0].body);
        };
        assert_eq!(names(0, &value.group), ["C"]);
        assert_eq!(value.local.len(), 1);
        assert_eq!(names(0, value.value.as_slice()), ["K"]);
        let Literal::Count(threshold) = &p.rules[1].body[2] else {
            panic!("{:?}", p.rules[1].body);
        };
        assert_eq!(names(1, &threshold.local), ["D"]);
        assert_eq!(threshold.value, None);
    }

    /// A count in a rating's condition counts its own variables: one new
    /// to the rule (`Y`), and one that only a count of the body uses
    /// (`X`); what it shares with the rule (`U`) is its group. A new
    /// variable outside a count is still an error.
    #[test]
    fn a_rating_conditions_count_finds_its_group_and_what_it_counts() {
        let p = passes(
            ".rating 1.0 when count : { in_unit(Y, U), in_unit(X, U), placed(Y, _) } >= 6.
            .rating 1.5
            placed(C, D) :- in_unit(C, U), digit(D), size(N),
                count : { in_unit(X, U), X != C, eliminated(X, D) } >= N - 1.",
        );
        let rule = &p.rules[0];
        let Literal::Count(when) = &rule.rating[0].when[0] else {
            panic!("{:?}", rule.rating);
        };
        let names = |vars: &[usize]| -> Vec<&str> {
            vars.iter().map(|&v| rule.var_names[v].as_str()).collect()
        };
        assert_eq!(names(&when.group), ["U"]);
        assert_eq!(names(&when.local), ["X", "Y", "_"]);
        assert_eq!(
            errors(
                ".rating 1.0 when in_unit(Y, U).
                .rating 1.5
                placed(C, D) :- in_unit(C, U), digit(D), size(N),
                    count : { in_unit(X, U), X != C, eliminated(X, D) } >= N - 1."
            ),
            ["`Y` is not a variable of the rule below"]
        );
    }
}
