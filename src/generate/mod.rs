//! Making puzzles: a random solution grid, then a minimal puzzle with one
//! solution carved out of it, with the rules' own search deciding both
//! (so a variant's rules make puzzles of that variant). What is kept (a
//! rating band, a technique) is the command's to choose: `sudolog
//! generate` grades each made puzzle and keeps those it asked for.
//!
//! A variant whose clues travel with the puzzle (thermometers, cages) is
//! made around a layout of clues the caller gives: every made puzzle
//! carries them, and its solution and givens are found under them.
//!
//! Everything random comes from one seeded generator per puzzle
//! ([`PuzzleRng`]), so a seed makes the same puzzles on any number of
//! threads.

use crate::engine::Engine;
use crate::grid::{ClueFact, ClueValue, Geometry, Puzzle};
use crate::solve::{Mode, SearchOptions, Uniqueness, Verdict, solve, uniqueness};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator one puzzle draws from: the run's seed, on a stream of
/// its own (the puzzle's number), so that puzzles do not depend on each
/// other or on the order threads take them in.
pub type PuzzleRng = ChaCha8Rng;

/// The generator of puzzle `index` of a run seeded with `seed`.
pub fn puzzle_rng(seed: u64, index: u64) -> PuzzleRng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Which cells are given together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Every cell on its own.
    None,
    /// A cell and its image by a half turn about the centre.
    Rotational,
    /// A cell and its mirror image across the middle column.
    Mirror,
}

/// The cells grouped as `symmetry` gives them together (each group is
/// given or empty as one), in row-major order of their first cell.
pub fn orbits(g: Geometry, symmetry: Symmetry) -> Vec<Vec<usize>> {
    let n = g.n;
    let image = |cell: usize| match symmetry {
        Symmetry::None => cell,
        Symmetry::Rotational => n * n - 1 - cell,
        Symmetry::Mirror => g.cell_at(g.row_of(cell), n - 1 - g.col_of(cell)),
    };
    (0..n * n)
        .filter(|&c| image(c) >= c)
        .map(|c| {
            let mut orbit = vec![c];
            if image(c) != c {
                orbit.push(image(c));
            }
            orbit
        })
        .collect()
}

/// Branches a uniqueness check may open while carving: a check that
/// needs more counts as "not one solution", and the clue stays.
const CARVING_BRANCHES: u64 = 10_000;

/// How many sets of random clues are tried for a solution grid before
/// giving up (each almost always has a solution).
const SOLUTION_TRIES: usize = 50;

/// A made puzzle: its givens and the layout's clue facts.
fn made(g: Geometry, cells: Vec<u8>, clues: &[ClueFact]) -> Puzzle {
    let mut puzzle = Puzzle::from_cells(g, cells, "<generate>");
    puzzle.clues = clues.to_vec();
    puzzle
}

/// A random solution grid under the layout's clues, row-major: a few
/// random givens that break no unit, completed by the rules' search.
/// Clues may leave few grids (a killer's sums), and random givens would
/// then rarely fit: later tries give fewer, the last none. `None` if no
/// try found one (a rule set with no solution at all).
pub fn random_solution(
    engine: &Engine,
    g: Geometry,
    clues: &[ClueFact],
    rng: &mut PuzzleRng,
) -> Option<Vec<u8>> {
    let n = g.n;
    let options = SearchOptions {
        mode: Mode::First,
        max_branches: Some(CARVING_BRANCHES),
        ..SearchOptions::default()
    };
    let mut cells: Vec<usize> = (0..n * n).collect();
    for attempt in 0..SOLUTION_TRIES {
        cells.shuffle(rng);
        let mut givens = vec![0u8; n * n];
        // Enough givens that the search's own order leaves little to
        // choose: a grid's digits, plus two (fewer, under clues, as
        // tries fail).
        let count = match clues.is_empty() {
            true => n + 2,
            false if attempt + 1 == SOLUTION_TRIES => 0,
            false => (n + 2) >> (attempt / 10),
        };
        for &cell in cells.iter().take(count) {
            let free: Vec<u8> = (1..=n as u8)
                .filter(|&d| !(0..n * n).any(|o| givens[o] == d && shares_unit(g, o, cell)))
                .collect();
            if let Some(&d) = free.get(rng.gen_range(0..free.len().max(1))) {
                givens[cell] = d;
            }
        }
        let outcome = solve(engine, &made(g, givens, clues), &options);
        if outcome.verdict == Verdict::Solved {
            return Some(outcome.grid);
        }
    }
    None
}

