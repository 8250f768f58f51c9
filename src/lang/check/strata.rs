//! Stratification: a negation, an exact count and a set read relations
//! that must be complete first, so no static relation may depend on itself
//! through one. The strata themselves are the engine's business (it
//! orders its own relations with the same [`Dependencies`]); the checker
//! only makes sure that they exist.

use super::Checker;
use crate::lang::diag::Diagnostic;
use crate::lang::graph::Dependencies;
use crate::lang::program::{Rule, body_relations};
use itertools::Itertools;

impl Checker<'_> {
    /// Checks that the static relations can be ordered so that every
    /// negation and every non-threshold count reads relations of earlier
    /// strata only (rules deriving the state are left out: they live in
    /// the fixpoint, which reads the state only monotonically).
    pub(super) fn stratify(&mut self, rules: &[Rule]) {
        let mut deps = Dependencies::new(self.relations.len());
        for (i, r) in rules.iter().enumerate() {
            if self.relations[r.head_rel].dynamic {
                continue;
            }
            let mut reads = Vec::new();
            body_relations(&r.body, &mut reads);
            for (rel, strict) in reads {
                deps.add(rel, r.head_rel, strict, i);
            }
        }
        if let Err(cycle) = deps.stratify() {
            let cycle_names = cycle
                .members
                .iter()
                .map(|&r| format!("`{}`", self.relations[r].name))
                .join(", ");
            let (to, from) = (&self.relations[cycle.head], &self.relations[cycle.body]);
            let help = format!(
                "`{}` would depend on `!{}` or an exact count of itself; split the relation so that what is negated (or counted with `=`, `<`, `<=`) is complete before it is used",
                to.name, from.name
            );
            self.error(
                Diagnostic::new(
                    rules[cycle.rule].span,
                    format!("cycle through negation or counting: {cycle_names}"),
                )
                .label("this rule closes the cycle")
                .help(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{errors, passes};

    #[test]
    fn no_relation_negates_itself() {
        let text = ".decl a(c: cell)
            .decl b(c: cell)
            a(C) :- cell(C), !b(C).
            b(C) :- a(C).";
        assert_eq!(
            errors(text),
            ["cycle through negation or counting: `a`, `b`"]
        );
    }

    #[test]
    fn no_relation_counts_itself_exactly() {
        let text = ".decl a(c: cell)
            a(C) :- cell(C), count : { a(D) } = 3.";
        assert_eq!(errors(text), ["cycle through negation or counting: `a`"]);
        // A threshold only grows: counting itself that way is fine.
        passes(
            ".decl a(c: cell)
            a(C) :- cell(C), count : { a(D) } >= 3.",
        );
    }

    #[test]
    fn negation_across_strata_is_fine() {
        passes(
            ".decl a(c: cell)
            .decl b(c: cell)
            a(C) :- given(C, 1).
            b(C) :- cell(C), !a(C).
            eliminated(C, 1) :- b(C), !a(C).",
        );
    }
}
