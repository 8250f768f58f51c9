//! Pencil-mark grids: `n` rows of `n` cells, each cell's candidates written
//! as one word of digits (`1567`), as HoDoKu, Sudoku Explainer and
//! `sudolog solve --logic-only` print a position where solving stalled.
//! Here a line becomes words, a row of words is recognised as such, and a
//! grid of words becomes a [`Puzzle`] with [`Marks`]; the reader decides
//! which lines form the grid.
//!
//! Such a grid cannot tell a given from a digit placed later, nor a placed
//! digit from an open cell with one candidate left, so a one-digit word is
//! taken for a given. When the grid follows sudolog's own digit grid as its
//! `# candidates of the open cells:` comment block, the digit grid says
//! which cells are placed and the block only adds the candidates.

use super::layout::Sym;
use super::marks::{Marks, check_state, no_candidate};
use super::symbols::Symbol;
use super::{Geometry, Origin, Puzzle, PuzzleError};

/// One cell as written in a pencil-mark grid: its characters, each with
/// its line and column.
pub(crate) type Word = Vec<Sym>;

/// How well a line's words fit as a row of a pencil-mark grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// `n` words, at least one of several characters, each a digit of the
    /// size (a one-character word may also be an empty-cell symbol, which
    /// the reader then reports).
    Strict,
    /// `n` words shaped like candidates (the longer ones letters and digits
    /// only) but with characters that are no digit of the size: a row with
    /// typos, or a line of prose that happens to have `n` words.
    Loose,
    /// Not a pencil-mark row of this size.
    No,
}

/// The number of words on a line (split at whitespace and `|`), counted
/// without allocating, so that ordinary lines cost nothing more to read.
pub(crate) fn word_count(text: &str) -> usize {
    let mut count = 0;
    let mut inside = false;
    for ch in text.chars() {
        let gap = is_gap(ch);
        if !gap && !inside {
            count += 1;
        }
        inside = !gap;
    }
    count
}

fn is_gap(ch: char) -> bool {
    ch.is_whitespace() || ch == '|'
}

