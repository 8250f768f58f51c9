//! Layouts: which rule variable sits in which slot of the tuples a chain of
//! operators passes along, and the environments and emits they give. Apart
//! from the planner's decisions so that [`super::build`] reads as choices
//! (which atom next, which operator) over these mechanics.

use super::ops::{CExpr, Check, Emit};
use crate::engine::tuple::{HALF, SLOTS};
use crate::lang::program::{Arg, Atom, VarId};
use crate::lang::value::CmpOp;
use rustc_hash::FxHashMap;

/// Which variable sits in each slot of a tuple.
pub(super) type Layout = [Option<VarId>; SLOTS];

/// Flat layout of a changing atom used as a driver, with the checks its
/// constants and repeated variables impose.
pub(super) fn flat_atom_layout(atom: &Atom) -> (Layout, Vec<Check>) {
    let mut layout = [None; SLOTS];
    let mut checks = Vec::new();
    let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
    for (c, arg) in atom.args.iter().enumerate() {
        match arg {
            Arg::Const(v) => {
                checks.push(Check::cmp(CExpr::Var(c as u8), CmpOp::Eq, CExpr::Const(*v)))
            }
            Arg::Wild | Arg::Cmp(..) => {}
            Arg::Var(v) => {
                if let Some(&first) = seen.get(v) {
                    checks.push(Check::cmp(
                        CExpr::Var(first as u8),
                        CmpOp::Eq,
                        CExpr::Var(c as u8),
                    ));
                } else {
                    seen.insert(*v, c);
                    layout[c] = Some(*v);
                }
            }
        }
    }
    (layout, checks)
}

pub(super) fn layout_env(layout: &Layout, offset: usize) -> FxHashMap<VarId, CExpr> {
    layout
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (v, CExpr::Var((i + offset) as u8))))
        .collect()
}

pub(super) fn is_keyed(layout: &Layout, key: &[VarId]) -> bool {
    key.iter().enumerate().all(|(i, v)| layout[i] == Some(*v))
        && layout[key.len()..HALF].iter().all(|s| s.is_none())
}

pub(super) fn keyed_layout(
    key: &[VarId],
    needed: &[VarId],
    env: &FxHashMap<VarId, CExpr>,
) -> Option<Layout> {
    let mut l = [None; SLOTS];
    for (i, &v) in key.iter().enumerate() {
        l[i] = Some(v);
    }
    // The other variables go in the value half, after the key's.
    place(l, HALF, needed, env, key)
}

pub(super) fn flat_layout(needed: &[VarId], env: &FxHashMap<VarId, CExpr>) -> Option<Layout> {
    place([None; SLOTS], 0, needed, env, &[])
}

/// `l` with the bound variables of `needed` that are not in `skip` in the
/// slots from `next` on, in order; `None` if they do not fit.
fn place(
    mut l: Layout,
    mut next: usize,
    needed: &[VarId],
    env: &FxHashMap<VarId, CExpr>,
    skip: &[VarId],
) -> Option<Layout> {
    for &v in needed {
        if skip.contains(&v) || !env.contains_key(&v) {
            continue;
        }
        if next >= SLOTS {
            return None;
        }
        l[next] = Some(v);
        next += 1;
    }
    Some(l)
}

pub(super) fn emit_layout(layout: &Layout, env: &FxHashMap<VarId, CExpr>) -> Emit {
    Emit::new(
        layout
            .iter()
            .map(|v| match v {
                Some(v) => env.get(v).cloned().unwrap_or(CExpr::Const(0)),
                None => CExpr::Const(0),
            })
            .collect(),
    )
}

/// Whether every variable of `atom` is among `bound`.
pub(super) fn binds_all(bound: &[VarId], atom: &Atom) -> bool {
    atom.args
        .iter()
        .all(|x| x.var().is_none_or(|v| bound.contains(&v)))
}
