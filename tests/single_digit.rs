//! An independent check of the single-digit patterns (`rules/single_digit.dl`:
//! skyscraper, two-string kite, simple colouring with its colour trap and
//! colour wrap) against a small reference solver written here in plain Rust,
//! on puzzles where they fire (`tests/data/single_digit/`).
//!
//! The reference works from the techniques' definitions, 9x9 only, with the
//! candidates as bitmasks. A strong link (conjugate pair) of digit D is a
//! unit (row, column or box) where D has exactly two places, a place being a
//! cell where D is not eliminated.
//!
//! - Skyscraper: D has exactly two places in each of two rows, A, B and C, E;
//!   A and C share a column, B and E do not: D leaves every cell that sees
//!   both B and E. The same with rows and columns swapped.
//! - Two-string kite: D has exactly two places in a row (A, B) and in a
//!   column (C, E); A and C are different cells of one box, B and E lie
//!   outside it: D leaves every cell that sees both B and E.
//! - Simple colouring: the strong links of D chain cells together; each chain
//!   is coloured with two colours (breadth first), one of which holds D. Colour
//!   trap: a cell that sees cells of both colours of one chain loses D. Colour
//!   wrap: when two cells of the same colour see each other, that colour
//!   cannot hold D, and every cell of it loses D.
//!
//! sudolog's `link` (in `wings.dl`) holds for any two cells of a unit outside
//! which D is eliminated, so it also pairs a placed cell with any other cell
//! of its unit. The reference does not: at a singles fixpoint those links
//! only lead to eliminations that grid.dl already made, and the comparison
//! below shows it.
//!
//! Two technique sets run: `singles,single_digit` and
//! `singles,locked,single_digit` (tiers 0, 1, 8, plus tier 2 for locked
//! candidates; the tiers are checked against `sudolog check`). The
//! reference's schedule: grid and singles to a fixpoint; on a stall, every
//! locked-candidates elimination at once, minus those already known (second
//! set only); if there are none, every single-digit elimination at once, minus
//! those already known; none left: stop; otherwise apply them and start over.
//! sudolog runs tier 8 in rounds and goes back to the easier tiers as soon
//! as a round eliminates something, but every rule is monotone, so the final
//! candidates do not depend on that order: they are compared exactly.
//! Which rule gets the credit for an elimination does depend on it, so the
//! credits are checked on four literal, hand-verified positions, one per
//! pattern.
//!
//! The colour wrap does not get the credit in the full library (not once in
//! over 800 solves of corpus puzzles where the reference finds a wrap): when
//! two cells A and B of one colour see each other, A also sees its own chain
//! neighbour, of the other colour, so the trap removes D from A one
//! derivation step before the wrap could; A's partners are then hidden
//! singles, and singles settle the whole chain, which is all the wrap would
//! have done. No test on the full library can tell the wrap rule from its
//! absence, so its example runs on a copy of the rules where
//! `single_digit.dl` keeps the wrap as its only elimination rule.
//!
//! Mutation testing: with `SINGLE_DIGIT_TEST_RULES=DIR`, every sudolog run
//! here uses `--rules DIR` (a copy of `rules/` with one rule broken), and
//! some test must then fail.

use crate::common;

