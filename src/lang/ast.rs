//! The syntax tree of a rule program, as the parser produces it.
//!
//! Every node carries a [`Span`] so that the checker and the engine can point
//! at the exact text a diagnostic or an explanation is about.

use std::fmt;

/// Which loaded source file a span belongs to (an index into [`SourceSet`]).
pub type FileId = usize;

/// A byte range inside one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span covering `start..end` of `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start, end }
    }

    /// The smallest span covering both `self` and `other` (same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The loaded rule files: their display names and their text.
#[derive(Clone, Debug, Default)]
pub struct SourceSet {
    /// `(name, text)` per file, indexed by [`FileId`].
    pub files: Vec<(String, String)>,
}

impl SourceSet {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((name.into(), text.into()));
        self.files.len() - 1
    }

    /// The display name of a file.
    pub fn name(&self, file: FileId) -> &str {
        &self.files[file].0
    }

    /// The text of a file.
    pub fn text(&self, file: FileId) -> &str {
        &self.files[file].1
    }

    /// 1-based line and column of a byte offset (columns count characters).
    pub fn line_col(&self, file: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(file);
        let offset = offset.min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// `file:line` of a span, the way rules are named in reports.
    pub fn location(&self, span: Span) -> String {
        let (line, _) = self.line_col(span.file, span.start);
        format!("{}:{}", self.name(span.file), line)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

// Column types are values' types: they live in `value`, beside the
// values, for the checked program and the engine.
pub use super::value::{Type, TypeFamily};

/// One column of a declaration: `name: type`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The column's name (documentation only).
    pub name: String,
    /// The column's type.
    pub ty: Type,
    /// Where the column is declared.
    pub span: Span,
}

/// `.decl name(attr: type, ...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The relation's name.
    pub name: String,
    /// Its columns.
    pub attrs: Vec<Attribute>,
    /// Comment lines directly above the declaration, joined with spaces.
    pub doc: String,
    /// The whole declaration.
    pub span: Span,
    /// Just the name.
    pub name_span: Span,
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`: rounds towards minus infinity (Euclid's division).
    Div,
    /// `%`: the remainder of Euclid's division, never negative.
    Mod,
    /// `|`: the union of two sets (bitmasks).
    Union,
    /// `&`: the intersection of two sets.
    Inter,
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Union => "|",
            BinOp::Inter => "&",
        })
    }
}

// Comparison operators and the set bound live in `value`, the leaf the
// checked program and the engine share; the syntax tree uses them too.
pub use super::value::{CmpOp, Fold, MAX_SET_MEMBER, WhereOp};

/// A term: an argument of an atom or an operand of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A variable such as `C`.
    Var(String, Span),
    /// The anonymous variable `_`.
    Wildcard(Span),
    /// An integer constant.
    Int(i64, Span),
    /// A string constant (a symbol).
    Str(String, Span),
    /// A set constant such as `{2,7}`: its members as written.
    Set(Vec<i64>, Span),
    /// A cell constant such as `r3c5` (1-based row and column as written).
    Cell {
        /// Row as written (1-based).
        row: u32,
        /// Column as written (1-based).
        col: u32,
        /// Where it is written.
        span: Span,
    },
    /// `a + b`, `a - b`.
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    /// `-a`.
    Neg(Box<Expr>, Span),
}

impl Expr {
    /// Where the term is written.
    pub fn span(&self) -> Span {
        match self {
            Expr::Var(_, s) | Expr::Wildcard(s) | Expr::Int(_, s) | Expr::Str(_, s) => *s,
            Expr::Set(_, s) => *s,
            Expr::Cell { span, .. } => *span,
            Expr::Binary(_, _, _, s) | Expr::Neg(_, s) => *s,
        }
    }

    /// Calls `f` on every variable name in the term, in order.
    pub fn visit_vars<'a>(&'a self, f: &mut impl FnMut(&'a str, Span)) {
        match self {
            Expr::Var(name, span) => f(name, *span),
            Expr::Binary(_, a, b, _) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Expr::Neg(a, _) => a.visit_vars(f),
            Expr::Wildcard(_)
            | Expr::Int(..)
            | Expr::Str(..)
            | Expr::Set(..)
            | Expr::Cell { .. } => {}
        }
    }
}

/// `rel(arg, ...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// The relation's name.
    pub rel: String,
    /// The arguments.
    pub args: Vec<Expr>,
    /// The whole atom.
    pub span: Span,
    /// Just the relation name.
    pub name_span: Span,
}

/// The aggregate functions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AggFunc {
    /// `count : { ... }`: the number of distinct bindings of the body's own variables.
    Count,
    /// `set X : { ... }`: the set of the values of `X` (numbers from 1 to
    /// [`MAX_SET_MEMBER`]) over the body's bindings, as a bitmask.
    Set {
        /// The collected variable.
        elem: String,
        /// Where it is named.
        span: Span,
    },
    /// `sum X : { ... }`, `min X`, `max X`: the values of `X` over the
    /// body's bindings folded into one (over the solving state, only a
    /// `sum` of digits or a `max`: see the checker's `monotone` pass).
    Fold {
        /// Which fold.
        fold: Fold,
        /// The folded variable.
        elem: String,
        /// Where it is named.
        span: Span,
    },
}

