//! One puzzle's solving state, and each branch the search forks from it
//! ([`Solve`]): starting it (statics ready, givens loaded), running the
//! fixpoint to a [`Status`], placing a [`Guess`], forking, and reading the
//! result (grid, candidates, contradictions, facts with their origin).
//! Apart from the engine's compilation because it is per puzzle and per
//! branch, where the [`Engine`] is per rule set.

use super::Engine;
use super::clues::ClueTuples;
use super::statics::PuzzleInput;
use super::statics::Statics;
use super::store::{self, FactOrigin, Store};
use super::tuple::{Tuple, flat, slot};
use crate::grid::{Geometry, Puzzle};
use crate::lang::program::{Builtin, RelId, Value, cell_coords, cell_value};
use std::sync::Arc;
use std::time::Instant;

impl Engine {
    /// Starts solving a puzzle: static relations ready, givens loaded, no
    /// round run yet.
    pub fn start(&self, g: Geometry, cells: &[u8]) -> Solve<'_> {
        self.start_with_regions(g, None, cells)
    }

    /// Starts solving a puzzle whose boxes are a jigsaw's regions (or the
    /// regular boxes when `regions` is `None`).
    pub fn start_with_regions(
        &self,
        g: Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
    ) -> Solve<'_> {
        self.start_until(g, regions, cells, None)
    }

    /// Starts solving a puzzle, computing the static relations it needs
    /// (the first puzzle of a grid size computes the shared ones) until
    /// `deadline`: if it passes first, the solve's first run ends at once
    /// with [`Status::Timeout`].
    pub fn start_until(
        &self,
        g: Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
        deadline: Option<Instant>,
    ) -> Solve<'_> {
        self.start_with(g, regions, cells, &ClueTuples::default(), deadline)
    }

    /// Starts solving a read puzzle: its givens, its jigsaw regions and
    /// its clue facts (those the rules take: a caller that reports errors
    /// checks them first with [`Engine::clue_tuples`]), until `deadline`.
    pub fn start_puzzle(&self, puzzle: &Puzzle, deadline: Option<Instant>) -> Solve<'_> {
        let clues = self.clue_tuples(puzzle).unwrap_or_default();
        let regions = puzzle.regions.as_deref();
        self.start_with(puzzle.geometry, regions, &puzzle.cells, &clues, deadline)
    }

    fn start_with(
        &self,
        g: Geometry,
        regions: Option<&[u8]>,
        cells: &[u8],
        clues: &ClueTuples,
        deadline: Option<Instant>,
    ) -> Solve<'_> {
        let input = PuzzleInput {
            regions,
            cells,
            clues,
        };
        let geo = self.geometry_statics(&g, regions, deadline);
        let mut st = (*geo).clone();
        if !st.timed_out {
            let given = self.program.builtin(Builtin::Given);
            st.rels[given] = Some(Arc::new(self.base_facts(given, &g, input).into()));
            for (id, rel) in self.program.relations.iter().enumerate() {
                if rel.input.is_some() && !self.stages.iter().any(|s| s.members.contains(&id)) {
                    st.rels[id] = Some(Arc::new(clues.of(id).into()));
                }
            }
            self.run_stages(&mut st, &g, input, true, deadline);
        }
        if !st.timed_out {
            self.init_counters(&mut st);
        }
        let store = Store::new(&self.dynamic, &st, &|_| Vec::new());
        Solve {
            engine: self,
            geometry: g,
            statics: Arc::new(st),
            store,
            branch: Vec::new(),
        }
    }
}

/// How a run of the rules ended for one puzzle (or one branch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every cell holds exactly one digit and nothing more follows.
    Solved,
    /// The rules can derive nothing more and some cells are open.
    Stalled,
    /// A `contradiction` fact was derived.
    Contradiction,
    /// The rules placed two digits in one cell without deriving a contradiction.
    Conflict,
    /// Too many facts were derived (a runaway rule set): the relation
    /// that grew most, as reports name it (``relation `m` ``).
    FactLimit(String),
    /// The deadline passed before the fixpoint.
    Timeout,
}

/// A guess the branching layer made: cell index, digit, the candidates it
/// was chosen from, and what became of those tried before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// Cell index (row-major).
    pub cell: usize,
    /// The digit placed.
    pub digit: u8,
    /// The candidates the cell had, in the order they are tried.
    pub options: Vec<u8>,
    /// For each option tried before `digit` (the options before it), the
    /// branches the search opened under it, every one of which ended in a
    /// contradiction (or the search would not have moved on).
    pub refuted: Vec<u64>,
}

impl Guess {
    /// The options tried before `digit` and refuted (see [`Guess::refuted`]).
    pub fn tried(&self) -> &[u8] {
        self.options
            .get(..self.refuted.len())
            .unwrap_or(&self.options)
    }

