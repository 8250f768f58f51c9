//! Terms: variables, `_`, integers, strings, cells such as `r3c5`, units
//! such as `box5`, sets such as `{2,7}`, and sums, differences and
//! negations of terms, in parentheses or not. `+` and `-` are
//! left-associative; every node's span covers all of its text.

use super::cursor::{PResult, Parser};
use crate::lang::ast::{BinOp, Expr};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::{TokenKind, integer_too_large};

const TERM_HELP: &str = "a term is a variable, `_`, a number, a string, a cell such as `r3c5`, \
     a unit such as `box5`, a set such as `{2,7}`, or terms joined by `+`, `-`, `*`, `/` and `%`";

/// Where a term stands, which decides how a misplaced `count` is explained.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    /// An argument of an atom.
    Arg,
    /// A side of a plain comparison.
    Operand,
    /// An operand of `+`, `-` or unary `-`.
    Arith,
    /// The bound an aggregate is compared with.
    Bound,
    /// Inside parentheses.
    Paren,
}

/// `r<digits>c<digits>` as a cell; `Some(None)` when it has that shape but a
/// number does not fit in `u32`.
fn cell(name: &str) -> Option<Option<(u32, u32)>> {
    let rest = name.strip_prefix('r')?;
    let (row, col) = rest.split_once('c')?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(row) || !all_digits(col) {
        return None;
    }
    Some(row.parse().ok().zip(col.parse().ok()))
}

/// Whether `name` is `row<n>`, `col<n>` or `box<n>` (n from 1, no leading
/// zero): a unit of the grid, named as reports print it. Units are
/// symbols, so the name stands for the string `"box5"`; without this,
/// `box5` would be a variable that matches every unit.
pub fn is_unit_constant(name: &str) -> bool {
    unit_constant_parts(name).is_some()
}

/// The kind and number of a unit constant (`box10`: `("box", 10)`), if
/// `name` is one (see [`is_unit_constant`]; a number too large for `u64`
/// reads as `u64::MAX`, beyond every grid all the same).
pub fn unit_constant_parts(name: &str) -> Option<(&'static str, u64)> {
    ["row", "col", "box"].into_iter().find_map(|kind| {
        let n = name.strip_prefix(kind)?;
        let digits = !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
        digits.then(|| (kind, n.parse().unwrap_or(u64::MAX)))
    })
}

const SET_HELP: &str = "a set is written as reports print it: whole numbers between braces, \
     separated by commas, such as `{2,7}` (or `{}`)";

