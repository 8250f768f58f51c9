//! Shortest derivations of chains: the chain a step's line and picture
//! show, and the one a `+ length` rating counts.
//!
//! The engine keeps the first derivation of every fact, and a fact keeps
//! it across states: a chain found early, ten links long, is still that
//! chain after a new strong link would make it four. A person, and Sudoku
//! Explainer, take the shortest chain the grid offers. So a fact of a
//! *chain relation* is derived again from the facts known before the step
//! that reads it, cheapest first (Dijkstra's search): from its base rules
//! (a strong link) outwards by its recursive rules (a weak and a strong
//! link more), each of which reads the relation once. The columns that
//! every recursive rule passes on unchanged (a chain's start, `A, X` of
//! `chain(A, X, B, Y)`) stay those of the fact sought, so the search
//! covers only the chains from its start. A derivation costs the changing
//! facts it reads besides the chain's own ([`steps`]: one step on, a
//! strong link or a weak link and the strong link after it); the chains
//! it passes through need not have been derived by the engine at all, as
//! they follow from facts that were. A search is bounded
//! ([`SearchBounds`]): past its bounds it gives up, and the caller keeps
//! the first derivation.

use super::db::Values;
use super::eval::{BoundNow, Evaluator, FactRef, Match};
use crate::lang::program::{Arg, Expr, Literal, Program, RelId, Rule, Value};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The derivations along a chain, from its last fact back to its first:
/// each fact, the id of its rule and the match, each reading the next.
pub type ChainPath = Vec<(FactRef, usize, Match)>;

/// How far one search may go before it gives up: the facts of the chain
/// relation it may meet, and the matches of rule bodies it may list, in
/// all (each kept in memory at most once per fact met).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchBounds {
    /// Facts met: a chain relation has at most a few hundred facts from
    /// one start on 9x9.
    pub facts: usize,
    /// Matches listed, over every step of the search.
    pub matches: usize,
}

impl SearchBounds {
    /// The bounds every inspection uses.
    pub const DEFAULT: SearchBounds = SearchBounds {
        facts: 4096,
        matches: 65_536,
    };
}

impl Default for SearchBounds {
    fn default() -> SearchBounds {
        SearchBounds::DEFAULT
    }
}

/// How a chain relation is derived.
#[derive(Debug)]
struct Chain {
    /// The rules with the relation as head that do not read it.
    base: Vec<usize>,
    /// The rules that read it once: the rule, the place of that atom in
    /// its body, and the body without it.
    steps: Vec<(usize, usize, Vec<Literal>)>,
    /// The columns every step passes on unchanged.
    fixed: Vec<usize>,
}

/// The program's chain relations: recursive relations each of whose
/// rules reads the relation at most once, some of them with another
/// changing fact besides (a rule that only restates a fact, such as a
/// link read backwards, makes no chain).
#[derive(Debug)]
pub struct Chains {
    by_rel: FxHashMap<RelId, Chain>,
    bounds: SearchBounds,
}

impl Chains {
    /// Finds the chain relations of `program`, searched within the
    /// default bounds.
    pub fn new(program: &Program) -> Chains {
        Chains::with_bounds(program, SearchBounds::DEFAULT)
    }

    /// Finds the chain relations of `program`, searched within `bounds`.
    pub fn with_bounds(program: &Program, bounds: SearchBounds) -> Chains {
        let mut by_rel = FxHashMap::default();
        let mut heads: Vec<RelId> = program.rules.iter().map(|r| r.head_rel).collect();
        heads.sort_unstable();
        heads.dedup();
        for rel in heads {
            if let Some(chain) = chain_of(program, rel) {
                by_rel.insert(rel, chain);
            }
        }
        Chains { by_rel, bounds }
    }

    /// Whether `rel` is a chain relation.
    pub fn is_chain(&self, rel: RelId) -> bool {
        self.by_rel.contains_key(&rel)
    }

