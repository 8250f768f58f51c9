//! Every kind of rule-language error, as a user meets it: the message, the
//! exact `file:line:col` it points at, and a non-empty `help` that says how
//! to fix it. Each test loads the standard library plus one small file of
//! its own (`user.dl`), so that locations must name the right file too.

use sudolog::lang::diag::Diagnostics;
use sudolog::lang::library::{RuleSources, RulesError};

/// The display name of the file each test adds to the standard library.
const FILE: &str = "user.dl";

/// The standard library's `grid.dl`, to locate its declarations independently.
const GRID_DL: &str = include_str!("../rules/grid.dl");

/// Loads the standard library plus `text` and returns the diagnostics,
/// failing the test if the rule set loads.
fn diagnostics(text: &str) -> Diagnostics {
    let mut sources = RuleSources::standard();
    sources.add_text(FILE, text);
    match sources.load() {
        Ok(_) => panic!("expected errors, but the rules loaded:\n{text}"),
        Err(RulesError::Invalid(d)) => d,
        Err(other) => panic!("expected rule diagnostics, got: {other}"),
    }
}

/// The text of `source` from 1-based `line` and `col` (in characters) to
/// the end of that line. Written here so that locations are checked
/// without trusting sudolog's own line/column arithmetic.
fn text_at(source: &str, line: usize, col: usize) -> &str {
    let l = source
        .split('\n')
        .nth(line - 1)
        .unwrap_or_else(|| panic!("no line {line}"));
    let byte = l.char_indices().nth(col - 1).map_or(l.len(), |(i, _)| i);
    &l[byte..]
}

/// What one diagnostic says, with its location resolved.
#[derive(Debug)]
struct Found {
    message: String,
    help: String,
    line: usize,
    col: usize,
}

/// Every diagnostic of `text`, in order, with its location; also checks
/// that each one points into `user.dl` and that `short()` agrees.
fn all_errors(text: &str) -> Vec<Found> {
    let d = diagnostics(text);
    let found: Vec<Found> = d
        .items
        .iter()
        .map(|item| {
            assert_eq!(
                d.sources.name(item.span.file),
                FILE,
                "diagnostic points into the wrong file: {}",
                d.short()
            );
            let (line, col) = d.sources.line_col(item.span.file, item.span.start);
            Found {
                message: item.message.clone(),
                help: item.help.clone(),
                line,
                col,
            }
        })
        .collect();
    let expected_short: String = found
        .iter()
        .map(|f| format!("{FILE}:{}:{}: error: {}\n", f.line, f.col, f.message))
        .collect();
    assert_eq!(d.short(), expected_short);
    found
}

/// Asserts that `text` has exactly one error, whose message contains
/// `message`, located at `line`:`col` where the text starts with
/// `points_at`, with a non-empty help. Returns it for further checks.
#[track_caller]
fn expect_error(text: &str, message: &str, line: usize, col: usize, points_at: &str) -> Found {
    let mut all = all_errors(text);
    assert_eq!(all.len(), 1, "expected one error, got {all:#?}");
    let f = all.remove(0);
    assert!(
        f.message.contains(message),
        "message {:?} does not contain {message:?}",
        f.message
    );
    assert_eq!(
        (f.line, f.col),
        (line, col),
        "wrong location for {:?}",
        f.message
    );
    assert!(
        text_at(text, line, col).starts_with(points_at),
        "the test itself is off: {line}:{col} is {:?}, not {points_at:?}",
        text_at(text, line, col)
    );
    assert!(!f.help.trim().is_empty(), "no help for {:?}", f.message);
    f
}

#[test]
fn the_standard_library_and_a_correct_extra_file_load() {
    // Sanity: the error tests below fail because of their own text only.
    let mut sources = RuleSources::standard();
    sources.add_text(
        FILE,
        ".decl open(c: cell)\nopen(C) :- cell(C), !given(C, _).\n",
    );
    assert!(sources.load().is_ok());
}

// ----- relations: names, arity, declarations -----

