//! `parse_body`: a rule body alone, as typed on the command line.

use super::*;

#[test]
fn parse_body_reads_a_query() {
    let text = r#"candidate(C, 5), in_unit(C, U), unit_kind(U, "box")"#;
    let body = parse_body(text, 2).unwrap();
    assert_eq!(body.len(), 3);
    assert!(matches!(&body[2], Literal::Atom(a)
        if a.rel == "unit_kind" && a.args[1] == Expr::Str("box".into(), Span::new(2, 45, 50))));
    let with_dot = parse_body(&format!("{text}."), 2).unwrap();
    assert_eq!(with_dot, body);
    let body = parse_body(
        "!given(C, 5), count : { candidate(C, D) } >= 2, C = r1c1 .",
        0,
    )
    .unwrap();
    assert_eq!(body.len(), 3);
}

#[test]
fn parse_body_errors() {
    let message = |text: &str| {
        let diags = parse_body(text, 0).unwrap_err();
        assert_eq!(diags.len(), 1);
        (diags[0].message.clone(), diags[0].span.start)
    };
    assert_eq!(message("").0, "the query is empty");
    assert_eq!(message("  // nothing").0, "the query is empty");
    assert_eq!(
        message("q(X). r(X)"),
        ("unexpected `r` after the end of the query".to_string(), 6)
    );
    assert_eq!(
        message("q(X) r(X)"),
        (
            "expected `,` or the end of the query, found `r`".to_string(),
            5
        )
    );
    assert_eq!(
        message("q(X) :- r(X)").0,
        "expected `,` or the end of the query, found `:-`"
    );
    assert_eq!(
        message("q(X), "),
        (
            "expected another literal after `,`, found the end of the input".to_string(),
            5
        )
    );
    assert_eq!(message("q(\"x").0, "unterminated string");
}
