//! The command line, end to end: formats, exit codes, rule-set options,
//! bad input in a batch.

use crate::common;

use common::{ESSAY_1, ESSAY_1_SOLUTION, ESSAY_2, json_lines, stdout_of, sudolog};
use predicates::prelude::*;
use std::fs;

#[test]
fn singles_solve_the_first_essay_puzzle_exactly() {
    sudolog()
        .args(["solve", "--format", "line", "-"])
        .write_stdin(format!("{ESSAY_1}\n"))
        .assert()
        .success()
        .stdout(format!("{ESSAY_1_SOLUTION}\n"));
}

#[test]
fn line_format_gives_one_line_per_puzzle_and_stalls_say_why() {
    let out = sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            "tests/data/essay.txt",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], ESSAY_1_SOLUTION);
    for (line, number) in [(lines[1], 2), (lines[2], 3)] {
        assert!(line.starts_with("# stalled"), "{line}");
        assert!(
            line.contains(&format!("tests/data/essay.txt:{number}")),
            "{line}"
        );
        // The partial grid ends the line and keeps the givens.
        let partial = line.rsplit(' ').next().expect("a partial grid");
        assert_eq!(partial.len(), 81);
    }
    let partial = lines[1].rsplit(' ').next().expect("partial");
    for (p, g) in partial.chars().zip(ESSAY_2.chars()) {
        if g != '.' {
            assert_eq!(p, g, "a given is kept in the partial grid");
        }
    }
}

#[test]
fn grid_format_shows_pencil_marks_for_a_stall_and_reads_back() {
    let out = stdout_of(sudolog().args([
        "solve",
        "--logic-only",
        "--no-forcing",
        "tests/data/essay.txt",
    ]));
    assert!(out.contains("# puzzle 1 (tests/data/essay.txt:1): solved"));
    assert!(out.contains("1 4 7 | 2 5 3 | 6 9 8"));
    assert!(out.contains("# puzzle 2 (tests/data/essay.txt:2): stalled"));
    assert!(out.contains("# candidates of the open cells:"));
    // r1c1 of the second puzzle keeps 2, 5 and 9 as candidates.
    assert!(out.contains("#   259 "), "{out}");
    // Everything sudolog prints in grid format reads back as puzzles: the
    // solved grid, and the partial grids of the stalls.
    let again = sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            "-",
        ])
        .write_stdin(out)
        .output()
        .expect("runs");
    let again = String::from_utf8(again.stdout).expect("utf-8");
    let lines: Vec<&str> = again.lines().collect();
    assert_eq!(lines.len(), 3, "{again}");
    assert_eq!(lines[0], ESSAY_1_SOLUTION);
    assert!(lines[1].starts_with("# stalled"));
}

#[test]
fn grid_layout_input_is_read() {
    sudolog()
        .args(["solve", "--format", "line", "tests/data/grid_layout.txt"])
        .assert()
        .success()
        .stdout(format!("{ESSAY_1_SOLUTION}\n"));
}

#[test]
fn json_format_has_one_object_per_puzzle() {
    let out = stdout_of(sudolog().args([
        "solve",
        "--logic-only",
        "--no-forcing",
        "--format",
        "json",
        "tests/data/essay.txt",
    ]));
    let objects = json_lines(&out);
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["status"], "solved");
    assert_eq!(objects[0]["solution"], ESSAY_1_SOLUTION);
    assert_eq!(objects[0]["index"], 1);
    assert!(objects[0]["stats"]["steps"].as_u64().expect("steps") > 0);
    assert!(
        !objects[0]["stats"]["firings"]
            .as_array()
            .expect("firings")
            .is_empty()
    );
    assert_eq!(objects[1]["status"], "stalled");
    assert_eq!(objects[1]["candidates"]["r1c1"], "259");
    assert_eq!(objects[2]["line"], 3);
}

