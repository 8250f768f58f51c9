//! `sudolog verify-rules`: run each technique on puzzles with known
//! solutions and report every rule that derived a fact contradicting a
//! solution from facts that agree with it (an unsound rule).

use super::args::ForcingArgs;
use super::outside::OutsideCells;
use super::{
    BatchArgs, EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, FactLimit, RuleArgs, compile,
    forcing_tier_runs, load_program,
};
use crate::batch;
use crate::grid::{Puzzle, PuzzleError, PuzzleReader, read_inputs};
use crate::inspect::verify::{Verification, WrongFact, wrong_facts, wrong_facts_forcing};
use crate::lang::program::Program;
use clap::Args;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Arguments of `verify-rules`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Puzzles with their solutions: each puzzle line followed by its
    /// solution on the same line (`PUZZLE SOLUTION` or `PUZZLE,SOLUTION`),
    /// or solutions given by --solutions.
    #[arg(long, value_name = "FILE")]
    pub against: String,
    /// A file with one solution per puzzle of --against, in the same order.
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<String>,
    /// The fact limit of each run of the rules.
    #[command(flatten)]
    pub facts: FactLimit,
    /// With a forcing depth (`--forcing-depth 1` or 2), one more run per
    /// puzzle checks forcing too: the whole rule set, logic only, with
    /// forcing where it stalls; a wrong fact forcing brought back is
    /// reported as the rule `forcing`. None by default.
    #[command(flatten)]
    pub forcing: ForcingArgs,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set; each of its techniques (or those --techniques names)
    /// is checked with singles, as far as it gets without guessing.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// A puzzle and its solution.
struct Case {
    puzzle: Puzzle,
    solution: Vec<u8>,
}

