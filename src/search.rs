//! The branching layer: when the rules stall, fork the fact store on the
//! open cell with the fewest candidates, place each candidate as a guess in
//! its own fork, and continue the fixpoint depth-first. Forks that derive a
//! contradiction are pruned. Solutions are counted up to a limit; branch
//! and time limits stop the search cleanly.

use crate::engine::{Engine, Guess, Solve, Status};
use crate::grid::Puzzle;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// What the search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first solution.
    First,
    /// Count solutions, stopping at this many.
    Count(u64),
    /// Never guess: run the rules once and report what they reach.
    LogicOnly,
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// What to look for.
    pub mode: Mode,
    /// Stop after opening this many branches.
    pub max_branches: Option<u64>,
    /// Stop after this much time.
    pub timeout: Option<Duration>,
    /// Keep a step log of every branch.
    pub trace: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            mode: Mode::First,
            max_branches: None,
            timeout: None,
            trace: false,
        }
    }
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every branch was explored.
    Complete,
    /// It found what it was asked for (the first solution, or N of them).
    Enough,
    /// The rules stalled and guessing is off.
    Stalled,
    /// `--max-branches` was reached.
    BranchLimit,
    /// `--timeout` was reached.
    Timeout,
    /// A branch derived too many facts.
    FactLimit,
    /// The rules produced a grid that breaks the constraints.
    InvalidResult,
}

/// Counters of a whole search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Fixpoint rounds, summed over all branches.
    pub steps: u64,
    /// Tuples derived, summed over all branches.
    pub derived: u64,
    /// New facts per rule id, summed over all branches.
    pub firings: FxHashMap<usize, u64>,
    /// Branches opened (one per guess).
    pub branches: u64,
    /// Branches that ended in a contradiction.
    pub pruned: u64,
    /// Deepest guess.
    pub max_depth: usize,
}

/// One solution with the guesses that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The grid.
    pub grid: Vec<u8>,
    /// The guesses on its branch, outermost first.
    pub path: Vec<Guess>,
}

/// What the search produced.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Why it ended.
    pub stop: Stop,
    /// Solutions found (all counted; the first is kept).
    pub solutions: u64,
    /// The first solution found.
    pub first: Option<Found>,
    /// Where the rules stalled (logic only) or the last state seen: grid
    /// and candidate masks.
    pub partial: (Vec<u8>, Vec<u32>),
    /// Contradictions of the root fixpoint (the givens themselves).
    pub root_contradictions: Vec<(String, Option<usize>)>,
    /// For an invalid result: what is wrong and which rules derived it.
    pub invalid: Option<String>,
    /// After a fact limit: the relation that grew without end.
    pub grew: Option<String>,
    /// Counters.
    pub stats: SearchStats,
    /// The step log (`trace` on).
    pub log: Vec<String>,
}

/// A stalled branch waiting for its children to be explored.
struct Pending<'e> {
    solve: Solve<'e>,
    cell: usize,
    options: Vec<u8>,
    next: usize,
    /// The search's branch count when each option so far was opened.
    opened: Vec<u64>,
}

/// Runs the search on a puzzle.
pub fn search(engine: &Engine, puzzle: &Puzzle, options: &SearchOptions) -> SearchResult {
    search_keeping(engine, puzzle, options, false).0
}

