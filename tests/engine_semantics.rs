//! Evaluation semantics of the rule engine: small rule programs (added to
//! the standard library or replacing it) run on small puzzles, with every
//! expected answer computed here in plain Rust, never by asking sudolog.
//!
//! Rule programs that replace the standard library make `eliminated`,
//! `placed` and `contradiction` observation channels: with no grid.dl, the
//! only facts in them are the ones the test's own rules put there.

use itertools::Itertools;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use sudolog::engine::{Engine, Guess, Solve, Status};
use sudolog::grid::{Geometry, Puzzle, PuzzleReader};
use sudolog::lang::library::RuleSources;
use sudolog::solve::{UNIQUENESS_BRANCHES, Uniqueness, Verdict, solve_logic, uniqueness};

const GRID_DL: &str = include_str!("../rules/grid.dl");

const ESSAY: &str =
    "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
const ESSAY_SOLUTION: &str =
    "147253698398176245256489731839761524714925386625348917582694173963817452471532869";
const STALL_1: &str =
    "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3";
const STALL_1_SOLUTION: &str =
    "243678519165934728798512436951746382684293175372185694527369841839451267416827953";
const STALL_2: &str =
    ".3....4.5...........7....1....79.5....6.5.8..2...4..73...92...7.4.3..9.....1.6...";
const STALL_2_SOLUTION: &str =
    "132867495964512738857439216481793562376251849295648173513924687648375921729186354";
const SMALL: &str = "1..4.........32.";

// ----- plain-Rust Sudoku helpers (independent of sudolog) -----

/// Digits of a puzzle line (`.` or `0` = empty); up to 9x9.
fn cells(s: &str) -> Vec<u8> {
    s.chars()
        .map(|ch| match ch {
            '.' | '0' => 0,
            d => d.to_digit(10).expect("a digit") as u8,
        })
        .collect()
}

fn side(len: usize) -> usize {
    let n = (len as f64).sqrt().round() as usize;
    assert_eq!(n * n, len);
    n
}

fn box_width(n: usize) -> usize {
    let b = (n as f64).sqrt().round() as usize;
    assert_eq!(b * b, n);
    b
}

/// Indices of the cells of every row, column and box.
fn units(n: usize) -> Vec<Vec<usize>> {
    let b = box_width(n);
    let mut out = Vec::new();
    for i in 0..n {
        out.push((0..n).map(|k| i * n + k).collect());
    }
    for i in 0..n {
        out.push((0..n).map(|k| k * n + i).collect());
    }
    for i in 0..n {
        let (r0, c0) = ((i / b) * b, (i % b) * b);
        out.push((0..n).map(|k| (r0 + k / b) * n + c0 + k % b).collect());
    }
    out
}

/// The other cells sharing a row, column or box with `cell`.
fn peers(n: usize, cell: usize) -> BTreeSet<usize> {
    units(n)
        .into_iter()
        .filter(|u| u.contains(&cell))
        .flatten()
        .filter(|&x| x != cell)
        .collect()
}

/// A set of (cell index, digit) facts.
type CellDigits = BTreeSet<(usize, u8)>;

/// Placed and eliminated facts at the fixpoint of the grid's meaning
/// (givens placed; a placement eliminates its cell's other digits and its
/// peers' copies) and naked singles, plus hidden singles if `hidden`.
fn singles_fixpoint(givens: &[u8], hidden: bool) -> (CellDigits, CellDigits) {
    let n = side(givens.len());
    let all_units = units(n);
    let mut placed: CellDigits = givens
        .iter()
        .enumerate()
        .filter(|(_, d)| **d != 0)
        .map(|(c, d)| (c, *d))
        .collect();
    let mut eliminated = CellDigits::new();
    loop {
        let before = (placed.len(), eliminated.len());
        for &(c, d) in &placed {
            eliminated.extend((1..=n as u8).filter(|&e| e != d).map(|e| (c, e)));
            eliminated.extend(peers(n, c).into_iter().map(|p| (p, d)));
        }
        for c in 0..n * n {
            for d in 1..=n as u8 {
                let naked = (1..=n as u8).all(|e| e == d || eliminated.contains(&(c, e)));
                let hidden = hidden
                    && all_units
                        .iter()
                        .filter(|u| u.contains(&c))
                        .any(|u| u.iter().all(|&x| x == c || eliminated.contains(&(x, d))));
                if naked || hidden {
                    placed.insert((c, d));
                }
            }
        }
        if (placed.len(), eliminated.len()) == before {
            return (placed, eliminated);
        }
    }
}

/// Whether `grid` is a complete valid solution that keeps `givens`.
fn is_solution(givens: &[u8], grid: &[u8]) -> bool {
    let n = side(grid.len());
    givens.iter().zip(grid).all(|(&g, &d)| g == 0 || g == d)
        && grid.iter().all(|&d| d >= 1 && d as usize <= n)
        && units(n).iter().all(|u| {
            let set: BTreeSet<u8> = u.iter().map(|&c| grid[c]).collect();
            set.len() == n
        })
}

/// Whether no digit repeats in a unit among the givens.
fn givens_consistent(givens: &[u8]) -> bool {
    let n = side(givens.len());
    units(n).iter().all(|u| {
        let placed: Vec<u8> = u.iter().map(|&c| givens[c]).filter(|&d| d != 0).collect();
        let set: BTreeSet<u8> = placed.iter().copied().collect();
        set.len() == placed.len()
    })
}

/// Counts solutions by backtracking, up to `limit`; fills `first`.
fn count_solutions(grid: &mut Vec<u8>, limit: usize, first: &mut Option<Vec<u8>>) -> usize {
    let n = side(grid.len());
    let Some(cell) = grid.iter().position(|&d| d == 0) else {
        if first.is_none() {
            *first = Some(grid.clone());
        }
        return 1;
    };
    let seen: BTreeSet<u8> = peers(n, cell).iter().map(|&p| grid[p]).collect();
    let mut total = 0;
    for d in 1..=n as u8 {
        if seen.contains(&d) {
            continue;
        }
        grid[cell] = d;
        total += count_solutions(grid, limit - total, first);
        grid[cell] = 0;
        if total >= limit {
            break;
        }
    }
    total
}

/// The unique solution of a small puzzle (panics if not unique).
fn unique_solution(givens: &[u8]) -> Vec<u8> {
    let mut first = None;
    let count = count_solutions(&mut givens.to_vec(), 2, &mut first);
    assert_eq!(count, 1, "the test puzzle must have exactly one solution");
    first.expect("a solution")
}

/// A complete valid grid of side `b * b` by the classic shifting pattern.
fn pattern_solution(b: usize) -> Vec<u8> {
    let n = b * b;
    let mut g = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            g.push(((b * (r % b) + r / b + c) % n + 1) as u8);
        }
    }
    g
}

/// `(cell, digit)` pairs whose bit is clear in a candidate mask vector.
fn eliminated_pairs(cands: &[u32], n: usize) -> BTreeSet<(usize, u8)> {
    let mut out = BTreeSet::new();
    for (c, &m) in cands.iter().enumerate() {
        for d in 1..=n as u8 {
            if m & (1 << d) == 0 {
                out.insert((c, d));
            }
        }
    }
    out
}

/// 0-based cell index of `r<row>c<col>` in a grid of side `n`.
fn at(n: usize, row: usize, col: usize) -> usize {
    (row - 1) * n + (col - 1)
}

// ----- running sudolog -----

fn geometry_for(cells: &[u8]) -> Geometry {
    Geometry::from_cell_count(cells.len()).expect("a supported size")
}

/// An engine over the standard library's grid and singles (the semantics
/// these tests compute independently) plus `extra` (if any).
fn standard_engine(extra: Option<&str>) -> Engine {
    let mut sources = RuleSources::standard();
    if let Some(text) = extra {
        sources.add_text("test.dl", text);
    }
    let mut program = match sources.load() {
        Ok(p) => p,
        Err(e) => panic!("the test rules do not load:\n{e}"),
    };
    if let Err(e) = program.restrict_techniques(&["singles".to_string()]) {
        panic!("{e}");
    }
    match Engine::new(program) {
        Ok(e) => e,
        Err(d) => panic!("the test rules do not compile:\n{}", d.render()),
    }
}

/// An engine over `text` alone (no standard library).
fn bare_engine(text: &str) -> Engine {
    let mut sources = RuleSources::default();
    sources.add_text("test.dl", text);
    build(sources)
}

fn build(sources: RuleSources) -> Engine {
    let program = match sources.load() {
        Ok(p) => p,
        Err(e) => panic!("the test rules do not load:\n{e}"),
    };
    match Engine::new(program) {
        Ok(e) => e,
        Err(d) => panic!("the test rules do not compile:\n{}", d.render()),
    }
}

/// Everything observable after running one puzzle to its end.
#[derive(Debug, PartialEq)]
struct Observed {
    status: Status,
    grid: Vec<u8>,
    candidates: Vec<u32>,
    placed: BTreeSet<(usize, u8)>,
    eliminated: BTreeSet<(usize, u8)>,
    contradictions: BTreeSet<(String, Option<usize>)>,
    firings: Vec<(usize, u32)>,
}

