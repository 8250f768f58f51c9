//! Ratings: how hard a solution path is, on Sudoku Explainer's scale
//! (SER, `1.2` for a hidden single in a box to `9` and more for nested
//! forcing).
//!
//! Each rule says how hard its steps are (`.rating` in its file, README
//! "Ratings"); a fixpoint step (everything the rules found on the same
//! state) is rated by the *least* rating any of its facts gets, since a
//! person picks the easiest move the grid offers, and the puzzle by its
//! hardest step, as Sudoku Explainer rates a puzzle by its hardest move.
//! The pearl is the hardest step up to the first placement, the diamond
//! the first step. [`rate`] rates a solution path step by step (for
//! listing them); [`rate_facts`] gets the same from the facts alone.

use super::db::FactDb;
use super::firing::{Conclusion, Derived, Evaluators, Firing, firings};
use super::path::{PathStep, branch_forcing, technique_facts};
use crate::lang::program::{Literal, Program, RatingAlternative, Rule, Value};
use crate::lang::value::cell_value;
use crate::solve::{ForcingStep, ForkEnd};
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
    /// Every technique (a step's name: `XY-wing`, `Cell or unit
    /// forcing`) that placed or eliminated on the path, sorted.
    pub techniques: Vec<String>,
    /// Every path step, rated ([`rate`]; empty from [`rate_facts`]).
    pub steps: Vec<RatedStep>,
}

impl Rating {
    /// The rating, pearl and diamond as Sudoku Explainer writes them
    /// (ER/EP/ED): `7.2/1.5/1.2`.
    pub fn triple(&self) -> String {
        format!(
            "{}/{}/{}",
            tenths_text(self.rating),
            tenths_text(self.pearl),
            tenths_text(self.diamond)
        )
    }
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
/// could be rated (a puzzle its givens solve). Every path step is rated
/// in [`Rating::steps`].
pub fn rate(db: &FactDb, steps: &[PathStep]) -> Option<Rating> {
    let mut evs = Evaluators::new(db);
    let floors = unrated_floors(db.program);
    let mut rated: Vec<RatedStep> = Vec::with_capacity(steps.len());
    let mut entries: Vec<Entry> = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let (tenths, technique, places) = match step {
            PathStep::Firing(f) => {
                let facts: Vec<[Value; 2]> = f.conclusions.iter().map(|c| values(db, c)).collect();
                let length = Some(pattern_length(f));
                let tenths = (db.program.rules.get(f.rule))
                    .and_then(|r| facts_tenths(&mut evs, r, &facts, f.step, length, &floors));
                let places = f.conclusions.iter().any(|c| c.placed);
                (tenths, f.label.clone(), places)
            }
            PathStep::Forcing(f) => {
                let (tenths, name) = forcing_tenths(&f.forcing);
                (Some(tenths), name.to_string(), !f.forcing.placed.is_empty())
            }
            PathStep::Guess(_) => (None, "Guess".to_string(), false),
        };
        if let Some(t) = tenths {
            entries.push(Entry {
                step: step.step(),
                tenths: t,
                technique: technique.clone(),
                places,
            });
        }
        rated.push(RatedStep {
            index,
            tenths,
            technique,
        });
    }
    let names = sorted_names(entries.iter().map(|e| e.technique.clone()));
    summarise(&entries, rated).map(|r| Rating {
        techniques: names,
        ..r
    })
}

/// Rates a solve's facts as [`rate`] rates its path, without splitting
/// them into firings where no rating needs one (only a `+ length` rating
/// reads a pattern): the same rating, pearl and diamond, at a fraction of
/// the cost, with no steps listed.
///
/// Only the steps that can decide the result are rated: every step up to
/// the first that places (the diamond and the pearl), and after it, the
/// steps whose highest possible rating could still be the puzzle's, most
/// promising first. A chain's step rated 7.2 spares rating the dozens of
/// singles after it, each of which needs a derivation to tell a box from
/// a line.
pub fn rate_facts(db: &FactDb) -> Option<Rating> {
    let mut evs = Evaluators::new(db);
    let floors = unrated_floors(db.program);
    // Per fixpoint step, per rule: its facts.
    let mut by_step: BTreeMap<u32, BTreeMap<usize, Vec<Derived>>> = BTreeMap::new();
    for (step, rule, fact) in technique_facts(db) {
        by_step
            .entry(step)
            .or_default()
            .entry(rule)
            .or_default()
            .push(fact);
    }
    let mut names: Vec<String> = (by_step.values().flat_map(|rules| rules.keys()))
        .filter_map(|&id| db.program.rules.get(id))
        .map(|rule| rule.label().unwrap_or(&rule.technique).to_string())
        .collect();
    let mut entries: Vec<Entry> = Vec::new();
    for (step, f) in branch_forcing(db) {
        let (tenths, name) = forcing_tenths(f);
        entries.push(Entry {
            step,
            tenths,
            technique: name.to_string(),
            places: !f.placed.is_empty(),
        });
        names.push(name.to_string());
    }
    let mut later = Vec::new();
    let mut placed = false;
    for (&step, rules) in &by_step {
        if placed {
            later.push((highest_possible_step(db.program, rules, &floors), step));
            continue;
        }
        if let Some(e) = rate_step(&mut evs, db, step, rules, &floors) {
            placed = e.places;
            entries.push(e);
        }
    }
    // The most promising first, so that a high rating found early spares
    // the rest; among equals the earliest, which `summarise` names.
    later.sort_by_key(|&(highest, step)| (std::cmp::Reverse(highest), step));
    let mut hardest = Hardest::default();
    entries.iter().for_each(|e| hardest.add(e));
    for (highest, step) in later {
        if let Some((top, at)) = hardest.top
            && (highest < top || (highest == top && step > at))
        {
            continue;
        }
        if let Some(e) = rate_step(&mut evs, db, step, &by_step[&step], &floors) {
            hardest.add(&e);
            entries.push(e);
        }
    }
    summarise(&entries, Vec::new()).map(|r| Rating {
        techniques: sorted_names(names.into_iter()),
        ..r
    })
}

