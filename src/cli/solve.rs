//! `sudolog solve`: every puzzle of the inputs solved on every core, each
//! result rendered by its worker and printed in input order, with the
//! `--stats` summary and the exit code of the whole run.

use super::args::{BatchArgs, Limits, ProfileArg};
use super::outside::OutsideCells;
use super::rules::{RuleArgs, load_solve_engine};
use super::{EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, interrupt};
use crate::batch;
use crate::grid::{Puzzle, PuzzleError, read_inputs};
use crate::report;
use crate::report::Show;
use crate::report::summary::{PuzzleFigures, Summary};
use crate::solve::{Mode, solve};
use clap::{Args, ValueEnum};
use std::io::{self, Write};
use std::time::Instant;

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
    /// Exactly one line per puzzle: the final state as a candidate line (n
    /// characters per cell), which reads back as that state; or `# why not`.
    Candidates,
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
    /// Never guess: run the rules, with forcing where they stall, and show
    /// where they stop (`--no-forcing`: where the rules stall).
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
    /// stderr for the line and candidates formats).
    #[arg(long)]
    pub trace: bool,
    /// Leave out where each fact came from: `--trace` then shows only
    /// guesses. (Origins are kept with every fact regardless, so this saves
    /// no time.)
    #[arg(long)]
    pub no_provenance: bool,
    /// Where the rules' time went.
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set.
    #[command(flatten)]
    pub rules: RuleArgs,
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

/// Runs `solve`.
pub fn solve_command(args: &SolveArgs) -> io::Result<i32> {
    let Some(mut engine) = load_solve_engine(&args.rules, &args.limits) else {
        return Ok(EXIT_INVALID);
    };
    engine.set_provenance(!args.no_provenance);
    args.profile.start(&mut engine);
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
        Some(match super::with_clues(engine.program(), item) {
            Err(e) => Rendered {
                text: match format {
                    Format::Line | Format::Candidates => {
                        format!("{}\n", report::error_line(&e))
                    }
                    Format::Grid => format!("{}\n", report::grid_error(index, &e)),
                    Format::Json => format!("{}\n", report::json_error(index, &e)),
                },
                note: super::stderr::error_text(&e),
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
                    Format::Candidates => (
                        format!("{}\n", report::candidates(&outcome, &puzzle, &show)),
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
    let mut outside = OutsideCells::new(engine.program());
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
    args.profile.report(&engine, jobs);
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