/// A solve of `givens` (no guessing) run to its end.
fn run_to_end<'e>(engine: &'e Engine, givens: &[u8]) -> Solve<'e> {
    let mut solve = engine.start(geometry_for(givens), givens);
    solve.run();
    solve
}

fn observe(engine: &Engine, givens: &[u8]) -> Observed {
    let g = geometry_for(givens);
    let mut solve = engine.start(g, givens);
    let status = solve.run();
    let candidates = solve.candidates();
    Observed {
        status,
        grid: solve.grid(),
        eliminated: eliminated_pairs(&candidates, g.n),
        candidates,
        placed: solve.placed_facts().into_iter().collect(),
        contradictions: solve.contradictions().into_iter().collect(),
        firings: solve.firings(),
    }
}

fn puzzle(line: &str) -> Puzzle {
    PuzzleReader::new(line.as_bytes(), "inline")
        .next()
        .expect("one puzzle")
        .expect("a valid puzzle")
}

fn grid_string(grid: &[u8]) -> String {
    grid.iter()
        .map(|&d| char::from_digit(d as u32, 10).unwrap_or('.'))
        .collect()
}

/// The reasons grid.dl gives its `contradiction` facts, read from its text.
fn grid_dl_reasons() -> BTreeSet<String> {
    GRID_DL
        .split("contradiction(\"")
        .skip(1)
        .map(|rest| rest.split('"').next().expect("a closing quote").to_string())
        .collect()
}

// ----- the standard library on 9x9 puzzles -----

#[test]
fn essay_puzzle_solves_with_the_standard_rules() {
    // Singles alone solve the first essay puzzle, to the known solution.
    let givens = cells(ESSAY);
    let solution = cells(ESSAY_SOLUTION);
    assert!(is_solution(&givens, &solution), "test data");
    let engine = standard_engine(None);
    let outcome = solve_logic(&engine, &puzzle(ESSAY));
    assert_eq!(outcome.verdict, Verdict::Solved);
    assert_eq!(grid_string(&outcome.grid), ESSAY_SOLUTION);
    // In a solved grid every cell has exactly its own digit left.
    for (c, &m) in outcome.candidates.iter().enumerate() {
        assert_eq!(m, 1 << solution[c], "candidates of cell {c}");
    }
    assert!(outcome.contradictions.is_empty());
}

#[test]
fn stalled_puzzles_keep_every_true_digit() {
    // Two harder puzzles stall with singles; what is left is sound: every
    // placed digit is the solution's and no candidate set excludes the
    // solution's digit.
    let engine = standard_engine(None);
    for (line, sol) in [(STALL_1, STALL_1_SOLUTION), (STALL_2, STALL_2_SOLUTION)] {
        let givens = cells(line);
        let solution = cells(sol);
        assert!(is_solution(&givens, &solution), "test data");
        let outcome = solve_logic(&engine, &puzzle(line));
        assert_eq!(outcome.verdict, Verdict::Stalled, "{line}");
        assert!(outcome.grid.contains(&0), "a stall leaves open cells");
        assert!(outcome.contradictions.is_empty());
        for c in 0..81 {
            if givens[c] != 0 {
                assert_eq!(outcome.grid[c], givens[c], "given kept at {c}");
            }
            if outcome.grid[c] != 0 {
                assert_eq!(outcome.grid[c], solution[c], "{line}: placed digit at {c}");
                assert_eq!(outcome.candidates[c], 1 << solution[c], "{line}: cell {c}");
            }
            assert_ne!(
                outcome.candidates[c] & (1 << solution[c]),
                0,
                "{line}: cell {c} lost its solution digit {}",
                solution[c]
            );
        }
        // Something beyond the givens was found, but not everything.
        let placed = outcome.grid.iter().filter(|&&d| d != 0).count();
        let given = givens.iter().filter(|&&d| d != 0).count();
        assert!(placed >= given && placed < 81);
    }
}

#[test]
fn without_singles_the_grid_rules_only_eliminate() {
    // grid.dl alone places the givens and eliminates exactly the digits of
    // each cell's peers (and a given cell's other digits), then stalls;
    // the standard library (with singles.dl) solves the same puzzle.
    let givens = cells(ESSAY);
    let mut sources = RuleSources::default();
    sources.add_text("rules/grid.dl", include_str!("../rules/grid.dl"));
    let grid_only = build(sources);
    let outcome = solve_logic(&grid_only, &puzzle(ESSAY));
    assert_eq!(outcome.verdict, Verdict::Stalled);
    assert_eq!(outcome.grid, givens, "no placement rules: only the givens");
    for c in 0..81 {
        let expected: u32 = if givens[c] != 0 {
            1 << givens[c]
        } else {
            let seen: BTreeSet<u8> = peers(9, c).iter().map(|&p| givens[p]).collect();
            (1..=9u8)
                .filter(|d| !seen.contains(d))
                .fold(0, |m, d| m | 1 << d)
        };
        assert_eq!(outcome.candidates[c], expected, "candidates of cell {c}");
    }
    let full = solve_logic(&standard_engine(None), &puzzle(ESSAY));
    assert_eq!(full.verdict, Verdict::Solved);
}

// ----- recursion -----

#[test]
fn recursive_closure_along_rows_has_the_exact_size() {
    // `right_of` is the transitive closure of "next cell in the row": a cell
    // in column k has n - k cells to its right, n * n(n-1)/2 pairs in all.
    for givens in [vec![0u8; 16], vec![0u8; 81]] {
        let n = side(givens.len());
        let total = n * n * (n - 1) / 2;
        let text = format!(
            r#"
.decl next(a: cell, b: cell)
next(A, B) :- row(A, R), row(B, R), col(A, K), col(B, L), L = K + 1.
.decl right_of(a: cell, b: cell)
right_of(A, B) :- next(A, B).
right_of(A, C) :- right_of(A, B), next(B, C).
// Cell A loses the digits 1..(number of cells to its right).
eliminated(A, D) :- cell(A), digit(D), count : {{ right_of(A, B) }} >= D.
// The whole relation: exactly `total` pairs (and so not one more or less).
placed(r1c1, 1) :- count : {{ right_of(A, B) }} = {total}.
placed(r1c1, 2) :- count : {{ right_of(A, B) }} = {}.
placed(r1c1, 3) :- count : {{ right_of(A, B) }} = {}.
"#,
            total - 1,
            total + 1
        );
        let obs = observe(&bare_engine(&text), &givens);
        let mut expected = BTreeSet::new();
        for r in 1..=n {
            for k in 1..=n {
                for d in 1..=(n - k) {
                    expected.insert((at(n, r, k), d as u8));
                }
            }
        }
        assert_eq!(obs.eliminated.len(), total, "{n}x{n}");
        assert_eq!(obs.eliminated, expected, "{n}x{n}");
        assert_eq!(obs.placed, BTreeSet::from([(0, 1)]), "{n}x{n}");
    }
}

#[test]
fn recursive_reachability_over_user_facts_with_a_cycle() {
    // Facts written in a rule file, and reachability over them (with a
    // cycle), against a breadth-first search done here.
    let edges = [
        ((1, 1), (2, 3)),
        ((2, 3), (4, 4)),
        ((4, 4), (2, 3)),
        ((4, 4), (3, 1)),
        ((1, 2), (1, 1)),
        ((3, 3), (3, 4)),
    ];
    let mut text = String::from(".decl edge(a: cell, b: cell)\n");
    for ((r1, c1), (r2, c2)) in edges {
        text.push_str(&format!("edge(r{r1}c{c1}, r{r2}c{c2}).\n"));
    }
    text.push_str(
        r#"
.decl reach(a: cell, b: cell)
reach(A, B) :- edge(A, B).
reach(A, C) :- reach(A, B), edge(B, C).
// What r1c1 reaches loses 1; a cell on a cycle loses 2.
eliminated(B, 1) :- reach(r1c1, B).
eliminated(A, 2) :- reach(A, A).
"#,
    );
    let n = 4;
    let idx = |(r, c): (usize, usize)| at(n, r, c);
    let mut adj: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (a, b) in edges {
        adj.entry(idx(a)).or_default().push(idx(b));
    }
    let reach_from = |s: usize| {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for &y in adj.get(&x).into_iter().flatten() {
                if seen.insert(y) {
                    queue.push_back(y);
                }
            }
        }
        seen
    };
    let mut expected = BTreeSet::new();
    for b in reach_from(idx((1, 1))) {
        expected.insert((b, 1u8));
    }
    for a in 0..n * n {
        if reach_from(a).contains(&a) {
            expected.insert((a, 2u8));
        }
    }
    let obs = observe(&bare_engine(&text), &[0; 16]);
    assert_eq!(obs.eliminated, expected);
}

