//! The base facts of the built-in relations: the grid's geometry as
//! relations, and the puzzle's givens.

use super::tuple::{Tuple, flat};
use crate::grid::Geometry;
use crate::grid::regions::box_index;
use crate::lang::program::{Builtin, MAX_SET, Value, cell_value};
use crate::lang::symbols::Symbols;

/// Unit kinds in the order of [`Symbols::unit`]: rows, columns, boxes.
const KINDS: usize = 3;

/// The unit of `kind` (0 row, 1 column, 2 box or jigsaw region) that a
/// cell belongs to, 1-based.
fn unit_index(g: &Geometry, regions: Option<&[u8]>, row: usize, col: usize, kind: usize) -> usize {
    match kind {
        0 => row + 1,
        1 => col + 1,
        _ => box_index(g, regions, g.cell_at(row, col)) + 1,
    }
}

/// Every set of 1 to [`MAX_SET`] numbers from `1..=n`, as bitmasks with bit
/// `d` for member `d`.
fn small_sets(n: usize) -> impl Iterator<Item = Value> {
    fn extend(from: usize, n: usize, left: usize, mask: Value, out: &mut Vec<Value>) {
        if mask != 0 {
            out.push(mask);
        }
        if left == 0 {
            return;
        }
        for d in from..=n {
            extend(d + 1, n, left - 1, mask | (1 << d), out);
        }
    }
    let mut out = Vec::new();
    extend(1, n, MAX_SET, 0, &mut out);
    out.into_iter()
}

/// The facts of a built-in relation for a grid (with a jigsaw's regions as
/// its boxes, if given; and, for `given`, a puzzle's cells: 0 empty, else
/// the digit). Relations without base facts (`placed`, `eliminated`,
/// `contradiction`) get none.
pub fn base_facts(
    which: Builtin,
    g: &Geometry,
    regions: Option<&[u8]>,
    symbols: &Symbols,
    cells: &[u8],
) -> Vec<Tuple> {
    let n = g.n;
    let coords = || (0..n).flat_map(move |r| (0..n).map(move |c| (r, c)));
    let v = |x: usize| x as Value;
    let mut out: Vec<Tuple> = match which {
        Builtin::Cell => coords().map(|(r, c)| flat(&[cell_value(r, c)])).collect(),
        Builtin::Digit => (1..=n).map(|d| flat(&[v(d)])).collect(),
        Builtin::Size => vec![flat(&[v(n)])],
        // A jigsaw's regions have no width: rules built on box geometry
        // (reading `box_width`) find nothing to work on there.
        Builtin::BoxWidth if regions.is_some() => Vec::new(),
        Builtin::BoxWidth => vec![flat(&[v(g.box_size)])],
        Builtin::Row => coords()
            .map(|(r, c)| flat(&[cell_value(r, c), v(r + 1)]))
            .collect(),
        Builtin::Col => coords()
            .map(|(r, c)| flat(&[cell_value(r, c), v(c + 1)]))
            .collect(),
        Builtin::Box => coords()
            .map(|(r, c)| flat(&[cell_value(r, c), v(unit_index(g, regions, r, c, 2))]))
            .collect(),
        Builtin::Unit => (0..KINDS)
            .flat_map(|k| (1..=n).map(move |i| (k, i)))
            .map(|(k, i)| flat(&[symbols.unit(k, i)]))
            .collect(),
        Builtin::InUnit => coords()
            .flat_map(|(r, c)| {
                (0..KINDS).map(move |k| {
                    flat(&[
                        cell_value(r, c),
                        symbols.unit(k, unit_index(g, regions, r, c, k)),
                    ])
                })
            })
            .collect(),
        Builtin::UnitKind => (0..KINDS)
            .flat_map(|k| (1..=n).map(move |i| (k, i)))
            .map(|(k, i)| flat(&[symbols.unit(k, i), symbols.unit_kind(k)]))
            .collect(),
        Builtin::Given => coords()
            .filter_map(|(r, c)| {
                let d = *cells.get(r * n + c)?;
                (d != 0).then(|| flat(&[cell_value(r, c), v(d as usize)]))
            })
            .collect(),
        Builtin::DigitSet => small_sets(n)
            .map(|s| flat(&[s, s.count_ones() as Value]))
            .collect(),
        Builtin::InSet => small_sets(n)
            .flat_map(|s| {
                (1..=n as Value)
                    .filter(move |d| s & (1 << d) != 0)
                    .map(move |d| flat(&[d, s]))
            })
            .collect(),
        Builtin::Covers => {
            let all: Value = (1..=n as Value).fold(0, |m, d| m | 1 << d);
            small_sets(n)
                .flat_map(|t| {
                    // Every part of `t` (the empty one too), with the rest.
                    let outside = all & !t;
                    let mut part = t;
                    let mut out = Vec::new();
                    loop {
                        out.push(flat(&[outside | part, t]));
                        if part == 0 {
                            break;
                        }
                        part = (part - 1) & t;
                    }
                    out
                })
                .collect()
        }
        Builtin::Placed | Builtin::Eliminated | Builtin::Contradiction => Vec::new(),
    };
    out.sort_unstable();
    out.dedup();
    out.shrink_to_fit();
    out
}