/// The rating of fixpoint step `step`, whose rules derived `rules`: the
/// easiest rule's (see [`facts_tenths`]), or `None` if none is rated.
fn rate_step(
    evs: &mut Evaluators,
    db: &FactDb,
    step: u32,
    rules: &BTreeMap<usize, Vec<Derived>>,
    floors: &BTreeMap<u32, u32>,
) -> Option<Entry> {
    // The rules whose steps can be rated lowest go first: once the
    // step's rating is at a rule's floor, its facts need no look.
    let mut order: Vec<(u32, usize)> = rules
        .keys()
        .map(|&r| (lowest_possible(db.program, r, floors), r))
        .collect();
    order.sort_unstable();
    let mut best: Option<(u32, usize)> = None;
    let places = rules.values().flatten().any(|d| d.conclusion.placed);
    for (lowest, rule_id) in order {
        let facts = &rules[&rule_id];
        let Some(rule) = db.program.rules.get(rule_id) else {
            continue;
        };
        if best.is_some_and(|(t, _)| t <= lowest) {
            continue;
        }
        let tenths = if rule.rating.iter().any(|l| l.length_bonus) {
            firings(evs, rule_id, step, facts)
                .iter()
                .filter_map(|f| {
                    let values: Vec<[Value; 2]> =
                        f.conclusions.iter().map(|c| values(db, c)).collect();
                    let length = Some(pattern_length(f));
                    facts_tenths(evs, rule, &values, step, length, floors)
                })
                .min()
        } else {
            let values: Vec<[Value; 2]> = facts.iter().map(|d| values(db, &d.conclusion)).collect();
            facts_tenths(evs, rule, &values, step, None, floors)
        };
        if let Some(t) = tenths
            && best.is_none_or(|(b, _)| t < b)
        {
            best = Some((t, rule_id));
        }
    }
    best.map(|(tenths, rule_id)| {
        let rule = &db.program.rules[rule_id];
        Entry {
            step,
            tenths,
            technique: rule.label().unwrap_or(&rule.technique).to_string(),
            places,
        }
    })
}

/// The steps rated so far, each as its easiest entry, and the hardest of
/// them with its step (the earliest of equals), as [`summarise`] reads
/// them: kept up to date entry by entry.
#[derive(Default)]
struct Hardest {
    by_step: BTreeMap<u32, u32>,
    top: Option<(u32, u32)>,
}

impl Hardest {
    fn add(&mut self, e: &Entry) {
        let t = self.by_step.entry(e.step).or_insert(u32::MAX);
        if e.tenths >= *t {
            return;
        }
        let lowered = *t != u32::MAX;
        *t = e.tenths;
        if lowered {
            // A second entry of one step made it easier: look again.
            self.top = None;
            for (&step, &t) in &self.by_step {
                if self.top.is_none_or(|(top, _)| t > top) {
                    self.top = Some((t, step));
                }
            }
        } else if self
            .top
            .is_none_or(|(top, at)| e.tenths > top || (e.tenths == top && e.step < at))
        {
            self.top = Some((e.tenths, e.step));
        }
    }
}

/// The highest rating a step whose rules derived `rules` can get: the
/// least of its rules' highest (see [`highest_possible`]).
fn highest_possible_step(
    program: &Program,
    rules: &BTreeMap<usize, Vec<Derived>>,
    floors: &BTreeMap<u32, u32>,
) -> u32 {
    (rules.keys())
        .map(|&id| highest_possible(program, id, floors))
        .min()
        .unwrap_or(u32::MAX)
}

/// The highest rating rule `id` can give a step: its tier's floor without
/// `.rating`, its highest line when every fact is sure to get one (the
/// last line has no `when`), and no bound otherwise (a `+ length` line,
/// or facts that may go unrated).
fn highest_possible(program: &Program, id: usize, floors: &BTreeMap<u32, u32>) -> u32 {
    let Some(rule) = program.rules.get(id) else {
        return u32::MAX;
    };
    if rule.rating.is_empty() {
        return floors
            .range(..=rule.tier)
            .next_back()
            .map_or(u32::MAX, |(_, &t)| t);
    }
    let bounded = !rule.rating.iter().any(|l| l.length_bonus)
        && rule.rating.last().is_some_and(|l| l.when.is_empty());
    if !bounded {
        return u32::MAX;
    }
    rule.rating
        .iter()
        .map(|l| l.tenths)
        .max()
        .unwrap_or(u32::MAX)
}

