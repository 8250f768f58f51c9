//! What a plan's checks and emits compute on a frame: [`passes`] and
//! [`emit`] run once per candidate binding in every operator, the hottest
//! code of a solve, and are apart from the planning that writes them.

use super::ops::{CExpr, Check, Emit, Lookup};
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
        Check::Absent { index, key } => {
            lookup_key(key, frame).is_some_and(|t| absent(Lookup::Static(*index), &t))
        }
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

/// The tuple a negation or a guard looks up; `None` on overflow.
#[inline]
fn lookup_key(key: &[CExpr], frame: &Frame) -> Option<Tuple> {
    let mut t = crate::engine::tuple::EMPTY;
    for (i, e) in key.iter().enumerate() {
        crate::engine::tuple::set_slot(&mut t, i, e.eval_in(frame)?);
    }
    Some(t)
}

/// Builds an operator's output tuple; `None` on arithmetic overflow.
#[inline]
pub fn emit(emit: &Emit, frame: &Frame) -> Option<Tuple> {
    let mut t = crate::engine::tuple::EMPTY;
    if let Some(fast) = &emit.fast {
        for (i, s) in fast.iter().enumerate().take(SLOTS) {
            let v = s.get(frame);
            if i < HALF {
                t.0[i] = v;
            } else {
                t.1[i - HALF] = v;
            }
        }
        return Some(t);
    }
    for (i, e) in emit.slots.iter().enumerate() {
        crate::engine::tuple::set_slot(&mut t, i, e.eval_in(frame)?);
    }
    Some(t)
}

const _: () = assert!(FRAME == SLOTS + HALF);