#[test]
fn joins_of_two_changing_relations_see_every_pair_whatever_the_arrival_order() {
    // `eliminated(_, 1)` walks along row 1 one cell per round. The other
    // sides of the joins arrive before it (`fast`), after it (`late`), in
    // the same round (`s1`, `s2`), or carry a value beside the key
    // (`at_col`, a merge join rather than a lookup): every pair must be
    // found once both facts exist.
    let text = r#"
.decl next(a: cell, b: cell)
next(A, B) :- row(A, R), row(B, R), col(A, K), col(B, L), L = K + 1.
eliminated(r1c1, 1) :- cell(r1c1).
eliminated(B, D) :- eliminated(A, D), next(A, B).
.decl fast(c: cell, d: digit)
fast(C, D) :- eliminated(r1c1, D), row(C, 1), col(C, K), K >= 3.
.decl late(c: cell, d: digit)
late(C, D) :- eliminated(r1c4, D), row(C, 1).
.decl s1(c: cell, d: digit)
s1(C, D) :- eliminated(C, D).
.decl s2(c: cell, d: digit)
s2(C, D) :- eliminated(C, D).
.decl at_col(c: cell, k: number)
at_col(C, K) :- eliminated(C, 1), col(C, K).
placed(C, 1) :- fast(C, D), eliminated(C, D).
placed(C, 2) :- late(C, D), eliminated(C, D).
placed(C, 3) :- s1(C, D), s2(C, D).
placed(C, 4) :- eliminated(C, 1), at_col(C, K), K >= 3.
"#;
    let obs = observe(&bare_engine(text), &[0; 16]);
    let mut expected = BTreeSet::new();
    for k in 1..=4 {
        expected.insert((at(4, 1, k), 2u8));
        expected.insert((at(4, 1, k), 3u8));
        if k >= 3 {
            expected.insert((at(4, 1, k), 1u8));
            expected.insert((at(4, 1, k), 4u8));
        }
    }
    assert_eq!(obs.placed, expected);
    let walked: BTreeSet<(usize, u8)> = (1..=4).map(|k| (at(4, 1, k), 1u8)).collect();
    assert_eq!(obs.eliminated, walked);
}

// ----- negation -----

#[test]
fn stratified_negation_of_static_relations() {
    // `open` = cells without a given (negation of `given`); `blind` = open
    // cells that see no given (negation of a derived static relation).
    let text = r#"
.decl open(c: cell)
open(C) :- cell(C), !given(C, _).
.decl sees_given(c: cell)
sees_given(C) :- in_unit(C, U), in_unit(X, U), X != C, given(X, _).
.decl blind(c: cell)
blind(C) :- open(C), !sees_given(C).
eliminated(C, 1) :- open(C).
eliminated(C, 2) :- blind(C).
"#;
    let engine = bare_engine(text);
    for line in ["1...............", SMALL, ESSAY] {
        let givens = cells(line);
        let n = side(givens.len());
        let mut expected = BTreeSet::new();
        for c in 0..n * n {
            if givens[c] == 0 {
                expected.insert((c, 1u8));
                if peers(n, c).iter().all(|&p| givens[p] == 0) {
                    expected.insert((c, 2u8));
                }
            }
        }
        let obs = observe(&engine, &givens);
        assert_eq!(obs.eliminated, expected, "{line}");
        if line == "1..............." {
            // Row 1, column 1 and box 1 see r1c1: 16 - 1 - 7 = 8 blind cells.
            assert_eq!(expected.iter().filter(|p| p.1 == 2).count(), 8);
        }
    }
}

// ----- counts over static relations -----

#[test]
fn exact_and_less_than_counts_over_units_including_empty_groups() {
    // Three extra units: a diagonal with n cells, a pair, and one with no
    // cells. `= N` finds the full units, `< 3` the small ones (a count of
    // 0 included), `= 0` the empty one. Unit names are read back as the
    // reasons of contradiction facts at r1c1, r1c2 and r1c3.
    let text = r#"
unit("diag").
in_unit(C, "diag") :- row(C, R), col(C, R).
unit("pair").
in_unit(r1c1, "pair").
in_unit(r2c2, "pair").
unit("none").
.decl full(u: unit)
full(U) :- unit(U), size(N), count : { in_unit(C, U) } = N.
.decl small(u: unit)
small(U) :- unit(U), count : { in_unit(C, U) } < 3.
.decl empty(u: unit)
empty(U) :- unit(U), count : { in_unit(C, U) } = 0.
contradiction(U, r1c1) :- full(U).
contradiction(U, r1c2) :- small(U).
contradiction(U, r1c3) :- empty(U).
"#;
    let engine = bare_engine(text);
    for n in [4usize, 9] {
        let obs = observe(&engine, &vec![0; n * n]);
        assert_eq!(obs.status, Status::Contradiction);
        let mut expected = BTreeSet::new();
        for kind in ["row", "col", "box"] {
            for i in 1..=n {
                expected.insert((format!("{kind}{i}"), Some(0)));
            }
        }
        expected.insert(("diag".to_string(), Some(0)));
        expected.insert(("pair".to_string(), Some(1)));
        expected.insert(("none".to_string(), Some(1)));
        expected.insert(("none".to_string(), Some(2)));
        assert_eq!(obs.contradictions, expected, "{n}x{n}");
    }
}

#[test]
fn exact_counts_of_givens_per_row_including_zero() {
    // `count = K` with K enumerated from the digits: each cell of row r
    // loses digit (givens in row r) + 1, so rows without givens lose 1.
    let text = r#"
.decl row_givens(u: unit, k: number)
row_givens(U, K) :- unit_kind(U, "row"), digit(D), K = D - 1,
    count : { in_unit(C, U), given(C, _) } = K.
eliminated(C, D) :- row_givens(U, K), in_unit(C, U), D = K + 1.
"#;
    let engine = bare_engine(text);
    for line in [SMALL, "................", ESSAY, STALL_2] {
        let givens = cells(line);
        let n = side(givens.len());
        let mut expected = BTreeSet::new();
        for r in 0..n {
            let k = (0..n).filter(|&c| givens[r * n + c] != 0).count();
            assert!(k < n, "test data: no full row");
            for c in 0..n {
                expected.insert((r * n + c, (k + 1) as u8));
            }
        }
        assert_eq!(observe(&engine, &givens).eliminated, expected, "{line}");
    }
}

#[test]
fn less_than_count_and_negation_inside_a_count() {
    // Boxes with fewer than 2 givens (0 included) place 1 in their cells;
    // each cell loses digit (open cells in its column): a negation inside a
    // count, compared exactly.
    let text = r#"
.decl sparse(u: unit)
sparse(U) :- unit_kind(U, "box"), count : { in_unit(C, U), given(C, _) } < 2.
placed(C, 1) :- sparse(U), in_unit(C, U).
.decl col_open(u: unit, k: number)
col_open(U, K) :- unit_kind(U, "col"), digit(K),
    count : { in_unit(C, U), !given(C, _) } = K.
eliminated(C, K) :- col_open(U, K), in_unit(C, U).
"#;
    let engine = bare_engine(text);
    for line in [SMALL, ".1..2...3.4.....", ESSAY] {
        let givens = cells(line);
        let n = side(givens.len());
        let b = box_width(n);
        let mut placed = BTreeSet::new();
        let mut eliminated = BTreeSet::new();
        for bx in 0..n {
            let members: Vec<usize> = (0..n)
                .map(|k| ((bx / b) * b + k / b) * n + (bx % b) * b + k % b)
                .collect();
            if members.iter().filter(|&&c| givens[c] != 0).count() < 2 {
                placed.extend(members.iter().map(|&c| (c, 1u8)));
            }
        }
        for col in 0..n {
            let open = (0..n).filter(|&r| givens[r * n + col] == 0).count();
            if open >= 1 {
                eliminated.extend((0..n).map(|r| (r * n + col, open as u8)));
            }
        }
        let obs = observe(&engine, &givens);
        assert_eq!(obs.placed, placed, "{line}");
        assert_eq!(obs.eliminated, eliminated, "{line}");
    }
}

#[test]
fn count_counts_distinct_bindings_of_its_own_variables() {
    // `count : { in_unit(C, U), in_unit(X, U), X != C }` counts (U, X)
    // pairs: 3(n-1). Through a `peer` relation it counts distinct cells.
    for n in [4usize, 9] {
        let pairs = 3 * (n - 1);
        let peer_count = peers(n, 0).len();
        let text = format!(
            r#"
.decl peer2(a: cell, b: cell)
peer2(A, B) :- in_unit(A, U), in_unit(B, U), A != B.
// Every cell: exactly {pairs} (unit, other cell) pairs, {peer_count} distinct peers.
placed(C, 1) :- cell(C), count : {{ in_unit(C, U), in_unit(X, U), X != C }} = {pairs}.
placed(C, 2) :- cell(C), count : {{ peer2(C, X) }} = {peer_count}.
// And not the other way round.
placed(C, 3) :- cell(C), count : {{ peer2(C, X) }} = {pairs}.
"#
        );
        let obs = observe(&bare_engine(&text), &vec![0; n * n]);
        let expected: BTreeSet<(usize, u8)> =
            (0..n * n).flat_map(|c| [(c, 1u8), (c, 2u8)]).collect();
        assert_eq!(obs.placed, expected, "{n}x{n}");
    }
}

