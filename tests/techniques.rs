//! Independent verification of the technique library (`rules/*.dl`).
//!
//! A reference solver in plain Rust (9x9 only, candidates as bitmasks)
//! re-implements every technique from its definition, with the engine's
//! tier schedule, and records which technique eliminated what. The tests
//! then run the `sudolog` binary on a fixed sample of puzzles
//! (`tests/data/techniques/sample.txt`) and compare, puzzle by puzzle:
//!
//! - the status and the final candidates of `solve --logic-only`, for every
//!   prefix of the technique list (and for each technique alone with singles);
//! - the eliminations each technique is credited with (`facts --rule`);
//! - soundness against the known solutions;
//! - one literal, hand-checked example per technique.
//!
//! Techniques that the rule library does not have (yet) are skipped: which
//! ones exist, and their tiers, is read from `sudolog check`.
//!
//! The sample: one puzzle per line, then where it comes from (a file of the
//! public puzzle collections and its line) and why it was chosen, by the
//! reference: `singles` (solved by singles), `nothing` (stalls with no
//! technique firing), `point`/`claim` (locked candidates), `n2`..`n4`
//! (naked pair..quad), `h2`..`h4` (hidden pair..quad), `r2`..`r4` and
//! `c2`..`c4` (X-wing..jellyfish with rows or columns as the base lines),
//! `solved_with_<t>` (fully solved with `t`'s help). The solutions file
//! lines up with it.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use common::{
    ALL, Listing, bit, cell_digit_pairs, cell_name, check_listing, differing_keys, facts,
    facts_in_stats, json_candidates, parse_cell, parse_puzzle, read_repo_file, solve_json, units,
};

/// The techniques beyond singles, in the order of their documented tiers.
const TECHNIQUES: [&str; 4] = ["locked", "naked_subsets", "hidden_subsets", "fish"];
/// Their documented tiers.
const DOCUMENTED_TIERS: [u32; 4] = [2, 3, 4, 5];

const SAMPLE: &str = "tests/data/techniques/sample.txt";
const SAMPLE_SOLUTIONS: &str = "tests/data/techniques/sample.solutions.txt";

// ---------------------------------------------------------------------------
// The reference solver
// ---------------------------------------------------------------------------

pub mod reference {
    use crate::common::{
        ALL, Geometry, N, bit, digits, grid_string, open_candidates, parse_puzzle, sole_digit,
        units,
    };
    use std::collections::{BTreeMap, BTreeSet};

    /// One elimination: (cell index 0..81, digit 1..=9).
    pub type Elim = (usize, u8);

    /// The digit sets (candidate masks, see `common::bit`: `0..=ALL` are
    /// exactly the subsets of `ALL`) with exactly `k` digits.
    fn digit_sets(k: usize) -> impl Iterator<Item = u16> {
        (0..=ALL).filter(move |m| m.count_ones() as usize == k)
    }

    /// The sets of exactly `k` of the positions 0..9, as bitmasks.
    fn position_sets(k: usize) -> impl Iterator<Item = u16> {
        (0u16..512).filter(move |m| m.count_ones() as usize == k)
    }

    fn eliminated(cand: &[u16; 81], c: usize, d: u8) -> bool {
        cand[c] & bit(d) == 0
    }

    /// Locked candidates, one direction. For a box B and a line L that
    /// cross: pointing: if d is eliminated from every cell of B outside L,
    /// it leaves L outside B; claiming: if d is eliminated from every cell
    /// of L outside B, it leaves B outside L. Returns every elimination
    /// derived (known ones included) as a mask per cell.
    pub fn locked_part(cand: &[u16; 81], pointing: bool) -> [u16; 81] {
        let mut out = [0u16; 81];
        let units = units();
        for b in 18..27 {
            let bx = units[b];
            for line in units.iter().take(18) {
                let inter = bx.iter().filter(|c| line.contains(c)).count();
                if inter == 0 {
                    continue;
                }
                assert_eq!(inter, 3);
                let box_out: Vec<usize> =
                    bx.iter().copied().filter(|c| !line.contains(c)).collect();
                let line_out: Vec<usize> =
                    line.iter().copied().filter(|c| !bx.contains(c)).collect();
                let (from, to) = if pointing {
                    (&box_out, &line_out)
                } else {
                    (&line_out, &box_out)
                };
                for d in 1..=9u8 {
                    if from.iter().all(|&c| eliminated(cand, c, d)) {
                        for &x in to {
                            out[x] |= bit(d);
                        }
                    }
                }
            }
        }
        out
    }

