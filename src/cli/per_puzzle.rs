//! What the commands that report per puzzle (`hint`, `path`) share about
//! one puzzle's result: how it came out, worst last, so that the exit code
//! follows the worst of the run; and the line of a puzzle that did not
//! read, which is one result among the others.

use super::{EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED};
use crate::grid::PuzzleError;
use serde_json::json;
use std::path::Path;

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

/// Creates the folder pictures go to (`--svg DIR`), if one is asked for;
/// says why not and returns false when it cannot.
pub fn picture_folder(dir: Option<&Path>) -> bool {
    let Some(dir) = dir else { return true };
    match std::fs::create_dir_all(dir) {
        Ok(()) => true,
        Err(e) => {
            errorln!(
                "{}: cannot create the picture folder: {e}; name a folder you can write to",
                dir.display()
            );
            false
        }
    }
}

/// Whether `--puzzle N` asked for a puzzle the input does not have (none
/// was seen); says so.
pub fn puzzle_missing(asked: Option<u64>, seen: usize) -> bool {
    let Some(n) = asked.filter(|_| seen == 0) else {
        return false;
    };
    errorln!("the input has no puzzle number {n}; count the puzzles or pass a smaller --puzzle");
    true
}