/// Runs `verify-rules`.
pub fn verify_rules(args: &VerifyArgs) -> io::Result<i32> {
    let Some(program) = load_program(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    if !forcing_tier_runs(&args.forcing, &program) {
        return Ok(EXIT_INVALID);
    }
    let (cases, bad) = read_cases(args, &program);
    for e in &bad {
        errorln!("{e}");
    }
    if !bad.is_empty() {
        return Ok(EXIT_INVALID);
    }
    let mut out = io::stdout().lock();
    // Per rule: its technique, how many wrong facts, and the first one with
    // where it happened.
    let mut found: BTreeMap<String, (String, usize, WrongFact, String)> = BTreeMap::new();
    let runs = technique_sets(&program);
    let jobs = args.batch.threads();
    // One check is one puzzle under one technique run.
    let progress = args.batch.progress("checks");
    let mut outside = OutsideCells::new(&program);
    // Runs cut short (the fact limit) were checked only as far as they got.
    let mut cut = 0usize;
    let mut first_cut: Option<(String, String, String)> = None;
    // Each technique with the singles; then, if asked, the whole set with
    // forcing (`None`).
    let forcing = args.forcing.forcing(0);
    let with_forcing = (forcing.depth > 0).then(|| {
        let all: Vec<String> = program.techniques.iter().map(|t| t.name.clone()).collect();
        (all, true)
    });
    let all_runs: Vec<(Vec<String>, bool)> = (runs.iter())
        .map(|r| (r.clone(), false))
        .chain(with_forcing)
        .collect();
    for (techniques, forced) in &all_runs {
        let mut p = program.clone();
        if let Err(e) = p.restrict_techniques(techniques) {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
        let Some(mut engine) = compile(p) else {
            return Ok(EXIT_INVALID);
        };
        engine.set_fact_limit(args.facts.max_facts);
        let work = |_: usize, case: &Case| {
            let at = format!("{}:{}", case.puzzle.origin.file, case.puzzle.origin.line);
            let side = case.puzzle.geometry.n;
            let checked: Verification = if *forced {
                wrong_facts_forcing(&engine, &case.puzzle, &case.solution, forcing)
            } else {
                wrong_facts(&engine, &case.puzzle, &case.solution)
            };
            (at, side, checked)
        };
        batch::for_each_ordered(cases.iter(), jobs, work, |(at, side, checked)| {
            progress.inc(1);
            outside.puzzle(side, &progress);
            if let Some(grew) = checked.cut {
                cut += 1;
                let run = if *forced {
                    "forcing".to_string()
                } else {
                    techniques.join(", ")
                };
                first_cut.get_or_insert((at.clone(), grew, run));
            }
            for w in checked.wrong {
                let entry = found
                    .entry(w.rule.clone())
                    .or_insert_with(|| (w.technique.clone(), 0, w, at.clone()));
                entry.1 += 1;
            }
            Ok::<(), io::Error>(())
        })?;
    }
    progress.finish_and_clear();
    for (rule, (technique, count, first, at)) in &found {
        writeln!(
            out,
            "unsound: {rule} ({technique}) derived {} at step {} on the puzzle at {at}, but {}; {count} wrong fact{} in all",
            first.fact,
            first.step,
            first.truth,
            if *count == 1 { "" } else { "s" }
        )?;
        for line in first.derivation.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    if let Some((at, grew, techniques)) = &first_cut {
        writeln!(
            out,
            "cut short: {cut} run{} stopped at the fact limit (first: {techniques} on the puzzle at {at}, where {grew} grew); their facts were checked only up to there: raise --max-facts, or fix the rule that grows",
            if cut == 1 { "" } else { "s" }
        )?;
    }
    writeln!(
        out,
        "{} puzzle{} with solutions, {} technique run{}{}: {}",
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        if forcing.depth > 0 {
            format!(" and a run with forcing at depth {}", forcing.depth)
        } else {
            String::new()
        },
        if found.is_empty() && cut > 0 {
            "no rule derived a fact that contradicts a solution before the runs were cut"
                .to_string()
        } else if found.is_empty() && forcing.depth > 0 {
            "no rule, nor forcing, derived a fact that contradicts a solution".to_string()
        } else if found.is_empty() {
            "no rule derived a fact that contradicts a solution".to_string()
        } else {
            format!(
                "{} unsound rule{}",
                found.len(),
                if found.len() == 1 { "" } else { "s" }
            )
        }
    )?;
    Ok(if found.is_empty() && cut == 0 {
        EXIT_OK
    } else {
        EXIT_UNSOLVED
    })
}

/// The technique sets to run: each technique of tier 1 or more with the
/// singles (so it meets the states singles reach), or the whole set if it
/// has no tiered technique. Tier-0 files are part of every run.
fn technique_sets(program: &Program) -> Vec<Vec<String>> {
    let has_singles = program.techniques.iter().any(|t| t.name == "singles");
    let sets: Vec<Vec<String>> = program
        .techniques
        .iter()
        .filter(|t| t.tier > 0)
        .map(|t| {
            let mut set = vec![t.name.clone()];
            if has_singles && t.name != "singles" {
                set.push("singles".to_string());
            }
            set
        })
        .collect();
    if sets.is_empty() {
        vec![program.techniques.iter().map(|t| t.name.clone()).collect()]
    } else {
        sets
    }
}

/// Reads the puzzles and their solutions; the errors say which puzzle
/// lacks a solution or has a wrong one.
fn read_cases(args: &VerifyArgs, program: &Program) -> (Vec<Case>, Vec<String>) {
    let mut cases = Vec::new();
    let mut bad = Vec::new();
    let mut solutions = args
        .solutions
        .as_ref()
        .map(|f| read_inputs(std::slice::from_ref(f)));
    for item in read_inputs(std::slice::from_ref(&args.against)) {
        let given = solutions.as_mut().map(|s| s.next());
        let puzzle = match super::with_clues(program, item) {
            Ok(p) => p,
            Err(e) => {
                bad.push(e.to_string());
                continue;
            }
        };
        let at = format!("{}:{}", puzzle.origin.file, puzzle.origin.line);
        let solution = match given {
            Some(Some(Ok(s))) => Ok(s.cells),
            Some(Some(Err(e))) => Err(e.to_string()),
            Some(None) => Err(format!(
                "{at}: the solutions file has no line for this puzzle; give one solution per puzzle, in order"
            )),
            None => solution_in_label(&puzzle).unwrap_or_else(|| {
                Err(format!(
                    "{at}: no solution after the puzzle; write `PUZZLE SOLUTION` on each line, or pass --solutions FILE"
                ))
            }),
        };
        match solution.and_then(|s| {
            let regions = puzzle.regions.as_deref();
            crate::grid::check_solution_in(&puzzle.geometry, regions, &puzzle.cells, &s)
                .map(|()| s)
                .map_err(|e| format!("{at}: the solution given is wrong: {}", e.message))
        }) {
            Ok(solution) => cases.push(Case { puzzle, solution }),
            Err(e) => bad.push(e),
        }
    }
    (cases, bad)
}

/// The full grid written after the puzzle on its line (the first word of
/// the right length), if there is one.
fn solution_in_label(puzzle: &Puzzle) -> Option<Result<Vec<u8>, String>> {
    let n = puzzle.geometry.n;
    let token = puzzle
        .label
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .find(|t| t.chars().count() == n * n)?;
    let at = format!("{}:{}", puzzle.origin.file, puzzle.origin.line);
    let read: Option<Result<Puzzle, PuzzleError>> =
        PuzzleReader::new(token.as_bytes(), &puzzle.origin.file).next();
    Some(match read {
        Some(Ok(s)) if s.geometry.n == n => Ok(s.cells),
        Some(Err(e)) => Err(format!("{at}: the solution given is wrong: {}", e.message)),
        _ => Err(format!("{at}: the solution given is not a {n}x{n} grid")),
    })
}
