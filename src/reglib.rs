//! HoDoKu's regression library as a test of the rules: each case is a
//! pencil-mark state, one technique, and the exact eliminations (or
//! placements) that technique must make there.
//!
//! A case is checked by running the technique its code maps to, alone, on
//! the state ([`Hinter`] with that one technique): every expected
//! elimination and placement must be made, and nothing made may contradict
//! the state's solution (found by search and checked in plain Rust). A fail
//! case (variant `x`) must make nothing. Beside it, a hint with every
//! technique must name the expected one, or an easier one that applies.
//! Codes whose technique the rules lack are counted as not covered.

use crate::engine::Status;
use crate::grid::{Puzzle, PuzzleError, read_inputs};
use crate::lang::program::Program;
use crate::solve::{Hint, HintFact, Hinter, HinterError, Solver, Verdict};
use itertools::Itertools;
use rustc_hash::FxHashMap;
use std::io::Read;

/// How a HoDoKu code maps to the rules: the technique (a rule file's
/// stem) whose rules must make the case's deductions, or several joined
/// by `+` that run together (a code whose patterns two files share out),
/// and the names their rules' comments start with for this code (what a
/// hint must name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeMap {
    /// HoDoKu's code (`0301`), or a code with one variant (`0711-1`: HoDoKu
    /// numbers a technique's kinds so, such as chains with and without
    /// almost locked sets), which takes precedence over the code's map.
    pub code: String,
    /// The technique that covers it (or techniques, joined by `+`).
    pub technique: String,
    /// The rule names ([`crate::lang::program::Rule::label`]) that count as
    /// this technique in a hint; empty: any rule of the technique.
    pub labels: Vec<String>,
}

