//! Turns the located symbols of one puzzle into a checked [`Puzzle`].

use super::layout::Sym;
use super::regions::RegionMap;
use super::symbols::Symbol;
use super::{Geometry, Origin, Puzzle, PuzzleError, validate};

/// Decodes `syms` (exactly `g.cell_count()` of them, row-major) and checks
/// the givens (against the regions of a jigsaw, if `regions` is given).
/// The first bad symbol is reported at its own line and column.
pub(crate) fn assemble(
    g: Geometry,
    syms: &[Sym],
    origin: Origin,
    label: String,
    regions: Option<RegionMap>,
) -> Result<Puzzle, PuzzleError> {
    let mut cells = Vec::with_capacity(syms.len());
    for (cell, s) in syms.iter().enumerate() {
        match g.classify_symbol(s.ch) {
            Symbol::Digit(d) => cells.push(d),
            Symbol::Empty => cells.push(0),
            Symbol::Invalid => {
                let message = bad_symbol_message(g, s.ch, &g.cell_name(cell));
                return Err(PuzzleError::new(&origin.file, s.line, s.col, message));
            }
        }
    }
    let puzzle = Puzzle {
        geometry: g,
        cells,
        origin,
        positions: syms.iter().map(|s| (s.line, s.col)).collect(),
        label,
        regions,
        marks: None,
        clues: Vec::new(),
    };
    validate(&puzzle)?;
    Ok(puzzle)
}

fn bad_symbol_message(g: Geometry, ch: char, cell: &str) -> String {
    let help = g.symbols_help();
    if ch == '0' {
        // Only reachable for 16x16 and up, where some tools write digits as 0-F.
        format!(
            "'0' at {cell} is not a {} symbol: {help}; if this file numbers digits from 0 (0-F), \
             add one to every digit",
            g.label()
        )
    } else {
        format!(
            "unknown symbol '{}' at {cell}: {help}; replace it with one of those",
            ch.escape_debug()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::layout::grid_symbols;

    fn origin() -> Origin {
        Origin {
            file: "f".to_string(),
            line: 1,
        }
    }

    #[test]
    fn decodes_cells_and_positions() {
        let g = Geometry::from_side(4).unwrap();
        let syms = grid_symbols("12.4 34_2 0000 ....", 5);
        let p = assemble(g, &syms, origin(), "x".to_string(), None).unwrap();
        assert_eq!(
            p.cells,
            vec![1, 2, 0, 4, 3, 4, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(p.positions[4], (5, 6));
        assert_eq!(p.label, "x");
    }

    #[test]
    fn reports_bad_symbols() {
        let g = Geometry::from_side(4).unwrap();
        let syms = grid_symbols("1234 5...", 2);
        let e = assemble(g, &syms, origin(), String::new(), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f:2:6: unknown symbol '5' at r2c1: 4x4 digits are 1-4 and empty cells are \
             '.', '_' or '0'; replace it with one of those"
        );
        let syms = grid_symbols("1\u{7}34 ....", 2);
        let e = assemble(g, &syms, origin(), String::new(), None).unwrap_err();
        assert!(e.message.starts_with("unknown symbol '\\u{7}' at r1c2"));
    }
}
