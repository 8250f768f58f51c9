//! The solution path: the steps a solve took on its solution's branch, one
//! per firing of a technique (`Hidden single: r5c3=4 (box4)`), with the
//! guesses where the search had to guess, in the order the trace logs
//! them. The grid's own rules (tier 0: a placed digit leaves its peers)
//! are no steps of their own: they follow from each placement, as in
//! every solving guide.
//!
//! Each step carries what its picture needs ([`board_before`],
//! [`marks`]), so the text and the pictures come from the same data.

use super::db::FactDb;
use super::explain::describe_guess;
use super::firing::{Candidate, Conclusion, Derived, Evaluators, Firing, Pattern, firings};
use super::trace::forcing_words;
use crate::engine::Guess;
use crate::grid::Geometry;
use crate::lang::program::{Builtin, Value, cell_value};
use crate::lang::value::Type;
use crate::picture::{Board, Marks, svg};
use crate::solve::{ForcingStep, ForkEnd, Hypothesis};
use itertools::Itertools;
use serde_json::{Value as Json, json};

/// One step of the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// A technique fired once.
    Firing(Firing),
    /// The search guessed.
    Guess(GuessStep),
    /// Forcing brought facts back from a hypothesis's forks.
    Forcing(ForcingPathStep),
}

/// A forcing step of the solution's branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcingPathStep {
    /// The fixpoint step its facts arrived at.
    pub step: u32,
    /// The hypothesis, its forks, and what came back.
    pub forcing: ForcingStep,
    /// The step in words (see [`forcing_words`]).
    pub words: String,
}

impl ForcingPathStep {
    /// What it placed and eliminated.
    fn conclusions(&self) -> Vec<Conclusion> {
        let placed = (self.forcing.placed.iter()).map(|&(cell, digit)| Conclusion {
            placed: true,
            cell,
            digit,
        });
        let eliminated = (self.forcing.eliminated.iter()).map(|&(cell, digit)| Conclusion {
            placed: false,
            cell,
            digit,
        });
        placed.chain(eliminated).collect()
    }

    /// Its hypothesis as a step's name: `Cell forcing on r3c5 {2,7}`,
    /// `Unit forcing on 4 in row5`.
    fn label(&self, g: Geometry) -> String {
        match &self.forcing.hypothesis {
            Hypothesis::Cell(cell) => {
                let digits: Vec<u8> = self.forcing.forks.iter().map(|k| k.digit).collect();
                format!(
                    "Cell forcing on {} {}",
                    g.cell_name(*cell),
                    g.digit_set_text(&digits)
                )
            }
            Hypothesis::Unit { unit, digit } => {
                format!("Unit forcing on {} in {}", g.digit_symbol(*digit), unit)
            }
        }
    }
}

/// A guess of the solution's branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuessStep {
    /// The fixpoint step it was placed at.
    pub step: u32,
    /// The cell, row-major.
    pub cell: usize,
    /// The digit placed.
    pub digit: u8,
    /// The candidates it was chosen from.
    pub options: Vec<u8>,
    /// The guess in words, with what became of the other candidates.
    pub words: String,
}

impl PathStep {
    /// The fixpoint step.
    pub fn step(&self) -> u32 {
        match self {
            PathStep::Firing(f) => f.step,
            PathStep::Guess(g) => g.step,
            PathStep::Forcing(f) => f.step,
        }
    }
}

/// The path of a solve's branch, as `db` holds it: every firing of a
/// technique above the grid's own rules that placed or eliminated, and
/// every guess, in step order.
pub fn solution_path(db: &FactDb) -> Vec<PathStep> {
    let mut steps: Vec<PathStep> = split(db, technique_facts(db))
        .into_iter()
        .map(PathStep::Firing)
        .collect();
    for guess in &db.guesses {
        if let Some(step) = guess_step(db, guess) {
            steps.push(step);
        }
    }
    for (step, f) in branch_forcing(db) {
        steps.push(forcing_step(db, step, f));
    }
    // A guess comes before what the rules derive from it.
    steps.sort_by_key(|s| (s.step(), matches!(s, PathStep::Firing(_))));
    steps
}

/// The placements and eliminations of the techniques above the grid's
/// own rules, each with its step and rule: what the path's firings are
/// made of.
pub(super) fn technique_facts(db: &FactDb) -> Vec<(u32, usize, Derived)> {
    derived(db, |rule, _| {
        db.program.rules.get(rule).is_some_and(|r| r.tier > 0)
    })
}

