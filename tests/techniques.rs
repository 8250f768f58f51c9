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

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use assert_cmd::Command;

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
    use std::collections::{BTreeMap, BTreeSet};

    /// Bits 1..=9: every digit.
    pub const ALL: u16 = 0b11_1111_1110;

    /// One elimination: (cell index 0..81, digit 1..=9).
    pub type Elim = (usize, u8);

    pub fn bit(d: u8) -> u16 {
        1 << d
    }

    pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
        (1..=9u8).filter(move |&d| mask & bit(d) != 0)
    }

    pub fn cell_name(c: usize) -> String {
        format!("r{}c{}", c / 9 + 1, c % 9 + 1)
    }

    /// `r3c5` -> its cell index.
    pub fn parse_cell(s: &str) -> usize {
        let b = s.as_bytes();
        assert!(
            b.len() == 4 && b[0] == b'r' && b[2] == b'c',
            "not a 9x9 cell name: {s:?}"
        );
        let r = (b[1] - b'1') as usize;
        let c = (b[3] - b'1') as usize;
        assert!(r < 9 && c < 9, "not a 9x9 cell name: {s:?}");
        r * 9 + c
    }

    /// Rows 0..9, columns 9..18, boxes 18..27.
    pub fn units() -> Vec<[usize; 9]> {
        let mut out = Vec::with_capacity(27);
        for r in 0..9 {
            out.push(std::array::from_fn(|k| r * 9 + k));
        }
        for c in 0..9 {
            out.push(std::array::from_fn(|k| k * 9 + c));
        }
        for b in 0..9 {
            let (r0, c0) = ((b / 3) * 3, (b % 3) * 3);
            out.push(std::array::from_fn(|k| (r0 + k / 3) * 9 + c0 + k % 3));
        }
        out
    }

    pub fn peers(c: usize) -> Vec<usize> {
        let (r, k) = (c / 9, c % 9);
        (0..81)
            .filter(|&x| x != c)
            .filter(|&x| {
                let (xr, xk) = (x / 9, x % 9);
                xr == r || xk == k || (xr / 3 == r / 3 && xk / 3 == k / 3)
            })
            .collect()
    }

    /// The masks over 1..=9 (bits 1..=9) with `k` digits, for k in 2..=4.
    fn digit_sets() -> Vec<(usize, u16)> {
        (0u16..512)
            .filter(|m| (2..=4).contains(&m.count_ones()))
            .map(|m| (m.count_ones() as usize, m << 1))
            .collect()
    }

    /// Subsets of the positions 0..9 with 2..=4 members, as bitmasks.
    fn position_sets() -> Vec<(usize, u16)> {
        (0u16..512)
            .filter(|m| (2..=4).contains(&m.count_ones()))
            .map(|m| (m.count_ones() as usize, m))
            .collect()
    }

    fn eliminated(cand: &[u16; 81], c: usize, d: u8) -> bool {
        cand[c] & bit(d) == 0
    }

    /// Locked candidates. For a box B and a line L that cross: if d is
    /// eliminated from every cell of B outside L, it leaves L outside B
    /// (pointing); if d is eliminated from every cell of L outside B, it
    /// leaves B outside L (claiming). Returns every elimination derived
    /// (known ones included) as a mask per cell.
    pub fn locked(cand: &[u16; 81]) -> [u16; 81] {
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
                for d in 1..=9u8 {
                    if box_out.iter().all(|&c| eliminated(cand, c, d)) {
                        for &x in &line_out {
                            out[x] |= bit(d);
                        }
                    }
                    if line_out.iter().all(|&c| eliminated(cand, c, d)) {
                        for &x in &box_out {
                            out[x] |= bit(d);
                        }
                    }
                }
            }
        }
        out
    }

    /// Naked subsets (k = 2, 3, 4): d in S leaves cell X of unit U when at
    /// least k cells of U other than X have every digit outside S
    /// eliminated (placed cells included: their only candidate is their digit).
    pub fn naked_subsets(cand: &[u16; 81]) -> [u16; 81] {
        let mut out = [0u16; 81];
        let sets = digit_sets();
        for u in units() {
            for &(k, s) in &sets {
                let inside: Vec<bool> = u.iter().map(|&y| cand[y] & ALL & !s == 0).collect();
                let total = inside.iter().filter(|&&b| b).count();
                for (i, &x) in u.iter().enumerate() {
                    let others = total - usize::from(inside[i]);
                    if others >= k {
                        out[x] |= s;
                    }
                }
            }
        }
        out
    }

    /// Hidden subsets (k = 2, 3, 4): for a set T of k cells of unit U, e
    /// leaves every cell of T when at least k digits other than e are
    /// eliminated from every cell of U outside T.
    pub fn hidden_subsets(cand: &[u16; 81]) -> [u16; 81] {
        let mut out = [0u16; 81];
        let sets = position_sets();
        for u in units() {
            for &(k, t) in &sets {
                // Digits still possible somewhere in U outside T.
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

    /// Fish (k = 2, 3, 4: X-wing, swordfish, jellyfish). For a digit d and
    /// a set C of k columns: d leaves a cell X in a column of C when at
    /// least k rows other than X's row have d eliminated from every cell
    /// outside the columns C. The same with rows and columns swapped.
    pub fn fish(cand: &[u16; 81]) -> [u16; 81] {
        let mut out = [0u16; 81];
        let sets = position_sets();
        for transpose in [false, true] {
            // at(line, cross): the cell of base line `line` and cover line `cross`.
            let at = |line: usize, cross: usize| {
                if transpose {
                    cross * 9 + line
                } else {
                    line * 9 + cross
                }
            };
            for d in 1..=9u8 {
                for &(k, covers) in &sets {
                    let base: Vec<bool> = (0..9)
                        .map(|line| {
                            (0..9)
                                .filter(|x| covers & (1 << x) == 0)
                                .all(|x| eliminated(cand, at(line, x), d))
                        })
                        .collect();
                    let total = base.iter().filter(|&&b| b).count();
                    for line in 0..9 {
                        let others = total - usize::from(base[line]);
                        if others >= k {
                            for x in (0..9).filter(|x| covers & (1 << x) != 0) {
                                out[at(line, x)] |= bit(d);
                            }
                        }
                    }
                }
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
            (0..81)
                .filter(|&c| self.placed[c] == 0)
                .map(|c| {
                    let s: String = digits(self.cand[c]).map(|d| char::from(b'0' + d)).collect();
                    (cell_name(c), s)
                })
                .collect()
        }

        /// The grid, `.` for open cells.
        pub fn grid(&self) -> String {
            self.placed
                .iter()
                .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
                .collect()
        }
    }

    /// Puzzle line -> givens (0 = empty).
    pub fn parse_puzzle(line: &str) -> [u8; 81] {
        let token = line.split_whitespace().next().expect("a puzzle");
        assert_eq!(token.len(), 81, "a 9x9 puzzle: {token}");
        let mut g = [0u8; 81];
        for (i, ch) in token.chars().enumerate() {
            g[i] = match ch {
                '.' | '0' | '_' => 0,
                d => d.to_digit(10).expect("a digit") as u8,
            };
        }
        g
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
            for c in 0..81 {
                if cand[c].count_ones() == 1 {
                    let d = cand[c].trailing_zeros() as u8;
                    if !place(c, d, placed) {
                        return false;
                    }
                }
            }
            // Hidden single: d is eliminated from every other cell of a unit.
            for u in units {
                for d in 1..=9u8 {
                    let mut places = u.iter().filter(|&&x| cand[x] & bit(d) != 0);
                    if let (Some(&x), None) = (places.next(), places.next()) {
                        if !place(x, d, placed) {
                            return false;
                        }
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
        let units = units();
        let peers: Vec<Vec<usize>> = (0..81).map(peers).collect();
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
            if !grid_and_singles(&mut placed, &mut cand, &units, &peers) {
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