#[test]
fn wildcard_in_a_count_counts_distinct_values() {
    // Two rules eliminate overlapping digits: 1..=row and 1..=col. The
    // count of `eliminated(C, _)` is the number of distinct digits,
    // max(row, col), not the r + c derivations; `placed` shows it.
    let text = r#"
eliminated(C, D) :- row(C, R), digit(D), D <= R.
eliminated(C, D) :- col(C, K), digit(D), D <= K.
placed(C, D) :- cell(C), digit(D), count : { eliminated(C, _) } >= D.
"#;
    let engine = bare_engine(text);
    for n in [4usize, 9] {
        let obs = observe(&engine, &vec![0; n * n]);
        let mut expected = BTreeSet::new();
        for r in 1..=n {
            for k in 1..=n {
                for d in 1..=r.max(k) {
                    expected.insert((at(n, r, k), d as u8));
                }
            }
        }
        assert_eq!(obs.placed, expected, "{n}x{n}");
    }
}

// ----- arithmetic and comparisons -----

#[test]
fn assignment_and_arithmetic() {
    // `J = N + 1 - K` binds J, which then selects a cell: each given's
    // digit is eliminated from its mirror image across the vertical axis.
    // `K = N + 1 - R` with K bound is a filter: the anti-diagonal.
    let text = r#"
.decl mirror(a: cell, b: cell)
mirror(C, M) :- row(C, R), col(C, K), size(N), J = N + 1 - K, row(M, R), col(M, J).
eliminated(M, D) :- mirror(C, M), given(C, D).
placed(C, 1) :- row(C, R), col(C, K), size(N), K = N + 1 - R.
"#;
    let engine = bare_engine(text);
    for line in [SMALL, ESSAY] {
        let givens = cells(line);
        let n = side(givens.len());
        let mut eliminated = BTreeSet::new();
        let mut placed = BTreeSet::new();
        for r in 1..=n {
            for k in 1..=n {
                let d = givens[at(n, r, k)];
                if d != 0 {
                    eliminated.insert((at(n, r, n + 1 - k), d));
                }
                if k == n + 1 - r {
                    placed.insert((at(n, r, k), 1u8));
                }
            }
        }
        let obs = observe(&engine, &givens);
        assert_eq!(obs.eliminated, eliminated, "{line}");
        assert_eq!(obs.placed, placed, "{line}");
    }
}

#[test]
fn comparisons_lt_le_ne_gt_and_negative_numbers() {
    // A filter mixing every comparison with sums, differences and a
    // negative constant, checked against the same formula in Rust.
    let text = r#"
placed(C, D) :- row(C, R), col(C, K), digit(D),
    D < R + K, R <= K, D != K, D - R > -2, D >= 2, 0 - D != -3.
"#;
    let engine = bare_engine(text);
    for n in [4usize, 9] {
        let mut expected = BTreeSet::new();
        for r in 1..=n as i64 {
            for k in 1..=n as i64 {
                for d in 1..=n as i64 {
                    if d < r + k && r <= k && d != k && d - r > -2 && d >= 2 && -d != -3 {
                        expected.insert((at(n, r as usize, k as usize), d as u8));
                    }
                }
            }
        }
        assert!(!expected.is_empty());
        assert_eq!(
            observe(&engine, &vec![0; n * n]).placed,
            expected,
            "{n}x{n}"
        );
    }
}

// ----- dynamic user relations -----

#[test]
fn dynamic_user_relation_feeds_other_rules() {
    // `row_has` is derived from `placed` and produces new `placed` facts in
    // the next row's first cell, round after round, down the grid.
    let text = r#"
placed(C, D) :- given(C, D).
.decl row_has(r: number, d: digit)
row_has(R, D) :- placed(C, D), row(C, R).
placed(B, D) :- row_has(R, D), S = R + 1, row(B, S), col(B, 1).
"#;
    let engine = bare_engine(text);
    for line in ["12..............", ".3......4......."] {
        let givens = cells(line);
        let n = 4;
        // Plain fixpoint of the same two rules.
        let mut placed: BTreeSet<(usize, u8)> = givens
            .iter()
            .enumerate()
            .filter(|(_, d)| **d != 0)
            .map(|(c, d)| (c, *d))
            .collect();
        loop {
            let mut next = placed.clone();
            for &(c, d) in &placed {
                let r = c / n;
                if r + 1 < n {
                    next.insert(((r + 1) * n, d));
                }
            }
            if next == placed {
                break;
            }
            placed = next;
        }
        let obs = observe(&engine, &givens);
        assert_eq!(obs.placed, placed, "{line}");
        // r4c1 ends up with every digit given above it.
        for d in givens.iter().filter(|&&d| d != 0) {
            assert!(placed.contains(&(12, *d)));
        }
    }
}

#[test]
fn naked_singles_through_a_dynamic_user_relation() {
    // A rule set of its own: peers' digits reach `eliminated` only through
    // the user relation `taken`, derived from `placed`; a naked-single rule
    // places digits, which feed `taken` again. The result must equal a
    // naked-singles propagation done here in plain Rust.
    let text = r#"
.decl peer(a: cell, b: cell)
peer(A, B) :- in_unit(A, U), in_unit(B, U), A != B.
placed(C, D) :- given(C, D).
.decl taken(c: cell, d: digit)
taken(P, D) :- placed(C, D), peer(C, P).
eliminated(P, D) :- taken(P, D).
eliminated(C, E) :- placed(C, D), digit(E), E != D.
placed(C, D) :- cell(C), digit(D), size(N),
    count : { eliminated(C, E), E != D } >= N - 1.
"#;
    let engine = bare_engine(text);
    for line in [SMALL, ESSAY, STALL_1] {
        let givens = cells(line);
        let (placed, eliminated) = singles_fixpoint(&givens, false);
        let obs = observe(&engine, &givens);
        assert_eq!(obs.placed, placed, "{line}");
        assert_eq!(obs.eliminated, eliminated, "{line}");
    }
}

// ----- contradictions -----

#[test]
fn givens_without_duplicates_but_without_solution_are_a_contradiction() {
    // r1c1 sees 1 and 2 in its row and 3 and 4 in its column: no digit is
    // left for it, although no digit repeats among the givens.
    let line = ".12.....3...4...";
    let givens = cells(line);
    assert!(givens_consistent(&givens), "test data: no duplicate");
    assert_eq!(
        count_solutions(&mut givens.clone(), 1, &mut None),
        0,
        "test data: no solution"
    );
    let reasons = grid_dl_reasons();
    assert_eq!(reasons.len(), 3, "grid.dl has three contradiction rules");
    let no_digit = reasons
        .iter()
        .find(|r| r.contains("no digit"))
        .expect("grid.dl's reason for an empty cell")
        .clone();

    // grid.dl alone: the empty cell r1c1 is reported with grid.dl's reason.
    let mut sources = RuleSources::default();
    sources.add_text("rules/grid.dl", GRID_DL);
    let obs = observe(&build(sources), &givens);
    assert_eq!(obs.status, Status::Contradiction);
    assert!(
        obs.contradictions.contains(&(no_digit.clone(), Some(0))),
        "{:?}",
        obs.contradictions
    );
    assert!(obs.contradictions.iter().all(|(r, _)| reasons.contains(r)));

    // The standard library: the verdict is a contradiction, with reasons
    // from grid.dl.
    let outcome = solve_logic(&standard_engine(None), &puzzle(line));
    assert_eq!(outcome.verdict, Verdict::Contradiction);
    assert!(!outcome.contradictions.is_empty());
    assert!(
        outcome
            .contradictions
            .iter()
            .all(|(r, _)| reasons.contains(r)),
        "{:?}",
        outcome.contradictions
    );
}

// ----- one engine, many puzzles -----

#[test]
fn one_engine_solves_many_puzzles_of_several_sizes_identically() {
    // One engine runs 9x9, 4x4, 16x16 and 9x9 again, in any order, with the
    // same results as a fresh engine per puzzle and the known solutions.
    let small = cells(SMALL);
    let small_solution = unique_solution(&small);
    let big_solution = pattern_solution(4);
    assert!(is_solution(&big_solution, &big_solution), "test data");
    let big: Vec<u8> = big_solution
        .iter()
        .enumerate()
        .map(|(i, &d)| if (i * 7 + i / 16 * 3) % 5 == 0 { 0 } else { d })
        .collect();
    assert!(big.contains(&0));
    let essay = cells(ESSAY);
    let stall = cells(STALL_1);

    let shared = standard_engine(None);
    let order: [(&[u8], Option<&[u8]>); 8] = [
        (&essay, Some(&cells(ESSAY_SOLUTION))),
        (&essay, Some(&cells(ESSAY_SOLUTION))),
        (&small, Some(&small_solution)),
        (&big, Some(&big_solution)),
        (&stall, None),
        (&small, Some(&small_solution)),
        (&essay, Some(&cells(ESSAY_SOLUTION))),
        (&big, Some(&big_solution)),
    ];
    let mut first_seen: BTreeMap<Vec<u8>, Observed> = BTreeMap::new();
    for (givens, solution) in order {
        let obs = observe(&shared, givens);
        match solution {
            Some(sol) => {
                assert_eq!(obs.status, Status::Solved);
                assert_eq!(&obs.grid[..], sol);
            }
            None => assert_eq!(obs.status, Status::Stalled),
        }
        let fresh = observe(&standard_engine(None), givens);
        assert_eq!(obs, fresh, "shared engine differs from a fresh one");
        if let Some(before) = first_seen.get(givens) {
            assert_eq!(&obs, before, "same puzzle, different result");
        } else {
            first_seen.insert(givens.to_vec(), obs);
        }
    }
}

