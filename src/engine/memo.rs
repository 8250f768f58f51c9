//! Memoised static extensions. An `Extend` over an index of pure geometry
//! (no relation that reads the givens), with conditions over such indexes
//! only, maps each input tuple to the same outputs in every round, branch
//! and puzzle of a grid size. The counts' fan-out (each elimination bumps
//! the counters of every unit and cell it concerns) is mostly such
//! extensions, so their outputs are kept per thread and replayed: whole
//! output tuples for an operator, or just the counter rows for a chain of
//! them that ends in an array count (see `Plan::count_chains`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::layered::LayerValue;
use super::tuple::Tuple;
use super::tuple_map::TupleMap;

/// Past this many stored output tuples (16 MiB) the memo of a scope starts
/// over, bounding memory per thread (at most [`MAX_SCOPES`] such memos).
const MAX_OUTPUTS: usize = 1 << 19;
/// Past this many stored counter rows (1 MiB) the memo starts over. Since
/// the techniques over digit sets grow sets instead of counting per digit
/// set, the whole library on 9x9 needs far fewer; every tier on 25x25
/// fills any bound, and takes the same time at this one as at 4 MiB, with
/// 3.6 MiB less at its peak.
const MAX_ROWS: usize = 1 << 18;

/// Where an input's outputs lie in an arena.
type Span = (u32, u32);

/// A span is what one layer holds of a key: the memo never forks.
impl LayerValue for Span {
    fn absorb(&mut self, _newer: &Self) {}
}

/// Memoised outputs of one kind: per table (an operator or a chain), input
/// tuple -> its outputs in the shared arena. The tables are `TupleMap`s
/// for their compact keys (most inputs are a cell and a digit): the lookup
/// is a replay's cost, a cache miss more often the larger the entries.
struct Tables<T> {
    spans: Vec<TupleMap<Span>>,
    arena: Vec<T>,
    /// The spans of one replay (kept to reuse its allocation).
    found: Vec<Span>,
}

impl<T: Copy> Tables<T> {
    fn clear(&mut self) {
        self.spans.iter_mut().for_each(TupleMap::clear);
        self.arena.clear();
    }

    /// Hands the outputs of table `id` for each input to `sink`, one
    /// input's at a time, computing those not seen before. Past `bound`
    /// stored outputs the kind starts over, even within one call (one
    /// round can bring many new inputs): what was found so far is handed
    /// out first, as the order of outputs does not matter.
    fn replay(
        &mut self,
        id: usize,
        bound: usize,
        inputs: &[Tuple],
        compute: impl Fn(&Tuple, &mut Vec<T>),
        mut sink: impl FnMut(&[T]),
    ) {
        if self.spans.len() <= id {
            self.spans.resize_with(id + 1, TupleMap::default);
        }
        if self.arena.capacity() == 0 {
            // Room for the bound and one input's outputs past it, so that
            // crossing the bound does not double the arena (untouched room
            // costs no resident memory).
            self.arena.reserve_exact(bound + bound / 8);
        }
        // Find (or compute) spans first: the arena may move while it
        // grows, so slices of it are handed out only afterwards.
        let mut spans = std::mem::take(&mut self.found);
        spans.clear();
        for t in inputs {
            if self.arena.len() > bound {
                self.hand_out(&mut spans, &mut sink);
                self.clear();
            }
            let span = match self.spans[id].get(t) {
                Some(&s) => s,
                None => {
                    let start = self.arena.len();
                    compute(t, &mut self.arena);
                    let s = (start as u32, (self.arena.len() - start) as u32);
                    self.spans[id].insert_new(t, s);
                    s
                }
            };
            spans.push(span);
        }
        self.hand_out(&mut spans, &mut sink);
        self.found = spans;
    }

    /// Hands the outputs of `spans` to `sink` and forgets the spans.
    // Inlined so that the sink (the counters' hot loop) is too.
    #[inline(always)]
    fn hand_out(&self, spans: &mut Vec<Span>, sink: &mut impl FnMut(&[T])) {
        for &(start, len) in spans.iter() {
            let start = start as usize;
            sink(&self.arena[start..start + len as usize]);
        }
        spans.clear();
    }
}

impl<T> Default for Tables<T> {
    fn default() -> Self {
        Tables {
            spans: Vec::new(),
            arena: Vec::new(),
            found: Vec::new(),
        }
    }
}

/// How many scopes a thread's memo keeps at once. Grading and generating
/// alternate two engines on each puzzle (the one that solves and the one
/// that counts solutions): with one scope kept, each switch emptied the
/// memo, and a count took eight times as long.
const MAX_SCOPES: usize = 2;

/// One thread's memos, one per scope, the one used last at the end.
#[derive(Default)]
struct Memos {
    memos: Vec<Memo>,
}

impl Memos {
    /// The memo of `scope`, made the one used last: a scope not kept takes
    /// the place of the one used longest ago, started over.
    fn enter(&mut self, scope: u64) -> &mut Memo {
        match self.memos.iter().position(|m| m.scope == scope) {
            Some(i) => {
                let memo = self.memos.remove(i);
                self.memos.push(memo);
            }
            None => {
                let mut memo = if self.memos.len() >= MAX_SCOPES {
                    self.memos.remove(0)
                } else {
                    Memo::default()
                };
                memo.enter(scope);
                self.memos.push(memo);
            }
        }
        let last = self.memos.len() - 1;
        &mut self.memos[last]
    }
}