/// The codes of HoDoKu's library that the standard rules cover, in one
/// table: code, technique, rule names. Full house is a naked single and a
/// hidden single at once; a locked pair or triple is a naked subset in a
/// box and a line (HoDoKu's `0110`/`0111`); skyscraper, two-string kite
/// and simple colours are the single-digit patterns; the empty rectangle
/// (the dual one too) and multi-colours have files of their own; finned
/// and sashimi fish (siamese ones too: two finned fish, each found) are
/// those of `finned_fish.dl` (jellyfish with fins on two lines those of
/// `late_finned_fish.dl`, after the chains); unique rectangles of types
/// 1 to 5 those of `uniqueness.dl`, type 6, hidden and avoidable
/// rectangles those of `late_rectangles.dl`; X-chains, XY-chains, remote
/// pairs, nice loops, AICs, turbot fish and dual kites are all chains of
/// `chains.dl`; grouped chains and loops without almost locked
/// sets (HoDoKu's variants 1 and 2 of `0709` to `0711`) those of
/// `grouped_chains.dl`.
pub const STANDARD_CODES: &[(&str, &str, &[&str])] = &[
    ("0000", "singles", &["Naked single", "Hidden single"]),
    ("0002", "singles", &["Hidden single"]),
    ("0003", "singles", &["Naked single"]),
    ("0100", "locked", &["Locked candidate"]),
    ("0101", "locked", &["Locked candidate"]),
    ("0110", "naked_subsets", &["Naked subset"]),
    ("0111", "naked_subsets", &["Naked subset"]),
    ("0200", "naked_subsets", &["Naked subset"]),
    ("0201", "naked_subsets", &["Naked subset"]),
    ("0202", "naked_subsets", &["Naked subset"]),
    ("0210", "hidden_subsets", &["Hidden subset"]),
    ("0211", "hidden_subsets", &["Hidden subset"]),
    ("0212", "hidden_subsets", &["Hidden subset"]),
    ("0300", "fish", &["Fish"]),
    ("0301", "fish", &["Fish"]),
    ("0302", "fish", &["Fish"]),
    ("0310", "finned_fish", &["Finned fish"]),
    ("0311", "finned_fish", &["Finned fish"]),
    ("03111", "finned_fish", &["Finned fish"]),
    ("0312", "finned_fish+late_finned_fish", &["Finned fish"]),
    ("03121", "finned_fish+late_finned_fish", &["Finned fish"]),
    ("0320", "finned_fish", &["Finned fish"]),
    ("0321", "finned_fish", &["Finned fish"]),
    ("03211", "finned_fish", &["Finned fish"]),
    ("0322", "finned_fish", &["Finned fish"]),
    ("03221", "finned_fish", &["Finned fish"]),
    ("0400", "single_digit", &["Skyscraper"]),
    ("0401", "single_digit", &["Two-string kite"]),
    ("0402", "empty_rectangle", &["Empty rectangle"]),
    ("0403", "chains", &["AIC", "Nice loop"]),
    ("0404", "chains", &["AIC", "Nice loop"]),
    ("0405", "empty_rectangle", &["Empty rectangle"]),
    ("0500", "single_digit", &["Colour trap"]),
    ("0501", "single_digit", &["Colour wrap"]),
    (
        "0502",
        "multi_colours",
        &["Multi-colours type 1", "Multi-colours type 2"],
    ),
    (
        "0503",
        "multi_colours",
        &["Multi-colours type 1", "Multi-colours type 2"],
    ),
    ("0600", "uniqueness", &["Unique rectangle type 1"]),
    ("0601", "uniqueness", &["Unique rectangle type 2"]),
    ("0602", "uniqueness", &["Unique rectangle type 3"]),
    ("0603", "uniqueness", &["Unique rectangle type 4"]),
    ("0604", "uniqueness", &["Unique rectangle type 5"]),
    ("0605", "late_rectangles", &["Unique rectangle type 6"]),
    ("0606", "late_rectangles", &["Hidden rectangle"]),
    ("0607", "late_rectangles", &["Avoidable rectangle type 1"]),
    ("0608", "late_rectangles", &["Avoidable rectangle type 2"]),
    ("0610", "bug", &["BUG+1"]),
    ("0701", "chains", &["AIC", "Nice loop"]),
    ("0702", "chains", &["AIC", "Nice loop"]),
    ("0703", "chains", &["AIC", "Nice loop"]),
    ("0706", "chains", &["AIC", "Nice loop"]),
    ("0707", "chains", &["AIC", "Nice loop"]),
    ("0708", "chains", &["AIC", "Nice loop"]),
    (
        "0709-1",
        "grouped_chains",
        &["Grouped AIC", "Grouped nice loop"],
    ),
    (
        "0710-1",
        "grouped_chains",
        &["Grouped AIC", "Grouped nice loop"],
    ),
    (
        "0710-2",
        "grouped_chains",
        &["Grouped AIC", "Grouped nice loop"],
    ),
    (
        "0711-1",
        "grouped_chains",
        &["Grouped AIC", "Grouped nice loop"],
    ),
    (
        "0711-2",
        "grouped_chains",
        &["Grouped AIC", "Grouped nice loop"],
    ),
    ("0800", "wings", &["XY-wing"]),
    ("0801", "wings", &["XYZ-wing"]),
    ("0803", "w_wing", &["W-wing"]),
];

impl CodeMap {
    /// The techniques of the map: its technique, or each of those it
    /// joins with `+`.
    pub fn techniques(&self) -> impl Iterator<Item = &str> {
        self.technique.split('+')
    }
}

/// [`STANDARD_CODES`] as maps.
pub fn standard_maps() -> Vec<CodeMap> {
    STANDARD_CODES
        .iter()
        .map(|(code, technique, labels)| CodeMap {
            code: code.to_string(),
            technique: technique.to_string(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
        })
        .collect()
}

/// One case of the library.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its line in the file.
    pub line: usize,
    /// HoDoKu's code without the variant (`0301`).
    pub code: String,
    /// The variant after the dash (`1`, or `x` for a fail case), if any.
    pub variant: Option<String>,
    /// The state.
    pub puzzle: Puzzle,
    /// `(cell, digit)` the technique must eliminate.
    pub eliminations: Vec<(usize, u8)>,
    /// `(cell, digit)` the technique must place.
    pub placements: Vec<(usize, u8)>,
}

impl Case {
    /// Whether this is a fail case: the technique must find nothing.
    pub fn expects_nothing(&self) -> bool {
        self.variant.as_deref() == Some("x")
    }
}

/// The library's cases and the names its header gives the codes
/// (`#0301: Swordfish`).
pub struct Library {
    /// Every case, in file order.
    pub cases: Vec<Case>,
    /// Code → name, from the header.
    pub names: FxHashMap<String, String>,
}

/// The largest library file [`read_library`] reads, which holds the whole
/// file and its cases in memory.
pub const MAX_LIBRARY_BYTES: u64 = 64 << 20;

