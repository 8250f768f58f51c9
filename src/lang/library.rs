//! Rule sets: the standard library embedded in the binary, a replacement
//! directory (`--rules DIR`), and extra files (`--rules-add FILE`).

use super::ast::{SourceSet, Span};
use super::check::{ParsedFile, check};
use super::diag::{Diagnostic, Diagnostics};
use super::parser::parse_module;
use super::program::Program;
use std::path::Path;

pub use super::rules_error::RulesError;

/// The standard rule library, compiled into the binary so that sudolog
/// works from any directory.
pub const STANDARD: &[(&str, &str)] = &[
    ("rules/grid.dl", include_str!("../../rules/grid.dl")),
    ("rules/singles.dl", include_str!("../../rules/singles.dl")),
    ("rules/locked.dl", include_str!("../../rules/locked.dl")),
    (
        "rules/naked_subsets.dl",
        include_str!("../../rules/naked_subsets.dl"),
    ),
    (
        "rules/hidden_subsets.dl",
        include_str!("../../rules/hidden_subsets.dl"),
    ),
    ("rules/fish.dl", include_str!("../../rules/fish.dl")),
    ("rules/wings.dl", include_str!("../../rules/wings.dl")),
    ("rules/w_wing.dl", include_str!("../../rules/w_wing.dl")),
    (
        "rules/single_digit.dl",
        include_str!("../../rules/single_digit.dl"),
    ),
    (
        "rules/empty_rectangle.dl",
        include_str!("../../rules/empty_rectangle.dl"),
    ),
    (
        "rules/multi_colours.dl",
        include_str!("../../rules/multi_colours.dl"),
    ),
    (
        "rules/uniqueness.dl",
        include_str!("../../rules/uniqueness.dl"),
    ),
    ("rules/bug.dl", include_str!("../../rules/bug.dl")),
    (
        "rules/finned_fish.dl",
        include_str!("../../rules/finned_fish.dl"),
    ),
    ("rules/chains.dl", include_str!("../../rules/chains.dl")),
    (
        "rules/late_rectangles.dl",
        include_str!("../../rules/late_rectangles.dl"),
    ),
    (
        "rules/late_finned_fish.dl",
        include_str!("../../rules/late_finned_fish.dl"),
    ),
    (
        "rules/grouped_chains.dl",
        include_str!("../../rules/grouped_chains.dl"),
    ),
];

/// The built-in variant whose rule file declares `.input name` (whose
/// clues a puzzle's `name(...)` facts are), for the error that names the
/// `--variant` a puzzle with such facts needs.
pub fn variant_declaring_input(name: &str) -> Option<&'static str> {
    VARIANTS.iter().find_map(|(variant, _, text)| {
        text.lines()
            .any(|l| {
                l.trim()
                    .strip_prefix(".input")
                    .is_some_and(|r| r.trim() == name)
            })
            .then_some(*variant)
    })
}

/// The variants' rule files (`rules/variants/`), compiled into the binary
/// for `--variant NAME`: `(name, display path, text)`.
pub const VARIANTS: &[(&str, &str, &str)] = &[
    (
        "x",
        "rules/variants/x.dl",
        include_str!("../../rules/variants/x.dl"),
    ),
    (
        "hyper",
        "rules/variants/hyper.dl",
        include_str!("../../rules/variants/hyper.dl"),
    ),
    (
        "disjoint",
        "rules/variants/disjoint.dl",
        include_str!("../../rules/variants/disjoint.dl"),
    ),
    (
        "anti_knight",
        "rules/variants/anti_knight.dl",
        include_str!("../../rules/variants/anti_knight.dl"),
    ),
    (
        "anti_king",
        "rules/variants/anti_king.dl",
        include_str!("../../rules/variants/anti_king.dl"),
    ),
    (
        "non_consecutive",
        "rules/variants/non_consecutive.dl",
        include_str!("../../rules/variants/non_consecutive.dl"),
    ),
    (
        "even_odd",
        "rules/variants/even_odd.dl",
        include_str!("../../rules/variants/even_odd.dl"),
    ),
    (
        "thermo",
        "rules/variants/thermo.dl",
        include_str!("../../rules/variants/thermo.dl"),
    ),
    (
        "arrow",
        "rules/variants/arrow.dl",
        include_str!("../../rules/variants/arrow.dl"),
    ),
    (
        "kropki",
        "rules/variants/kropki.dl",
        include_str!("../../rules/variants/kropki.dl"),
    ),
    (
        "killer",
        "rules/variants/killer.dl",
        include_str!("../../rules/variants/killer.dl"),
    ),
];

