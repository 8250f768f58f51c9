//! Statements: the directives `.decl` (a relation's columns and their
//! types) and `.tier`, and rules, a fact being a rule without a body. Each is
//! read from its first token to its last; `parse_module` collects them.

use super::body::End;
use super::cursor::{PResult, Parser};
use crate::lang::ast::{Attribute, Decl, RatingAlternative, Rule, Span, Type};
use crate::lang::diag::Diagnostic;
use crate::lang::lexer::TokenKind;

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

const TYPES_HELP: &str = "the types are `cell`, `digit`, `unit`, `number` and `symbol`";
const DIRECTIVE_HELP: &str = "sudolog reads puzzles and reports results itself, so rule files \
     need no output directives; the supported directives are \
     `.decl name(column: type, ...)`, `.tier N`, `.assumes unique`, `.assumes stalled`, \
     `.rating R` and `.input name` (a relation whose facts come with each puzzle)";
const RATING_HELP: &str = "write `.rating 4.2` (Sudoku Explainer's scale, one decimal), \
     `.rating 6.5 + length` for a bonus that grows with a chain's length, or \
     `.rating 1.2 when unit_kind(U, \"box\").` to rate the rules below by their variables";
const DECL_EXAMPLE: &str = "declarations look like `.decl peer(a: cell, b: cell)`";

/// One statement of a rule file.
pub(super) enum Stmt {
    Decl(Decl),
    Rule(Rule),
    Tier(u32, Span),
    /// `.assumes unique`: the file's rules are sound only for a puzzle
    /// with one solution.
    AssumesUnique(Span),
    /// `.assumes stalled`: the file's rules are sound only where the
    /// singles have nothing left to derive.
    AssumesStalled(Span),
    /// `.rating 4.2`, `.rating 6.5 + length`, `.rating 1.2 when ... .`:
    /// how hard the steps of the rules below are.
    Rating(RatingAlternative),
    /// `.input name`: the relation's facts come with each puzzle.
    Input(String, Span),
}

impl Parser<'_> {
    pub(super) fn statement(&mut self) -> PResult<Stmt> {
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
        if name == "assumes" {
            return match self.kind() {
                TokenKind::Ident(what) if what == "unique" => {
                    let end = self.bump();
                    Ok(Stmt::AssumesUnique(dot.to(end)))
                }
                TokenKind::Ident(what) if what == "stalled" => {
                    let end = self.bump();
                    Ok(Stmt::AssumesStalled(dot.to(end)))
                }
                _ => Err(self.expected(
                    "`unique` or `stalled` after `.assumes`",
                    "write `.assumes unique` in a file whose rules hold only for a puzzle \
                     with one solution (unique rectangles): they are switched off when \
                     solutions are counted; `.assumes stalled` in one whose rules hold only \
                     where no single is left (BUG+1)",
                )),
            };
        }
        if name == "rating" {
            return self.rating(dot).map(Stmt::Rating);
        }
        if name == "input" {
            return match self.kind() {
                TokenKind::Ident(rel) => {
                    let rel = rel.clone();
                    let end = self.bump();
                    if matches!(self.kind(), TokenKind::LParen) {
                        return Err(self.fail(
                            format!("`.input {rel}` takes no parameters"),
                            "parameters",
                            &format!(
                                "the facts of `{rel}` come with each puzzle, on the lines after \
                                 it (`{rel}(r1c1, 5).`); write just `.input {rel}`"
                            ),
                        ));
                    }
                    Ok(Stmt::Input(rel, dot.to(end)))
                }
                _ => Err(self.expected(
                    "a relation's name after `.input`",
                    "write `.input cage` below `.decl cage(c: cell, g: number)`: the \
                     relation's facts then come with each puzzle, on the lines after it",
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

    /// The rest of a `.rating` line after `.rating`: a decimal with at
    /// most one digit after the point, `+ length`, `when` and a body
    /// ending with `.`.
    fn rating(&mut self, dot: Span) -> PResult<RatingAlternative> {
        let TokenKind::Int(whole) = *self.kind() else {
            return Err(self.expected("a rating after `.rating`", RATING_HELP));
        };
        let mut end = self.bump();
        let mut tenths = whole.saturating_mul(10);
        // `4.2` reads as `4`, `.`, `2`: a point with no space either side.
        let point = self.peek().span;
        if matches!(self.kind(), TokenKind::Dot)
            && point.start == end.end
            && let TokenKind::Int(fraction) = *self.kind_at(1)
            && self.tok_at(self.pos + 1).span.start == point.end
        {
            let digits = self.tok_at(self.pos + 1).span.end - self.tok_at(self.pos + 1).span.start;
            if digits != 1 {
                self.bump();
                return Err(self.fail(
                    "a rating has one digit after the point",
                    "one digit only",
                    RATING_HELP,
                ));
            }
            self.bump();
            end = self.bump();
            tenths += fraction;
        }
        if tenths > 1000 {
            return Err(Diagnostic::new(dot.to(end), "a rating above 100.0")
                .label("too large")
                .help("ratings are on Sudoku Explainer's scale, from 1.0 to about 12")
                .into());
        }
        let mut length_bonus = false;
        if matches!(self.kind(), TokenKind::Plus) {
            self.bump();
            match self.kind() {
                TokenKind::Ident(word) if word == "length" => {
                    end = self.bump();
                    length_bonus = true;
                }
                _ => return Err(self.expected("`length` after `+`", RATING_HELP)),
            }
        }
        let mut when = Vec::new();
        if let TokenKind::Ident(word) = self.kind()
            && word == "when"
            && !self.peek().first_on_line
        {
            self.bump();
            when = self.conjunction(End::Rule)?;
            end = self.bump();
        }
        Ok(RatingAlternative {
            tenths: tenths as u32,
            length_bonus,
            when,
            span: dot.to(end),
        })
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
            rating: Vec::new(),
        })
    }
}
