//! Properties over random puzzles (proptest), through the library API:
//!
//! - a valid grid with cells removed is solved back to a grid that keeps
//!   its givens and that the independent `check_solution` accepts;
//! - the solver and the checker agree (and the checker agrees with a
//!   validity check written here): a grid with one cell altered is
//!   rejected, a grid whose givens are broken has no solution;
//! - what `render_line` and `render_grid` print reads back as the same
//!   puzzles (4x4 to 25x25, several per input, CRLF and a BOM too);
//! - the techniques of the standard library never change the set of
//!   solutions: counting with singles alone and with every tier gives the
//!   same count, which a brute-force counter written here confirms.
//!
//! Random grids come from solution grids of `tests/data/` (and a pattern
//! grid for each size) under validity-preserving transformations: digit
//! relabelling, row and column permutations within bands and stacks, band
//! and stack permutations, transposition.

use crate::common;

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::BTreeSet;
use std::sync::LazyLock;
use sudolog::engine::Engine;
use sudolog::grid::check_solution;
use sudolog::grid::{Geometry, Origin, Puzzle, PuzzleReader, render_grid, render_line};
use sudolog::lang::library::RuleSources;
use sudolog::solve::{Mode, SearchOptions};
use sudolog::solve::{Outcome, Verdict, solve};

/// `cases` random cases; a failure is shrunk for at most `shrink_ms` and
/// printed, not saved (proptest finds no `lib.rs` to save it next to).
fn config(cases: u32, shrink_ms: u32) -> Config {
    Config {
        cases,
        max_shrink_time: shrink_ms,
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------
// Engines, built once per test binary.
// ---------------------------------------------------------------------------

/// The standard library, restricted to tiers up to `max_tier` (`None`:
/// every tier).
fn engine(max_tier: Option<u32>) -> Engine {
    let mut program = RuleSources::standard()
        .load()
        .unwrap_or_else(|e| panic!("the standard library loads: {e}"));
    if let Some(max) = max_tier {
        program.restrict_tier(max);
    }
    let mut engine = Engine::new(program)
        .unwrap_or_else(|d| panic!("the standard library compiles: {}", d.render()));
    // Provenance is not looked at here.
    engine.set_provenance(false);
    engine
}

/// What `sudolog solve` runs by default: tiers 0 to 2.
static DEFAULT: LazyLock<Engine> = LazyLock::new(|| engine(Some(2)));
/// The grid's meaning and the singles (tiers 0 and 1).
static SINGLES: LazyLock<Engine> = LazyLock::new(|| engine(Some(1)));
/// The whole standard library.
static EVERY_TIER: LazyLock<Engine> = LazyLock::new(|| engine(None));

// ---------------------------------------------------------------------------
// Grids: sources, transformations, an independent validity check.
// ---------------------------------------------------------------------------

fn geometry(box_size: usize) -> Geometry {
    Geometry::from_box_size(box_size).expect("a box size of 2 to 5")
}

/// A valid solution grid of any size: the classic shifted pattern.
fn pattern_grid(g: Geometry) -> Vec<u8> {
    let (n, b) = (g.n, g.box_size);
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((r % b * b + r / b + c) % n + 1) as u8
        })
        .collect()
}

/// A line of symbols -> digits (0 for anything that is not a digit).
fn parse_grid(g: Geometry, line: &str) -> Vec<u8> {
    line.chars()
        .map(|ch| g.symbol_digit(ch).unwrap_or(0))
        .collect()
}

/// Solution grids of a size: the pattern grid plus, for 9x9 and 16x16, the
/// first few solutions of the data files.
fn base_grids(g: Geometry) -> Vec<Vec<u8>> {
    let mut grids = vec![pattern_grid(g)];
    let files: &[&str] = match g.n {
        9 => &[
            "tests/data/techniques/sample.solutions.txt",
            "tests/data/wings/sample.solutions.txt",
            "tests/data/single_digit/sample.solutions.txt",
            "tests/data/x_sudoku.solution.txt",
        ],
        16 => &["tests/data/sixteen.solution.txt"],
        _ => &[],
    };
    for file in files {
        for line in common::read_lines(file).into_iter().take(3) {
            let grid = parse_grid(g, line.split_whitespace().next().expect("a grid"));
            assert!(is_valid(g, &grid), "{file}: not a valid solution: {line}");
            grids.push(grid);
        }
    }
    grids
}

