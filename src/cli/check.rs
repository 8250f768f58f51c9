//! `sudolog check`: load a rule set (with any files named), show its
//! warnings, and list its relations, techniques and rules (with `--plan`,
//! what they compile to).

use super::rules::{RuleArgs, load_rules, print_rules_error};
use super::{EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, stderr};
use crate::engine::{Engine, show_plan};
use crate::lang::library::RulesError;
use crate::report;
use clap::Args;
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Rule files to check with the rule set (as `--rules-add` adds them).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The rule set.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// After the listing, show what the rules compile to: every operator of
    /// the static strata and of the fixpoint, under the rule it runs.
    #[arg(long)]
    pub plan: bool,
}

/// Runs `check`.
pub fn check(args: &CheckArgs) -> io::Result<i32> {
    let mut rules = args.rules.clone();
    rules.rules_add.extend(args.files.iter().cloned());
    let program = match load_rules(&rules) {
        Ok(p) => p,
        Err(e) => {
            print_rules_error(&e);
            return Ok(match e {
                RulesError::Invalid(_) => EXIT_UNSOLVED,
                _ => EXIT_INVALID,
            });
        }
    };
    stderr::warnings(&program);
    let listing = report::rule_listing(&program);
    match Engine::new(program) {
        Ok(engine) => {
            let mut out = io::stdout().lock();
            out.write_all(listing.as_bytes())?;
            if args.plan {
                writeln!(out)?;
                out.write_all(show_plan::render(&engine).as_bytes())?;
            }
            Ok(EXIT_OK)
        }
        Err(d) => {
            stderr::diagnostics(&d);
            Ok(EXIT_UNSOLVED)
        }
    }
}