    /// The cheapest derivation of `target`, a fact of a chain relation,
    /// from the facts `ev` sees, that costs fewer [`steps`] than `below`:
    /// the derivations along the way (each fact, its rule and the match),
    /// the target's first, each reading the one after it. `None` when the
    /// search finds none within its bounds. The bound `below` (what the
    /// derivation in hand costs) keeps the search to the chains shorter
    /// than it, which are few.
    pub fn shortest(
        &self,
        ev: &Evaluator,
        program: &Program,
        target: &FactRef,
        below: usize,
    ) -> Option<ChainPath> {
        let (rel, want) = target;
        let chain = self.by_rel.get(rel)?;
        let mut search = Search {
            below,
            bounds: self.bounds,
            ..Search::default()
        };
        for &id in &chain.base {
            let rule = &program.rules[id];
            let Some(start) = fixed_bindings(rule, &chain.fixed, want) else {
                continue;
            };
            for m in search.matches(ev, &rule.body, start)? {
                let cost = steps(&m, *rel, program);
                search.offer(rule, m, cost, None)?;
            }
        }
        while let Some(Reverse((spent, id))) = search.queue.pop() {
            if search.settled[id] || spent > search.cost[id] {
                continue;
            }
            search.settled[id] = true;
            if search.facts[id] == *want {
                return Some(search.path(id, *rel));
            }
            let values = search.facts[id].clone();
            for (rule_id, at, rest) in &chain.steps {
                let rule = &program.rules[*rule_id];
                let Some(Literal::Atom(atom)) = rule.body.get(*at) else {
                    continue;
                };
                let Some(start) = atom_bindings(rule, &atom.args, &values) else {
                    continue;
                };
                for mut m in search.matches(ev, rest, start)? {
                    let cost = spent + steps(&m, *rel, program);
                    m.used.insert(0, (*rel, values.clone()));
                    search.offer(rule, m, cost, Some(id))?;
                }
            }
        }
        None
    }
}

/// The chain relation `rel` is, if it is one.
fn chain_of(program: &Program, rel: RelId) -> Option<Chain> {
    // How often a body reads the relation (a count over it: too often).
    let reads = |lits: &[Literal]| -> usize {
        lits.iter()
            .map(|l| match l {
                Literal::Atom(a) if a.rel == rel => 1,
                Literal::Count(agg) if reads_rel(&agg.body, rel) => 2,
                _ => 0,
            })
            .sum()
    };
    let (mut base, mut steps) = (Vec::new(), Vec::new());
    let mut fixed: Option<Vec<usize>> = None;
    for rule in program.rules.iter().filter(|r| r.head_rel == rel) {
        match reads(&rule.body) {
            0 => base.push(rule.id),
            1 => {
                let at = rule
                    .body
                    .iter()
                    .position(|l| matches!(l, Literal::Atom(a) if a.rel == rel))?;
                let Literal::Atom(atom) = &rule.body[at] else {
                    return None;
                };
                let passed: Vec<usize> = (0..atom.args.len())
                    .filter(|&i| match (&atom.args[i], rule.head.get(i)) {
                        (Arg::Var(x), Some(Expr::Var(y))) => x == y,
                        _ => false,
                    })
                    .collect();
                fixed = Some(match fixed {
                    None => passed,
                    Some(f) => f.into_iter().filter(|i| passed.contains(i)).collect(),
                });
                let mut rest = rule.body.clone();
                rest.remove(at);
                steps.push((rule.id, at, rest));
            }
            _ => return None,
        }
    }
    let extends = steps.iter().any(|(_, _, rest)| {
        rest.iter()
            .any(|l| matches!(l, Literal::Atom(a) if program.relations[a.rel].dynamic))
    });
    (extends && !base.is_empty()).then(|| Chain {
        base,
        steps,
        fixed: fixed.unwrap_or_default(),
    })
}

/// Whether a body reads `rel` in a positive atom.
fn reads_rel(lits: &[Literal], rel: RelId) -> bool {
    lits.iter().any(|l| match l {
        Literal::Atom(a) => a.rel == rel,
        Literal::Count(agg) => reads_rel(&agg.body, rel),
        _ => false,
    })
}

