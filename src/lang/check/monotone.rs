//! Monotonicity: the solving state (`placed`, `eliminated`) only grows,
//! so a rule over it must stay true as it does. Which relations change
//! during a solve is found first (everything that reads the state); then a
//! negation of such a relation, a guard of one that does not change, and a
//! count over the state compared other than with `>=`/`>` are errors.

use super::Checker;
use crate::lang::ast::CmpOp;
use crate::lang::builtin::Builtin;
use crate::lang::diag::Diagnostic;
use crate::lang::program::{Arg, Expr, Literal, Rule, VarId, body_relations};

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
    }

    /// Checks that every rule reads the state monotonically: a fact it
    /// derives stays true as the state grows.
    pub(super) fn check_monotone(&mut self, rules: &[Rule]) {
        for r in rules {
            self.check_monotone_body(&r.body);
            self.check_grown_sets(&r.body);
        }
    }

    /// A set gathered over the state (`M = set X : { eliminated(...) }`)
    /// only grows: a fact about it says "at least these", so the rule may
    /// use it as such (`in_set`, `covers`, an argument of its head, a sum
    /// with a disjoint set bound to a new variable), but a comparison with
    /// it (`M < F`, `M = T`) could stop holding as it grows.
    fn check_grown_sets(&mut self, body: &[Literal]) {
        let mut grown: Vec<VarId> = Vec::new();
        for lit in body {
            if let Literal::Count(agg) = lit
                && agg.elem.is_some()
                && let Some(v) = agg.value
            {
                let mut deps = Vec::new();
                body_relations(&agg.body, &mut deps);
                if deps.iter().any(|(rel, _)| self.relations[*rel].dynamic) {
                    grown.push(v);
                }
            }
        }
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

    fn check_monotone_body(&mut self, body: &[Literal]) {
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
                    let mut deps = Vec::new();
                    body_relations(&agg.body, &mut deps);
                    let dynamic = deps.iter().any(|(rel, _)| self.relations[*rel].dynamic);
                    // A set over the state grows, and a fact is derived
                    // for each set it grows through: monotone.
                    if dynamic && agg.elem.is_none() && !matches!(agg.op, CmpOp::Ge | CmpOp::Gt) {
                        self.error(
                            Diagnostic::new(agg.span, format!("`count : {{ ... }} {} ...` over the solving state is not monotone", agg.op))
                                .label("can become false later")
                                .help("counts over `placed`/`eliminated` only grow, so only thresholds are stable: write `count : { ... } >= k` (e.g. \"at least N - 1 other digits are eliminated\" instead of \"one candidate is left\")"),
                        );
                    }
                    self.check_monotone_body(&agg.body);
                }
                _ => {}
            }
        }
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
