//! The inspection commands: `facts`, `query` and `explain`.

use super::args::puzzle_number;
use super::rules::load_solve_engine;
use super::{EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, Limits, RuleArgs, stderr};
use crate::grid::{Puzzle, read_inputs};
use crate::inspect::db::{Fact, FactDb};
use crate::inspect::eval::Evaluator;
use crate::inspect::explain;
use crate::inspect::export::{Table, TableFormat};
use crate::inspect::path;
use crate::lang::check::check_query;
use crate::lang::program::{Arg, Builtin, Literal, RelId, cell_value};
use crate::lang::value::Type;
use crate::solve::{
    Keeping, Mode, UNIQUENESS_BRANCHES, Uniqueness, Verdict, solve_keeping, uniqueness,
};
use clap::{Args, ValueEnum};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Which puzzle to inspect and how to solve it.
#[derive(Args, Debug, Clone)]
pub struct Target {
    /// The puzzle file ("-" for standard input).
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Which puzzle of the file (1 = the first).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = puzzle_number::<usize>)]
    pub puzzle: usize,
    /// Do not guess: inspect the rules' facts, with forcing where they stall
    /// (`--no-forcing`: the fixpoint alone).
    #[arg(long)]
    pub logic_only: bool,
    /// How far the search may go (as in `solve`).
    #[command(flatten)]
    pub limits: Limits,
    /// The rule set (as in `solve`: tiers up to 2 unless `--max-tier` or
    /// `--techniques` say otherwise).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Arguments of `facts`.
#[derive(Args, Debug)]
pub struct FactsArgs {
    /// The puzzle.
    #[command(flatten)]
    pub target: Target,
    /// Only this relation (`candidate` is the view of open digits); all by default.
    #[arg(long, value_name = "NAME")]
    pub relation: Option<String>,
    /// Only facts derived by this rule (`rules/singles.dl:10`, or a
    /// technique such as `singles`), or that came from `static`, `a
    /// guess`, `the input` (a pencil-mark state) or `forcing`.
    #[arg(long, value_name = "NAME")]
    pub rule: Option<String>,
    /// The facts as they stood after this step.
    #[arg(long, value_name = "STEP")]
    pub at: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: TableFormat,
    /// Write every relation, with provenance, into this SQLite database
    /// (every fact: it takes no selector).
    #[arg(long, value_name = "OUT.db", conflicts_with_all = ["relation", "rule", "at"])]
    pub sqlite: Option<PathBuf>,
}

/// Arguments of `query`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The puzzle.
    #[command(flatten)]
    pub target: Target,
    /// A rule body, e.g. 'candidate(C, 5), in_unit(C, U), unit_kind(U, "box")'.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// Ask about the facts as they stood after this step.
    #[arg(long, value_name = "STEP")]
    pub at: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: TableFormat,
}

/// Output formats of `explain`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExplainFormat {
    /// An indented tree.
    #[default]
    Text,
    /// The tree as JSON.
    Json,
}

/// Arguments of `explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The puzzle.
    #[command(flatten)]
    pub target: Target,
    /// A cell (`r5c3`: why it holds its digit, or why its candidates went)
    /// or a fact (`'eliminated(r5c3, 4)'`).
    #[arg(value_name = "WHAT")]
    pub what: String,
    /// Expand at most this many levels.
    #[arg(long, default_value_t = usize::MAX, hide_default_value = true, value_name = "N")]
    pub depth: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: ExplainFormat,
    /// Also draw the step that concluded the fact (a placement or an
    /// elimination) as a picture, into FILE (SVG).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Loads the rules, reads the puzzle, solves it, and hands the fact
