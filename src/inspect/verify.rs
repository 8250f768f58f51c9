//! Checking rules against known solutions: run the rules (no guessing) on
//! a puzzle whose solution is known, and find the facts that contradict
//! it. Every fact of an earlier step agrees with the solution, so the
//! rules of the first wrong step are the ones that broke it: they derived
//! a wrong fact from right ones.

use super::db::FactDb;
use super::explain;
use crate::engine::{Engine, FactOrigin, Status};
use crate::grid::Puzzle;
use crate::lang::program::{Builtin, RelId, cell_coords};
use crate::solve::{Forcing, Keeping, Mode, SearchOptions, Verdict, solve_keeping};

/// A fact that contradicts the solution, derived from facts that agree
/// with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongFact {
    /// The rule that derived it (`file:line`).
    pub rule: String,
    /// Its technique (the rule file's stem).
    pub technique: String,
    /// The fact, as people read it (`eliminated(r3c5, 7)`).
    pub fact: String,
    /// What the solution says instead (`r3c5 is 7`).
    pub truth: String,
    /// The fixpoint step that derived it.
    pub step: u32,
    /// Its derivation, down to the givens (text of `sudolog explain`).
    pub derivation: String,
}

/// What checking one puzzle found.
#[derive(Debug, Default)]
pub struct Verification {
    /// The wrong facts of the first step that derived any.
    pub wrong: Vec<WrongFact>,
    /// The run was cut short (the fact limit, naming what grew): only the
    /// facts derived by then were checked.
    pub cut: Option<String>,
}

/// Runs `engine`'s rules on `puzzle` without guessing and returns the
/// wrong facts of the first step that derived any (none if every fact
/// agrees with `solution`, a full grid of digits), and whether the run was
/// cut short.
pub fn wrong_facts(engine: &Engine, puzzle: &Puzzle, solution: &[u8]) -> Verification {
    let mut solve = engine.start_puzzle(puzzle, None);
    let cut = match solve.run() {
        Status::FactLimit(grew) => Some(grew),
        Status::Timeout => Some("the time limit".to_string()),
        _ => None,
    };
    check(&FactDb::new(engine.program(), &solve), solution, cut)
}

/// [`wrong_facts`] with forcing where the rules stall (`forcing`, at
/// least depth 1): the facts forcing derived are checked too, as those of
/// a rule named `forcing`.
pub fn wrong_facts_forcing(
    engine: &Engine,
    puzzle: &Puzzle,
    solution: &[u8],
    forcing: Forcing,
) -> Verification {
    let options = SearchOptions {
        mode: Mode::LogicOnly,
        forcing,
        ..SearchOptions::default()
    };
    // The forks, so that a wrong forced fact shows the fork that made it.
    let (outcome, kept) = solve_keeping(engine, puzzle, &options, Keeping::Forks);
    let cut = match &outcome.verdict {
        Verdict::FactLimit(grew) => Some(grew.clone()),
        Verdict::Timeout => Some("the time limit".to_string()),
        Verdict::BranchLimit => Some("the branch limit".to_string()),
        _ => None,
    };
    match kept {
        Some(kept) => {
            let db = FactDb::new(engine.program(), &kept.solve)
                .with_forcing(&outcome.forcing)
                .with_forks(kept.forks);
            check(&db, solution, cut)
        }
        None => Verification {
            wrong: Vec::new(),
            cut,
        },
    }
}

/// The wrong facts of the first step of `db` that derived any, against
/// `solution`.
fn check(db: &FactDb, solution: &[u8], cut: Option<String>) -> Verification {
    let g = db.geometry;
    let program = db.program;
    let cell_index = |v: i32| {
        let (r, c) = cell_coords(v);
        r * g.n + c
    };
    let mut wrong: Vec<(FactOrigin, RelId, Vec<i32>, usize)> = Vec::new();
    for (builtin, wrong_if_true) in [(Builtin::Placed, false), (Builtin::Eliminated, true)] {
        let rel = program.builtin(builtin);
        for f in &db.rel(rel).facts {
            let (Some(origin), [cell, digit]) = (f.origin, f.values.as_slice()) else {
                continue;
            };
            let c = cell_index(*cell);
            let Some(&right) = solution.get(c) else {
                continue;
            };
            // A placement is wrong when it is not the solution's digit; an
            // elimination when it is.
            if (i32::from(right) == *digit) == wrong_if_true {
                wrong.push((origin, rel, f.values.to_vec(), c));
            }
        }
    }
    let Some(first) = wrong.iter().map(|w| w.0.step).min() else {
        return Verification {
            wrong: Vec::new(),
            cut,
        };
    };
    let wrong = wrong
        .into_iter()
        .filter(|w| w.0.step == first)
        .map(|(origin, rel, values, c)| {
            let rule = program.rules.get(origin.rule as usize);
            let (rule, technique) = match rule {
                _ if origin.is_forced() => ("forcing".to_string(), "forcing".to_string()),
                Some(r) => (r.name.clone(), r.technique.clone()),
                None => ("a guess".to_string(), String::new()),
            };
            WrongFact {
                rule,
                technique,
                fact: db.show_fact(rel, &values),
                truth: format!("{} is {}", g.cell_name(c), g.digit_symbol(solution[c])),
                step: origin.step,
                derivation: explain::render(&explain::explain(db, rel, &values, 3)),
            }
        })
        .collect();
    Verification { wrong, cut }
}
