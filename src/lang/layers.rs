//! The layering of `lang`, checked on its source: the modules of `lang`
//! import each other without a cycle (a leaf such as `value` or `builtin`
//! holds what two modules both need). That `lang` imports nothing of the
//! crate outside itself is one of the crate's invariants, checked with the
//! others by `tests/layers.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Per top-level module of `lang`, the other top-level modules of `lang`
/// its code names (`super::x`, `crate::lang::x`), tests left out.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang");
    let mut files = Vec::new();
    let mut todo = vec![root.clone()];
    while let Some(dir) = todo.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let is_module =
        |name: &str| root.join(format!("{name}.rs")).exists() || root.join(name).is_dir();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        // The file's module path below `lang`: `check/resolve.rs` is
        // `["check", "resolve"]`, `check/mod.rs` is `["check"]`.
        let rel = file.strip_prefix(&root).unwrap().with_extension("");
        let mut path: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if path.last().is_some_and(|p| p == "mod") {
            path.pop();
        }
        let Some(top) = path.first().cloned() else {
            continue; // `lang/mod.rs` declares the modules
        };
        let text = fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or_default();
            let mut rest = line;
            while let Some(at) = [rest.find("crate::"), rest.find("super::")]
                .into_iter()
                .flatten()
                .min()
            {
                let from = &rest[at..];
                let mut tail = from;
                let target = if let Some(t) = from.strip_prefix("crate::lang::") {
                    tail = t;
                    word(t)
                } else if let Some(t) = from.strip_prefix("crate::") {
                    tail = t;
                    String::new()
                } else {
                    // `super::` chains climb from the file's module.
                    let mut ups = 0;
                    while let Some(t) = tail.strip_prefix("super::") {
                        ups += 1;
                        tail = t;
                    }
                    let base = &path[..path.len().saturating_sub(ups)];
                    base.first().cloned().unwrap_or_else(|| word(tail))
                };
                if !target.is_empty() && target != top && is_module(&target) {
                    graph.entry(top.clone()).or_default().insert(target);
                }
                rest = tail;
            }
        }
    }
    graph
}

/// The identifier at the start of `s`.
fn word(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn lang_modules_import_each_other_without_a_cycle() {
    let graph = imports();
    // Depth-first search; a module met again while on the path closes a cycle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if let Some(at) = path.iter().position(|p| *p == m) {
            panic!(
                "lang modules import each other: {}",
                path[at..].join(" -> ") + " -> " + m
            );
        }
        if !done.insert(m) {
            return;
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
    // The check sees the imports it must see.
    assert!(graph["check"].contains("program"));
    assert!(graph["symbols"].contains("value"));
}
