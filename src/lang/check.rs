//! The checker: turns parsed modules into a [`Program`], or explains every
//! problem it finds: undeclared relations, arity mismatches, unbound
//! variables, type clashes, non-monotone uses of the state and cycles
//! through negation.

use super::ast::{self, AggFunc, BinOp, CmpOp, SourceSet, Span, Type, TypeFamily};
use super::diag::{Diagnostic, Diagnostics};
use super::program::{
    Aggregate, Arg, Atom, Builtin, CANDIDATE_VIEW, CELL_STRIDE, CellConstant, Expr, Literal,
    MAX_COLUMNS, Program, RelId, Relation, Rule, Stratum, Technique, Value, VarId,
};
use super::symbols::{MAX_SIDE, Symbols};
use itertools::Itertools;
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

/// A checked ad-hoc query: a rule body over a program's relations (and
/// the `candidate` view), with its named variables as output columns.
#[derive(Clone, Debug)]
pub struct Query {
    /// The literals.
    pub body: Vec<Literal>,
    /// The named variables, in order of first use: the output columns.
    pub outputs: Vec<VarId>,
    /// Variable names by id.
    pub var_names: Vec<String>,
    /// Variable types by id.
    pub var_types: Vec<Type>,
    /// The relation id standing for the `candidate` view (one past the
    /// program's relations).
    pub candidate: RelId,
}

/// Parses and checks a query body (`candidate(C, 5), in_unit(C, U)`)
/// against a program.
pub fn check_query(program: &Program, text: &str) -> Result<Query, Diagnostics> {
    let mut sources = SourceSet::default();
    let file = sources.add("query", text);
    let parsed = match super::parser::parse_body(text, file) {
        Ok(b) => b,
        Err(items) => return Err(Diagnostics { items, sources }),
    };
    let mut relations = program.relations.clone();
    let candidate = relations.len();
    relations.push(Relation {
        name: CANDIDATE_VIEW.to_string(),
        columns: vec![("c".into(), Type::Cell), ("d".into(), Type::Digit)],
        builtin: None,
        doc: "digits not eliminated".into(),
        decl: None,
        dynamic: true,
        per_puzzle: true,
        stratum: 0,
    });
    let by_name = relations
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.clone(), i))
        .collect();
    let mut checker = Checker {
        relations,
        by_name,
        symbols: program.symbols.clone(),
        errors: Vec::new(),
        sources: &sources,
        cells: Vec::new(),
        queries: true,
    };
    let mut scope = Scope::default();
    let body = checker.literals(&parsed, &mut scope, 0);
    // Variables local to a count are not answers.
    let mut outside = vec![false; scope.names.len()];
    for lit in body.iter().flatten() {
        mark_vars(lit, &mut outside, false);
    }
    let outputs: Vec<VarId> = (0..scope.names.len())
        .filter(|&v| outside[v] && !scope.names[v].starts_with('_'))
        .collect();
    let result = body.map(|mut body| {
        checker.check_comparison_types(&mut scope, &body);
        let head: Vec<Expr> = outputs.iter().map(|&v| Expr::Var(v)).collect();
        let fake_head = ast::Atom {
            rel: "query".into(),
            args: outputs
                .iter()
                .map(|&v| ast::Expr::Var(scope.names[v].clone(), scope.first_use[v]))
                .collect(),
            span: Span::new(file, 0, 0),
            name_span: Span::new(file, 0, 0),
        };
        checker.check_safety(&mut scope, &head, &fake_head, &mut body);
        body
    });
    match result {
        Some(body) if checker.errors.is_empty() => Ok(Query {
            body,
            outputs,
            var_types: scope
                .types
                .iter()
                .map(|t| t.map_or(Type::Number, |(t, _)| t))
                .collect(),
            var_names: scope.names,
            candidate,
        }),
        _ => {
            let items = std::mem::take(&mut checker.errors);
            drop(checker);
            Err(Diagnostics { items, sources })
        }
    }
}

/// Checks parsed files and builds the program.
pub fn check(files: Vec<ParsedFile>, sources: SourceSet) -> Result<Program, Diagnostics> {
    let mut checker = Checker {
        relations: Vec::new(),
        by_name: FxHashMap::default(),
        symbols: Symbols::new(),
        errors: Vec::new(),
        sources: &sources,
        cells: Vec::new(),
        queries: false,
    };
    checker.declare_builtins();
    for file in &files {
        for decl in &file.module.decls {
            checker.declare(decl);
        }
    }
    let mut rules = Vec::new();
    let mut warnings = Vec::new();
    let mut cell_constants = Vec::new();
    let mut techniques: Vec<Technique> = Vec::new();
    for file in &files {
        let tier = file.module.tier.map_or(DEFAULT_TIER, |t| t.0);
        match techniques.iter_mut().find(|t| t.name == file.technique) {
            Some(t) => t.tier = t.tier.max(tier),
            None => techniques.push(Technique {
                name: file.technique.clone(),
                tier,
                rules: 0,
            }),
        }
        for rule in &file.module.rules {
            warnings.extend(super::lint::lint_rule(rule));
            let checked = checker.rule(rule, &file.technique, rules.len());
            let mut named = std::mem::take(&mut checker.cells);
            if let Some(mut r) = checked {
                named.sort_by_key(|c| c.span.start);
                named.dedup_by_key(|c| c.span);
                for mut c in named {
                    c.rule = r.id;
                    warnings.extend(super::lint::lint_cell(&c));
                    cell_constants.push(c);
                }
                r.tier = tier;
                rules.push(r);
            }
        }
    }
    for t in &mut techniques {
        t.rules = rules.iter().filter(|r| r.technique == t.name).count();
    }
    techniques.sort_by(|a, b| (a.tier, &a.name).cmp(&(b.tier, &b.name)));
    let strata = if checker.errors.is_empty() {
        checker.classify(&rules)
    } else {
        Vec::new()
    };
    if !checker.errors.is_empty() {
        let items = std::mem::take(&mut checker.errors);
        return Err(Diagnostics { items, sources });
    }
    let Checker {
        relations, symbols, ..
    } = checker;
    Ok(Program {
        relations,
        rules,
        strata,
        symbols,
        sources,
        techniques,
        warnings,
        cell_constants,
    })
}

