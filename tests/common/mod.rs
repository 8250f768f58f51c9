//! Plumbing shared by the integration tests: running the `sudolog` binary,
//! reading files of the repository, parsing the `sudolog check` listing,
//! reading JSON results, and the 9x9 basics (candidate bitmasks, cell names,
//! units and peers, a candidate grid) of the plain-Rust reference solvers.
//!
//! Only plumbing lives here. Each reference solver's technique logic stays
//! in its own test file (`wings.rs`, `single_digit.rs`, `techniques.rs`,
//! ...), so that the references remain independent re-implementations of
//! their techniques; what they share is the grid and singles fixpoint they
//! run between technique steps (`State::grid_and_singles`) and, for a rule
//! file outside the standard library, the schedule around one technique,
//! the runs of sudolog it is compared with and the checks every such file
//! gets (`Outcome`, `Extra`, `check_against_reference`).

// The areas use different parts of it; what the reference solvers of one
// area need may be unused while that area is left out.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;

// ---------------------------------------------------------------------------
// Puzzles several suites use (`tests/data/essay.txt`).
// ---------------------------------------------------------------------------

/// The first essay puzzle, solved by singles alone, and its solution.
pub const ESSAY_1: &str =
    "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
pub const ESSAY_1_SOLUTION: &str =
    "147253698398176245256489731839761524714925386625348917582694173963817452471532869";
/// The second essay puzzle (needs guesses) and its solution.
pub const ESSAY_2: &str =
    "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3";
pub const ESSAY_2_SOLUTION: &str =
    "243678519165934728798512436951746382684293175372185694527369841839451267416827953";

// ---------------------------------------------------------------------------
// Files of the repository.
// ---------------------------------------------------------------------------

