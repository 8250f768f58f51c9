//! An independent check of the WXYZ-wing (`rules/extra/wxyz_wing.dl`)
//! against a reference written here in plain Rust, on the first 20
//! puzzles of `berthier_cb001` (`tests/data/berthier20/`).
//!
//! Only the grid, the singles and the wing run (`--techniques
//! singles,wxyz_wing`). The reference's schedule: grid and singles to a
//! fixpoint; on a stall, every wing elimination the current candidates
//! allow, all at once; none new: stop; otherwise apply them and start over.
//! It searches the plain way: every open hinge, every three open cells it
//! sees, every set S of four digits that holds all their candidates; a
//! digit of S is restricted when no two of the four cells that have it as
//! a candidate are apart (not peers); when every digit of S but Z is, Z
//! leaves every other open cell that sees each of the four that has Z.
//! The rules find the wings by unions of their cells' candidates and count
//! the restricted digits; the two agreeing on every puzzle is the check.

use crate::common;

use common::{
    BERTHIER20, BERTHIER20_SOLUTIONS, Extra, Geometry, N, State, check_against_reference, digits,
};
use std::collections::BTreeSet;

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/wxyz_wing.dl",
    technique: "wxyz_wing",
};

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// Every (cell, digit) the WXYZ-wing takes from the state, already known
/// or not.
fn wing_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
    let open = |c: usize| s.placed[c] == 0 && s.cand[c].count_ones() <= 4;
    let mut out = BTreeSet::new();
    for h in (0..N).filter(|&h| open(h)) {
        let seen: Vec<usize> = (0..N).filter(|&c| g.peer[h][c] && open(c)).collect();
        for (i, &a) in seen.iter().enumerate() {
            for (j, &b) in seen.iter().enumerate().skip(i + 1) {
                for &c in &seen[j + 1..] {
                    let wing = [h, a, b, c];
                    let union = wing.iter().fold(0u16, |m, &w| m | s.cand[w]);
                    if union.count_ones() > 4 {
                        continue;
                    }
                    // Every set of four digits that holds the union.
                    for set in (1u16..0x200).filter(|m| m.count_ones() == 4) {
                        if union & !set != 0 {
                            continue;
                        }
                        let restricted = |y: u8| {
                            wing.iter().all(|&p| {
                                wing.iter().all(|&q| {
                                    p == q || g.peer[p][q] || s.elim(p, y) || s.elim(q, y)
                                })
                            })
                        };
                        for z in digits(set) {
                            if !digits(set).filter(|&y| y != z).all(restricted) {
                                continue;
                            }
                            for x in (0..N).filter(|&x| s.placed[x] == 0 && !s.elim(x, z)) {
                                if wing.iter().all(|&p| g.peer[x][p] || s.elim(p, z)) {
                                    out.insert((x, z));
                                }
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

/// The wing fires in half the sample or more and ends every puzzle as the
/// reference does; it takes no solution digit; and sudolog credits it with
/// the reference's eliminations on two puzzles where it fires before
/// anything else could take them.
#[test]
fn the_wing_matches_its_reference_on_the_sample() {
    check_against_reference(
        &EXTRA,
        BERTHIER20,
        BERTHIER20_SOLUTIONS,
        wing_eliminations,
        &[2, 6],
    );
}

/// The file is a technique of its own at tier 7, beside the rectangles
/// and the BUG+1 (Sukaku Explainer rates the wing 5.5 and up), with one
/// elimination rule.
#[test]
fn it_is_tier_7_with_one_rule() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("wxyz_wing"), Some(7));
    assert_eq!(listing.elimination_rules("wxyz_wing").len(), 1);
}

/// The wing's steps are rated as Sukaku Explainer rates it, by the most
/// candidates a cell of the wing has: 5.6 for three, 5.5 for two or four.
/// Both occur on the sample's paths, and nothing else.
#[test]
fn the_wing_is_rated_by_its_fullest_cell() {
    let rows = EXTRA.with_library_json(&["grade", BERTHIER20]);
    let mut ratings = BTreeSet::new();
    for row in rows.iter().filter(|r| r.get("index").is_some()) {
        for step in row["steps"].as_array().expect("steps") {
            if step["technique"] == "WXYZ-wing" {
                ratings.insert(common::tenths(&step["rating"]));
            }
        }
    }
    assert_eq!(ratings, BTreeSet::from([55, 56]));
}
