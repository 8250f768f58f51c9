//! What is worked out from a finished plan rather than planned rule by
//! rule: which variables are pipes, what each variable keeps of its facts,
//! and the count chains among the memoised operators.

use super::ops::{Op, Out, SeedSource, VarIdx};
use super::{ChainRole, CountChain, Plan};
use crate::engine::var::Keep;
use rustc_hash::FxHashMap;

impl Plan {
    /// What each variable keeps of its facts (see [`Keep`]): sorted
    /// batches for merge-join operands; only a count for tier copies and
    /// reached groups (new by construction) that nothing looks up; every
    /// fact otherwise.
    pub fn var_keeps(&self) -> Vec<Keep> {
        let mut keeps = vec![Keep::Facts; self.vars.len()];
        let mut streams = vec![false; self.vars.len()];
        for c in &self.copies {
            streams[c.to] = true;
        }
        for a in &self.aggs {
            streams[a.reached] = true;
        }
        // Looked up by a join, read whole as a seed, or a relation.
        let mut looked_up = vec![false; self.vars.len()];
        for a in &self.aggs {
            if let SeedSource::Var(v) = a.seed {
                looked_up[v] = true;
            }
        }
        for &v in self.rel_var.values() {
            looked_up[v] = true;
        }
        for op in &self.ops {
            match op {
                Op::Join {
                    left, right, probe, ..
                } => {
                    for v in [*left, *right] {
                        looked_up[v] = true;
                        if !probe {
                            keeps[v] = Keep::Sorted;
                        }
                    }
                }
                Op::SeedCheck { seed, .. } => looked_up[*seed] = true,
                _ => {}
            }
        }
        // Facts looked up one by one (a relation's, for guards, origins and
        // reports; a seed's, read whole), rather than only joined.
        let mut by_fact = vec![false; self.vars.len()];
        for &v in self.rel_var.values() {
            by_fact[v] = true;
        }
        for a in &self.aggs {
            if let SeedSource::Var(v) = a.seed {
                by_fact[v] = true;
            }
        }
        for op in &self.ops {
            match op {
                Op::SeedCheck { seed, .. } => by_fact[*seed] = true,
                Op::Join {
                    left,
                    right,
                    probe: true,
                    ..
                } => {
                    by_fact[*left] = true;
                    by_fact[*right] = true;
                }
                _ => {}
            }
        }
        let counted = self.feeds_counts(&by_fact);
        for (v, keep) in keeps.iter_mut().enumerate() {
            if streams[v] && !looked_up[v] {
                *keep = Keep::Count;
            } else if *keep == Keep::Sorted && !by_fact[v] && !counted[v] {
                *keep = Keep::Batches;
            }
        }
        keeps
    }