/// `path` (relative to the crate root) as an absolute path.
pub fn repo_path(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The text of a file of the repository (`path` relative to the crate
/// root); panics naming the file when it cannot be read.
pub fn read_repo_file(path: &str) -> String {
    let full = repo_path(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The non-blank lines of a file of the repository, trimmed.
pub fn read_lines(path: &str) -> Vec<String> {
    read_repo_file(path)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

// ---------------------------------------------------------------------------
// Running the binary.
// ---------------------------------------------------------------------------

/// The `sudolog` binary of this build, run from the crate root (so that
/// `tests/data/...` and `rules/` resolve).
pub fn sudolog() -> Command {
    let mut c = Command::cargo_bin("sudolog").expect("the binary is built");
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// The standard output of a command, whatever its exit status.
pub fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().expect("runs").stdout).expect("utf-8 output")
}

/// A rules directory to use instead of the built-in library, from the
/// environment variable `var` when it is set and not empty (mutation
/// testing: a copy of `rules/` with one rule broken, which some test must
/// then catch).
pub fn rules_override(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|d| !d.is_empty())
}

/// `sudolog <command> [--rules DIR] <rest...>` for `args = [command,
/// rest...]`, with `--rules DIR` when `rules` is given.
pub fn sudolog_with_rules(args: &[&str], rules: Option<&str>) -> Command {
    let mut c = sudolog();
    c.arg(args[0]);
    if let Some(dir) = rules {
        c.args(["--rules", dir]);
    }
    c.args(&args[1..]);
    c
}

/// Runs [`sudolog_with_rules`] and returns its output.
pub fn run(args: &[&str], rules: Option<&str>) -> Output {
    sudolog_with_rules(args, rules)
        .output()
        .expect("sudolog runs")
}

/// A run's standard output and standard error, as text.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The standard output of a run that must succeed; `what` names the run
/// in the failure message.
pub fn success_stdout(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "sudolog {what}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// `sudolog facts FILE --puzzle NUMBER --logic-only --techniques
/// TECHNIQUES REST...` (with `--rules DIR` when `rules` is given, and
/// `stdin` as its standard input when given): its standard output. The run
/// must succeed.
pub fn facts(
    file: &str,
    number: usize,
    techniques: &str,
    rules: Option<&str>,
    stdin: Option<&str>,
    rest: &[&str],
) -> String {
    let number = number.to_string();
    let mut args = vec![
        "facts",
        file,
        "--puzzle",
        &number,
        "--logic-only",
        "--no-forcing",
        "--techniques",
        techniques,
    ];
    args.extend(rest);
    let mut cmd = sudolog_with_rules(&args, rules);
    if let Some(text) = stdin {
        cmd.write_stdin(text.to_string());
    }
    success_stdout(cmd.output().expect("sudolog runs"), &format!("{args:?}"))
}

/// `sudolog solve --logic-only --format json --techniques TECHNIQUES FILE`
/// (with `--rules DIR` when `rules` is given): one JSON object per line of
/// its output, in output order. Some puzzles may stall, so the exit status
/// must be 0 or 1.
pub fn solve_json(file: &str, techniques: &str, rules: Option<&str>) -> Vec<Value> {
    let args = [
        "solve",
        "--logic-only",
        "--no-forcing",
        "--format",
        "json",
        "--techniques",
        techniques,
        file,
    ];
    json_lines(&stdout_stalls_allowed(&args, rules))
}

/// `sudolog ARGS` (with `--rules DIR` when `rules` is given): its standard
/// output, which must end with exit status 0, or 1 where some puzzles
/// stall.
pub fn stdout_stalls_allowed(args: &[&str], rules: Option<&str>) -> String {
    let out = run(args, rules);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "sudolog {args:?}: exit status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

// ---------------------------------------------------------------------------
// The `sudolog check` listing.
// ---------------------------------------------------------------------------

/// One line of the `rules:` section of `sudolog check`:
/// `NAME  TECHNIQUE  -> HEAD  DESCRIPTION`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// `file:line`, e.g. `rules/locked.dl:29`.
    pub name: String,
    /// The technique the rule belongs to.
    pub technique: String,
    /// The relation the rule derives.
    pub head: String,
    /// The rule's comment (empty for a helper rule without one).
    pub description: String,
}

/// What `sudolog check` lists about a rule set.
#[derive(Clone, Debug)]
pub struct Listing {
    /// The whole listing, for failure messages.
    pub text: String,
    /// `(technique, tier)`, in listed order.
    pub techniques: Vec<(String, u32)>,
    /// Every rule, in listed order.
    pub rules: Vec<Rule>,
    /// Indented lines of the `techniques` or `rules:` section that do not
    /// have their section's shape (none in a well-formed listing).
    pub malformed: Vec<String>,
}

/// Parses a `sudolog check` listing. Its sections start with a line
/// that is not indented (`relations:`, `techniques (...)`, `rules:`); their
/// entries are indented. A `techniques` entry is `TIER  NAME  ...`.
pub fn parse_listing(text: &str) -> Listing {
    let mut listing = Listing {
        text: text.to_string(),
        techniques: Vec::new(),
        rules: Vec::new(),
        malformed: Vec::new(),
    };
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') {
            section = line.split_whitespace().next().unwrap_or("");
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match (section, &words[..]) {
            ("techniques", [tier, name, ..]) if tier.parse::<u32>().is_ok() => {
                let tier = tier.parse().expect("a tier number");
                listing.techniques.push((name.to_string(), tier));
            }
            ("rules:", [name, technique, "->", head, description @ ..]) => {
                listing.rules.push(Rule {
                    name: name.to_string(),
                    technique: technique.to_string(),
                    head: head.to_string(),
                    description: description.join(" "),
                });
            }
            ("techniques" | "rules:", _) => listing.malformed.push(line.to_string()),
            _ => {}
        }
    }
    listing
}

/// `sudolog check` (with `--rules DIR` when `rules` is given), parsed; the
/// run must succeed.
pub fn check_listing(rules: Option<&str>) -> Listing {
    parse_listing(&success_stdout(run(&["check"], rules), "check"))
}

impl Listing {
    /// The tier of a technique, if the rule set has it.
    pub fn tier(&self, technique: &str) -> Option<u32> {
        self.techniques
            .iter()
            .find(|(t, _)| t == technique)
            .map(|&(_, tier)| tier)
    }

    /// The rule named `name` (`file:line`), if listed.
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }

    /// The rules of `technique` that derive `eliminated`.
    pub fn elimination_rules(&self, technique: &str) -> Vec<&Rule> {
        self.rules
            .iter()
            .filter(|r| r.technique == technique && r.head == "eliminated")
            .collect()
    }

    /// The name (`file:line`) of the one elimination rule of `technique`
    /// whose description starts with `prefix`; panics unless there is
    /// exactly one.
    pub fn elimination_rule(&self, technique: &str, prefix: &str) -> String {
        let found: Vec<&Rule> = self
            .elimination_rules(technique)
            .into_iter()
            .filter(|r| r.description.starts_with(prefix))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "one {technique} elimination rule described as {prefix:?}"
        );
        found[0].name.clone()
    }
}

// ---------------------------------------------------------------------------
// JSON and TSV results.
// ---------------------------------------------------------------------------

/// One JSON value per line of `text`.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a JSON line: {e}: {l}")))
        .collect()
}

