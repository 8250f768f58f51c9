//! What parses to what: the sample file, declarations, rules, atoms,
//! literals, terms and aggregates, with their spans and doc comments.

use super::*;
use crate::lang::ast::{AggFunc, Atom, BinOp, CmpOp, Type};

// ----- the sample -----

#[test]
fn sample_parses() {
    let module = parse(SAMPLE);
    assert_eq!(module.decls.len(), 1);
    let peer = &module.decls[0];
    assert_eq!(peer.name, "peer");
    assert_eq!(peer.doc, "rules/grid.dl — what the grid means");
    assert_eq!(text_at(SAMPLE, peer.span), ".decl peer(a: cell, b: cell)");
    assert_eq!(module.rules.len(), 6);
    let docs: Vec<&str> = module.rules.iter().map(|r| r.doc.as_str()).collect();
    assert_eq!(
        docs,
        vec![
            "Two different cells that share a unit see each other.",
            "A placed digit leaves its cell's other digits and its peers.",
            "",
            "",
            "",
            "",
        ]
    );
    let heads: Vec<&str> = module.rules.iter().map(|r| r.head.rel.as_str()).collect();
    assert_eq!(
        heads,
        vec![
            "peer",
            "eliminated",
            "eliminated",
            "contradiction",
            "placed",
            "eliminated"
        ]
    );
    for rule in &module.rules {
        assert!(text_at(SAMPLE, rule.span).ends_with('.'));
        assert!(text_at(SAMPLE, rule.span).starts_with(&rule.head.rel));
    }
    // `count : { ... } >= N - 1`
    let Literal::Aggregate {
        body, op, bound, ..
    } = &module.rules[4].body[3]
    else {
        panic!("not an aggregate: {:?}", module.rules[4].body[3]);
    };
    assert_eq!(body.len(), 2);
    assert_eq!(*op, CmpOp::Ge);
    assert!(matches!(bound, Expr::Binary(BinOp::Sub, ..)));
    assert_eq!(text_at(SAMPLE, bound.span()), "N - 1");
    // `2 <= count : { ... }` is turned around.
    let last = &module.rules[5];
    assert!(matches!(&last.body[0], Literal::Neg(atom, _) if atom.rel == "given"));
    let Literal::Aggregate {
        op, bound, span, ..
    } = &last.body[1]
    else {
        panic!("not an aggregate: {:?}", last.body[1]);
    };
    assert_eq!(*op, CmpOp::Ge);
    assert!(matches!(bound, Expr::Int(2, _)));
    assert_eq!(text_at(SAMPLE, *span), "2 <= count : { digit(X), X < 3 }");
    assert!(matches!(
        last.head.args[0],
        Expr::Cell { row: 1, col: 1, .. }
    ));
}

// ----- declarations -----

#[test]
fn declarations() {
    let text = ".decl p(a: cell, b: digit, c: unit, d: number, e: symbol)\n.decl solved()";
    let module = parse(text);
    assert_eq!(module.decls.len(), 2);
    let p = &module.decls[0];
    let types: Vec<Type> = p.attrs.iter().map(|a| a.ty).collect();
    assert_eq!(
        types,
        vec![
            Type::Cell,
            Type::Digit,
            Type::Unit,
            Type::Number,
            Type::Symbol
        ]
    );
    let names: Vec<&str> = p.attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, vec!["a", "b", "c", "d", "e"]);
    assert_eq!(text_at(text, p.attrs[1].span), "b: digit");
    assert_eq!(p.name_span, sp(6, 7));
    assert_eq!(p.span, sp(0, 57));
    let solved = &module.decls[1];
    assert_eq!(solved.name, "solved");
    assert!(solved.attrs.is_empty());
    assert_eq!(text_at(text, solved.span), ".decl solved()");
    assert_eq!(solved.doc, "");
}

#[test]
fn declaration_then_rule_on_the_same_line() {
    let module = parse(".decl p(a: cell) p(r1c1).");
    assert_eq!(module.decls.len(), 1);
    assert_eq!(module.rules.len(), 1);
}

#[test]
fn spans_carry_the_file() {
    let module = parse_module("p(X) :- q(X).", 7).unwrap();
    assert_eq!(module.rules[0].span, Span::new(7, 0, 13));
    assert_eq!(module.rules[0].head.args[0].span().file, 7);
}

// ----- rules, atoms, literals -----

#[test]
fn facts_and_rules() {
    let text = "given(r1c1, 5).\nsolved() :- given(_, _).\n";
    let module = parse(text);
    let fact = &module.rules[0];
    assert!(fact.body.is_empty());
    assert_eq!(fact.span, sp(0, 15));
    assert_eq!(fact.head.span, sp(0, 14));
    assert_eq!(fact.head.name_span, sp(0, 5));
    let rule = &module.rules[1];
    assert!(rule.head.args.is_empty());
    assert_eq!(text_at(text, rule.head.span), "solved()");
    assert_eq!(text_at(text, rule.span), "solved() :- given(_, _).");
    assert_eq!(
        rule.body,
        vec![Literal::Atom(Atom {
            rel: "given".into(),
            args: vec![Expr::Wildcard(sp(34, 35)), Expr::Wildcard(sp(37, 38))],
            span: sp(28, 39),
            name_span: sp(28, 33),
        })]
    );
}

