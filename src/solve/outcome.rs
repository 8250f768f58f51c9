//! The one vocabulary of a solve's result: how it ended ([`Verdict`]), its
//! counters ([`Stats`]) and everything reports need ([`Outcome`]). The
//! search fills them in directly, so a new statistic is added here and
//! where it is counted, nowhere else.

use super::forcing::ForcingStep;
use super::trace::TraceEvent;
use crate::engine::Guess;

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved (the first solution, or every solution counted); each
    /// solution passed the independent check.
    Solved,
    /// The search explored every branch and found no solution.
    NoSolution,
    /// The rules stalled with cells open and guessing was off.
    Stalled,
    /// The rules derived a contradiction and guessing was off: the givens
    /// admit no solution (when the rules are sound).
    Contradiction,
    /// `--max-branches` stopped the search first.
    BranchLimit,
    /// `--timeout` stopped the search (or the static relations) first.
    Timeout,
    /// The rules produced a grid that breaks Sudoku's constraints: an
    /// unsound or incomplete rule set. Says what and which rules.
    InvalidResult(String),
    /// The rules derived more facts than the limit: the relation that
    /// grew most (a rule that derives without end).
    FactLimit(String),
}

impl Verdict {
    /// The status word used in JSON output.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::NoSolution => "no_solution",
            Verdict::Stalled => "stalled",
            Verdict::Contradiction => "contradiction",
            Verdict::BranchLimit | Verdict::Timeout => "limit",
            Verdict::InvalidResult(_) => "invalid_result",
            Verdict::FactLimit(_) => "fact_limit",
        }
    }

    /// Whether a limit the user set (branches, time) stopped the solve.
    pub fn is_limit(&self) -> bool {
        matches!(self, Verdict::BranchLimit | Verdict::Timeout)
    }
}

/// Counters of one puzzle's solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Fixpoint steps, summed over all branches.
    pub steps: u64,
    /// Tuples derived, summed over all branches.
    pub derived: u64,
    /// Digits placed in the reported grid.
    pub placed: usize,
    /// Candidates eliminated in the reported grid.
    pub eliminated: usize,
    /// New facts per rule: `(rule id, count)` in rule order, summed over
    /// all branches.
    pub firings: Vec<(usize, u64)>,
    /// Branches opened (guesses).
    pub branches: u64,
    /// Branches pruned by a contradiction.
    pub pruned: u64,
    /// Deepest guess.
    pub max_depth: usize,
    /// Forcing steps taken (hypotheses that yielded something).
    pub forcing_steps: u64,
    /// Forks forcing opened, at every depth.
    pub forks: u64,
    /// The deepest forcing used: 0 for none, 1, or 2 when a fork forced
    /// too.
    pub forcing_depth: u32,
    /// Whether the rules of a forcing fork used a technique that assumes
    /// one solution (beside [`Stats::firings`], which counts the rules of
    /// the branches only).
    pub forks_assumed_unique: bool,
    /// Wall time in microseconds.
    pub micros: u64,
}

/// The result of solving one puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What became of it.
    pub verdict: Verdict,
    /// The (first) solution, also when a limit then stopped a count, or
    /// the digits placed where the rules stopped.
    pub grid: Vec<u8>,
    /// Candidate bitmask per cell where the rules stopped (bit `d` set:
    /// digit `d` still possible); empty for a solved grid.
    pub candidates: Vec<u32>,
    /// Contradiction facts of the givens: reason and cell.
    pub contradictions: Vec<(String, Option<usize>)>,
    /// Solutions found.
    pub solutions: u64,
    /// Whether the search was exhaustive, so `solutions` is exact.
    pub complete: bool,
    /// The guesses that led to the (first) solution.
    pub path: Vec<Guess>,
    /// Counters.
    pub stats: Stats,
    /// The forcing steps of every branch, each with the step at which its
    /// facts arrived (`explain` shows them).
    pub forcing: Vec<(u32, ForcingStep)>,
    /// What the search did, step by step (`--trace`; empty otherwise):
    /// data that `inspect::trace` words.
    pub trace: Vec<TraceEvent>,
}
