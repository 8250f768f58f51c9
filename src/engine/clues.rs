//! A puzzle's clue facts (the lines after it, `grid::ClueFact`) as tuples
//! of the rules' `.input` relations: checked against the relation's
//! columns, with errors at the fact's place in the puzzle file. Apart from
//! the reader because only the rules say which clues a puzzle may carry.

use super::Engine;
use super::tuple::{Tuple, flat};
use crate::grid::{ClueFact, ClueValue, Puzzle, PuzzleError};
use crate::lang::library::variant_declaring_input;
use crate::lang::program::{Program, RelId, Value, cell_value};
use crate::lang::value::Type;

/// A puzzle's clue facts by `.input` relation, ready to load.
#[derive(Clone, Debug, Default)]
pub struct ClueTuples(Vec<(RelId, Vec<Tuple>)>);

impl ClueTuples {
    /// The tuples of one relation (none if the puzzle gives it none).
    pub fn of(&self, rel: RelId) -> Vec<Tuple> {
        (self.0.iter())
            .find(|(r, _)| *r == rel)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    }
}

impl Engine {
    /// The puzzle's clue facts as tuples of this engine's rules (see
    /// [`clue_tuples`]).
    pub fn clue_tuples(&self, puzzle: &Puzzle) -> Result<ClueTuples, PuzzleError> {
        clue_tuples(&self.program, puzzle)
    }
}

/// The puzzle's clue facts as tuples, or the first that the rules do not
/// take (a relation that is not `.input`, a wrong number of values, a
/// value of the wrong kind), located in the puzzle's file.
pub fn clue_tuples(program: &Program, puzzle: &Puzzle) -> Result<ClueTuples, PuzzleError> {
    let mut out: Vec<(RelId, Vec<Tuple>)> = Vec::new();
    for fact in &puzzle.clues {
        let (rel, tuple) = clue_tuple(program, puzzle, fact)?;
        match out.iter_mut().find(|(r, _)| *r == rel) {
            Some((_, tuples)) => tuples.push(tuple),
            None => out.push((rel, vec![tuple])),
        }
    }
    Ok(ClueTuples(out))
}

fn clue_tuple(
    program: &Program,
    puzzle: &Puzzle,
    fact: &ClueFact,
) -> Result<(RelId, Tuple), PuzzleError> {
    let at = |column: usize, message: String| {
        PuzzleError::new(&puzzle.origin.file, fact.line, column, message)
    };
    let name = &fact.relation;
    let input = program
        .relation(name)
        .filter(|&r| program.relations[r].input.is_some());
    let Some(rel) = input else {
        let known = program.relation(name).is_some();
        let what = if known {
            format!("`{name}` is not an input of the rules (they do not say `.input {name}`)")
        } else {
            format!("the rules have no relation `{name}`")
        };
        let fix = match variant_declaring_input(name) {
            Some(variant) => format!("solve with `--variant {variant}`, whose clues these are"),
            None => format!(
                "add the rule file that declares `.input {name}` (`--rules-add FILE`), or \
                     remove the fact"
            ),
        };
        return Err(at(fact.column, format!("{what}: {fix}")));
    };
    let columns = &program.relations[rel].columns;
    let shape = || {
        let cols: Vec<String> = columns.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        format!("{name}({})", cols.join(", "))
    };
    if fact.args.len() != columns.len() {
        return Err(at(
            fact.column,
            format!(
                "`{name}` takes {} values, `{}`; this fact gives {}",
                columns.len(),
                shape(),
                fact.args.len()
            ),
        ));
    }
    let n = puzzle.geometry.n as i64;
    let mut values: Vec<Value> = Vec::with_capacity(columns.len());
    for ((arg, &column), (col_name, ty)) in fact.args.iter().zip(&fact.arg_columns).zip(columns) {
        let value = match (ty, arg) {
            (Type::Cell, ClueValue::Cell(r, c)) => cell_value(*r, *c),
            (Type::Digit, ClueValue::Number(d)) if (1..=n).contains(d) => *d as Value,
            (Type::Digit, ClueValue::Number(d)) => {
                return Err(at(
                    column,
                    format!(
                        "{d} is no digit of a {n}x{n} grid (column `{col_name}` of `{}`)",
                        shape()
                    ),
                ));
            }
            (Type::Number | Type::Set, ClueValue::Number(v)) => *v as Value,
            (_, found) => {
                let want = if *ty == Type::Cell {
                    "a cell such as r3c5"
                } else {
                    "a number"
                };
                return Err(at(
                    column,
                    format!(
                        "column `{col_name}` of `{}` takes {want}, not {found}",
                        shape()
                    ),
                ));
            }
        };
        values.push(value);
    }
    Ok((rel, flat(&values)))
}
