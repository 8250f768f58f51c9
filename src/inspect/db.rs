//! Every fact of a finished solve, with provenance, for people: facts,
//! queries, explanations, ratings and exports read it. The solve is
//! borrowed, and each relation's facts are copied out when first read.

use crate::engine::tuple::{Tuple, slots};
use crate::engine::{FactOrigin, Guess, Solve, StaticTuples};
use crate::grid::Geometry;
use crate::lang::parser::is_unit_constant;
use crate::lang::program::{Builtin, MAX_COLUMNS, Program, RelId, Value, cell_value};
use crate::lang::value::Type;
use crate::lang::value::{cell_coords, cell_name};
use crate::solve::{ForcingStep, KeptFork};
use arrayvec::ArrayVec;
use rustc_hash::FxHashMap;
use std::cell::{OnceCell, RefCell};
use std::sync::Arc;

/// A fact's column values, held inline: a rating or an explanation copies
/// out thousands of facts per puzzle, and one allocation each (and its
/// free) was a tenth of the cost of rating a path.
pub type Values = ArrayVec<Value, MAX_COLUMNS>;

/// One fact: its values and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Column values.
    pub values: Values,
    /// The rule and step that first derived it; `None` for static facts.
    pub origin: Option<FactOrigin>,
}

impl Fact {
    /// The step at which it became known (0 for static facts).
    pub fn step(&self) -> u32 {
        self.origin.map_or(0, |o| o.step)
    }

    /// Whether it was placed as a guess.
    pub fn is_guess(&self) -> bool {
        self.origin.as_ref().is_some_and(FactOrigin::is_guess)
    }
}

/// The facts of one relation, indexed by their first column.
#[derive(Clone, Debug, Default)]
pub struct RelFacts {
    /// All facts, sorted by values.
    pub facts: Vec<Fact>,
    by_first: FxHashMap<Value, Vec<usize>>,
}

impl RelFacts {
    /// Builds the index over facts.
    pub fn from_facts(mut facts: Vec<Fact>) -> RelFacts {
        facts.sort_by(|a, b| a.values.cmp(&b.values));
        let mut by_first: FxHashMap<Value, Vec<usize>> = FxHashMap::default();
        for (i, f) in facts.iter().enumerate() {
            if let Some(&v) = f.values.first() {
                by_first.entry(v).or_default().push(i);
            }
        }
        RelFacts { facts, by_first }
    }

    /// Facts whose first column is `v`.
    pub fn with_first(&self, v: Value) -> impl Iterator<Item = &Fact> {
        self.by_first
            .get(&v)
            .into_iter()
            .flatten()
            .map(|&i| &self.facts[i])
    }

    /// How many facts have `v` as their first column.
    pub fn count_first(&self, v: Value) -> usize {
        self.by_first.get(&v).map_or(0, Vec::len)
    }

    /// The fact with exactly these values.
    pub fn find(&self, values: &[Value]) -> Option<&Fact> {
        self.facts
            .binary_search_by(|f| f.values.as_slice().cmp(values))
            .ok()
            .map(|i| &self.facts[i])
    }
}

/// How many static relations' facts [`shared_static_facts`] keeps per
/// thread: those of a few grid sizes (a jigsaw's region map brings its
/// own, so the bound keeps a batch of jigsaws from piling them up).
const SHARED_STATICS: usize = 64;

/// A static relation's facts as inspection reads them, with the tuples
/// they were made from (held, so that no other relation can take their
/// address) and their arity.
type SharedFacts = (Arc<StaticTuples>, usize, Arc<RelFacts>);

thread_local! {
    /// The static relations' facts this thread made (see
    /// [`shared_static_facts`]).
    static STATIC_FACTS: RefCell<Vec<SharedFacts>> = const { RefCell::new(Vec::new()) };
}

/// The facts of the static tuples `tuples`, made with `fact` unless this
/// thread made them before: every puzzle of a grid size shares its
/// geometry's relations (`peer`, `covers`, ...), and grading read each of
/// them again for every puzzle.
fn shared_static_facts(
    tuples: Arc<StaticTuples>,
    arity: usize,
    fact: impl Fn(&Tuple) -> Fact,
) -> Arc<RelFacts> {
    STATIC_FACTS.with_borrow_mut(|shared| {
        if let Some((_, _, facts)) =
            (shared.iter()).find(|(t, a, _)| Arc::ptr_eq(t, &tuples) && *a == arity)
        {
            return facts.clone();
        }
        let facts = Arc::new(RelFacts::from_facts(tuples.iter().map(fact).collect()));
        if shared.len() >= SHARED_STATICS {
            shared.clear();
        }
        shared.push((tuples, arity, facts.clone()));
        facts
    })
}

