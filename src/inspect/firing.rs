//! Firings: what one instance of a pattern concluded at one step.
//!
//! A rule's facts at one step are every instance of its pattern at once
//! (two X-wings, three chains). People read them one instance at a time,
//! so a batch is split by what the facts' derivations share: each fact is
//! re-derived as `explain` does, and facts whose derivations read the same
//! changing facts (the same `fish(...)`, the same chain's ends, the same
//! unit's gone places) are one firing. A firing also gathers its pattern
//! for pictures: the units, cells and candidates its derivation names, and
//! the strong links it stands on.

use super::db::{FactDb, Values};
use super::eval::{Evaluator, FactRef, Match};
use super::explain::fill_in;
use super::shortest::{ChainPath, Chains, steps};
use crate::lang::program::{Builtin, Expr, Literal, RelId, Rule, Value};
use crate::lang::value::{Type, cell_value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// How many derivations of each fact are weighed when the batch is split:
/// a fact that several instances derive joins the largest of them.
const DERIVATIONS_WEIGHED: usize = 4;

/// How many facts one firing's pattern may gather from its derivation (a
/// long chain's links; a bound so that a huge derivation stays cheap).
const PATTERN_FACTS: usize = 400;

/// A placement or an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Conclusion {
    /// A placement (`r5c3=4`) rather than an elimination (`r5c3<>4`).
    pub placed: bool,
    /// The cell, row-major.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
}

/// A candidate: a cell (row-major) and a digit.
pub type Candidate = (usize, u8);

/// What a firing's derivation names, for its picture and its line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pattern {
    /// Units the pattern is about (a hidden single's box, a fish's base
    /// lines), as unit values, in the order they are first named.
    pub units: Vec<Value>,
    /// Cells of the pattern, row-major (the cells its facts name).
    pub cells: Vec<usize>,
    /// Candidates the pattern's facts name (a chain's nodes), and the
    /// candidates of its digits in its units and its own cells.
    pub candidates: Vec<Candidate>,
    /// Strong links: the two-candidate facts at the bottom of the
    /// derivation (a bivalue cell's two digits, a digit's two places in a
    /// unit).
    pub links: Vec<(Candidate, Candidate)>,
    /// Weak links between the strong ones: where a fact of two candidates
    /// was derived from one strong link and shares one end with it (a
    /// chain's step from a candidate to a peer's same digit, or to another
    /// digit of its cell).
    pub weak_links: Vec<(Candidate, Candidate)>,
}

/// One instance of a rule's pattern and what it concluded at one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Firing {
    /// The rule's id in the program.
    pub rule: usize,
    /// The fixpoint step of its conclusions.
    pub step: u32,
    /// The pattern's name (`Hidden single`: the words its rule's comment
    /// starts with), or the technique's where the comment names none.
    pub label: String,
    /// Its placements, then its eliminations, each by cell and digit.
    pub conclusions: Vec<Conclusion>,
    /// The rule's comment filled in for the firing's first fact in the
    /// order the rule derived them (its conclusions are then sorted).
    pub words: String,
    /// What the pattern is made of.
    pub pattern: Pattern,
}

/// A rule's fact at one step, with what it concludes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The relation (`placed`, `eliminated`, or a hint's frozen copies).
    pub rel: RelId,
    /// Its values.
    pub values: Values,
    /// The placement or elimination it is.
    pub conclusion: Conclusion,
}

/// Evaluators over a snapshot, one per step, made once: each computes the
/// candidates of its step.
pub struct Evaluators<'a, 'p> {
    db: &'a FactDb<'p>,
    by_step: FxHashMap<u32, Evaluator<'a, 'p>>,
    /// The program's chain relations, whose facts a pattern reads through
    /// their shortest derivation (shared, so that a search can run while
    /// the evaluators rate the facts it reads).
    chains: Rc<Chains>,
    /// The shortest derivations found of chain facts (the rule and its
    /// match), by the step they were sought before and the fact (`None`:
    /// the search found none): every firing of a step reads the same
    /// chains.
    shortest: FxHashMap<(u32, FactRef), Option<(usize, Match)>>,
}