/// snapshot to `f`. Errors are printed; the exit code is returned.
fn with_facts(
    target: &Target,
    f: impl FnOnce(&FactDb, &Puzzle) -> io::Result<i32>,
) -> io::Result<i32> {
    // The solve `solve` would run: its default tiers and limits.
    let Some(engine) = load_solve_engine(&target.rules, &target.limits) else {
        return Ok(EXIT_INVALID);
    };
    let index = target.puzzle;
    let item = read_inputs(std::slice::from_ref(&target.file)).nth(index - 1);
    let puzzle = match item.map(|item| super::with_clues(engine.program(), item)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
        None => {
            errorln!(
                "{} has no puzzle number {index}; count the puzzles in the file or pass a smaller --puzzle",
                target.file
            );
            return Ok(EXIT_INVALID);
        }
    };
    // Said before the solve, as `solve` says it before the results.
    super::outside::OutsideCells::new(engine.program())
        .puzzle(puzzle.geometry.n, &indicatif::ProgressBar::hidden());
    let mode = if target.logic_only {
        Mode::LogicOnly
    } else {
        Mode::First
    };
    let options = target.limits.search(mode, false);
    // A hard puzzle or a heavy rule set can take a while: say so, and
    // hold the notes until the spinner is gone.
    let spinner =
        super::progress::Spinner::after_delay(format!("solving {} (puzzle {index})", target.file));
    let (searched, kept) = solve_keeping(&engine, &puzzle, &options, Keeping::Forks);
    // Facts of a puzzle that is no proper Sudoku mislead unless said so:
    // count its solutions up to two.
    let unique = uniqueness(&engine, &puzzle, UNIQUENESS_BRANCHES);
    drop(spinner);
    let (kept, forcing) = match kept {
        Some(k) => (k, searched.forcing),
        // No solution and no stall to show: inspect the rules' own fixpoint.
        None => {
            let logic = target.limits.search(Mode::LogicOnly, false);
            match solve_keeping(&engine, &puzzle, &logic, Keeping::Forks) {
                (r, Some(k)) => (k, r.forcing),
                (r, None) => {
                    let why = match r.verdict {
                        Verdict::FactLimit(grew) => format!(
                            "{grew} grew past the fact limit (a rule derives without end, \
                             or the rule set is too heavy for this grid: try --max-tier)"
                        ),
                        Verdict::InvalidResult(wrong) => {
                            format!("the rules produced a wrong grid ({wrong})")
                        }
                        Verdict::Timeout => "the time limit (--timeout) passed before the \
                             rules reached their fixpoint; raise it"
                            .to_string(),
                        Verdict::BranchLimit => "the branch limit (--max-branches) stopped the \
                             search before the rules reached a state (forcing's forks count as \
                             branches); raise it, or add --no-forcing"
                            .to_string(),
                        _ => "the rules stopped before reaching a state".to_string(),
                    };
                    errorln!("{}: nothing to inspect for this puzzle: {why}", target.file);
                    return Ok(EXIT_UNSOLVED);
                }
            }
        }
    };
    // What the facts are, said only when there are facts to show.
    if let Some(why) = limit_note(&searched.verdict) {
        noteln!(
            "{} (puzzle {index}): the search was {why}: the facts are those of the rules' \
             fixpoint before any guess",
            target.file
        );
    }
    match unique {
        Uniqueness::NoSolution => noteln!(
            "{} (puzzle {index}) has no solution: the facts are those the rules reach before the contradiction",
            target.file
        ),
        Uniqueness::Several => noteln!(
            "{} (puzzle {index}) has several solutions: the facts are those of the first one found",
            target.file
        ),
        Uniqueness::Unique | Uniqueness::Unknown => {}
    }
    let db = FactDb::new(engine.program(), &kept.solve)
        .with_forcing(&forcing)
        .with_forks(kept.forks);
    f(&db, &puzzle)
}

/// Why a search stopped before it was done, if a limit stopped it.
fn limit_note(verdict: &Verdict) -> Option<&'static str> {
    match verdict {
        Verdict::Timeout => Some("stopped by the time limit (--timeout)"),
        Verdict::BranchLimit => Some("stopped by the branch limit (--max-branches)"),
        _ => None,
    }
}

/// The relation named `name` (or the `candidate` view).
fn relation_id(db: &FactDb, name: &str) -> Option<RelId> {
    if name == "candidate" {
        return Some(db.candidate_rel());
    }
    db.program.relation(name)
}

