//! A small backtracking evaluator of rule bodies over a [`FactDb`]: it
//! answers ad-hoc queries and re-derives facts for explanations. Facts can
//! be restricted to those known before a given step.

use super::db::{Fact, FactDb, RelFacts, Values};
use crate::lang::builtin::Builtin;
use crate::lang::program::{Aggregate, Arg, Atom, Expr, Literal, MAX_COLUMNS, RelId, Value, VarId};
use crate::lang::value::{Fold, MAX_SET_MEMBER};
use rustc_hash::FxHashSet;
use std::cell::OnceCell;

/// A fact used by a match: its relation and values.
pub type FactRef = (RelId, Values);

/// The variables one atom's match bound, to unbind after it: at most one
/// per column, held inline (the search tries thousands of facts).
pub type BoundNow = arrayvec::ArrayVec<VarId, MAX_COLUMNS>;

/// One way the body holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// Variable values (`None` for variables the body never bound).
    pub values: Vec<Option<Value>>,
    /// The positive facts used, in body order of binding.
    pub used: Vec<FactRef>,
    /// For each count in the body (in order): the facts it counted.
    pub counted: Vec<Vec<FactRef>>,
}

/// Evaluates bodies over the facts known before a step.
pub struct Evaluator<'a, 'p> {
    db: &'a FactDb<'p>,
    /// Only facts with a step below this are visible (static facts always).
    before: u32,
    /// The `candidate` view before the step, made when first read: most
    /// evaluations (a rating's `when`, a firing's pattern) never read it,
    /// and making it costs a lookup per cell and digit.
    candidates: OnceCell<RelFacts>,
}

impl<'a, 'p> Evaluator<'a, 'p> {
    /// An evaluator over the facts known before step `before` (`u32::MAX`:
    /// all of them).
    pub fn new(db: &'a FactDb<'p>, before: u32) -> Evaluator<'a, 'p> {
        Evaluator {
            db,
            before,
            candidates: OnceCell::new(),
        }
    }

    fn candidates(&self) -> &RelFacts {
        self.candidates.get_or_init(|| {
            RelFacts::from_facts(self.db.candidate_facts(self.before.saturating_sub(1)))
        })
    }

    /// Whether `digit` was still a candidate of `cell` before the step.
    pub fn is_candidate(&self, cell: Value, digit: Value) -> bool {
        self.candidates().find(&[cell, digit]).is_some()
    }

    fn facts(&self, rel: RelId) -> &RelFacts {
        if rel == self.db.candidate_rel() {
            self.candidates()
        } else {
            self.db.rel(rel)
        }
    }

    fn visible(&self, f: &Fact) -> bool {
        f.origin.is_none_or(|o| o.step < self.before)
    }

    /// Up to `limit` matches of `body`, starting from `start` bindings.
    pub fn matches(&self, body: &[Literal], start: Vec<Option<Value>>, limit: usize) -> Vec<Match> {
        let mut out = Vec::new();
        let lits: Vec<&Literal> = body.iter().collect();
        let mut state = Match {
            values: start,
            used: Vec::new(),
            counted: Vec::new(),
        };
        // Which literals the search has taken: marked and unmarked in
        // place, so that no level of the search copies the body.
        let mut done = vec![false; lits.len()];
        self.search(&lits, &mut done, &mut state, &mut out, limit);
        out
    }

    /// Whether an atom's argument matches a value, binding it if free.
    pub(super) fn unify(
        arg: &Arg,
        v: Value,
        values: &mut [Option<Value>],
        bound_now: &mut BoundNow,
    ) -> bool {
        match arg {
            Arg::Wild => true,
            Arg::Const(c) => *c == v,
            // A guard's `where` column (guards are only looked up).
            Arg::Cmp(op, x) => values[*x].is_some_and(|b| op.holds(v, b)),
            Arg::Var(x) => match values[*x] {
                Some(b) => b == v,
                None => {
                    values[*x] = Some(v);
                    bound_now.push(*x);
                    true
                }
            },
        }
    }