/// What a derivation of a fact of the chain relation `rel` costs: the
/// changing facts it reads besides the chain's own, each one step on (a
/// strong link, or a weak link and the strong link after it; geometry is
/// free). The fewest steps are the fewest links.
pub fn steps(m: &Match, rel: RelId, program: &Program) -> usize {
    (m.used.iter().chain(m.counted.iter().flatten()))
        .filter(|(r, _)| *r != rel && program.relations.get(*r).is_none_or(|x| x.dynamic))
        .count()
}

/// A rule's variables bound by the target's values in the fixed columns
/// (`None` when a constant there differs).
fn fixed_bindings(rule: &Rule, fixed: &[usize], want: &[Value]) -> Option<Vec<Option<Value>>> {
    let mut start = vec![None; rule.var_names.len()];
    for &i in fixed {
        match rule.head.get(i) {
            Some(Expr::Var(x)) => start[*x] = Some(*want.get(i)?),
            Some(Expr::Const(c)) if Some(c) != want.get(i) => return None,
            _ => {}
        }
    }
    Some(start)
}

/// A rule's variables bound by unifying an atom of its body with a fact
/// (`None` when they do not unify).
fn atom_bindings(rule: &Rule, args: &[Arg], values: &[Value]) -> Option<Vec<Option<Value>>> {
    let mut start: Vec<Option<Value>> = vec![None; rule.var_names.len()];
    let mut bound = BoundNow::new();
    (args.iter().zip(values))
        .all(|(arg, &v)| Evaluator::unify(arg, v, &mut start, &mut bound))
        .then_some(start)
}

/// The state of one search.
#[derive(Default)]
struct Search {
    /// Only derivations cheaper than this are kept.
    below: usize,
    /// How far it may go, and how many matches it has listed.
    bounds: SearchBounds,
    matches_listed: usize,
    /// The facts met (their values: all are of the chain relation),
    /// numbered.
    facts: Vec<Values>,
    index: FxHashMap<Values, usize>,
    /// The least cost known of each, its derivation, and the fact it
    /// extends.
    cost: Vec<usize>,
    best: Vec<Option<(usize, Match, Option<usize>)>>,
    settled: Vec<bool>,
    queue: BinaryHeap<Reverse<(usize, usize)>>,
}

impl Search {
    /// The matches of `body` from `start`, within what is left of the
    /// bound on matches (`None`: it is spent, and the search gives up).
    fn matches(
        &mut self,
        ev: &Evaluator,
        body: &[Literal],
        start: Vec<Option<Value>>,
    ) -> Option<Vec<Match>> {
        let left = self.bounds.matches.checked_sub(self.matches_listed)?;
        let found = ev.matches(body, start, left);
        self.matches_listed += found.len();
        (found.len() < left).then_some(found)
    }

    /// A derivation `m` of `rule`'s head at `cost`, extending the fact
    /// `from` (none for a base rule); `None` when a new fact would pass
    /// the bound on facts, and the search gives up.
    fn offer(&mut self, rule: &Rule, m: Match, cost: usize, from: Option<usize>) -> Option<()> {
        if cost >= self.below {
            return Some(());
        }
        let head: Option<Values> = (rule.head.iter())
            .map(|e| Evaluator::eval(e, &m.values))
            .collect();
        let Some(head) = head else {
            return Some(());
        };
        let id = match self.index.get(&head) {
            Some(&id) => id,
            None if self.facts.len() >= self.bounds.facts => return None,
            None => {
                let id = self.facts.len();
                self.index.insert(head.clone(), id);
                self.facts.push(head);
                self.cost.push(usize::MAX);
                self.best.push(None);
                self.settled.push(false);
                id
            }
        };
        if cost < self.cost[id] {
            self.cost[id] = cost;
            self.best[id] = Some((rule.id, m, from));
            self.queue.push(Reverse((cost, id)));
        }
        Some(())
    }

    /// The derivations from the settled fact `id` back to a base rule's.
    fn path(&mut self, mut id: usize, rel: RelId) -> ChainPath {
        let mut out = Vec::new();
        while let Some((rule, m, from)) = self.best[id].take() {
            out.push(((rel, self.facts[id].clone()), rule, m));
            match from {
                Some(f) => id = f,
                None => break,
            }
        }
        out
    }
}
