//! The branching layer: when the rules stall, reason with hypotheses
//! first if asked (`forcing`: what it derives goes back into the fixpoint),
//! then fork the fact store on the open cell with the fewest candidates,
//! place each candidate as a guess in its own fork, and continue the
//! fixpoint depth-first. Forks that derive a contradiction are pruned. Solutions are counted up to a limit; branch
//! and time limits stop the search cleanly. It fills in the [`Outcome`]
//! itself.

use super::forcing::{Forcer, Forcing, ForcingStep, KeptFork, Stop};
use super::outcome::{Outcome, Stats, Verdict};
use super::trace::{BranchEnd, TraceEvent, branch_events};
use crate::engine::{Engine, Guess, Solve, Status};
use crate::grid::{Puzzle, check_solution_in};
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
    /// Record what the search does, step by step ([`Outcome::trace`]).
    pub trace: bool,
    /// Reason with hypotheses where the rules stall, before any guess
    /// (off at depth 0).
    pub forcing: Forcing,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            mode: Mode::First,
            max_branches: None,
            timeout: None,
            trace: false,
            forcing: Forcing::default(),
        }
    }
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

/// What the search has found so far, before it becomes an [`Outcome`].
struct Progress {
    verdict: Option<Verdict>,
    solutions: u64,
    /// The first solution and its guesses.
    first: Option<(Vec<u8>, Vec<Guess>)>,
    /// Where the rules stalled (logic only) or the last state seen.
    partial: (Vec<u8>, Vec<u32>),
    root_contradictions: Vec<(String, Option<usize>)>,
    stats: Stats,
    firings: FxHashMap<usize, u64>,
    trace: Vec<TraceEvent>,
    forcing: Vec<(u32, ForcingStep)>,
}

/// The placements of a contradicted state that stand: the givens, and
/// every other placed digit that is not also eliminated from its cell. A
/// singles rule fires on a digit's last place whether or not that place
/// has lost the digit too, so a unit with no place left for a digit would
/// otherwise show that digit in all its cells.
fn standing(puzzle: &Puzzle, mut grid: Vec<u8>, candidates: &[u32]) -> Vec<u8> {
    for ((d, &given), &left) in grid.iter_mut().zip(&puzzle.cells).zip(candidates) {
        if given == 0 && *d != 0 && left & (1 << *d) == 0 {
            *d = 0;
        }
    }
    grid
}

/// Solves a puzzle as `options` ask: the rules, and guesses where they
/// stall (unless logic only), every solution checked independently.
pub fn solve(engine: &Engine, puzzle: &Puzzle, options: &SearchOptions) -> Outcome {
    solve_keeping(engine, puzzle, options, Keeping::Nothing).0
}

/// A solve kept for inspection: its state worth inspecting, and the forks
/// of each of its forcing steps.
pub struct Kept<'e> {
    /// The first solution's branch, or where the rules stalled or
    /// contradicted, or the wrong grid they filled.
    pub solve: Solve<'e>,
    /// Per forcing step of the outcome ([`Outcome::forcing`], in the same
    /// order): each option's fork where its rules ended.
    pub forks: Vec<Vec<KeptFork<'e>>>,
}

/// What [`solve_keeping`] keeps of a solve for inspection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeping {
    /// Nothing: the outcome is all.
    Nothing,
    /// The state worth inspecting ([`Kept::solve`]).
    State,
    /// The state and each forcing step's forks (for `explain`; the forks
    /// of every step are held to the end).
    Forks,
}

/// [`solve`], also returning the state worth inspecting as `keep` asks
/// (see [`Kept`]; `None` with [`Keeping::Nothing`]).
///
/// Counting runs without the techniques that assume one solution
/// ([`Engine::counting`]). So does a solve that ends with no solution
/// after one of them fired: on a puzzle with several solutions their
/// assumption is false and they may rule every solution out, so the
/// answer is the one without them.
pub fn solve_keeping<'e>(
    engine: &'e Engine,
    puzzle: &Puzzle,
    options: &SearchOptions,
    keep: Keeping,
) -> (Outcome, Option<Kept<'e>>) {
    if matches!(options.mode, Mode::Count(_)) {
        return search(engine.counting(), puzzle, options, keep);
    }
    let (outcome, kept) = search(engine, puzzle, options, keep);
    let none = matches!(
        outcome.verdict,
        Verdict::NoSolution | Verdict::Contradiction
    );
    let assumed =
        engine.used_assumption(&outcome.stats.firings) || outcome.stats.forks_assumed_unique;
    if none && assumed {
        return search(engine.counting(), puzzle, options, keep);
    }
    (outcome, kept)
}

