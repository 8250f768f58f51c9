//! What a plan's checks and emits compute on a frame: [`passes`] and
//! [`emit`] run once per candidate binding in every operator, the hottest
//! code of a solve, and are apart from the planning that writes them.

use super::ops::{Check, Emit, Lookup};
use crate::engine::tuple::{FRAME, Frame, HALF, SLOTS, Tuple};

/// Evaluates checks on a frame; `absent` says whether a tuple is missing
/// from what a negation or a guard looks in.
#[inline]
pub fn passes(checks: &[Check], frame: &Frame, absent: &dyn Fn(Lookup, &Tuple) -> bool) -> bool {
    checks.iter().all(|c| match c {
        Check::Fast(a, op, b) => op.holds(a.get(frame), b.get(frame)),
        Check::Cmp(a, op, b) => match (a.eval_in(frame), b.eval_in(frame)) {
            (Some(x), Some(y)) => op.holds(x, y),
            _ => false,
        },
        Check::Static {
            index,
            key,
            negated,
        } => lookup_key(key, frame).is_some_and(|t| absent(Lookup::Static(*index), &t) == *negated),
        Check::Unknown {
            guard,
            key,
            bound: None,
        } => lookup_key(key, frame).is_some_and(|t| absent(Lookup::State(*guard), &t)),
        Check::Unknown {
            guard,
            key,
            bound: Some((op, e)),
        } => match (lookup_key(key, frame), e.eval_in(frame)) {
            (Some(t), Some(v)) => absent(Lookup::StateWhere(*guard, *op, v), &t),
            _ => false,
        },
    })
}

/// The tuple a negation or a guard looks up (built as an output is);
/// `None` on overflow.
#[inline]
fn lookup_key(key: &Emit, frame: &Frame) -> Option<Tuple> {
    emit(key, frame)
}

/// Builds an operator's output tuple; `None` on arithmetic overflow.
#[inline]
pub fn emit(emit: &Emit, frame: &Frame) -> Option<Tuple> {
    let mut t = crate::engine::tuple::EMPTY;
    if let Some(fast) = &emit.fast {
        for i in 0..HALF {
            t.0[i] = frame.get(usize::from(fast.picks[i])) | fast.base.0[i];
            t.1[i] = frame.get(usize::from(fast.picks[HALF + i])) | fast.base.1[i];
        }
        return Some(t);
    }
    for (i, e) in emit.slots.iter().enumerate() {
        crate::engine::tuple::set_slot(&mut t, i, e.eval_in(frame)?);
    }
    Some(t)
}

const _: () = assert!(FRAME == SLOTS + HALF);
