//! Declarations: the relation table every later pass resolves names
//! against, the built-in relations first ([`Builtin::ALL`]), then every
//! `.decl` of every file (a name declared twice, a built-in declared
//! again, the reserved `candidate`, too many columns).

use super::Checker;
use crate::lang::ast;
use crate::lang::ast::Span;
use crate::lang::builtin::Builtin;
use crate::lang::diag::Diagnostic;
use crate::lang::program::{CANDIDATE_VIEW, MAX_COLUMNS, Relation};
use crate::lang::value::Type;

impl Checker<'_> {
    /// Declares the built-in relations, in [`Builtin::ALL`] order (a
    /// built-in's id is its position there).
    pub(super) fn declare_builtins(&mut self) {
        for info in Builtin::ALL {
            let b = info.which;
            self.by_name
                .insert(info.name.to_string(), self.relations.len());
            self.relations.push(Relation {
                name: info.name.to_string(),
                columns: info
                    .columns
                    .iter()
                    .map(|(n, t)| (n.to_string(), *t))
                    .collect(),
                builtin: Some(b),
                doc: String::new(),
                decl: None,
                dynamic: b.dynamic(),
                per_puzzle: b.per_puzzle(),
                input: None,
            });
        }
    }

    /// Declares a relation of a `.decl`.
    pub(super) fn declare(&mut self, decl: &ast::Decl) {
        if decl.name == CANDIDATE_VIEW {
            self.error(
                Diagnostic::new(decl.name_span, "`candidate` is reserved")
                    .label("reserved name")
                    .help("`candidate` is the view of digits not yet eliminated that reports show; pick another name"),
            );
            return;
        }
        if let Some(&id) = self.by_name.get(&decl.name) {
            let d = if self.relations[id].builtin.is_some() {
                Diagnostic::new(
                    decl.name_span,
                    format!("`{}` is a built-in relation", decl.name),
                )
                .label("declared again here")
                .help("remove this `.decl`: built-in relations are always there")
            } else {
                let first = self.relations[id].decl.unwrap_or_default();
                Diagnostic::new(decl.name_span, format!("`{}` is declared twice", decl.name))
                    .label("second declaration")
                    .help(format!(
                        "it is first declared at {}; remove one of them, or, if that one is the library's, give yours another name (a file cannot change the library's relations by accident)",
                        self.sources.location(first)
                    ))
            };
            self.error(d);
            return;
        }
        if let Some(extra) = decl.attrs.get(MAX_COLUMNS) {
            self.error(
                Diagnostic::new(
                    extra.span,
                    format!(
                        "`{}` has {} columns; a relation has at most {MAX_COLUMNS}",
                        decl.name,
                        decl.attrs.len()
                    ),
                )
                .label("one column too many")
                .help("split it into two relations that share a key, or pack two numbers into one column"),
            );
            // Still declared, so that its uses raise no second error.
        }
        self.by_name.insert(decl.name.clone(), self.relations.len());
        self.relations.push(Relation {
            name: decl.name.clone(),
            columns: decl.attrs.iter().map(|a| (a.name.clone(), a.ty)).collect(),
            builtin: None,
            doc: decl.doc.clone(),
            decl: Some(decl.span),
            dynamic: false,
            per_puzzle: false,
            input: None,
        });
    }

    /// Marks a relation `.input`: its facts come with each puzzle, so it
    /// and everything read from it are computed per puzzle. A puzzle's
    /// clue lines hold cells and numbers only, so those are its columns'
    /// types.
    pub(super) fn declare_input(&mut self, name: &str, span: Span) {
        let Some(&id) = self.by_name.get(name) else {
            let mut d = Diagnostic::new(
                span,
                format!("`.input {name}` names no declared relation"),
            )
            .label("not declared")
            .help(format!(
                "declare it above, such as `.decl {name}(c: cell, n: number)`, then `.input {name}`"
            ));
            if let Some(close) =
                crate::lang::suggest::closest(name, self.by_name.keys().map(String::as_str))
            {
                d = d.help(format!("did you mean `{close}`?"));
            }
            self.error(d);
            return;
        };
        let rel = &self.relations[id];
        if rel.builtin.is_some() {
            self.error(
                Diagnostic::new(span, format!("`{name}` is a built-in relation"))
                    .label("cannot be an input")
                    .help("declare a relation of your own for the puzzle's clues"),
            );
            return;
        }
        if let Some(first) = rel.input {
            self.error(
                Diagnostic::new(span, format!("`{name}` is made `.input` twice"))
                    .label("second `.input`")
                    .help(format!(
                        "it is first made an input at {}; remove one of them",
                        self.sources.location(first)
                    )),
            );
            return;
        }
        if let Some((column, ty)) = rel
            .columns
            .iter()
            .find(|(_, t)| matches!(t, Type::Unit | Type::Symbol))
        {
            self.error(
                Diagnostic::new(
                    span,
                    format!("the column `{column}` of input `{name}` is a {ty}"),
                )
                .label("puzzles cannot give it")
                .help(
                    "a puzzle's clue lines hold cells (`r3c5`) and whole numbers only: give \
                     the column the type `cell`, `digit`, `number` or `set`, and name units \
                     in the rules",
                ),
            );
            return;
        }
        let rel = &mut self.relations[id];
        rel.input = Some(span);
        rel.per_puzzle = true;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{errors, passes};
    use crate::lang::builtin::Builtin;

    #[test]
    fn declared_relations_follow_the_built_ins() {
        let p = passes(".decl mine(c: cell, d: digit)");
        assert_eq!(p.relation("mine"), Some(Builtin::ALL.len()));
        assert_eq!(p.relation("covers"), Some(p.builtin(Builtin::Covers)));
        assert!(p.relations[p.builtin(Builtin::Placed)].dynamic);
        assert!(p.relations[p.builtin(Builtin::Given)].per_puzzle);
    }

    #[test]
    fn a_name_is_declared_once() {
        assert_eq!(
            errors(".decl cell(c: cell)"),
            ["`cell` is a built-in relation"]
        );
        assert_eq!(
            errors(".decl a(x: number)\n.decl a(x: number)"),
            ["`a` is declared twice"]
        );
        assert_eq!(
            errors(".decl candidate(c: cell)"),
            ["`candidate` is reserved"]
        );
    }

    #[test]
    fn a_relation_has_at_most_eight_columns() {
        let wide = ".decl wide(a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number)";
        assert_eq!(
            errors(wide),
            ["`wide` has 9 columns; a relation has at most 8"]
        );
    }

    #[test]
    fn an_input_is_a_declared_relation_of_cells_and_numbers_read_per_puzzle() {
        let p = passes(
            ".decl cage(c: cell, g: number)\n.input cage\n.decl size_of(g: number, k: number)\nsize_of(G, K) :- cage(_, G), K = count : { cage(C, G) }.",
        );
        let cage = p.relation("cage").unwrap();
        assert!(p.relations[cage].input.is_some() && p.relations[cage].per_puzzle);
        assert!(p.relations[p.relation("size_of").unwrap()].per_puzzle);
        assert_eq!(
            errors(".decl cage(c: cell, g: number)\n.input cgae"),
            ["`.input cgae` names no declared relation"]
        );
        assert_eq!(errors(".input given"), ["`given` is a built-in relation"]);
        assert_eq!(
            errors(".decl a(x: number)\n.input a\n.input a"),
            ["`a` is made `.input` twice"]
        );
        assert_eq!(
            errors(".decl a(x: unit)\n.input a"),
            ["the column `x` of input `a` is a unit"]
        );
        assert_eq!(
            errors(".decl a(c: cell)\n.input a\na(C) :- placed(C, 1)."),
            ["`a` is an input, but this rule derives it from the solving state"]
        );
    }
}