    /// An expression's value under the bindings `values` (`None` while a
    /// variable of it is unbound, or on overflow).
    pub(super) fn eval(e: &Expr, values: &[Option<Value>]) -> Option<Value> {
        if !Self::ready(e, values) {
            return None;
        }
        e.eval(&|v| values[v].unwrap_or_default())
    }

    fn ready(e: &Expr, values: &[Option<Value>]) -> bool {
        e.all_vars(&|v| values[v].is_some())
    }

    fn atom_ready(a: &Atom, values: &[Option<Value>]) -> bool {
        a.args
            .iter()
            .all(|x| x.var().is_none_or(|v| values[v].is_some()))
    }

    /// Returns false when enough matches were found.
    fn search(
        &self,
        lits: &[&Literal],
        done: &mut [bool],
        st: &mut Match,
        out: &mut Vec<Match>,
        limit: usize,
    ) -> bool {
        if out.len() >= limit {
            return false;
        }
        if done.iter().all(|d| *d) {
            out.push(st.clone());
            return out.len() < limit;
        }
        // A count waits for the atoms unless one of them reads its value:
        // they bind and filter for a lookup each, where a count evaluates
        // a body.
        let atoms_left = lits
            .iter()
            .zip(done.iter())
            .any(|(l, d)| !*d && matches!(l, Literal::Atom(_)));
        // Filters first, as soon as they can be decided.
        for (i, lit) in lits.iter().enumerate() {
            if done[i] || (atoms_left && Self::can_wait(lit, lits, done)) {
                continue;
            }
            // The search goes on without literal `i`, which is put back
            // afterwards.
            let mut rest = |this: &Self, st: &mut Match, out: &mut Vec<Match>| {
                done[i] = true;
                let go = this.search(lits, done, st, out, limit);
                done[i] = false;
                go
            };
            match lit {
                Literal::Cmp(a, op, b, _) => {
                    match (Self::eval(a, &st.values), Self::eval(b, &st.values)) {
                        (Some(x), Some(y)) => {
                            return if op.holds(x, y) {
                                rest(self, st, out)
                            } else {
                                true
                            };
                        }
                        (None, Some(y)) | (Some(y), None)
                            if *op == crate::lang::value::CmpOp::Eq =>
                        {
                            let var = match (a, b) {
                                (Expr::Var(v), _) if st.values[*v].is_none() => Some(*v),
                                (_, Expr::Var(v)) if st.values[*v].is_none() => Some(*v),
                                _ => None,
                            };
                            if let Some(v) = var {
                                st.values[v] = Some(y);
                                let go = rest(self, st, out);
                                st.values[v] = None;
                                return go;
                            }
                        }
                        _ => {}
                    }
                }
                // A guard is checked against the same facts as a negation:
                // those known before the step that derived the head.
                Literal::Neg(a) | Literal::Guard(a) if Self::atom_ready(a, &st.values) => {
                    if self.exists(a, &st.values) {
                        return true;
                    }
                    return rest(self, st, out);
                }
                Literal::Count(agg)
                    if agg.value.is_some_and(|v| st.values[v].is_none())
                        && agg.group.iter().all(|g| st.values[*g].is_some()) =>
                {
                    let (count, set, facts) = self.count(agg, &st.values);
                    let v = agg.value.unwrap_or_default();
                    let value = match agg.fold {
                        // The least of nothing has no value: no binding.
                        Some(fold) => match self.fold(agg, fold, &st.values) {
                            Some(x) => x,
                            None => return true,
                        },
                        None if agg.elem.is_some() => set,
                        None => count as Value,
                    };
                    st.values[v] = Some(value);
                    st.counted.push(facts);
                    let go = rest(self, st, out);
                    st.counted.pop();
                    st.values[v] = None;
                    return go;
                }
                Literal::Count(agg)
                    if Self::ready(&agg.bound, &st.values)
                        && agg.group.iter().all(|g| st.values[*g].is_some()) =>
                {
                    let (count, set, facts) = self.count(agg, &st.values);
                    let bound = Self::eval(&agg.bound, &st.values).unwrap_or(Value::MAX);
                    let holds = if agg.elem.is_none() {
                        agg.op.holds(count as i64, bound as i64)
                    } else if self.grows(agg) {
                        // The engine derived a fact for each set the
                        // state's set grew through (and may have seen its
                        // facts a round late, behind a tier): any non-empty
                        // part of the set known now is one of them.
                        bound != 0 && bound & !set == 0
                    } else {
                        bound == set
                    };
                    if !holds {
                        return true;
                    }
                    st.counted.push(facts);
                    let go = rest(self, st, out);
                    st.counted.pop();
                    return go;
                }
                _ => {}
            }
        }
        // Then the positive atom with the fewest facts to try: a check of
        // bound values first, then a lookup by a bound first value, then
        // the smallest relation.
        let next = lits
            .iter()
            .enumerate()
            .filter(|(i, _)| !done[*i])
            .filter_map(|(i, l)| match l {
                Literal::Atom(a) => Some((i, a)),
                _ => None,
            })
            .min_by_key(|(_, a)| self.facts_to_try(a, &st.values));
        let Some((i, atom)) = next else {
            // Only undecidable filters are left: no match.
            return true;
        };
        let rel = self.facts(atom.rel);
        let first_bound = match atom.args.first() {
            Some(Arg::Var(v)) => st.values[*v],
            Some(Arg::Const(c)) => Some(*c),
            _ => None,
        };
        let members = self.members(atom, &st.values);
        let candidates: Box<dyn Iterator<Item = &Fact>> = match (&members, first_bound) {
            (Some(members), _) => Box::new(members.iter()),
            (None, Some(v)) => Box::new(rel.with_first(v)),
            (None, None) => Box::new(rel.facts.iter()),
        };
        for fact in candidates {
            if !self.visible(fact) {
                continue;
            }
            let mut bound_now = BoundNow::new();
            let ok = atom
                .args
                .iter()
                .zip(&fact.values)
                .all(|(arg, v)| Self::unify(arg, *v, &mut st.values, &mut bound_now));
            if ok {
                st.used.push((atom.rel, fact.values.clone()));
                done[i] = true;
                let go = self.search(lits, done, st, out, limit);
                done[i] = false;
                st.used.pop();
                if !go {
                    for v in bound_now {
                        st.values[v] = None;
                    }
                    return false;
                }
            }
            for v in bound_now {
                st.values[v] = None;
            }
        }
        true
    }

