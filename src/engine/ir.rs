//! Lowering a checked program into what the engine evaluates: conjunctive
//! rules over relations, and threshold counts turned into three relations
//! each (DESIGN.md, "threshold counts are incremental"):
//!
//! - `seed` holds the groups a count is asked about (the rule's other atoms
//!   projected on the variables the count shares with them);
//! - the count's body, joined with `seed`, yields distinct `(group, local)`
//!   tuples, each of which bumps its group's counter once;
//! - `reached` receives a group when its counter reaches the bound, and the
//!   rule reads `reached` like any other atom.

use super::tuple::SLOTS;
use crate::lang::program::body_relations;
use crate::lang::program::{Arg, Atom, Expr, Literal, Program, RelId, VarId};
use crate::lang::value::{CmpOp, Fold};

/// What an engine relation stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelOrigin {
    /// A relation of the program (same id).
    Program,
    /// The groups of aggregate `n`.
    Seed(usize),
    /// The groups of aggregate `n` whose count reached the bound.
    Reached(usize),
}

/// A relation as the engine sees it.
#[derive(Clone, Debug)]
pub struct ERel {
    /// Name, for debugging and reports.
    pub name: String,
    /// Number of columns.
    pub arity: usize,
    /// Lives in the fixpoint (depends on the state).
    pub dynamic: bool,
    /// Depends on the givens.
    pub per_puzzle: bool,
    /// Where it comes from.
    pub origin: RelOrigin,
}

/// A conjunctive rule: positive atoms, negations of static relations and
/// comparisons (an `=` with one unbound variable assigns it).
#[derive(Clone, Debug)]
pub struct ERule {
    /// The program rule it comes from (for provenance); `None` for the
    /// synthetic rules that fill seeds.
    pub source_rule: Option<usize>,
    /// Head relation (engine id).
    pub head: RelId,
    /// Head columns.
    pub head_args: Vec<Expr>,
    /// Positive atoms.
    pub atoms: Vec<Atom>,
    /// Negated atoms.
    pub negs: Vec<Atom>,
    /// Guards (`unless atom`): atoms of the state that must not be known
    /// when the rule's last operator derives the head.
    pub guards: Vec<Atom>,
    /// Guards that only prune: checked where their variables are first
    /// bound and nowhere else. A count's body takes those of its rule's
    /// guards that read only the group's variables: a group whose guard is
    /// known can never derive anything (the state only grows), so its
    /// counting may stop, and the rule still checks its guards itself.
    pub prunes: Vec<Atom>,
    /// Comparisons and assignments.
    pub cmps: Vec<(Expr, CmpOp, Expr)>,
    /// Number of variables (ids are the program rule's).
    pub nvars: usize,
    /// The tier of the program rule it comes from.
    pub tier: u32,
    /// The program rule it was made from (for error messages).
    pub from_rule: usize,
}

/// A count, evaluated incrementally.
#[derive(Clone, Debug)]
pub struct AggDef {
    /// Relation of the groups asked about; its columns are `key`.
    pub seed: RelId,
    /// The body: the seed atom first, then the count's literals, producing
    /// `key ++ local`.
    pub body: ERule,
    /// The group variables (seed columns).
    pub key: Vec<VarId>,
    /// The counted variables.
    pub local: Vec<VarId>,
    /// For a static seed: the variable holding the group's row number in
    /// the seed (its last column, numbered when the seed is complete), so
    /// that counters are a plain array indexed by it.
    pub row: Option<VarId>,
    /// The count is bound to a variable (`V = count : {...}`): `reached`
    /// gets the count as an extra last column.
    pub value: bool,
    /// A set (`V = set X : {...}`): the position of `X` among `local`;
    /// `reached` gets the set as its last column.
    pub elem: Option<usize>,
    /// A set, a `sum` of digits or a `max` over the state: it grows, and
    /// `reached` gets the group again each time it does (with the larger
    /// value), rather than once complete.
    pub grows: bool,
    /// `sum`, `min` or `max` of the `elem` values: `reached` gets the group
    /// with the folded value, once complete (over static relations) or
    /// each time it grows (over the state).
    pub fold: Option<Fold>,
    /// The comparison; `>=`/`>` are incremental, others wait for the
    /// counts to be complete (only over static relations).
    pub op: CmpOp,
    /// The bound, over `key` variables.
    pub bound: Expr,
    /// Relation receiving groups that satisfy the comparison.
    pub reached: RelId,
}

