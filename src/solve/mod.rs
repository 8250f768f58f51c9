//! Solving one puzzle: the rules' fixpoint, hypotheses (`forcing`) and
//! guesses where they stall (`search`), every solution checked in plain Rust
//! (`grid::check_solution_in`), and one result vocabulary for all of it
//! (`outcome`). Beside it, what is built on solving: the bounded
//! uniqueness check, grading (`grade`), and the search's step log as data
//! (`trace`).
//!
//! Where to start reading: [`solve`] (in `search.rs`) is the whole loop;
//! [`Outcome`] is what it gives back.

mod forcing;
mod grade;
mod hint;
mod outcome;
mod search;
mod trace;

pub use forcing::{
    Forcing, ForcingStep, ForkEnd, ForkResult, Hypothesis, KeptFork, Stop, forcing_step,
};
pub use grade::{Grade, Graded, SolutionCount, grade};
pub use hint::{Hint, HintFact, Hinter, HinterError, Step};
pub use outcome::{Outcome, Stats, Verdict};
pub use search::{Keeping, Kept, Mode, SearchOptions, solve, solve_keeping};
pub use trace::{BranchEnd, TraceEvent};

use crate::engine::Engine;
use crate::grid::Puzzle;
use crate::lang::library::RuleSources;

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

    /// Counts a puzzle's solutions up to `limit` (`--count`): the outcome's
    /// `solutions`, exact when `complete`; the first solution's grid when
    /// there is one.
    pub fn count(&self, puzzle: &Puzzle, limit: u64) -> Outcome {
        let options = SearchOptions {
            mode: Mode::Count(limit.max(1)),
            ..self.options
        };
        solve(&self.engine, puzzle, &options)
    }

    /// Whether a puzzle has exactly one solution, as far as a bounded
    /// count tells (see [`uniqueness`]).
    pub fn uniqueness(&self, puzzle: &Puzzle) -> Uniqueness {
        uniqueness(&self.engine, puzzle, UNIQUENESS_BRANCHES)
    }

    /// The compiled rules, to inspect them or to solve with other
    /// [`SearchOptions`] through [`solve`].
    pub fn engine(&self) -> &Engine {
        &self.engine
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
    let outcome = solve(engine, puzzle, &options);
    match (outcome.solutions, outcome.complete) {
        (2.., _) => Uniqueness::Several,
        (0, true) => Uniqueness::NoSolution,
        (1, true) => Uniqueness::Unique,
        _ => Uniqueness::Unknown,
    }
}
