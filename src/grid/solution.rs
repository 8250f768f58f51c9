//! Checking a finished grid against the givens and Sudoku's constraints,
//! in plain Rust and independently of any rule: every solution the rules
//! reach passes here before it is reported.

use super::Geometry;
use super::units::{Unit, UnitKind};

/// What is wrong with a grid, and the cells concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionError {
    /// In words, naming cells as `r3c5`.
    pub message: String,
    /// The offending cells.
    pub cells: Vec<usize>,
}

/// Checks a complete grid against Sudoku's constraints and the givens,
/// independently of any rule.
pub fn check_solution(g: &Geometry, givens: &[u8], grid: &[u8]) -> Result<(), SolutionError> {
    check_solution_in(g, None, givens, grid)
}

/// [`check_solution`] for a grid whose boxes are a jigsaw's regions (or
/// the regular boxes when `regions` is `None`).
pub fn check_solution_in(
    g: &Geometry,
    regions: Option<&[u8]>,
    givens: &[u8],
    grid: &[u8],
) -> Result<(), SolutionError> {
    let n = g.n;
    let fail = |message: String, cells: Vec<usize>| Err(SolutionError { message, cells });
    if grid.len() != n * n {
        return fail(
            format!("the grid has {} cells, not {}", grid.len(), n * n),
            vec![],
        );
    }
    for (i, (&given, &d)) in givens.iter().zip(grid).enumerate() {
        if d == 0 || d as usize > n {
            return fail(format!("{} holds no digit", g.cell_name(i)), vec![i]);
        }
        if given != 0 && given != d {
            return fail(
                format!(
                    "{} holds {} but the puzzle gives {}",
                    g.cell_name(i),
                    g.digit_symbol(d),
                    g.digit_symbol(given)
                ),
                vec![i],
            );
        }
    }
    // Row, column and box of the same number in turn, then the next.
    let mut seen: Vec<Option<usize>> = vec![None; n + 1];
    for index in 0..n {
        for kind in [UnitKind::Row, UnitKind::Column, UnitKind::Box] {
            let word = match kind {
                UnitKind::Row => "row",
                UnitKind::Column => "column",
                UnitKind::Box if regions.is_some() => "region",
                UnitKind::Box => "box",
            };
            seen.fill(None);
            for c in (Unit { kind, index }).cells(g, regions) {
                let d = grid[c] as usize;
                if let Some(prev) = seen[d] {
                    return fail(
                        format!(
                            "{} and {} both hold {} in the same {word}",
                            g.cell_name(prev),
                            g.cell_name(c),
                            g.digit_symbol(grid[c])
                        ),
                        vec![prev, c],
                    );
                }
                seen[d] = Some(c);
            }
        }
    }
    Ok(())
}
