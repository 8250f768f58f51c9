//! Running one operator of a plan over a store: maps, joins of sorted
//! batches (cut at the fact limit), probe joins, and leapjoin extensions with
//! a static index (memoised when the plan says so), with the lookups their
//! checks make. The round loop that calls them is `store`; what the
//! operators are is `plan::ops`.

use super::computed::ComputedIndex;
use super::counts::threshold;
use super::memo;
use super::plan::{self, Check, GuardId, Lookup, Op, Out, Plan};
use super::statics::Statics;
use super::store::Store;
use super::tuple::{Frame, HALF, Half, Tuple};
use super::var::Var;
use crate::lang::program::Value;
use crate::lang::value::WhereOp;
use datafrog::{ExtendWith, Leaper, Leapers, Relation, ValueFilter};
use std::cell::Cell;

/// What checks look tuples up in during a round: the static indexes for
/// negations, and for guards the state as it stood before the round.
pub(super) struct Lookups<'a> {
    statics: &'a Statics,
    vars: &'a [Var],
    plan: &'a Plan,
    step: u32,
    /// The last `where X in S` guard looked up: the guard, its projected
    /// tuple and the members known for it. An operator asks it for every
    /// set it proposes from one tuple (`covers`), always with the same
    /// projected tuple, so one lookup serves them all.
    members: Cell<Option<(GuardId, Tuple, Value)>>,
}

impl<'a> Lookups<'a> {
    /// The lookups of round `step` of a store with `vars`.
    pub(super) fn new(
        statics: &'a Statics,
        vars: &'a [Var],
        plan: &'a Plan,
        step: u32,
    ) -> Lookups<'a> {
        Lookups {
            statics,
            vars,
            plan,
            step,
            members: Cell::new(None),
        }
    }

    /// Whether a tuple is missing from what a check looks in.
    pub(super) fn absent(&self, lookup: Lookup, t: &Tuple) -> bool {
        match lookup {
            Lookup::Static(id) => self.statics.absent(id, t),
            Lookup::State(g) => {
                let guard = &self.plan.guards[g];
                !self.vars[guard.var].known_before_in(guard.projection, t, self.step)
            }
            Lookup::StateWhere(g, WhereOp::In, set) => self.members(g, t) & set == 0,
            Lookup::StateWhere(g, op, value) => {
                let guard = &self.plan.guards[g];
                let projection = guard.projection.unwrap_or_default();
                !self.vars[guard.var].known_before_where(projection, t, self.step, op, value)
            }
        }
    }

    /// The members known for a `where X in S` guard's projected tuple.
    fn members(&self, g: GuardId, t: &Tuple) -> Value {
        if let Some((last, key, members)) = self.members.get()
            && last == g
            && key == *t
        {
            return members;
        }
        let guard = &self.plan.guards[g];
        let projection = guard.projection.unwrap_or_default();
        let members = self.vars[guard.var].members_known_before(projection, t, self.step);
        self.members.set(Some((g, *t, members)));
        members
    }
}

impl Store {
    pub(super) fn run_op(&mut self, at: usize, op: &Op, plan: &Plan, statics: &Statics) {
        match op {
            Op::Map {
                from,
                checks,
                emit,
                to,
            } => {
                let piped = self.take_pipe(*from, plan);
                let mut out = self.take_out();
                {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let recent = self.vars[*from].recent();
                    let input = piped.as_deref().unwrap_or(&recent.elements);
                    let zero: Half = [0; HALF];
                    out.extend(input.iter().filter_map(|t| {
                        let f = Frame::new(t, &zero);
                        if plan::passes(checks, &f, &absent) {
                            plan::emit(emit, &f)
                        } else {
                            None
                        }
                    }));
                }
                self.return_pipe(*from, piped);
                self.output(to, out, plan);
            }
            Op::Join {
                left,
                right,
                probe,
                checks,
                emit,
                to,
            } => {
                let out = {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let l = &self.vars[*left];
                    let r = &self.vars[*right];
                    if *probe {
                        probe_join(l, r, self.step, checks, emit, &absent)
                    } else {
                        join(l, r, checks, emit, &absent, self.op_room)
                    }
                };
                if out.len() >= self.op_room {
                    self.overflowed = true;
                }
                self.output(to, out, plan);
            }
            Op::Extend { source, to, .. } => {
                let piped = self.take_pipe(*source, plan);
                let memoised = statics.memo_scope != 0 && plan.memo.get(at) == Some(&true);
                let mut out = self.take_out();
                {
                    let lookups = Lookups::new(statics, &self.vars, plan, self.step);
                    let absent = |l: Lookup, t: &Tuple| lookups.absent(l, t);
                    let recent = self.vars[*source].recent();
                    let input = piped.as_deref().unwrap_or(&recent.elements);
                    // Always there: `op` is an `Extend`.
                    let Some(ext) = Extension::of(op, statics) else {
                        return;
                    };
                    let room = self.op_room;
                    let compute = |input: &[Tuple], out: &mut Vec<Tuple>| {
                        extend_into(input, &ext, &absent, room, out)
                    };
                    if memoised {
                        memo::extend_memoised(
                            statics.memo_scope,
                            at as u32,
                            input,
                            |t, out| compute(std::slice::from_ref(t), out),
                            |outputs| {
                                let fits = room.saturating_sub(out.len()).min(outputs.len());
                                out.extend_from_slice(&outputs[..fits]);
                            },
                        );
                    } else {
                        compute(input, &mut out);
                    }
                }
                if out.len() >= self.op_room {
                    self.overflowed = true;
                }
                self.return_pipe(*source, piped);
                self.output(to, out, plan);
            }
            Op::SeedCheck { seed, agg } => {
                let a = &plan.aggs[*agg];
                let out: Vec<Tuple> = self.vars[*seed]
                    .recent()
                    .iter()
                    .filter(|t| threshold(&a.bound, t) <= 0)
                    .copied()
                    .collect();
                let v = a.reached;
                self.output(&Out::to_var(v), out, plan);
            }
        }
    }
}

