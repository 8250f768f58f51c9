//! The parser of the rule language, a Soufflé-flavoured Datalog subset.
//!
//! Hand-written recursive descent over the tokens of [`super::lexer`].
//! Problems are reported as [`Diagnostic`]s, at most one per statement: after
//! an error the parser skips to the end of the statement and carries on, so
//! a single run shows every broken rule of a file without cascades.

use super::ast::{
    AggFunc, Atom, Attribute, BinOp, CmpOp, Decl, Expr, FileId, GuardWhere, Literal, Module, Rule,
    Span, Type,
};
use super::diag::Diagnostic;
use super::lexer::{Token, TokenKind, integer_too_large, lex};

/// How deeply terms and aggregates may nest. The parser recurses once per
/// level and the tree it builds is dropped recursively, so without a bound a
/// hostile file could overflow the stack.
const MAX_DEPTH: usize = 200;

/// Soufflé's relation qualifiers, recognised after a `.decl` even on the
/// next line so that they get a clear message rather than "expected `(`".
const QUALIFIERS: &[&str] = &[
    "brie",
    "btree",
    "btree_delete",
    "eqrel",
    "inline",
    "no_inline",
    "magic",
    "no_magic",
    "overridable",
    "input",
    "output",
    "printsize",
    "choice",
];

const LITERAL_HELP: &str = "a body literal is an atom `rel(...)`, a negated atom `!rel(...)`, \
     a guard `unless placed(C, _)`, a comparison such as `A != B`, or an aggregate such as \
     `count : { ... } >= 2`";
const TERM_HELP: &str = "a term is a variable, `_`, a number, a string, a cell such as `r3c5`, \
     or a sum or difference of terms";
const TYPES_HELP: &str = "the types are `cell`, `digit`, `unit`, `number` and `symbol`";
const DIRECTIVE_HELP: &str = "sudolog reads puzzles and reports results itself, so rule files \
     need no input or output directives; the supported directives are \
     `.decl name(column: type, ...)` and `.tier N`";
const DECL_EXAMPLE: &str = "declarations look like `.decl peer(a: cell, b: cell)`";

/// Parses one rule file. `file` is the FileId its spans carry.
///
/// On errors returns every diagnostic found: after a problem the parser skips
/// to the end of the statement (the next `.` outside parentheses and braces)
/// and goes on, reporting at most one problem per statement.
pub fn parse_module(text: &str, file: FileId) -> Result<Module, Vec<Diagnostic>> {
    let mut p = Parser::new(text, file);
    let mut module = Module::default();
    let mut diags = Vec::new();
    while !p.at_eof() {
        let start = p.pos;
        // Declarations and other directives have no final `.`, so they
        // recover differently from rules.
        let directive = p.is_directive_start(start, false);
        p.depth = 0;
        match p.statement() {
            Ok(Stmt::Decl(decl)) => module.decls.push(decl),
            Ok(Stmt::Rule(rule)) => module.rules.push(rule),
            Ok(Stmt::Tier(tier, span)) => match module.tier {
                Some((_, first)) if first != span => diags.push(
                    Diagnostic::new(span, "a second `.tier` in one file")
                        .label("tier set again")
                        .help("a file is one technique with one tier; keep one `.tier` line"),
                ),
                _ => module.tier = Some((tier, span)),
            },
            Err(diag) => {
                diags.push(*diag);
                p.recover(start, directive);
            }
        }
    }
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(diags)
    }
}

/// Parses a rule body alone (for ad-hoc queries typed on the command line),
/// e.g. `candidate(C, 5), in_unit(C, U), unit_kind(U, "box")`; a trailing
/// `.` is allowed but not needed.
pub fn parse_body(text: &str, file: FileId) -> Result<Vec<Literal>, Vec<Diagnostic>> {
    let mut p = Parser::new(text, file);
    if p.at_eof() {
        let end = p.peek().span.end;
        return Err(vec![
            Diagnostic::new(Span::new(file, end, end), "the query is empty")
                .label("nothing to look for")
                .help(
                    "write one or more literals separated by `,`, \
                     e.g. `candidate(C, 5), in_unit(C, U)`",
                ),
        ]);
    }
    let body = p.conjunction(End::Query).map_err(|d| vec![*d])?;
    if matches!(p.kind(), TokenKind::Dot) {
        p.bump();
    }
    if !p.at_eof() {
        return Err(vec![*p.fail(
            format!("unexpected {} after the end of the query", p.found()),
            "the query ends before this",
            "a query is one rule body: literals separated by `,`, optionally ending with `.`",
        )]);
    }
    Ok(body)
}

/// The parser's internal result. The diagnostic is boxed to keep results
/// small: they live in every frame of the recursive descent.
type PResult<T> = Result<T, Box<Diagnostic>>;

enum Stmt {
    Decl(Decl),
    Rule(Rule),
    Tier(u32, Span),
}

/// Where a term stands, which decides how a misplaced `count` is explained.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
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

/// What closes a list of literals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// A rule body, closed by `.`.
    Rule,
    /// An aggregate body, closed by `}`.
    Brace,
    /// A query, closed by the end of the text (or an optional `.`).
    Query,
}

struct Parser<'a> {
    text: &'a str,
    file: FileId,
    /// Never empty: the lexer always ends it with `Eof`.
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Set by an error that shows the statement already ended (a missing
    /// final `.` before a new line that starts another statement): recovery
    /// then resumes at the current token, because skipping to the next `.`
    /// would swallow the following statement.
    resume_here: bool,
}

/// The parenthesis and brace depth after a token, given the depth before.
fn nest(depth: usize, kind: &TokenKind) -> usize {
    match kind {
        TokenKind::LParen | TokenKind::LBrace => depth + 1,
        TokenKind::RParen | TokenKind::RBrace => depth.saturating_sub(1),
        _ => depth,
    }
}

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

impl<'a> Parser<'a> {
    fn new(text: &'a str, file: FileId) -> Self {
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

    fn tok_at(&self, index: usize) -> &Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[index.min(last)]
    }

    fn peek(&self) -> &Token {
        self.tok_at(self.pos)
    }

    fn kind(&self) -> &TokenKind {
        &self.peek().kind
    }

    fn kind_at(&self, ahead: usize) -> &TokenKind {
        &self.tok_at(self.pos + ahead).kind
    }

