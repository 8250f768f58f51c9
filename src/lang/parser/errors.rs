//! The wording of what the parser reports: the builders every grammar rule
//! uses ("expected X, found Y" at the current token, or the lexer's own
//! error when the current token is one), and the explanations of particular
//! mistakes, which look around the current token to guess what was meant (a
//! forgotten `.`, a trailing `,`, an unclosed parenthesis, a `count` where a
//! term belongs).
//!
//! The explanations are `#[cold]` and `#[inline(never)]`: in unoptimised
//! builds every temporary of an error message would otherwise enlarge each
//! frame of the recursive descent, and so lower the nesting that fits the
//! stack.

use super::body::{End, LITERAL_HELP};
use super::cursor::Parser;
use super::terms::Ctx;
use crate::lang::ast::{Expr, Span};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::TokenKind;

impl Parser<'_> {
    // ----- builders -----

    /// The current token in words, for "found ..." messages.
    pub(super) fn found(&self) -> String {
        let tok = self.peek();
        match &tok.kind {
            TokenKind::Eof => "the end of the input".to_string(),
            TokenKind::Str(_) => "a string".to_string(),
            TokenKind::Ident(name) => format!("`{name}`"),
            _ => {
                let written = self
                    .text
                    .get(tok.span.start..tok.span.end)
                    .unwrap_or_default();
                match written.char_indices().nth(20) {
                    Some((cut, _)) => format!("`{}...`", &written[..cut]),
                    None => format!("`{written}`"),
                }
            }
        }
    }

    /// A diagnostic about the current token, unless the current token is a
    /// lexical error: that is the real problem, so it is reported instead.
    pub(super) fn fail(
        &self,
        message: impl Into<String>,
        label: &str,
        help: &str,
    ) -> Box<Diagnostic> {
        if let TokenKind::Error(diag) = self.kind() {
            return diag.clone();
        }
        Box::new(
            Diagnostic::new(self.here(), message)
                .label(label)
                .help(help),
        )
    }

    /// "expected `what`, found ..." at the current token.
    pub(super) fn expected(&self, what: &str, help: &str) -> Box<Diagnostic> {
        self.fail(
            format!("expected {what}, found {}", self.found()),
            &format!("expected {what}"),
            help,
        )
    }

    pub(super) fn missing_dot(&mut self) -> Box<Diagnostic> {
        self.resume_here = true;
        let end = self.prev_end();
        Diagnostic::new(self.span(end, end), "expected `.` at the end of the rule")
            .label("add `.` here")
            .help("rules end with `.`")
            .into()
    }

    // ----- explanations -----

    /// What is wrong after a literal that is followed by neither `,` nor
    /// what closes the list.
    // Out of line, like the other error paths of the recursive functions:
    // in unoptimised builds every temporary of an error message would
    // otherwise enlarge each recursion frame.
    #[cold]
    #[inline(never)]
    pub(super) fn after_literal_error(&mut self, end: End) -> Box<Diagnostic> {
        match end {
            _ if matches!(self.kind(), TokenKind::Semi) => self.fail(
                "`;` (disjunction) is not supported",
                "disjunction",
                "write a separate rule for each alternative",
            ),
            End::Rule if self.at_statement_boundary() => self.missing_dot(),
            End::Rule => self.expected(
                "`,` or `.` after this literal",
                "separate body literals with `,` and end the rule with `.`",
            ),
            End::Brace => self.expected(
                "`,` or `}` after this literal",
                "separate the counted literals with `,` and close the aggregate with `}`",
            ),
            End::Query => {
                self.expected("`,` or the end of the query", "separate literals with `,`")
            }
        }
    }

    /// Explains why no literal starts at the current token, using what came
    /// before it to guess the mistake.
    #[cold]
    #[inline(never)]
    pub(super) fn missing_literal(&self) -> Box<Diagnostic> {
        let prev = match self.pos {
            0 => None,
            n => Some(&self.tok_at(n - 1).kind),
        };
        let at_end = matches!(
            self.kind(),
            TokenKind::Dot | TokenKind::RBrace | TokenKind::Eof
        );
        match prev {
            Some(TokenKind::Comma) if at_end => self.fail(
                format!("expected another literal after `,`, found {}", self.found()),
                "expected a literal",
                "remove the trailing `,` or add a literal after it",
            ),
            Some(TokenKind::ColonDash) if at_end => self.fail(
                format!("expected a rule body after `:-`, found {}", self.found()),
                "expected a literal",
                "write at least one literal after `:-`, or remove `:-` to make a fact",
            ),
            Some(TokenKind::LBrace) if matches!(self.kind(), TokenKind::RBrace) => self.fail(
                "an aggregate needs at least one literal",
                "empty aggregate",
                "write the literals to count inside the braces, e.g. `count : { candidate(C, D) }`",
            ),
            _ => self.expected("a body literal", LITERAL_HELP),
        }
    }

    /// The error for a term that starts a literal but is compared with nothing.
    #[cold]
    #[inline(never)]
    pub(super) fn missing_comparison(&self, lhs: &Expr) -> Box<Diagnostic> {
        match lhs {
            Expr::Var(name, _) => self.expected(
                &format!("`(` or a comparison after `{name}`"),
                &format!(
                    "atoms take their arguments in parentheses (`{name}()` has none); \
                     terms are compared with `=`, `!=`, `<`, `<=`, `>` or `>=`"
                ),
            ),
            _ => self.expected(
                "a comparison operator after this term",
                "compare terms with `=`, `!=`, `<`, `<=`, `>` or `>=`",
            ),
        }
    }

    /// The error for a `count` not followed by `: {`, at the token that
    /// should have been `:` or `{`.
    #[cold]
    #[inline(never)]
    pub(super) fn malformed_count(&self) -> Box<Diagnostic> {
        if matches!(
            self.tok_at(self.pos.saturating_sub(1)).kind,
            TokenKind::Colon
        ) {
            self.expected(
                "`{` after `count :`",
                "the literals to count go in braces: `count : { ... }`",
            )
        } else {
            self.expected("`:` after `count`", "write `count : { ... }`")
        }
    }

    /// The error for `count : { ... }` at `agg_span` followed by no
    /// comparison operator.
    #[cold]
    #[inline(never)]
    pub(super) fn uncompared_count(&self, agg_span: Span) -> Box<Diagnostic> {
        match self.kind() {
            TokenKind::Plus | TokenKind::Minus => return count_in_arithmetic(agg_span),
            TokenKind::Error(diag) => return diag.clone(),
            _ => {}
        }
        Diagnostic::new(agg_span, "this `count` is not compared with anything")
            .label("not compared")
            .help("compare it with a bound, e.g. `count : { ... } >= 2`")
            .into()
    }

    #[cold]
    #[inline(never)]
    pub(super) fn unclosed_paren(&self) -> Box<Diagnostic> {
        self.fail(
            format!(
                "expected `)` to close the parenthesis, found {}",
                self.found()
            ),
            "expected `)`",
            "every `(` needs a matching `)`",
        )
    }

    /// The error for a `count` aggregate standing where a plain term belongs.
    #[cold]
    #[inline(never)]
    pub(super) fn misplaced_count(&self, ctx: Ctx) -> Box<Diagnostic> {
        // Find the aggregate's extent by matching braces rather than parsing
        // it: parsing would recurse, and whatever is wrong inside matters
        // less than the aggregate being in the wrong place.
        let count = self.peek().span;
        let mut span = count.to(self.tok_at(self.pos + 1).span);
        let mut after = None;
        if matches!(self.kind_at(1), TokenKind::Colon)
            && matches!(self.kind_at(2), TokenKind::LBrace)
        {
            let mut depth = 0usize;
            for (index, tok) in self.toks.iter().enumerate().skip(self.pos + 2) {
                match tok.kind {
                    TokenKind::LBrace => depth += 1,
                    TokenKind::RBrace => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            span = count.to(tok.span);
                            after = Some(&self.tok_at(index + 1).kind);
                            break;
                        }
                    }
                    // An aggregate never contains a `.`: it was not closed.
                    TokenKind::Dot | TokenKind::Eof => break,
                    _ => {}
                }
            }
        }
        if ctx == Ctx::Arith || matches!(after, Some(TokenKind::Plus | TokenKind::Minus)) {
            return count_in_arithmetic(span);
        }
        let diag = match ctx {
            Ctx::Arg => Diagnostic::new(span, "`count` cannot be an argument of an atom")
                .label("aggregate used as an argument")
                .help(
                    "compare it with a variable in the body and pass the variable, \
                     e.g. `count : { ... } = N`",
                ),
            Ctx::Bound => Diagnostic::new(
                span,
                "an aggregate cannot be compared with another aggregate",
            )
            .label("second aggregate")
            .help("compare each aggregate with a variable or a number"),
            Ctx::Operand | Ctx::Paren | Ctx::Arith => {
                Diagnostic::new(span, "`count` cannot be put in parentheses")
                    .label("aggregate in parentheses")
                    .help("write it without parentheses, e.g. `count : { ... } >= 2`")
            }
        };
        diag.into()
    }
}

/// The error for a `count` aggregate at `agg_span` used as an operand of
/// `+`, `-` or unary `-`.
pub(super) fn count_in_arithmetic(agg_span: Span) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(agg_span, "`count` cannot be used inside arithmetic")
            .label("aggregate used in arithmetic")
            .help(
                "keep the aggregate alone on one side of the comparison and move the arithmetic \
             to the other side, e.g. `count : { ... } >= N - 1`",
            ),
    )
}