/// Every relation's facts at the end of a solve (the solution's branch),
/// plus the `candidate` view.
pub struct FactDb<'p> {
    /// The rule set.
    pub program: &'p Program,
    /// The grid.
    pub geometry: Geometry,
    /// The solve the facts come from.
    solve: &'p Solve<'p>,
    /// Facts by relation id, each made when first read (see
    /// [`FactDb::rel`]); the `candidate` view is at
    /// `program.relations.len()`.
    relations: Vec<OnceCell<Arc<RelFacts>>>,
    /// The guesses on the branch, outermost first.
    pub guesses: Vec<Guess>,
    /// The fixpoint step the solve reached: no fact arrived after it.
    pub last_step: u32,
    /// The solve's forcing steps, each with the step its facts arrived at
    /// (see [`FactDb::with_forcing`]).
    pub forcing: Vec<(u32, ForcingStep)>,
    /// Per forcing step (as `forcing`), each option's fork where its
    /// rules ended, when the solve kept them (see [`FactDb::with_forks`]).
    pub forks: Vec<Vec<KeptFork<'p>>>,
    /// In a fork's facts (see [`FactDb::fork`]): the supposition that
    /// opened it, `(cell, digit, step)`, facts up to that step being the
    /// stalled state it started from.
    pub supposition: Option<(usize, u8, u32)>,
}

/// A value of a column of type `ty` as people read it, wherever facts are
/// shown (facts, explanations, the step log): `r3c5`, a digit's symbol,
/// a unit's name, a set as `{2,7}`, a number as itself.
pub fn show_value(program: &Program, g: &Geometry, ty: Type, v: Value) -> String {
    match ty {
        Type::Cell => cell_name(v),
        Type::Digit if v >= 1 && v <= g.n as Value => g.digit_symbol(v as u8).to_string(),
        Type::Unit | Type::Symbol => program.symbols.name(v).to_string(),
        Type::Set => show_set(v),
        _ => v.to_string(),
    }
}

/// A set (a bitmask, bit `x` for member `x`) as people write it: `{2,7}`.
pub fn show_set(v: Value) -> String {
    let members: Vec<String> = (0..Value::BITS)
        .filter(|&x| v >> x & 1 == 1)
        .map(|x| x.to_string())
        .collect();
    format!("{{{}}}", members.join(","))
}