/// A rating on Sudoku Explainer's scale, in JSON (`7.2`), in tenths (72),
/// so that ratings compare exactly.
pub fn tenths(v: &Value) -> u64 {
    (v.as_f64().unwrap_or_else(|| panic!("a rating: {v}")) * 10.0).round() as u64
}

/// The strings of a JSON array (digits are strings in JSON): `["4","9"]`.
pub fn json_strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("a JSON array: {v}"))
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// The results of a solve sorted by their `index`, which must run from 1
/// to `count`: one result per puzzle.
pub fn sorted_by_index(mut rows: Vec<Value>, count: usize) -> Vec<Value> {
    rows.sort_by_key(|r| r["index"].as_u64().expect("an index"));
    assert_eq!(rows.len(), count, "one result per puzzle");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["index"].as_u64(), Some(i as u64 + 1));
    }
    rows
}

/// The `step` of a JSON fact (a number or a string of one).
pub fn step_of(r: &Value) -> u64 {
    let s = &r["step"];
    s.as_u64()
        .or_else(|| s.as_str().and_then(|t| t.parse().ok()))
        .expect("a step")
}

/// `cell<TAB>digit` of a JSON fact with columns `c` and `d` (an
/// `eliminated` fact).
pub fn fact_cell_digit(r: &Value) -> String {
    format!(
        "{}\t{}",
        r["c"].as_str().expect("a cell"),
        r["d"].as_str().expect("a digit")
    )
}

/// The `candidates` of a stalled solve's JSON result: open cell name ->
/// its digits.
pub fn json_candidates(row: &Value) -> BTreeMap<String, String> {
    row["candidates"]
        .as_object()
        .expect("candidates")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_string()))
        .collect()
}

/// The final candidates of every cell (a placed cell has its one digit),
/// as a solve's JSON result reports them: `solution` when solved, else the
/// placed digits of `partial` and the `candidates` of the open cells.
pub fn sudolog_cells(row: &Value) -> Vec<String> {
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

/// The new facts derived by the rules that `counts` accepts (by name), from
/// a solve's JSON statistics (`stats.firings`).
pub fn facts_in_stats(row: &Value, counts: impl Fn(&str) -> bool) -> u64 {
    row["stats"]["firings"]
        .as_array()
        .expect("stats.firings")
        .iter()
        .filter(|f| counts(f["rule"].as_str().expect("a rule name")))
        .map(|f| f["facts"].as_u64().expect("a count"))
        .sum()
}

/// The keys, in order, whose values differ between two maps (a key of one
/// map only included).
pub fn differing_keys<'a>(
    a: &'a BTreeMap<String, String>,
    b: &'a BTreeMap<String, String>,
) -> Vec<&'a String> {
    a.keys()
        .chain(b.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .collect()
}