/// Reads a library file: its cases (HoDoKu lines, read as pencil-mark
/// states by the puzzle reader) with their expected deductions. The first
/// bad line is the error.
pub fn read_library(path: &str) -> Result<Library, PuzzleError> {
    let cannot =
        |e: std::io::Error| PuzzleError::new(path, 1, 1, format!("cannot read the file: {e}"));
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_LIBRARY_BYTES + 1).read_to_string(&mut text))
        .map_err(cannot)?;
    if text.len() as u64 > MAX_LIBRARY_BYTES {
        return Err(PuzzleError::new(
            path,
            1,
            1,
            format!(
                "the file is larger than {} MiB, more than any regression library (HoDoKu's is \
                 about 200 KB): give a library file",
                MAX_LIBRARY_BYTES >> 20
            ),
        ));
    }
    let mut names = FxHashMap::default();
    // Per line: the case's fields other than the state, which the puzzle
    // reader reads.
    let mut expected: FxHashMap<usize, Expected> = FxHashMap::default();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if let Some((code, name)) = line.strip_prefix('#').and_then(|l| l.split_once(": "))
            && !code.is_empty()
            && code.chars().all(|c| c.is_ascii_digit())
        {
            names.insert(code.to_string(), name.trim().to_string());
        }
        if !line.starts_with(':') {
            continue;
        }
        let fields: Vec<&str> = line.split(':').collect();
        let field = |k: usize| fields.get(k).copied().unwrap_or("");
        let (code, variant) = match field(1).split_once('-') {
            Some((c, v)) => (c.to_string(), Some(v.to_string())),
            None => (field(1).to_string(), None),
        };
        let column = |k: usize| fields.iter().take(k).map(|f| f.len() + 1).sum::<usize>() + 1;
        let eliminations = candidates(field(5), path, number, column(5))?;
        let placements = candidates(field(6), path, number, column(6))?;
        expected.insert(
            number,
            Expected {
                code,
                variant,
                eliminations,
                placements,
            },
        );
    }
    let mut cases = Vec::new();
    for item in read_inputs(&[path.to_string()]) {
        let puzzle = item?;
        if let Some(e) = expected.remove(&puzzle.origin.line) {
            cases.push(Case {
                line: puzzle.origin.line,
                code: e.code,
                variant: e.variant,
                puzzle,
                eliminations: e.eliminations,
                placements: e.placements,
            });
        }
    }
    Ok(Library { cases, names })
}

/// What a library line expects, beside its state.
struct Expected {
    code: String,
    variant: Option<String>,
    eliminations: Vec<(usize, u8)>,
    placements: Vec<(usize, u8)>,
}

/// A field of `<digit><row><col>` words (`193 198`): `(cell, digit)` on a
/// 9x9 grid.
fn candidates(
    field: &str,
    path: &str,
    line: usize,
    column: usize,
) -> Result<Vec<(usize, u8)>, PuzzleError> {
    let mut out = Vec::new();
    let mut at = column;
    for word in field.split(' ') {
        if !word.is_empty() {
            let d: Vec<u8> = word.bytes().map(|b| b.wrapping_sub(b'0')).collect();
            match d.as_slice() {
                &[digit, row, col] if [digit, row, col].iter().all(|x| (1..=9).contains(x)) => {
                    out.push(((row as usize - 1) * 9 + col as usize - 1, digit));
                }
                _ => {
                    return Err(PuzzleError::new(
                        path,
                        line,
                        at,
                        format!(
                            "`{word}` is no candidate: HoDoKu writes one as its digit, row and \
                             column (`436` is r3c6<>4), separated by spaces"
                        ),
                    ));
                }
            }
        }
        at += word.len() + 1;
    }
    Ok(out)
}

/// What became of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseVerdict {
    /// Every expected deduction made, nothing wrong.
    Passed,
    /// Something expected is missing or something made is wrong: what.
    Failed(String),
    /// No technique of the rules covers the code.
    NotCovered,
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case's line in the file.
    pub line: usize,
    /// Its code (without variant).
    pub code: String,
    /// The technique its map names, if the rules cover it.
    pub technique: Option<String>,
    /// What became of it.
    pub verdict: CaseVerdict,
    /// For a covered case that is no fail case: whether a hint with every
    /// technique names the expected one or an easier one.
    pub hint_named: Option<bool>,
    /// Where that hint named neither: what it gave, its technique, tier and
    /// pattern names (`empty_rectangle (tier 9: Empty rectangle)`), or why
    /// it gave no step.
    pub hint: Option<String>,
}