// ----- what the engine reports about the end of a run -----

#[test]
fn a_full_but_invalid_grid_is_caught_by_the_independent_check() {
    // A rule set that puts 1 everywhere "solves" every cell; the engine
    // says Solved, and solve_logic's plain check turns it into an invalid
    // result. Two digits in one cell without a contradiction is a conflict.
    let all_ones = bare_engine("placed(C, 1) :- cell(C).\n");
    let obs = observe(&all_ones, &[0; 16]);
    assert_eq!(obs.status, Status::Solved);
    assert_eq!(obs.grid, vec![1; 16]);
    let outcome = solve_logic(&all_ones, &puzzle("................"));
    assert!(
        matches!(outcome.verdict, Verdict::InvalidResult(_)),
        "{:?}",
        outcome.verdict
    );

    let two = bare_engine("placed(r1c1, 1).\nplaced(r1c1, 2).\n");
    let obs = observe(&two, &[0; 16]);
    assert_eq!(obs.status, Status::Conflict);
    assert_eq!(obs.placed, BTreeSet::from([(0, 1), (0, 2)]));
}

#[test]
fn a_runaway_rule_set_stops_at_the_fact_limit() {
    // `grow` counts up without end once something is placed.
    let text = r#"
placed(C, D) :- given(C, D).
.decl grow(x: number)
grow(D) :- placed(C, D).
grow(X) :- grow(Y), X = Y + 1.
"#;
    let mut engine = bare_engine(text);
    engine.set_fact_limit(5_000);
    let obs = observe(&engine, &cells(SMALL));
    assert_eq!(obs.status, Status::FactLimit("relation `grow`".into()));
}

/// Depth-first search over the public fork/guess API: the branching layer
/// written in the test. Returns every solution found (up to `limit`).
fn search(solve: &mut Solve<'_>, limit: usize, found: &mut Vec<Vec<u8>>) {
    match solve.run() {
        Status::Solved => found.push(solve.grid()),
        Status::Stalled => {
            let n = solve.geometry().n;
            let grid = solve.grid();
            let cands = solve.candidates();
            let Some(cell) = (0..n * n)
                .filter(|&c| grid[c] == 0)
                .min_by_key(|&c| (cands[c].count_ones(), c))
            else {
                return;
            };
            let options: Vec<u8> = (1..=n as u8)
                .filter(|d| cands[cell] & (1 << d) != 0)
                .collect();
            for &digit in &options {
                if found.len() >= limit {
                    return;
                }
                let mut child = solve.fork();
                child.guess(Guess {
                    cell,
                    digit,
                    options: options.clone(),
                    refuted: Vec::new(),
                });
                search(&mut child, limit, found);
            }
        }
        _ => {}
    }
}

#[test]
fn forks_continue_independently_and_search_finds_the_unique_solution() {
    // At the stall of a hard puzzle, forking and guessing the solution's
    // digit never leads to a contradiction or a wrong placement, and the
    // parent is left as it was. A full search over forks finds exactly the
    // known solution.
    let engine = standard_engine(None);
    for (line, sol) in [(STALL_1, STALL_1_SOLUTION), (STALL_2, STALL_2_SOLUTION)] {
        let givens = cells(line);
        let solution = cells(sol);
        let g = geometry_for(&givens);
        let mut root = engine.start(g, &givens);
        assert_eq!(root.run(), Status::Stalled);
        let (grid, cands) = (root.grid(), root.candidates());
        let cell = (0..81).find(|&c| grid[c] == 0).expect("an open cell");
        let options: Vec<u8> = (1..=9u8).filter(|d| cands[cell] & (1 << d) != 0).collect();
        assert!(options.contains(&solution[cell]));
        let mut right = root.fork();
        right.guess(Guess {
            cell,
            digit: solution[cell],
            options: options.clone(),
            refuted: Vec::new(),
        });
        let status = right.run();
        assert_ne!(status, Status::Contradiction, "{line}");
        assert_eq!(right.branch.len(), 1);
        let after = right.grid();
        for c in 0..81 {
            if after[c] != 0 {
                assert_eq!(after[c], solution[c], "{line}: cell {c}");
            }
            assert_ne!(right.candidates()[c] & (1 << solution[c]), 0);
        }
        assert!(
            after.iter().filter(|&&d| d != 0).count() > grid.iter().filter(|&&d| d != 0).count()
        );
        // The parent did not move.
        assert_eq!(root.grid(), grid);
        assert_eq!(root.candidates(), cands);
        assert!(root.branch.is_empty());

        let mut found = Vec::new();
        search(&mut engine.start(g, &givens), 2, &mut found);
        assert_eq!(found, vec![solution.clone()], "{line}");
    }
}

#[test]
fn recursion_through_the_state() {
    // `same` links given cells holding the same digit and is closed
    // transitively; it depends on `placed`, so it lives in the fixpoint.
    // Cells whose digit is shared lose 1 (same(A, A)); cells whose digit
    // appears at least 3 times lose 2 (a threshold count over `same`).
    let text = r#"
placed(C, D) :- given(C, D).
.decl link(a: cell, b: cell)
link(A, B) :- placed(A, D), placed(B, D), A != B.
.decl same(a: cell, b: cell)
same(A, B) :- link(A, B).
same(A, C) :- same(A, B), link(B, C).
eliminated(A, 1) :- same(A, A).
eliminated(A, 2) :- cell(A), count : { same(A, B) } >= 3.
"#;
    let engine = bare_engine(text);
    for line in [ESSAY, STALL_1, SMALL] {
        let givens = cells(line);
        let mut by_digit: BTreeMap<u8, usize> = BTreeMap::new();
        for &d in givens.iter().filter(|&&d| d != 0) {
            *by_digit.entry(d).or_default() += 1;
        }
        let mut expected = BTreeSet::new();
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 && by_digit[&d] >= 2 {
                expected.insert((c, 1u8));
            }
            if d != 0 && by_digit[&d] >= 3 {
                expected.insert((c, 2u8));
            }
        }
        assert_eq!(observe(&engine, &givens).eliminated, expected, "{line}");
    }
}

#[test]
fn firings_count_new_facts_per_rule() {
    // Three rules deriving disjoint facts: each rule id is credited with
    // exactly the facts it derived.
    let text = r#"
placed(C, D) :- given(C, D).
eliminated(C, 1) :- in_unit(C, "row2").
eliminated(C, 2) :- in_unit(C, "col3"), !given(C, _).
"#;
    let engine = bare_engine(text);
    let givens = cells(SMALL);
    let n = 4;
    let given_count = givens.iter().filter(|&&d| d != 0).count();
    let open_in_col3 = (0..n).filter(|&r| givens[r * n + 2] == 0).count();
    let obs = observe(&engine, &givens);
    assert_eq!(
        obs.firings,
        vec![
            (0, given_count as u32),
            (1, n as u32),
            (2, open_in_col3 as u32)
        ]
    );
}

#[test]
fn the_standard_library_reaches_the_singles_fixpoint_exactly() {
    // The standard rules' final state (placed and eliminated) equals a
    // naked-and-hidden-singles propagation done here, on solved and on
    // stalled puzzles alike (a monotone fixpoint does not depend on order).
    let engine = standard_engine(None);
    for line in [SMALL, ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let (placed, eliminated) = singles_fixpoint(&givens, true);
        let obs = observe(&engine, &givens);
        assert!(obs.contradictions.is_empty(), "{line}");
        assert_eq!(obs.placed, placed, "{line}");
        assert_eq!(obs.eliminated, eliminated, "{line}");
    }
}

// ----- guards (`unless`) -----

/// Every fact of relation `name` after a run: its values and the step that
/// first derived it.
fn facts_with_steps(solve: &Solve<'_>, name: &str) -> BTreeMap<Vec<i64>, u32> {
    let program = solve.engine().program();
    let rel = program
        .relation(name)
        .unwrap_or_else(|| panic!("no relation {name}"));
    let arity = program.relations[rel].arity();
    solve
        .relation_facts(rel)
        .into_iter()
        .map(|(t, origin)| {
            let values = sudolog::engine::tuple::values(&t, arity)
                .into_iter()
                .map(i64::from)
                .collect();
            let step = origin.map_or(0, |o| o.step);
            (values, step)
        })
        .collect()
}

/// The step at which each cell value was first placed.
fn placement_steps(solve: &Solve<'_>) -> BTreeMap<i64, u32> {
    let mut out = BTreeMap::new();
    for (values, step) in facts_with_steps(solve, "placed") {
        let e = out.entry(values[0]).or_insert(step);
        *e = (*e).min(step);
    }
    out
}