/// The non-blank lines of a TSV listing, without trailing white space.
pub fn tsv_set(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// `cell<TAB>digit` for each (cell index, digit).
pub fn elim_tsv(set: &BTreeSet<(usize, u8)>) -> BTreeSet<String> {
    set.iter()
        .map(|&(c, d)| format!("{}\t{d}", cell_name(c)))
        .collect()
}

/// The (cell index, digit) of each `cell<TAB>digit` line (blank lines
/// skipped), e.g. of `facts --relation candidate --format tsv`.
pub fn cell_digit_pairs(text: &str) -> Vec<(usize, u8)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (c, d) = l
                .trim_end()
                .split_once('\t')
                .unwrap_or_else(|| panic!("cell<TAB>digit: {l:?}"));
            (parse_cell(c), d.trim().parse().expect("a digit"))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// 9x9 basics: candidate bitmasks, cells, units and peers.
// ---------------------------------------------------------------------------

/// The cells of a 9x9 grid, indexed row by row (`r * 9 + c`, from 0).
pub const N: usize = 81;

/// Every digit: a candidate mask has bit `d - 1` for digit `d` (1..=9).
pub const ALL: u16 = 0x1ff;

/// Digit 1..=9 as a bit of a candidate mask.
pub fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The digits of a mask, in increasing order.
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |&d| mask & bit(d) != 0)
}

/// The digits of a mask as a string, e.g. `"158"`.
pub fn digit_string(mask: u16) -> String {
    digits(mask).map(|d| char::from(b'0' + d)).collect()
}

/// The digit of a mask with exactly one.
pub fn sole_digit(mask: u16) -> Option<u8> {
    (mask.count_ones() == 1).then(|| mask.trailing_zeros() as u8 + 1)
}

/// A cell's name, e.g. `r3c5`.
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
    let (r, c) = ((b[1] - b'1') as usize, (b[3] - b'1') as usize);
    assert!(r < 9 && c < 9, "not a 9x9 cell name: {s:?}");
    r * 9 + c
}

/// A cell's row, 0..9.
pub fn row_of(c: usize) -> usize {
    c / 9
}

/// A cell's column, 0..9.
pub fn col_of(c: usize) -> usize {
    c % 9
}

/// A cell's box, 0..9, row by row.
pub fn box_of(c: usize) -> usize {
    c / 27 * 3 + c % 9 / 3
}

/// The 27 units of a 9x9 grid: rows 0..9, columns 9..18, boxes 18..27.
pub fn units() -> Vec<[usize; 9]> {
    let mut out = Vec::with_capacity(27);
    for r in 0..9 {
        out.push(std::array::from_fn(|i| r * 9 + i));
    }
    for c in 0..9 {
        out.push(std::array::from_fn(|i| i * 9 + c));
    }
    for b in 0..9 {
        let (r0, c0) = (b / 3 * 3, b % 3 * 3);
        out.push(std::array::from_fn(|i| (r0 + i / 3) * 9 + c0 + i % 3));
    }
    out
}

/// The units of a 9x9 grid (see [`units`]) and the peer relation
/// (different cells that share a unit).
pub struct Geometry {
    /// Rows 0..9, columns 9..18, boxes 18..27.
    pub units: Vec<[usize; 9]>,
    /// `peer[a][b]`: a and b are different cells of a common unit.
    pub peer: [[bool; N]; N],
}

impl Geometry {
    /// The 9x9 geometry.
    pub fn new() -> Geometry {
        let units = units();
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

    /// The peers of a cell, in increasing order.
    pub fn peers_of(&self, c: usize) -> Vec<usize> {
        (0..N).filter(|&p| self.peer[c][p]).collect()
    }

    /// The cells other than `b` and `e` that see both.
    pub fn seeing_both(&self, b: usize, e: usize) -> impl Iterator<Item = usize> + '_ {
        (0..N).filter(move |&x| self.peer[b][x] && self.peer[e][x])
    }
}

