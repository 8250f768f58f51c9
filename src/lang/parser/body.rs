//! Rule bodies: literals separated by `,` (atoms, negated atoms, `unless`
//! guards, comparisons), and the atom itself, which is also a rule's head. An
//! aggregate is a literal too; `aggregates` reads its braces, and a
//! comparison with an aggregate on its right (`2 <= count : { ... }`,
//! `V = set X : { ... }`) is turned around here.

use super::cursor::{PResult, Parser};
use super::errors::count_in_arithmetic;
use super::terms::Ctx;
use crate::lang::ast::{AggFunc, Atom, CmpOp, GuardWhere, Literal, WhereOp};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::TokenKind;

/// What a body literal can be: the help of errors where one was expected.
pub(super) const LITERAL_HELP: &str = "a body literal is an atom `rel(...)`, a negated atom `!rel(...)`, \
     a guard `unless placed(C, _)`, a comparison such as `A != B`, or an aggregate such as \
     `count : { ... } >= 2`";

/// What closes a list of literals.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    /// A rule body, closed by `.`.
    Rule,
    /// An aggregate body, closed by `}`.
    Brace,
    /// A query, closed by the end of the text (or an optional `.`).
    Query,
}

/// The comparison operator a token stands for, if it is one.
fn cmp_op(kind: &TokenKind) -> Option<CmpOp> {
    Some(match kind {
        TokenKind::Eq => CmpOp::Eq,
        TokenKind::Ne => CmpOp::Ne,
        TokenKind::Lt => CmpOp::Lt,
        TokenKind::Le => CmpOp::Le,
        TokenKind::Gt => CmpOp::Gt,
        TokenKind::Ge => CmpOp::Ge,
        _ => return None,
    })
}

