//! The command line: the commands and their dispatch. Each command lives
//! in its own file (`solve`, `check`, `grade`, `verify`, `inspect` for
//! `facts`/`query`/`explain`, `docs` for `man` and `completions`); the
//! argument groups they share are in `args` and `rules`, where arguments
//! become run settings; what is said on standard error is `stderr`.
//!
//! Where to start reading: [`main`].

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

mod args;
mod check;
mod docs;
mod generate;
mod grade;
mod help;
mod hint;
mod inspect;
mod interrupt;
mod outside;
mod path;
mod per_puzzle;
mod progress;
mod reglib;
mod rules;
mod solve;
pub mod stderr;
mod verify;

pub use args::{BatchArgs, FactLimit, Limits, ProfileArg, chosen_puzzles, with_clues};
pub use rules::{
    RuleArgs, compile, forcing_tier_runs, load_engine, load_program, load_rules, print_rules_error,
};

use clap::{Parser, Subcommand};
use std::io;

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
    Solve(solve::SolveArgs),
    /// Parse and check a rule set, and list its relations and rules.
    #[command(after_help = help::CHECK)]
    Check(check::CheckArgs),
    /// Print the facts a solve derived (any relation, with provenance), or
    /// export them all to SQLite.
    #[command(after_help = help::FACTS)]
    Facts(inspect::FactsArgs),
    /// Grade puzzles: a rating on Sudoku Explainer's scale, the hardest
    /// technique each needs without guessing (or that guessing is
    /// needed), and how often each technique fired.
    #[command(after_help = help::GRADE)]
    Grade(grade::GradeArgs),
    /// Make minimal puzzles with one solution: of a rating band, with a
    /// technique their solution path uses, with a symmetry; reproducible
    /// from a seed, on every core.
    #[command(after_help = help::GENERATE)]
    Generate(generate::GenerateArgs),
    /// Check the rules against puzzles with known solutions: report every
    /// rule that eliminated a solution digit or placed a wrong one, with
    /// the puzzle, the fact and its derivation.
    #[command(after_help = help::VERIFY)]
    VerifyRules(verify::VerifyArgs),
    /// One step, as a player asks for it: the easiest technique that
    /// applies to each puzzle or pencil-mark state, and every placement and
    /// elimination it makes.
    #[command(after_help = help::HINT)]
    Hint(hint::HintArgs),
    /// The solution path: one line per step a person would take (each
    /// firing of a technique, each guess), with a picture of every step
    /// (`--svg DIR`) and a page that steps through them (`--html FILE`).
    #[command(after_help = help::PATH)]
    Path(path::PathArgs),
    /// Run HoDoKu's regression library against the rules: per code, the
    /// cases each technique passes, fails, or does not cover.
    #[command(after_help = help::REGLIB)]
    Reglib(reglib::ReglibArgs),
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
        Command::Solve(args) => solve::solve_command(&args),
        Command::Check(args) => check::check(&args),
        Command::Facts(args) => inspect::facts(&args),
        Command::Grade(args) => grade::grade_command(&args),
        Command::Generate(args) => generate::generate_command(&args),
        Command::VerifyRules(args) => verify::verify_rules(&args),
        Command::Hint(args) => hint::hint_command(&args),
        Command::Path(args) => path::path_command(&args),
        Command::Reglib(args) => reglib::reglib_command(&args),
        Command::Query(args) => inspect::query(&args),
        Command::Explain(args) => inspect::explain_command(&args),
        Command::Completions { shell } => docs::completions(shell),
        Command::Man { command } => docs::man_page(command.as_deref()),
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
        Command::Hint(a) => a.files.iter().map(String::as_str).collect(),
        Command::Path(a) => a.files.iter().map(String::as_str).collect(),
        Command::VerifyRules(a) => std::iter::once(a.against.as_str())
            .chain(a.solutions.as_deref())
            .collect(),
        Command::Check(_)
        | Command::Reglib(_)
        | Command::Generate(_)
        | Command::Facts(_)
        | Command::Query(_)
        | Command::Explain(_)
        | Command::Completions { .. }
        | Command::Man { .. } => Vec::new(),
    };
    inputs.iter().filter(|&&p| p == "-").count() > 1
}
