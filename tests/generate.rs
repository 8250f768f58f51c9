//! `sudolog generate`: every puzzle made has one solution and is minimal
//! (checked by an independent solution counter in plain Rust), a seed
//! makes the same puzzles on any number of threads, and the puzzles kept
//! are those asked for (a rating band, a technique, a symmetry), as
//! `grade` and `path` read them back.

use crate::common;

use common::{json_lines, stdout_of, sudolog};

/// The puzzles of `generate`'s line output, as digits (0 = empty).
fn made(args: &[&str]) -> Vec<(Vec<u8>, String)> {
    let out = stdout_of(sudolog().args(["generate", "--no-progress"]).args(args));
    out.lines()
        .map(|l| {
            let (puzzle, rest) = l.split_once(' ').expect("a puzzle and its rating");
            let cells = puzzle
                .chars()
                .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
                .collect();
            (cells, rest.to_string())
        })
        .collect()
}

/// Counts the solutions of a square grid (side `b * b`) up to `limit`, by
/// backtracking on the open cell with the fewest candidates: the oracle,
/// sharing nothing with sudolog.
fn count_solutions(grid: &mut [u8], b: usize, limit: usize) -> usize {
    let n = b * b;
    let candidates = |grid: &[u8], cell: usize| -> Vec<u8> {
        let (r, c) = (cell / n, cell % n);
        let mut used = vec![false; n + 1];
        for k in 0..n {
            used[grid[r * n + k] as usize] = true;
            used[grid[k * n + c] as usize] = true;
            let (br, bc) = (r / b * b + k / b, c / b * b + k % b);
            used[grid[br * n + bc] as usize] = true;
        }
        (1..=n as u8).filter(|&d| !used[d as usize]).collect()
    };
    let open = (0..n * n)
        .filter(|&c| grid[c] == 0)
        .map(|c| (candidates(grid, c), c))
        .min_by_key(|(cands, _)| cands.len());
    let Some((cands, cell)) = open else {
        return 1;
    };
    let mut total = 0;
    for d in cands {
        grid[cell] = d;
        total += count_solutions(grid, b, limit - total);
        grid[cell] = 0;
        if total >= limit {
            break;
        }
    }
    total
}

/// One solution, and no clue that could go.
fn assert_unique_and_minimal(cells: &[u8], b: usize) {
    let mut grid = cells.to_vec();
    assert_eq!(count_solutions(&mut grid, b, 2), 1, "{cells:?}");
    for c in (0..cells.len()).filter(|&c| cells[c] != 0) {
        let mut fewer = cells.to_vec();
        fewer[c] = 0;
        assert_eq!(
            count_solutions(&mut fewer, b, 2),
            2,
            "clue {c} of {cells:?} is not needed"
        );
    }
}

#[test]
fn made_puzzles_have_one_solution_and_no_clue_to_spare() {
    let puzzles = made(&["--count", "4", "--seed", "11"]);
    assert_eq!(puzzles.len(), 4);
    for (cells, _) in &puzzles {
        assert_eq!(cells.len(), 81);
        assert_unique_and_minimal(cells, 3);
    }
    for (cells, _) in made(&["--count", "3", "--seed", "2", "--size", "4"]) {
        assert_eq!(cells.len(), 16);
        assert_unique_and_minimal(&cells, 2);
    }
}

#[test]
fn a_seed_makes_the_same_puzzles_on_any_number_of_threads() {
    let one = made(&["--count", "6", "--seed", "5", "-j1"]);
    let two = made(&["--count", "6", "--seed", "5", "-j2"]);
    assert_eq!(one, two);
    let other = made(&["--count", "6", "--seed", "6", "-j2"]);
    assert_ne!(one, other);
}

#[test]
fn the_rating_band_is_kept_and_grade_reads_the_puzzles_back() {
    let out = stdout_of(sudolog().args([
        "generate",
        "--no-progress",
        "--count",
        "3",
        "--seed",
        "4",
        "--rating",
        "4.2..4.4",
    ]));
    let ratings: Vec<String> = out
        .lines()
        .map(|l| l.split(' ').nth(1).expect("a rating").to_string())
        .collect();
    for r in &ratings {
        let er: f64 = r
            .split('/')
            .next()
            .and_then(|x| x.parse().ok())
            .expect("ER");
        assert!((4.2..=4.4).contains(&er), "{out}");
    }
    // `grade` reads the lines as they are and rates them the same.
    let graded = json_lines(&stdout_of(
        sudolog()
            .args(["grade", "--format", "json", "-"])
            .write_stdin(out.clone()),
    ));
    let again: Vec<String> = graded
        .iter()
        .filter(|g| g.get("index").is_some())
        .map(|g| {
            format!(
                "{:.1}/{:.1}/{:.1}",
                g["rating"].as_f64().unwrap_or(0.0),
                g["pearl"].as_f64().unwrap_or(0.0),
                g["diamond"].as_f64().unwrap_or(0.0)
            )
        })
        .collect();
    assert_eq!(again, ratings);
}