#[test]
fn bad_puzzles_get_one_error_each_and_the_others_are_solved() {
    let out = sudolog()
        .args(["solve", "--format", "line", "tests/data/bad_puzzles.txt"])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("utf-8");
    let expected = fs::read_to_string("tests/data/bad_puzzles.expected").expect("expected file");
    let lines: Vec<&str> = out.lines().collect();
    let wanted: Vec<&str> = expected.lines().collect();
    assert_eq!(lines.len(), wanted.len(), "one result per puzzle:\n{out}");
    for (got, want) in lines.iter().zip(&wanted) {
        if *want == "ok" {
            assert!(!got.starts_with("# invalid"), "{got}");
        } else {
            assert_eq!(*got, format!("# invalid: {want}"));
        }
    }
}

#[test]
fn an_unreadable_file_is_one_error_and_the_next_file_is_still_solved() {
    let out = sudolog()
        .args([
            "solve",
            "--format",
            "line",
            "tests/data/no_such_file.txt",
            "tests/data/x4.txt",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tests/data/no_such_file.txt"))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("# invalid: tests/data/no_such_file.txt"));
    assert_eq!(lines[1].len(), 16);
}

#[test]
fn a_4x4_puzzle_solves() {
    let out = stdout_of(sudolog().args(["solve", "--format", "line", "tests/data/x4.txt"]));
    let solution = out.trim();
    assert_eq!(solution.len(), 16);
    for (s, g) in solution.chars().zip("1..4.........32.".chars()) {
        if g != '.' {
            assert_eq!(s, g);
        }
    }
}

#[test]
fn a_rule_file_added_with_rules_add_turns_sudolog_into_an_x_sudoku_solver() {
    let solution = fs::read_to_string("tests/data/x_sudoku.solution.txt").expect("solution");
    // With the standard rules alone the puzzle stalls ...
    sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            "tests/data/x_sudoku.txt",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("# stalled"));
    // ... and with the diagonals declared as units it is solved.
    sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            "--rules-add",
            "tests/data/rules/x_sudoku.dl",
            "tests/data/x_sudoku.txt",
        ])
        .assert()
        .success()
        .stdout(solution);
}

#[test]
fn rules_dir_replaces_the_standard_library() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Only the grid's meaning, no singles: nothing gets placed but givens.
    fs::write(dir.path().join("grid.dl"), include_str!("../rules/grid.dl")).expect("write");
    sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            "--rules",
        ])
        .arg(dir.path())
        .arg("-")
        .write_stdin(format!("{ESSAY_1}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("# stalled"));
}

#[test]
fn check_lists_relations_and_rules() {
    sudolog()
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains("peer(a: cell, b: cell)"))
        .stdout(predicate::str::contains("rules/singles.dl:"))
        .stdout(predicate::str::contains("Naked single"));
}

#[test]
fn check_reports_rule_errors_with_location_and_caret() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.dl");
    fs::write(
        &bad,
        "// a broken rule\nplaced(C, D) :- cel(C), digit(D).\n",
    )
    .expect("write");
    sudolog()
        .args(["check", "--rules-add"])
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("undeclared relation `cel`"))
        .stderr(predicate::str::contains("bad.dl:2:17"))
        .stderr(predicate::str::contains("^^^"));
}

#[test]
fn solve_with_broken_rules_is_invalid_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.dl");
    fs::write(&bad, "placed(C, D) :- !placed(C, D), cell(C), digit(D).\n").expect("write");
    sudolog()
        .args(["solve", "tests/data/x4.txt", "--rules-add"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not monotone"));
}

#[test]
fn help_documents_the_exit_codes() {
    sudolog()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains("2  invalid input"));
}

