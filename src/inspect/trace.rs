//! The step log of `solve --trace` in words: what each rule placed or
//! eliminated at each step, with every guess and backtrack, as a person
//! would write it. The search records the events (`solve::TraceEvent`);
//! this module only words them.

use super::db::show_value;
use crate::engine::tuple::slot;
use crate::grid::Geometry;
use crate::lang::program::{Builtin, Program};
use crate::lang::value::Type;
use crate::solve::{BranchEnd, TraceEvent};
use itertools::Itertools;

/// The log's lines, one per event: a step's rule and what it derived, a
/// guess, or how a branch ended.
pub fn lines(events: &[TraceEvent], program: &Program, g: &Geometry) -> Vec<String> {
    events
        .iter()
        .map(|event| match event {
            TraceEvent::Derived { step, rule, facts } => derived(*step, *rule, facts, program, g),
            TraceEvent::Guess {
                cell,
                digit,
                depth,
                options,
            } => format!(
                "guess {} = {} at depth {depth} (chosen from {})",
                g.cell_name(*cell),
                g.digit_symbol(*digit),
                g.digit_set_text(options)
            ),
            TraceEvent::End { step, depth, how } => match how {
                BranchEnd::Solved => format!("solved at step {step}"),
                BranchEnd::Stalled { open } => {
                    format!("stalled at step {step} with {open} cells open")
                }
                BranchEnd::Contradiction(why) => {
                    let why = match why {
                        Some((r, Some(c))) => format!("{r} at {}", g.cell_name(*c)),
                        Some((r, None)) => r.clone(),
                        None => String::new(),
                    };
                    let backtrack = if *depth > 0 { "; backtrack" } else { "" };
                    format!("contradiction at step {step}: {why}{backtrack}")
                }
                BranchEnd::Conflict => "two digits placed in one cell".to_string(),
                BranchEnd::FactLimit(grew) => {
                    format!("stopped: {grew} grew past the fact limit")
                }
                BranchEnd::Timeout => "stopped: the time limit".to_string(),
            },
        })
        .collect()
}

/// One rule's facts of one step: `step 4: singles [rules/singles.dl:16]:
/// placed 7 in r1c3; eliminated 7 from r1c4 r1c5`.
fn derived(
    step: u32,
    rule: usize,
    facts: &[(usize, crate::engine::tuple::Tuple)],
    program: &Program,
    g: &Geometry,
) -> String {
    let placed = program.builtin(Builtin::Placed);
    let eliminated = program.builtin(Builtin::Eliminated);
    let show = |ty: Type, v| show_value(program, g, ty, v);
    let (name, technique) = program
        .rules
        .get(rule)
        .map_or(("?", "?"), |r| (r.name.as_str(), r.technique.as_str()));
    let mut parts = Vec::new();
    let placements: Vec<String> = facts
        .iter()
        .filter(|(rel, _)| *rel == placed)
        .map(|(_, t)| {
            format!(
                "{} in {}",
                show(Type::Digit, slot(t, 1)),
                show(Type::Cell, slot(t, 0))
            )
        })
        .collect();
    if !placements.is_empty() {
        parts.push(format!("placed {}", placements.join(", ")));
    }
    let by_digit = facts
        .iter()
        .filter(|(rel, _)| *rel == eliminated)
        .map(|(_, t)| (slot(t, 1), slot(t, 0)))
        .sorted()
        .chunk_by(|(d, _)| *d);
    let eliminations: Vec<String> = by_digit
        .into_iter()
        .map(|(d, cells)| {
            format!(
                "{} from {}",
                show(Type::Digit, d),
                cells.map(|(_, c)| show(Type::Cell, c)).join(" ")
            )
        })
        .collect();
    if !eliminations.is_empty() {
        parts.push(format!("eliminated {}", eliminations.join("; ")));
    }
    let others: Vec<String> = facts
        .iter()
        .filter(|(rel, _)| *rel != placed && *rel != eliminated)
        .map(|(rel, t)| {
            let r = &program.relations[*rel];
            let args = r
                .columns
                .iter()
                .enumerate()
                .map(|(i, (_, ty))| show(*ty, slot(t, i)))
                .join(", ");
            format!("{}({args})", r.name)
        })
        .collect();
    if !others.is_empty() {
        parts.push(others.join(", "));
    }
    // A step that holds only if the puzzle has one solution says so.
    let assumes = (program.techniques.iter()).any(|t| t.name == technique && t.assumes_unique);
    let assumption = if assumes {
        " (assumes one solution)"
    } else {
        ""
    };
    format!(
        "step {step}: {technique}{assumption} [{name}]: {}",
        parts.join("; ")
    )
}
