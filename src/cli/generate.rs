//! `sudolog generate`: minimal puzzles with one solution, made to order
//! (a rating band, a technique the path must use, a symmetry), on every
//! core, reproducible from a seed.

use super::args::ForcingArgs;
use super::grade::{GRADE_FORCING_DEPTH, rate_path};
use super::{
    BatchArgs, EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, RuleArgs, forcing_tier_runs, load_engine,
};
use crate::batch;
use crate::generate::{Symmetry, make, make_killer, puzzle_rng};
use crate::grid::{ClueFact, Geometry, read_inputs, render_clues, render_line};
use crate::inspect::rating::{Rating, tenths_text};
use crate::lang::program::Program;
use crate::solve::{Keeping, SolutionCount, Uniqueness, Verdict, grade, solve_logic};
use clap::Args;
use std::io::{self, Write};
use std::ops::RangeInclusive;

/// Arguments of `generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles to make.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// The seed: the same seed (and options) makes the same puzzles, on
    /// any number of threads. A random one by default, said on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The grid's side: 4, 9, 16 or 25.
    #[arg(long, default_value_t = 9, value_name = "N")]
    pub size: usize,
    /// Make every puzzle around the clues of FILE's first puzzle (a
    /// variant's layout: thermometers, cages, dots), which each made
    /// puzzle carries on the lines after it; the grid's size is that
    /// puzzle's, its givens are not used. With the variant's `--variant`.
    #[arg(long, value_name = "FILE")]
    pub clues: Option<String>,
    /// Make killer puzzles (with `--variant killer`): a random layout of
    /// cages for each, their sums read off its solution, and givens only
    /// where the cages alone leave more than one solution.
    #[arg(long, conflicts_with = "clues")]
    pub cages: bool,
    /// Which clues are given together.
    #[arg(long, value_enum, default_value_t)]
    pub symmetry: SymmetryArg,
    /// Keep only puzzles rated in this band of Sudoku Explainer's scale:
    /// `6.5..7.4`, `7.5..` (and up), `..2.5` (and down) or `4.2` (just that).
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_band)]
    pub rating: Option<RatingBand>,
    /// Keep only puzzles whose solution path uses this technique: a rule
    /// file's stem (`wings`) or a step's name (`XY-wing`, any case).
    #[arg(long, value_name = "T")]
    pub technique: Option<String>,
    /// Puzzles made per puzzle kept before giving up on it.
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_attempts: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: GenerateFormat,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set that grades (and, capped at `solve`'s tiers, carves).
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Forcing where the rules stall, when grading (up to depth 2 unless told).
    #[command(flatten)]
    pub forcing: ForcingArgs,
}

/// `--symmetry`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SymmetryArg {
    /// Every clue on its own.
    #[default]
    None,
    /// A clue and its image by a half turn about the centre.
    Rotational,
    /// A clue and its mirror image across the middle column.
    Mirror,
}

/// Output formats of `generate`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GenerateFormat {
    /// A puzzle per line, then its rating (rating/pearl/diamond) and its
    /// grade: a line `solve`, `grade` and `hint` read as it is.
    #[default]
    Line,
    /// One JSON object per puzzle, one per line.
    Json,
}

/// A band of ratings, in tenths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingBand(pub RangeInclusive<u32>);

/// Reads `6.5..7.4`, `7.5..`, `..2.5` or `4.2`.
fn parse_band(text: &str) -> Result<RatingBand, String> {
    let tenths = |word: &str, default: u32| -> Result<u32, String> {
        if word.is_empty() {
            return Ok(default);
        }
        let value: f64 = word
            .parse()
            .map_err(|_| format!("`{word}` is not a rating such as `6.5`"))?;
        if !(0.0..=100.0).contains(&value) {
            return Err(format!("the rating {word} is off the scale (0 to 100)"));
        }
        let rounded = (value * 10.0).round();
        // Ratings go in tenths: `6.55` would be read as some other band.
        if (value * 10.0 - rounded).abs() > 1e-6 {
            return Err(format!(
                "the rating {word} has more than one decimal: ratings go in tenths, such as `6.5`"
            ));
        }
        Ok(rounded as u32)
    };
    let (low, high) = match text.split_once("..") {
        Some((low, high)) if low.trim().is_empty() && high.trim().is_empty() => {
            return Err(
                "the band `..` has no bound: write `6.5..7.4`, `7.5..` or `..2.5`".to_string(),
            );
        }
        Some((low, high)) => (tenths(low.trim(), 0)?, tenths(high.trim(), u32::MAX)?),
        None if text.trim().is_empty() => {
            return Err(
                "no rating given: write a band such as `6.5..7.4`, or one rating such as `4.2`"
                    .to_string(),
            );
        }
        None => {
            let t = tenths(text.trim(), 0)?;
            (t, t)
        }
    };
    if low > high {
        return Err(format!(
            "the band {text} is empty: write the lower rating first"
        ));
    }
    Ok(RatingBand(low..=high))
}