/// Runs the search and, if `keep`, also returns the state worth inspecting:
/// the first solution's branch, or where the rules stalled or contradicted.
pub fn search_keeping<'e>(
    engine: &'e Engine,
    puzzle: &Puzzle,
    options: &SearchOptions,
    keep: bool,
) -> (SearchResult, Option<Solve<'e>>) {
    let mut kept: Option<Solve<'e>> = None;
    let started = Instant::now();
    let n = puzzle.geometry.n;
    let mut result = SearchResult {
        stop: Stop::Complete,
        solutions: 0,
        first: None,
        partial: (puzzle.cells.clone(), vec![0; n * n]),
        root_contradictions: Vec::new(),
        invalid: None,
        grew: None,
        stats: SearchStats::default(),
        log: Vec::new(),
    };
    let mut stack: Vec<Pending> = Vec::new();
    let regions = puzzle.regions.as_deref();
    let deadline = options.timeout.map(|t| started + t);
    let mut current = Some(engine.start_until(puzzle.geometry, regions, &puzzle.cells, deadline));
    loop {
        if let Some(mut solve) = current.take() {
            let since = solve.steps();
            let status = solve.run_until(deadline);
            account(&mut result.stats, &solve);
            if options.trace {
                log_branch(&mut result.log, &solve, since, &status, puzzle);
            }
            match status {
                Status::Solved => {
                    let grid = solve.grid();
                    let g = &puzzle.geometry;
                    match crate::solver::check_solution_in(g, regions, &puzzle.cells, &grid) {
                        Ok(()) => {
                            result.solutions += 1;
                            if result.first.is_none() {
                                result.first = Some(Found {
                                    grid,
                                    path: solve.branch.clone(),
                                });
                                if keep {
                                    kept = Some(solve);
                                }
                            }
                            let enough = match options.mode {
                                Mode::First | Mode::LogicOnly => true,
                                Mode::Count(limit) => result.solutions >= limit,
                            };
                            if enough {
                                result.stop = Stop::Enough;
                                break;
                            }
                        }
                        Err(e) => {
                            result.invalid = Some(describe_invalid(&solve, &e));
                            result.partial = (grid, solve.candidates());
                            result.stop = Stop::InvalidResult;
                            break;
                        }
                    }
                }
                Status::Contradiction => {
                    if solve.branch.is_empty() {
                        result.root_contradictions = solve.contradictions();
                        result.partial = (solve.grid(), solve.candidates());
                        if keep {
                            kept = Some(solve);
                        }
                    } else {
                        result.stats.pruned += 1;
                    }
                }
                Status::Conflict => {
                    result.invalid = Some(
                        "the rules placed two digits in one cell without deriving a contradiction"
                            .to_string(),
                    );
                    result.partial = (solve.grid(), solve.candidates());
                    result.stop = Stop::InvalidResult;
                    break;
                }
                Status::FactLimit(grew) => {
                    result.partial = (solve.grid(), solve.candidates());
                    result.stop = Stop::FactLimit;
                    result.grew = Some(grew);
                    break;
                }
                Status::Timeout => {
                    result.partial = (solve.grid(), solve.candidates());
                    result.stop = Stop::Timeout;
                    break;
                }
                Status::Stalled => {
                    let grid = solve.grid();
                    let candidates = solve.candidates();
                    if options.mode == Mode::LogicOnly {
                        result.partial = (grid, candidates);
                        result.stop = Stop::Stalled;
                        if keep {
                            kept = Some(solve);
                        }
                        break;
                    }
                    if solve.branch.is_empty() {
                        result.partial = (grid.clone(), candidates.clone());
                    }
                    match choose_cell(&grid, &candidates, n) {
                        Some((cell, options)) => stack.push(Pending {
                            solve,
                            cell,
                            options,
                            next: 0,
                            opened: Vec::new(),
                        }),
                        // An open cell without candidates: the rules missed
                        // a contradiction; the branch is dead all the same.
                        None => result.stats.pruned += 1,
                    }
                }
            }
        }
        // Limits are checked between branches.
        if options
            .max_branches
            .is_some_and(|m| result.stats.branches >= m && !stack.is_empty())
        {
            result.stop = Stop::BranchLimit;
            break;
        }
        if options.timeout.is_some_and(|t| started.elapsed() >= t) {
            result.stop = Stop::Timeout;
            break;
        }
        let Some(top) = stack.last_mut() else {
            break;
        };
        let digit = top.options[top.next];
        top.next += 1;
        top.opened.push(result.stats.branches);
        let guess = Guess {
            cell: top.cell,
            digit,
            options: top.options.clone(),
            refuted: top.opened.windows(2).map(|w| w[1] - w[0]).collect(),
        };
        // The last option takes the parent's store itself: no copy.
        let mut child = if top.next == top.options.len() {
            match stack.pop() {
                Some(p) => p.solve,
                None => break,
            }
        } else {
            top.solve.fork()
        };
        if options.trace {
            let g = puzzle.geometry;
            result.log.push(format!(
                "guess {} = {} at depth {} (chosen from {})",
                g.cell_name(guess.cell),
                g.digit_symbol(guess.digit),
                child.branch.len() + 1,
                g.digit_set_text(&guess.options)
            ));
        }
        child.guess(guess);
        result.stats.branches += 1;
        result.stats.max_depth = result.stats.max_depth.max(child.branch.len());
        current = Some(child);
    }
    (result, kept)
}

/// Adds a branch's steps and how it ended to the step log.
fn log_branch(log: &mut Vec<String>, solve: &Solve, since: u32, status: &Status, puzzle: &Puzzle) {
    log.extend(crate::inspect::trace::branch_lines(solve, since));
    let g = puzzle.geometry;
    let end = match status {
        Status::Solved => format!("solved at step {}", solve.steps()),
        Status::Stalled => {
            let open = solve.grid().iter().filter(|&&d| d == 0).count();
            format!("stalled at step {} with {open} cells open", solve.steps())
        }
        Status::Contradiction => {
            let why = solve
                .contradictions()
                .first()
                .map(|(r, c)| match c {
                    Some(c) => format!("{r} at {}", g.cell_name(*c)),
                    None => r.clone(),
                })
                .unwrap_or_default();
            if solve.branch.is_empty() {
                format!("contradiction at step {}: {why}", solve.steps())
            } else {
                format!("contradiction at step {}: {why}; backtrack", solve.steps())
            }
        }
        Status::Conflict => "two digits placed in one cell".to_string(),
        Status::FactLimit(grew) => format!("stopped: {grew} grew past the fact limit"),
        Status::Timeout => "stopped: the time limit".to_string(),
    };
    log.push(end);
}

fn account(stats: &mut SearchStats, solve: &Solve) {
    stats.steps += solve.rounds() as u64;
    stats.derived += solve.derived();
    for (rule, n) in solve.firings() {
        *stats.firings.entry(rule).or_default() += n as u64;
    }
}

/// The open cell with the fewest candidates (ties: the lowest cell) and its
/// candidates; `None` if an open cell has none.
fn choose_cell(grid: &[u8], candidates: &[u32], n: usize) -> Option<(usize, Vec<u8>)> {
    let (cell, mask) = grid
        .iter()
        .zip(candidates)
        .enumerate()
        .filter(|(_, (d, _))| **d == 0)
        .map(|(i, (_, m))| (i, *m))
        .min_by_key(|(i, m)| (m.count_ones(), *i))?;
    let options: Vec<u8> = (1..=n as u8).filter(|d| mask & (1 << d) != 0).collect();
    (!options.is_empty()).then_some((cell, options))
}

/// Names the rules that derived the offending `placed` facts of a wrong grid.
fn describe_invalid(solve: &Solve, e: &crate::solver::SolutionError) -> String {
    let mut rules: Vec<String> = e.cells.iter().filter_map(|&c| solve.placed_by(c)).collect();
    rules.sort();
    rules.dedup();
    if rules.is_empty() {
        e.message.clone()
    } else {
        format!("{}; placed by {}", e.message, rules.join(", "))
    }
}
