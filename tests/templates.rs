//! An independent check of `rules/extra/templates.dl` (template set and
//! template delete) against a reference written here in plain Rust, which
//! lists all 46,656 templates of a 9x9 grid and tests each against the
//! candidates, on the pencil-mark states of HoDoKu's library
//! (`tests/data/hodoku/reglib.txt`): its template cases, its Franken and
//! mutant fish (every single-digit elimination is a template delete), and
//! a sample of the rest. Also: HoDoKu's cases pass as `reglib` runs them,
//! and the file stays silent where it does not apply (a jigsaw, 16x16).

use crate::common::{repo_path, run, success_stdout};
use rayon::prelude::*;
use std::collections::BTreeSet;
use sudolog::engine::DEFAULT_FACT_LIMIT;
use sudolog::reglib::{CaseVerdict, Checker, CodeMap, read_library};
use sudolog::solve::Hinter;
use sudolog::{Program, Puzzle, RuleSources};

const LIBRARY: &str = "tests/data/hodoku/reglib.txt";
const TEMPLATES: &str = "rules/extra/templates.dl";

/// HoDoKu's codes of the templates, and of the Franken and mutant fish
/// (finned, sashimi and Siamese variants included) in the library's copy.
const TEMPLATE_CODES: [&str; 2] = ["1201", "1202"];
const FRANKEN_AND_MUTANT: [&str; 11] = [
    "0331", "0332", "0340", "0341", "03411", "0342", "03421", "0362", "03621", "0363", "0364",
];

fn program() -> Program {
    let mut sources = RuleSources::standard();
    sources
        .add_file(std::path::Path::new(&repo_path(TEMPLATES)))
        .unwrap();
    sources.load().unwrap()
}

/// Every template of a 9x9 grid: for each row, the column (0-based) that
/// holds the digit, no two in one column or box.
fn all_templates() -> Vec<[usize; 9]> {
    fn extend(row: usize, t: &mut [usize; 9], out: &mut Vec<[usize; 9]>) {
        if row == 9 {
            out.push(*t);
            return;
        }
        for col in 0..9 {
            let clash = (0..row).any(|r| t[r] == col || (r / 3 == row / 3 && t[r] / 3 == col / 3));
            if !clash {
                t[row] = col;
                extend(row + 1, t, out);
            }
        }
    }
    let mut out = Vec::new();
    extend(0, &mut [0; 9], &mut out);
    out
}

/// What the reference expects of a state: `(placed, cell, digit)` for each
/// template set and template delete. The candidates are the state's after
/// the grid's rules (a placed digit leaves its cell's other digits and its
/// peers). A template of D is open if each of its cells still has D and
/// none must hold another digit E (it lies on every open template of E);
/// that "must" is repeated until nothing changes, as the rules' closure
/// repeats it. D leaves an open cell on no open template of D, and goes
/// in an open cell on all of them.
fn reference(puzzle: &Puzzle, templates: &[[usize; 9]]) -> BTreeSet<(bool, usize, u8)> {
    let mut cand = puzzle.candidate_masks();
    let placed: Vec<u8> = (0..81)
        .map(|c| match cand[c].count_ones() {
            1 if puzzle.cells[c] != 0
                || puzzle.marks.as_ref().is_some_and(|m| m.entered[c] != 0) =>
            {
                cand[c].trailing_zeros() as u8
            }
            _ => 0,
        })
        .collect();
    let peers = |a: usize, b: usize| {
        a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
    };
    for (c, &d) in placed.iter().enumerate().filter(|&(_, &d)| d != 0) {
        for p in (0..81).filter(|&p| peers(c, p)) {
            cand[p] &= !(1 << d);
        }
    }
    // Each template as a bit per cell.
    let bits: Vec<u128> = (templates.iter())
        .map(|t| (0..9).fold(0u128, |b, r| b | 1 << (r * 9 + t[r])))
        .collect();
    // Per digit, the cells on every open template (`sure`) and on some.
    let mut sure = [0u128; 10];
    let mut some = [0u128; 10];
    loop {
        let mut next_sure = [0u128; 10];
        for d in 1..=9usize {
            let others_sure = (1..=9).filter(|&e| e != d).fold(0u128, |m, e| m | sure[e]);
            let has_d = (0..81)
                .filter(|&c| cand[c] >> d & 1 == 1)
                .fold(0u128, |m, c| m | 1 << c);
            let allowed = has_d & !others_sure;
            let (mut all, mut any) = ((1u128 << 81) - 1, 0u128);
            for &t in bits.iter().filter(|&&t| t & !allowed == 0) {
                all &= t;
                any |= t;
            }
            next_sure[d] = all;
            some[d] = any;
        }
        if next_sure == sure {
            break;
        }
        sure = next_sure;
    }
    let mut out = BTreeSet::new();
    for c in (0..81).filter(|&c| placed[c] == 0) {
        for d in 1..=9u8 {
            if sure[d as usize] >> c & 1 == 1 {
                out.insert((true, c, d));
            }
            if cand[c] >> d & 1 == 1 && some[d as usize] >> c & 1 == 0 {
                out.insert((false, c, d));
            }
        }
    }
    out
}

