//! An independent check of 3D Medusa (`rules/extra/medusa.dl`) against a
//! reference written here in plain Rust, on the first 20 puzzles of
//! `berthier_cb001` (`tests/data/berthier20/`).
//!
//! Only the grid, the singles and Medusa run (`--techniques
//! singles,medusa`). The reference's schedule: grid and singles to a
//! fixpoint; on a stall, every Medusa elimination the current candidates
//! allow, all at once; none new: stop; otherwise apply them and start over.
//! It colours the plain way: the strong links (a digit's only two places in
//! a unit, a cell's only two digits) join candidates into clusters, which a
//! breadth-first walk colours in two. Then, per cluster: a candidate that
//! both colours take (a node on its digit in a peer, or on another digit
//! in its cell) goes; a colour with two nodes in a cell, two on one digit
//! in peers, or that takes every candidate of a cell of at most four, is
//! false, and all its nodes go. sudolog colours from the smallest cell of
//! each cluster, through a guard, finds a colour that takes a whole cell
//! by a count, and leaves the first two wraps to the trap and the singles
//! (each node such a colour has twice is taken by both colours); the two
//! ending alike on every puzzle is the check.

use crate::common;

use common::{
    BERTHIER20, BERTHIER20_SOLUTIONS, Extra, Geometry, N, Outcome, State, assert_keeps_solutions,
    check_against_reference, digits, outcome_differences, read_lines, run_technique,
};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Two puzzles that the wrap of a colour taking a whole cell decides.
const CELL_WRAP: &str = "tests/data/medusa/cell_wrap.txt";
const CELL_WRAP_SOLUTIONS: &str = "tests/data/medusa/cell_wrap.solutions.txt";

/// The rule file, run beside the singles only.
const EXTRA: Extra = Extra {
    rules: "rules/extra/medusa.dl",
    technique: "medusa",
};

// ---------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------

/// A candidate: a cell and a digit.
type Node = (usize, u8);

/// The strong links of the state: each node's partners.
fn strong_links(s: &State, g: &Geometry) -> BTreeMap<Node, Vec<Node>> {
    let mut links: BTreeMap<Node, Vec<Node>> = BTreeMap::new();
    let mut join = |a: Node, b: Node| {
        links.entry(a).or_default().push(b);
        links.entry(b).or_default().push(a);
    };
    for c in (0..N).filter(|&c| s.placed[c] == 0) {
        if let [x, y] = digits(s.cand[c]).collect::<Vec<_>>()[..] {
            join((c, x), (c, y));
        }
    }
    for u in &g.units {
        for d in 1..=9u8 {
            let places: Vec<usize> = u.iter().copied().filter(|&c| !s.elim(c, d)).collect();
            if let [a, b] = places[..] {
                join((a, d), (b, d));
            }
        }
    }
    links
}

/// The clusters of the strong links, each as its nodes with their colour
/// (0 or 1).
fn clusters(s: &State, g: &Geometry) -> Vec<BTreeMap<Node, u8>> {
    let links = strong_links(s, g);
    let mut seen: BTreeSet<Node> = BTreeSet::new();
    let mut out = Vec::new();
    for &start in links.keys() {
        if !seen.insert(start) {
            continue;
        }
        let mut colour = BTreeMap::from([(start, 0u8)]);
        let mut queue = VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            for &m in &links[&n] {
                let want = 1 - colour[&n];
                match colour.get(&m) {
                    Some(&k) => assert_eq!(k, want, "a valid state colours in two"),
                    None => {
                        colour.insert(m, want);
                        seen.insert(m);
                        queue.push_back(m);
                    }
                }
            }
        }
        out.push(colour);
    }
    out
}

/// Every (cell, digit) Medusa takes from the state, already known or not;
/// without `cell_wrap`, leaving out the wrap of a colour that takes every
/// candidate of a cell.
fn medusa_eliminations(s: &State, g: &Geometry, cell_wrap: bool) -> BTreeSet<Node> {
    let mut out = BTreeSet::new();
    for cluster in clusters(s, g) {
        // takes[k]: the live candidates of open cells that colour k takes.
        let mut takes = [BTreeSet::new(), BTreeSet::new()];
        for (&(a, x), &k) in &cluster {
            for c in (0..N).filter(|&c| s.placed[c] == 0) {
                for d in digits(s.cand[c]) {
                    if (d == x && g.peer[a][c]) || (c == a && d != x) {
                        takes[k as usize].insert((c, d));
                    }
                }
            }
        }
        out.extend(takes[0].intersection(&takes[1]).copied());
        for k in 0..2u8 {
            let nodes: Vec<Node> = cluster
                .iter()
                .filter(|&(_, &j)| j == k)
                .map(|(&n, _)| n)
                .collect();
            let twice = nodes.iter().any(|&(a, x)| {
                nodes
                    .iter()
                    .any(|&(b, y)| (a == b && x != y) || (x == y && g.peer[a][b]))
            });
            let empties = cell_wrap
                && (0..N).any(|c| {
                    s.placed[c] == 0
                        && s.cand[c].count_ones() <= 4
                        && digits(s.cand[c]).all(|d| takes[k as usize].contains(&(c, d)))
                });
            if twice || empties {
                out.extend(nodes);
            }
        }
    }
    out
}

/// The reference's outcome of one puzzle, with or without the cell wrap.
fn run_reference(line: &str, cell_wrap: bool) -> Outcome {
    run_technique(line, &|s: &State, g: &Geometry| {
        medusa_eliminations(s, g, cell_wrap)
    })
}

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

/// Medusa fires in half the sample or more and ends every puzzle as the
/// reference does; it takes no solution digit; and sudolog credits it with
/// the reference's eliminations on two puzzles where it fires before
/// anything else could take them.
#[test]
fn medusa_matches_its_reference_on_the_sample() {
    let medusa = |s: &State, g: &Geometry| medusa_eliminations(s, g, true);
    check_against_reference(&EXTRA, BERTHIER20, BERTHIER20_SOLUTIONS, medusa, &[2, 5]);
}

/// On two puzzles the wrap of a colour that takes a whole cell makes a
/// difference (the reference without it ends elsewhere), and sudolog ends
/// where the reference with it does, keeping the solutions.
#[test]
fn the_cell_wrap_decides_two_puzzles_and_matches_the_reference() {
    let lines = read_lines(CELL_WRAP);
    let with: Vec<Outcome> = lines.iter().map(|p| run_reference(p, true)).collect();
    for (p, o) in lines.iter().zip(&with) {
        assert!(run_reference(p, false).state != o.state, "{p}");
    }
    let rows = EXTRA.solve_json(CELL_WRAP);
    let differences = outcome_differences(&rows, &with);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    let states = with.iter().map(|o| &o.state);
    assert_keeps_solutions("", &rows, states, &read_lines(CELL_WRAP_SOLUTIONS));
}

/// The file is a technique of its own at tier 10, after multi-colours and
/// before the chains, with a trap and a wrap rule.
#[test]
fn it_is_tier_10_with_a_trap_and_a_wrap() {
    let listing = EXTRA.listing();
    assert_eq!(listing.tier("medusa"), Some(10));
    assert_eq!(listing.elimination_rules("medusa").len(), 2);
}