/// The forcing steps of the snapshot's branch (those whose facts it
/// holds), with their fixpoint steps.
pub(super) fn branch_forcing<'d>(db: &'d FactDb) -> Vec<(u32, &'d ForcingStep)> {
    let placed = db.program.builtin(Builtin::Placed);
    let eliminated = db.program.builtin(Builtin::Eliminated);
    let n = db.geometry.n;
    let mut out = Vec::new();
    for (step, f) in &db.forcing {
        let here = |rel: usize, &(cell, digit): &(usize, u8)| {
            let values = [cell_value(cell / n, cell % n), Value::from(digit)];
            (db.rel(rel).find(&values))
                .and_then(|fact| fact.origin)
                .is_some_and(|o| o.is_forced() && o.step == *step)
        };
        let ours = f.placed.iter().any(|p| here(placed, p))
            || f.eliminated.iter().any(|e| here(eliminated, e));
        if ours {
            out.push((*step, f));
        }
    }
    out
}

/// The step that concluded one placement or elimination (a rule's firing,
/// the grid's own rules included, or a guess); `None` for a given, an
/// input's fact, or a fact that is no conclusion.
pub fn step_of(db: &FactDb, placed: bool, values: &[Value]) -> Option<PathStep> {
    let rel = if placed {
        db.program.builtin(Builtin::Placed)
    } else {
        db.program.builtin(Builtin::Eliminated)
    };
    let fact = db.rel(rel).find(values)?;
    let origin = fact.origin?;
    let given = db.program.builtin(Builtin::Given);
    if placed && db.rel(given).find(values).is_some() {
        return None;
    }
    let wanted = conclusion(db, placed, values)?;
    if origin.is_guess() {
        let guess = db
            .guesses
            .iter()
            .find(|g| g.cell == wanted.cell && g.digit == wanted.digit)?;
        return guess_step(db, guess);
    }
    if origin.is_forced() {
        let rel = if placed {
            db.program.builtin(Builtin::Placed)
        } else {
            db.program.builtin(Builtin::Eliminated)
        };
        return (db.forcing_at(origin.step, rel, values)).map(|f| forcing_step(db, origin.step, f));
    }
    if origin.is_unruled() {
        return None;
    }
    let batch = derived(db, |rule, step| {
        rule == origin.rule as usize && step == origin.step
    });
    split(db, batch)
        .into_iter()
        .find(|f| f.conclusions.contains(&wanted))
        .map(PathStep::Firing)
}

/// The placements and eliminations some rule derived, for which `keep`
/// (of the rule and the step) holds, each with its step and rule.
fn derived(db: &FactDb, keep: impl Fn(usize, u32) -> bool) -> Vec<(u32, usize, Derived)> {
    let placed = db.program.builtin(Builtin::Placed);
    let eliminated = db.program.builtin(Builtin::Eliminated);
    let mut facts: Vec<(u32, usize, Derived)> = Vec::new();
    for rel in [placed, eliminated] {
        for fact in &db.rel(rel).facts {
            let Some(origin) = fact.origin.filter(|o| !o.is_unruled()) else {
                continue;
            };
            let rule = origin.rule as usize;
            if !keep(rule, origin.step) {
                continue;
            }
            let Some(conclusion) = conclusion(db, rel == placed, &fact.values) else {
                continue;
            };
            facts.push((
                origin.step,
                rule,
                Derived {
                    rel,
                    values: fact.values.clone(),
                    conclusion,
                },
            ));
        }
    }
    facts
}

/// Rules' facts, each with its step and rule, split into firings: per
/// step and rule, in the trace's order (step, rule, relation, values),
/// then as [`firings`] splits them.
pub fn split(db: &FactDb, mut facts: Vec<(u32, usize, Derived)>) -> Vec<Firing> {
    facts.sort_by(|a, b| (a.0, a.1, a.2.rel, &a.2.values).cmp(&(b.0, b.1, b.2.rel, &b.2.values)));
    let mut evs = Evaluators::new(db);
    let mut out = Vec::new();
    for ((step, rule), batch) in &facts.into_iter().chunk_by(|(s, r, _)| (*s, *r)) {
        let batch: Vec<Derived> = batch.map(|(_, _, d)| d).collect();
        out.extend(firings(&mut evs, rule, step, &batch));
    }
    out
}

/// A step's picture: the board before it, with its marks.
pub fn picture(db: &FactDb, step: &PathStep) -> String {
    svg::render(&board_before(db, step.step()), &marks(db, step))
}

/// A guess of the branch as a step.
fn guess_step(db: &FactDb, guess: &Guess) -> Option<PathStep> {
    Some(PathStep::Guess(GuessStep {
        step: db.guess_step(guess)?,
        cell: guess.cell,
        digit: guess.digit,
        options: guess.options.clone(),
        words: describe_guess(db, guess),
    }))
}

