//! The parser of the rule language, a Soufflé-flavoured Datalog subset.
//!
//! Hand-written recursive descent over the tokens of [`super::lexer`].
//! Problems are reported as [`Diagnostic`]s, at most one per statement: after
//! an error the parser skips to the end of the statement and carries on, so
//! a single run shows every broken rule of a file without cascades.
//!
//! The grammar, informally (`{ x }` repeats, `[ x ]` is optional):
//!
//! ```text
//! module    = { statement }
//! statement = ".decl" name "(" [ column { "," column } ] ")"
//!           | ".tier" integer
//!           | atom [ ":-" body ] "."
//! column    = name ":" type
//! body      = literal { "," literal }
//! literal   = atom | "!" atom | "unless" atom [ "where" term cmp term ]
//!           | term cmp term
//!           | "count" ":" "{" body "}" cmp term
//!           | term cmp "count" ":" "{" body "}"
//!           | term cmp "set" name ":" "{" body "}"
//! atom      = name "(" [ term { "," term } ] ")"
//! term      = unary { ( "+" | "-" ) unary }
//! unary     = "-" unary | "(" term ")" | name | cell | "_" | integer | string
//! ```
//!
//! A query ([`parse_body`]) is one `body`, optionally ending with `.`.
//!
//! Recovery: the first problem in a statement ends its descent with one
//! diagnostic, and the parser skips to the next `.` outside parentheses and
//! braces (or to one that ends its line, in case the problem is an unclosed
//! parenthesis), never past a directive that starts a line. A forgotten
//! final `.` is recognised when the next token begins a line at column one
//! or is a directive that starts a line, and parsing resumes right there
//! rather than swallowing the next statement.
//!
//! Where to start reading: [`parse_module`] below loops over statements.
//! One file per part of the grammar, each adding an `impl` block to the one
//! `Parser` type:
//! - `items`: statements (`.decl`, `.tier`, rules and facts);
//! - `body`: the literals of a rule body, and atoms;
//! - `aggregates`: `count : { ... }` and `set X : { ... }`;
//! - `terms`: variables, constants, cells and arithmetic;
//! - `cursor`: the tokens and the position in them, which every rule reads
//!   through, and the nesting limit;
//! - `errors`: the wording of diagnostics, built out of line;
//! - `recovery`: where statements begin, and skipping a broken one;
//! - `tests`: the unit tests, by category.

mod aggregates;
mod body;
mod cursor;
mod errors;
mod items;
mod recovery;
mod terms;
#[cfg(test)]
mod tests;

use super::ast::{FileId, Literal, Module, RatingAlternative, Span};
use super::diag::Diagnostic;
use super::lexer::TokenKind;
use body::End;
use cursor::Parser;
use items::Stmt;
pub use terms::{is_unit_constant, unit_constant_parts};

/// Parses one rule file. `file` is the FileId its spans carry.
///
/// On errors returns every diagnostic found: after a problem the parser skips
/// to the end of the statement (the next `.` outside parentheses and braces)
/// and goes on, reporting at most one problem per statement.
pub fn parse_module(text: &str, file: FileId) -> Result<Module, Vec<Diagnostic>> {
    let mut p = Parser::new(text, file);
    let mut module = Module::default();
    let mut diags = Vec::new();
    // The `.rating` group the rules below take, and the one being read
    // (lines with no rule between them).
    let mut rating: Vec<RatingAlternative> = Vec::new();
    let mut group: Vec<RatingAlternative> = Vec::new();
    while !p.at_eof() {
        let start = p.pos;
        // Declarations and other directives have no final `.`, so they
        // recover differently from rules.
        let directive = p.is_directive_start(start, false);
        p.depth = 0;
        match p.statement() {
            Ok(Stmt::Decl(decl)) => module.decls.push(decl),
            Ok(Stmt::Rule(mut rule)) => {
                if !group.is_empty() {
                    diags.extend(rating_group_errors(&group));
                    rating = std::mem::take(&mut group);
                }
                rule.rating = rating.clone();
                module.rules.push(rule);
            }
            Ok(Stmt::Rating(line)) => group.push(line),
            Ok(Stmt::Tier(tier, span)) => match module.tier {
                Some((_, first)) if first != span => diags.push(
                    Diagnostic::new(span, "a second `.tier` in one file")
                        .label("tier set again")
                        .help("a file is one technique with one tier; keep one `.tier` line"),
                ),
                _ => module.tier = Some((tier, span)),
            },
            Ok(Stmt::AssumesUnique(span)) => module.assumes_unique = Some(span),
            Ok(Stmt::AssumesStalled(span)) => module.assumes_stalled = Some(span),
            Ok(Stmt::Input(name, span)) => module.inputs.push((name, span)),
            Err(diag) => {
                diags.push(*diag);
                p.recover(start, directive);
            }
        }
    }
    if let Some(last) = group.last() {
        diags.push(
            Diagnostic::new(last.span, "a `.rating` with no rule below it")
                .label("rates nothing")
                .help("a `.rating` rates the rules that follow it; move it above them"),
        );
    }
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(diags)
    }
}

/// What is wrong with a group of `.rating` lines: each line but the last
/// needs a `when` (the first line that applies rates a step, so one
/// without would hide those below it), and the last needs none (it rates
/// the steps no condition picks).
fn rating_group_errors(group: &[RatingAlternative]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let last = group.len() - 1;
    for (i, line) in group.iter().enumerate() {
        if i < last && line.when.is_empty() {
            out.push(
                Diagnostic::new(line.span, "this `.rating` always applies, so those below it never do")
                    .label("no `when`")
                    .help("in a group of `.rating` lines, the first whose `when` holds rates a step: put the line without `when` last"),
            );
        }
        if i == last && !line.when.is_empty() {
            out.push(
                Diagnostic::new(line.span, "the last `.rating` of a group has a `when`")
                    .label("what rates the steps it does not cover?")
                    .help("end the group with a line without `when`, such as `.rating 1.5`: it rates the steps no condition above picks"),
            );
        }
    }
    out
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
