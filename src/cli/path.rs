//! `sudolog path`: the solution path of each puzzle, one line per firing
//! of a technique (`inspect::path`), as text or JSON, with a picture of
//! every step (`--svg DIR`) and a page that steps through them (`--html
//! FILE`). The pictures are drawn by `picture` from the same steps.

use super::outside::OutsideCells;
use super::per_puzzle::{Found, invalid, picture_folder, puzzle_missing};
use super::rules::{forcing_tier_runs, load_engine};
use super::{BatchArgs, EXIT_INVALID, Limits, RuleArgs, chosen_puzzles};
use crate::batch;
use crate::engine::Engine;
use crate::grid::{Puzzle, PuzzleError};
use crate::inspect::db::FactDb;
use crate::inspect::path::{self, PathStep};
use crate::inspect::rating::rate;
use crate::picture::html::{PageStep, page};
use crate::solve::{Keeping, Mode, SearchOptions, Verdict, solve_keeping};
use clap::{Args, ValueEnum};
use serde_json::json;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Arguments of `path`.
#[derive(Args, Debug)]
pub struct PathArgs {
    /// Puzzle or pencil-mark files ("-" for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Only this puzzle of the input (1 = the first).
    #[arg(long, value_name = "N", value_parser = super::args::puzzle_number::<u64>)]
    pub puzzle: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: PathFormat,
    /// Write a picture of every step into DIR (created if missing):
    /// `puzzle1-step001.svg`, ...
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write a page that steps through the path with its pictures: FILE for
    /// the first puzzle (or the one `--puzzle` names), `NAME-2.html` and on
    /// for the others. It needs no network and no other file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Never guess: forcing where the rules stall, and the path ends where
    /// forcing finds nothing either (`--no-forcing`: where the rules stall).
    #[arg(long)]
    pub logic_only: bool,
    /// How far the search may go (as in `solve`).
    #[command(flatten)]
    pub limits: Limits,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set (every tier unless `--max-tier` or `--techniques` say
    /// otherwise: a path shows the techniques a person would use).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Output formats of `path`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PathFormat {
    /// A header line per puzzle, then one numbered line per step.
    #[default]
    Text,
    /// One JSON object per puzzle, one per line, with every step's cells,
    /// digits, eliminations, rule and pattern.
    Json,
}

/// Runs `path`.
pub fn path_command(args: &PathArgs) -> io::Result<i32> {
    let Some(mut engine) = load_engine(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    if !forcing_tier_runs(&args.limits.forcing, engine.program()) {
        return Ok(EXIT_INVALID);
    }
    engine.set_fact_limit(args.limits.facts.max_facts);
    if !picture_folder(args.svg.as_deref()) {
        return Ok(EXIT_INVALID);
    }
    let mode = if args.logic_only {
        Mode::LogicOnly
    } else {
        Mode::First
    };
    let options = args.limits.search(mode, false);
    let settings = Settings {
        engine: &engine,
        options,
        json: args.format == PathFormat::Json,
        svg: args.svg.as_deref(),
        html: args.html.as_deref(),
        single: args.puzzle.is_some(),
    };
    let work = |_, (i, item): (usize, Result<Puzzle, PuzzleError>)| match super::with_clues(
        engine.program(),
        item,
    ) {
        Err(e) => Done {
            found: Found::Invalid,
            text: invalid(i, &e, settings.json),
            errors: vec![e.to_string()],
            n: None,
        },
        Ok(p) => settings.puzzle(i, &p),
    };
    let inputs = chosen_puzzles(&args.files, args.puzzle);
    let progress = args.batch.progress("puzzles");
    let mut outside = OutsideCells::new(engine.program());
    let mut out = io::stdout().lock();
    let (mut seen, mut worst) = (0, Found::Yes);
    batch::for_each_ordered(inputs, args.batch.threads(), work, |done| {
        progress.inc(1);
        seen += 1;
        worst = worst.max(done.found);
        if let Some(n) = done.n {
            outside.puzzle(n, &progress);
        }
        for e in &done.errors {
            errorln!("{e}");
        }
        out.write_all(done.text.as_bytes())
    })?;
    progress.finish_and_clear();
    if puzzle_missing(args.puzzle, seen) {
        return Ok(EXIT_INVALID);
    }
    Ok(worst.exit_code())
}

/// How each puzzle's path is made and written.
struct Settings<'a> {
    engine: &'a Engine,
    options: SearchOptions,
    json: bool,
    svg: Option<&'a Path>,
    html: Option<&'a Path>,
    /// `--puzzle` chose one puzzle: its page is FILE itself.
    single: bool,
}

/// One puzzle's result: what to print, and files that could not be
/// written.
struct Done {
    found: Found,
    text: String,
    errors: Vec<String>,
    n: Option<usize>,
}

impl Done {
    /// A puzzle's result; a file that could not be written makes it
    /// invalid, whatever the solve came to.
    fn new(found: Found, text: String, errors: Vec<String>, n: usize) -> Done {
        Done {
            found: if errors.is_empty() {
                found
            } else {
                Found::Invalid
            },
            text,
            errors,
            n: Some(n),
        }
    }
}

impl Settings<'_> {
    fn puzzle(&self, i: usize, p: &Puzzle) -> Done {
        let source = format!("{}:{}", p.origin.file, p.origin.line);
        let (outcome, kept) = solve_keeping(self.engine, p, &self.options, Keeping::State);
        // No solution and no stall to show: the rules' own fixpoint is
        // what there is to walk through.
        let (kept, forcing) = match kept {
            Some(k) => (Some(k.solve), outcome.forcing),
            None => {
                let logic = SearchOptions {
                    mode: Mode::LogicOnly,
                    ..self.options
                };
                let (again, state) = solve_keeping(self.engine, p, &logic, Keeping::State);
                (state.map(|k| k.solve), again.forcing)
            }
        };
        let verdict = outcome.verdict;
        let found = if verdict == Verdict::Solved {
            Found::Yes
        } else {
            Found::No
        };
        let Some(state) = kept else {
            // A page says so too, rather than being missing.
            let mut errors = Vec::new();
            if let Some(file) = self.html {
                let file = page_file(file, i, self.single);
                let title = format!(
                    "sudolog path: puzzle {} ({source}): {}",
                    i + 1,
                    status(&verdict)
                );
                if let Err(e) = std::fs::write(&file, page(&title, &[])) {
                    errors.push(format!("{}: cannot write the page: {e}", file.display()));
                }
            }
            let text = if self.json {
                format!(
                    "{}\n",
                    json!({"index": i + 1, "source": source, "status": verdict.word(), "steps": []})
                )
            } else {
                format!(
                    "# puzzle {} ({source}): {}, no steps\n",
                    i + 1,
                    status(&verdict)
                )
            };
            return Done::new(found, text, errors, p.geometry.n);
        };
        let db = FactDb::new(self.engine.program(), &state).with_forcing(&forcing);
        let steps = path::solution_path(&db);
        let mut errors = Vec::new();
        if self.svg.is_some() || self.html.is_some() {
            let pictures: Vec<String> = steps.iter().map(|s| path::picture(&db, s)).collect();
            if let Some(dir) = self.svg {
                for (k, svg) in pictures.iter().enumerate() {
                    let file = dir.join(format!("puzzle{}-step{:03}.svg", i + 1, k + 1));
                    if let Err(e) = std::fs::write(&file, svg) {
                        errors.push(format!("{}: cannot write the picture: {e}", file.display()));
                        break;
                    }
                }
            }
            if let Some(file) = self.html {
                let file = page_file(file, i, self.single);
                let page_steps: Vec<PageStep> = steps
                    .iter()
                    .zip(pictures)
                    .map(|(s, svg)| PageStep {
                        line: path::line(&db, s),
                        words: match s {
                            PathStep::Firing(f) => f.words.clone(),
                            PathStep::Guess(g) => format!("Guess: {}", g.words),
                            PathStep::Forcing(f) => format!("Forcing: {}", f.words),
                        },
                        svg,
                    })
                    .collect();
                let title = format!("sudolog path: puzzle {} ({source})", i + 1);
                if let Err(e) = std::fs::write(&file, page(&title, &page_steps)) {
                    errors.push(format!("{}: cannot write the page: {e}", file.display()));
                }
            }
        }
        let text = if self.json {
            // Each step's rating on Sudoku Explainer's scale, as `grade`
            // rates it (a guess has none).
            let rated = rate(&db, &steps).map(|r| r.steps).unwrap_or_default();
            let list: Vec<_> = steps
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let mut step = path::step_json(&db, k + 1, s);
                    let tenths = rated.get(k).and_then(|r| r.tenths);
                    step["rating"] = tenths.map_or(json!(null), |t| json!(f64::from(t) / 10.0));
                    step
                })
                .collect();
            format!(
                "{}\n",
                json!({"index": i + 1, "source": source, "status": verdict.word(), "steps": list})
            )
        } else {
            let mut text = format!(
                "# puzzle {} ({source}): {}, {} step{}\n",
                i + 1,
                status(&verdict),
                steps.len(),
                if steps.len() == 1 { "" } else { "s" }
            );
            let width = steps.len().to_string().len();
            for (k, s) in steps.iter().enumerate() {
                text.push_str(&format!("{:>width$}. {}\n", k + 1, path::line(&db, s)));
            }
            text
        };
        Done::new(found, text, errors, p.geometry.n)
    }
}

/// The page of puzzle `i`: FILE for the first (or the only one asked
/// for), `NAME-2.html` and on for the others.
fn page_file(file: &Path, i: usize, single: bool) -> PathBuf {
    if single || i == 0 {
        return file.to_path_buf();
    }
    let stem = file
        .file_stem()
        .map_or_else(|| "path".to_string(), |s| s.to_string_lossy().into_owned());
    let ext = file
        .extension()
        .map_or_else(|| "html".to_string(), |e| e.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}-{}.{ext}", i + 1))
}

/// How a solve ended, in the header's words.
fn status(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Solved => "solved".to_string(),
        Verdict::Stalled => "the rules stall (no guessing)".to_string(),
        Verdict::NoSolution => {
            "no solution (every branch ends in a contradiction); the steps before any guess"
                .to_string()
        }
        Verdict::Contradiction => "the rules reach a contradiction: no solution".to_string(),
        Verdict::BranchLimit => "stopped by the branch limit".to_string(),
        Verdict::Timeout => "stopped by the time limit".to_string(),
        Verdict::InvalidResult(why) => format!("the rules produced a wrong grid ({why})"),
        Verdict::FactLimit(rel) => format!("{rel} grew past the fact limit"),
    }
}
