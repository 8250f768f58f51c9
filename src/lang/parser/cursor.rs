//! The token cursor: the tokens of one text, the position in them, and what
//! every grammar rule asks of it (the current token and the ones after it,
//! consuming one, the spans of what was read). Nothing here knows the
//! grammar.
//!
//! The cursor also counts how deeply the descent is nested, so that a
//! hostile file cannot overflow the stack, and carries the one flag that
//! recovery needs (see `resume_here`).

use crate::lang::ast::{FileId, Span};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::{Token, TokenKind, lex};

/// How deeply terms and aggregates may nest. The parser recurses once per
/// level and the tree it builds is dropped recursively, so without a bound a
/// hostile file could overflow the stack.
pub(super) const MAX_DEPTH: usize = 200;

/// The parser's internal result. The diagnostic is boxed to keep results
/// small: they live in every frame of the recursive descent.
pub(super) type PResult<T> = Result<T, Box<Diagnostic>>;

/// The state of one parse: the cursor over the tokens of one text, and the
/// nesting depth and recovery flag that the grammar keeps beside it.
pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    file: FileId,
    /// Never empty: the lexer always ends it with `Eof`.
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
    pub(super) depth: usize,
    /// Set by an error that shows the statement already ended (a missing
    /// final `.` before a new line that starts another statement): recovery
    /// then resumes at the current token, because skipping to the next `.`
    /// would swallow the following statement.
    pub(super) resume_here: bool,
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str, file: FileId) -> Self {
        Parser {
            text,
            file,
            toks: lex(text, file),
            pos: 0,
            depth: 0,
            resume_here: false,
        }
    }

    // ----- token access -----

    pub(super) fn tok_at(&self, index: usize) -> &Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[index.min(last)]
    }

    pub(super) fn peek(&self) -> &Token {
        self.tok_at(self.pos)
    }

    pub(super) fn kind(&self) -> &TokenKind {
        &self.peek().kind
    }

    pub(super) fn kind_at(&self, ahead: usize) -> &TokenKind {
        &self.tok_at(self.pos + ahead).kind
    }

    pub(super) fn at_eof(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof)
    }

    /// Consumes the current token (never the final `Eof`) and returns its span.
    pub(super) fn bump(&mut self) -> Span {
        let span = self.peek().span;
        if !self.at_eof() {
            self.pos += 1;
        }
        span
    }

    pub(super) fn prev_end(&self) -> usize {
        match self.pos {
            0 => 0,
            n => self.tok_at(n - 1).span.end,
        }
    }

    pub(super) fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    pub(super) fn is_ident(&self, ahead: usize, name: &str) -> bool {
        matches!(self.kind_at(ahead), TokenKind::Ident(n) if n == name)
    }

    /// Where to point at a problem with the current token: at it, or at the
    /// end of the input just after the last token.
    pub(super) fn here(&self) -> Span {
        if self.at_eof() {
            let end = self.prev_end();
            self.span(end, end)
        } else {
            self.peek().span
        }
    }

    // ----- nesting -----

    /// Enters one level of nesting, refusing to go deeper than [`MAX_DEPTH`].
    pub(super) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(
                Diagnostic::new(self.here(), "expression is too deeply nested")
                    .label("nesting limit reached here")
                    .help(format!(
                        "at most {MAX_DEPTH} levels of parentheses, signs, operators and \
                     aggregates are allowed; split the rule into simpler ones"
                    ))
                    .into(),
            );
        }
        self.depth += 1;
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