use common::{
    ALL, Geometry, Listing, N, State, assert_keeps_solutions, bit, box_of, cell_digit_pairs,
    check_listing, col_of, elim_tsv, fact_cell_digit, facts_in_stats, final_difference, json_lines,
    parse_cell, read_lines, repo_path, row_of, solve_json, sorted_by_index, status_difference,
    step_of,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

const SAMPLE: &str = "tests/data/single_digit/sample.txt";
const SAMPLE_SOLUTIONS: &str = "tests/data/single_digit/sample.solutions.txt";

/// The technique sets compared with the reference.
const SINGLES: &str = "singles,single_digit";
const LOCKED: &str = "singles,locked,single_digit";
const SETS: [&str; 2] = [SINGLES, LOCKED];

/// The technique of the patterns.
const TECHNIQUE: &str = "single_digit";

/// A rules directory to use instead of the built-in library (mutation tests).
fn rules_override() -> Option<String> {
    common::rules_override("SINGLE_DIGIT_TEST_RULES")
}

/// The rules directory of a run: `rules` if given, else the mutation
/// override if set, else none (the built-in library).
fn rules_or_override(rules: Option<&str>) -> Option<String> {
    rules.map(String::from).or_else(rules_override)
}

/// The directory whose `.dl` files the tests copy for the wrap example.
fn rules_source() -> String {
    rules_override().unwrap_or_else(|| repo_path("rules"))
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
    /// The pencil marks of `facts --relation candidate --format tsv`
    /// (`cell<TAB>digit` lines); nothing is marked placed.
    fn from_candidate_tsv(text: &str) -> State {
        let mut s = State {
            cand: [0; N],
            placed: [0; N],
        };
        for (c, d) in cell_digit_pairs(text) {
            s.cand[c] |= bit(d);
        }
        s
    }

    /// D's places in a unit: its cells where D is not eliminated.
    fn places(&self, u: &[usize; 9], d: u8) -> Vec<usize> {
        u.iter().copied().filter(|&c| !self.elim(c, d)).collect()
    }

    /// D's two places in a unit, when it has exactly two (a strong link).
    fn link(&self, u: &[usize; 9], d: u8) -> Option<(usize, usize)> {
        match self.places(u, d)[..] {
            [a, b] => Some((a, b)),
            _ => None,
        }
    }
}

/// Locked candidates: when D's places in a box all lie in one row or column,
/// D leaves the rest of that line (pointing); when D's places in a line all
/// lie in one box, D leaves the rest of that box (claiming).
fn locked_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8)> {
    let mut out = BTreeSet::new();
    for bx in &g.units[18..27] {
        for line in &g.units[0..18] {
            if !bx.iter().any(|c| line.contains(c)) {
                continue;
            }
            for d in 1..=9u8 {
                for (from, to) in [(bx, line), (line, bx)] {
                    let places = s.places(from, d);
                    if !places.is_empty() && places.iter().all(|c| to.contains(c)) {
                        for &c in to.iter().filter(|c| !from.contains(c)) {
                            out.insert((c, d));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Which single-digit pattern made an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pattern {
    Skyscraper,
    Kite,
    Trap,
    Wrap,
}

const PATTERNS: [Pattern; 4] = [
    Pattern::Skyscraper,
    Pattern::Kite,
    Pattern::Trap,
    Pattern::Wrap,
];

/// Every (cell, digit) the single-digit patterns eliminate from the state,
/// already known or not, with the pattern that derives it.
fn single_digit_eliminations(s: &State, g: &Geometry) -> BTreeSet<(usize, u8, Pattern)> {
    let mut out = BTreeSet::new();
    for d in 1..=9u8 {
        // Skyscraper, on two rows (the shared line is a column) and on two
        // columns (the shared line is a row).
        for on_rows in [true, false] {
            let lines = if on_rows {
                &g.units[0..9]
            } else {
                &g.units[9..18]
            };
            let across = |c: usize| if on_rows { col_of(c) } else { row_of(c) };
            let links: Vec<(usize, usize)> = lines.iter().filter_map(|u| s.link(u, d)).collect();
            for (i, &(p, q)) in links.iter().enumerate() {
                for &(r, t) in &links[i + 1..] {
                    for (a, b) in [(p, q), (q, p)] {
                        for (c, e) in [(r, t), (t, r)] {
                            if across(a) == across(c) && across(b) != across(e) {
                                for x in g.seeing_both(b, e) {
                                    out.insert((x, d, Pattern::Skyscraper));
                                }
                            }
                        }
                    }
                }
            }
        }

        // Two-string kite: a row link A-B and a column link C-E, A and C
        // different cells of one box, B and E outside it.
        for row in &g.units[0..9] {
            let Some((p, q)) = s.link(row, d) else {
                continue;
            };
            for col in &g.units[9..18] {
                let Some((u, v)) = s.link(col, d) else {
                    continue;
                };
                for (a, b) in [(p, q), (q, p)] {
                    for (c, e) in [(u, v), (v, u)] {
                        let x = box_of(a);
                        if a != c && box_of(c) == x && box_of(b) != x && box_of(e) != x {
                            for y in g.seeing_both(b, e) {
                                out.insert((y, d, Pattern::Kite));
                            }
                        }
                    }
                }
            }
        }

        // Simple colouring: the chains are the connected components of the
        // strong links; each gets two colours, breadth first.
        let mut adjacent: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for u in &g.units {
            if let Some((a, b)) = s.link(u, d) {
                adjacent.entry(a).or_default().insert(b);
                adjacent.entry(b).or_default().insert(a);
            }
        }
        let mut colour: BTreeMap<usize, bool> = BTreeMap::new();
        let mut chains: Vec<[Vec<usize>; 2]> = Vec::new();
        for &start in adjacent.keys() {
            if colour.contains_key(&start) {
                continue;
            }
            let mut chain = [Vec::new(), Vec::new()];
            colour.insert(start, false);
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(a) = queue.pop_front() {
                let ca = colour[&a];
                chain[ca as usize].push(a);
                for &b in &adjacent[&a] {
                    match colour.get(&b) {
                        // An odd cycle of strong links: no solution.
                        Some(&cb) => assert_ne!(ca, cb, "odd cycle of {d}'s strong links"),
                        None => {
                            colour.insert(b, !ca);
                            queue.push_back(b);
                        }
                    }
                }
            }
            chains.push(chain);
        }
        for [one, other] in &chains {
            // Colour trap: X sees a cell of each colour.
            for x in 0..N {
                if one.iter().any(|&a| g.peer[a][x]) && other.iter().any(|&b| g.peer[b][x]) {
                    out.insert((x, d, Pattern::Trap));
                }
            }
            // Colour wrap: two cells of one colour see each other.
            for side in [one, other] {
                if side.iter().any(|&a| side.iter().any(|&b| g.peer[a][b])) {
                    for &x in side {
                        out.insert((x, d, Pattern::Wrap));
                    }
                }
            }
        }
    }
    out
}

/// The eliminations of one stall, with what derives each.
#[derive(Debug)]
enum Step {
    Locked(BTreeSet<(usize, u8)>),
    SingleDigit(BTreeMap<(usize, u8), BTreeSet<Pattern>>),
}

struct Outcome {
    state: State,
    steps: Vec<Step>,
}

impl Outcome {
    /// The patterns that eliminated something, over every step.
    fn patterns(&self) -> BTreeSet<Pattern> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::SingleDigit(m) => Some(m.values().flatten().copied()),
                Step::Locked(_) => None,
            })
            .flatten()
            .collect()
    }

    /// Whether a locked-candidates step eliminated anything.
    fn locked_fires(&self) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::Locked(e) if !e.is_empty()))
    }

    /// Whether a single-digit step eliminated anything.
    fn single_digit_fires(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::SingleDigit(_)))
    }
}