#[test]
fn undeclared_relation_in_a_body() {
    // An unknown name in the body is reported at the name.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), bar(C).\n";
    let f = expect_error(text, "undeclared relation `bar`", 2, 20, "bar(C)");
    assert!(f.help.contains(".decl bar("), "{}", f.help);
}

#[test]
fn undeclared_relation_in_a_head() {
    // A rule deriving into a relation nobody declared.
    let text = "// derives baz\nbaz(C) :- cell(C).\n";
    let f = expect_error(text, "undeclared relation `baz`", 2, 1, "baz(C)");
    assert!(f.help.contains(".decl baz("), "{}", f.help);
}

#[test]
fn arity_mismatch() {
    // `row` has two columns; using it with one is reported at the atom and
    // the help shows the declaration.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), row(C).\n";
    let f = expect_error(
        text,
        "`row` has 2 columns but is used with 1",
        2,
        20,
        "row(C)",
    );
    assert!(f.help.contains("row(c: cell, r: number)"), "{}", f.help);
}

#[test]
fn arity_mismatch_of_a_user_relation_in_a_head() {
    // The head is checked against the user's own declaration.
    let text = ".decl foo(c: cell)\n\nfoo(C, D) :- given(C, D).\n";
    expect_error(
        text,
        "`foo` has 1 column but is used with 2",
        3,
        1,
        "foo(C, D)",
    );
}

#[test]
fn duplicate_declaration() {
    // The second `.decl` is reported at its name; the help names the first.
    let text = ".decl foo(c: cell)\n.decl foo(c: cell)\n";
    let f = expect_error(text, "`foo` is declared twice", 2, 7, "foo(c: cell)");
    assert!(f.help.contains("user.dl:1"), "{}", f.help);
}

#[test]
fn duplicate_declaration_across_files() {
    // `peer` is declared by the standard library's grid.dl; declaring it
    // again in a user file names grid.dl's line in the help.
    let text = "// my peers\n.decl peer(a: cell, b: cell)\n";
    let f = expect_error(text, "`peer` is declared twice", 2, 7, "peer(a");
    let grid_line = GRID_DL
        .lines()
        .position(|l| l.starts_with(".decl peer("))
        .expect("grid.dl declares peer")
        + 1;
    assert!(
        f.help.contains(&format!("rules/grid.dl:{grid_line}")),
        "{}",
        f.help
    );
}

#[test]
fn redeclaring_a_built_in_relation() {
    // Built-ins are always there; a `.decl` of one is an error at its name.
    let text = "\n  .decl given(c: cell, d: digit)\n";
    expect_error(text, "`given` is a built-in relation", 2, 9, "given(c");
}

#[test]
fn declaring_the_candidate_view() {
    // `candidate` is reserved for the reports' view.
    let text = ".decl candidate(c: cell, d: digit)\n";
    expect_error(text, "`candidate` is reserved", 1, 7, "candidate(");
}

#[test]
fn deriving_into_read_only_built_ins() {
    // `given`, `cell` and `row` are filled from the puzzle and the grid.
    expect_error(
        "given(C, 1) :- cell(C).\n",
        "rules cannot add facts to `given`",
        1,
        1,
        "given(",
    );
    expect_error(
        "\ncell(r1c1).\n",
        "rules cannot add facts to `cell`",
        2,
        1,
        "cell(r1c1)",
    );
    expect_error(
        "row(C, 1) :- cell(C).\n",
        "rules cannot add facts to `row`",
        1,
        1,
        "row(",
    );
}

#[test]
fn using_candidate_in_a_rule() {
    // `candidate` shrinks as the solve goes on; rules must use `eliminated`.
    let text = ".decl maybe(c: cell)\nmaybe(C) :- candidate(C, 1).\n";
    let f = expect_error(
        text,
        "rules cannot use `candidate`",
        2,
        13,
        "candidate(C, 1)",
    );
    assert!(f.help.contains("eliminated"), "{}", f.help);
}

// ----- variables: range restriction -----

