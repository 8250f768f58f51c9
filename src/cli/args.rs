//! The argument groups several commands share: how a batch runs (threads,
//! the progress line, the profile) and how far one puzzle's search may go
//! (the limits), each with the function that turns it into run settings.

use super::progress;
use super::rules::TierCap;
use crate::batch;
use crate::engine::clues::clue_tuples;
use crate::engine::{DEFAULT_FACT_LIMIT, Engine};
use crate::grid::{Puzzle, PuzzleError, read_inputs};
use crate::lang::program::Program;
use crate::report;
use crate::solve::{Forcing, Mode, SearchOptions};
use clap::Args;
use std::time::Duration;

/// How a batch command runs (`solve`, `grade`, `verify-rules`): on how
/// many threads, and whether it shows its progress.
#[derive(Args, Debug, Clone)]
pub struct BatchArgs {
    /// Never show the progress line (shown on a terminal's stderr while
    /// the results go to a file or a pipe).
    #[arg(long)]
    pub no_progress: bool,
    /// Run on N threads (default: every core; at most four a core). Output
    /// stays in input order.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// The most threads a batch runs on for each core: more would only wait
/// for the cores, and each thread builds a memo of its own (8,192 threads
/// took half a minute and 179 MiB on three puzzles).
const MAX_THREADS_PER_CORE: usize = 4;

impl BatchArgs {
    /// The number of threads to run on: `-j`, at most four a core.
    pub fn threads(&self) -> usize {
        let cores = batch::default_jobs();
        self.jobs
            .map_or(cores, usize::from)
            .min(MAX_THREADS_PER_CORE * cores)
    }

    /// The progress line, counting `what` (hidden unless it can help).
    pub fn progress(&self, what: &str) -> indicatif::ProgressBar {
        progress::start(!self.no_progress, what)
    }
}

/// Whether a batch command (`solve`, `grade`) times every rule and reports
/// where the time went.
#[derive(Args, Debug, Clone)]
pub struct ProfileArg {
    /// Time every rule and print where the time went, on stderr after the
    /// results: one line per rule (and per count in a rule), costliest
    /// first. Timing slows the run a little.
    #[arg(long)]
    pub profile: bool,
}

impl ProfileArg {
    /// Starts timing `engine`'s rules if asked.
    pub fn start(&self, engine: &mut Engine) {
        if self.profile {
            engine.enable_profile();
        }
    }

    /// Prints the profile of a batch run on `jobs` threads, if asked.
    pub fn report(&self, engine: &Engine, jobs: usize) {
        if let Some(lines) = engine.profile() {
            note!("{}", report::profile::render(&lines, jobs));
        }
    }
}

/// The limits of one puzzle's search, shared by `solve` and the
/// inspection commands (which inspect the solve that `solve` would run).
#[derive(Args, Debug, Clone)]
pub struct Limits {
    /// Stop a puzzle's search after opening N branches.
    #[arg(long, value_name = "N")]
    pub max_branches: Option<u64>,
    /// Stop a puzzle's search after SECS seconds (fractions allowed).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// The fact limit of each branch.
    #[command(flatten)]
    pub facts: FactLimit,
    /// Whether to reason with hypotheses where the rules stall.
    #[command(flatten)]
    pub forcing: ForcingArgs,
}

/// Forcing: where the rules stall, suppose each candidate of a cell (or
/// each place of a digit in a unit) in a fork, and keep what every fork
/// agrees on and what no fork survives, before any guess.
#[derive(Args, Debug, Clone)]
pub struct ForcingArgs {
    /// Reason with hypotheses where the rules stall: 1 for one level, 2 to
    /// let each hypothesis's forks force once more where they stall, 0 for
    /// none (default: 1 with --logic-only, 0 when guessing is allowed;
    /// `grade` tries 1, then 2). Forks count as branches for
    /// --max-branches.
    #[arg(long, value_name = "DEPTH", conflicts_with = "no_forcing",
          value_parser = clap::value_parser!(u32).range(0..=2))]
    pub forcing_depth: Option<u32>,
    /// Never reason with hypotheses: where the rules stall, stop
    /// (--logic-only) or guess.
    #[arg(long)]
    pub no_forcing: bool,
    /// The hardest tier the rules run in forcing's forks, or `all` for
    /// every tier the solve runs. The default, 2 (singles and locked
    /// candidates in the standard library), makes forcing fastest.
    #[arg(long, value_name = "N|all", value_parser = super::rules::parse_tier_cap)]
    pub forcing_tier: Option<TierCap>,
}

impl ForcingArgs {
    /// The forcing settings they ask for, at `default_depth` unless they
    /// name one.
    pub fn forcing(&self, default_depth: u32) -> Forcing {
        let depth = match (self.no_forcing, self.forcing_depth) {
            (true, _) => 0,
            (false, Some(depth)) => depth,
            (false, None) => default_depth,
        };
        Forcing {
            depth,
            fork_tier: match self.forcing_tier {
                Some(TierCap::Up(t)) => Some(t),
                Some(TierCap::All) => None,
                None => Forcing::default().fork_tier,
            },
        }
    }
}

/// How many facts one run of the rules (a branch, a technique's run) may
/// store: the bound on a rule that derives without end. Every command
/// that runs rules takes it.
#[derive(Args, Debug, Clone)]
pub struct FactLimit {
    /// Stop a run whose rules store more than N facts (a rule that derives
    /// without end); the report names the relation that grew.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FACT_LIMIT,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_facts: u64,
}

impl Limits {
    /// Search options in `mode` within these limits (and `trace`): with
    /// forcing at depth 1 when the mode never guesses, unless asked
    /// otherwise.
    pub fn search(&self, mode: Mode, trace: bool) -> SearchOptions {
        let default_depth = u32::from(mode == Mode::LogicOnly);
        SearchOptions {
            mode,
            max_branches: self.max_branches,
            timeout: self.timeout,
            trace,
            forcing: self.forcing.forcing(default_depth),
        }
    }
}

/// A positive number of seconds (`--timeout`), fractions allowed.
pub(super) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err("the timeout must be a positive number of seconds".into());
    }
    Ok(Duration::from_secs_f64(secs.min(1e9)))
}

/// A read puzzle whose clue facts the rules take, or the error at the
/// first they do not (a `cage(...)` line without `--variant killer`): one
/// result per puzzle, like any other bad puzzle.
pub fn with_clues(
    program: &Program,
    item: Result<Puzzle, PuzzleError>,
) -> Result<Puzzle, PuzzleError> {
    let puzzle = item?;
    clue_tuples(program, &puzzle)?;
    Ok(puzzle)
}

/// The puzzles of the input files, each with its place in the input
/// (0-based), or only the one `--puzzle N` names (1-based): a report
/// numbers a puzzle by its place in the input, whichever are chosen.
pub fn chosen_puzzles(
    files: &[String],
    puzzle: Option<u64>,
) -> impl Iterator<Item = (usize, Result<Puzzle, PuzzleError>)> {
    let wanted = puzzle.map(|n| n as usize - 1);
    read_inputs(files)
        .enumerate()
        .filter(move |(i, _)| wanted.is_none_or(|w| *i == w))
}

/// Parses `--puzzle`: a puzzle's number in its input, counted from 1.
pub fn puzzle_number<N: std::str::FromStr + PartialEq + From<u8>>(text: &str) -> Result<N, String> {
    match text.parse::<N>() {
        Ok(n) if n == N::from(0) => {
            Err("puzzles are numbered from 1 (the first puzzle of the input)".into())
        }
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{text}` is not a puzzle number (1 = the first puzzle)"
        )),
    }
}