/// Whether two cells share a row, a column or a box.
fn shares_unit(g: Geometry, a: usize, b: usize) -> bool {
    g.row_of(a) == g.row_of(b) || g.col_of(a) == g.col_of(b) || g.box_of(a) == g.box_of(b)
}

/// A minimal puzzle whose one solution is `solution`: starting from the
/// whole grid, each group of `symmetry` in random order is emptied if the
/// puzzle keeps one solution. Uniqueness only grows with clues, so a
/// clue kept once is needed in the end too: no clue (no group) can go.
pub fn carve(
    engine: &Engine,
    g: Geometry,
    clues: &[ClueFact],
    solution: &[u8],
    symmetry: Symmetry,
    rng: &mut PuzzleRng,
) -> Vec<u8> {
    let mut cells = solution.to_vec();
    let mut groups = orbits(g, symmetry);
    groups.shuffle(rng);
    for group in groups {
        for &c in &group {
            cells[c] = 0;
        }
        let puzzle = made(g, cells.clone(), clues);
        if uniqueness(engine, &puzzle, CARVING_BRANCHES) != Uniqueness::Unique {
            for &c in &group {
                cells[c] = solution[c];
            }
        }
    }
    cells
}

/// The largest cage [`random_cages`] makes.
const MAX_CAGE: usize = 5;

/// A random killer layout for `solution`: the grid cut into cages of
/// orthogonally connected cells with different digits (mostly two to
/// four cells, at most [`MAX_CAGE`]; a cell alone joins a neighbouring cage
/// where one has room and lacks its digit, and stays alone otherwise), as `cage(C, G)` and `cage_sum(G,
/// S)` clue facts, the sums read off the solution.
pub fn random_cages(g: Geometry, solution: &[u8], rng: &mut PuzzleRng) -> Vec<ClueFact> {
    let n = g.n;
    let mut cage_of: Vec<Option<usize>> = vec![None; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let neighbours = |c: usize| {
        let (r, k) = (g.row_of(c), g.col_of(c));
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push(g.cell_at(r - 1, k));
        }
        if r + 1 < n {
            out.push(g.cell_at(r + 1, k));
        }
        if k > 0 {
            out.push(g.cell_at(r, k - 1));
        }
        if k + 1 < n {
            out.push(g.cell_at(r, k + 1));
        }
        out
    };
    for start in order {
        if cage_of[start].is_some() {
            continue;
        }
        let id = cages.len();
        let size = rng.gen_range(2..=MAX_CAGE.min(4)) + usize::from(rng.gen_bool(0.1));
        let mut cells = vec![start];
        cage_of[start] = Some(id);
        while cells.len() < size {
            let mut free: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(c))
                .filter(|&x| cage_of[x].is_none())
                .filter(|&x| cells.iter().all(|&c| solution[c] != solution[x]))
                .collect();
            free.sort_unstable();
            free.dedup();
            let Some(&next) = free.get(rng.gen_range(0..free.len().max(1))) else {
                break;
            };
            cage_of[next] = Some(id);
            cells.push(next);
        }
        cages.push(cells);
    }
    // A cell left alone is as good as a given: join it to a neighbouring
    // cage it fits in (room left, its digit not there yet) where there is one.
    for id in 0..cages.len() {
        let [cell] = cages[id][..] else { continue };
        let mut hosts: Vec<usize> = neighbours(cell)
            .into_iter()
            .filter_map(|x| cage_of[x])
            .filter(|&h| h != id && cages[h].len() < MAX_CAGE)
            .filter(|&h| cages[h].iter().all(|&c| solution[c] != solution[cell]))
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        if let Some(&host) = hosts.get(rng.gen_range(0..hosts.len().max(1))) {
            cages[id].clear();
            cages[host].push(cell);
            cage_of[cell] = Some(host);
        }
    }
    cages.retain(|c| !c.is_empty());
    let mut facts = Vec::new();
    let fact = |relation: &str, args: Vec<ClueValue>| ClueFact {
        relation: relation.to_string(),
        arg_columns: vec![1; args.len()],
        args,
        line: 1,
        column: 1,
    };
    for (id, cells) in cages.iter().enumerate() {
        let number = ClueValue::Number(id as i64 + 1);
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        for &c in &sorted {
            facts.push(fact(
                "cage",
                vec![ClueValue::Cell(g.row_of(c), g.col_of(c)), number],
            ));
        }
        let sum: i64 = cells.iter().map(|&c| i64::from(solution[c])).sum();
        facts.push(fact("cage_sum", vec![number, ClueValue::Number(sum)]));
    }
    facts
}

