//! Ratings: how hard a solution path is, on Sudoku Explainer's scale
//! (SER, `1.2` for a hidden single in a box to `9` and more for nested
//! forcing).
//!
//! Each rule says how hard its steps are (`.rating` in its file, README
//! "Ratings"); a path's step (one fixpoint step: every firing the rules
//! found on the same state) is rated by its *easiest* firing, since a
//! person picks the easiest move the grid offers, and the puzzle by its
//! hardest step, as Sudoku Explainer rates a puzzle by its hardest move.
//! The pearl is the hardest step up to the first placement, the diamond
//! the first step.

use super::db::FactDb;
use super::firing::{Evaluators, Firing};
use super::path::PathStep;
use crate::lang::program::{Program, Value};
use crate::lang::value::cell_value;
use crate::solve::ForkEnd;
use std::collections::BTreeMap;

// Forcing steps run the whole library inside their forks, which Sudoku
// Explainer does only in its forcing chains: the puzzles whose hardest
// step they are, it rates 8.3 to 8.4 (the median on `berthier_cb001`),
// among its cell and region forcing chains (8.2 to 8.7).

/// A forcing step whose options all but one end in a contradiction, in
/// tenths.
pub const FORCING_CONTRADICTION: u32 = 83;
/// A forcing step that brings back what every option's fork agrees on,
/// in tenths.
pub const FORCING_AGREEMENT: u32 = 84;
/// A forcing step with forcing inside its forks (Sudoku Explainer's
/// nested dynamic forcing chains, 9 and up), in tenths.
pub const FORCING_NESTED: u32 = 90;

/// One rated step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedStep {
    /// The path step's index.
    pub index: usize,
    /// Its rating in tenths (`None`: a guess, which has no rating).
    pub tenths: Option<u32>,
    /// The technique's name (a firing's label, `Cell forcing`, `Guess`).
    pub technique: String,
}

/// A path's rating.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rating {
    /// The hardest step's rating, in tenths (SER's "ER").
    pub rating: u32,
    /// The hardest step up to the first placement (SER's pearl, "EP").
    pub pearl: u32,
    /// The first step's rating (SER's diamond, "ED").
    pub diamond: u32,
    /// The technique of the hardest step.
    pub hardest: String,
    /// Every path step, rated.
    pub steps: Vec<RatedStep>,
}