impl<'a, 'p> Evaluators<'a, 'p> {
    /// No evaluator yet, over `db`.
    pub fn new(db: &'a FactDb<'p>) -> Evaluators<'a, 'p> {
        Evaluators {
            db,
            by_step: FxHashMap::default(),
            chains: Rc::new(Chains::new(db.program)),
            shortest: FxHashMap::default(),
        }
    }

    /// The snapshot the evaluators read.
    pub fn db(&self) -> &'a FactDb<'p> {
        self.db
    }

    /// The evaluator over the facts known before `step`, made once.
    fn at(&mut self, step: u32) -> &Evaluator<'a, 'p> {
        let db = self.db;
        self.by_step
            .entry(step)
            .or_insert_with(|| Evaluator::new(db, step))
    }

    /// Up to `limit` derivations of a fact by `rule` from the facts known
    /// before `step`.
    fn derivations(
        &mut self,
        rule: &Rule,
        values: &[Value],
        step: u32,
        limit: usize,
    ) -> Vec<Match> {
        self.at(step)
            .matches(&rule.body, head_bindings(rule, values), limit)
    }

    /// Whether `body` (the rule's own body, or one with more literals over
    /// its variables: a `.rating`'s `when`) holds from the facts known
    /// before `step` with `rule`'s head bound to the fact `values`.
    pub fn derives_by(
        &mut self,
        rule: &Rule,
        body: &[Literal],
        values: &[Value],
        step: u32,
    ) -> bool {
        !(self.at(step).matches(body, head_bindings(rule, values), 1)).is_empty()
    }
}

/// The rule's variables bound by a fact of its head: the start of a search
/// for its derivations.
fn head_bindings(rule: &Rule, values: &[Value]) -> Vec<Option<Value>> {
    let mut start = vec![None; rule.var_names.len()];
    for (e, v) in rule.head.iter().zip(values) {
        if let Expr::Var(x) = e {
            start[*x] = Some(*v);
        }
    }
    start
}

/// The firings of one rule's facts at one step, in the order of their
/// first fact.
pub fn firings(evs: &mut Evaluators, rule_id: usize, step: u32, facts: &[Derived]) -> Vec<Firing> {
    let db = evs.db;
    let Some(rule) = db.program.rules.get(rule_id) else {
        return Vec::new();
    };
    let mut found: Vec<Vec<Match>> = facts
        .iter()
        .map(|f| evs.derivations(rule, &f.values, step, 1))
        .collect();
    // A fact whose first derivation shares its key with no other fact may
    // have another that does: weigh a few (all of them for every fact
    // would cost a search to exhaustion each).
    if facts.len() > 1 {
        let first_keys: Vec<Option<Vec<FactRef>>> = found
            .iter()
            .zip(facts)
            .map(|(ms, f)| ms.first().map(|m| shared_facts(db, rule, m, &f.values)))
            .collect();
        let mut sharing: FxHashMap<&Vec<FactRef>, usize> = FxHashMap::default();
        for k in first_keys.iter().flatten() {
            *sharing.entry(k).or_default() += 1;
        }
        for i in 0..facts.len() {
            let alone = first_keys[i]
                .as_ref()
                .is_none_or(|k| sharing.get(k) == Some(&1));
            if alone {
                found[i] = evs.derivations(rule, &facts[i].values, step, DERIVATIONS_WEIGHED);
            }
        }
    }
    // Each derivation's key: the changing facts it read. The keys that
    // derive the most facts become firings, largest first.
    let mut keys: Vec<Vec<FactRef>> = Vec::new();
    let mut key_index: FxHashMap<Vec<FactRef>, usize> = FxHashMap::default();
    let mut derives: Vec<Vec<(usize, usize)>> = Vec::new();
    for (i, matches) in found.iter().enumerate() {
        for (j, m) in matches.iter().enumerate() {
            let key = shared_facts(db, rule, m, &facts[i].values);
            match key_index.get(&key) {
                Some(&at) => derives[at].push((i, j)),
                None => {
                    key_index.insert(key.clone(), keys.len());
                    keys.push(key);
                    derives.push(vec![(i, j)]);
                }
            }
        }
    }
    let mut assigned = vec![false; facts.len()];
    let mut groups: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    loop {
        let fresh = |d: &Vec<(usize, usize)>| {
            let mut seen = FxHashSet::default();
            d.iter()
                .filter(|(i, _)| !assigned[*i] && seen.insert(*i))
                .count()
        };
        let best = (0..keys.len())
            .map(|k| (fresh(&derives[k]), k))
            .filter(|(n, _)| *n > 0)
            .min_by_key(|(n, k)| (std::cmp::Reverse(*n), *k));
        let Some((_, k)) = best else { break };
        let mut members = Vec::new();
        for &(i, j) in &derives[k] {
            if !assigned[i] {
                assigned[i] = true;
                members.push((i, j));
            }
        }
        groups.push((k, members));
    }
    // Facts no derivation was found for (none should be) stand alone.
    let mut out: Vec<(usize, Firing)> = groups
        .into_iter()
        .map(|(k, members)| {
            let first = members.iter().map(|(i, _)| *i).min().unwrap_or(0);
            let chosen: Vec<&Match> = members.iter().map(|&(i, j)| &found[i][j]).collect();
            let conclusions: Vec<Conclusion> =
                members.iter().map(|(i, _)| facts[*i].conclusion).collect();
            (
                first,
                firing(
                    evs,
                    rule,
                    step,
                    &keys[k],
                    &chosen,
                    conclusions,
                    &facts[first],
                ),
            )
        })
        .collect();
    for (i, f) in facts.iter().enumerate() {
        if !assigned[i] {
            let firing = Firing {
                rule: rule_id,
                step,
                label: label(rule),
                conclusions: vec![f.conclusion],
                words: String::new(),
                pattern: Pattern::default(),
            };
            out.push((i, firing));
        }
    }
    out.sort_by_key(|(first, _)| *first);
    out.into_iter().map(|(_, f)| f).collect()
}

