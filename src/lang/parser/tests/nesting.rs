//! The nesting limit: deep terms and aggregates are an error, not a stack
//! overflow, and nesting up to the limit fits the default test stack.

use super::*;
use crate::lang::parser::cursor::MAX_DEPTH;

#[test]
fn moderate_nesting_is_fine() {
    let depth = 150;
    let text = format!("p({}1{}).", "(".repeat(depth), ")".repeat(depth));
    assert!(matches!(parse_rule(&text).head.args[0], Expr::Int(1, _)));
    let text = format!("p(X) :- X = {}1.", "-".repeat(depth));
    parse(&text);
    let mut aggregate = "q(X)".to_string();
    for _ in 0..50 {
        aggregate = format!("count : {{ {aggregate} }} > 0");
    }
    parse(&format!("p(X) :- {aggregate}."));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 100_000;
    let cases = [
        format!("p({}1{}).", "(".repeat(n), ")".repeat(n)),
        format!("p({}1).", "-".repeat(n)),
        format!("p(X) :- X = 1{}.", " + 1".repeat(n)),
        format!(
            "p(X) :- {}q(X){}.",
            "count : { ".repeat(n),
            " } > 0".repeat(n)
        ),
        format!("p(X) :- q(X), X = {}", "(".repeat(n)),
    ];
    for text in &cases {
        let all = errors(text);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0, "expression is too deeply nested");
    }
    // The limit is reported where it is reached.
    let text = format!("p({}1{}).", "(".repeat(300), ")".repeat(300));
    assert_eq!(error(&text).2, 3 + MAX_DEPTH);
}

#[test]
fn nesting_up_to_the_limit_fits_the_stack() {
    // Aggregates take the most stack per level; the test thread's stack
    // is the small default one.
    let n = MAX_DEPTH;
    let text = format!(
        "p(X) :- {}q(X){}.",
        "count : { ".repeat(n),
        " } > 0".repeat(n)
    );
    let module = parse(&text);
    assert_eq!(module.clone(), module);
    let all = errors(&format!(
        "p(X) :- {}q(X){}.",
        "count : { ".repeat(n + 1),
        " } > 0".repeat(n + 1)
    ));
    assert_eq!(all[0].0, "expression is too deeply nested");
    let text = format!("p(X) :- X = {}1{}.", "(-".repeat(n / 2), ")".repeat(n / 2));
    parse(&text);
}

#[test]
fn deep_nesting_works_in_queries_too() {
    let text = format!("X = {}1", "(".repeat(100_000));
    let diags = parse_body(&text, 0).unwrap_err();
    assert_eq!(diags[0].message, "expression is too deeply nested");
}