/// A killer puzzle: a random solution, a random cage layout for it (see
/// [`random_cages`]), and as few givens as keep one solution (often none:
/// the cages alone decide). `None` only for a rule set under which no
/// grid has a solution.
pub fn make_killer(
    engine: &Engine,
    g: Geometry,
    symmetry: Symmetry,
    rng: &mut PuzzleRng,
) -> Option<Puzzle> {
    let solution = random_solution(engine, g, &[], rng)?;
    let cages = random_cages(g, &solution, rng);
    let empty = made(g, vec![0; g.cell_count()], &cages);
    if uniqueness(engine, &empty, CARVING_BRANCHES) == Uniqueness::Unique {
        return Some(empty);
    }
    let cells = carve(engine, g, &cages, &solution, symmetry, rng);
    Some(made(g, cells, &cages))
}

/// One made puzzle around a layout of clues (none for a classic puzzle):
/// a random solution, carved (see [`carve`]). `None` only for a rule set
/// (and clues) under which no grid has a solution.
pub fn make(
    engine: &Engine,
    g: Geometry,
    clues: &[ClueFact],
    symmetry: Symmetry,
    rng: &mut PuzzleRng,
) -> Option<Puzzle> {
    let solution = random_solution(engine, g, clues, rng)?;
    let cells = carve(engine, g, clues, &solution, symmetry, rng);
    Some(made(g, cells, clues))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_every_cell_once_in_groups_of_their_symmetry() {
        let g = Geometry::from_side(9).expect("9x9");
        for (symmetry, groups) in [
            (Symmetry::None, 81),
            (Symmetry::Rotational, 41),
            (Symmetry::Mirror, 45),
        ] {
            let orbits = orbits(g, symmetry);
            assert_eq!(orbits.len(), groups, "{symmetry:?}");
            let mut cells: Vec<usize> = orbits.concat();
            cells.sort_unstable();
            assert_eq!(cells, (0..81).collect::<Vec<_>>(), "{symmetry:?}");
        }
        // r1c1 goes with r9c9 under a half turn, with r1c9 in a mirror.
        assert_eq!(orbits(g, Symmetry::Rotational)[0], [0, 80]);
        assert_eq!(orbits(g, Symmetry::Mirror)[0], [0, 8]);
    }

    #[test]
    fn a_puzzles_generator_depends_only_on_the_seed_and_its_number() {
        let draw = |seed, index| puzzle_rng(seed, index).gen_range(0..u64::MAX);
        assert_eq!(draw(7, 3), draw(7, 3));
        assert_ne!(draw(7, 3), draw(7, 4));
        assert_ne!(draw(7, 3), draw(8, 3));
    }
}