fn run_reference(line: &str, with_locked: bool) -> Outcome {
    let g = Geometry::new();
    let mut s = State::from_line(line);
    let mut steps = Vec::new();
    loop {
        s.grid_and_singles(&g);
        if s.solved() {
            break;
        }
        if with_locked {
            let new: BTreeSet<(usize, u8)> = locked_eliminations(&s, &g)
                .into_iter()
                .filter(|&(c, d)| !s.elim(c, d))
                .collect();
            if !new.is_empty() {
                for &(c, d) in &new {
                    assert_ne!(s.placed[c], d, "locked eliminated a placed digit");
                    s.cand[c] &= !bit(d);
                }
                steps.push(Step::Locked(new));
                continue;
            }
        }
        let mut new: BTreeMap<(usize, u8), BTreeSet<Pattern>> = BTreeMap::new();
        for (c, d, p) in single_digit_eliminations(&s, &g) {
            if !s.elim(c, d) {
                new.entry((c, d)).or_default().insert(p);
            }
        }
        if new.is_empty() {
            break;
        }
        for &(c, d) in new.keys() {
            assert_ne!(s.placed[c], d, "a pattern eliminated a placed digit");
            s.cand[c] &= !bit(d);
        }
        steps.push(Step::SingleDigit(new));
    }
    Outcome { state: s, steps }
}

