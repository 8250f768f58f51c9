//! The checker: turns parsed modules into a [`Program`], or explains every
//! problem it finds. One pass per concern, one file each, in this order
//! ([`check`]):
//!
//! 1. `declare`: the relation table, built-ins then every `.decl`;
//! 2. per rule, `resolve` (relations, arities, variables, constants), then
//!    `types` (inference and clashes) and `safety` (range restriction:
//!    every variable bound); the [`super::lint`] warnings on the way;
//! 3. over the whole program, `monotone` (what depends on the state, and
//!    only monotone uses of it), then `strata` (no cycle through negation
//!    or an exact count).
//!
//! Every rule is checked, whatever the others hold, so that one run
//! reports every broken rule; within a rule, types and safety wait until it
//! resolves. The whole-program passes run only if everything before them
//! passed. `query` checks an ad-hoc query body ([`check_query`]) through
//! the same per-rule passes.

mod declare;
mod monotone;
mod query;
mod resolve;
mod safety;
mod strata;
mod types;

pub use query::{Query, check_query};
// The old home of `body_relations`, which the engine and `inspect` use.
pub use super::program::body_relations;

use super::ast::{self, SourceSet, Span, Type};
use super::diag::{Diagnostic, Diagnostics};
use super::program::{
    GridConstant, Literal, Program, RatingAlternative, RelId, Relation, Rule, Technique, VarId,
};
use super::symbols::Symbols;
use rustc_hash::FxHashMap;

/// A parsed file together with the technique name its rules belong to.
pub struct ParsedFile {
    /// The syntax tree.
    pub module: ast::Module,
    /// The technique (the file's stem, such as `singles`).
    pub technique: String,
}

/// The tier of files without a `.tier` directive: always on, like the
/// grid's meaning (a file that adds units, for example).
pub const DEFAULT_TIER: u32 = 0;

/// Checks parsed files and builds the program.
pub fn check(files: Vec<ParsedFile>, sources: SourceSet) -> Result<Program, Diagnostics> {
    let mut checker = Checker::new(&sources, Vec::new(), Symbols::new(), false);
    // The relations: the built-ins, then every file's declarations.
    checker.declare_builtins();
    for decl in files.iter().flat_map(|f| &f.module.decls) {
        checker.declare(decl);
    }
    for (name, span) in files.iter().flat_map(|f| &f.module.inputs) {
        checker.declare_input(name, *span);
    }
    // Every rule: resolved, typed, range-restricted (and linted).
    let checked = checker.rules(&files);
    checker.check_assumptions(&files);
    // The whole program: what changes with the state, only monotone uses
    // of it, and strata.
    if checker.errors.is_empty() {
        checker.mark_state_and_givens(&checked.rules);
        checker.check_monotone(&checked.rules);
    }
    if checker.errors.is_empty() {
        checker.stratify(&checked.rules);
    }
    if !checker.errors.is_empty() {
        let items = std::mem::take(&mut checker.errors);
        return Err(Diagnostics { items, sources });
    }
    let mut program = Program {
        techniques: techniques(&files, &checked.rules),
        relations: checker.relations,
        symbols: checker.symbols,
        rules: checked.rules,
        warnings: checked.warnings,
        grid_constants: checked.grid_constants,
        sources,
    };
    uniqueness_off_beside_constraints(&mut program);
    Ok(program)
}

/// Switches the techniques that assume one solution off when a rule adds
/// a constraint that is not a unit (their deadly patterns may break it),
/// with a warning naming that rule and the techniques.
fn uniqueness_off_beside_constraints(program: &mut Program) {
    if !program.assumes_unique() {
        return;
    }
    let Some(rule) = program.non_unit_constraint() else {
        return;
    };
    let names: Vec<String> = (program.techniques.iter())
        .filter(|t| t.assumes_unique)
        .map(|t| format!("`{}`", t.name))
        .collect();
    let warning = Diagnostic::new(
        rule.span,
        format!(
            "{} switched off: this rule constrains the grid beyond its units",
            names.join(", ")
        ),
    )
    .label("a constraint that is not a unit")
    .help(
        "techniques that assume one solution (`.assumes unique`) rest on deadly patterns, \
         cells whose digits could be swapped without breaking a unit; a constraint between \
         cells may forbid the swap, so with it they would be unsound",
    );
    program.warnings.push(warning);
    program.without_uniqueness();
}

