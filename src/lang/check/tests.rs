//! The pipeline's tests, and helpers for every pass's tests: a rule file
//! checked alone (without the library).

use super::{ParsedFile, check};
use crate::lang::ast::SourceSet;
use crate::lang::diag::Diagnostics;
use crate::lang::parser::parse_module;
use crate::lang::program::Program;

/// Checks `text` as the only rule file.
pub(super) fn check_text(text: &str) -> Result<Program, Diagnostics> {
    let mut sources = SourceSet::default();
    let file = sources.add("test.dl", text);
    let module = parse_module(text, file).expect("the test's rules parse");
    let technique = "test".to_string();
    check(vec![ParsedFile { module, technique }], sources)
}

/// The messages of the errors in `text`, in order (none if it checks).
pub(super) fn errors(text: &str) -> Vec<String> {
    match check_text(text) {
        Ok(_) => Vec::new(),
        Err(d) => d.items.into_iter().map(|d| d.message).collect(),
    }
}

/// Asserts that `text` checks.
pub(super) fn passes(text: &str) -> Program {
    match check_text(text) {
        Ok(p) => p,
        Err(d) => panic!("{}", d.render()),
    }
}

#[test]
fn a_program_checks_into_numbered_rules_and_techniques() {
    let p = passes(
        ".tier 2
        .decl two(c: cell)
        two(C) :- given(C, 2).
        eliminated(C, 3) :- two(C).",
    );
    assert_eq!(p.rules.len(), 2);
    assert_eq!(p.rules.iter().map(|r| r.id).collect::<Vec<_>>(), [0, 1]);
    assert!(p.rules.iter().all(|r| r.tier == 2 && r.technique == "test"));
    assert_eq!(p.techniques.len(), 1);
    assert_eq!((p.techniques[0].tier, p.techniques[0].rules), (2, 2));
    let two = p.relation("two").unwrap();
    assert!(p.relations[two].per_puzzle && !p.relations[two].dynamic);
}

#[test]
fn a_later_pass_waits_for_the_earlier_ones() {
    // An unknown relation (resolution) and a negated state (monotonicity):
    // only the first is reported, monotonicity never runs.
    let text = "eliminated(C, D) :- nowhere(C), digit(D), !placed(C, D).";
    assert_eq!(errors(text), ["undeclared relation `nowhere`"]);
}

#[test]
fn every_rule_is_checked_and_reported() {
    let text = "
        .decl a(c: cell)
        a(C) :- nowhere(C).
        a(C) :- cell(C), digit(C).";
    assert_eq!(
        errors(text),
        [
            "undeclared relation `nowhere`",
            "type clash: `C` is used as a digit here but as a cell on line 4",
        ]
    );
}