/// The first token of a 9x9 puzzle line -> its digits, 0 for an open cell
/// (`.`, `0` or `_`).
pub fn parse_puzzle(line: &str) -> [u8; N] {
    let token = line.split_whitespace().next().expect("a puzzle");
    assert_eq!(token.len(), N, "a 9x9 puzzle: {token}");
    let mut g = [0u8; N];
    for (i, ch) in token.chars().enumerate() {
        g[i] = match ch {
            '.' | '0' | '_' => 0,
            d => d.to_digit(10).expect("a digit") as u8,
        };
    }
    g
}

/// A grid as one line of digits, `.` for an open cell (0).
pub fn grid_string(placed: &[u8; N]) -> String {
    placed
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// The candidates of the open cells (not placed: 0), as a stalled solve's
/// JSON result lists them: cell name -> digits.
pub fn open_candidates(placed: &[u8; N], cand: &[u16; N]) -> BTreeMap<String, String> {
    (0..N)
        .filter(|&c| placed[c] == 0)
        .map(|c| (cell_name(c), digit_string(cand[c])))
        .collect()
}

// ---------------------------------------------------------------------------
// A reference solver's candidate grid, and comparing it with sudolog's.
// ---------------------------------------------------------------------------

/// Candidates (a digit stays a candidate until it is eliminated) and the
/// placed digits (0: open). The reference solvers add their techniques to
/// it in their own files.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    /// The candidates of each cell, as a mask (see [`bit`]).
    pub cand: [u16; N],
    /// The placed digit of each cell, 0 when open.
    pub placed: [u8; N],
}

impl State {
    /// A puzzle line of exactly 81 characters: its givens are placed, every
    /// digit is a candidate everywhere.
    pub fn from_line(line: &str) -> State {
        assert_eq!(line.len(), N, "a 9x9 puzzle line: {line}");
        State {
            cand: [ALL; N],
            placed: parse_puzzle(line),
        }
    }

    /// Whether digit `d` is eliminated from cell `c`.
    pub fn elim(&self, c: usize, d: u8) -> bool {
        self.cand[c] & bit(d) == 0
    }

    /// Whether every cell is placed.
    pub fn solved(&self) -> bool {
        self.placed.iter().all(|&d| d != 0)
    }

    /// The candidates of a cell as a string, e.g. `"158"`.
    pub fn candidates(&self, c: usize) -> String {
        digit_string(self.cand[c])
    }