    /// Locked candidates: pointing and claiming.
    pub fn locked(cand: &[u16; 81]) -> [u16; 81] {
        union([locked_part(cand, true), locked_part(cand, false)])
    }

    /// Naked subsets of size k: d in S (k digits) leaves cell X of unit U
    /// when at least k cells of U other than X have every digit outside S
    /// eliminated (placed cells included: their only candidate is their digit).
    pub fn naked_subsets_of_size(cand: &[u16; 81], k: usize) -> [u16; 81] {
        let mut out = [0u16; 81];
        for u in units() {
            for s in digit_sets(k) {
                let inside: Vec<bool> = u.iter().map(|&y| cand[y] & ALL & !s == 0).collect();
                let total = inside.iter().filter(|&&b| b).count();
                for (i, &x) in u.iter().enumerate() {
                    if total - usize::from(inside[i]) >= k {
                        out[x] |= s;
                    }
                }
            }
        }
        out
    }

    /// Naked pairs, triples and quads.
    pub fn naked_subsets(cand: &[u16; 81]) -> [u16; 81] {
        union((2..=4).map(|k| naked_subsets_of_size(cand, k)))
    }

    /// Hidden subsets of size k: for a set T of k cells of unit U, e leaves
    /// every cell of T when at least k digits other than e are eliminated
    /// from every cell of U outside T.
    pub fn hidden_subsets_of_size(cand: &[u16; 81], k: usize) -> [u16; 81] {
        let mut out = [0u16; 81];
        for u in units() {
            for t in position_sets(k) {
                // Digits not eliminated from some cell of U outside T.
                let outside = (0..9)
                    .filter(|i| t & (1 << i) == 0)
                    .fold(0u16, |m, i| m | cand[u[i]]);
                let confined = ALL & !outside;
                for e in 1..=9u8 {
                    if (confined & !bit(e)).count_ones() as usize >= k {
                        for i in (0..9).filter(|i| t & (1 << i) != 0) {
                            out[u[i]] |= bit(e);
                        }
                    }
                }
            }
        }
        out
    }

    /// Hidden pairs, triples and quads.
    pub fn hidden_subsets(cand: &[u16; 81]) -> [u16; 81] {
        union((2..=4).map(|k| hidden_subsets_of_size(cand, k)))
    }

    /// Fish of size k (2: X-wing, 3: swordfish, 4: jellyfish), one
    /// orientation. `base_rows`: for a digit d and a set C of k columns, d
    /// leaves a cell X in a column of C when at least k rows other than X's
    /// row have d eliminated from every cell outside the columns C.
    /// Otherwise the same with rows and columns swapped.
    pub fn fish_of_size(cand: &[u16; 81], k: usize, base_rows: bool) -> [u16; 81] {
        let mut out = [0u16; 81];
        // at(line, cross): the cell on base line `line` and cover line `cross`.
        let at = |line: usize, cross: usize| {
            if base_rows {
                line * 9 + cross
            } else {
                cross * 9 + line
            }
        };
        for d in 1..=9u8 {
            for covers in position_sets(k) {
                let base: Vec<bool> = (0..9)
                    .map(|line| {
                        (0..9)
                            .filter(|x| covers & (1 << x) == 0)
                            .all(|x| eliminated(cand, at(line, x), d))
                    })
                    .collect();
                let total = base.iter().filter(|&&b| b).count();
                for line in 0..9 {
                    if total - usize::from(base[line]) >= k {
                        for x in (0..9).filter(|x| covers & (1 << x) != 0) {
                            out[at(line, x)] |= bit(d);
                        }
                    }
                }
            }
        }
        out
    }

    /// X-wing, swordfish and jellyfish, on rows and on columns.
    pub fn fish(cand: &[u16; 81]) -> [u16; 81] {
        union((2..=4).flat_map(|k| [fish_of_size(cand, k, true), fish_of_size(cand, k, false)]))
    }

    fn union(masks: impl IntoIterator<Item = [u16; 81]>) -> [u16; 81] {
        let mut out = [0u16; 81];
        for m in masks {
            for c in 0..81 {
                out[c] |= m[c];
            }
        }
        out
    }

    /// Every elimination a technique derives from `cand` (known ones included).
    pub fn derive(technique: &str, cand: &[u16; 81]) -> [u16; 81] {
        match technique {
            "locked" => locked(cand),
            "naked_subsets" => naked_subsets(cand),
            "hidden_subsets" => hidden_subsets(cand),
            "fish" => fish(cand),
            other => panic!("the reference has no technique {other:?}"),
        }
    }