#[test]
fn negation_span_covers_the_bang() {
    let text = "p(X) :- q(X), !r(X, 1).";
    let body = body_of(text);
    let Literal::Neg(atom, span) = &body[1] else {
        panic!("{body:?}")
    };
    assert_eq!(atom.rel, "r");
    assert_eq!(text_at(text, *span), "!r(X, 1)");
    assert_eq!(text_at(text, atom.span), "r(X, 1)");
    assert_eq!(body[1].span(), *span);
}

#[test]
fn comparisons() {
    let ops = [
        ("=", CmpOp::Eq),
        ("!=", CmpOp::Ne),
        ("<", CmpOp::Lt),
        ("<=", CmpOp::Le),
        (">", CmpOp::Gt),
        (">=", CmpOp::Ge),
    ];
    for (written, op) in ops {
        let text = format!("p(X) :- q(X, Y), X {written} Y.");
        let body = body_of(&text);
        let Literal::Cmp(lhs, got, rhs, span) = &body[1] else {
            panic!("{body:?}")
        };
        assert_eq!(*got, op);
        assert_eq!(*lhs, var("X", 17));
        assert_eq!(text_at(&text, rhs.span()), "Y");
        assert_eq!(text_at(&text, *span), format!("X {written} Y"));
    }
}

#[test]
fn terms() {
    let text = r#"p(X, _, 42, "a\"b", r3c5, r10c12, R3C5, r3c5x, rc5, lower, _x) :- q(X)."#;
    let args = parse_rule(text).head.args;
    assert_eq!(args[0], var("X", 2));
    assert_eq!(args[1], Expr::Wildcard(sp(5, 6)));
    assert_eq!(args[2], Expr::Int(42, sp(8, 10)));
    assert_eq!(args[3], Expr::Str("a\"b".into(), sp(12, 18)));
    assert_eq!(
        args[4],
        Expr::Cell {
            row: 3,
            col: 5,
            span: sp(20, 24)
        }
    );
    assert!(matches!(
        args[5],
        Expr::Cell {
            row: 10,
            col: 12,
            ..
        }
    ));
    for (arg, name) in args[6..]
        .iter()
        .zip(["R3C5", "r3c5x", "rc5", "lower", "_x"])
    {
        assert!(matches!(arg, Expr::Var(n, _) if n == name), "{arg:?}");
    }
}

#[test]
fn sets_are_written_as_reports_print_them() {
    let text = "p({2,7}, {}, { 1 , 3 }) :- q(X).";
    let args = parse_rule(text).head.args;
    assert_eq!(args[0], Expr::Set(vec![2, 7], sp(2, 7)));
    assert_eq!(args[1], Expr::Set(vec![], sp(9, 11)));
    assert!(matches!(&args[2], Expr::Set(m, _) if m == &[1, 3]));
    // A set may start a comparison, as a number may.
    let body = body_of("p(S) :- fits(C, S), {2,7} = S.");
    assert!(
        matches!(&body[1], Literal::Cmp(Expr::Set(m, _), CmpOp::Eq, Expr::Var(..), _) if m == &[2, 7]),
        "{:?}",
        body[1]
    );
    let help = assert_error(
        "p({2,}) :- q(X).",
        "expected a member of the set (a whole number), found `}`",
        1,
        6,
    );
    assert!(help.contains("`{2,7}`"), "{help}");
    assert_error(
        "p({2 7}) :- q(X).",
        "expected `,` or `}` in the set, found `7`",
        1,
        6,
    );
    assert_error(
        "p({X}) :- q(X).",
        "expected a member of the set (a whole number), found `X`",
        1,
        4,
    );
}

#[test]
fn unit_names_are_unit_constants() {
    // `box5` is written as reports print the unit, and stands for the
    // symbol `"box5"`; names of another shape stay variables.
    let text = "p(row1, col12, box5, box0, box05, boxes, box, row1x) :- q(X).";
    let args = parse_rule(text).head.args;
    for (arg, name) in args[..3].iter().zip(["row1", "col12", "box5"]) {
        assert!(matches!(arg, Expr::Str(n, _) if n == name), "{arg:?}");
    }
    for (arg, name) in args[3..]
        .iter()
        .zip(["box0", "box05", "boxes", "box", "row1x"])
    {
        assert!(matches!(arg, Expr::Var(n, _) if n == name), "{arg:?}");
    }
}