static BASE_4: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| base_grids(geometry(2)));
static BASE_9: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| base_grids(geometry(3)));
static BASE_16: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| base_grids(geometry(4)));
static BASE_25: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| base_grids(geometry(5)));

fn bases(g: Geometry) -> &'static [Vec<u8>] {
    match g.box_size {
        2 => &BASE_4,
        3 => &BASE_9,
        4 => &BASE_16,
        _ => &BASE_25,
    }
}

/// Whether a complete grid has every digit once in each row, column and
/// box: written here without the crate, to judge `check_solution`.
fn is_valid(g: Geometry, grid: &[u8]) -> bool {
    let (n, b) = (g.n, g.box_size);
    if grid.len() != n * n || grid.iter().any(|&d| d == 0 || usize::from(d) > n) {
        return false;
    }
    let unit_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let digits: BTreeSet<u8> = cells.map(|i| grid[i]).collect();
        digits.len() == n
    };
    (0..n).all(|u| {
        unit_ok(&mut (0..n).map(|k| u * n + k))
            && unit_ok(&mut (0..n).map(|k| k * n + u))
            && unit_ok(&mut (0..n).map(|k| (u / b * b + k / b) * n + u % b * b + k % b))
    })
}

/// A validity-preserving transformation of a grid with boxes `b` wide.
#[derive(Clone, Debug)]
struct Transform {
    /// New digit of digit `d` at index `d - 1`.
    digits: Vec<u8>,
    /// Which band (and which row inside each band) a row comes from.
    bands: Vec<usize>,
    rows: Vec<Vec<usize>>,
    /// The same for stacks and columns.
    stacks: Vec<usize>,
    cols: Vec<Vec<usize>>,
    transpose: bool,
}

fn permutation(k: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..k).collect::<Vec<usize>>()).prop_shuffle()
}

fn transform(g: Geometry) -> impl Strategy<Value = Transform> {
    let (n, b) = (g.n, g.box_size);
    (
        permutation(n),
        permutation(b),
        prop::collection::vec(permutation(b), b),
        permutation(b),
        prop::collection::vec(permutation(b), b),
        any::<bool>(),
    )
        .prop_map(|(digits, bands, rows, stacks, cols, transpose)| Transform {
            digits: digits.into_iter().map(|d| d as u8 + 1).collect(),
            bands,
            rows,
            stacks,
            cols,
            transpose,
        })
}

impl Transform {
    fn apply(&self, g: Geometry, grid: &[u8]) -> Vec<u8> {
        let (n, b) = (g.n, g.box_size);
        (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let (r, c) = if self.transpose { (c, r) } else { (r, c) };
                let from_r = self.bands[r / b] * b + self.rows[r / b][r % b];
                let from_c = self.stacks[c / b] * b + self.cols[c / b][c % b];
                match grid[from_r * n + from_c] {
                    0 => 0,
                    d => self.digits[usize::from(d) - 1],
                }
            })
            .collect()
    }
}

/// A random valid solution grid of geometry `g`.
fn solution_grid(g: Geometry) -> impl Strategy<Value = Vec<u8>> {
    (prop::sample::select(bases(g)), transform(g)).prop_map(move |(base, t)| {
        let grid = t.apply(g, &base);
        assert!(is_valid(g, &grid), "a transformation broke the grid");
        grid
    })
}

/// Which cells to empty: each one with the same random probability, up
/// to `max_rate`.
fn removal(g: Geometry, max_rate: f64) -> impl Strategy<Value = Vec<bool>> {
    let cells = g.cell_count();
    (0.0..=max_rate).prop_flat_map(move |p| prop::collection::vec(prop::bool::weighted(p), cells))
}

/// `grid` with the cells of `remove` emptied.
fn emptied(grid: &[u8], remove: &[bool]) -> Vec<u8> {
    grid.iter()
        .zip(remove)
        .map(|(&d, &gone)| if gone { 0 } else { d })
        .collect()
}

