//! Aggregates: `count : { ... }` compared with a bound, the braces that
//! `count`, `set X` and the value aggregates (`sum X`, `min X`, `max X`)
//! share, and misplaced ones (Soufflé's `mean`; `sum` not given to a
//! variable), recognised to be rejected clearly. None of the words is a
//! keyword: they start an aggregate only when its punctuation follows,
//! and are ordinary names otherwise.

use super::body::End;
use super::cursor::{PResult, Parser};
use super::terms::Ctx;
use crate::lang::ast::{AggFunc, Fold, Literal, Span};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::TokenKind;

impl Parser<'_> {
    /// Whether a `set` aggregate starts here: `set X :` (a `set` followed by
    /// anything else is an ordinary name).
    pub(super) fn at_set(&self) -> bool {
        self.is_ident(0, "set")
            && matches!(self.kind_at(1), TokenKind::Ident(_))
            && matches!(self.kind_at(2), TokenKind::Colon)
    }

    /// Whether a `count` aggregate starts here (`count :` or `count {`); a
    /// `count` followed by anything else is an ordinary name.
    pub(super) fn at_count(&self) -> bool {
        self.is_ident(0, "count") && matches!(self.kind_at(1), TokenKind::Colon | TokenKind::LBrace)
    }

    /// Whether a value aggregate starts here: `sum X :`, `min X :`, `max
    /// X :` (the words are ordinary names otherwise).
    pub(super) fn at_fold(&self) -> Option<Fold> {
        let TokenKind::Ident(word) = self.kind() else {
            return None;
        };
        let fold = Fold::from_name(word)?;
        (matches!(self.kind_at(1), TokenKind::Ident(_))
            && matches!(self.kind_at(2), TokenKind::Colon))
        .then_some(fold)
    }

    /// An aggregate where none can stand: Soufflé's `mean`, or `sum`,
    /// `min` and `max` anywhere but on the right of `V =`.
    pub(super) fn unsupported_aggregate(&self) -> Option<Box<Diagnostic>> {
        let TokenKind::Ident(name) = self.kind() else {
            return None;
        };
        if !matches!(name.as_str(), "sum" | "min" | "max" | "mean") {
            return None;
        }
        let shaped = matches!(self.kind_at(1), TokenKind::Colon)
            || (matches!(self.kind_at(1), TokenKind::Ident(_) | TokenKind::Int(_))
                && matches!(self.kind_at(2), TokenKind::Colon));
        if !shaped {
            return None;
        }
        let diag = if name == "mean" {
            Diagnostic::new(self.peek().span, "the `mean` aggregate is not supported")
                .label("unsupported aggregate")
                .help(
                    "the aggregates are `count : { ... }`, `S = set X : { ... }` and \
                     `V = sum X : { ... }` (also `min`, `max`)",
                )
        } else {
            Diagnostic::new(
                self.peek().span,
                format!("`{name}` gives its value to a variable"),
            )
            .label("a value aggregate")
            .help(format!(
                "write `V = {name} X : {{ ... }}` with a variable `V` that nothing else binds, \
                 then compare `V`"
            ))
        };
        Some(diag.into())
    }

    /// `count : { ... } op bound`.
    pub(super) fn aggregate(&mut self) -> PResult<Literal> {
        let (body, agg_span) = self.count()?;
        let Some(op) = self.comparison_operator()? else {
            return Err(self.uncompared_count(agg_span));
        };
        if let Some(diag) = self.unsupported_aggregate() {
            return Err(diag);
        }
        let bound = self.expr(Ctx::Bound)?;
        self.not_chained()?;
        Ok(Literal::Aggregate {
            func: AggFunc::Count,
            body,
            op,
            span: self.span(agg_span.start, self.prev_end()),
            bound,
        })
    }

    /// `count : { body }`; returns the body and the span of the whole.
    pub(super) fn count(&mut self) -> PResult<(Vec<Literal>, Span)> {
        let count = self.bump();
        if !matches!(self.kind(), TokenKind::Colon) {
            return Err(self.malformed_count());
        }
        self.bump();
        if !matches!(self.kind(), TokenKind::LBrace) {
            return Err(self.malformed_count());
        }
        self.enter()?;
        self.bump();
        let body = self.conjunction(End::Brace)?;
        let close = self.bump();
        self.leave();
        Ok((body, count.to(close)))
    }
}
