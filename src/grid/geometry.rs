//! Cell arithmetic for square-box grids.
//!
//! Cells are numbered row-major from 0 so the rest of the crate can keep a
//! grid in a flat slice and ask this type where a cell sits.

/// Square-box grid geometry: box size `box_size` in 2..=5, side `n = box_size²`
/// (4, 9, 16 or 25) and `n * n` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Side of one box, 2..=5.
    pub box_size: usize,
    /// Side of the whole grid, which is also the largest digit.
    pub n: usize,
}

/// Box sizes we can write with one symbol per cell (`1`-`9` then `A`-`P`).
const BOX_SIZES: std::ops::RangeInclusive<usize> = 2..=5;

impl Geometry {
    /// The geometry whose boxes are `b` cells wide, if `b` is in 2..=5.
    pub fn from_box_size(b: usize) -> Option<Geometry> {
        BOX_SIZES.contains(&b).then_some(Geometry {
            box_size: b,
            n: b * b,
        })
    }

    /// The geometry whose rows are `n` cells long (4, 9, 16 or 25).
    pub fn from_side(n: usize) -> Option<Geometry> {
        Self::all().find(|g| g.n == n)
    }

    /// The geometry with `cells` cells in total (16, 81, 256 or 625).
    pub fn from_cell_count(cells: usize) -> Option<Geometry> {
        Self::all().find(|g| g.cell_count() == cells)
    }

    /// Every supported geometry, smallest first.
    pub fn all() -> impl Iterator<Item = Geometry> {
        BOX_SIZES.map(|b| Geometry {
            box_size: b,
            n: b * b,
        })
    }

    /// The digits `1..=n` as a set: bit `d` for digit `d`.
    pub fn digit_mask(&self) -> u32 {
        (1..=self.n).fold(0, |m, d| m | 1 << d)
    }

    /// Number of cells in the grid (`n * n`).
    pub fn cell_count(&self) -> usize {
        self.n * self.n
    }

    /// 0-based row of `cell`.
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.n
    }

    /// 0-based column of `cell`.
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.n
    }

    /// 0-based box of `cell`, boxes numbered row-major like cells.
    pub fn box_of(&self, cell: usize) -> usize {
        let b = self.box_size;
        (self.row_of(cell) / b) * b + self.col_of(cell) / b
    }

    /// The cell at 0-based `row` and `col`.
    pub fn cell_at(&self, row: usize, col: usize) -> usize {
        row * self.n + col
    }

    /// The name users see for `cell`: `r3c5`, 1-based like the puzzle books.
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", self.row_of(cell) + 1, self.col_of(cell) + 1)
    }

    /// Reads a name written by [`Geometry::cell_name`] (case-insensitive);
    /// `None` if it is malformed or outside this grid.
    pub fn parse_cell_name(&self, s: &str) -> Option<usize> {
        let (row, col) = cell_name_coords(s)?;
        let inside = |i: usize| (1..=self.n).contains(&i);
        (inside(row) && inside(col)).then(|| self.cell_at(row - 1, col - 1))
    }

    /// Short name of the size, like `9x9`, for messages and reports.
    pub fn label(&self) -> String {
        format!("{0}x{0}", self.n)
    }
}

/// The 1-based `(row, column)` a cell name such as `r3c5` (any case)
/// writes, whether or not a grid has that cell: so that a message can say
/// a name is off the grid rather than malformed. Each number has one to
/// three digits (`str::parse` alone would also take `+3`).
pub fn cell_name_coords(s: &str) -> Option<(usize, usize)> {
    let rest = s.strip_prefix(['r', 'R'])?;
    let (row, col) = rest.split_once(['c', 'C'])?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(row)?, number(col)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_agree() {
        for (b, n, cells) in [(2, 4, 16), (3, 9, 81), (4, 16, 256), (5, 25, 625)] {
            let g = Geometry::from_box_size(b).unwrap();
            assert_eq!(g.n, n);
            assert_eq!(Geometry::from_side(n), Some(g));
            assert_eq!(Geometry::from_cell_count(cells), Some(g));
            assert_eq!(g.cell_count(), cells);
            assert_eq!(g.label(), format!("{n}x{n}"));
        }
        for bad in [0, 1, 6, 36] {
            assert_eq!(Geometry::from_box_size(bad), None);
        }
        for bad in [0, 1, 3, 8, 36, 81] {
            assert_eq!(Geometry::from_side(bad), None);
        }
        for bad in [0, 4, 9, 80, 82, 1296] {
            assert_eq!(Geometry::from_cell_count(bad), None);
        }
    }

    #[test]
    fn cell_coordinates() {
        let g = Geometry::from_side(9).unwrap();
        assert_eq!((g.row_of(0), g.col_of(0), g.box_of(0)), (0, 0, 0));
        assert_eq!((g.row_of(22), g.col_of(22), g.box_of(22)), (2, 4, 1));
        assert_eq!((g.row_of(40), g.col_of(40), g.box_of(40)), (4, 4, 4));
        assert_eq!((g.row_of(80), g.col_of(80), g.box_of(80)), (8, 8, 8));
        assert_eq!(g.box_of(g.cell_at(6, 2)), 6);
        for cell in 0..81 {
            assert_eq!(g.cell_at(g.row_of(cell), g.col_of(cell)), cell);
        }
        let g4 = Geometry::from_side(4).unwrap();
        assert_eq!(g4.box_of(g4.cell_at(3, 1)), 2);
    }

    #[test]
    fn cell_names_round_trip() {
        for g in Geometry::all() {
            for cell in 0..g.cell_count() {
                assert_eq!(g.parse_cell_name(&g.cell_name(cell)), Some(cell));
            }
        }
        let g = Geometry::from_side(9).unwrap();
        assert_eq!(g.cell_name(g.cell_at(2, 4)), "r3c5");
        assert_eq!(g.parse_cell_name("R3C5"), Some(22));
    }

    #[test]
    fn bad_cell_names() {
        let g = Geometry::from_side(9).unwrap();
        for bad in [
            "",
            "r",
            "r3",
            "c5",
            "r0c1",
            "r1c0",
            "r10c1",
            "r1c10",
            "r+1c1",
            "r1c-1",
            "x3c5",
            "r3c5 ",
            "r 3c5",
            "r3c",
            "rc5",
            "r99999999999999999999999c1",
        ] {
            assert_eq!(g.parse_cell_name(bad), None, "{bad:?}");
        }
        let g16 = Geometry::from_side(16).unwrap();
        assert_eq!(g16.parse_cell_name("r16c16"), Some(255));
    }
}
