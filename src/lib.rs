//! sudolog: a Sudoku solver that is a Datalog engine.
//!
//! The grid is a set of relations, every solving technique is a rule in a
//! file under `rules/`, and the rules run to a fixpoint with `datafrog`
//! joins. See ARCHITECTURE.md for the map of the modules.

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
