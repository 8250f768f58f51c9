//! Limits: a rule set that derives without end is stopped by the fact
//! limit (naming the relation that grew) or by the time limit, puzzle by
//! puzzle, with the "not solved" exit code and one result per puzzle.

use crate::common;

use common::{repo_path, sudolog};
use predicates::str::contains;

fn runaway(file: &str) -> String {
    repo_path(&format!("tests/data/rules/{file}"))
}

#[test]
fn a_static_runaway_is_stopped_by_the_fact_limit_naming_its_relation() {
    let out = sudolog()
        .args([
            "solve",
            "--format",
            "line",
            "--max-facts",
            "20000",
            "--rules-add",
        ])
        .arg(runaway("runaway_static.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("relation `n` grew past the fact limit"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert_eq!(text.lines().count(), 3, "one result per puzzle:\n{text}");
}

#[test]
fn one_step_that_would_exceed_the_fact_limit_is_cut_within_the_step() {
    // 81^5 facts in one join: stopped at the limit, with memory to spare.
    sudolog()
        .args([
            "solve",
            "--format",
            "line",
            "--max-facts",
            "100000",
            "--rules-add",
        ])
        .arg(runaway("runaway_one_step.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("relation `five` grew past the fact limit"));
}

#[test]
fn one_join_that_would_exceed_the_fact_limit_is_cut_within_the_round() {
    // 250,000 facts paired with 250,000: stopped at the limit, in pieces.
    sudolog()
        .args([
            "solve",
            "--format",
            "line",
            "--max-facts",
            "1000000",
            "--rules-add",
        ])
        .arg(runaway("runaway_one_join.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("relation `eight` grew past the fact limit"));
}

#[test]
fn one_counted_fact_that_fans_out_past_the_fact_limit_is_cut() {
    // Each elimination would bump 81^3 counters of its cell's group.
    sudolog()
        .args([
            "solve",
            "--format",
            "line",
            "--max-facts",
            "100000",
            "--rules-add",
        ])
        .arg(runaway("runaway_fan_out.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("grew past the fact limit"));
}

#[test]
fn a_runaway_over_the_state_is_stopped_by_the_fact_limit_naming_its_relation() {
    sudolog()
        .args([
            "solve",
            "--format",
            "json",
            "--max-facts",
            "20000",
            "--rules-add",
        ])
        .arg(runaway("runaway_state.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("\"fact_limit\""))
        .stdout(contains("relation `m` grew"));
}

#[test]
fn a_runaway_within_one_fixpoint_is_stopped_by_the_time_limit() {
    sudolog()
        .args(["solve", "--format", "line", "-j1", "--timeout", "0.2"])
        .args(["--max-facts", "1000000000", "--rules-add"])
        .arg(runaway("runaway_state.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .stdout(contains("stopped by the time limit (--timeout)"));
}

#[test]
fn a_runaway_in_the_static_relations_is_stopped_by_the_time_limit() {
    // With the fact limit out of reach, only the deadline can stop the
    // statics; each puzzle computes them anew (cut statics are not cached)
    // and each gets its own result.
    let out = sudolog()
        .args(["solve", "--format", "line", "-j1", "--timeout", "0.2"])
        .args(["--max-facts", "1000000000", "--rules-add"])
        .arg(runaway("runaway_static.dl"))
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    let stopped = text
        .lines()
        .filter(|l| l.contains("stopped by the time limit (--timeout)"))
        .count();
    assert_eq!(stopped, 3, "one time-limit result per puzzle:\n{text}");
}

#[test]
fn the_default_limits_leave_the_standard_library_alone() {
    sudolog()
        .args(["solve", "--format", "line", "--max-tier", "7"])
        .arg(repo_path("tests/data/essay.txt"))
        .assert()
        .success();
    sudolog()
        .args(["solve", "--format", "line"])
        .arg(repo_path("tests/data/sixteen.txt"))
        .assert()
        .success();
}

#[test]
fn every_tier_on_a_big_grid_fits_a_tenth_of_the_fact_limit_and_a_lower_one_names_its_rule() {
    // Every tier on 16x16 solves within 200,000 facts (the digit-set
    // techniques grow sets rather than count over every digit set); with
    // a tenth of that, the run stops and names the rule whose count grew.
    sudolog()
        .args(["solve", "--format", "line", "--max-tier", "7"])
        .args(["--max-facts", "200000"])
        .arg(repo_path("tests/data/sixteen.txt"))
        .assert()
        .success();
    sudolog()
        .args(["solve", "--format", "line", "--max-tier", "7"])
        .args(["--max-facts", "20000"])
        .arg(repo_path("tests/data/sixteen.txt"))
        .assert()
        .code(1)
        .stdout(contains("the count of the rule at rules/"))
        .stdout(predicates::str::is_match(r"rules/[a-z_]+\.dl:\d+").unwrap());
}

#[test]
fn grade_of_a_run_cut_by_the_fact_limit_exits_1() {
    // `grade` lists the puzzle as `fact_limit` and says so in its exit code
    // (issue 14, item 7: it exited 0). The default fact limit applies.
    let out = sudolog()
        .args(["grade", "--rules-add"])
        .arg(runaway("runaway_state.dl"))
        .arg(repo_path("tests/data/x4.txt"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("fact_limit"), "{text}");
    sudolog()
        .args(["grade"])
        .arg(repo_path("tests/data/x4.txt"))
        .assert()
        .success();
}
