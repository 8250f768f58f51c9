//! Text output of grids. `render_line` and `render_grid` produce formats the
//! reader accepts, so solutions can be fed back in.

use super::Geometry;

/// The whole grid on one line: `n*n` symbols, `.` for empty cells.
pub fn render_line(g: &Geometry, cells: &[u8]) -> String {
    cells.iter().map(|&d| g.digit_symbol(d)).collect()
}

/// The grid as `n` rows with a space between cells, `|` between boxes and a
/// line of `-` (with `+` at box crossings) between bands of boxes; empty
/// cells are `.`; ends with a newline.
pub fn render_grid(g: &Geometry, cells: &[u8]) -> String {
    let texts: Vec<String> = (0..g.cell_count())
        .map(|cell| {
            g.digit_symbol(cells.get(cell).copied().unwrap_or(0))
                .to_string()
        })
        .collect();
    layout(g, &texts)
}

/// A jigsaw's grid: `n` rows of space-separated cells (box lines would
/// mislead), then its region map as `n` rows of letters, so that it reads
/// back as the same jigsaw.
pub fn render_jigsaw(g: &Geometry, cells: &[u8], regions: &[u8]) -> String {
    let mut out = String::new();
    for row in cells.chunks(g.n.max(1)) {
        let symbols: Vec<String> = row.iter().map(|&d| g.digit_symbol(d).to_string()).collect();
        out.push_str(&symbols.join(" "));
        out.push('\n');
    }
    for row in regions.chunks(g.n.max(1)) {
        out.extend(
            row.iter()
                .map(|&r| super::regions::region_letter(usize::from(r))),
        );
        out.push('\n');
    }
    out
}

/// Pencil-mark grid: placed cells show their digit, open cells show all
/// their candidates (`candidates[cell]` bit `d` set = digit `d` still
/// possible, `d` in 1..=n) and `.` if none is left. Every cell is padded to
/// the widest cell in the grid so columns line up; box separators as in
/// [`render_grid`].
pub fn render_candidates(g: &Geometry, cells: &[u8], candidates: &[u32]) -> String {
    let texts: Vec<String> = (0..g.cell_count())
        .map(|cell| match cells.get(cell).copied().unwrap_or(0) {
            0 => candidate_text(g, candidates.get(cell).copied().unwrap_or(0)),
            d => g.digit_symbol(d).to_string(),
        })
        .collect();
    layout(g, &texts)
}

/// The comment line that introduces the pencil marks of a stalled grid in
/// the grid format; the reader takes the block under it as the marks of
/// the grid above.
pub const CANDIDATES_HEADER: &str = "# candidates of the open cells:";