#[test]
fn arithmetic_is_left_associative_with_full_spans() {
    let text = "p(A - B + -C, -(1 - 2), (A + B) - C) :- q(A, B, C).";
    let args = parse_rule(text).head.args;
    let Expr::Binary(BinOp::Add, lhs, rhs, span) = &args[0] else {
        panic!("{:?}", args[0])
    };
    assert_eq!(text_at(text, *span), "A - B + -C");
    assert!(matches!(&**lhs, Expr::Binary(BinOp::Sub, a, b, s)
        if **a == var("A", 2) && **b == var("B", 6) && text_at(text, *s) == "A - B"));
    assert!(matches!(&**rhs, Expr::Neg(c, s)
        if **c == var("C", 11) && text_at(text, *s) == "-C"));
    let Expr::Neg(inner, span) = &args[1] else {
        panic!("{:?}", args[1])
    };
    assert_eq!(text_at(text, *span), "-(1 - 2)");
    assert!(matches!(&**inner, Expr::Binary(BinOp::Sub, ..)));
    let Expr::Binary(BinOp::Sub, lhs, _, span) = &args[2] else {
        panic!("{:?}", args[2])
    };
    assert_eq!(text_at(text, *span), "(A + B) - C");
    assert!(matches!(&**lhs, Expr::Binary(BinOp::Add, ..)));
}

#[test]
fn extreme_integers() {
    let text = "p(9223372036854775807, -9223372036854775808, -1).";
    let args = parse_rule(text).head.args;
    assert_eq!(args[0], Expr::Int(i64::MAX, sp(2, 21)));
    assert_eq!(args[1], Expr::Int(i64::MIN, sp(23, 43)));
    assert_eq!(
        args[2],
        Expr::Neg(Box::new(Expr::Int(1, sp(46, 47))), sp(45, 47))
    );
}

#[test]
fn aggregates() {
    let text = "p(C) :- cell(C), count : { candidate(C, D), D > 1 } = 2, \
                N > count : { peer(C, P) }, count:{ q(X), count : { r(X, Y) } >= 1 } != 0.";
    let body = body_of(text);
    let Literal::Aggregate {
        func,
        body: inner,
        op,
        bound,
        span,
    } = &body[1]
    else {
        panic!("{:?}", body[1])
    };
    assert_eq!(*func, AggFunc::Count);
    assert_eq!(inner.len(), 2);
    assert_eq!(*op, CmpOp::Eq);
    assert!(matches!(bound, Expr::Int(2, _)));
    assert_eq!(
        text_at(text, *span),
        "count : { candidate(C, D), D > 1 } = 2"
    );
    let Literal::Aggregate {
        op, bound, span, ..
    } = &body[2]
    else {
        panic!("{:?}", body[2])
    };
    assert_eq!(*op, CmpOp::Lt, "`N > count` means `count < N`");
    assert!(matches!(bound, Expr::Var(n, _) if n == "N"));
    assert_eq!(text_at(text, *span), "N > count : { peer(C, P) }");
    let Literal::Aggregate {
        body: outer, op, ..
    } = &body[3]
    else {
        panic!("{:?}", body[3])
    };
    assert_eq!(*op, CmpOp::Ne);
    assert!(matches!(
        &outer[1],
        Literal::Aggregate { op: CmpOp::Ge, .. }
    ));
}

#[test]
fn count_alone_is_a_name() {
    let body = body_of("p(X) :- count(X), q(count), count = 3.");
    assert!(matches!(&body[0], Literal::Atom(a) if a.rel == "count"));
    assert!(matches!(&body[2], Literal::Cmp(Expr::Var(n, _), CmpOp::Eq, _, _) if n == "count"));
}

// ----- doc comments -----

#[test]
fn doc_comments() {
    let text = "\
// First line.
//   Second line.  
//
p(X) :- q(X).
// Detached by the blank line.

r(X) :- q(X).
/* block comments are not docs */
s(X) :- q(X).
// Only the last paragraph.

// counts
// here
.decl t(a: cell)
u(X) :- q(X). // a remark about u
v(X) :- q(X).
w(X) :-
    // inside the rule
    q(X).
";
    let module = parse(text);
    let docs: Vec<&str> = module.rules.iter().map(|r| r.doc.as_str()).collect();
    assert_eq!(docs, vec!["First line. Second line.", "", "", "", "", ""]);
    assert_eq!(module.decls[0].doc, "counts here");
}

#[test]
fn products_bind_tighter_than_sums() {
    let m = parse("p(X) :- q(Y), X = 1 + Y * 2 % 3 - 4 / 2.");
    let Literal::Cmp(_, _, rhs, _) = &m.rules[0].body[1] else {
        panic!("{:?}", m.rules[0].body);
    };
    // ((1 + ((Y * 2) % 3)) - (4 / 2))
    let Expr::Binary(BinOp::Sub, lhs, div, _) = rhs else {
        panic!("{rhs:?}");
    };
    assert!(matches!(&**div, Expr::Binary(BinOp::Div, ..)));
    let Expr::Binary(BinOp::Add, _, rem, _) = &**lhs else {
        panic!("{lhs:?}");
    };
    let Expr::Binary(BinOp::Mod, mul, _, _) = &**rem else {
        panic!("{rem:?}");
    };
    assert!(matches!(&**mul, Expr::Binary(BinOp::Mul, ..)));
}