/// A puzzle of the given cells, as the reader would hand it out.
fn puzzle(g: Geometry, cells: Vec<u8>) -> Puzzle {
    Puzzle {
        geometry: g,
        positions: (0..cells.len()).map(|i| (1, i + 1)).collect(),
        cells,
        origin: Origin {
            file: "properties".to_string(),
            line: 1,
        },
        label: String::new(),
        regions: None,
        marks: None,
        clues: Vec::new(),
    }
}

fn solve_with(engine: &Engine, g: Geometry, cells: &[u8], mode: Mode) -> Outcome {
    let options = SearchOptions {
        mode,
        ..SearchOptions::default()
    };
    solve(engine, &puzzle(g, cells.to_vec()), &options)
}

// ---------------------------------------------------------------------------
// A brute-force solution counter, independent of the crate.
// ---------------------------------------------------------------------------

/// The solutions of `cells` (0: open), at most `limit` of them, by plain
/// backtracking on the open cell with the fewest candidates.
fn brute_force(g: Geometry, cells: &[u8], limit: usize) -> Vec<Vec<u8>> {
    fn go(g: Geometry, cells: &mut Vec<u8>, limit: usize, out: &mut Vec<Vec<u8>>) {
        let n = g.n;
        let b = g.box_size;
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in (0..n * n).filter(|&i| cells[i] == 0) {
            let (r, c) = (i / n, i % n);
            let (r0, c0) = (r / b * b, c / b * b);
            let mut used = vec![false; n + 1];
            for k in 0..n {
                used[usize::from(cells[r * n + k])] = true;
                used[usize::from(cells[k * n + c])] = true;
                used[usize::from(cells[(r0 + k / b) * n + c0 + k % b])] = true;
            }
            let options: Vec<u8> = (1..=n as u8).filter(|&d| !used[usize::from(d)]).collect();
            if best.as_ref().is_none_or(|(_, o)| options.len() < o.len()) {
                let done = options.len() <= 1;
                best = Some((i, options));
                if done {
                    break;
                }
            }
        }
        let Some((cell, options)) = best else {
            out.push(cells.clone());
            return;
        };
        for d in options {
            cells[cell] = d;
            go(g, cells, limit, out);
            cells[cell] = 0;
            if out.len() >= limit {
                return;
            }
        }
    }
    let mut out = Vec::new();
    go(g, &mut cells.to_vec(), limit, &mut out);
    out
}

// ---------------------------------------------------------------------------
// a. Removed cells are solved back.
// ---------------------------------------------------------------------------

/// Solves `grid` with the cells of `remove` emptied (first solution, the
/// default tiers) and checks the result.
fn assert_solved_back(g: Geometry, grid: &[u8], remove: &[bool]) -> Result<(), TestCaseError> {
    let givens = emptied(grid, remove);
    let out = solve_with(&DEFAULT, g, &givens, Mode::First);
    prop_assert_eq!(
        &out.verdict,
        &Verdict::Solved,
        "puzzle {}",
        render_line(&g, &givens)
    );
    prop_assert_eq!(out.grid.len(), g.cell_count());
    for (i, (&given, &d)) in givens.iter().zip(&out.grid).enumerate() {
        prop_assert!(
            given == 0 || given == d,
            "{} lost its given {}",
            g.cell_name(i),
            given
        );
    }
    prop_assert!(
        check_solution(&g, &givens, &out.grid).is_ok(),
        "check_solution rejects {}",
        render_line(&g, &out.grid)
    );
    prop_assert!(is_valid(g, &out.grid));
    // With no cell removed there is nothing to choose: the grid itself.
    if remove.iter().all(|&r| !r) {
        prop_assert_eq!(&out.grid, grid);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(32, 60_000))]

    #[test]
    fn a_9x9_grid_with_cells_removed_is_solved_back(
        (grid, remove) in (solution_grid(geometry(3)), removal(geometry(3), 1.0)),
    ) {
        assert_solved_back(geometry(3), &grid, &remove)?;
    }

    #[test]
    fn a_4x4_grid_with_cells_removed_is_solved_back(
        (grid, remove) in (solution_grid(geometry(2)), removal(geometry(2), 1.0)),
    ) {
        assert_solved_back(geometry(2), &grid, &remove)?;
    }
}

