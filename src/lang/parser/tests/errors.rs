//! The diagnostic of each kind of broken statement: its message, where it
//! points, and its help.

use super::*;

#[test]
fn unterminated_block_comment() {
    let help = assert_error(
        "p(X) :- q(X).\n  /* never closed\np(Y).",
        "unterminated block comment",
        2,
        3,
    );
    assert_eq!(help, "close it with */");
}

#[test]
fn unterminated_string() {
    assert_error("p(X) :- q(X, \"abc).\n", "unterminated string", 1, 14);
    assert_error("p(\"abc", "unterminated string", 1, 3);
    assert_error(
        "p(X) :- q(X, \"a\\z\").",
        "unknown escape `\\z` in a string",
        1,
        16,
    );
}

#[test]
fn huge_integers() {
    let help = assert_error(
        "p(X) :- q(X), X < 9223372036854775808.",
        "integer too large",
        1,
        19,
    );
    assert!(help.contains("9223372036854775807"));
    assert_error(
        "p(X) :- q(X), X < 123456789012345678901234567890123456789.",
        "integer too large",
        1,
        19,
    );
    assert_error("p(-9223372036854775809).", "integer too large", 1, 4);
    // Only the literal right after `-` may be 2^63.
    assert_error("p(1 - 9223372036854775808 + 0).", "integer too large", 1, 7);
}

#[test]
fn declaration_errors() {
    let help = assert_error(
        ".decl p(a: cell, b: digits)",
        "unknown type `digits`",
        1,
        21,
    );
    for ty in ["cell", "digit", "unit", "number", "symbol"] {
        assert!(help.contains(&format!("`{ty}`")), "{help}");
    }
    assert_error(
        ".decl p(a: cell) brie",
        "the qualifier `brie` is not supported",
        1,
        18,
    );
    assert_error(
        ".decl p(a: cell)\n  output\np(r1c1).",
        "the qualifier `output` is not supported",
        2,
        3,
    );
    assert_error(
        ".decl p(a: cell).",
        "a declaration does not end with `.`",
        1,
        17,
    );
    assert_error(
        ".decl p(cell)",
        "expected `:` and a type after the column name `cell`, found `)`",
        1,
        13,
    );
    assert_error(
        ".decl (a: cell)",
        "expected a relation name after `.decl`, found `(`",
        1,
        7,
    );
    assert_error(
        ".decl p\nq(X) :- r(X).",
        "expected `(` after `p`, found `q`",
        2,
        1,
    );
    assert_error(
        ".decl p(a: cell b: cell)",
        "expected `,` or `)` after a column, found `b`",
        1,
        17,
    );
}

#[test]
fn unsupported_directives() {
    let help = assert_error(
        "p(X) :- q(X).\n.input q(IO=file, filename=\"q.facts\")\nr(X) :- q(X).",
        "`.input q` takes no parameters",
        2,
        9,
    );
    assert!(help.contains("come with each puzzle"), "{help}");
    let help = assert_error(
        "p(X) :- q(X).\n.load q",
        "unsupported directive `.load`",
        2,
        1,
    );
    assert!(help.contains("reads puzzles"), "{help}");
    assert!(help.contains("`.decl"), "{help}");
    let all = errors(
        ".type Cell <: symbol\n.output p\n.include \"x.dl\"\n.decl ok(a: cell)\n.printsize p",
    );
    let messages: Vec<&str> = all.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        messages,
        vec![
            "unsupported directive `.type`",
            "unsupported directive `.output`",
            "unsupported directive `.include`",
            "unsupported directive `.printsize`",
        ]
    );
}

#[test]
fn missing_final_dot() {
    let help = assert_error("p(X) :- q(X)", "expected `.` at the end of the rule", 1, 13);
    assert_eq!(help, "rules end with `.`");
    assert_error(
        "p(X) :- q(X)\nr(X) :- q(X).",
        "expected `.` at the end of the rule",
        1,
        13,
    );
    assert_error(
        "p(1)\nr(X) :- q(X).",
        "expected `.` at the end of the rule",
        1,
        5,
    );
    assert_error(
        "p(X) :- q(X),\n    count : { r(X) } >= 1  // done\n.decl r(a: cell)",
        "expected `.` at the end of the rule",
        2,
        26,
    );
    // An indented line continues the rule, so a `,` is what is missing.
    assert_error(
        "p(X) :- q(X)\n    r(X).",
        "expected `,` or `.` after this literal, found `r`",
        2,
        5,
    );
}

#[test]
fn colon_or_equals_instead_of_implication() {
    for (text, found) in [
        ("p(X) : q(X).", "`:`"),
        ("p(X) = q(X).", "`=`"),
        ("p(X) <- q(X).", "`<-`"),
    ] {
        let help = assert_error(text, &format!("expected `:-`, found {found}"), 1, 6);
        assert_eq!(help, "did you mean `:-`?");
    }
    assert_error(
        "p(X) q(X).",
        "expected `:-` or `.` after the rule head, found `q`",
        1,
        6,
    );
}

