//! `cargo bench --bench peer`: sudolog beside a peer, the `sudoku` crate's
//! `StrategySolver`, on the same 9x9 puzzles with equal technique sets and
//! no guessing:
//!
//! 1. singles (naked and hidden singles);
//! 2. + locked candidates (pointing and claiming);
//! 3. + naked and hidden subsets (pairs, triples, quads);
//! 4. + basic fish (X-wing, swordfish, jellyfish).
//!
//! 5. guessing: sudolog's default `solve` (its default tiers, then search)
//!    beside the peer's backtracking solver (`Sudoku::some_solution`, which stops at the first solution as sudolog does).
//!
//! For each set it prints how many puzzles each solver solves by its rules
//! alone, and the median and mean time per puzzle of each (one thread; each
//! puzzle timed on its own, the best of a few runs), with the ratio
//! sudolog / sudoku. Times cover the whole solve from the givens: sudolog's
//! `solve_logic` (its engine built once per set, outside the timing), the
//! peer's `StrategySolver::from_sudoku` and `solve`.
//!
//! Input: the in-repo technique sample by default; any file of 9x9 puzzles
//! with `PEER_PUZZLES=path` (the first `PEER_LIMIT` puzzles, default 200):
//!
//! ```sh
//! PEER_PUZZLES=../shared/puzzles/tdoku_magictour_top1465.txt cargo bench --bench peer
//! ```
//!
//! The `sudoku` crate is AGPL-3.0: it is a dev-dependency of this benchmark
//! only, never of the library or the binary.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sudoku::Sudoku;
use sudoku::strategy::{Strategy, StrategySolver};
use sudolog::engine::Engine;
use sudolog::grid::{Puzzle, read_inputs};
use sudolog::lang::library::RuleSources;
use sudolog::solve::{Solver, Verdict, solve_logic};

/// The default input, relative to the crate root.
const DEFAULT_PUZZLES: &str = "tests/data/techniques/sample.txt";
/// Puzzles taken from the input unless `PEER_LIMIT` says otherwise.
const DEFAULT_LIMIT: usize = 200;
/// Runs per puzzle and solver; the fastest counts.
const RUNS: usize = 3;

/// One technique set, as each solver names it.
struct TechniqueSet {
    label: &'static str,
    /// sudolog's technique names (rule file stems); `grid` always stays.
    sudolog: &'static [&'static str],
    /// The peer's strategies: hidden singles first (see below), then its
    /// difficulty order (the one its own docs and tests use).
    peer: &'static [Strategy],
}

// The order of the peer's strategies matters in sudoku 0.8.0: when
// `NakedSingles` comes first, the solver takes a shortcut for it that only
// finds the naked singles of cells whose candidates changed by its own
// pass, so naked singles uncovered by a hidden single are never found and
// the peer stalls on puzzles that singles solve (only 2 of the sample's 6
// "singles" puzzles solve that way). With `HiddenSingles` first every
// strategy does a full scan, and the peer solves as many puzzles as the
// README's technique table gives for sudolog (norvig_easy50: 40, 44, 49,
// 50 of 50; magictour_top1465: 0, 8, 111, 111 of the first 200).

const SINGLES: &[Strategy] = &[Strategy::HiddenSingles, Strategy::NakedSingles];
const LOCKED: &[Strategy] = &[
    Strategy::HiddenSingles,
    Strategy::NakedSingles,
    Strategy::LockedCandidates,
];
const SUBSETS: &[Strategy] = &[
    Strategy::HiddenSingles,
    Strategy::NakedSingles,
    Strategy::LockedCandidates,
    Strategy::NakedPairs,
    Strategy::HiddenPairs,
    Strategy::NakedTriples,
    Strategy::HiddenTriples,
    Strategy::NakedQuads,
    Strategy::HiddenQuads,
];
const FISH: &[Strategy] = &[
    Strategy::HiddenSingles,
    Strategy::NakedSingles,
    Strategy::LockedCandidates,
    Strategy::NakedPairs,
    Strategy::XWing,
    Strategy::HiddenPairs,
    Strategy::NakedTriples,
    Strategy::Swordfish,
    Strategy::HiddenTriples,
    Strategy::NakedQuads,
    Strategy::Jellyfish,
    Strategy::HiddenQuads,
];