#[test]
fn a_missing_rules_directory_is_a_clear_error() {
    sudolog()
        .args([
            "solve",
            "tests/data/x4.txt",
            "--rules",
            "tests/data/no_such_dir",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read the rules directory"));
}

#[test]
fn a_file_of_4x4_lines_reads_back_as_4x4_puzzles() {
    // What `--format line` prints for 4x4 puzzles must read back line by line.
    let out = stdout_of(
        sudolog()
            .args(["solve", "--format", "line", "-"])
            .write_stdin("1..4.........32.\n.2..........4.1.\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines.iter().all(|l| l.len() == 16 && !l.starts_with('#')),
        "{out}"
    );
    let again = stdout_of(
        sudolog()
            .args(["solve", "--format", "line", "-"])
            .write_stdin(out.clone()),
    );
    assert_eq!(again, out);
}

#[test]
fn a_selected_technique_keeps_the_helpers_it_reads_from_other_files() {
    // The single-digit patterns read the strong links that wings.dl
    // defines: selecting them without the wings keeps the links and what
    // they are built from (and only those: the hidden subsets' `confined`
    // and its helpers, not their counts or eliminations), not the wings'
    // eliminations.
    let listing = stdout_of(sudolog().args(["check", "--techniques", "singles,single_digit"]));
    let rules_of = |file: &str| -> Vec<&str> {
        (listing.lines())
            .filter(|l| l.trim_start().starts_with(file))
            .collect()
    };
    let wings_rules = rules_of("rules/wings.dl");
    assert_eq!(wings_rules.len(), 1, "{listing}");
    assert!(wings_rules[0].contains("-> link"), "{listing}");
    let subsets_rules = rules_of("rules/hidden_subsets.dl");
    let heads: Vec<&str> = (subsets_rules.iter())
        .filter_map(|l| l.split("-> ").nth(1)?.split_whitespace().next())
        .collect();
    assert_eq!(
        heads,
        ["pos", "gone_places", "filled", "confined"],
        "{listing}"
    );
    assert!(listing.contains("-> skyscraper"), "{listing}");
}

#[test]
fn stats_summarise_each_file_and_all() {
    let out = sudolog()
        .args(["solve", "--stats", "--format", "line", "-j", "1"])
        .args(["tests/data/essay.txt", "tests/data/bad_puzzles.txt"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let row = |file: &str| -> Vec<String> {
        let line = stderr
            .lines()
            .find(|l| l.ends_with(file))
            .unwrap_or_else(|| panic!("no row for {file}: {stderr}"));
        line.split_whitespace().map(String::from).collect()
    };
    // puzzles, solved, solved without guessing, invalid.
    // The essay's first puzzle falls to singles; the second needs subsets
    // (above the default tier 2) and the third a guess.
    assert_eq!(row("tests/data/essay.txt")[..4], ["3", "3", "1", "0"]);
    assert_eq!(row("tests/data/bad_puzzles.txt")[3], "8");
    assert!(row(" all")[0].parse::<u32>().is_ok(), "{stderr}");
    assert!(stderr.contains("puzzles/s"), "{stderr}");
}

#[test]
fn no_progress_line_reaches_a_piped_stderr() {
    sudolog()
        .args(["solve", "--format", "line", "tests/data/essay.txt"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn completions_for_bash_are_a_script_bash_accepts() {
    let out = sudolog()
        .args(["completions", "bash"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let script = String::from_utf8(out.stdout).expect("utf-8");
    assert!(script.contains("verify-rules") && script.contains("--max-tier"));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sudolog.bash");
    fs::write(&path, &script).expect("written");
    let loaded = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}' && complete -p sudolog",
            path.display()
        ))
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&loaded.stdout);
    assert!(
        loaded.status.success() && said.contains("_sudolog"),
        "{said}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = sudolog()
            .args(["completions", shell])
            .output()
            .expect("runs");
        assert!(out.status.success() && !out.stdout.is_empty(), "{shell}");
    }
}

/// Every command, as `sudolog COMMAND --help` names it.
const COMMANDS: [&str; 9] = [
    "solve",
    "check",
    "facts",
    "grade",
    "verify-rules",
    "query",
    "explain",
    "completions",
    "man",
];

#[test]
fn every_command_help_shows_examples_and_its_exit_codes() {
    let top = stdout_of(sudolog().arg("--help"));
    assert!(
        top.contains("Examples:") && top.contains("Exit codes"),
        "{top}"
    );
    for command in COMMANDS {
        let help = stdout_of(sudolog().args([command, "--help"]));
        assert!(help.contains("Examples:"), "{command}: {help}");
        assert!(help.contains("Exit codes:"), "{command}: {help}");
        // Each example line runs the command it documents.
        let examples = help
            .split("Examples:")
            .nth(1)
            .and_then(|rest| rest.split("Exit codes:").next())
            .unwrap_or_default();
        assert!(
            examples.contains(&format!("sudolog {command}")),
            "{command}: {examples}"
        );
        assert!(help.contains("0  "), "{command}: {help}");
    }
}

#[test]
fn man_prints_a_manual_page_for_sudolog_and_for_each_command() {
    let page = stdout_of(sudolog().arg("man"));
    assert!(page.contains(".TH sudolog 1"), "{page}");
    assert!(
        page.contains(".SH NAME") && page.contains("verify\\-rules"),
        "{page}"
    );
    let solve = stdout_of(sudolog().args(["man", "solve"]));
    assert!(solve.contains(".TH sudolog-solve 1"), "{solve}");
    assert!(solve.contains("\\-\\-logic\\-only"), "{solve}");
    assert!(solve.contains("Exit codes:"), "{solve}");
    let out = sudolog().args(["man", "solv"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: `solv` is not a sudolog command") && err.contains("solve"),
        "{err}"
    );
}

#[test]
fn errors_start_with_error_and_quiet_keeps_them_but_drops_notes() {
    // A rule selector that names nothing: an error, on every run.
    let out = sudolog()
        .args(["facts", "--rule", "singlez", "tests/data/essay.txt"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: no rule or technique `singlez`"),
        "{err}"
    );
    // A search cut at once by its time limit, with no fixpoint to inspect:
    // an error, and no note about facts it has none of.
    let args = [
        "facts",
        "--relation",
        "placed",
        "--timeout",
        "0.000000001",
        "tests/data/essay.txt",
    ];
    let out = sudolog().args(args).output().expect("runs");
    let cut = String::from_utf8_lossy(&out.stderr);
    assert!(
        cut.starts_with("error: ") && !cut.contains("note: "),
        "{cut}"
    );
    // A puzzle with several solutions: a note on what the facts are, which
    // `-q` drops.
    let empty = ".".repeat(81);
    let several = |quiet: bool| {
        let mut run = sudolog();
        if quiet {
            run.arg("-q");
        }
        let out = run
            .args(["facts", "--relation", "placed", "-"])
            .write_stdin(empty.clone())
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = several(false);
    assert!(
        err.starts_with("note: ") && err.contains("several solutions"),
        "{err}"
    );
    let quiet = several(true);
    assert!(quiet.is_empty(), "{quiet}");
    // Never a colour code when standard error is a pipe.
    assert!(
        !err.contains('\u{1b}') && !quiet.contains('\u{1b}'),
        "{err}"
    );
    // A puzzle that does not read, in a batch: its result on standard
    // output, and an error on standard error, `-q` or not.
    let out = sudolog()
        .args(["solve", "-q", "--format", "line", "-"])
        .write_stdin("1234\n")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: <stdin>:1:1: "), "{err}");
}

#[test]
fn grade_and_verify_rules_take_jobs_and_give_the_same_output_on_any() {
    let grade = |jobs: &str| {
        stdout_of(sudolog().args(["grade", "-j", jobs, "--no-progress", "tests/data/essay.txt"]))
    };
    assert_eq!(grade("1"), grade("2"));
    let verify = |jobs: &str| {
        stdout_of(sudolog().args([
            "verify-rules",
            "-j",
            jobs,
            "--no-progress",
            "--techniques",
            "singles,locked",
            "--against",
            "tests/data/single_digit/sample.txt",
            "--solutions",
            "tests/data/single_digit/sample.solutions.txt",
        ]))
    };
    assert_eq!(verify("1"), verify("2"));
}

#[test]
fn check_takes_rule_files_and_warns_about_variables_named_once() {
    // A rule file named on the command line is checked with the library.
    let listing = stdout_of(sudolog().args(["check", "tests/data/rules/x_sudoku.dl"]));
    assert!(listing.contains("x_sudoku.dl"), "{listing}");
    // The library itself gives no warning, nor with every file of
    // rules/extra (some read others: the ALS files); variables named once
    // there are read by their ratings' conditions.
    let out = sudolog().arg("check").output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let mut all = sudolog();
    all.arg("check");
    for entry in fs::read_dir(common::repo_path("rules/extra")).expect("rules/extra") {
        all.arg("--rules-add").arg(entry.expect("an entry").path());
    }
    let out = all.output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // `Cx` is a slip for `C`: a warning with its place, and the rules
    // still load (exit 0); `-q` leaves it out.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("slip.dl");
    fs::write(
        &file,
        ".decl open(c: cell)\nopen(C) :- cell(C), row(Cx, 1), unless placed(C, _).\n",
    )
    .expect("written");
    let path = file.to_str().expect("utf-8 path");
    let out = sudolog().args(["check", path]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: variable `Cx` appears only once in this rule")
            && err.contains("slip.dl:2:25")
            && err.contains("1 warning in the rule set"),
        "{err}"
    );
    let out = sudolog()
        .args(["-q", "check", path])
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn check_warns_about_cells_outside_a_9x9_grid() {
    // `r10c1` is a cell of 16x16 and 25x25 grids only: a warning with its
    // place (the rules still load); `r9c9` is in every grid from 9x9 up.
    let file = "tests/data/rules/cells_beyond_9x9.dl";
    let out = sudolog().args(["check", file]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: `r10c1` lies outside a 9x9 grid")
            && err.contains("cells_beyond_9x9.dl:6:8")
            && err.contains("right only for 16x16 or larger puzzles")
            // Its tier-0 elimination is a constraint beyond the units, so
            // the techniques that assume one solution are off, said too.
            && err.contains("`uniqueness`, `late_rectangles` switched off")
            && err.contains("2 warnings in the rule set"),
        "{err}"
    );
    assert!(!err.contains("r9c9"), "{err}");
    let out = sudolog()
        .args(["-q", "check", file])
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn units_outside_a_grid_are_warned_of_and_noted_as_cells_are() {
    // `box10` and `"row12"` (a unit is a symbol, bare or quoted) are units
    // of 16x16 and 25x25 grids only; `col9` is in every grid from 9x9 up.
    let file = "tests/data/rules/units_beyond_9x9.dl";
    let out = sudolog().args(["check", file]).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: `box10` lies outside a 9x9 grid: no unit of a 9x9 puzzle")
            && err.contains("units_beyond_9x9.dl:5:5")
            && err.contains("warning: `row12` lies outside a 9x9 grid")
            && err.contains("units_beyond_9x9.dl:6:5")
            && err.contains("right only for 16x16 or larger puzzles")
            && err.contains("2 warnings in the rule set"),
        "{err}"
    );
    assert!(!err.contains("col9"), "{err}");
    // Beyond every grid, however large the number: still a unit, named
    // as written, and no grid has it.
    let dir = tempfile::tempdir().expect("temp dir");
    let far = dir.path().join("far.dl");
    fs::write(
        &far,
        ".decl far(u: unit)\nfar(box26).\nfar(box4294967296).\n",
    )
    .expect("writes");
    let out = sudolog().arg("check").arg(&far).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`box26` lies outside")
            && err.contains("`box4294967296` lies outside")
            && err.contains("no grid sudolog handles has it (they go up to 25x25)")
            && !err.contains("used once"),
        "{err}"
    );
    // A run on 9x9 notes them once, a run on 16x16 not at all.
    let out = sudolog()
        .args(["solve", "--format", "line", "--rules-add", file, "-"])
        .write_stdin(format!("{ESSAY_1}\n{ESSAY_2}\n"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let note = "units_beyond_9x9.dl:5:5: box10 lies outside a 9x9 grid: no unit of this run's";
    assert_eq!(err.matches(note).count(), 1, "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    let out = sudolog()
        .args(["solve", "--format", "line", "--rules-add", file])
        .arg("tests/data/sixteen.txt")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_run_notes_cells_outside_its_grid_once_per_size() {
    let rules = "tests/data/rules/cells_beyond_9x9.dl";
    // Two 9x9 puzzles: one note, not one per puzzle.
    let out = sudolog()
        .args(["solve", "--format", "line", "--rules-add", rules, "-"])
        .write_stdin(format!("{ESSAY_1}\n{ESSAY_2}\n"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let note = "note: tests/data/rules/cells_beyond_9x9.dl:6:8: r10c1 lies outside a 9x9 grid";
    assert_eq!(err.matches(note).count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // `-q` leaves it out; a 16x16 puzzle has the cell, so no note.
    let out = sudolog()
        .args(["-q", "solve", "--format", "line", "--rules-add", rules, "-"])
        .write_stdin(format!("{ESSAY_1}\n"))
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let out = sudolog()
        .args(["solve", "--format", "line", "--rules-add", rules])
        .arg("tests/data/sixteen.txt")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // Rules left out of the run (`solve` stops at tier 2) give no note.
    let dir = tempfile::tempdir().expect("temp dir");
    let hard = dir.path().join("hard.dl");
    fs::write(
        &hard,
        ".tier 3\neliminated(r10c1, 1) :- placed(r10c1, 2).\n",
    )
    .expect("written");
    let out = sudolog()
        .args(["solve", "--format", "line", "--rules-add"])
        .arg(&hard)
        .arg("-")
        .write_stdin(format!("{ESSAY_1}\n"))
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // `grade` and `verify-rules` (one note over all its technique runs)
    // say it the same way.
    let out = sudolog()
        .args(["grade", "--rules-add", rules, "-"])
        .write_stdin(format!("{ESSAY_1}\n{ESSAY_2}\n"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches(note).count(), 1, "{err}");
    let out = sudolog()
        .args(["verify-rules", "--rules-add", rules, "--against", "-"])
        .write_stdin(format!("{ESSAY_1} {ESSAY_1_SOLUTION}\n"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches(note).count(), 1, "{err}");
    // So do the inspection commands, before their one solve.
    let out = sudolog()
        .args(["explain", "--rules-add", rules, "-", "r1c3"])
        .write_stdin(format!("{ESSAY_1}\n"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches(note).count(), 1, "{err}");
}

#[test]
fn misspelt_names_get_a_suggestion() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("typo.dl");
    fs::write(&file, ".decl open(c: cell)\nopen(C) :- cel(C).\n").expect("written");
    let out = sudolog()
        .args(["check", file.to_str().expect("utf-8 path")])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `cell`?"), "{err}");
    let cases: [(&[&str], &str); 4] = [
        (&["facts", "--relation", "palced"], "did you mean `placed`?"),
        (&["facts", "--rule", "singlez"], "did you mean `singles`?"),
        (
            &["solve", "--techniques", "singls"],
            "did you mean `singles`?",
        ),
        (&["solve", "--variant", "hypr"], "did you mean `hyper`?"),
    ];
    for (args, hint) in cases {
        let out = sudolog()
            .args(args)
            .arg("tests/data/essay.txt")
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(hint),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_user_file_cannot_merge_into_the_library_by_its_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    // `check` of a rule file the checker rejects: exit 1, and its stderr.
    let rejected = |file: &std::path::Path| -> String {
        let out = sudolog()
            .args(["check", file.to_str().expect("utf-8 path")])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1), "{file:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A file named like a library technique would join it, at its tier.
    let wings = dir.path().join("wings.dl");
    fs::write(&wings, ".tier 1\n.decl foo(c: cell)\nfoo(C) :- cell(C).\n").expect("written");
    let err = rejected(&wings);
    assert!(
        err.contains("has the name of the technique `wings` of `rules/wings.dl`")
            && err.contains("my_wings.dl"),
        "{err}"
    );
    // The library's own file, checked by its path, is that technique once;
    // an extra added by name and as a file too is added once.
    let own = stdout_of(sudolog().args(["check", "rules/finned_fish.dl"]));
    assert_eq!(
        own,
        stdout_of(sudolog().args(["check"])),
        "the library itself"
    );
    let twice = stdout_of(sudolog().args([
        "check",
        "--extra",
        "als",
        "--rules-add",
        "rules/extra/als.dl",
    ]));
    assert_eq!(
        twice,
        stdout_of(sudolog().args(["check", "--extra", "als"]))
    );
    // An edited copy of a library file: the help says how to try it.
    let edited = dir.path().join("finned_fish.dl");
    let text = fs::read_to_string("rules/finned_fish.dl").expect("library file");
    fs::write(&edited, text + "\n// edited\n").expect("written");
    let err = rejected(&edited);
    assert!(
        err.contains("is built in and this file differs from it") && err.contains("--rules DIR"),
        "{err}"
    );
    // The same file under its own name is a technique of its own.
    let mine = dir.path().join("my_wings.dl");
    fs::write(&mine, ".tier 1\n.decl foo(c: cell)\nfoo(C) :- cell(C).\n").expect("written");
    let listing = stdout_of(sudolog().args(["check", mine.to_str().expect("utf-8 path")]));
    assert!(listing.contains("1   my_wings"), "{listing}");
    // A relation of the library's declared again: an error that says so.
    let link = dir.path().join("links.dl");
    fs::write(
        &link,
        ".tier 2\n.decl link(a: cell, b: cell)\nlink(A, B) :- peer(A, B).\n",
    )
    .expect("written");
    let err = rejected(&link);
    assert!(
        err.contains("`link` is declared twice") && err.contains("rules/wings.dl"),
        "{err}"
    );
}

#[test]
fn check_plan_shows_the_operators_of_each_rule() {
    let listing = stdout_of(sudolog().args(["check", "--techniques", "singles"]));
    assert!(!listing.contains("fixpoint:"), "{listing}");
    let shown = stdout_of(sudolog().args(["check", "--plan", "--techniques", "singles"]));
    assert!(shown.starts_with(&listing), "{shown}");
    // A rule of singles.dl, then the operator deriving its placements.
    let lines: Vec<&str> = shown.lines().collect();
    let derives = lines.windows(2).any(|pair| {
        let operator = pair[1].trim_start().split_once("  ");
        pair[0].starts_with("  rules/singles.dl:")
            && operator.is_some_and(|(number, op)| {
                number.parse::<usize>().is_ok() && op.contains("-> placed(")
            })
    });
    assert!(derives, "{shown}");
}

#[test]
fn profile_names_each_rule_and_counts_what_it_derived() {
    let out = sudolog()
        .args([
            "solve",
            "--profile",
            "--max-tier",
            "1",
            "-j1",
            "--format",
            "line",
            "-",
        ])
        .write_stdin(format!("{ESSAY_1}\n"))
        .assert()
        .success()
        .get_output()
        .clone();
    let (stdout, stderr) = common::text(&out);
    assert_eq!(stdout, format!("{ESSAY_1_SOLUTION}\n"));
    assert!(stderr.starts_with("profile: "), "{stderr}");
    // Every placement the rules derived is counted once, on the line of
    // the rule that derived it (a count's body is a line of its own).
    let placed_by_rules: u64 = stderr
        .lines()
        .filter(|l| l.contains("rules/singles.dl:") && !l.contains("count#"))
        .filter(|l| l.contains(" placed(C, D) :- "))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields[4], "1", "singles are tier 1: {l}");
            fields[3].parse::<u64>().expect("new facts")
        })
        .sum();
    let givens = ESSAY_1.chars().filter(|c| c.is_ascii_digit()).count() as u64;
    assert_eq!(placed_by_rules, 81 - givens, "{stderr}");
    assert!(stderr.contains("(ending rounds: new facts sorted into batches)"));
    // Two threads, and the engine that counts solutions: one table, its
    // times summed over both.
    let out = sudolog()
        .args([
            "solve",
            "--profile",
            "--count",
            "2",
            "-j2",
            "--format",
            "line",
            "tests/data/essay.txt",
        ])
        .assert()
        .get_output()
        .clone();
    let (_, stderr) = common::text(&out);
    assert_eq!(stderr.matches("profile: ").count(), 1, "{stderr}");
    assert!(stderr.contains("(summed over 2 threads)"), "{stderr}");
    assert!(stderr.contains("rules/singles.dl:"), "{stderr}");
}

/// `--variant`'s help names every built-in variant (its list is written
/// by hand, so a new file in `rules/variants/` must be added to it).
#[test]
fn the_variant_help_names_every_variant() {
    let help = stdout_of(sudolog().args(["solve", "--help"]));
    let mut names: Vec<String> = fs::read_dir("rules/variants")
        .expect("the variants folder")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "dl").then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    for name in names {
        let named = help.match_indices(name.as_str()).any(|(at, _)| {
            let before = help[..at].chars().next_back();
            let after = help[at + name.len()..].chars().next();
            before.is_some_and(char::is_whitespace)
                && after.is_some_and(|c| matches!(c, ',' | ';' | '.' | ' ' | '\n'))
        });
        assert!(named, "`{name}` is missing from --variant's help");
        let out = sudolog()
            .args(["check", "--variant", &name])
            .output()
            .expect("runs");
        assert!(out.status.success(), "--variant {name} loads");
    }
}

#[test]
fn an_extra_technique_is_built_in_by_name_with_the_extras_it_needs() {
    use common::{parse_listing, run, success_stdout};
    let sample = "tests/data/vwxyz/sample.txt";
    // Sukaku Explainer's scale by name grades as the files of rules/extra.
    let by_name = success_stdout(
        run(
            &[
                "grade",
                "--extra",
                "turbot_fish,wxyz_wing,vwxyz_wing",
                sample,
            ],
            None,
        ),
        "grade --extra",
    );
    let files = ["turbot_fish", "wxyz_wing", "vwxyz_wing"].map(|f| format!("rules/extra/{f}.dl"));
    let mut args = vec!["grade"];
    for f in &files {
        args.extend(["--rules-add", f.as_str()]);
    }
    args.push(sample);
    assert_eq!(
        by_name,
        success_stdout(run(&args, None), "grade --rules-add")
    );
    assert!(by_name.contains("vwxyz_wing="), "{by_name}");
    // The ALS chains read the ALS of als.dl: naming them brings both, and
    // naming both adds als.dl once.
    for extra in ["als_chains", "als,als_chains", "ALS-chains"] {
        let listing = parse_listing(&success_stdout(
            run(&["check", "--extra", extra], None),
            "check --extra",
        ));
        assert_eq!(listing.tier("als"), Some(14), "{extra}: {}", listing.text);
        assert_eq!(listing.tier("als_chains"), Some(17), "{extra}");
    }
    // A name that is no extra: exit 2, the closest name and the list.
    sudolog()
        .args(["check", "--extra", "wxyz"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no technique `wxyz` among the extras")
                .and(predicate::str::contains("`wxyz_wing`"))
                .and(predicate::str::contains("templates, turbot_fish")),
        );
}

#[test]
fn more_threads_than_four_a_core_are_not_started() {
    // 65,535 threads used to be started for three puzzles: half a minute
    // and hundreds of MiB before the first answer.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = sudolog()
        .args(["solve", "-j", "65535", "--stats", "--format", "line"])
        .arg("tests/data/essay.txt")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let threads: usize = stderr
        .split(" with ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a thread count in {stderr}"));
    assert_eq!(threads, (4 * cores).min(65535), "{stderr}");
}

#[test]
fn every_command_that_takes_one_puzzle_says_that_puzzles_count_from_1() {
    for command in ["grade", "hint", "path", "facts", "query", "explain"] {
        let mut run = sudolog();
        run.args([command, "--puzzle", "0"]);
        match command {
            "query" => run.args(["tests/data/essay.txt", "cell(C)"]),
            "explain" => run.args(["tests/data/essay.txt", "r1c1"]),
            _ => run.arg("tests/data/essay.txt"),
        };
        let out = run.output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("puzzles are numbered from 1"),
            "{command}: {err}"
        );
    }
}