/// The checker's state across passes.
struct Checker<'s> {
    relations: Vec<Relation>,
    by_name: FxHashMap<String, RelId>,
    symbols: Symbols,
    errors: Vec<Diagnostic>,
    sources: &'s SourceSet,
    /// The cell and unit constants resolved since the last rule was taken
    /// (the rule's id is filled in then).
    grid_names: Vec<GridConstant>,
    /// Queries may read the `candidate` view; rules may not.
    queries: bool,
}

/// Per-rule state while resolving: variable numbering and types.
#[derive(Default)]
struct Scope {
    names: Vec<String>,
    ids: FxHashMap<String, VarId>,
    types: Vec<Option<(Type, Span)>>,
    first_use: Vec<Span>,
    /// Both sides of every comparison as written (constants keep their
    /// type there), for type inference and checking.
    comparisons: Vec<(ast::Expr, ast::CmpOp, ast::Expr, Span)>,
}

impl Scope {
    fn var(&mut self, name: &str, span: Span) -> VarId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.fresh(name, span);
        self.ids.insert(name.to_string(), id);
        id
    }

    fn fresh(&mut self, name: &str, span: Span) -> VarId {
        self.names.push(name.to_string());
        self.types.push(None);
        self.first_use.push(span);
        self.names.len() - 1
    }

    /// The variables' types, numbers where nothing says otherwise.
    fn var_types(&self) -> Vec<Type> {
        self.types
            .iter()
            .map(|t| t.map_or(Type::Number, |(t, _)| t))
            .collect()
    }
}

/// The rules that passed the per-rule passes, with what they produced on
/// the way.
struct Checked {
    rules: Vec<Rule>,
    /// Warnings, rule by rule in file order.
    warnings: Vec<Diagnostic>,
    grid_constants: Vec<GridConstant>,
}