/// A forcing step of the branch as a path step.
fn forcing_step(db: &FactDb, step: u32, forcing: &ForcingStep) -> PathStep {
    PathStep::Forcing(ForcingPathStep {
        step,
        forcing: forcing.clone(),
        words: forcing_words(forcing, &db.geometry),
    })
}

/// A `placed`/`eliminated` fact (or a hint's copy of one) as a conclusion.
pub fn conclusion(db: &FactDb, placed: bool, values: &[Value]) -> Option<Conclusion> {
    let cell = db.cell_index(*values.first()?)?;
    let digit = u8::try_from(*values.get(1)?).ok()?;
    Some(Conclusion {
        placed,
        cell,
        digit,
    })
}

/// A step's line in the usual notation: `Hidden single: r5c3=4 (box4)`,
/// `Fish: r1c3,r4c3<>3 (row2, row7)`, `Guess r1c5=6 (from {2,6})`.
pub fn line(db: &FactDb, step: &PathStep) -> String {
    let g = db.geometry;
    match step {
        PathStep::Guess(guess) => format!(
            "Guess {}={} (from {})",
            g.cell_name(guess.cell),
            g.digit_symbol(guess.digit),
            g.digit_set_text(&guess.options)
        ),
        PathStep::Forcing(f) => format!("{}: {}", f.label(g), notation(g, &f.conclusions())),
        PathStep::Firing(f) => {
            let mut text = format!("{}: {}", f.label, notation(g, &f.conclusions));
            let place = where_text(db, f);
            if !place.is_empty() {
                text.push_str(&format!(" ({place})"));
            }
            text
        }
    }
}

/// Conclusions as people write them: placements `r5c3=4`, eliminations
/// grouped by digit, `r1c2,r5c8<>6`, and digits that leave the same cells
/// together, `r2c9,r3c9<>49` (a digit is one symbol in every size).
pub fn notation(g: Geometry, conclusions: &[Conclusion]) -> String {
    let mut parts: Vec<String> = conclusions
        .iter()
        .filter(|c| c.placed)
        .map(|c| format!("{}={}", g.cell_name(c.cell), g.digit_symbol(c.digit)))
        .collect();
    let by_digit = conclusions
        .iter()
        .filter(|c| !c.placed)
        .sorted_by_key(|c| (c.digit, c.cell))
        .chunk_by(|c| c.digit);
    let mut by_cells: Vec<(Vec<usize>, String)> = Vec::new();
    for (digit, cs) in &by_digit {
        let cells: Vec<usize> = cs.map(|c| c.cell).collect();
        match by_cells.iter_mut().find(|(other, _)| *other == cells) {
            Some((_, digits)) => digits.push(g.digit_symbol(digit)),
            None => by_cells.push((cells, g.digit_symbol(digit).to_string())),
        }
    }
    for (cells, digits) in by_cells {
        let names = cells.iter().map(|&c| g.cell_name(c)).join(",");
        parts.push(format!("{names}<>{digits}"));
    }
    parts.join(", ")
}

/// Where the pattern is: a chain in Eureka's notation when its links make
/// one (`(9)r1c5=(9)r1c8-(6)r1c8=(6)r1c4`, `=` a strong link and `-` a
/// weak one); else its units, then the cells it names besides those it
/// concludes about (a naked pair's two cells).
fn where_text(db: &FactDb, f: &Firing) -> String {
    if let Some(chain) = chain_text(db.geometry, &f.pattern) {
        return chain;
    }
    let units = f
        .pattern
        .units
        .iter()
        .map(|u| db.show(Type::Unit, *u))
        .join(", ");
    let concluded: Vec<usize> = f.conclusions.iter().map(|c| c.cell).collect();
    let cells = f
        .pattern
        .cells
        .iter()
        .filter(|c| !concluded.contains(c))
        .map(|c| db.geometry.cell_name(*c))
        .join(", ");
    match (units.is_empty(), cells.is_empty()) {
        (_, true) => units,
        (true, false) => cells,
        (false, false) => format!("{units}: {cells}"),
    }
}