impl Parser<'_> {
    /// `{2,7}` (or `{}`): a set constant, as reports print sets.
    fn set_constant(&mut self) -> PResult<Expr> {
        let start = self.bump().start;
        let mut members = Vec::new();
        if !matches!(self.kind(), TokenKind::RBrace) {
            loop {
                let TokenKind::Int(value) = *self.kind() else {
                    return Err(self.expected("a member of the set (a whole number)", SET_HELP));
                };
                let span = self.bump();
                members.push(i64::try_from(value).map_err(|_| integer_too_large(span))?);
                match self.kind() {
                    TokenKind::Comma => {
                        self.bump();
                    }
                    TokenKind::RBrace => break,
                    _ => return Err(self.expected("`,` or `}` in the set", SET_HELP)),
                }
            }
        }
        let end = self.bump().end;
        Ok(Expr::Set(members, self.span(start, end)))
    }

    /// A term: products joined by left-associative `+`, `-` and `|`
    /// (union binds as addition does).
    pub(super) fn expr(&mut self, ctx: Ctx) -> PResult<Expr> {
        self.left_assoc(ctx, Self::product, |k| match k {
            TokenKind::Plus => Some(BinOp::Add),
            TokenKind::Minus => Some(BinOp::Sub),
            TokenKind::Pipe => Some(BinOp::Union),
            _ => None,
        })
    }

    /// Operands joined by left-associative `*`, `/`, `%` and `&`
    /// (intersection binds as multiplication does), which bind tighter
    /// than `+`, `-` and `|`.
    fn product(&mut self, ctx: Ctx) -> PResult<Expr> {
        self.left_assoc(ctx, Self::unary, |k| match k {
            TokenKind::Star => Some(BinOp::Mul),
            TokenKind::Slash => Some(BinOp::Div),
            TokenKind::Percent => Some(BinOp::Mod),
            TokenKind::Amp => Some(BinOp::Inter),
            _ => None,
        })
    }

    /// One precedence level: `operand`s joined by the left-associative
    /// operators `op` knows.
    fn left_assoc(
        &mut self,
        ctx: Ctx,
        operand: fn(&mut Self, Ctx) -> PResult<Expr>,
        op: fn(&TokenKind) -> Option<BinOp>,
    ) -> PResult<Expr> {
        let start = self.peek().span.start;
        let saved = self.depth;
        let mut lhs = operand(self, ctx)?;
        while let Some(op) = op(self.kind()) {
            // Each operator deepens the left-leaning tree by one level.
            self.enter()?;
            self.bump();
            let rhs = operand(self, Ctx::Arith)?;
            lhs = Expr::Binary(
                op,
                Box::new(lhs),
                Box::new(rhs),
                self.span(start, self.prev_end()),
            );
        }
        self.depth = saved;
        Ok(lhs)
    }

    fn unary(&mut self, ctx: Ctx) -> PResult<Expr> {
        if !matches!(self.kind(), TokenKind::Minus) {
            return self.primary(ctx);
        }
        self.enter()?;
        let minus = self.bump();
        // The one integer that exists only negated.
        if matches!(self.kind(), TokenKind::Int(v) if *v == i64::MIN.unsigned_abs()) {
            let int = self.bump();
            self.leave();
            return Ok(Expr::Int(i64::MIN, minus.to(int)));
        }
        let operand = self.unary(Ctx::Arith)?;
        self.leave();
        Ok(Expr::Neg(
            Box::new(operand),
            self.span(minus.start, self.prev_end()),
        ))
    }

    fn primary(&mut self, ctx: Ctx) -> PResult<Expr> {
        if !matches!(self.kind(), TokenKind::LParen) {
            return self.operand(ctx);
        }
        self.enter()?;
        self.bump();
        let inner = self.expr(Ctx::Paren)?;
        if !matches!(self.kind(), TokenKind::RParen) {
            return Err(self.unclosed_paren());
        }
        self.bump();
        self.leave();
        Ok(inner)
    }

    /// A term other than a parenthesised one: a name, a constant, or a
    /// mistake. Kept out of [`Parser::primary`] so that the frames of deeply
    /// parenthesised terms stay small.
    #[inline(never)]
    fn operand(&mut self, ctx: Ctx) -> PResult<Expr> {
        if let Some(diag) = self.unsupported_aggregate() {
            return Err(diag);
        }
        match self.kind() {
            TokenKind::Ident(_) if self.at_count() => Err(self.misplaced_count(ctx)),
            TokenKind::Ident(name) if matches!(self.kind_at(1), TokenKind::LParen) => {
                let name = name.clone();
                Err(self.fail(
                    format!("the atom `{name}(...)` cannot be used as a term"),
                    "atom inside a term",
                    &format!(
                        "atoms do not nest; make `{name}(...)` a separate literal of the body \
                         and share a variable with it"
                    ),
                ))
            }
            TokenKind::Ident(name) => {
                let name = name.clone();
                let span = self.bump();
                Ok(match cell(&name) {
                    _ if name == "_" => Expr::Wildcard(span),
                    _ if is_unit_constant(&name) => Expr::Str(name, span),
                    Some(Some((row, col))) => Expr::Cell { row, col, span },
                    Some(None) => {
                        return Err(Diagnostic::new(
                            span,
                            format!("the cell `{name}` has a row or column number too large"),
                        )
                        .label("no such cell")
                        .help("rows and columns are numbered from 1 up to the size of the grid")
                        .into());
                    }
                    None => Expr::Var(name, span),
                })
            }
            TokenKind::Int(value) => {
                let value = *value;
                let span = self.bump();
                i64::try_from(value)
                    .map(|v| Expr::Int(v, span))
                    .map_err(|_| integer_too_large(span).into())
            }
            TokenKind::Str(value) => {
                let value = value.clone();
                let span = self.bump();
                Ok(Expr::Str(value, span))
            }
            TokenKind::LBrace => self.set_constant(),
            TokenKind::RParen
                if self.pos > 0 && matches!(self.tok_at(self.pos - 1).kind, TokenKind::Comma) =>
            {
                Err(self.fail(
                    "expected another argument after `,`, found `)`",
                    "expected a term",
                    "remove the trailing `,` or add an argument after it",
                ))
            }
            _ => Err(self.expected("a term", TERM_HELP)),
        }
    }
}