/// The reference outcome of every sample puzzle for one technique set,
/// computed once.
fn reference(set: &str) -> &'static [Outcome] {
    static SINGLES_REF: OnceLock<Vec<Outcome>> = OnceLock::new();
    static LOCKED_REF: OnceLock<Vec<Outcome>> = OnceLock::new();
    let (cell, with_locked) = match set {
        SINGLES => (&SINGLES_REF, false),
        LOCKED => (&LOCKED_REF, true),
        _ => panic!("unknown set {set}"),
    };
    cell.get_or_init(|| {
        puzzles()
            .iter()
            .map(|p| run_reference(p, with_locked))
            .collect()
    })
}

// ---------------------------------------------------------------------------
// sudolog's side.
// ---------------------------------------------------------------------------

/// `sudolog check` of a rule set (`rules`, else the mutation override if
/// set, else the built-in library); every entry must be well-formed.
fn listing(rules: Option<&str>) -> Listing {
    let lib = check_listing(rules_or_override(rules).as_deref());
    assert!(lib.malformed.is_empty(), "{:?}", lib.malformed);
    lib
}

/// The rule set in use (the built-in library, or the mutation override).
fn library() -> &'static Listing {
    static LIBRARY: OnceLock<Listing> = OnceLock::new();
    LIBRARY.get_or_init(|| listing(None))
}

/// The description each pattern's rule starts with.
fn description(p: Pattern) -> &'static str {
    match p {
        Pattern::Skyscraper => "Skyscraper:",
        Pattern::Kite => "Two-string kite:",
        Pattern::Trap => "Colour trap:",
        Pattern::Wrap => "Colour wrap:",
    }
}

/// The name (`file:line`) of the single_digit elimination rule of pattern
/// `p` in a rule set.
fn rule_of(lib: &Listing, p: Pattern) -> String {
    lib.elimination_rule(TECHNIQUE, description(p))
}

/// `solve --logic-only --format json --techniques SET` on the whole sample,
/// one JSON object per puzzle in input order, run once per set.
fn solved_json(set: &str) -> &'static [Value] {
    static SINGLES_JSON: OnceLock<Vec<Value>> = OnceLock::new();
    static LOCKED_JSON: OnceLock<Vec<Value>> = OnceLock::new();
    let cell = match set {
        SINGLES => &SINGLES_JSON,
        LOCKED => &LOCKED_JSON,
        _ => panic!("unknown set {set}"),
    };
    cell.get_or_init(|| {
        let rows = solve_json(SAMPLE, set, rules_override().as_deref());
        sorted_by_index(rows, puzzles().len())
    })
}

/// New `eliminated` facts credited to the single_digit elimination rules in
/// a puzzle's statistics.
fn credited_in_stats(row: &Value) -> u64 {
    let names: BTreeSet<&str> = library()
        .elimination_rules(TECHNIQUE)
        .into_iter()
        .map(|r| r.name.as_str())
        .collect();
    facts_in_stats(row, |rule| names.contains(rule))
}