/// The pattern's name: the words the rule's comment starts with, or its
/// technique's name.
fn label(rule: &Rule) -> String {
    rule.label().unwrap_or(&rule.technique).to_string()
}

/// The changing facts a derivation read that say something beyond the
/// concluded cell (another instance would read others); all of them when
/// every one is about that cell (a naked single reads only its own cell).
fn shared_facts(db: &FactDb, rule: &Rule, m: &Match, head: &[Value]) -> Vec<FactRef> {
    let head_cells: Vec<Value> = db
        .rel_types(rule.head_rel)
        .iter()
        .zip(head)
        .filter(|(t, _)| **t == Type::Cell)
        .map(|(_, v)| *v)
        .collect();
    let read: Vec<&FactRef> = m
        .used
        .iter()
        .chain(m.counted.iter().flatten())
        .filter(|(r, _)| db.is_dynamic(*r))
        .collect();
    let mentions_head = |(rel, values): &&FactRef| {
        db.rel_types(*rel)
            .iter()
            .zip(values)
            .any(|(t, v)| *t == Type::Cell && head_cells.contains(v))
    };
    let beyond: Vec<&FactRef> = read.iter().copied().filter(|f| !mentions_head(f)).collect();
    let mut key: Vec<FactRef> = if beyond.is_empty() { read } else { beyond }
        .into_iter()
        .cloned()
        .collect();
    key.sort();
    key.dedup();
    key
}

