//! The command line: argument definitions and the commands they run.

/// Prints text on standard error as it is (see [`stderr::text`]).
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::stderr::text(format_args!($($arg)*))
    };
}

/// Prints a note on standard error, after `note:`, unless `-q` (see
/// [`stderr::note`]).
macro_rules! noteln {
    ($($arg:tt)*) => {
        $crate::cli::stderr::note(format_args!($($arg)*))
    };
}

/// Prints an error on standard error, after `error:` (see
/// [`stderr::error`]).
macro_rules! errorln {
    ($($arg:tt)*) => {
        $crate::cli::stderr::error(format_args!($($arg)*))
    };
}

mod grade;
mod help;
mod inspect;
mod interrupt;
mod outside;
mod progress;
pub mod stderr;
mod verify;

use crate::batch;
use crate::engine::{DEFAULT_FACT_LIMIT, Engine};
use crate::grid::{Puzzle, PuzzleError, read_inputs};
use crate::lang::library::{RuleSources, RulesError};
use crate::lang::program::Program;
use crate::report;
use crate::report::Show;
use crate::report::summary::{PuzzleFigures, Summary};
use crate::solve::{Mode, SearchOptions, solve};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The hardest tier `solve` (and the inspection of its solve) uses unless
/// told otherwise: see [`crate::solve::DEFAULT_MAX_TIER`].
pub const SOLVE_DEFAULT_MAX_TIER: u32 = crate::solve::DEFAULT_MAX_TIER;

/// Exit code: everything solved (or the rules checked out).
pub const EXIT_OK: i32 = 0;
/// Exit code: some puzzle was not solved (no solution, stalled, stopped by
/// a limit), or `check` found errors in the rules.
pub const EXIT_UNSOLVED: i32 = 1;
/// Exit code: invalid input (a bad puzzle, an unreadable file, bad rules
/// given to `solve`, or bad arguments).
pub const EXIT_INVALID: i32 = 2;

/// sudolog: a Sudoku solver that is a Datalog engine.
#[derive(Parser, Debug)]
#[command(version, about, after_help = help::MAIN)]
pub struct Cli {
    /// Print no notes on standard error: only errors, and what was asked
    /// for (`--stats`, a trace).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve the puzzles in one or more files ("-" reads standard input).
    #[command(after_help = help::SOLVE)]
    Solve(SolveArgs),
    /// Parse and check a rule set, and list its relations and rules.
    #[command(after_help = help::CHECK)]
    Check(CheckArgs),
    /// Print the facts a solve derived (any relation, with provenance), or
    /// export them all to SQLite.
    #[command(after_help = help::FACTS)]
    Facts(inspect::FactsArgs),
    /// Grade puzzles: the hardest technique each needs without guessing
    /// (or that guessing is needed), and how often each technique fired.
    #[command(after_help = help::GRADE)]
    Grade(grade::GradeArgs),
    /// Check the rules against puzzles with known solutions: report every
    /// rule that eliminated a solution digit or placed a wrong one, with
    /// the puzzle, the fact and its derivation.
    #[command(after_help = help::VERIFY)]
    VerifyRules(verify::VerifyArgs),
    /// Ask a conjunctive query over the facts a solve derived.
    #[command(after_help = help::QUERY)]
    Query(inspect::QueryArgs),
    /// Explain why a cell holds its digit, or why a fact holds, down to the
    /// givens and guesses.
    #[command(after_help = help::EXPLAIN)]
    Explain(inspect::ExplainArgs),
    /// Print a shell's completion script for sudolog.
    #[command(after_help = help::COMPLETIONS)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print sudolog's manual page (roff, for `man`), or one command's.
    #[command(after_help = help::MAN)]
    Man {
        /// The command whose page to print (the whole program's by default).
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// Arguments of `check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Rule files to check with the rule set (as `--rules-add` adds them).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The rule set.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Which rules to use.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// Use the .dl files in DIR instead of the built-in rule library.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Add a rule file to the rule set (repeatable).
    #[arg(long = "rules-add", value_name = "FILE")]
    pub rules_add: Vec<PathBuf>,
    /// Solve a Sudoku variant: add its built-in rule file (repeatable or
    /// comma-separated): x, hyper, disjoint, anti_knight, anti_king,
    /// non_consecutive.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub variant: Vec<String>,
    /// Use only these techniques (comma-separated file stems such as
    /// `singles,locked`; tier-0 files such as grid.dl always stay).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub techniques: Option<Vec<String>>,
    /// Use only techniques up to this tier (`solve` defaults to 2: singles
    /// and locked candidates; the other commands use every tier).
    #[arg(long, value_name = "N")]
    pub max_tier: Option<u32>,
    /// The command's own tier cap when `--max-tier` is not given (solve's
    /// default); unlike `--max-tier`, it may exceed the rule set's tiers.
    #[arg(skip)]
    pub default_max_tier: Option<u32>,
}

/// Output formats of `solve`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The grid, and pencil marks when the rules stall.
    #[default]
    Grid,
    /// Exactly one line per puzzle: the solution, or `# why not`.
    Line,
    /// One JSON object per puzzle, one per line.
    Json,
}

