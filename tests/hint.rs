//! `sudolog hint`: the easiest technique that applies in a state, and
//! every placement and elimination it makes there and nothing more (no
//! grid consequences, no other technique in between).

use crate::common::{
    Geometry, json_lines, parse_puzzle, read_lines, repo_path, run, success_stdout, units,
};
use std::collections::BTreeSet;

const ESSAY: &str = "tests/data/essay.txt";
const HODOKU: &str = "tests/data/pencil/hodoku.txt";
const STUCK: &str = "tests/data/hint/stuck.txt";

/// The JSON hint of every puzzle of `file`, with extra arguments.
fn hints(file: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["hint", "--format", "json", file];
    args.extend_from_slice(extra);
    let out = run(&args, None);
    json_lines(&String::from_utf8_lossy(&out.stdout))
}

/// `cell=digit` or `cell<>digit` of a hint's list.
fn notations(hint: &serde_json::Value, list: &str) -> BTreeSet<String> {
    hint[list]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["notation"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The singles a player sees in a puzzle's first pencil marks (every digit
/// a given rules out removed), in plain Rust: the naked singles (one
/// candidate left) if there are any, else the hidden singles (one place
/// left for a digit in a unit), the easier pattern first.
fn singles_oracle(line: &str) -> BTreeSet<String> {
    let givens = parse_puzzle(line);
    let geo = Geometry::new();
    let mut cand: Vec<u16> = givens
        .iter()
        .map(|&d| if d != 0 { 0 } else { 0x3FE })
        .collect();
    for (c, &d) in givens.iter().enumerate() {
        if d != 0 {
            for p in geo.peers_of(c) {
                cand[p] &= !(1 << d);
            }
        }
    }
    let mut naked = BTreeSet::new();
    for (c, &m) in cand.iter().enumerate() {
        if m.count_ones() == 1 {
            let cell = crate::common::cell_name(c);
            naked.insert(format!("{cell}={}", m.trailing_zeros()));
        }
    }
    if !naked.is_empty() {
        return naked;
    }
    let mut hidden = BTreeSet::new();
    for unit in units() {
        for d in 1..=9u8 {
            let places: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| cand[c] & (1 << d) != 0)
                .collect();
            if let [c] = places.as_slice() {
                hidden.insert(format!("{}={d}", crate::common::cell_name(*c)));
            }
        }
    }
    hidden
}

#[test]
fn a_hint_is_every_single_of_the_first_pencil_marks_and_no_cascade() {
    let lines: Vec<String> = read_lines(ESSAY);
    let rows = hints(ESSAY, &[]);
    assert_eq!(rows.len(), lines.len());
    let mut names = BTreeSet::new();
    for (line, row) in lines.iter().zip(&rows) {
        assert_eq!(row["status"], "step", "{row}");
        assert_eq!(row["technique"], "singles");
        assert!(notations(row, "eliminations").is_empty(), "{row}");
        assert_eq!(
            notations(row, "placements"),
            singles_oracle(line),
            "the hint of {line} must be exactly its naked singles, else its hidden singles"
        );
        names.insert(row["names"].to_string());
    }
    // The essay puzzles have both kinds of first step.
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_hint_words_each_fact_in_its_rule() {
    let out = run(&["hint", "--puzzle", "1", ESSAY], None);
    let text = success_stdout(out, "hint");
    assert!(
        text.starts_with(
            "# puzzle 1 (tests/data/essay.txt:1): singles (tier 1: Naked single): 1 placement\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "r4c2=3  Naked single: every other digit is eliminated from r4c2, so r4c2 holds 3."
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("# puzzle").count(),
        1,
        "--puzzle 1 only: {text}"
    );
    // Another puzzle keeps its number in the input, in the header, the
    // JSON and the pictures' names.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let svg = dir.path().join("hints");
    let out = run(
        &[
            "hint",
            "--puzzle",
            "3",
            "--svg",
            svg.to_str().expect("utf-8"),
            ESSAY,
        ],
        None,
    );
    let text = success_stdout(out, "hint");
    assert!(
        text.starts_with("# puzzle 3 (tests/data/essay.txt:3): "),
        "{text}"
    );
    assert!(
        svg.join("puzzle3-hint1.svg").exists(),
        "the picture is named for puzzle 3"
    );
    let json = hints(ESSAY, &["--puzzle", "3"]);
    assert_eq!(json[0]["index"], 3);
}

#[test]
fn a_technique_asked_for_runs_alone_on_a_pencil_mark_state() {
    // HoDoKu's case: locked candidates type 1 on 1 eliminates r9c3 and r9c8.
    let rows = hints(HODOKU, &["--technique", "locked"]);
    let row = &rows[0];
    assert_eq!(row["technique"], "locked", "{row}");
    assert_eq!(row["names"][0], "Locked candidate");
    let made = notations(row, "eliminations");
    for expected in ["r9c3<>1", "r9c8<>1"] {
        assert!(made.contains(expected), "{expected} missing: {made:?}");
    }
    let first = &row["eliminations"][0];
    assert!(
        first["words"]
            .as_str()
            .unwrap()
            .starts_with("Locked candidate: ")
    );
    assert!(
        first["rule"]
            .as_str()
            .unwrap()
            .starts_with("rules/locked.dl:")
    );
    assert!(!first["because"].as_array().unwrap().is_empty());
    // Asked for singles only, the state has none.
    let rows = hints(HODOKU, &["--technique", "singles"]);
    assert_eq!(rows[0]["status"], "stuck", "{}", rows[0]);
}

#[test]
fn a_state_where_every_technique_is_stuck_says_so() {
    // Without forcing (which would go on where the techniques stop).
    let out = run(&["hint", "--no-forcing", STUCK], None);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(": stuck: no technique of the rule set applies here"),
        "{text}"
    );
}

#[test]
fn an_impossible_state_and_a_full_grid_are_told() {
    // Every candidate of every cell but 1 in row 1: 1 has no place there.
    let cells: String = (0..81)
        .map(|c| if c < 9 { ".23456789" } else { "123456789" })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("states.txt");
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    std::fs::write(&path, format!("{cells}\n{solved}\n")).unwrap();
    let rows = hints(path.to_str().unwrap(), &[]);
    assert_eq!(rows[0]["status"], "contradiction", "{}", rows[0]);
    assert!(
        rows[0]["message"]
            .as_str()
            .unwrap()
            .contains("a digit has no place left in a unit"),
        "{}",
        rows[0]
    );
    assert_eq!(rows[1]["status"], "solved", "{}", rows[1]);
}

#[test]
fn bad_requests_are_errors() {
    let out = run(&["hint", "--technique", "fishy", ESSAY], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fishy") && err.contains("fish"), "{err}");
    let out = run(&["hint", "--puzzle", "99", ESSAY], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no puzzle number 99"));
    // A bad puzzle is one result among the others, and the exit code says so.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.txt");
    let essay = std::fs::read_to_string(repo_path(ESSAY)).unwrap();
    let first = essay.lines().next().unwrap();
    std::fs::write(&path, format!("{first}\n12345\n{first}\n")).unwrap();
    let out = run(&["hint", "--format", "json", path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let rows = json_lines(&String::from_utf8_lossy(&out.stdout));
    let status: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["step", "invalid", "step"]);
    // And on standard error, as `solve` says it.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: ") && err.contains("mixed.txt:2:1"),
        "{err}"
    );
}

#[test]
fn a_stall_written_as_candidates_reads_back_with_its_placed_cells_placed() {
    // `solve --format candidates` writes a placed cell as its one
    // candidate; read back, it is placed, so no hint offers it as a naked
    // single: the stall stays a stall.
    let out = run(
        &[
            "solve",
            "--logic-only",
            "--no-forcing",
            "--max-tier",
            "all",
            "--format",
            "candidates",
            STUCK,
        ],
        None,
    );
    let line = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(line.trim().len(), 729, "{line}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stall.txt");
    std::fs::write(&path, &line).unwrap();
    let rows = hints(path.to_str().unwrap(), &["--no-forcing"]);
    assert_eq!(rows[0]["status"], "stuck", "{}", rows[0]);
    // Two one-candidate cells with the same digit in a row: a located error.
    let cell = |d: char| {
        (1..=9)
            .map(|k| if char::from(b'0' + k) == d { d } else { '.' })
            .collect::<String>()
    };
    let bad = format!("{}{}{}", cell('1'), cell('1'), "123456789".repeat(79));
    std::fs::write(&path, bad).unwrap();
    let out = run(&["hint", path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(":1:10: digit 1 at r1c2 repeats the 1 at r1c1"),
        "{text}"
    );
}