#[test]
fn variable_unbound_in_a_head() {
    // `D` appears only in the head: reported at `D` in the head.
    let text = ".decl foo(c: cell, d: digit)\nfoo(C, D) :- cell(C).\n";
    let f = expect_error(
        text,
        "variable `D` in the head is not bound by the body",
        2,
        8,
        "D) :-",
    );
    assert!(f.help.contains("`D`"), "{}", f.help);
}

#[test]
fn variable_unbound_in_a_negation() {
    // `X` occurs only under `!`: reported at the negated atom.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), !given(X, 1).\n";
    expect_error(
        text,
        "variable `X` in a negation is not bound",
        2,
        21,
        "given(X, 1)",
    );
}

#[test]
fn variable_unbound_in_a_comparison() {
    // `D` occurs only in a comparison: reported at the comparison.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), D > 3.\n";
    expect_error(
        text,
        "variable `D` in a comparison is not bound",
        2,
        20,
        "D > 3",
    );
}

#[test]
fn variable_unbound_in_a_counts_bound() {
    // `K` is only the bound of a count: reported at the count.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C),\n    count : { in_unit(C, U) } >= K.\n";
    expect_error(
        text,
        "variable `K` in the count's bound is not bound",
        3,
        5,
        "count :",
    );
}

// ----- types -----

#[test]
fn type_clash_between_uses_of_a_variable() {
    // `C` is a cell in `cell(C)` (line 2) and a digit in `digit(C)` (line 3);
    // the second use is reported, naming the line of the first.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C),\n    digit(C).\n";
    let f = expect_error(
        text,
        "type clash: `C` is used as a digit here but as a cell on line 2",
        3,
        11,
        "C).",
    );
    assert!(!f.help.is_empty());
}

#[test]
fn comparing_a_cell_with_a_number_variable() {
    // `C` is a cell, `R` a number: they cannot be compared.
    let text = ".decl foo(c: cell)\nfoo(C) :- row(C, R), C != R.\n";
    expect_error(
        text,
        "type clash: comparing a cell with a number",
        2,
        22,
        "C != R",
    );
}

#[test]
fn comparing_a_cell_with_a_number_constant() {
    // `3` is a number, `C` a cell: the same clash as with a variable.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), C > 3.\n";
    expect_error(
        text,
        "type clash: comparing a cell with a number",
        2,
        20,
        "C > 3",
    );
}

#[test]
fn comparing_with_a_constant_of_another_type() {
    // A digit compared with a string, a number compared with a cell: the
    // same clash as between two variables of those types.
    let text = ".decl foo(c: cell)\nfoo(C) :- given(C, D), D = \"x\".\n";
    expect_error(
        text,
        "type clash: comparing a number with a symbol",
        2,
        24,
        "D = ",
    );
    let text = ".decl foo(c: cell)\nfoo(C) :- row(C, R), R = r1c1.\n";
    expect_error(
        text,
        "type clash: comparing a number with a cell",
        2,
        22,
        "R = r1c1",
    );
}

#[test]
fn arithmetic_on_a_cell() {
    // `+` on a cell is a type error, reported at the comparison it sits in.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), digit(D), D = C + 1.\n";
    let all = all_errors(text);
    assert!(!all.is_empty());
    let f = &all[0];
    assert_eq!(f.message, "type clash: arithmetic on a cell");
    assert_eq!((f.line, f.col), (2, 30));
    assert!(text_at(text, 2, 30).starts_with("D = C + 1"));
    assert!(!f.help.is_empty());
}

#[test]
fn constant_of_the_wrong_type_in_an_atom() {
    // A string where `given` expects a digit, reported at the constant.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), given(C, \"five\").\n";
    expect_error(
        text,
        "type clash: a symbol constant where a digit is expected",
        2,
        29,
        "\"five\"",
    );
    // A number where `unit_kind` expects a symbol.
    let text = ".decl foo(c: cell)\nfoo(C) :- in_unit(C, U), unit_kind(U, 3).\n";
    expect_error(
        text,
        "type clash: a number constant where a symbol is expected",
        2,
        39,
        "3)",
    );
}