#[test]
fn count_errors() {
    let help = assert_error(
        "p(X) :- q(X), count : { r(X) }.",
        "this `count` is not compared with anything",
        1,
        15,
    );
    assert_eq!(help, "compare it with a bound, e.g. `count : { ... } >= 2`");
    assert_error(
        "p(X) :- q(X), count : { r(X) } + 1 >= 2.",
        "`count` cannot be used inside arithmetic",
        1,
        15,
    );
    assert_error(
        "p(X) :- q(X), 2 <= 1 + count : { r(X) }.",
        "`count` cannot be used inside arithmetic",
        1,
        24,
    );
    assert_error(
        "p(X) :- q(X), 2 <= count : { r(X) } - 1.",
        "`count` cannot be used inside arithmetic",
        1,
        20,
    );
    assert_error(
        "p(X) :- q(X), X = -count : { r(X) }.",
        "`count` cannot be used inside arithmetic",
        1,
        20,
    );
    assert_error(
        "p(X) :- q(X, count : { r(X) }).",
        "`count` cannot be an argument of an atom",
        1,
        14,
    );
    assert_error(
        "p(X) :- count : { r(X) } = count : { q(X) }.",
        "an aggregate cannot be compared with another aggregate",
        1,
        28,
    );
    assert_error(
        "p(X) :- q(X), count { r(X) } > 1.",
        "expected `:` after `count`, found `{`",
        1,
        21,
    );
    assert_error(
        "p(X) :- q(X), count : r(X) > 1.",
        "expected `{` after `count :`, found `r`",
        1,
        23,
    );
    assert_error(
        "p(X) :- q(X), count : { } > 1.",
        "an aggregate needs at least one literal",
        1,
        25,
    );
    assert_error(
        "p(X) :- q(X), count : { r(X). } > 1.",
        "expected `,` or `}` after this literal, found `.`",
        1,
        29,
    );
    assert_error(
        "p(X) :- q(X), sum Y : { r(X, Y) } > 1.",
        "`sum` gives its value to a variable",
        1,
        15,
    );
    assert_error(
        "p(X) :- q(X), M = mean Y : { r(X, Y) }.",
        "the `mean` aggregate is not supported",
        1,
        19,
    );
    assert_error(
        "p(X) :- q(X), !count : { r(X) } > 1.",
        "expected an atom after `!`, found `count`",
        1,
        16,
    );
}

#[test]
fn empty_and_comment_only_files() {
    assert_eq!(parse(""), Module::default());
    assert_eq!(
        parse("  // just a comment\n/* and a block */\n"),
        Module::default()
    );
}

#[test]
fn more_misplaced_counts() {
    assert_error(
        "p(X) :- q(X), (count : { r(X) }) >= 2.",
        "`count` cannot be put in parentheses",
        1,
        16,
    );
    assert_error(
        "p(X) :- q(X), count : { r(X) } # 2.",
        "unexpected character `#`",
        1,
        32,
    );
}

#[test]
fn head_errors() {
    let help = assert_error(
        "p(X), r(X) :- q(X).",
        "a rule has exactly one head atom",
        1,
        5,
    );
    assert!(help.contains("separate rule"));
    assert_error("!p(X) :- q(X).", "a rule head cannot be negated", 1, 1);
    assert_error(
        "solved :- q(X).",
        "expected `(` after `solved`, found `:-`",
        1,
        8,
    );
    assert_error(
        "42.",
        "expected a rule, a fact or a `.decl`, found `42`",
        1,
        1,
    );
    assert_error(". p(X).", "unexpected `.`", 1, 1);
}

#[test]
fn body_errors() {
    assert_error(
        "p(X) :- q(X), 3.",
        "expected a comparison operator after this term, found `.`",
        1,
        16,
    );
    assert_error(
        "p(X) :- q(X), done.",
        "expected `(` or a comparison after `done`, found `.`",
        1,
        19,
    );
    assert_error(
        "p(X) :- q(X), ).",
        "expected a body literal, found `)`",
        1,
        15,
    );
    assert_error(
        "p(X) :- q(X), .",
        "expected another literal after `,`, found `.`",
        1,
        15,
    );
    assert_error(
        "p(X) :- .",
        "expected a rule body after `:-`, found `.`",
        1,
        9,
    );
    assert_error(
        "p(X) :- q(X), 1 < X < 3.",
        "comparisons cannot be chained",
        1,
        21,
    );
    assert_error(
        "p(X) :- q(X), X == 1.",
        "`==` is not a comparison operator",
        1,
        17,
    );
    assert_error(
        "p(X) :- q(X); r(X).",
        "`;` (disjunction) is not supported",
        1,
        13,
    );
    assert_error(
        "p(X) :- q(X), size(N) >= 3.",
        "the atom `size(...)` cannot be compared",
        1,
        15,
    );
    assert_error(
        "p(X) :- q(r(X)).",
        "the atom `r(...)` cannot be used as a term",
        1,
        11,
    );
    assert_error(
        "p(X) :- q(X,).",
        "expected another argument after `,`, found `)`",
        1,
        13,
    );
    assert_error(
        "p(X) :- q(X Y).",
        "expected `,` or `)` after an argument of `q`, found `Y`",
        1,
        13,
    );
    assert_error(
        "p(X) :- q(X :- r(X).",
        "expected `,` or `)` after an argument of `q`, found `:-`",
        1,
        13,
    );
    assert_error(
        "p(X) :- q(X), X = (1 + 2.",
        "expected `)` to close the parenthesis, found `.`",
        1,
        25,
    );
    assert_error("p(X) :- q(X), X = *.", "expected a term, found `*`", 1, 19);
    assert_error(
        "p(X) :- q(X), X = 1.5.",
        "fractional numbers are not supported",
        1,
        19,
    );
    assert_error(
        "p(X) :- q(X), X = r99999999999c1.",
        "the cell `r99999999999c1` has a row or column number too large",
        1,
        19,
    );
    assert_error(
        "p(X) :- q(X), !X = 1.",
        "expected an atom after `!`, found `X`",
        1,
        16,
    );
    assert_error(
        "p(X) :- q(X), !r.",
        "expected `(` after `r`, found `.`",
        1,
        17,
    );
    assert_error(
        "p(X) :- q(X), 'a' = X.",
        "unexpected character `\\'`",
        1,
        15,
    );
}
