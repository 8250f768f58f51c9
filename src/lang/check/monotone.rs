//! Monotonicity: the solving state (`placed`, `eliminated`) only grows,
//! so a rule over it must stay true as it does. Which relations change
//! during a solve is found first (everything that reads the state); then a
//! negation of such a relation, a guard of one that does not change, and a
//! count over the state compared other than with `>=`/`>` are errors.

use super::Checker;
use crate::lang::ast::CmpOp;
use crate::lang::builtin::Builtin;
use crate::lang::diag::Diagnostic;
use crate::lang::program::{Literal, Rule, body_relations};

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
