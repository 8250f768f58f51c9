//! The rule language: syntax, diagnostics, checking, and rule-set loading.

pub mod ast;
pub mod builtin;
pub mod check;
pub mod diag;
pub mod graph;
pub mod lexer;
pub mod library;
pub mod lint;
pub mod parser;
pub mod program;
pub mod rules_error;
pub mod suggest;
pub mod symbols;
pub mod value;

#[cfg(test)]
mod layers;
