//! Warnings: what the language allows but a rule's author probably did not
//! mean. Two today:
//!
//! - a named variable that appears only once in its rule, which is most
//!   often a misspelling of another (`Cx` for `C`) and otherwise says
//!   nothing `_` would not. (Inside a count, a variable named once is what
//!   is counted, `count : { confined(U, T, D) }`: named for the reader, not
//!   a slip; nor is one that a `.rating`'s `when` reads.)
//! - a cell or unit constant outside a 9x9 grid (`r10c1`, `box10`). Rules
//!   are written for every grid size, so it is no error, but on the
//!   commonest puzzles nothing matches it; a run says so again for its own
//!   grid sizes (a cell beyond 25x25, `r30c1`, the checker rejects).

use super::ast::{AggFunc, Expr, Literal, Rule, Span};
use super::diag::Diagnostic;
use super::program::{GridConstant, GridName};
use super::symbols::MAX_SIDE;
use std::collections::BTreeMap;

/// The warnings about one rule.
pub fn lint_rule(rule: &Rule) -> Vec<Diagnostic> {
    let mut all: Vec<Use> = Vec::new();
    for e in &rule.head.args {
        e.visit_vars(&mut |n, s| all.push((n, s, false)));
    }
    literal_vars(&rule.body, false, &mut all);
    let mut uses: BTreeMap<&str, Vec<(Span, bool)>> = BTreeMap::new();
    for (name, span, counted) in all {
        uses.entry(name).or_default().push((span, counted));
    }
    // A variable that a rating's condition reads is named for it.
    let mut rated: Vec<Use> = Vec::new();
    for line in &rule.rating {
        literal_vars(&line.when, false, &mut rated);
    }
    uses.into_iter()
        .filter(|(name, spans)| spans.len() == 1 && !spans[0].1 && !name.starts_with('_'))
        .filter(|(name, _)| !rated.iter().any(|(n, _, _)| n == name))
        .map(|(name, spans)| {
            Diagnostic::new(
                spans[0].0,
                format!("variable `{name}` appears only once in this rule"),
            )
            .label("used once")
            .help(format!(
                "if it is a misspelling, correct it; if any value will do, write `_` (or `_{name}`)"
            ))
        })
        .collect()
}

/// The side of the grid that `check` measures cell and unit constants
/// against: the commonest size, and the one most rules are written for.
pub const USUAL_SIDE: usize = 9;

/// The warning about a cell or unit constant outside a 9x9 grid, if it is.
pub fn lint_grid_constant(constant: &GridConstant) -> Option<Diagnostic> {
    let n = USUAL_SIDE;
    if !constant.outside(n) {
        return None;
    }
    // The smallest grid it lies in: sides are squares (16, 25).
    let larger = constant.largest();
    let side = (1..=MAX_SIDE as u64 + 1)
        .map(|b| b * b)
        .find(|&s| s >= larger)
        .map_or(usize::MAX, |s| s as usize);
    let only = match side {
        s if s > MAX_SIDE => {
            format!("no grid sudolog handles has it (they go up to {MAX_SIDE}x{MAX_SIDE})")
        }
        MAX_SIDE => format!("this is right only for {MAX_SIDE}x{MAX_SIDE} puzzles"),
        s => format!("this is right only for {s}x{s} or larger puzzles"),
    };
    let (label, help) = match constant.what {
        GridName::Cell { .. } => (
            format!("beyond row or column {n}"),
            format!("rows and columns run from 1 to the grid's size; {only}"),
        ),
        GridName::Unit { kind, .. } => (
            format!("beyond {kind} {n}"),
            format!("rows, columns and boxes are numbered from 1 to the grid's size; {only}"),
        ),
    };
    Some(
        Diagnostic::new(
            constant.span,
            format!(
                "`{}` lies outside a {n}x{n} grid: no {} of a {n}x{n} puzzle matches it",
                constant.name(),
                constant.kind()
            ),
        )
        .label(label)
        .help(help),
    )
}

/// A variable's name, where it is named, and whether inside a count.
type Use<'a> = (&'a str, Span, bool);

/// Every variable a body names, with where, aggregates and guards included
/// (`counted`: the body is a count's or a set's).
fn literal_vars<'a>(body: &'a [Literal], counted: bool, out: &mut Vec<Use<'a>>) {
    let push = |e: &'a Expr, out: &mut Vec<Use<'a>>| {
        e.visit_vars(&mut |n, s| out.push((n, s, counted)));
    };
    for lit in body {
        match lit {
            Literal::Atom(a) | Literal::Neg(a, _) => {
                for e in &a.args {
                    push(e, out);
                }
            }
            Literal::Guard(a, cond, _) => {
                for e in &a.args {
                    push(e, out);
                }
                if let Some(w) = cond {
                    push(&w.left, out);
                    push(&w.right, out);
                }
            }
            Literal::Cmp(a, _, b, _) => {
                push(a, out);
                push(b, out);
            }
            Literal::Aggregate {
                func, body, bound, ..
            } => {
                if let AggFunc::Set { elem, span } | AggFunc::Fold { elem, span, .. } = func {
                    out.push((elem.as_str(), *span, true));
                }
                literal_vars(body, true, out);
                push(bound, out);
            }
        }
    }
}
