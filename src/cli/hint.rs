//! `sudolog hint`: one step, as a player asks for it. For each puzzle (or
//! pencil-mark state) of the files, the easiest technique that applies and
//! every placement and elimination it makes, in the usual notation and in
//! the rule's words. The hint itself is `solve::Hinter`.

use super::args::{ForcingArgs, parse_seconds};
use super::outside::OutsideCells;
use super::per_puzzle::{Found, invalid, picture_folder, puzzle_missing};
use super::rules::compile;
use super::{
    BatchArgs, EXIT_INVALID, FactLimit, RuleArgs, chosen_puzzles, forcing_tier_runs, load_program,
    stderr,
};
use crate::batch;
use crate::engine::Status;
use crate::grid::{Geometry, Puzzle, PuzzleError};
use crate::inspect::db::FactDb;
use crate::inspect::explain::{self, NodeKind};
use crate::inspect::firing::{Conclusion, Derived};
use crate::inspect::path::{self, ForcingPathStep, PathStep};
use crate::inspect::trace::forcing_words;
use crate::lang::value::cell_value;
use crate::solve::{
    ForkEnd, Hint, HintFact, Hinter, HinterError, Hypothesis, Step, Stop, forcing_step,
};
use clap::Args;
use serde_json::{Value as Json, json};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    /// Puzzle or pencil-mark files ("-" for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Only this puzzle of the input (1 = the first).
    #[arg(long, value_name = "N", value_parser = super::args::puzzle_number::<u64>)]
    pub puzzle: Option<u64>,
    /// Ask for these techniques only (file stems such as `fish`,
    /// comma-separated): the easiest of them that applies.
    #[arg(long, value_name = "T", value_delimiter = ',')]
    pub technique: Option<Vec<String>>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: HintFormat,
    /// Write a picture of each step into DIR (created if missing), one per
    /// instance of the pattern: `puzzle1-hint1.svg`, ...
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// The fact limit of each run of the rules.
    #[command(flatten)]
    pub facts: FactLimit,
    /// Forcing where no technique applies (at depth 1 unless told).
    #[command(flatten)]
    pub forcing: ForcingArgs,
    /// Stop looking for a puzzle's forcing step after SECS seconds
    /// (fractions allowed): the hint then says so.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set (every tier unless `--max-tier` or `--techniques` say
    /// otherwise).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Output formats of `hint`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HintFormat {
    /// A line naming the technique, then one line per placement or
    /// elimination: the notation, then the rule's words.
    #[default]
    Text,
    /// One JSON object per puzzle, one per line.
    Json,
}

