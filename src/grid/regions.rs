//! Jigsaw region maps: irregular regions that take the place of boxes.
//! A map gives each cell a letter, `A` to the n-th letter of the alphabet;
//! each letter marks n cells forming one orthogonally connected region.

use super::layout::Sym;
use super::{Geometry, PuzzleError};
use std::sync::Arc;

/// The region of each cell (0-based: `A` is 0), row-major.
pub type RegionMap = Arc<[u8]>;

/// The 0-based box of `cell`: its region when there is a map, else its
/// regular box.
pub fn box_index(g: &Geometry, regions: Option<&[u8]>, cell: usize) -> usize {
    match regions.and_then(|r| r.get(cell)) {
        Some(&r) => usize::from(r),
        None => g.box_of(cell),
    }
}

/// Whether a row of symbols can belong to a region map: letters only (no
/// digit of a 9x9 grid, no empty cell), so it never reads as a grid row.
pub(crate) fn is_region_row(syms: &[Sym]) -> bool {
    !syms.is_empty() && syms.iter().all(|s| s.ch.is_ascii_alphabetic())
}

/// The letter that names region `id` (`A` for 0).
pub fn region_letter(id: usize) -> char {
    char::from(b'A' + id.min(25) as u8)
}

/// Reads a region map from its `n * n` letters: the first `n` letters of
/// the alphabet (any case), each naming one region.
pub(crate) fn parse_region_map(
    g: Geometry,
    syms: &[Sym],
    file: &str,
) -> Result<RegionMap, PuzzleError> {
    let n = g.n;
    let error = |s: &Sym, message: String| PuzzleError::new(file, s.line, s.col, message);
    let last = region_letter(n - 1);
    let mut map = Vec::with_capacity(syms.len());
    for s in syms {
        let ch = s.ch.to_ascii_uppercase();
        let id = (ch as usize).wrapping_sub('A' as usize);
        if id >= n {
            return Err(error(
                s,
                format!(
                    "'{}' is not a region letter of a {} jigsaw; name its {n} regions A to {last}",
                    s.ch,
                    g.label()
                ),
            ));
        }
        map.push(id as u8);
    }
    for id in 0..n {
        let letter = region_letter(id);
        let cells: Vec<usize> = (0..map.len()).filter(|&c| map[c] as usize == id).collect();
        let Some(&first) = cells.first() else {
            return Err(error(
                &syms[0],
                format!(
                    "the region map has no region '{letter}'; name its {n} regions A to {last}"
                ),
            ));
        };
        let at = &syms[first];
        if cells.len() != n {
            return Err(error(
                at,
                format!(
                    "region '{letter}' has {} cells but every region needs {n}; fix the region map",
                    cells.len()
                ),
            ));
        }
        if !connected(g, &map, first) {
            return Err(error(
                at,
                format!(
                    "region '{letter}' is in pieces; each region must be one orthogonally \
                     connected area"
                ),
            ));
        }
    }
    Ok(map.into())
}

/// Whether the region of `start` is one orthogonally connected area.
fn connected(g: Geometry, map: &[u8], start: usize) -> bool {
    let n = g.n;
    let region = map[start];
    let mut seen = vec![false; map.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(c) = stack.pop() {
        reached += 1;
        let (r, k) = (c / n, c % n);
        let neighbours = [
            (r > 0).then(|| c - n),
            (r + 1 < n).then(|| c + n),
            (k > 0).then(|| c - 1),
            (k + 1 < n).then(|| c + 1),
        ];
        for next in neighbours.into_iter().flatten() {
            if !seen[next] && map[next] == region {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached == n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::layout::grid_symbols;

    fn syms(text: &str) -> Vec<Sym> {
        grid_symbols(text, 1)
    }

    #[test]
    fn regular_boxes_written_as_letters_are_a_map() {
        let g = Geometry::from_side(4).unwrap();
        let map = parse_region_map(g, &syms("aabbaabbccddccdd"), "f").unwrap();
        assert_eq!(&map[..], &[0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
        for cell in 0..16 {
            assert_eq!(box_index(&g, Some(&map), cell), g.box_of(cell));
        }
    }

    #[test]
    fn wrong_sizes_pieces_and_extra_letters_are_located() {
        let g = Geometry::from_side(4).unwrap();
        let e = parse_region_map(g, &syms("aaabaabbccddccdd"), "f").unwrap_err();
        assert!(
            e.message.contains("region 'A' has 5 cells"),
            "{}",
            e.message
        );
        let e = parse_region_map(g, &syms("abbaabbaccddccdd"), "f").unwrap_err();
        assert!(
            e.message.contains("region 'A' is in pieces"),
            "{}",
            e.message
        );
        let e = parse_region_map(g, &syms("aabbaabbccddccde"), "f").unwrap_err();
        assert!(
            e.message
                .contains("'e' is not a region letter of a 4x4 jigsaw"),
            "{}",
            e.message
        );
        assert_eq!(e.column, 16);
    }
}