proptest! {
    // 16x16 solves cost tens of milliseconds each even when easy.
    #![proptest_config(config(8, 60_000))]

    #[test]
    fn a_16x16_grid_with_cells_removed_is_solved_back(
        (grid, remove) in (solution_grid(geometry(4)), removal(geometry(4), 0.6)),
    ) {
        assert_solved_back(geometry(4), &grid, &remove)?;
    }
}

// ---------------------------------------------------------------------------
// b. The solver and the checker agree.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(32, 60_000))]

    #[test]
    fn a_grid_with_one_cell_altered_is_rejected_and_has_no_solution(
        (box_size, grid, cell, shift, remove) in (2usize..=4).prop_flat_map(|b| {
            let g = geometry(b);
            (
                Just(b),
                solution_grid(g),
                0..g.cell_count(),
                1..=g.n,
                removal(g, 0.7),
            )
        }),
    ) {
        let g = geometry(box_size);
        let n = g.n;
        // Another digit, or an empty cell where `grid[cell] + shift` is n + 1.
        let mut altered = grid.clone();
        altered[cell] = ((usize::from(grid[cell]) + shift) % (n + 1)) as u8;
        prop_assert_ne!(altered[cell], grid[cell]);
        prop_assert!(!is_valid(g, &altered));
        let none = vec![0u8; n * n];
        let err = check_solution(&g, &none, &altered);
        prop_assert!(err.is_err(), "check_solution accepts {}", render_line(&g, &altered));
        let err = err.unwrap_err();
        prop_assert!(err.cells.contains(&cell), "{:?} does not name {}", err, g.cell_name(cell));
        prop_assert!(err.message.contains(&g.cell_name(cell)), "{}", err.message);
        // The altered grid with the altered cell's row kept whole (so the
        // repeated digit stays among the givens): the solver must not find
        // a solution either.
        if altered[cell] != 0 {
            let row = g.row_of(cell);
            let outside_row: Vec<bool> = (0..n * n)
                .map(|i| remove[i] && g.row_of(i) != row)
                .collect();
            let givens = emptied(&altered, &outside_row);
            let out = solve_with(&DEFAULT, g, &givens, Mode::Count(2));
            prop_assert_eq!(&out.verdict, &Verdict::NoSolution, "puzzle {}", render_line(&g, &givens));
            prop_assert_eq!(out.solutions, 0);
        }
    }

    #[test]
    fn the_checker_accepts_exactly_the_valid_grids_that_keep_the_givens(
        (box_size, grid, t, remove) in (2usize..=4).prop_flat_map(|b| {
            let g = geometry(b);
            (Just(b), solution_grid(g), transform(g), removal(g, 1.0))
        }),
    ) {
        // Another valid grid (the same one transformed) against the givens
        // of the first: accepted exactly when it agrees on every given.
        let g = geometry(box_size);
        let givens = emptied(&grid, &remove);
        let other = t.apply(g, &grid);
        let keeps = givens.iter().zip(&other).all(|(&a, &b)| a == 0 || a == b);
        let checked = check_solution(&g, &givens, &other);
        prop_assert_eq!(checked.is_ok(), keeps, "{:?}", checked);
        prop_assert!(check_solution(&g, &givens, &grid).is_ok());
        // Too short or too long: rejected, not a panic.
        prop_assert!(check_solution(&g, &givens, &grid[1..]).is_err());
        let mut longer = grid.clone();
        longer.push(1);
        prop_assert!(check_solution(&g, &givens, &longer).is_err());
    }

    #[test]
    fn every_solution_the_solver_reports_passes_the_checker(
        (grid, remove) in (solution_grid(geometry(3)), removal(geometry(3), 1.0)),
    ) {
        // First solution and counting, singles alone and the default tiers.
        // (Every tier is left to the properties below: on a stall it costs
        // up to seconds.)
        let g = geometry(3);
        let givens = emptied(&grid, &remove);
        for engine in [&*SINGLES, &*DEFAULT] {
            for mode in [Mode::First, Mode::Count(3)] {
                let out = solve_with(engine, g, &givens, mode);
                prop_assert_eq!(&out.verdict, &Verdict::Solved);
                prop_assert!(out.solutions >= 1);
                prop_assert!(check_solution(&g, &givens, &out.grid).is_ok());
                prop_assert!(is_valid(g, &out.grid));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// c. What the renderers print reads back.
// ---------------------------------------------------------------------------

/// One puzzle of a read-back input and how to print it.
#[derive(Clone, Debug)]
struct Printed {
    box_size: usize,
    cells: Vec<u8>,
    grid_layout: bool,
    /// A blank line, a comment or nothing after it.
    after: u8,
}

fn printed() -> impl Strategy<Value = Printed> {
    // 25x25 grids are rarer: they are big.
    prop_oneof![3 => Just(2usize), 3 => Just(3), 2 => Just(4), 1 => Just(5)].prop_flat_map(|b| {
        let g = geometry(b);
        (solution_grid(g), removal(g, 1.0), any::<bool>(), 0u8..3).prop_map(
            move |(grid, remove, grid_layout, after)| Printed {
                box_size: b,
                cells: emptied(&grid, &remove),
                grid_layout,
                after,
            },
        )
    })
}

proptest! {
    #![proptest_config(config(64, 60_000))]

    #[test]
    fn printed_puzzles_read_back_the_same(
        puzzles in prop::collection::vec(printed(), 1..5),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let mut text = String::new();
        let mut first_lines = Vec::new();
        let mut line = 1;
        if bom {
            text.push('\u{feff}');
        }
        for p in &puzzles {
            let g = geometry(p.box_size);
            let printed = if p.grid_layout {
                render_grid(&g, &p.cells)
            } else {
                format!("{}\n", render_line(&g, &p.cells))
            };
            first_lines.push(line);
            line += printed.lines().count();
            text.push_str(&printed);
            match p.after {
                0 => {}
                1 => text.push('\n'),
                _ => text.push_str("# a comment\n"),
            }
            line += usize::from(p.after > 0);
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let read: Vec<Puzzle> = PuzzleReader::new(text.as_bytes(), "printed.txt")
            .collect::<Result<_, _>>()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(read.len(), puzzles.len(), "{}", text);
        for ((got, want), first) in read.iter().zip(&puzzles).zip(&first_lines) {
            prop_assert_eq!(got.geometry, geometry(want.box_size), "{}", text);
            prop_assert_eq!(&got.cells, &want.cells, "{}", text);
            prop_assert_eq!(got.origin.line, *first, "{}", text);
        }
    }
}

// ---------------------------------------------------------------------------
// d. Techniques never change the solutions.
// ---------------------------------------------------------------------------

/// Solutions counted up to this many.
const COUNT_LIMIT: u64 = 6;

/// Every solution of `givens` as `engine` finds them, using the solver as
/// an oracle: count up to 2; one solution is the grid it reports; with
/// more, place each digit in turn in an open cell (`split` picks it) and
/// recurse. Which cell is split on does not change the set, only the cost.
fn solution_set(
    engine: &Engine,
    g: Geometry,
    givens: &[u8],
    split: &dyn Fn(&[u8]) -> usize,
) -> BTreeSet<Vec<u8>> {
    let out = solve_with(engine, g, givens, Mode::Count(2));
    let mut set = BTreeSet::new();
    match out.solutions {
        0 => assert_eq!(out.verdict, Verdict::NoSolution),
        1 => {
            assert!(out.complete, "one solution, but the search is not complete");
            set.insert(out.grid);
        }
        _ => {
            let cell = split(givens);
            assert_eq!(givens[cell], 0, "split on an open cell");
            for d in 1..=g.n as u8 {
                let mut more = givens.to_vec();
                more[cell] = d;
                set.extend(solution_set(engine, g, &more, split));
            }
        }
    }
    set
}

/// Counts the solutions of `givens` with singles alone and with every
/// tier, and checks both against the brute-force reference; when the
/// reference has them all (fewer than the limit), the solution sets too
/// (with every tier only if `every_tier_set`: each solve of the oracle that
/// stalls costs seconds with every tier on a 9x9).
fn assert_same_solutions(
    g: Geometry,
    givens: &[u8],
    every_tier_set: bool,
) -> Result<(), TestCaseError> {
    let reference = brute_force(g, givens, COUNT_LIMIT as usize);
    let want: BTreeSet<Vec<u8>> = reference.iter().cloned().collect();
    let puzzle = render_line(&g, givens);
    // Split where the reference solutions disagree: each split then
    // separates solutions, so the oracle needs few solves.
    let split = |cells: &[u8]| {
        let open = |i: &usize| cells[*i] == 0;
        (0..cells.len())
            .filter(open)
            .find(|&i| {
                let mut matching = reference
                    .iter()
                    .filter(|s| cells.iter().zip(s.iter()).all(|(&c, &d)| c == 0 || c == d));
                let first = matching.next().map(|s| s[i]);
                matching.any(|s| Some(s[i]) != first)
            })
            .or_else(|| (0..cells.len()).find(open))
            .expect("an open cell")
    };
    for (what, engine) in [("singles", &*SINGLES), ("every tier", &*EVERY_TIER)] {
        let out = solve_with(engine, g, givens, Mode::Count(COUNT_LIMIT));
        prop_assert_eq!(&out.verdict, &Verdict::Solved, "{}: {}", what, puzzle);
        prop_assert_eq!(
            out.solutions,
            reference.len() as u64,
            "{}: {} (reference {})",
            what,
            puzzle,
            reference.len()
        );
        // Complete exactly when the limit was not reached.
        prop_assert_eq!(
            out.complete,
            out.solutions < COUNT_LIMIT,
            "{}: {}",
            what,
            puzzle
        );
        prop_assert!(check_solution(&g, givens, &out.grid).is_ok());
        if out.complete {
            prop_assert!(want.contains(&out.grid), "{}: {}", what, puzzle);
        }
        if out.complete && (what == "singles" || every_tier_set) {
            let set = solution_set(engine, g, givens, &split);
            prop_assert_eq!(&set, &want, "{}: {}", what, puzzle);
        }
    }
    Ok(())
}

/// The unavoidable rectangles of a 9x9 solution grid: four cells in two
/// rows, two columns and two boxes holding `a b / b a`. Emptied (with the
/// rest of the grid given) they leave exactly two solutions.
fn rectangles(g: Geometry, grid: &[u8]) -> Vec<[usize; 4]> {
    let (n, b) = (g.n, g.box_size);
    let mut found = Vec::new();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    // Two boxes: same band and other stacks, or the reverse.
                    if (r1 / b == r2 / b) == (c1 / b == c2 / b) {
                        continue;
                    }
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let v = cells.map(|i| grid[i]);
                    if v[0] == v[3] && v[1] == v[2] {
                        found.push(cells);
                    }
                }
            }
        }
    }
    found
}