#[test]
fn templates_make_what_a_reference_listing_every_template_makes() {
    let library = read_library(&repo_path(LIBRARY)).unwrap();
    let program = program();
    let only = ["templates".to_string()];
    let hinter = Hinter::new(&program, Some(&only), DEFAULT_FACT_LIMIT).unwrap();
    let templates = all_templates();
    assert_eq!(templates.len(), 46_656);
    // The template and fish cases, and every eighth of the others.
    let chosen: Vec<_> = (library.cases.iter().enumerate())
        .filter(|(i, c)| {
            TEMPLATE_CODES.contains(&c.code.as_str())
                || FRANKEN_AND_MUTANT.contains(&c.code.as_str())
                || i % 8 == 0
        })
        .map(|(_, c)| c)
        .collect();
    assert!(chosen.len() > 150, "{} states", chosen.len());
    let checked: Vec<usize> = chosen
        .par_iter()
        .map(|case| {
            let expected = reference(&case.puzzle, &templates);
            let made: BTreeSet<(bool, usize, u8)> = match hinter.every_step(&case.puzzle) {
                Ok(steps) => (steps.iter())
                    .flat_map(|s| s.facts.iter().map(|f| (f.placed, f.cell, f.digit)))
                    .collect(),
                // A state the grid's rules already solve has nothing left.
                Err(sudolog::solve::Hint::Solved) => BTreeSet::new(),
                Err(_) => panic!("line {}: no state to start from", case.line),
            };
            assert_eq!(made, expected, "line {} ({})", case.line, case.code);
            expected.len()
        })
        .collect();
    // The check is not empty: most states give the templates something.
    let with_something = checked.iter().filter(|&&n| n > 0).count();
    assert!(
        with_something * 2 > checked.len(),
        "{with_something} of {}",
        checked.len()
    );
}

#[test]
fn hodokus_template_franken_and_mutant_fish_cases_pass_with_templates() {
    let library = read_library(&repo_path(LIBRARY)).unwrap();
    let map = |code: &str, label: &str| CodeMap {
        code: code.to_string(),
        technique: "templates".to_string(),
        labels: vec![label.to_string()],
    };
    let mut maps = vec![map("1201", "Template set"), map("1202", "Template delete")];
    maps.extend(FRANKEN_AND_MUTANT.map(|code| map(code, "Template delete")));
    let checker = Checker::new(&program(), maps, DEFAULT_FACT_LIMIT).unwrap();
    let cases: Vec<_> = (library.cases.iter())
        .filter(|c| {
            TEMPLATE_CODES.contains(&c.code.as_str())
                || FRANKEN_AND_MUTANT.contains(&c.code.as_str())
        })
        .collect();
    assert_eq!(cases.len(), 14 + 35);
    let results: Vec<_> = cases.par_iter().map(|c| checker.check(c)).collect();
    for r in &results {
        assert_eq!(r.verdict, CaseVerdict::Passed, "line {}", r.line);
        assert_eq!(r.hint_named, Some(true), "line {}", r.line);
    }
}

#[test]
fn templates_stay_silent_on_grids_without_bands_or_past_nine_digits() {
    // A jigsaw's regions and a 16x16 grid: the same solve with the file
    // added and without (its states are never built there).
    for file in ["tests/data/jigsaw.txt", "tests/data/sixteen.txt"] {
        let path = repo_path(file);
        let solve = |extra: &[&str]| {
            let mut args = vec![
                "solve",
                "--logic-only",
                "--no-forcing",
                "--max-tier",
                "all",
                "--format",
                "line",
            ];
            args.extend_from_slice(extra);
            args.push(&path);
            let out = run(&args, None);
            (out.status.code(), String::from_utf8(out.stdout).unwrap())
        };
        let rules = repo_path(TEMPLATES);
        assert_eq!(solve(&["--rules-add", &rules]), solve(&[]), "{file}");
    }
}

#[test]
fn a_hint_names_the_template_set_in_the_rules_words() {
    // HoDoKu's template delete case for 4 (library line 1304), whose
    // templates, one digit's "must" closing the others', place 50 digits
    // at once: template set comes first in the file, so the hint names it.
    let puzzle =
        ".62...5.....9752......6.849...8.26....4.5.9....16.4...295.1......3426.....6...12.";
    let dir = std::env::temp_dir().join(format!("sudolog-templates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.txt");
    std::fs::write(&file, format!("{puzzle}\n")).unwrap();
    let rules = repo_path(TEMPLATES);
    let args = [
        "hint",
        "--rules-add",
        &rules,
        "--technique",
        "templates",
        file.to_str().unwrap(),
    ];
    let out = success_stdout(run(&args, None), "hint");
    assert!(
        out.contains("templates (tier 18: Template set): 50 placements"),
        "{out}"
    );
    assert!(
        out.contains(
            "r1c1=9  Template set: every template of 9 that 9 can still fill passes through r1c1"
        ),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