struct Checker<'s> {
    relations: Vec<Relation>,
    by_name: FxHashMap<String, RelId>,
    symbols: Symbols,
    errors: Vec<Diagnostic>,
    sources: &'s SourceSet,
    /// The cell constants resolved since the last rule was taken (the
    /// rule's id is filled in then).
    cells: Vec<CellConstant>,
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
    comparisons: Vec<(ast::Expr, CmpOp, ast::Expr, Span)>,
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
}

fn builtin_help(name: &str) -> String {
    format!(
        "`{name}` is filled from the grid and the puzzle; derive a relation of your own instead (`.decl my_{name}(...)`)"
    )
}

impl Checker<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    fn declare_builtins(&mut self) {
        for (b, name, cols, _) in Builtin::ALL {
            self.by_name.insert(name.to_string(), self.relations.len());
            self.relations.push(Relation {
                name: name.to_string(),
                columns: cols.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
                builtin: Some(*b),
                doc: String::new(),
                decl: None,
                // `contradiction` lives in the fixpoint even when a rule derives
                // it from the givens alone, so that it always stops a branch.
                dynamic: matches!(
                    b,
                    Builtin::Placed | Builtin::Eliminated | Builtin::Contradiction
                ),
                per_puzzle: matches!(b, Builtin::Given),
                stratum: 0,
            });
        }
    }

    fn declare(&mut self, decl: &ast::Decl) {
        if decl.name == CANDIDATE_VIEW {
            self.error(
                Diagnostic::new(decl.name_span, "`candidate` is reserved")
                    .label("reserved name")
                    .help("`candidate` is the view of digits not yet eliminated that reports show; pick another name"),
            );
            return;
        }
        if let Some(&id) = self.by_name.get(&decl.name) {
            let d = if self.relations[id].builtin.is_some() {
                Diagnostic::new(
                    decl.name_span,
                    format!("`{}` is a built-in relation", decl.name),
                )
                .label("declared again here")
                .help("remove this `.decl`: built-in relations are always there")
            } else {
                let first = self.relations[id].decl.unwrap_or_default();
                Diagnostic::new(decl.name_span, format!("`{}` is declared twice", decl.name))
                    .label("second declaration")
                    .help(format!(
                        "it is first declared at {}; remove one of them, or, if that one is the library's, give yours another name (a file cannot change the library's relations by accident)",
                        self.sources.location(first)
                    ))
            };
            self.error(d);
            return;
        }
        if let Some(extra) = decl.attrs.get(MAX_COLUMNS) {
            self.error(
                Diagnostic::new(
                    extra.span,
                    format!(
                        "`{}` has {} columns; a relation has at most {MAX_COLUMNS}",
                        decl.name,
                        decl.attrs.len()
                    ),
                )
                .label("one column too many")
                .help("split it into two relations that share a key, or pack two numbers into one column"),
            );
            // Still declared, so that its uses raise no second error.
        }
        self.by_name.insert(decl.name.clone(), self.relations.len());
        self.relations.push(Relation {
            name: decl.name.clone(),
            columns: decl.attrs.iter().map(|a| (a.name.clone(), a.ty)).collect(),
            builtin: None,
            doc: decl.doc.clone(),
            decl: Some(decl.span),
            dynamic: false,
            per_puzzle: false,
            stratum: 0,
        });
    }

    /// Resolves an atom's relation and checks its arity.
    fn resolve_rel(&mut self, atom: &ast::Atom) -> Option<RelId> {
        if atom.rel == CANDIDATE_VIEW && !self.queries {
            self.error(
                Diagnostic::new(atom.name_span, "rules cannot use `candidate`")
                    .label("a view for reports, not a relation")
                    .help("a candidate is a digit not yet eliminated, which can change as the solve goes on; state what you know monotonically with `eliminated`, e.g. `count : { eliminated(C, E), E != D } >= N - 1`"),
            );
            return None;
        }
        let Some(&id) = self.by_name.get(&atom.rel) else {
            let cols = (1..=atom.args.len())
                .map(|i| format!("x{i}: number"))
                .join(", ");
            self.error(
                Diagnostic::new(
                    atom.name_span,
                    format!("undeclared relation `{}`", atom.rel),
                )
                .label("not declared")
                .help(match super::suggest::closest(
                    &atom.rel,
                    self.by_name.keys().map(String::as_str),
                ) {
                    Some(known) => format!(
                        "did you mean `{known}`? Otherwise declare it before use, e.g. `.decl {}({})`",
                        atom.rel, cols
                    ),
                    None => format!(
                        "declare it before use, e.g. `.decl {}({})`, or check the spelling",
                        atom.rel, cols
                    ),
                }),
            );
            return None;
        };
        let arity = self.relations[id].arity();
        if atom.args.len() != arity {
            let cols = self.relations[id]
                .columns
                .iter()
                .map(|(n, t)| format!("{n}: {t}"))
                .join(", ");
            self.error(
                Diagnostic::new(
                    atom.span,
                    format!(
                        "`{}` has {} column{} but is used with {}",
                        atom.rel,
                        arity,
                        if arity == 1 { "" } else { "s" },
                        atom.args.len()
                    ),
                )
                .label("wrong number of arguments")
                .help(format!("it is declared as `{}({})`", atom.rel, cols)),
            );
            return None;
        }
        Some(id)
    }

    fn constant(&mut self, e: &ast::Expr) -> Option<(Value, TypeFamily)> {
        match e {
            ast::Expr::Int(v, span) => match Value::try_from(*v) {
                Ok(v) => Some((v, TypeFamily::Number)),
                Err(_) => {
                    self.error(
                        Diagnostic::new(*span, format!("integer {v} does not fit in 32 bits"))
                            .label("too large")
                            .help("values range from -2147483648 to 2147483647"),
                    );
                    None
                }
            },
            ast::Expr::Str(s, _) => Some((self.symbols.intern(s), TypeFamily::Symbol)),
            ast::Expr::Cell { row, col, span } => {
                let max = MAX_SIDE as u32;
                if *row == 0 || *col == 0 || *row > max || *col > max {
                    self.error(
                        Diagnostic::new(*span, format!("no grid has a cell r{row}c{col}"))
                            .label("out of range")
                            .help(format!("rows and columns run from 1 to at most {max}")),
                    );
                    return None;
                }
                self.cells.push(CellConstant {
                    row: *row,
                    col: *col,
                    span: *span,
                    rule: 0,
                });
                Some((
                    (*row as Value - 1) * CELL_STRIDE + (*col as Value - 1),
                    TypeFamily::Cell,
                ))
            }
            _ => None,
        }
    }

    /// Resolves an expression (no wildcards allowed).
    fn expr(&mut self, e: &ast::Expr, scope: &mut Scope, ctx: &str) -> Option<Expr> {
        match e {
            ast::Expr::Var(name, span) => Some(Expr::Var(scope.var(name, *span))),
            ast::Expr::Wildcard(span) => {
                self.error(
                    Diagnostic::new(*span, format!("`_` cannot be used in {ctx}"))
                        .label("needs a value")
                        .help("use a named variable that the body binds"),
                );
                None
            }
            ast::Expr::Int(..) | ast::Expr::Str(..) | ast::Expr::Cell { .. } => {
                self.constant(e).map(|(v, _)| Expr::Const(v))
            }
            ast::Expr::Binary(op, a, b, _) => {
                let a = self.expr(a, scope, ctx);
                let b = self.expr(b, scope, ctx);
                let (a, b) = (Box::new(a?), Box::new(b?));
                Some(match op {
                    BinOp::Add => Expr::Add(a, b),
                    BinOp::Sub => Expr::Sub(a, b),
                })
            }
            ast::Expr::Neg(a, _) => Some(Expr::Neg(Box::new(self.expr(a, scope, ctx)?))),
        }
    }

    /// Resolves a body atom; expression arguments become fresh variables
    /// plus an equality appended to `extra`.
    fn body_atom(
        &mut self,
        atom: &ast::Atom,
        scope: &mut Scope,
        extra: &mut Vec<Literal>,
        counted: bool,
    ) -> Option<Atom> {
        let rel = self.resolve_rel(atom)?;
        let mut args = Vec::new();
        let mut ok = true;
        for (i, a) in atom.args.iter().enumerate() {
            let ty = self.relations[rel].columns[i].1;
            let arg = match a {
                ast::Expr::Var(name, span) => {
                    let v = scope.var(name, *span);
                    self.set_type(scope, v, ty, *span);
                    Arg::Var(v)
                }
                ast::Expr::Wildcard(span) => {
                    let v = scope.fresh("_", *span);
                    scope.types[v] = Some((ty, *span));
                    // Inside a count, `_` is counted like a named variable
                    // (`count : { eliminated(C, _) }` counts digits).
                    if counted { Arg::Var(v) } else { Arg::Wild }
                }
                ast::Expr::Int(..) | ast::Expr::Str(..) | ast::Expr::Cell { .. } => {
                    match self.constant(a) {
                        Some((v, fam)) => {
                            if fam != ty.family() {
                                self.type_clash(a.span(), &format!("a {fam} constant"), ty);
                                ok = false;
                            }
                            Arg::Const(v)
                        }
                        None => {
                            ok = false;
                            Arg::Wild
                        }
                    }
                }
                ast::Expr::Binary(_, _, _, span) | ast::Expr::Neg(_, span) => {
                    let Some(e) = self.expr(a, scope, "an expression") else {
                        ok = false;
                        continue;
                    };
                    let v = scope.fresh(&format!("_e{}", scope.names.len()), *span);
                    self.set_type(scope, v, ty, *span);
                    extra.push(Literal::Cmp(Expr::Var(v), CmpOp::Eq, e, *span));
                    Arg::Var(v)
                }
            };
            args.push(arg);
        }
        ok.then_some(Atom {
            rel,
            args,
            span: atom.span,
        })
    }

    /// A guard with `where X op Y`: `X` must be a variable that appears in
    /// the atom once and is the guard's own (the atom's column then holds
    /// any value in `op` to `Y`), `Y` a variable of the rule.
    fn guard_where(
        &mut self,
        atom: &ast::Atom,
        cond: &ast::GuardWhere,
        scope: &mut Scope,
        extra: &mut Vec<Literal>,
    ) -> Option<Atom> {
        // The guard's own variable: in the atom once, and not a variable
        // the rule has named before.
        let column_of = |e: &ast::Expr| match e {
            ast::Expr::Var(name, _) if !scope.names.contains(name) => {
                let cols: Vec<usize> = atom
                    .args
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| matches!(a, ast::Expr::Var(n, _) if n == name))
                    .map(|(i, _)| i)
                    .collect();
                (cols.len() == 1).then_some(cols[0])
            }
            _ => None,
        };
        let (col, op, other) = match (column_of(&cond.left), column_of(&cond.right)) {
            (Some(c), None) => (c, cond.op, &cond.right),
            (None, Some(c)) => (c, cond.op.flipped(), &cond.left),
            _ => {
                self.error(
                    Diagnostic::new(cond.span, "`where` must compare one new variable of the guard's atom with a variable of the rule")
                        .label("not one new variable of the atom on one side")
                        .help("name the compared column with a variable that appears once in the atom and nowhere before it in the rule, e.g. `unless tint(D, B, S, _) where S < R`"),
                );
                return None;
            }
        };
        let ast::Expr::Var(name, span) = other else {
            self.error(
                Diagnostic::new(other.span(), "`where` compares with a variable")
                    .label("not a variable")
                    .help("bind the value to a variable of the rule first, e.g. `R1 = R + 1`, and compare with that"),
            );
            return None;
        };
        let mut plain = atom.clone();
        plain.args[col] = ast::Expr::Wildcard(atom.args[col].span());
        let mut checked = self.body_atom(&plain, scope, extra, false)?;
        let v = scope.var(name, *span);
        let ty = self.relations[checked.rel].columns[col].1;
        self.set_type(scope, v, ty, *span);
        checked.args[col] = Arg::Cmp(op, v);
        Some(checked)
    }

    fn type_clash(&mut self, span: Span, what: &str, expected: Type) {
        self.error(
            Diagnostic::new(
                span,
                format!("type clash: {what} where a {expected} is expected"),
            )
            .label(format!("expected a {expected}"))
            .help(match expected.family() {
                TypeFamily::Cell => "cells are written like r3c5 or bound by cell(C)",
                TypeFamily::Number => "digits and numbers are integers",
                TypeFamily::Symbol => "units and symbols are strings like \"row3\"",
            }),
        );
    }

    fn set_type(&mut self, scope: &mut Scope, v: VarId, ty: Type, span: Span) {
        match scope.types[v] {
            None => scope.types[v] = Some((ty, span)),
            Some((old, old_span)) => {
                if old.family() != ty.family() {
                    let name = scope.names[v].clone();
                    let (line, _) = self.sources.line_col(old_span.file, old_span.start);
                    self.error(
                        Diagnostic::new(
                            span,
                            format!("type clash: `{name}` is used as a {ty} here but as a {old} on line {line}"),
                        )
                        .label(format!("a {ty} here"))
                        .help("use two different variables, or join the values through a relation such as row(C, R)"),
                    );
                } else if old == Type::Number && ty != Type::Number {
                    // Keep the most specific type for printing values.
                    scope.types[v] = Some((ty, span));
                }
            }
        }
    }

    fn literals(
        &mut self,
        body: &[ast::Literal],
        scope: &mut Scope,
        depth: usize,
    ) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        let mut extra = Vec::new();
        let mut ok = true;
        for lit in body {
            let r = match lit {
                ast::Literal::Atom(a) => self
                    .body_atom(a, scope, &mut extra, depth > 0)
                    .map(Literal::Atom),
                ast::Literal::Neg(a, _) => self
                    .body_atom(a, scope, &mut extra, false)
                    .map(Literal::Neg),
                ast::Literal::Guard(a, cond, span) => {
                    if depth > 0 {
                        self.error(
                            Diagnostic::new(*span, "a guard inside a count is not supported")
                                .label("guard in a count")
                                .help("put the guard after the count, in the rule's own body: it then filters what the rule derives"),
                        );
                        None
                    } else {
                        match cond {
                            None => self.body_atom(a, scope, &mut extra, false),
                            Some(w) => self.guard_where(a, w, scope, &mut extra),
                        }
                        .map(Literal::Guard)
                    }
                }
                ast::Literal::Cmp(a, op, b, span) => {
                    scope.comparisons.push((a.clone(), *op, b.clone(), *span));
                    let a = self.expr(a, scope, "a comparison");
                    let b = self.expr(b, scope, "a comparison");
                    match (a, b) {
                        (Some(a), Some(b)) => Some(Literal::Cmp(a, *op, b, *span)),
                        _ => None,
                    }
                }
                ast::Literal::Aggregate {
                    func,
                    body,
                    op,
                    bound,
                    span,
                } => {
                    if depth > 0 {
                        self.error(
                            Diagnostic::new(*span, "a count inside a count is not supported")
                                .label("nested count")
                                .help("derive the inner count into a relation of its own first"),
                        );
                        None
                    } else {
                        let inner = self.literals(body, scope, depth + 1);
                        // A count is a number: its bound must be one too.
                        scope.comparisons.push((
                            ast::Expr::Int(0, *span),
                            *op,
                            bound.clone(),
                            bound.span(),
                        ));
                        let bound_span = bound.span();
                        let bound = self.expr(bound, scope, "a count's bound");
                        // A set's variable holds a set (shown `{2,7}`).
                        if let (AggFunc::Set { .. }, Some(Expr::Var(v))) = (func, &bound) {
                            self.set_type(scope, *v, Type::Set, bound_span);
                        }
                        // A set collects numbers: its variable is one.
                        let elem = match func {
                            AggFunc::Count => Some(None),
                            AggFunc::Set { elem, span } => {
                                let var = ast::Expr::Var(elem.clone(), *span);
                                scope.comparisons.push((
                                    ast::Expr::Int(0, *span),
                                    CmpOp::Eq,
                                    var.clone(),
                                    *span,
                                ));
                                match self.expr(&var, scope, "a set") {
                                    Some(Expr::Var(v)) => Some(Some(v)),
                                    _ => None,
                                }
                            }
                        };
                        match (inner, bound, elem) {
                            (Some(body), Some(bound), Some(elem)) => {
                                Some(Literal::Count(Aggregate {
                                    body,
                                    op: *op,
                                    bound,
                                    group: Vec::new(),
                                    local: Vec::new(),
                                    value: None,
                                    elem,
                                    span: *span,
                                }))
                            }
                            _ => None,
                        }
                    }
                }
            };
            match r {
                Some(l) => out.push(l),
                None => ok = false,
            }
        }
        out.extend(extra);
        ok.then_some(out)
    }

    fn rule(&mut self, rule: &ast::Rule, technique: &str, id: usize) -> Option<Rule> {
        let errors_before = self.errors.len();
        let mut scope = Scope::default();
        let head_rel = self.resolve_rel(&rule.head);
        if let Some(h) = head_rel {
            let rel = &self.relations[h];
            if let Some(b) = rel.builtin {
                let extensible = Builtin::ALL.iter().any(|(x, _, _, ext)| *x == b && *ext);
                if !extensible {
                    let name = rel.name.clone();
                    self.error(
                        Diagnostic::new(
                            rule.head.name_span,
                            format!("rules cannot add facts to `{name}`"),
                        )
                        .label("built in")
                        .help(builtin_help(&name)),
                    );
                }
            }
        }
        let body = self.literals(&rule.body, &mut scope, 0);
        let mut head = Vec::new();
        for a in &rule.head.args {
            if let Some(e) = self.expr(a, &mut scope, "a rule head") {
                head.push(e);
            }
        }
        let (head_rel, mut body) = (head_rel?, body?);
        if self.errors.len() > errors_before || head.len() != rule.head.args.len() {
            return None;
        }
        self.infer_and_check_types(&mut scope, head_rel, &head, &rule.head, &body);
        self.check_safety(&mut scope, &head, &rule.head, &mut body);
        if self.errors.len() > errors_before {
            return None;
        }
        let var_types = scope
            .types
            .iter()
            .map(|t| t.map_or(Type::Number, |(t, _)| t))
            .collect();
        Some(Rule {
            id,
            head_rel,
            head,
            body,
            var_names: scope.names,
            var_types,
            doc: rule.doc.clone(),
            name: self.sources.location(rule.span),
            technique: technique.to_string(),
            tier: DEFAULT_TIER,
            span: rule.span,
        })
    }

    fn expr_family(&self, e: &Expr, scope: &Scope) -> Option<TypeFamily> {
        match e {
            Expr::Var(v) => scope.types[*v].map(|(t, _)| t.family()),
            Expr::Const(_) => None, // constants were checked where they stand
            _ => Some(TypeFamily::Number),
        }
    }

    fn literal_family(&self, e: &ast::Expr) -> Option<TypeFamily> {
        match e {
            ast::Expr::Int(..) => Some(TypeFamily::Number),
            ast::Expr::Str(..) => Some(TypeFamily::Symbol),
            ast::Expr::Cell { .. } => Some(TypeFamily::Cell),
            _ => None,
        }
    }

    fn infer_and_check_types(
        &mut self,
        scope: &mut Scope,
        head_rel: RelId,
        head: &[Expr],
        ast_head: &ast::Atom,
        body: &[Literal],
    ) {
        self.check_comparison_types(scope, body);
        let cols: Vec<Type> = self.relations[head_rel]
            .columns
            .iter()
            .map(|c| c.1)
            .collect();
        self.check_head_types(scope, head, ast_head, &cols);
    }

    /// Infers the types of variables only comparisons mention, and checks
    /// that both sides of every comparison and arithmetic agree.
    fn check_comparison_types(&mut self, scope: &mut Scope, body: &[Literal]) {
        let comparisons = std::mem::take(&mut scope.comparisons);
        for _ in 0..3 {
            for (a, _, b, _) in &comparisons {
                for (x, y) in [(a, b), (b, a)] {
                    if let ast::Expr::Var(name, _) = x
                        && let Some(&v) = scope.ids.get(name)
                        && scope.types[v].is_none()
                        && let Some(t) = written_type(y, scope)
                    {
                        scope.types[v] = Some((t, scope.first_use[v]));
                    }
                }
            }
        }
        for (a, op, b, span) in &comparisons {
            let fa = written_type(a, scope).map(Type::family);
            let fb = written_type(b, scope).map(Type::family);
            if let (Some(fa), Some(fb)) = (fa, fb)
                && fa != fb
            {
                self.error(
                    Diagnostic::new(*span, format!("type clash: comparing a {fa} with a {fb}"))
                        .label(format!("`{op}` between different types"))
                        .help("both sides of a comparison must be cells, numbers (digits), or symbols (units)"),
                );
            }
        }
        let mut cmps = Vec::new();
        collect_cmps(body, &mut cmps);
        for (a, _, b, span) in &cmps {
            self.check_arith(a, scope, *span);
            self.check_arith(b, scope, *span);
        }
    }

    fn check_head_types(
        &mut self,
        scope: &Scope,
        head: &[Expr],
        ast_head: &ast::Atom,
        cols: &[Type],
    ) {
        for (i, e) in head.iter().enumerate() {
            let span = ast_head.args[i].span();
            self.check_arith(e, scope, span);
            let fam = match e {
                Expr::Const(_) => self.literal_family(&ast_head.args[i]),
                _ => self.expr_family(e, scope),
            };
            if let Some(f) = fam
                && f != cols[i].family()
            {
                self.type_clash(span, &format!("a {f}"), cols[i]);
            }
        }
    }

    fn check_arith(&mut self, e: &Expr, scope: &Scope, span: Span) {
        if let Expr::Add(a, b) | Expr::Sub(a, b) = e {
            for x in [a, b] {
                if let Some(f) = self.expr_family(x, scope)
                    && f != TypeFamily::Number
                {
                    self.error(
                        Diagnostic::new(span, format!("type clash: arithmetic on a {f}"))
                            .label("not a number")
                            .help("`+` and `-` work on numbers and digits only"),
                    );
                    return;
                }
                self.check_arith(x, scope, span);
            }
        }
    }

    /// Range restriction: every variable of the head, of a negation and of a
    /// comparison must be bound by a positive atom (or an `=` assignment).
    fn check_safety(
        &mut self,
        scope: &mut Scope,
        head: &[Expr],
        ast_head: &ast::Atom,
        body: &mut [Literal],
    ) {
        let mut bound = vec![false; scope.names.len()];
        bind_positive(body, &mut bound);
        // A count compared with `=` to a variable nothing else binds gives
        // that variable its value.
        let mut plain = vec![false; scope.names.len()];
        bind(body, &mut plain, false);
        for lit in body.iter_mut() {
            if let Literal::Count(agg) = lit
                && agg.op == CmpOp::Eq
                && let Expr::Var(v) = agg.bound
                && !plain[v]
                && bound[v]
            {
                agg.value = Some(v);
            }
        }
        for lit in body.iter() {
            if let Literal::Count(agg) = lit
                && agg.elem.is_some()
                && agg.value.is_none()
            {
                self.error(
                    Diagnostic::new(agg.span, "a set must be given to a new variable")
                        .label("a set compared with something")
                        .help("write `S = set X : { ... }` with a variable `S` that nothing else binds, and compare `S` in other literals"),
                );
            }
        }
        // Variables used outside every aggregate (to find each count's group).
        let mut outside = vec![false; scope.names.len()];
        for e in head {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            for v in vs {
                outside[v] = true;
            }
        }
        for lit in body.iter() {
            mark_vars(lit, &mut outside, false);
        }
        for (i, e) in head.iter().enumerate() {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            for v in vs {
                if !bound[v] {
                    let name = scope.names[v].clone();
                    self.error(
                        Diagnostic::new(ast_head.args[i].span(), format!("variable `{name}` in the head is not bound by the body"))
                            .label("unbound")
                            .help(format!("use `{name}` in a positive atom of the body, e.g. `cell({name})` or `digit({name})`")),
                    );
                }
            }
        }
        self.check_literals(scope, body, &mut bound, &outside, false);
    }

    fn check_literals(
        &mut self,
        scope: &Scope,
        body: &mut [Literal],
        bound: &mut [bool],
        outside: &[bool],
        inner: bool,
    ) {
        for lit in body.iter_mut() {
            match lit {
                Literal::Atom(_) => {}
                Literal::Neg(_) | Literal::Guard(_) => {
                    let (a, what, label) = match &*lit {
                        Literal::Neg(a) => (a, "a negation", "unbound in `!`"),
                        Literal::Guard(a) => (a, "a guard", "unbound in `unless`"),
                        _ => continue,
                    };
                    for arg in &a.args {
                        if let Some(v) = arg.var()
                            && !bound[v]
                        {
                            let v = &v;
                            let name = scope.names[*v].clone();
                            self.error(
                                    Diagnostic::new(a.span, format!("variable `{name}` in {what} is not bound"))
                                        .label(label)
                                        .help(format!("bind `{name}` with a positive atom first, or write `_` if any value will do")),
                                );
                        }
                    }
                }
                Literal::Cmp(a, _, b, span) => {
                    let mut vs = Vec::new();
                    a.vars(&mut vs);
                    b.vars(&mut vs);
                    for v in vs {
                        if !bound[v] {
                            let name = scope.names[v].clone();
                            self.error(
                                Diagnostic::new(*span, format!("variable `{name}` in a comparison is not bound"))
                                    .label("unbound")
                                    .help(format!("bind `{name}` with a positive atom, or assign it with `{name} = ...` from bound values")),
                            );
                        }
                    }
                }
                Literal::Count(agg) => {
                    if inner {
                        continue;
                    }
                    let mut vs = Vec::new();
                    if agg.value.is_none() {
                        agg.bound.vars(&mut vs);
                    }
                    for v in vs {
                        if !bound[v] {
                            let name = scope.names[v].clone();
                            self.error(
                                Diagnostic::new(
                                    agg.span,
                                    format!("variable `{name}` in the count's bound is not bound"),
                                )
                                .label("unbound")
                                .help(format!(
                                    "bind `{name}` outside the count, e.g. `size({name})`"
                                )),
                            );
                        }
                    }
                    // The body's own positive atoms bind its local variables.
                    let mut inner_bound = bound.to_vec();
                    bind_positive(&agg.body, &mut inner_bound);
                    let mut in_body = vec![false; bound.len()];
                    for l in &agg.body {
                        mark_vars(l, &mut in_body, true);
                    }
                    let mut group = Vec::new();
                    let mut local = Vec::new();
                    for v in 0..bound.len() {
                        if !in_body[v] {
                            continue;
                        }
                        if outside[v] {
                            if !bound[v] {
                                let name = scope.names[v].clone();
                                self.error(
                                    Diagnostic::new(agg.span, format!("variable `{name}` is shared with the count but not bound outside it"))
                                        .label("unbound group variable")
                                        .help(format!("bind `{name}` with a positive atom outside the count")),
                                );
                            }
                            group.push(v);
                        } else {
                            local.push(v);
                        }
                    }
                    if let Some(e) = agg.elem
                        && !(local.contains(&e) && inner_bound[e])
                    {
                        let name = scope.names[e].clone();
                        self.error(
                            Diagnostic::new(agg.span, format!("the set collects `{name}`, which its body does not bind"))
                                .label("not the body's own variable")
                                .help(format!("bind `{name}` in a positive atom inside the braces (and nowhere outside them), e.g. `set {name} : {{ pos(Y, U, {name}), eliminated(Y, D) }}`")),
                        );
                    }
                    agg.group = group;
                    agg.local = local;
                    self.check_literals(scope, &mut agg.body, &mut inner_bound, outside, true);
                }
            }
        }
    }

    /// Marks dynamic and per-puzzle relations, checks monotonicity, and
    /// orders the static relations into strata.
    fn classify(&mut self, rules: &[Rule]) -> Vec<Stratum> {
        // Propagate "depends on the state" and "depends on the givens".
        loop {
            let mut changed = false;
            for r in rules {
                let mut deps = Vec::new();
                body_relations(&r.body, &mut deps);
                let dynamic = deps.iter().any(|(rel, _)| self.relations[*rel].dynamic);
                let per_puzzle = deps.iter().any(|(rel, _)| self.relations[*rel].per_puzzle);
                let head = &mut self.relations[r.head_rel];
                if dynamic && !head.dynamic {
                    head.dynamic = true;
                    changed = true;
                }
                if per_puzzle && !head.per_puzzle {
                    head.per_puzzle = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for r in rules {
            self.check_monotone(&r.body);
        }
        if !self.errors.is_empty() {
            return Vec::new();
        }
        self.stratify(rules)
    }

    fn check_monotone(&mut self, body: &[Literal]) {
        for lit in body {
            match lit {
                Literal::Neg(a) if self.relations[a.rel].dynamic => {
                    let name = self.relations[a.rel].name.clone();
                    let why = if matches!(name.as_str(), "placed" | "eliminated") {
                        format!("`{name}` only grows as the solve goes on")
                    } else {
                        format!("`{name}` depends on the solving state, which only grows")
                    };
                    self.error(
                        Diagnostic::new(a.span, format!("negation of `{name}` is not monotone"))
                            .label("can become false later")
                            .help(format!("{why}, so `!{name}(...)` could stop holding after the rule fired. State what must have happened instead, with `eliminated`/`placed` and a threshold count, e.g. \"every other digit is eliminated\": `count : {{ eliminated(C, E), E != D }} >= N - 1`; or, if the rule is true without it and you only mean to skip what is already decided, write the guard `unless {name}(...)`")),
                    );
                }
                Literal::Guard(a) if !self.relations[a.rel].dynamic => {
                    let name = self.relations[a.rel].name.clone();
                    self.error(
                        Diagnostic::new(a.span, format!("`unless` guards the solving state, and `{name}` does not change during a solve"))
                            .label("not part of the solving state")
                            .help(format!("negate it instead: `!{name}(...)`")),
                    );
                }
                Literal::Count(agg) => {
                    let mut deps = Vec::new();
                    body_relations(&agg.body, &mut deps);
                    let dynamic = deps.iter().any(|(rel, _)| self.relations[*rel].dynamic);
                    // A set over the state grows, and a fact is derived
                    // for each set it grows through: monotone.
                    if dynamic && agg.elem.is_none() && !matches!(agg.op, CmpOp::Ge | CmpOp::Gt) {
                        self.error(
                            Diagnostic::new(agg.span, format!("`count : {{ ... }} {} ...` over the solving state is not monotone", agg.op))
                                .label("can become false later")
                                .help("counts over `placed`/`eliminated` only grow, so only thresholds are stable: write `count : { ... } >= k` (e.g. \"at least N - 1 other digits are eliminated\" instead of \"one candidate is left\")"),
                        );
                    }
                    self.check_monotone(&agg.body);
                }
                _ => {}
            }
        }
    }

    /// Orders static relations so that every negation and every
    /// non-threshold count reads relations of earlier strata only.
    fn stratify(&mut self, rules: &[Rule]) -> Vec<Stratum> {
        let n = self.relations.len();
        // Edges body -> head; `strict` when the head must come strictly later.
        let mut edges: Vec<Vec<(RelId, bool, Span)>> = vec![Vec::new(); n];
        for r in rules {
            if self.relations[r.head_rel].dynamic {
                continue;
            }
            let mut deps = Vec::new();
            body_relations(&r.body, &mut deps);
            for (rel, strict) in deps {
                edges[rel].push((r.head_rel, strict, r.span));
            }
        }
        let adjacency: Vec<Vec<usize>> = edges
            .iter()
            .map(|outs| outs.iter().map(|e| e.0).collect())
            .collect();
        let sccs = super::graph::sccs(&adjacency);
        let mut scc_of = vec![0; n];
        for (i, scc) in sccs.iter().enumerate() {
            for &r in scc {
                scc_of[r] = i;
            }
        }
        for (from, outs) in edges.iter().enumerate() {
            for &(to, strict, span) in outs {
                if strict && scc_of[from] == scc_of[to] {
                    let cycle = sccs[scc_of[from]]
                        .iter()
                        .map(|&r| format!("`{}`", self.relations[r].name))
                        .join(", ");
                    self.error(
                        Diagnostic::new(span, format!("cycle through negation or counting: {cycle}"))
                            .label("this rule closes the cycle")
                            .help(format!("`{}` would depend on `!{}` or an exact count of itself; split the relation so that what is negated (or counted with `=`, `<`, `<=`) is complete before it is used", self.relations[to].name, self.relations[from].name)),
                    );
                    return Vec::new();
                }
            }
        }
        // Tarjan yields SCCs in reverse topological order.
        let mut strata = Vec::new();
        for scc in sccs.iter().rev() {
            let statics: Vec<RelId> = scc
                .iter()
                .copied()
                .filter(|&r| !self.relations[r].dynamic)
                .collect();
            if statics.is_empty() {
                continue;
            }
            let idx = strata.len();
            let per_puzzle = statics.iter().any(|&r| self.relations[r].per_puzzle);
            for &r in &statics {
                self.relations[r].stratum = idx;
            }
            strata.push(Stratum {
                relations: statics,
                per_puzzle,
            });
        }
        strata
    }
}

/// The type of a term as written: a variable's inferred type, a constant's
/// own type, and numbers for arithmetic.
fn written_type(e: &ast::Expr, scope: &Scope) -> Option<Type> {
    match e {
        ast::Expr::Var(name, _) => scope
            .ids
            .get(name)
            .and_then(|&v| scope.types[v])
            .map(|(t, _)| t),
        ast::Expr::Int(..) | ast::Expr::Binary(..) | ast::Expr::Neg(..) => Some(Type::Number),
        ast::Expr::Str(..) => Some(Type::Symbol),
        ast::Expr::Cell { .. } => Some(Type::Cell),
        ast::Expr::Wildcard(_) => None,
    }
}

fn collect_cmps<'a>(body: &'a [Literal], out: &mut Vec<(&'a Expr, CmpOp, &'a Expr, Span)>) {
    for lit in body {
        match lit {
            Literal::Cmp(a, op, b, span) => out.push((a, *op, b, *span)),
            Literal::Count(agg) => {
                collect_cmps(&agg.body, out);
                out.push((&agg.bound, CmpOp::Eq, &agg.bound, agg.span));
            }
            _ => {}
        }
    }
}

/// Marks variables bound by positive atoms and `=` assignments of `body`
/// (not entering aggregates: their variables are local to them).
fn bind_positive(body: &[Literal], bound: &mut [bool]) {
    bind(body, bound, true)
}

/// [`bind_positive`], optionally without `V = count : {...}` bindings.
fn bind(body: &[Literal], bound: &mut [bool], with_counts: bool) {
    for lit in body {
        if let Literal::Atom(a) = lit {
            for arg in &a.args {
                if let Arg::Var(v) = arg {
                    bound[*v] = true;
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for lit in body {
            // `V = count : { ... }` binds V once the count's group is bound.
            if let Literal::Count(agg) = lit
                && with_counts
                && agg.op == CmpOp::Eq
                && let Expr::Var(v) = agg.bound
                && !bound[v]
                && count_is_value(agg, bound)
            {
                bound[v] = true;
                changed = true;
            }
            if let Literal::Cmp(a, CmpOp::Eq, b, _) = lit {
                for (x, y) in [(a, b), (b, a)] {
                    if let Expr::Var(v) = x {
                        let mut vs = Vec::new();
                        y.vars(&mut vs);
                        if !bound[*v] && vs.iter().all(|w| bound[*w]) {
                            bound[*v] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Whether `V = count : { body }` can bind `V`: every variable the body
/// shares with the rest of the rule (other than `V`) is bound.
fn count_is_value(agg: &Aggregate, bound: &[bool]) -> bool {
    let Expr::Var(value) = agg.bound else {
        return false;
    };
    let mut inner = vec![false; bound.len()];
    for l in &agg.body {
        mark_vars(l, &mut inner, true);
    }
    // Variables the body binds itself are local; the others must be bound.
    let mut own = vec![false; bound.len()];
    bind_positive(&agg.body, &mut own);
    (0..bound.len()).all(|v| v == value || !inner[v] || own[v] || bound[v])
}

/// Marks the variables a literal mentions (inside aggregates only when `inner`).
fn mark_vars(lit: &Literal, seen: &mut [bool], inner: bool) {
    let mut vs = Vec::new();
    match lit {
        Literal::Atom(a) | Literal::Neg(a) | Literal::Guard(a) => {
            vs.extend(a.args.iter().filter_map(Arg::var));
        }
        Literal::Cmp(a, _, b, _) => {
            a.vars(&mut vs);
            b.vars(&mut vs);
        }
        Literal::Count(agg) => {
            agg.bound.vars(&mut vs);
            if inner {
                for l in &agg.body {
                    mark_vars(l, seen, inner);
                }
            }
        }
    }
    for v in vs {
        seen[v] = true;
    }
}

/// The relations a body reads, each with whether the reading is
/// non-monotone (negation, or a count compared other than with `>=`/`>`).
pub fn body_relations(body: &[Literal], out: &mut Vec<(RelId, bool)>) {
    for lit in body {
        match lit {
            Literal::Atom(a) => out.push((a.rel, false)),
            Literal::Neg(a) => out.push((a.rel, true)),
            // A guard reads the state as it grows: monotone by construction
            // (it can only make a rule fire less), so no stratum waits on it.
            Literal::Guard(a) => out.push((a.rel, false)),
            Literal::Cmp(..) => {}
            Literal::Count(agg) => {
                let strict = agg.elem.is_some() || !matches!(agg.op, CmpOp::Ge | CmpOp::Gt);
                let mut inner = Vec::new();
                body_relations(&agg.body, &mut inner);
                out.extend(inner.into_iter().map(|(r, s)| (r, s || strict)));
                if strict {
                    // An exact count needs its group fixed first: the rule's
                    // other atoms must be complete too.
                    for l in body {
                        if let Literal::Atom(a) = l {
                            out.push((a.rel, true));
                        }
                    }
                }
            }
        }
    }
}
