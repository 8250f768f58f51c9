//! An independent check of the VWXYZ-wing (`rules/extra/vwxyz_wing.dl`)
//! against a reference written here in plain Rust, on the 20 puzzles of
//! `tests/data/vwxyz/sample.txt` (from the diabolical set, rated 6.3 or
//! 6.4 by Sukaku Explainer for this wing).
//!
//! Only the grid, the singles and the wing run (`--techniques
//! singles,vwxyz_wing`). The reference's schedule: grid and singles to a
//! fixpoint; on a stall, every wing elimination the current candidates
//! allow, all at once; none new: stop; otherwise apply them and start over.
//! It searches the plain way: every unit, every set T of five digits whose
//! open cells in the unit that fit it are four or five, every four of
//! those; every open pivot outside the unit with two digits X and Z of T
//! that sees one of the four, where every cell of the four with X sees the
//! pivot; then Z leaves every other open cell that sees the pivot and each
//! of the four that has Z.
//! The rules build the sets from unions of their cells' candidates (a
//! locked set of four digits with a pivot whose other digit is outside
//! them, as the reference's five-digit sets allow) and count the cells;
//! the two agreeing on every puzzle is the check.

use crate::common;

use common::{
    Extra, Geometry, N, State, check_against_reference, digits, stdout_of, sudolog, tenths,
};
use itertools::Itertools;
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/vwxyz_wing.dl",
    technique: "vwxyz_wing",
};

const SAMPLE: &str = "tests/data/vwxyz/sample.txt";
const SOLUTIONS: &str = "tests/data/vwxyz/sample.solutions.txt";

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// An almost locked set: its unit (an index of `Geometry::units`), four
/// cells of it, and the five digits T that hold their candidates.
type Als = (usize, [usize; 4], u16);

/// The almost locked sets of the state: every unit, every set T of five
/// digits whose open cells in the unit that fit it are four or five, every
/// four of those.
fn sets(s: &State, g: &Geometry) -> Vec<Als> {
    let mut out = Vec::new();
    for (u, unit) in g.units.iter().enumerate() {
        for set in (1u16..0x200).filter(|m| m.count_ones() == 5) {
            let fitting: Vec<usize> = (unit.iter().copied())
                .filter(|&c| s.placed[c] == 0 && s.cand[c] & !set == 0)
                .collect();
            if (4..=5).contains(&fitting.len()) {
                for cells in fitting.into_iter().combinations(4) {
                    out.push((u, cells.try_into().expect("four cells"), set));
                }
            }
        }
    }
    out
}

/// The VWXYZ-wing with a memory, as the rules have one: a set found at a
/// stall stays a set (its cells keep their digits within T, though one
/// may be placed since). With every set found so far in the puzzle: every
/// open pivot outside its unit with two digits X and Z of T that sees a
/// cell of the four (as Sukaku Explainer looks for it), where every
/// cell of the four that may hold X sees the pivot (a placed one holds
/// another digit); then Z leaves every open cell that still has it, sees
/// the pivot, and sees each of the four that may hold Z.
#[derive(Default)]
struct Reference {
    /// The placed cells at the last stall (a new puzzle places others).
    placed: RefCell<Vec<usize>>,
    sets: RefCell<BTreeSet<Als>>,
}

impl Reference {
    fn eliminations(&self, s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
        let placed: Vec<usize> = (0..N).filter(|&c| s.placed[c] != 0).collect();
        let same_puzzle = self.placed.borrow().iter().all(|c| placed.contains(c));
        let mut known = self.sets.borrow_mut();
        if !same_puzzle {
            known.clear();
        }
        *self.placed.borrow_mut() = placed;
        known.extend(sets(s, g));
        let open = |c: usize| s.placed[c] == 0;
        let mut out = BTreeSet::new();
        for &(u, cells, set) in known.iter() {
            for y in (0..N).filter(|&y| open(y) && s.cand[y].count_ones() == 2) {
                let sees_the_set = cells.iter().any(|&e| g.peer[e][y]);
                if g.units[u].contains(&y) || s.cand[y] & !set != 0 || !sees_the_set {
                    continue;
                }
                let pair: Vec<u8> = digits(s.cand[y]).collect();
                for (x, z) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                    if !cells.iter().all(|&e| s.elim(e, x) || g.peer[e][y]) {
                        continue;
                    }
                    for q in (0..N).filter(|&q| open(q) && !s.elim(q, z) && g.peer[y][q]) {
                        if cells.iter().all(|&e| g.peer[e][q] || s.elim(e, z)) {
                            out.insert((q, z));
                        }
                    }
                }
            }
        }
        out
    }
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
    let reference = Reference::default();
    let technique = |s: &State, g: &Geometry| reference.eliminations(s, g);
    check_against_reference(&EXTRA, SAMPLE, SOLUTIONS, technique, &[1, 2]);
}

/// The file is a technique of its own at tier 8, after the WXYZ-wing
/// (tier 7), which Sukaku Explainer rates lower, with one elimination
/// rule.
#[test]
fn it_is_tier_8_with_one_rule() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("vwxyz_wing"), Some(8));
    assert_eq!(listing.elimination_rules("vwxyz_wing").len(), 1);
}

/// With the library, the sample's puzzles whose hardest step is the wing
/// are rated 6.2 to 6.4 by the most candidates a cell of its set has (6.4
/// for three, 6.3 for two or four), as Sukaku Explainer rates it: all but
/// two at most get its rating (`sample.ratings.txt`; where one differs,
/// its path reached the wing in another state).
#[test]
fn the_wing_is_rated_by_its_fullest_cell() {
    let rows = EXTRA.with_library_json(&["grade", SAMPLE]);
    let published = common::read_lines("tests/data/vwxyz/sample.ratings.txt");
    let mut rated = Vec::new();
    for row in rows.iter().filter(|r| r["hardest"] == "VWXYZ-wing") {
        let index = row["index"].as_u64().expect("an index") as usize;
        let theirs: f64 = published[index - 1].parse().expect("a rating");
        rated.push((tenths(&row["rating"]), (theirs * 10.0).round() as u64));
    }
    assert!(rated.len() >= 6, "{rated:?}");
    assert!(
        rated.iter().all(|&(ours, _)| (62..=64).contains(&ours)),
        "{rated:?}"
    );
    let same = rated
        .iter()
        .filter(|&&(ours, theirs)| ours == theirs)
        .count();
    assert!(same + 2 >= rated.len(), "{rated:?}");
}

/// `explain` tells a wing's elimination down to its set: the rules over
/// five-digit sets (`in_set` of a set larger than `digit_set`'s, unions
/// of candidates) are re-derived, not left as "not derived in this
/// solve".
#[test]
fn explain_tells_the_wing_down_to_its_set() {
    let out = stdout_of(sudolog().args([
        "explain",
        "--logic-only",
        "--no-forcing",
        "--techniques",
        "singles,vwxyz_wing",
        "--rules-add",
        EXTRA.rules,
        SAMPLE,
        "eliminated(r8c9, 7)",
    ]));
    assert!(
        out.starts_with("eliminated(r8c9, 7) — VWXYZ-wing:"),
        "{out}"
    );
    for relation in [
        "vw_wing(", "vw_als(", "vw_trio(", "vw_duo(", "vw_in(", "vw_gone(",
    ] {
        assert!(out.contains(relation), "{relation} in {out}");
    }
    assert!(!out.contains("not derived in this solve"), "{out}");
}
