//! Grids: geometry, reading puzzle files, checking givens, and rendering.
//!
//! # Input formats
//!
//! **Sizes.** 4x4, 9x9, 16x16 and 25x25 grids (boxes 2 to 5 cells wide).
//!
//! **Symbols.** Digits are `1`-`9`, then `A`-`P` for 10 to 25 (lowercase
//! works too). Each size accepts only its own digits: a 9x9 has no `A`, a
//! 16x16 uses `1`-`9` and `A`-`G`. Empty cells are `.` or `_` in every size;
//! `0` also means empty, but only up to 9x9, since some tools write 16x16
//! digits as `0`-`F` and such a file must be rejected, not misread.
//!
//! **Anywhere.** Blank lines and lines starting with `#` are skipped. A
//! UTF-8 byte-order mark at the start is ignored and `\r\n` line endings
//! work. A line that is not UTF-8, or longer than 64 KiB, is an error for
//! the puzzle it belongs to.
//!
//! **One puzzle per line.** The puzzle is the first token of the line,
//! ending at whitespace or at `,`, `;` or `:` (so `puzzle,solution` CSV
//! lines and tdoku's `puzzle:count:solution` lines work). It must be 16,
//! 81, 256 or 625 symbols long. Whatever follows it (a name, a rating) is
//! kept as the puzzle's label. A puzzle may also be written with spaces
//! between its symbols (`1 . 3 ...`) as long as the line holds nothing else.
//!
//! ```text
//! 14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6. essay 1
//! ```
//!
//! **Grid layout.** `n` lines of `n` symbols each. Spaces, tabs, `|` and `+`
//! between symbols are ignored, and lines made only of `-`, `+`, `|`, `=`
//! and spaces are skipped. A grid starts at a line with 4, 9, 16 or 25
//! symbols and must go on for `n` rows of exactly `n` symbols; a blank line
//! inside a grid ends it early, which is an error. (So that a stray text
//! line such as `Puzzle 123` is not taken for a grid row, a line that also
//! holds characters which are no symbol in any size only starts a grid if
//! the next row has the same length.)
//!
//! ```text
//! 1 4 . | . 5 3 | 6 . .
//! . . . | . 7 . | . . .
//! . 5 6 | . . . | 7 . .
//! ------+-------+------
//! ...
//! ```
//!
//! **4x4 or 16x16?** A line of exactly 16 symbols and nothing else is a
//! whole 4x4 puzzle when it is written without spaces or separators and uses
//! only 4x4 symbols (`1`-`4`, `.`, `0`, `_`). Otherwise it is the first row
//! of a 16x16 grid if the next line (not counting comments and separator
//! lines) also has 16 symbols, and a 4x4 puzzle if not.
//!
//! **Pencil-mark states.** A candidate line (`n` characters per cell, each
//! a digit or `.`/`0`: 729 on 9x9) and a line of HoDoKu's library format
//! (`:code:candidates:givens:deleted:...`) are read as a puzzle with
//! [`Marks`]: its digits placed later and its removed candidates.
//!
//! **Pencil-mark grids.** `n` rows of `n` cells where each cell's
//! candidates are one word of digits (`1567`), cells separated by spaces,
//! boxes by `|`, with border lines of `-`, `+`, `|`, `=`, `.`, `:`, `'`, `*`
//! (HoDoKu's `.----.----.` / `:----+----:` / `'----'----'`, Sudoku
//! Explainer's `*-----*`). A row with at least one word of several digits
//! starts one. A one-digit word is a given (the format cannot tell givens
//! from digits placed later); a lone `.` is a cell with no candidate left,
//! which is an error.
//!
//! ```text
//! .----------------.----------------.----------------.
//! | 16   8    3    | 5    2    14   | 46   9    7    |
//! ...
//! ```
//!
//! **A grid with its candidates.** Under a digit grid (or a jigsaw's
//! region map), the comment block that `solve --logic-only` prints for a
//! stall, [`CANDIDATES_HEADER`] followed by `n` rows of candidate words
//! behind `#`, is read as that grid's marks: the grid's digits are givens,
//! the open cells keep the candidates listed (one digit there is an open
//! cell with one candidate). A placed cell must show its own digit alone.
//!
//! **Errors.** Each bad puzzle gives one error, located at `file:line:column`
//! and naming the cell (`r3c5`) where there is one; reading then continues
//! with the next puzzle. Reported problems: a wrong line length, a symbol
//! the size does not accept, a grid row with the wrong number of symbols, a
//! grid cut short, and a digit repeated in a row, column or box; for
//! pencil marks, a cell without candidates, a character that is no digit
//! of the grid, a row with the wrong number of cells, a candidates block
//! that disagrees with its grid or stops short.

mod assemble;
pub mod clues;
mod geometry;
mod inputs;
mod layout;
mod lines;
mod marks;
mod pmgrid;
mod puzzle;
mod reader;
pub mod regions;
mod render;
mod solution;
mod sudocue;
mod symbols;
mod units;
mod validate;

pub use clues::{ClueFact, ClueValue, render_clues};
pub use geometry::{Geometry, cell_name_coords};
pub use inputs::read_inputs;
pub use marks::Marks;
pub use puzzle::{Origin, Puzzle, PuzzleError};
pub use reader::PuzzleReader;
pub use render::{
    CANDIDATES_HEADER, render_candidate_line, render_candidates, render_candidates_comment,
    render_grid, render_jigsaw, render_line, render_region_line,
};
pub use solution::{SolutionError, check_solution, check_solution_in};
pub use symbols::Symbol;
pub use units::{Unit, UnitKind, first_repeat, units};
pub use validate::validate;
