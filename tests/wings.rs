//! An independent check of the wings (`rules/wings.dl`: XY-wing, XYZ-wing;
//! `rules/w_wing.dl`: W-wing) against a small reference solver written here
//! in plain Rust, on puzzles where the wings fire (`tests/data/wings/`).
//!
//! Only tiers 0 (grid), 1 (singles), 6 (wings) and 9 (the W-wing) run
//! (`--techniques singles,wings,w_wing`), so the reference needs nothing
//! else. Its schedule: grid and singles to a fixpoint; on a stall, every
//! XY- and XYZ-wing elimination the current candidates allow, all at once,
//! minus those already known, or if there are none the W-wing's; none
//! left: stop; otherwise apply them, credit them to the wings, and start
//! over.
//! The wing definitions are the usual ones, as the rules' guards make them:
//! `pair(C, X, Y)` is an open cell whose candidates are exactly X and Y, a
//! pivot `trio` an open cell with exactly three candidates, and a strong
//! link joins two cells where the digit is still a candidate and has no
//! other place in their unit. (Helper facts stay once derived, so sudolog
//! may also fire on a pattern whose cells were decided since; the reference
//! agreeing with it on every puzzle shows that those add nothing here.)
//!
//! Which wing rule gets the credit for an elimination depends on the order
//! sudolog derives them in, so the credits are checked on three literal,
//! hand-verified positions, one per wing: the eliminations of the wings'
//! first firing, each credited to that wing's rule (found by its comment).
//!
//! Mutation testing: with `WINGS_TEST_RULES=DIR`, every sudolog run here uses
//! `--rules DIR` (a copy of `rules/` with one rule broken), and some test
//! must then fail.

use crate::common;

use common::{
    Geometry, Listing, N, State, assert_keeps_solutions, bit, check_listing, elim_tsv,
    fact_cell_digit, facts, final_difference, json_lines, read_lines, solve_json, sorted_by_index,
    status_difference, step_of, tsv_set,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

const SAMPLE: &str = "tests/data/wings/sample.txt";
const SAMPLE_SOLUTIONS: &str = "tests/data/wings/sample.solutions.txt";

/// The techniques of every run here.
const TECHNIQUES: &str = "singles,wings,w_wing";

/// A rules directory to use instead of the built-in library (mutation tests).
fn rules_override() -> Option<String> {
    common::rules_override("WINGS_TEST_RULES")
}

fn puzzles() -> Vec<String> {
    read_lines(SAMPLE)
}

fn solutions() -> Vec<String> {
    read_lines(SAMPLE_SOLUTIONS)
}

// ---------------------------------------------------------------------------
// The reference solver (on the candidate grid of `common::State`).
// ---------------------------------------------------------------------------

impl State {
    /// pair(C, X, Y): C is open and its candidates are exactly X and Y.
    fn pair(&self, c: usize, x: u8, y: u8) -> bool {
        x != y && self.placed[c] == 0 && self.cand[c] == bit(x) | bit(y)
    }

    /// trio(C, {X, Y, Z}): C is open and its candidates are exactly the three.
    fn trio(&self, c: usize, x: u8, y: u8, z: u8) -> bool {
        self.placed[c] == 0 && self.cand[c] == bit(x) | bit(y) | bit(z)
    }
}

/// Which wing made an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wing {
    Xy,
    Xyz,
    W,
}

