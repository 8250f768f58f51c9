//! What the search did, recorded as data when `--trace` asks for it: the
//! facts each rule derived at each step of each branch, the guesses, and
//! how each branch ended. The search produces no text; `inspect::trace`
//! words these events.

use super::forcing::ForcingStep;
use crate::engine::tuple::Tuple;
use crate::engine::{Solve, Status};
use crate::lang::program::RelId;
use itertools::Itertools;

/// One event of the search, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// What one rule derived at one step of a branch.
    Derived {
        /// The fixpoint step.
        step: u32,
        /// The rule's id in the program.
        rule: usize,
        /// The facts, by relation.
        facts: Vec<(RelId, Tuple)>,
    },
    /// A guess that opens a branch.
    Guess {
        /// The cell (row-major index).
        cell: usize,
        /// The digit placed.
        digit: u8,
        /// The branch's depth (1 for the first guess).
        depth: usize,
        /// The candidates it was chosen from.
        options: Vec<u8>,
    },
    /// A forcing step: a hypothesis whose forks yielded facts, which the
    /// branch takes from `step` on.
    Forcing {
        /// The step at which its facts arrive.
        step: u32,
        /// What was supposed, each fork's end, and what came back.
        forcing: ForcingStep,
    },
    /// How a branch ended, at which step.
    End {
        /// The last step of the branch.
        step: u32,
        /// Its depth (0 before any guess).
        depth: usize,
        /// How it ended.
        how: BranchEnd,
    },
}

/// How one branch of the search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BranchEnd {
    /// Every cell holds a digit.
    Solved,
    /// The rules stalled with this many cells open.
    Stalled {
        /// Open cells.
        open: usize,
    },
    /// The rules derived a contradiction: its reason and cell, if any.
    Contradiction(Option<(String, Option<usize>)>),
    /// Two digits were placed in one cell without a contradiction.
    Conflict,
    /// This relation grew past the fact limit.
    FactLimit(String),
    /// The time limit passed.
    Timeout,
}

/// The events of one branch that ran from step `since` to `status`: what
/// each rule derived, step by step, then how it ended.
pub fn branch_events(solve: &Solve, since: u32, status: &Status) -> Vec<TraceEvent> {
    let facts = solve.facts_since(since);
    let mut events: Vec<TraceEvent> = facts
        .iter()
        .filter(|(_, _, o)| !o.is_unruled())
        .chunk_by(|(_, _, o)| (o.step, o.rule))
        .into_iter()
        .map(|((step, rule), group)| TraceEvent::Derived {
            step,
            rule: rule as usize,
            facts: group.map(|(rel, t, _)| (*rel, *t)).collect(),
        })
        .collect();
    let how = match status {
        Status::Solved => BranchEnd::Solved,
        Status::Stalled => BranchEnd::Stalled {
            open: solve.grid().iter().filter(|&&d| d == 0).count(),
        },
        Status::Contradiction => {
            BranchEnd::Contradiction(solve.contradictions().into_iter().next())
        }
        Status::Conflict => BranchEnd::Conflict,
        Status::FactLimit(grew) => BranchEnd::FactLimit(grew.clone()),
        Status::Timeout => BranchEnd::Timeout,
    };
    events.push(TraceEvent::End {
        step: solve.steps(),
        depth: solve.branch.len(),
        how,
    });
    events
}
