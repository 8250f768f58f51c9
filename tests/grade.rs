//! `sudolog grade`: the hardest technique each puzzle needs, checked
//! against logic-only solves with the tiers capped just at and just below
//! it, and the summary tables.

use crate::common;

use common::{check_listing, json_lines, read_repo_file, stdout_of, sudolog};
use serde_json::Value;

fn grades(file: &str) -> Vec<Value> {
    json_lines(&stdout_of(
        sudolog().args(["grade", "--format", "json", file]),
    ))
}

/// Whether `solve --logic-only --max-tier T` solves the puzzle on `line`.
fn solved_up_to(file: &str, line: u64, tier: u32) -> bool {
    let text = read_repo_file(file);
    let puzzle = text
        .lines()
        .nth(line as usize - 1)
        .expect("the line exists");
    let out = stdout_of(
        sudolog()
            .args([
                "solve",
                "--logic-only",
                "--no-forcing",
                "--format",
                "json",
                "--max-tier",
            ])
            .arg(tier.to_string())
            .arg("-")
            .write_stdin(format!("{puzzle}\n")),
    );
    let result: Value = serde_json::from_str(out.trim()).expect("one JSON line");
    result["status"] == "solved"
}

#[test]
fn the_essay_puzzles_get_their_grades() {
    let g = grades("tests/data/essay.txt");
    let names: Vec<&str> = g
        .iter()
        .map(|r| r["grade"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, ["singles", "naked_subsets", "fish"]);
    // The firings name only techniques that ran, and the grade among them.
    for r in &g {
        let firings = r["firings"].as_object().expect("firings per technique");
        assert!(
            firings.contains_key(r["grade"].as_str().unwrap_or("?")),
            "{r}"
        );
        assert!(
            firings.values().all(|n| n.as_u64().is_some_and(|n| n > 0)),
            "{r}"
        );
    }
}

#[test]
fn a_grade_is_the_lowest_tier_cap_that_solves_the_puzzle() {
    // Technique name -> tier, from `sudolog check`.
    let listing = check_listing(None);
    let tier_of = |name: &str| {
        listing
            .tier(name)
            .unwrap_or_else(|| panic!("grade names a technique `check` lists: {name}"))
    };
    let every_tier = listing
        .techniques
        .iter()
        .map(|&(_, t)| t)
        .max()
        .unwrap_or(0);
    let mut seen = Vec::new();
    for file in ["tests/data/essay.txt", "tests/data/techniques/sample.txt"] {
        for r in grades(file).iter().step_by(4) {
            let line = r["line"].as_u64().expect("a line");
            let grade = r["grade"].as_str().expect("a grade");
            let at = format!("{file}:{line} graded {grade}");
            // Forcing, and guessing, come where every tier stalls.
            if grade == "guessing" || grade.starts_with("forcing_") {
                assert!(!solved_up_to(file, line, every_tier), "{at}");
                continue;
            }
            let tier = tier_of(grade);
            assert!(
                solved_up_to(file, line, tier),
                "{at}: not solved up to tier {tier}"
            );
            assert!(
                !solved_up_to(file, line, tier - 1),
                "{at}: solved below tier {tier}"
            );
            seen.push(grade.to_string());
        }
    }
    seen.sort();
    seen.dedup();
    assert!(
        seen.len() >= 4,
        "the samples exercise several grades: {seen:?}"
    );
}

#[test]
fn the_summary_counts_grades_and_firings() {
    let text = stdout_of(sudolog().args(["grade", "tests/data/essay.txt"]));
    let row = |first: &str| -> Vec<String> {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(first))
            .unwrap_or_else(|| panic!("a row for {first}: {text}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert_eq!(row("naked_subsets")[1..], ["1", "33.3%"]);
    // The technique table follows the grade table: locked fired in two of
    // the three puzzles.
    let technique_rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("technique "))
        .collect();
    let locked = technique_rows
        .iter()
        .find(|l| l.starts_with("locked"))
        .expect("a row for locked");
    assert_eq!(locked.split_whitespace().nth(1), Some("2"), "{text}");
}

#[test]
fn a_tier_cap_turns_the_hardest_puzzle_into_forcing_or_guessing() {
    // The essay's third puzzle needs fish (tier 5): below that, forcing
    // solves it (one level of hypotheses), or without forcing it needs a
    // guess.
    let last = |extra: &[&str]| {
        let mut args = vec!["grade", "--json", "--max-tier", "4"];
        args.extend_from_slice(extra);
        args.push("tests/data/essay.txt");
        let out = stdout_of(sudolog().args(&args));
        let row: Value = serde_json::from_str(out.lines().last().expect("three lines")).unwrap();
        row
    };
    let forced = last(&[]);
    assert_eq!(forced["grade"], "forcing_1", "{forced}");
    assert!(
        forced["firings"]["forcing"].as_u64().unwrap() > 0,
        "{forced}"
    );
    assert_eq!(last(&["--forcing-depth", "2"])["grade"], "forcing_1");
    assert_eq!(last(&["--no-forcing"])["grade"], "guessing");
}

#[test]
fn an_invalid_puzzle_gets_one_line_and_the_others_are_graded() {
    let out = sudolog()
        .args(["grade", "tests/data/bad_puzzles.txt"])
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let invalid = text.lines().filter(|l| l.contains("invalid: ")).count();
    assert_eq!(invalid, 8, "{text}");
    // Each also on standard error, as `solve` says them.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("error: ").count(), 8, "{err}");
    // The summary's shares are of the 9 graded: it says so.
    assert!(
        text.contains("(8 of the 17 puzzles did not read and are not graded"),
        "{text}"
    );
    // The good one: its place, its rating (ER/EP/ED), its grade.
    let good: Vec<&str> = text
        .lines()
        .find(|l| l.contains("bad_puzzles.txt:3 "))
        .unwrap_or_else(|| panic!("a line for line 3: {text}"))
        .split_whitespace()
        .collect();
    assert_eq!(good[2].split('/').count(), 3, "{text}");
    assert_eq!(good[3], "singles", "{text}");
    assert_eq!(out.status.code(), Some(2), "invalid input exits with 2");
}

#[test]
fn puzzles_with_no_or_several_solutions_are_graded_as_such() {
    // Not "guessing" (issue 14, item 12): a stalled puzzle is counted up
    // to two solutions; no solution or several makes the exit code 1.
    let empty = ".".repeat(81);
    let no_solution = read_repo_file("tests/data/no_solution.txt")
        .lines()
        .next()
        .expect("a puzzle")
        .to_string();
    let input = format!("{empty}\n{no_solution}\n");
    let out = sudolog()
        .args(["grade", "--json", "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let rows = json_lines(&String::from_utf8_lossy(&out));
    assert_eq!(rows[0]["grade"], "several_solutions", "{rows:?}");
    assert_eq!(rows[1]["grade"], "no_solution", "{rows:?}");
    // A proper puzzle still grades and exits 0.
    sudolog()
        .args(["grade", "tests/data/essay.txt"])
        .assert()
        .success();
}

#[test]
fn grade_profile_reports_the_rules_time_after_the_grades() {
    let out = sudolog()
        .args(["grade", "--profile", "-j1", "tests/data/essay.txt"])
        .assert()
        .get_output()
        .clone();
    let (stdout, stderr) = common::text(&out);
    assert!(
        stdout.contains("grade (hardest technique needed)"),
        "{stdout}"
    );
    assert!(!stdout.contains("profile:"), "{stdout}");
    assert!(stderr.starts_with("profile: "), "{stderr}");
    // The third puzzle needs a fish, whose rules are timed too.
    assert!(stderr.contains("rules/fish.dl:"), "{stderr}");
}

/// `--puzzle N` grades only the Nth puzzle of the input, under its own
/// number and with the rating the whole file gives it; `--compare` reads
/// that puzzle's line; a number past the input is an error.
#[test]
fn one_puzzle_of_a_file_keeps_its_number_and_its_rating() {
    let file = "tests/data/berthier20/sample.txt";
    let all = grades(file);
    let one = json_lines(&stdout_of(
        sudolog().args(["grade", "--format", "json", "--puzzle", "3", file]),
    ));
    assert_eq!(one.len(), 1, "{one:?}");
    assert_eq!(one[0]["index"], 3);
    assert_eq!(one[0]["rating"], all[2]["rating"]);
    assert_eq!(one[0]["steps"], all[2]["steps"]);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let theirs = dir.path().join("ratings.txt");
    let third = all[2]["rating"].as_f64().expect("rated");
    std::fs::write(&theirs, format!("9.9\n9.9\n{third}\n")).expect("written");
    let text = stdout_of(sudolog().args([
        "grade",
        "--puzzle",
        "3",
        "--compare",
        theirs.to_str().expect("utf-8"),
        file,
    ]));
    assert!(text.contains("same band: 1 (100.0%)"), "{text}");

    let out = sudolog()
        .args(["grade", "--puzzle", "21", file])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no puzzle number 21"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