    /// One firing of a technique: the new eliminations it made at once.
    #[derive(Clone, Debug)]
    pub struct Firing {
        pub technique: String,
        pub eliminations: BTreeSet<Elim>,
    }

    #[derive(Clone, Debug)]
    pub struct Outcome {
        /// 0 = open.
        pub placed: [u8; 81],
        /// Candidates (digits not eliminated) per cell.
        pub cand: [u16; 81],
        pub firings: Vec<Firing>,
        pub contradiction: bool,
    }

    impl Outcome {
        pub fn solved(&self) -> bool {
            !self.contradiction && self.placed.iter().all(|&d| d != 0)
        }

        /// Every elimination credited to a technique.
        pub fn credited(&self, technique: &str) -> BTreeSet<Elim> {
            self.firings
                .iter()
                .filter(|f| f.technique == technique)
                .flat_map(|f| f.eliminations.iter().copied())
                .collect()
        }

        pub fn fires(&self, technique: &str) -> bool {
            self.firings.iter().any(|f| f.technique == technique)
        }

        /// Candidates of the open cells, as sudolog's JSON prints them.
        pub fn candidates(&self) -> BTreeMap<String, String> {
            open_candidates(&self.placed, &self.cand)
        }

        /// The grid, `.` for open cells.
        pub fn grid(&self) -> String {
            grid_string(&self.placed)
        }
    }

    /// Grid (tier 0) and singles (tier 1) to their fixpoint. Returns false
    /// on a contradiction.
    fn grid_and_singles(
        placed: &mut [u8; 81],
        cand: &mut [u16; 81],
        units: &[[usize; 9]],
        peers: &[Vec<usize>],
    ) -> bool {
        loop {
            let mut changed = false;
            // Grid: a placed digit rules out its cell's other digits, and
            // itself from every peer.
            for c in 0..81 {
                let d = placed[c];
                if d == 0 {
                    continue;
                }
                if cand[c] & !bit(d) != 0 {
                    cand[c] &= bit(d);
                    changed = true;
                }
                for &p in &peers[c] {
                    if cand[p] & bit(d) != 0 {
                        cand[p] &= !bit(d);
                        changed = true;
                    }
                }
            }
            let mut place = |c: usize, d: u8, placed: &mut [u8; 81]| -> bool {
                if placed[c] == 0 {
                    placed[c] = d;
                    changed = true;
                    true
                } else {
                    placed[c] == d
                }
            };
            // Naked single: every other digit is eliminated.
            for (c, &m) in cand.iter().enumerate() {
                if let Some(d) = sole_digit(m)
                    && !place(c, d, placed)
                {
                    return false;
                }
            }
            // Hidden single: d is eliminated from every other cell of a unit.
            for u in units {
                for d in 1..=9u8 {
                    let mut places = u.iter().filter(|&&x| cand[x] & bit(d) != 0);
                    if let (Some(&x), None) = (places.next(), places.next())
                        && !place(x, d, placed)
                    {
                        return false;
                    }
                }
            }
            // Contradictions: an empty cell, a placed digit eliminated, a
            // digit with no place in a unit.
            for c in 0..81 {
                if cand[c] == 0 || (placed[c] != 0 && cand[c] & bit(placed[c]) == 0) {
                    return false;
                }
            }
            for u in units {
                let any = u.iter().fold(0u16, |m, &x| m | cand[x]);
                if any != ALL {
                    return false;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Solves with grid + singles and the given techniques (name, tier),
    /// on the engine's schedule: singles to a fixpoint; then the lowest tier
    /// that derives a new elimination from the current state applies all of
    /// them at once and the loop restarts from singles; stop when none does.
    pub fn solve(puzzle: &str, techniques: &[(&str, u32)]) -> Outcome {
        let givens = parse_puzzle(puzzle);
        let g = Geometry::new();
        let peers: Vec<Vec<usize>> = (0..N).map(|c| g.peers_of(c)).collect();
        let mut placed = givens;
        let mut cand = [ALL; 81];
        let mut firings = Vec::new();
        let mut tiers: Vec<u32> = techniques.iter().map(|&(_, t)| t).collect();
        tiers.sort_unstable();
        tiers.dedup();
        assert!(
            tiers.iter().all(|&t| t >= 2),
            "the reference runs only techniques of tier 2 and up: {techniques:?}"
        );
        loop {
            if !grid_and_singles(&mut placed, &mut cand, &g.units, &peers) {
                return Outcome {
                    placed,
                    cand,
                    firings,
                    contradiction: true,
                };
            }
            let mut fired = false;
            for &tier in &tiers {
                let mut new_total = [0u16; 81];
                let mut new_firings = Vec::new();
                for &(name, _) in techniques.iter().filter(|&&(_, t)| t == tier) {
                    let derived = derive(name, &cand);
                    let mut elims = BTreeSet::new();
                    for c in 0..81 {
                        let new = derived[c] & cand[c];
                        new_total[c] |= new;
                        for d in digits(new) {
                            elims.insert((c, d));
                        }
                    }
                    if !elims.is_empty() {
                        new_firings.push(Firing {
                            technique: name.to_string(),
                            eliminations: elims,
                        });
                    }
                }
                if !new_firings.is_empty() {
                    for c in 0..81 {
                        cand[c] &= !new_total[c];
                    }
                    firings.extend(new_firings);
                    fired = true;
                    break;
                }
            }
            if !fired {
                return Outcome {
                    placed,
                    cand,
                    firings,
                    contradiction: false,
                };
            }
        }
    }
}

use reference::{Elim, Outcome};

// ---------------------------------------------------------------------------
// The sample and the binary
// ---------------------------------------------------------------------------

struct Sample {
    /// The puzzle of each line (its first token).
    puzzles: Vec<String>,
    /// The rest of each line: where it comes from, why it was chosen.
    notes: Vec<String>,
    solutions: Vec<String>,
}

fn sample() -> &'static Sample {
    static SAMPLE_DATA: OnceLock<Sample> = OnceLock::new();
    SAMPLE_DATA.get_or_init(|| {
        let text = read_repo_file(SAMPLE);
        let mut puzzles = Vec::new();
        let mut notes = Vec::new();
        for line in text.lines() {
            // One puzzle per line: no blank or comment lines, so that the
            // puzzle number is the line number.
            assert!(
                !line.trim().is_empty() && !line.starts_with('#'),
                "{SAMPLE}: {line:?}"
            );
            let (p, rest) = line.split_once(' ').unwrap_or((line, ""));
            puzzles.push(p.to_string());
            notes.push(rest.trim().to_string());
        }
        let solutions: Vec<String> = read_repo_file(SAMPLE_SOLUTIONS)
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            puzzles.len(),
            solutions.len(),
            "{SAMPLE} and {SAMPLE_SOLUTIONS} line up"
        );
        Sample {
            puzzles,
            notes,
            solutions,
        }
    })
}

/// What `sudolog check` says about the built-in library; every entry must
/// be well-formed.
fn library() -> &'static Listing {
    static LIBRARY: OnceLock<Listing> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let lib = check_listing(None);
        let text = &lib.text;
        assert!(lib.malformed.is_empty(), "{:?}", lib.malformed);
        assert_eq!(lib.tier("grid"), Some(0), "grid is tier 0:\n{text}");
        assert_eq!(lib.tier("singles"), Some(1), "singles is tier 1:\n{text}");
        lib
    })
}

