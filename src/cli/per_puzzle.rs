//! What the commands that report per puzzle (`hint`, `path`) share about
//! one puzzle's result: how it came out, worst last, so that the exit code
//! follows the worst of the run; and the line of a puzzle that did not
//! read, which is one result among the others.

use super::{EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED};
use crate::grid::PuzzleError;
use serde_json::json;

/// How a puzzle came out, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Found {
    /// What was asked for: a step, a full grid, a solved path.
    Yes,
    /// Not that: stuck, stalled, impossible, or stopped by a limit.
    No,
    /// The puzzle did not read, or an output file could not be written.
    Invalid,
}

impl Found {
    /// The exit code of a run whose worst puzzle came out so.
    pub fn exit_code(self) -> i32 {
        match self {
            Found::Yes => EXIT_OK,
            Found::No => EXIT_UNSOLVED,
            Found::Invalid => EXIT_INVALID,
        }
    }
}

/// The result of puzzle `i` (0-based) that did not read: a line, or a
/// JSON object on one line.
pub fn invalid(i: usize, e: &PuzzleError, json: bool) -> String {
    if json {
        format!(
            "{}\n",
            json!({"index": i + 1, "status": "invalid", "error": e.to_string()})
        )
    } else {
        format!("invalid: puzzle {}: {e}\n", i + 1)
    }
}