/// The lowered program.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// Program relations (same ids) then synthetic ones.
    pub rels: Vec<ERel>,
    /// Conjunctive rules.
    pub rules: Vec<ERule>,
    /// Counts.
    pub aggs: Vec<AggDef>,
    /// Seeds kept as products of their independent parts, by seed.
    pub products: Vec<ProductDef>,
}

/// A static seed that is never stored: its rule's atoms fall into parts
/// that share no variable (`unit(U), digit_set(S, K), K >= 2`: units and
/// digit sets), so its groups are every combination of the parts' tuples,
/// and a group's row number is the sum of its parts' row numbers, each
/// part numbered with the stride of the parts after it. Stored, such a
/// seed is the product's size in tuples (1.5 million groups of units and
/// digit sets on 25x25, per count); as parts it is their sum.
#[derive(Clone, Debug)]
pub struct ProductDef {
    /// The seed relation (it has no rule and no tuples).
    pub seed: RelId,
    /// The parts, in row-number order (the last varies fastest).
    pub parts: Vec<ProductPart>,
}

/// One part of a product seed: a static relation of the part's group
/// variables and a row number.
#[derive(Clone, Debug)]
pub struct ProductPart {
    /// The part's relation.
    pub rel: RelId,
    /// For each of its columns but the row: the position in the seed's key.
    pub key_pos: Vec<usize>,
}

/// Lowers a checked program.
pub fn lower(program: &Program, keep: &dyn Fn(&crate::lang::program::Rule) -> bool) -> Lowered {
    let mut out = Lowered {
        rels: program
            .relations
            .iter()
            .map(|r| ERel {
                name: r.name.clone(),
                arity: r.arity(),
                dynamic: r.dynamic,
                per_puzzle: r.per_puzzle,
                origin: RelOrigin::Program,
            })
            .collect(),
        rules: Vec::new(),
        aggs: Vec::new(),
        products: Vec::new(),
    };
    for rule in program.rules.iter().filter(|r| keep(r)) {
        lower_rule(rule, &mut out);
    }
    out
}

