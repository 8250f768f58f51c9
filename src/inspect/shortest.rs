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
//! covers only the chains from its start. A step costs what the caller
//! says the facts it reads are worth (one step on, for a strong link or a
//! weak link and the strong link after it); the chains it passes through
//! need not have been derived by the engine at all, as they follow from
//! facts that were.

use super::eval::{Evaluator, FactRef, Match};
use crate::lang::program::{Arg, Expr, Literal, Program, RelId, Rule, Value};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The derivations along a chain, from its last fact back to its first:
/// each fact, the id of its rule and the match, each reading the next.
pub type ChainPath = Vec<(FactRef, usize, Match)>;

/// How many facts one search may meet before it gives up (the caller then
/// keeps the first derivation): a chain relation has at most a few
/// hundred facts from one start on 9x9.
const FACTS_MET: usize = 4096;

/// How many derivations one step of the search may list.
const STEP_MATCHES: usize = 4096;

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
#[derive(Debug, Default)]
pub struct Chains {
    by_rel: FxHashMap<RelId, Chain>,
}

impl Chains {
    /// Finds the chain relations of `program`.
    pub fn new(program: &Program) -> Chains {
        let mut by_rel = FxHashMap::default();
        let mut heads: Vec<RelId> = program.rules.iter().map(|r| r.head_rel).collect();
        heads.sort_unstable();
        heads.dedup();
        for rel in heads {
            if let Some(chain) = chain_of(program, rel) {
                by_rel.insert(rel, chain);
            }
        }
        Chains { by_rel }
    }

    /// Whether `rel` is a chain relation.
    pub fn is_chain(&self, rel: RelId) -> bool {
        self.by_rel.contains_key(&rel)
    }

    /// The cheapest derivation of `target`, a fact of a chain relation,
    /// from the facts `ev` sees, that costs less than `below`, each fact
    /// a derivation reads (but the chain relation's own) costing `cost`:
    /// the derivations along the way (each fact, its rule and the match),
    /// the target's first, each reading the one after it. `None` when the
    /// search finds none within its bounds. The bound (what the
    /// derivation in hand costs) keeps the search to the chains shorter
    /// than it, which are few.
    pub fn shortest(
        &self,
        ev: &Evaluator,
        program: &Program,
        target: &FactRef,
        below: usize,
        cost: &mut dyn FnMut(&FactRef) -> usize,
    ) -> Option<ChainPath> {
        let (rel, want) = target;
        let chain = self.by_rel.get(rel)?;
        let mut search = Search {
            below,
            ..Search::default()
        };
        for &id in &chain.base {
            let rule = &program.rules[id];
            let Some(start) = fixed_bindings(rule, &chain.fixed, want) else {
                continue;
            };
            for m in ev.matches(&rule.body, start, STEP_MATCHES) {
                let local = reading_cost(&m, *rel, cost);
                search.offer(rule, m, local, None);
            }
        }
        while let Some(Reverse((spent, id))) = search.queue.pop() {
            if search.settled[id] || spent > search.cost[id] {
                continue;
            }
            search.settled[id] = true;
            if search.facts[id].1 == *want {
                return Some(search.path(id, *rel));
            }
            if search.facts.len() > FACTS_MET {
                return None;
            }
            let values = search.facts[id].1.clone();
            for (rule_id, at, rest) in &chain.steps {
                let rule = &program.rules[*rule_id];
                let Some(Literal::Atom(atom)) = rule.body.get(*at) else {
                    continue;
                };
                let Some(start) = atom_bindings(rule, &atom.args, &values) else {
                    continue;
                };
                for mut m in ev.matches(rest, start, STEP_MATCHES) {
                    let local = reading_cost(&m, *rel, cost);
                    m.used.insert(0, (*rel, values.clone()));
                    search.offer(rule, m, spent + local, Some(id));
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

/// What the facts a derivation read cost, but those of the chain itself.
pub fn reading_cost(m: &Match, rel: RelId, cost: &mut dyn FnMut(&FactRef) -> usize) -> usize {
    (m.used.iter().chain(m.counted.iter().flatten()))
        .filter(|f| f.0 != rel)
        .map(cost)
        .sum()
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
    for (arg, &v) in args.iter().zip(values) {
        match arg {
            Arg::Var(x) => match start[*x] {
                Some(b) if b != v => return None,
                _ => start[*x] = Some(v),
            },
            Arg::Const(c) if *c != v => return None,
            Arg::Const(_) | Arg::Wild => {}
            Arg::Cmp(..) => return None,
        }
    }
    Some(start)
}

/// The state of one search.
#[derive(Default)]
struct Search {
    /// Only derivations cheaper than this are kept.
    below: usize,
    /// The facts met, numbered.
    facts: Vec<FactRef>,
    index: FxHashMap<Vec<Value>, usize>,
    /// The least cost known of each, its derivation, and the fact it
    /// extends.
    cost: Vec<usize>,
    best: Vec<Option<(usize, Match, Option<usize>)>>,
    settled: Vec<bool>,
    queue: BinaryHeap<Reverse<(usize, usize)>>,
}

impl Search {
    /// A derivation `m` of `rule`'s head at `cost`, extending the fact
    /// `from` (none for a base rule).
    fn offer(&mut self, rule: &Rule, m: Match, cost: usize, from: Option<usize>) {
        if cost >= self.below {
            return;
        }
        let head: Option<Vec<Value>> = (rule.head.iter())
            .map(|e| {
                let mut vars = Vec::new();
                e.vars(&mut vars);
                if vars
                    .iter()
                    .any(|&x| m.values.get(x).copied().flatten().is_none())
                {
                    return None;
                }
                e.eval(&|x| m.values[x].unwrap_or_default())
            })
            .collect();
        let Some(head) = head else { return };
        let id = match self.index.get(&head) {
            Some(&id) => id,
            None => {
                let id = self.facts.len();
                self.index.insert(head.clone(), id);
                self.facts.push((rule.head_rel, head));
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
    }

    /// The derivations from the settled fact `id` back to a base rule's.
    fn path(&mut self, mut id: usize, rel: RelId) -> ChainPath {
        let mut out = Vec::new();
        while let Some((rule, m, from)) = self.best[id].take() {
            out.push(((rel, self.facts[id].1.clone()), rule, m));
            match from {
                Some(f) => id = f,
                None => break,
            }
        }
        out
    }
}
