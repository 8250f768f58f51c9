//! The architecture's invariants (ARCHITECTURE.md, "Invariants"), checked
//! on the source: which layer may name which. A change that makes a layer
//! import what it must not fails here, with the file and the line.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/<dir>` (or the file `src/<dir>.rs`).
fn sources(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let file = root.join(format!("{dir}.rs"));
    if file.exists() {
        files.push(file);
    }
    let mut todo = vec![root.join(dir)];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(!files.is_empty(), "no source under src/{dir}");
    files.sort();
    files
}

/// The code lines of a file (comments left out: doc links may name any
/// module), with their line numbers.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = fs::read_to_string(path).expect("a readable source file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// The places in `src/<layer>` that name one of `forbidden` (each a path
/// such as `crate::cli` or `crate::lang::ast`), as `file:line: text`.
fn violations(layer: &str, forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for path in sources(layer) {
        for (n, line) in code_lines(&path) {
            for f in forbidden {
                let named = line.match_indices(f).any(|(i, _)| {
                    // `crate::lang::ast` but not `crate::lang::astral`.
                    !line[i + f.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                });
                if named {
                    found.push(format!("{}:{n}: {}", path.display(), line.trim()));
                }
            }
        }
    }
    found
}

/// The crate's top-level modules but `keep`, as `crate::x` paths.
fn all_but(keep: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeSet::new();
    for entry in fs::read_dir(&root).expect("src/").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let module = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        if !["lib", "main"].contains(&module.as_str()) && !keep.contains(&module.as_str()) {
            modules.insert(format!("crate::{module}"));
        }
    }
    modules.into_iter().collect()
}

fn assert_none(rule: &str, found: Vec<String>) {
    assert!(found.is_empty(), "{rule}, but:\n{}", found.join("\n"));
}

#[test]
fn the_grid_is_a_leaf() {
    let others = all_but(&["grid"]);
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    assert_none(
        "`grid` imports nothing else of the crate",
        violations("grid", &others),
    );
}

#[test]
fn the_language_builds_on_nothing_but_itself() {
    let others = all_but(&["lang"]);
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    assert_none(
        "`lang` imports nothing outside `lang`",
        violations("lang", &others),
    );
}

#[test]
fn the_engine_never_sees_the_syntax_tree() {
    assert_none(
        "the engine reads checked programs, never the AST, the parser or the checker",
        violations(
            "engine",
            &[
                "crate::lang::ast",
                "crate::lang::parser",
                "crate::lang::lexer",
                "crate::lang::check",
            ],
        ),
    );
    assert_none(
        "the engine knows nothing of the search, the reports or the commands",
        violations(
            "engine",
            &[
                "crate::solve",
                "crate::report",
                "crate::inspect",
                "crate::cli",
            ],
        ),
    );
}

#[test]
fn the_search_produces_data_not_text() {
    assert_none(
        "`solve` hands data to `report` and `inspect`, which word it; it names neither, \
         nor the commands",
        violations("solve", &["crate::report", "crate::inspect", "crate::cli"]),
    );
}

#[test]
fn the_pictures_draw_what_they_are_given() {
    // What a step is, and what its pattern holds, is `inspect`'s to find;
    // `picture` only draws a board and its marks, so that the pictures
    // and the text cannot come from different data.
    let others = all_but(&["grid", "picture"]);
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    assert_none(
        "`picture` imports nothing of the crate but `grid`",
        violations("picture", &others),
    );
}

#[test]
fn only_the_commands_know_the_command_line() {
    for layer in [
        "grid", "lang", "engine", "solve", "report", "inspect", "reglib", "picture", "generate",
    ] {
        assert_none(
            &format!("`{layer}` does not import `cli`"),
            violations(layer, &["crate::cli"]),
        );
    }
}

#[test]
fn only_the_commands_print() {
    // What the library says goes through return values; the commands
    // decide what reaches standard output and standard error.
    let printing = ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("];
    for layer in [
        "grid", "lang", "engine", "solve", "report", "inspect", "batch", "reglib", "picture",
        "generate",
    ] {
        let found: Vec<String> = violations(layer, &printing)
            .into_iter()
            // Test modules may print what they compare.
            .filter(|v| !v.contains("/tests/") && !v.contains("tests.rs"))
            .collect();
        assert_none(&format!("`{layer}` prints nothing itself"), found);
    }
}
