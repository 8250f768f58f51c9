//! Solving one puzzle: the search (or the rules alone), the independent
//! check of every solution, and the result as reports need it.

use crate::engine::{Engine, Guess};
use crate::grid::regions::box_index;
use crate::grid::{Geometry, Puzzle};
use crate::lang::library::RuleSources;
use crate::search::{Mode, SearchOptions, Stop, search};
use std::time::Instant;

/// The hardest tier a solve uses unless told otherwise: singles and locked
/// candidates. With guessing allowed, the subset and fish tiers cost more
/// than the branches they save (about 9x slower on hard puzzles), so they
/// are opt-in (`--max-tier`, `--techniques`); `grade` and `verify-rules`
/// use the whole library.
pub const DEFAULT_MAX_TIER: u32 = 2;

/// The standard rule library with `sudolog solve`'s defaults (tiers up to
/// [`DEFAULT_MAX_TIER`], the default limits), ready to solve puzzles: the
/// library's way to do what the command line does. See the crate's
/// quick start.
pub struct Solver {
    engine: Engine,
    options: SearchOptions,
}

impl Solver {
    /// Compiles the standard library (once; then solve as many puzzles as
    /// you like, from any number of threads).
    pub fn new() -> Result<Solver, String> {
        let mut program = RuleSources::standard().load().map_err(|e| e.to_string())?;
        program.restrict_tier(DEFAULT_MAX_TIER);
        let engine = Engine::new(program).map_err(|d| d.render())?;
        Ok(Solver {
            engine,
            options: SearchOptions::default(),
        })
    }

    /// Solves a puzzle: its first solution (checked against the givens),
    /// or why there is none.
    pub fn solve(&self, puzzle: &Puzzle) -> Outcome {
        solve(&self.engine, puzzle, &self.options)
    }
}

/// What became of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved (the first solution, or every solution counted); each
    /// solution passed the independent check.
    Solved,
    /// The search explored every branch and found no solution.
    NoSolution,
    /// The rules stalled with cells open and guessing was off.
    Stalled,
    /// The rules derived a contradiction and guessing was off: the givens
    /// admit no solution (when the rules are sound).
    Contradiction,
    /// `--max-branches` or `--timeout` stopped the search first.
    Limit(Stop),
    /// The rules produced a grid that breaks Sudoku's constraints: an
    /// unsound or incomplete rule set. Says what and which rules.
    InvalidResult(String),
    /// The rules derived more facts than the limit: the relation that
    /// grew most (a rule that derives without end).
    FactLimit(String),
}

impl Verdict {
    /// The status word used in JSON output.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::NoSolution => "no_solution",
            Verdict::Stalled => "stalled",
            Verdict::Contradiction => "contradiction",
            Verdict::Limit(_) => "limit",
            Verdict::InvalidResult(_) => "invalid_result",
            Verdict::FactLimit(_) => "fact_limit",
        }
    }
}

/// Counters of one puzzle's solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Fixpoint steps, summed over all branches.
    pub steps: u64,
    /// Tuples derived, summed over all branches.
    pub derived: u64,
    /// Digits placed in the reported grid.
    pub placed: usize,
    /// Candidates eliminated in the reported grid.
    pub eliminated: usize,
    /// New facts per rule: `(rule id, count)`, summed over all branches.
    pub firings: Vec<(usize, u64)>,
    /// Branches opened (guesses).
    pub branches: u64,
    /// Branches pruned by a contradiction.
    pub pruned: u64,
    /// Deepest guess.
    pub max_depth: usize,
    /// Wall time in microseconds.
    pub micros: u64,
}

/// The result of solving one puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What became of it.
    pub verdict: Verdict,
    /// The (first) solution, or the digits placed where the rules stopped.
    pub grid: Vec<u8>,
    /// Candidate bitmask per cell where the rules stopped (bit `d` set:
    /// digit `d` still possible).
    pub candidates: Vec<u32>,
    /// Contradiction facts of the givens: reason and cell.
    pub contradictions: Vec<(String, Option<usize>)>,
    /// Solutions found.
    pub solutions: u64,
    /// Whether the search was exhaustive, so `solutions` is exact.
    pub complete: bool,
    /// The guesses that led to the (first) solution.
    pub path: Vec<Guess>,
    /// Counters.
    pub stats: Stats,
    /// The step log (`--trace`).
    pub log: Vec<String>,
}

/// Solves a puzzle as `options` ask.
pub fn solve(engine: &Engine, puzzle: &Puzzle, options: &SearchOptions) -> Outcome {
    let started = Instant::now();
    let r = search(engine, puzzle, options);
    let logic_only = options.mode == Mode::LogicOnly;
    let verdict = match r.stop {
        Stop::InvalidResult => Verdict::InvalidResult(r.invalid.clone().unwrap_or_default()),
        Stop::FactLimit => Verdict::FactLimit(r.grew.clone().unwrap_or_default()),
        Stop::Stalled => Verdict::Stalled,
        // A count stopped by a limit has not answered its question (is
        // there a second solution?), whatever it found by then.
        Stop::Complete | Stop::Enough if r.solutions > 0 => Verdict::Solved,
        // Without guessing, the only way to end with nothing is the root
        // fixpoint's contradiction.
        Stop::Complete if logic_only => Verdict::Contradiction,
        Stop::Complete => Verdict::NoSolution,
        other => Verdict::Limit(other),
    };
    let (grid, candidates) = match &r.first {
        Some(found) if verdict == Verdict::Solved => (found.grid.clone(), Vec::new()),
        _ => r.partial.clone(),
    };
    let n = puzzle.geometry.n;
    // A solved grid reports no pencil marks: each of its cells has every
    // digit but its own eliminated.
    let eliminated = if candidates.is_empty() {
        grid.iter().filter(|&&d| d != 0).count() * n.saturating_sub(1)
    } else {
        candidates
            .iter()
            .map(|m| n.saturating_sub(m.count_ones() as usize))
            .sum()
    };
    let mut firings: Vec<(usize, u64)> = r.stats.firings.iter().map(|(&k, &v)| (k, v)).collect();
    firings.sort_unstable();
    Outcome {
        verdict,
        grid: grid.clone(),
        candidates,
        contradictions: r.root_contradictions,
        solutions: r.solutions,
        complete: r.stop == Stop::Complete,
        path: r.first.map(|f| f.path).unwrap_or_default(),
        log: r.log,
        stats: Stats {
            steps: r.stats.steps,
            derived: r.stats.derived,
            placed: grid.iter().filter(|&&d| d != 0).count(),
            eliminated,
            firings,
            branches: r.stats.branches,
            pruned: r.stats.pruned,
            max_depth: r.stats.max_depth,
            micros: started.elapsed().as_micros() as u64,
        },
    }
}

