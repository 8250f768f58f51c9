//! Arbitrary bytes as a puzzle file: read every puzzle (and every error),
//! validate and render each one, and check two properties the docs promise:
//! - buffering does not matter: a reader over a tiny `BufReader` yields the
//!   same results as one over the whole slice;
//! - `render_line` / `render_grid` output reads back as the same puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;
use sudolog::grid::{
    Puzzle, PuzzleError, PuzzleReader, render_candidates, render_grid, render_line, validate,
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
                }
            }
        }
    }
});