/// A technique outside the standard library (`rules/extra/`), compiled
/// into the binary for `--extra NAME`: too costly for every solve, or a
/// choice of rating scale (README, "The standard library and technique
/// tiers").
pub struct Extra {
    /// The name `--extra` takes: the file's stem, its technique's name.
    pub name: &'static str,
    /// The display path, as its diagnostics name it.
    pub path: &'static str,
    /// The rule text.
    pub text: &'static str,
    /// The other extras whose relations its rules read, added before it.
    pub needs: &'static [&'static str],
}

/// The techniques of `rules/extra/`, by name.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "aligned_pairs",
        path: "rules/extra/aligned_pairs.dl",
        text: include_str!("../../rules/extra/aligned_pairs.dl"),
        needs: &[],
    },
    Extra {
        name: "als",
        path: "rules/extra/als.dl",
        text: include_str!("../../rules/extra/als.dl"),
        needs: &[],
    },
    Extra {
        name: "als_chains",
        path: "rules/extra/als_chains.dl",
        text: include_str!("../../rules/extra/als_chains.dl"),
        needs: &["als"],
    },
    Extra {
        name: "als_xy_wing",
        path: "rules/extra/als_xy_wing.dl",
        text: include_str!("../../rules/extra/als_xy_wing.dl"),
        needs: &["als"],
    },
    Extra {
        name: "death_blossom",
        path: "rules/extra/death_blossom.dl",
        text: include_str!("../../rules/extra/death_blossom.dl"),
        needs: &["als"],
    },
    Extra {
        name: "franken_fish",
        path: "rules/extra/franken_fish.dl",
        text: include_str!("../../rules/extra/franken_fish.dl"),
        needs: &[],
    },
    Extra {
        name: "medusa",
        path: "rules/extra/medusa.dl",
        text: include_str!("../../rules/extra/medusa.dl"),
        needs: &[],
    },
    Extra {
        name: "sue_de_coq",
        path: "rules/extra/sue_de_coq.dl",
        text: include_str!("../../rules/extra/sue_de_coq.dl"),
        needs: &[],
    },
    Extra {
        name: "templates",
        path: "rules/extra/templates.dl",
        text: include_str!("../../rules/extra/templates.dl"),
        needs: &[],
    },
    Extra {
        name: "turbot_fish",
        path: "rules/extra/turbot_fish.dl",
        text: include_str!("../../rules/extra/turbot_fish.dl"),
        needs: &[],
    },
    Extra {
        name: "vwxyz_wing",
        path: "rules/extra/vwxyz_wing.dl",
        text: include_str!("../../rules/extra/vwxyz_wing.dl"),
        needs: &[],
    },
    Extra {
        name: "wxyz_wing",
        path: "rules/extra/wxyz_wing.dl",
        text: include_str!("../../rules/extra/wxyz_wing.dl"),
        needs: &[],
    },
];

/// The texts of a rule set, before parsing.
#[derive(Clone, Debug, Default)]
pub struct RuleSources {
    /// `(display name, text)` per file, in load order.
    pub files: Vec<(String, String)>,
}

impl RuleSources {
    /// The embedded standard library.
    pub fn standard() -> RuleSources {
        RuleSources {
            files: STANDARD
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        }
    }