fn lower_rule(rule: &crate::lang::program::Rule, out: &mut Lowered) {
    let nvars = rule.var_names.len();
    let mut atoms = Vec::new();
    let mut negs = Vec::new();
    let mut guards = Vec::new();
    let mut cmps = Vec::new();
    let mut counts = Vec::new();
    for lit in &rule.body {
        match lit {
            Literal::Atom(a) => atoms.push(a.clone()),
            Literal::Neg(a) => negs.push(a.clone()),
            Literal::Guard(a) => guards.push(a.clone()),
            Literal::Cmp(a, op, b, _) => cmps.push((a.clone(), *op, b.clone())),
            Literal::Count(agg) => counts.push(agg),
        }
    }
    let outer_vars = {
        let mut vs = Vec::new();
        for a in &atoms {
            atom_vars(a, &mut vs);
        }
        for (a, _, b) in &cmps {
            a.vars(&mut vs);
            b.vars(&mut vs);
        }
        vs.sort_unstable();
        vs.dedup();
        vs
    };
    let mut main_atoms = Vec::new();
    let mut covered = false;
    // Value counts first: a later count may read one's value (in its bound
    // or group), and then takes its `reached` relation into its seed.
    counts.sort_by_key(|agg| agg.value.is_none());
    let mut values: Vec<(VarId, Atom)> = Vec::new();
    for agg in counts {
        // The group's variables that the count's own atoms bind come first,
        // then those it only compares or negates (the ones each counted
        // tuple fans out over, such as the digit set of `fits`): groups
        // sharing the first are then numbered together, so the counters one
        // counted tuple bumps lie close together in memory (the counts over
        // digit sets bump hundreds each: 5% off the whole library's time).
        let mut in_atoms = Vec::new();
        for lit in &agg.body {
            if let Literal::Atom(a) = lit {
                atom_vars(a, &mut in_atoms);
            }
        }
        let (mut key, fanned): (Vec<VarId>, Vec<VarId>) =
            agg.group.iter().partition(|v| in_atoms.contains(v));
        key.extend(fanned);
        let mut bvars = Vec::new();
        if agg.value.is_none() {
            agg.bound.vars(&mut bvars);
        }
        for v in bvars {
            if !key.contains(&v) {
                key.push(v);
            }
        }
        let atoms: Vec<Atom> = atoms
            .iter()
            .cloned()
            .chain(
                values
                    .iter()
                    .filter(|(v, _)| key.contains(v))
                    .map(|(_, a)| a.clone()),
            )
            .collect();
        let outer_dynamic = atoms.iter().any(|a| out.rels[a.rel].dynamic);
        // A negated atom counts too: the seed keeps only the groups where it
        // does not hold, so a negated `given` makes the seed the puzzle's.
        let outer_per_puzzle = atoms
            .iter()
            .chain(&negs)
            .any(|a| out.rels[a.rel].per_puzzle);
        // A static seed gets a row-number column when the tuples still fit:
        // its groups' counters (or sets) are then an array.
        // A fold's counters are its values, kept by group (never an array).
        let row = (!outer_dynamic && agg.fold.is_none() && key.len() + agg.local.len() < SLOTS)
            .then_some(nvars);
        let agg_id = out.aggs.len();
        let seed = out.rels.len();
        out.rels.push(ERel {
            name: format!("seed#{agg_id}"),
            arity: key.len() + usize::from(row.is_some()),
            dynamic: outer_dynamic,
            per_puzzle: outer_per_puzzle,
            origin: RelOrigin::Seed(agg_id),
        });
        let mut deps = Vec::new();
        body_relations(&agg.body, &mut deps);
        let body_dynamic = deps.iter().any(|(r, _)| out.rels[*r].dynamic);
        let seed_cmps = decidable(&atoms, &cmps);
        // Only the fixpoint's counts: their seeds are complete before it
        // starts, when the products are put together.
        let parts = if row.is_some() && !outer_per_puzzle && body_dynamic {
            independent_parts(&atoms, &negs, &seed_cmps)
        } else {
            None
        };
        let mut part_atoms = Vec::new();
        if let Some(parts) = &parts {
            let mut product = ProductDef {
                seed,
                parts: Vec::new(),
            };
            for (i, part) in parts.iter().enumerate() {
                let part_key: Vec<VarId> = key
                    .iter()
                    .copied()
                    .filter(|v| part.vars.contains(v))
                    .collect();
                let rel = out.rels.len();
                out.rels.push(ERel {
                    name: format!("seed#{agg_id}.{i}"),
                    arity: part_key.len() + 1,
                    dynamic: false,
                    per_puzzle: false,
                    origin: RelOrigin::Seed(agg_id),
                });
                let mut head: Vec<Expr> = part_key.iter().map(|&v| Expr::Var(v)).collect();
                head.push(Expr::Const(0));
                out.rules.push(ERule {
                    source_rule: None,
                    head: rel,
                    head_args: head,
                    atoms: part.atoms.clone(),
                    negs: part.negs.clone(),
                    guards: Vec::new(),
                    prunes: Vec::new(),
                    cmps: part.cmps.clone(),
                    nvars,
                    tier: rule.tier,
                    from_rule: rule.id,
                });
                // The part's row number, a variable of the count's body.
                let row_var = nvars + 1 + i;
                part_atoms.push(Atom {
                    rel,
                    args: part_key
                        .iter()
                        .chain(std::iter::once(&row_var))
                        .map(|&v| Arg::Var(v))
                        .collect(),
                    span: agg.span,
                });
                product.parts.push(ProductPart {
                    rel,
                    key_pos: part_key
                        .iter()
                        .map(|v| key.iter().position(|k| k == v).unwrap_or_default())
                        .collect(),
                });
            }
            out.products.push(product);
        }
        let mut seed_head: Vec<Expr> = key.iter().map(|&v| Expr::Var(v)).collect();
        if row.is_some() {
            // Numbered after the seed is computed.
            seed_head.push(Expr::Const(0));
        }
        if parts.is_none() {
            out.rules.push(ERule {
                source_rule: None,
                head: seed,
                head_args: seed_head,
                atoms: atoms.clone(),
                negs: negs.clone(),
                // A seed that changes with the state is filtered by the guards
                // too, so that its groups (and their counting) stay few; a
                // static seed is computed before any state exists, and the
                // rule's own guards filter what its groups derive.
                guards: if outer_dynamic {
                    guards.clone()
                } else {
                    Vec::new()
                },
                prunes: Vec::new(),
                cmps: seed_cmps,
                nvars,
                tier: rule.tier,
                from_rule: rule.id,
            });
        }
        let seed_args: Vec<Arg> = key.iter().chain(row.iter()).map(|&v| Arg::Var(v)).collect();
        let mut head_args: Vec<Expr> = key
            .iter()
            .chain(agg.local.iter())
            .map(|&v| Expr::Var(v))
            .collect();
        let seed_atoms = if parts.is_some() {
            // The group's row: the sum of its parts' (strided) rows.
            let rows = (0..part_atoms.len()).map(|i| Expr::Var(nvars + 1 + i));
            head_args.extend(rows.reduce(|a, b| Expr::Add(Box::new(a), Box::new(b))));
            part_atoms
        } else {
            head_args.extend(row.iter().map(|&v| Expr::Var(v)));
            vec![Atom {
                rel: seed,
                args: seed_args,
                span: agg.span,
            }]
        };
        let mut inner = ERule {
            source_rule: None,
            head: usize::MAX,
            head_args,
            atoms: seed_atoms,
            negs: Vec::new(),
            guards: Vec::new(),
            prunes: guards
                .iter()
                .filter(|g| {
                    let mut vs = Vec::new();
                    atom_vars(g, &mut vs);
                    vs.iter().all(|v| key.contains(v))
                })
                .cloned()
                .collect(),
            cmps: Vec::new(),
            nvars: nvars + 1 + parts.as_ref().map_or(0, Vec::len),
            tier: rule.tier,
            from_rule: rule.id,
        };
        for lit in &agg.body {
            match lit {
                Literal::Atom(a) => inner.atoms.push(a.clone()),
                Literal::Neg(a) => inner.negs.push(a.clone()),
                Literal::Cmp(a, op, b, _) => inner.cmps.push((a.clone(), *op, b.clone())),
                // Rejected by the checker.
                Literal::Count(_) | Literal::Guard(_) => {}
            }
        }
        let reached = out.rels.len();
        out.rels.push(ERel {
            name: format!("reached#{agg_id}"),
            arity: key.len() + usize::from(agg.value.is_some()),
            dynamic: outer_dynamic || deps.iter().any(|(r, _)| out.rels[*r].dynamic),
            per_puzzle: outer_per_puzzle || deps.iter().any(|(r, _)| out.rels[*r].per_puzzle),
            origin: RelOrigin::Reached(agg_id),
        });
        if outer_vars.iter().all(|v| key.contains(v)) {
            // The seed already holds every binding of the other atoms.
            covered = true;
        }
        let reached_atom = Atom {
            rel: reached,
            args: key
                .iter()
                .chain(agg.value.iter())
                .map(|&v| Arg::Var(v))
                .collect(),
            span: agg.span,
        };
        if let Some(v) = agg.value {
            values.push((v, reached_atom.clone()));
        }
        main_atoms.push(reached_atom);
        out.aggs.push(AggDef {
            seed,
            body: inner,
            key,
            local: agg.local.clone(),
            row,
            value: agg.value.is_some(),
            elem: agg
                .elem
                .and_then(|e| agg.local.iter().position(|&v| v == e)),
            grows: agg.elem.is_some() && body_dynamic,
            fold: agg.fold,
            op: agg.op,
            bound: agg.bound.clone(),
            reached,
        });
    }
    let single_count = main_atoms.len() == 1;
    if !(covered && single_count) {
        main_atoms.extend(atoms);
    } else {
        negs.clear();
        cmps.clear();
    }
    out.rules.push(ERule {
        source_rule: Some(rule.id),
        head: rule.head_rel,
        head_args: rule.head.clone(),
        atoms: main_atoms,
        negs,
        guards,
        prunes: Vec::new(),
        cmps,
        nvars,
        tier: rule.tier,
        from_rule: rule.id,
    });
}

