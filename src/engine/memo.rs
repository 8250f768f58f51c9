//! Memoised static extensions. An `Extend` over an index of pure geometry
//! (no relation that reads the givens), with conditions over such indexes
//! only, maps each input tuple to the same outputs in every round, branch
//! and puzzle of a grid size. The counts' fan-out (each elimination bumps
//! the counters of every unit and cell it concerns) is mostly such
//! extensions, so their outputs are kept per thread and replayed.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use super::tuple::Tuple;

/// Past this many stored outputs (32 MiB of tuples) the memo starts over,
/// bounding memory per thread.
const MAX_OUTPUTS: usize = 1 << 20;

/// Where an input's outputs lie in the arena.
type Span = (u32, u32);

/// One thread's memo. It serves one scope at a time (a thread works for
/// one engine and grid size at a time); another scope starts it over.
#[derive(Default)]
struct Memo {
    scope: u64,
    /// Per operator: input tuple -> its outputs in the arena.
    spans: Vec<FxHashMap<Tuple, Span>>,
    arena: Vec<Tuple>,
}

impl Memo {
    fn clear(&mut self) {
        self.spans.iter_mut().for_each(|m| m.clear());
        self.arena.clear();
    }
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

static NEXT_SCOPE: AtomicU64 = AtomicU64::new(1);

/// A fresh scope id: the identity of one set of static indexes (a grid
/// size's statics of one engine). Ids are never reused, so entries of a
/// dropped engine can never be mistaken for another's.
pub fn new_scope() -> u64 {
    NEXT_SCOPE.fetch_add(1, Ordering::Relaxed)
}

/// Appends to `out` the outputs of operator `op` in `scope` for each input
/// tuple, computing (with `compute`) and storing those not seen before.
pub fn extend_memoised(
    scope: u64,
    op: u32,
    inputs: &[Tuple],
    out: &mut Vec<Tuple>,
    compute: impl Fn(&[Tuple], &mut Vec<Tuple>),
) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.scope != scope {
            m.clear();
            m.scope = scope;
        }
        let op = op as usize;
        if m.spans.len() <= op {
            m.spans.resize_with(op + 1, FxHashMap::default);
        }
        for t in inputs {
            let known = m.spans[op].get(t).copied();
            let span = match known {
                Some(s) => s,
                None => {
                    if m.arena.len() > MAX_OUTPUTS {
                        m.clear();
                    }
                    let Memo { spans, arena, .. } = &mut *m;
                    let start = arena.len();
                    compute(std::slice::from_ref(t), arena);
                    let s = (start as u32, (arena.len() - start) as u32);
                    spans[op].insert(*t, s);
                    s
                }
            };
            let (start, len) = (span.0 as usize, span.1 as usize);
            out.extend_from_slice(&m.arena[start..start + len]);
        }
    });
}
