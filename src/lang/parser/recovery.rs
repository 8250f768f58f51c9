//! Statement boundaries and recovery: where one statement ends and the next
//! begins, which the grammar asks to tell a forgotten `.` from other
//! mistakes, and the skipping of the rest of a broken statement after its
//! one diagnostic, so that the next statement is parsed afresh.

use super::cursor::Parser;
use crate::lang::lexer::TokenKind;

/// The parenthesis and brace depth after a token, given the depth before.
fn nest(depth: usize, kind: &TokenKind) -> usize {
    match kind {
        TokenKind::LParen | TokenKind::LBrace => depth + 1,
        TokenKind::RParen | TokenKind::RBrace => depth.saturating_sub(1),
        _ => depth,
    }
}

impl Parser<'_> {
    /// Whether token `index` is a `.` glued to a name, as in `.decl`. With
    /// `line_start`, it must also begin its line: otherwise `a(X).b(X).`
    /// would look like a directive to the recovery.
    pub(super) fn is_directive_start(&self, index: usize, line_start: bool) -> bool {
        let dot = self.tok_at(index);
        let name = self.tok_at(index + 1);
        matches!(dot.kind, TokenKind::Dot)
            && matches!(name.kind, TokenKind::Ident(_))
            && name.span.start == dot.span.end
            && (!line_start || dot.first_on_line)
    }

    /// Whether the current token looks like the start of a new statement: the
    /// end of the text, a directive, or a token at the very start of a line.
    /// Used to tell a forgotten `.` from other mistakes.
    pub(super) fn at_statement_boundary(&self) -> bool {
        let tok = self.peek();
        if matches!(tok.kind, TokenKind::Eof) {
            return true;
        }
        let at_column_one = self.text[..tok.span.start.min(self.text.len())]
            .rsplit('\n')
            .next()
            .is_some_and(str::is_empty);
        tok.first_on_line && (at_column_one || self.is_directive_start(self.pos, true))
    }

    /// Skips the rest of a broken statement that began at token `start`.
    ///
    /// A rule ends at the next `.` outside parentheses and braces, counted
    /// from the start of the statement. Because the error may be an unclosed
    /// parenthesis, a `.` that ends its line also ends the statement whatever
    /// the depth; otherwise one missing `)` would swallow the rest of the file.
    /// Directives have no final `.`, so they also end before the next line
    /// that starts with a name outside parentheses. Either way skipping stops
    /// before a directive that starts a line: that certainly begins a new
    /// statement.
    pub(super) fn recover(&mut self, start: usize, directive: bool) {
        if std::mem::take(&mut self.resume_here) {
            if self.pos == start {
                self.bump();
            }
            return;
        }
        let mut depth = 0usize;
        let skipped = start.min(self.toks.len())..self.pos.min(self.toks.len());
        for tok in &self.toks[skipped] {
            depth = nest(depth, &tok.kind);
        }
        loop {
            let tok = self.peek();
            match tok.kind {
                TokenKind::Eof => break,
                TokenKind::Dot if self.pos > start && self.is_directive_start(self.pos, true) => {
                    break;
                }
                TokenKind::Dot if depth == 0 || self.tok_at(self.pos + 1).first_on_line => {
                    self.bump();
                    break;
                }
                TokenKind::Ident(_)
                    if directive && depth == 0 && self.pos > start && tok.first_on_line =>
                {
                    break;
                }
                _ => depth = nest(depth, &tok.kind),
            }
            self.bump();
        }
        if self.pos == start {
            self.bump();
        }
    }
}