/// The search itself: the rules' fixpoint, then guesses (depth first) as
/// the mode allows.
fn search<'e>(
    engine: &'e Engine,
    puzzle: &Puzzle,
    options: &SearchOptions,
    keeping: Keeping,
) -> (Outcome, Option<Kept<'e>>) {
    let keep = keeping != Keeping::Nothing;
    let mut kept: Option<Solve<'e>> = None;
    // With `keep`: per forcing step, its forks (as `Progress::forcing`).
    let mut kept_forks: Vec<Vec<KeptFork<'e>>> = Vec::new();
    let started = Instant::now();
    let n = puzzle.geometry.n;
    let mut p = Progress {
        verdict: None,
        solutions: 0,
        first: None,
        partial: (puzzle.cells.clone(), vec![0; n * n]),
        root_contradictions: Vec::new(),
        stats: Stats::default(),
        firings: FxHashMap::default(),
        trace: Vec::new(),
        forcing: Vec::new(),
    };
    let mut stack: Vec<Pending> = Vec::new();
    let regions = puzzle.regions.as_deref();
    let deadline = options.timeout.map(|t| started + t);
    let mut root = engine.start_puzzle(puzzle, deadline);
    if let Some(marks) = &puzzle.marks {
        root.enter_marks(&marks.entered_digits(), &marks.removed_candidates());
    }
    let mut current = Some(root);
    let mut forcer = Forcer::new(options.forcing, deadline, options.max_branches);
    loop {
        if let Some(mut solve) = current.take() {
            let since = solve.steps();
            let status = solve.run_until(deadline);
            account(&mut p, &mut solve);
            if options.trace {
                p.trace.extend(branch_events(&solve, since, &status));
            }
            match status {
                Status::Solved => {
                    let grid = solve.grid();
                    let g = &puzzle.geometry;
                    match check_solution_in(g, regions, &puzzle.cells, &grid) {
                        Ok(()) => {
                            p.solutions += 1;
                            if p.first.is_none() {
                                p.first = Some((grid, solve.branch.clone()));
                                if keep {
                                    kept = Some(solve);
                                }
                            }
                            let enough = match options.mode {
                                Mode::First | Mode::LogicOnly => true,
                                Mode::Count(limit) => p.solutions >= limit,
                            };
                            if enough {
                                p.verdict = Some(Verdict::Solved);
                                break;
                            }
                        }
                        Err(e) => {
                            p.verdict = Some(Verdict::InvalidResult(describe_invalid(&solve, &e)));
                            p.partial = (grid, solve.candidates());
                            // A wrong grid is worth inspecting too.
                            if keep {
                                kept = Some(solve);
                            }
                            break;
                        }
                    }
                }
                Status::Contradiction => {
                    if solve.branch.is_empty() {
                        p.root_contradictions = solve.contradictions();
                        let candidates = solve.candidates();
                        p.partial = (standing(puzzle, solve.grid(), &candidates), candidates);
                        if keep {
                            kept = Some(solve);
                        }
                    } else {
                        p.stats.pruned += 1;
                    }
                }
                Status::Conflict => {
                    p.verdict = Some(Verdict::InvalidResult(
                        "the rules placed two digits in one cell without deriving a contradiction"
                            .to_string(),
                    ));
                    p.partial = (solve.grid(), solve.candidates());
                    break;
                }
                Status::FactLimit(grew) => {
                    p.partial = (solve.grid(), solve.candidates());
                    p.verdict = Some(Verdict::FactLimit(grew));
                    break;
                }
                Status::Timeout => {
                    p.partial = (solve.grid(), solve.candidates());
                    p.verdict = Some(Verdict::Timeout);
                    break;
                }
                Status::Stalled => {
                    if options.forcing.depth > 0 {
                        let depth = options.forcing.depth;
                        let found = if keeping == Keeping::Forks {
                            forcer.find_keeping(&mut solve, depth)
                        } else {
                            forcer
                                .find(&mut solve, depth)
                                .map(|f| f.map(|s| (s, Vec::new())))
                        };
                        match found {
                            Ok(Some((step, forks))) => {
                                if keeping == Keeping::Forks {
                                    kept_forks.push(forks);
                                }
                                solve.force(&step.placed, &step.eliminated);
                                p.stats.forcing_steps += 1;
                                p.stats.forcing_depth = p.stats.forcing_depth.max(step.depth);
                                if options.trace {
                                    // The branch goes on: no end to log.
                                    if let Some(TraceEvent::End {
                                        how: BranchEnd::Stalled { .. },
                                        ..
                                    }) = p.trace.last()
                                    {
                                        p.trace.pop();
                                    }
                                    p.trace.push(TraceEvent::Forcing {
                                        step: solve.steps(),
                                        forcing: step.clone(),
                                    });
                                }
                                p.forcing.push((solve.steps(), step));
                                current = Some(solve);
                                continue;
                            }
                            Ok(None) => {}
                            Err(stop) => {
                                p.partial = (solve.grid(), solve.candidates());
                                p.verdict = Some(match stop {
                                    Stop::Timeout => Verdict::Timeout,
                                    Stop::BranchLimit => Verdict::BranchLimit,
                                });
                                break;
                            }
                        }
                    }
                    let grid = solve.grid();
                    let candidates = solve.candidates();
                    if options.mode == Mode::LogicOnly {
                        p.partial = (grid, candidates);
                        p.verdict = Some(Verdict::Stalled);
                        if keep {
                            kept = Some(solve);
                        }
                        break;
                    }
                    if solve.branch.is_empty() {
                        p.partial = (grid.clone(), candidates.clone());
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
                        None => p.stats.pruned += 1,
                    }
                }
            }
        }
        // Limits are checked between branches.
        if options
            .max_branches
            .is_some_and(|m| p.stats.branches >= m && !stack.is_empty())
        {
            p.verdict = Some(Verdict::BranchLimit);
            break;
        }
        if options.timeout.is_some_and(|t| started.elapsed() >= t) {
            p.verdict = Some(Verdict::Timeout);
            break;
        }
        let Some(top) = stack.last_mut() else {
            break;
        };
        let digit = top.options[top.next];
        top.next += 1;
        top.opened.push(p.stats.branches);
        let guess = Guess {
            cell: top.cell,
            digit,
            options: top.options.clone(),
            refuted: top.opened.windows(2).map(|w| w[1] - w[0]).collect(),
        };
        // The last option takes the parent's store itself: no copy.
        let mut child = if top.next == top.options.len() {
            match stack.pop() {
                Some(pending) => pending.solve,
                None => break,
            }
        } else {
            top.solve.fork()
        };
        if options.trace {
            p.trace.push(TraceEvent::Guess {
                cell: guess.cell,
                digit: guess.digit,
                depth: child.branch.len() + 1,
                options: guess.options.clone(),
            });
        }
        child.guess(guess);
        p.stats.branches += 1;
        p.stats.max_depth = p.stats.max_depth.max(child.branch.len());
        current = Some(child);
    }
    p.stats.forks = forcer.tally.forks;
    p.stats.forks_assumed_unique = forcer.tally.assumed_unique;
    let kept = kept.map(|solve| Kept {
        solve,
        forks: kept_forks,
    });
    (outcome(p, puzzle, options, started), kept)
}

