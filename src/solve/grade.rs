//! Grading: how hard a puzzle is for a rule set, as the hardest technique
//! its logic-only solve needs (forcing, by its depth, above every rule; or
//! that it needs guessing), with how much each technique derived.
//! `sudolog grade` prints it.

use super::forcing::{Forcing, ForcingStep};
use super::outcome::{Outcome, Verdict};
use super::search::{Keeping, Mode, SearchOptions, solve_keeping};
use super::{UNIQUENESS_BRANCHES, Uniqueness, uniqueness};
use crate::engine::Engine;
use crate::engine::Solve;
use crate::grid::Puzzle;
use crate::lang::program::{Builtin, Program};
use std::collections::BTreeMap;

/// A puzzle's grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// The hardest technique that placed or eliminated something when the
    /// rules solved it (`givens` when none was needed); `guessing` when
    /// the rules stall on a puzzle with one solution; `no_solution`,
    /// `several_solutions`, or the verdict's word when the solve did not
    /// finish.
    pub grade: String,
    /// Placements and eliminations per technique.
    pub firings: BTreeMap<String, u64>,
    /// Whether the grade is one: false for a run cut short (a fact limit,
    /// a timeout), a wrong grid, or a puzzle that is no proper Sudoku.
    pub graded: bool,
}

/// How `grade` tells "needs guessing" from "no proper Sudoku" when the
/// rules cannot: any sound rule set counts alike, so the cheapest counts.
#[derive(Clone, Copy)]
pub enum SolutionCount<'a> {
    /// Counted up to two with this engine's rules.
    CountWith(&'a Engine),
    /// Known already (a generated puzzle is carved to one solution).
    Known(Uniqueness),
}

/// A grade with the solve it came from, for rating its path.
pub struct Graded<'e> {
    /// The grade.
    pub grade: Grade,
    /// The logic-only solve's forcing steps ([`Outcome::forcing`]).
    pub forcing: Vec<(u32, ForcingStep)>,
    /// Its final state, if asked for ([`Keeping::State`]).
    pub state: Option<Solve<'e>>,
}

/// Grades a puzzle with the engine's rules: a logic-only solve (with
/// `forcing` where the rules stall: a puzzle it solves is graded
/// `forcing_1` or `forcing_2`, by the deepest level it needed), then, if
/// that cannot finish, a bounded count of its solutions to tell "needs
/// guessing" from "is no proper Sudoku" (as `count` says). With `keep`,
/// the solve's state comes back too.
pub fn grade<'e>(
    engine: &'e Engine,
    puzzle: &Puzzle,
    forcing: Forcing,
    keep: Keeping,
    count: SolutionCount,
) -> Graded<'e> {
    let options = SearchOptions {
        mode: Mode::LogicOnly,
        forcing,
        ..SearchOptions::default()
    };
    let (outcome, kept) = solve_keeping(engine, puzzle, &options, keep);
    let (mut grade, firings) = hardest(&outcome, engine.program());
    // A technique that assumes one solution may have picked one of
    // several: then the puzzle is no proper Sudoku, and has no grade.
    let assumed =
        engine.used_assumption(&outcome.stats.firings) || outcome.stats.forks_assumed_unique;
    if assumed || matches!(outcome.verdict, Verdict::Stalled | Verdict::Contradiction) {
        let solutions = match count {
            SolutionCount::Known(u) => u,
            SolutionCount::CountWith(counter) => uniqueness(counter, puzzle, UNIQUENESS_BRANCHES),
        };
        match solutions {
            Uniqueness::NoSolution => grade = "no_solution".to_string(),
            Uniqueness::Several => grade = "several_solutions".to_string(),
            Uniqueness::Unique | Uniqueness::Unknown => {}
        }
    }
    let graded = !matches!(
        outcome.verdict,
        Verdict::FactLimit(_) | Verdict::BranchLimit | Verdict::Timeout | Verdict::InvalidResult(_)
    ) && grade != "no_solution"
        && grade != "several_solutions";
    Graded {
        grade: Grade {
            grade,
            firings,
            graded,
        },
        forcing: outcome.forcing,
        state: kept.map(|k| k.solve),
    }
}

/// The hardest technique that fired in a solve, or that guessing is
/// needed, and the placements and eliminations per technique.
fn hardest(outcome: &Outcome, program: &Program) -> (String, BTreeMap<String, u64>) {
    let mut by_technique: BTreeMap<String, u64> = BTreeMap::new();
    let mut hardest: Option<(u32, String)> = None;
    for &(rule, n) in &outcome.stats.firings {
        let Some(r) = program.rules.get(rule) else {
            continue;
        };
        // Only what a person would write down counts: placements and
        // eliminations, not a technique's helper relations.
        let state = program.relations[r.head_rel]
            .builtin
            .is_some_and(Builtin::is_state);
        if !state {
            continue;
        }
        *by_technique.entry(r.technique.clone()).or_default() += n;
        if r.tier > 0 && hardest.as_ref().is_none_or(|(t, _)| r.tier > *t) {
            hardest = Some((r.tier, r.technique.clone()));
        }
    }
    // What forcing derived, as its own technique, harder than any rule's.
    let forced: usize = (outcome.forcing.iter())
        .map(|(_, f)| f.placed.len() + f.eliminated.len())
        .sum();
    if forced > 0 {
        by_technique.insert("forcing".to_string(), forced as u64);
    }
    let grade = match outcome.verdict {
        Verdict::Solved if outcome.stats.forcing_steps > 0 => {
            format!("forcing_{}", outcome.stats.forcing_depth)
        }
        Verdict::Solved => hardest.map_or_else(|| "givens".to_string(), |(_, t)| t),
        Verdict::Stalled => "guessing".to_string(),
        _ => outcome.verdict.word().to_string(),
    };
    (grade, by_technique)
}