impl<'p> FactDb<'p> {
    /// Takes a snapshot of a solve's state. A relation's facts are read
    /// from the solve when first asked for ([`FactDb::rel`]): a rating or
    /// an explanation reads a few of the program's relations, and copying
    /// all of them was most of the cost of rating a path.
    pub fn new(program: &'p Program, solve: &'p Solve<'p>) -> FactDb<'p> {
        let relations = (0..=program.relations.len())
            .map(|_| OnceCell::new())
            .collect();
        let last_step = solve.steps();
        FactDb {
            program,
            geometry: solve.geometry(),
            solve,
            relations,
            guesses: solve.branch.clone(),
            last_step,
            forcing: Vec::new(),
            forks: Vec::new(),
            supposition: None,
        }
    }

    /// The facts of relation `rel` (or of the `candidate` view, at
    /// [`FactDb::candidate_rel`]).
    pub fn rel(&self, rel: RelId) -> &RelFacts {
        self.relations[rel].get_or_init(|| {
            let Some(relation) = self.program.relations.get(rel) else {
                return Arc::new(RelFacts::from_facts(self.candidate_facts(u32::MAX)));
            };
            let arity = relation.arity();
            let fact = |t: &Tuple, origin| Fact {
                values: slots(t, arity).collect(),
                origin,
            };
            match self.solve.static_relation(rel) {
                Some(tuples) => shared_static_facts(tuples, arity, |t| fact(t, None)),
                None => Arc::new(RelFacts::from_facts(
                    (self.solve.relation_facts(rel).iter())
                        .map(|(t, origin)| fact(t, *origin))
                        .collect(),
                )),
            }
        })
    }

    /// The facts of relation `rel`, or `None` for an id beyond the
    /// program's relations and the `candidate` view.
    pub fn get_rel(&self, rel: RelId) -> Option<&RelFacts> {
        (rel < self.relations.len()).then(|| self.rel(rel))
    }

    /// The relation id of the `candidate` view.
    pub fn candidate_rel(&self) -> RelId {
        self.program.relations.len()
    }

    /// The `candidate` view as it stood after `step`: cells × digits minus
    /// the eliminations known then. Its facts carry no origin.
    pub fn candidate_facts(&self, step: u32) -> Vec<Fact> {
        let g = self.geometry;
        let elim = self.rel(self.program.builtin(Builtin::Eliminated));
        let mut out = Vec::new();
        for r in 0..g.n {
            for c in 0..g.n {
                let cell = cell_value(r, c);
                for d in 1..=g.n as Value {
                    let gone = elim.find(&[cell, d]).is_some_and(|f| f.step() <= step);
                    if !gone {
                        out.push(Fact {
                            values: [cell, d].into_iter().collect(),
                            origin: None,
                        });
                    }
                }
            }
        }
        out
    }

    /// The name of a relation (or `candidate`).
    pub fn rel_name(&self, rel: RelId) -> &str {
        self.program
            .relations
            .get(rel)
            .map_or("candidate", |r| r.name.as_str())
    }

    /// Column types of a relation (or `candidate`).
    pub fn rel_types(&self, rel: RelId) -> Vec<Type> {
        match self.program.relations.get(rel) {
            Some(r) => r.columns.iter().map(|c| c.1).collect(),
            None => vec![Type::Cell, Type::Digit],
        }
    }

    /// Whether a relation's facts can change during the solve.
    pub fn is_dynamic(&self, rel: RelId) -> bool {
        self.program.relations.get(rel).is_none_or(|r| r.dynamic)
    }

    /// A value as people read it: `r3c5`, a digit's symbol, a unit's name.
    pub fn show(&self, ty: Type, v: Value) -> String {
        show_value(self.program, &self.geometry, ty, v)
    }

    /// A fact as people read it, and as a rule body or `explain` reads it
    /// back: `eliminated(r3c5, 4)`, `in_unit(r3c5, box2)`; a symbol, or a
    /// unit whose name is no unit constant (a variant's), in quotes.
    pub fn show_fact(&self, rel: RelId, values: &[Value]) -> String {
        let types = self.rel_types(rel);
        let args: Vec<String> = values
            .iter()
            .zip(&types)
            .map(|(v, t)| {
                let text = self.show(*t, *v);
                match t {
                    Type::Unit if is_unit_constant(&text) => text,
                    Type::Symbol | Type::Unit => format!("\"{text}\""),
                    _ => text,
                }
            })
            .collect();
        format!("{}({})", self.rel_name(rel), args.join(", "))
    }

    /// The same facts, knowing the search's forcing steps (an
    /// [`Outcome`](crate::solve::Outcome)'s), so that explanations can
    /// word the facts forcing derived.
    pub fn with_forcing(mut self, forcing: &[(u32, ForcingStep)]) -> Self {
        self.forcing = forcing.to_vec();
        self
    }

    /// The same facts, with the forks the solve kept for each of its
    /// forcing steps ([`Kept::forks`](crate::solve::Kept)), so that
    /// explanations can show each fork's own derivation.
    pub fn with_forks(mut self, forks: Vec<Vec<KeptFork<'p>>>) -> Self {
        self.forks = forks;
        self
    }

    /// The forcing step that brought the `placed` or `eliminated` fact
    /// `values` of relation `rel` at `step`, if known.
    pub fn forcing_at(&self, step: u32, rel: RelId, values: &[Value]) -> Option<&ForcingStep> {
        self.forcing_index_at(step, rel, values)
            .map(|i| &self.forcing[i].1)
    }

    /// The index in `forcing` of [`FactDb::forcing_at`]'s step.
    pub fn forcing_index_at(&self, step: u32, rel: RelId, values: &[Value]) -> Option<usize> {
        let placed = rel == self.program.builtin(Builtin::Placed);
        let cell = self.cell_index(*values.first()?)?;
        let digit = u8::try_from(*values.get(1)?).ok()?;
        self.forcing.iter().position(|(s, f)| {
            let list = if placed { &f.placed } else { &f.eliminated };
            *s == step && list.contains(&(cell, digit))
        })
    }

    /// The facts of one kept fork of this solve's forcing step `index`:
    /// the stalled state, the supposition and what the fork's rules
    /// derived from it, with the fork's own forcing steps (at depth 2).
    pub fn fork<'f>(&self, index: usize, fork: &'f KeptFork<'p>) -> FactDb<'f>
    where
        'p: 'f,
    {
        let mut db = FactDb::new(self.program, &fork.solve);
        // The stalled state's forcing steps, then the fork's own.
        db.forcing = self.forcing[..index].to_vec();
        db.forcing.extend(fork.forcing.iter().cloned());
        let n = self.geometry.n;
        let cell = cell_value(fork.cell / n, fork.cell % n);
        let placed = db.rel(self.program.builtin(Builtin::Placed));
        let step = placed
            .find(&[cell, Value::from(fork.digit)])
            .map_or(0, Fact::step);
        db.supposition = Some((fork.cell, fork.digit, step));
        db
    }

    /// How a fact's origin reads: `rules/singles.dl:10`, `a guess`, `static`.
    pub fn origin_name(&self, fact: &Fact) -> String {
        match fact.origin {
            None => "static".to_string(),
            Some(o) if o.is_guess() => "a guess".to_string(),
            Some(o) if o.is_input() => "the input".to_string(),
            Some(o) if o.is_forced() => "forcing".to_string(),
            Some(o) => self
                .program
                .rules
                .get(o.rule as usize)
                .map_or_else(|| "?".to_string(), |r| r.name.clone()),
        }
    }

    /// The depth of the guess a step belongs to: how many of the branch's
    /// guesses were placed at or before it.
    pub fn branch_depth(&self, step: u32) -> usize {
        self.guesses
            .iter()
            .filter(|guess| self.guess_step(guess).is_some_and(|s| s <= step))
            .count()
    }

    /// A cell value's row-major index in this grid (`None` outside it).
    pub fn cell_index(&self, cell: Value) -> Option<usize> {
        let n = self.geometry.n;
        let (r, c) = cell_coords(cell);
        (r < n && c < n).then_some(r * n + c)
    }

    /// The cells of a unit, row-major.
    pub fn unit_cells(&self, unit: Value) -> Vec<usize> {
        let in_unit = self.rel(self.program.builtin(Builtin::InUnit));
        let mut cells: Vec<usize> = in_unit
            .facts
            .iter()
            .filter(|f| f.values[1] == unit)
            .filter_map(|f| self.cell_index(f.values[0]))
            .collect();
        cells.sort_unstable();
        cells
    }

    /// Each cell's box (a jigsaw's region), row-major: where thick borders
    /// run.
    pub fn regions(&self) -> Vec<usize> {
        let g = self.geometry;
        let mut regions: Vec<usize> = (0..g.cell_count()).map(|c| g.box_of(c)).collect();
        for f in &self.rel(self.program.builtin(Builtin::Box)).facts {
            if let Some(i) = self.cell_index(f.values[0]) {
                regions[i] = f.values[1] as usize;
            }
        }
        regions
    }

    /// The units other than rows, columns and boxes (a variant's diagonals
    /// or windows, a killer's cages), as cell lists; none when together
    /// they cover every cell (disjoint groups), where shading them would
    /// shade the whole grid.
    pub fn extra_units(&self) -> Vec<Vec<usize>> {
        let kinds = self.rel(self.program.builtin(Builtin::UnitKind));
        let units: Vec<Vec<usize>> = kinds
            .facts
            .iter()
            .filter(|f| {
                !matches!(
                    self.show(Type::Symbol, f.values[1]).as_str(),
                    "row" | "col" | "box"
                )
            })
            .map(|f| self.unit_cells(f.values[0]))
            .collect();
        let mut covered = vec![false; self.geometry.cell_count()];
        for &cell in units.iter().flatten() {
            covered[cell] = true;
        }
        if covered.iter().all(|c| *c) {
            return Vec::new();
        }
        units
    }

    /// The step at which a guess of the branch was placed.
    pub fn guess_step(&self, guess: &Guess) -> Option<u32> {
        let g = self.geometry;
        let placed = self.rel(self.program.builtin(Builtin::Placed));
        let v = [
            cell_value(guess.cell / g.n, guess.cell % g.n),
            Value::from(guess.digit),
        ];
        placed.find(&v).filter(|f| f.is_guess()).map(Fact::step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tuple::flat;

    fn tuples(v: Value) -> Arc<StaticTuples> {
        Arc::new(vec![flat(&[v, 1]), flat(&[v, 2])].into())
    }

    fn fact(t: &Tuple) -> Fact {
        Fact {
            values: slots(t, 2).collect(),
            origin: None,
        }
    }

    #[test]
    fn static_facts_are_made_once_for_the_same_tuples_and_kept_within_the_bound() {
        let first = tuples(7);
        let a = shared_static_facts(first.clone(), 2, fact);
        let b = shared_static_facts(first.clone(), 2, fact);
        assert!(Arc::ptr_eq(&a, &b), "the same tuples share their facts");
        assert_eq!(a.facts.len(), 2);
        assert_eq!(a.find(&[7, 2]).map(|f| f.values.to_vec()), Some(vec![7, 2]));
        let other = shared_static_facts(tuples(7), 2, fact);
        assert!(
            !Arc::ptr_eq(&a, &other),
            "equal tuples elsewhere are others"
        );
        // A run of puzzles that each bring their own (jigsaws) never keeps
        // more than the bound.
        for v in 0..(3 * SHARED_STATICS as Value) {
            shared_static_facts(tuples(v), 2, fact);
            let kept = STATIC_FACTS.with_borrow(Vec::len);
            assert!(kept <= SHARED_STATICS, "{kept} kept");
        }
    }
}