/// One firing: its conclusions, words and pattern.
fn firing(
    evs: &mut Evaluators,
    rule: &Rule,
    step: u32,
    key: &[FactRef],
    chosen: &[&Match],
    mut conclusions: Vec<Conclusion>,
    first: &Derived,
) -> Firing {
    let db = evs.db;
    let n = db.geometry.n;
    conclusions.sort_by_key(|c| (!c.placed, c.cell, c.digit));
    conclusions.dedup();
    let words = chosen.first().map_or_else(String::new, |m| {
        if rule.doc.is_empty() {
            let relation = &db.program.relations[rule.head_rel];
            let names: Vec<String> = relation
                .columns
                .iter()
                .map(|(c, _)| c.to_uppercase())
                .collect();
            let types: Vec<Type> = relation.columns.iter().map(|(_, t)| *t).collect();
            let head: Vec<Option<Value>> = first.values.iter().map(|&v| Some(v)).collect();
            fill_in(db, &relation.doc, &names, &types, &head)
        } else {
            fill_in(db, &rule.doc, &rule.var_names, &rule.var_types, &m.values)
        }
    });
    let mut gather = Gather::new(db, Some(step));
    // The values every chosen derivation binds alike are the instance's.
    let mut bound_units = Vec::new();
    let mut digits: Vec<u8> = conclusions.iter().map(|c| c.digit).collect();
    if let Some(m) = chosen.first() {
        for (x, value) in m.values.iter().enumerate() {
            let Some(v) = *value else { continue };
            let alike = chosen.iter().all(|o| o.values.get(x) == Some(&Some(v)));
            let hidden = rule
                .var_names
                .get(x)
                .is_none_or(|name| name.starts_with('_'));
            if !alike || hidden {
                continue;
            }
            match rule.var_types.get(x).copied().unwrap_or(Type::Number) {
                Type::Cell => gather.cell(v, true),
                Type::Unit => bound_units.push(v),
                Type::Digit if v >= 1 && v <= n as Value => digits.push(v as u8),
                _ => {}
            }
        }
    }
    for fact in key {
        gather.fact(evs, fact, true);
    }
    // The units of the facts the instance read are its pattern (a fish's
    // base lines); those its rule binds alike are, when it read none (a
    // hidden single's unit, a locked candidate's box and line). A unit
    // that all the conclusions happen to share is no part of a fish.
    if gather.pattern.units.is_empty() {
        for u in bound_units {
            gather.unit(u);
        }
    }
    let units = gather.pattern.units.clone();
    let near = gather.near_cells.clone();
    digits.sort_unstable();
    digits.dedup();
    let mut pattern = gather.pattern;
    // The pattern's digits where the pattern is: in its units and its own
    // cells, the candidates the reader follows (a fish's base lines, a
    // naked pair's cells).
    let before = evs.at(step);
    let placed = db.program.builtin(Builtin::Placed);
    let filled = |cell: usize| {
        let v = cell_value(cell / n, cell % n);
        db.rel(placed).with_first(v).any(|f| f.step() < step)
    };
    let mut places: Vec<usize> = near;
    for u in &units {
        places.extend(db.unit_cells(*u));
    }
    for cell in places {
        if filled(cell) {
            continue;
        }
        let v = cell_value(cell / n, cell % n);
        for &d in &digits {
            if before.is_candidate(v, Value::from(d)) {
                pattern.candidates.push((cell, d));
            }
        }
    }
    let concluded: FxHashSet<Candidate> = conclusions.iter().map(|c| (c.cell, c.digit)).collect();
    pattern.candidates.retain(|c| !concluded.contains(c));
    let mut seen = FxHashSet::default();
    pattern.candidates.retain(|c| seen.insert(*c));
    Firing {
        rule: rule.id,
        step,
        label: label(rule),
        conclusions,
        words,
        pattern,
    }
}

/// Gathers a pattern from facts and their derivations.
struct Gather<'a, 'p> {
    db: &'a FactDb<'p>,
    pattern: Pattern,
    /// Cells named by the instance itself (its bindings and the facts it
    /// read directly), where its digits are circled.
    near_cells: Vec<usize>,
    /// What each fact read so far came to.
    seen: FxHashMap<FactRef, Reading>,
    state: [RelId; 3],
    /// The step of the firing: a chain relation's facts are read through
    /// their shortest derivation from the facts known before it (`None`:
    /// through their first).
    before: Option<u32>,
}

impl<'a, 'p> Gather<'a, 'p> {
    fn new(db: &'a FactDb<'p>, before: Option<u32>) -> Gather<'a, 'p> {
        let program = db.program;
        Gather {
            db,
            pattern: Pattern::default(),
            near_cells: Vec::new(),
            seen: FxHashMap::default(),
            before,
            state: [
                program.builtin(Builtin::Placed),
                program.builtin(Builtin::Eliminated),
                program.builtin(Builtin::Given),
            ],
        }
    }