/// Whether `--rule NAME` can select anything: a rule's `file:line`, a
/// technique, or the origins of facts no rule derived.
fn names_a_rule(db: &FactDb, name: &str) -> bool {
    matches!(name, "static" | "a guess" | "the input" | "forcing")
        || db
            .program
            .rules
            .iter()
            .any(|r| r.name == name || r.technique == name)
}

/// A relation's facts as a table, filtered by rule and step.
pub fn facts_table(db: &FactDb, rel: RelId, rule: Option<&str>, at: Option<u32>) -> Table {
    let types = db.rel_types(rel);
    let names: Vec<String> = match db.program.relations.get(rel) {
        Some(r) => r.columns.iter().map(|c| c.0.clone()).collect(),
        None => vec!["c".into(), "d".into()],
    };
    // The candidate view lists digits still open: no rule derived them, so
    // it has no provenance columns (and no row comes from a rule).
    let view = rel == db.candidate_rel();
    let facts: Vec<Fact> = if view {
        db.candidate_facts(at.unwrap_or(u32::MAX))
    } else {
        db.rel(rel).facts.clone()
    };
    let numbers = types
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(**t, Type::Number | Type::Set));
    let mut table = Table {
        columns: names,
        rows: Vec::new(),
        data_columns: types.len(),
        // The data's numbers, then `step` and `branch`.
        numeric: numbers
            .map(|(i, _)| i)
            .chain([types.len() + 1, types.len() + 2])
            .collect(),
    };
    if view {
        table.numeric.retain(|&i| i < types.len());
    } else {
        table
            .columns
            .extend(["rule", "step", "branch"].map(String::from));
    }
    for f in facts {
        if at.is_some_and(|s| f.step() > s) || (view && rule.is_some()) {
            continue;
        }
        let origin = db.origin_name(&f);
        if let Some(r) = rule {
            let technique = f
                .origin
                .and_then(|o| db.program.rules.get(o.rule as usize))
                .map(|r| r.technique.as_str());
            if origin != r && technique != Some(r) {
                continue;
            }
        }
        let mut row: Vec<String> = f
            .values
            .iter()
            .zip(&types)
            .map(|(v, t)| db.show(*t, *v))
            .collect();
        if view {
            table.rows.push(row);
            continue;
        }
        row.push(origin);
        row.push(f.origin.map_or(String::new(), |o| o.step.to_string()));
        row.push(
            f.origin
                .map_or(String::new(), |o| db.branch_depth(o.step).to_string()),
        );
        table.rows.push(row);
    }
    table
}

/// `sudolog facts`.
pub fn facts(args: &FactsArgs) -> io::Result<i32> {
    with_facts(&args.target, |db, puzzle| {
        if let Some(path) = &args.sqlite {
            return match crate::inspect::sqlite::export(db, puzzle, path) {
                Ok(n) => {
                    noteln!("wrote {n} facts to {}", path.display());
                    Ok(EXIT_OK)
                }
                Err(e) => {
                    errorln!("cannot write {}: {e}", path.display());
                    Ok(EXIT_INVALID)
                }
            };
        }
        if let Some(rule) = &args.rule
            && !names_a_rule(db, rule)
        {
            let techniques: Vec<&str> = db
                .program
                .techniques
                .iter()
                .map(|t| t.name.as_str())
                .collect();
            let names = db
                .program
                .rules
                .iter()
                .map(|r| r.name.as_str())
                .chain(techniques.iter().copied());
            errorln!(
                "no rule or technique `{rule}` in the rule set{}; name a technique ({}), a rule \
                 as `file:line` (`sudolog check` lists them), `static`, `a guess`, `the input` \
                 or `forcing`",
                crate::lang::suggest::did_you_mean(rule, names),
                techniques.join(", ")
            );
            return Ok(EXIT_INVALID);
        }
        let rels: Vec<RelId> = match &args.relation {
            Some(name) => match relation_id(db, name) {
                Some(r) => vec![r],
                None => {
                    let names = db
                        .program
                        .relations
                        .iter()
                        .map(|r| r.name.as_str())
                        .chain(["candidate"]);
                    errorln!(
                        "no relation `{name}` in the rule set{}; `sudolog check` lists them (and `candidate` is the view of open digits)",
                        crate::lang::suggest::did_you_mean(name, names)
                    );
                    return Ok(EXIT_INVALID);
                }
            },
            None => (0..=db.program.relations.len()).collect(),
        };
        let mut out = io::stdout().lock();
        for rel in rels {
            let table = facts_table(db, rel, args.rule.as_deref(), args.at);
            if args.relation.is_none() {
                if args.format == TableFormat::Json {
                    // JSON rows carry their relation instead of a header.
                    for line in table.render(args.format).lines() {
                        let mut v: serde_json::Value =
                            serde_json::from_str(line).unwrap_or_default();
                        v["relation"] = db.rel_name(rel).into();
                        writeln!(out, "{v}")?;
                    }
                    continue;
                }
                if table.rows.is_empty() {
                    continue;
                }
                writeln!(out, "# {} ({} facts)", db.rel_name(rel), table.rows.len())?;
            }
            out.write_all(table.render(args.format).as_bytes())?;
        }
        Ok(EXIT_OK)
    })
}