/// Checks cases against a rule set.
pub struct Checker {
    maps: FxHashMap<String, CodeMap>,
    /// Per technique of a map: a hinter with that technique alone, and its
    /// tier.
    alone: FxHashMap<String, (Hinter, u32)>,
    /// Every technique, for the hint check.
    all: Hinter,
    solver: Solver,
    /// Per pattern name, the place of its first rule in the program (the
    /// files list easier patterns first).
    label_rank: FxHashMap<String, usize>,
}

/// Why a [`Checker`] could not be built.
#[derive(Debug)]
pub enum CheckerError {
    /// A map names a technique the rules lack, or rules did not compile.
    Hinter(HinterError),
    /// The solver for the states' solutions did not build.
    Solver(String),
}

impl Checker {
    /// A checker of `program`'s techniques under `maps` (maps whose
    /// technique the program lacks are an error).
    pub fn new(
        program: &Program,
        maps: Vec<CodeMap>,
        fact_limit: u64,
    ) -> Result<Checker, CheckerError> {
        let mut alone = FxHashMap::default();
        for m in &maps {
            if alone.contains_key(&m.technique) {
                continue;
            }
            let techniques: Vec<String> = m.techniques().map(str::to_string).collect();
            let hinter = Hinter::new(program, Some(&techniques), fact_limit)
                .map_err(CheckerError::Hinter)?;
            let tier = hinter.techniques().map(|(_, tier)| tier).min().unwrap_or(0);
            alone.insert(m.technique.clone(), (hinter, tier));
        }
        let all = Hinter::new(program, None, fact_limit).map_err(CheckerError::Hinter)?;
        let solver = Solver::new().map_err(CheckerError::Solver)?;
        let maps = maps.into_iter().map(|m| (m.code.clone(), m)).collect();
        let mut label_rank = FxHashMap::default();
        for (i, r) in program.rules.iter().enumerate() {
            if let Some(label) = r.label() {
                label_rank.entry(label.to_string()).or_insert(i);
            }
        }
        Ok(Checker {
            maps,
            alone,
            all,
            solver,
            label_rank,
        })
    }

    /// The map of a case, if the rules cover it: its code and variant's,
    /// else its code's.
    pub fn map(&self, case: &Case) -> Option<&CodeMap> {
        let variant =
            (case.variant.as_ref()).and_then(|v| self.maps.get(&format!("{}-{v}", case.code)));
        variant.or_else(|| self.maps.get(&case.code))
    }

