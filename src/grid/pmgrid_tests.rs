//! Tests of the pencil-mark grid pieces; whole grids are read in
//! `reader_tests.rs`.

use super::*;

fn g9() -> Geometry {
    Geometry { box_size: 3, n: 9 }
}

fn text(w: &Word) -> String {
    w.iter().map(|s| s.ch).collect()
}

#[test]
fn words_split_at_spaces_and_bars_and_keep_columns() {
    let words = pm_words("| 16  8 |3", 4);
    assert_eq!(words.iter().map(text).collect::<Vec<_>>(), ["16", "8", "3"]);
    assert_eq!((words[0][0].line, words[0][0].col), (4, 3));
    assert_eq!(words[2][0].col, 10);
    assert_eq!(word_count("| 16  8 |3"), 3);
    assert_eq!(word_count(""), 0);
    assert_eq!(word_count("  |  "), 0);
}

#[test]
fn rows_fit_strictly_loosely_or_not() {
    let row = |t: &str| fit(&pm_words(t, 1), g9());
    assert_eq!(row("16 8 3 | 5 2 14 | 46 9 7"), Fit::Strict);
    // An empty-cell symbol alone is a cell the reader reports.
    assert_eq!(row("16 8 . | 5 2 14 | 46 9 7"), Fit::Strict);
    // A typo keeps the row's shape.
    assert_eq!(row("16 8 3 | 5 2 1x | 46 9 7"), Fit::Loose);
    // All single symbols: a plain row, not this.
    assert_eq!(row("1 8 3 | 5 2 4 | 6 9 7"), Fit::No);
    // Eight or ten words.
    assert_eq!(row("16 8 3 | 5 2 14 | 46 9"), Fit::No);
    assert_eq!(row("16 8 3 | 5 2 14 | 46 9 7 1"), Fit::No);
    // Punctuation inside a word, or a word longer than n.
    assert_eq!(row("16 8 3 | 5 2 1. | 46 9 7"), Fit::No);
    assert_eq!(row("1234567891 8 3 | 5 2 1 | 46 9 7"), Fit::No);
    let g16 = Geometry { box_size: 4, n: 16 };
    let words = pm_words("1AG 2 3 4 5 6 7 8 9 A B C D E F G", 1);
    assert_eq!(fit(&words, g16), Fit::Strict);
    assert_eq!(fit(&words, g9()), Fit::No);
}

#[test]
fn the_candidates_header_is_recognised_with_any_spacing() {
    assert!(is_candidates_header("# candidates of the open cells:"));
    assert!(is_candidates_header("  #candidates  of the open cells"));
    assert!(!is_candidates_header("# candidates of the cells:"));
    assert!(!is_candidates_header("candidates of the open cells:"));
    assert_eq!(uncomment("#   1 # 2"), "    1 # 2");
}

fn origin() -> Origin {
    Origin {
        file: "p.txt".to_string(),
        line: 1,
    }
}

/// A 4x4 grid of words from 4 lines.
fn cells4(rows: [&str; 4]) -> Vec<Word> {
    rows.iter()
        .enumerate()
        .flat_map(|(i, r)| pm_words(r, i + 1))
        .collect()
}

#[test]
fn a_grid_of_words_is_givens_and_candidates() {
    let g = Geometry { box_size: 2, n: 4 };
    let cells = cells4(["1 23 | 23 4", "34 2 | 1 3", "24 1 | 34 23", "3 4 | 2 1"]);
    let p = assemble_pm(g, &cells, origin()).unwrap();
    assert_eq!(&p.cells[..4], &[1, 0, 0, 4]);
    let marks = p.marks.clone().unwrap();
    // r1c2 keeps 2 and 3: 1 and 4 are removed.
    assert_eq!(marks.removed[1], 1 << 1 | 1 << 4);
    assert_eq!(marks.removed[0], 0);
    assert_eq!(p.positions[1], (1, 3));
    assert_eq!(p.candidate_masks()[1], 1 << 2 | 1 << 3);
    assert_eq!(p.candidate_masks()[0], 1 << 1);
}

#[test]
fn bad_words_are_located_errors_naming_the_cell() {
    let g = Geometry { box_size: 2, n: 4 };
    let e = assemble_pm(
        g,
        &cells4(["1 23 | 25 4", "34 2 | 1 3", "24 1 | 34 23", "3 4 | 2 1"]),
        origin(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.column), (1, 9));
    assert!(
        e.message
            .contains("'5' is no digit of a 4x4 grid, in the candidates of r1c3"),
        "{e}"
    );
    let e = assemble_pm(
        g,
        &cells4(["1 23 | 23 4", "34 2 | 1 3", "24 1 | . 23", "3 4 | 2 1"]),
        origin(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.column), (3, 8));
    assert!(e.message.contains("r3c3 has no candidate left"), "{e}");
    // Two givens 1 in row 1.
    let e = assemble_pm(
        g,
        &cells4(["1 23 | 1 4", "34 2 | 1 3", "24 1 | 34 23", "3 4 | 2 1"]),
        origin(),
    )
    .unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn merging_a_block_keeps_the_grids_digits_and_checks_them() {
    let g = Geometry { box_size: 2, n: 4 };
    let grid = Puzzle {
        geometry: g,
        cells: vec![1, 0, 0, 4, 0, 2, 1, 0, 0, 1, 0, 0, 0, 0, 2, 1],
        origin: origin(),
        positions: vec![(1, 1); 16],
        label: String::new(),
        regions: None,
        marks: None,
        clues: Vec::new(),
    };
    let block = cells4(["1 23 | 23 4", "34 2 | 1 3", "24 1 | 34 23", "3 4 | 2 1"]);
    let p = merge_candidates(grid.clone(), &block).unwrap();
    // r2c4 shows 3 alone but is open in the grid: a naked single, not a given.
    assert_eq!(p.cells[7], 0);
    assert_eq!(p.candidate_masks()[7], 1 << 3);
    assert_eq!(p.cells[0], 1);
    // The grid places 4 in r1c4 but the block gives it 3.
    let bad = cells4(["1 23 | 23 3", "34 2 | 1 3", "24 1 | 34 23", "3 4 | 2 1"]);
    let e = merge_candidates(grid, &bad).unwrap_err();
    assert_eq!((e.line, e.column), (1, 11));
    assert!(
        e.message
            .contains("r1c4 holds 4 in the grid above, but its candidates here are '3'"),
        "{e}"
    );
}