    fn cell(&mut self, cell: Value, near: bool) {
        if let Some(i) = self.db.cell_index(cell) {
            if !self.pattern.cells.contains(&i) {
                self.pattern.cells.push(i);
            }
            if near && !self.near_cells.contains(&i) {
                self.near_cells.push(i);
            }
        }
    }

    fn unit(&mut self, unit: Value) {
        if !self.pattern.units.contains(&unit) {
            self.pattern.units.push(unit);
        }
    }

    /// Reads a fact's cells, units and candidates, then its own derivation
    /// (a helper's, not the grid's state: placed and eliminated digits are
    /// what the picture shows already). A fact of two candidates at the
    /// bottom of the derivation is a strong link; one derived from a
    /// single such fact that shares one end with it (`next(C, Z, B, Y)`
    /// from `strong(E, Z, B, Y)`) adds the weak link between the other
    /// ends.
    fn fact(&mut self, evs: &mut Evaluators, fact: &FactRef, near: bool) -> Reading {
        let (rel, values) = fact;
        if self.state.contains(rel) || *rel == self.db.candidate_rel() {
            return Reading::default();
        }
        if let Some(known) = self.seen.get(fact) {
            return *known;
        }
        if self.seen.len() >= PATTERN_FACTS {
            return Reading::default();
        }
        // A fact met again inside its own derivation reads as nothing.
        self.seen.insert(fact.clone(), Reading::default());
        let types = self.db.rel_types(*rel);
        let n = self.db.geometry.n as Value;
        let digit_at = |i: usize| {
            (types[i] == Type::Digit && values[i] >= 1 && values[i] <= n).then_some(values[i] as u8)
        };
        let all_digits: Vec<u8> = (0..values.len()).filter_map(digit_at).collect();
        let mut candidates = Vec::new();
        for (i, t) in types.iter().enumerate() {
            match t {
                Type::Cell => {
                    self.cell(values[i], near);
                    let Some(cell) = self.db.cell_index(values[i]) else {
                        continue;
                    };
                    let own: Vec<u8> = (i + 1..values.len())
                        .take_while(|&j| types[j] != Type::Cell)
                        .filter_map(digit_at)
                        .collect();
                    let digits = if own.is_empty() { &all_digits } else { &own };
                    candidates.extend(digits.iter().map(|&d| (cell, d)));
                }
                Type::Unit if near => self.unit(values[i]),
                _ => {}
            }
        }
        for c in &candidates {
            if !self.pattern.candidates.contains(c) {
                self.pattern.candidates.push(*c);
            }
        }
        // Inside a derivation, a fact that is just a candidate (a cell and
        // a digit) marks a node worth a look (a chain's `end(C, Z)`); why
        // it is (its own derivation: any link that ends there) is no part
        // of this pattern.
        let node = types.len() == 2 && types.contains(&Type::Cell) && types.contains(&Type::Digit);
        let (link_below, pairs) = if !near && node {
            (false, Vec::new())
        } else {
            self.below(evs, fact)
        };
        let pair = (candidates.len() == 2 && candidates[0] != candidates[1])
            .then(|| ordered(candidates[0], candidates[1]));
        if let Some((p, q)) = pair {
            if !link_below {
                push_once(&mut self.pattern.links, (p, q));
            } else if let [(r, s)] = pairs.as_slice() {
                let weak = match (p == *r || p == *s, q == *r || q == *s) {
                    (true, false) => Some((q, if p == *r { *s } else { *r })),
                    (false, true) => Some((p, if q == *r { *s } else { *r })),
                    _ => None,
                };
                if let Some((a, b)) = weak.filter(|(a, b)| a != b) {
                    push_once(&mut self.pattern.weak_links, ordered(a, b));
                }
            }
        }
        let reading = Reading {
            link: link_below || pair.is_some(),
            pair,
        };
        self.seen.insert(fact.clone(), reading);
        reading
    }

