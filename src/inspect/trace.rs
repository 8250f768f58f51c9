//! The step log of `solve --trace`: what each rule placed or eliminated at
//! each step, with every guess and backtrack, as a person would write it.

use crate::engine::Solve;
use crate::engine::tuple::slot;
use crate::lang::program::{Builtin, cell_coords};
use itertools::Itertools;

/// The lines for what a branch derived after `since`: one line per step
/// and rule.
pub fn branch_lines(solve: &Solve, since: u32) -> Vec<String> {
    let program = solve.engine().program();
    let g = solve.geometry();
    let placed = program.builtin(Builtin::Placed);
    let eliminated = program.builtin(Builtin::Eliminated);
    let cell = |v| {
        let (r, c) = cell_coords(v);
        format!("r{}c{}", r + 1, c + 1)
    };
    let digit = |v: i32| {
        if v >= 1 && v as usize <= g.n {
            g.digit_symbol(v as u8).to_string()
        } else {
            v.to_string()
        }
    };
    let mut lines = Vec::new();
    let facts = solve.facts_since(since);
    for ((step, rule), group) in &facts
        .iter()
        .filter(|(_, _, o)| !o.is_unruled())
        .chunk_by(|(_, _, o)| (o.step, o.rule))
    {
        let group: Vec<_> = group.collect();
        let (name, technique) = program
            .rules
            .get(rule as usize)
            .map_or(("?", "?"), |r| (r.name.as_str(), r.technique.as_str()));
        let mut parts = Vec::new();
        let placements: Vec<String> = group
            .iter()
            .filter(|(rel, _, _)| *rel == placed)
            .map(|(_, t, _)| format!("{} in {}", digit(slot(t, 1)), cell(slot(t, 0))))
            .collect();
        if !placements.is_empty() {
            parts.push(format!("placed {}", placements.join(", ")));
        }
        let by_digit = group
            .iter()
            .filter(|(rel, _, _)| *rel == eliminated)
            .map(|(_, t, _)| (slot(t, 1), slot(t, 0)))
            .sorted()
            .chunk_by(|(d, _)| *d);
        let eliminations: Vec<String> = by_digit
            .into_iter()
            .map(|(d, cells)| {
                format!(
                    "{} from {}",
                    digit(d),
                    cells.map(|(_, c)| cell(c)).join(" ")
                )
            })
            .collect();
        if !eliminations.is_empty() {
            parts.push(format!("eliminated {}", eliminations.join("; ")));
        }
        let others: Vec<String> = group
            .iter()
            .filter(|(rel, _, _)| *rel != placed && *rel != eliminated)
            .map(|(rel, t, _)| {
                let r = &program.relations[*rel];
                let args = r
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, (_, ty))| {
                        let v = slot(t, i);
                        match ty {
                            crate::lang::ast::Type::Cell => cell(v),
                            crate::lang::ast::Type::Digit => digit(v),
                            crate::lang::ast::Type::Unit | crate::lang::ast::Type::Symbol => {
                                program.symbols.name(v).to_string()
                            }
                            crate::lang::ast::Type::Number => v.to_string(),
                            crate::lang::ast::Type::Set => crate::inspect::db::show_set(v),
                        }
                    })
                    .join(", ");
                format!("{}({args})", r.name)
            })
            .collect();
        if !others.is_empty() {
            parts.push(others.join(", "));
        }
        lines.push(format!(
            "step {step}: {technique} [{name}]: {}",
            parts.join("; ")
        ));
    }
    lines
}
