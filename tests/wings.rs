//! An independent check of the wings technique (`rules/wings.dl`: XY-wing,
//! XYZ-wing, W-wing) against a small reference solver written here in plain
//! Rust, on puzzles where the wings fire (`tests/data/wings/`).
//!
//! Only tiers 0 (grid), 1 (singles) and 6 (wings) run (`--techniques
//! singles,wings`), so the reference needs nothing else. Its schedule:
//! grid and singles to a fixpoint; on a stall, every wing elimination the
//! current candidates allow, all at once, minus those already known; none
//! left: stop; otherwise apply them, credit them to `wings`, and start over.
//! The wing definitions follow the monotone rules literally: `pair(C, X, Y)`
//! means every digit other than X and Y is eliminated from C, so it also
//! holds for a placed cell whose digit is X or Y, and for a cell left with
//! one of them.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

const SAMPLE: &str = "tests/data/wings/sample.txt";
const SAMPLE_SOLUTIONS: &str = "tests/data/wings/sample.solutions.txt";

fn sudolog() -> Command {
    let mut c = Command::cargo_bin("sudolog").expect("the binary is built");
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn read_lines(path: &str) -> Vec<String> {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("{full}: {e}"))
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn puzzles() -> Vec<String> {
    read_lines(SAMPLE)
}

fn solutions() -> Vec<String> {
    read_lines(SAMPLE_SOLUTIONS)
}

// ---------------------------------------------------------------------------
// The reference solver.
// ---------------------------------------------------------------------------

const N: usize = 81;

/// Digit 1..=9 as a bit of a candidate mask.
fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

fn cell_name(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// The 27 units of a 9x9 grid and the peer relation (different cells that
/// share a row, a column or a box).
struct Geometry {
    units: Vec<[usize; 9]>,
    peer: [[bool; N]; N],
}

impl Geometry {
    fn new() -> Geometry {
        let mut units = Vec::new();
        for r in 0..9 {
            units.push(std::array::from_fn(|i| r * 9 + i));
        }
        for c in 0..9 {
            units.push(std::array::from_fn(|i| i * 9 + c));
        }
        for b in 0..9 {
            let (r0, c0) = (b / 3 * 3, b % 3 * 3);
            units.push(std::array::from_fn(|i| (r0 + i / 3) * 9 + c0 + i % 3));
        }
        let mut peer = [[false; N]; N];
        for u in &units {
            for &a in u {
                for &b in u {
                    if a != b {
                        peer[a][b] = true;
                    }
                }
            }
        }
        Geometry { units, peer }
    }
}

/// Candidates (a digit stays a candidate until it is eliminated) and the
/// placed digits (0: open).
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    cand: [u16; N],
    placed: [u8; N],
}

impl State {
    fn from_line(line: &str) -> State {
        assert_eq!(line.len(), N, "a 9x9 puzzle line: {line}");
        let mut s = State {
            cand: [0x1ff; N],
            placed: [0; N],
        };
        for (i, ch) in line.chars().enumerate() {
            if let Some(d) = ch.to_digit(10).filter(|&d| d > 0) {
                s.placed[i] = d as u8;
            }
        }
        s
    }

    fn elim(&self, c: usize, d: u8) -> bool {
        self.cand[c] & bit(d) == 0
    }

    /// pair(C, X, Y): every digit other than X and Y is eliminated from C.
    fn pair(&self, c: usize, x: u8, y: u8) -> bool {
        x != y && self.cand[c] & !(bit(x) | bit(y)) == 0
    }

    /// trio(C, {X, Y, Z}): every digit outside the three is eliminated.
    fn trio(&self, c: usize, x: u8, y: u8, z: u8) -> bool {
        self.cand[c] & !(bit(x) | bit(y) | bit(z)) == 0
    }

    fn solved(&self) -> bool {
        self.placed.iter().all(|&d| d != 0)
    }

    fn candidates(&self, c: usize) -> String {
        (1..=9u8)
            .filter(|&d| !self.elim(c, d))
            .map(|d| char::from(b'0' + d))
            .collect()
    }

    /// Tiers 0 and 1 to a fixpoint. A placed digit eliminates the other
    /// digits of its cell and itself from every peer; a naked single (one
    /// candidate left) and a hidden single (one place left in a unit) place.
    /// The sample has valid puzzles: a contradiction is a bug here.
    fn grid_and_singles(&mut self, g: &Geometry) {
        loop {
            let before = self.clone();
            for c in 0..N {
                let d = self.placed[c];
                if d == 0 {
                    continue;
                }
                self.cand[c] &= bit(d);
                for p in 0..N {
                    if g.peer[c][p] {
                        self.cand[p] &= !bit(d);
                    }
                }
            }
            for c in 0..N {
                assert!(self.cand[c] != 0, "{} has no digit left", cell_name(c));
                let d = self.placed[c];
                if d != 0 {
                    assert!(!self.elim(c, d), "{}={d} is eliminated", cell_name(c));
                } else if self.cand[c].count_ones() == 1 {
                    self.placed[c] = self.cand[c].trailing_zeros() as u8 + 1;
                }
            }
            for u in &g.units {
                for d in 1..=9u8 {
                    let places: Vec<usize> =
                        u.iter().copied().filter(|&c| !self.elim(c, d)).collect();
                    assert!(!places.is_empty(), "{d} has no place in a unit");
                    if let [c] = places[..] {
                        assert!(self.placed[c] == 0 || self.placed[c] == d);
                        self.placed[c] = d;
                    }
                }
            }
            if *self == before {
                return;
            }
        }
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

    // link(L,M,X): L != M in a common unit where every other cell has X
    // eliminated. linked[x][a][b]: some link(L,M,X) has A seeing L, B
    // seeing M, A != M and B != L.
    let mut linked = vec![[[false; N]; N]; 10];
    for u in &g.units {
        for x in digits() {
            for &l in u {
                for &m in u {
                    if l == m || !u.iter().all(|&o| o == l || o == m || s.elim(o, x)) {
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
        for (c, d, wing) in wing_eliminations(&s, &g) {
            if !s.elim(c, d) {
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

/// `solve --logic-only --format json --techniques singles,wings` on the
/// whole sample, one JSON object per puzzle in input order, run once.
fn solved_json() -> &'static [Value] {
    static JSON: OnceLock<Vec<Value>> = OnceLock::new();
    JSON.get_or_init(|| {
        let out = sudolog()
            .args([
                "solve",
                "--logic-only",
                "--format",
                "json",
                "--techniques",
                "singles,wings",
                SAMPLE,
            ])
            .output()
            .expect("sudolog runs");
        // 1: some puzzles stall (the sample has both kinds).
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "exit status {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let mut rows: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        rows.sort_by_key(|r| r["index"].as_u64().expect("an index"));
        assert_eq!(rows.len(), puzzles().len(), "one result per puzzle");
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r["index"].as_u64(), Some(i as u64 + 1));
        }
        rows
    })
}

/// The final candidates of every cell (a placed cell has its one digit),
/// as sudolog reports them: `solution` when solved, else the placed digits
/// of `partial` and the `candidates` of the open cells.
fn sudolog_cells(row: &Value) -> Vec<String> {
    if row["status"] == "solved" {
        let solution = row["solution"].as_str().expect("a solution");
        return solution.chars().map(String::from).collect();
    }
    let partial = row["partial"].as_str().expect("a partial grid");
    let candidates = row["candidates"].as_object().expect("candidates");
    partial
        .chars()
        .enumerate()
        .map(|(c, ch)| match ch {
            '1'..='9' => ch.to_string(),
            _ => candidates[&cell_name(c)]
                .as_str()
                .expect("a candidate string")
                .to_string(),
        })
        .collect()
}

/// `facts --relation eliminated --rule wings` of one puzzle of the sample:
/// the set of `cell<TAB>digit` lines.
fn sudolog_wing_eliminations(number: usize, format: &str) -> String {
    let out = sudolog()
        .args([
            "facts",
            SAMPLE,
            "--puzzle",
            &number.to_string(),
            "--logic-only",
            "--techniques",
            "singles,wings",
            "--relation",
            "eliminated",
            "--rule",
            "wings",
            "--format",
            format,
        ])
        .output()
        .expect("sudolog runs");
    assert!(
        out.status.success(),
        "facts for puzzle {number}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn tsv_set(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn reference_tsv(set: &BTreeSet<(usize, u8)>) -> BTreeSet<String> {
    set.iter()
        .map(|&(c, d)| format!("{}\t{d}", cell_name(c)))
        .collect()
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// The data are what they claim: solutions agree with the givens, and the
/// wings fire in every puzzle of the sample, all three kinds somewhere.
#[test]
fn the_sample_is_valid_and_wings_fire_in_every_puzzle() {
    let puzzles = puzzles();
    let solutions = solutions();
    assert!(
        (15..=30).contains(&puzzles.len()),
        "{} puzzles",
        puzzles.len()
    );
    assert_eq!(puzzles.len(), solutions.len());
    let mut kinds = BTreeSet::new();
    let (mut solved, mut stalled) = (0, 0);
    for (i, ((p, sol), o)) in puzzles.iter().zip(&solutions).zip(reference()).enumerate() {
        assert_eq!(sol.len(), N);
        for (g, s) in p.chars().zip(sol.chars()) {
            assert!(g == '.' || g == s, "puzzle {}: a given differs", i + 1);
        }
        assert!(!o.credited.is_empty(), "puzzle {}: no wing fires", i + 1);
        kinds.extend(o.steps.iter().flat_map(|s| s.values().flatten().copied()));
        if o.state.solved() {
            solved += 1;
        } else {
            stalled += 1;
        }
    }
    assert_eq!(kinds, BTreeSet::from([Wing::Xy, Wing::Xyz, Wing::W]));
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
        let want_status = if o.state.solved() {
            "solved"
        } else {
            "stalled"
        };
        if row["status"] != want_status {
            differences.push(format!(
                "puzzle {number}: status {} (reference: {want_status})",
                row["status"]
            ));
            continue;
        }
        if o.state.solved() {
            let want: String = o
                .state
                .placed
                .iter()
                .map(|d| char::from(b'0' + d))
                .collect();
            if row["solution"] != want.as_str() {
                differences.push(format!(
                    "puzzle {number}: solution {} (reference: {want})",
                    row["solution"]
                ));
            }
        } else {
            let got = row["candidates"].as_object().expect("candidates");
            let got: BTreeMap<String, String> = got
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_string()))
                .collect();
            let want: BTreeMap<String, String> = (0..N)
                .filter(|&c| o.state.placed[c] == 0)
                .map(|c| (cell_name(c), o.state.candidates(c)))
                .collect();
            if got != want {
                let cells: Vec<String> = want
                    .keys()
                    .chain(got.keys())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .filter(|k| got.get(*k) != want.get(*k))
                    .map(|k| format!("{k}: {:?} (reference {:?})", got.get(k), want.get(k)))
                    .collect();
                differences.push(format!("puzzle {number}: {}", cells.join(", ")));
            }
        }
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
        let want = reference_tsv(&reference()[number - 1].credited);
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
    let solutions = solutions();
    for (i, ((row, o), sol)) in solved_json()
        .iter()
        .zip(reference())
        .zip(&solutions)
        .enumerate()
    {
        let cells = sudolog_cells(row);
        assert_eq!(cells.len(), N);
        for (c, digit) in sol.chars().enumerate() {
            assert!(
                cells[c].contains(digit),
                "puzzle {}: sudolog leaves {} with {} but the solution has {digit}",
                i + 1,
                cell_name(c),
                cells[c]
            );
            let d = digit.to_digit(10).expect("a digit") as u8;
            assert!(
                !o.state.elim(c, d),
                "puzzle {}: the reference is unsound",
                i + 1
            );
        }
        if row["status"] == "solved" {
            assert_eq!(row["solution"], sol.as_str(), "puzzle {}", i + 1);
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
    const PUZZLE: &str =
        "...693....64...38..2.....5...19.27.....5.7....3.....9...6.7.5...7.2.8.6..82.6.47.";
    assert_eq!(puzzles()[NUMBER - 1], PUZZLE);
    let expected: BTreeSet<String> = BTreeSet::from(["r4c8\t4".to_string()]);

    // The reference: one wing step, one elimination, by an XY-wing only.
    let o = &reference()[NUMBER - 1];
    let first = &o.steps[0];
    assert_eq!(reference_tsv(&first.keys().copied().collect()), expected);
    assert_eq!(first.values().next(), Some(&BTreeSet::from([Wing::Xy])));
    assert_eq!(o.steps.len(), 1);

    // sudolog: the wing eliminations of the earliest step.
    let rows: Vec<Value> = sudolog_wing_eliminations(NUMBER, "json")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let step_of = |r: &Value| -> u64 {
        let s = &r["step"];
        s.as_u64()
            .or_else(|| s.as_str().and_then(|t| t.parse().ok()))
            .expect("a step")
    };
    let first_step = rows.iter().map(step_of).min().expect("the wings fire");
    let got: BTreeSet<String> = rows
        .iter()
        .filter(|r| step_of(r) == first_step)
        .map(|r| {
            format!(
                "{}\t{}",
                r["c"].as_str().expect("a cell"),
                r["d"].as_str().expect("a digit")
            )
        })
        .collect();
    assert_eq!(got, expected);

    // The pattern as sudolog saw it just before: pivot, pincers, target.
    let out = sudolog()
        .args([
            "facts",
            SAMPLE,
            "--puzzle",
            &NUMBER.to_string(),
            "--logic-only",
            "--techniques",
            "singles,wings",
            "--relation",
            "candidate",
            "--at",
            &(first_step - 1).to_string(),
            "--format",
            "tsv",
        ])
        .output()
        .expect("sudolog runs");
    assert!(out.status.success());
    let candidates = tsv_set(&String::from_utf8(out.stdout).expect("utf-8"));
    for (cell, digits) in [
        ("r1c2", "15"),
        ("r1c8", "14"),
        ("r4c2", "45"),
        ("r4c8", "34"),
    ] {
        let have: String = (1..=9)
            .filter(|d| candidates.contains(&format!("{cell}\t{d}")))
            .map(|d: u32| char::from_digit(d, 10).expect("a digit"))
            .collect();
        assert_eq!(have, digits, "{cell} before the first wing step");
    }

    // And the rule that fired is the XY-wing: pincers r1c8 and r4c2, digit 4.
    let out = sudolog()
        .args([
            "facts",
            SAMPLE,
            "--puzzle",
            &NUMBER.to_string(),
            "--logic-only",
            "--techniques",
            "singles,wings",
            "--relation",
            "xy_wing",
            "--format",
            "tsv",
        ])
        .output()
        .expect("sudolog runs");
    assert!(out.status.success());
    let xy = tsv_set(&String::from_utf8(out.stdout).expect("utf-8"));
    assert!(xy.contains("r1c8\tr4c2\t4") && xy.contains("r4c2\tr1c8\t4"));
}