#[test]
fn a_guard_skips_exactly_the_cells_placed_before_the_rule_fires() {
    // The same body twice, once guarded. A guard is checked against the
    // facts known before the round that derives the head, so the guarded
    // relation is the unguarded one minus the cells placed at an earlier
    // step than that fact's.
    let text = r#"
.decl narrow(c: cell)
narrow(C) :- cell(C), size(N), count : { eliminated(C, _) } >= N - 2, unless placed(C, _).
.decl narrow_all(c: cell)
narrow_all(C) :- cell(C), size(N), count : { eliminated(C, _) } >= N - 2.
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let guarded = facts_with_steps(&solve, "narrow");
        let all = facts_with_steps(&solve, "narrow_all");
        let placed = placement_steps(&solve);
        let expected: BTreeMap<Vec<i64>, u32> = all
            .iter()
            .filter(|(c, step)| placed.get(&c[0]).is_none_or(|p| p >= *step))
            .map(|(c, s)| (c.clone(), *s))
            .collect();
        assert_eq!(guarded, expected, "{line}");
        // The guard does something: most cells narrowed after their placement.
        assert!(guarded.len() * 2 < all.len(), "{line}: {guarded:?}");
        // A cell that is open at the end is never skipped.
        for c in all.keys() {
            if !placed.contains_key(&c[0]) {
                assert!(guarded.contains_key(c), "{line}: open cell {c:?} skipped");
            }
        }
    }
}

#[test]
fn a_guard_with_where_skips_exactly_what_a_larger_value_known_before_rules_out() {
    // `gone(C, K)`: at least K digits are eliminated from C, one fact per
    // K, arriving over the rounds. `first` skips a fact when a larger K of
    // the same cell was known before the round that derives it, `first_flipped`
    // says the same with the comparison written the other way round, and
    // `all` is the unguarded twin, whose step is the round the others fire in.
    let text = r#"
.decl gone(c: cell, k: number)
gone(C, K) :- cell(C), digit(K), count : { eliminated(C, _) } >= K.
.decl first(c: cell, k: number)
first(C, K) :- gone(C, K), unless gone(C, J) where J > K.
.decl first_flipped(c: cell, k: number)
first_flipped(C, K) :- gone(C, K), unless gone(C, J) where K < J.
.decl all(c: cell, k: number)
all(C, K) :- gone(C, K).
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let gone = facts_with_steps(&solve, "gone");
        let all = facts_with_steps(&solve, "all");
        let expected: BTreeMap<Vec<i64>, u32> = all
            .iter()
            .filter(|(ck, step)| {
                !gone
                    .iter()
                    .any(|(cj, s)| cj[0] == ck[0] && cj[1] > ck[1] && s < *step)
            })
            .map(|(c, s)| (c.clone(), *s))
            .collect();
        let first = facts_with_steps(&solve, "first");
        assert_eq!(first, expected, "{line}");
        assert_eq!(
            facts_with_steps(&solve, "first_flipped"),
            expected,
            "{line}"
        );
        // The guard does something, and never skips a cell's first fact.
        assert!(first.len() < all.len(), "{line}");
        let cells_with: BTreeSet<i64> = all.keys().map(|c| c[0]).collect();
        let cells_first: BTreeSet<i64> = first.keys().map(|c| c[0]).collect();
        assert_eq!(cells_with, cells_first, "{line}");
    }
}

#[test]
fn a_guard_with_where_in_skips_exactly_the_sets_that_meet_a_value_known_before() {
    // `open_set(U, S)`: a set of two positions of unit U, whenever a cell of
    // U is eliminated (so the rule fires over the rounds). `apart` skips the
    // sets that meet a filled position of U known before the round that
    // derives it; `all` is the unguarded twin, with the same steps.
    let text = r#"
.decl at(c: cell, u: unit, p: number)
at(C, U, P) :- in_unit(C, U), K = count : { in_unit(X, U), X < C }, P = K + 1.
.decl filled_at(u: unit, p: number)
filled_at(U, P) :- placed(C, _), at(C, U, P).
.decl apart(u: unit, s: set)
apart(U, S) :- eliminated(C, _), in_unit(C, U), digit_set(S, 2),
    unless filled_at(U, P) where P in S.
.decl all(u: unit, s: set)
all(U, S) :- eliminated(C, _), in_unit(C, U), digit_set(S, 2).
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1] {
        let solve = run_to_end(&engine, &cells(line));
        let filled = facts_with_steps(&solve, "filled_at");
        let all = facts_with_steps(&solve, "all");
        let expected: BTreeMap<Vec<i64>, u32> = all
            .iter()
            .filter(|(us, step)| {
                !filled
                    .iter()
                    .any(|(up, s)| up[0] == us[0] && us[1] & (1 << up[1]) != 0 && s < *step)
            })
            .map(|(u, s)| (u.clone(), *s))
            .collect();
        let apart = facts_with_steps(&solve, "apart");
        assert_eq!(apart, expected, "{line}");
        // The guard does something, and keeps some sets.
        assert!(!apart.is_empty() && apart.len() < all.len(), "{line}");
    }
}

#[test]
fn a_count_stops_counting_a_group_its_guard_rules_out() {
    // A guard that reads only a count's group lets the engine stop
    // counting that group (it can never derive again): here the guard's
    // variables are bound midway through the counted body, as in the hidden
    // subsets. The result must still be the unguarded relation minus the
    // groups whose guard was known before the step that derived them.
    let text = r#"
.decl done_in(u: unit, d: digit)
done_in(U, D) :- placed(C, D), in_unit(C, U).
.decl few(u: unit, d: digit)
few(U, D) :- unit(U), digit(D), size(N),
    count : { in_unit(Y, U), eliminated(Y, D) } >= N - 2, unless done_in(U, D).
.decl few_all(u: unit, d: digit)
few_all(U, D) :- unit(U), digit(D), size(N),
    count : { in_unit(Y, U), eliminated(Y, D) } >= N - 2.
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let guarded = facts_with_steps(&solve, "few");
        let all = facts_with_steps(&solve, "few_all");
        let done = facts_with_steps(&solve, "done_in");
        let expected: BTreeMap<Vec<i64>, u32> = all
            .iter()
            .filter(|(ud, step)| done.get(*ud).is_none_or(|p| p >= *step))
            .map(|(ud, s)| (ud.clone(), *s))
            .collect();
        assert_eq!(guarded, expected, "{line}");
        assert!(
            guarded.len() < all.len(),
            "{line}: the guard rules nothing out"
        );
    }
}

#[test]
fn a_guard_on_a_whole_tuple_after_several_joins() {
    // `q(C, D)`: C was just placed (with E), D is another digit, and D was
    // not eliminated from C before that round. The grid rules eliminate
    // every such D in the round after the placement, the round this rule
    // runs in too, so D survives only if it had not been eliminated before.
    let text = r#"
.decl q(c: cell, d: digit)
q(C, D) :- placed(C, E), digit(D), D != E, unless eliminated(C, D).
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let q = facts_with_steps(&solve, "q");
        let placed = facts_with_steps(&solve, "placed");
        let eliminated = facts_with_steps(&solve, "eliminated");
        let mut expected = BTreeMap::new();
        for (cd, placed_at) in &placed {
            let fires_at = placed_at + 1;
            for d in 1..=9i64 {
                let gone_before = eliminated
                    .get(&vec![cd[0], d])
                    .is_some_and(|&s| s < fires_at);
                if d != cd[1] && !gone_before {
                    expected.insert(vec![cd[0], d], fires_at);
                }
            }
        }
        assert_eq!(q, expected, "{line}");
        assert!(!q.is_empty(), "{line}");
    }
}

#[test]
fn a_count_with_a_guarded_changing_seed_finds_every_live_pair() {
    // The strong-link pattern: a cheap count says a digit has at most two
    // places left in a unit; the guards keep only pairs of cells where it
    // is still a candidate; the count then checks the others are gone.
    // Checked against the final candidates: a pair whose guards still hold
    // at the end held them all along, so it must be there; and every pair
    // derived must have the digit eliminated everywhere else in the unit.
    let text = r#"
.decl two(u: unit, x: digit)
two(U, X) :- unit(U), digit(X), size(N), count : { in_unit(Y, U), eliminated(Y, X) } >= N - 2.
.decl lk(a: cell, b: cell, x: digit, u: unit)
lk(A, B, X, U) :- two(U, X), in_unit(A, U), in_unit(B, U), A != B, size(N),
    unless eliminated(A, X), unless eliminated(B, X),
    count : { in_unit(Y, U), Y != A, Y != B, eliminated(Y, X) } >= N - 2.
"#;
    let engine = standard_engine(Some(text));
    for line in [STALL_1, STALL_2] {
        let givens = cells(line);
        let n = 9;
        let solve = run_to_end(&engine, &givens);
        let cands = solve.candidates();
        let lk: BTreeSet<(usize, usize, u8)> = facts_with_steps(&solve, "lk")
            .keys()
            .map(|v| {
                let cell = |x: i64| {
                    let (r, c) = sudolog::lang::program::cell_coords(x as _);
                    r * n + c
                };
                (cell(v[0]), cell(v[1]), v[2] as u8)
            })
            .collect();
        let mut live_pairs = BTreeSet::new();
        for u in units(n) {
            for d in 1..=9u8 {
                let places: Vec<usize> = u
                    .iter()
                    .copied()
                    .filter(|&c| cands[c] & (1 << d) != 0)
                    .collect();
                if places.len() == 2 {
                    live_pairs.insert((places[0], places[1], d));
                    live_pairs.insert((places[1], places[0], d));
                }
            }
        }
        for p in &live_pairs {
            assert!(lk.contains(p), "{line}: missing live link {p:?}");
        }
        for &(a, b, d) in &lk {
            let shared = units(n)
                .into_iter()
                .filter(|u| u.contains(&a) && u.contains(&b))
                .any(|u| {
                    u.iter()
                        .all(|&c| c == a || c == b || cands[c] & (1 << d) == 0)
                });
            assert!(shared, "{line}: {a} {b} {d} is no link");
        }
        assert!(!live_pairs.is_empty(), "{line}");
    }
}