    /// Every `.dl` file directly inside `dir`, in name order (replaces the
    /// standard library).
    pub fn from_dir(dir: &Path) -> Result<RuleSources, RulesError> {
        let io = |error| RulesError::UnreadableDirectory {
            path: dir.to_path_buf(),
            error,
        };
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "dl"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(RulesError::EmptyDirectory(dir.to_path_buf()));
        }
        let mut s = RuleSources::default();
        for p in paths {
            s.add_file(&p)?;
        }
        Ok(s)
    }

    /// Adds one rule file.
    pub fn add_file(&mut self, path: &Path) -> Result<(), RulesError> {
        let text = std::fs::read_to_string(path).map_err(|error| RulesError::UnreadableFile {
            path: path.to_path_buf(),
            error,
        })?;
        self.files.push((path.display().to_string(), text));
        Ok(())
    }

    /// Adds the rule file of a built-in variant (see [`VARIANTS`]).
    pub fn add_variant(&mut self, name: &str) -> Result<(), RulesError> {
        let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
        match VARIANTS.iter().find(|(n, _, _)| *n == wanted) {
            Some((_, path, text)) => {
                self.add_text(path, text);
                Ok(())
            }
            None => Err(RulesError::UnknownVariant {
                name: name.to_string(),
                known: VARIANTS.iter().map(|(n, _, _)| n.to_string()).collect(),
            }),
        }
    }

    /// Adds the rule file of a technique of `rules/extra/` (see
    /// [`EXTRAS`]), after the extras it needs; one already added is not
    /// added again, so `--extra als,als_chains` is `als` once.
    pub fn add_extra(&mut self, name: &str) -> Result<(), RulesError> {
        let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
        let Some(extra) = EXTRAS.iter().find(|e| e.name == wanted) else {
            return Err(RulesError::UnknownExtra {
                name: name.to_string(),
                known: EXTRAS.iter().map(|e| e.name.to_string()).collect(),
            });
        };
        for need in extra.needs {
            self.add_extra(need)?;
        }
        if !self.files.iter().any(|(n, _)| n == extra.path) {
            self.add_text(extra.path, extra.text);
        }
        Ok(())
    }

    /// Adds a rule text under a display name.
    pub fn add_text(&mut self, name: &str, text: &str) {
        self.files.push((name.to_string(), text.to_string()));
    }

    /// Parses and checks the whole set.
    pub fn load(&self) -> Result<Program, RulesError> {
        let mut sources = SourceSet::default();
        let mut parsed = Vec::new();
        let mut errors = Vec::new();
        // A file's name is its technique's: a second file of the same name
        // would silently join the first's technique and its tier.
        let mut first_of: Vec<(String, &str, &str)> = Vec::new();
        for (name, text) in &self.files {
            let technique = technique_name(name);
            let first = first_of.iter().find(|(t, _, _)| *t == technique);
            if first.is_some_and(|(_, _, first_text)| first_text == text) {
                // The same file twice (a library file checked by its path,
                // an extra also added as a file): its rules once.
                continue;
            }
            let id = sources.add(name.clone(), text.clone());
            if let Some((_, first, _)) = first {
                let built_in = is_built_in(first);
                errors.push(
                    Diagnostic::new(
                        Span::new(id, 0, 0),
                        format!(
                            "the rule file `{name}` has the name of the technique `{technique}` of `{first}`"
                        ),
                    )
                    .label("a file's name is its technique's")
                    .help(if built_in {
                        format!(
                            "`{first}` is built in and this file differs from it: to try an edited copy of the library, load its folder alone (`--rules DIR`); for a technique of your own, rename the file (for example `my_{technique}.dl`)"
                        )
                    } else {
                        format!(
                            "rename the file (for example `my_{technique}.dl`): with the same name its rules would join `{technique}`, at that technique's tier"
                        )
                    }),
                );
                continue;
            }
            first_of.push((technique.clone(), name.as_str(), text.as_str()));
            match parse_module(text, id) {
                Ok(module) => parsed.push(ParsedFile { module, technique }),
                Err(mut e) => errors.append(&mut e),
            }
        }
        if !errors.is_empty() {
            return Err(RulesError::Invalid(Diagnostics {
                items: errors,
                sources,
            }));
        }
        check(parsed, sources).map_err(RulesError::Invalid)
    }
}

/// Whether a file of that name is one the binary embeds (the standard
/// library, an extra, a variant).
fn is_built_in(name: &str) -> bool {
    STANDARD.iter().any(|(n, _)| *n == name)
        || EXTRAS.iter().any(|e| e.path == name)
        || VARIANTS.iter().any(|(_, path, _)| *path == name)
}

/// The technique a file's rules belong to: its stem (`rules/singles.dl` → `singles`).
fn technique_name(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_rules_extra_is_built_in() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/extra");
        let mut stems: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "dl"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        stems.sort();
        let names: Vec<&str> = EXTRAS.iter().map(|e| e.name).collect();
        assert_eq!(stems, names);
    }

    #[test]
    fn each_extra_loads_beside_the_library_with_what_it_needs() {
        for extra in EXTRAS {
            let mut sources = RuleSources::standard();
            let loaded = sources.add_extra(extra.name).and_then(|()| sources.load());
            assert!(loaded.is_ok(), "{}: {:?}", extra.name, loaded.err());
        }
    }
}