#[test]
fn a_technique_asked_for_is_on_the_solution_path() {
    let puzzles = made(&["--count", "2", "--seed", "9", "--technique", "XY-wing"]);
    assert_eq!(puzzles.len(), 2);
    for (cells, _) in puzzles {
        let line: String = cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect();
        let path = stdout_of(
            sudolog()
                .args(["path", "--logic-only", "-"])
                .write_stdin(format!("{line}\n")),
        );
        assert!(path.contains("XY-wing:"), "{path}");
    }
}

#[test]
fn symmetric_puzzles_give_clues_in_pairs() {
    for (cells, _) in made(&["--count", "2", "--seed", "3", "--symmetry", "rotational"]) {
        for c in 0..81 {
            assert_eq!(cells[c] == 0, cells[80 - c] == 0, "{cells:?}");
        }
    }
    for (cells, _) in made(&["--count", "2", "--seed", "3", "--symmetry", "mirror"]) {
        for c in 0..81 {
            let (r, k) = (c / 9, c % 9);
            assert_eq!(cells[c] == 0, cells[r * 9 + 8 - k] == 0, "{cells:?}");
        }
    }
}

#[test]
fn json_says_what_each_puzzle_is() {
    let rows = json_lines(&stdout_of(sudolog().args([
        "generate",
        "--no-progress",
        "--count",
        "2",
        "--seed",
        "1",
        "--format",
        "json",
    ])));
    assert_eq!(rows.len(), 2);
    for r in rows {
        let puzzle = r["puzzle"].as_str().expect("the puzzle");
        let givens = puzzle.chars().filter(|c| *c != '.').count() as u64;
        assert_eq!(r["givens"], givens, "{r}");
        assert_eq!(r["seed"], 1, "{r}");
        assert!(
            r["rating"].as_f64().is_some() && r["grade"].is_string(),
            "{r}"
        );
    }
}

#[test]
fn what_cannot_be_made_is_said_with_its_way_out() {
    let bad = |args: &[&str], code: i32, says: &str| {
        let out = sudolog()
            .args(["generate", "--no-progress"])
            .args(args)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    bad(&["--size", "7"], 2, "grids of side 4, 9, 16 and 25");
    bad(&["--rating", "7..6"], 2, "the band 7..6 is empty");
    bad(&["--rating", "hard"], 2, "`hard` is not a rating");
    bad(
        &["--technique", "telepathy"],
        2,
        "is no technique of the rule set",
    );
    // The grid's own rules run in every solve and make no step: asked
    // for, they would keep every puzzle.
    bad(
        &["--technique", "grid"],
        2,
        "grid is the grid's own rules (tier 0)",
    );
    bad(
        &["--seed", "1", "--rating", "9.5..", "--max-attempts", "2"],
        1,
        "puzzle 1 of 1: no puzzle kept in 2 attempts rated 9.5..",
    );
    // A band with no bound, or a rating finer than the scale's tenths, is
    // a mistake to say at once, not a long run that keeps nothing.
    bad(&["--rating", ""], 2, "no rating given");
    bad(&["--rating", " "], 2, "no rating given");
    bad(&["--rating", ".."], 2, "the band `..` has no bound");
    bad(&["--rating", "6.55"], 2, "ratings go in tenths");
    bad(&["--max-attempts", "0"], 2, "--max-attempts");
    bad(&["--count", "0"], 2, "--count");
}

#[test]
fn each_puzzle_that_cannot_be_made_is_named() {
    let out = sudolog()
        .args(["generate", "--no-progress", "--seed", "3", "--count", "3"])
        .args([
            "--rating",
            "9.5..",
            "--max-attempts",
            "1",
            "-j2",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for n in 1..=3 {
        assert!(
            err.contains(&format!("puzzle {n} of 3: no puzzle kept")),
            "{err}"
        );
    }
    let numbers: Vec<u64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .map(|v| {
            assert_eq!(v["status"], "not_found", "{v}");
            v["number"].as_u64().expect("its number")
        })
        .collect();
    assert_eq!(numbers, [1, 2, 3]);
}
