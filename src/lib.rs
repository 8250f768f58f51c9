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
//! use sudolog::grid::{Puzzle, render_line};
//! use sudolog::solver::{Solver, Verdict};
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

// Input never panics the tool: no `unwrap`/`expect` outside tests.
#![warn(clippy::unwrap_used, clippy::expect_used)]

pub mod batch;
pub mod cli;
pub mod engine;
pub mod grid;
pub mod inspect;
pub mod lang;
pub mod report;
pub mod search;
pub mod solver;