/// `facts SAMPLE --puzzle NUMBER --logic-only --techniques SET ...` (with
/// `rules` instead of the library if given).
fn facts(number: usize, set: &str, rules: Option<&str>, rest: &[&str]) -> String {
    let rules = rules_or_override(rules);
    common::facts(SAMPLE, number, set, rules.as_deref(), None, rest)
}

/// One literal example: the eliminations credited to one rule over the
/// whole solve must be exactly `expected`, all made in one step; the pencil
/// marks just before that step must be `marks` (the pattern, checked by
/// hand); and the reference's `pattern`, applied to the pencil marks as
/// sudolog had them then, must derive exactly the same new eliminations.
struct Example<'a> {
    /// Line of the sample.
    number: usize,
    puzzle: &'a str,
    set: &'a str,
    /// A rules directory instead of the library in use.
    rules: Option<&'a str>,
    /// The rule's name (`file:line`).
    rule: String,
    pattern: Pattern,
    marks: &'a [(&'a str, &'a str)],
    /// `cell digit`, e.g. `r2c3 8`.
    expected: &'a [&'a str],
}

impl Example<'_> {
    fn check(&self) {
        let (number, set, rules, rule) = (self.number, self.set, self.rules, &self.rule);
        assert_eq!(puzzles()[number - 1], self.puzzle, "sample line {number}");
        let expected: BTreeSet<String> =
            self.expected.iter().map(|s| s.replace(' ', "\t")).collect();

        let rows = json_lines(&facts(
            number,
            set,
            rules,
            &[
                "--relation",
                "eliminated",
                "--rule",
                rule,
                "--format",
                "json",
            ],
        ));
        let got: BTreeSet<String> = rows.iter().map(fact_cell_digit).collect();
        assert_eq!(got, expected, "eliminations credited to {rule}");
        let steps: BTreeSet<u64> = rows.iter().map(step_of).collect();
        assert_eq!(steps.len(), 1, "{rule} fires in one step: {steps:?}");
        let step = *steps.first().expect("a step");

        let before = facts(
            number,
            set,
            rules,
            &[
                "--relation",
                "candidate",
                "--at",
                &(step - 1).to_string(),
                "--format",
                "tsv",
            ],
        );
        let state = State::from_candidate_tsv(&before);
        for &(cell, digits) in self.marks {
            assert_eq!(
                state.candidates(parse_cell(cell)),
                digits,
                "{cell} just before step {step}"
            );
        }
        let g = Geometry::new();
        let derived: BTreeSet<(usize, u8)> = single_digit_eliminations(&state, &g)
            .into_iter()
            .filter(|&(c, d, p)| p == self.pattern && !state.elim(c, d))
            .map(|(c, d, _)| (c, d))
            .collect();
        assert_eq!(
            elim_tsv(&derived),
            expected,
            "the reference's {:?} eliminations at that position",
            self.pattern
        );
    }
}

