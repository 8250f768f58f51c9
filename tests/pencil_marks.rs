//! Pencil-mark states as input: a HoDoKu library line and a candidate line
//! start the solve with their placed digits and removed candidates, whose
//! origin is the input; pencil-mark grids (HoDoKu's and Sudoku Explainer's
//! prints, sudolog's own stalled grid output) and `--format candidates`
//! read back as the state they show.

use crate::common::{json_lines, run, stdout_of, success_stdout, sudolog};
use std::path::PathBuf;

const HODOKU: &str = "tests/data/pencil/hodoku.txt";
/// A puzzle on which every tier stalls, and that state in two prints.
const DIABOLICAL: &str = "tests/data/pencil/diabolical.txt";
const HODOKU_GRID: &str = "tests/data/pencil/hodoku_grid.txt";
const SE_GRID: &str = "tests/data/pencil/se_grid.txt";

/// The rows `cell digit rule` of `relation` after a logic-only solve.
fn facts(file: &str, relation: &str, techniques: &str) -> Vec<(String, String, String)> {
    let out = run(
        &[
            "facts",
            file,
            "--logic-only",
            "--no-forcing",
            "--techniques",
            techniques,
            "--relation",
            relation,
            "--format",
            "json",
        ],
        None,
    );
    json_lines(&success_stdout(out, "facts"))
        .iter()
        .map(|row| {
            let text = |k: &str| row[k].as_str().unwrap_or_default().to_string();
            (text("c"), text("d"), text("rule"))
        })
        .collect()
}

#[test]
fn a_hodoku_state_starts_from_its_deleted_candidates_and_finds_the_expected_step() {
    let eliminated = facts(HODOKU, "eliminated", "singles,locked");
    let origin = |cell: &str, digit: &str| {
        eliminated
            .iter()
            .find(|(c, d, _)| c == cell && d == digit)
            .map(|(_, _, o)| o.clone())
    };
    // `811 515 ...`: the deleted candidates come from the input.
    for (cell, digit) in [("r1c1", "8"), ("r1c5", "5"), ("r1c5", "7"), ("r9c5", "5")] {
        assert_eq!(
            origin(cell, digit).as_deref(),
            Some("the input"),
            "{cell} {digit}"
        );
    }
    // `193 198`: locked candidates remove 1 from r9c3 and r9c8.
    for cell in ["r9c3", "r9c8"] {
        let o = origin(cell, "1").expect("eliminated");
        assert!(o.starts_with("rules/locked.dl"), "{cell}: {o}");
    }
    // `+9` in r1c2: placed by the input, not a given.
    let placed = facts(HODOKU, "placed", "singles");
    assert!(placed.contains(&("r1c2".into(), "9".into(), "the input".into())));
    assert!(
        !placed
            .iter()
            .any(|(c, _, o)| c == "r1c3" && o == "the input")
    );
}

#[test]
fn explain_says_what_the_input_placed_and_removed() {
    let tree = |what: &str| {
        success_stdout(
            run(
                &["explain", HODOKU, what, "--logic-only", "--no-forcing"],
                None,
            ),
            "explain",
        )
    };
    assert_eq!(
        tree("eliminated(r1c1, 8)"),
        "eliminated(r1c1, 8) — removed in the input\n"
    );
    assert_eq!(tree("r1c2"), "placed(r1c2, 9) — placed in the input\n");
    let json = success_stdout(
        run(
            &["explain", HODOKU, "eliminated(r1c1, 8)", "--format", "json"],
            None,
        ),
        "explain",
    );
    assert!(json.contains("\"kind\":\"input\""), "{json}");
}

#[test]
fn a_state_solves_to_a_grid_that_keeps_its_digits() {
    let out = success_stdout(run(&["solve", HODOKU, "--format", "json"], None), "solve");
    let row = &json_lines(&out)[0];
    assert_eq!(row["status"], "solved", "{row}");
    let solution = row["solution"].as_str().expect("a solution").to_string();
    let givens = ".+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9";
    let digits: Vec<char> = givens.chars().filter(|&c| c != '+').collect();
    assert_eq!(digits.len(), 81);
    for (cell, (want, got)) in digits.iter().zip(solution.chars()).enumerate() {
        assert!(*want == '.' || *want == got, "cell {cell}: {want} vs {got}");
    }
    // The deleted candidates are respected: r1c1 is not 8.
    assert_ne!(solution.as_bytes()[0], b'8');
}

