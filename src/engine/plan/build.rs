//! Planning: each rule (and each count's body) of a stratum becomes a chain
//! of operators, atom by atom, the most constrained first; [`compile`] is
//! the entry. The layouts it lays chains out in are [`super::layout`], what
//! is worked out from the finished plan [`super::analysis`].

use super::analysis::pipes;
use super::layout::{
    Layout, binds_all, emit_layout, flat_atom_layout, flat_layout, is_keyed, keyed_layout,
    layout_env,
};
use super::ops::{
    CExpr, Check, Emit, GuardSpec, IndexSpec, Indexes, Op, Out, PlanAgg, ProjectionSpec,
    SeedSource, VarIdx, reads_right,
};
use super::{Plan, PlanError};
use crate::engine::ir::{AggDef, ERule, Lowered};
use crate::engine::tiers::{FIRST_GATED_TIER, TierCopy, tier_resetting_rules};
use crate::engine::tuple::{HALF, SLOTS};
use crate::lang::program::{Arg, Atom, Expr, RelId, VarId};
use crate::lang::value::CmpOp;
use rustc_hash::FxHashMap;

/// Compiles the rules and counts whose heads are `members` into a plan.
pub fn compile(
    lowered: &Lowered,
    members: &[RelId],
    indexes: &mut Indexes,
    base_facts: &dyn Fn(RelId) -> bool,
) -> Result<Plan, PlanError> {
    let mut b = Builder {
        lowered,
        plan: Plan::default(),
        indexes,
        index_vars: FxHashMap::default(),
        copy_vars: FxHashMap::default(),
        tier: 0,
    };
    for &r in members {
        let v = b.new_var(&lowered.rels[r].name);
        b.plan.rel_var.insert(r, v);
        if base_facts(r) {
            b.plan.base_loads.push((r, v));
        }
    }
    for agg in &lowered.aggs {
        if members.contains(&agg.reached) {
            b.tier = agg.body.tier;
            b.compile_agg(agg)?;
            b.plan.op_tiers.resize(b.plan.ops.len(), b.tier);
        }
    }
    for rule in &lowered.rules {
        if members.contains(&rule.head) {
            b.tier = rule.tier;
            b.plan.max_tier = b.plan.max_tier.max(rule.tier);
            if let Some(r) = rule.source_rule {
                b.plan.rule_tiers.insert(r, rule.tier);
            }
            let var = b.plan.rel_var[&rule.head];
            let out = Out {
                var,
                rule: rule.source_rule.map(|r| (r, rule.head)),
                count: None,
            };
            b.compile_rule(rule, out, rule.source_rule)?;
            b.plan.op_tiers.resize(b.plan.ops.len(), b.tier);
        }
    }
    b.plan.resets_tiers = tier_resetting_rules(lowered, &b.plan.rule_tiers);
    b.plan.pipes = pipes(&b.plan);
    b.plan.readers = b.plan.op_readers();
    Ok(b.plan)
}

struct Builder<'a> {
    lowered: &'a Lowered,
    plan: Plan,
    indexes: &'a mut Indexes,
    index_vars: FxHashMap<(IndexSpec, u32), VarIdx>,
    copy_vars: FxHashMap<(RelId, u32), VarIdx>,
    /// The tier of the rule being compiled.
    tier: u32,
}

