//! The note of a run whose rules name cells or units outside its puzzles'
//! grids (`r10c1`, `box10` on a 9x9 puzzle): rules are written for every
//! size, so this is no error, but such a constant matches nothing of those
//! puzzles. `solve`,
//! `grade` and `verify-rules` say so once per grid size, when the first
//! puzzle of that size comes out (in input order, so the notes are the same
//! on every run); `facts`, `query` and `explain` before their one solve.

use crate::lang::program::Program;
use indicatif::ProgressBar;

/// How many constants one grid size's note names; past that, it counts them.
const NAMED: usize = 3;

/// The grid sizes a run has seen, and the rules' cell and unit constants to measure
/// each new one against.
pub struct OutsideCells<'p> {
    program: &'p Program,
    /// The sides seen so far (a run has one or a few).
    seen: Vec<usize>,
}

impl<'p> OutsideCells<'p> {
    /// Nothing seen yet.
    pub fn new(program: &'p Program) -> OutsideCells<'p> {
        OutsideCells {
            program,
            seen: Vec::new(),
        }
    }

    /// Takes the side `n` of the next puzzle, in input order: on its first
    /// puzzle of that size, notes the cell and unit constants outside the grid
    /// (without mixing them into the progress line).
    pub fn puzzle(&mut self, n: usize, progress: &ProgressBar) {
        if self.seen.contains(&n) {
            return;
        }
        self.seen.push(n);
        let program = self.program;
        let outside: Vec<_> = program
            .grid_constants
            .iter()
            .filter(|c| c.outside(n))
            .collect();
        if outside.is_empty() {
            return;
        }
        progress.suspend(|| {
            for c in outside.iter().take(NAMED) {
                let (line, col) = program.sources.line_col(c.span.file, c.span.start);
                noteln!(
                    "{}:{line}:{col}: {} lies outside a {n}x{n} grid: no {} of this run's \
                     {n}x{n} puzzles matches it",
                    program.sources.name(c.span.file),
                    c.name(),
                    c.kind()
                );
            }
            if let Some(more) = outside.len().checked_sub(NAMED).filter(|&k| k > 0) {
                noteln!(
                    "{more} more cell or unit constant{} of the rules lie{} outside a {n}x{n} grid",
                    if more == 1 { "" } else { "s" },
                    if more == 1 { "s" } else { "" }
                );
            }
        });
    }
}
