//! Jigsaw puzzles: a region map (after the puzzle on its line, or as a
//! block after its grid) replaces the boxes, in the rules' `in_unit` and
//! `box` facts, in the check of the givens and in the check of solutions.

use crate::common;

use common::{read_lines, repo_path, sudolog};

const MAP: &str =
    "AAABBCCCCAAABBBCCCAADBBBBCCADDEEEFFFDDDEEEFFFDDDEEHFFFGGGEHHIIIGGGHHHIIIGGGHHHIII";

fn solve_line(input: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = sudolog()
        .args(["solve", "--format", "line"])
        .args(extra)
        .arg("-")
        .write_stdin(input)
        .output()
        .expect("sudolog runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn both_layouts_solve_to_the_unique_jigsaw_solution() {
    let solutions = read_lines("tests/data/jigsaw.solution.txt");
    sudolog()
        .args(["solve", "--format", "line", "--count", "2"])
        .arg(repo_path("tests/data/jigsaw.txt"))
        .assert()
        .success()
        .stdout(format!(
            "{} # 1 solution (unique)\n{} # 1 solution (unique)\n",
            solutions[0], solutions[1]
        ));
}

#[test]
fn the_regions_matter_without_the_map_the_puzzle_is_not_unique() {
    let puzzle = read_lines("tests/data/jigsaw.txt")
        .into_iter()
        .find(|l| l.ends_with(MAP))
        .expect("the line layout");
    let givens = puzzle.split_whitespace().next().expect("the puzzle");
    let (code, out, _) = solve_line(givens, &["--count", "2"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("# 2 solutions"), "{out}");
}

#[test]
fn a_grid_that_breaks_a_region_is_rejected_naming_the_region() {
    // A valid plain sudoku, but with two 4s in region C of the map.
    let plain = read_lines("tests/data/techniques/sample.solutions.txt")[0].clone();
    let (code, out, err) = solve_line(&format!("{plain} {MAP}\n"), &[]);
    assert_eq!(code, Some(2));
    assert!(
        out.contains("# invalid: <stdin>:1:16: digit 4 at r2c7 repeats the 4 at r1c6 in region C"),
        "{out}"
    );
    assert!(err.contains("region C"), "{err}");
}

#[test]
fn bad_region_maps_are_located() {
    let puzzle = ".".repeat(81);
    let cases = [
        // One A too many (and one B too few).
        (MAP.replacen('B', "A", 1), "1:83: region 'A' has 10 cells"),
        // A J in a 9x9 map.
        (
            MAP.replacen('I', "J", 1),
            "'J' is not a region letter of a 9x9 jigsaw",
        ),
        // Two A cells swapped with two far-away I cells: A is in pieces.
        (
            format!("IIABBCCCC{}AA", &MAP[9..79]),
            "region 'A' is in pieces",
        ),
    ];
    for (map, want) in cases {
        let (code, out, _) = solve_line(&format!("{puzzle} {map}\n"), &[]);
        assert_eq!(code, Some(2), "{map}: {out}");
        assert!(out.contains(want), "{map}: {out}");
    }
    // A grid block whose region map stops short.
    let mut text = String::new();
    for _ in 0..9 {
        text.push_str(&".".repeat(9));
        text.push('\n');
    }
    text.push_str("AAABBCCCC\nAAABBBCCC\n\n");
    let (code, out, _) = solve_line(&text, &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("the region map has only 2 of its 9 rows"),
        "{out}"
    );
}

#[test]
fn grid_output_reads_back_as_the_same_jigsaw() {
    let out = sudolog()
        .arg("solve")
        .arg(repo_path("tests/data/jigsaw.txt"))
        .output()
        .expect("sudolog runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains(&MAP[..9]), "the map is printed:\n{text}");
    assert!(!text.contains('|'), "no regular box lines:\n{text}");
    let (code, again, _) = solve_line(&text, &["--count", "2"]);
    assert_eq!(code, Some(0));
    let solution = &read_lines("tests/data/jigsaw.solution.txt")[0];
    assert_eq!(again.lines().count(), 2, "{again}");
    assert!(
        again
            .lines()
            .all(|l| l == format!("{solution} # 1 solution (unique)")),
        "{again}"
    );
}

#[test]
fn variants_built_on_box_geometry_refuse_a_jigsaw() {
    // `box_width` has no fact in a jigsaw; hyper and disjoint say so
    // instead of solving a different puzzle.
    for (variant, reason) in [
        ("hyper", "the hyper windows need square boxes, not a jigsaw"),
        (
            "disjoint",
            "disjoint groups need square boxes, not a jigsaw",
        ),
    ] {
        let out = sudolog()
            .args(["solve", "--format", "line", "--variant", variant])
            .arg(repo_path("tests/data/jigsaw.txt"))
            .output()
            .expect("sudolog runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(
            text.lines()
                .all(|l| l.starts_with("# no solution") && l.contains(reason)),
            "{text}"
        );
    }
}
