//! The values the reader hands out: a puzzle, where it came from, and what
//! went wrong when there is no puzzle.

use std::fmt;

use super::Geometry;

/// Where a puzzle came from, so reports can point back into the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Display name of the input (`<stdin>` for standard input).
    pub file: String,
    /// 1-based line of the puzzle's first row (or its only line).
    pub line: usize,
}

/// One puzzle as read from the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Size of the grid.
    pub geometry: Geometry,
    /// Cell values, row-major: 0 = empty, 1..=n a given digit.
    pub cells: Vec<u8>,
    /// Where the puzzle starts in its input.
    pub origin: Origin,
    /// For each cell, the 1-based (line, column) of its symbol, so later
    /// checks can point at the exact character.
    pub positions: Vec<(usize, usize)>,
    /// Text after the puzzle on its line (a name, a rating), trimmed; may be empty.
    pub label: String,
    /// A jigsaw's region map, which replaces the boxes; `None` for regular boxes.
    pub regions: Option<super::regions::RegionMap>,
    /// For a pencil-mark state, its digits placed later and its removed
    /// candidates; `None` for a puzzle of givens only.
    pub marks: Option<super::marks::Marks>,
    /// The facts the puzzle carries on the lines after it (a killer's
    /// cages, a thermometer's cells), for the rules that declare them
    /// `.input`; empty for most puzzles.
    pub clues: Vec<super::clues::ClueFact>,
}

/// A problem with one puzzle, or with a whole input that cannot be read,
/// located at the character a user has to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// Display name of the input.
    pub file: String,
    /// 1-based line; 0 when the whole input is at fault (it cannot be opened).
    pub line: usize,
    /// 1-based column (in characters); 0 when there is no single column.
    pub column: usize,
    /// What is wrong and what to do about it; cells are named like `r3c5`.
    pub message: String,
}

impl PuzzleError {
    /// Builds an error; saves callers from spelling out the four fields.
    pub fn new(file: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
        PuzzleError {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for PuzzleError {
    /// `file:line:column: message`, the shape editors and CI logs link to;
    /// `file: message` for what concerns the file as a whole (line 0: it
    /// could not be opened).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.file, self.message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// A puzzle made in code rather than read (a generated one): its
    /// givens row-major (0 = empty), regular boxes, and `name` as its
    /// origin, line 1.
    pub fn from_cells(geometry: Geometry, cells: Vec<u8>, name: &str) -> Puzzle {
        Puzzle {
            geometry,
            positions: (0..cells.len()).map(|c| (1, c + 1)).collect(),
            cells,
            origin: Origin {
                file: name.to_string(),
                line: 1,
            },
            label: String::new(),
            regions: None,
            marks: None,
            clues: Vec::new(),
        }
    }
}

/// Reads one puzzle from text in any format `sudolog` reads (a line of 16,
/// 81, 256 or 625 symbols, a grid of rows, a jigsaw with its region map).
/// Text with no puzzle or with more than one is an error.
impl std::str::FromStr for Puzzle {
    type Err = PuzzleError;

    fn from_str(text: &str) -> Result<Puzzle, PuzzleError> {
        const NAME: &str = "<string>";
        let mut puzzles = super::PuzzleReader::new(text.as_bytes(), NAME);
        let first = puzzles
            .next()
            .unwrap_or_else(|| Err(PuzzleError::new(NAME, 1, 1, "no puzzle in this text")))?;
        match puzzles.next() {
            None => Ok(first),
            Some(second) => {
                let line = second.map_or_else(|e| e.line, |p| p.origin.line);
                Err(PuzzleError::new(
                    NAME,
                    line,
                    1,
                    "this text holds more than one puzzle; parse one at a time \
                     (or read them all with `PuzzleReader`)",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_file_line_column_message() {
        let e = PuzzleError::new("a.txt", 3, 7, "bad");
        assert_eq!(e.to_string(), "a.txt:3:7: bad");
    }
}