proptest! {
    #![proptest_config(config(32, 60_000))]

    #[test]
    fn techniques_never_change_the_solutions_of_a_4x4(
        (grid, remove) in (solution_grid(geometry(2)), removal(geometry(2), 1.0)),
    ) {
        assert_same_solutions(geometry(2), &emptied(&grid, &remove), true)?;
    }
}

proptest! {
    // Every tier on a 9x9 that stalls is slow: about 2.5 s per search in
    // the test profile, even with four open cells (the higher tiers switch
    // on). So: few cases, no solution sets with every tier, and puzzles
    // that are nearly full but for one or two unavoidable rectangles, so
    // that they have a few solutions and need guesses.
    #![proptest_config(config(4, 120_000))]

    #[test]
    fn techniques_never_change_the_solutions_of_a_9x9(
        (grid, remove, picks) in (
            solution_grid(geometry(3)),
            removal(geometry(3), 0.4),
            prop::collection::vec(any::<prop::sample::Index>(), 1..=2),
        ),
    ) {
        let g = geometry(3);
        let found = rectangles(g, &grid);
        prop_assume!(!found.is_empty());
        let mut givens = emptied(&grid, &remove);
        for pick in &picks {
            for &i in pick.get(&found) {
                givens[i] = 0;
            }
        }
        assert_same_solutions(g, &givens, false)?;
    }
}