/// `sudolog query`.
pub fn query(args: &QueryArgs) -> io::Result<i32> {
    with_facts(&args.target, |db, _| {
        let q = match check_query(db.program, &args.query) {
            Ok(q) => q,
            Err(d) => {
                stderr::diagnostics(&d);
                return Ok(EXIT_INVALID);
            }
        };
        let before = args.at.map_or(u32::MAX, |s| s.saturating_add(1));
        let matches =
            Evaluator::new(db, before).matches(&q.body, vec![None; q.var_names.len()], usize::MAX);
        let mut rows: Vec<Vec<String>> = matches
            .iter()
            .map(|m| {
                q.outputs
                    .iter()
                    .map(|&v| m.values[v].map_or(String::new(), |x| db.show(q.var_types[v], x)))
                    .collect()
            })
            .collect();
        rows.sort();
        rows.dedup();
        let table = Table {
            columns: q.outputs.iter().map(|&v| q.var_names[v].clone()).collect(),
            data_columns: q.outputs.len(),
            numeric: (0..q.outputs.len())
                .filter(|&i| matches!(q.var_types[q.outputs[i]], Type::Number | Type::Set))
                .collect(),
            rows,
        };
        // A query without variables (`placed(r1c1, 4)`) asks whether it
        // holds: its one row has no columns, which a table shows as blank
        // lines; say it in a word instead.
        let text = match (q.outputs.is_empty(), args.format) {
            (true, TableFormat::Table | TableFormat::Csv | TableFormat::Tsv) => {
                format!("{}\n", !table.rows.is_empty())
            }
            _ => table.render(args.format),
        };
        io::stdout().lock().write_all(text.as_bytes())?;
        Ok(if table.rows.is_empty() {
            EXIT_UNSOLVED
        } else {
            EXIT_OK
        })
    })
}