/// One conjunct of a rule body.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A positive atom.
    Atom(Atom),
    /// `!atom`.
    Neg(Atom, Span),
    /// `unless atom` or `unless atom where X op Y`: a guard on the solving
    /// state, checked when the rule fires (the rule derives nothing while
    /// the atom is known, with a value of `X` in that relation to `Y`).
    Guard(Atom, Option<GuardWhere>, Span),
    /// `a op b`.
    Cmp(Expr, CmpOp, Expr, Span),
    /// `count : { body } op bound` or `V = set X : { body }` (normalised so
    /// the aggregate is on the left).
    Aggregate {
        /// The aggregate function.
        func: AggFunc,
        /// The literals inside the braces.
        body: Vec<Literal>,
        /// How the aggregate is compared with the bound.
        op: CmpOp,
        /// The bound it is compared with.
        bound: Expr,
        /// The whole literal.
        span: Span,
    },
}

impl Literal {
    /// Where the literal is written.
    pub fn span(&self) -> Span {
        match self {
            Literal::Atom(a) => a.span,
            Literal::Neg(_, s) | Literal::Guard(_, _, s) | Literal::Cmp(_, _, _, s) => *s,
            Literal::Aggregate { span, .. } => *span,
        }
    }
}

/// The `where X op Y` of a guard: `X` is a column of the guard's atom that
/// the rule does not bind, `Y` what it is compared with (`X in Y`: a set
/// that `X` is a member of).
#[derive(Clone, Debug, PartialEq)]
pub struct GuardWhere {
    /// The left side (a variable of the atom, for a valid guard).
    pub left: Expr,
    /// The comparison, or `in`.
    pub op: WhereOp,
    /// The right side.
    pub right: Expr,
    /// The whole `where` clause.
    pub span: Span,
}

/// `head :- body.` or a fact `head.` (empty body).
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The derived atom.
    pub head: Atom,
    /// The conjunction that derives it; empty for a fact.
    pub body: Vec<Literal>,
    /// Comment lines directly above the rule, joined with spaces: what the
    /// rule means in Sudoku words, shown by reports.
    pub doc: String,
    /// The whole rule, up to and including the final `.`.
    pub span: Span,
    /// Its rating: the `.rating` lines of the group above it (the file's
    /// nearest group before the rule), in order; empty when there is none.
    pub rating: Vec<RatingAlternative>,
}

/// One `.rating` line: a rule's steps are rated `tenths` (on Sudoku
/// Explainer's scale, `4.2` is 42) where its condition holds; the first
/// line of a group whose condition holds rates the step.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingAlternative {
    /// The rating in tenths.
    pub tenths: u32,
    /// `+ length`: a bonus that grows with the length of the pattern
    /// (a chain's nodes), as Sudoku Explainer's chains have.
    pub length_bonus: bool,
    /// `when ...`: literals over the rule's variables, read over the facts
    /// known before the step; empty for the line that always applies.
    pub when: Vec<Literal>,
    /// The whole line.
    pub span: Span,
}

/// A parsed source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// Its declarations, in order.
    pub decls: Vec<Decl>,
    /// Its rules and facts, in order.
    pub rules: Vec<Rule>,
    /// Its `.tier N` directive: when its rules run.
    pub tier: Option<(u32, Span)>,
    /// Its `.assumes unique` directive: its rules are sound only for a
    /// puzzle with one solution, so they are off when solutions are
    /// counted.
    pub assumes_unique: Option<Span>,
    /// Its `.assumes stalled` directive: its rules are sound only on a
    /// state where the singles are stalled (tiers 0 and 1 have nothing
    /// left to derive), which the engine guarantees to every gated tier.
    pub assumes_stalled: Option<Span>,
    /// Its `.input name` directives: relations whose facts come with each
    /// puzzle (the clue lines after it), with where each is written.
    pub inputs: Vec<(String, Span)>,
}