/// One rated firing (or a fixpoint step's easiest), for the summary.
struct Entry {
    step: u32,
    tenths: u32,
    technique: String,
    places: bool,
}

/// A forcing step's rating and name: by its depth, and whether only
/// contradictions came back.
fn forcing_tenths(f: &ForcingStep) -> (u32, &'static str) {
    let refuted_only = f.placed.is_empty()
        && f.forks
            .iter()
            .filter(|k| k.end == ForkEnd::Survived)
            .count()
            <= 1;
    match (f.depth, refuted_only) {
        (2.., _) => (FORCING_NESTED, "Nested forcing"),
        (_, true) => (FORCING_CONTRADICTION, "Forcing to a contradiction"),
        (_, false) => (FORCING_AGREEMENT, "Cell or unit forcing"),
    }
}

/// The rating, pearl and diamond of rated entries: each fixpoint step by
/// its easiest entry, the path by its hardest fixpoint step.
fn summarise(entries: &[Entry], steps: Vec<RatedStep>) -> Option<Rating> {
    // Fixpoint step → (its easiest entry, whether it placed).
    let mut by_step: BTreeMap<u32, (u32, usize, bool)> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        let slot = by_step.entry(e.step).or_insert((e.tenths, i, e.places));
        if e.tenths < slot.0 {
            (slot.0, slot.1) = (e.tenths, i);
        }
        slot.2 |= e.places;
    }
    let (&first, _) = by_step.iter().next()?;
    let diamond = by_step[&first].0;
    let (mut rating, mut hardest, mut pearl, mut placed) = (0, 0, 0, false);
    for &(t, i, places) in by_step.values() {
        if t > rating {
            (rating, hardest) = (t, i);
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
        hardest: entries[hardest].technique.clone(),
        techniques: Vec::new(),
        steps,
    })
}

/// The names of `names`, sorted, each once.
fn sorted_names(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = names.collect();
    out.sort();
    out.dedup();
    out
}

/// A placement's or elimination's values, as `placed(C, D)` and
/// `eliminated(C, D)` hold them.
fn values(db: &FactDb, c: &Conclusion) -> [Value; 2] {
    let n = db.geometry.n;
    [cell_value(c.cell / n, c.cell % n), Value::from(c.digit)]
}

/// The least rating any of `facts` (of `rule`, at `step`) gets: for each,
/// its rule's first `.rating` line whose `when` a derivation of it meets,
/// plus the length bonus of `length` if the line asks for it; a rule
/// without `.rating` takes its tier's floor.
fn facts_tenths(
    evs: &mut Evaluators,
    rule: &Rule,
    facts: &[[Value; 2]],
    step: u32,
    length: Option<usize>,
    floors: &BTreeMap<u32, u32>,
) -> Option<u32> {
    if rule.rating.is_empty() {
        return floors.range(..=rule.tier).next_back().map(|(_, &t)| t);
    }
    let bonus = |line: &RatingAlternative| {
        if line.length_bonus {
            length_bonus(length.unwrap_or(0))
        } else {
            0
        }
    };
    // Each condition's body (the rule's, then its `when`), built once for
    // all the facts rather than once per fact.
    let bodies: Vec<Option<Vec<Literal>>> = (rule.rating.iter())
        .map(|line| {
            (!line.when.is_empty()).then(|| rule.body.iter().chain(&line.when).cloned().collect())
        })
        .collect();
    let tenths: Vec<u32> = rule.rating.iter().map(|l| l.tenths + bonus(l)).collect();
    let mut best: Option<u32> = None;
    for values in facts {
        for (i, body) in bodies.iter().enumerate() {
            // No line from here on rates the fact below the best so far.
            if best.is_some_and(|b| tenths[i..].iter().all(|&t| t >= b)) {
                break;
            }
            // A fact is rated by its first line that holds, even one that
            // cannot improve on the best: the lines after it do not apply.
            if body
                .as_ref()
                .is_none_or(|b| evs.derives_by(rule, b, values, step))
            {
                best = Some(best.map_or(tenths[i], |b| b.min(tenths[i])));
                break;
            }
        }
    }
    best
}

/// The lowest rating a step of rule `id` can get (its lowest line, or
/// its tier's floor).
fn lowest_possible(program: &Program, id: usize, floors: &BTreeMap<u32, u32>) -> u32 {
    let Some(rule) = program.rules.get(id) else {
        return u32::MAX;
    };
    (rule.rating.iter().map(|l| l.tenths).min())
        .or_else(|| floors.range(..=rule.tier).next_back().map(|(_, &t)| t))
        .unwrap_or(u32::MAX)
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
