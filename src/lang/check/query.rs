//! Ad-hoc queries (`sudolog query`): a rule body checked against a
//! program's relations and the `candidate` view, through the same passes
//! as a rule's body.

use super::safety::mark_vars;
use super::{Checker, Scope};
use crate::lang::ast::{self, SourceSet, Span, Type};
use crate::lang::diag::Diagnostics;
use crate::lang::program::{CANDIDATE_VIEW, Expr, Literal, Program, RelId, Relation, VarId};

/// A checked ad-hoc query: a rule body over a program's relations (and
/// the `candidate` view), with its named variables as output columns.
#[derive(Clone, Debug)]
pub struct Query {
    /// The literals.
    pub body: Vec<Literal>,
    /// The named variables, in order of first use: the output columns.
    pub outputs: Vec<VarId>,
    /// Variable names by id.
    pub var_names: Vec<String>,
    /// Variable types by id.
    pub var_types: Vec<Type>,
    /// The relation id standing for the `candidate` view (one past the
    /// program's relations).
    pub candidate: RelId,
}

/// Parses and checks a query body (`candidate(C, 5), in_unit(C, U)`)
/// against a program.
pub fn check_query(program: &Program, text: &str) -> Result<Query, Diagnostics> {
    let mut sources = SourceSet::default();
    let file = sources.add("query", text);
    let parsed = match crate::lang::parser::parse_body(text, file) {
        Ok(b) => b,
        Err(items) => return Err(Diagnostics { items, sources }),
    };
    let mut relations = program.relations.clone();
    let candidate = relations.len();
    relations.push(Relation {
        name: CANDIDATE_VIEW.to_string(),
        columns: vec![("c".into(), Type::Cell), ("d".into(), Type::Digit)],
        builtin: None,
        doc: "digits not eliminated".into(),
        decl: None,
        dynamic: true,
        per_puzzle: true,
        input: None,
    });
    let mut checker = Checker::new(&sources, relations, program.symbols.clone(), true);
    let mut scope = Scope::default();
    let body = checker.literals(&parsed, &mut scope, 0);
    // Variables local to a count are not answers.
    let mut outside = vec![false; scope.names.len()];
    for lit in body.iter().flatten() {
        mark_vars(lit, &mut outside, false);
    }
    let outputs: Vec<VarId> = (0..scope.names.len())
        .filter(|&v| outside[v] && !scope.names[v].starts_with('_'))
        .collect();
    let result = body.map(|mut body| {
        checker.check_comparison_types(&mut scope, &body);
        let head: Vec<Expr> = outputs.iter().map(|&v| Expr::Var(v)).collect();
        let fake_head = ast::Atom {
            rel: "query".into(),
            args: outputs
                .iter()
                .map(|&v| ast::Expr::Var(scope.names[v].clone(), scope.first_use[v]))
                .collect(),
            span: Span::new(file, 0, 0),
            name_span: Span::new(file, 0, 0),
        };
        checker.check_safety(&mut scope, &head, &fake_head, &mut body);
        body
    });
    match result {
        Some(body) if checker.errors.is_empty() => Ok(Query {
            body,
            outputs,
            var_types: scope.var_types(),
            var_names: scope.names,
            candidate,
        }),
        _ => {
            let items = std::mem::take(&mut checker.errors);
            drop(checker);
            Err(Diagnostics { items, sources })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_query;
    use crate::lang::check::tests::passes;

    #[test]
    fn a_query_reads_candidates_and_answers_its_named_variables() {
        let p = passes("");
        let q = check_query(
            &p,
            "candidate(C, 5), in_unit(C, U), count : { digit(_) } >= 1",
        )
        .unwrap();
        assert_eq!(q.candidate, p.relations.len());
        let names: Vec<&str> = q.outputs.iter().map(|&v| q.var_names[v].as_str()).collect();
        assert_eq!(names, ["C", "U"]);
    }

    #[test]
    fn a_query_is_checked_like_a_body() {
        let p = passes("");
        let e = check_query(&p, "cel(C)").unwrap_err();
        assert_eq!(e.items[0].message, "undeclared relation `cel`");
        // Every named variable is an answer, so it must be bound (the
        // message speaks of the head the answers make).
        let e = check_query(&p, "cell(C), !given(C, D)").unwrap_err();
        assert_eq!(
            e.items[0].message,
            "variable `D` in the head is not bound by the body"
        );
        let e = check_query(&p, "cell(C), digit(C)").unwrap_err();
        assert_eq!(
            e.items[0].message,
            "type clash: `C` is used as a digit here but as a cell on line 1"
        );
    }
}