#[test]
fn explain_re_derives_every_fact_of_the_guarded_library() {
    // `explain` checks each guard against the facts known before the step
    // that derived the head, as the engine did: every fact of every rule
    // with a guard, in the whole library on stalled puzzles, must come out
    // derived again by its own rule.
    use sudolog::inspect::db::FactDb;
    use sudolog::inspect::explain::{NodeKind, explain};
    use sudolog::lang::program::Literal;
    let program = match RuleSources::standard().load() {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let guarded: BTreeSet<usize> = program
        .rules
        .iter()
        .filter(|r| r.body.iter().any(|l| matches!(l, Literal::Guard(_))))
        .map(|r| r.head_rel)
        .collect();
    assert!(guarded.len() >= 8, "the library guards its helpers");
    let engine = match Engine::new(program) {
        Ok(e) => e,
        Err(d) => panic!("{}", d.render()),
    };
    let mut checked = 0;
    for line in [STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let db = FactDb::new(engine.program(), &solve);
        for &rel in &guarded {
            for fact in &db.rel(rel).facts {
                let node = explain(&db, rel, &fact.values, 0);
                // A given is placed by the grid's rule, not a guarded one
                // (`placed` has guarded rules too: BUG+1's).
                assert!(
                    matches!(
                        node.kind,
                        NodeKind::Derived { .. } | NodeKind::Seen | NodeKind::Given
                    ),
                    "{line}: {} is not re-derived: {:?}",
                    node.fact,
                    node.kind
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} facts checked");
}

// ----- per-puzzle relations behind a count -----

#[test]
fn a_negated_given_beside_a_count_reads_each_puzzle() {
    // The count's groups come from `cell(C), !given(C, _)`: they depend on
    // the puzzle through the negation alone, and must be the puzzle's (not
    // computed once per grid size, with no givens at all).
    let engine = bare_engine(
        ".decl q(c: cell)\nq(C) :- cell(C), !given(C, _), count : { in_unit(C, U) } >= 1.\n",
    );
    for line in ["1..4.........32.", "12..34..........", "................"] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let q: BTreeSet<i64> = facts_with_steps(&solve, "q")
            .into_keys()
            .map(|v| v[0])
            .collect();
        let open = givens.iter().filter(|&&d| d == 0).count();
        assert_eq!(q.len(), open, "{line}: {q:?}");
        for (i, &d) in givens.iter().enumerate() {
            let cell = sudolog::lang::program::cell_value(i / 4, i % 4);
            assert_eq!(q.contains(&i64::from(cell)), d == 0, "{line}: cell {i}");
        }
    }
}

// ----- sets -----

#[test]
fn a_set_over_static_relations_is_exact() {
    // The columns of each unit's cells: a row has them all, a column one,
    // a box three; and `covers` lists, for each small set T, every M that
    // holds the numbers outside T.
    let text = r#"
.decl cols(u: unit, s: number)
cols(U, S) :- unit(U), S = set K : { in_unit(C, U), col(C, K) }.
.decl cover_pair(m: number, t: number)
cover_pair(M, T) :- covers(M, T).
"#;
    let engine = bare_engine(text);
    let givens = cells("1..4.........32.");
    let solve = run_to_end(&engine, &givens);
    let cols = facts_with_steps(&solve, "cols");
    assert_eq!(cols.len(), 12, "{cols:?}");
    let bits = |s: i64| (1..=4).filter(|k| s & (1 << k) != 0).collect::<Vec<_>>();
    let mut by_size = BTreeMap::new();
    for v in cols.keys() {
        *by_size.entry(bits(v[1]).len()).or_insert(0) += 1;
    }
    // 4 rows with 4 columns, 4 columns with 1, 4 boxes with 2.
    assert_eq!(by_size, BTreeMap::from([(1, 4), (2, 4), (4, 4)]));
    let covers = facts_with_steps(&solve, "cover_pair");
    let all = 0b11110;
    let mut expected = BTreeSet::new();
    for t in 1..32i64 {
        if t & 1 != 0 {
            continue;
        }
        for m in 0..32i64 {
            if m & 1 == 0 && (all & !t) & !m == 0 {
                expected.insert(vec![m, t]);
            }
        }
    }
    assert_eq!(covers.keys().cloned().collect::<BTreeSet<_>>(), expected);
    assert_eq!(expected.len(), 80);
}

#[test]
fn in_set_finds_the_members_of_sets_of_any_size() {
    // A row's columns are a set of nine: `in_set` lists each of them and
    // counts them, and a difference of sets (`F - Q`) is a set too, where
    // `digit_set` enumerates sets of up to four only.
    let text = r#"
.decl cols(u: unit, s: set)
cols(U, S) :- unit_kind(U, "row"), S = set K : { in_unit(C, U), col(C, K) }.
.decl member(u: unit, k: number)
member(U, K) :- cols(U, S), in_set(K, S).
.decl size_of(u: unit, n: number)
size_of(U, N) :- cols(U, S), N = count : { in_set(K, S) }.
.decl but_one(u: unit, k: number, n: number)
but_one(U, K, N) :- cols(U, S), digit_set(Q, 1), in_set(K, Q), R = S - Q,
    N = count : { in_set(J, R) }, !in_set(K, R).
"#;
    let engine = standard_engine(Some(text));
    let solve = run_to_end(&engine, &cells(ESSAY));
    let member = facts_with_steps(&solve, "member");
    assert_eq!(member.len(), 81, "{member:?}");
    let sizes = facts_with_steps(&solve, "size_of");
    assert_eq!(sizes.len(), 9);
    assert!(sizes.keys().all(|v| v[1] == 9), "{sizes:?}");
    let but_one = facts_with_steps(&solve, "but_one");
    assert_eq!(but_one.len(), 81);
    assert!(but_one.keys().all(|v| v[2] == 8), "{but_one:?}");
}

#[test]
fn unions_and_intersections_of_sets() {
    // Every pair of digit sets of size 1 and 2 on a 4x4 grid, their union
    // and their intersection, checked against the bitmasks' own.
    let text = r#"
.decl ops(a: set, b: set, u: set, i: set)
ops(A, B, U, I) :- digit_set(A, 1), digit_set(B, 2), U = A | B, I = A & B.
.decl mixed(a: set, b: set, v: set)
mixed(A, B, V) :- digit_set(A, 2), digit_set(B, 2), V = A | B & {1, 2} - {}.
"#;
    let engine = bare_engine(text);
    let solve = run_to_end(&engine, &cells(SMALL));
    let sets = |k: u32| (2..32i64).step_by(2).filter(move |s| s.count_ones() == k);
    let expected: BTreeSet<Vec<i64>> = sets(1)
        .cartesian_product(sets(2).collect::<Vec<_>>())
        .map(|(a, b)| vec![a, b, a | b, a & b])
        .collect();
    assert_eq!(expected.len(), 24);
    let ops: BTreeSet<Vec<i64>> = facts_with_steps(&solve, "ops").into_keys().collect();
    assert_eq!(ops, expected);
    // `&` binds as `*` does, tighter than `|`, `+` and `-`.
    let mixed = facts_with_steps(&solve, "mixed");
    assert_eq!(mixed.len(), 36);
    assert!(
        mixed.keys().all(|v| v[2] == v[0] | (v[1] & 0b110)),
        "{mixed:?}"
    );
}

#[test]
fn a_set_over_the_state_grows_through_what_is_known() {
    // `gone(C, M)`: M is a set of digits eliminated from C. Each fact's set
    // must be eliminated already when it is derived, a cell's sets grow
    // strictly, and the last is everything eliminated from the cell.
    let text = r#"
.decl gone(c: cell, m: number)
gone(C, M) :- cell(C), M = set E : { eliminated(C, E) }.
"#;
    let engine = standard_engine(Some(text));
    for line in [ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let gone = facts_with_steps(&solve, "gone");
        let eliminated = facts_with_steps(&solve, "eliminated");
        let mut last: BTreeMap<i64, (i64, u32)> = BTreeMap::new();
        for (v, step) in &gone {
            let (c, m) = (v[0], v[1]);
            for d in 1..=9i64 {
                if m & (1 << d) != 0 {
                    let at = eliminated.get(&vec![c, d]);
                    assert!(at.is_some_and(|&s| s < *step), "{line}: {c} {d} in {m}");
                }
            }
            assert!(m & 1 == 0 && m != 0, "{line}: {m}");
            // A cell's facts, in order of their sets, are in order of
            // their steps too, each set holding the one before.
            if let Some(&(before, at)) = last.get(&c) {
                assert!(
                    before & !m == 0 && at < *step,
                    "{line}: {c}: {before} then {m}"
                );
            }
            last.insert(c, (m, *step));
        }
        for (c, (m, _)) in last {
            let all: i64 = (1..=9i64)
                .filter(|d| eliminated.contains_key(&vec![c, *d]))
                .fold(0, |s, d| s | 1 << d);
            assert_eq!(m, all, "{line}: cell {c}");
        }
    }
}

#[test]
fn a_sum_and_a_max_over_the_state_grow_through_what_is_placed() {
    // `total(U, P)`: P is the sum of the digits placed in unit U so far,
    // `top(U, M)` their largest, and `full(U)` that their sum passed 44 (a
    // comparison that stays true as the sum grows). A fact's value is at
    // most what was placed in U before its step, a unit's values grow, and
    // its last one is that of every digit it holds at the end.
    let text = r#"
.decl total(u: unit, p: number)
total(U, P) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) }.
.decl top(u: unit, m: number)
top(U, M) :- unit(U), M = max X : { in_unit(C, U), placed(C, X) }.
.decl full(u: unit)
full(U) :- unit(U), P = sum X : { in_unit(C, U), placed(C, X) }, P + 1 > 44.
"#;
    let engine = standard_engine(Some(text));
    let mut solved_units = 0;
    for line in [ESSAY, STALL_1, STALL_2] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let placed = facts_with_steps(&solve, "placed");
        let mut unit_cells: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        for v in facts_with_steps(&solve, "in_unit").into_keys() {
            unit_cells.entry(v[1]).or_default().insert(v[0]);
        }
        assert_eq!(unit_cells.len(), 27);
        for (relation, fold) in [("total", 0), ("top", 1)] {
            let facts = facts_with_steps(&solve, relation);
            let mut last: BTreeMap<i64, (i64, u32)> = BTreeMap::new();
            for (v, step) in &facts {
                let (u, value) = (v[0], v[1]);
                let known: Vec<i64> = placed
                    .iter()
                    .filter(|(p, at)| **at < *step && unit_cells[&u].contains(&p[0]))
                    .map(|(p, _)| p[1])
                    .collect();
                let expected = if fold == 0 {
                    known.iter().sum::<i64>()
                } else {
                    known.iter().copied().max().unwrap_or(0)
                };
                assert!(
                    value <= expected,
                    "{line}: {relation} {u} {value} > {expected}"
                );
                // Facts come in order of their values: a larger value of a
                // unit never arrives before a smaller one.
                if let Some(&(before, at)) = last.get(&u) {
                    assert!(
                        at <= *step,
                        "{line}: {relation} {u}: {before} after {value}"
                    );
                }
                last.insert(u, (value, *step));
            }
            // At the end, each unit's last value is that of all it holds.
            for (u, cells) in &unit_cells {
                let digits: Vec<i64> = (placed.keys())
                    .filter(|p| cells.contains(&p[0]))
                    .map(|p| p[1])
                    .collect();
                let want = if fold == 0 {
                    digits.iter().sum::<i64>()
                } else {
                    digits.iter().copied().max().unwrap_or(0)
                };
                let got = last.get(u).map_or(0, |&(v, _)| v);
                assert_eq!(got, want, "{line}: {relation} {u}");
            }
        }
        let full: BTreeSet<i64> = facts_with_steps(&solve, "full")
            .into_keys()
            .map(|v| v[0])
            .collect();
        let complete: BTreeSet<i64> = (unit_cells.iter())
            .filter(|(_, cells)| placed.keys().filter(|p| cells.contains(&p[0])).count() == 9)
            .map(|(u, _)| *u)
            .collect();
        assert_eq!(full, complete, "{line}");
        solved_units += complete.len();
    }
    assert!(
        solved_units >= 27,
        "the essay puzzle is solved: {solved_units}"
    );
}