/// The literals of one independent part of a seed's rule.
struct SeedPart {
    atoms: Vec<Atom>,
    negs: Vec<Atom>,
    cmps: Vec<(Expr, CmpOp, Expr)>,
    vars: Vec<VarId>,
}

/// Splits a seed's rule into parts that share no variable (literals
/// without variables join the first part), or `None` if it has only one.
fn independent_parts(
    atoms: &[Atom],
    negs: &[Atom],
    cmps: &[(Expr, CmpOp, Expr)],
) -> Option<Vec<SeedPart>> {
    let lit_vars = |a: &Atom| {
        let mut vs = Vec::new();
        atom_vars(a, &mut vs);
        vs
    };
    let cmp_vars = |(a, _, b): &(Expr, CmpOp, Expr)| {
        let mut vs = Vec::new();
        a.vars(&mut vs);
        b.vars(&mut vs);
        vs
    };
    let groups: Vec<Vec<VarId>> = atoms
        .iter()
        .chain(negs)
        .map(lit_vars)
        .chain(cmps.iter().map(cmp_vars))
        .collect();
    // Merge the variable groups that overlap, until none do.
    let mut parts: Vec<Vec<VarId>> = Vec::new();
    for g in groups.into_iter().filter(|g| !g.is_empty()) {
        let mut merged = g;
        parts.retain(|p| {
            if p.iter().any(|v| merged.contains(v)) {
                merged.extend_from_slice(p);
                false
            } else {
                true
            }
        });
        merged.sort_unstable();
        merged.dedup();
        parts.push(merged);
    }
    if parts.len() < 2 {
        return None;
    }
    let part_of = |vs: &[VarId]| {
        vs.first()
            .and_then(|v| parts.iter().position(|p| p.contains(v)))
            .unwrap_or(0)
    };
    let mut out: Vec<SeedPart> = parts
        .iter()
        .map(|vars| SeedPart {
            atoms: Vec::new(),
            negs: Vec::new(),
            cmps: Vec::new(),
            vars: vars.clone(),
        })
        .collect();
    for a in atoms {
        out[part_of(&lit_vars(a))].atoms.push(a.clone());
    }
    for a in negs {
        out[part_of(&lit_vars(a))].negs.push(a.clone());
    }
    for c in cmps {
        out[part_of(&cmp_vars(c))].cmps.push(c.clone());
    }
    // A part must bind its own variables: one of negations and
    // comparisons alone cannot be computed.
    if out.iter().any(|p| p.atoms.is_empty()) {
        return None;
    }
    Some(out)
}