    /// The variables whose tuples reach an aggregate's counters other than
    /// through a relation (whose facts are deduplicated on the way). A
    /// count's body yields each binding once only if every tuple it reads
    /// arrives once, so these must keep every fact ([`Keep::Batches`]
    /// would let a tuple arrive twice).
    fn feeds_counts(&self, relation: &[bool]) -> Vec<bool> {
        let mut counted = vec![false; self.vars.len()];
        loop {
            let mut changed = false;
            for op in &self.ops {
                let (inputs, to): (Vec<VarIdx>, Option<&Out>) = match op {
                    Op::Map { from, to, .. } => (vec![*from], Some(to)),
                    Op::Extend { source, to, .. } => (vec![*source], Some(to)),
                    Op::Join {
                        left, right, to, ..
                    } => (vec![*left, *right], Some(to)),
                    Op::SeedCheck { seed, .. } => (vec![*seed], None),
                };
                let reaches = to
                    .is_none_or(|to| to.count.is_some() || (!relation[to.var] && counted[to.var]));
                for v in inputs {
                    if reaches && !counted[v] {
                        counted[v] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                return counted;
            }
        }
    }

    /// The operators reading each variable (see [`Plan::readers`]).
    pub fn op_readers(&self) -> Vec<Vec<u32>> {
        let mut readers = vec![Vec::new(); self.vars.len()];
        for (i, op) in self.ops.iter().enumerate() {
            let (first, second) = match op {
                Op::Map { from, .. } => (*from, None),
                Op::Extend { source, .. } => (*source, None),
                Op::Join { left, right, .. } => (*left, Some(*right)),
                Op::SeedCheck { seed, .. } => (*seed, None),
            };
            readers[first].push(i as u32);
            if let Some(v) = second.filter(|&v| v != first) {
                readers[v].push(i as u32);
            }
        }
        readers
    }

    /// Finds the count chains (see [`CountChain`]) among the memoisable
    /// operators.
    pub fn find_count_chains(&mut self) {
        let memo = |i: usize| self.memo.get(i).copied().unwrap_or(false);
        // The operator reading each pipe.
        let mut pipe_reader: FxHashMap<VarIdx, usize> = FxHashMap::default();
        for (i, op) in self.ops.iter().enumerate() {
            if let Op::Extend { source, .. } = op
                && self.is_pipe(*source)
            {
                pipe_reader.insert(*source, i);
            }
        }
        let mut chains = Vec::new();
        let mut role = vec![ChainRole::Alone; self.ops.len()];
        for head in 0..self.ops.len() {
            // Members come after their head, so they are marked by now.
            if !memo(head) || role[head] != ChainRole::Alone {
                continue;
            }
            let mut ops = vec![head];
            let mut at = head;
            let agg = loop {
                let Op::Extend { to, .. } = &self.ops[at] else {
                    break None;
                };
                if let Some(agg) = to.count {
                    break Some(agg);
                }
                match pipe_reader.get(&to.var) {
                    Some(&next) if self.is_pipe(to.var) && memo(next) => {
                        ops.push(next);
                        at = next;
                    }
                    _ => break None,
                }
            };
            let Some(agg) = agg else { continue };
            let a = &self.aggs[agg];
            if a.row_slot.is_none() || !matches!(a.seed, SeedSource::Static(_)) {
                continue;
            }
            role[head] = ChainRole::Head(chains.len());
            for &m in &ops[1..] {
                role[m] = ChainRole::Member;
            }
            chains.push(CountChain { ops, agg });
        }
        self.count_chains = chains;
        self.chain_role = role;
    }
}

/// Finds the pipes of a plan (see [`Plan::pipes`]): variables written by
/// one operator and read only by one later `Extend` or `Map`, which reads
/// just the newest tuples anyway. Skipping the variable is sound because an
/// intermediate keeps every variable still needed: a count body's keeps
/// every variable of its binding, so distinct inputs stay distinct; a
/// rule's may repeat tuples across rounds, which its head deduplicates.
pub(super) fn pipes(plan: &Plan) -> Vec<bool> {
    let n = plan.vars.len();
    let mut writer: Vec<Option<usize>> = vec![None; n];
    let mut writers = vec![0usize; n];
    let mut reader: Vec<Option<usize>> = vec![None; n];
    let mut reads = vec![0usize; n];
    let mut pinned = vec![false; n];
    for (i, op) in plan.ops.iter().enumerate() {
        let (inputs, out): (Vec<VarIdx>, Option<&Out>) = match op {
            Op::Map { from, to, .. } => (vec![*from], Some(to)),
            Op::Extend { source, to, .. } => (vec![*source], Some(to)),
            Op::Join {
                left, right, to, ..
            } => {
                // A join reads its inputs' whole history.
                pinned[*left] = true;
                pinned[*right] = true;
                (vec![*left, *right], Some(to))
            }
            Op::SeedCheck { seed, agg } => {
                pinned[*seed] = true;
                pinned[plan.aggs[*agg].reached] = true;
                (vec![*seed], None)
            }
        };
        for v in inputs {
            reads[v] += 1;
            reader[v] = Some(i);
        }
        if let Some(out) = out
            && out.count.is_none()
        {
            writers[out.var] += 1;
            writer[out.var] = Some(i);
            if out.rule.is_some() {
                pinned[out.var] = true;
            }
        }
    }
    for &v in plan.rel_var.values() {
        pinned[v] = true;
    }
    for &(_, v) in &plan.loads {
        pinned[v] = true;
    }
    for &v in &plan.unit_loads {
        pinned[v] = true;
    }
    for &(_, v) in &plan.base_loads {
        pinned[v] = true;
    }
    for c in &plan.copies {
        pinned[c.from] = true;
        pinned[c.to] = true;
    }
    for a in &plan.aggs {
        pinned[a.reached] = true;
        if let SeedSource::Var(v) = a.seed {
            pinned[v] = true;
        }
    }
    (0..n)
        .map(|v| {
            !pinned[v]
                && writers[v] == 1
                && reads[v] == 1
                && matches!((writer[v], reader[v]), (Some(w), Some(r)) if r > w)
        })
        .collect()
}