/// Arguments of `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzle files ("-" for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Print statistics per puzzle (grid format) and a summary on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Never guess: run the rules only, and show where they stall.
    #[arg(long, conflicts_with = "count")]
    pub logic_only: bool,
    /// Count solutions up to N and say whether the puzzle is unique
    /// (`--count 2` is the uniqueness check).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// How far a puzzle's search may go.
    #[command(flatten)]
    pub limits: Limits,
    /// Log every step: which rule placed or eliminated what, each guess and
    /// backtrack, and the path to the solution (grid and JSON formats; on
    /// stderr for the line format).
    #[arg(long)]
    pub trace: bool,
    /// Leave out where each fact came from: `--trace` then shows only
    /// guesses. (Origins are kept with every fact regardless, so this saves
    /// no time.)
    #[arg(long)]
    pub no_provenance: bool,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// How a batch command runs (`solve`, `grade`, `verify-rules`): on how
/// many threads, and whether it shows its progress.
#[derive(Args, Debug, Clone)]
pub struct BatchArgs {
    /// Never show the progress line (shown on a terminal's stderr while
    /// the results go to a file or a pipe).
    #[arg(long)]
    pub no_progress: bool,
    /// Run on N threads (default: every core). Output stays in input order.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl BatchArgs {
    /// The number of threads to run on.
    pub fn threads(&self) -> usize {
        self.jobs.map_or_else(batch::default_jobs, usize::from)
    }

    /// The progress line, counting `what` (hidden unless it can help).
    pub fn progress(&self, what: &str) -> indicatif::ProgressBar {
        progress::start(!self.no_progress, what)
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
    /// Stop a branch whose rules store more than N facts (a rule that
    /// derives without end); the report names the relation that grew.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FACT_LIMIT,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_facts: u64,
}

impl Limits {
    /// Search options in `mode` within these limits (and `trace`).
    pub fn search(&self, mode: Mode, trace: bool) -> SearchOptions {
        SearchOptions {
            mode,
            max_branches: self.max_branches,
            timeout: self.timeout,
            trace,
        }
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err("the timeout must be a positive number of seconds".into());
    }
    Ok(Duration::from_secs_f64(secs.min(1e9)))
}

/// A puzzle's rendered output (stdout) and note (stderr).
struct Rendered {
    text: String,
    note: String,
    /// Its input file and figures: for the `--stats` summary, and whether
    /// it was solved or invalid for the exit code.
    file: String,
    figures: PuzzleFigures,
    /// The puzzle's side (none for an invalid one).
    side: Option<usize>,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                EXIT_INVALID
            } else {
                EXIT_OK
            };
        }
    };
    stderr::set_quiet(cli.quiet);
    if stdin_named_twice(&cli.command) {
        errorln!(
            "standard input (`-`) is named twice, and it can be read only once; \
             name it once, or save it to a file and name the file"
        );
        return EXIT_INVALID;
    }
    let result = match cli.command {
        Command::Solve(args) => solve_command(&args),
        Command::Check(args) => check(&args),
        Command::Facts(args) => inspect::facts(&args),
        Command::Grade(args) => grade::grade_command(&args),
        Command::VerifyRules(args) => verify::verify_rules(&args),
        Command::Query(args) => inspect::query(&args),
        Command::Explain(args) => inspect::explain_command(&args),
        Command::Completions { shell } => completions(shell),
        Command::Man { command } => man_page(command.as_deref()),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            errorln!("cannot write the output: {e}");
            EXIT_INVALID
        }
    }
}