/// The pencil marks of a grid as a comment block: [`CANDIDATES_HEADER`],
/// then [`render_candidates`] with each line behind `#   `. Printed under
/// [`render_grid`] (or [`render_jigsaw`]), it reads back with the grid as
/// one state: the grid's digits and these candidates.
pub fn render_candidates_comment(g: &Geometry, cells: &[u8], candidates: &[u32]) -> String {
    let mut out = format!("{CANDIDATES_HEADER}\n");
    for l in render_candidates(g, cells, candidates).lines() {
        out.push_str("#   ");
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// A state as one candidate line: for each cell, `n` characters, its
/// digit `d` at place `d` if still possible, else `.` (729 characters on
/// 9x9). A placed cell has its digit as its only candidate. It reads back
/// as the same state.
pub fn render_candidate_line(g: &Geometry, cells: &[u8], candidates: &[u32]) -> String {
    let mut out = String::with_capacity(g.cell_count() * g.n);
    for cell in 0..g.cell_count() {
        let mask = match cells.get(cell).copied().unwrap_or(0) {
            0 => candidates.get(cell).copied().unwrap_or(0),
            d => 1u32.checked_shl(u32::from(d)).unwrap_or(0),
        };
        out.extend((1..=g.n).map(|d| {
            if d < 32 && mask & (1 << d) != 0 {
                g.digit_symbol(d as u8)
            } else {
                '.'
            }
        }));
    }
    out
}

/// A jigsaw's region map on one line, a letter per cell, as the line
/// format reads it after the puzzle.
pub fn render_region_line(regions: &[u8]) -> String {
    regions
        .iter()
        .map(|&r| super::regions::region_letter(usize::from(r)))
        .collect()
}

fn candidate_text(g: &Geometry, mask: u32) -> String {
    let text: String = (1..=g.n)
        .filter(|&d| d < 32 && mask & (1 << d) != 0)
        .map(|d| g.digit_symbol(d as u8))
        .collect();
    if text.is_empty() {
        ".".to_string()
    } else {
        text
    }
}

/// Lays out one text per cell, left-aligned in equal-width columns.
fn layout(g: &Geometry, texts: &[String]) -> String {
    let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for (row, row_texts) in texts.chunks(g.n.max(1)).enumerate() {
        let mut line = String::new();
        for (col, text) in row_texts.iter().enumerate() {
            if col > 0 {
                line.push_str(if col % g.box_size == 0 { " | " } else { " " });
            }
            line.push_str(&format!("{text:<width$}"));
        }
        if row > 0 && row % g.box_size == 0 {
            // Deriving the rule from a padded row keeps the `+` exactly under each `|`.
            let rule: String = line
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
    const SOLUTION: &str =
        "147253698398176245256489731819761524762945853534812917475698312693127485821534769";

    fn cells(g: &Geometry, s: &str) -> Vec<u8> {
        s.chars()
            .map(|ch| g.symbol_digit(ch).unwrap_or(0))
            .collect()
    }

    #[test]
    fn line_rendering() {
        let g = Geometry::from_side(9).unwrap();
        assert_eq!(render_line(&g, &cells(&g, PUZZLE)), PUZZLE);
        let g16 = Geometry::from_side(16).unwrap();
        let c: Vec<u8> = (0..=16).collect();
        assert_eq!(render_line(&g16, &c), ".123456789ABCDEFG");
    }

    #[test]
    fn grid_rendering_9x9() {
        let g = Geometry::from_side(9).unwrap();
        let text = render_grid(&g, &cells(&g, SOLUTION));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "1 4 7 | 2 5 3 | 6 9 8");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[10], "8 2 1 | 5 3 4 | 7 6 9");
        assert!(text.ends_with('\n'));
        let text = render_grid(&g, &cells(&g, PUZZLE));
        assert!(text.starts_with("1 4 . | . 5 3 | 6 . .\n"));
    }

    #[test]
    fn grid_rendering_4x4() {
        let g = Geometry::from_side(4).unwrap();
        let text = render_grid(&g, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 0, 0]);
        assert_eq!(
            text,
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | . .\n"
        );
    }

    #[test]
    fn candidate_rendering() {
        let g = Geometry::from_side(4).unwrap();
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        let mut cand = vec![0b11110u32; 16];
        cand[1] = 0b01100;
        cand[2] = 0;
        let text = render_candidates(&g, &cells, &cand);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1    23   | .    1234");
        assert_eq!(lines[2], "----------+----------");
        assert_eq!(lines[3], "1234 1234 | 1234 1234");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn candidates_align_columns_and_ignore_stray_bits() {
        let g = Geometry::from_side(9).unwrap();
        let cells = vec![0u8; 81];
        let mut cand = vec![1u32 << 5; 81];
        cand[80] = u32::MAX;
        let text = render_candidates(&g, &cells, &cand);
        let first = text.lines().next().unwrap();
        assert!(first.starts_with("5         5         5         | 5"));
        assert!(text.lines().last().unwrap().ends_with("123456789"));
    }

    #[test]
    fn short_slices_do_not_panic() {
        let g = Geometry::from_side(9).unwrap();
        assert_eq!(render_grid(&g, &[]).lines().count(), 11);
        assert_eq!(render_candidates(&g, &[], &[]).lines().count(), 11);
    }
}
