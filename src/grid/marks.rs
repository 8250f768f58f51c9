//! Pencil-mark states: a puzzle read with more than its givens, as players
//! and solvers exchange a position where they are stuck. Two one-line
//! formats are read here: the candidate line (sukaku style, `n` characters
//! per cell, the digit at its own place or `.`/`0`) and a line of HoDoKu's
//! regression library (`:code:candidates:givens:deleted:...`, with `+`
//! before a digit placed later rather than given).

use super::layout::Sym;
use super::symbols::Symbol;
use super::{Geometry, Origin, Puzzle, PuzzleError, validate};

/// What a pencil-mark state says beyond its givens. The engine starts the
/// fixpoint with these digits placed and these candidates eliminated, each
/// fact's origin being the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Per cell (row-major), a digit placed in the input that is not a
    /// given (HoDoKu's `+`; some uniqueness techniques tell them apart), or
    /// 0.
    pub entered: Vec<u8>,
    /// Per cell, the candidates the input removed (bit `d` for digit `d`).
    pub removed: Vec<u32>,
}

impl Marks {
    /// `(cell, digit)` of every digit placed in the input.
    pub fn entered_digits(&self) -> Vec<(usize, u8)> {
        (self.entered.iter().enumerate())
            .filter(|&(_, &d)| d != 0)
            .map(|(c, &d)| (c, d))
            .collect()
    }

    /// `(cell, digit)` of every candidate removed in the input, cells in
    /// order, digits ascending.
    pub fn removed_candidates(&self) -> Vec<(usize, u8)> {
        (self.removed.iter().enumerate())
            .flat_map(|(c, &m)| {
                (1..32u8)
                    .filter(move |&d| m & (1 << d) != 0)
                    .map(move |d| (c, d))
            })
            .collect()
    }
}

impl Puzzle {
    /// The candidates of every cell in this state (bit `d` for digit `d`):
    /// a given or a digit placed in the input is its only candidate, an
    /// open cell keeps every digit its marks did not remove. Two readings
    /// of one position in different formats give the same masks, even
    /// where one format calls a digit a given and the other a cell with
    /// one candidate left.
    pub fn candidate_masks(&self) -> Vec<u32> {
        let all = self.geometry.digit_mask();
        (0..self.cells.len())
            .map(|cell| {
                let entered = self.marks.as_ref().and_then(|m| m.entered.get(cell));
                let removed = self.marks.as_ref().and_then(|m| m.removed.get(cell));
                match (self.cells[cell], entered.copied().unwrap_or(0)) {
                    (0, 0) => all & !removed.copied().unwrap_or(0),
                    (0, d) | (d, _) => 1u32.checked_shl(u32::from(d)).unwrap_or(0),
                }
            })
            .collect()
    }
}

/// The lengths of a candidate line: `n` characters for each of `n * n`
/// cells.
pub(crate) fn candidate_line_geometry(len: usize) -> Option<Geometry> {
    Geometry::all().find(|g| g.n.pow(3) == len)
}

/// Reads a candidate line (`token`, `n * n * n` symbols): for each cell, `n`
/// characters, each a digit (a candidate) or `.`/`0` (none). A cell left
/// with no candidate is an error at its first character. A cell with one
/// candidate is a given: that is how `solve --format candidates` writes a
/// placed cell (so a hint must not offer it as a naked single), and the
/// line cannot tell a given from a digit placed later, so the safe reading
/// is the one the uniqueness techniques cannot misuse (a deadly pattern
/// must avoid givens; one through a clue taken for a placed digit would be
/// unsound), as with pencil-mark grids.
pub(crate) fn read_candidate_line(
    g: Geometry,
    token: &[Sym],
    origin: Origin,
    label: String,
) -> Result<Puzzle, PuzzleError> {
    let n = g.n;
    let all = g.digit_mask();
    let mut removed = Vec::with_capacity(g.cell_count());
    let mut cells = vec![0; g.cell_count()];
    for (cell, chunk) in token.chunks(n).enumerate() {
        let mut left = 0u32;
        for s in chunk {
            match g.classify_symbol(s.ch) {
                Symbol::Digit(d) => left |= 1 << d,
                Symbol::Empty => {}
                Symbol::Invalid => {
                    return Err(PuzzleError::new(
                        &origin.file,
                        s.line,
                        s.col,
                        format!(
                            "'{}' is no candidate of {} in a {} candidate line: each cell is {n} \
                             characters, each a digit or '.'",
                            s.ch,
                            g.cell_name(cell),
                            g.label()
                        ),
                    ));
                }
            }
        }
        if left == 0 {
            return Err(no_candidate(&origin, chunk[0], &g.cell_name(cell)));
        }
        if left.count_ones() == 1 {
            cells[cell] = left.trailing_zeros() as u8;
        }
        removed.push(all & !left);
    }
    let positions = token.chunks(n).map(|c| (c[0].line, c[0].col)).collect();
    let entered = vec![0; g.cell_count()];
    Ok(Puzzle {
        geometry: g,
        cells,
        origin,
        positions,
        label,
        regions: None,
        marks: Some(Marks { entered, removed }),
        clues: Vec::new(),
    })
}

