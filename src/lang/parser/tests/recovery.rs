//! Several broken statements in one file: one diagnostic each, and the
//! statements after them still parsed.

use super::*;

#[test]
fn recovery_reports_every_broken_statement() {
    let text = "\
.decl ok(a: cell)
p(X) :- q(X) r(X).
good(X) :- q(X).
p(X) :- q(X, count : { r(X) }).
.decl bad(a: digits)
good(X) :- q(X).
p(X) = q(X).
good(X) :- q(X).
";
    let all = errors(text);
    let found: Vec<(&str, usize)> = all.iter().map(|e| (e.0.as_str(), e.1)).collect();
    assert_eq!(
        found,
        vec![
            ("expected `,` or `.` after this literal, found `r`", 2),
            ("`count` cannot be an argument of an atom", 4),
            ("unknown type `digits`", 5),
            ("expected `:-`, found `=`", 7),
        ]
    );
}

#[test]
fn three_broken_rules_give_three_diagnostics() {
    let text = "p(X) :- q(X) r(X).\np(X) :- q(X,, r(X)).\np(X) :- , q(X).\n";
    assert_eq!(errors(text).len(), 3);
    // Three rules that each lack their `.`.
    let text = "p(X) :- q(X)\np(X) :- r(X)\np(X) :- s(X)\n";
    let lines: Vec<usize> = errors(text).iter().map(|e| e.1).collect();
    assert_eq!(lines, vec![1, 2, 3]);
}

#[test]
fn one_diagnostic_per_statement() {
    assert_eq!(errors("p(X :- q(X Y, ,, ) ) ) .\n").len(), 1);
    assert_eq!(errors("p(X) :- q(\"abc, X).\nr(X) :- q(X).").len(), 1);
}

#[test]
fn recovery_inside_an_unbalanced_declaration() {
    let text = ".decl a(x: bogus,\n       y: cell)\n.decl b(y: cell)\nb(r1c1).";
    let all = errors(text);
    assert_eq!(all.len(), 1, "{all:?}");
}
