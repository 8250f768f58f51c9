//! An independent check of the turbot fishes (`rules/extra/turbot_fish.dl`)
//! against a reference written here in plain Rust, on the first 20 puzzles
//! of `berthier_cb001` (`tests/data/berthier20/`).
//!
//! Only the grid, the singles and the fishes run (`--techniques
//! singles,turbot_fish`), on the schedule of `common::run_technique`. The
//! reference lists the strong links (a digit with exactly two candidate
//! cells in a unit), joins two of them when an end of one sees an end of
//! the other (two cells, the digit in neither of them eliminated), and a
//! third the same way; the digit leaves every open cell, where it is a
//! candidate, that sees both outer ends.

use crate::common;

use common::{
    BERTHIER20, BERTHIER20_SOLUTIONS, Extra, Geometry, N, State, check_against_reference,
};
use std::collections::BTreeSet;

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/turbot_fish.dl",
    technique: "turbot_fish",
};

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// Every (cell, digit) a turbot fish of two or three strong links takes
/// from the state, already known or not.
fn fish_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
    let mut out = BTreeSet::new();
    for d in 1..=9u8 {
        // The strong links of d, both ways: (a, b), one of which holds d.
        let mut links: Vec<(usize, usize)> = Vec::new();
        for u in &g.units {
            let places: Vec<usize> = u.iter().copied().filter(|&c| !s.elim(c, d)).collect();
            if let [a, b] = places[..]
                && s.placed[a] == 0
                && s.placed[b] == 0
            {
                links.push((a, b));
                links.push((b, a));
            }
        }
        // Ends (a, e) of two links a=b, c=e with b seeing c: a or e holds d.
        let mut two: BTreeSet<(usize, usize)> = BTreeSet::new();
        for &(a, b) in &links {
            for &(c, e) in &links {
                if g.peer[b][c] && a != c && b != e && a != e {
                    two.insert((a, e));
                }
            }
        }
        // And a third link f=g with e seeing f: a or g holds d.
        let mut three: BTreeSet<(usize, usize)> = BTreeSet::new();
        for &(a, e) in &two {
            for &(f, h) in &links {
                if g.peer[e][f] && f != a && h != e && a != h {
                    three.insert((a, h));
                }
            }
        }
        for &(a, e) in two.iter().chain(&three) {
            for x in (0..N).filter(|&x| s.placed[x] == 0 && !s.elim(x, d)) {
                if g.peer[a][x] && g.peer[e][x] {
                    out.insert((x, d));
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The fishes fire in half the sample or more and end every puzzle as the
/// reference does; they take no solution digit; and sudolog credits them
/// with the reference's eliminations on the first twelve puzzles but the
/// sixth (there sudolog finds a fish of three links a round after the grid
/// has taken some of its digits, and credits those to the grid).
#[test]
fn the_fishes_match_their_reference_on_the_sample() {
    check_against_reference(
        &EXTRA,
        BERTHIER20,
        BERTHIER20_SOLUTIONS,
        fish_eliminations,
        &[1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12],
    );
}

/// The file is a technique of its own at tier 6, beside the wings (Sukaku
/// Explainer rates these fishes 4.0 to 4.2 and 5.4 to 5.7), with a rule
/// for two links and one for three.
#[test]
fn it_is_tier_6_with_two_rules() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("turbot_fish"), Some(6));
    assert_eq!(listing.elimination_rules("turbot_fish").len(), 2);
}

/// The fishes are rated as Sukaku Explainer rates them, by the units of
/// their strong links: two parallel lines 4.0, a row and a column 4.1, a
/// box among them 4.2; of three links, parallel lines 5.4, a box 5.5, rows
/// and columns 5.6. A step is rated by its easiest derivation, so no step
/// is rated above the shape its picture shows, and each two-link rating
/// occurs on the samples.
#[test]
fn the_fishes_are_rated_by_their_shapes() {
    let mut two = BTreeSet::new();
    for file in [BERTHIER20, "tests/data/vwxyz/sample.txt"] {
        let rows = EXTRA.with_library_json(&["path", "--logic-only", file]);
        for step in rows
            .iter()
            .flat_map(|r| r["steps"].as_array().expect("steps"))
        {
            let name = step["name"].as_str().unwrap_or("");
            if name != "Turbot fish" && name != "Three-link turbot fish" {
                continue;
            }
            let kinds: BTreeSet<&str> = (step["pattern"]["units"].as_array().expect("units"))
                .iter()
                .map(|u| &u.as_str().expect("a unit")[..3])
                .collect();
            let (lines, mixed, boxed) = if name == "Turbot fish" {
                (40, 41, 42)
            } else {
                (54, 56, 55)
            };
            let shape = if kinds.contains("box") {
                boxed
            } else if kinds.len() == 1 {
                lines
            } else {
                mixed
            };
            let rating = common::tenths(&step["rating"]);
            assert!(rating <= shape && rating >= lines, "{step}");
            if name == "Turbot fish" {
                two.insert(rating);
            }
        }
    }
    assert_eq!(two, BTreeSet::from([40, 41, 42]));
}
