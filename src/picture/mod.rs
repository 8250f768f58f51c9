//! Pictures of the reasoning: one SVG per step of a solution path (the
//! grid before the step, the step's pattern highlighted, its links drawn,
//! its eliminations struck and its placements marked, its sentence as a
//! caption), and one self-contained HTML page that steps through them.
//!
//! This module draws; it does not decide what a step is. `inspect::path`
//! and `inspect::firing` find the steps and their patterns in a solve's
//! facts; the commands turn each into a [`Board`] and a [`Marks`], so the
//! pictures and the text come from the same data and never disagree.

pub mod html;
pub mod svg;

use crate::grid::Geometry;

/// The grid as it stood before a step: what every picture of that step
/// draws under the step's marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The grid's size (4x4 to 25x25) and its digits' symbols.
    pub geometry: Geometry,
    /// The region (box, or jigsaw region) of each cell, row-major: thick
    /// borders run between cells of different regions.
    pub regions: Vec<usize>,
    /// The extra units of a variant (a diagonal, a hyper window), as cell
    /// lists: their cells are shaded so the reader sees them.
    pub extra_units: Vec<Vec<usize>>,
    /// The puzzle's givens, row-major (0: none).
    pub givens: Vec<u8>,
    /// Digits placed before the step, other than givens (0: none).
    pub placed: Vec<u8>,
    /// The candidates of each open cell before the step: bit `d` for
    /// digit `d` (a cell with a given or a placed digit shows no marks).
    pub candidates: Vec<u32>,
}

/// A candidate: a cell (row-major index) and a digit.
pub type Candidate = (usize, u8);

/// What one step adds to its board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Units the step's pattern is about (a hidden single's box, a fish's
    /// base lines), as cell lists: shaded lightly.
    pub units: Vec<Vec<usize>>,
    /// The pattern's cells (a naked pair's two cells, a wing's pivot and
    /// pincers): highlighted.
    pub cells: Vec<usize>,
    /// The pattern's candidates (a chain's nodes): circled.
    pub candidates: Vec<Candidate>,
    /// Strong links between two candidates (one of the two is true): drawn
    /// as lines between them.
    pub links: Vec<(Candidate, Candidate)>,
    /// Weak links between two candidates (not both are true), the steps
    /// of a chain between its strong links: drawn dashed.
    pub weak_links: Vec<(Candidate, Candidate)>,
    /// Candidates the step eliminates: struck out in the elimination
    /// colour.
    pub eliminations: Vec<Candidate>,
    /// Digits the step places: drawn in the placement colour.
    pub placements: Vec<Candidate>,
    /// The step's sentence, drawn under the grid.
    pub caption: String,
}

/// The colours of the pictures, named so that the tests check pixels
/// against the same values the drawing uses.
pub mod colours {
    /// A shaded unit of the pattern.
    pub const UNIT: &str = "#dbeafe";
    /// A highlighted cell of the pattern.
    pub const CELL: &str = "#fde68a";
    /// A variant's extra unit.
    pub const EXTRA_UNIT: &str = "#e5e7eb";
    /// The disc behind a candidate of the pattern.
    pub const CANDIDATE: &str = "#60a5fa";
    /// The disc behind an eliminated candidate, and its strike.
    pub const ELIMINATION: &str = "#ef4444";
    /// The disc behind a placed digit's candidate, and the placed digit.
    pub const PLACEMENT: &str = "#22c55e";
    /// A strong link.
    pub const LINK: &str = "#2563eb";
    /// Givens.
    pub const GIVEN: &str = "#111827";
    /// Digits placed before the step.
    pub const PLACED: &str = "#1d4ed8";
    /// Pencil marks.
    pub const MARK: &str = "#6b7280";
    /// A pencil mark on a disc, and the caption: darker than [`MARK`], so
    /// that it reads on every disc's colour.
    pub const TEXT: &str = "#111827";
    /// The thin lines between cells of one region.
    pub const GRID: &str = "#9ca3af";
    /// The thick lines between regions, and the grid's outer border.
    pub const BORDER: &str = "#111827";
}