/// Every (cell, digit) the wing rules eliminate from the state, already
/// known or not, with the wing that derives it.
fn wing_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8, Wing)> {
    let mut out = BTreeSet::new();
    let cells = || 0..N;
    let digits = || 1..=9u8;

    // XY-wing: pair(P,X,Y), pair(A,X,Z), pair(B,Y,Z), Z not X or Y, P sees
    // A and B; Z leaves every C that sees A and B.
    for p in cells() {
        for x in digits() {
            for y in digits() {
                if !s.pair(p, x, y) {
                    continue;
                }
                for z in digits().filter(|&z| z != x && z != y) {
                    for a in cells().filter(|&a| g.peer[p][a] && s.pair(a, x, z)) {
                        for b in cells().filter(|&b| g.peer[p][b] && s.pair(b, y, z)) {
                            for c in cells().filter(|&c| g.peer[a][c] && g.peer[b][c]) {
                                out.insert((c, z, Wing::Xy));
                            }
                        }
                    }
                }
            }
        }
    }

    // XYZ-wing: trio(P, {X,Y,Z}) with X < Y and Z the third digit,
    // pair(A,X,Z), pair(B,Y,Z), P sees A and B; Z leaves every C that sees
    // P, A and B.
    for p in cells() {
        for x in digits() {
            for y in (x + 1)..=9 {
                for z in digits().filter(|&z| z != x && z != y) {
                    if !s.trio(p, x, y, z) {
                        continue;
                    }
                    for a in cells().filter(|&a| g.peer[p][a] && s.pair(a, x, z)) {
                        for b in cells().filter(|&b| g.peer[p][b] && s.pair(b, y, z)) {
                            for c in
                                cells().filter(|&c| g.peer[p][c] && g.peer[a][c] && g.peer[b][c])
                            {
                                out.insert((c, z, Wing::Xyz));
                            }
                        }
                    }
                }
            }
        }
    }

    // link(L,M,X): L != M in a common unit, X a candidate of both and
    // eliminated from every other cell. linked[x][a][b]: some link(L,M,X)
    // has A seeing L, B seeing M, A != M and B != L.
    let mut linked = vec![[[false; N]; N]; 10];
    for u in &g.units {
        for x in digits() {
            for &l in u {
                for &m in u {
                    let live = !s.elim(l, x) && !s.elim(m, x);
                    if l == m || !live || !u.iter().all(|&o| o == l || o == m || s.elim(o, x)) {
                        continue;
                    }
                    for a in cells().filter(|&a| g.peer[a][l] && a != m) {
                        for b in cells().filter(|&b| g.peer[b][m] && b != l) {
                            linked[x as usize][a][b] = true;
                        }
                    }
                }
            }
        }
    }
    // W-wing: pair(A,X,Y), pair(B,X,Y), A != B, linked through X; Y leaves
    // every C that sees A and B.
    for a in cells() {
        for b in cells().filter(|&b| b != a) {
            for x in digits() {
                if !linked[x as usize][a][b] {
                    continue;
                }
                for y in digits().filter(|&y| s.pair(a, x, y) && s.pair(b, x, y)) {
                    for c in cells().filter(|&c| g.peer[a][c] && g.peer[b][c]) {
                        out.insert((c, y, Wing::W));
                    }
                }
            }
        }
    }
    out
}

struct Outcome {
    state: State,
    /// Every elimination credited to wings.
    credited: BTreeSet<(usize, u8)>,
    /// The new eliminations of each wing step, with the wings deriving them.
    steps: Vec<BTreeMap<(usize, u8), BTreeSet<Wing>>>,
}

fn run_reference(line: &str) -> Outcome {
    let g = Geometry::new();
    let mut s = State::from_line(line);
    let mut credited = BTreeSet::new();
    let mut steps = Vec::new();
    loop {
        s.grid_and_singles(&g);
        if s.solved() {
            break;
        }
        let mut new: BTreeMap<(usize, u8), BTreeSet<Wing>> = BTreeMap::new();
        let found = wing_eliminations(&s, &g);
        // The W-wing's tier comes after the XY- and XYZ-wings': it runs
        // only where they find nothing.
        let easier = found
            .iter()
            .any(|&(c, d, wing)| wing != Wing::W && !s.elim(c, d));
        for (c, d, wing) in found {
            if !s.elim(c, d) && (wing != Wing::W || !easier) {
                new.entry((c, d)).or_default().insert(wing);
            }
        }
        if new.is_empty() {
            break;
        }
        for &(c, d) in new.keys() {
            assert_ne!(s.placed[c], d, "a wing eliminated a placed digit");
            s.cand[c] &= !bit(d);
        }
        credited.extend(new.keys().copied());
        steps.push(new);
    }
    Outcome {
        state: s,
        credited,
        steps,
    }
}

/// The reference outcome of every sample puzzle, computed once.
fn reference() -> &'static [Outcome] {
    static REFERENCE: OnceLock<Vec<Outcome>> = OnceLock::new();
    REFERENCE.get_or_init(|| puzzles().iter().map(|p| run_reference(p)).collect())
}

// ---------------------------------------------------------------------------
// sudolog's side.
// ---------------------------------------------------------------------------

/// `solve --logic-only --format json --techniques singles,wings,w_wing` on the
/// whole sample, one JSON object per puzzle in input order, run once.
fn solved_json() -> &'static [Value] {
    static JSON: OnceLock<Vec<Value>> = OnceLock::new();
    JSON.get_or_init(|| {
        let rows = solve_json(SAMPLE, TECHNIQUES, rules_override().as_deref());
        sorted_by_index(rows, puzzles().len())
    })
}

/// `facts SAMPLE --puzzle NUMBER --logic-only --techniques singles,wings,w_wing
/// REST...`: its standard output.
fn sudolog_facts(number: usize, rest: &[&str]) -> String {
    facts(
        SAMPLE,
        number,
        TECHNIQUES,
        rules_override().as_deref(),
        None,
        rest,
    )
}