/// Compares status and final candidates with the reference, puzzle by
/// puzzle, for one technique set; also whether the single-digit rules
/// eliminated anything at all.
fn compare_with_reference(set: &str) {
    let mut differences = Vec::new();
    for (i, (row, o)) in solved_json(set).iter().zip(reference(set)).enumerate() {
        let number = i + 1;
        if let Some(d) = status_difference(number, row, &o.state) {
            differences.push(d);
            continue;
        }
        if (credited_in_stats(row) > 0) != o.single_digit_fires() {
            differences.push(format!(
                "puzzle {number}: {} single-digit eliminations (reference: fires {})",
                credited_in_stats(row),
                o.single_digit_fires()
            ));
        }
        differences.extend(final_difference(number, row, &o.state));
    }
    assert!(differences.is_empty(), "{set}:\n{}", differences.join("\n"));
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The schedule the reference follows is the library's: singles at tier 1,
/// locked candidates at 2, the single-digit patterns at 8; and the four
/// patterns are four rules, told apart by their descriptions.
#[test]
fn the_library_has_the_patterns_at_tier_8() {
    let lib = library();
    assert_eq!(lib.tier("singles"), Some(1));
    assert_eq!(lib.tier("locked"), Some(2));
    assert_eq!(lib.tier("single_digit"), Some(8));
    assert_eq!(lib.elimination_rules(TECHNIQUE).len(), 4);
    let names: BTreeSet<String> = PATTERNS.iter().map(|&p| rule_of(lib, p)).collect();
    assert_eq!(names.len(), 4);
}

/// The data are what they claim: solutions agree with the givens and are
/// complete grids; the patterns fire in every puzzle with at least one of
/// the technique sets, all four somewhere with each set, locked candidates
/// too in the second set, and each set leaves some puzzles solved and some
/// stalled.
#[test]
fn the_sample_is_valid_and_the_patterns_fire() {
    let puzzles = puzzles();
    let solutions = solutions();
    assert!(
        (20..=30).contains(&puzzles.len()),
        "{} puzzles",
        puzzles.len()
    );
    assert_eq!(puzzles.len(), solutions.len());
    let g = Geometry::new();
    for (i, (p, sol)) in puzzles.iter().zip(&solutions).enumerate() {
        assert_eq!(sol.len(), N);
        for (given, s) in p.chars().zip(sol.chars()) {
            assert!(
                given == '.' || given == s,
                "puzzle {}: a given differs",
                i + 1
            );
        }
        let digits: Vec<u8> = sol.bytes().map(|b| b - b'0').collect();
        for u in &g.units {
            let mask = u.iter().fold(0u16, |m, &c| m | bit(digits[c]));
            assert_eq!(mask, ALL, "puzzle {}: the solution is not a grid", i + 1);
        }
        assert!(
            SETS.iter()
                .any(|set| reference(set)[i].single_digit_fires()),
            "puzzle {}: no pattern fires",
            i + 1
        );
    }
    for set in SETS {
        let outcomes = reference(set);
        let patterns: BTreeSet<Pattern> = outcomes.iter().flat_map(|o| o.patterns()).collect();
        assert_eq!(patterns, BTreeSet::from(PATTERNS), "{set}");
        assert_eq!(
            outcomes.iter().any(|o| o.locked_fires()),
            set == LOCKED,
            "{set}: locked candidates fire"
        );
        let solved = outcomes.iter().filter(|o| o.state.solved()).count();
        assert!(
            solved > 0 && solved < outcomes.len(),
            "{set}: {solved} of {} solved",
            outcomes.len()
        );
    }
}

/// Status and final candidates agree with the reference, singles only.
#[test]
fn solve_with_singles_matches_the_reference() {
    compare_with_reference(SINGLES);
}

/// Status and final candidates agree with the reference, with locked
/// candidates.
#[test]
fn solve_with_locked_matches_the_reference() {
    compare_with_reference(LOCKED);
}

/// Soundness: no technique removes the true digit of a cell, in sudolog's
/// answer or in the reference's, with either technique set.
#[test]
fn final_candidates_keep_the_solution_digit() {
    let solutions = solutions();
    for set in SETS {
        let states = reference(set).iter().map(|o| &o.state);
        assert_keeps_solutions(&format!("{set}, "), solved_json(set), states, &solutions);
    }
}

/// Puzzle 1 of the sample (line 188 of sudokuexchange_diabolical.txt), with
/// singles only:
///
/// ```text
/// 4.32.6.........5...2..7..8..75.4....2..9.1..6....3.12..4..6..1...2.........3.74.9
/// ```
///
/// When the skyscraper fires (after colour traps elsewhere), 8 has two
/// places in row 1, r1c2 {5,8} and r1c5 {5,8}, and two in row 5, r5c3 {4,8}
/// and r5c5 {5,8}. r1c5 and r5c5 share column 5 (which has more places for
/// 8, r2c5 and r8c5), so at most one of them holds 8, and r1c2 or r5c3 does.
/// The cells that see both are r1c3, r2c3 and r3c3 (box 1, column 3) and
/// r4c2, r5c2 and r6c2 (column 2, box 4); of them only r2c3 {1,6,7,8,9} and
/// r6c2 {6,8,9} still have 8. Those two are the skyscraper's whole credit.
#[test]
fn skyscraper_example() {
    Example {
        number: 1,
        puzzle: "4.32.6.........5...2..7..8..75.4....2..9.1..6....3.12..4..6..1...2.........3.74.9",
        set: SINGLES,
        rules: None,
        rule: rule_of(library(), Pattern::Skyscraper),
        pattern: Pattern::Skyscraper,
        marks: &[
            ("r1c2", "58"),
            ("r1c5", "58"),
            ("r5c3", "48"),
            ("r5c5", "58"),
            ("r2c5", "189"),
            ("r8c5", "1589"),
            ("r2c3", "16789"),
            ("r3c3", "169"),
            ("r6c2", "689"),
        ],
        expected: &["r2c3 8", "r6c2 8"],
    }
    .check();
}

/// Puzzle 2 of the sample (line 35 of tdoku_unbiased_first1000.txt), with
/// singles only:
///
/// ```text
/// .2.45.9...5...3...7..61....53....7..6.8.9.25.........8..28....5..4.....79......1.
/// ```
///
/// Singles stall; 3 has two places in row 5, r5c4 {1,3,7} and r5c9 {1,3},
/// and two in column 7, r6c7 {1,3,4,6} and r8c7 {3,6}. r5c9 and r6c7 are
/// different cells of box 6, so at most one holds 3, and r5c4 (box 5) or
/// r8c7 (box 9) does. The cells that see both are r8c4 (row 8, column 4)
/// and r5c7 (a given 2): 3 leaves r8c4 {1,3,5,9}, the kite's only
/// elimination (and the only one of the patterns in this puzzle).
#[test]
fn two_string_kite_example() {
    Example {
        number: 2,
        puzzle: ".2.45.9...5...3...7..61....53....7..6.8.9.25.........8..28....5..4.....79......1.",
        set: SINGLES,
        rules: None,
        rule: rule_of(library(), Pattern::Kite),
        pattern: Pattern::Kite,
        marks: &[
            ("r5c4", "137"),
            ("r5c9", "13"),
            ("r6c7", "1346"),
            ("r8c7", "36"),
            ("r8c4", "1359"),
        ],
        expected: &["r8c4 3"],
    }
    .check();
}

/// Puzzle 3 of the sample (line 1625 of kaggle3m_curated5000.txt), with
/// singles only:
///
/// ```text
/// ..2.8....34..5.9..8....1.5...71.3....3.....4.....6....67.9..8...9..4...6...5....1
/// ```
///
/// Singles stall with 7 left in eleven cells. Its strong links: rows 3, 5,
/// 6 and 9, columns 4, 5, 8 and 9, boxes 3, 5, 6 and 8; they chain ten of the
/// cells into one chain of two colours:
///
/// - r3c7, r5c9, r6c4, r8c8, r9c5 (one colour),
/// - r3c9, r5c5, r6c8, r8c4, r9c7 (the other).
///
/// The eleventh, r8c7 {2,5,7}, sees r8c8 (row 8) and r9c7 (column 7, box
/// 9), one of each colour, so 7 leaves it: the trap's only elimination. No
/// locked candidate is involved (row 8 and column 7 keep three places).
#[test]
fn colour_trap_example() {
    Example {
        number: 3,
        puzzle: "..2.8....34..5.9..8....1.5...71.3....3.....4.....6....67.9..8...9..4...6...5....1",
        set: SINGLES,
        rules: None,
        rule: rule_of(library(), Pattern::Trap),
        pattern: Pattern::Trap,
        marks: &[
            ("r3c7", "247"),
            ("r3c9", "2347"),
            ("r5c5", "27"),
            ("r5c9", "27"),
            ("r6c4", "27"),
            ("r6c8", "27"),
            ("r8c4", "37"),
            ("r8c7", "257"),
            ("r8c8", "27"),
            ("r9c5", "37"),
            ("r9c7", "47"),
        ],
        expected: &["r8c7 7"],
    }
    .check();
}

/// A copy of the rules in use where `single_digit.dl` keeps only one
/// elimination rule, the colour wrap (its comment and the helper relations
/// stay as they are).
fn wrap_only_rules() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = rules_source();
    for entry in std::fs::read_dir(&source).unwrap_or_else(|e| panic!("{source}: {e}")) {
        let path = entry.expect("a directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("dl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a rule file");
        let name = path.file_name().expect("a file name");
        let text = if name == "single_digit.dl" {
            keep_only_wrap(&text)
        } else {
            text
        };
        std::fs::write(dir.path().join(name), text).expect("a copy");
    }
    dir
}

/// Drops every `eliminated(...) :- ...` rule, with the comment lines right
/// above it, except the one whose comment starts with "Colour wrap".
fn keep_only_wrap(text: &str) -> String {
    let mut out = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with("//") {
            comment.push(line);
            continue;
        }
        let mut statement = vec![line];
        if !t.is_empty() && !t.starts_with('.') {
            while !statement.last().expect("a line").trim_end().ends_with('.') {
                statement.push(lines.next().expect("a rule ends with a full stop"));
            }
        }
        let drop = t.starts_with("eliminated(")
            && !comment
                .first()
                .is_some_and(|c| c.trim_start_matches('/').trim().starts_with("Colour wrap"));
        if !drop {
            out.append(&mut comment);
            out.extend(statement);
        }
        comment.clear();
    }
    out.extend(comment);
    out.join("\n") + "\n"
}

