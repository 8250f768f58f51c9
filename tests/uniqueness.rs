//! `.assumes unique`: techniques sound only for a puzzle with one solution
//! are listed as such, marked in traces, off when solutions are counted,
//! never the reason for "no solution", and off beside a constraint that is
//! not a unit. The technique is a unique rectangle of the tests' own
//! (`tests/data/unique/rectangle.dl`), so that these tests do not depend
//! on the library's.

use crate::common::{run, text};

const RECTANGLE: &str = "tests/data/unique/rectangle.dl";
/// A grid with the four cells of a deadly pattern open: two solutions.
const DEADLY: &str = "tests/data/unique/deadly.txt";
/// A state (one solution) where the rectangle applies.
const STATE: &str = "tests/data/unique/rectangle_state.txt";

#[test]
fn check_lists_the_technique_as_assuming_one_solution() {
    let out = run(&["check", RECTANGLE], None);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.lines().any(|l| l.contains("rectangle")
            && l.contains("(assumes one solution: off when solutions are counted)")),
        "{stdout}"
    );
}

#[test]
fn on_a_puzzle_with_one_solution_the_rectangle_fires_and_the_trace_says_so() {
    let extra = ["--max-tier", "7", "--rules-add", RECTANGLE];
    assert_trace_marks(&extra, &[": rectangle (assumes one solution) ["]);
}

/// `solve --logic-only --trace` on the rectangle's state, with `extra`
/// arguments, has a line with every one of `marks` that concerns r2c7.
fn assert_trace_marks(extra: &[&str], marks: &[&str]) {
    let mut args = vec!["solve", "--logic-only", "--no-forcing", "--trace"];
    args.extend_from_slice(extra);
    args.push(STATE);
    let out = run(&args, None);
    let (stdout, stderr) = text(&out);
    let all = format!("{stdout}{stderr}");
    assert!(
        all.lines()
            .any(|l| marks.iter().all(|m| l.contains(m)) && l.contains("r2c7")),
        "{all}"
    );
}

#[test]
fn counting_switches_the_assumption_off() {
    // With the rectangle, both solutions of the deadly pattern would be
    // ruled out: counting runs without it and finds both.
    let out = run(
        &[
            "solve",
            "--max-tier",
            "7",
            "--count",
            "2",
            "--rules-add",
            RECTANGLE,
            DEADLY,
        ],
        None,
    );
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("2 solutions"), "{stdout}{stderr}");
}

#[test]
fn no_solution_is_never_the_assumption_s_doing() {
    // Without guessing, the rectangle empties the four cells: the solve is
    // run again without it, and stalls instead of saying "no solution".
    let out = run(
        &[
            "solve",
            "--max-tier",
            "7",
            "--logic-only",
            "--no-forcing",
            "--rules-add",
            RECTANGLE,
            DEADLY,
        ],
        None,
    );
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains(": stalled:"), "{stdout}{stderr}");
    // With guessing: one of the two solutions.
    let out = run(
        &["solve", "--max-tier", "7", "--rules-add", RECTANGLE, DEADLY],
        None,
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(": solved"), "{stdout}{stderr}");
    // `grade` does not grade a puzzle with two solutions.
    let out = run(&["grade", "--rules-add", RECTANGLE, DEADLY], None);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("several_solutions"), "{stdout}{stderr}");
}

#[test]
fn a_constraint_that_is_not_a_unit_switches_it_off_with_a_warning() {
    let out = run(&["check", "--variant", "anti_king", RECTANGLE], None);
    let (stdout, stderr) = text(&out);
    assert!(
        stderr.contains(
            "`bug`, `rectangle`, `uniqueness`, `late_rectangles` switched off: this rule constrains the grid beyond its units"
        ),
        "{stderr}"
    );
    assert!(!stdout.contains("assumes one solution"), "{stdout}");
    // Units a variant adds keep it on.
    let out = run(&["check", "--variant", "x", RECTANGLE], None);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("assumes one solution"), "{stdout}{stderr}");
    assert!(!stderr.contains("switched off"), "{stderr}");
}

#[test]
fn a_grid_rule_cannot_assume_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grid_unique.dl");
    std::fs::write(&path, ".assumes unique\nplaced(C, D) :- given(C, D).\n").unwrap();
    let out = run(&["check", path.to_str().unwrap()], None);
    let (_, stderr) = text(&out);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr.contains("`.assumes unique` in a file of tier 0"),
        "{stderr}"
    );
    // And `.assumes` wants `unique`.
    std::fs::write(&path, ".tier 7\n.assumes many\n").unwrap();
    let out = run(&["check", path.to_str().unwrap()], None);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains("`unique` or `stalled` after `.assumes`"),
        "{stderr}"
    );
}

#[test]
fn the_library_s_uniqueness_file_assumes_one_solution_and_is_off_when_counting() {
    let out = run(&["check"], None);
    let (stdout, _) = text(&out);
    assert!(
        stdout.lines().any(|l| l.contains(" uniqueness ")
            && l.contains("(assumes one solution: off when solutions are counted)")),
        "{stdout}"
    );
    // Every tier: the library's unique rectangles would rule out both
    // solutions of the deadly pattern; counting runs without them.
    let out = run(
        &["solve", "--max-tier", "all", "--count", "2", DEADLY],
        None,
    );
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("2 solutions"), "{stdout}{stderr}");
    // A logic-only solve never answers "no solution" because of them.
    let out = run(
        &[
            "solve",
            "--max-tier",
            "all",
            "--logic-only",
            "--no-forcing",
            "--format",
            "line",
            DEADLY,
        ],
        None,
    );
    let (stdout, stderr) = text(&out);
    assert!(!stdout.contains("no solution"), "{stdout}{stderr}");
}

#[test]
fn a_library_rectangle_step_says_it_assumes_one_solution() {
    let marks = [": uniqueness (assumes one solution) [", "]: eliminated "];
    assert_trace_marks(&["--max-tier", "all"], &marks);
}
