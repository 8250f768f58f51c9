//! Soundness of the rule library, technique by technique: over the in-repo
//! samples with known solutions, no technique (alone with the singles, and
//! all together) ever eliminates a solution digit or places a wrong one.
//!
//! Eliminations only grow, so a solution digit still open at the end was
//! never eliminated; a placed digit is checked against the solution.

use crate::common;

use common::{cell_name, check_listing, json_lines, read_lines, sudolog};
use serde_json::Value;

/// Samples with their solutions, line by line.
const SAMPLES: [(&str, &str); 3] = [
    (
        "tests/data/techniques/sample.txt",
        "tests/data/techniques/sample.solutions.txt",
    ),
    (
        "tests/data/wings/sample.txt",
        "tests/data/wings/sample.solutions.txt",
    ),
    (
        "tests/data/single_digit/sample.txt",
        "tests/data/single_digit/sample.solutions.txt",
    ),
];

/// The techniques above the singles, from `sudolog check`.
fn techniques() -> Vec<String> {
    let listing = check_listing(None);
    let list: Vec<String> = listing
        .techniques
        .iter()
        .filter(|&&(_, tier)| tier >= 2)
        .map(|(name, _)| name.clone())
        .collect();
    assert!(
        list.len() >= 6,
        "the library lists its techniques: {}",
        listing.text
    );
    list
}

/// The first word of each non-blank line of a solutions file.
fn solutions(path: &str) -> Vec<String> {
    read_lines(path)
        .iter()
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
        .collect()
}

/// Runs `solve --logic-only` with `select` (`--techniques` value or
/// `--max-tier` value) over the samples at once and checks every result
/// against its solution; returns how many it checked.
///
/// (The wings and single-digit suites check their techniques alone on
/// their own samples too; here every technique alone runs on the main
/// sample, and the whole library on all of them.)
fn check_sound(select: [&str; 2], samples: &[(&str, &str)]) -> usize {
    let expected: Vec<(&str, String)> = samples
        .iter()
        .flat_map(|(puzzles, solved)| solutions(solved).into_iter().map(move |s| (*puzzles, s)))
        .collect();
    let out = sudolog()
        .args([
            "solve",
            "--logic-only",
            "--no-forcing",
            "--format",
            "json",
            "-j",
            "2",
        ])
        .args(select)
        .args(samples.iter().map(|(puzzles, _)| puzzles))
        .output()
        .expect("runs");
    let results: Vec<Value> = json_lines(&String::from_utf8(out.stdout).expect("utf-8"));
    assert_eq!(results.len(), expected.len(), "one result per puzzle");
    for (result, (puzzles, solution)) in results.iter().zip(&expected) {
        let at = format!("{puzzles}:{} with {select:?}", result["line"]);
        match result["status"].as_str() {
            Some("solved") => {
                assert_eq!(result["solution"].as_str(), Some(solution.as_str()), "{at}");
            }
            Some("stalled") => {
                let partial = result["partial"].as_str().expect("a stall shows its grid");
                for (i, (p, s)) in partial.chars().zip(solution.chars()).enumerate() {
                    let cell = cell_name(i);
                    if p != '.' {
                        assert_eq!(p, s, "{at}: wrong digit placed in {cell}");
                        continue;
                    }
                    let open = result["candidates"][&cell].as_str().unwrap_or_default();
                    assert!(
                        open.contains(s),
                        "{at}: solution digit {s} eliminated from {cell} (left: {open})"
                    );
                }
            }
            other => panic!("{at}: unexpected status {other:?}"),
        }
    }
    results.len()
}

#[test]
fn each_technique_with_the_singles_is_sound() {
    for t in techniques() {
        let set = format!("singles,{t}");
        assert!(check_sound(["--techniques", &set], &SAMPLES[..1]) > 40);
    }
}

#[test]
fn the_whole_library_is_sound() {
    assert!(check_sound(["--max-tier", "7"], &SAMPLES) > 90);
}
