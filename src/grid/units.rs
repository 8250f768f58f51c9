//! The units of a grid as lists of cells: its rows, columns and boxes (or
//! a jigsaw's regions), each in cell order. Checking givens for repeats and
//! checking a finished grid both walk them.

use super::Geometry;
use super::regions::box_index;
use itertools::Either;

/// What kind of unit a [`Unit`] is, in the order checks visit them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box, or a jigsaw's region.
    Box,
}

/// One unit: its kind and its 0-based number among the units of its kind
/// (a region's id). Its cells come from [`Unit::cells`], computed as they
/// are walked: checks run on every puzzle, so nothing is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Row, column or box.
    pub kind: UnitKind,
    /// 0-based number among the units of its kind (a region's id).
    pub index: usize,
}

impl Unit {
    /// The unit's cells in increasing cell order: a jigsaw's region when
    /// `regions` is a region map, else the row, column or box.
    pub fn cells<'a>(
        self,
        g: &Geometry,
        regions: Option<&'a [u8]>,
    ) -> impl Iterator<Item = usize> + 'a {
        let (n, b, i, kind) = (g.n, g.box_size, self.index, self.kind);
        let g = *g;
        match (kind, regions) {
            // A region: every cell once, in order, kept where it belongs.
            (UnitKind::Box, Some(_)) => {
                Either::Left((0..n * n).filter(move |&c| box_index(&g, regions, c) == i))
            }
            _ => Either::Right((0..n).map(move |k| match kind {
                UnitKind::Row => i * n + k,
                UnitKind::Column => k * n + i,
                // Box i's k-th cell: its rows, then its columns.
                UnitKind::Box => (i / b * b + k / b) * n + i % b * b + k % b,
            })),
        }
    }
}

/// Every unit of the grid: the rows, then the columns, then the boxes (the
/// regions of a jigsaw's map, numbered by their ids).
pub fn units(g: &Geometry) -> impl Iterator<Item = Unit> {
    let n = g.n;
    [UnitKind::Row, UnitKind::Column, UnitKind::Box]
        .into_iter()
        .flat_map(move |kind| (0..n).map(move |index| Unit { kind, index }))
}

/// The first digit repeated in a unit of `cells` (0 is no digit), as
/// people would find it reading the grid cell by cell: the repeat whose
/// later cell comes first, a row before a column before a box at the same
/// cell. Returns the unit, the earlier cell and the later one.
pub fn first_repeat(
    g: &Geometry,
    regions: Option<&[u8]>,
    cells: &[u8],
) -> Option<(Unit, usize, usize)> {
    let mut best: Option<(Unit, usize, usize)> = None;
    let mut seen: Vec<Option<usize>> = vec![None; g.n + 1];
    for unit in units(g) {
        seen.fill(None);
        let mut repeat = None;
        for cell in unit.cells(g, regions) {
            let d = usize::from(cells.get(cell).copied().unwrap_or(0));
            let Some(slot) = seen.get_mut(d).filter(|_| d != 0) else {
                continue;
            };
            match *slot {
                Some(earlier) => {
                    repeat = Some((earlier, cell));
                    break;
                }
                None => *slot = Some(cell),
            }
        }
        if let Some((earlier, later)) = repeat {
            let better = best
                .as_ref()
                .is_none_or(|(u, _, l)| (later, unit.kind) < (*l, u.kind));
            if better {
                best = Some((unit, earlier, later));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_in_one_unit_of_each_kind() {
        for n in [4, 9, 16] {
            let g = Geometry::from_side(n).expect("a size");
            let all: Vec<Unit> = units(&g).collect();
            assert_eq!(all.len(), 3 * n);
            for kind in [UnitKind::Row, UnitKind::Column, UnitKind::Box] {
                let mut cells: Vec<usize> = Vec::new();
                for u in all.iter().filter(|u| u.kind == kind) {
                    let mine: Vec<usize> = u.cells(&g, None).collect();
                    assert_eq!(mine.len(), n);
                    assert!(mine.iter().all(|&c| g.box_of(c) == u.index) || kind != UnitKind::Box);
                    cells.extend(mine);
                }
                cells.sort_unstable();
                assert_eq!(cells, (0..n * n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_first_repeat_is_the_one_met_first_reading_cell_by_cell() {
        let g = Geometry::from_side(4).expect("4x4");
        let mut cells = vec![0u8; 16];
        // r1c1 = 1 and r2c2 = 1 share box 1; r2c4 = 2 and r2c3 = 2 share row 2.
        cells[0] = 1;
        cells[5] = 1;
        cells[6] = 2;
        cells[7] = 2;
        let (unit, earlier, later) = first_repeat(&g, None, &cells).expect("a repeat");
        assert_eq!((unit.kind, earlier, later), (UnitKind::Box, 0, 5));
        cells[5] = 0;
        let (unit, earlier, later) = first_repeat(&g, None, &cells).expect("a repeat");
        assert_eq!(
            (unit.kind, unit.index, earlier, later),
            (UnitKind::Row, 1, 6, 7)
        );
        cells[7] = 0;
        assert_eq!(first_repeat(&g, None, &cells), None);
    }
}
