//! An independent check of the Franken fish (`rules/extra/franken_fish.dl`)
//! against a reference written here in plain Rust, on the first 20 puzzles
//! of `berthier_cb001` (`tests/data/berthier20/`).
//!
//! Only the grid, the singles and the Franken fish run (`--techniques
//! singles,franken_fish`), on the schedule of `common::run_technique`. For
//! each digit, the reference takes every set S of crossing lines (columns
//! for base rows, rows for base columns) and every box, and finds the two
//! shapes by their definition:
//! - a box and K-1 lines with no place of the digit in common, all with
//!   their places on the K crossing lines of S: the digit leaves those
//!   lines' other cells;
//! - J+1 lines with their places in the box or on the J crossing lines of
//!   S: the digit leaves the box's and those lines' other cells;
//! - either shape finned: one base line more (apart from the box, or
//!   missing it), with its places outside another box F on S; the digit
//!   leaves the cells of F on S in no base set;
//! - the first shape with fins in the box, its places off S all on one
//!   line W through it: the digit leaves W's cells on S outside the box;
//!   and with fins on a base line U of W's band too, U's places outside
//!   another box F (which W crosses) on S, and one line at least without
//!   fins: the digit leaves F's cells on W and on S;
//! - two boxes and K-2 lines (K 3 or 4), all with their places on S, or
//!   one of the boxes with fins off S all on one line W: the digit leaves
//!   the cells on S outside the boxes and those lines (on W, if finned);
//! - boxes among both the base and the cover sets: a box (its places on
//!   two crossing lines S, or off S all on one line W through it) and
//!   three lines apart from it, each with its places on S and in one of
//!   two cover boxes: the digit leaves the cover sets' cells outside the
//!   base sets (on W, if finned);
//! - endo fins: a line W whose one open place in a box lies on the
//!   crossing line Q of S, beside that box (its places on S) and K-2
//!   lines apart from it: the digit leaves Q's cells outside the base
//!   sets; or beside that box, a second box with its places off S all on
//!   one line F, and K-3 lines apart from both: the digit leaves the cell
//!   of F on Q.
//!
//! A unit where the digit is placed takes no part, as in the rules.

use crate::common;

use common::{
    BERTHIER20, BERTHIER20_SOLUTIONS, Extra, Geometry, N, State, check_against_reference,
};
use std::collections::BTreeSet;

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/franken_fish.dl",
    technique: "franken_fish",
};

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// The index of cell `c`'s box.
fn box_of(c: usize) -> usize {
    (c / 27) * 3 + (c % 9) / 3
}

/// The line of kind `rows` (true: rows, false: columns) through cell `c`,
/// and the crossing line it lies on.
fn line_and_crossing(c: usize, rows: bool) -> (usize, usize) {
    if rows { (c / 9, c % 9) } else { (c % 9, c / 9) }
}

/// The (line U, cell X) pairs of `fin` (see `franken_eliminations`) whose
/// line U is no base line (a base line has no fins: the plain fish's
/// eliminations hold the finned one's).
fn fin_cells<'a>(
    fin: &'a [(usize, Vec<usize>)],
    base: &'a [usize],
) -> impl Iterator<Item = (usize, usize)> + 'a {
    fin.iter()
        .filter(move |(u, _)| !base.contains(u))
        .flat_map(|(u, cells)| cells.iter().map(move |&x| (*u, x)))
}

