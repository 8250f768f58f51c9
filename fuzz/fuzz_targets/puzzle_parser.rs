//! Arbitrary bytes as a puzzle file: read every puzzle (and every error),
//! validate and render each one, and check two properties the docs promise:
//! - buffering does not matter: a reader over a tiny `BufReader` yields the
//!   same results as one over the whole slice;
//! - `render_line` / `render_grid` output reads back as the same puzzle;
//! - a puzzle's state (its givens, digits placed in the input and
//!   candidates) written as a candidate line (`solve --format candidates`),
//!   as a digit grid with its `# candidates of the open cells:` block (the
//!   grid format's stall) and as a bare pencil-mark grid reads back as the
//!   same state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;
use sudolog::grid::{
    Geometry, Puzzle, PuzzleError, PuzzleReader, render_candidate_line, render_candidates,
    render_candidates_comment, render_grid, render_jigsaw, render_line, render_region_line,
    validate,
};
use sudolog::report;

fn read_all(input: impl std::io::BufRead, name: &str) -> Vec<Result<Puzzle, PuzzleError>> {
    PuzzleReader::new(input, name).collect()
}

/// Reads rendered text back and returns the one puzzle in it.
fn read_back(text: &str, what: &str) -> Puzzle {
    let mut items = read_all(text.as_bytes(), "roundtrip");
    assert_eq!(
        items.len(),
        1,
        "{what} output should read back as one puzzle:\n{text}\n{items:?}"
    );
    match items.pop().unwrap() {
        Ok(p) => p,
        Err(e) => panic!("{what} output does not read back: {e}\n{text}"),
    }
}

/// Writes `p`'s state in every pencil-mark format sudolog reads and checks
/// that each reads back as that state.
fn check_state_round_trips(g: &Geometry, p: &Puzzle) {
    let masks = p.candidate_masks();
    // Givens and digits placed in the input: the digits of the state.
    let mut digits = p.cells.clone();
    if let Some(marks) = &p.marks {
        for (cell, d) in marks.entered_digits() {
            digits[cell] = d;
        }
    }
    let regions = p.regions.as_deref();

    let mut line = render_candidate_line(g, &digits, &masks);
    if let Some(r) = regions {
        line = format!("{line} {}", render_region_line(r));
    }
    let back = read_back(&line, "render_candidate_line");
    assert_eq!(
        back.candidate_masks(),
        masks,
        "the candidate line changes the state:\n{line}"
    );
    assert_eq!(
        back.regions, p.regions,
        "the candidate line loses the regions:\n{line}"
    );

    let grid = match regions {
        Some(r) => render_jigsaw(g, &digits, r),
        None => render_grid(g, &digits),
    };
    let text = format!("{grid}{}", render_candidates_comment(g, &digits, &masks));
    let back = read_back(&text, "the grid with its candidates block");
    assert_eq!(
        back.cells, digits,
        "the grid with its block changes the digits:\n{text}"
    );
    assert_eq!(
        back.candidate_masks(),
        masks,
        "the grid with its block changes the state:\n{text}"
    );

    // Alone, a pencil-mark grid takes an open cell with one candidate left
    // for a given, which may then repeat a digit: only then may it fail.
    if regions.is_none() {
        let text = render_candidates(g, &digits, &masks);
        let naked = (0..digits.len()).any(|c| digits[c] == 0 && masks[c].count_ones() == 1);
        let mut items = read_all(text.as_bytes(), "roundtrip");
        assert_eq!(
            items.len(),
            1,
            "a pencil-mark grid reads as one puzzle:\n{text}\n{items:?}"
        );
        match items.pop() {
            Some(Ok(back)) => assert_eq!(
                back.candidate_masks(),
                masks,
                "the pencil-mark grid changes the state:\n{text}"
            ),
            Some(Err(e)) => assert!(
                naked,
                "the pencil-mark grid does not read back: {e}\n{text}"
            ),
            None => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let whole = read_all(data, "fuzz.txt");
    // Same input through a 7-byte buffer: lines cross buffer boundaries.
    let small = read_all(BufReader::with_capacity(7, data), "fuzz.txt");
    assert_eq!(whole, small, "results depend on the input buffering");

    for (i, item) in whole.iter().enumerate() {
        let index = i + 1;
        match item {
            Err(e) => {
                let _ = e.to_string();
                let _ = report::error_line(e);
                let _ = report::grid_error(index, e);
                let _ = report::json_error(index, e).to_string();
            }
            Ok(p) => {
                let g = &p.geometry;
                if let Err(e) = validate(p) {
                    let _ = e.to_string();
                    let _ = report::error_line(&e);
                    let _ = report::json_error(index, &e).to_string();
                }
                let line = render_line(g, &p.cells);
                let grid = render_grid(g, &p.cells);
                // Every digit still possible in open cells, then a sparse mask.
                let all: Vec<u32> = vec![u32::MAX; p.cells.len()];
                let _ = render_candidates(g, &p.cells, &all);
                let some: Vec<u32> = (0..p.cells.len() as u32).map(|c| c << 1).collect();
                let _ = render_candidates(g, &p.cells, &some);
                for c in [0, g.cell_count().saturating_sub(1)] {
                    let name = g.cell_name(c);
                    assert_eq!(g.parse_cell_name(&name), Some(c), "cell name {name}");
                }
                let _ = g.label();

                if p.cells.len() == g.cell_count() && p.cells.iter().all(|&d| usize::from(d) <= g.n)
                {
                    for (what, text) in [("render_line", &line), ("render_grid", &grid)] {
                        let back = read_back(text, what);
                        assert_eq!(
                            back.geometry, p.geometry,
                            "{what} changes the size:\n{text}"
                        );
                        assert_eq!(back.cells, p.cells, "{what} changes the cells:\n{text}");
                    }
                    check_state_round_trips(g, p);
                }
            }
        }
    }
});
