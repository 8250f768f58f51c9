//! The step log of `solve --trace` in words: what each rule placed or
//! eliminated at each step, with every guess and backtrack, as a person
//! would write it. The search records the events (`solve::TraceEvent`);
//! this module only words them.

use super::db::show_value;
use crate::engine::tuple::slot;
use crate::grid::Geometry;
use crate::lang::program::{Builtin, Program};
use crate::lang::value::Type;
use crate::solve::{BranchEnd, ForcingStep, ForkEnd, Hypothesis, TraceEvent};
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
            TraceEvent::Forcing { step, forcing } => {
                format!("step {step}: {}", forcing_words(forcing, g))
            }
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

/// A forcing step in words: the hypothesis, how each option's fork ended,
/// and what came back: `cell forcing on r3c5 {2,7}: r3c5=2 contradicts (a
/// cell has no digit left at r4c4), r3c5=7 holds up: eliminated 2 from
/// r3c5`.
pub fn forcing_words(f: &ForcingStep, g: &Geometry) -> String {
    let hypothesis = match &f.hypothesis {
        Hypothesis::Cell(cell) => {
            let digits: Vec<u8> = f.forks.iter().map(|k| k.digit).collect();
            format!(
                "cell forcing on {} {}",
                g.cell_name(*cell),
                g.digit_set_text(&digits)
            )
        }
        Hypothesis::Unit { unit, digit } => {
            let cells = f.forks.iter().map(|k| g.cell_name(k.cell)).join(", ");
            format!(
                "unit forcing on {} in {} ({cells})",
                g.digit_symbol(*digit),
                unit
            )
        }
    };
    let forks = (f.forks.iter())
        .map(|k| {
            let option = format!("{}={}", g.cell_name(k.cell), g.digit_symbol(k.digit));
            match &k.end {
                ForkEnd::Contradiction(Some((why, Some(c)))) => {
                    format!("{option} contradicts ({why} at {})", g.cell_name(*c))
                }
                ForkEnd::Contradiction(Some((why, None))) => {
                    format!("{option} contradicts ({why})")
                }
                ForkEnd::Contradiction(None) => format!("{option} contradicts"),
                ForkEnd::Survived => format!("{option} holds up"),
            }
        })
        .join(", ");
    let mut parts = Vec::new();
    if !f.placed.is_empty() {
        let placed = (f.placed.iter())
            .map(|&(c, d)| format!("{} in {}", g.digit_symbol(d), g.cell_name(c)))
            .join(", ");
        parts.push(format!("placed {placed}"));
    }
    if !f.eliminated.is_empty() {
        let by_digit = (f.eliminated.iter())
            .map(|&(c, d)| (d, c))
            .sorted()
            .chunk_by(|&(d, _)| d);
        let eliminated = (by_digit.into_iter())
            .map(|(d, cells)| {
                let cells = cells.map(|(_, c)| g.cell_name(c)).join(" ");
                format!("{} from {cells}", g.digit_symbol(d))
            })
            .join("; ");
        parts.push(format!("eliminated {eliminated}"));
    }
    let depth = if f.depth > 1 {
        format!(" (depth {})", f.depth)
    } else {
        String::new()
    };
    format!("{hypothesis}{depth}: {forks}: {}", parts.join("; "))
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