const SETS: [TechniqueSet; 4] = [
    TechniqueSet {
        label: "singles",
        sudolog: &["singles"],
        peer: SINGLES,
    },
    TechniqueSet {
        label: "+ locked",
        sudolog: &["singles", "locked"],
        peer: LOCKED,
    },
    TechniqueSet {
        label: "+ subsets",
        sudolog: &["singles", "locked", "naked_subsets", "hidden_subsets"],
        peer: SUBSETS,
    },
    TechniqueSet {
        label: "+ fish",
        sudolog: &[
            "singles",
            "locked",
            "naked_subsets",
            "hidden_subsets",
            "fish",
        ],
        peer: FISH,
    },
];

/// The input file and how many puzzles to take from it.
fn input() -> (String, usize) {
    let path = std::env::var("PEER_PUZZLES")
        .unwrap_or_else(|_| format!("{}/{DEFAULT_PUZZLES}", env!("CARGO_MANIFEST_DIR")));
    let limit = match std::env::var("PEER_LIMIT") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("PEER_LIMIT={s} is not a count: {e}")),
        Err(_) => DEFAULT_LIMIT,
    };
    (path, limit)
}

/// The first `limit` regular 9x9 puzzles of `path`, each with its givens as
/// the peer reads them; the others are skipped with a note.
fn puzzles(path: &str, limit: usize) -> Vec<(Puzzle, Sudoku)> {
    let mut taken = Vec::new();
    let mut skipped = 0;
    for p in read_inputs(&[path.to_string()]) {
        if taken.len() == limit {
            break;
        }
        let p = match p {
            Ok(p) => p,
            Err(e) => {
                eprintln!("note: skipped: {e}");
                skipped += 1;
                continue;
            }
        };
        if p.geometry.n != 9 || p.regions.is_some() || p.cells.len() != 81 {
            skipped += 1;
            continue;
        }
        let peer = Sudoku::from_bytes_slice(&p.cells)
            .unwrap_or_else(|e| panic!("a 9x9 grid of digits 0-9 converts: {e:?}"));
        taken.push((p, peer));
    }
    if skipped > 0 {
        eprintln!("note: skipped {skipped} puzzles that are not regular 9x9 (or did not read)");
    }
    taken
}

/// sudolog's engine with only the set's techniques (and the grid's tier 0).
fn engine(set: &TechniqueSet) -> Engine {
    let mut program = RuleSources::standard()
        .load()
        .unwrap_or_else(|e| panic!("the standard library loads: {e}"));
    let names: Vec<String> = set.sudolog.iter().map(|s| s.to_string()).collect();
    program
        .restrict_techniques(&names)
        .unwrap_or_else(|e| panic!("the technique set exists: {e}"));
    Engine::new(program).unwrap_or_else(|d| panic!("the standard library compiles: {d}"))
}

/// The fastest of `RUNS` runs of `f`, and its last result.
fn best_of<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let r = black_box(f());
        best = best.min(start.elapsed());
        last = Some(r);
    }
    match last {
        Some(r) => (best, r),
        None => panic!("RUNS is at least 1"),
    }
}

/// Median and mean of some times, in microseconds.
fn median_mean(times: &mut [Duration]) -> (f64, f64) {
    if times.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    times.sort_unstable();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let n = times.len();
    let median = if n % 2 == 1 {
        us(times[n / 2])
    } else {
        (us(times[n / 2 - 1]) + us(times[n / 2])) / 2.0
    };
    let mean = times.iter().map(|&d| us(d)).sum::<f64>() / n as f64;
    (median, mean)
}

/// One row of the table.
struct Row {
    label: &'static str,
    puzzles: usize,
    solved: (usize, usize),
    /// Puzzles both solved but to different grids (must stay 0).
    differ: usize,
    median: (f64, f64),
    mean: (f64, f64),
}

fn run_set(set: &TechniqueSet, puzzles: &[(Puzzle, Sudoku)]) -> Row {
    let engine = engine(set);
    compare(
        set.label,
        puzzles,
        |puzzle| solve_logic(&engine, puzzle),
        |peer| {
            // The solved grid, or `None` where the strategies stall.
            StrategySolver::from_sudoku(*peer)
                .solve(set.peer)
                .ok()
                .map(|(grid, _)| grid.to_bytes())
        },
    )
}