    /// Gathers the facts a derived fact was derived from: whether a link
    /// was found among them, and the two-candidate facts among them.
    fn below(
        &mut self,
        evs: &mut Evaluators,
        fact: &FactRef,
    ) -> (bool, Vec<(Candidate, Candidate)>) {
        let db = self.db;
        let Some((_, m)) = read_derivation(evs, fact, self.before) else {
            return (false, Vec::new());
        };
        let mut link = false;
        let mut pairs = Vec::new();
        for f in m.used.iter().chain(m.counted.iter().flatten()) {
            if db.is_dynamic(f.0) {
                let reading = self.fact(evs, f, false);
                link |= reading.link;
                pairs.extend(reading.pair);
            }
        }
        (link, pairs)
    }
}

/// Whether `rel` is a chain relation, whose facts are read through their
/// shortest derivation.
pub fn is_chain(evs: &Evaluators, rel: RelId) -> bool {
    evs.chains.is_chain(rel)
}

/// The derivation a fact is read through, its rule and match: for a chain
/// relation's fact with a step `before`, the shortest from the facts known
/// before it (one search gives the chains it passes through too, which
/// the engine need not have derived: they are found by the same `before`);
/// else, or where the search finds none, its first.
pub fn read_derivation(
    evs: &mut Evaluators,
    fact: &FactRef,
    before: Option<u32>,
) -> Option<(usize, Match)> {
    let db = evs.db;
    let chains = Rc::clone(&evs.chains);
    if let Some(before) = before.filter(|_| chains.is_chain(fact.0)) {
        let key = (before, fact.clone());
        if !evs.shortest.contains_key(&key) {
            // The first derivations, and a search for one shorter.
            let first = first_path(evs, fact);
            let cap = first.as_ref().map_or(usize::MAX, |(_, c)| *c);
            let ev = Evaluator::new(db, before);
            let found = chains.shortest(&ev, db.program, fact, cap);
            let path = found.or(first.map(|(path, _)| path));
            evs.shortest.insert(key.clone(), None);
            let path = path.into_iter().flatten();
            evs.shortest
                .extend(path.map(|(f, rule, m)| ((before, f), Some((rule, m)))));
        }
        if let Some(Some(found)) = evs.shortest.get(&key) {
            return Some(found.clone());
        }
    }
    first_derivation(evs, fact)
}

/// A fact's first derivation: the rule that derived it and a match of its
/// body over the facts known before that step.
fn first_derivation(evs: &mut Evaluators, (rel, values): &FactRef) -> Option<(usize, Match)> {
    let db = evs.db;
    let origin = db.get_rel(*rel)?.find(values)?.origin?;
    let rule = db.program.rules.get(origin.rule as usize)?;
    let m = evs
        .derivations(rule, values, origin.step, 1)
        .into_iter()
        .next()?;
    Some((rule.id, m))
}

/// How many first derivations of a chain fact are followed down to its
/// base rule's (a chain's links, which the fact limit keeps far fewer).
const FIRST_PATH_STEPS: usize = 1024;

/// A chain fact's first derivations, each reading the one after it, down
/// to its base rule's, and what they cost ([`steps`]).
fn first_path(evs: &mut Evaluators, fact: &FactRef) -> Option<(ChainPath, usize)> {
    let db = evs.db;
    let (mut path, mut total, mut at) = (Vec::new(), 0, fact.clone());
    for _ in 0..FIRST_PATH_STEPS {
        let rel = at.0;
        let (rule, m) = first_derivation(evs, &at)?;
        total += steps(&m, rel, db.program);
        let parent = m.used.iter().find(|f| f.0 == rel).cloned();
        path.push((at.clone(), rule, m));
        match parent {
            Some(p) => at = p,
            None => return Some((path, total)),
        }
    }
    None
}

/// What reading one fact came to.
#[derive(Clone, Copy, Debug, Default)]
struct Reading {
    /// A link was found at or below it.
    link: bool,
    /// Its two candidates, if it names exactly two.
    pair: Option<(Candidate, Candidate)>,
}

/// A link with its ends in order, so that one read both ways (`strong(A,
/// X, B, Y)` and its mirror) is drawn once.
fn ordered(a: Candidate, b: Candidate) -> (Candidate, Candidate) {
    (a.min(b), a.max(b))
}

/// Adds a link unless it is there already.
fn push_once(links: &mut Vec<(Candidate, Candidate)>, link: (Candidate, Candidate)) {
    if !links.contains(&link) {
        links.push(link);
    }
}