/// Tenths as the scale writes them: `4.2`.
pub fn tenths_text(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// Sudoku Explainer's bonus for a chain of `length` nodes, in tenths: one
/// more each time the length passes 4, 6, 8, 12, 16, 24, 32, 48, ... (the
/// bound grows by half, then by a third, in turn).
pub fn length_bonus(length: usize) -> u32 {
    let (mut bound, mut bonus, mut by_half) = (4usize, 0u32, true);
    while length > bound {
        bonus += 1;
        bound = if by_half {
            bound * 3 / 2
        } else {
            bound * 4 / 3
        };
        by_half = !by_half;
    }
    bonus
}

/// Rates a solution path over the solve's facts `db`: `None` when no step
/// could be rated (a puzzle its givens solve).
pub fn rate(db: &FactDb, steps: &[PathStep]) -> Option<Rating> {
    let mut evs = Evaluators::new(db);
    let floors = unrated_floors(db.program);
    let mut rated: Vec<RatedStep> = Vec::with_capacity(steps.len());
    for (index, step) in steps.iter().enumerate() {
        let (tenths, technique) = match step {
            PathStep::Firing(f) => (firing_tenths(&mut evs, db, f, &floors), f.label.clone()),
            PathStep::Forcing(f) => {
                let refuted_only = f.forcing.placed.is_empty()
                    && (f.forcing.forks.iter())
                        .filter(|k| k.end == ForkEnd::Survived)
                        .count()
                        <= 1;
                let (base, name) = match (f.forcing.depth, refuted_only) {
                    (2.., _) => (FORCING_NESTED, "Nested forcing"),
                    (_, true) => (FORCING_CONTRADICTION, "Forcing to a contradiction"),
                    (_, false) => (FORCING_AGREEMENT, "Cell or unit forcing"),
                };
                (Some(base), name.to_string())
            }
            PathStep::Guess(_) => (None, "Guess".to_string()),
        };
        rated.push(RatedStep {
            index,
            tenths,
            technique,
        });
    }
    summarise(steps, rated)
}

/// The rating, pearl and diamond of rated steps: each fixpoint step by its
/// easiest firing, the path by its hardest fixpoint step.
fn summarise(steps: &[PathStep], rated: Vec<RatedStep>) -> Option<Rating> {
    // Fixpoint step → (its easiest rated firing, whether it placed).
    let mut by_step: BTreeMap<u32, (u32, usize, bool)> = BTreeMap::new();
    for r in &rated {
        let Some(t) = r.tenths else { continue };
        let step = &steps[r.index];
        let places = match step {
            PathStep::Firing(f) => f.conclusions.iter().any(|c| c.placed),
            PathStep::Forcing(f) => !f.forcing.placed.is_empty(),
            PathStep::Guess(_) => false,
        };
        let e = by_step.entry(step.step()).or_insert((t, r.index, places));
        if t < e.0 {
            (e.0, e.1) = (t, r.index);
        }
        e.2 |= places;
    }
    let (&first, _) = by_step.iter().next()?;
    let diamond = by_step[&first].0;
    let (mut rating, mut hardest, mut pearl, mut placed) = (0, 0, 0, false);
    for &(t, index, places) in by_step.values() {
        if t > rating {
            (rating, hardest) = (t, index);
        }
        if !placed {
            pearl = pearl.max(t);
            placed = places;
        }
    }
    Some(Rating {
        rating,
        pearl,
        diamond,
        hardest: rated[hardest].technique.clone(),
        steps: rated,
    })
}

/// A firing's rating: its rule's first `.rating` line whose `when` one of
/// its facts meets, with the length bonus if the line asks for it; a rule
/// without `.rating` takes its tier's floor.
fn firing_tenths(
    evs: &mut Evaluators,
    db: &FactDb,
    f: &Firing,
    floors: &BTreeMap<u32, u32>,
) -> Option<u32> {
    let rule = db.program.rules.get(f.rule)?;
    let n = db.geometry.n;
    for line in &rule.rating {
        let holds = line.when.is_empty()
            || f.conclusions.iter().any(|c| {
                let values = [cell_value(c.cell / n, c.cell % n), Value::from(c.digit)];
                evs.derives_with(rule, &values, f.step, &line.when)
            });
        if holds {
            let bonus = if line.length_bonus {
                length_bonus(pattern_length(f))
            } else {
                0
            };
            return Some(line.tenths + bonus);
        }
    }
    floors.range(..=rule.tier).next_back().map(|(_, &t)| t)
}

/// A pattern's length for the bonus: its links, strong and weak, and one
/// more (a chain of `k` links has `k + 1` nodes).
fn pattern_length(f: &Firing) -> usize {
    f.pattern.links.len() + f.pattern.weak_links.len() + 1
}

/// Per tier, the highest rating a rated rule of that tier or an easier
/// one can give: what a step of a rule without `.rating` is rated, so
/// that a technique nobody rated never makes a puzzle look easier than
/// the techniques it runs after.
fn unrated_floors(program: &Program) -> BTreeMap<u32, u32> {
    let mut highest: BTreeMap<u32, u32> = BTreeMap::new();
    for rule in &program.rules {
        let top = rule.rating.iter().map(|l| l.tenths).max();
        if let Some(t) = top {
            let e = highest.entry(rule.tier).or_default();
            *e = (*e).max(t);
        }
    }
    let mut running = 0;
    for t in highest.values_mut() {
        running = running.max(*t);
        *t = running;
    }
    highest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_bonus_grows_at_sudoku_explainers_bounds() {
        let bonuses: Vec<u32> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33]
            .iter()
            .map(|&l| length_bonus(l))
            .collect();
        assert_eq!(bonuses, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
    }

    #[test]
    fn tenths_read_as_the_scale_writes_them() {
        assert_eq!(tenths_text(42), "4.2");
        assert_eq!(tenths_text(100), "10.0");
    }
}
