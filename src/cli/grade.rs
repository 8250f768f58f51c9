//! `sudolog grade`: how hard each puzzle is for the rule library.

use super::args::ForcingArgs;
use super::outside::OutsideCells;
use super::{BatchArgs, EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, ProfileArg, RuleArgs, load_engine};
use crate::batch;
use crate::grid::{Puzzle, PuzzleError, read_inputs};
use crate::solve::{Grade, grade};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Arguments of `grade`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Puzzle files ("-" for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: GradeFormat,
    /// The same as `--format json` (kept for scripts written before it).
    #[arg(long, hide = true, conflicts_with = "format")]
    pub json: bool,
    /// Where the rules' time went.
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set (and `--techniques`, `--max-tier`).
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Forcing where the rules stall (up to depth 2 unless told).
    #[command(flatten)]
    pub forcing: ForcingArgs,
}

/// The deepest forcing `grade` tries unless told: a puzzle its rules
/// leave stalled is graded by the level of hypotheses it needs.
const GRADE_FORCING_DEPTH: u32 = 2;

/// Output formats of `grade`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GradeFormat {
    /// One line per puzzle, then a summary.
    #[default]
    Text,
    /// One JSON object per puzzle, one per line.
    Json,
}

/// Runs `grade`.
pub fn grade_command(args: &GradeArgs) -> io::Result<i32> {
    let json = args.json || args.format == GradeFormat::Json;
    let Some(mut engine) = load_engine(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    args.profile.start(&mut engine);
    let program = engine.program();
    let mut summary: BTreeMap<String, usize> = BTreeMap::new();
    let mut fired: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut invalid = 0;
    let mut ungraded = 0;
    let mut out = io::stdout().lock();
    let forcing = args.forcing.forcing(GRADE_FORCING_DEPTH);
    let work = |i: usize, item: Result<Puzzle, PuzzleError>| match item {
        Err(e) => (i, Err(e)),
        Ok(p) => {
            let g = grade(&engine, &p, forcing);
            (i, Ok((p, g)))
        }
    };
    let progress = args.batch.progress("puzzles");
    let mut outside = OutsideCells::new(program);
    batch::for_each_ordered(
        read_inputs(&args.files),
        args.batch.threads(),
        work,
        |(i, r)| {
            progress.inc(1);
            match r {
                Err(e) => {
                    invalid += 1;
                    if json {
                        writeln!(
                            out,
                            "{}",
                            serde_json::json!({"index": i + 1, "status": "invalid", "error": e.to_string()})
                        )?;
                    } else {
                        writeln!(out, "{:>6}  invalid: {e}", i + 1)?;
                    }
                }
                Ok((
                    p,
                    Grade {
                        grade: g,
                        firings: by,
                        graded,
                    },
                )) => {
                    outside.puzzle(p.geometry.n, &progress);
                    ungraded += usize::from(!graded);
                    *summary.entry(g.clone()).or_default() += 1;
                    for (t, n) in &by {
                        let e = fired.entry(t.clone()).or_default();
                        e.0 += 1;
                        e.1 += n;
                    }
                    if json {
                        writeln!(
                            out,
                            "{}",
                            serde_json::json!({
                                "index": i + 1, "file": p.origin.file, "line": p.origin.line,
                                "grade": g, "firings": by,
                            })
                        )?;
                    } else {
                        let counts: Vec<String> =
                            by.iter().map(|(t, n)| format!("{t}={n}")).collect();
                        writeln!(
                            out,
                            "{:>6}  {}:{}  {:<12} {}",
                            i + 1,
                            p.origin.file,
                            p.origin.line,
                            g,
                            counts.join(" ")
                        )?;
                    }
                }
            }
            Ok::<(), io::Error>(())
        },
    )?;
    progress.finish_and_clear();
    if !json {
        let total: usize = summary.values().sum();
        writeln!(out, "\ngrade (hardest technique needed)   puzzles   share")?;
        let mut order: Vec<(u32, &String, &usize)> = summary
            .iter()
            .map(|(g, n)| {
                let tier = program
                    .techniques
                    .iter()
                    .find(|t| &t.name == g)
                    .map_or(if g == "givens" { 0 } else { u32::MAX }, |t| t.tier);
                (tier, g, n)
            })
            .collect();
        order.sort();
        for (_, g, n) in order {
            writeln!(
                out,
                "{g:<34} {n:>7}  {:>5.1}%",
                100.0 * *n as f64 / total.max(1) as f64
            )?;
        }
        writeln!(
            out,
            "\ntechnique          puzzles where it fired   facts derived"
        )?;
        for (t, (n, facts)) in &fired {
            writeln!(out, "{t:<18} {n:>22}   {facts:>13}")?;
        }
    }
    out.flush()?;
    args.profile.report(&engine, args.batch.threads());
    Ok(if invalid > 0 {
        EXIT_INVALID
    } else if ungraded > 0 {
        EXIT_UNSOLVED
    } else {
        EXIT_OK
    })
}
