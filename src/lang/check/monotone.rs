//! Monotonicity: the solving state (`placed`, `eliminated`) only grows,
//! so a rule over it must stay true as it does. Which relations change
//! during a solve is found first (everything that reads the state); then a
//! negation of such a relation, a guard of one that does not change, a
//! count over the state compared other than with `>=`/`>`, and a value
//! over the state that could shrink (`min`, a sum of numbers that may be
//! negative) or is read as if it were final are errors.

use super::Checker;
use super::safety::mark_vars;
use crate::lang::ast::CmpOp;
use crate::lang::ast::Span;
use crate::lang::builtin::Builtin;
use crate::lang::diag::Diagnostic;
use crate::lang::program::{Aggregate, Arg, Expr, Literal, Rule, VarId, body_relations};
use crate::lang::value::{Fold, Type};

impl Checker<'_> {
    /// Marks the relations whose facts change as the solve goes on
    /// (`dynamic`: they read the state, directly or not) and those that
    /// read the givens (`per_puzzle`).
    pub(super) fn mark_state_and_givens(&mut self, rules: &[Rule]) {
        loop {
            let mut changed = false;
            for r in rules {
                let mut deps = Vec::new();
                body_relations(&r.body, &mut deps);
                let dynamic = deps.iter().any(|(rel, _)| self.relations[*rel].dynamic);
                let per_puzzle = deps.iter().any(|(rel, _)| self.relations[*rel].per_puzzle);
                let head = &mut self.relations[r.head_rel];
                if dynamic && !head.dynamic {
                    head.dynamic = true;
                    changed = true;
                }
                if per_puzzle && !head.per_puzzle {
                    head.per_puzzle = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // A puzzle's clues are loaded before the fixpoint, as static facts:
        // a rule that derives an input from the state would lose them.
        for r in rules {
            let head = &self.relations[r.head_rel];
            if head.input.is_some() && head.dynamic {
                let name = head.name.clone();
                self.error(
                    Diagnostic::new(r.span, format!("`{name}` is an input, but this rule derives it from the solving state"))
                        .label("reads the solving state")
                        .help(format!("the facts of `{name}` come with each puzzle, before any placement: derive what you need from the state into a relation of its own")),
                );
            }
        }
    }

    /// Checks that every rule reads the state monotonically: a fact it
    /// derives stays true as the state grows.
    pub(super) fn check_monotone(&mut self, rules: &[Rule]) {
        for r in rules {
            self.check_monotone_body(&r.body, &r.var_types);
            self.check_grown_sets(&r.body, &r.head, r.var_names.len());
            self.check_grown_values(&r.body, r.var_names.len());
        }
    }

    /// Whether literals read the solving state (a relation that changes
    /// during a solve).
    fn reads_state(&self, body: &[Literal]) -> bool {
        let mut deps = Vec::new();
        body_relations(body, &mut deps);
        deps.iter().any(|(rel, _)| self.relations[*rel].dynamic)
    }

    /// The variables bound by aggregates of `kind` over the solving state
    /// (`V = set X : { eliminated(...) }`, `P = sum X : { placed(...) }`):
    /// values that grow with it.
    fn bound_over_state(&self, body: &[Literal], kind: impl Fn(&Aggregate) -> bool) -> Vec<VarId> {
        body.iter()
            .filter_map(|lit| match lit {
                Literal::Count(agg) if kind(agg) && self.reads_state(&agg.body) => agg.value,
                _ => None,
            })
            .collect()
    }

    /// A `sum` of digits or a `max` over the state only grows: bound to a
    /// variable (`P = sum X : { ... }`), the rule derives its head again
    /// each time it does, so a fact holding it says "at least P". The rule
    /// may compare it only in a way that stays true as it grows (`P >= k`,
    /// `P + D > S`), or pass it to the head.
    fn check_grown_values(&mut self, body: &[Literal], vars: usize) {
        let grown = self.bound_over_state(body, |agg| agg.fold.is_some());
        if grown.is_empty() {
            return;
        }
        // Read anywhere but in a comparison (an atom, a count's body or
        // bound), the value would be matched or counted as it is now.
        for lit in body {
            let read = match lit {
                Literal::Cmp(..) => continue,
                Literal::Count(agg) if agg.value.is_some_and(|v| grown.contains(&v)) => {
                    let mut seen = vec![false; vars];
                    for l in &agg.body {
                        mark_vars(l, &mut seen, true);
                    }
                    seen
                }
                _ => {
                    let mut seen = vec![false; vars];
                    mark_vars(lit, &mut seen, true);
                    seen
                }
            };
            if grown.iter().any(|&v| read.get(v).copied().unwrap_or(false)) {
                let span = match lit {
                    Literal::Atom(a) | Literal::Neg(a) | Literal::Guard(a) => a.span,
                    Literal::Count(agg) => agg.span,
                    Literal::Cmp(..) => continue,
                };
                self.error(
                    Diagnostic::new(span, "a value that grows over the solving state is read as if it were final")
                        .label("reads it")
                        .help("a `sum` or `max` over `placed`/`eliminated` grows as they do: compare it as a lower bound (`P >= k`, `P + D > S`), or pass it to the head, where the fact says \"at least P\""),
                );
            }
        }
        for lit in body {
            let Literal::Cmp(l, op, r, span) = lit else {
                continue;
            };
            // `big >= small` stays true while `big` only grows and `small`
            // only shrinks; `=` and `!=` only if neither side moves.
            let rising_over = |big: &Expr, small: &Expr| {
                matches!(growth(big, &grown), Growth::Fixed | Growth::Up)
                    && matches!(growth(small, &grown), Growth::Fixed | Growth::Down)
            };
            let stays = match op {
                CmpOp::Ge | CmpOp::Gt => rising_over(l, r),
                CmpOp::Le | CmpOp::Lt => rising_over(r, l),
                CmpOp::Eq | CmpOp::Ne => {
                    growth(l, &grown) == Growth::Fixed && growth(r, &grown) == Growth::Fixed
                }
            };
            if !stays {
                self.error(
                    Diagnostic::new(*span, "a comparison with a value that grows over the solving state is not monotone")
                        .label("can become false later")
                        .help("a `sum` or `max` over `placed`/`eliminated` grows as they do: compare it so that growing keeps the comparison true (`P >= k`, `P + D > S`, `S < P`), or pass it to the head"),
                );
            }
        }
    }

    /// `V = A - G` (or `-G`), G a set that grows over the state: V
    /// shrinks as G grows, so a fact holding it says "within V" (true
    /// forever of that V), but a rule that reads V concludes from numbers
    /// not (yet) in G. Such a V may only be passed to the head: a read in
    /// an atom already fails above (the atom binds V, and `=` compares),
    /// this catches the reads inside a count's body.
    fn check_shrinking_sets(
        &mut self,
        body: &[Literal],
        vars: usize,
        grown: &[VarId],
        in_atoms: &[VarId],
    ) {
        fn subtracts(e: &Expr, grown: &[VarId], negated: bool) -> bool {
            match e {
                Expr::Var(v) => negated && grown.contains(v),
                Expr::Const(_) => false,
                // A union or intersection with a shrinking set shrinks too.
                Expr::Add(a, b) | Expr::Union(a, b) | Expr::Inter(a, b) => {
                    subtracts(a, grown, negated) || subtracts(b, grown, negated)
                }
                Expr::Sub(a, b) => subtracts(a, grown, negated) || subtracts(b, grown, !negated),
                Expr::Neg(a) => subtracts(a, grown, !negated),
                // A grown set multiplied or divided is no set: call it
                // shrinking, so that only the head may record it.
                Expr::Mul(a, b) | Expr::Div(a, b) | Expr::Mod(a, b) => [a, b]
                    .iter()
                    .any(|x| subtracts(x, grown, false) || subtracts(x, grown, true)),
            }
        }
        let mut shrinking: Vec<(VarId, usize, Span)> = Vec::new();
        for (i, lit) in body.iter().enumerate() {
            if let Literal::Cmp(l, CmpOp::Eq, r, span) = lit {
                for (a, b) in [(l, r), (r, l)] {
                    if let Expr::Var(v) = a
                        && !in_atoms.contains(v)
                        && subtracts(b, grown, false)
                    {
                        shrinking.push((*v, i, *span));
                    }
                }
            }
        }
        for (v, binding, span) in shrinking {
            let mut seen = vec![false; vars];
            for (i, lit) in body.iter().enumerate() {
                if i != binding {
                    mark_vars(lit, &mut seen, true);
                }
            }
            let read = seen.get(v).copied().unwrap_or(false);
            if read {
                self.error(
                    Diagnostic::new(span, "a set that shrinks as the solving state grows can only be passed to the head")
                        .label("shrinks as the set it subtracts grows")
                        .help("a fact may record it (\"the candidates lie within T\": true of that T forever), but reading it here concludes from numbers the growing set does not hold yet; read it from the fact in another rule, where it is a value like any other"),
                );
            }
        }
    }

    /// A set gathered over the state (`M = set X : { eliminated(...) }`)
    /// only grows: a fact about it says "at least these", so the rule may
    /// use it as such (`in_set`, `covers`, an argument of its head, a sum
    /// with a disjoint set bound to a new variable), but a comparison with
    /// it (`M < F`, `M = T`) could stop holding as it grows.
    fn check_grown_sets(&mut self, body: &[Literal], head: &[Expr], vars: usize) {
        let mut grown = self.bound_over_state(body, |agg| agg.elem.is_some() && agg.fold.is_none());
        if grown.is_empty() {
            return;
        }
        let gathered = grown.clone();
        // Variables that a positive atom binds: `V = ...` then tests them.
        let mut in_atoms: Vec<VarId> = Vec::new();
        for lit in body {
            if let Literal::Atom(a) = lit {
                in_atoms.extend(a.args.iter().filter_map(|arg| match arg {
                    Arg::Var(v) => Some(*v),
                    _ => None,
                }));
            }
        }
        let reads_grown = |e: &Expr, grown: &[VarId]| {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            vs.iter().any(|v| grown.contains(v))
        };
        // `V = expr of a grown set`, V new: V is such a set too.
        let assigned = |l: &Expr, op: CmpOp, r: &Expr, grown: &[VarId]| match (l, op) {
            (Expr::Var(v), CmpOp::Eq) if !in_atoms.contains(v) && !grown.contains(v) => {
                reads_grown(r, grown).then_some(*v)
            }
            _ => None,
        };
        loop {
            let before = grown.len();
            for lit in body {
                if let Literal::Cmp(l, op, r, _) = lit {
                    let new = assigned(l, *op, r, &grown).or_else(|| assigned(r, *op, l, &grown));
                    grown.extend(new);
                }
            }
            if grown.len() == before {
                break;
            }
        }
        self.check_shrinking_sets(body, vars, &grown, &in_atoms);
        self.check_counts_of_grown_sets(body, head, vars, &grown);
        for lit in body {
            if let Literal::Cmp(l, op, r, span) = lit {
                // `V = expr` that made V a grown set above.
                let binding = |a: &Expr, b: &Expr| {
                    matches!(a, Expr::Var(v) if grown.contains(v) && !gathered.contains(v)
                        && !in_atoms.contains(v))
                        && reads_grown(b, &grown)
                };
                let is_binding = *op == CmpOp::Eq && (binding(l, r) || binding(r, l));
                if !is_binding && (reads_grown(l, &grown) || reads_grown(r, &grown)) {
                    self.error(
                        Diagnostic::new(*span, "a comparison with a set that grows over the solving state is not monotone")
                            .label("can become false later")
                            .help("a set over `placed`/`eliminated` says which values hold at least, and grows: conclude from `in_set(X, S)` or `covers(S, T)`, or, to skip work that is already decided, write a guard (`unless ...`)"),
                    );
                }
            }
        }
    }

    /// A count of a growing set's members (`K = count : { in_set(X, M) }`)
    /// grows with it: "at least K" stays true. Compared otherwise (`K = J -
    /// 1`, `K < 3`) it says how big the set is now, which is true of that
    /// set only: the head must record the set (itself, or a value bound
    /// from it, as the optional ALS rules record `T = F - H`), or the fact
    /// would outlive what it read.
    fn check_counts_of_grown_sets(
        &mut self,
        body: &[Literal],
        head: &[Expr],
        vars: usize,
        grown: &[VarId],
    ) {
        let reads = |e: &Expr, of: &[VarId]| {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            vs.iter().any(|v| of.contains(v))
        };
        let mut recorded: Vec<VarId> = Vec::new();
        for e in head {
            e.vars(&mut recorded);
        }
        loop {
            let before = recorded.len();
            for lit in body {
                if let Literal::Cmp(l, CmpOp::Eq, r, _) = lit {
                    for (a, b) in [(l, r), (r, l)] {
                        if matches!(a, Expr::Var(v) if recorded.contains(v)) {
                            let mut vs = Vec::new();
                            b.vars(&mut vs);
                            recorded.extend(
                                vs.into_iter()
                                    .filter(|v| !recorded.contains(v))
                                    .collect::<Vec<_>>(),
                            );
                        }
                    }
                }
            }
            if recorded.len() == before {
                break;
            }
        }
        let mut counts: Vec<VarId> = Vec::new();
        for lit in body {
            let Literal::Count(agg) = lit else { continue };
            if agg.elem.is_some() {
                continue;
            }
            let mut seen = vec![false; vars];
            for l in &agg.body {
                mark_vars(l, &mut seen, true);
            }
            let unrecorded = grown
                .iter()
                .any(|v| seen.get(*v).copied().unwrap_or(false) && !recorded.contains(v));
            if !unrecorded {
                continue;
            }
            match agg.value {
                Some(k) => counts.push(k),
                None if !matches!(agg.op, CmpOp::Ge | CmpOp::Gt) => self.error(
                    Diagnostic::new(agg.span, "a count over a set that grows over the solving state is compared as if the set were final")
                        .label("the set can grow and the count with it")
                        .help("count its members as a threshold (`count : { in_set(X, M) } >= k`), or record the set in the head so that the fact is about that set"),
                ),
                None => {}
            }
        }
        if counts.is_empty() {
            return;
        }
        for lit in body {
            let Literal::Cmp(l, op, r, span) = lit else {
                continue;
            };
            let lower_bound = match (l, op, r) {
                (Expr::Var(k), CmpOp::Ge | CmpOp::Gt, e)
                | (e, CmpOp::Le | CmpOp::Lt, Expr::Var(k)) => {
                    counts.contains(k) && !reads(e, &counts)
                }
                _ => false,
            };
            if !lower_bound && (reads(l, &counts) || reads(r, &counts)) {
                self.error(
                    Diagnostic::new(*span, "a count over a set that grows over the solving state is compared as if the set were final")
                        .label("the set can grow and the count with it")
                        .help("compare it as a lower bound (`K >= k`), or record the set in the head so that the fact is about that set"),
                );
            }
        }
    }

    fn check_monotone_body(&mut self, body: &[Literal], types: &[Type]) {
        for lit in body {
            match lit {
                Literal::Neg(a) if self.relations[a.rel].dynamic => {
                    let name = self.relations[a.rel].name.clone();
                    let why = if self.relations[a.rel].builtin.is_some_and(Builtin::is_state) {
                        format!("`{name}` only grows as the solve goes on")
                    } else {
                        format!("`{name}` depends on the solving state, which only grows")
                    };
                    self.error(
                        Diagnostic::new(a.span, format!("negation of `{name}` is not monotone"))
                            .label("can become false later")
                            .help(format!("{why}, so `!{name}(...)` could stop holding after the rule fired. State what must have happened instead, with `eliminated`/`placed` and a threshold count, e.g. \"every other digit is eliminated\": `count : {{ eliminated(C, E), E != D }} >= N - 1`; or, if the rule is true without it and you only mean to skip what is already decided, write the guard `unless {name}(...)`")),
                    );
                }
                Literal::Guard(a) if !self.relations[a.rel].dynamic => {
                    let name = self.relations[a.rel].name.clone();
                    self.error(
                        Diagnostic::new(a.span, format!("`unless` guards the solving state, and `{name}` does not change during a solve"))
                            .label("not part of the solving state")
                            .help(format!("negate it instead: `!{name}(...)`")),
                    );
                }
                Literal::Count(agg) => {
                    let dynamic = self.reads_state(&agg.body);
                    let elem_type = agg.elem.and_then(|e| types.get(e)).copied();
                    match (dynamic, agg.fold) {
                        (true, Some(Fold::Min)) => self.error(
                            Diagnostic::new(agg.span, "`min` over the solving state is not supported")
                                .label("reads the solving state")
                                .help("the least value over `placed`/`eliminated` shrinks as they grow, so a fact about it could stop holding: fold with `max`, or `sum` digits, which only grow, and compare as a lower bound (`P >= k`)"),
                        ),
                        (true, Some(Fold::Sum)) if elem_type != Some(Type::Digit) => self.error(
                            Diagnostic::new(agg.span, "`sum` over the solving state adds digits only")
                                .label("sums what may not be a digit")
                                .help("a sum over `placed`/`eliminated` must only grow as they do: digits are positive, other numbers may not be; sum a digit variable (`sum X : { placed(C, X), cage(C, G) }`)"),
                        ),
                        _ => {}
                    }
                    // A set or a value over the state grows, and a fact is
                    // derived for each value it grows through: monotone.
                    if dynamic && agg.elem.is_none() && !matches!(agg.op, CmpOp::Ge | CmpOp::Gt) {
                        self.error(
                            Diagnostic::new(agg.span, format!("`count : {{ ... }} {} ...` over the solving state is not monotone", agg.op))
                                .label("can become false later")
                                .help("counts over `placed`/`eliminated` only grow, so only thresholds are stable: write `count : { ... } >= k` (e.g. \"at least N - 1 other digits are eliminated\" instead of \"one candidate is left\")"),
                        );
                    }
                    self.check_monotone_body(&agg.body, types);
                }
                _ => {}
            }
        }
    }
}

/// How an expression moves as the values that grow over the state do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Growth {
    /// It reads none of them.
    Fixed,
    /// It never gets smaller.
    Up,
    /// It never gets larger.
    Down,
    /// Either way, or no telling (a product, a quotient).
    Any,
}

/// How `e` moves as the variables `grown` grow.
fn growth(e: &Expr, grown: &[VarId]) -> Growth {
    let flip = |g: Growth| match g {
        Growth::Up => Growth::Down,
        Growth::Down => Growth::Up,
        g => g,
    };
    let add = |a: Growth, b: Growth| match (a, b) {
        (Growth::Fixed, g) | (g, Growth::Fixed) => g,
        (x, y) if x == y => x,
        _ => Growth::Any,
    };
    match e {
        Expr::Var(v) if grown.contains(v) => Growth::Up,
        Expr::Var(_) | Expr::Const(_) => Growth::Fixed,
        Expr::Add(a, b) => add(growth(a, grown), growth(b, grown)),
        Expr::Sub(a, b) => add(growth(a, grown), flip(growth(b, grown))),
        Expr::Neg(a) => flip(growth(a, grown)),
        // A union or intersection of a growing number (a `sum`, a `max`)
        // moves either way: `max` 3 then 9 makes `P & 2` 2 then 0.
        Expr::Mul(a, b)
        | Expr::Div(a, b)
        | Expr::Mod(a, b)
        | Expr::Union(a, b)
        | Expr::Inter(a, b) => match (growth(a, grown), growth(b, grown)) {
            (Growth::Fixed, Growth::Fixed) => Growth::Fixed,
            _ => Growth::Any,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{check_text, errors, passes};

    #[test]
    fn the_state_is_never_negated() {
        let d = check_text("eliminated(C, 1) :- cell(C), !placed(C, 2).").unwrap_err();
        assert_eq!(d.items[0].message, "negation of `placed` is not monotone");
        assert!(
            d.items[0]
                .help
                .starts_with("`placed` only grows as the solve goes on")
        );
        // A relation derived from the state is the state too.
        let d = check_text(
            ".decl two(c: cell)
            two(C) :- placed(C, 2).
            eliminated(C, 1) :- cell(C), !two(C).",
        )
        .unwrap_err();
        assert_eq!(d.items[0].message, "negation of `two` is not monotone");
        assert!(
            d.items[0]
                .help
                .starts_with("`two` depends on the solving state")
        );
    }

    #[test]
    fn guards_are_on_the_state_and_counts_over_it_are_thresholds() {
        assert_eq!(
            errors("eliminated(C, 1) :- cell(C), unless given(C, 1)."),
            ["`unless` guards the solving state, and `given` does not change during a solve"]
        );
        assert_eq!(
            errors("placed(C, 1) :- cell(C), count : { eliminated(C, _) } = 8."),
            ["`count : { ... } = ...` over the solving state is not monotone"]
        );
    }

    #[test]
    fn a_set_over_the_state_is_used_as_a_lower_bound_only() {
        let message = "a comparison with a set that grows over the solving state is not monotone";
        // Compared with a value: "the set is still small" can stop holding.
        let rule = ".decl few(c: cell)
            few(C) :- cell(C), M = set E : { eliminated(C, E) }, M < 8.";
        assert_eq!(errors(rule), [message]);
        // Through a sum bound to a new variable, compared later.
        let rule = ".decl few(c: cell)
            few(C) :- cell(C), M = set E : { eliminated(C, E) }, T = M + 1, T <= 8.";
        assert_eq!(errors(rule), [message]);
        // Bound, summed into a new variable and passed on: fine; and a set
        // over static relations may be compared.
        passes(
            ".decl gone(c: cell, m: set)
            gone(C, T) :- cell(C), M = set E : { eliminated(C, E), E > 1 }, T = M + 2.
            .decl small(c: cell)
            small(C) :- cell(C), M = set D : { digit(D), D < 3 }, M < 8.",
        );
    }

    #[test]
    fn a_sum_of_digits_or_a_max_over_the_state_is_a_lower_bound() {
        // Recorded in the head ("at least P"), or compared so that growing
        // keeps the comparison true: fine.
        passes(
            ".decl total(u: unit, p: number)
            total(U, P) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) }.
            .decl over(u: unit, d: digit)
            over(U, D) :- unit(U), digit(D), P = sum X : { in_unit(C, U), placed(C, X) }, P + D > 45.
            .decl high(u: unit)
            high(U) :- unit(U), M = max X : { in_unit(C, U), placed(C, X) }, 7 < M.",
        );
        // "Still small" can stop holding; so can anything computed from it
        // that the rule then reads, or an atom that matches it.
        let message = "a comparison with a value that grows over the solving state is not monotone";
        for rule in [
            "few(U) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) }, P < 40.",
            "few(U) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) }, 45 - P >= 5.",
            "few(U) :- unit(U), P = max X : { in_unit(C, U), placed(C, X) }, P * 2 > 9.",
            "few(U) :- unit(U), P = max X : { in_unit(C, U), placed(C, X) }, P != 3.",
            // Bits of a growing number come and go: `max` 3, then 9.
            "few(U) :- unit(U), P = max K : { in_unit(C, U), col(C, K), placed(C, _) }, P & {1} >= 2.",
        ] {
            assert_eq!(
                errors(&format!(".decl few(u: unit)\n{rule}")),
                [message],
                "{rule}"
            );
        }
        assert_eq!(
            errors(
                ".decl few(u: unit)
                few(U) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) },
                    count : { digit(D), D >= P } >= 3."
            ),
            ["a value that grows over the solving state is read as if it were final"]
        );
        // The least value shrinks; a sum of what may be negative may too.
        assert_eq!(
            errors(
                ".decl low(u: unit, m: number)
                low(U, M) :- unit(U), M = min X : { in_unit(C, U), placed(C, X) }."
            ),
            ["`min` over the solving state is not supported"]
        );
        assert_eq!(
            errors(
                ".decl cells(u: unit, p: number)
                cells(U, P) :- unit(U), P = sum K : { in_unit(C, U), placed(C, X), K = X - 5 }."
            ),
            ["`sum` over the solving state adds digits only"]
        );
    }

    #[test]
    fn a_set_that_shrinks_goes_to_the_head_only() {
        // `F - M`, M over the state, shrinks as M grows: a fact may record
        // it ("within this set"), as the optional ALS rules do ...
        passes(
            ".decl within(c: cell, t: set)
            within(C, T) :- cell(C), F = set D : { digit(D) },
                M = set E : { eliminated(C, E) }, T = F - M.",
        );
        // ... but a rule that reads it concludes from what is not
        // eliminated yet: in an atom, where the atom binds it and `=`
        // compares ...
        let rule = ".decl left(c: cell, d: digit)
            left(C, D) :- cell(C), digit(D), F = set X : { digit(X) },
                M = set E : { eliminated(C, E) }, T = F - M, in_set(D, T).";
        assert_eq!(
            errors(rule),
            ["a comparison with a set that grows over the solving state is not monotone"]
        );
        // ... or in a count's body, where it stays bound by `=`.
        let rule = ".decl left(c: cell)
            left(C) :- cell(C), F = set X : { digit(X) }, M = set E : { eliminated(C, E) },
                T = F - M, K = count : { in_set(D, T) }, K >= 1.";
        assert_eq!(
            errors(rule),
            ["a set that shrinks as the solving state grows can only be passed to the head"]
        );
    }

    #[test]
    fn a_count_over_a_growing_set_is_a_lower_bound_unless_the_head_records_the_set() {
        let message = "a count over a set that grows over the solving state is compared as if the set were final";
        // "Fewer than three digits are gone" can stop holding.
        let rule = ".decl few(c: cell)
            few(C) :- cell(C), M = set E : { eliminated(C, E) }, K = count : { in_set(X, M) }, K < 3.";
        assert_eq!(errors(rule), [message]);
        let rule = ".decl few(c: cell)
            few(C) :- cell(C), M = set E : { eliminated(C, E) }, count : { in_set(X, M) } < 3.";
        assert_eq!(errors(rule), [message]);
        // "At least three" stays true; so does "exactly three" of a set the
        // fact records, directly or through a value bound from it.
        passes(
            ".decl many(c: cell)
            many(C) :- cell(C), M = set E : { eliminated(C, E) }, K = count : { in_set(X, M) }, K >= 3.
            .decl three(c: cell, m: set)
            three(C, M) :- cell(C), M = set E : { eliminated(C, E) }, K = count : { in_set(X, M) }, K = 3.
            .decl rest(c: cell, t: set)
            rest(C, T) :- cell(C), F = set D : { digit(D) }, M = set E : { eliminated(C, E) },
                K = count : { in_set(X, M) }, K = 3, T = F - M.",
        );
    }

    #[test]
    fn what_reads_the_state_or_the_givens_is_marked() {
        let p = passes(
            ".decl geometry(c: cell)
            .decl clue(c: cell)
            .decl seen(c: cell)
            geometry(C) :- cell(C).
            clue(C) :- geometry(C), given(C, _).
            seen(C) :- clue(C), placed(C, _).
            eliminated(C, 1) :- cell(C), digit(D), count : { eliminated(C, D) } >= 2, unless placed(C, 1).",
        );
        let marks = |name: &str| {
            let r = &p.relations[p.relation(name).unwrap()];
            (r.dynamic, r.per_puzzle)
        };
        assert_eq!(marks("geometry"), (false, false));
        assert_eq!(marks("clue"), (false, true));
        assert_eq!(marks("seen"), (true, true));
    }
}