impl Parser<'_> {
    /// Literals separated by `,`, up to (not including) what closes them.
    pub(super) fn conjunction(&mut self, end: End) -> PResult<Vec<Literal>> {
        let mut literals = Vec::new();
        loop {
            literals.push(self.literal()?);
            match (self.kind(), end) {
                (TokenKind::Comma, _) => {
                    self.bump();
                }
                // A `.decl` on the next line is not this rule's `.`.
                (TokenKind::Dot, End::Rule) if !self.is_directive_start(self.pos, true) => break,
                (TokenKind::Dot, End::Query)
                | (TokenKind::RBrace, End::Brace)
                | (TokenKind::Eof, End::Query) => break,
                _ => return Err(self.after_literal_error(end)),
            }
        }
        Ok(literals)
    }

    fn literal(&mut self) -> PResult<Literal> {
        if let Some(diag) = self.unsupported_aggregate() {
            return Err(diag);
        }
        match self.kind() {
            TokenKind::Bang => self.negation(),
            TokenKind::Ident(_) if self.at_count() => self.aggregate(),
            TokenKind::Ident(_) if self.at_guard() => self.guard(),
            TokenKind::Ident(_) if matches!(self.kind_at(1), TokenKind::LParen) => {
                self.atom_literal()
            }
            TokenKind::Ident(_)
            | TokenKind::Int(_)
            | TokenKind::Str(_)
            | TokenKind::LParen
            | TokenKind::LBrace
            | TokenKind::Minus => self.comparison(),
            _ => Err(self.missing_literal()),
        }
    }

    #[inline(never)]
    fn atom_literal(&mut self) -> PResult<Literal> {
        let atom = self.atom()?;
        self.not_compared(&atom)?;
        Ok(Literal::Atom(atom))
    }

    /// Rejects an atom used as a value, as in `size(N) >= 3`.
    fn not_compared(&self, atom: &Atom) -> PResult<()> {
        if cmp_op(self.kind()).is_some() {
            return Err(Diagnostic::new(
                atom.span,
                format!("the atom `{}(...)` cannot be compared", atom.rel),
            )
            .label("an atom is true or false, not a value")
            .help("bind the value to a variable and compare that, e.g. `size(N), N >= 3`")
            .into());
        }
        Ok(())
    }

    fn negation(&mut self) -> PResult<Literal> {
        let bang = self.bump();
        let is_atom = matches!(self.kind(), TokenKind::Ident(_))
            && !self.at_count()
            && cmp_op(self.kind_at(1)).is_none();
        if !is_atom {
            let help = if self.at_count() {
                "to require that nothing matches, compare the count with 0: `count : { ... } = 0`"
            } else {
                "only atoms can be negated, e.g. `!given(C, D)`; to negate a comparison use \
                 the opposite operator, e.g. `A != B` for `!A = B`"
            };
            return Err(self.expected("an atom after `!`", help));
        }
        let atom = self.atom()?;
        self.not_compared(&atom)?;
        let span = bang.to(atom.span);
        Ok(Literal::Neg(atom, span))
    }

    /// `a op b`, or `a op count : { ... }` (turned around so the aggregate
    /// comes first).
    fn comparison(&mut self) -> PResult<Literal> {
        let start = self.peek().span.start;
        let lhs = self.expr(Ctx::Operand)?;
        let Some(op) = self.comparison_operator()? else {
            return Err(self.missing_comparison(&lhs));
        };
        // `V = set X : { ... }`, `V = sum X : { ... }`: the word and the
        // variable, then the body.
        let fold = self.at_fold();
        if fold.is_none()
            && let Some(diag) = self.unsupported_aggregate()
        {
            return Err(diag);
        }
        if fold.is_some() || self.at_set() {
            self.bump();
            let span = self.peek().span;
            let elem = match self.kind() {
                TokenKind::Ident(name) => name.clone(),
                _ => String::new(),
            };
            let (body, _) = self.count()?;
            self.not_chained()?;
            let func = match fold {
                Some(fold) => AggFunc::Fold { fold, elem, span },
                None => AggFunc::Set { elem, span },
            };
            return Ok(Literal::Aggregate {
                func,
                body,
                op: op.flipped(),
                bound: lhs,
                span: self.span(start, self.prev_end()),
            });
        }
        if self.at_count() {
            let (body, agg_span) = self.count()?;
            if matches!(self.kind(), TokenKind::Plus | TokenKind::Minus) {
                return Err(count_in_arithmetic(agg_span));
            }
            self.not_chained()?;
            return Ok(Literal::Aggregate {
                func: AggFunc::Count,
                body,
                op: op.flipped(),
                bound: lhs,
                span: self.span(start, self.prev_end()),
            });
        }
        let rhs = self.expr(Ctx::Operand)?;
        self.not_chained()?;
        Ok(Literal::Cmp(
            lhs,
            op,
            rhs,
            self.span(start, self.prev_end()),
        ))
    }

    /// Consumes a comparison operator if there is one.
    pub(super) fn comparison_operator(&mut self) -> PResult<Option<CmpOp>> {
        let Some(op) = cmp_op(self.kind()) else {
            return Ok(None);
        };
        let next = self.tok_at(self.pos + 1);
        if op == CmpOp::Eq
            && matches!(next.kind, TokenKind::Eq)
            && next.span.start == self.peek().span.end
        {
            return Err(Diagnostic::new(
                self.peek().span.to(next.span),
                "`==` is not a comparison operator",
            )
            .label("not an operator")
            .help("equality is written `=`")
            .into());
        }
        self.bump();
        Ok(Some(op))
    }

    pub(super) fn not_chained(&self) -> PResult<()> {
        if cmp_op(self.kind()).is_some() {
            return Err(self.fail(
                "comparisons cannot be chained",
                "second comparison",
                "split it into comparisons joined by `,`, e.g. `1 <= X, X <= 9`",
            ));
        }
        Ok(())
    }

    /// Whether a guard starts here: `unless` not followed by `(` or a
    /// comparison (a relation or a variable may still be named `unless`).
    fn at_guard(&self) -> bool {
        self.is_ident(0, "unless")
            && !matches!(self.kind_at(1), TokenKind::LParen)
            && cmp_op(self.kind_at(1)).is_none()
    }

    /// `unless atom`.
    fn guard(&mut self) -> PResult<Literal> {
        let unless = self.bump();
        let is_atom = matches!(self.kind(), TokenKind::Ident(_))
            && !self.at_count()
            && matches!(self.kind_at(1), TokenKind::LParen);
        if !is_atom {
            return Err(self.expected(
                "an atom after `unless`",
                "a guard names one atom of the solving state, e.g. `unless placed(C, _)`: the rule \
                 does not fire while that fact is known",
            ));
        }
        let atom = self.atom()?;
        self.not_compared(&atom)?;
        if !self.is_ident(0, "where") {
            let span = unless.to(atom.span);
            return Ok(Literal::Guard(atom, None, span));
        }
        let start = self.bump();
        let left = self.expr(Ctx::Operand)?;
        let op = match cmp_op(self.kind()) {
            Some(op) => WhereOp::Cmp(op),
            None if self.is_ident(0, "in") => WhereOp::In,
            None => {
                return Err(self.expected(
                    "a comparison or `in` after `where`",
                    "`where` compares a variable of the guard's atom with a variable of the rule, \
                     e.g. `unless tint(D, B, S, _) where S < R`, or asks whether it is in a set, \
                     e.g. `unless filled(U, P) where P in T`",
                ));
            }
        };
        self.bump();
        let right = self.expr(Ctx::Operand)?;
        let span = start.to(right.span());
        let whole = unless.to(span);
        Ok(Literal::Guard(
            atom,
            Some(GuardWhere {
                left,
                op,
                right,
                span,
            }),
            whole,
        ))
    }

    pub(super) fn atom(&mut self) -> PResult<Atom> {
        let TokenKind::Ident(name) = self.kind() else {
            return Err(self.expected("a relation name", LITERAL_HELP));
        };
        let name = name.clone();
        let name_span = self.bump();
        if !matches!(self.kind(), TokenKind::LParen) {
            return Err(self.expected(
                &format!("`(` after `{name}`"),
                &format!(
                    "atoms take their arguments in parentheses; write `{name}()` for an atom \
                     without arguments"
                ),
            ));
        }
        self.bump();
        let mut args = Vec::new();
        if !matches!(self.kind(), TokenKind::RParen) {
            loop {
                args.push(self.expr(Ctx::Arg)?);
                match self.kind() {
                    TokenKind::Comma => {
                        self.bump();
                    }
                    TokenKind::RParen => break,
                    kind => {
                        let unclosed =
                            matches!(kind, TokenKind::Dot | TokenKind::Eof | TokenKind::ColonDash)
                                || self.at_statement_boundary();
                        let help = if unclosed {
                            format!("close the arguments of `{name}` with `)`")
                        } else {
                            "separate the arguments with `,`".to_string()
                        };
                        return Err(self.expected(
                            &format!("`,` or `)` after an argument of `{name}`"),
                            &help,
                        ));
                    }
                }
            }
        }
        let close = self.bump();
        Ok(Atom {
            rel: name,
            args,
            span: name_span.to(close),
            name_span,
        })
    }
}