/// Every (cell, digit) a Franken fish takes from the state, already known
/// or not.
fn franken_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
    let mut out = BTreeSet::new();
    for d in 1..=9u8 {
        let open = |c: usize| s.placed[c] == 0 && !s.elim(c, d);
        let placed_in = |u: &[usize; 9]| u.iter().any(|&c| s.placed[c] == d);
        for rows in [true, false] {
            // Lines 0..9 of this kind are units 0..9 (rows) or 9..18.
            let line_unit = |i: usize| &g.units[if rows { i } else { 9 + i }];
            let cross_unit = |q: usize| &g.units[if rows { 9 + q } else { q }];
            // The crossing lines of each line's places of d (None where d is
            // placed in the line).
            let line_places = |i: usize| -> Option<Vec<usize>> {
                let u = line_unit(i);
                (!placed_in(u)).then(|| u.iter().copied().filter(|&c| open(c)).collect())
            };
            for mask in 1u16..(1 << 9) {
                let k = mask.count_ones() as usize;
                if k > 4 || (0..9).any(|q| mask & (1 << q) != 0 && placed_in(cross_unit(q))) {
                    continue;
                }
                let on_s = |c: usize| mask & (1 << line_and_crossing(c, rows).1) != 0;
                // The lines with their places all on S and none where
                // `inside` holds: base lines apart from the boxes it names.
                let base_lines = |inside: &dyn Fn(usize) -> bool| -> Vec<usize> {
                    (0..9)
                        .filter(|&i| {
                            line_places(i).is_some_and(|p| p.iter().all(|&c| on_s(c) && !inside(c)))
                        })
                        .collect()
                };
                // Per box F where d is not placed, each line U crossing
                // it, open for d, whose places outside F lie on S, with
                // the open cells of F on S: a base line with fins in F
                // and the cells those fins see.
                let fin: Vec<(usize, Vec<usize>)> = (0..9)
                    .filter(|&f| !placed_in(&g.units[18 + f]))
                    .flat_map(|f| (0..9).map(move |u| (u, f)))
                    .filter(|&(u, f)| {
                        let crosses = line_unit(u).iter().any(|&c| box_of(c) == f);
                        crosses
                            && line_places(u)
                                .is_some_and(|p| p.iter().all(|&c| box_of(c) == f || on_s(c)))
                    })
                    .map(|(u, f)| {
                        let cells = g.units[18 + f]
                            .iter()
                            .copied()
                            .filter(|&x| open(x) && on_s(x))
                            .collect();
                        (u, cells)
                    })
                    .collect();
                for b in 18..27 {
                    let bx = &g.units[b];
                    if placed_in(bx) {
                        continue;
                    }
                    let in_b = |c: usize| box_of(c) == b - 18;
                    // A box among the base sets: the box's places on S, and
                    // K-1 lines apart from it with theirs on S.
                    if k >= 2 && bx.iter().all(|&c| !open(c) || on_s(c)) {
                        let base = base_lines(&in_b);
                        for x in (0..N).filter(|&x| open(x) && on_s(x) && !in_b(x)) {
                            let w = line_and_crossing(x, rows).0;
                            if base.iter().filter(|&&i| i != w).count() >= k - 1 {
                                out.insert((x, d));
                            }
                        }
                        // Finned: one more line U apart from the box, its
                        // places outside a box F on S (the fins in F).
                        let apart =
                            |u: usize| line_places(u).is_some_and(|p| p.iter().all(|&c| !in_b(c)));
                        for (u, x) in fin_cells(&fin, &base) {
                            let w = line_and_crossing(x, rows).0;
                            let others = base.iter().filter(|&&i| i != u && i != w).count();
                            if apart(u) && w != u && !in_b(x) && others + 2 >= k {
                                out.insert((x, d));
                            }
                        }
                    }
                    // A box among the base sets with fins of its own: its
                    // places off S all on one line W through it.
                    let box_fins: Vec<usize> = bx
                        .iter()
                        .copied()
                        .filter(|&c| open(c) && !on_s(c))
                        .collect();
                    let fin_line = box_fins.first().map(|&c| line_and_crossing(c, rows).0);
                    if let Some(w) = fin_line.filter(|&w| {
                        k >= 2 && box_fins.iter().all(|&c| line_and_crossing(c, rows).0 == w)
                    }) {
                        let on_w = |x: usize| line_and_crossing(x, rows).0 == w;
                        let base: Vec<usize> =
                            base_lines(&in_b).into_iter().filter(|&i| i != w).collect();
                        // The box and K-1 lines: D leaves W's cells on S
                        // outside the box, which see the fins along W.
                        if base.len() + 1 >= k {
                            for x in (0..N).filter(|&x| open(x) && on_s(x) && on_w(x) && !in_b(x)) {
                                out.insert((x, d));
                            }
                        }
                        // The box, a line U of W's band apart from the box
                        // with its places outside another box F (crossed by
                        // W) on S, and K-2 lines, one at least (the rules
                        // take S from a line): D leaves the cells of F on W
                        // and on S.
                        let apart =
                            |u: usize| line_places(u).is_some_and(|p| p.iter().all(|&c| !in_b(c)));
                        for f in (0..9).filter(|&f| f != b - 18 && !placed_in(&g.units[18 + f])) {
                            let crosses = |u: usize| line_unit(u).iter().any(|&c| box_of(c) == f);
                            if !crosses(w) {
                                continue;
                            }
                            for u in (0..9).filter(|&u| u != w && crosses(u) && apart(u)) {
                                let fits = line_places(u)
                                    .is_some_and(|p| p.iter().all(|&c| box_of(c) == f || on_s(c)));
                                let others = base.iter().filter(|&&i| i != u).count();
                                if !fits || others + 2 < k || base.is_empty() {
                                    continue;
                                }
                                for &x in g.units[18 + f].iter() {
                                    if open(x) && on_s(x) && on_w(x) {
                                        out.insert((x, d));
                                    }
                                }
                            }
                        }
                    }
                    // A box among the cover sets: J+1 lines with their places
                    // in the box or on the J crossing lines of S.
                    if k <= 2 {
                        let base: Vec<usize> = (0..9)
                            .filter(|&i| {
                                line_places(i)
                                    .is_some_and(|p| p.iter().all(|&c| on_s(c) || in_b(c)))
                            })
                            .collect();
                        for x in (0..N).filter(|&x| open(x) && (on_s(x) || in_b(x))) {
                            let w = line_and_crossing(x, rows).0;
                            if base.iter().filter(|&&i| i != w).count() > k {
                                out.insert((x, d));
                            }
                        }
                        // Finned: one more line U that misses the box, its
                        // places outside a box F on S (the fins in F).
                        let misses_b = |u: usize| line_unit(u).iter().all(|&c| !in_b(c));
                        for (u, x) in fin_cells(&fin, &base) {
                            let w = line_and_crossing(x, rows).0;
                            let others = base.iter().filter(|&&i| i != u && i != w).count();
                            if misses_b(u) && w != u && others >= k {
                                out.insert((x, d));
                            }
                        }
                    }
                }
                // Two boxes among the base sets (K 3 or 4): both with their
                // places on S, or one with fins off S all on one line W
                // through it; and K-2 lines apart from both with theirs on S.
                if k >= 3 {
                    let boxes_open = |b: usize| !placed_in(&g.units[18 + b]);
                    let places = |b: usize| -> Vec<usize> {
                        g.units[18 + b]
                            .iter()
                            .copied()
                            .filter(|&c| open(c))
                            .collect()
                    };
                    for b in (0..9).filter(|&b| boxes_open(b)) {
                        let off_s: Vec<usize> =
                            places(b).into_iter().filter(|&c| !on_s(c)).collect();
                        // None: no fins; Some(w): every fin on line w.
                        let fins_on = match off_s.first() {
                            None => None,
                            Some(&c) => {
                                let w = line_and_crossing(c, rows).0;
                                if !off_s.iter().all(|&f| line_and_crossing(f, rows).0 == w) {
                                    continue;
                                }
                                Some(w)
                            }
                        };
                        for e in (0..9).filter(|&e| e != b && boxes_open(e)) {
                            if fins_on.is_none() && e < b {
                                continue;
                            }
                            if !places(e).iter().all(|&c| on_s(c)) {
                                continue;
                            }
                            let in_boxes = |c: usize| box_of(c) == b || box_of(c) == e;
                            let base = base_lines(&in_boxes);
                            for x in (0..N).filter(|&x| open(x) && on_s(x) && !in_boxes(x)) {
                                let w = line_and_crossing(x, rows).0;
                                if fins_on.is_some_and(|f| f != w) {
                                    continue;
                                }
                                if base.iter().filter(|&&i| i != w).count() + 2 >= k {
                                    out.insert((x, d));
                                }
                            }
                        }
                    }
                }
                // Boxes among both the base and the cover sets (S of two
                // crossing lines): a line not within S whose places off S
                // all lie in one box (open for the digit) needs that box
                // beside S; two such boxes P are cover boxes, and a box B
                // (not in P) with its places on S, or off S on one line W
                // through it, makes a jellyfish with three lines apart
                // from it that lie within S and P (not X's line, nor W).
                if k == 2 {
                    let within_s =
                        |u: usize| line_places(u).is_some_and(|p| p.iter().all(|&c| on_s(c)));
                    let off_box = |u: usize| -> Option<usize> {
                        let places = line_places(u)?;
                        let f = box_of(*places.iter().find(|&&c| !on_s(c))?);
                        let fits = places.iter().all(|&c| on_s(c) || box_of(c) == f);
                        (fits && !placed_in(&g.units[18 + f])).then_some(f)
                    };
                    let offs: Vec<Option<usize>> = (0..9).map(off_box).collect();
                    let mut needed: Vec<usize> = offs.iter().flatten().copied().collect();
                    needed.sort_unstable();
                    needed.dedup();
                    let mut cover_boxes: Vec<[usize; 2]> = Vec::new();
                    for (i, &c) in needed.iter().enumerate() {
                        cover_boxes.extend(needed[i + 1..].iter().map(|&e| [c, e]));
                    }
                    for p in &cover_boxes {
                        let lines_needed = 3;
                        for b in (0..9).filter(|b| !p.contains(b) && !placed_in(&g.units[18 + b])) {
                            let apart = |v: usize| {
                                line_places(v).is_some_and(|pl| pl.iter().all(|&c| box_of(c) != b))
                            };
                            let lines: Vec<usize> = (0..9)
                                .filter(|&v| {
                                    apart(v)
                                        && (within_s(v) || offs[v].is_some_and(|c| p.contains(&c)))
                                })
                                .collect();
                            let without = |u: usize| lines.iter().filter(|&&v| v != u).count();
                            let in_cover = |x: usize| {
                                open(x) && box_of(x) != b && (on_s(x) || p.contains(&box_of(x)))
                            };
                            let fins: Vec<usize> = (g.units[18 + b].iter().copied())
                                .filter(|&c| open(c) && !on_s(c))
                                .collect();
                            let Some(&first) = fins.first() else {
                                for x in (0..N).filter(|&x| in_cover(x)) {
                                    if without(line_and_crossing(x, rows).0) >= lines_needed {
                                        out.insert((x, d));
                                    }
                                }
                                continue;
                            };
                            let w = line_and_crossing(first, rows).0;
                            let on_w = |c: usize| line_and_crossing(c, rows).0 == w;
                            if fins.iter().all(|&c| on_w(c)) && without(w) >= lines_needed {
                                for x in (0..N).filter(|&x| in_cover(x) && on_w(x)) {
                                    out.insert((x, d));
                                }
                            }
                        }
                    }
                }
                // Endo fins: a line W crossing a box whose one open place
                // of d where they cross lies on S, on the crossing line Q.
                let endo = |w: usize, b: usize| -> Option<usize> {
                    let common: Vec<usize> = (line_unit(w).iter().copied())
                        .filter(|&c| box_of(c) == b && open(c))
                        .collect();
                    match common[..] {
                        [y] if on_s(y) => Some(line_and_crossing(y, rows).1),
                        _ => None,
                    }
                };
                let box_places = |b: usize| -> Option<Vec<usize>> {
                    let bx = &g.units[18 + b];
                    (!placed_in(bx)).then(|| bx.iter().copied().filter(|&c| open(c)).collect())
                };
                let on_s_lines: Vec<usize> = (0..9)
                    .filter(|&w| line_places(w).is_some_and(|p| p.iter().all(|&c| on_s(c))))
                    .collect();
                let apart_from = |w: usize, b: usize| {
                    line_places(w).is_some_and(|p| p.iter().all(|&c| box_of(c) != b))
                };
                // The cell of line U on the crossing line Q.
                let cell_at = |u: usize, q: usize| if rows { u * 9 + q } else { q * 9 + u };
                for b in 0..9 {
                    let Some(places) = box_places(b) else {
                        continue;
                    };
                    let fins: Vec<usize> = places.iter().copied().filter(|&c| !on_s(c)).collect();
                    for &w in &on_s_lines {
                        // A box with its places on S and a line W sharing an
                        // endo fin on Q with it, and K-2 lines apart from the
                        // box: D leaves Q's cells outside the base sets.
                        let Some(q) = endo(w, b).filter(|_| fins.is_empty() && k >= 2) else {
                            continue;
                        };
                        let base = base_lines(&|c| box_of(c) == b);
                        for u in (0..9).filter(|&u| u != w) {
                            let x = cell_at(u, q);
                            let others = base.iter().filter(|&&i| i != u).count();
                            if open(x) && box_of(x) != b && others + 2 >= k {
                                out.insert((x, d));
                            }
                        }
                    }
                    // Two boxes among the base sets, B with its places off S
                    // all on one line F, E with its places on S and a line W
                    // sharing an endo fin on Q with it, apart from B, and
                    // K-3 lines apart from both: D leaves the cell of F on
                    // Q, which sees every fin.
                    let Some(f) = fins.first().map(|&c| line_and_crossing(c, rows).0) else {
                        continue;
                    };
                    if k < 3 || fins.iter().any(|&c| line_and_crossing(c, rows).0 != f) {
                        continue;
                    }
                    for e in (0..9).filter(|&e| e != b) {
                        if !box_places(e).is_some_and(|p| p.iter().all(|&c| on_s(c))) {
                            continue;
                        }
                        let in_boxes = |c: usize| box_of(c) == b || box_of(c) == e;
                        let base = base_lines(&in_boxes);
                        if base.iter().filter(|&&i| i != f).count() + 3 < k {
                            continue;
                        }
                        for &w in on_s_lines.iter().filter(|&&w| apart_from(w, b)) {
                            let Some(q) = endo(w, e) else { continue };
                            let x = cell_at(f, q);
                            if open(x) && !in_boxes(x) {
                                out.insert((x, d));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The Franken fish fire in half the sample or more and end every puzzle
/// as the reference does; they take no solution digit; and sudolog
/// credits them with the reference's eliminations. Not on puzzles 1 and 7:
/// there a Franken fish with fins in its box stands beside others on the
/// same stall, and its longer chain of helper facts (`box_line_gone_off`
/// to `franken_two_fins`) takes rounds after theirs, so the singles that
/// their eliminations wake take some of its candidates first (on puzzle 1,
/// r9c2<>5 comes 19 rounds after the stall's first Franken fish, by the
/// facts of a run on the reference's state), where the reference makes
/// every elimination of a stall at once.
#[test]
fn the_franken_fish_match_their_reference_on_the_sample() {
    check_against_reference(
        &EXTRA,
        BERTHIER20,
        BERTHIER20_SOLUTIONS,
        franken_eliminations,
        &[2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
    );
}

/// The file is a technique of its own at tier 10, beside the finned fish,
/// with a rule for the box among the base sets and two for the box among
/// the cover sets, one for each shape finned, two for fins in the base
/// box, two for two boxes among the base sets, two for endo fins, and four
/// for boxes among both the base and the cover sets (plain and finned).
#[test]
fn it_is_tier_10_with_fifteen_rules() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("franken_fish"), Some(10));
    assert_eq!(listing.elimination_rules("franken_fish").len(), 15);
}

/// Sixteen puzzles of `berthier_cb001` where an endo fin makes an
/// elimination (`tests/data/franken_endo/SOURCES.md`), and their solutions.
const ENDO: &str = "tests/data/franken_endo/sample.txt";
const ENDO_SOLUTIONS: &str = "tests/data/franken_endo/sample.solutions.txt";

/// The same check on puzzles where the shapes with an endo fin fire (the
/// one beside a second box with fins in three of them). Not credited on
/// puzzle 13, where a singles step takes r7c8<>5 before the rounds of the
/// fish that the reference credits with it, as on puzzles 1 and 7 above.
#[test]
fn the_endo_fins_match_their_reference() {
    check_against_reference(
        &EXTRA,
        ENDO,
        ENDO_SOLUTIONS,
        franken_eliminations,
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16],
    );
}

/// Five puzzles of `berthier_cb001` where a jellyfish with boxes among
/// both its base and its cover sets makes an elimination
/// (`tests/data/franken_both/SOURCES.md`), and their solutions.
const BOTH: &str = "tests/data/franken_both/sample.txt";
const BOTH_SOLUTIONS: &str = "tests/data/franken_both/sample.solutions.txt";

/// The same check on puzzles where the fish with boxes on both sides
/// fire (finned on four of them, plain on one). Not credited on puzzles 1
/// and 2: there the fish's chain of helper facts (`off_box` to
/// `franken_both_fins`) takes rounds after the stall, and the singles
/// take a few of its candidates first (the credits sudolog gives are a
/// subset of the reference's), as on puzzles 1 and 7 of the first sample.
#[test]
fn boxes_on_both_sides_match_their_reference() {
    check_against_reference(
        &EXTRA,
        BOTH,
        BOTH_SOLUTIONS,
        franken_eliminations,
        &[3, 4, 5],
    );
}