/// `sudolog explain`.
pub fn explain_command(args: &ExplainArgs) -> io::Result<i32> {
    with_facts(&args.target, |db, _| {
        let g = db.geometry;
        let mut targets: Vec<(RelId, Vec<i32>)> = Vec::new();
        if let Some(cell) = g.parse_cell_name(args.what.trim()) {
            let v = cell_value(cell / g.n, cell % g.n);
            let placed = db.program.builtin(Builtin::Placed);
            let eliminated = db.program.builtin(Builtin::Eliminated);
            match db.rel(placed).with_first(v).next() {
                Some(f) => targets.push((placed, f.values.to_vec())),
                // An open cell: why each digit left it.
                None => targets.extend(
                    db.rel(eliminated)
                        .with_first(v)
                        .map(|f| (eliminated, f.values.to_vec())),
                ),
            }
        } else if crate::grid::cell_name_coords(args.what.trim()).is_some() {
            errorln!("{}", not_a_cell(&format!("`{}`", args.what.trim()), db));
            return Ok(EXIT_INVALID);
        } else {
            let q = match check_query(db.program, &args.what) {
                Ok(q) => q,
                Err(d) => {
                    stderr::diagnostics(&d);
                    return Ok(EXIT_INVALID);
                }
            };
            match q.body.as_slice() {
                [Literal::Atom(a)] if a.args.iter().all(|x| matches!(x, Arg::Const(_))) => {
                    let values: Vec<i32> = a
                        .args
                        .iter()
                        .map(|x| match x {
                            Arg::Const(c) => *c,
                            _ => 0,
                        })
                        .collect();
                    if let Some(problem) = off_the_grid(db, a.rel, &values) {
                        errorln!("{problem}");
                        return Ok(EXIT_INVALID);
                    }
                    targets.push((a.rel, values));
                }
                _ => {
                    errorln!(
                        "explain takes a cell such as r5c3 or one fact with constant arguments, such as 'eliminated(r5c3, 4)'"
                    );
                    return Ok(EXIT_INVALID);
                }
            }
        }
        if let Some(file) = &args.svg
            && let Err(e) = write_step_picture(db, &targets, file)
        {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
        let trees: Vec<explain::Node> = targets
            .iter()
            .map(|(rel, values)| explain::explain(db, *rel, values, args.depth))
            .collect();
        let unknown = trees.iter().any(|t| t.kind == explain::NodeKind::Unknown);
        let mut out = io::stdout().lock();
        match args.format {
            // The guesses once, above every tree that depends on them.
            ExplainFormat::Text => {
                let depth = trees.iter().map(explain::depth_used).max().unwrap_or(0);
                out.write_all(explain::render_guesses(db, depth).as_bytes())?;
                for tree in &trees {
                    out.write_all(explain::render(tree).as_bytes())?;
                }
            }
            ExplainFormat::Json => {
                for tree in &trees {
                    let mut json = explain::to_json(tree);
                    json["guesses"] = explain::guesses_json(db, explain::depth_used(tree));
                    writeln!(out, "{json}")?;
                }
            }
        }
        Ok(if unknown { EXIT_UNSOLVED } else { EXIT_OK })
    })
}

/// Why the cell `name` (as the message shows it) is not one of this grid's.
fn not_a_cell(name: &str, db: &FactDb) -> String {
    format!(
        "{name} is not a cell of this {} grid: rows and columns run from 1 to {}",
        db.geometry.label(),
        db.geometry.n
    )
}

/// What makes a fact of `rel` with `values` one that no grid of this size
/// can hold: a cell outside it or a digit beyond its last (for `explain`,
/// which would otherwise only say that no solve derived it).
fn off_the_grid(db: &FactDb, rel: RelId, values: &[i32]) -> Option<String> {
    let n = db.geometry.n;
    db.rel_types(rel)
        .iter()
        .zip(values)
        .find_map(|(t, &v)| match t {
            Type::Cell if db.cell_index(v).is_none() => {
                Some(not_a_cell(&crate::lang::value::cell_name(v), db))
            }
            Type::Digit if !(1..=n as i32).contains(&v) => Some(format!(
                "{v} is not a digit of this {} grid: digits run from 1 to {n}",
                db.geometry.label()
            )),
            _ => None,
        })
}

/// Draws the step that concluded the one placement or elimination of
/// `targets` into `file`.
fn write_step_picture(
    db: &FactDb,
    targets: &[(RelId, Vec<i32>)],
    file: &Path,
) -> Result<(), String> {
    let [(rel, values)] = targets else {
        return Err(
            "--svg draws the step of one fact, and this cell has several: name one, such as 'eliminated(r5c3, 4)'"
                .to_string(),
        );
    };
    let placed = *rel == db.program.builtin(Builtin::Placed);
    if !placed && *rel != db.program.builtin(Builtin::Eliminated) {
        return Err(format!(
            "--svg draws the step of a placement or an elimination, and {} is neither",
            db.show_fact(*rel, values)
        ));
    }
    let Some(step) = path::step_of(db, placed, values) else {
        return Err(format!(
            "{} was concluded by no step to draw: it is a given, the input's, or not a fact of this solve",
            db.show_fact(*rel, values)
        ));
    };
    std::fs::write(file, path::picture(db, &step))
        .map_err(|e| format!("{}: cannot write the picture: {e}", file.display()))
}