/// Semi-naive join of two variables: new with old, old with new and new
/// with new batches (see [`join_by_lookup`]).
fn join(
    left: &Var,
    right: &Var,
    checks: &[Check],
    emit: &plan::Emit,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
    room: usize,
) -> Vec<Tuple> {
    let l_recent = left.recent();
    let r_recent = right.recent();
    let mut out = Vec::new();
    let mut logic = |k: &Half, v1: &Half, v2: &Half| -> Option<Tuple> {
        let lt = (*k, *v1);
        let f = Frame::new(&lt, v2);
        if plan::passes(checks, &f, absent) {
            plan::emit(emit, &f)
        } else {
            None
        }
    };
    if !l_recent.is_empty() {
        for batch in right.stable_batches() {
            join_by_lookup(l_recent, batch, &mut logic, room, &mut out);
        }
    }
    if !r_recent.is_empty() {
        for batch in left.stable_batches() {
            join_by_lookup(batch, r_recent, &mut logic, room, &mut out);
        }
    }
    if !l_recent.is_empty() && !r_recent.is_empty() {
        join_by_lookup(l_recent, r_recent, &mut logic, room, &mut out);
    }
    out
}

/// The pairs of a join of `a` and `b` (sorted by key) into `out`,
/// stopping once `out` holds `room` tuples: each tuple of the smaller side
/// is looked up in the larger with datafrog's `ExtendWith` (a binary
/// search). `Relation::from_join` would also sort and deduplicate the
/// results, which the variable they go to does anyway, by hashing.
fn join_by_lookup(
    a: &Relation<Tuple>,
    b: &Relation<Tuple>,
    logic: &mut impl FnMut(&Half, &Half, &Half) -> Option<Tuple>,
    room: usize,
    out: &mut Vec<Tuple>,
) {
    let (small, large, swapped) = if a.len() <= b.len() {
        (a, b, false)
    } else {
        (b, a, true)
    };
    let mut index = ExtendWith::from(large, |t: &Tuple| t.0);
    let mut values: Vec<&Half> = Vec::new();
    for t in small.iter() {
        if Leaper::count(&mut index, t) == 0 {
            continue;
        }
        Leaper::propose(&mut index, t, &mut values);
        for v in values.drain(..) {
            let pair = if swapped {
                logic(&t.0, v, &t.1)
            } else {
                logic(&t.0, &t.1, v)
            };
            out.extend(pair);
        }
        if out.len() >= room {
            return;
        }
    }
}

/// A join of two variables without values beside the key (see
/// `Op::Join::probe`) in round `step`: each new left tuple is looked up
/// among the right's facts known before this round, each new right tuple
/// among the left's facts older than the last round. These are the pairs
/// the batch join sees (new with old, old with new, new with new), found
/// without sorted batches.
fn probe_join(
    left: &Var,
    right: &Var,
    step: u32,
    checks: &[Check],
    emit: &plan::Emit,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
) -> Vec<Tuple> {
    let zero: Half = [0; HALF];
    let logic = |t: &Tuple| -> Option<Tuple> {
        let f = Frame::new(t, &zero);
        if plan::passes(checks, &f, absent) {
            plan::emit(emit, &f)
        } else {
            None
        }
    };
    let new_left = left.recent().iter().filter(|t| right.known_before(t, step));
    let new_right = right
        .recent()
        .iter()
        .filter(|t| left.known_before(t, step.saturating_sub(1)));
    new_left.chain(new_right).filter_map(logic).collect()
}