#[test]
fn a_candidate_line_solves_like_its_puzzle() {
    let puzzle =
        "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
    let mut line = String::new();
    for ch in puzzle.chars() {
        for k in '1'..='9' {
            line.push(if ch == '.' || ch == k { k } else { '.' });
        }
    }
    let dir = std::env::temp_dir().join(format!("sudolog-pencil-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("state.txt");
    std::fs::write(&file, format!("{puzzle}\n{line}\n")).expect("written");
    let out = success_stdout(
        run(
            &["solve", file.to_str().expect("utf-8"), "--format", "line"],
            None,
        ),
        "solve",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], lines[1]);
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `text` to a file of its own under the temporary directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudolog-pm-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("state.txt");
    std::fs::write(&file, text).expect("written");
    file
}

/// `solve --logic-only --max-tier TIER --format FORMAT FILE`: its output,
/// whatever the exit code (a stall exits with 1).
fn logic(file: &str, tier: &str, format: &str) -> String {
    stdout_of(sudolog().args([
        "solve",
        "--logic-only",
        "--no-forcing",
        "--max-tier",
        tier,
        "--format",
        format,
        file,
    ]))
}

/// The state a file reads as, seen through `--format candidates` with the
/// grid rules only (tier 0), which cannot move a stalled state on. Marks
/// lost on the way would show: tier 0 does not redo what higher tiers did.
fn state_of(file: &str) -> String {
    logic(file, "0", "candidates")
}

#[test]
fn the_stalled_grid_output_reads_back_as_the_same_state() {
    for (file, tier, name) in [
        (DIABOLICAL, "7", "9x9"),
        ("tests/data/sixteen.txt", "1", "16x16"),
        ("tests/data/twentyfive.txt", "1", "25x25"),
    ] {
        let state = logic(file, tier, "candidates");
        let grid = logic(file, tier, "grid");
        assert!(grid.contains("# candidates of the open cells:"), "{grid}");
        let back = temp_file(name, &grid);
        assert_eq!(state_of(back.to_str().expect("utf-8")), state, "{file}");
        std::fs::remove_dir_all(back.parent().expect("a directory")).ok();
        if tier == "7" {
            // Without its candidates block the grid is a weaker state: the
            // block is what carries the eliminations of the higher tiers.
            let bare: String = grid
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            let bare_file = temp_file(&format!("{name}-bare"), &bare);
            assert_ne!(state_of(bare_file.to_str().expect("utf-8")), state);
            std::fs::remove_dir_all(bare_file.parent().expect("a directory")).ok();
        }
    }
}

#[test]
fn the_candidates_format_reads_back_as_the_same_state() {
    let state = logic(DIABOLICAL, "7", "candidates");
    let lines: Vec<&str> = state.lines().collect();
    assert_eq!(lines.len(), 1, "{state}");
    assert_eq!(lines[0].len(), 729);
    // r1c1 keeps 1 and 6; r1c2 holds 8.
    assert_eq!(&lines[0][..18], "1....6..........8.");
    let file = temp_file("cand", &state);
    assert_eq!(state_of(file.to_str().expect("utf-8")), state);
    std::fs::remove_dir_all(file.parent().expect("a directory")).ok();
    // A solved puzzle: each cell its digit alone, the solution's digits.
    let essay = "tests/data/essay.txt";
    let solved = success_stdout(
        run(&["solve", essay, "--format", "candidates"], None),
        "solve",
    );
    let solutions = success_stdout(run(&["solve", essay, "--format", "line"], None), "solve");
    for (cand, solution) in solved.lines().zip(solutions.lines()) {
        let digits: String = cand
            .as_bytes()
            .chunks(9)
            .map(|cell| {
                let kept: Vec<char> = cell
                    .iter()
                    .filter(|&&b| b != b'.')
                    .map(|&b| char::from(b))
                    .collect();
                assert_eq!(kept.len(), 1, "{cand}");
                kept[0]
            })
            .collect();
        assert_eq!(digits, solution);
    }
    assert_eq!(solved.lines().count(), solutions.lines().count());
}

#[test]
fn hodoku_and_sudoku_explainer_grids_read_as_the_state_they_print() {
    let state = logic(DIABOLICAL, "7", "candidates");
    assert_eq!(state_of(HODOKU_GRID), state);
    assert_eq!(state_of(SE_GRID), state);
    // Solving on from the print finds the puzzle's solution.
    let solution = success_stdout(
        run(&["solve", DIABOLICAL, "--format", "line"], None),
        "solve",
    );
    for file in [HODOKU_GRID, SE_GRID] {
        let out = success_stdout(run(&["solve", file, "--format", "line"], None), "solve");
        assert_eq!(out, solution, "{file}");
    }
}

#[test]
fn the_candidates_format_says_why_not_for_a_failed_or_invalid_puzzle() {
    let out = stdout_of(sudolog().args([
        "solve",
        "--format",
        "candidates",
        "tests/data/no_solution.txt",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.starts_with("# ")), "{out}");
    let out = stdout_of(
        sudolog()
            .args(["solve", "--format", "candidates", "-"])
            .write_stdin("123\n"),
    );
    assert!(out.starts_with("# invalid: <stdin>:1:1:"), "{out}");
}

#[test]
fn a_contradicted_state_shows_the_digits_that_stand() {
    // Every candidate but 1 is open in row 1: the hidden singles place 1
    // in each of its cells (each is 1's last place for a column and box),
    // a contradiction; the grid shows none of those 1s, and the reason.
    let cell = |open_1: bool| -> String {
        (1..=9)
            .map(|d| {
                if d == 1 && !open_1 {
                    '.'
                } else {
                    char::from(b'0' + d)
                }
            })
            .collect()
    };
    let state: String = (0..81).map(|i| cell(i >= 9)).collect();
    let out = sudolog()
        .args(["solve", "-"])
        .write_stdin(format!("{state}\n"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("contradiction before any guess (a digit has no place left in a unit"),
        "{text}"
    );
    let first_row = text.lines().nth(1).expect("the grid");
    assert_eq!(first_row, ". . . | . . . | . . .", "{text}");
}

/// The first error `solve` reports for `text` on standard input.
fn error_of(text: &str) -> String {
    let out = sudolog()
        .args(["solve", "--format", "line", "-"])
        .write_stdin(text.to_string())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    stdout.lines().next().unwrap_or_default().to_string()
}

#[test]
fn bad_pencil_marks_are_located_errors_naming_the_cell() {
    let grid = std::fs::read_to_string(HODOKU_GRID).expect("the HoDoKu grid");
    // The grid's rows start at line 8 (after the notes and the border).
    let cases = [
        (
            "| 4567  456  457 |",
            "| 4567  456  4x7 |",
            "<stdin>:9:15: 'x' is no digit of a 9x9 grid, in the candidates of r2c3",
        ),
        (
            "| 4567  456  457 |",
            "| 4567  .    457 |",
            "<stdin>:9:9: r2c2 has no candidate left",
        ),
        (
            "| 4567  456  457 |",
            "| 4567  456       |",
            "<stdin>:9:1: row 2 of this 9x9 pencil-mark grid has 8 cells but needs exactly 9",
        ),
        ("| 16    8    3   |", "| 16    8    8   |", "<stdin>:8:"),
    ];
    for (from, to, want) in cases {
        assert!(grid.contains(from));
        let e = error_of(&grid.replacen(from, to, 1));
        assert!(e.starts_with(&format!("# invalid: {want}")), "{want}\n{e}");
    }
    // The stalled grid output with a candidate block that contradicts it.
    let out = logic(DIABOLICAL, "7", "grid");
    let bad = out.replacen("#   16   8    3 ", "#   16   9    3 ", 1);
    assert_ne!(bad, out);
    let e = error_of(&bad);
    assert!(
        e.contains("r1c2 holds 8 in the grid above, but its candidates here are '9'"),
        "{e}"
    );
    assert!(e.contains("<stdin>:14:10:"), "{e}");
}