impl<'s> Checker<'s> {
    /// A checker over `relations` (names resolve to their positions).
    fn new(
        sources: &'s SourceSet,
        relations: Vec<Relation>,
        symbols: Symbols,
        queries: bool,
    ) -> Checker<'s> {
        let by_name = relations
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.clone(), i))
            .collect();
        Checker {
            relations,
            by_name,
            symbols,
            errors: Vec::new(),
            sources,
            grid_names: Vec::new(),
            queries,
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    /// `.assumes unique` switches a technique off when solutions are
    /// counted; the grid's meaning (tier 0) always runs, so it cannot be
    /// switched off.
    fn check_assumptions(&mut self, files: &[ParsedFile]) {
        for file in files {
            let tier = file.module.tier.map_or(DEFAULT_TIER, |t| t.0);
            if let (Some(span), DEFAULT_TIER) = (file.module.assumes_unique, tier) {
                self.error(
                    Diagnostic::new(span, "`.assumes unique` in a file of tier 0")
                        .label("tier 0 always runs")
                        .help(
                            "a file that assumes one solution is a technique that is switched \
                             off when solutions are counted: give it a tier (`.tier 7`)",
                        ),
                );
            }
            if let (Some(span), 0 | 1) = (file.module.assumes_stalled, tier) {
                self.error(
                    Diagnostic::new(span, format!("`.assumes stalled` in a file of tier {tier}"))
                        .label("this tier runs beside the singles, not after them")
                        .help(
                            "only a gated tier (2 and up) runs where the singles are stalled: \
                             give the file a tier above 1 (`.tier 9`)",
                        ),
                );
            }
        }
    }

    /// Every rule of every file, in order, through the per-rule passes;
    /// each is linted, and the cell and unit constants it names are kept.
    fn rules(&mut self, files: &[ParsedFile]) -> Checked {
        let mut out = Checked {
            rules: Vec::new(),
            warnings: Vec::new(),
            grid_constants: Vec::new(),
        };
        for file in files {
            let tier = file.module.tier.map_or(DEFAULT_TIER, |t| t.0);
            for rule in &file.module.rules {
                out.warnings.extend(super::lint::lint_rule(rule));
                let checked = self.rule(rule, &file.technique, out.rules.len());
                let mut named = std::mem::take(&mut self.grid_names);
                if let Some(mut r) = checked {
                    named.sort_by_key(|c| c.span.start);
                    named.dedup_by_key(|c| c.span);
                    for mut c in named {
                        c.rule = r.id;
                        out.warnings.extend(super::lint::lint_grid_constant(&c));
                        out.grid_constants.push(c);
                    }
                    r.tier = tier;
                    out.rules.push(r);
                }
            }
        }
        out
    }

    /// One rule: resolved, then typed and range-restricted.
    fn rule(&mut self, rule: &ast::Rule, technique: &str, id: usize) -> Option<Rule> {
        let errors_before = self.errors.len();
        let mut scope = Scope::default();
        let (head_rel, body, head) = self.head(&rule.head, &rule.body, &mut scope);
        let (head_rel, mut body, head) = (head_rel?, body?, head?);
        if self.errors.len() > errors_before {
            return None;
        }
        let mut rating = self.rating(rule, head_rel, &body, &mut scope);
        if self.errors.len() > errors_before {
            return None;
        }
        // The rating's conditions are typed with the body they read.
        let typed: Vec<Literal> = (body.iter().cloned())
            .chain(rating.iter().flat_map(|a| a.when.clone()))
            .collect();
        self.infer_and_check_types(&mut scope, head_rel, &head, &rule.head, &typed);
        self.check_safety(&mut scope, &head, &rule.head, &mut body);
        for line in &mut rating {
            self.check_when(&scope, &body, &mut line.when);
        }
        if self.errors.len() > errors_before {
            return None;
        }
        Some(Rule {
            id,
            head_rel,
            head,
            body,
            var_types: scope.var_types(),
            var_names: scope.names,
            doc: rule.doc.clone(),
            name: self.sources.location(rule.span),
            technique: technique.to_string(),
            tier: DEFAULT_TIER,
            span: rule.span,
            rating,
        })
    }

    /// A rule's `.rating` lines, their conditions resolved in the rule's
    /// scope: they may name only the rule's own variables. Only rules
    /// that place or eliminate are steps, so the others take none.
    fn rating(
        &mut self,
        rule: &ast::Rule,
        head_rel: RelId,
        body: &[Literal],
        scope: &mut Scope,
    ) -> Vec<RatingAlternative> {
        let concludes = self.relations[head_rel]
            .builtin
            .is_some_and(|b| b.is_state());
        if !concludes {
            return Vec::new();
        }
        // The body's own variables (not those local to a count).
        let mut own = vec![false; scope.names.len()];
        for lit in body {
            safety::mark_vars(lit, &mut own, false);
        }
        let mut out = Vec::new();
        for line in &rule.rating {
            let named = scope.names.len();
            let when = self.literals(&line.when, scope, 0).unwrap_or_default();
            // A count's own variables may be new: only those it shares with
            // the rest of the condition must be the rule's.
            let mut shared = vec![false; scope.names.len()];
            for lit in &when {
                safety::mark_vars(lit, &mut shared, false);
            }
            for (v, name) in scope.names.iter().enumerate().skip(named) {
                if name != "_" && shared[v] {
                    let span = line.span;
                    self.error(
                        Diagnostic::new(
                            span,
                            format!("`{name}` is not a variable of the rule below"),
                        )
                        .label("a new variable")
                        .help(format!(
                            "a `.rating`'s `when` reads the variables the rule's body binds ({}); \
                                 use one of them, or `_`",
                            scope.names[..named]
                                .iter()
                                .zip(&own)
                                .filter(|(n, own)| **own && !n.starts_with('_'))
                                .map(|(n, _)| format!("`{n}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                }
            }
            out.push(RatingAlternative {
                tenths: line.tenths,
                length_bonus: line.length_bonus,
                when,
                span: line.span,
            });
        }
        out
    }
}

/// The techniques of the files (a technique's tier is the highest of its
/// files'), each with its number of rules, easiest tier first.
fn techniques(files: &[ParsedFile], rules: &[Rule]) -> Vec<Technique> {
    let mut techniques: Vec<Technique> = Vec::new();
    for file in files {
        let tier = file.module.tier.map_or(DEFAULT_TIER, |t| t.0);
        match techniques.iter_mut().find(|t| t.name == file.technique) {
            Some(t) => {
                t.tier = t.tier.max(tier);
                t.assumes_unique |= file.module.assumes_unique.is_some();
                t.assumes_stalled |= file.module.assumes_stalled.is_some();
            }
            None => techniques.push(Technique {
                name: file.technique.clone(),
                tier,
                rules: 0,
                assumes_unique: file.module.assumes_unique.is_some(),
                assumes_stalled: file.module.assumes_stalled.is_some(),
            }),
        }
    }
    for t in &mut techniques {
        t.rules = rules.iter().filter(|r| r.technique == t.name).count();
    }
    techniques.sort_by(|a, b| (a.tier, &a.name).cmp(&(b.tier, &b.name)));
    techniques
}

#[cfg(test)]
mod tests;