    /// How many facts an atom would try next: none to choose from when
    /// every argument is bound (a check), those with its first value
    /// when that is bound, else all.
    fn facts_to_try(&self, a: &Atom, values: &[Option<Value>]) -> usize {
        let bound = |x: &Arg| match x {
            Arg::Var(v) => values[*v],
            Arg::Const(c) => Some(*c),
            Arg::Wild | Arg::Cmp(..) => None,
        };
        if a.args
            .iter()
            .all(|x| bound(x).is_some() || matches!(x, Arg::Wild))
        {
            return 0;
        }
        if let Some(set) = self.bound_set(a, values) {
            return members_of(set).count();
        }
        let rel = self.facts(a.rel);
        match a.args.first().and_then(bound) {
            Some(v) => rel.count_first(v),
            None => rel.facts.len(),
        }
    }

    /// The set `S` of an `in_set(X, S)` atom whose set is bound: its
    /// facts come from the set itself, of any size, where the stored ones
    /// are those of `digit_set`'s sets (four members at most), which the
    /// engine computes beyond (`T = F - H`, a set aggregate).
    fn bound_set(&self, a: &Atom, values: &[Option<Value>]) -> Option<Value> {
        if a.rel != self.db.program.builtin(Builtin::InSet) {
            return None;
        }
        match a.args.get(1)? {
            Arg::Var(v) => values[*v],
            Arg::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// The facts of `in_set(X, S)` for a bound set `S` (see
    /// [`Evaluator::bound_set`]).
    fn members(&self, a: &Atom, values: &[Option<Value>]) -> Option<Vec<Fact>> {
        let set = self.bound_set(a, values)?;
        let facts = members_of(set)
            .map(|x| Fact {
                values: [x, set].into_iter().collect(),
                origin: None,
            })
            .collect();
        Some(facts)
    }

    /// Whether a literal is a count that can wait for the atoms: a
    /// threshold, or a count whose value no remaining atom reads (a later
    /// comparison or the head does).
    fn can_wait(lit: &Literal, lits: &[&Literal], done: &[bool]) -> bool {
        let Literal::Count(agg) = lit else {
            return false;
        };
        let Some(value) = agg.value else {
            return true;
        };
        !lits.iter().zip(done).any(|(l, d)| {
            !*d && matches!(l, Literal::Atom(a) if a.args.iter().any(|x| x.var() == Some(value)))
        })
    }

    fn exists(&self, a: &Atom, values: &[Option<Value>]) -> bool {
        let matches = |arg: &Arg, v: Value| match arg {
            Arg::Var(x) => values[*x] == Some(v),
            Arg::Const(c) => *c == v,
            Arg::Wild => true,
            Arg::Cmp(op, x) => values[*x].is_some_and(|b| op.holds(v, b)),
        };
        let rel = self.facts(a.rel);
        let first = match a.args.first() {
            Some(Arg::Var(x)) => values[*x],
            Some(Arg::Const(c)) => Some(*c),
            _ => None,
        };
        let members = self.members(a, values);
        // Look only at the facts with the same first value when it is known.
        let candidates: Box<dyn Iterator<Item = &Fact>> = match (&members, first) {
            (Some(members), _) => Box::new(members.iter()),
            (None, Some(v)) => Box::new(rel.with_first(v)),
            (None, None) => Box::new(rel.facts.iter()),
        };
        candidates.into_iter().any(|f| {
            self.visible(f)
                && a.args
                    .iter()
                    .zip(&f.values)
                    .all(|(arg, v)| matches(arg, *v))
        })
    }

    /// The number of distinct bindings of a count's own variables, and the
    /// facts of one derivation of each.
    /// A count's or a set's body over `values`: the number of distinct
    /// bindings of its own variables, the set of its element's values (for
    /// a set), and the facts they used.
    fn count(&self, agg: &Aggregate, values: &[Option<Value>]) -> (usize, Value, Vec<FactRef>) {
        let inner = self.matches(&agg.body, values.to_vec(), usize::MAX);
        let mut seen = FxHashSet::default();
        let mut facts = Vec::new();
        let mut set: Value = 0;
        for m in inner {
            let key: Vec<Option<Value>> = agg.local.iter().map(|&v| m.values[v]).collect();
            if let Some(x) = agg.elem.and_then(|e| m.values[e])
                && (1..=MAX_SET_MEMBER).contains(&i64::from(x))
            {
                set |= 1 << x;
            }
            if seen.insert(key) {
                facts.extend(m.used);
            }
        }
        (seen.len(), set, facts)
    }

    /// A value aggregate's value over `values` (as the engine folds it:
    /// once per distinct binding of the body's own variables), if it has
    /// one.
    fn fold(&self, agg: &Aggregate, fold: Fold, values: &[Option<Value>]) -> Option<Value> {
        let inner = self.matches(&agg.body, values.to_vec(), usize::MAX);
        let mut seen = FxHashSet::default();
        let mut acc = None;
        for m in inner {
            let key: Vec<Option<Value>> = agg.local.iter().map(|&v| m.values[v]).collect();
            if let Some(x) = agg.elem.and_then(|e| m.values[e])
                && seen.insert(key)
            {
                acc = Some(fold.step(acc, i64::from(x)));
            }
        }
        Value::try_from(acc.or(fold.empty())?).ok()
    }

    /// Whether a set reads the solving state (and so grows as it does).
    fn grows(&self, agg: &Aggregate) -> bool {
        let mut deps = Vec::new();
        crate::lang::program::body_relations(&agg.body, &mut deps);
        deps.iter()
            .any(|(r, _)| self.db.program.relations[*r].dynamic)
    }
}

/// The members of a set (a bitmask, bit `x` for member `x`).
fn members_of(set: Value) -> impl Iterator<Item = Value> {
    (1..=MAX_SET_MEMBER as Value).filter(move |&x| set >> x & 1 == 1)
}
