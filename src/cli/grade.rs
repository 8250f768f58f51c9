//! `sudolog grade`: how hard each puzzle is for the rule library.

use super::args::ForcingArgs;
use super::outside::OutsideCells;
use super::per_puzzle::puzzle_missing;
use super::{
    BatchArgs, EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, ProfileArg, RuleArgs, SOLVE_DEFAULT_MAX_TIER,
    chosen_puzzles, forcing_tier_runs, load_engine,
};
use crate::batch;
use crate::grid::{Puzzle, PuzzleError};
use crate::inspect::db::FactDb;
use crate::inspect::path::{self, solution_path};
use crate::inspect::rating::{Rating, rate, rate_facts};
use crate::lang::program::Program;
use crate::solve::{Grade, Graded, Keeping, SolutionCount, grade};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Arguments of `grade`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Puzzle files ("-" for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Only this puzzle of the input (1 = the first); it keeps its number,
    /// and `--compare` reads the rating on its line.
    #[arg(long, value_name = "N", value_parser = super::args::puzzle_number::<u64>)]
    pub puzzle: Option<u64>,
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
    /// Compare the ratings with those of FILE, one per line for the
    /// puzzles in input order (Sudoku Explainer's `7.2` or `7.2/1.5/1.2`;
    /// a blank line skips its puzzle): the rank correlation and the
    /// share in the same band, after the summary.
    #[arg(long, value_name = "FILE")]
    pub compare: Option<String>,
    /// With `--compare`: draw sudolog's ratings against those of FILE
    /// into OUT (an SVG), a disc per pair of ratings, its area the number
    /// of puzzles.
    #[arg(long, value_name = "OUT", requires = "compare")]
    pub plot: Option<String>,
}