/// The comparisons that the atoms' variables decide (with the assignments
/// they make possible): a seed leaves out those that need a count's value.
fn decidable(atoms: &[Atom], cmps: &[(Expr, CmpOp, Expr)]) -> Vec<(Expr, CmpOp, Expr)> {
    let mut bound = Vec::new();
    for a in atoms {
        atom_vars(a, &mut bound);
    }
    let mut kept = vec![false; cmps.len()];
    loop {
        let mut changed = false;
        for (i, (a, op, b)) in cmps.iter().enumerate() {
            if kept[i] {
                continue;
            }
            let (mut va, mut vb) = (Vec::new(), Vec::new());
            a.vars(&mut va);
            b.vars(&mut vb);
            let all = |vs: &[VarId], bound: &[VarId]| vs.iter().all(|v| bound.contains(v));
            let assigns = |x: &Expr, other: &[VarId], bound: &[VarId]| match x {
                Expr::Var(v) if !bound.contains(v) && all(other, bound) => Some(*v),
                _ => None,
            };
            if all(&va, &bound) && all(&vb, &bound) {
                kept[i] = true;
                changed = true;
            } else if *op == CmpOp::Eq
                && let Some(v) = assigns(a, &vb, &bound).or_else(|| assigns(b, &va, &bound))
            {
                bound.push(v);
                kept[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    cmps.iter()
        .zip(kept)
        .filter(|(_, k)| *k)
        .map(|(c, _)| c.clone())
        .collect()
}

/// Appends the variables an atom binds.
pub fn atom_vars(a: &Atom, out: &mut Vec<VarId>) {
    out.extend(a.args.iter().filter_map(Arg::var));
}
