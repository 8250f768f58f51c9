//! The parser's unit tests, by category: `syntax` (what parses to what,
//! with spans and doc comments), `errors` (the diagnostic of each kind of
//! broken statement), `recovery` (several broken statements in one file),
//! `nesting` (the depth limit), `queries` (`parse_body`) and `robustness`
//! (random input, rendering). Shared here: a sample rule file, and helpers
//! that parse and unpack the results.

mod errors;
mod nesting;
mod queries;
mod rating;
mod recovery;
mod robustness;
mod syntax;

use super::*;
use crate::lang::ast::{Expr, Rule, SourceSet};

const SAMPLE: &str = r#"// rules/grid.dl — what the grid means
.decl peer(a: cell, b: cell)
// Two different cells that share a unit see each other.
peer(A, B) :- in_unit(A, U), in_unit(B, U), A != B.

// A placed digit leaves its cell's other digits and its peers.
eliminated(C, E) :- placed(C, D), digit(E), E != D.
eliminated(P, D) :- placed(C, D), peer(C, P).
contradiction("no digit left", C) :- cell(C), size(N),
    count : { eliminated(C, _) } >= N.
placed(C, D) :- cell(C), digit(D), size(N),
    count : { eliminated(C, E), E != D } >= N - 1.
eliminated(r1c1, 5) :- !given(r1c1, 5), 2 <= count : { digit(X), X < 3 }.
"#;

fn parse(text: &str) -> Module {
    match parse_module(text, 0) {
        Ok(module) => module,
        Err(diags) => panic!("unexpected errors in {text:?}: {diags:#?}"),
    }
}

fn parse_rule(text: &str) -> Rule {
    let mut module = parse(text);
    assert_eq!(module.rules.len(), 1, "{text:?}");
    module.rules.remove(0)
}

fn body_of(text: &str) -> Vec<Literal> {
    parse_rule(text).body
}

/// `(message, line, column, help)` of every diagnostic.
fn errors(text: &str) -> Vec<(String, usize, usize, String)> {
    let mut sources = SourceSet::default();
    sources.add("other.dl", "");
    let file = sources.add("test.dl", text);
    let diags = match parse_module(text, file) {
        Ok(module) => panic!("expected errors in {text:?}, got {module:#?}"),
        Err(diags) => diags,
    };
    diags
        .into_iter()
        .map(|d| {
            assert_eq!(d.span.file, file);
            assert!(d.span.start <= d.span.end && d.span.end <= text.len());
            let (line, col) = sources.line_col(file, d.span.start);
            (d.message, line, col, d.help)
        })
        .collect()
}

/// The only diagnostic of `text`: `(message, line, column, help)`.
fn error(text: &str) -> (String, usize, usize, String) {
    let mut all = errors(text);
    assert_eq!(all.len(), 1, "{text:?}: {all:#?}");
    all.remove(0)
}

fn assert_error(text: &str, message: &str, line: usize, col: usize) -> String {
    let (m, l, c, help) = error(text);
    assert_eq!((m.as_str(), l, c), (message, line, col), "{text:?}");
    help
}

fn sp(start: usize, end: usize) -> Span {
    Span::new(0, start, end)
}

fn var(name: &str, start: usize) -> Expr {
    Expr::Var(name.to_string(), sp(start, start + name.len()))
}

fn text_at(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}
