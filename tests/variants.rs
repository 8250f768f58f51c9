//! Sudoku variants as rule files (`rules/variants/*.dl`): each variant's
//! puzzle solves to its solution, uniquely; a plain sudoku that breaks the
//! variant has no solution with the variant's rules but solves without
//! them; and the solutions satisfy the variant, checked by plain Rust code
//! here (a checker per variant). Plus a 25x25 puzzle.

use crate::common;

use common::{N, box_of, col_of, read_lines, row_of, sudolog, units};
use serde_json::Value;

/// A variant: its rule file, its puzzle, the puzzle's solution, a valid
/// plain sudoku that breaks the variant, and a checker of full grids.
struct Variant {
    name: &'static str,
    rules: &'static str,
    puzzle: &'static str,
    solution: &'static str,
    broken: &'static str,
    check: fn(&Grid) -> Result<(), String>,
}

/// A full 9x9 grid, row by row, digits 1..=9.
type Grid = [u8; N];

/// Every variant; files relative to the crate root.
const VARIANTS: &[Variant] = &[
    Variant {
        name: "x",
        rules: "rules/variants/x.dl",
        puzzle: "tests/data/variants/x.txt",
        solution: "tests/data/variants/x.solution.txt",
        broken: "tests/data/variants/x.broken.txt",
        check: check_x,
    },
    Variant {
        name: "hyper",
        rules: "rules/variants/hyper.dl",
        puzzle: "tests/data/variants/hyper.txt",
        solution: "tests/data/variants/hyper.solution.txt",
        broken: "tests/data/variants/hyper.broken.txt",
        check: check_hyper,
    },
    Variant {
        name: "disjoint",
        rules: "rules/variants/disjoint.dl",
        puzzle: "tests/data/variants/disjoint.txt",
        solution: "tests/data/variants/disjoint.solution.txt",
        broken: "tests/data/variants/disjoint.broken.txt",
        check: check_disjoint,
    },
    Variant {
        name: "anti_knight",
        rules: "rules/variants/anti_knight.dl",
        puzzle: "tests/data/variants/anti_knight.txt",
        solution: "tests/data/variants/anti_knight.solution.txt",
        broken: "tests/data/variants/anti_knight.broken.txt",
        check: check_anti_knight,
    },
    Variant {
        name: "anti_king",
        rules: "rules/variants/anti_king.dl",
        puzzle: "tests/data/variants/anti_king.txt",
        solution: "tests/data/variants/anti_king.solution.txt",
        broken: "tests/data/variants/anti_king.broken.txt",
        check: check_anti_king,
    },
    Variant {
        name: "non_consecutive",
        rules: "rules/variants/non_consecutive.dl",
        puzzle: "tests/data/variants/non_consecutive.txt",
        solution: "tests/data/variants/non_consecutive.solution.txt",
        broken: "tests/data/variants/non_consecutive.broken.txt",
        check: check_non_consecutive,
    },
];

/// The arguments that switch a variant on.
fn variant_args(v: &Variant) -> [&'static str; 2] {
    ["--variant", v.name]
}

// ---------------------------------------------------------------------------
// Running sudolog.
// ---------------------------------------------------------------------------

/// `sudolog solve --format json [variant args] EXTRA... FILE`: the exit code
/// and the one JSON result (the file holds one puzzle).
fn solve_json(variant: Option<&Variant>, extra: &[&str], file: &str) -> (i32, Value) {
    let mut cmd = sudolog();
    cmd.args(["solve", "--format", "json"]);
    if let Some(v) = variant {
        cmd.args(variant_args(v));
    }
    cmd.args(extra).arg(file);
    let out = cmd.output().expect("sudolog runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let rows = common::json_lines(&text);
    assert_eq!(
        rows.len(),
        1,
        "one result for {file}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let code = out.status.code().expect("an exit code");
    (code, rows.into_iter().next().expect("one row"))
}

/// The one puzzle or solution line of a data file (comment lines skipped).
fn data_line(path: &str) -> String {
    let lines: Vec<String> = read_lines(path)
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), 1, "{path}: one puzzle line");
    lines[0].clone()
}

/// A 9x9 line of digits (`.` for an open cell: 0).
fn parse_grid(line: &str) -> Grid {
    common::parse_puzzle(line)
}

// ---------------------------------------------------------------------------
// Checkers: plain Rust, independent of the rule files.
// ---------------------------------------------------------------------------