    /// Checks one case.
    pub fn check(&self, case: &Case) -> CaseResult {
        let map = self.map(case);
        let result = |verdict, hint: Option<(bool, Option<String>)>| CaseResult {
            line: case.line,
            code: case.code.clone(),
            technique: map.map(|m| m.technique.clone()),
            verdict,
            hint_named: hint.as_ref().map(|h| h.0),
            hint: hint.and_then(|h| h.1),
        };
        let Some(map) = map else {
            return result(CaseVerdict::NotCovered, None);
        };
        let Some((hinter, tier)) = self.alone.get(&map.technique) else {
            return result(CaseVerdict::NotCovered, None);
        };
        let g = case.puzzle.geometry;
        // Every pattern of the technique counts (a W-wing case may hold an
        // XY-wing too, which a hint would name first). With several
        // techniques, the tier a hint is held to is that of the easiest
        // one that made an expected deduction.
        let mut tier = *tier;
        let made: Vec<(bool, usize, u8)> = match hinter.every_step(&case.puzzle) {
            Ok(steps) => {
                let expected = |f: &HintFact| {
                    let list = if f.placed {
                        &case.placements
                    } else {
                        &case.eliminations
                    };
                    list.contains(&(f.cell, f.digit))
                };
                if let Some(t) = (steps.iter())
                    .filter(|s| s.facts.iter().any(expected))
                    .map(|s| s.tier)
                    .min()
                {
                    tier = t;
                }
                steps
                    .iter()
                    .flat_map(|step| step.facts.iter().map(|f| (f.placed, f.cell, f.digit)))
                    .collect()
            }
            Err(Hint::Contradiction(_)) => {
                return result(
                    CaseVerdict::Failed("the state is contradictory".into()),
                    None,
                );
            }
            Err(Hint::Stopped(status)) => {
                let why = match status {
                    Status::FactLimit(grew) => format!("a limit stopped it ({grew} grew most)"),
                    Status::Timeout => "a limit stopped it (the time limit)".to_string(),
                    _ => "a limit stopped it".to_string(),
                };
                return result(CaseVerdict::Failed(why), None);
            }
            Err(_) => Vec::new(),
        };
        let show = |placed: bool, c: usize, d: u8| {
            format!("{}{}{d}", g.cell_name(c), if placed { "=" } else { "<>" })
        };
        if case.expects_nothing() {
            let verdict = if made.is_empty() {
                CaseVerdict::Passed
            } else {
                let list: Vec<String> = made.iter().map(|&(p, c, d)| show(p, c, d)).collect();
                CaseVerdict::Failed(format!("a fail case, yet it made {}", list.join(" ")))
            };
            return result(verdict, None);
        }
        let mut problems = Vec::new();
        let missing: Vec<String> = (case.eliminations.iter().map(|&(c, d)| (false, c, d)))
            .chain(case.placements.iter().map(|&(c, d)| (true, c, d)))
            .filter(|&(placed, c, d)| {
                // A placement in C removes every other digit of C: HoDoKu
                // writes some placements (nice loops with two strong links
                // at the start) as those eliminations.
                let implied = !placed && made.iter().any(|&(p, mc, md)| p && mc == c && md != d);
                !made.contains(&(placed, c, d)) && !implied
            })
            .map(|(p, c, d)| show(p, c, d))
            .collect();
        if !missing.is_empty() {
            problems.push(format!("missed {}", missing.join(" ")));
        }
        let outcome = self.solver.count(&case.puzzle, 2);
        if outcome.verdict == Verdict::Solved && outcome.complete && outcome.solutions == 1 {
            let wrong: Vec<String> = made
                .iter()
                .filter(|&&(placed, c, d)| (outcome.grid[c] == d) != placed)
                .map(|&(p, c, d)| show(p, c, d))
                .collect();
            if !wrong.is_empty() {
                problems.push(format!("wrong {}", wrong.join(" ")));
            }
        }
        let verdict = if problems.is_empty() {
            CaseVerdict::Passed
        } else {
            CaseVerdict::Failed(problems.join("; "))
        };
        let hint = self.all.hint(&case.puzzle);
        let named = match &hint {
            Hint::Step(step) => {
                step.tier < tier
                    || (map.techniques().any(|t| t == step.technique) && {
                        // Within a technique, its file lists the easier
                        // patterns first (skyscraper, kite, colouring): a
                        // pattern named no later than the expected one counts.
                        let program = step.solve.engine().program();
                        let rank = |label: &str| self.label_rank.get(label).copied();
                        let expected = map.labels.iter().filter_map(|l| rank(l)).max();
                        map.labels.is_empty()
                            || step.facts.iter().any(|f| {
                                let label = program.rules.get(f.rule).and_then(|r| r.label());
                                label
                                    .and_then(rank)
                                    .zip(expected)
                                    .is_some_and(|(r, e)| r <= e)
                            })
                    })
            }
            _ => false,
        };
        // Worded only where it is a miss: most hints name the technique.
        let gave = (!named).then(|| describe_hint(&hint));
        result(verdict, Some((named, gave)))
    }
}

/// What a hint gave, for `--failures`: its technique, tier and the names
/// of its facts' patterns, or why it gave no step.
fn describe_hint(hint: &Hint) -> String {
    match hint {
        Hint::Step(step) => {
            let program = step.solve.engine().program();
            let labels: Vec<&str> = step
                .facts
                .iter()
                .filter_map(|f| program.rules.get(f.rule).and_then(|r| r.label()))
                .unique()
                .collect();
            format!(
                "{} (tier {}: {})",
                step.technique,
                step.tier,
                labels.join(", ")
            )
        }
        Hint::Solved => "no step (the state is solved)".to_string(),
        Hint::Stuck => "no step (no technique applies)".to_string(),
        Hint::Contradiction(_) => "no step (the state is contradictory)".to_string(),
        Hint::Stopped(_) => "no step (a limit stopped it)".to_string(),
    }
}