fn cexpr(e: &Expr, env: &FxHashMap<VarId, CExpr>) -> Option<CExpr> {
    Some(match e {
        Expr::Var(v) => env.get(v)?.clone(),
        Expr::Const(c) => CExpr::Const(*c),
        Expr::Add(a, b) => CExpr::Add(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Sub(a, b) => CExpr::Sub(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Neg(a) => CExpr::Neg(Box::new(cexpr(a, env)?)),
        Expr::Mul(a, b) => CExpr::Mul(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Union(a, b) => CExpr::Union(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Inter(a, b) => CExpr::Inter(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Div(a, b) => CExpr::Div(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
        Expr::Mod(a, b) => CExpr::Mod(Box::new(cexpr(a, env)?), Box::new(cexpr(b, env)?)),
    })
}

impl Builder<'_> {
    fn new_var(&mut self, name: &str) -> VarIdx {
        self.plan.vars.push(name.to_string());
        self.plan.vars.len() - 1
    }

    fn in_plan(&self, rel: RelId) -> bool {
        self.plan.rel_var.contains_key(&rel)
    }

    fn compile_agg(&mut self, agg: &AggDef) -> Result<(), PlanError> {
        let reached = self.plan.rel_var[&agg.reached];
        // Bound over the key slots of the count's flat output.
        let env: FxHashMap<VarId, CExpr> = agg
            .key
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, CExpr::Var(i as u8)))
            .collect();
        let mut bound = if agg.value {
            CExpr::Const(0)
        } else {
            cexpr(&agg.bound, &env).ok_or_else(|| PlanError {
                rule: None,
                message: "a count's bound uses a variable outside its group".into(),
            })?
        };
        if agg.op == CmpOp::Gt {
            bound = CExpr::Add(Box::new(bound), Box::new(CExpr::Const(1)));
        }
        let seed = match self.plan.rel_var.get(&agg.seed) {
            Some(&v) => SeedSource::Var(v),
            None => SeedSource::Static(
                self.indexes
                    .id(IndexSpec::flat(agg.seed, self.lowered.rels[agg.seed].arity)),
            ),
        };
        let idx = self.plan.aggs.len();
        let row_slot = match (seed, agg.row) {
            (SeedSource::Static(_), Some(_)) => Some(agg.key.len() + agg.local.len()),
            _ => None,
        };
        self.plan.aggs.push(PlanAgg {
            key_len: agg.key.len(),
            value: agg.value,
            elem_slot: agg.elem.map(|i| agg.key.len() + i),
            grows: agg.grows,
            fold: agg.fold,
            bound,
            op: agg.op,
            reached,
            seed,
            row_slot,
        });
        let out = Out {
            var: reached,
            rule: None,
            count: Some(idx),
        };
        self.compile_rule(&agg.body, out, None)?;
        if let SeedSource::Var(seed) = seed
            && matches!(agg.op, CmpOp::Ge | CmpOp::Gt)
        {
            self.plan.ops.push(Op::SeedCheck { seed, agg: idx });
        }
        Ok(())
    }

    /// Compiles one conjunctive rule into a chain ending in `out`.
    fn compile_rule(
        &mut self,
        rule: &ERule,
        out: Out,
        source_rule: Option<usize>,
    ) -> Result<(), PlanError> {
        let err = |message: String| PlanError {
            rule: source_rule.or(Some(rule.from_rule)),
            message,
        };
        let mut remaining: Vec<&Atom> = rule.atoms.iter().collect();
        let mut pending_cmps: Vec<&(Expr, CmpOp, Expr)> = rule.cmps.iter().collect();
        let mut pending_negs: Vec<&Atom> = rule.negs.iter().collect();
        // The variables a join binds, which `V = e` must not assign (see
        // `apply_filters`). A static atom's variable may be assigned: the
        // atom is then a lookup, where binding it first would list every
        // value the atom holds (all of `digit_set`'s sets) and compare.
        let mut atom_vars = Vec::new();
        for a in rule.atoms.iter().filter(|a| self.in_plan(a.rel)) {
            crate::engine::ir::atom_vars(a, &mut atom_vars);
        }
        // Guards are checked by the last operator, in the round that
        // derives the head: an earlier operator may run rounds before it,
        // and `explain` re-checks a guard against the facts known before
        // the head's own step. The first operator that binds a guard's
        // variables checks it too, to prune early: the state only grows,
        // so a guard that fails then would fail at the last operator too.
        let guards: Vec<&Atom> = rule.guards.iter().collect();
        let mut early_guards: Vec<&Atom> = guards.iter().copied().chain(&rule.prunes).collect();

        let (mut current, mut layout, mut driver_checks, mut dirty, mut wide) =
            self.driver(&mut remaining);
        // Assignments the driver's values compute (`U = K | J`) make a
        // static atom on them a check here too; the comparisons stay
        // pending, so later operators assign them again where needed.
        let (driver_env, _) = self.apply_filters(
            layout_env(&layout, 0),
            &mut pending_cmps.clone(),
            &mut Vec::new(),
            Vec::new(),
            &atom_vars,
        );
        driver_checks.extend(self.absorb_bound(&mut remaining, &driver_env));
        let mut bound: Vec<VarId> = layout.iter().flatten().copied().collect();
        // Pruning guards that the driver binds filter it before anything
        // fans out (a digit set's groups: hundreds per tuple).
        let (ready, later): (Vec<&Atom>, Vec<&Atom>) = early_guards
            .iter()
            .partition(|a| rule.prunes.contains(a) && binds_all(&bound, a));
        early_guards = later;
        if !ready.is_empty() && !remaining.is_empty() {
            let env = layout_env(&layout, 0);
            let mut checks = std::mem::take(&mut driver_checks);
            checks.extend(self.guard_checks(&ready, &env).unwrap_or_default());
            let v = self.new_var("pruned");
            self.plan.ops.push(Op::Map {
                from: current,
                checks,
                emit: emit_layout(&layout, &env),
                to: Out::to_var(v),
            });
            current = v;
        }

        loop {
            let next = self.choose_next(&remaining, &|v| bound.contains(&v));
            let Some(ni) = next else {
                // Last operator: a map to the head (or straight output).
                let env = layout_env(&layout, 0);
                let (env, mut checks) = self.apply_filters(
                    env,
                    &mut pending_cmps,
                    &mut pending_negs,
                    driver_checks,
                    &atom_vars,
                );
                checks.extend(
                    self.guard_checks(&guards, &env)
                        .ok_or_else(|| err("a guard uses variables no atom binds".into()))?,
                );
                let emit = self
                    .emit_flat(&rule.head_args, &env)
                    .ok_or_else(|| err("a head variable is not bound by the body".into()))?;
                if !pending_cmps.is_empty() || !pending_negs.is_empty() {
                    return Err(err("a condition uses variables no atom binds".into()));
                }
                self.plan.ops.push(Op::Map {
                    from: current,
                    checks,
                    emit,
                    to: out,
                });
                return Ok(());
            };
            let atom = remaining.remove(ni);
            let (spec, key_vars, val_vars, extra_eq) = atom_key(atom, &bound).ok_or_else(|| {
                err(format!(
                    "an atom of `{}` binds more than {HALF} new variables at once",
                    self.lowered.rels[atom.rel].name
                ))
            })?;
            // Frame of this operator: slots 0..8 from the chain, 8..12 the new values.
            let dynamic = self.in_plan(atom.rel);
            if dynamic && (dirty || !is_keyed(&layout, &key_vars)) {
                // Re-key the chain so its first half is this join's key.
                let env = layout_env(&layout, 0);
                let (env, checks) = self.apply_filters(
                    env,
                    &mut pending_cmps,
                    &mut pending_negs,
                    std::mem::take(&mut driver_checks),
                    &atom_vars,
                );
                let needed =
                    self.needed(rule, &remaining, Some(atom), &pending_cmps, &pending_negs);
                let new_layout = keyed_layout(&key_vars, &needed, &env)
                    .ok_or_else(|| err("more than eight variables are alive at once".into()))?;
                let emit = emit_layout(&new_layout, &env);
                let v = self.new_var("rekey");
                self.plan.ops.push(Op::Map {
                    from: current,
                    checks,
                    emit,
                    to: Out::to_var(v),
                });
                current = v;
                layout = new_layout;
                dirty = false;
                wide = false;
                bound = layout.iter().flatten().copied().collect();
            }
            let mut env = layout_env(&layout, 0);
            for (i, v) in val_vars.iter().enumerate() {
                if let Some(v) = v {
                    env.insert(*v, CExpr::Var((SLOTS + i) as u8));
                }
            }
            let mut checks = std::mem::take(&mut driver_checks);
            for (i, &(_, v)) in extra_eq.iter().enumerate() {
                let pos = val_vars.len() - extra_eq.len() + i;
                if let Some(e) = env.get(&v) {
                    checks.push(Check::cmp(
                        e.clone(),
                        CmpOp::Eq,
                        CExpr::Var((SLOTS + pos) as u8),
                    ));
                }
            }
            bound.extend(val_vars.iter().flatten());
            let (env, more) = self.apply_filters(
                env,
                &mut pending_cmps,
                &mut pending_negs,
                Vec::new(),
                &atom_vars,
            );
            checks.extend(more);
            checks.extend(self.absorb_bound(&mut remaining, &env));
            let is_last = remaining.is_empty();
            if is_last {
                checks.extend(
                    self.guard_checks(&guards, &env)
                        .ok_or_else(|| err("a guard uses variables no atom binds".into()))?,
                );
            } else {
                let (ready, later): (Vec<&Atom>, Vec<&Atom>) = early_guards.iter().partition(|a| {
                    a.args
                        .iter()
                        .all(|x| x.var().is_none_or(|v| env.contains_key(&v)))
                });
                early_guards = later;
                checks.extend(self.guard_checks(&ready, &env).unwrap_or_default());
            }
            let (emit, next_layout, to) = if is_last {
                let emit = self
                    .emit_flat(&rule.head_args, &env)
                    .ok_or_else(|| err("a head variable is not bound by the body".into()))?;
                if !pending_cmps.is_empty() || !pending_negs.is_empty() {
                    return Err(err("a condition uses variables no atom binds".into()));
                }
                (emit, [None; SLOTS], out.clone())
            } else {
                let needed = self.needed(rule, &remaining, None, &pending_cmps, &pending_negs);
                // Lay out for the next step if it will be a join.
                let next_key = self.peek_join_key(&remaining, &env);
                let l = match next_key {
                    Some(k) => keyed_layout(&k, &needed, &env),
                    None => flat_layout(&needed, &env),
                }
                .ok_or_else(|| err("more than eight variables are alive at once".into()))?;
                let v = self.new_var(&format!("chain:{}", rule.from_rule));
                (emit_layout(&l, &env), l, Out::to_var(v))
            };
            let target = to.var;
            if dynamic {
                let probe =
                    !wide && layout[HALF..].iter().all(Option::is_none) && spec.val.is_empty();
                let right = self.index_var(spec);
                self.plan.ops.push(Op::Join {
                    left: current,
                    right,
                    probe,
                    checks,
                    emit,
                    to,
                });
            } else {
                let chain_env = layout_env(&layout, 0);
                let key = key_vars
                    .iter()
                    .map(|v| chain_env.get(v).cloned().unwrap_or(CExpr::Const(0)))
                    .collect();
                let index = self.indexes.id(spec);
                let (mut checks, late): (Vec<Check>, Vec<Check>) =
                    checks.into_iter().partition(|c| !reads_right(c));
                let early = checks.len();
                checks.extend(late);
                self.plan.ops.push(Op::Extend {
                    source: current,
                    index,
                    key,
                    checks,
                    early,
                    emit,
                    to,
                });
            }
            if is_last {
                return Ok(());
            }
            current = target;
            layout = next_layout;
            wide = false;
            bound = layout.iter().flatten().copied().collect();
        }
    }

    /// The driver of a rule's chain, taken out of `remaining`: a changing
    /// relation if there is one, else a static atom loaded once, else the
    /// single empty tuple. Returns its variable, layout and checks, whether
    /// it is *dirty* (slots of a stored relation that hold values the rule
    /// ignores, a `_` column: such a layout cannot serve as a join key as it
    /// is) and whether it is *wide* (a stored relation with values in the
    /// second half that the layout may not show).
    fn driver(&mut self, remaining: &mut Vec<&Atom>) -> (VarIdx, Layout, Vec<Check>, bool, bool) {
        match remaining.iter().position(|a| self.in_plan(a.rel)) {
            Some(i) => {
                let atom = remaining.remove(i);
                let var = self.input_var(atom.rel);
                let (layout, checks) = flat_atom_layout(atom);
                let arity = atom.args.len();
                (
                    var,
                    layout,
                    checks,
                    (0..HALF).any(|s| s < arity && layout[s].is_none()),
                    arity > HALF,
                )
            }
            None if !remaining.is_empty() => {
                let atom = remaining.remove(0);
                let (spec, layout) = self.static_load_spec(atom);
                let arity = atom.args.len();
                let dirty = (0..HALF).any(|s| s < arity && layout[s].is_none());
                let index = self.indexes.id(spec);
                let var = self.new_var(&format!("load:{}", self.lowered.rels[atom.rel].name));
                self.plan.loads.push((index, var));
                (var, layout, Vec::new(), dirty, arity > HALF)
            }
            None => {
                let var = self.new_var("unit");
                self.plan.unit_loads.push(var);
                (var, [None; SLOTS], Vec::new(), false, false)
            }
        }
    }

    /// The atom to join next: the one whose columns are most constrained
    /// (the largest share bound or constant, which keeps intermediate
    /// results small), static before changing, then in body order.
    fn choose_next(&self, remaining: &[&Atom], is_bound: &dyn Fn(VarId) -> bool) -> Option<usize> {
        remaining
            .iter()
            .enumerate()
            .max_by_key(|(i, a)| {
                let constrained = a
                    .args
                    .iter()
                    .filter(|x| match x {
                        Arg::Var(v) => is_bound(*v),
                        Arg::Const(_) => true,
                        Arg::Wild | Arg::Cmp(..) => false,
                    })
                    .count();
                // A `_` column neither narrows the join nor widens its output.
                let relevant = a.args.iter().filter(|x| !matches!(x, Arg::Wild)).count();
                let share = constrained * 1000 / relevant.max(1);
                (share, !self.in_plan(a.rel), usize::MAX - i)
            })
            .map(|(i, _)| i)
    }

    /// If the best next atom is a changing relation, the variables of its key.
    fn peek_join_key(
        &self,
        remaining: &[&Atom],
        env: &FxHashMap<VarId, CExpr>,
    ) -> Option<Vec<VarId>> {
        let next = remaining[self.choose_next(remaining, &|v| env.contains_key(&v))?];
        if !self.in_plan(next.rel) {
            return None;
        }
        let mut key = Vec::new();
        for arg in &next.args {
            if let Arg::Var(v) = arg
                && env.contains_key(v)
                && !key.contains(v)
                && key.len() < HALF
            {
                key.push(*v);
            }
        }
        Some(key)
    }

    /// Adds to `env` the assignments that became computable and returns the
    /// checks now decidable, removing them from the pending lists.
    fn apply_filters(
        &mut self,
        mut env: FxHashMap<VarId, CExpr>,
        cmps: &mut Vec<&(Expr, CmpOp, Expr)>,
        negs: &mut Vec<&Atom>,
        mut checks: Vec<Check>,
        atom_vars: &[VarId],
    ) -> (FxHashMap<VarId, CExpr>, Vec<Check>) {
        loop {
            let mut progress = false;
            let mut i = 0;
            while i < cmps.len() {
                let (a, op, b) = cmps[i];
                if let (Some(x), Some(y)) = (cexpr(a, &env), cexpr(b, &env)) {
                    checks.push(Check::cmp(x, *op, y));
                    cmps.remove(i);
                    progress = true;
                    continue;
                }
                if *op == CmpOp::Eq {
                    // `V = e` assigns only a variable that no join binds:
                    // one that a join binds later is compared with `e`
                    // once it is (the join would otherwise overwrite it).
                    let assign = match (a, b) {
                        (Expr::Var(v), e) | (e, Expr::Var(v))
                            if !env.contains_key(v) && !atom_vars.contains(v) =>
                        {
                            cexpr(e, &env).map(|c| (*v, c))
                        }
                        _ => None,
                    };
                    if let Some((v, c)) = assign {
                        env.insert(v, c);
                        cmps.remove(i);
                        progress = true;
                        continue;
                    }
                }
                i += 1;
            }
            if !progress {
                break;
            }
        }
        negs.retain(|atom| match self.static_check(atom, &env, true) {
            Some(check) => {
                checks.push(check);
                false
            }
            None => true,
        });
        (env, checks)
    }

    /// A static atom as a check over `env` (see [`Check::Static`]), or
    /// `None` if a variable of it is not bound there.
    fn static_check(
        &mut self,
        atom: &Atom,
        env: &FxHashMap<VarId, CExpr>,
        negated: bool,
    ) -> Option<Check> {
        let mut key = Vec::new();
        let mut cols = Vec::new();
        for (c, arg) in atom.args.iter().enumerate() {
            match arg {
                Arg::Var(v) => {
                    key.push(env.get(v)?.clone());
                    cols.push(c);
                }
                Arg::Const(k) => {
                    key.push(CExpr::Const(*k));
                    cols.push(c);
                }
                // A guard's `where` column: never in a static atom.
                Arg::Wild | Arg::Cmp(..) => {}
            }
        }
        let spec = IndexSpec {
            rel: atom.rel,
            key: cols.iter().copied().take(HALF).collect(),
            val: cols.iter().copied().skip(HALF).collect(),
            consts: Vec::new(),
            eqs: Vec::new(),
        };
        let index = self.indexes.id(spec);
        self.indexes.probed.insert(index);
        Some(Check::Static {
            index,
            key: Emit::new(key),
            negated,
        })
    }

    /// Takes out of `remaining` the static atoms whose variables `env`
    /// binds, as checks: the operator that binds their last variable tests
    /// them (before its guards, which look up the state), instead of an
    /// operator of their own that would pass on every tuple to test it.
    fn absorb_bound(
        &mut self,
        remaining: &mut Vec<&Atom>,
        env: &FxHashMap<VarId, CExpr>,
    ) -> Vec<Check> {
        let mut checks = Vec::new();
        remaining.retain(|atom| {
            if self.in_plan(atom.rel) {
                return true;
            }
            match self.static_check(atom, env, false) {
                Some(check) => {
                    checks.push(check);
                    false
                }
                None => true,
            }
        });
        checks
    }

    /// The checks of a rule's guards, over the variables of `env`; `None`
    /// if a guard's variable is not bound there.
    fn guard_checks(
        &mut self,
        guards: &[&Atom],
        env: &FxHashMap<VarId, CExpr>,
    ) -> Option<Vec<Check>> {
        let mut checks = Vec::new();
        for atom in guards {
            let var = *self.plan.rel_var.get(&atom.rel)?;
            let mut cols = Vec::new();
            let mut key = Vec::new();
            let mut spread = None;
            let mut bound = None;
            for (c, arg) in atom.args.iter().enumerate() {
                match arg {
                    Arg::Var(v) => key.push(env.get(v)?.clone()),
                    Arg::Const(k) => key.push(CExpr::Const(*k)),
                    Arg::Wild => continue,
                    Arg::Cmp(op, v) => {
                        spread = Some(c);
                        bound = Some((*op, env.get(v)?.clone()));
                        continue;
                    }
                }
                cols.push(c);
            }
            let projection = (cols.len() < atom.args.len())
                .then(|| self.projection(ProjectionSpec { var, cols, spread }));
            let spec = GuardSpec { var, projection };
            let guard = match self.plan.guards.iter().position(|g| *g == spec) {
                Some(g) => g,
                None => {
                    self.plan.guards.push(spec);
                    self.plan.guards.len() - 1
                }
            };
            checks.push(Check::Unknown {
                guard,
                key: Emit::new(key),
                bound,
            });
        }
        Some(checks)
    }

    /// The number, among its variable's projections, of the one `spec`
    /// describes (registered if new).
    fn projection(&mut self, spec: ProjectionSpec) -> usize {
        let own: Vec<&ProjectionSpec> = self
            .plan
            .projections
            .iter()
            .filter(|p| p.var == spec.var)
            .collect();
        if let Some(n) = own.iter().position(|p| **p == spec) {
            return n;
        }
        let n = own.len();
        self.plan.projections.push(spec);
        n
    }

    /// Variables still needed after the current step.
    fn needed(
        &self,
        rule: &ERule,
        remaining: &[&Atom],
        joining: Option<&Atom>,
        cmps: &[&(Expr, CmpOp, Expr)],
        negs: &[&Atom],
    ) -> Vec<VarId> {
        let mut vs = Vec::new();
        for e in &rule.head_args {
            e.vars(&mut vs);
        }
        for a in remaining.iter().chain(joining.iter()).chain(negs.iter()) {
            crate::engine::ir::atom_vars(a, &mut vs);
        }
        for a in &rule.guards {
            crate::engine::ir::atom_vars(a, &mut vs);
        }
        for (a, _, b) in cmps {
            a.vars(&mut vs);
            b.vars(&mut vs);
        }
        vs.sort_unstable();
        vs.dedup();
        vs
    }

    fn emit_flat(&self, exprs: &[Expr], env: &FxHashMap<VarId, CExpr>) -> Option<Emit> {
        let mut slots = Vec::with_capacity(SLOTS);
        for e in exprs {
            slots.push(cexpr(e, env)?);
        }
        slots.resize(SLOTS, CExpr::Const(0));
        Some(Emit::new(slots))
    }

    /// A one-shot load of a static atom: its tuples, filtered by the atom's
    /// constants and repeated variables, in flat layout.
    fn static_load_spec(&self, atom: &Atom) -> (IndexSpec, Layout) {
        let arity = self.lowered.rels[atom.rel].arity;
        let mut spec = IndexSpec::flat(atom.rel, arity);
        let mut layout = [None; SLOTS];
        let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
        for (c, arg) in atom.args.iter().enumerate() {
            match arg {
                Arg::Const(v) => spec.consts.push((c, *v)),
                Arg::Wild | Arg::Cmp(..) => {}
                Arg::Var(v) => {
                    if let Some(&first) = seen.get(v) {
                        spec.eqs.push((first, c));
                    } else {
                        seen.insert(*v, c);
                        layout[c] = Some(*v);
                    }
                }
            }
        }
        (spec, layout)
    }

    /// The variable a rule of the current tier reads a changing relation
    /// from: the relation itself, or for a gated tier its copy.
    fn input_var(&mut self, rel: RelId) -> VarIdx {
        let base = self.plan.rel_var[&rel];
        let program_rel = self.lowered.rels[rel].origin == crate::engine::ir::RelOrigin::Program;
        if self.tier < FIRST_GATED_TIER || !program_rel {
            return base;
        }
        if let Some(&v) = self.copy_vars.get(&(rel, self.tier)) {
            return v;
        }
        let name = format!("tier{}:{}", self.tier, self.lowered.rels[rel].name);
        let v = self.new_var(&name);
        self.plan.copies.push(TierCopy {
            tier: self.tier,
            from: base,
            to: v,
        });
        self.copy_vars.insert((rel, self.tier), v);
        v
    }

    /// The variable holding a changing relation keyed for a join.
    fn index_var(&mut self, spec: IndexSpec) -> VarIdx {
        if let Some(&v) = self.index_vars.get(&(spec.clone(), self.tier)) {
            return v;
        }
        let from = self.input_var(spec.rel);
        if spec == IndexSpec::flat(spec.rel, self.lowered.rels[spec.rel].arity) {
            // The relation's own tuples are already keyed this way.
            return from;
        }
        let name = format!("index:{}", self.lowered.rels[spec.rel].name);
        let v = self.new_var(&name);
        let mut checks = Vec::new();
        for &(c, k) in &spec.consts {
            checks.push(Check::cmp(CExpr::Var(c as u8), CmpOp::Eq, CExpr::Const(k)));
        }
        for &(a, b) in &spec.eqs {
            checks.push(Check::Cmp(
                CExpr::Var(a as u8),
                CmpOp::Eq,
                CExpr::Var(b as u8),
            ));
        }
        let mut slots = vec![CExpr::Const(0); SLOTS];
        for (i, &c) in spec.key.iter().enumerate() {
            slots[i] = CExpr::Var(c as u8);
        }
        for (i, &c) in spec.val.iter().enumerate() {
            slots[HALF + i] = CExpr::Var(c as u8);
        }
        self.plan.ops.push(Op::Map {
            from,
            checks,
            emit: Emit::new(slots),
            to: Out::to_var(v),
        });
        self.index_vars.insert((spec, self.tier), v);
        v
    }
}

/// What [`atom_key`] finds: spec, key variables, new variables, extra
/// equalities.
type AtomKey = (
    IndexSpec,
    Vec<VarId>,
    Vec<Option<VarId>>,
    Vec<(usize, VarId)>,
);

/// How a chain joins `atom` given the variables `bound` so far: the index
/// spec (key columns: bound variables, first occurrence, at most four; value
/// columns: the new ones; the atom's constants and repeated variables), the
/// key's variables, the new variables by value slot (`None` for a bound
/// variable beyond the key's four slots), and those extra variables with
/// their columns, compared after the join. `None` if the atom binds more
/// new variables than a half holds.
fn atom_key(atom: &Atom, bound: &[VarId]) -> Option<AtomKey> {
    // Key: bound variables (first occurrence) and the atom's shape.
    let mut key_cols = Vec::new();
    let mut key_vars = Vec::new();
    let mut val_cols = Vec::new();
    let mut val_vars = Vec::new();
    let mut consts = Vec::new();
    let mut eqs = Vec::new();
    // Bound variables beyond the key's four slots are compared after the join.
    let mut extra_eq = Vec::new();
    let mut seen: FxHashMap<VarId, usize> = FxHashMap::default();
    for (c, arg) in atom.args.iter().enumerate() {
        match arg {
            Arg::Const(v) => consts.push((c, *v)),
            // A guard's `where` column: never in a joined atom.
            Arg::Wild | Arg::Cmp(..) => {}
            Arg::Var(v) => {
                if let Some(&first) = seen.get(v) {
                    eqs.push((first, c));
                    continue;
                }
                seen.insert(*v, c);
                if bound.contains(v) {
                    if key_cols.len() < HALF {
                        key_cols.push(c);
                        key_vars.push(*v);
                    } else {
                        extra_eq.push((c, *v));
                    }
                } else {
                    val_cols.push(c);
                    val_vars.push(Some(*v));
                }
            }
        }
    }
    for &(c, _) in &extra_eq {
        val_cols.push(c);
        val_vars.push(None);
    }
    if val_cols.len() > HALF {
        return None;
    }
    let spec = IndexSpec {
        rel: atom.rel,
        key: key_cols,
        val: val_cols,
        consts,
        eqs,
    };
    Some((spec, key_vars, val_vars, extra_eq))
}