/// Runs `hint`.
pub fn hint_command(args: &HintArgs) -> io::Result<i32> {
    let Some(program) = load_program(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    if !forcing_tier_runs(&args.forcing, &program) {
        return Ok(EXIT_INVALID);
    }
    let hinter = match Hinter::new(&program, args.technique.as_deref(), args.facts.max_facts) {
        Ok(h) => h,
        Err(HinterError::Rules(e)) => {
            stderr::rules_error(&e);
            return Ok(EXIT_INVALID);
        }
        Err(HinterError::Compile(d)) => {
            stderr::diagnostics(&d);
            return Ok(EXIT_INVALID);
        }
    };
    if !picture_folder(args.svg.as_deref()) {
        return Ok(EXIT_INVALID);
    }
    // Where no technique applies, a hypothesis may: forcing runs every
    // technique of the rule set in one engine.
    let forcing = args.forcing.forcing(1);
    let forcing_engine = if forcing.depth > 0 {
        let Some(mut engine) = compile(program.clone()) else {
            return Ok(EXIT_INVALID);
        };
        engine.set_fact_limit(args.facts.max_facts);
        Some(engine)
    } else {
        None
    };
    let json = args.format == HintFormat::Json;
    let work = |_, (i, item): (usize, Result<Puzzle, PuzzleError>)| match super::with_clues(
        &program, item,
    ) {
        Err(e) => (
            Found::Invalid,
            invalid(i, &e, json),
            None,
            Some(e.to_string()),
        ),
        Ok(p) => {
            let n = p.geometry.n;
            let hint = hinter.hint(&p);
            let deadline = args.timeout.map(|t| Instant::now() + t);
            let forced = match (&hint, &forcing_engine) {
                (Hint::Stuck, Some(engine)) => forcing_step(engine, &p, forcing, deadline),
                _ => Ok(None),
            };
            if matches!(forced, Err(Stop::Timeout)) {
                let text = render(i, &p, &Hint::Stopped(Status::Timeout), json).1;
                return (Found::No, text, Some(n), None);
            }
            if let (Ok(Some((solve, step))), Some(engine)) = (forced, &forcing_engine) {
                let db = FactDb::new(engine.program(), &solve);
                let shown = ForcingPathStep {
                    step: db.last_step + 1,
                    words: forcing_words(&step, &p.geometry),
                    forcing: step,
                };
                let text = render_forcing(i, &p, &shown, json);
                let mut error = None;
                if let Some(dir) = &args.svg {
                    let file = dir.join(format!("puzzle{}-hint1.svg", i + 1));
                    let svg = path::picture(&db, &PathStep::Forcing(shown));
                    if let Err(e) = std::fs::write(&file, svg) {
                        error = Some(format!("{}: cannot write the picture: {e}", file.display()));
                    }
                }
                let found = if error.is_some() {
                    Found::Invalid
                } else {
                    Found::Yes
                };
                return (found, text, Some(n), error);
            }
            let (mut found, text) = render(i, &p, &hint, json);
            let mut error = None;
            if let (Some(dir), Hint::Step(step)) = (&args.svg, &hint)
                && let Err(e) = write_pictures(step, dir, i)
            {
                found = Found::Invalid;
                error = Some(e);
            }
            (found, text, Some(n), error)
        }
    };
    let inputs = chosen_puzzles(&args.files, args.puzzle);
    let progress = args.batch.progress("puzzles");
    let mut outside = OutsideCells::new(&program);
    let mut out = io::stdout().lock();
    let (mut seen, mut worst) = (0, Found::Yes);
    batch::for_each_ordered(
        inputs,
        args.batch.threads(),
        work,
        |(found, text, n, error)| {
            progress.inc(1);
            if let Some(e) = error {
                progress.suspend(|| errorln!("{e}"));
            }
            seen += 1;
            worst = worst.max(found);
            if let Some(n) = n {
                outside.puzzle(n, &progress);
            }
            out.write_all(text.as_bytes())
        },
    )?;
    progress.finish_and_clear();
    if puzzle_missing(args.puzzle, seen) {
        return Ok(EXIT_INVALID);
    }
    Ok(worst.exit_code())
}

/// What a step makes, as its header says: `1 placement, 3 eliminations`.
fn made_text(placements: usize, eliminations: usize) -> String {
    let counted = |k: usize, what: &str| match k {
        0 => None,
        1 => Some(format!("1 {what}")),
        _ => Some(format!("{k} {what}s")),
    };
    let made: Vec<String> = [
        counted(placements, "placement"),
        counted(eliminations, "elimination"),
    ]
    .into_iter()
    .flatten()
    .collect();
    made.join(", ")
}

/// A forcing step as a hint, as text or a JSON line: the hypothesis as the
/// step's name, and each placement or elimination with the step's words.
fn render_forcing(i: usize, p: &Puzzle, shown: &ForcingPathStep, json: bool) -> String {
    let source = format!("{}:{}", p.origin.file, p.origin.line);
    let g = p.geometry;
    let f = &shown.forcing;
    let label = match &f.hypothesis {
        Hypothesis::Cell(_) => "Cell forcing",
        Hypothesis::Unit { .. } => "Unit forcing",
    };
    let notation = |&(c, d): &(usize, u8), sign: &str| {
        format!("{}{sign}{}", g.cell_name(c), g.digit_symbol(d))
    };
    if json {
        let list = |pairs: &[(usize, u8)], sign: &str| -> Vec<Json> {
            (pairs.iter())
                .map(|pair| {
                    json!({
                        "cell": g.cell_name(pair.0),
                        "digit": pair.1,
                        "notation": notation(pair, sign),
                        "words": shown.words,
                    })
                })
                .collect()
        };
        let forks: Vec<Json> = (f.forks.iter())
            .map(|k| {
                json!({
                    "cell": g.cell_name(k.cell),
                    "digit": k.digit,
                    "contradicts": matches!(k.end, ForkEnd::Contradiction(_)),
                })
            })
            .collect();
        let value = json!({
            "index": i + 1,
            "source": source,
            "status": "step",
            "technique": "forcing",
            "depth": f.depth,
            "names": [label],
            "forks": forks,
            "placements": list(&f.placed, "="),
            "eliminations": list(&f.eliminated, "<>"),
        });
        return format!("{value}\n");
    }
    let mut text = format!(
        "# puzzle {} ({source}): forcing (depth {}: {label}): {}\n",
        i + 1,
        f.depth,
        made_text(f.placed.len(), f.eliminated.len())
    );
    let lines: Vec<String> = (f.placed.iter().map(|pair| notation(pair, "=")))
        .chain(f.eliminated.iter().map(|pair| notation(pair, "<>")))
        .collect();
    let width = lines.iter().map(String::len).max().unwrap_or(0);
    for line in &lines {
        text.push_str(&format!("{line:<width$}  {}\n", shown.words));
    }
    text
}

/// One puzzle's hint as text or a JSON line, and whether a step was found
/// (or the grid is full).
fn render(i: usize, p: &Puzzle, hint: &Hint, json: bool) -> (Found, String) {
    let source = format!("{}:{}", p.origin.file, p.origin.line);
    let g = p.geometry;
    let (status, found, summary) = match hint {
        Hint::Step(_) => ("step", Found::Yes, String::new()),
        Hint::Solved => (
            "solved",
            Found::Yes,
            "every cell holds a digit already".to_string(),
        ),
        Hint::Stuck => (
            "stuck",
            Found::No,
            "no technique of the rule set applies here: guessing (or a technique the \
             library lacks) goes on"
                .to_string(),
        ),
        Hint::Contradiction(reasons) => (
            "contradiction",
            Found::No,
            format!("the state is impossible: {}", reasons_text(reasons, g)),
        ),
        Hint::Stopped(status) => ("stopped", Found::No, stopped_text(status)),
    };
    let Hint::Step(step) = hint else {
        let text = if json {
            format!(
                "{}\n",
                json!({"index": i + 1, "source": source, "status": status, "message": summary})
            )
        } else {
            format!("# puzzle {} ({source}): {status}: {summary}\n", i + 1)
        };
        return (found, text);
    };
    let facts = worded_facts(step, g);
    let labels = step_labels(step);
    if json {
        let list = |placed: bool| -> Vec<Json> {
            (facts.iter().filter(|f| f.fact.placed == placed))
                .map(|f| {
                    json!({
                        "cell": g.cell_name(f.fact.cell),
                        "digit": f.fact.digit,
                        "notation": f.notation,
                        "rule": f.rule,
                        "words": f.words,
                        "because": f.because,
                        "step": f.fact.step,
                    })
                })
                .collect()
        };
        let value = json!({
            "index": i + 1,
            "source": source,
            "status": status,
            "technique": step.technique,
            "tier": step.tier,
            "names": labels,
            "placements": list(true),
            "eliminations": list(false),
        });
        return (found, format!("{value}\n"));
    }
    let placements = facts.iter().filter(|f| f.fact.placed).count();
    let mut text = format!(
        "# puzzle {} ({source}): {} (tier {}: {}): {}\n",
        i + 1,
        step.technique,
        step.tier,
        labels.join(", "),
        made_text(placements, facts.len() - placements)
    );
    let width = facts.iter().map(|f| f.notation.len()).max().unwrap_or(0);
    for f in &facts {
        text.push_str(&format!("{:<width$}  {}\n", f.notation, f.words));
    }
    (found, text)
}

/// Writes a picture of each instance of the step's pattern (the step's
/// facts split as `path` splits a technique's firing) into `dir`.
fn write_pictures(step: &Step, dir: &Path, i: usize) -> Result<(), String> {
    let program = step.solve.engine().program();
    let db = FactDb::new(program, &step.solve);
    let g = db.geometry;
    let facts: Vec<(u32, usize, Derived)> = step
        .facts
        .iter()
        .map(|f| {
            let rel = if f.placed {
                step.relations.0
            } else {
                step.relations.1
            };
            let values = [cell_value(f.cell / g.n, f.cell % g.n), i32::from(f.digit)];
            let conclusion = Conclusion {
                placed: f.placed,
                cell: f.cell,
                digit: f.digit,
            };
            (
                f.step,
                f.rule,
                Derived {
                    rel,
                    values: values.into_iter().collect(),
                    conclusion,
                },
            )
        })
        .collect();
    for (k, firing) in path::split(&db, facts).into_iter().enumerate() {
        let file = dir.join(format!("puzzle{}-hint{}.svg", i + 1, k + 1));
        std::fs::write(&file, path::picture(&db, &PathStep::Firing(firing)))
            .map_err(|e| format!("{}: cannot write the picture: {e}", file.display()))?;
    }
    Ok(())
}

/// A fact of a step with its words.
struct WordedFact {
    fact: HintFact,
    /// `r5c7=2` or `r3c6<>4`.
    notation: String,
    /// The rule's comment with its variables filled in.
    words: String,
    /// The rule's `file:line`.
    rule: String,
    /// The facts it was derived from.
    because: Vec<String>,
}

fn worded_facts(step: &Step, g: Geometry) -> Vec<WordedFact> {
    let program = step.solve.engine().program();
    let db = FactDb::new(program, &step.solve);
    step.facts
        .iter()
        .map(|&fact| {
            let rel = if fact.placed {
                step.relations.0
            } else {
                step.relations.1
            };
            let (row, col) = (fact.cell / g.n, fact.cell % g.n);
            let values = [cell_value(row, col), i32::from(fact.digit)];
            let node = explain::explain(&db, rel, &values, 1);
            let (words, rule) = match &node.kind {
                NodeKind::Derived { words, rule, .. } => (words.clone(), rule.clone()),
                _ => (String::new(), String::new()),
            };
            let sign = if fact.placed { "=" } else { "<>" };
            WordedFact {
                fact,
                notation: format!(
                    "{}{sign}{}",
                    g.cell_name(fact.cell),
                    g.digit_symbol(fact.digit)
                ),
                words,
                rule,
                because: node.children.iter().map(|c| c.fact.clone()).collect(),
            }
        })
        .collect()
}

/// The names of the rules that made a step (`Naked single`, `XY-wing`),
/// each once, in the order they first fired; the technique's name where a
/// rule's comment names none.
fn step_labels(step: &Step) -> Vec<String> {
    let program = step.solve.engine().program();
    let mut labels: Vec<String> = Vec::new();
    for f in &step.facts {
        let label = program
            .rules
            .get(f.rule)
            .and_then(|r| r.label())
            .unwrap_or(step.technique)
            .to_string();
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    labels
}

fn reasons_text(reasons: &[(String, Option<usize>)], g: Geometry) -> String {
    if reasons.is_empty() {
        return "two digits were placed in one cell".to_string();
    }
    let mut parts: Vec<String> = reasons
        .iter()
        .map(|(why, cell)| match cell {
            Some(c) => format!("{why} at {}", g.cell_name(*c)),
            None => why.clone(),
        })
        .collect();
    parts.sort();
    parts.dedup();
    parts.join("; ")
}

fn stopped_text(status: &Status) -> String {
    match status {
        Status::FactLimit(rel) => format!(
            "a technique stored more facts than --max-facts allows (mostly {rel}): raise it, or ask for another --technique"
        ),
        Status::Timeout => "no technique applies, and forcing found no step before the time \
             limit (--timeout): raise it, or lower --forcing-depth"
            .to_string(),
        _ => "stopped".to_string(),
    }
}