/// `facts --relation eliminated --rule wings`, then `--rule w_wing`, of one
/// puzzle of the sample: the eliminations of the three wings, one per line.
fn sudolog_wing_eliminations(number: usize, format: &str) -> String {
    ["wings", "w_wing"]
        .iter()
        .map(|technique| {
            sudolog_facts(
                number,
                &[
                    "--relation",
                    "eliminated",
                    "--rule",
                    technique,
                    "--format",
                    format,
                ],
            )
        })
        .collect()
}

/// The name (`file:line`) of the wings rule that derives `eliminated` and
/// whose comment starts with `prefix`, as `sudolog check` lists it.
fn wing_elimination_rule(prefix: &str) -> String {
    static LISTING: OnceLock<Listing> = OnceLock::new();
    LISTING
        .get_or_init(|| check_listing(rules_override().as_deref()))
        .elimination_rule(
            if prefix.starts_with("W-wing") {
                "w_wing"
            } else {
                "wings"
            },
            prefix,
        )
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The data are what they claim: solutions agree with the givens, and the
/// wings fire in most puzzles of the sample (the sample was chosen when the
/// wings also fired on decided cells; in a few puzzles only such degenerate
/// patterns existed), all three kinds somewhere.
#[test]
fn the_sample_is_valid_and_wings_fire_in_most_puzzles() {
    let puzzles = puzzles();
    let solutions = solutions();
    assert!(
        (15..=30).contains(&puzzles.len()),
        "{} puzzles",
        puzzles.len()
    );
    assert_eq!(puzzles.len(), solutions.len());
    let mut kinds = BTreeSet::new();
    let (mut solved, mut stalled, mut fired) = (0, 0, 0);
    for (i, ((p, sol), o)) in puzzles.iter().zip(&solutions).zip(reference()).enumerate() {
        assert_eq!(sol.len(), N);
        for (g, s) in p.chars().zip(sol.chars()) {
            assert!(g == '.' || g == s, "puzzle {}: a given differs", i + 1);
        }
        fired += usize::from(!o.credited.is_empty());
        kinds.extend(o.steps.iter().flat_map(|s| s.values().flatten().copied()));
        if o.state.solved() {
            solved += 1;
        } else {
            stalled += 1;
        }
    }
    assert_eq!(kinds, BTreeSet::from([Wing::Xy, Wing::Xyz, Wing::W]));
    assert!(
        fired * 4 >= puzzles.len() * 3,
        "wings fire in only {fired} puzzles"
    );
    assert!(
        solved > 0 && stalled > 0,
        "{solved} solved, {stalled} stalled"
    );
}

/// Status and final candidates of every puzzle agree with the reference.
#[test]
fn solve_matches_the_reference_on_every_puzzle() {
    let mut differences = Vec::new();
    for (i, (row, o)) in solved_json().iter().zip(reference()).enumerate() {
        let number = i + 1;
        if let Some(d) = status_difference(number, row, &o.state) {
            differences.push(d);
            continue;
        }
        differences.extend(final_difference(number, row, &o.state));
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// The eliminations credited to the wings technique are exactly the
/// reference's, on eight puzzles: several wing steps (2, 6, 16, 20), W-wings
/// only (8), XY-wings only (10), all three kinds at once (12), and one that
/// the wings let singles solve (17).
#[test]
fn credited_wing_eliminations_match_the_reference() {
    let mut differences = Vec::new();
    for number in [2, 6, 8, 10, 12, 16, 17, 20] {
        let got = tsv_set(&sudolog_wing_eliminations(number, "tsv"));
        let want = elim_tsv(&reference()[number - 1].credited);
        if got != want {
            differences.push(format!(
                "puzzle {number}: sudolog only {:?}, reference only {:?}",
                got.difference(&want).collect::<Vec<_>>(),
                want.difference(&got).collect::<Vec<_>>()
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// Soundness: no technique removes the true digit of a cell, in sudolog's
/// answer or in the reference's.
#[test]
fn final_candidates_keep_the_solution_digit() {
    let states = reference().iter().map(|o| &o.state);
    assert_keeps_solutions("", solved_json(), states, &solutions());
}

/// One literal example: the first firing of the wings in one puzzle of the
/// sample. The reference's first wing step must make exactly `expected`,
/// each by `wing` alone; sudolog's earliest wing step must make exactly
/// `expected` too, every one credited to the rule of `wing`; the pencil
/// marks just before that step must be `marks` (the pattern, checked by
/// hand); and the pattern's relations must hold `facts`.
struct FirstFiring<'a> {
    /// Line of the sample.
    number: usize,
    puzzle: &'a str,
    wing: Wing,
    /// How the comment of the wing's elimination rule starts.
    rule: &'a str,
    marks: &'a [(&'a str, &'a str)],
    /// `(relation, fact)`, the fact's columns separated by spaces.
    facts: &'a [(&'a str, &'a str)],
    /// `cell digit`, e.g. `r4c8 4`.
    expected: &'a [&'a str],
}

impl FirstFiring<'_> {
    fn check(&self) {
        let number = self.number;
        assert_eq!(puzzles()[number - 1], self.puzzle, "sample line {number}");
        let expected: BTreeSet<String> =
            self.expected.iter().map(|s| s.replace(' ', "\t")).collect();

        // The reference: the first wing step, by this wing only.
        let first = &reference()[number - 1].steps[0];
        assert_eq!(elim_tsv(&first.keys().copied().collect()), expected);
        for wings in first.values() {
            assert_eq!(wings, &BTreeSet::from([self.wing]));
        }

        // sudolog: the wing eliminations of the earliest step.
        let rows = json_lines(&sudolog_wing_eliminations(number, "json"));
        let first_step = rows.iter().map(step_of).min().expect("the wings fire");
        let firing: Vec<&Value> = rows.iter().filter(|r| step_of(r) == first_step).collect();
        let got: BTreeSet<String> = firing.iter().map(|r| fact_cell_digit(r)).collect();
        assert_eq!(got, expected, "the wing eliminations of step {first_step}");
        let rule = wing_elimination_rule(self.rule);
        for r in &firing {
            assert_eq!(r["rule"], rule.as_str(), "the rule of {r}");
        }

        // The pattern as sudolog saw it just before.
        let candidates = tsv_set(&sudolog_facts(
            number,
            &[
                "--relation",
                "candidate",
                "--at",
                &(first_step - 1).to_string(),
                "--format",
                "tsv",
            ],
        ));
        for &(cell, digits) in self.marks {
            let have: String = (1..=9)
                .filter(|d| candidates.contains(&format!("{cell}\t{d}")))
                .map(|d: u32| char::from_digit(d, 10).expect("a digit"))
                .collect();
            assert_eq!(have, digits, "{cell} before the first wing step");
        }

        // And the pattern's own relations.
        let relations: BTreeSet<&str> = self.facts.iter().map(|&(r, _)| r).collect();
        for relation in relations {
            let have = tsv_set(&sudolog_facts(
                number,
                &["--relation", relation, "--format", "tsv"],
            ));
            for &(_, fact) in self.facts.iter().filter(|&&(r, _)| r == relation) {
                assert!(
                    have.contains(&fact.replace(' ', "\t")),
                    "{relation}({fact}) does not hold"
                );
            }
        }
    }
}

/// Puzzle 15 of the sample (line 20 of sudokuexchange_diabolical.txt):
///
/// ```text
/// ...693....64...38..2.....5...19.27.....5.7....3.....9...6.7.5...7.2.8.6..82.6.47.
/// ```
///
/// Singles stall with, among others (rows 1 and 4):
///
/// ```text
/// r1:  178  15  578 | 6 9 3 | 12 14 1247
/// r4:   68  45   1  | 9 348 2 | 7 34 3456
/// ```
///
/// XY-wing: the pivot r1c2 {1,5} sees the pincer r1c8 {1,4} (row 1) and the
/// pincer r4c2 {4,5} (column 2). If r1c2 is 1, r1c8 is 4; if it is 5, r4c2
/// is 4: one of the pincers holds 4. The only cells that see both pincers
/// are r1c2 (the pivot, no 4) and r4c8 (row 4 with r4c2, column 8 with
/// r1c8), so 4 leaves r4c8, which is then 3 (its solution digit). That is
/// the one elimination of the wings' first firing (and of the whole solve).
#[test]
fn xy_wing_example_first_firing() {
    const NUMBER: usize = 15;
    FirstFiring {
        number: NUMBER,
        puzzle: "...693....64...38..2.....5...19.27.....5.7....3.....9...6.7.5...7.2.8.6..82.6.47.",
        wing: Wing::Xy,
        rule: "XY-wing:",
        marks: &[
            ("r1c2", "15"),
            ("r1c8", "14"),
            ("r4c2", "45"),
            ("r4c8", "34"),
        ],
        // Pincers r1c8 and r4c2 (in cell order), digit 4.
        facts: &[("xy_wing", "r1c8 r4c2 4")],
        expected: &["r4c8 4"],
    }
    .check();
    // The reference: that is the only wing step.
    assert_eq!(reference()[NUMBER - 1].steps.len(), 1);
}

/// Puzzle 23 of the sample (line 872 of sudokuexchange_diabolical.txt):
///
/// ```text
/// ....1....21.354.96...2.6...5..4.3..1..35.16......8......5...7..3.......58.6...1.9
/// ```
///
/// Singles stall with, among others (rows 1 to 3):
///
/// ```text
/// r1:  469 345689 489 | 89 1 789 | 2345 23457 2347
/// r2:    2      1   7 |  3 5   4 |    8     9    6
/// r3:   49  34589 489 |  2 79  6 |  345     1  347
/// ```
///
/// XYZ-wing: the pivot r1c3 {4,8,9} sees the pincer r1c4 {8,9} (row 1) and
/// the pincer r3c1 {4,9} (box 1). If r1c3 is 8, r1c4 is 9; if it is 4, r3c1
/// is 9; otherwise r1c3 is 9 itself: one of the three holds 9. The cells
/// that see all three are those of row 1 in box 1 other than the pivot,
/// r1c1 {4,6,9} and r1c2 {3,4,5,6,8,9}: 9 leaves both (their solution
/// digits are 6 and 3). Nothing else: r3c5 {7,9} sees both pincers (row 3,
/// box 2) but not the pivot, and keeps its 9. No other wing fires then.
#[test]
fn xyz_wing_example_first_firing() {
    FirstFiring {
        number: 23,
        puzzle: "....1....21.354.96...2.6...5..4.3..1..35.16......8......5...7..3.......58.6...1.9",
        wing: Wing::Xyz,
        rule: "XYZ-wing:",
        marks: &[
            ("r1c3", "489"),
            ("r1c4", "89"),
            ("r3c1", "49"),
            ("r1c1", "469"),
            ("r1c2", "345689"),
            ("r3c5", "79"),
        ],
        // xyz_wing(P, A, B, Z) with A's other digit below B's: A = r3c1 {4,9}.
        facts: &[("xyz_wing", "r1c3 r3c1 r1c4 9")],
        expected: &["r1c1 9", "r1c2 9"],
    }
    .check();
}

/// Puzzle 8 of the sample (line 371 of tdoku_magictour_top1465.txt):
///
/// ```text
/// ....8.61..53............5.2...4......2..58..74..7.9.5.964..........2.86.3.....7..
/// ```
///
/// Singles stall with, among others (rows 2, 3, 5, 7 and 9):
///
/// ```text
/// r2: 12678    5     3 | 1269   14679  1467 |   49  4789   489
/// r3:  1678 1479 16789 | 1369  134679 13467 |    5 34789     2
/// r5:    16    2   169 |  136       5     8 | 1349   349     7
/// r7:     9    6     4 |    8     137  1357 |   13     2   135
/// r9:     3    8     2 | 1569    1469  1456 |    7    49  1459
/// ```
///
/// W-wing: r2c7 and r9c8 both have {4,9}, and 4 has only two places in
/// row 5 (and in box 6), r5c7 and r5c8: the strong link. r5c7 sees r2c7
/// (column 7), r5c8 sees r9c8 (column 8). If r2c7 is not 9, it is 4, so
/// r5c7 is not 4, r5c8 is, and r9c8 is 9: one of the two holds 9. The cells
/// that see both are r1c8, r2c8, r3c8 (column 8, with r2c7 in row 2 or
/// box 3) and r7c7, r8c7, r9c7 (column 7, with r9c8 in box 9); of them only
/// r2c8 {4,7,8,9} and r3c8 {3,4,7,8,9} have a 9 (r7c7 is {1,3}, the others
/// are givens). 9 leaves both (their solution digits are 4 and 7). No other
/// wing fires then.
#[test]
fn w_wing_example_first_firing() {
    FirstFiring {
        number: 8,
        puzzle: "....8.61..53............5.2...4......2..58..74..7.9.5.964..........2.86.3.....7..",
        wing: Wing::W,
        rule: "W-wing:",
        marks: &[
            ("r2c7", "49"),
            ("r9c8", "49"),
            ("r5c7", "1349"),
            ("r5c8", "349"),
            ("r5c1", "16"),
            ("r5c3", "169"),
            ("r5c4", "136"),
            ("r2c8", "4789"),
            ("r3c8", "34789"),
            ("r7c7", "13"),
        ],
        facts: &[("link", "r5c7 r5c8 4 row5"), ("w_wing", "r2c7 r9c8 9")],
        expected: &["r2c8 9", "r3c8 9"],
    }
    .check();
}
