//! The lexer of the rule language: splits a rule file into tokens.
//!
//! It never fails. A lexical problem (an unterminated string or comment, a
//! stray character, a number that does not fit) becomes a
//! [`TokenKind::Error`] token carrying its diagnostic; the parser reports it
//! as the problem of the statement it sits in and recovers as after any
//! syntax error, so one bad character costs one diagnostic, not the file.
//!
//! Comments are dropped, except that the `//` lines directly above a token
//! are kept on it as its [`Token::doc`]: the parser takes the doc of a
//! statement's first token as the documentation of the declaration or rule.

use super::ast::{FileId, Span};
use super::diag::Diagnostic;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// `[A-Za-z_][A-Za-z0-9_]*`. Keywords (`count`, `decl`) and `_` are
    /// identifiers too: what they mean depends on where they stand.
    Ident(String),
    /// A decimal integer. Unsigned because the sign is a separate unary
    /// minus and `9223372036854775808` has to survive until it is negated
    /// into `i64::MIN`; the parser rejects larger values in other places.
    Int(u64),
    /// A string literal, its escapes already resolved.
    Str(String),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `.`, which ends a statement and starts a directive such as `.decl`.
    Dot,
    /// `:` (after `count`, and in declarations).
    Colon,
    /// `:-`
    ColonDash,
    /// `!` (negation).
    Bang,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `|` (the union of two sets)
    Pipe,
    /// `&` (the intersection of two sets)
    Amp,
    /// `/` (not starting a comment)
    Slash,
    /// `%`
    Percent,
    /// `;`, lexed only so the parser can explain that disjunction is not
    /// supported instead of calling it an unknown character.
    Semi,
    /// A lexical error; the token's span covers the offending text, the
    /// diagnostic's span the exact spot to point at.
    Error(Box<Diagnostic>),
    /// The end of the text; always the last token, and the only one.
    Eof,
}

/// One token of a rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is written.
    pub span: Span,
    /// The `//` comment lines directly above it (no blank line, no block
    /// comment and no other token in between), each trimmed and joined with
    /// single spaces; empty when there are none.
    pub doc: String,
    /// Whether no other token precedes it on its line. The parser uses it to
    /// guess where a statement that lacks its final `.` ended.
    pub first_on_line: bool,
}

/// Splits `text` into tokens whose spans carry `file`. The result always ends
/// with a [`TokenKind::Eof`] token.
pub fn lex(text: &str, file: FileId) -> Vec<Token> {
    let mut lexer = Lexer {
        text,
        file,
        pos: 0,
        tokens: Vec::new(),
        doc_lines: Vec::new(),
        newlines_since_doc: 0,
        line_has_token: false,
        line_has_text: false,
    };
    // Editors on some systems save a byte-order mark; it is not a character
    // of the program.
    if text.starts_with('\u{feff}') {
        lexer.pos = '\u{feff}'.len_utf8();
    }
    lexer.run();
    lexer.tokens
}

/// The diagnostic for an integer outside `i64`, shared with the parser (which
/// finds the values between `i64::MAX` and `u64::MAX`).
pub(super) fn integer_too_large(span: Span) -> Diagnostic {
    Diagnostic::new(span, "integer too large")
        .label("does not fit in 64 bits")
        .help("integers must lie between -9223372036854775808 and 9223372036854775807")
}