/// Puzzle 4 of the sample (line 1652 of sudokuexchange_diabolical.txt), with
/// singles only, on the library with the colour wrap as single_digit.dl's
/// only elimination rule (on the full library the trap takes these cells
/// first, see the top of this file):
///
/// ```text
/// ...68.1...9.7...5.8...39.....3....957.4...3.192....6.....39...6.7...6.8...9.71...
/// ```
///
/// Singles stall. 8's strong links r5c2-r5c6 (row 5), r5c6-r7c6 (column
/// 6), r7c6-r9c4 (box 8) and r9c4-r9c2 (row 9) make one chain (no other
/// link of 8 touches these cells), coloured r5c2, r7c6, r9c2 and r5c6, r9c4.
/// r5c2 and r9c2 share column 2, so their colour cannot hold 8: 8 leaves
/// r5c2, r7c6 and r9c2, and r5c6 and r9c4 keep it. That is the wrap's whole
/// credit.
#[test]
fn colour_wrap_example() {
    let dir = wrap_only_rules();
    let rules = dir.path().to_str().expect("a UTF-8 path");
    let lib = listing(Some(rules));
    let only = lib.elimination_rules(TECHNIQUE);
    assert_eq!(only.len(), 1, "one elimination rule left: {only:?}");
    let rule = rule_of(&lib, Pattern::Wrap);
    Example {
        number: 4,
        puzzle: "...68.1...9.7...5.8...39.....3....957.4...3.192....6.....39...6.7...6.8...9.71...",
        set: SINGLES,
        rules: Some(rules),
        rule,
        pattern: Pattern::Wrap,
        marks: &[
            ("r5c2", "568"),
            ("r5c6", "58"),
            ("r7c6", "2458"),
            ("r9c4", "248"),
            ("r9c2", "3468"),
            ("r4c2", "168"),
            ("r7c2", "458"),
        ],
        expected: &["r5c2 8", "r7c6 8", "r9c2 8"],
    }
    .check();
}