/// One puzzle's result: what was made, or how many attempts found nothing.
enum Made {
    Kept {
        cells: Vec<u8>,
        clues: Vec<ClueFact>,
        givens: usize,
        grade: String,
        rating: Option<Rating>,
        attempts: u64,
    },
    NotFound {
        /// Which of the puzzles asked for (1 = the first).
        number: usize,
        attempts: u64,
    },
}

/// Runs `generate`.
pub fn generate_command(args: &GenerateArgs) -> io::Result<i32> {
    let Some(grader) = load_engine(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    if !forcing_tier_runs(&args.forcing, grader.program()) {
        return Ok(EXIT_INVALID);
    }
    let (g, clues) = match &args.clues {
        Some(file) => match layout(grader.program(), file) {
            Ok(layout) => layout,
            Err(e) => {
                errorln!("--clues: {e}");
                return Ok(EXIT_INVALID);
            }
        },
        None => match Geometry::from_side(args.size) {
            Some(g) => (g, Vec::new()),
            None => {
                errorln!(
                    "--size {}: sudolog handles grids of side 4, 9, 16 and 25",
                    args.size
                );
                return Ok(EXIT_INVALID);
            }
        },
    };
    // Carving asks "one solution?" scores of times a puzzle: `solve`'s
    // own tiers answer fastest.
    let carving_rules = args
        .rules
        .with_default_max_tier(super::SOLVE_DEFAULT_MAX_TIER);
    let Some(carver) = load_engine(&carving_rules) else {
        return Ok(EXIT_INVALID);
    };
    let program = grader.program();
    let takes =
        |name: &str| (program.relation(name)).is_some_and(|r| program.relations[r].input.is_some());
    if args.cages && !(takes("cage") && takes("cage_sum")) {
        errorln!(
            "--cages makes killer puzzles: add `--variant killer`, whose rules read the cages"
        );
        return Ok(EXIT_INVALID);
    }
    if let Some(t) = &args.technique
        && !known_technique(program, t)
    {
        // Tier 0 (the grid's candidates) runs in every solve and makes no
        // step, so a path never "uses" it: every puzzle would pass.
        let why = match program.techniques.iter().any(|k| k.name == *t) {
            true => "is the grid's own rules (tier 0), which every solve runs and no step uses",
            false => "is no technique of the rule set",
        };
        errorln!(
            "--technique {t}: {t} {why}; use a rule file's stem ({}) or a step's name such \
             as `XY-wing`",
            program
                .techniques
                .iter()
                .filter(|t| t.tier > 0)
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(EXIT_INVALID);
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    if args.seed.is_none() {
        noteln!("seed {seed}: `--seed {seed}` makes these puzzles again");
    }
    let symmetry = match args.symmetry {
        SymmetryArg::None => Symmetry::None,
        SymmetryArg::Rotational => Symmetry::Rotational,
        SymmetryArg::Mirror => Symmetry::Mirror,
    };
    let forcing = args.forcing.forcing(GRADE_FORCING_DEPTH);
    let json = args.format == GenerateFormat::Json;
    // Most made puzzles fall to the carving rules alone: then grading
    // would run only those rules too (harder tiers wait for a stall), so
    // a puzzle they solve cannot reach a band above their ratings, nor
    // use a technique they lack. One cheap solve turns those away.
    let carving_ceiling = highest_rating(carver.program());
    let beyond_carving = args
        .rating
        .as_ref()
        .is_some_and(|RatingBand(b)| carving_ceiling.is_some_and(|c| *b.start() > c))
        || args
            .technique
            .as_ref()
            .is_some_and(|t| !known_technique(carver.program(), t));
    let work = |i: usize, _: u64| {
        let mut rng = puzzle_rng(seed, i as u64);
        let mut attempts = 0;
        for attempt in 1..=args.max_attempts {
            attempts = attempt;
            // `None`: no grid has a solution under these rules.
            let made = match args.cages {
                true => make_killer(&carver, g, symmetry, &mut rng),
                false => make(&carver, g, &clues, symmetry, &mut rng),
            };
            let Some(puzzle) = made else {
                break;
            };
            if beyond_carving && solve_logic(&carver, &puzzle).verdict == Verdict::Solved {
                continue;
            }
            // Carved to one solution: no count to repeat.
            let known = SolutionCount::Known(Uniqueness::Unique);
            let graded = grade(&grader, &puzzle, forcing, Keeping::State, known);
            let rated = rate_path(program, &graded, false).map(|(r, _)| r);
            let in_band = args.rating.as_ref().is_none_or(|RatingBand(band)| {
                rated.as_ref().is_some_and(|r| band.contains(&r.rating))
            });
            let uses = args.technique.as_ref().is_none_or(|t| {
                graded.grade.firings.contains_key(t)
                    || rated.as_ref().is_some_and(|r| {
                        r.techniques.iter().any(|name| name.eq_ignore_ascii_case(t))
                    })
            });
            if graded.grade.graded && in_band && uses {
                return Made::Kept {
                    givens: puzzle.cells.iter().filter(|&&d| d != 0).count(),
                    cells: puzzle.cells,
                    clues: puzzle.clues,
                    grade: graded.grade.grade,
                    rating: rated,
                    attempts: attempt,
                };
            }
        }
        Made::NotFound {
            number: i + 1,
            attempts,
        }
    };
    let progress = args.batch.progress("puzzles");
    let mut out = io::stdout().lock();
    let mut missing = 0;
    batch::for_each_ordered(0..args.count, args.batch.threads(), work, |made| {
        progress.inc(1);
        match made {
            Made::Kept {
                cells,
                clues,
                givens,
                grade,
                rating,
                attempts,
            } => {
                let line = render_line(&g, &cells);
                let ratings = rating
                    .as_ref()
                    .map_or_else(|| "-".to_string(), Rating::triple);
                if json {
                    let mut object = serde_json::json!({
                        "puzzle": line, "givens": givens, "grade": grade,
                        "attempts": attempts, "seed": seed,
                    });
                    if !clues.is_empty() {
                        let facts: Vec<String> = clues.iter().map(|f| f.to_string()).collect();
                        object["clues"] = facts.into();
                    }
                    if let Some(r) = &rating {
                        object["rating"] = serde_json::json!(f64::from(r.rating) / 10.0);
                        object["pearl"] = serde_json::json!(f64::from(r.pearl) / 10.0);
                        object["diamond"] = serde_json::json!(f64::from(r.diamond) / 10.0);
                        object["hardest"] = r.hardest.clone().into();
                    }
                    writeln!(out, "{object}")?;
                } else {
                    writeln!(out, "{line} {ratings} {grade}")?;
                    // Its clues (the layout's, or its own cages), which read
                    // back with the puzzle.
                    write!(out, "{}", render_clues(&clues))?;
                }
            }
            Made::NotFound { number, attempts } => {
                missing += 1;
                progress.suspend(|| {
                    errorln!(
                        "puzzle {number} of {}: no puzzle kept in {attempts} attempts{}{}: widen \
                         them, or raise --max-attempts",
                        args.count,
                        args.rating
                            .as_ref()
                            .map(|RatingBand(b)| format!(
                                " rated {}..{}",
                                tenths_text(*b.start()),
                                if *b.end() == u32::MAX {
                                    String::new()
                                } else {
                                    tenths_text(*b.end())
                                }
                            ))
                            .unwrap_or_default(),
                        args.technique
                            .as_ref()
                            .map(|t| format!(" using {t}"))
                            .unwrap_or_default(),
                    )
                });
                if json {
                    writeln!(
                        out,
                        "{}",
                        serde_json::json!({"status": "not_found", "number": number, "attempts": attempts, "seed": seed})
                    )?;
                }
            }
        }
        Ok::<(), io::Error>(())
    })?;
    progress.finish_and_clear();
    out.flush()?;
    Ok(if missing > 0 { EXIT_UNSOLVED } else { EXIT_OK })
}

/// The grid size and the clue facts of the first puzzle of `file`, which
/// the rules must take.
fn layout(program: &Program, file: &str) -> Result<(Geometry, Vec<ClueFact>), String> {
    let first = read_inputs(&[file.to_string()])
        .next()
        .ok_or_else(|| format!("{file}: no puzzle in this file"))?;
    let puzzle = super::with_clues(program, first).map_err(|e| e.to_string())?;
    if puzzle.clues.is_empty() {
        return Err(format!(
            "{file}:{}: the puzzle has no clue lines after it, such as `thermo(1, 1, r1c1).`",
            puzzle.origin.line
        ));
    }
    Ok((puzzle.geometry, puzzle.clues))
}

/// Whether `name` names a technique of the program that makes steps (tier
/// 1 and up): a file's stem or the name a rule's comment starts with.
fn known_technique(program: &Program, name: &str) -> bool {
    (program.techniques.iter()).any(|t| t.tier > 0 && t.name == name)
        || (program.rules.iter())
            .any(|r| r.tier > 0 && r.label().is_some_and(|l| l.eq_ignore_ascii_case(name)))
}

/// The highest rating a step of the program's techniques can have:
/// `None` if a technique has no `.rating` (it might be rated anything).
fn highest_rating(program: &Program) -> Option<u32> {
    let mut highest = 0;
    for rule in program.rules.iter().filter(|r| r.tier > 0) {
        let concludes = program.relations[rule.head_rel]
            .builtin
            .is_some_and(|b| b.is_state());
        if !concludes {
            continue;
        }
        let top = rule.rating.iter().map(|l| l.tenths).max()?;
        // A length bonus has no ceiling.
        if rule.rating.iter().any(|l| l.length_bonus) {
            return None;
        }
        highest = highest.max(top);
    }
    Some(highest)
}

/// A seed from the clock, for a run that names none.
fn random_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
