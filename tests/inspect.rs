//! Inspecting derived facts: facts, query, explain, trace, SQLite export.
//! Expected answers are computed here from the givens, independently.

use crate::common;

use common::{cell_name, json_lines};
use std::collections::BTreeSet;

const ESSAY_1: &str =
    "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
const ESSAY_3: &str =
    ".3....4.5...........7....1....79.5....6.5.8..2...4..73...92...7.4.3..9.....1.6...";
/// The first line of `tdoku_forum_hardest_1106.txt` (the forum's
/// HardestDatabase110626 list, via tdoku and balmerdx/sudoku_pytorch).
const HARDEST: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

/// Runs sudolog with the grid and singles tiers only: these tests are about
/// provenance, and need the third puzzle to take guesses.
fn sudolog(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = common::sudolog()
        .args(args)
        .args(["--max-tier", "1"])
        .write_stdin(stdin.to_string())
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// Pencil marks from the givens alone: a given cell keeps its digit, an
/// empty cell every digit no given of its row, column or box holds.
fn pencil_marks(puzzle: &str) -> BTreeSet<(String, u8)> {
    let g: Vec<u8> = puzzle
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let sees = |a: usize, b: usize| {
        a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
    };
    let mut out = BTreeSet::new();
    for c in 0..81 {
        for d in 1..=9u8 {
            let ok = if g[c] != 0 {
                g[c] == d
            } else {
                (0..81).all(|o| !(sees(c, o) && g[o] == d))
            };
            if ok {
                out.insert((cell_name(c), d));
            }
        }
    }
    out
}

/// The step just before the first placement by a rule other than "givens
/// are placed": when the givens' eliminations are complete.
fn step_before_first_technique() -> u32 {
    let (_, out, _) = sudolog(
        &["facts", "-", "--relation", "placed", "--format", "json"],
        ESSAY_1,
    );
    let first = json_lines(&out)
        .iter()
        .filter(|f| f["rule"] != "rules/grid.dl:16")
        .map(|f| f["step"].as_u64().expect("the step, a number") as u32)
        .min()
        .expect("some technique placed a digit");
    first - 1
}

#[test]
fn candidates_at_the_step_before_any_technique_are_the_givens_pencil_marks() {
    let at = step_before_first_technique().to_string();
    let (code, out, _) = sudolog(
        &[
            "facts",
            "-",
            "--relation",
            "candidate",
            "--at",
            &at,
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!(code, 0);
    let got: BTreeSet<(String, u8)> = out
        .lines()
        .map(|l| {
            let (c, d) = l.split_once('\t').expect("two columns");
            (c.to_string(), d.parse().expect("digit"))
        })
        .collect();
    assert_eq!(got, pencil_marks(ESSAY_1));
}

#[test]
fn a_query_answers_like_an_independent_computation() {
    let at = step_before_first_technique().to_string();
    let (code, out, _) = sudolog(
        &[
            "query",
            "-",
            "candidate(C, 5), in_unit(C, U), unit_kind(U, \"box\")",
            "--at",
            &at,
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!(code, 0);
    let got: BTreeSet<String> = out.lines().map(String::from).collect();
    let want: BTreeSet<String> = pencil_marks(ESSAY_1)
        .into_iter()
        .filter(|(_, d)| *d == 5)
        .map(|(c, _)| {
            let (r, k) = c[1..].split_once('c').expect("r?c?");
            let (r, k): (usize, usize) = (r.parse().expect("row"), k.parse().expect("col"));
            format!("{c}\tbox{}", (r - 1) / 3 * 3 + (k - 1) / 3 + 1)
        })
        .collect();
    assert_eq!(got, want);
    // The table format has the variables as columns.
    let (_, table, _) = sudolog(&["query", "-", "placed(C, 5), box(C, B)"], ESSAY_1);
    assert!(table.starts_with("C "), "{table}");
    assert!(table.contains("B"));
    // A query without variables asks whether it holds: r1c2's 4 is given,
    // its 5 is not there.
    let (code, out, _) = sudolog(&["query", "-", "placed(r1c2, 4)"], ESSAY_1);
    assert_eq!((code, out.as_str()), (0, "true\n"));
    let (code, out, _) = sudolog(&["query", "-", "placed(r1c2, 5)"], ESSAY_1);
    assert_eq!((code, out.as_str()), (1, "false\n"));
    // A unit is named as the tables print it: `box1` is that box, not a
    // variable over every unit.
    let (code, out, _) = sudolog(
        &[
            "query",
            "-",
            "in_unit(C, box1), placed(C, 4)",
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!((code, out.as_str()), (0, "r1c2\n"));
    // `explain` reads a unit constant and prints it as written.
    let (code, out, _) = sudolog(&["explain", "-", "full_unit(box1)"], ESSAY_1);
    assert_eq!(code, 0);
    assert!(out.starts_with("full_unit(box1) — "), "{out}");
    // And a set as the tables print it.
    let (code, out, _) = sudolog(
        &[
            "query",
            "-",
            "digit_set({2,7}, K), in_set(D, {2,7})",
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!((code, out.as_str()), (0, "2\t2\n2\t7\n"));
}

#[test]
fn a_query_with_a_guard_sees_the_state_at_its_step() {
    // `unless placed(C, _)` at the step before any technique: the open
    // cells are exactly the puzzle's empty ones (the givens are placed).
    let at = step_before_first_technique().to_string();
    let (code, out, _) = sudolog(
        &[
            "query",
            "-",
            "cell(C), unless placed(C, _)",
            "--at",
            &at,
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!(code, 0);
    let got: BTreeSet<String> = out.lines().map(String::from).collect();
    let want: BTreeSet<String> = ESSAY_1
        .chars()
        .enumerate()
        .filter(|(_, ch)| *ch == '.')
        .map(|(i, _)| cell_name(i))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_bad_query_is_reported_with_its_location() {
    let (code, _, err) = sudolog(&["query", "-", "candidat(C, 5)"], ESSAY_1);
    assert_eq!(code, 2);
    assert!(err.contains("undeclared relation `candidat`"), "{err}");
    assert!(err.contains("query:1:1"), "{err}");
}

fn leaves(node: &serde_json::Value, out: &mut Vec<String>) {
    match node["children"].as_array() {
        Some(children) => {
            for c in children {
                leaves(c, out);
            }
        }
        None => out.push(node["kind"].as_str().expect("kind").to_string()),
    }
}

#[test]
fn explaining_every_non_given_cell_reaches_only_givens() {
    let mut checked = 0;
    for (cell, ch) in ESSAY_1.chars().enumerate() {
        if ch != '.' {
            continue;
        }
        let (code, out, err) = sudolog(
            &["explain", "-", &cell_name(cell), "--format", "json"],
            ESSAY_1,
        );
        assert_eq!(code, 0, "{err}");
        let tree: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON tree");
        assert_eq!(tree["kind"], "derived", "{}", cell_name(cell));
        let mut kinds = Vec::new();
        leaves(&tree, &mut kinds);
        // A leaf is a given, or a fact already explained higher up.
        assert!(
            kinds.iter().all(|k| k == "given" || k == "seen"),
            "{}: {kinds:?}",
            cell_name(cell)
        );
        assert!(kinds.iter().any(|k| k == "given"));
        checked += 1;
    }
    assert_eq!(checked, ESSAY_1.matches('.').count());
}

#[test]
fn an_explanation_in_full() {
    // r1c3 loses 1 because r1c1 holds the given 1 and sees it.
    let (code, out, _) = sudolog(&["explain", "-", "eliminated(r1c3, 1)"], ESSAY_1);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "eliminated(r1c3, 1) — A placed digit rules itself out of every cell that sees its cell. [rules/grid.dl:22, step 2]\n  placed(r1c1, 1) — a given\n"
    );
    // A placement one level deep: the rule's words name the cell and digit.
    let (_, tree, _) = sudolog(&["explain", "-", "r1c3", "--depth", "1"], ESSAY_1);
    let first = tree.lines().next().expect("a line");
    assert!(first.starts_with("placed(r1c3, 7) — "), "{first}");
    assert!(
        first.contains("7") && first.contains("r1c3") && first.contains("[rules/singles.dl:"),
        "{first}"
    );
    // Every child is an eliminated fact of the rule's body.
    assert!(
        tree.lines()
            .skip(1)
            .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
            .all(|l| l.trim_start().starts_with("eliminated("))
    );
}

#[test]
fn explanations_and_traces_after_guesses_show_the_branch_path() {
    let (code, trace, _) = sudolog(&["solve", "--trace", "-"], ESSAY_3);
    assert_eq!(code, 0);
    assert!(trace.contains("# guess r1c5 = "), "{trace}");
    assert!(
        trace.contains("; backtrack"),
        "the third puzzle backtracks at least once"
    );
    assert!(trace.contains("# step 1: grid [rules/grid.dl:16]: placed 3 in r1c2"));
    // A cell filled after the guesses is explained with the path.
    let (_, facts, _) = sudolog(
        &["facts", "-", "--relation", "placed", "--format", "json"],
        ESSAY_3,
    );
    let rows = json_lines(&facts);
    let guessed: Vec<&serde_json::Value> = rows.iter().filter(|f| f["rule"] == "a guess").collect();
    assert!(!guessed.is_empty());
    let late = rows
        .iter()
        .filter(|f| f["rule"] != "a guess" && f["branch"] != "0")
        .max_by_key(|f| f["step"].as_str().and_then(|s| s.parse::<u32>().ok()))
        .expect("a fact derived after a guess");
    let cell = late["c"].as_str().expect("cell");
    let (_, why, _) = sudolog(&["explain", "-", cell], ESSAY_3);
    // The guesses come once, first, each with the candidates it was chosen
    // from and what became of the others; the tree's lines refer to them.
    let mut lines = why.lines();
    assert!(
        lines
            .next()
            .expect("line")
            .starts_with("Guesses on the path"),
        "{why}"
    );
    let first = lines.next().expect("the first guess");
    assert!(
        first.starts_with("  1. r1c5=") && first.contains("chosen from {"),
        "{why}"
    );
    assert_eq!(why.matches("1. r1c5=").count(), 1, "{why}");
    assert!(!why.contains("after guessing"), "{why}");
    assert!(why.contains(", after guess "), "{why}");
    assert!(why.contains(" (see the guesses above)"), "{why}");
}

#[test]
fn explain_says_what_became_of_the_other_candidates_of_a_guess() {
    // The third essay puzzle backtracks: some guess of the solution's path
    // comes after a refuted candidate, and its JSON says so.
    let (_, facts, _) = sudolog(
        &["facts", "-", "--relation", "placed", "--format", "json"],
        ESSAY_3,
    );
    let rows = json_lines(&facts);
    let last = rows
        .iter()
        .filter(|f| f["rule"] != "a guess")
        .max_by_key(|f| f["step"].as_u64())
        .expect("a derived fact");
    let cell = last["c"].as_str().expect("cell");
    let (code, out, _) = sudolog(&["explain", "-", cell, "--format", "json"], ESSAY_3);
    assert_eq!(code, 0);
    let tree: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    let guesses = tree["guesses"].as_array().expect("guesses");
    assert!(!guesses.is_empty(), "{out}");
    for (i, g) in guesses.iter().enumerate() {
        assert_eq!(g["depth"].as_u64(), Some(i as u64 + 1));
        let options = common::json_strings(&g["options"]);
        let digit = g["digit"].as_str().expect("digit");
        let at = options
            .iter()
            .position(|&d| d == digit)
            .expect("chosen from its options");
        // Options before the chosen one were refuted, those after not tried.
        let refuted = g["refuted"].as_array().expect("refuted");
        assert_eq!(refuted.len(), at, "{g}");
        assert!(refuted.iter().all(|r| r["branches"].as_u64() >= Some(1)));
        assert_eq!(
            g["untried"].as_array().expect("untried").len(),
            options.len() - at - 1
        );
    }
    assert!(
        guesses
            .iter()
            .any(|g| !g["refuted"].as_array().expect("refuted").is_empty()),
        "the essay's third puzzle backtracks on its solution's path: {out}"
    );
    assert!(tree["branch"].as_u64() >= Some(1), "{out}");
}

#[test]
fn facts_filter_by_relation_rule_and_step() {
    let (code, out, _) = sudolog(
        &[
            "facts",
            "-",
            "--relation",
            "placed",
            "--rule",
            "singles",
            "--format",
            "csv",
        ],
        ESSAY_1,
    );
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("c,d,rule,step,branch"));
    let rows: Vec<&str> = lines.collect();
    // 81 cells minus the givens were placed by the singles.
    assert_eq!(rows.len(), ESSAY_1.matches('.').count());
    assert!(rows.iter().all(|r| r.contains("rules/singles.dl:")));
    // TSV has exactly the relation's columns, as a Soufflé .facts file.
    let (_, tsv, _) = sudolog(
        &["facts", "-", "--relation", "peer", "--format", "tsv"],
        ESSAY_1,
    );
    assert_eq!(tsv.lines().count(), 81 * 20);
    assert!(tsv.lines().all(|l| l.split('\t').count() == 2));
    // Before any step only static facts and nothing placed.
    let (_, early, _) = sudolog(
        &[
            "facts",
            "-",
            "--relation",
            "placed",
            "--at",
            "0",
            "--format",
            "tsv",
        ],
        ESSAY_1,
    );
    assert_eq!(early, "");
    // An unknown relation is a clear error.
    let (code, _, err) = sudolog(&["facts", "-", "--relation", "nope"], ESSAY_1);
    assert_eq!(code, 2);
    assert!(err.contains("no relation `nope`"));
}

#[test]
fn the_sqlite_export_answers_sql() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("facts.db");
    let (code, _, err) = sudolog(
        &["facts", "-", "--sqlite", db.to_str().expect("utf-8 path")],
        ESSAY_1,
    );
    assert_eq!(code, 0, "{err}");
    let conn = rusqlite::Connection::open(&db).expect("opens");
    let placed: i64 = sql_value(&conn, "SELECT count(*) FROM placed");
    assert_eq!(placed, 81);
    let by_singles: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM placed p JOIN rules r ON p.rule = r.name WHERE r.technique = 'singles'",
    );
    assert_eq!(by_singles as usize, ESSAY_1.matches('.').count());
    // Digits are integers in every table; `digits` has their symbols.
    let r1c3: i64 = sql_value(&conn, "SELECT d FROM placed WHERE c = 'r1c3'");
    assert_eq!(r1c3, 7);
    let typed: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM candidate WHERE typeof(d) != 'integer'",
    );
    assert_eq!(typed, 0);
    let symbol: String = sql_value(&conn, "SELECT symbol FROM digits WHERE digit = 7");
    assert_eq!(symbol, "7");
    // The puzzle: its givens and the grid the facts reach.
    let (givens, reached, guesses): (String, String, i64) = conn
        .query_row("SELECT givens, reached, guesses FROM puzzle", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .expect("query");
    assert_eq!(givens, ESSAY_1.trim());
    assert!(!reached.contains('.') && guesses == 0, "{reached}");
    let branches: i64 = sql_value(&conn, "SELECT count(*) FROM branches");
    assert_eq!(branches, 1);
}

#[test]
fn the_sqlite_export_has_the_guesses_of_the_solution_path() {
    // A puzzle the default tiers solve only by guessing (the first of the
    // diabolical set): each guess is a branch, and the facts' `branch`
    // columns point at them.
    let hard =
        ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("facts.db");
    let out = common::sudolog()
        .args(["facts", "-", "--sqlite", db.to_str().expect("utf-8 path")])
        .write_stdin(hard)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let conn = rusqlite::Connection::open(&db).expect("opens");
    let guesses: i64 = sql_value(&conn, "SELECT guesses FROM puzzle");
    assert!(guesses > 0);
    let listed: i64 = sql_value(&conn, "SELECT count(*) FROM guesses");
    assert_eq!(listed, guesses);
    // Every guess is a placement on its own branch, at its step.
    let matched: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM guesses g JOIN placed p \
             ON p.c = g.cell AND p.d = g.digit AND p.branch = g.depth AND p.step = g.step \
             AND p.rule = 'a guess'",
    );
    assert_eq!(matched, guesses);
    // Each guess names the candidates it was chosen from, and the set of
    // those tried before it and refuted is a part of them.
    let described: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM guesses WHERE options LIKE '{%}' AND refuted LIKE '{%}' \
             AND length(options) > length(refuted)",
    );
    assert_eq!(described, guesses);
    let orphans: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM placed WHERE branch NOT IN (SELECT branch FROM branches)",
    );
    assert_eq!(orphans, 0);
}

#[test]
fn inspecting_a_puzzle_without_one_solution_says_so() {
    // Issue 14, item 12: facts, query and explain showed the facts of a
    // puzzle with no solution, or several, without a word.
    let run = |args: &[&str], stdin: &str| sudolog(args, stdin).2;
    let empty = "................\n";
    for args in [
        &["facts", "--relation", "placed", "-"][..],
        &["query", "-", "placed(C, 1)"][..],
    ] {
        let stderr = run(args, empty);
        assert!(
            stderr.contains("has several solutions"),
            "{args:?}: {stderr}"
        );
    }
    let no_solution = std::fs::read_to_string("tests/data/no_solution.txt").expect("the file");
    let first = no_solution.lines().next().expect("a puzzle");
    let stderr = run(
        &["facts", "--relation", "placed", "-"],
        &format!("{first}\n"),
    );
    assert!(stderr.contains("has no solution"), "{stderr}");
    let stderr = run(
        &["facts", "--relation", "placed", "tests/data/essay.txt"],
        "",
    );
    assert!(!stderr.contains("note:"), "{stderr}");
}

#[test]
fn facts_that_forcing_brought_back_are_selected_by_its_name() {
    // The essay's third puzzle: forcing takes three candidates from it
    // where every tier stalls.
    let out = common::sudolog()
        .args([
            "facts",
            "--logic-only",
            "--relation",
            "eliminated",
            "--puzzle",
            "3",
        ])
        .args([
            "--rule",
            "forcing",
            "--format",
            "csv",
            "tests/data/essay.txt",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert!(!rows.is_empty(), "{stdout}");
    assert!(rows.iter().all(|r| r.contains(",forcing,")), "{stdout}");
}

#[test]
fn explain_says_when_a_cell_or_digit_is_off_the_grid() {
    for (what, message) in [
        ("r10c1", "`r10c1` is not a cell of this 9x9 grid"),
        ("R0C3", "`R0C3` is not a cell of this 9x9 grid"),
        ("placed(r10c1, 1)", "r10c1 is not a cell of this 9x9 grid"),
        ("eliminated(r1c1, 10)", "10 is not a digit of this 9x9 grid"),
    ] {
        let (code, stdout, stderr) = sudolog(&["explain", "-", what], ESSAY_1);
        assert_eq!(code, 2, "{what}: {stderr}");
        assert!(stdout.is_empty(), "{what}: {stdout}");
        assert!(stderr.contains(message), "{what}: {stderr}");
    }
}

#[test]
fn a_selector_that_selects_nothing_is_an_error() {
    // Each of these used to print nothing (or everything) with exit 0.
    let cases: [(&[&str], &str); 4] = [
        (
            &["facts", "--rule", "singlez", "-"],
            "no rule or technique `singlez` in the rule set",
        ),
        (
            &["facts", "--puzzle", "0", "-"],
            "puzzles are numbered from 1",
        ),
        (
            &["explain", "--puzzle", "0", "r1c3", "-"],
            "puzzles are numbered from 1",
        ),
        (
            &["facts", "--sqlite", "out.db", "--relation", "placed", "-"],
            "cannot be used with",
        ),
    ];
    for (args, message) in cases {
        let (code, stdout, stderr) = sudolog(args, ESSAY_1);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // `sudolog` above caps the tier at 1; a cap above every tier is a typo.
    let on_essay = |args: &[&str]| {
        common::sudolog()
            .args(args)
            .write_stdin(ESSAY_1)
            .output()
            .expect("runs")
    };
    let out = on_essay(&["solve", "--max-tier", "99", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--max-tier 99: the rule set's tiers go up to ")
            && stderr.contains("`--max-tier all` selects every tier"),
        "{stderr}"
    );
    // Forcing's forks run no tier the solve does not: a fork tier above
    // the command's is refused in every command that forces, not taken
    // as every tier.
    for args in [
        &["solve", "--forcing-tier", "5", "-"][..],
        &["grade", "--forcing-tier", "99", "-"],
        &["hint", "--forcing-tier", "99", "-"],
        &["path", "--forcing-tier", "99", "-"],
        &["explain", "--forcing-tier", "5", "-", "r1c1"],
    ] {
        let out = on_essay(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("the rules this command runs go up to tier"),
            "{args:?}: {stderr}"
        );
    }
    let out = on_essay(&["solve", "--max-tier", "5", "--forcing-tier", "5", "-"]);
    assert_eq!(out.status.code(), Some(0));
    // A run that never forces has no fork tier to refuse.
    for args in [
        &["solve", "--no-forcing", "--forcing-tier", "5", "-"][..],
        &["grade", "--forcing-depth", "0", "--forcing-tier", "99", "-"],
    ] {
        assert_eq!(on_essay(args).status.code(), Some(0), "{args:?}");
    }
    // `all` is every tier, whatever the library's highest; anything else
    // that is no number is refused by name.
    let out = on_essay(&["solve", "--max-tier", "all", "--format", "line", "-"]);
    assert_eq!(out.status.code(), Some(0));
    let out = on_essay(&["solve", "--max-tier", "every", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`every` is no tier"), "{stderr}");
    // Names that do select: a technique, a rule's place, the highest tier.
    let (code, stdout, _) = sudolog(
        &["facts", "--relation", "placed", "--rule", "singles", "-"],
        ESSAY_1,
    );
    assert_eq!(
        (code, stdout.contains("rules/singles.dl:")),
        (0, true),
        "{stdout}"
    );
    let out = common::sudolog()
        .args(["solve", "--max-tier", "7", "--format", "line", "-"])
        .write_stdin(ESSAY_1)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn inspection_runs_the_solve_that_solve_would_run() {
    // The essay's second puzzle needs a naked subset, above solve's default
    // tiers: inspected like `solve` runs it, it takes a guess; with every
    // tier, none.
    let essay = common::read_repo_file("tests/data/essay.txt");
    let run = |extra: &[&str]| {
        let out = common::sudolog()
            .args([
                "facts",
                "--puzzle",
                "2",
                "--relation",
                "placed",
                "--rule",
                "a guess",
            ])
            .args(extra)
            .arg("-")
            .write_stdin(essay.clone())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert!(run(&[]).contains("a guess"), "{}", run(&[]));
    assert!(!run(&["--max-tier", "7"]).contains("a guess"));
    // The search's limits apply too, and say what they did.
    let explain_stderr = |extra: &[&str]| {
        let out = common::sudolog()
            .args(["explain", "--puzzle", "3", "--max-branches", "1"])
            .args(extra)
            .args(["-", "r1c1"])
            .write_stdin(essay.clone())
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = explain_stderr(&[]);
    assert!(
        stderr.contains("the branch limit (--max-branches) stopped the search"),
        "{stderr}"
    );
    // Where the limit leaves a state to inspect, a note says what it is.
    let stderr = explain_stderr(&["--no-forcing"]);
    assert!(
        stderr.contains("stopped by the branch limit (--max-branches)")
            && !stderr.contains("error:"),
        "{stderr}"
    );
}

#[test]
fn json_numbers_are_numbers() {
    let (_, placed, _) = sudolog(
        &["facts", "-", "--relation", "placed", "--format", "json"],
        ESSAY_1,
    );
    let rows = json_lines(&placed);
    assert!(
        rows.iter()
            .all(|r| r["step"].is_u64() && r["branch"].is_u64())
    );
    // Static facts have no step or branch; `number` columns are numbers,
    // `set` columns arrays of numbers.
    let (_, sets, _) = sudolog(
        &["facts", "-", "--relation", "digit_set", "--format", "json"],
        ESSAY_1,
    );
    let first = &json_lines(&sets)[0];
    assert!(
        first["step"].is_null() && first["branch"].is_null(),
        "{first}"
    );
    assert!(first["k"].is_u64() && first["s"].is_array(), "{first}");
    let members = first["s"].as_array().map_or(0, Vec::len) as u64;
    assert_eq!(Some(members), first["k"].as_u64(), "{first}");
    // Cells and digits stay text (`r3c5`, a digit's symbol).
    assert!(rows[0]["c"].is_string() && rows[0]["d"].is_string());
    let (_, answers, _) = sudolog(
        &[
            "query",
            "-",
            "placed(C, D), digit_set(S, 2), in_set(D, S)",
            "--format",
            "json",
        ],
        ESSAY_1,
    );
    let first = &json_lines(&answers)[0];
    assert!(
        first["S"].as_array().is_some_and(|s| s.len() == 2) && first["C"].is_string(),
        "{first}"
    );
    // A solved puzzle's statistics count its eliminations: 81 cells with
    // 8 digits gone each.
    let (_, solved, _) = sudolog(&["solve", "-", "--format", "json"], ESSAY_1);
    assert_eq!(json_lines(&solved)[0]["stats"]["eliminated"], 648);
}

#[test]
fn the_candidate_view_has_no_provenance() {
    // Open digits were derived by no rule: no `static` rule, step or branch.
    let args = [
        "facts",
        "-",
        "--logic-only",
        "--no-forcing",
        "--relation",
        "candidate",
    ];
    let (_, table, _) = sudolog(&args, ESSAY_3);
    assert_eq!(
        table
            .lines()
            .next()
            .map(str::split_whitespace)
            .map(Iterator::collect::<Vec<_>>),
        Some(vec!["c", "d"])
    );
    let (_, json, _) = sudolog(&[&args[..], &["--format", "json"]].concat(), ESSAY_3);
    let rows = json_lines(&json);
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r.as_object().is_some_and(|o| o.len() == 2)),
        "{json}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("facts.db");
    let path = db.to_str().expect("utf-8 path");
    let (code, _, err) = sudolog(
        &[
            "facts",
            "-",
            "--logic-only",
            "--no-forcing",
            "--sqlite",
            path,
        ],
        ESSAY_3,
    );
    assert_eq!(code, 0, "{err}");
    let conn = rusqlite::Connection::open(&db).expect("opens");
    let with_rule: i64 = sql_value(
        &conn,
        "SELECT count(*) FROM candidate WHERE rule IS NOT NULL",
    );
    assert_eq!(with_rule, 0);
}

#[test]
fn helper_facts_are_explained_in_the_words_of_their_declaration() {
    // The colour trap of tests/single_digit.rs's example: its helper facts
    // (`sees_tint`, `tint`) come from rules without a comment of their own,
    // so they are told by their relations' comments, with the values in.
    let trap =
        "..2.8....34..5.9..8....1.5...71.3....3.....4.....6....67.9..8...9..4...6...5....1\n";
    let run = common::sudolog()
        .args([
            "explain",
            "--techniques",
            "singles,single_digit",
            "-",
            "eliminated(r8c7, 7)",
        ])
        .write_stdin(trap)
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(
        out.contains("sees a cell of colour") && out.contains("has colour"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("tint(7, ") && l.contains("counting from r")),
        "{out}"
    );
    assert!(!out.contains("(no comment)"), "{out}");
}

#[test]
fn a_long_inspection_prints_nothing_but_its_answer_into_a_pipe() {
    // The spinner of a long solve (the hardest forum puzzle with every
    // tier) shows only on a terminal; its drawing is unit-tested in
    // src/cli/progress.rs.
    let out = common::sudolog()
        .args(["explain", "-", "r1c1", "--max-tier", "7"])
        .write_stdin(HARDEST)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Guesses on the path"));
}

/// The one value a SQL query over an export answers (a count, a column).
fn sql_value<T: rusqlite::types::FromSql>(conn: &rusqlite::Connection, sql: &str) -> T {
    conn.query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}
