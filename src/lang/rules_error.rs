//! Why a rule set could not be loaded, as a type: a caller can tell an
//! unreadable file from an unknown variant or technique from rules with
//! errors, and each says what to do in its message.

use super::diag::Diagnostics;
use super::suggest::did_you_mean;
use std::fmt;
use std::path::PathBuf;

/// Why a rule set could not be loaded.
#[derive(Debug)]
pub enum RulesError {
    /// A rule file could not be read.
    UnreadableFile {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The rules directory (`--rules DIR`) could not be read.
    UnreadableDirectory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The rules directory holds no `.dl` file.
    EmptyDirectory(PathBuf),
    /// No built-in variant has this name.
    UnknownVariant {
        /// The name asked for.
        name: String,
        /// The variants there are.
        known: Vec<String>,
    },
    /// No technique of `rules/extra/` has this name (`--extra`).
    UnknownExtra {
        /// The name asked for.
        name: String,
        /// The extras there are.
        known: Vec<String>,
    },
    /// No technique of the rule set has this name (`--techniques`).
    UnknownTechnique {
        /// The name asked for.
        name: String,
        /// The techniques there are.
        known: Vec<String>,
    },
    /// A technique that assumes the singles are stalled, selected without
    /// them (`--techniques`, or a rule set with no tier 1).
    NeedsSingles {
        /// The technique.
        technique: String,
    },
    /// A tier for forcing's forks above every tier the command runs
    /// (`--forcing-tier`): the forks would run those tiers, no more.
    ForcingTierTooHigh {
        /// The tier asked for.
        asked: u32,
        /// The highest tier of the rules the command runs.
        highest: u32,
    },
    /// A tier above every technique's (`--max-tier`): most likely a typo.
    TierTooHigh {
        /// The tier asked for.
        asked: u32,
        /// The rule set's highest tier.
        highest: u32,
    },
    /// The rules have errors (located diagnostics).
    Invalid(Diagnostics),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnreadableFile { path, error } => write!(
                f,
                "cannot read the rule file {}: {error}; check the path (rule files are UTF-8 text)",
                path.display()
            ),
            RulesError::UnreadableDirectory { path, error } => write!(
                f,
                "cannot read the rules directory {}: {error}; pass a directory holding .dl files to --rules",
                path.display()
            ),
            RulesError::EmptyDirectory(path) => write!(
                f,
                "the rules directory {} holds no .dl files; pass a directory of rule files to --rules",
                path.display()
            ),
            RulesError::UnknownVariant { name, known } => write!(
                f,
                "unknown variant `{name}`{}; the variants are {}",
                did_you_mean(name, known.iter().map(String::as_str)),
                known.join(", ")
            ),
            RulesError::UnknownExtra { name, known } => write!(
                f,
                "no technique `{name}` among the extras{}; they are {}",
                did_you_mean(name, known.iter().map(String::as_str)),
                known.join(", ")
            ),
            RulesError::UnknownTechnique { name, known } => write!(
                f,
                "no technique `{name}` in the rule set{}; the techniques are: {}",
                did_you_mean(name, known.iter().map(String::as_str)),
                known.join(", ")
            ),
            RulesError::TierTooHigh { asked, highest } => write!(
                f,
                "--max-tier {asked}: the rule set's tiers go up to {highest} (`--max-tier all` \
                 selects every tier); `sudolog check` lists its techniques with their tiers"
            ),
            RulesError::ForcingTierTooHigh { asked, highest } => write!(
                f,
                "--forcing-tier {asked}: the rules this command runs go up to tier {highest}, \
                 and forcing's forks run none above them (`--forcing-tier all` runs all of \
                 them; `--max-tier` chooses the command's)"
            ),
            RulesError::NeedsSingles { technique } => write!(
                f,
                "technique `{technique}` assumes the singles are stalled (`.assumes stalled`), \
                 but no technique of tier 1 is selected: add `singles` to --techniques (or a \
                 tier-1 file of singles to the rule set)"
            ),
            RulesError::Invalid(d) => write!(f, "{d}"),
        }
    }
}

impl std::error::Error for RulesError {}

impl RulesError {
    /// Whether the rules themselves are wrong (as opposed to the files,
    /// names or options that select them).
    pub fn is_invalid_rules(&self) -> bool {
        matches!(self, RulesError::Invalid(_))
    }
}