/// The pattern's links as one chain, if they make one: every node on at
/// most two links, strong and weak alternating, from one end to the other.
fn chain_text(g: Geometry, pattern: &Pattern) -> Option<String> {
    let edges: Vec<(Candidate, Candidate, bool)> = pattern
        .links
        .iter()
        .map(|&(a, b)| (a, b, true))
        .chain(pattern.weak_links.iter().map(|&(a, b)| (a, b, false)))
        .collect();
    if edges.len() < 2 {
        return None;
    }
    let links_of = |node: Candidate| -> Vec<usize> {
        (0..edges.len())
            .filter(|&i| edges[i].0 == node || edges[i].1 == node)
            .collect()
    };
    let nodes: Vec<Candidate> = edges
        .iter()
        .flat_map(|&(a, b, _)| [a, b])
        .unique()
        .collect();
    if nodes.iter().any(|&n| links_of(n).len() > 2) {
        return None;
    }
    // An end: a node on one link (a loop has none: start anywhere).
    let start = nodes
        .iter()
        .copied()
        .find(|&n| links_of(n).len() == 1)
        .unwrap_or(nodes[0]);
    let show =
        |(cell, digit): Candidate| format!("({}){}", g.digit_symbol(digit), g.cell_name(cell));
    let mut text = show(start);
    let (mut at, mut used) = (start, vec![false; edges.len()]);
    let mut last_strong = None;
    while let Some(i) = links_of(at).into_iter().find(|&i| !used[i]) {
        used[i] = true;
        let (a, b, strong) = edges[i];
        if last_strong == Some(strong) {
            return None;
        }
        last_strong = Some(strong);
        at = if a == at { b } else { a };
        text.push(if strong { '=' } else { '-' });
        text.push_str(&show(at));
    }
    used.iter().all(|u| *u).then_some(text)
}

/// The grid as it stood before `step`: givens, digits placed since, and
/// the candidates of the open cells.
pub fn board_before(db: &FactDb, step: u32) -> Board {
    let g = db.geometry;
    let cells = g.cell_count();
    let mut givens = vec![0u8; cells];
    let mut placed = vec![0u8; cells];
    let mut candidates = vec![0u32; cells];
    let digit = |v: Value| u8::try_from(v).unwrap_or(0);
    for f in &db.rel(db.program.builtin(Builtin::Given)).facts {
        if let Some(i) = db.cell_index(f.values[0]) {
            givens[i] = digit(f.values[1]);
        }
    }
    for f in &db.rel(db.program.builtin(Builtin::Placed)).facts {
        if let Some(i) = db.cell_index(f.values[0])
            && f.step() < step
            && givens[i] == 0
        {
            placed[i] = digit(f.values[1]);
        }
    }
    for f in db.candidate_facts(step.saturating_sub(1)) {
        if let Some(i) = db.cell_index(f.values[0])
            && givens[i] == 0
            && placed[i] == 0
        {
            candidates[i] |= 1 << f.values[1];
        }
    }
    Board {
        geometry: g,
        regions: db.regions(),
        extra_units: db.extra_units(),
        givens,
        placed,
        candidates,
    }
}

/// What a step adds to its board, with its line as the caption.
pub fn marks(db: &FactDb, step: &PathStep) -> Marks {
    let caption = line(db, step);
    match step {
        PathStep::Guess(guess) => Marks {
            cells: vec![guess.cell],
            placements: vec![(guess.cell, guess.digit)],
            caption,
            ..Marks::default()
        },
        PathStep::Forcing(f) => {
            let conclusions = f.conclusions();
            let list = |placed: bool| {
                (conclusions.iter())
                    .filter(|c| c.placed == placed)
                    .map(|c| (c.cell, c.digit))
                    .collect()
            };
            Marks {
                cells: f.forcing.forks.iter().map(|k| k.cell).unique().collect(),
                candidates: f.forcing.forks.iter().map(|k| (k.cell, k.digit)).collect(),
                eliminations: list(false),
                placements: list(true),
                caption,
                ..Marks::default()
            }
        }
        PathStep::Firing(f) => Marks {
            units: f.pattern.units.iter().map(|u| db.unit_cells(*u)).collect(),
            cells: f.pattern.cells.clone(),
            candidates: f.pattern.candidates.clone(),
            links: f.pattern.links.clone(),
            weak_links: f.pattern.weak_links.clone(),
            eliminations: f
                .conclusions
                .iter()
                .filter(|c| !c.placed)
                .map(|c| (c.cell, c.digit))
                .collect(),
            placements: f
                .conclusions
                .iter()
                .filter(|c| c.placed)
                .map(|c| (c.cell, c.digit))
                .collect(),
            caption,
        },
    }
}