/// The outcome of a finished (or stopped) search.
fn outcome(p: Progress, puzzle: &Puzzle, options: &SearchOptions, started: Instant) -> Outcome {
    // No verdict yet: every branch was explored.
    let complete = p.verdict.is_none();
    let verdict = match p.verdict {
        Some(v) => v,
        None if p.solutions > 0 => Verdict::Solved,
        // Without guessing, the only way to end with nothing is the root
        // fixpoint's contradiction.
        None if options.mode == Mode::LogicOnly => Verdict::Contradiction,
        None => Verdict::NoSolution,
    };
    // A solution found is the grid to show, even when a limit then cut a
    // count short (it answered "at least one").
    let (grid, candidates, path) = match p.first {
        Some((grid, path)) if verdict == Verdict::Solved || verdict.is_limit() => {
            (grid, Vec::new(), path)
        }
        Some((_, path)) => (p.partial.0, p.partial.1, path),
        None => (p.partial.0, p.partial.1, Vec::new()),
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
    let mut firings: Vec<(usize, u64)> = p.firings.into_iter().collect();
    firings.sort_unstable();
    Outcome {
        verdict,
        candidates,
        contradictions: p.root_contradictions,
        solutions: p.solutions,
        complete,
        path,
        trace: p.trace,
        forcing: p.forcing,
        stats: Stats {
            placed: grid.iter().filter(|&&d| d != 0).count(),
            eliminated,
            firings,
            micros: started.elapsed().as_micros() as u64,
            ..p.stats
        },
        grid,
    }
}

/// Adds what a branch ran since its last report to the search's counters.
fn account(p: &mut Progress, solve: &mut Solve) {
    let (rounds, derived, firings) = solve.take_counts();
    p.stats.steps += u64::from(rounds);
    p.stats.derived += derived;
    for (rule, n) in firings {
        *p.firings.entry(rule).or_default() += u64::from(n);
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
fn describe_invalid(solve: &Solve, e: &crate::grid::SolutionError) -> String {
    let mut rules: Vec<String> = e.cells.iter().filter_map(|&c| solve.placed_by(c)).collect();
    rules.sort();
    rules.dedup();
    if rules.is_empty() {
        e.message.clone()
    } else {
        format!("{}; placed by {}", e.message, rules.join(", "))
    }
}
