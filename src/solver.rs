//! Solving one puzzle with a compiled rule set: run the fixpoint, verify
//! what it produced with plain Rust, and gather statistics.

use crate::engine::{Engine, Status};
use crate::grid::{Geometry, Puzzle};
use std::time::Instant;

/// What became of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved; the grid passed the independent check.
    Solved,
    /// The rules stalled with cells open.
    Stalled,
    /// The rules derived a contradiction: the givens admit no solution
    /// (when the rules are sound).
    Contradiction,
    /// The rules produced a grid that breaks Sudoku's constraints without
    /// deriving a contradiction: a rule set that is incomplete or unsound.
    InvalidResult(String),
    /// The rules derived more facts than the limit.
    FactLimit,
}

impl Verdict {
    /// The short status word used in line and JSON output.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::Stalled => "stalled",
            Verdict::Contradiction => "contradiction",
            Verdict::InvalidResult(_) => "invalid_result",
            Verdict::FactLimit => "fact_limit",
        }
    }
}

/// Counters of one solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Fixpoint steps (datafrog rounds).
    pub steps: u32,
    /// Tuples inserted into the fact store.
    pub derived: u64,
    /// `placed` facts at the end.
    pub placed: usize,
    /// Eliminated candidates at the end.
    pub eliminated: usize,
    /// New facts per rule: `(rule id, count)`.
    pub firings: Vec<(usize, u32)>,
    /// Wall time in microseconds.
    pub micros: u64,
}

/// The result of solving one puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What became of it.
    pub verdict: Verdict,
    /// The solution, or the digits placed so far (0 = open).
    pub grid: Vec<u8>,
    /// Candidate bitmask per cell (bit `d` = digit `d` still possible).
    pub candidates: Vec<u32>,
    /// Contradiction facts: reason and cell.
    pub contradictions: Vec<(String, Option<usize>)>,
    /// Counters.
    pub stats: Stats,
}

/// Solves a puzzle with the rules alone (no guessing).
pub fn solve_logic(engine: &Engine, puzzle: &Puzzle) -> Outcome {
    let started = Instant::now();
    let mut solve = engine.start(puzzle.geometry, &puzzle.cells);
    let status = solve.run();
    if std::env::var_os("SUDOLOG_DEBUG_PLAN").is_some() {
        eprintln!("{}", solve.debug_dump());
    }
    let grid = solve.grid();
    let candidates = solve.candidates();
    let verdict = match status {
        Status::Solved => match check_solution(&puzzle.geometry, &puzzle.cells, &grid) {
            Ok(()) => Verdict::Solved,
            Err(why) => Verdict::InvalidResult(why),
        },
        Status::Stalled => Verdict::Stalled,
        Status::Contradiction => Verdict::Contradiction,
        Status::Conflict => {
            Verdict::InvalidResult("the rules placed two digits in one cell".to_string())
        }
        Status::FactLimit => Verdict::FactLimit,
    };
    let eliminated = candidates
        .iter()
        .map(|m| puzzle.geometry.n - m.count_ones() as usize)
        .sum();
    Outcome {
        verdict,
        grid: grid.clone(),
        candidates,
        contradictions: solve.contradictions(),
        stats: Stats {
            steps: solve.steps(),
            derived: solve.derived(),
            placed: grid.iter().filter(|&&d| d != 0).count(),
            eliminated,
            firings: solve.firings(),
            micros: started.elapsed().as_micros() as u64,
        },
    }
}

/// Checks a complete grid against Sudoku's constraints and the givens,
/// independently of any rule. Returns what is wrong, naming cells.
pub fn check_solution(g: &Geometry, givens: &[u8], grid: &[u8]) -> Result<(), String> {
    let n = g.n;
    if grid.len() != n * n {
        return Err(format!("the grid has {} cells, not {}", grid.len(), n * n));
    }
    for (i, (&given, &d)) in givens.iter().zip(grid).enumerate() {
        if d == 0 || d as usize > n {
            return Err(format!("{} holds no digit", g.cell_name(i)));
        }
        if given != 0 && given != d {
            return Err(format!(
                "{} holds {} but the puzzle gives {}",
                g.cell_name(i),
                g.digit_symbol(d),
                g.digit_symbol(given)
            ));
        }
    }
    let units = (0..n).flat_map(|u| {
        [
            ("row", (0..n).map(|k| g.cell_at(u, k)).collect::<Vec<_>>()),
            ("column", (0..n).map(|k| g.cell_at(k, u)).collect()),
            (
                "box",
                (0..n)
                    .map(|k| {
                        let b = g.box_size;
                        g.cell_at((u / b) * b + k / b, (u % b) * b + k % b)
                    })
                    .collect(),
            ),
        ]
    });
    for (kind, cells) in units {
        let mut seen = vec![None; n + 1];
        for c in cells {
            let d = grid[c] as usize;
            if let Some(prev) = seen[d] {
                return Err(format!(
                    "{} and {} both hold {} in the same {kind}",
                    g.cell_name(prev),
                    g.cell_name(c),
                    g.digit_symbol(grid[c])
                ));
            }
            seen[d] = Some(c);
        }
    }
    Ok(())
}