struct Lexer<'a> {
    text: &'a str,
    file: FileId,
    /// Always on a char boundary: the lexer only steps over ASCII bytes or
    /// whole chars.
    pos: usize,
    tokens: Vec<Token>,
    /// `//` lines waiting for the token they document.
    doc_lines: Vec<String>,
    /// Two newlines since the last doc line mean a blank line, which detaches
    /// the comment from what follows.
    newlines_since_doc: usize,
    line_has_token: bool,
    /// Like `line_has_token` but also set by comments: a `//` comment after
    /// anything on its line is a remark about that line, not a doc line.
    line_has_text: bool,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Lexer<'_> {
    fn run(&mut self) {
        loop {
            self.skip_trivia();
            if self.pos >= self.text.len() {
                break;
            }
            self.token();
        }
        let end = self.text.len();
        self.push(TokenKind::Eof, end, end);
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        let doc = self
            .doc_lines
            .iter()
            .filter(|line| !line.is_empty())
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ");
        self.doc_lines.clear();
        let first_on_line = !self.line_has_token;
        self.line_has_token = true;
        self.line_has_text = true;
        self.tokens.push(Token {
            kind,
            span: self.span(start, end),
            doc,
            first_on_line,
        });
    }

    fn error(&mut self, start: usize, end: usize, diag: Diagnostic) {
        self.push(TokenKind::Error(Box::new(diag)), start, end);
    }

    fn peek_char(&self) -> Option<char> {
        self.text
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    /// Skips whitespace and comments, collecting doc lines on the way.
    fn skip_trivia(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.line_has_token = false;
                    self.line_has_text = false;
                    self.newlines_since_doc += 1;
                    if self.newlines_since_doc >= 2 {
                        self.doc_lines.clear();
                    }
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => {
                    let end = self.text[self.pos..]
                        .find('\n')
                        .map_or(self.text.len(), |i| self.pos + i);
                    if self.line_has_text {
                        self.doc_lines.clear();
                    } else {
                        self.doc_lines
                            .push(self.text[self.pos + 2..end].trim().to_string());
                        self.newlines_since_doc = 0;
                    }
                    self.line_has_text = true;
                    self.pos = end;
                }
                b'/' if bytes.get(self.pos + 1) == Some(&b'*') => {
                    self.doc_lines.clear();
                    self.line_has_text = true;
                    let start = self.pos;
                    match self.text[start + 2..].find("*/") {
                        Some(i) => {
                            let end = start + 2 + i + 2;
                            if self.text[start..end].contains('\n') {
                                self.line_has_token = false;
                            }
                            self.pos = end;
                        }
                        None => {
                            let diag = Diagnostic::new(
                                self.span(start, start + 2),
                                "unterminated block comment",
                            )
                            .label("this comment is never closed")
                            .help("close it with */");
                            let end = self.text.len();
                            self.error(start, end, diag);
                            self.pos = end;
                        }
                    }
                }
                _ if b >= 0x80 => match self.peek_char() {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => return,
                },
                _ => return,
            }
        }
    }

    /// Lexes one token at `self.pos` (which is not at the end).
    fn token(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let b = bytes[start];
        let next = bytes.get(start + 1).copied();
        let (kind, len) = match b {
            b'(' => (TokenKind::LParen, 1),
            b')' => (TokenKind::RParen, 1),
            b'{' => (TokenKind::LBrace, 1),
            b'}' => (TokenKind::RBrace, 1),
            b',' => (TokenKind::Comma, 1),
            b'.' => (TokenKind::Dot, 1),
            b';' => (TokenKind::Semi, 1),
            b'+' => (TokenKind::Plus, 1),
            b'-' => (TokenKind::Minus, 1),
            b'*' => (TokenKind::Star, 1),
            b'|' => (TokenKind::Pipe, 1),
            b'&' => (TokenKind::Amp, 1),
            b'/' => (TokenKind::Slash, 1),
            b'%' => (TokenKind::Percent, 1),
            b'=' => (TokenKind::Eq, 1),
            b':' if next == Some(b'-') => (TokenKind::ColonDash, 2),
            b':' => (TokenKind::Colon, 1),
            b'!' if next == Some(b'=') => (TokenKind::Ne, 2),
            b'!' => (TokenKind::Bang, 1),
            b'<' if next == Some(b'=') => (TokenKind::Le, 2),
            b'<' => (TokenKind::Lt, 1),
            b'>' if next == Some(b'=') => (TokenKind::Ge, 2),
            b'>' => (TokenKind::Gt, 1),
            b'"' => return self.string(),
            b'0'..=b'9' => return self.number(),
            _ if is_ident_start(b) => return self.ident(),
            b'^' => {
                let op = char::from(b);
                let diag = Diagnostic::new(
                    self.span(start, start + 1),
                    format!("the operator `{op}` is not supported"),
                )
                .label("unsupported operator")
                .help("arithmetic in rules has `+`, `-`, `*`, `/` and `%`, and sets have `|` (union) and `&` (intersection)");
                self.pos += 1;
                return self.error(start, start + 1, diag);
            }
            _ => return self.unexpected_char(),
        };
        self.pos += len;
        self.push(kind, start, self.pos);
    }

    fn unexpected_char(&mut self) {
        let start = self.pos;
        let c = self.peek_char().unwrap_or('\u{fffd}');
        let end = start + c.len_utf8().max(1);
        let mut diag = Diagnostic::new(
            self.span(start, end),
            format!("unexpected character `{}`", c.escape_debug()),
        )
        .label("not part of the rule language");
        diag = match c {
            '\'' => diag.help("strings are written in double quotes: \"...\""),
            '#' => diag.help("comments start with `//`; there is no preprocessor"),
            _ => diag.help("remove it"),
        };
        self.pos = end.min(self.text.len());
        self.error(start, self.pos, diag);
    }

    fn ident(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        while bytes.get(self.pos).is_some_and(|&b| is_ident_char(b)) {
            self.pos += 1;
        }
        let name = self.text[start..self.pos].to_string();
        self.push(TokenKind::Ident(name), start, self.pos);
    }

    /// Whether the tokens so far end with `.rating`.
    fn after_rating(&self) -> bool {
        match self.tokens.as_slice() {
            [.., dot, word] => {
                dot.kind == TokenKind::Dot
                    && word.kind == TokenKind::Ident("rating".to_string())
                    && dot.span.end == word.span.start
            }
            _ => false,
        }
    }

    fn number(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let digits = |pos: &mut usize| {
            while bytes.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
        };
        digits(&mut self.pos);
        // A number glued to a fraction or to letters is one mistake, not an
        // integer followed by a second, confusing token.
        if bytes.get(self.pos) == Some(&b'.')
            && bytes.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
        {
            // A rating is the one decimal of the language (`.rating 4.2`):
            // its point stays a token of its own, for the parser to read.
            if self.after_rating() {
                let value = self.text[start..self.pos]
                    .parse::<u64>()
                    .unwrap_or(u64::MAX);
                return self.push(TokenKind::Int(value), start, self.pos);
            }
            self.pos += 1;
            digits(&mut self.pos);
            let diag = Diagnostic::new(
                self.span(start, self.pos),
                "fractional numbers are not supported",
            )
            .label("not an integer")
            .help("rule files use integers only");
            return self.error(start, self.pos, diag);
        }
        if bytes.get(self.pos).is_some_and(|&b| is_ident_char(b)) {
            while bytes.get(self.pos).is_some_and(|&b| is_ident_char(b)) {
                self.pos += 1;
            }
            let diag = Diagnostic::new(
                self.span(start, self.pos),
                format!(
                    "`{}` is neither a number nor a name",
                    &self.text[start..self.pos]
                ),
            )
            .label("invalid token")
            .help(
                "names cannot start with a digit, and numbers are written in decimal digits only",
            );
            return self.error(start, self.pos, diag);
        }
        match self.text[start..self.pos].parse::<u64>() {
            Ok(value) => self.push(TokenKind::Int(value), start, self.pos),
            Err(_) => {
                let diag = integer_too_large(self.span(start, self.pos));
                self.error(start, self.pos, diag);
            }
        }
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut bad_escape: Option<Diagnostic> = None;
        loop {
            match self.peek_char() {
                None | Some('\n') => {
                    // The string swallowed the rest of the line; pointing at
                    // the opening quote shows where the damage began.
                    let diag = Diagnostic::new(self.span(start, start + 1), "unterminated string")
                        .label("this string is never closed")
                        .help("close it with `\"` on the same line");
                    return self.error(start, self.pos, diag);
                }
                Some('"') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => {
                    let escape_start = self.pos;
                    self.pos += 1;
                    let Some(written) = self.peek_char() else {
                        continue;
                    };
                    let resolved = match written {
                        // Leave the newline to the unterminated string check.
                        '\n' => continue,
                        '"' => '"',
                        '\\' => '\\',
                        'n' => '\n',
                        't' => '\t',
                        other => {
                            if bad_escape.is_none() {
                                bad_escape = Some(
                                    Diagnostic::new(
                                        self.span(escape_start, self.pos + other.len_utf8()),
                                        format!(
                                            "unknown escape `\\{}` in a string",
                                            other.escape_debug()
                                        ),
                                    )
                                    .label("unknown escape")
                                    .help("the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`"),
                                );
                            }
                            other
                        }
                    };
                    self.pos += written.len_utf8();
                    value.push(resolved);
                }
                Some(c) => {
                    self.pos += c.len_utf8();
                    value.push(c);
                }
            }
        }
        match bad_escape {
            Some(diag) => self.error(start, self.pos, diag),
            None => self.push(TokenKind::Str(value), start, self.pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(text, 0).into_iter().map(|t| t.kind).collect()
    }

    fn error_message(text: &str) -> (String, Span) {
        lex(text, 0)
            .into_iter()
            .find_map(|t| match t.kind {
                TokenKind::Error(d) => Some((d.message, d.span)),
                _ => None,
            })
            .expect("an error token")
    }

    #[test]
    fn punctuation_and_operators() {
        use TokenKind::*;
        assert_eq!(
            kinds("( ) { } , . : :- ! = != < <= > >= + - * / % ;"),
            vec![
                LParen, RParen, LBrace, RBrace, Comma, Dot, Colon, ColonDash, Bang, Eq, Ne, Lt, Le,
                Gt, Ge, Plus, Minus, Star, Slash, Percent, Semi, Eof
            ]
        );
    }

    #[test]
    fn identifiers_numbers_strings() {
        use TokenKind::*;
        assert_eq!(
            kinds(r#"peer _ r3c5 X_1 42 "a\"b\\c\nd\te""#),
            vec![
                Ident("peer".into()),
                Ident("_".into()),
                Ident("r3c5".into()),
                Ident("X_1".into()),
                Int(42),
                Str("a\"b\\c\nd\te".into()),
                Eof
            ]
        );
    }

    #[test]
    fn spans_are_byte_offsets() {
        let toks = lex("ab  \"é\" 7", 3);
        assert_eq!(toks[0].span, Span::new(3, 0, 2));
        assert_eq!(toks[1].span, Span::new(3, 4, 8));
        assert_eq!(toks[2].span, Span::new(3, 9, 10));
        assert_eq!(toks[3].span, Span::new(3, 10, 10));
    }

    #[test]
    fn comments_are_skipped() {
        use TokenKind::*;
        assert_eq!(
            kinds("a // x ( \n /* ( \n */ b"),
            vec![Ident("a".into()), Ident("b".into()), Eof]
        );
    }

    #[test]
    fn doc_lines_attach_to_the_next_token() {
        let toks = lex("// one\n  //   two  \nfoo", 0);
        assert_eq!(toks[0].doc, "one two");
    }

    #[test]
    fn blank_line_block_comment_and_trailing_comment_detach_docs() {
        assert_eq!(lex("// one\n\nfoo", 0)[0].doc, "");
        assert_eq!(lex("// one\n/* two */\nfoo", 0)[0].doc, "");
        assert_eq!(lex("// one\n/* two */ foo", 0)[0].doc, "");
        let toks = lex("a // remark\nb", 0);
        assert_eq!(toks[1].doc, "");
        // A blank line only detaches the lines above it.
        assert_eq!(lex("// one\n\n// two\nfoo", 0)[0].doc, "two");
    }

    #[test]
    fn first_on_line() {
        let toks = lex("a b\n  c /* x\n */ d", 0);
        let flags: Vec<bool> = toks.iter().map(|t| t.first_on_line).collect();
        assert_eq!(flags, vec![true, false, true, true, false]);
    }

    #[test]
    fn unterminated_string_ends_at_the_line() {
        let toks = lex("\"abc\nfoo", 0);
        assert!(
            matches!(&toks[0].kind, TokenKind::Error(d) if d.message == "unterminated string" && d.span == Span::new(0, 0, 1))
        );
        assert_eq!(toks[0].span, Span::new(0, 0, 4));
        assert_eq!(toks[1].kind, TokenKind::Ident("foo".into()));
        assert_eq!(error_message("x \"abc\\").0, "unterminated string");
    }

    #[test]
    fn unterminated_block_comment() {
        let (message, span) = error_message("a /* b\n c");
        assert_eq!(message, "unterminated block comment");
        assert_eq!(span, Span::new(0, 2, 4));
    }

    #[test]
    fn bad_escape() {
        let (message, span) = error_message(r#""a\qb" x"#);
        assert_eq!(message, "unknown escape `\\q` in a string");
        assert_eq!(span, Span::new(0, 2, 4));
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("18446744073709551615")[0], TokenKind::Int(u64::MAX));
        assert_eq!(error_message("18446744073709551616").0, "integer too large");
        assert_eq!(
            error_message("99999999999999999999999999999999999999999999").0,
            "integer too large"
        );
        assert_eq!(
            error_message("1.5").0,
            "fractional numbers are not supported"
        );
        assert_eq!(
            error_message("12ab").0,
            "`12ab` is neither a number nor a name"
        );
        // A rule's final `.` right after a number is not a fraction.
        assert_eq!(
            kinds("5."),
            vec![TokenKind::Int(5), TokenKind::Dot, TokenKind::Eof]
        );
    }

    #[test]
    fn unexpected_characters() {
        assert_eq!(error_message("a # b").0, "unexpected character `#`");
        assert_eq!(error_message("é").0, "unexpected character `é`");
        assert_eq!(
            error_message("a ^ b").0,
            "the operator `^` is not supported"
        );
    }

    #[test]
    fn byte_order_mark_and_unicode_whitespace() {
        assert_eq!(
            kinds("\u{feff}a\u{a0}b"),
            vec![
                TokenKind::Ident("a".into()),
                TokenKind::Ident("b".into()),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn never_panics_on_odd_input() {
        for text in [
            "",
            "\"",
            "\\",
            "/",
            "/*",
            "*/",
            "\"\\",
            "\"\\é",
            "é\"",
            "\u{0}",
            "1.",
            "r",
            "\r\n",
            "\"é\\\u{10ffff}\"",
        ] {
            let toks = lex(text, 0);
            assert_eq!(toks.last().map(|t| &t.kind), Some(&TokenKind::Eof));
        }
    }
}