#[test]
fn constant_of_the_wrong_type_in_a_head() {
    // A fact `foo(5)` for a cell column.
    let text = ".decl foo(c: cell)\nfoo(5).\n";
    expect_error(
        text,
        "type clash: a number where a cell is expected",
        2,
        5,
        "5)",
    );
}

// ----- stratification and monotonicity -----

#[test]
fn cycle_through_negation_between_two_user_relations() {
    // `a` needs `!b` and `b` needs `!a`: no stratification exists. The
    // error sits on the rule that closes the cycle (the later one).
    let text =
        ".decl a(c: cell)\n.decl b(c: cell)\na(C) :- cell(C), !b(C).\nb(C) :- cell(C), !a(C).\n";
    let f = expect_error(text, "cycle through negation", 4, 1, "b(C) :-");
    assert!(
        f.message.contains("`a`") && f.message.contains("`b`"),
        "{}",
        f.message
    );
}

#[test]
fn cycle_through_an_exact_count() {
    // An exact count of a relation that depends on the rule's own head.
    let text = ".decl a(c: cell)\n.decl b(c: cell)\nb(C) :- a(C).\na(C) :- cell(C), count : { b(X) } = 0.\n";
    let f = expect_error(text, "cycle through negation or counting", 4, 1, "a(C) :-");
    assert!(
        f.message.contains("`a`") && f.message.contains("`b`"),
        "{}",
        f.message
    );
}

#[test]
fn negating_placed_is_not_monotone() {
    // `!placed(...)` can stop holding; the help shows a threshold count.
    let text = ".decl open_digit(c: cell, d: digit)\nopen_digit(C, D) :- cell(C), digit(D), !placed(C, D).\n";
    let f = expect_error(
        text,
        "negation of `placed` is not monotone",
        2,
        41,
        "placed(C, D)",
    );
    assert!(f.help.contains("count"), "{}", f.help);
    assert!(f.help.contains(">="), "{}", f.help);
}

#[test]
fn negating_eliminated_is_not_monotone() {
    // The same for `eliminated`.
    let text =
        ".decl live(c: cell, d: digit)\nlive(C, D) :- cell(C), digit(D),\n    !eliminated(C, D).\n";
    let f = expect_error(
        text,
        "negation of `eliminated` is not monotone",
        3,
        6,
        "eliminated(C, D)",
    );
    assert!(f.help.contains("count"), "{}", f.help);
    assert!(f.help.contains(">="), "{}", f.help);
}

#[test]
fn negating_a_user_relation_that_depends_on_the_state() {
    // `seen` reads `placed`, so it grows during the solve: `!seen` is unsafe.
    let text = ".decl seen(c: cell)\nseen(C) :- placed(C, _).\n.decl fresh(c: cell)\nfresh(C) :- cell(C), !seen(C).\n";
    expect_error(text, "negation of `seen` is not monotone", 4, 23, "seen(C)");
}

#[test]
fn the_help_for_a_negated_state_names_the_guard() {
    // Skipping decided cells is what `unless` is for: the help says so.
    let text = ".decl open(c: cell)\nopen(C) :- cell(C), !placed(C, _).\n";
    let f = expect_error(
        text,
        "negation of `placed` is not monotone",
        2,
        22,
        "placed(C, _)",
    );
    assert!(f.help.contains("unless placed"), "{}", f.help);
}

#[test]
fn a_guard_of_a_relation_that_never_changes() {
    // `given` is fixed before the solve: negate it, do not guard it.
    let text = ".decl empty(c: cell)\nempty(C) :- cell(C), unless given(C, _).\n";
    let f = expect_error(
        text,
        "`unless` guards the solving state, and `given` does not change",
        2,
        29,
        "given(C, _)",
    );
    assert!(f.help.contains("!given"), "{}", f.help);
}

#[test]
fn variable_unbound_in_a_guard() {
    let text = ".decl q(c: cell)\nq(C) :- cell(C), unless placed(X, _).\n";
    let f = expect_error(
        text,
        "variable `X` in a guard is not bound",
        2,
        25,
        "placed(X, _)",
    );
    assert!(f.help.contains("`_`"), "{}", f.help);
}