    /// Tiers 0 and 1 to a fixpoint, as the reference solvers run them. A
    /// placed digit eliminates the other digits of its cell and itself from
    /// every peer; a naked single (one candidate left) and a hidden single
    /// (one place left in a unit) place. The samples have valid puzzles: a
    /// contradiction is a bug here.
    pub fn grid_and_singles(&mut self, g: &Geometry) {
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
                } else if let Some(d) = sole_digit(self.cand[c]) {
                    self.placed[c] = d;
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

/// How sudolog's status for puzzle `number` (`row`, a solve's JSON result)
/// differs from the reference's (`state`): `solved` or `stalled`.
pub fn status_difference(number: usize, row: &Value, state: &State) -> Option<String> {
    let want_status = if state.solved() { "solved" } else { "stalled" };
    (row["status"] != want_status).then(|| {
        format!(
            "puzzle {number}: status {} (reference: {want_status})",
            row["status"]
        )
    })
}

/// How sudolog's final grid for puzzle `number` differs from the
/// reference's, with the same status: the solution when solved, else the
/// candidates of the open cells.
pub fn final_difference(number: usize, row: &Value, state: &State) -> Option<String> {
    if state.solved() {
        let want = grid_string(&state.placed);
        (row["solution"] != want.as_str()).then(|| {
            format!(
                "puzzle {number}: solution {} (reference: {want})",
                row["solution"]
            )
        })
    } else {
        let got = json_candidates(row);
        let want = open_candidates(&state.placed, &state.cand);
        (got != want).then(|| {
            let cells: Vec<String> = differing_keys(&want, &got)
                .into_iter()
                .map(|k| format!("{k}: {:?} (reference {:?})", got.get(k), want.get(k)))
                .collect();
            format!("puzzle {number}: {}", cells.join(", "))
        })
    }
}

/// Soundness: no technique removes the true digit of a cell, in sudolog's
/// answer (`rows`, a solve's JSON results) or in the reference's
/// (`states`), and a solved row has the solution; puzzle by puzzle, with
/// `label` (e.g. `""` or `"SET, "`) before the puzzle in messages.
pub fn assert_keeps_solutions<'a>(
    label: &str,
    rows: &[Value],
    states: impl IntoIterator<Item = &'a State>,
    solutions: &[String],
) {
    for (i, ((row, state), sol)) in rows.iter().zip(states).zip(solutions).enumerate() {
        let cells = sudolog_cells(row);
        assert_eq!(cells.len(), N);
        for (c, digit) in sol.chars().enumerate() {
            assert!(
                cells[c].contains(digit),
                "{label}puzzle {}: sudolog leaves {} with {} but the solution has {digit}",
                i + 1,
                cell_name(c),
                cells[c]
            );
            let d = digit.to_digit(10).expect("a digit") as u8;
            assert!(
                !state.elim(c, d),
                "{label}puzzle {}: the reference is unsound",
                i + 1
            );
        }
        if row["status"] == "solved" {
            assert_eq!(row["solution"], sol.as_str(), "{label}puzzle {}", i + 1);
        }
    }
}

// ---------------------------------------------------------------------------
// One technique beside the singles: a reference's schedule, and sudolog's
// runs of a rule file outside the standard library.
// ---------------------------------------------------------------------------

/// A reference's end state of one puzzle, and every elimination its
/// technique made on the way (those not yet known when it made them).
pub struct Outcome {
    pub state: State,
    pub credited: BTreeSet<(usize, u8)>,
}

/// The schedule of a reference for one technique beside the singles: grid
/// and singles to a fixpoint; on a stall, every elimination `technique`
/// finds in the current candidates, all at once; none new: stop; otherwise
/// apply them and start over.
pub fn run_technique(
    line: &str,
    technique: &impl Fn(&State, &Geometry) -> BTreeSet<(usize, u8)>,
) -> Outcome {
    let g = Geometry::new();
    let mut s = State::from_line(line);
    let mut credited = BTreeSet::new();
    loop {
        s.grid_and_singles(&g);
        if s.solved() {
            break;
        }
        let new: Vec<(usize, u8)> = technique(&s, &g)
            .into_iter()
            .filter(|&(c, d)| !s.elim(c, d))
            .collect();
        if new.is_empty() {
            break;
        }
        for &(c, d) in &new {
            assert_ne!(s.placed[c], d, "the technique took a placed digit");
            s.cand[c] &= !bit(d);
        }
        credited.extend(new);
    }
    Outcome { state: s, credited }
}

/// The first 20 puzzles of `berthier_cb001` and their solutions: the
/// sample the references of `rules/extra/` are checked on.
pub const BERTHIER20: &str = "tests/data/berthier20/sample.txt";
pub const BERTHIER20_SOLUTIONS: &str = "tests/data/berthier20/sample.solutions.txt";

/// A rule file outside the standard library (`rules/extra/...`), run with
/// the singles only: `--techniques singles,TECHNIQUE --rules-add RULES`.
pub struct Extra {
    pub rules: &'static str,
    pub technique: &'static str,
}

impl Extra {
    /// `sudolog ARGS --techniques singles,TECHNIQUE --rules-add RULES`: its
    /// standard output (exit status 0, or 1 where some puzzles stall).
    pub fn sudolog(&self, args: &[&str]) -> String {
        let techniques = format!("singles,{}", self.technique);
        let mut all = args.to_vec();
        all.extend(["--techniques", &techniques, "--rules-add", self.rules]);
        stdout_stalls_allowed(&all, None)
    }