/// The words of a line: runs of characters between whitespace and `|`.
pub(crate) fn pm_words(text: &str, line: usize) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Word = Vec::new();
    for (i, ch) in text.chars().enumerate() {
        if is_gap(ch) {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        } else {
            current.push(Sym {
                ch,
                line,
                col: i + 1,
            });
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// How `words` fit as a row of a pencil-mark grid of size `g`. A row whose
/// words are all one character is a plain grid row, not this.
pub(crate) fn fit(words: &[Word], g: Geometry) -> Fit {
    if words.len() != g.n || !words.iter().any(|w| w.len() > 1) {
        return Fit::No;
    }
    // A word longer than `n` repeats a digit, and one with punctuation is
    // rather a puzzle line or a label: neither is a candidate set.
    let shaped = |w: &Word| {
        w.len() == 1 || (w.len() <= g.n && w.iter().all(|s| s.ch.is_ascii_alphanumeric()))
    };
    if !words.iter().all(shaped) {
        return Fit::No;
    }
    let digits = |w: &Word| match w.as_slice() {
        [s] => g.classify_symbol(s.ch) != Symbol::Invalid,
        _ => w.iter().all(|s| g.symbol_digit(s.ch).is_some()),
    };
    if words.iter().all(digits) {
        Fit::Strict
    } else {
        Fit::Loose
    }
}

/// The candidates a word writes (bit `d` for digit `d`), or the located
/// error naming `cell`: a character that is no digit of the size, or a
/// lone `.` (a cell with no candidate left).
fn candidate_mask(g: Geometry, word: &Word, cell: usize, file: &str) -> Result<u32, PuzzleError> {
    let name = g.cell_name(cell);
    let mut mask = 0u32;
    for s in word {
        match g.classify_symbol(s.ch) {
            Symbol::Digit(d) => mask |= 1 << d,
            Symbol::Empty if word.len() == 1 => {
                let origin = Origin {
                    file: file.to_string(),
                    line: s.line,
                };
                return Err(no_candidate(&origin, *s, &name));
            }
            _ => {
                return Err(PuzzleError::new(
                    file,
                    s.line,
                    s.col,
                    format!(
                        "'{}' is no digit of a {} grid, in the candidates of {name}: {}; \
                         write each cell's candidates as one word of digits, such as 1567",
                        s.ch.escape_debug(),
                        g.label(),
                        digits_help(g)
                    ),
                ));
            }
        }
    }
    Ok(mask)
}

fn digits_help(g: Geometry) -> String {
    if g.n <= 9 {
        format!("its digits are 1-{}", g.n)
    } else {
        format!("its digits are 1-9 and A-{}", g.digit_symbol(g.n as u8))
    }
}

/// A pencil-mark grid as a puzzle: a one-digit word is a given, a longer
/// word an open cell keeping those candidates. `cells` holds `n * n` words,
/// row-major.
pub(crate) fn assemble_pm(
    g: Geometry,
    cells: &[Word],
    origin: Origin,
) -> Result<Puzzle, PuzzleError> {
    let all = g.digit_mask();
    let mut digits = vec![0u8; g.cell_count()];
    let mut removed = vec![0u32; g.cell_count()];
    for (cell, word) in cells.iter().enumerate() {
        let mask = candidate_mask(g, word, cell, &origin.file)?;
        if word.len() == 1 {
            digits[cell] = mask.trailing_zeros() as u8;
        } else {
            removed[cell] = all & !mask;
        }
    }
    let puzzle = Puzzle {
        geometry: g,
        cells: digits,
        origin,
        positions: positions(cells),
        label: String::new(),
        regions: None,
        marks: Some(Marks {
            entered: vec![0; g.cell_count()],
            removed,
        }),
        clues: Vec::new(),
    };
    check_state(&puzzle)?;
    Ok(puzzle)
}

fn positions(cells: &[Word]) -> Vec<(usize, usize)> {
    cells
        .iter()
        .map(|w| w.first().map_or((0, 0), |s| (s.line, s.col)))
        .collect()
}

/// Gives `puzzle` (a digit grid) the candidates of the pencil-mark grid
/// that follows it: a placed cell must show its digit alone, an open cell
/// keeps the candidates its word lists (one digit is a naked single, not a
/// placement, since the digit grid says the cell is open).
pub(crate) fn merge_candidates(mut puzzle: Puzzle, cells: &[Word]) -> Result<Puzzle, PuzzleError> {
    let g = puzzle.geometry;
    let all = g.digit_mask();
    let mut removed = vec![0u32; g.cell_count()];
    for (cell, word) in cells.iter().enumerate() {
        let mask = candidate_mask(g, word, cell, &puzzle.origin.file)?;
        let d = puzzle.cells.get(cell).copied().unwrap_or(0);
        if d == 0 {
            removed[cell] = all & !mask;
        } else if mask != 1 << d || word.len() != 1 {
            let at = word.first().map_or((0, 0), |s| (s.line, s.col));
            let written: String = word.iter().map(|s| s.ch).collect();
            return Err(PuzzleError::new(
                &puzzle.origin.file,
                at.0,
                at.1,
                format!(
                    "{} holds {} in the grid above, but its candidates here are '{written}': \
                     a placed cell's only candidate is its digit; make the grid and its \
                     candidates agree",
                    g.cell_name(cell),
                    g.digit_symbol(d)
                ),
            ));
        }
    }
    puzzle.marks = Some(Marks {
        entered: vec![0; g.cell_count()],
        removed,
    });
    check_state(&puzzle)?;
    Ok(puzzle)
}

/// Whether a comment line is the header of sudolog's candidates block
/// (`# candidates of the open cells:`), with any spacing and with or
/// without its colon.
pub(crate) fn is_candidates_header(text: &str) -> bool {
    let Some(rest) = text.trim().strip_prefix('#') else {
        return false;
    };
    let words: Vec<&str> = rest
        .trim()
        .trim_end_matches(':')
        .split_whitespace()
        .collect();
    words == ["candidates", "of", "the", "open", "cells"]
}

/// A comment line of the candidates block with its first `#` blanked out,
/// so that its words keep their columns in the file.
pub(crate) fn uncomment(text: &str) -> String {
    text.replacen('#', " ", 1)
}

#[cfg(test)]
#[path = "pmgrid_tests.rs"]
mod tests;
