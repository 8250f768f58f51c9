//! Checks that a puzzle's givens do not already break the rules.

use super::units::UnitKind;
use super::{Puzzle, PuzzleError};

/// Checks the givens: a digit twice in a row, column or box is an error
/// naming both cells and their unit, located at the later occurrence, e.g.
/// "digit 5 at r2c8 repeats the 5 at r2c3 in row 2; remove one of them".
/// Also rejects puzzles whose cell count or values do not fit their
/// geometry, so callers building puzzles by hand get an error, not a panic.
pub fn validate(p: &Puzzle) -> Result<(), PuzzleError> {
    let g = p.geometry;
    let n = g.n;
    let locate = |cell: usize| p.positions.get(cell).copied().unwrap_or((p.origin.line, 0));
    let error = |cell: usize, message: String| {
        let (line, column) = locate(cell);
        Err(PuzzleError::new(&p.origin.file, line, column, message))
    };
    if p.cells.len() != g.cell_count() {
        return Err(PuzzleError::new(
            &p.origin.file,
            p.origin.line,
            0,
            format!(
                "puzzle has {} cells but a {} puzzle has {}; give every cell a symbol",
                p.cells.len(),
                g.label(),
                g.cell_count()
            ),
        ));
    }
    // Read cell by cell, the first problem met is reported: a digit the
    // size does not have, or a digit repeating one earlier in its unit.
    let too_large = p.cells.iter().position(|&d| usize::from(d) > n);
    let repeat = super::units::first_repeat(&g, p.regions.as_deref(), &p.cells);
    if let Some(cell) = too_large
        && repeat.as_ref().is_none_or(|(_, _, later)| cell <= *later)
    {
        let message = format!(
            "{} holds {}, but a {} puzzle only has digits 1 to {n}; fix that cell",
            g.cell_name(cell),
            p.cells[cell],
            g.label()
        );
        return error(cell, message);
    }
    if let Some((unit, earlier, later)) = repeat {
        let sym = g.digit_symbol(p.cells[later]);
        let (kind, name) = match unit.kind {
            UnitKind::Row => ("row", (unit.index + 1).to_string()),
            UnitKind::Column => ("column", (unit.index + 1).to_string()),
            UnitKind::Box if p.regions.is_some() => (
                "region",
                super::regions::region_letter(unit.index).to_string(),
            ),
            UnitKind::Box => ("box", (unit.index + 1).to_string()),
        };
        let message = format!(
            "digit {sym} at {} repeats the {sym} at {} in {kind} {name}; remove one of them",
            g.cell_name(later),
            g.cell_name(earlier),
        );
        return error(later, message);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, Origin};

    fn puzzle(n: usize, givens: &[(usize, usize, u8)]) -> Puzzle {
        let g = Geometry::from_side(n).unwrap();
        let mut cells = vec![0; g.cell_count()];
        for &(r, c, d) in givens {
            cells[g.cell_at(r - 1, c - 1)] = d;
        }
        Puzzle {
            geometry: g,
            positions: (0..g.cell_count())
                .map(|c| (10 + g.row_of(c), 1 + g.col_of(c)))
                .collect(),
            cells,
            origin: Origin {
                file: "p".to_string(),
                line: 10,
            },
            label: String::new(),
            regions: None,
            marks: None,
            clues: Vec::new(),
        }
    }

    #[test]
    fn accepts_distinct_givens() {
        assert_eq!(
            validate(&puzzle(9, &[(1, 1, 5), (2, 4, 5), (4, 2, 5)])),
            Ok(())
        );
        assert_eq!(validate(&puzzle(4, &[])), Ok(()));
    }

    #[test]
    fn row_duplicate() {
        let e = validate(&puzzle(9, &[(2, 3, 5), (2, 8, 5)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p:11:8: digit 5 at r2c8 repeats the 5 at r2c3 in row 2; remove one of them"
        );
    }

    #[test]
    fn column_duplicate() {
        let e = validate(&puzzle(9, &[(7, 4, 1), (1, 4, 1)])).unwrap_err();
        assert_eq!(
            e.message,
            "digit 1 at r7c4 repeats the 1 at r1c4 in column 4; remove one of them"
        );
        assert_eq!((e.line, e.column), (16, 4));
    }

    #[test]
    fn box_duplicate() {
        let e = validate(&puzzle(16, &[(5, 5, 16), (8, 8, 16)])).unwrap_err();
        assert_eq!(
            e.message,
            "digit G at r8c8 repeats the G at r5c5 in box 6; remove one of them"
        );
    }

    #[test]
    fn malformed_puzzles_are_errors_not_panics() {
        let mut p = puzzle(9, &[]);
        p.cells.pop();
        assert!(validate(&p).unwrap_err().message.contains("80 cells"));
        let mut p = puzzle(4, &[]);
        p.cells[3] = 5;
        p.positions.clear();
        let e = validate(&p).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p:10:0: r1c4 holds 5, but a 4x4 puzzle only has digits 1 to 4; fix that cell"
        );
    }
}