    fn at_eof(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof)
    }

    /// Consumes the current token (never the final `Eof`) and returns its span.
    fn bump(&mut self) -> Span {
        let span = self.peek().span;
        if !self.at_eof() {
            self.pos += 1;
        }
        span
    }

    fn prev_end(&self) -> usize {
        match self.pos {
            0 => 0,
            n => self.tok_at(n - 1).span.end,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn is_ident(&self, ahead: usize, name: &str) -> bool {
        matches!(self.kind_at(ahead), TokenKind::Ident(n) if n == name)
    }

    /// Whether token `index` is a `.` glued to a name, as in `.decl`. With
    /// `line_start`, it must also begin its line: otherwise `a(X).b(X).`
    /// would look like a directive to the recovery.
    fn is_directive_start(&self, index: usize, line_start: bool) -> bool {
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
    fn at_statement_boundary(&self) -> bool {
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

    /// The current token in words, for "found ..." messages.
    fn found(&self) -> String {
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

    /// Where to point at a problem with the current token: at it, or at the
    /// end of the input just after the last token.
    fn here(&self) -> Span {
        if self.at_eof() {
            let end = self.prev_end();
            self.span(end, end)
        } else {
            self.peek().span
        }
    }

    /// A diagnostic about the current token, unless the current token is a
    /// lexical error: that is the real problem, so it is reported instead.
    fn fail(&self, message: impl Into<String>, label: &str, help: &str) -> Box<Diagnostic> {
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
    fn expected(&self, what: &str, help: &str) -> Box<Diagnostic> {
        self.fail(
            format!("expected {what}, found {}", self.found()),
            &format!("expected {what}"),
            help,
        )
    }

    fn missing_dot(&mut self) -> Box<Diagnostic> {
        self.resume_here = true;
        let end = self.prev_end();
        Diagnostic::new(self.span(end, end), "expected `.` at the end of the rule")
            .label("add `.` here")
            .help("rules end with `.`")
            .into()
    }

    /// Enters one level of nesting, refusing to go deeper than [`MAX_DEPTH`].
    fn enter(&mut self) -> PResult<()> {
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

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ----- recovery -----

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
    fn recover(&mut self, start: usize, directive: bool) {
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

    // ----- statements -----

    fn statement(&mut self) -> PResult<Stmt> {
        if self.is_directive_start(self.pos, false) {
            return self.directive();
        }
        match self.kind() {
            TokenKind::Ident(_) => self.rule().map(Stmt::Rule),
            TokenKind::Bang => Err(self.fail(
                "a rule head cannot be negated",
                "negated head",
                "rules only derive facts; `!` can only stand before an atom in a rule body",
            )),
            TokenKind::Dot => Err(self.fail(
                "unexpected `.`",
                "nothing to end here",
                "a `.` ends a rule or a fact; remove this one",
            )),
            _ => Err(self.expected(
                "a rule, a fact or a `.decl`",
                "a rule looks like `head(X) :- body(X).`, a fact like `head(1).`",
            )),
        }
    }

    fn directive(&mut self) -> PResult<Stmt> {
        let doc = self.peek().doc.clone();
        let dot = self.bump();
        let name = match self.kind() {
            TokenKind::Ident(name) => name.clone(),
            _ => String::new(),
        };
        let name_span = self.bump();
        if name == "tier" {
            return match self.kind() {
                TokenKind::Int(v) if *v <= 1000 => {
                    let tier = *v as u32;
                    let end = self.bump();
                    Ok(Stmt::Tier(tier, dot.to(end)))
                }
                _ => Err(self.expected(
                    "a tier number after `.tier`",
                    "write `.tier 2`: 0 is the grid's meaning, 1 the singles, higher tiers \
                     run only when every lower one is stalled",
                )),
            };
        }
        if name != "decl" {
            return Err(Diagnostic::new(
                dot.to(name_span),
                format!("unsupported directive `.{name}`"),
            )
            .label("not supported")
            .help(DIRECTIVE_HELP)
            .into());
        }
        self.decl(dot, doc).map(Stmt::Decl)
    }

    /// The rest of `.decl name(col: type, ...)` after `.decl`.
    fn decl(&mut self, dot: Span, doc: String) -> PResult<Decl> {
        let TokenKind::Ident(name) = self.kind() else {
            return Err(self.expected("a relation name after `.decl`", DECL_EXAMPLE));
        };
        let name = name.clone();
        let name_span = self.bump();
        if !matches!(self.kind(), TokenKind::LParen) {
            return Err(self.expected(
                &format!("`(` after `{name}`"),
                &format!(
                    "declare the columns in parentheses, or write `{name}()` for a relation \
                     without columns"
                ),
            ));
        }
        self.bump();
        let mut attrs = Vec::new();
        if !matches!(self.kind(), TokenKind::RParen) {
            loop {
                attrs.push(self.attribute()?);
                match self.kind() {
                    TokenKind::Comma => {
                        self.bump();
                    }
                    TokenKind::RParen => break,
                    _ => {
                        return Err(self.expected(
                            "`,` or `)` after a column",
                            "separate the columns with `,` and close the list with `)`",
                        ));
                    }
                }
            }
        }
        let close = self.bump();
        let tok = self.peek();
        if let TokenKind::Ident(word) = &tok.kind
            && !matches!(self.kind_at(1), TokenKind::LParen)
            && (!tok.first_on_line || QUALIFIERS.contains(&word.as_str()))
        {
            let diag =
                Diagnostic::new(tok.span, format!("the qualifier `{word}` is not supported"))
                    .label("relation qualifier")
                    .help(
                        "remove it: sudolog stores relations its own way, and reads puzzles \
                     and reports results itself",
                    );
            // Past the qualifier, so that recovery does not take it for the
            // start of the next statement.
            self.bump();
            return Err(diag.into());
        }
        if matches!(tok.kind, TokenKind::Dot) && !self.is_directive_start(self.pos, false) {
            return Err(self.fail(
                "a declaration does not end with `.`",
                "remove this `.`",
                "only rules and facts end with `.`; a declaration ends with its `)`",
            ));
        }
        Ok(Decl {
            name,
            attrs,
            doc,
            span: dot.to(close),
            name_span,
        })
    }

    fn attribute(&mut self) -> PResult<Attribute> {
        let TokenKind::Ident(name) = self.kind() else {
            return Err(self.expected(
                "a column name",
                "columns are written `name: type`, e.g. `a: cell`",
            ));
        };
        let name = name.clone();
        let name_span = self.bump();
        if !matches!(self.kind(), TokenKind::Colon) {
            return Err(self.expected(
                &format!("`:` and a type after the column name `{name}`"),
                "columns are written `name: type`, e.g. `a: cell`",
            ));
        }
        self.bump();
        let TokenKind::Ident(ty_name) = self.kind() else {
            return Err(self.expected("a type", TYPES_HELP));
        };
        let Some(ty) = Type::from_name(ty_name) else {
            return Err(self.fail(
                format!("unknown type `{ty_name}`"),
                "unknown type",
                TYPES_HELP,
            ));
        };
        let ty_span = self.bump();
        Ok(Attribute {
            name,
            ty,
            span: name_span.to(ty_span),
        })
    }

    fn rule(&mut self) -> PResult<Rule> {
        let doc = self.peek().doc.clone();
        let head = self.atom()?;
        let body = match self.kind() {
            TokenKind::Dot if !self.is_directive_start(self.pos, true) => Vec::new(),
            TokenKind::ColonDash => {
                self.bump();
                self.conjunction(End::Rule)?
            }
            TokenKind::Comma => {
                return Err(self.fail(
                    "a rule has exactly one head atom",
                    "a second head atom follows",
                    "write a separate rule for each atom to derive",
                ));
            }
            TokenKind::Colon | TokenKind::Eq => {
                return Err(self.fail(
                    format!("expected `:-`, found {}", self.found()),
                    "expected `:-`",
                    "did you mean `:-`?",
                ));
            }
            TokenKind::Lt if matches!(self.kind_at(1), TokenKind::Minus) => {
                return Err(self.fail(
                    "expected `:-`, found `<-`",
                    "expected `:-`",
                    "did you mean `:-`?",
                ));
            }
            _ if self.at_statement_boundary() => return Err(self.missing_dot()),
            _ => {
                return Err(self.expected(
                    "`:-` or `.` after the rule head",
                    "write `:-` between the head and the body, or end a fact with `.`",
                ));
            }
        };
        // `conjunction` only returns at a `.` in a rule.
        let dot = self.bump();
        Ok(Rule {
            span: head.span.to(dot),
            head,
            body,
            doc,
        })
    }

    // ----- bodies -----

    /// Literals separated by `,`, up to (not including) what closes them.
    fn conjunction(&mut self, end: End) -> PResult<Vec<Literal>> {
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

    /// What is wrong after a literal that is followed by neither `,` nor
    /// what closes the list.
    // Out of line, like the other error paths of the recursive functions:
    // in unoptimised builds every temporary of an error message would
    // otherwise enlarge each recursion frame.
    #[cold]
    #[inline(never)]
    fn after_literal_error(&mut self, end: End) -> Box<Diagnostic> {
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

    /// Explains why no literal starts at the current token, using what came
    /// before it to guess the mistake.
    #[cold]
    #[inline(never)]
    fn missing_literal(&self) -> Box<Diagnostic> {
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

    /// `count : { ... } op bound`.
    fn aggregate(&mut self) -> PResult<Literal> {
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

    /// `a op b`, or `a op count : { ... }` (turned around so the aggregate
    /// comes first).
    fn comparison(&mut self) -> PResult<Literal> {
        let start = self.peek().span.start;
        let lhs = self.expr(Ctx::Operand)?;
        let Some(op) = self.comparison_operator()? else {
            return Err(self.missing_comparison(&lhs));
        };
        if let Some(diag) = self.unsupported_aggregate() {
            return Err(diag);
        }
        if self.at_set() {
            // `V = set X : { ... }`: `set` and the variable, then the body.
            self.bump();
            let span = self.peek().span;
            let elem = match self.kind() {
                TokenKind::Ident(name) => name.clone(),
                _ => String::new(),
            };
            let (body, _) = self.count()?;
            self.not_chained()?;
            return Ok(Literal::Aggregate {
                func: AggFunc::Set { elem, span },
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

    /// The error for a term that starts a literal but is compared with nothing.
    #[cold]
    #[inline(never)]
    fn missing_comparison(&self, lhs: &Expr) -> Box<Diagnostic> {
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

    /// Consumes a comparison operator if there is one.
    fn comparison_operator(&mut self) -> PResult<Option<CmpOp>> {
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

    fn not_chained(&self) -> PResult<()> {
        if cmp_op(self.kind()).is_some() {
            return Err(self.fail(
                "comparisons cannot be chained",
                "second comparison",
                "split it into comparisons joined by `,`, e.g. `1 <= X, X <= 9`",
            ));
        }
        Ok(())
    }

    /// Whether a `set` aggregate starts here: `set X :` (a `set` followed by
    /// anything else is an ordinary name).
    fn at_set(&self) -> bool {
        self.is_ident(0, "set")
            && matches!(self.kind_at(1), TokenKind::Ident(_))
            && matches!(self.kind_at(2), TokenKind::Colon)
    }

    /// Whether a `count` aggregate starts here (`count :` or `count {`); a
    /// `count` followed by anything else is an ordinary name.
    fn at_count(&self) -> bool {
        self.is_ident(0, "count") && matches!(self.kind_at(1), TokenKind::Colon | TokenKind::LBrace)
    }

    /// Soufflé's other aggregates (`sum X : { ... }`, `min X : ...`).
    fn unsupported_aggregate(&self) -> Option<Box<Diagnostic>> {
        let TokenKind::Ident(name) = self.kind() else {
            return None;
        };
        if !matches!(name.as_str(), "sum" | "min" | "max" | "mean") {
            return None;
        }
        let shaped = matches!(self.kind_at(1), TokenKind::Colon)
            || (matches!(self.kind_at(1), TokenKind::Ident(_) | TokenKind::Int(_))
                && matches!(self.kind_at(2), TokenKind::Colon));
        shaped.then(|| {
            Diagnostic::new(
                self.peek().span,
                format!("the `{name}` aggregate is not supported"),
            )
            .label("unsupported aggregate")
            .help("the only aggregate is `count : { ... }`, compared with a bound")
            .into()
        })
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
        let Some(op) = cmp_op(self.kind()) else {
            return Err(self.expected(
                "a comparison after `where`",
                "`where` compares a variable of the guard's atom with a variable of the rule, \
                 e.g. `unless tint(D, B, S, _) where S < R`",
            ));
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

    /// `count : { body }`; returns the body and the span of the whole.
    fn count(&mut self) -> PResult<(Vec<Literal>, Span)> {
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

    /// The error for a `count` not followed by `: {`, at the token that
    /// should have been `:` or `{`.
    #[cold]
    #[inline(never)]
    fn malformed_count(&self) -> Box<Diagnostic> {
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
    fn uncompared_count(&self, agg_span: Span) -> Box<Diagnostic> {
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

    // ----- atoms and terms -----

    fn atom(&mut self) -> PResult<Atom> {
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

    /// A term: operands joined by left-associative `+` and `-`.
    fn expr(&mut self, ctx: Ctx) -> PResult<Expr> {
        let start = self.peek().span.start;
        let saved = self.depth;
        let mut lhs = self.unary(ctx)?;
        loop {
            let op = match self.kind() {
                TokenKind::Plus => BinOp::Add,
                TokenKind::Minus => BinOp::Sub,
                _ => break,
            };
            // Each operator deepens the left-leaning tree by one level.
            self.enter()?;
            self.bump();
            let rhs = self.unary(Ctx::Arith)?;
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

    #[cold]
    #[inline(never)]
    fn unclosed_paren(&self) -> Box<Diagnostic> {
        self.fail(
            format!(
                "expected `)` to close the parenthesis, found {}",
                self.found()
            ),
            "expected `)`",
            "every `(` needs a matching `)`",
        )
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

    /// The error for a `count` aggregate standing where a plain term belongs.
    #[cold]
    #[inline(never)]
    fn misplaced_count(&self, ctx: Ctx) -> Box<Diagnostic> {
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

fn count_in_arithmetic(agg_span: Span) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(agg_span, "`count` cannot be used inside arithmetic")
            .label("aggregate used in arithmetic")
            .help(
                "keep the aggregate alone on one side of the comparison and move the arithmetic \
             to the other side, e.g. `count : { ... } >= N - 1`",
            ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ast::SourceSet;

    const SAMPLE: &str = r#"// rules/grid.dl — what the grid means
.decl peer(a: cell, b: cell)
// Two different cells that share a unit see each other.
peer(A, B) :- in_unit(A, U), in_unit(B, U), A != B.

// A placed digit leaves its cell's other digits and its peers.
eliminated(C, E) :- placed(C, D), digit(E), E != D.
eliminated(P, D) :- placed(C, D), peer(C, P).
contradiction("no digit left", C) :- cell(C), size(N),
    count : { eliminated(C, _) } >= N.
placed(C, D) :- cell(C), digit(D), size(N),
    count : { eliminated(C, E), E != D } >= N - 1.
eliminated(r1c1, 5) :- !given(r1c1, 5), 2 <= count : { digit(X), X < 3 }.
"#;

    fn parse(text: &str) -> Module {
        match parse_module(text, 0) {
            Ok(module) => module,
            Err(diags) => panic!("unexpected errors in {text:?}: {diags:#?}"),
        }
    }

    fn parse_rule(text: &str) -> Rule {
        let mut module = parse(text);
        assert_eq!(module.rules.len(), 1, "{text:?}");
        module.rules.remove(0)
    }

    fn body_of(text: &str) -> Vec<Literal> {
        parse_rule(text).body
    }

    /// `(message, line, column, help)` of every diagnostic.
    fn errors(text: &str) -> Vec<(String, usize, usize, String)> {
        let mut sources = SourceSet::default();
        sources.add("other.dl", "");
        let file = sources.add("test.dl", text);
        let diags = match parse_module(text, file) {
            Ok(module) => panic!("expected errors in {text:?}, got {module:#?}"),
            Err(diags) => diags,
        };
        diags
            .into_iter()
            .map(|d| {
                assert_eq!(d.span.file, file);
                assert!(d.span.start <= d.span.end && d.span.end <= text.len());
                let (line, col) = sources.line_col(file, d.span.start);
                (d.message, line, col, d.help)
            })
            .collect()
    }

    /// The only diagnostic of `text`: `(message, line, column, help)`.
    fn error(text: &str) -> (String, usize, usize, String) {
        let mut all = errors(text);
        assert_eq!(all.len(), 1, "{text:?}: {all:#?}");
        all.remove(0)
    }

    fn assert_error(text: &str, message: &str, line: usize, col: usize) -> String {
        let (m, l, c, help) = error(text);
        assert_eq!((m.as_str(), l, c), (message, line, col), "{text:?}");
        help
    }

    fn sp(start: usize, end: usize) -> Span {
        Span::new(0, start, end)
    }

    fn var(name: &str, start: usize) -> Expr {
        Expr::Var(name.to_string(), sp(start, start + name.len()))
    }

    fn text_at(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    // ----- the sample -----

    #[test]
    fn sample_parses() {
        let module = parse(SAMPLE);
        assert_eq!(module.decls.len(), 1);
        let peer = &module.decls[0];
        assert_eq!(peer.name, "peer");
        assert_eq!(peer.doc, "rules/grid.dl — what the grid means");
        assert_eq!(text_at(SAMPLE, peer.span), ".decl peer(a: cell, b: cell)");
        assert_eq!(module.rules.len(), 6);
        let docs: Vec<&str> = module.rules.iter().map(|r| r.doc.as_str()).collect();
        assert_eq!(
            docs,
            vec![
                "Two different cells that share a unit see each other.",
                "A placed digit leaves its cell's other digits and its peers.",
                "",
                "",
                "",
                "",
            ]
        );
        let heads: Vec<&str> = module.rules.iter().map(|r| r.head.rel.as_str()).collect();
        assert_eq!(
            heads,
            vec![
                "peer",
                "eliminated",
                "eliminated",
                "contradiction",
                "placed",
                "eliminated"
            ]
        );
        for rule in &module.rules {
            assert!(text_at(SAMPLE, rule.span).ends_with('.'));
            assert!(text_at(SAMPLE, rule.span).starts_with(&rule.head.rel));
        }
        // `count : { ... } >= N - 1`
        let Literal::Aggregate {
            body, op, bound, ..
        } = &module.rules[4].body[3]
        else {
            panic!("not an aggregate: {:?}", module.rules[4].body[3]);
        };
        assert_eq!(body.len(), 2);
        assert_eq!(*op, CmpOp::Ge);
        assert!(matches!(bound, Expr::Binary(BinOp::Sub, ..)));
        assert_eq!(text_at(SAMPLE, bound.span()), "N - 1");
        // `2 <= count : { ... }` is turned around.
        let last = &module.rules[5];
        assert!(matches!(&last.body[0], Literal::Neg(atom, _) if atom.rel == "given"));
        let Literal::Aggregate {
            op, bound, span, ..
        } = &last.body[1]
        else {
            panic!("not an aggregate: {:?}", last.body[1]);
        };
        assert_eq!(*op, CmpOp::Ge);
        assert!(matches!(bound, Expr::Int(2, _)));
        assert_eq!(text_at(SAMPLE, *span), "2 <= count : { digit(X), X < 3 }");
        assert!(matches!(
            last.head.args[0],
            Expr::Cell { row: 1, col: 1, .. }
        ));
    }

    // ----- declarations -----

    #[test]
    fn declarations() {
        let text = ".decl p(a: cell, b: digit, c: unit, d: number, e: symbol)\n.decl solved()";
        let module = parse(text);
        assert_eq!(module.decls.len(), 2);
        let p = &module.decls[0];
        let types: Vec<Type> = p.attrs.iter().map(|a| a.ty).collect();
        assert_eq!(
            types,
            vec![
                Type::Cell,
                Type::Digit,
                Type::Unit,
                Type::Number,
                Type::Symbol
            ]
        );
        let names: Vec<&str> = p.attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, vec!["a", "b", "c", "d", "e"]);
        assert_eq!(text_at(text, p.attrs[1].span), "b: digit");
        assert_eq!(p.name_span, sp(6, 7));
        assert_eq!(p.span, sp(0, 57));
        let solved = &module.decls[1];
        assert_eq!(solved.name, "solved");
        assert!(solved.attrs.is_empty());
        assert_eq!(text_at(text, solved.span), ".decl solved()");
        assert_eq!(solved.doc, "");
    }

    #[test]
    fn declaration_then_rule_on_the_same_line() {
        let module = parse(".decl p(a: cell) p(r1c1).");
        assert_eq!(module.decls.len(), 1);
        assert_eq!(module.rules.len(), 1);
    }

    #[test]
    fn spans_carry_the_file() {
        let module = parse_module("p(X) :- q(X).", 7).unwrap();
        assert_eq!(module.rules[0].span, Span::new(7, 0, 13));
        assert_eq!(module.rules[0].head.args[0].span().file, 7);
    }

    // ----- rules, atoms, literals -----

    #[test]
    fn facts_and_rules() {
        let text = "given(r1c1, 5).\nsolved() :- given(_, _).\n";
        let module = parse(text);
        let fact = &module.rules[0];
        assert!(fact.body.is_empty());
        assert_eq!(fact.span, sp(0, 15));
        assert_eq!(fact.head.span, sp(0, 14));
        assert_eq!(fact.head.name_span, sp(0, 5));
        let rule = &module.rules[1];
        assert!(rule.head.args.is_empty());
        assert_eq!(text_at(text, rule.head.span), "solved()");
        assert_eq!(text_at(text, rule.span), "solved() :- given(_, _).");
        assert_eq!(
            rule.body,
            vec![Literal::Atom(Atom {
                rel: "given".into(),
                args: vec![Expr::Wildcard(sp(34, 35)), Expr::Wildcard(sp(37, 38))],
                span: sp(28, 39),
                name_span: sp(28, 33),
            })]
        );
    }

    #[test]
    fn negation_span_covers_the_bang() {
        let text = "p(X) :- q(X), !r(X, 1).";
        let body = body_of(text);
        let Literal::Neg(atom, span) = &body[1] else {
            panic!("{body:?}")
        };
        assert_eq!(atom.rel, "r");
        assert_eq!(text_at(text, *span), "!r(X, 1)");
        assert_eq!(text_at(text, atom.span), "r(X, 1)");
        assert_eq!(body[1].span(), *span);
    }

    #[test]
    fn comparisons() {
        let ops = [
            ("=", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<", CmpOp::Lt),
            ("<=", CmpOp::Le),
            (">", CmpOp::Gt),
            (">=", CmpOp::Ge),
        ];
        for (written, op) in ops {
            let text = format!("p(X) :- q(X, Y), X {written} Y.");
            let body = body_of(&text);
            let Literal::Cmp(lhs, got, rhs, span) = &body[1] else {
                panic!("{body:?}")
            };
            assert_eq!(*got, op);
            assert_eq!(*lhs, var("X", 17));
            assert_eq!(text_at(&text, rhs.span()), "Y");
            assert_eq!(text_at(&text, *span), format!("X {written} Y"));
        }
    }

    #[test]
    fn terms() {
        let text = r#"p(X, _, 42, "a\"b", r3c5, r10c12, R3C5, r3c5x, rc5, lower, _x) :- q(X)."#;
        let args = parse_rule(text).head.args;
        assert_eq!(args[0], var("X", 2));
        assert_eq!(args[1], Expr::Wildcard(sp(5, 6)));
        assert_eq!(args[2], Expr::Int(42, sp(8, 10)));
        assert_eq!(args[3], Expr::Str("a\"b".into(), sp(12, 18)));
        assert_eq!(
            args[4],
            Expr::Cell {
                row: 3,
                col: 5,
                span: sp(20, 24)
            }
        );
        assert!(matches!(
            args[5],
            Expr::Cell {
                row: 10,
                col: 12,
                ..
            }
        ));
        for (arg, name) in args[6..]
            .iter()
            .zip(["R3C5", "r3c5x", "rc5", "lower", "_x"])
        {
            assert!(matches!(arg, Expr::Var(n, _) if n == name), "{arg:?}");
        }
    }

    #[test]
    fn arithmetic_is_left_associative_with_full_spans() {
        let text = "p(A - B + -C, -(1 - 2), (A + B) - C) :- q(A, B, C).";
        let args = parse_rule(text).head.args;
        let Expr::Binary(BinOp::Add, lhs, rhs, span) = &args[0] else {
            panic!("{:?}", args[0])
        };
        assert_eq!(text_at(text, *span), "A - B + -C");
        assert!(matches!(&**lhs, Expr::Binary(BinOp::Sub, a, b, s)
            if **a == var("A", 2) && **b == var("B", 6) && text_at(text, *s) == "A - B"));
        assert!(matches!(&**rhs, Expr::Neg(c, s)
            if **c == var("C", 11) && text_at(text, *s) == "-C"));
        let Expr::Neg(inner, span) = &args[1] else {
            panic!("{:?}", args[1])
        };
        assert_eq!(text_at(text, *span), "-(1 - 2)");
        assert!(matches!(&**inner, Expr::Binary(BinOp::Sub, ..)));
        let Expr::Binary(BinOp::Sub, lhs, _, span) = &args[2] else {
            panic!("{:?}", args[2])
        };
        assert_eq!(text_at(text, *span), "(A + B) - C");
        assert!(matches!(&**lhs, Expr::Binary(BinOp::Add, ..)));
    }

    #[test]
    fn extreme_integers() {
        let text = "p(9223372036854775807, -9223372036854775808, -1).";
        let args = parse_rule(text).head.args;
        assert_eq!(args[0], Expr::Int(i64::MAX, sp(2, 21)));
        assert_eq!(args[1], Expr::Int(i64::MIN, sp(23, 43)));
        assert_eq!(
            args[2],
            Expr::Neg(Box::new(Expr::Int(1, sp(46, 47))), sp(45, 47))
        );
    }

    #[test]
    fn aggregates() {
        let text = "p(C) :- cell(C), count : { candidate(C, D), D > 1 } = 2, \
                    N > count : { peer(C, P) }, count:{ q(X), count : { r(X, Y) } >= 1 } != 0.";
        let body = body_of(text);
        let Literal::Aggregate {
            func,
            body: inner,
            op,
            bound,
            span,
        } = &body[1]
        else {
            panic!("{:?}", body[1])
        };
        assert_eq!(*func, AggFunc::Count);
        assert_eq!(inner.len(), 2);
        assert_eq!(*op, CmpOp::Eq);
        assert!(matches!(bound, Expr::Int(2, _)));
        assert_eq!(
            text_at(text, *span),
            "count : { candidate(C, D), D > 1 } = 2"
        );
        let Literal::Aggregate {
            op, bound, span, ..
        } = &body[2]
        else {
            panic!("{:?}", body[2])
        };
        assert_eq!(*op, CmpOp::Lt, "`N > count` means `count < N`");
        assert!(matches!(bound, Expr::Var(n, _) if n == "N"));
        assert_eq!(text_at(text, *span), "N > count : { peer(C, P) }");
        let Literal::Aggregate {
            body: outer, op, ..
        } = &body[3]
        else {
            panic!("{:?}", body[3])
        };
        assert_eq!(*op, CmpOp::Ne);
        assert!(matches!(
            &outer[1],
            Literal::Aggregate { op: CmpOp::Ge, .. }
        ));
    }

    #[test]
    fn count_alone_is_a_name() {
        let body = body_of("p(X) :- count(X), q(count), count = 3.");
        assert!(matches!(&body[0], Literal::Atom(a) if a.rel == "count"));
        assert!(matches!(&body[2], Literal::Cmp(Expr::Var(n, _), CmpOp::Eq, _, _) if n == "count"));
    }

    // ----- doc comments -----

    #[test]
    fn doc_comments() {
        let text = "\
// First line.
//   Second line.  
//
p(X) :- q(X).
// Detached by the blank line.

r(X) :- q(X).
/* block comments are not docs */
s(X) :- q(X).
// Only the last paragraph.

// counts
// here
.decl t(a: cell)
u(X) :- q(X). // a remark about u
v(X) :- q(X).
w(X) :-
    // inside the rule
    q(X).
";
        let module = parse(text);
        let docs: Vec<&str> = module.rules.iter().map(|r| r.doc.as_str()).collect();
        assert_eq!(docs, vec!["First line. Second line.", "", "", "", "", ""]);
        assert_eq!(module.decls[0].doc, "counts here");
    }

    // ----- errors -----

    #[test]
    fn unterminated_block_comment() {
        let help = assert_error(
            "p(X) :- q(X).\n  /* never closed\np(Y).",
            "unterminated block comment",
            2,
            3,
        );
        assert_eq!(help, "close it with */");
    }

    #[test]
    fn unterminated_string() {
        assert_error("p(X) :- q(X, \"abc).\n", "unterminated string", 1, 14);
        assert_error("p(\"abc", "unterminated string", 1, 3);
        assert_error(
            "p(X) :- q(X, \"a\\z\").",
            "unknown escape `\\z` in a string",
            1,
            16,
        );
    }

    #[test]
    fn huge_integers() {
        let help = assert_error(
            "p(X) :- q(X), X < 9223372036854775808.",
            "integer too large",
            1,
            19,
        );
        assert!(help.contains("9223372036854775807"));
        assert_error(
            "p(X) :- q(X), X < 123456789012345678901234567890123456789.",
            "integer too large",
            1,
            19,
        );
        assert_error("p(-9223372036854775809).", "integer too large", 1, 4);
        // Only the literal right after `-` may be 2^63.
        assert_error("p(1 - 9223372036854775808 + 0).", "integer too large", 1, 7);
    }

    #[test]
    fn declaration_errors() {
        let help = assert_error(
            ".decl p(a: cell, b: digits)",
            "unknown type `digits`",
            1,
            21,
        );
        for ty in ["cell", "digit", "unit", "number", "symbol"] {
            assert!(help.contains(&format!("`{ty}`")), "{help}");
        }
        assert_error(
            ".decl p(a: cell) brie",
            "the qualifier `brie` is not supported",
            1,
            18,
        );
        assert_error(
            ".decl p(a: cell)\n  output\np(r1c1).",
            "the qualifier `output` is not supported",
            2,
            3,
        );
        assert_error(
            ".decl p(a: cell).",
            "a declaration does not end with `.`",
            1,
            17,
        );
        assert_error(
            ".decl p(cell)",
            "expected `:` and a type after the column name `cell`, found `)`",
            1,
            13,
        );
        assert_error(
            ".decl (a: cell)",
            "expected a relation name after `.decl`, found `(`",
            1,
            7,
        );
        assert_error(
            ".decl p\nq(X) :- r(X).",
            "expected `(` after `p`, found `q`",
            2,
            1,
        );
        assert_error(
            ".decl p(a: cell b: cell)",
            "expected `,` or `)` after a column, found `b`",
            1,
            17,
        );
    }

    #[test]
    fn unsupported_directives() {
        let help = assert_error(
            "p(X) :- q(X).\n.input q(IO=file, filename=\"q.facts\")\nr(X) :- q(X).",
            "unsupported directive `.input`",
            2,
            1,
        );
        assert!(help.contains("reads puzzles"), "{help}");
        assert!(help.contains("`.decl"), "{help}");
        let all = errors(
            ".type Cell <: symbol\n.output p\n.include \"x.dl\"\n.decl ok(a: cell)\n.printsize p",
        );
        let messages: Vec<&str> = all.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "unsupported directive `.type`",
                "unsupported directive `.output`",
                "unsupported directive `.include`",
                "unsupported directive `.printsize`",
            ]
        );
    }

    #[test]
    fn missing_final_dot() {
        let help = assert_error("p(X) :- q(X)", "expected `.` at the end of the rule", 1, 13);
        assert_eq!(help, "rules end with `.`");
        assert_error(
            "p(X) :- q(X)\nr(X) :- q(X).",
            "expected `.` at the end of the rule",
            1,
            13,
        );
        assert_error(
            "p(1)\nr(X) :- q(X).",
            "expected `.` at the end of the rule",
            1,
            5,
        );
        assert_error(
            "p(X) :- q(X),\n    count : { r(X) } >= 1  // done\n.decl r(a: cell)",
            "expected `.` at the end of the rule",
            2,
            26,
        );
        // An indented line continues the rule, so a `,` is what is missing.
        assert_error(
            "p(X) :- q(X)\n    r(X).",
            "expected `,` or `.` after this literal, found `r`",
            2,
            5,
        );
    }

    #[test]
    fn colon_or_equals_instead_of_implication() {
        for (text, found) in [
            ("p(X) : q(X).", "`:`"),
            ("p(X) = q(X).", "`=`"),
            ("p(X) <- q(X).", "`<-`"),
        ] {
            let help = assert_error(text, &format!("expected `:-`, found {found}"), 1, 6);
            assert_eq!(help, "did you mean `:-`?");
        }
        assert_error(
            "p(X) q(X).",
            "expected `:-` or `.` after the rule head, found `q`",
            1,
            6,
        );
    }

    #[test]
    fn count_errors() {
        let help = assert_error(
            "p(X) :- q(X), count : { r(X) }.",
            "this `count` is not compared with anything",
            1,
            15,
        );
        assert_eq!(help, "compare it with a bound, e.g. `count : { ... } >= 2`");
        assert_error(
            "p(X) :- q(X), count : { r(X) } + 1 >= 2.",
            "`count` cannot be used inside arithmetic",
            1,
            15,
        );
        assert_error(
            "p(X) :- q(X), 2 <= 1 + count : { r(X) }.",
            "`count` cannot be used inside arithmetic",
            1,
            24,
        );
        assert_error(
            "p(X) :- q(X), 2 <= count : { r(X) } - 1.",
            "`count` cannot be used inside arithmetic",
            1,
            20,
        );
        assert_error(
            "p(X) :- q(X), X = -count : { r(X) }.",
            "`count` cannot be used inside arithmetic",
            1,
            20,
        );
        assert_error(
            "p(X) :- q(X, count : { r(X) }).",
            "`count` cannot be an argument of an atom",
            1,
            14,
        );
        assert_error(
            "p(X) :- count : { r(X) } = count : { q(X) }.",
            "an aggregate cannot be compared with another aggregate",
            1,
            28,
        );
        assert_error(
            "p(X) :- q(X), count { r(X) } > 1.",
            "expected `:` after `count`, found `{`",
            1,
            21,
        );
        assert_error(
            "p(X) :- q(X), count : r(X) > 1.",
            "expected `{` after `count :`, found `r`",
            1,
            23,
        );
        assert_error(
            "p(X) :- q(X), count : { } > 1.",
            "an aggregate needs at least one literal",
            1,
            25,
        );
        assert_error(
            "p(X) :- q(X), count : { r(X). } > 1.",
            "expected `,` or `}` after this literal, found `.`",
            1,
            29,
        );
        assert_error(
            "p(X) :- q(X), sum Y : { r(X, Y) } > 1.",
            "the `sum` aggregate is not supported",
            1,
            15,
        );
        assert_error(
            "p(X) :- q(X), !count : { r(X) } > 1.",
            "expected an atom after `!`, found `count`",
            1,
            16,
        );
    }

    #[test]
    fn empty_and_comment_only_files() {
        assert_eq!(parse(""), Module::default());
        assert_eq!(
            parse("  // just a comment\n/* and a block */\n"),
            Module::default()
        );
    }

    #[test]
    fn more_misplaced_counts() {
        assert_error(
            "p(X) :- q(X), (count : { r(X) }) >= 2.",
            "`count` cannot be put in parentheses",
            1,
            16,
        );
        assert_error(
            "p(X) :- q(X), count : { r(X) } # 2.",
            "unexpected character `#`",
            1,
            32,
        );
    }

    #[test]
    fn head_errors() {
        let help = assert_error(
            "p(X), r(X) :- q(X).",
            "a rule has exactly one head atom",
            1,
            5,
        );
        assert!(help.contains("separate rule"));
        assert_error("!p(X) :- q(X).", "a rule head cannot be negated", 1, 1);
        assert_error(
            "solved :- q(X).",
            "expected `(` after `solved`, found `:-`",
            1,
            8,
        );
        assert_error(
            "42.",
            "expected a rule, a fact or a `.decl`, found `42`",
            1,
            1,
        );
        assert_error(". p(X).", "unexpected `.`", 1, 1);
    }

    #[test]
    fn body_errors() {
        assert_error(
            "p(X) :- q(X), 3.",
            "expected a comparison operator after this term, found `.`",
            1,
            16,
        );
        assert_error(
            "p(X) :- q(X), done.",
            "expected `(` or a comparison after `done`, found `.`",
            1,
            19,
        );
        assert_error(
            "p(X) :- q(X), ).",
            "expected a body literal, found `)`",
            1,
            15,
        );
        assert_error(
            "p(X) :- q(X), .",
            "expected another literal after `,`, found `.`",
            1,
            15,
        );
        assert_error(
            "p(X) :- .",
            "expected a rule body after `:-`, found `.`",
            1,
            9,
        );
        assert_error(
            "p(X) :- q(X), 1 < X < 3.",
            "comparisons cannot be chained",
            1,
            21,
        );
        assert_error(
            "p(X) :- q(X), X == 1.",
            "`==` is not a comparison operator",
            1,
            17,
        );
        assert_error(
            "p(X) :- q(X); r(X).",
            "`;` (disjunction) is not supported",
            1,
            13,
        );
        assert_error(
            "p(X) :- q(X), size(N) >= 3.",
            "the atom `size(...)` cannot be compared",
            1,
            15,
        );
        assert_error(
            "p(X) :- q(r(X)).",
            "the atom `r(...)` cannot be used as a term",
            1,
            11,
        );
        assert_error(
            "p(X) :- q(X,).",
            "expected another argument after `,`, found `)`",
            1,
            13,
        );
        assert_error(
            "p(X) :- q(X Y).",
            "expected `,` or `)` after an argument of `q`, found `Y`",
            1,
            13,
        );
        assert_error(
            "p(X) :- q(X :- r(X).",
            "expected `,` or `)` after an argument of `q`, found `:-`",
            1,
            13,
        );
        assert_error(
            "p(X) :- q(X), X = (1 + 2.",
            "expected `)` to close the parenthesis, found `.`",
            1,
            25,
        );
        assert_error(
            "p(X) :- q(X), X = *.",
            "the operator `*` is not supported",
            1,
            19,
        );
        assert_error(
            "p(X) :- q(X), X = 1.5.",
            "fractional numbers are not supported",
            1,
            19,
        );
        assert_error(
            "p(X) :- q(X), X = r99999999999c1.",
            "the cell `r99999999999c1` has a row or column number too large",
            1,
            19,
        );
        assert_error(
            "p(X) :- q(X), !X = 1.",
            "expected an atom after `!`, found `X`",
            1,
            16,
        );
        assert_error(
            "p(X) :- q(X), !r.",
            "expected `(` after `r`, found `.`",
            1,
            17,
        );
        assert_error(
            "p(X) :- q(X), 'a' = X.",
            "unexpected character `\\'`",
            1,
            15,
        );
    }

    #[test]
    fn recovery_reports_every_broken_statement() {
        let text = "\
.decl ok(a: cell)
p(X) :- q(X) r(X).
good(X) :- q(X).
p(X) :- q(X, count : { r(X) }).
.decl bad(a: digits)
good(X) :- q(X).
p(X) = q(X).
good(X) :- q(X).
";
        let all = errors(text);
        let found: Vec<(&str, usize)> = all.iter().map(|e| (e.0.as_str(), e.1)).collect();
        assert_eq!(
            found,
            vec![
                ("expected `,` or `.` after this literal, found `r`", 2),
                ("`count` cannot be an argument of an atom", 4),
                ("unknown type `digits`", 5),
                ("expected `:-`, found `=`", 7),
            ]
        );
    }

    #[test]
    fn three_broken_rules_give_three_diagnostics() {
        let text = "p(X) :- q(X) r(X).\np(X) :- q(X,, r(X)).\np(X) :- , q(X).\n";
        assert_eq!(errors(text).len(), 3);
        // Three rules that each lack their `.`.
        let text = "p(X) :- q(X)\np(X) :- r(X)\np(X) :- s(X)\n";
        let lines: Vec<usize> = errors(text).iter().map(|e| e.1).collect();
        assert_eq!(lines, vec![1, 2, 3]);
    }

    #[test]
    fn one_diagnostic_per_statement() {
        assert_eq!(errors("p(X :- q(X Y, ,, ) ) ) .\n").len(), 1);
        assert_eq!(errors("p(X) :- q(\"abc, X).\nr(X) :- q(X).").len(), 1);
    }

    #[test]
    fn recovery_inside_an_unbalanced_declaration() {
        let text = ".decl a(x: bogus,\n       y: cell)\n.decl b(y: cell)\nb(r1c1).";
        let all = errors(text);
        assert_eq!(all.len(), 1, "{all:?}");
    }

    // ----- nesting -----

    #[test]
    fn moderate_nesting_is_fine() {
        let depth = 150;
        let text = format!("p({}1{}).", "(".repeat(depth), ")".repeat(depth));
        assert!(matches!(parse_rule(&text).head.args[0], Expr::Int(1, _)));
        let text = format!("p(X) :- X = {}1.", "-".repeat(depth));
        parse(&text);
        let mut aggregate = "q(X)".to_string();
        for _ in 0..50 {
            aggregate = format!("count : {{ {aggregate} }} > 0");
        }
        parse(&format!("p(X) :- {aggregate}."));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let n = 100_000;
        let cases = [
            format!("p({}1{}).", "(".repeat(n), ")".repeat(n)),
            format!("p({}1).", "-".repeat(n)),
            format!("p(X) :- X = 1{}.", " + 1".repeat(n)),
            format!(
                "p(X) :- {}q(X){}.",
                "count : { ".repeat(n),
                " } > 0".repeat(n)
            ),
            format!("p(X) :- q(X), X = {}", "(".repeat(n)),
        ];
        for text in &cases {
            let all = errors(text);
            assert_eq!(all.len(), 1);
            assert_eq!(all[0].0, "expression is too deeply nested");
        }
        // The limit is reported where it is reached.
        let text = format!("p({}1{}).", "(".repeat(300), ")".repeat(300));
        assert_eq!(error(&text).2, 3 + MAX_DEPTH);
    }

    #[test]
    fn nesting_up_to_the_limit_fits_the_stack() {
        // Aggregates take the most stack per level; the test thread's stack
        // is the small default one.
        let n = MAX_DEPTH;
        let text = format!(
            "p(X) :- {}q(X){}.",
            "count : { ".repeat(n),
            " } > 0".repeat(n)
        );
        let module = parse(&text);
        assert_eq!(module.clone(), module);
        let all = errors(&format!(
            "p(X) :- {}q(X){}.",
            "count : { ".repeat(n + 1),
            " } > 0".repeat(n + 1)
        ));
        assert_eq!(all[0].0, "expression is too deeply nested");
        let text = format!("p(X) :- X = {}1{}.", "(-".repeat(n / 2), ")".repeat(n / 2));
        parse(&text);
    }

    #[test]
    fn deep_nesting_works_in_queries_too() {
        let text = format!("X = {}1", "(".repeat(100_000));
        let diags = parse_body(&text, 0).unwrap_err();
        assert_eq!(diags[0].message, "expression is too deeply nested");
    }

    // ----- queries -----

    #[test]
    fn parse_body_reads_a_query() {
        let text = r#"candidate(C, 5), in_unit(C, U), unit_kind(U, "box")"#;
        let body = parse_body(text, 2).unwrap();
        assert_eq!(body.len(), 3);
        assert!(matches!(&body[2], Literal::Atom(a)
            if a.rel == "unit_kind" && a.args[1] == Expr::Str("box".into(), Span::new(2, 45, 50))));
        let with_dot = parse_body(&format!("{text}."), 2).unwrap();
        assert_eq!(with_dot, body);
        let body = parse_body(
            "!given(C, 5), count : { candidate(C, D) } >= 2, C = r1c1 .",
            0,
        )
        .unwrap();
        assert_eq!(body.len(), 3);
    }

    #[test]
    fn parse_body_errors() {
        let message = |text: &str| {
            let diags = parse_body(text, 0).unwrap_err();
            assert_eq!(diags.len(), 1);
            (diags[0].message.clone(), diags[0].span.start)
        };
        assert_eq!(message("").0, "the query is empty");
        assert_eq!(message("  // nothing").0, "the query is empty");
        assert_eq!(
            message("q(X). r(X)"),
            ("unexpected `r` after the end of the query".to_string(), 6)
        );
        assert_eq!(
            message("q(X) r(X)"),
            (
                "expected `,` or the end of the query, found `r`".to_string(),
                5
            )
        );
        assert_eq!(
            message("q(X) :- r(X)").0,
            "expected `,` or the end of the query, found `:-`"
        );
        assert_eq!(
            message("q(X), "),
            (
                "expected another literal after `,`, found the end of the input".to_string(),
                5
            )
        );
        assert_eq!(message("q(\"x").0, "unterminated string");
    }

    // ----- robustness -----

    /// A small deterministic generator, so that the test needs no crate.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn never_panics_on_garbage() {
        let pieces = [
            "p",
            "(",
            ")",
            "{",
            "}",
            ",",
            ".",
            ":",
            ":-",
            "!",
            "=",
            "!=",
            "<",
            ">=",
            "+",
            "-",
            "count",
            ":",
            "X",
            "_",
            "r1c1",
            "1",
            "99999999999999999999",
            "\"s\"",
            "\"",
            "/*",
            "*/",
            "//",
            "\n",
            " ",
            ".decl",
            "cell",
            "é",
            ";",
            "\\",
            "9223372036854775808",
            ".input",
            "sum",
        ];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let len = (rng.next() % 25) as usize;
            let text: String = (0..len)
                .map(|_| pieces[(rng.next() % pieces.len() as u64) as usize])
                .collect();
            let _ = parse_module(&text, 0);
            let _ = parse_body(&text, 0);
        }
        for end in 0..=SAMPLE.len() {
            if let Some(prefix) = SAMPLE.get(..end) {
                let _ = parse_module(prefix, 0);
                let _ = parse_body(prefix, 0);
            }
        }
    }

    #[test]
    fn diagnostics_render() {
        use crate::lang::diag::Diagnostics;
        let mut sources = SourceSet::default();
        let text = "p(X) :- q(X)";
        let file = sources.add("t.dl", text);
        let items = parse_module(text, file).unwrap_err();
        let rendered = Diagnostics { items, sources }.render();
        assert!(
            rendered.contains("expected `.` at the end of the rule (t.dl:1:13)"),
            "{rendered}"
        );
        assert!(rendered.contains("help: rules end with `.`"), "{rendered}");
    }
}