    /// The options after `digit`, never tried: the search found what it
    /// was asked for under `digit` first.
    pub fn untried(&self) -> &[u8] {
        self.options.get(self.refuted.len() + 1..).unwrap_or(&[])
    }
}

/// The solving state of one puzzle (or one branch of it).
pub struct Solve<'e> {
    engine: &'e Engine,
    geometry: Geometry,
    statics: Arc<Statics>,
    store: Store,
    /// The guesses on the path to this branch.
    pub branch: Vec<Guess>,
}

impl Solve<'_> {
    /// The grid's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Runs the fixpoint until it is reached or a contradiction appears.
    pub fn run(&mut self) -> Status {
        self.run_until(None)
    }

    /// Runs the fixpoint until it is reached, a contradiction appears, the
    /// fact limit is hit or `deadline` passes.
    pub fn run_until(&mut self, deadline: Option<Instant>) -> Status {
        let e = self.engine;
        if let Some(grew) = &self.statics.overflow {
            return Status::FactLimit(grew.clone());
        }
        if self.statics.timed_out {
            return Status::Timeout;
        }
        let cells = self.geometry.n * self.geometry.n;
        let limits = store::RunLimits {
            facts: e.fact_limit,
            deadline,
        };
        match self.store.run(
            &e.dynamic,
            &self.statics,
            Some(e.contradiction),
            limits,
            Some((e.placed, cells)),
            e.profile.as_ref(),
        ) {
            store::RunEnd::Contradiction => Status::Contradiction,
            store::RunEnd::FactLimit => {
                Status::FactLimit(e.describe(self.store.largest_relation(&e.dynamic)))
            }
            store::RunEnd::Timeout => Status::Timeout,
            store::RunEnd::Fixpoint => {
                let placed = self.placed_facts();
                let cells = self.geometry.n * self.geometry.n;
                let mut count = vec![0u8; cells];
                for (c, _) in &placed {
                    count[*c] += 1;
                }
                if count.iter().any(|&k| k > 1) {
                    Status::Conflict
                } else if count.iter().all(|&k| k == 1) {
                    Status::Solved
                } else {
                    Status::Stalled
                }
            }
        }
    }

    /// A dump of the fixpoint's plan with the size of every variable, for
    /// looking into performance.
    pub fn debug_dump(&self) -> String {
        let sizes = self.store.sizes();
        let mut out = String::new();
        for (i, name) in self.engine.dynamic.vars.iter().enumerate() {
            out.push_str(&format!("var {i:3} {name:<24} {}\n", sizes[i]));
        }
        for op in &self.engine.dynamic.ops {
            out.push_str(&format!("{op:?}\n"));
        }
        out
    }

    /// A copy that continues independently (call at a fixpoint).
    pub fn fork(&mut self) -> Self {
        Solve {
            engine: self.engine,
            geometry: self.geometry,
            statics: self.statics.clone(),
            store: self.store.fork(&self.engine.dynamic),
            branch: self.branch.clone(),
        }
    }

    /// Prepares this state to be forked many times over: its facts so far
    /// become shared, so each fork copies none of them.
    pub fn freeze(&mut self) {
        self.store.freeze();
    }

    /// Starts from a pencil-mark state: places `entered` and eliminates
    /// `removed` (`(cell index, digit)` pairs), each fact's origin being
    /// the input.
    pub fn enter_marks(&mut self, entered: &[(usize, u8)], removed: &[(usize, u8)]) {
        self.insert_pairs(entered, removed, FactOrigin::input(self.store.step));
    }

    /// Places a digit as a guess.
    pub fn guess(&mut self, guess: Guess) {
        let t = self.pair_tuple(guess.cell, guess.digit);
        let origin = FactOrigin::unruled(self.store.step);
        self.store.insert(self.engine.placed, &[t], origin);
        self.store.reset_tiers();
        self.branch.push(guess);
    }

    /// Lets this solve switch on no tier above `tier` (forcing's forks run
    /// only so many techniques).
    pub fn cap_tiers(&mut self, tier: u32) {
        self.store.tier_cap = tier;
    }

    /// Places a digit as a hypothesis in a fork that forcing examines and
    /// then drops (no guess of the search: [`Solve::branch`] stays).
    pub fn suppose(&mut self, cell: usize, digit: u8) {
        let t = self.pair_tuple(cell, digit);
        let origin = FactOrigin::unruled(self.store.step);
        self.store.insert(self.engine.placed, &[t], origin);
        self.store.reset_tiers();
    }

    /// Adds what forcing derived (`(cell, digit)` pairs), each fact's
    /// origin being forcing at the current step.
    pub fn force(&mut self, placed: &[(usize, u8)], eliminated: &[(usize, u8)]) {
        self.insert_pairs(placed, eliminated, FactOrigin::forced(self.store.step));
        self.store.reset_tiers();
    }

    /// Adds `placed` and `eliminated` facts (`(cell, digit)` pairs) with
    /// `origin`.
    fn insert_pairs(
        &mut self,
        placed: &[(usize, u8)],
        eliminated: &[(usize, u8)],
        origin: FactOrigin,
    ) {
        let tuples = |pairs: &[(usize, u8)]| -> Vec<Tuple> {
            pairs.iter().map(|&(c, d)| self.pair_tuple(c, d)).collect()
        };
        let (placed_tuples, eliminated_tuples) = (tuples(placed), tuples(eliminated));
        self.store
            .insert(self.engine.placed, &placed_tuples, origin);
        self.store
            .insert(self.engine.eliminated, &eliminated_tuples, origin);
    }

    /// Every unit of the rule set (rows, columns, boxes or a jigsaw's
    /// regions, and any unit its rules add, such as a variant's diagonals)
    /// by name, with its cells in increasing order; units in the order
    /// their names were first seen.
    pub fn units(&self) -> Vec<(String, Vec<usize>)> {
        let in_unit = self.engine.program.builtin(Builtin::InUnit);
        let mut cells: std::collections::BTreeMap<Value, Vec<usize>> = Default::default();
        for (t, _) in self.relation_facts(in_unit) {
            if let Some(c) = self.cell_index(slot(&t, 0)) {
                cells.entry(slot(&t, 1)).or_default().push(c);
            }
        }
        let symbols = &self.engine.program.symbols;
        (cells.into_iter())
            .map(|(unit, mut cells)| {
                cells.sort_unstable();
                (symbols.name(unit).to_string(), cells)
            })
            .collect()
    }

    /// The tuple of a `placed` or `eliminated` fact.
    fn pair_tuple(&self, cell: usize, digit: u8) -> Tuple {
        let n = self.geometry.n;
        flat(&[cell_value(cell / n, cell % n), digit as Value])
    }

    fn cell_index(&self, v: Value) -> Option<usize> {
        let (r, c) = cell_coords(v);
        let n = self.geometry.n;
        (v >= 0 && r < n && c < n).then_some(r * n + c)
    }

    fn digit_ok(&self, d: Value) -> Option<u8> {
        (1..=self.geometry.n as Value)
            .contains(&d)
            .then_some(d as u8)
    }

    /// `(cell index, digit)` of every placed fact, in no particular order.
    pub fn placed_facts(&self) -> Vec<(usize, u8)> {
        let mut out = Vec::with_capacity(self.geometry.n * self.geometry.n);
        self.store.for_each_tuple(self.engine.placed, |t| {
            if let (Some(c), Some(d)) = (self.cell_index(slot(t, 0)), self.digit_ok(slot(t, 1))) {
                out.push((c, d));
            }
        });
        out
    }

    /// The grid of placed digits (0 where none).
    pub fn grid(&self) -> Vec<u8> {
        let mut g = vec![0; self.geometry.n * self.geometry.n];
        for (c, d) in self.placed_facts() {
            g[c] = d;
        }
        g
    }

    /// Candidate bitmask per cell: bit `d` set when digit `d` is not
    /// eliminated (the `candidate` view).
    pub fn candidates(&self) -> Vec<u32> {
        let n = self.geometry.n;
        let all: u32 = ((1u64 << (n + 1)) - 2) as u32;
        let mut m = vec![all; n * n];
        self.store.for_each_tuple(self.engine.eliminated, |t| {
            if let (Some(c), Some(d)) = (self.cell_index(slot(t, 0)), self.digit_ok(slot(t, 1))) {
                m[c] &= !(1 << d);
            }
        });
        m
    }

    /// The contradiction facts: reason and cell index.
    pub fn contradictions(&self) -> Vec<(String, Option<usize>)> {
        let syms = &self.engine.program.symbols;
        self.store
            .tuples(self.engine.contradiction)
            .iter()
            .map(|t| {
                (
                    syms.name(slot(t, 0)).to_string(),
                    self.cell_index(slot(t, 1)),
                )
            })
            .collect()
    }

    /// The fixpoint step reached (numbering continues across forks).
    pub fn steps(&self) -> u32 {
        self.store.step
    }

    /// New facts per program rule id, derived by this branch itself.
    pub fn firings(&self) -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = self
            .store
            .firings
            .iter()
            .map(|(&r, &k)| (r as usize, k))
            .collect();
        v.sort_unstable();
        v
    }

    /// What this branch ran since its last report: rounds, tuples
    /// inserted, and new facts per program rule id. A branch reported and
    /// then continued (after a forcing step, or as its last option's
    /// guess) reports each round and fact once.
    pub fn take_counts(&mut self) -> (u32, u64, Vec<(usize, u32)>) {
        let store = &mut self.store;
        let (rounds, derived, firings) = &mut store.reported;
        let mut new: Vec<(usize, u32)> = (store.firings.iter())
            .map(|(&r, &k)| (r as usize, k - firings.get(&r).copied().unwrap_or(0)))
            .filter(|&(_, k)| k > 0)
            .collect();
        new.sort_unstable();
        let counts = (store.rounds - *rounds, store.derived - *derived, new);
        *rounds = store.rounds;
        *derived = store.derived;
        firings.clone_from(&store.firings);
        counts
    }

    /// The rule that placed the digit now in a cell (`file:line`), or
    /// "a guess".
    pub fn placed_by(&self, cell: usize) -> Option<String> {
        let n = self.geometry.n;
        let digit = *self.grid().get(cell)?;
        let t = flat(&[cell_value(cell / n, cell % n), digit as Value]);
        let origin = self.origin(self.engine.program.builtin(Builtin::Placed), &t)?;
        Some(match self.engine.program.rules.get(origin.rule as usize) {
            Some(r) => r.name.clone(),
            None => "a guess".to_string(),
        })
    }

    /// Every fact of a program relation (flat tuples), with where it came
    /// from: `None` for static facts (geometry, givens, and what rules
    /// derive from them before the fixpoint).
    pub fn relation_facts(&self, rel: RelId) -> Vec<(Tuple, Option<FactOrigin>)> {
        if let Some(&var) = self.engine.dynamic.rel_var.get(&rel) {
            return self
                .store
                .tuples(var)
                .into_iter()
                .map(|t| (t, self.origin(rel, &t)))
                .collect();
        }
        (self.static_relation(rel).iter())
            .flat_map(|r| r.iter())
            .map(|t| (*t, None))
            .collect()
    }

    /// The facts of a static relation (flat tuples), as the statics hold
    /// them: every puzzle of a grid size shares those that do not depend on
    /// its givens, so that inspection may read each once (`Arc::ptr_eq`).
    /// `None` for a relation that changes during the solve.
    pub fn static_relation(&self, rel: RelId) -> Option<Arc<super::StaticTuples>> {
        if self.engine.dynamic.rel_var.contains_key(&rel) {
            return None;
        }
        if let Some(Some(r)) = self.statics.rels.get(rel) {
            return Some(r.clone());
        }
        // A digit-set built-in that was not kept (see `drop_unread_sets`):
        // it depends on the grid size alone.
        let clues = ClueTuples::default();
        let input = PuzzleInput {
            regions: None,
            cells: &[],
            clues: &clues,
        };
        let make = || Arc::new(self.engine.base_facts(rel, &self.geometry, input).into());
        let relation = self.engine.program.relations.get(rel);
        if !relation.is_some_and(|r| r.builtin.is_some_and(|b| b.info().indexes_only)) {
            return Some(make());
        }
        let mut sets =
            (self.engine.inspected_sets.lock()).unwrap_or_else(std::sync::PoisonError::into_inner);
        Some(
            sets.entry((rel, self.geometry.n))
                .or_insert_with(make)
                .clone(),
        )
    }

    /// Facts first derived by this branch after `step`, in step order
    /// (none when provenance is not shown).
    pub fn facts_since(&self, step: u32) -> Vec<(RelId, Tuple, FactOrigin)> {
        if !self.engine.provenance {
            return Vec::new();
        }
        self.store.facts_since(&self.engine.dynamic, step)
    }

    /// The engine this state belongs to.
    pub fn engine(&self) -> &Engine {
        self.engine
    }

    /// Where each fact of a program relation came from (when provenance is shown).
    pub fn origin(&self, rel: RelId, t: &Tuple) -> Option<FactOrigin> {
        let var = *self.engine.dynamic.rel_var.get(&rel)?;
        self.store.origin(var, t).filter(|_| self.engine.provenance)
    }
}

#[cfg(test)]
mod tests {
    use super::Guess;

    #[test]
    fn a_guess_splits_its_options_into_refuted_chosen_and_untried() {
        let guess = |digit, refuted: Vec<u64>| Guess {
            cell: 0,
            digit,
            options: vec![2, 5, 9],
            refuted,
        };
        let g = guess(5, vec![3]);
        assert_eq!((g.tried(), g.untried()), (&[2][..], &[9][..]));
        let g = guess(2, vec![]);
        assert_eq!((g.tried(), g.untried()), (&[][..], &[5, 9][..]));
        // A hand-built guess whose counts run past its options: no panic.
        let g = guess(9, vec![1, 1, 1, 1]);
        assert_eq!((g.tried(), g.untried()), (&[2, 5, 9][..], &[][..]));
    }
}
