//! An independent check of aligned pair exclusion (`rules/extra/
//! aligned_pairs.dl`) against a reference written here in plain Rust, on
//! the first 20 puzzles of `berthier_cb001` (`tests/data/berthier20/`).
//!
//! Only the grid, the singles and the exclusion run (`--techniques
//! singles,aligned_pairs`), so the reference needs nothing else. Its
//! schedule: grid and singles to a fixpoint; on a stall, every exclusion
//! the current candidates allow, all at once, minus those already known;
//! none left: stop; otherwise apply them and start over.
//! Its definition is the usual one, written the plain way: for two open
//! cells A and B, a pair of digits (X, Y) is excluded when X = Y and A
//! sees B, or when an open cell that sees both has exactly the candidates
//! X and Y; X leaves A when every candidate Y of B makes an excluded pair
//! with it. Sudolog's rules say it through sets of digits that B's
//! candidates fit and a count; the reference agreeing with them on every
//! puzzle is the check.

use crate::common;

use common::{
    BERTHIER20, BERTHIER20_SOLUTIONS, Extra, Geometry, N, State, check_against_reference, digits,
    json_lines, read_lines,
};
use std::collections::BTreeSet;

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/aligned_pairs.dl",
    technique: "aligned_pairs",
};

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// Every (cell, digit) that aligned pair exclusion takes from the state,
/// already known or not.
fn exclusions(s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
    let open = |c: usize| s.placed[c] == 0;
    // excluders[x][y]: the open cells whose candidates are exactly {x, y}.
    let mut excluders = vec![vec![Vec::new(); 10]; 10];
    for e in (0..N).filter(|&e| open(e)) {
        if let [x, y] = digits(s.cand[e]).collect::<Vec<_>>()[..] {
            excluders[x as usize][y as usize].push(e);
            excluders[y as usize][x as usize].push(e);
        }
    }
    let excluded = |a: usize, x: u8, b: usize, y: u8| {
        (x == y && g.peer[a][b])
            || excluders[x as usize][y as usize]
                .iter()
                .any(|&e| g.peer[e][a] && g.peer[e][b])
    };
    let mut out = BTreeSet::new();
    for a in (0..N).filter(|&a| open(a)) {
        for b in (0..N).filter(|&b| b != a && open(b)) {
            for x in digits(s.cand[a]) {
                if digits(s.cand[b]).all(|y| excluded(a, x, b, y)) {
                    out.insert((a, x));
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The exclusion fires in half the sample or more and ends every puzzle as
/// the reference does; it takes no solution digit; and sudolog credits it
/// with the reference's eliminations on puzzles where it fires before
/// anything else could take them: one it solves (3) and two it leaves
/// stalled (1, 2). The sample's solutions agree with its givens.
#[test]
fn the_exclusion_matches_its_reference_on_the_sample() {
    let (puzzles, solutions) = (read_lines(BERTHIER20), read_lines(BERTHIER20_SOLUTIONS));
    assert_eq!((puzzles.len(), solutions.len()), (20, 20));
    for (i, (p, sol)) in puzzles.iter().zip(&solutions).enumerate() {
        for (g, s) in p.chars().zip(sol.chars()) {
            assert!(g == '.' || g == s, "puzzle {}: a given differs", i + 1);
        }
    }
    check_against_reference(
        &EXTRA,
        BERTHIER20,
        BERTHIER20_SOLUTIONS,
        exclusions,
        &[1, 2, 3],
    );
}

/// The file is a technique of its own at tier 8, beside the
/// single-digit patterns, and rated 6.2 as in Sudoku Explainer: `grade`
/// names it as the hardest step of a puzzle it solves.
#[test]
fn it_is_tier_8_and_rated_6_2() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("aligned_pairs"), Some(8));
    assert_eq!(listing.elimination_rules("aligned_pairs").len(), 2);
    let graded = EXTRA.sudolog(&["grade", "--format", "json", "--puzzle", "3", BERTHIER20]);
    let row = &json_lines(&graded)[0];
    assert_eq!(row["index"], 3, "{graded}");
    assert_eq!(row["hardest"], "Aligned pair exclusion", "{graded}");
    assert_eq!(row["rating"], 6.2, "{graded}");
}