/// The techniques of [`TECHNIQUES`] that the library has, with its tiers.
fn existing() -> Vec<(&'static str, u32)> {
    TECHNIQUES
        .iter()
        .filter_map(|&t| library().tier(t).map(|tier| (t, tier)))
        .collect()
}

/// Whether the library has technique `t`; says so on stderr when not.
fn exists(t: &str) -> bool {
    let yes = library().tier(t).is_some();
    if !yes {
        eprintln!("skipped: the rule library has no technique `{t}` (yet)");
    }
    yes
}

/// The existing techniques up to and including `t`, in list order.
fn up_to(t: &str) -> Vec<(&'static str, u32)> {
    let last = TECHNIQUES
        .iter()
        .position(|&x| x == t)
        .expect("a known technique");
    existing()
        .into_iter()
        .filter(|(x, _)| TECHNIQUES.iter().position(|y| y == x).unwrap() <= last)
        .collect()
}

/// `singles,locked,...` for `--techniques`.
fn technique_list(set: &[(&str, u32)]) -> String {
    std::iter::once("singles")
        .chain(set.iter().map(|&(t, _)| t))
        .collect::<Vec<_>>()
        .join(",")
}

/// `sudolog solve --logic-only --format json --techniques <set>` on the
/// whole sample, one JSON object per puzzle (in order). Cached per set, as
/// several tests read the same run.
fn solve_sample(set: &[(&str, u32)]) -> std::sync::Arc<Vec<serde_json::Value>> {
    use std::sync::{Arc, Mutex};
    type Cache = Mutex<BTreeMap<String, Arc<OnceLock<Arc<Vec<serde_json::Value>>>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let list = technique_list(set);
    let cell = {
        let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
        cache.entry(list.clone()).or_default().clone()
    };
    cell.get_or_init(|| {
        let objects = solve_json(SAMPLE, &list, None);
        assert_eq!(
            objects.len(),
            sample().puzzles.len(),
            "one object per puzzle"
        );
        for (i, o) in objects.iter().enumerate() {
            assert_eq!(o["index"], i + 1, "objects in input order");
        }
        Arc::new(objects)
    })
    .clone()
}