    /// `sudolog ARGS --format json --rules-add RULES`: the whole library
    /// with the file (a grade or a path as people run them), one JSON
    /// object per line.
    pub fn with_library_json(&self, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.extend(["--format", "json", "--rules-add", self.rules]);
        json_lines(&stdout_of(sudolog().args(&all)))
    }

    /// `solve --logic-only --no-forcing --format json` on `file`, one JSON
    /// object per puzzle in input order.
    pub fn solve_json(&self, file: &str) -> Vec<Value> {
        let text = self.sudolog(&[
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "json",
            file,
        ]);
        sorted_by_index(json_lines(&text), read_lines(file).len())
    }

    /// `facts --relation eliminated --rule TECHNIQUE` of puzzle `number` of
    /// `file`, as a set of `cell<TAB>digit` lines.
    pub fn credited(&self, file: &str, number: usize) -> BTreeSet<String> {
        let techniques = format!("singles,{}", self.technique);
        tsv_set(&facts(
            file,
            number,
            &techniques,
            None,
            None,
            &[
                "--rules-add",
                self.rules,
                "--relation",
                "eliminated",
                "--rule",
                self.technique,
                "--format",
                "tsv",
            ],
        ))
    }

    /// The listing of `sudolog check --rules-add RULES`.
    pub fn listing(&self) -> Listing {
        let out = run(&["check", "--rules-add", self.rules], None);
        assert_eq!(out.status.code(), Some(0));
        parse_listing(&String::from_utf8(out.stdout).expect("utf-8"))
    }
}

/// How sudolog's results (`rows`, JSON from `solve`) differ from the
/// reference's (`outcomes`), puzzle by puzzle: status, then final
/// candidates (or the solution).
pub fn outcome_differences(rows: &[Value], outcomes: &[Outcome]) -> Vec<String> {
    let mut differences = Vec::new();
    for (i, (row, o)) in rows.iter().zip(outcomes).enumerate() {
        let number = i + 1;
        if let Some(d) = status_difference(number, row, &o.state) {
            differences.push(d);
            continue;
        }
        differences.extend(final_difference(number, row, &o.state));
    }
    differences
}

/// The checks every technique of `rules/extra/` gets against its reference
/// on a sample (`file`, with its solutions in `solutions`):
/// - the technique fires in half the puzzles or more, solves some of them
///   with the singles alone, and leaves others stalled;
/// - sudolog ends every puzzle as the reference does (status, then final
///   candidates or the solution);
/// - on the puzzles `credits` names, the eliminations sudolog credits to
///   the technique are the reference's;
/// - neither takes a solution digit.
///
/// Returns the reference's outcomes, for checks of the technique's own.
pub fn check_against_reference(
    extra: &Extra,
    file: &str,
    solutions: &str,
    technique: impl Fn(&State, &Geometry) -> BTreeSet<(usize, u8)>,
    credits: &[usize],
) -> Vec<Outcome> {
    let puzzles = read_lines(file);
    let outcomes: Vec<Outcome> = puzzles
        .iter()
        .map(|p| run_technique(p, &technique))
        .collect();
    let fired: Vec<&Outcome> = outcomes.iter().filter(|o| !o.credited.is_empty()).collect();
    assert!(
        fired.len() * 2 >= puzzles.len(),
        "{} fires in {} of {} puzzles",
        extra.technique,
        fired.len(),
        puzzles.len()
    );
    assert!(fired.iter().any(|o| o.state.solved()));
    assert!(fired.iter().any(|o| !o.state.solved()));
    let rows = extra.solve_json(file);
    let differences = outcome_differences(&rows, &outcomes);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    for &number in credits {
        let want = elim_tsv(&outcomes[number - 1].credited);
        assert_eq!(extra.credited(file, number), want, "puzzle {number}");
    }
    let states = outcomes.iter().map(|o| &o.state);
    assert_keeps_solutions("", &rows, states, &read_lines(solutions));
    outcomes
}