/// What one `Extend` operator does: propose values from a static index by
/// a key over the input, keep those passing the checks, lay them out.
#[derive(Clone, Copy)]
pub(super) struct Extension<'a> {
    pub(super) index: IndexSource<'a>,
    pub(super) key: &'a [plan::CExpr],
    pub(super) checks: &'a [Check],
    /// How many of `checks` (the first) read only the input tuple.
    pub(super) early: usize,
    pub(super) emit: &'a plan::Emit,
}

/// Where an extension's values come from: a stored index, or one that
/// lookups compute.
#[derive(Clone, Copy)]
pub(super) enum IndexSource<'a> {
    Stored(&'a Relation<Tuple>),
    Computed(&'a ComputedIndex),
}

impl<'a> Extension<'a> {
    /// The extension an `Extend` operator makes (`None` for another
    /// operator), over the static indexes of `statics`.
    pub(super) fn of(op: &'a Op, statics: &'a Statics) -> Option<Extension<'a>> {
        match op {
            Op::Extend {
                index,
                key,
                checks,
                early,
                emit,
                ..
            } => Some(Extension {
                index: match statics.computed.get(index) {
                    Some(c) => IndexSource::Computed(c),
                    None => IndexSource::Stored(statics.index_tuples(*index)),
                },
                key,
                checks,
                early: *early,
                emit,
            }),
            _ => None,
        }
    }
}

/// Leapjoin of new tuples with a static index: datafrog's `ExtendWith`
/// proposes the index's values for each tuple's key and a `ValueFilter`
/// applies the rule's conditions. This is datafrog's leapjoin loop, except
/// that results are appended unsorted: count bodies never need sorting, and
/// other outputs are sorted once, unstably, by [`Store::output`]. It stops
/// once `out` holds `room` tuples.
pub(super) fn extend_into(
    source: &[Tuple],
    ext: &Extension,
    absent: &dyn Fn(Lookup, &Tuple) -> bool,
    room: usize,
    out: &mut Vec<Tuple>,
) {
    let Extension {
        index,
        key,
        checks,
        early,
        emit,
    } = *ext;
    let zero: Half = [0; HALF];
    let (early, checks) = checks.split_at(early);
    let key_of = |t: &Tuple| -> Half {
        let f = Frame::new(t, &zero);
        let mut k = [0; HALF];
        for (i, e) in key.iter().enumerate().take(HALF) {
            k[i] = match e {
                plan::CExpr::Var(s) => f.get(*s as usize),
                e => e.eval_in(&f).unwrap_or(Value::MIN),
            };
        }
        k
    };
    let filter = |t: &Tuple, v: &Half| {
        let f = Frame::new(t, v);
        plan::passes(checks, &f, absent)
    };
    let index = match index {
        IndexSource::Stored(index) => index,
        IndexSource::Computed(c) => {
            let mut values = Vec::new();
            for t in source.iter() {
                if !early.is_empty() && !plan::passes(early, &Frame::new(t, &zero), absent) {
                    continue;
                }
                c.values_into(&key_of(t), &mut values);
                for v in &values {
                    if !filter(t, v) {
                        continue;
                    }
                    if let Some(o) = plan::emit(emit, &Frame::new(t, v)) {
                        out.push(o);
                    }
                }
                if out.len() >= room {
                    return;
                }
            }
            return;
        }
    };
    let mut leapers = (ExtendWith::from(index, key_of), ValueFilter::from(filter));
    let mut values: Vec<&Half> = Vec::new();
    for t in source.iter() {
        if !early.is_empty() && !plan::passes(early, &Frame::new(t, &zero), absent) {
            continue;
        }
        let mut min = (usize::MAX, usize::MAX);
        leapers.for_each_count(t, |i, count| {
            if count < min.1 {
                min = (i, count);
            }
        });
        if min.1 == 0 || min.0 == usize::MAX {
            continue;
        }
        leapers.propose(t, min.0, &mut values);
        leapers.intersect(t, min.0, &mut values);
        for v in values.drain(..) {
            let f = Frame::new(t, v);
            if let Some(o) = plan::emit(emit, &f) {
                out.push(o);
            }
        }
        if out.len() >= room {
            // The caller sees the operator was cut: a fact limit.
            return;
        }
    }
}