#[test]
fn a_guard_inside_a_count() {
    let text = ".decl q(c: cell)\nq(C) :- cell(C),\n  count : { eliminated(C, D), unless placed(C, D) } >= 2.\n";
    let f = expect_error(
        text,
        "a guard inside a count is not supported",
        3,
        31,
        "unless placed",
    );
    assert!(f.help.contains("after the count"), "{}", f.help);
}

#[test]
fn where_must_compare_a_new_column_of_the_guard() {
    // `D` is bound by the rule: the guard's `where` needs a column of its own.
    let text = ".decl q(c: cell, d: digit)\nq(C, D) :- cell(C), digit(D), digit(E),\n  unless placed(C, D) where D < E.\n";
    let f = expect_error(
        text,
        "`where` must compare one new variable of the guard's atom",
        3,
        23,
        "where D < E",
    );
    assert!(f.help.contains("where S < R"), "{}", f.help);
}

#[test]
fn where_compares_with_a_variable() {
    let text = ".decl q(c: cell)\nq(C) :- cell(C), unless placed(C, E) where E < 3.\n";
    let f = expect_error(text, "`where` compares with a variable", 2, 48, "3.");
    assert!(f.help.contains("bind the value"), "{}", f.help);
}

#[test]
fn where_needs_a_comparison() {
    let text = ".decl q(c: cell)\nq(C) :- cell(C), unless placed(C, E) where E.\n";
    let f = expect_error(
        text,
        "expected a comparison or `in` after `where`",
        2,
        45,
        ".",
    );
    assert!(f.help.contains("where S < R"), "{}", f.help);
    assert!(f.help.contains("where P in T"), "{}", f.help);
}

#[test]
fn where_in_wants_the_guard_column_on_the_left() {
    let text = ".decl q(c: cell, s: set)\nq(C, S) :- cell(C), digit_set(S, 2),\n  unless placed(C, E) where S in E.\n";
    let f = expect_error(
        text,
        "`where X in S` asks whether the guard's column `X` is in the set `S`",
        3,
        23,
        "where S in E",
    );
    assert!(f.help.contains("on the left"), "{}", f.help);
}

#[test]
fn where_in_wants_a_column_of_numbers() {
    let text = ".decl q(s: set)\nq(S) :- digit_set(S, 2),\n  unless placed(X, 1) where X in S.\n";
    let f = expect_error(
        text,
        "`in` asks for a member of a set, and this column holds a cell",
        3,
        17,
        "X, 1)",
    );
    assert!(f.help.contains("digits or numbers"), "{}", f.help);
}

#[test]
fn where_in_wants_a_set() {
    let text = ".decl q(c: cell, d: digit)\nq(C, D) :- cell(C), digit(D),\n  unless placed(C, E) where E in D.\n";
    let f = expect_error(text, "`in` needs a set on its right", 3, 34, "D.");
    assert!(f.help.contains("set"), "{}", f.help);
}

#[test]
fn unless_must_name_an_atom() {
    let text = ".decl q(c: cell)\nq(C) :- cell(C), unless 3.\n";
    let f = expect_error(text, "expected an atom after `unless`", 2, 25, "3.");
    assert!(f.help.contains("unless placed(C, _)"), "{}", f.help);
}

#[test]
fn a_relation_or_variable_named_unless_is_still_allowed() {
    // `unless` is a keyword only where a guard can start.
    let text = ".decl unless(c: cell)\nunless(C) :- cell(C), row(C, 1).\n.decl q(c: cell)\nq(C) :- unless(C), row(C, Unless), Unless = 1.\n";
    let mut sources = RuleSources::standard();
    sources.add_text(FILE, text);
    if let Err(e) = sources.load() {
        panic!("the rules should load: {e}");
    }
}

#[test]
fn exact_count_over_the_state_is_not_monotone() {
    // "exactly N - 1 digits eliminated" stops holding when one more goes.
    let text = ".decl one_left(c: cell)\none_left(C) :- cell(C), size(N), count : { eliminated(C, _) } = N - 1.\n";
    let f = expect_error(
        text,
        "`count : { ... } = ...` over the solving state is not monotone",
        2,
        34,
        "count :",
    );
    assert!(f.help.contains(">="), "{}", f.help);
}