/// Both solvers with guessing: sudolog's default solve, the peer's
/// backtracking.
fn run_guessing(puzzles: &[(Puzzle, Sudoku)]) -> Row {
    let solver = Solver::new().unwrap_or_else(|e| panic!("the standard library loads: {e}"));
    compare(
        "guessing",
        puzzles,
        |puzzle| solver.solve(puzzle),
        |peer| peer.some_solution().map(|grid| grid.to_bytes()),
    )
}

/// Times both solvers on every puzzle: `ours` gives sudolog's outcome,
/// `theirs` the peer's solved grid or `None`.
fn compare(
    label: &'static str,
    puzzles: &[(Puzzle, Sudoku)],
    ours_solve: impl Fn(&Puzzle) -> sudolog::solve::Outcome,
    theirs_solve: impl Fn(&Sudoku) -> Option<[u8; 81]>,
) -> Row {
    let mut ours = Vec::with_capacity(puzzles.len());
    let mut theirs = Vec::with_capacity(puzzles.len());
    let (mut solved_ours, mut solved_theirs, mut differ) = (0, 0, 0);
    for (puzzle, peer) in puzzles {
        let (t, outcome) = best_of(|| ours_solve(puzzle));
        ours.push(t);
        let (t, result) = best_of(|| theirs_solve(peer));
        theirs.push(t);
        let ok_ours = outcome.verdict == Verdict::Solved;
        let ok_theirs = result.is_some();
        solved_ours += usize::from(ok_ours);
        solved_theirs += usize::from(ok_theirs);
        if let (true, Some(grid)) = (ok_ours, &result)
            && grid[..] != outcome.grid[..]
        {
            differ += 1;
        }
    }
    let (m_ours, a_ours) = median_mean(&mut ours);
    let (m_theirs, a_theirs) = median_mean(&mut theirs);
    Row {
        label,
        puzzles: puzzles.len(),
        solved: (solved_ours, solved_theirs),
        differ,
        median: (m_ours, m_theirs),
        mean: (a_ours, a_theirs),
    }
}

fn main() {
    let (path, limit) = input();
    let puzzles = puzzles(&path, limit);
    println!(
        "sudolog vs sudoku::StrategySolver, no guessing: {} puzzles of {path}",
        puzzles.len()
    );
    println!("times per puzzle in µs (best of {RUNS} runs each), one thread");
    println!();
    let header = |cells: [&str; 10]| {
        let line = format!(
            "{:<10} {:>7} | {:>7} {:>7} | {:>9} {:>9} {:>6} | {:>9} {:>9} {:>6}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            cells[6],
            cells[7],
            cells[8],
            cells[9]
        );
        println!("{}", line.trim_end());
    };
    header(["", "", "solved", "", "median", "", "", "mean", "", ""]);
    header([
        "set", "puzzles", "sudolog", "sudoku", "sudolog", "sudoku", "ratio", "sudolog", "sudoku",
        "ratio",
    ]);
    let mut differ = 0;
    for set in &SETS {
        let r = run_set(set, &puzzles);
        differ += r.differ;
        print_row(&r);
    }
    let r = run_guessing(&puzzles);
    differ += r.differ;
    print_row(&r);
    println!();
    println!("sudoku = the sudoku crate's StrategySolver (its backtracking solver for guessing);");
    println!("ratio = sudolog / sudoku");
    if differ > 0 {
        println!("WARNING: {differ} puzzle(s) solved by both to different grids");
    }
}

fn print_row(r: &Row) {
    println!(
        "{:<10} {:>7} | {:>7} {:>7} | {:>9.1} {:>9.1} {:>6.1} | {:>9.1} {:>9.1} {:>6.1}",
        r.label,
        r.puzzles,
        r.solved.0,
        r.solved.1,
        r.median.0,
        r.median.1,
        r.median.0 / r.median.1,
        r.mean.0,
        r.mean.1,
        r.mean.0 / r.mean.1,
    );
}