/// The memo of one scope (a thread works for one engine and grid size at
/// a time, or alternates between two: see [`MAX_SCOPES`]).
#[derive(Default)]
struct Memo {
    scope: u64,
    /// Per operator: its output tuples.
    tuples: Tables<Tuple>,
    /// Per count chain: the counter rows its outputs bump.
    rows: Tables<u32>,
}

impl Memo {
    /// Makes the memo serve `scope`, starting over for another scope (each
    /// kind also starts over on its own past its bound: `Tables::replay`).
    fn enter(&mut self, scope: u64) {
        if self.scope != scope {
            self.tuples.clear();
            self.rows.clear();
            self.scope = scope;
        }
    }
}

thread_local! {
    static MEMO: RefCell<Memos> = RefCell::new(Memos::default());
}

static NEXT_SCOPE: AtomicU64 = AtomicU64::new(1);

/// A fresh scope id: the identity of one set of static indexes (a grid
/// size's statics of one engine). Ids are never reused, so entries of a
/// dropped engine can never be mistaken for another's.
pub fn new_scope() -> u64 {
    NEXT_SCOPE.fetch_add(1, Ordering::Relaxed)
}

/// Empties this thread's memo (after a computation was cut at the fact
/// limit, so that its partial outputs are never replayed).
pub fn forget() {
    MEMO.with(|m| {
        for memo in &mut m.borrow_mut().memos {
            memo.tuples.clear();
            memo.rows.clear();
        }
    });
}

/// Hands `sink` the outputs of operator `op` in `scope` for each input
/// tuple, computing (with `compute`, for one input) those not seen before.
pub fn extend_memoised(
    scope: u64,
    op: u32,
    inputs: &[Tuple],
    compute: impl Fn(&Tuple, &mut Vec<Tuple>),
    sink: impl FnMut(&[Tuple]),
) {
    replay_in(
        scope,
        |m| &mut m.tuples,
        MAX_OUTPUTS,
        op,
        inputs,
        compute,
        sink,
    );
}

/// Hands `sink` the counter rows that count chain `chain` in `scope` bumps
/// for each input tuple, computing (with `compute`, for one input) those
/// not seen before.
pub fn rows_memoised(
    scope: u64,
    chain: u32,
    inputs: &[Tuple],
    compute: impl Fn(&Tuple, &mut Vec<u32>),
    sink: impl FnMut(&[u32]),
) {
    replay_in(
        scope,
        |m| &mut m.rows,
        MAX_ROWS,
        chain,
        inputs,
        compute,
        sink,
    );
}

/// Replays table `id` of the kind `tables` picks, in this thread's memo.
fn replay_in<T: Copy>(
    scope: u64,
    tables: fn(&mut Memo) -> &mut Tables<T>,
    bound: usize,
    id: u32,
    inputs: &[Tuple],
    compute: impl Fn(&Tuple, &mut Vec<T>),
    sink: impl FnMut(&[T]),
) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        let memo = m.enter(scope);
        tables(memo).replay(id as usize, bound, inputs, compute, sink);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tuple::flat;
    use std::cell::Cell;

    /// Runs `extend_memoised` on one input in `scope` and returns whether
    /// the outputs had to be computed (not replayed).
    fn computed(scope: u64) -> bool {
        let calls = Cell::new(0);
        let mut got = Vec::new();
        extend_memoised(
            scope,
            0,
            &[flat(&[7])],
            |t, out| {
                calls.set(calls.get() + 1);
                out.push(*t);
            },
            |outs| got.extend_from_slice(outs),
        );
        assert_eq!(got, [flat(&[7])], "the outputs, computed or replayed");
        calls.get() > 0
    }

    /// Inputs keyed by a packed word and inputs too wide for one (a
    /// second half, a negative number, one past 16 bits) each replay their
    /// own outputs.
    #[test]
    fn packed_and_wide_inputs_keep_their_own_outputs() {
        let scope = new_scope();
        let inputs = [
            flat(&[1, 2]),
            flat(&[1, 2, 0, 0, 5]),
            flat(&[-1]),
            flat(&[65_535]),
            flat(&[65_536]),
            flat(&[0, 0, 0, 1]),
        ];
        for round in 0..2 {
            let calls = Cell::new(0);
            let mut got = Vec::new();
            extend_memoised(
                scope,
                3,
                &inputs,
                |t, out| {
                    calls.set(calls.get() + 1);
                    out.push(*t);
                },
                |outs| got.extend_from_slice(outs),
            );
            assert_eq!(got, inputs, "each input's own output, in order");
            assert_eq!(calls.get(), if round == 0 { 6 } else { 0 });
        }
    }

    /// Two engines used in turn (one solving, one counting) keep their
    /// memos; a third scope takes the place of the one used longest ago.
    #[test]
    fn two_scopes_in_turn_keep_their_memos() {
        let (a, b, c) = (new_scope(), new_scope(), new_scope());
        assert!(computed(a));
        assert!(computed(b));
        assert!(!computed(a), "a's outputs are replayed after b's run");
        assert!(!computed(b));
        assert!(computed(c), "a new scope computes");
        assert!(computed(a), "c took the place of a, used longest ago");
        assert!(!computed(c));
    }
}