#[test]
fn an_exact_count_sees_groups_that_arrive_after_the_first_fixpoint() {
    // The groups of `= 3` come from `placed`: those placed after the first
    // fixpoint must be counted too (issue 14, item 2: only the given 4 was).
    let text = ".decl q(c: cell)\nq(C) :- placed(C, 4), count : { in_unit(C, U) } = 3.\n\
                .decl v(c: cell, k: number)\nv(C, K) :- placed(C, 4), K = count : { in_unit(C, U) }.\n";
    // The whole library: its tiers make fixpoints after the first.
    let mut sources = RuleSources::standard();
    sources.add_text("test.dl", text);
    let engine = build(sources);
    let mut placed_by_rules = 0;
    for line in [
        "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3",
        STALL_1,
    ] {
        let givens = cells(line);
        let solve = run_to_end(&engine, &givens);
        let fours: BTreeSet<i64> = facts_with_steps(&solve, "placed")
            .into_keys()
            .filter(|v| v[1] == 4)
            .map(|v| v[0])
            .collect();
        let q: BTreeSet<i64> = facts_with_steps(&solve, "q")
            .into_keys()
            .map(|v| v[0])
            .collect();
        assert_eq!(q, fours, "{line}");
        placed_by_rules += fours.len() - givens.iter().filter(|&&d| d == 4).count();
        let v: BTreeSet<Vec<i64>> = facts_with_steps(&solve, "v").into_keys().collect();
        let expected: BTreeSet<Vec<i64>> = fours.iter().map(|&c| vec![c, 3]).collect();
        assert_eq!(v, expected, "{line}");
    }
    assert!(placed_by_rules > 0, "no 4 was placed by the rules");
}

#[test]
fn a_uniqueness_check_is_bounded() {
    // `grade`, `facts`, `query` and `explain` count solutions up to two;
    // the branch bound keeps a search with no end in sight from hanging
    // them: past it the answer is `Unknown`, never a wrong one.
    let engine = standard_engine(None);
    let empty = puzzle(&".".repeat(81));
    assert_eq!(
        uniqueness(&engine, &empty, UNIQUENESS_BRANCHES),
        Uniqueness::Several
    );
    let hard = puzzle(STALL_1);
    assert_eq!(
        uniqueness(&engine, &hard, UNIQUENESS_BRANCHES),
        Uniqueness::Unique
    );
    assert_eq!(uniqueness(&engine, &hard, 1), Uniqueness::Unknown);
    let none = puzzle(
        std::fs::read_to_string("tests/data/no_solution.txt")
            .expect("the file")
            .lines()
            .next()
            .expect("a puzzle"),
    );
    assert_eq!(
        uniqueness(&engine, &none, UNIQUENESS_BRANCHES),
        Uniqueness::NoSolution
    );
}

#[test]
fn statics_cut_by_a_deadline_stop_that_solve_and_are_computed_again_for_the_next() {
    let engine = standard_engine(None);
    let givens = cells(ESSAY);
    let g = geometry_for(&givens);
    let passed = std::time::Instant::now();
    let mut cut = engine.start_until(g, None, &givens, Some(passed));
    assert_eq!(cut.run(), Status::Timeout);
    // The next solve of that grid size must not inherit the cut statics.
    let mut solve = engine.start(g, &givens);
    assert_eq!(solve.run(), Status::Solved);
    assert_eq!(solve.grid(), cells(ESSAY_SOLUTION));
}

#[test]
fn a_count_over_a_product_seed_sees_every_group() {
    // `cell(C), digit(D)` share no variable: the engine keeps that seed as
    // a product of its two parts, never stored. `cell_digit`, the same product
    // as one relation, makes the seed of `joined` one stored relation. Both must hold exactly for the eliminated candidates,
    // step for step, and the bound read from the second part (`K`) too.
    let engine = standard_engine(Some(
        ".decl apart(c: cell, d: digit)
         apart(C, D) :- cell(C), digit(D), count : { eliminated(C, D) } >= 1.
         .decl cell_digit(c: cell, d: digit)
         cell_digit(C, D) :- cell(C), digit(D).
         .decl joined(c: cell, d: digit)
         joined(C, D) :- cell_digit(C, D), count : { eliminated(C, D) } >= 1.
         .decl by_set(c: cell, s: number)
         by_set(C, S) :- cell(C), digit_set(S, K), K >= 2,
             count : { in_set(D, S), eliminated(C, D) } >= K.",
    ));
    let givens = cells(STALL_1);
    let solve = run_to_end(&engine, &givens);
    let apart = facts_with_steps(&solve, "apart");
    assert_eq!(apart, facts_with_steps(&solve, "joined"));
    let eliminated: BTreeSet<Vec<i64>> =
        facts_with_steps(&solve, "eliminated").into_keys().collect();
    assert_eq!(apart.keys().cloned().collect::<BTreeSet<_>>(), eliminated);
    // Every digit set (2 to 4 digits) wholly eliminated from a cell.
    let n = 9;
    let cands = solve.candidates();
    let mut expected = BTreeSet::new();
    for (cell, &mask) in cands.iter().enumerate() {
        let gone: Vec<i64> = (1..=9).filter(|d| mask & (1 << d) == 0).collect();
        for k in 2..=4usize {
            for set in gone.iter().copied().combinations(k) {
                let bits: i64 = set.iter().map(|d| 1 << d).sum();
                let c = i64::from(sudolog::lang::program::cell_value(cell / n, cell % n));
                expected.insert(vec![c, bits]);
            }
        }
    }
    let by_set: BTreeSet<Vec<i64>> = facts_with_steps(&solve, "by_set").into_keys().collect();
    assert_eq!(by_set, expected);
}
