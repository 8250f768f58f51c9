//! Which rules a command runs: the rule-set arguments every command shares
//! (`--rules`, `--rules-add`, `--extra`, `--variant`, `--techniques`,
//! `--max-tier`) turned into a checked program and a compiled engine, with
//! what is wrong printed on standard error.

use super::args::{ForcingArgs, Limits};
use super::stderr;
use crate::engine::Engine;
use crate::lang::library::{RuleSources, RulesError};
use crate::lang::program::Program;
use clap::Args;
use std::path::PathBuf;

/// Which rules to use.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// Use the .dl files in DIR instead of the built-in rule library.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Add a rule file to the rule set (repeatable).
    #[arg(long = "rules-add", value_name = "FILE")]
    pub rules_add: Vec<PathBuf>,
    /// Solve a Sudoku variant: add its built-in rule file (repeatable or
    /// comma-separated): x, hyper, disjoint, anti_knight, anti_king,
    /// non_consecutive; and, with their clues on the lines after each
    /// puzzle, killer, thermo, arrow, kropki, even_odd.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub variant: Vec<String>,
    /// Add a built-in technique from outside the standard library
    /// (repeatable or comma-separated; `rules/extra/`, with the extras it
    /// needs): aligned_pairs, als, als_chains, als_xy_wing, death_blossom,
    /// franken_fish, medusa, sue_de_coq, templates, turbot_fish,
    /// vwxyz_wing, wxyz_wing. Sukaku Explainer's scale:
    /// `--extra turbot_fish,wxyz_wing,vwxyz_wing`.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub extra: Vec<String>,
    /// Use only these techniques (comma-separated file stems such as
    /// `singles,locked`; tier-0 files such as grid.dl always stay).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub techniques: Option<Vec<String>>,
    /// Use only techniques up to this tier, or `all` for every tier
    /// (`solve` defaults to 2: singles and locked candidates; the other
    /// commands use every tier).
    #[arg(long, value_name = "N|all", value_parser = parse_tier_cap)]
    pub max_tier: Option<TierCap>,
    /// The command's own tier cap when `--max-tier` is not given (solve's
    /// default); unlike `--max-tier`, it may exceed the rule set's tiers.
    #[arg(skip)]
    pub default_max_tier: Option<u32>,
}

impl RuleArgs {
    /// The same rules, capped at `tier` unless the arguments choose their
    /// techniques or tiers themselves (`solve`'s default cap, for the
    /// commands that search or count).
    pub fn with_default_max_tier(&self, tier: u32) -> RuleArgs {
        let mut rules = self.clone();
        if rules.techniques.is_none() {
            rules.default_max_tier = Some(tier);
        }
        rules
    }
}

/// What `--max-tier` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierCap {
    /// Techniques up to this tier.
    Up(u32),
    /// Every tier of the rule set, however many the library has: what a
    /// script that wants the whole library says, so that it keeps meaning
    /// that when techniques are added.
    All,
}

/// Reads `--max-tier`: a tier number or `all`.
pub(super) fn parse_tier_cap(text: &str) -> Result<TierCap, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(TierCap::All);
    }
    text.parse().map(TierCap::Up).map_err(|_| {
        format!("`{text}` is no tier: give a number (`sudolog check` lists the tiers) or `all`")
    })
}

/// Compiles a program, printing diagnostics on failure.
pub fn compile(program: Program) -> Option<Engine> {
    match Engine::new(program) {
        Ok(e) => Some(e),
        Err(d) => {
            stderr::diagnostics(&d);
            None
        }
    }
}

/// Loads the rule set the arguments name, printing what is wrong with it
/// (the caller then exits with [`EXIT_INVALID`]).
pub fn load_program(args: &RuleArgs) -> Option<Program> {
    load_rules(args).map_err(|e| print_rules_error(&e)).ok()
}

/// Loads and compiles the rule set the arguments name, printing what is
/// wrong with it (the caller then exits with [`EXIT_INVALID`]).
pub fn load_engine(args: &RuleArgs) -> Option<Engine> {
    load_program(args).and_then(compile)
}

/// Loads the rule set the arguments name.
pub fn load_rules(args: &RuleArgs) -> Result<Program, RulesError> {
    let mut sources = match &args.rules {
        Some(dir) => RuleSources::from_dir(dir)?,
        None => RuleSources::standard(),
    };
    for v in &args.variant {
        sources.add_variant(v)?;
    }
    for e in &args.extra {
        sources.add_extra(e)?;
    }
    for f in &args.rules_add {
        sources.add_file(f)?;
    }
    let mut program = sources.load()?;
    if let Some(names) = &args.techniques {
        program.restrict_techniques(names)?;
    }
    if let Some(TierCap::Up(max)) = args.max_tier {
        // A tier above every technique's selects nothing new: most likely
        // a typo, and a silent success would hide it.
        let highest = program.highest_tier();
        if max > highest {
            return Err(RulesError::TierTooHigh {
                asked: max,
                highest,
            });
        }
        program.restrict_tier(max);
    } else if args.max_tier == Some(TierCap::All) {
        // Every tier: nothing to restrict.
    } else if let Some(max) = args.default_max_tier {
        program.restrict_tier(max);
    }
    if let Some(t) = program.stalled_without_singles() {
        return Err(RulesError::NeedsSingles {
            technique: t.name.clone(),
        });
    }
    Ok(program)
}

/// Prints a rule-loading error on stderr.
pub fn print_rules_error(e: &RulesError) {
    stderr::rules_error(e);
}

/// Whether `--forcing-tier` asks for no tier above those of `program`,
/// the rules the command runs; says why not, as `--max-tier` does for a
/// tier above the rule set's: forcing's forks run no tier the solve does
/// not, so a higher one would silently mean all of them. A run that
/// never forces (`--no-forcing`, `--forcing-depth 0`) uses no fork tier,
/// so any is accepted there.
pub fn forcing_tier_runs(forcing: &ForcingArgs, program: &Program) -> bool {
    if forcing.no_forcing || forcing.forcing_depth == Some(0) {
        return true;
    }
    let highest = program.highest_tier();
    match forcing.forcing_tier {
        Some(TierCap::Up(asked)) if asked > highest => {
            print_rules_error(&RulesError::ForcingTierTooHigh { asked, highest });
            false
        }
        _ => true,
    }
}

/// The engine `solve` runs, which the inspection commands inspect too:
/// `solve`'s default tiers unless techniques or a tier are chosen, and the
/// fact limit of `limits`. This is where a solving command's rule and
/// limit arguments become run settings.
pub fn load_solve_engine(rules: &RuleArgs, limits: &Limits) -> Option<Engine> {
    let rules = rules.with_default_max_tier(super::SOLVE_DEFAULT_MAX_TIER);
    let mut engine = load_engine(&rules)?;
    if !forcing_tier_runs(&limits.forcing, engine.program()) {
        return None;
    }
    engine.set_fact_limit(limits.facts.max_facts);
    Some(engine)
}