/// Whether a command names standard input more than once among its inputs
/// (it would wait forever for the second reading).
fn stdin_named_twice(command: &Command) -> bool {
    let inputs: Vec<&str> = match command {
        Command::Solve(a) => a.files.iter().map(String::as_str).collect(),
        Command::Grade(a) => a.files.iter().map(String::as_str).collect(),
        Command::VerifyRules(a) => std::iter::once(a.against.as_str())
            .chain(a.solutions.as_deref())
            .collect(),
        Command::Check(_)
        | Command::Facts(_)
        | Command::Query(_)
        | Command::Explain(_)
        | Command::Completions { .. }
        | Command::Man { .. } => Vec::new(),
    };
    inputs.iter().filter(|&&p| p == "-").count() > 1
}

/// `sudolog man [COMMAND]`: the manual page of sudolog or of one of its
/// commands, as roff on stdout.
fn man_page(command: Option<&str>) -> io::Result<i32> {
    let cli = Cli::command();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub
                .clone()
                .display_name(format!("sudolog-{name}"))
                .bin_name(format!("sudolog {name}"))
                .version(env!("CARGO_PKG_VERSION")),
            None => {
                let names: Vec<&str> = cli
                    .get_subcommands()
                    .map(|c| c.get_name())
                    .filter(|&n| n != "man")
                    .collect();
                errorln!(
                    "`{name}` is not a sudolog command; man pages exist for: {}",
                    names.join(", ")
                );
                return Ok(EXIT_INVALID);
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    io::stdout().lock().write_all(&roff)?;
    Ok(EXIT_OK)
}

/// `sudolog completions SHELL`: the shell's completion script, on stdout.
fn completions(shell: clap_complete::Shell) -> io::Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sudolog", &mut script);
    io::stdout().write_all(&script)?;
    Ok(EXIT_OK)
}

/// Compiles a program, printing diagnostics on failure.
pub fn compile(program: Program) -> Option<Engine> {
    match Engine::new(program) {
        Ok(e) => Some(e),
        Err(d) => {
            stderr::diagnostics(&d);
            None
        }
    }
}

/// Loads the rule set the arguments name, printing what is wrong with it
/// (the caller then exits with [`EXIT_INVALID`]).
pub fn load_program(args: &RuleArgs) -> Option<Program> {
    load_rules(args).map_err(|e| print_rules_error(&e)).ok()
}

/// Loads and compiles the rule set the arguments name, printing what is
/// wrong with it (the caller then exits with [`EXIT_INVALID`]).
pub fn load_engine(args: &RuleArgs) -> Option<Engine> {
    load_program(args).and_then(compile)
}

/// Loads the rule set the arguments name.
pub fn load_rules(args: &RuleArgs) -> Result<Program, RulesError> {
    let mut sources = match &args.rules {
        Some(dir) => RuleSources::from_dir(dir)?,
        None => RuleSources::standard(),
    };
    for v in &args.variant {
        sources.add_variant(v)?;
    }
    for f in &args.rules_add {
        sources.add_file(f)?;
    }
    let mut program = sources.load()?;
    if let Some(names) = &args.techniques {
        program.restrict_techniques(names).map_err(RulesError::Io)?;
    }
    if let Some(max) = args.max_tier {
        // A tier above every technique's selects nothing new: most likely
        // a typo, and a silent success would hide it.
        let highest = program.highest_tier();
        if max > highest {
            return Err(RulesError::Io(format!(
                "--max-tier {max}: the rule set's tiers go up to {highest}; `sudolog check` \
                 lists its techniques with their tiers"
            )));
        }
        program.restrict_tier(max);
    } else if let Some(max) = args.default_max_tier {
        program.restrict_tier(max);
    }
    Ok(program)
}

/// Prints a rule-loading error on stderr.
pub fn print_rules_error(e: &RulesError) {
    stderr::rules_error(e);
}

fn check(args: &CheckArgs) -> io::Result<i32> {
    let mut rules = args.rules.clone();
    rules.rules_add.extend(args.files.iter().cloned());
    let program = match load_rules(&rules) {
        Ok(p) => p,
        Err(e) => {
            print_rules_error(&e);
            return Ok(match e {
                RulesError::Io(_) => EXIT_INVALID,
                RulesError::Invalid(_) => EXIT_UNSOLVED,
            });
        }
    };
    stderr::warnings(&program);
    let listing = report::rule_listing(&program);
    match Engine::new(program) {
        Ok(_) => {
            io::stdout().write_all(listing.as_bytes())?;
            Ok(EXIT_OK)
        }
        Err(d) => {
            stderr::diagnostics(&d);
            Ok(EXIT_UNSOLVED)
        }
    }
}

