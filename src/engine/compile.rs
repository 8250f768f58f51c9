//! Compiling a checked program into an [`Engine`], once per rule set:
//! lower the counts, order the static relations into strata and plan each,
//! plan the fixpoint over the state, decide which of its operators are
//! memoised, and find the state relations and numbered seeds. `Engine::new`
//! reads as that pipeline; each step is a function below. Apart from
//! running (`statics`, `branch`) because nothing here depends on a puzzle.

use super::ir::{self, Lowered};
use super::plan::{self, Indexes, Plan, PlanError};
use super::{DEFAULT_FACT_LIMIT, Engine, StaticStage};
use crate::lang::diag::{Diagnostic, Diagnostics};
use crate::lang::graph::Dependencies;
use crate::lang::program::{Builtin, Program, RelId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

impl Engine {
    /// Compiles a checked program. When some of its techniques assume one
    /// solution (`.assumes unique`), it also compiles the same program
    /// without their rules, for counting solutions ([`Engine::counting`]).
    pub fn new(program: Program) -> Result<Engine, Diagnostics> {
        let program = Arc::new(program);
        let off = program.uniqueness_rules();
        let counting = if off.is_empty() {
            None
        } else {
            let keep = |r: &crate::lang::program::Rule| !off.contains(&r.id);
            Some(Box::new(Engine::compile(Arc::clone(&program), &keep)?))
        };
        // Of those, the rules whose facts rest on the assumption: the ones
        // that conclude the state (their helpers hold whatever the count).
        let concludes = |id: &usize| {
            let head = program.rules[*id].head_rel;
            (program.relations[head].builtin).is_some_and(Builtin::dynamic)
        };
        let assuming = off.iter().copied().filter(concludes).collect();
        let mut engine = Engine::compile(program, &|_| true)?;
        engine.counting = counting;
        engine.assuming = assuming;
        Ok(engine)
    }

    /// Compiles the rules of `program` that `keep` says: the others are
    /// left out of evaluation but keep their ids, so that an outcome of
    /// either engine reads against the one program.
    fn compile(
        program: Arc<Program>,
        keep: &dyn Fn(&crate::lang::program::Rule) -> bool,
    ) -> Result<Engine, Diagnostics> {
        let lowered = ir::lower(&program, keep);
        let mut indexes = Indexes::default();
        let to_diag = |e: PlanError| plan_error(&program, e);
        let stages = static_stages(&program, &lowered, &mut indexes).map_err(to_diag)?;
        let mut dynamic = fixpoint_plan(&lowered, &mut indexes).map_err(to_diag)?;
        mark_memo(&program, &lowered, &indexes, &mut dynamic);
        let (placed, eliminated, contradiction) =
            state_vars(&program, &dynamic).map_err(to_diag)?;
        let numbered = numbered_seeds(&lowered);
        let plans = stages
            .iter()
            .map(|s| &s.plan)
            .chain(std::iter::once(&dynamic));
        let computed = super::computed::computed_indexes(
            program.builtin(Builtin::Covers),
            program.builtin(Builtin::InSet),
            &indexes.specs,
            plans,
        );
        Ok(Engine {
            computed,
            profile: None,
            numbered,
            program,
            lowered,
            indexes,
            stages,
            dynamic,
            geometry_cache: Default::default(),
            region_cache: Default::default(),
            inspected_sets: Default::default(),
            placed,
            eliminated,
            contradiction,
            provenance: true,
            fact_limit: DEFAULT_FACT_LIMIT,
            counting: None,
            assuming: FxHashSet::default(),
        })
    }
}

/// A rule the planner cannot plan, as a diagnostic at the rule.
fn plan_error(program: &Program, e: PlanError) -> Diagnostics {
    Diagnostics {
        items: vec![
            Diagnostic::new(
                e.rule
                    .and_then(|r| program.rules.get(r))
                    .map(|r| r.span)
                    .unwrap_or_default(),
                format!("this rule cannot be planned: {}", e.message),
            )
            .help("split the rule into smaller rules through a relation of your own"),
        ],
        sources: program.sources.clone(),
    }
}

/// The static strata over engine relations (synthetic ones included), in
/// evaluation order, each planned.
fn static_stages(
    program: &Program,
    lowered: &Lowered,
    indexes: &mut Indexes,
) -> Result<Vec<StaticStage>, PlanError> {
    let has_base = |r: RelId| {
        program
            .relations
            .get(r)
            .is_some_and(|rel| rel.builtin.is_some_and(Builtin::extended_by_rules))
    };
    let n = lowered.rels.len();
    let mut deps = Dependencies::new(n);
    let mut defined = vec![false; n];
    for r in &lowered.rules {
        if lowered.rels[r.head].dynamic {
            continue;
        }
        defined[r.head] = true;
        for a in &r.atoms {
            deps.add(a.rel, r.head, false, r.from_rule);
        }
        for a in &r.negs {
            deps.add(a.rel, r.head, true, r.from_rule);
        }
    }
    for a in &lowered.aggs {
        if lowered.rels[a.reached].dynamic {
            continue;
        }
        defined[a.reached] = true;
        for at in &a.body.atoms {
            deps.add(at.rel, a.reached, false, a.body.from_rule);
        }
        for at in &a.body.negs {
            deps.add(at.rel, a.reached, true, a.body.from_rule);
        }
    }
    // The checker ruled out cycles through negation; one here would be
    // lowering's.
    let strata = deps.stratify().map_err(|cycle| PlanError {
        rule: Some(cycle.rule),
        message: format!("`{}` is negated in a cycle", lowered.rels[cycle.body].name),
    })?;
    let mut stages = Vec::new();
    for scc in strata {
        let members: Vec<RelId> = scc
            .into_iter()
            .filter(|&r| !lowered.rels[r].dynamic && defined[r])
            .collect();
        if members.is_empty() {
            continue;
        }
        let plan = plan::compile(lowered, &members, indexes, &has_base)?;
        let per_puzzle = members.iter().any(|&r| lowered.rels[r].per_puzzle);
        stages.push(StaticStage {
            plan,
            members,
            per_puzzle,
        });
    }
    Ok(stages)
}

/// The plan of the fixpoint: every relation that depends on the state.
fn fixpoint_plan(lowered: &Lowered, indexes: &mut Indexes) -> Result<Plan, PlanError> {
    let n = lowered.rels.len();
    let dynamic_members: Vec<RelId> = (0..n).filter(|&r| lowered.rels[r].dynamic).collect();
    plan::compile(lowered, &dynamic_members, indexes, &|_| false)
}

/// Marks the fixpoint's operators whose outputs may be memoised (see
/// [`Plan::memo`]), finds its count chains, and takes the memo back from
/// single operators where it costs memory for no gain.
fn mark_memo(program: &Program, lowered: &Lowered, indexes: &Indexes, dynamic: &mut Plan) {
    let geometric = |index: plan::IndexId| !lowered.rels[indexes.specs[index].rel].per_puzzle;
    let from_state = state_fed_vars(
        dynamic,
        &[
            program.builtin(Builtin::Placed),
            program.builtin(Builtin::Eliminated),
        ],
    );
    dynamic.memo = dynamic
        .ops
        .iter()
        .map(|op| match op {
            plan::Op::Extend { index, checks, .. } => {
                geometric(*index)
                    && checks.iter().all(|c| match c {
                        plan::Check::Static { index, .. } => geometric(*index),
                        // A guard reads the state: its answer changes.
                        plan::Check::Unknown { .. } => false,
                        _ => true,
                    })
            }
            _ => false,
        })
        .collect();
    dynamic.find_count_chains();
    // A count chain's memo is compact (counter rows), so it pays even
    // for inputs that rarely repeat; a single operator's memo stores
    // whole tuples. Above locked candidates, an operator reading the
    // techniques' own helper facts (groups over digit sets, links) sees
    // inputs from a large domain: its memo costs memory for no gain.
    for (i, op) in dynamic.ops.iter().enumerate() {
        if let plan::Op::Extend { source, .. } = op
            && dynamic.chain_role[i] == plan::ChainRole::Alone
            && dynamic
                .op_tiers
                .get(i)
                .is_some_and(|&t| t > plan::FIRST_GATED_TIER)
            && !from_state[*source]
        {
            dynamic.memo[i] = false;
        }
    }
}

/// The fixpoint's variables of `placed`, `eliminated` and `contradiction`.
fn state_vars(program: &Program, dynamic: &Plan) -> Result<(usize, usize, usize), PlanError> {
    let var_of = |b: Builtin| dynamic.rel_var.get(&program.builtin(b)).copied();
    let (Some(placed), Some(eliminated), Some(contradiction)) = (
        var_of(Builtin::Placed),
        var_of(Builtin::Eliminated),
        var_of(Builtin::Contradiction),
    ) else {
        return Err(PlanError {
            rule: None,
            message: "the state relations are missing from the fixpoint".into(),
        });
    };
    Ok((placed, eliminated, contradiction))
}

/// Seeds with a row-number column, with the column's position: the
/// numbered seeds of counts, and the parts of product seeds.
fn numbered_seeds(lowered: &Lowered) -> FxHashMap<RelId, usize> {
    let parts = lowered
        .products
        .iter()
        .flat_map(|p| &p.parts)
        .map(|part| (part.rel, part.key_pos.len()));
    lowered
        .aggs
        .iter()
        .filter(|a| a.row.is_some())
        .map(|a| (a.seed, a.key.len()))
        .chain(parts)
        .collect()
}

/// The variables of a plan whose tuples come from `placed` or `eliminated`
/// alone (the relations, their tier copies, and what operators compute from
/// them): their tuples range over cells and digits, so an operator reading
/// them sees the same few inputs again in every round and puzzle, which is
/// what a memo of whole output tuples needs. An operator reading a
/// technique's helper facts (reached groups of the counts over digit sets,
/// say) sees inputs from a large domain: memoising its tuples took 20 to 30
/// MiB on 9x9 with every tier, for no gain in time.
fn state_fed_vars(plan: &Plan, state: &[RelId]) -> Vec<bool> {
    let mut fed = vec![false; plan.vars.len()];
    for rel in state {
        if let Some(&v) = plan.rel_var.get(rel) {
            fed[v] = true;
        }
    }
    for c in &plan.copies {
        fed[c.to] = fed[c.from];
    }
    for op in &plan.ops {
        let (source, to) = match op {
            plan::Op::Extend { source, to, .. } => (*source, to),
            plan::Op::Map { from, to, .. } => (*from, to),
            _ => continue,
        };
        if to.count.is_none() && !plan.rel_var.values().any(|&v| v == to.var) {
            fed[to.var] = fed[source];
        }
    }
    fed
}