/// The reference run of every sample puzzle with a technique set.
fn reference_sample(set: &[(&str, u32)]) -> Vec<Outcome> {
    sample()
        .puzzles
        .iter()
        .map(|p| reference::solve(p, set))
        .collect()
}

/// `sudolog facts --relation eliminated --rule <t>` of puzzle `n` (1-based)
/// of a file (`-`: the text `stdin`), with a technique set.
fn credited_by_sudolog(
    file: &str,
    stdin: Option<&str>,
    n: usize,
    set: &[(&str, u32)],
    t: &str,
) -> BTreeSet<Elim> {
    let stdin = stdin.map(|text| format!("{text}\n"));
    let rest = ["--relation", "eliminated", "--rule", t, "--format", "tsv"];
    let text = facts(file, n, &technique_list(set), None, stdin.as_deref(), &rest);
    cell_digit_pairs(&text).into_iter().collect()
}

fn show(set: &BTreeSet<Elim>) -> String {
    set.iter()
        .map(|&(c, d)| format!("{}={d}", cell_name(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Eliminations credited to technique `t` in a solve's JSON statistics:
/// the new facts of its rules whose head is `eliminated`.
fn credited_count_in_stats(o: &serde_json::Value, t: &str) -> u64 {
    facts_in_stats(o, |rule| {
        library()
            .rule(rule)
            .is_some_and(|r| r.technique == t && r.head == "eliminated")
    })
}

/// Compares sudolog's solve of the sample with the reference, for one
/// technique set; panics with every difference.
fn compare_solve(set: &[(&str, u32)]) {
    let list = technique_list(set);
    let got = solve_sample(set);
    let want = reference_sample(set);
    let s = sample();
    let mut problems = Vec::new();
    for (i, (o, r)) in got.iter().zip(&want).enumerate() {
        let n = i + 1;
        let note = &s.notes[i];
        assert!(
            !r.contradiction,
            "the reference contradicts itself on puzzle {n}"
        );
        let status = o["status"].as_str().unwrap_or("?");
        let want_status = if r.solved() { "solved" } else { "stalled" };
        if status != want_status {
            problems.push(format!(
                "puzzle {n} ({note}): status {status}, the reference says {want_status}"
            ));
            continue;
        }
        if r.solved() {
            if o["solution"] != r.grid().as_str() {
                problems.push(format!(
                    "puzzle {n} ({note}): solution {}, the reference has {}",
                    o["solution"],
                    r.grid()
                ));
            }
        } else {
            if o["partial"] != r.grid().as_str() {
                problems.push(format!(
                    "puzzle {n} ({note}): partial grid {}, the reference has {}",
                    o["partial"],
                    r.grid()
                ));
            }
            let cands = json_candidates(o);
            let want_cands = r.candidates();
            if cands != want_cands {
                let diffs: Vec<String> = differing_keys(&cands, &want_cands)
                    .into_iter()
                    .map(|c| {
                        format!(
                            "{c}: sudolog {:?}, reference {:?}",
                            cands.get(c).map(String::as_str).unwrap_or("(placed)"),
                            want_cands.get(c).map(String::as_str).unwrap_or("(placed)")
                        )
                    })
                    .collect();
                problems.push(format!(
                    "puzzle {n} ({note}): candidates differ: {}",
                    diffs.join("; ")
                ));
            }
        }
        // The number of eliminations credited to each technique, from the
        // run's statistics.
        for &(t, _) in set {
            let got_count = credited_count_in_stats(o, t);
            let want_count = r.credited(t).len() as u64;
            if got_count != want_count {
                problems.push(format!(
                    "puzzle {n} ({note}): {t} is credited with {got_count} eliminations, the reference with {want_count}"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "sudolog solve --techniques {list} disagrees with the reference:\n{}",
        problems.join("\n")
    );
}

/// The prefix of the technique list ending with `t`; None (and a note) when
/// the library lacks `t`, as that set is then the previous one.
fn prefix_ending_with(t: &str) -> Option<Vec<(&'static str, u32)>> {
    exists(t).then(|| up_to(t))
}

// ---------------------------------------------------------------------------
// The library and the sample
// ---------------------------------------------------------------------------

#[test]
fn the_library_has_the_documented_tiers() {
    let lib = library();
    let mut missing = Vec::new();
    for (t, tier) in TECHNIQUES.iter().zip(DOCUMENTED_TIERS) {
        match lib.tier(t) {
            Some(got) => assert_eq!(got, tier, "technique {t} has tier {got}, documented {tier}"),
            None => missing.push(*t),
        }
    }
    if !missing.is_empty() {
        eprintln!("not in the rule library (yet): {missing:?}");
    }
}

/// Plain-Rust Sudoku validity of a complete grid.
fn is_valid_solution(givens: &str, grid: &str) -> bool {
    let g = parse_puzzle(givens);
    let s = parse_puzzle(grid);
    s.iter().all(|&d| d != 0)
        && g.iter().zip(&s).all(|(&a, &b)| a == 0 || a == b)
        && units()
            .iter()
            .all(|u| u.iter().fold(0u16, |m, &c| m | bit(s[c])) == ALL)
}

#[test]
fn the_sample_is_well_formed_and_exercises_every_technique() {
    let s = sample();
    assert!(
        (40..=60).contains(&s.puzzles.len()),
        "{} puzzles",
        s.puzzles.len()
    );
    for (i, (p, sol)) in s.puzzles.iter().zip(&s.solutions).enumerate() {
        assert!(
            is_valid_solution(p, sol),
            "line {}: the solution does not fit",
            i + 1
        );
    }
    let documented: Vec<(&str, u32)> = TECHNIQUES.iter().copied().zip(DOCUMENTED_TIERS).collect();
    // Each technique fires (is credited with an elimination) in at least 5
    // sample puzzles, with the techniques up to it.
    for k in 1..=documented.len() {
        let t = documented[k - 1].0;
        let runs = reference_sample(&documented[..k]);
        let fires = runs.iter().filter(|r| r.fires(t)).count();
        assert!(fires >= 5, "{t} fires in only {fires} sample puzzles");
    }
    // At least 10 where nothing beyond singles fires, even with every technique.
    let full = reference_sample(&documented);
    let quiet = full.iter().filter(|r| r.firings.is_empty()).count();
    assert!(
        quiet >= 10,
        "only {quiet} puzzles need nothing beyond singles"
    );
    // Some are solved by singles alone, some stall even with every technique.
    assert!(full.iter().any(|r| r.solved() && r.firings.is_empty()));
    assert!(full.iter().any(|r| !r.solved() && r.firings.is_empty()));
    assert!(full.iter().any(|r| r.solved() && r.fires("fish")));
}

#[test]
fn the_reference_is_sound_on_the_sample() {
    // The reference itself never loses a solution digit nor places a wrong
    // one, with any prefix of the technique list.
    let documented: Vec<(&str, u32)> = TECHNIQUES.iter().copied().zip(DOCUMENTED_TIERS).collect();
    let s = sample();
    for k in 0..=documented.len() {
        for (i, r) in reference_sample(&documented[..k]).iter().enumerate() {
            let sol = parse_puzzle(&s.solutions[i]);
            assert!(!r.contradiction, "line {}: contradiction", i + 1);
            for (c, &d) in sol.iter().enumerate() {
                assert!(
                    r.cand[c] & bit(d) != 0,
                    "line {}: {} loses its solution digit {d}",
                    i + 1,
                    cell_name(c),
                );
                assert!(r.placed[c] == 0 || r.placed[c] == d);
            }
            for f in &r.firings {
                assert!(f.eliminations.iter().all(|&(c, d)| sol[c] != d));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// solve: status and final candidates, per technique set
// ---------------------------------------------------------------------------

#[test]
fn solve_with_singles_matches_the_reference() {
    compare_solve(&[]);
}

#[test]
fn solve_up_to_locked_matches_the_reference() {
    if let Some(set) = prefix_ending_with("locked") {
        compare_solve(&set);
    }
}

#[test]
fn solve_up_to_naked_subsets_matches_the_reference() {
    if let Some(set) = prefix_ending_with("naked_subsets") {
        compare_solve(&set);
    }
}

#[test]
fn solve_up_to_hidden_subsets_matches_the_reference() {
    if let Some(set) = prefix_ending_with("hidden_subsets") {
        compare_solve(&set);
    }
}

#[test]
fn solve_up_to_fish_matches_the_reference() {
    if let Some(set) = prefix_ending_with("fish") {
        compare_solve(&set);
    }
}

#[test]
fn solve_with_each_technique_alone_matches_the_reference() {
    // singles + one technique: the tiers in between are simply absent.
    for (t, tier) in existing() {
        if t != "locked" {
            compare_solve(&[(t, tier)]);
        }
    }
}

// ---------------------------------------------------------------------------
// facts: the eliminations credited to each technique
// ---------------------------------------------------------------------------

/// For up to 8 sample puzzles where `t` fires (spread over the sample),
/// compares `facts --rule t` with the reference's credited set.
fn compare_credited(t: &str) {
    if !exists(t) {
        return;
    }
    let set = up_to(t);
    let runs = reference_sample(&set);
    let firing: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].fires(t)).collect();
    assert!(!firing.is_empty(), "{t} fires in no sample puzzle");
    let chosen: BTreeSet<usize> = if firing.len() <= 8 {
        firing.iter().copied().collect()
    } else {
        (0..8).map(|j| firing[j * (firing.len() - 1) / 7]).collect()
    };
    let mut problems = Vec::new();
    for &i in &chosen {
        let n = i + 1;
        let got = credited_by_sudolog(SAMPLE, None, n, &set, t);
        let want = runs[i].credited(t);
        if got != want {
            let extra: BTreeSet<Elim> = got.difference(&want).copied().collect();
            let lacking: BTreeSet<Elim> = want.difference(&got).copied().collect();
            problems.push(format!(
                "puzzle {n} ({}): sudolog credits {t} with {} eliminations, the reference {}; only sudolog: [{}]; only the reference: [{}]",
                sample().notes[i],
                got.len(),
                want.len(),
                show(&extra),
                show(&lacking)
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "facts --rule {t} (techniques {}) disagrees with the reference:\n{}",
        technique_list(&set),
        problems.join("\n")
    );
}

#[test]
fn credited_eliminations_of_locked_match_the_reference() {
    compare_credited("locked");
}

#[test]
fn credited_eliminations_of_naked_subsets_match_the_reference() {
    compare_credited("naked_subsets");
}

#[test]
fn credited_eliminations_of_hidden_subsets_match_the_reference() {
    compare_credited("hidden_subsets");
}

#[test]
fn credited_eliminations_of_fish_match_the_reference() {
    compare_credited("fish");
}

// ---------------------------------------------------------------------------
// Soundness of sudolog with every technique
// ---------------------------------------------------------------------------

#[test]
fn every_technique_together_is_sound_on_the_sample() {
    let set = existing();
    let got = solve_sample(&set);
    let s = sample();
    for (i, o) in got.iter().enumerate() {
        let n = i + 1;
        let sol: Vec<char> = s.solutions[i].chars().collect();
        match o["status"].as_str() {
            Some("solved") => assert_eq!(o["solution"], s.solutions[i].as_str(), "puzzle {n}"),
            Some("stalled") => {
                let partial = o["partial"].as_str().expect("a partial grid");
                for (c, ch) in partial.chars().enumerate() {
                    assert!(
                        ch == '.' || ch == sol[c],
                        "puzzle {n}: {} holds {ch}, the solution has {}",
                        cell_name(c),
                        sol[c]
                    );
                }
                for (cell, digits) in o["candidates"].as_object().expect("candidates") {
                    let c = parse_cell(cell);
                    assert!(
                        digits.as_str().expect("digits").contains(sol[c]),
                        "puzzle {n}: {cell} lost its solution digit {} (left: {digits})",
                        sol[c]
                    );
                }
            }
            other => panic!("puzzle {n}: status {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// One literal example per technique
// ---------------------------------------------------------------------------

/// Checks a literal example: with the techniques up to `t`, `t` fires
/// exactly once on `puzzle` in the reference, with exactly `expected`; and
/// sudolog credits `t` with the same eliminations (when the library has
/// every technique up to `t`, so that the set is the documented one).
fn check_example(puzzle: &str, t: &str, expected: &[(&str, u8)]) {
    let expected: BTreeSet<Elim> = expected.iter().map(|&(c, d)| (parse_cell(c), d)).collect();
    let k = TECHNIQUES
        .iter()
        .position(|&x| x == t)
        .expect("a technique")
        + 1;
    let documented: Vec<(&str, u32)> = TECHNIQUES.iter().copied().zip(DOCUMENTED_TIERS).collect();
    let set = &documented[..k];
    let r = reference::solve(puzzle, set);
    let firings: Vec<&reference::Firing> = r.firings.iter().filter(|f| f.technique == t).collect();
    assert_eq!(firings.len(), 1, "{t} fires once in the reference");
    assert_eq!(
        show(&firings[0].eliminations),
        show(&expected),
        "the reference's {t}"
    );

    let have: Vec<(&str, u32)> = up_to(t);
    if have.as_slice() != set {
        eprintln!("skipped the sudolog half: the library has {have:?}, the example needs {set:?}");
        return;
    }
    let got = credited_by_sudolog("-", Some(puzzle), 1, set, t);
    assert_eq!(show(&got), show(&expected), "sudolog's {t}");
}

#[test]
fn locked_example_pointing() {
    // kaggle3m_curated5000.txt:1039. At the singles' stall, the 6 of box 6
    // can only go in r4c9 or r6c9 (r5c7 and r5c9 hold 4/7, the rest is
    // placed): both in column 9, so 6 leaves column 9 outside box 6:
    // r1c9 (469) and r2c9 (679).
    check_example(
        "3..8.......4......6.9....31.75.9.3....6....9...1...85......416......8.4..5.1..9.8",
        "locked",
        &[("r1c9", 6), ("r2c9", 6)],
    );
}

#[test]
fn locked_example_claiming() {
    // kaggle3m_curated5000.txt:1393. At the singles' stall, the 4 of
    // column 6 can only go in r4c6 (469) or r6c6 (46), both in box 5, so 4
    // leaves the rest of box 5: r4c5 (4679) and r6c5 (4567).
    check_example(
        ".....5.847.......212...83.....1......1.2.3..829......3.4..3.9.....6..24.5.......7",
        "locked",
        &[("r4c5", 4), ("r6c5", 4)],
    );
}

#[test]
fn naked_subsets_example_pair() {
    // kaggle3m_curated5000.txt:1470. After one locked firing (4 leaves r8c8
    // and r8c9), r6c2 and r6c4 both hold only 5 and 8: a naked pair in row
    // 6, so 5 and 8 leave r6c5 (3589), the only other cell of row 6 with
    // either of them.
    check_example(
        "4..9..3..936..4..8.....21..69....2.....2....57.....41..1.64....2...7....867......",
        "naked_subsets",
        &[("r6c5", 5), ("r6c5", 8)],
    );
}

#[test]
fn hidden_subsets_example_pair() {
    // kaggle3m_curated5000.txt:3120. After locked, naked-subsets and locked
    // firings, 1 and 2 can only go in r2c1 (1258) and
    // r2c8 (12) within row 2: a hidden pair, so every other digit leaves
    // those two cells: 5 and 8 leave r2c1.
    check_example(
        "..4.9...6.3.6......7.1.2..3.....9.6......42.1..13....49..8.......3..7.4...2....5.",
        "hidden_subsets",
        &[("r2c1", 5), ("r2c1", 8)],
    );
}

#[test]
fn fish_example_x_wing() {
    // kaggle3m_curated5000.txt:1416. After locked, naked-subsets and locked
    // firings, the 8 of row 1 can only go in r1c1 (1578) or r1c4 (68), and
    // the 8 of row 4 only in r4c1 (68) or r4c4 (68): an X-wing on rows 1
    // and 4, columns 1 and 4, so 8 leaves the other cells of columns 1 and
    // 4: r3c1 (178) and r5c1 (689).
    check_example(
        "..2.......9...183..3.45.........95....7...1.2....4.....859....1..47....8...3...4.",
        "fish",
        &[("r3c1", 8), ("r5c1", 8)],
    );
}

#[test]
fn fish_example_swordfish_on_columns() {
    // kaggle3m_curated5000.txt:2158. After a locked and a naked-subsets
    // firing, the 9 of column 1 can only go in rows 8 and 9 (r8c1, r9c1:
    // 189), of column 4 in rows 2, 8, 9 (1459, 1259, 19), of column 8 in
    // rows 2, 8, 9 (3459, 2389, 89): a swordfish on columns 1, 4, 8 and
    // rows 2, 8, 9, so 9 leaves the other cells of those rows: r2c5 (1359),
    // r2c7 (139), r8c5 (12589), r8c7 (12389).
    check_example(
        "...8.2.6..........6.9.7......47....3.1....4.93..6...1..5.3...7......4....2....5.4",
        "fish",
        &[("r2c5", 9), ("r2c7", 9), ("r8c5", 9), ("r8c7", 9)],
    );
}