/// A step as JSON: its line, kind, rule, words, conclusions and pattern.
pub fn step_json(db: &FactDb, number: usize, step: &PathStep) -> Json {
    let g = db.geometry;
    let cand = |(c, d): &(usize, u8)| json!({"cell": g.cell_name(*c), "digit": g.digit_symbol(*d).to_string()});
    let list = |cs: &[Conclusion], placed: bool| -> Vec<Json> {
        cs.iter()
            .filter(|c| c.placed == placed)
            .map(|c| cand(&(c.cell, c.digit)))
            .collect()
    };
    match step {
        PathStep::Guess(guess) => json!({
            "number": number,
            "step": guess.step,
            "kind": "guess",
            "line": line(db, step),
            "words": guess.words,
            "placements": [cand(&(guess.cell, guess.digit))],
            "eliminations": [],
            "options": guess.options.iter().map(|d| g.digit_symbol(*d).to_string()).collect::<Vec<_>>(),
        }),
        PathStep::Forcing(f) => {
            let conclusions = f.conclusions();
            let forks: Vec<Json> = (f.forcing.forks.iter())
                .map(|k| {
                    let mut o = cand(&(k.cell, k.digit));
                    o["contradicts"] = matches!(k.end, ForkEnd::Contradiction(_)).into();
                    o
                })
                .collect();
            json!({
                "number": number,
                "step": f.step,
                "kind": "forcing",
                "line": line(db, step),
                "name": f.label(g),
                "words": f.words,
                "depth": f.forcing.depth,
                "forks": forks,
                "placements": list(&conclusions, true),
                "eliminations": list(&conclusions, false),
            })
        }
        PathStep::Firing(f) => {
            let rule = &db.program.rules[f.rule];
            json!({
                "number": number,
                "step": f.step,
                "kind": "rule",
                "line": line(db, step),
                "technique": rule.technique,
                "name": f.label,
                "rule": rule.name,
                "tier": rule.tier,
                "words": f.words,
                "placements": list(&f.conclusions, true),
                "eliminations": list(&f.conclusions, false),
                "pattern": {
                    "units": f.pattern.units.iter().map(|u| db.show(Type::Unit, *u)).collect::<Vec<_>>(),
                    "cells": f.pattern.cells.iter().map(|c| g.cell_name(*c)).collect::<Vec<_>>(),
                    "candidates": f.pattern.candidates.iter().map(cand).collect::<Vec<_>>(),
                    "links": f.pattern.links.iter().map(|(a, b)| json!([cand(a), cand(b)])).collect::<Vec<_>>(),
                    "weak_links": f.pattern.weak_links.iter().map(|(a, b)| json!([cand(a), cand(b)])).collect::<Vec<_>>(),
                },
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(cell: usize, digit: u8) -> Conclusion {
        Conclusion {
            placed: false,
            cell,
            digit,
        }
    }

    #[test]
    fn notation_writes_placements_then_eliminations_by_their_cells() {
        let g = Geometry::from_side(9).expect("9x9");
        let placed = Conclusion {
            placed: true,
            cell: 40,
            digit: 4,
        };
        // 4 and 9 leave the same two cells: written together; 2 leaves one.
        let cs = [
            gone(17, 9),
            gone(8, 4),
            placed,
            gone(8, 9),
            gone(17, 4),
            gone(8, 2),
        ];
        assert_eq!(notation(g, &cs), "r5c5=4, r1c9<>2, r1c9,r2c9<>49");
    }

    #[test]
    fn links_make_a_chain_only_when_they_alternate_along_one_line() {
        let g = Geometry::from_side(9).expect("9x9");
        let pattern =
            |links: Vec<(Candidate, Candidate)>, weak: Vec<(Candidate, Candidate)>| Pattern {
                links,
                weak_links: weak,
                ..Pattern::default()
            };
        // (1)r1c1=(1)r1c2-(1)r2c2=(1)r2c3
        let chain = pattern(
            vec![((0, 1), (1, 1)), ((10, 1), (11, 1))],
            vec![((1, 1), (10, 1))],
        );
        assert_eq!(
            chain_text(g, &chain).as_deref(),
            Some("(1)r1c1=(1)r1c2-(1)r2c2=(1)r2c3")
        );
        // Two strong links in a row do not alternate.
        let strong = pattern(vec![((0, 1), (1, 1)), ((1, 1), (10, 1))], vec![]);
        assert_eq!(chain_text(g, &strong), None);
        // A node on three links is no line.
        let star = pattern(
            vec![((0, 1), (1, 1)), ((0, 1), (2, 1))],
            vec![((0, 1), (3, 1))],
        );
        assert_eq!(chain_text(g, &star), None);
        // One link is no chain.
        assert_eq!(
            chain_text(g, &pattern(vec![((0, 1), (1, 1))], vec![])),
            None
        );
    }
}