/// Solves a puzzle with the rules alone (no guessing).
pub fn solve_logic(engine: &Engine, puzzle: &Puzzle) -> Outcome {
    let options = SearchOptions {
        mode: Mode::LogicOnly,
        ..SearchOptions::default()
    };
    solve(engine, puzzle, &options)
}

/// How many solutions a puzzle has, as far as a bounded count tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// The search is complete and found none.
    NoSolution,
    /// The search is complete and found one.
    Unique,
    /// It found two.
    Several,
    /// The bound stopped it first.
    Unknown,
}

/// The branches a uniqueness check opens before it answers `Unknown`: the
/// hardest corpus puzzles need hundreds; this bounds the time a check of a
/// puzzle with no end of branches in sight can take.
pub const UNIQUENESS_BRANCHES: u64 = 100_000;

/// Counts a puzzle's solutions up to two, opening at most `max_branches`
/// branches (see [`UNIQUENESS_BRANCHES`]).
pub fn uniqueness(engine: &Engine, puzzle: &Puzzle, max_branches: u64) -> Uniqueness {
    let options = SearchOptions {
        mode: Mode::Count(2),
        max_branches: Some(max_branches),
        ..SearchOptions::default()
    };
    let r = search(engine, puzzle, &options);
    match (r.solutions, r.stop) {
        (2.., _) => Uniqueness::Several,
        (0, Stop::Complete) => Uniqueness::NoSolution,
        (1, Stop::Complete) => Uniqueness::Unique,
        _ => Uniqueness::Unknown,
    }
}

/// What is wrong with a grid, and the cells concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionError {
    /// In words, naming cells as `r3c5`.
    pub message: String,
    /// The offending cells.
    pub cells: Vec<usize>,
}

/// Checks a complete grid against Sudoku's constraints and the givens,
/// independently of any rule.
pub fn check_solution(g: &Geometry, givens: &[u8], grid: &[u8]) -> Result<(), SolutionError> {
    check_solution_in(g, None, givens, grid)
}

/// [`check_solution`] for a grid whose boxes are a jigsaw's regions (or
/// the regular boxes when `regions` is `None`).
pub fn check_solution_in(
    g: &Geometry,
    regions: Option<&[u8]>,
    givens: &[u8],
    grid: &[u8],
) -> Result<(), SolutionError> {
    let n = g.n;
    let fail = |message: String, cells: Vec<usize>| Err(SolutionError { message, cells });
    if grid.len() != n * n {
        return fail(
            format!("the grid has {} cells, not {}", grid.len(), n * n),
            vec![],
        );
    }
    for (i, (&given, &d)) in givens.iter().zip(grid).enumerate() {
        if d == 0 || d as usize > n {
            return fail(format!("{} holds no digit", g.cell_name(i)), vec![i]);
        }
        if given != 0 && given != d {
            return fail(
                format!(
                    "{} holds {} but the puzzle gives {}",
                    g.cell_name(i),
                    g.digit_symbol(d),
                    g.digit_symbol(given)
                ),
                vec![i],
            );
        }
    }
    let box_kind = if regions.is_some() { "region" } else { "box" };
    // The cells box by box, each box's in cell order (every box has n).
    let mut by_box = vec![0; n * n];
    let mut filled = vec![0; n];
    for c in 0..n * n {
        let b = box_index(g, regions, c);
        if let Some(slot) = filled.get_mut(b).filter(|k| **k < n) {
            by_box[b * n + *slot] = c;
            *slot += 1;
        }
    }
    let mut seen: Vec<Option<usize>> = vec![None; n + 1];
    let mut check_unit = |kind: &str, cells: &mut dyn Iterator<Item = usize>| {
        seen.fill(None);
        for c in cells {
            let d = grid[c] as usize;
            if let Some(prev) = seen[d] {
                return fail(
                    format!(
                        "{} and {} both hold {} in the same {kind}",
                        g.cell_name(prev),
                        g.cell_name(c),
                        g.digit_symbol(grid[c])
                    ),
                    vec![prev, c],
                );
            }
            seen[d] = Some(c);
        }
        Ok(())
    };
    for u in 0..n {
        check_unit("row", &mut (0..n).map(|k| g.cell_at(u, k)))?;
        check_unit("column", &mut (0..n).map(|k| g.cell_at(k, u)))?;
        let cells = by_box.get(u * n..(u + 1) * n).unwrap_or_default();
        check_unit(box_kind, &mut cells.iter().copied())?;
    }
    Ok(())
}