#[test]
fn at_most_count_over_the_state_is_not_monotone() {
    // `<=` over `placed` is just as unstable.
    let text =
        ".decl few(u: unit)\nfew(U) :- unit(U),\n  count : { in_unit(C, U), placed(C, _) } <= 2.\n";
    let f = expect_error(
        text,
        "`count : { ... } <= ...` over the solving state is not monotone",
        3,
        3,
        "count :",
    );
    assert!(f.help.contains(">="), "{}", f.help);
}

// ----- syntax -----

#[test]
fn missing_final_dot() {
    // The rule on line 2 lacks its `.`; the error points just after it and
    // the rule on line 3 is still read (only one error).
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C)\nfoo(C) :- given(C, 1).\n";
    let f = expect_error(text, "expected `.` at the end of the rule", 2, 18, "");
    assert!(f.help.contains('.'), "{}", f.help);
    // At the very end of the file too.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C)";
    expect_error(text, "expected `.` at the end of the rule", 2, 18, "");
}

#[test]
fn unterminated_string() {
    // Pointed at the opening quote.
    let text = ".decl foo(c: cell)\nfoo(C) :- in_unit(C, U), unit_kind(U, \"row).\n";
    expect_error(text, "unterminated string", 2, 39, "\"row)");
}

#[test]
fn unterminated_block_comment() {
    // Pointed at the `/*` that is never closed.
    let text = ".decl foo(c: cell)\n  /* this comment never ends\nfoo(C) :- cell(C).\n";
    expect_error(text, "unterminated block comment", 2, 3, "/*");
}

#[test]
fn bad_tokens() {
    // A character that is not part of the language.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), @bar(C).\n";
    expect_error(text, "unexpected character `@`", 2, 20, "@bar");
    // An operator the language does not have.
    let text = ".decl foo(c: cell)\nfoo(C) :- row(C, R), R ^ 2 = 4.\n";
    expect_error(text, "the operator `^` is not supported", 2, 24, "^ 2");
}

// ----- several errors, and the rendered report -----

#[test]
fn three_independent_errors_are_all_reported() {
    // An undeclared relation, an unbound comparison variable and a use of
    // `candidate`, each on its own line: three diagnostics, in file order.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), nope(C).\nfoo(C) :- cell(C), digit(D), X > D.\nfoo(C) :- candidate(C, 2).\n";
    let all = all_errors(text);
    assert_eq!(all.len(), 3, "{all:#?}");
    assert!(all[0].message.contains("undeclared relation `nope`"));
    assert_eq!((all[0].line, all[0].col), (2, 20));
    assert!(
        all[1]
            .message
            .contains("variable `X` in a comparison is not bound")
    );
    assert_eq!((all[1].line, all[1].col), (3, 30));
    assert!(all[2].message.contains("rules cannot use `candidate`"));
    assert_eq!((all[2].line, all[2].col), (4, 11));
    assert!(all.iter().all(|f| !f.help.trim().is_empty()));
}

#[test]
fn three_independent_syntax_errors_are_all_reported() {
    // A missing `.`, a stray character and an unterminated string: the
    // parser recovers after each and reports all three.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C)\nfoo(C) :- cell(C), #.\nfoo(C) :- in_unit(C, U), unit_kind(U, \"box).\n";
    let all = all_errors(text);
    assert_eq!(all.len(), 3, "{all:#?}");
    assert!(
        all[0]
            .message
            .contains("expected `.` at the end of the rule")
    );
    assert_eq!((all[0].line, all[0].col), (2, 18));
    assert!(all[1].message.contains("unexpected character `#`"));
    assert_eq!((all[1].line, all[1].col), (3, 20));
    assert!(all[2].message.contains("unterminated string"));
    assert_eq!((all[2].line, all[2].col), (4, 39));
    assert!(all.iter().all(|f| !f.help.trim().is_empty()));
}