fn solve_command(args: &SolveArgs) -> io::Result<i32> {
    let mut rule_args = args.rules.clone();
    if rule_args.techniques.is_none() {
        rule_args.default_max_tier = Some(SOLVE_DEFAULT_MAX_TIER);
    }
    let Some(mut engine) = load_engine(&rule_args) else {
        return Ok(EXIT_INVALID);
    };
    engine.provenance = !args.no_provenance;
    engine.fact_limit = args.limits.max_facts;
    let mode = match (args.logic_only, args.count) {
        (true, _) => Mode::LogicOnly,
        (false, Some(n)) => Mode::Count(n),
        (false, None) => Mode::First,
    };
    let options = args.limits.search(mode, args.trace);
    let show = Show {
        counting: args.count.is_some(),
        count_limit: args.count.unwrap_or(1),
        trace: args.trace,
        stats: args.stats,
    };
    let started = Instant::now();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut unsolved, mut invalid) = (0usize, 0usize);
    let format = args.format;
    let trace = args.trace;
    // Each worker renders its puzzle's output; the writer only prints.
    // After Ctrl-C, puzzles not yet started give `None`: the run stops there.
    let work = |i: usize, item: Result<Puzzle, PuzzleError>| -> Option<Rendered> {
        let index = i + 1;
        if interrupt::interrupted() {
            return None;
        }
        Some(match item {
            Err(e) => Rendered {
                text: match format {
                    Format::Line => format!("{}\n", report::error_line(&e)),
                    Format::Grid => format!("{}\n", report::grid_error(index, &e)),
                    Format::Json => format!("{}\n", report::json_error(index, &e)),
                },
                note: format!("{e}\n"),
                file: e.file.clone(),
                figures: PuzzleFigures::invalid(),
                side: None,
            },
            Ok(puzzle) => {
                let outcome = solve(&engine, &puzzle, &options);
                let (text, note) = match format {
                    Format::Line => (
                        format!("{}\n", report::line(&outcome, &puzzle, &show)),
                        if trace {
                            report::trace_lines(&outcome, &puzzle, engine.program())
                        } else {
                            String::new()
                        },
                    ),
                    Format::Json => (
                        format!(
                            "{}\n",
                            report::json(index, &outcome, &puzzle, engine.program())
                        ),
                        String::new(),
                    ),
                    Format::Grid => (
                        format!(
                            "{}\n",
                            report::grid(index, &outcome, &puzzle, &show, engine.program())
                        ),
                        String::new(),
                    ),
                };
                Rendered {
                    text,
                    note,
                    file: puzzle.origin.file.clone(),
                    figures: PuzzleFigures::of(&outcome),
                    side: Some(puzzle.geometry.n),
                }
            }
        })
    };
    let jobs = args.batch.threads();
    let mut summary = Summary::new();
    let progress = args.batch.progress("puzzles");
    let mut outside = outside::OutsideCells::new(engine.program());
    interrupt::watch();
    let written = batch::for_each_ordered(read_inputs(&args.files), jobs, work, |r| {
        let Some(r) = r else {
            return Err(None);
        };
        progress.inc(1);
        if let Some(n) = r.side {
            outside.puzzle(n, &progress);
        }
        if args.stats {
            summary.add(&r.file, &r.figures);
        }
        if r.figures.invalid {
            invalid += 1;
        } else if !r.figures.solved {
            unsolved += 1;
        }
        out.write_all(r.text.as_bytes()).map_err(Some)?;
        if !r.note.is_empty() {
            progress.suspend(|| note!("{}", r.note));
        }
        Ok(())
    });
    progress.finish_and_clear();
    // Ctrl-C (`Err(None)`) still flushes every result finished before it.
    if let Err(Some(e)) = written {
        return Err(e);
    }
    out.flush()?;
    if args.stats {
        note!("{}", summary.render(started.elapsed(), jobs));
    }
    Ok(if interrupt::interrupted() {
        noteln!("interrupted; the results above are complete up to there");
        interrupt::EXIT_INTERRUPTED
    } else if invalid > 0 {
        EXIT_INVALID
    } else if unsolved > 0 {
        EXIT_UNSOLVED
    } else {
        EXIT_OK
    })
}
