//! sudolog: a Sudoku solver that is a Datalog engine.
//!
//! The grid is a set of relations, every solving technique is a rule in a
//! file under `rules/`, and the rules run to a fixpoint with `datafrog`
//! joins. See ARCHITECTURE.md for the map of the modules.
//!
//! # Quick start
//!
//! Solve a puzzle from a string, with the same rules and defaults as
//! `sudolog solve`:
//!
//! ```
//! use sudolog::{Puzzle, Solver, Verdict, render_line};
//!
//! let puzzle: Puzzle =
//!     "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6."
//!         .parse()?;
//! let solver = Solver::new()?;
//! let outcome = solver.solve(&puzzle);
//! assert_eq!(outcome.verdict, Verdict::Solved);
//! assert_eq!(
//!     render_line(&puzzle.geometry, &outcome.grid),
//!     "147253698398176245256489731839761524714925386625348917582694173963817452471532869"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Count solutions, or solve with rules of your own: load a rule set,
//! compile it into an [`Engine`] once, and [`solve`] as the
//! [`SearchOptions`] ask:
//!
//! ```
//! use sudolog::{DEFAULT_MAX_TIER, Engine, Mode, Puzzle, RuleSources, SearchOptions, solve};
//!
//! let mut rules = RuleSources::standard();
//! rules.add_variant("x")?; // X-Sudoku: the diagonals are units too
//! let mut program = rules.load()?;
//! program.restrict_tier(DEFAULT_MAX_TIER);
//! let engine = Engine::new(program)?;
//! let puzzle: Puzzle =
//!     "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6."
//!         .parse()?;
//! let counting = SearchOptions { mode: Mode::Count(2), ..SearchOptions::default() };
//! let outcome = solve(&engine, &puzzle, &counting);
//! // Its one classic solution breaks a diagonal: as an X-Sudoku it has none.
//! assert_eq!((outcome.solutions, outcome.complete), (0, true));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The crate's API
//!
//! The items at the root are the library's front door:
//!
//! - puzzles: [`Puzzle`] (parsed from a string, or read by a
//!   [`PuzzleReader`] in the formats [`grid`] describes), [`Geometry`],
//!   [`render_line`], [`render_grid`];
//! - solving as `sudolog solve` does: [`Solver`], whose [`Outcome`] holds
//!   the [`Verdict`], the grid, the candidates and the [`Stats`];
//! - rule sets of one's own: [`RuleSources`] (the standard library,
//!   variants, files) loads into a checked [`Program`] (narrowed with
//!   [`Program::restrict_tier`] or [`Program::restrict_techniques`]),
//!   compiled once into an [`Engine`] that any number of threads share;
//!   [`solve`] with [`SearchOptions`] (a [`Mode`] and limits),
//!   [`solve_logic`] (the rules alone), [`uniqueness`];
//! - [`check_solution`]: a grid checked against the givens and Sudoku's
//!   constraints, independently of any rule.
//!
//! The modules hold the rest: the rule language's syntax tree and checked
//! program in [`lang`], the compiled rules and their per-puzzle state in
//! [`engine`], fact snapshots, queries and explanations in [`inspect`].

// Input never panics the tool: no `unwrap`/`expect` outside tests.
#![warn(clippy::unwrap_used, clippy::expect_used)]
// Every public item says what it is for (binding: CI denies warnings).
#![warn(missing_docs)]

// Parallel batches in input order: only the commands use them.
mod batch;
// The command line. Public only so that the binary (`src/main.rs`) can
// reach it; it is no library API.
#[doc(hidden)]
pub mod cli;
pub mod engine;
pub mod generate;
pub mod grid;
pub mod inspect;
pub mod lang;
pub mod picture;
pub mod reglib;
pub mod report;
pub mod solve;

// The front door (see the crate's documentation), shown at the root with
// the items' own documentation.
#[doc(inline)]
pub use grid::{Geometry, Puzzle, PuzzleError, PuzzleReader, render_grid, render_line};
#[doc(inline)]
pub use solve::{Outcome, Solver, Stats, Verdict};

#[doc(inline)]
pub use engine::Engine;
#[doc(inline)]
pub use grid::{SolutionError, check_solution};
#[doc(inline)]
pub use lang::diag::Diagnostics;
#[doc(inline)]
pub use lang::library::{RuleSources, RulesError};
#[doc(inline)]
pub use lang::program::Program;
#[doc(inline)]
pub use solve::{DEFAULT_MAX_TIER, Uniqueness, solve, solve_logic, uniqueness};
#[doc(inline)]
pub use solve::{Mode, SearchOptions};