/// The deepest forcing `grade` tries unless told: a puzzle its rules
/// leave stalled is graded by the level of hypotheses it needs.
pub(super) const GRADE_FORCING_DEPTH: u32 = 2;

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
    if !forcing_tier_runs(&args.forcing, engine.program()) {
        return Ok(EXIT_INVALID);
    }
    // Where a count of solutions is needed, `solve`'s tiers count it
    // faster than the whole library (any sound rules count alike).
    let Some(counter) = load_engine(&args.rules.with_default_max_tier(SOLVE_DEFAULT_MAX_TIER))
    else {
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
    let theirs = match args.compare.as_deref().map(read_ratings).transpose() {
        Ok(t) => t,
        Err(e) => {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
    };
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut bands: BTreeMap<usize, usize> = BTreeMap::new();
    let work =
        |_, (i, item): (usize, Result<Puzzle, PuzzleError>)| match super::with_clues(program, item)
        {
            Err(e) => (i, Err(e)),
            Ok(p) => {
                let graded = grade(
                    &engine,
                    &p,
                    forcing,
                    Keeping::State,
                    SolutionCount::CountWith(&counter),
                );
                let rated = rate_path(program, &graded, json);
                (i, Ok((p, graded.grade, rated)))
            }
        };
    let progress = args.batch.progress("puzzles");
    let mut outside = OutsideCells::new(program);
    let mut seen = 0;
    batch::for_each_ordered(
        chosen_puzzles(&args.files, args.puzzle),
        args.batch.threads(),
        work,
        |(i, r)| {
            progress.inc(1);
            seen += 1;
            match r {
                Err(e) => {
                    invalid += 1;
                    // Said on standard error too, as `solve` does: a
                    // result line alone is lost when the output is piped.
                    progress.suspend(|| errorln!("{e}"));
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
                    rated,
                )) => {
                    outside.puzzle(p.geometry.n, &progress);
                    ungraded += usize::from(!graded);
                    *summary.entry(g.clone()).or_default() += 1;
                    for (t, n) in &by {
                        let e = fired.entry(t.clone()).or_default();
                        e.0 += 1;
                        e.1 += n;
                    }
                    if let Some((r, _)) = &rated {
                        *bands.entry(band(r.rating)).or_default() += 1;
                        if let Some(Some(t)) = theirs.as_ref().and_then(|t| t.get(i)) {
                            pairs.push((r.rating, *t));
                        }
                    }
                    if json {
                        let mut object = serde_json::json!({
                            "index": i + 1, "file": p.origin.file, "line": p.origin.line,
                            "grade": g, "firings": by,
                        });
                        if let Some((r, lines)) = &rated {
                            object["rating"] = rating_json(r.rating);
                            object["pearl"] = rating_json(r.pearl);
                            object["diamond"] = rating_json(r.diamond);
                            object["hardest"] = r.hardest.clone().into();
                            object["steps"] = (r.steps.iter().zip(lines))
                                .map(|(s, line)| {
                                    serde_json::json!({
                                        "technique": s.technique,
                                        "rating": s.tenths.map_or(serde_json::Value::Null, rating_json),
                                        "line": line,
                                    })
                                })
                                .collect();
                        }
                        writeln!(out, "{object}")?;
                    } else {
                        let counts: Vec<String> =
                            by.iter().map(|(t, n)| format!("{t}={n}")).collect();
                        let rating = rated
                            .as_ref()
                            .map_or_else(|| "-".to_string(), |(r, _)| r.triple());
                        writeln!(
                            out,
                            "{:>6}  {}:{}  {:<12} {:<12} {}",
                            i + 1,
                            p.origin.file,
                            p.origin.line,
                            rating,
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
    if puzzle_missing(args.puzzle, seen) {
        return Ok(EXIT_INVALID);
    }
    // Ratings are matched to puzzles by their line: a count that differs
    // says the file rates another input (or this one cut short).
    if let (None, Some(file), Some(ratings)) = (args.puzzle, &args.compare, &theirs)
        && ratings.len() != seen
    {
        noteln!(
            "{file} has {} ratings for {seen} puzzles: its lines go with the puzzles in input \
             order, so check that it rates this input",
            ratings.len()
        );
    }
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
        // The shares are of the puzzles graded: say what they leave out.
        if invalid > 0 {
            writeln!(
                out,
                "({invalid} of the {seen} puzzles did not read and are not graded: see above)"
            )?;
        }
        writeln!(
            out,
            "\ntechnique          puzzles where it fired   facts derived"
        )?;
        for (t, (n, facts)) in &fired {
            writeln!(out, "{t:<18} {n:>22}   {facts:>13}")?;
        }
        let rated: usize = bands.values().sum();
        writeln!(
            out,
            "\nrating band (Sudoku Explainer's scale)   puzzles   share"
        )?;
        for (b, (name, _)) in BANDS.iter().enumerate() {
            let n = bands.get(&b).copied().unwrap_or(0);
            writeln!(
                out,
                "{name:<38} {n:>8}  {:>5.1}%",
                100.0 * n as f64 / rated.max(1) as f64
            )?;
        }
    }
    if let (Some(file), Some(_)) = (&args.compare, &theirs) {
        let rho = write_comparison(&mut out, file, &pairs, json)?;
        if let Some(plot) = &args.plot {
            let name = std::path::Path::new(file)
                .file_name()
                .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
            let title = format!(
                "{} puzzles: Spearman {}",
                pairs.len(),
                rho.map_or_else(|| "undefined".to_string(), |r| format!("{r:.3}"))
            );
            let written = crate::report::plot::comparison_svg(&pairs, &title, &name)
                .and_then(|svg| std::fs::write(plot, svg).map_err(|e| e.to_string()));
            if let Err(e) = written {
                errorln!("{plot}: cannot write the plot: {e}");
                return Ok(EXIT_INVALID);
            }
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

/// The bands of the rating scale, by their lowest rating in tenths: the
/// families of techniques Sudoku Explainer's scale is made of.
const BANDS: [(&str, u32); 7] = [
    ("singles (below 2.6)", 0),
    ("intersections (2.6 to 2.9)", 26),
    ("subsets and basic fish (3.0 to 4.1)", 30),
    ("wings (4.2 to 4.4)", 42),
    ("uniqueness, quads, BUG (4.5 to 6.4)", 45),
    ("chains (6.5 to 7.4)", 65),
    ("forcing (7.5 and up)", 75),
];

/// The band of a rating in tenths (an index into [`BANDS`]).
fn band(tenths: u32) -> usize {
    BANDS
        .iter()
        .rposition(|&(_, low)| tenths >= low)
        .unwrap_or(0)
}

/// A rating as a JSON number with one decimal.
fn rating_json(tenths: u32) -> serde_json::Value {
    serde_json::json!(f64::from(tenths) / 10.0)
}

/// The rating of a graded puzzle's path, and each step's line when they
/// are to be printed: `None` for a puzzle that needs guessing, has no
/// grade, or that its givens solve.
pub(super) fn rate_path(
    program: &Program,
    graded: &Graded,
    lines: bool,
) -> Option<(Rating, Vec<String>)> {
    let state = graded.state.as_ref()?;
    if !graded.grade.graded || graded.grade.grade == "guessing" {
        return None;
    }
    let db = FactDb::new(program, state).with_forcing(&graded.forcing);
    if !lines {
        // No step to list: rated without splitting the facts into steps.
        return rate_facts(&db).map(|r| (r, Vec::new()));
    }
    let steps = solution_path(&db);
    let rating = rate(&db, &steps)?;
    let lines = steps.iter().map(|s| path::line(&db, s)).collect();
    Some((rating, lines))
}

/// The ratings of a `--compare` file, one per line (the first number of
/// `7.2/1.5/1.2`), `None` for a blank line; an error names the file, line
/// and column of what does not read.
fn read_ratings(file: &str) -> Result<Vec<Option<u32>>, String> {
    use std::io::BufRead;
    let cannot = |e: io::Error| format!("{file}: cannot read the ratings to compare with: {e}");
    // Line by line: what is kept is a number per line, not the text.
    let reader = io::BufReader::new(std::fs::File::open(file).map_err(cannot)?);
    let mut out = Vec::new();
    for (k, line) in reader.lines().enumerate() {
        let line = line.map_err(cannot)?;
        let word = line.split(['/', ',', ' ', '\t']).find(|w| !w.is_empty());
        let Some(word) = word else {
            out.push(None);
            continue;
        };
        let column = line.find(word).unwrap_or(0) + 1;
        let value: f64 = word.parse().map_err(|_| {
            format!(
                "{file}:{}:{column}: `{word}` is not a rating; write one rating per line \
                 for the puzzles in input order, such as `7.2` or `7.2/1.5/1.2`",
                k + 1
            )
        })?;
        if !(0.0..=100.0).contains(&value) {
            return Err(format!(
                "{file}:{}:{column}: the rating {word} is off the scale (0 to 100)",
                k + 1
            ));
        }
        out.push(Some((value * 10.0).round() as u32));
    }
    Ok(out)
}

/// The comparison with `--compare`'s ratings: how many puzzles both
/// rated, the rank correlation (returned too), the share in the same
/// band, and the bands side by side.
fn write_comparison(
    out: &mut impl Write,
    file: &str,
    pairs: &[(u32, u32)],
    json: bool,
) -> io::Result<Option<f64>> {
    let ours: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
    let theirs: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
    let rho = crate::report::correlation::spearman(&ours, &theirs);
    let same = pairs.iter().filter(|p| band(p.0) == band(p.1)).count();
    let share = 100.0 * same as f64 / pairs.len().max(1) as f64;
    let mut matrix = vec![[0usize; BANDS.len()]; BANDS.len()];
    for &(o, t) in pairs {
        matrix[band(t)][band(o)] += 1;
    }
    if json {
        let value = rho.map_or(serde_json::Value::Null, |r| serde_json::json!(r));
        writeln!(
            out,
            "{}",
            serde_json::json!({"compared_with": file, "puzzles": pairs.len(),
                "spearman": value, "same_band": same, "bands": matrix})
        )?;
        return Ok(rho);
    }
    writeln!(
        out,
        "\ncompared with {file}: {} puzzles rated by both",
        pairs.len()
    )?;
    match rho {
        Some(r) => writeln!(out, "Spearman rank correlation: {r:.3}")?,
        None => writeln!(
            out,
            "Spearman rank correlation: undefined (a constant rating)"
        )?,
    }
    writeln!(out, "same band: {same} ({share:.1}%)")?;
    writeln!(out, "\ntheir band (rows) against ours (columns):")?;
    write!(out, "{:<38}", "")?;
    for b in 0..BANDS.len() {
        write!(out, " {:>7}", b + 1)?;
    }
    writeln!(out)?;
    for (b, row) in matrix.iter().enumerate() {
        write!(out, "{:<38}", format!("{} {}", b + 1, BANDS[b].0))?;
        for n in row {
            write!(out, " {n:>7}")?;
        }
        writeln!(out)?;
    }
    Ok(rho)
}
