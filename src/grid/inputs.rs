//! Chains the puzzles of several inputs (files or stdin) into one stream.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader};

use super::{Puzzle, PuzzleError, PuzzleReader};

/// All puzzles of several inputs in order; `-` means standard input. Each
/// input is opened only when the previous one is finished. A file that
/// cannot be opened (or fails mid-read) yields exactly one `Err` naming it
/// (line 0, column 0 for open errors) and iteration goes on with the next.
pub fn read_inputs(paths: &[String]) -> impl Iterator<Item = Result<Puzzle, PuzzleError>> + use<> {
    Inputs {
        paths: paths.iter().cloned().collect(),
        current: None,
    }
}

struct Inputs {
    /// Inputs not opened yet; owned so the iterator outlives the caller's slice.
    paths: VecDeque<String>,
    current: Option<PuzzleReader<Box<dyn BufRead>>>,
}

impl Iterator for Inputs {
    type Item = Result<Puzzle, PuzzleError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.current.as_mut().and_then(Iterator::next) {
                return Some(item);
            }
            let path = self.paths.pop_front()?;
            // The finished reader lets go of its input first (standard
            // input is locked while read).
            self.current = None;
            if path == "-" {
                let stdin: Box<dyn BufRead> = Box::new(io::stdin().lock());
                self.current = Some(PuzzleReader::new(stdin, &path));
                continue;
            }
            match File::open(&path) {
                Ok(file) => {
                    let input: Box<dyn BufRead> = Box::new(BufReader::new(file));
                    self.current = Some(PuzzleReader::new(input, &path));
                }
                Err(e) => {
                    self.current = None;
                    let message =
                        format!("cannot open the file: {e}; check the path and its permissions");
                    return Some(Err(PuzzleError::new(&path, 0, 0, message)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, render_line};

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_files_in_order_and_survives_bad_ones() {
        let items: Vec<_> = read_inputs(&paths(&[
            "tests/data/x4.txt",
            "tests/data/no-such-file.txt",
            "tests/data", // a directory opens but fails on the first read
            "tests/data/essay.txt",
        ]))
        .collect();
        assert_eq!(items.len(), 6);
        assert_eq!(items[0].as_ref().unwrap().geometry.n, 4);
        let open = items[1].as_ref().unwrap_err();
        assert_eq!((open.line, open.column), (0, 0));
        assert!(
            open.to_string()
                .starts_with("tests/data/no-such-file.txt: cannot open the file: ")
        );
        let dir = items[2].as_ref().unwrap_err();
        assert!(
            dir.to_string()
                .starts_with("tests/data:1:1: cannot read the input: ")
        );
        let essay: Vec<&Puzzle> = items[3..].iter().map(|r| r.as_ref().unwrap()).collect();
        assert_eq!(essay[2].origin.line, 3);
        assert_eq!(essay[0].origin.file, "tests/data/essay.txt");
    }

    #[test]
    fn data_files_hold_what_they_claim() {
        let essay: Vec<Puzzle> = read_inputs(&paths(&["tests/data/essay.txt"]))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(essay.len(), 3);
        let grid: Vec<Puzzle> = read_inputs(&paths(&["tests/data/grid_layout.txt"]))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(grid.len(), 1);
        assert_eq!(grid[0].cells, essay[0].cells);
        let g = Geometry::from_side(9).unwrap();
        assert_eq!(
            render_line(&g, &essay[0].cells),
            "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6."
        );
    }

    #[test]
    fn x4_has_exactly_one_solution() {
        let p = read_inputs(&paths(&["tests/data/x4.txt"]))
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(p.geometry.n, 4);
        assert_eq!(count_solutions(&p.geometry, &mut p.cells.clone()), 1);
    }

    /// Plain backtracking; enough for a 4x4 and independent of the real solver.
    fn count_solutions(g: &Geometry, cells: &mut Vec<u8>) -> usize {
        let Some(cell) = cells.iter().position(|&d| d == 0) else {
            return 1;
        };
        let mut total = 0;
        for d in 1..=g.n as u8 {
            let clash = (0..g.cell_count()).any(|o| {
                cells[o] == d
                    && (g.row_of(o) == g.row_of(cell)
                        || g.col_of(o) == g.col_of(cell)
                        || g.box_of(o) == g.box_of(cell))
            });
            if !clash {
                cells[cell] = d;
                total += count_solutions(g, cells);
                cells[cell] = 0;
            }
        }
        total
    }

    #[test]
    fn bad_puzzles_match_expected() {
        let expected = std::fs::read_to_string("tests/data/bad_puzzles.expected").unwrap();
        let got: Vec<String> = read_inputs(&paths(&["tests/data/bad_puzzles.txt"]))
            .map(|r| match r {
                Ok(_) => "ok".to_string(),
                Err(e) => e.to_string(),
            })
            .collect();
        assert_eq!(got, expected.lines().collect::<Vec<_>>());
    }
}