#[test]
fn render_shows_file_line_source_caret_and_help() {
    // The full report names file:line:col, quotes the offending line,
    // underlines the name with carets and ends with the help and a count.
    let text = ".decl foo(c: cell)\nfoo(C) :- cell(C), bar(C).\n";
    let d = diagnostics(text);
    let out = d.render();
    assert!(out.contains("user.dl:2:20"), "{out}");
    assert!(out.contains("undeclared relation `bar`"), "{out}");
    assert!(out.contains("foo(C) :- cell(C), bar(C)."), "{out}");
    assert!(out.contains("^^^"), "{out}");
    assert!(out.contains("help:"), "{out}");
    assert!(out.contains("1 error"), "{out}");
    // The caret line puts the first `^` under the `b` of `bar`.
    let source_line = out
        .lines()
        .find(|l| l.contains("foo(C) :- cell(C), bar(C)."))
        .expect("source line");
    let caret_line = out.lines().find(|l| l.contains('^')).expect("caret line");
    let col_of = |l: &str, pat: &str| l.find(pat).map(|b| l[..b].chars().count());
    assert_eq!(
        col_of(caret_line, "^"),
        col_of(source_line, "bar(C)"),
        "{out}"
    );
    // Display is the same full report.
    assert_eq!(format!("{d}"), out);
}

#[test]
fn render_reports_every_error() {
    // Two errors in two places: both locations and both lines appear.
    let text = "given(C, 1) :- cell(C).\n.decl foo(c: cell)\nfoo(C) :- cell(C), nope(C).\n";
    let d = diagnostics(text);
    assert_eq!(d.items.len(), 2, "{}", d.short());
    let out = d.render();
    assert!(out.contains("user.dl:1:1"), "{out}");
    assert!(out.contains("user.dl:3:20"), "{out}");
    assert!(out.contains("given(C, 1) :- cell(C)."), "{out}");
    assert!(out.contains("foo(C) :- cell(C), nope(C)."), "{out}");
    assert_eq!(out.matches("help:").count(), 2, "{out}");
    assert!(out.contains("2 errors"), "{out}");
}

// ----- sets -----

#[test]
fn a_set_of_a_variable_its_body_does_not_bind() {
    let text = ".decl s(m: number)\ns(M) :- digit(D), M = set X : { digit(D) }.\n";
    let f = expect_error(
        text,
        "the set collects `X`, which its body does not bind",
        2,
        19,
        "M = set X",
    );
    assert!(f.help.contains("inside the braces"), "{}", f.help);
}

#[test]
fn a_set_compared_with_a_bound_value() {
    // A set over the state grows: "equals this set" could stop holding.
    let text = ".decl s(c: cell)\ns(C) :- cell(C), digit(M), M = set E : { eliminated(C, E) }.\n";
    let f = expect_error(
        text,
        "a set must be given to a new variable",
        2,
        28,
        "M = set E",
    );
    assert!(f.help.contains("S = set X"), "{}", f.help);
}

#[test]
fn a_set_of_cells_is_a_type_error() {
    // Sets hold numbers (bit x for member x): a cell is not one.
    let errors = all_errors(".decl s(m: number)\ns(M) :- M = set C : { cell(C) }.\n");
    assert!(!errors.is_empty());
    assert!(
        errors.iter().any(|e| e.message.contains("cell")),
        "{errors:#?}"
    );
}

#[test]
fn a_set_member_beyond_the_bitmask() {
    // Sets are bitmasks with a bit per member: 40 has no bit.
    let f = expect_error(
        ".decl foo(d: digit)\nfoo(D) :- digit(D), in_set(D, {1, 40}).\n",
        "a set cannot hold 40",
        2,
        31,
        "{1, 40}",
    );
    assert!(f.help.contains("1 to 30"), "{}", f.help);
    // `in_set` reads bits 1 to 30: a member 0 could never be read back.
    expect_error(
        ".decl foo(d: digit)\nfoo(D) :- digit(D), in_set(D, {0, 2}).\n",
        "a set cannot hold 0",
        2,
        31,
        "{0, 2}",
    );
}