/// The error for a cell left without a candidate, located at `at`.
pub(crate) fn no_candidate(origin: &Origin, at: Sym, cell: &str) -> PuzzleError {
    PuzzleError::new(
        &origin.file,
        at.line,
        at.col,
        format!(
            "{cell} has no candidate left: this pencil-mark state is impossible; restore at least one candidate of {cell}"
        ),
    )
}

/// Reads a line of HoDoKu's library format,
/// `:code:candidates:givens:deleted:eliminations:placements:extra` (9x9):
/// the givens (81 symbols, `+` before a digit placed later), then the
/// candidates deleted since, as `digit row column` triples separated by
/// spaces. The label is the technique's code. The rest of the line (what
/// the technique should find) is left to whoever reads the label.
pub(crate) fn read_hodoku_line(
    text: &str,
    line: usize,
    origin: Origin,
) -> Result<Puzzle, PuzzleError> {
    let g = Geometry { box_size: 3, n: 9 };
    let err = |col: usize, message: String| PuzzleError::new(&origin.file, line, col, message);
    // Each field with the 1-based column of its first character.
    let start = text.len() - text.trim_start().len();
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut col = text[..start].chars().count() + 2;
    for f in text.trim_start()[1..].split(':') {
        fields.push((col, f));
        col += f.chars().count() + 1;
    }
    if fields.len() < 4 {
        return Err(err(
            1,
            "a HoDoKu library line needs at least `:code:candidates:givens:deleted:`; \
             this one has fewer fields"
                .to_string(),
        ));
    }
    let code = fields[0].1.trim().to_string();
    let (gcol, givens) = fields[2];
    let mut cells = Vec::with_capacity(81);
    let mut entered = Vec::with_capacity(81);
    let mut positions = Vec::with_capacity(81);
    let mut plus = false;
    for (i, ch) in givens.chars().enumerate() {
        let at = gcol + i;
        if ch == '+' {
            plus = true;
            continue;
        }
        if cells.len() == 81 {
            return Err(err(
                at,
                "the givens field has more than 81 cells".to_string(),
            ));
        }
        let cell = cells.len();
        let d = match g.classify_symbol(ch) {
            Symbol::Digit(d) => d,
            Symbol::Empty if !plus => 0,
            _ => {
                return Err(err(
                    at,
                    format!(
                        "'{ch}' is no digit of {}: the givens field holds digits, '.' or '0' \
                         for an empty cell, and '+' before a digit placed later",
                        g.cell_name(cell)
                    ),
                ));
            }
        };
        if std::mem::take(&mut plus) {
            cells.push(0);
            entered.push(d);
        } else {
            cells.push(d);
            entered.push(0);
        }
        positions.push((line, at));
    }
    if plus {
        return Err(err(
            gcol + givens.chars().count() - 1,
            "a '+' ends the givens field: it must come before the digit placed later".to_string(),
        ));
    }
    if cells.len() != 81 {
        return Err(err(
            gcol,
            format!(
                "the givens field has {} cells; a HoDoKu line needs 81 (9x9)",
                cells.len()
            ),
        ));
    }
    let mut removed = vec![0u32; 81];
    let (dcol, deleted) = fields[3];
    let mut offset = 0;
    for word in deleted.split(' ') {
        let at = dcol + offset;
        offset += word.chars().count() + 1;
        if word.is_empty() {
            continue;
        }
        let digits: Vec<u32> = word.chars().filter_map(|c| c.to_digit(10)).collect();
        if word.chars().count() != 3 || digits.len() != 3 || digits.contains(&0) {
            return Err(err(
                at,
                format!(
                    "'{word}' is no deleted candidate: write digit, row and column, \
                     such as 829 for 8 in r2c9"
                ),
            ));
        }
        let (d, r, c) = (digits[0] as u8, digits[1] as usize, digits[2] as usize);
        let cell = g.cell_at(r - 1, c - 1);
        let holds = cells[cell].max(entered[cell]);
        if holds == d {
            return Err(err(
                at,
                format!(
                    "r{r}c{c} holds {d}, and this line deletes its candidate {d}: \
                     the state is impossible; drop {word} from the deleted candidates"
                ),
            ));
        }
        removed[cell] |= 1 << d;
    }
    let puzzle = Puzzle {
        geometry: g,
        cells,
        origin,
        positions,
        label: code,
        regions: None,
        marks: Some(Marks { entered, removed }),
        clues: Vec::new(),
    };
    check_state(&puzzle)?;
    Ok(puzzle)
}

/// Checks a pencil-mark state as a whole: the givens and the digits placed
/// in the input repeat no digit in a unit, and every open cell keeps a
/// candidate.
pub(crate) fn check_state(p: &Puzzle) -> Result<(), PuzzleError> {
    let Some(marks) = &p.marks else {
        return validate(p);
    };
    let mut all = p.clone();
    for (c, d) in marks.entered_digits() {
        all.cells[c] = d;
    }
    validate(&all)?;
    let every = p.geometry.digit_mask();
    for (cell, &removed) in marks.removed.iter().enumerate() {
        if all.cells[cell] == 0 && removed & every == every {
            let (line, col) = p.positions[cell];
            let at = Sym { ch: ' ', line, col };
            return Err(no_candidate(&p.origin, at, &p.geometry.cell_name(cell)));
        }
    }
    Ok(())
}