/// The cells of a group hold different digits.
fn distinct(g: &Grid, cells: &[usize], what: &str) -> Result<(), String> {
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if g[a] == g[b] {
                return Err(format!(
                    "{what}: {} and {} both hold {}",
                    common::cell_name(a),
                    common::cell_name(b),
                    g[a]
                ));
            }
        }
    }
    Ok(())
}

/// A valid plain sudoku: every row, column and box holds 1..=9 once.
fn check_plain(g: &Grid) -> Result<(), String> {
    if let Some(c) = (0..N).find(|&c| !(1..=9).contains(&g[c])) {
        return Err(format!("{} holds {}", common::cell_name(c), g[c]));
    }
    units()
        .iter()
        .try_for_each(|u| distinct(g, u, "a row, column or box"))
}

/// X-Sudoku: both long diagonals hold 1..=9 once.
fn check_x(g: &Grid) -> Result<(), String> {
    let main: Vec<usize> = (0..9).map(|i| i * 9 + i).collect();
    let anti: Vec<usize> = (0..9).map(|i| i * 9 + 8 - i).collect();
    distinct(g, &main, "the main diagonal")?;
    distinct(g, &anti, "the anti-diagonal")
}

/// Hyper: the windows at rows and columns 2-4 and 6-8 hold 1..=9 once.
fn check_hyper(g: &Grid) -> Result<(), String> {
    for r0 in [1, 5] {
        for c0 in [1, 5] {
            let cells: Vec<usize> = (0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect();
            distinct(g, &cells, &format!("the window at r{}c{}", r0 + 1, c0 + 1))?;
        }
    }
    Ok(())
}

/// Disjoint groups: the cells at one position within their boxes hold
/// 1..=9 once.
fn check_disjoint(g: &Grid) -> Result<(), String> {
    for pos in 0..9 {
        let cells: Vec<usize> = (0..N)
            .filter(|&c| (row_of(c) % 3) * 3 + col_of(c) % 3 == pos)
            .collect();
        assert_eq!(cells.len(), 9);
        assert!(cells.iter().map(|&c| box_of(c)).eq(0..9));
        distinct(g, &cells, &format!("disjoint group {}", pos + 1))?;
    }
    Ok(())
}

/// Every pair of cells `(a, b)` at the offsets `steps` (rows, columns).
fn offset_pairs(steps: &[(i32, i32)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..N {
        let (r, c) = (row_of(a) as i32, col_of(a) as i32);
        for &(dr, dc) in steps {
            let (r2, c2) = (r + dr, c + dc);
            if (0..9).contains(&r2) && (0..9).contains(&c2) {
                out.push((a, (r2 * 9 + c2) as usize));
            }
        }
    }
    out
}

/// No two cells at the offsets `steps` hold the same digit.
fn check_offsets(g: &Grid, steps: &[(i32, i32)], what: &str) -> Result<(), String> {
    offset_pairs(steps)
        .into_iter()
        .try_for_each(|(a, b)| distinct(g, &[a, b], what))
}

/// Anti-knight: no digit repeats a knight's move away.
fn check_anti_knight(g: &Grid) -> Result<(), String> {
    let steps = [
        (-2, -1),
        (-2, 1),
        (-1, -2),
        (-1, 2),
        (1, -2),
        (1, 2),
        (2, -1),
        (2, 1),
    ];
    assert_eq!(offset_pairs(&steps).len(), 448);
    check_offsets(g, &steps, "a knight's move")
}

/// Anti-king: no digit repeats a king's move away (diagonally adjacent;
/// orthogonal neighbours share a row or column anyway).
fn check_anti_king(g: &Grid) -> Result<(), String> {
    let steps = [
        (-1, -1),
        (-1, 1),
        (1, -1),
        (1, 1),
        (-1, 0),
        (1, 0),
        (0, -1),
        (0, 1),
    ];
    check_offsets(g, &steps, "a king's move")
}

/// Non-consecutive: orthogonal neighbours do not differ by 1.
fn check_non_consecutive(g: &Grid) -> Result<(), String> {
    for (a, b) in offset_pairs(&[(1, 0), (0, 1)]) {
        if g[a].abs_diff(g[b]) == 1 {
            return Err(format!(
                "neighbours {} and {} hold {} and {}",
                common::cell_name(a),
                common::cell_name(b),
                g[a],
                g[b]
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------

#[test]
fn variant_rule_files_load() {
    for v in VARIANTS {
        sudolog()
            .arg("check")
            .args(variant_args(v))
            .assert()
            .success();
    }
}

#[test]
fn the_files_on_disk_are_the_built_in_variants() {
    // `--rules-add rules/variants/NAME.dl` gives what `--variant NAME` does.
    for v in VARIANTS {
        let solution = |args: [&str; 2]| {
            let out = sudolog()
                .args(["solve", "--format", "line", "--count", "2"])
                .args(args)
                .arg(common::repo_path(v.puzzle))
                .output()
                .expect("sudolog runs");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        assert_eq!(
            solution(["--rules-add", v.rules]),
            solution(variant_args(v)),
            "{}",
            v.name
        );
    }
    sudolog()
        .args(["check", "--variant", "sideways"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unknown variant `sideways`"));
}

#[test]
fn the_default_rules_have_no_variant() {
    // The variant files live in a subdirectory of rules/: neither the
    // built-in library nor `--rules rules/` loads them.
    for rules in [None, Some("rules/")] {
        let listing = common::check_listing(rules);
        for v in VARIANTS {
            assert!(
                listing.tier(v.name).is_none()
                    && !listing.rules.iter().any(|r| r.name.contains("variants/")),
                "{rules:?} loads the {} variant:\n{}",
                v.name,
                listing.text
            );
        }
    }
}

#[test]
fn the_checkers_accept_the_solutions_and_reject_plain_grids() {
    for v in VARIANTS {
        let solution = parse_grid(&data_line(v.solution));
        check_plain(&solution).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        (v.check)(&solution).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        let puzzle = parse_grid(&data_line(v.puzzle));
        for c in 0..N {
            assert!(
                puzzle[c] == 0 || puzzle[c] == solution[c],
                "{}: the solution keeps the givens",
                v.name
            );
        }
    }
    // A plain solution that breaks every variant: 4 at r1c1 and r4c4 (the
    // main diagonal, and the top-left cells of boxes 1 and 5), 2 at r2c3
    // and r3c4 (the window at r2c2, and a king's move), 9 at r1c6 and r2c8
    // (a knight's move), 5 next to 6 at r1c4 and r1c5.
    let plain = parse_grid(
        "471569382582143796693278415835416927769325841124987653216794538348651279957832164",
    );
    check_plain(&plain).expect("a valid plain sudoku");
    for v in VARIANTS {
        assert!((v.check)(&plain).is_err(), "{} accepts the pattern", v.name);
    }
}

#[test]
fn variant_puzzles_solve_to_their_solutions() {
    for v in VARIANTS {
        let solution = data_line(v.solution);
        let (code, row) = solve_json(Some(v), &[], v.puzzle);
        assert_eq!(
            (code, &row["status"]),
            (0, &Value::from("solved")),
            "{}: {row}",
            v.name
        );
        assert_eq!(row["solution"], solution.as_str(), "{}", v.name);
        let grid = parse_grid(&solution);
        (v.check)(&grid).unwrap_or_else(|e| panic!("{}: sudolog's solution: {e}", v.name));
    }
}

#[test]
fn variant_puzzles_are_unique() {
    for v in VARIANTS {
        let (code, row) = solve_json(Some(v), &["--count", "2"], v.puzzle);
        assert_eq!(code, 0, "{}: {row}", v.name);
        assert_eq!(row["solutions"], 1, "{}: {row}", v.name);
        assert_eq!(row["search_complete"], true, "{}: {row}", v.name);
        assert_eq!(
            row["solution"],
            data_line(v.solution).as_str(),
            "{}",
            v.name
        );
    }
}

#[test]
fn broken_grids_have_no_solution_with_the_variant() {
    for v in VARIANTS {
        let (code, row) = solve_json(Some(v), &[], v.broken);
        assert_eq!(code, 1, "{}: {row}", v.name);
        assert_eq!(row["status"], "no_solution", "{}: {row}", v.name);

        // Without the variant the grid is a plain sudoku whose solution
        // breaks the variant.
        let (code, row) = solve_json(None, &[], v.broken);
        assert_eq!(
            (code, &row["status"]),
            (0, &Value::from("solved")),
            "{}: {row}",
            v.name
        );
        let grid = parse_grid(row["solution"].as_str().expect("a solution"));
        check_plain(&grid).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert!(
            (v.check)(&grid).is_err(),
            "{}: the plain solution of {} satisfies the variant",
            v.name,
            v.broken
        );
    }
}

#[test]
fn twentyfive_solves_to_its_solution() {
    let solution = data_line("tests/data/twentyfive.solution.txt");
    assert_eq!(solution.len(), 625);
    let (code, row) = solve_json(None, &[], "tests/data/twentyfive.txt");
    assert_eq!((code, &row["status"]), (0, &Value::from("solved")), "{row}");
    assert_eq!(row["size"], "25x25");
    assert_eq!(row["solution"], solution.as_str());
}
