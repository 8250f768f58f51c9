//! `sudolog path`: the solution path agrees with the solve's trace (the
//! same placements and eliminations, rule by rule and step by step, and
//! the same guesses, in the same order), every step's conclusions are the
//! facts its rule derived at its step and are true of the solution, and the
//! command's text, JSON, pictures and page say so.

use crate::common::{read_lines, sudolog};
use std::collections::BTreeSet;
use std::process::Output;
use sudolog::engine::tuple::slot;
use sudolog::inspect::db::FactDb;
use sudolog::inspect::path::{PathStep, solution_path};
use sudolog::lang::program::Builtin;
use sudolog::solve::{BranchEnd, Forcing, Keeping, Mode, SearchOptions, TraceEvent, solve_keeping};
use sudolog::{Engine, Puzzle, RuleSources};

const ESSAY: &str = "tests/data/essay.txt";
const MAGICTOUR: &str = "tests/data/path/magictour200.txt";
const MAGICTOUR_SOLUTIONS: &str = "tests/data/path/magictour200.solutions.txt";

/// What the path and the trace are compared on: one rule's conclusions at
/// one step (placed?, cell, digit), or a guess (cell, digit).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Batch(u32, usize, BTreeSet<(bool, usize, u8)>),
    Guess(usize, u8),
    Forcing(u32, BTreeSet<(bool, usize, u8)>),
}

/// What a forcing step placed and eliminated.
fn forcing_set(f: &sudolog::solve::ForcingStep) -> BTreeSet<(bool, usize, u8)> {
    let placed = f.placed.iter().map(|&(c, d)| (true, c, d));
    placed
        .chain(f.eliminated.iter().map(|&(c, d)| (false, c, d)))
        .collect()
}

/// The whole library, with provenance, as `path` runs it.
fn engine() -> Engine {
    let program = RuleSources::standard()
        .load()
        .expect("the standard library loads");
    let mut engine = Engine::new(program).expect("the standard library compiles");
    engine.set_provenance(true);
    engine
}

/// The trace's events on the solution's branch: a guess at depth `d`
/// replaces every event since the last guess at depth `d` or deeper (the
/// branches it refuted), so what stays is the branch that solved.
fn solution_branch(events: &[TraceEvent]) -> Vec<TraceEvent> {
    let mut segments: Vec<Vec<TraceEvent>> = vec![Vec::new()];
    for e in events {
        match e {
            TraceEvent::Guess { depth, .. } => {
                segments.truncate(*depth);
                segments.push(vec![e.clone()]);
            }
            TraceEvent::End {
                how: BranchEnd::Solved,
                ..
            } => break,
            _ => segments.last_mut().expect("a segment").push(e.clone()),
        }
    }
    segments.concat()
}

/// The trace's items: each rule's placements and eliminations at a step
/// (the grid's own rules, tier 0, left out as the path leaves them out),
/// and the guesses.
fn trace_items(engine: &Engine, events: &[TraceEvent]) -> Vec<Item> {
    let program = engine.program();
    let (placed, eliminated) = (
        program.builtin(Builtin::Placed),
        program.builtin(Builtin::Eliminated),
    );
    let mut items = Vec::new();
    for e in solution_branch(events) {
        match e {
            TraceEvent::Derived { step, rule, facts } => {
                if program.rules[rule].tier == 0 {
                    continue;
                }
                let set: BTreeSet<(bool, usize, u8)> = facts
                    .iter()
                    .filter(|(rel, _)| *rel == placed || *rel == eliminated)
                    .map(|(rel, t)| {
                        let v = slot(t, 0);
                        let cell = (v / 32) as usize * 9 + (v % 32) as usize;
                        (*rel == placed, cell, slot(t, 1) as u8)
                    })
                    .collect();
                if !set.is_empty() {
                    items.push(Item::Batch(step, rule, set));
                }
            }
            TraceEvent::Guess { cell, digit, .. } => items.push(Item::Guess(cell, digit)),
            TraceEvent::Forcing { step, forcing } => {
                items.push(Item::Forcing(step, forcing_set(&forcing)))
            }
            TraceEvent::End { .. } => {}
        }
    }
    items
}

/// The path's items: consecutive firings of one rule at one step make one
/// batch, as the trace logs them.
fn path_items(steps: &[PathStep]) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    for s in steps {
        match s {
            PathStep::Guess(g) => items.push(Item::Guess(g.cell, g.digit)),
            PathStep::Forcing(f) => items.push(Item::Forcing(f.step, forcing_set(&f.forcing))),
            PathStep::Firing(f) => {
                let facts = f.conclusions.iter().map(|c| (c.placed, c.cell, c.digit));
                match items.last_mut() {
                    Some(Item::Batch(step, rule, set)) if *step == f.step && *rule == f.rule => {
                        set.extend(facts)
                    }
                    _ => items.push(Item::Batch(f.step, f.rule, facts.collect())),
                }
            }
        }
    }
    items
}

/// Checks one puzzle: the path agrees with the trace; each firing's
/// conclusions were derived by its rule at its step, come with the rule's
/// words, and are true of the solution.
fn check_puzzle(engine: &Engine, line: &str, solution: &[u8], what: &str, forcing: Forcing) {
    let puzzle: Puzzle = line.parse().expect("a puzzle");
    let traced = SearchOptions {
        mode: Mode::First,
        trace: true,
        forcing,
        ..SearchOptions::default()
    };
    let (outcome, kept) = solve_keeping(engine, &puzzle, &traced, Keeping::State);
    assert_eq!(outcome.grid, solution, "{what}: solved to its solution");
    let state = kept.expect("a solved puzzle keeps its branch").solve;
    let db = FactDb::new(engine.program(), &state).with_forcing(&outcome.forcing);
    let steps = solution_path(&db);
    assert!(!steps.is_empty(), "{what}: a path");
    assert_eq!(
        path_items(&steps),
        trace_items(engine, &outcome.trace),
        "{what}: the path and the trace differ"
    );
    let (placed, eliminated) = (
        db.program.builtin(Builtin::Placed),
        db.program.builtin(Builtin::Eliminated),
    );
    for s in &steps {
        if let PathStep::Forcing(f) = s {
            for &(cell, digit) in &f.forcing.placed {
                assert_eq!(
                    solution[cell], digit,
                    "{what}: forcing placed a wrong digit"
                );
            }
            for &(cell, digit) in &f.forcing.eliminated {
                assert_ne!(
                    solution[cell], digit,
                    "{what}: forcing eliminated the solution"
                );
            }
        }
        let PathStep::Firing(f) = s else { continue };
        assert!(!f.words.is_empty(), "{what}: step {} has no words", f.step);
        assert!(!f.conclusions.is_empty(), "{what}: an empty step");
        for c in &f.conclusions {
            let rel = if c.placed { placed } else { eliminated };
            let v = [(c.cell / 9 * 32 + c.cell % 9) as i32, i32::from(c.digit)];
            let origin = db
                .rel(rel)
                .find(&v)
                .and_then(|fact| fact.origin)
                .expect("a conclusion is a derived fact");
            assert_eq!(
                (origin.step, origin.rule as usize),
                (f.step, f.rule),
                "{what}: a conclusion of another step"
            );
            assert_eq!(
                c.placed,
                solution[c.cell] == c.digit,
                "{what}: {} is wrong at r{}c{}",
                c.digit,
                c.cell / 9 + 1,
                c.cell % 9 + 1
            );
        }
    }
}

#[test]
fn the_path_agrees_with_the_trace_on_the_essay_and_200_magictour_puzzles() {
    let engine = engine();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for line in read_lines(ESSAY) {
        let puzzle: Puzzle = line.parse().expect("an essay puzzle");
        let solved = sudolog::solve(&engine, &puzzle, &SearchOptions::default());
        cases.push((line, solved.grid));
    }
    let solutions = read_lines(MAGICTOUR_SOLUTIONS);
    for (line, solution) in read_lines(MAGICTOUR).into_iter().zip(solutions) {
        let digits = solution.bytes().map(|b| b - b'0').collect();
        cases.push((line, digits));
    }
    assert_eq!(cases.len(), 203);
    for (i, (line, solution)) in cases.iter().enumerate() {
        let what = format!("puzzle {}", i + 1);
        check_puzzle(&engine, line, solution, &what, Forcing::default());
    }
}

#[test]
fn the_path_agrees_with_the_trace_with_forcing_on_40_magictour_puzzles() {
    // Forcing steps, where the rules stall, instead of guesses.
    let engine = engine();
    let solutions = read_lines(MAGICTOUR_SOLUTIONS);
    let forcing = Forcing {
        depth: 1,
        ..Forcing::default()
    };
    let mut forced = 0;
    for (i, (line, solution)) in read_lines(MAGICTOUR)
        .iter()
        .zip(&solutions)
        .take(40)
        .enumerate()
    {
        let digits: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        check_puzzle(
            &engine,
            line,
            &digits,
            &format!("puzzle {}", i + 1),
            forcing,
        );
        let puzzle: Puzzle = line.parse().unwrap();
        let options = SearchOptions {
            forcing,
            ..SearchOptions::default()
        };
        let outcome = sudolog::solve(&engine, &puzzle, &options);
        assert_eq!(outcome.stats.branches, 0, "puzzle {}: no guess", i + 1);
        forced += usize::from(outcome.stats.forcing_steps > 0);
    }
    assert!(forced >= 5, "forcing worked on {forced} of 40");
}

/// `sudolog ARGS`, with `stdin` as its standard input when given.
fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut c = sudolog();
    c.args(args);
    if let Some(text) = stdin {
        c.write_stdin(text.to_string());
    }
    c.output().expect("sudolog runs")
}

/// The standard output of a run that must succeed.
fn success_stdout(args: &[&str], stdin: Option<&str>) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "sudolog {args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn path_prints_one_numbered_line_per_step_in_the_usual_notation() {
    let out = success_stdout(&["path", "--puzzle", "1", ESSAY], None);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("# puzzle 1 (") && lines[0].ends_with("): solved, 53 steps"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], " 1. Naked single: r4c2=3");
    assert_eq!(lines[2], " 2. Hidden single: r1c3=7 (row1)");
    assert_eq!(lines.len(), 54);
}

#[test]
fn path_names_each_fish_by_its_base_lines_and_guesses_where_the_search_guessed() {
    // HoDoKu's X-wing case (0300): a swordfish on 3 in rows 3, 4 and 7
    // and the X-wing in rows 3 and 7 fire at once; the X-wing's
    // eliminations (HoDoKu's expected ones) make a step of their own.
    let case = ":0300:3:9.....+5+6+1..+6.+1.7+937+1..962486...2+147+9........5....4...642..+586+1+75.71.+2..+4..1....+52::313 314 343 344 353 354 363 364 394::";
    let out = success_stdout(&["path", "-"], Some(case));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1],
        " 1. Fish: r1c2,r5c2,r6c2,r8c2,r9c2<>3 (row3, row4, row7)"
    );
    assert_eq!(
        lines[2],
        " 2. Fish: r1c3,r1c4,r4c3,r4c4,r5c3,r5c4,r6c3,r6c4,r9c4<>3 (row3, row7)"
    );
    // The second essay puzzle needs guesses with singles and locked
    // candidates alone: the path says where.
    let out = success_stdout(&["path", "--max-tier", "2", "--puzzle", "2", ESSAY], None);
    assert!(
        out.lines()
            .any(|l| l.contains(". Guess r") && l.contains("(from {")),
        "{out}"
    );
}

#[test]
fn path_json_has_every_steps_cells_digits_eliminations_and_rule() {
    let out = success_stdout(&["path", "--format", "json", "--puzzle", "1", ESSAY], None);
    let value: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(value["status"], "solved");
    let steps = value["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 53);
    let first = &steps[0];
    assert_eq!(first["line"], "Naked single: r4c2=3");
    assert_eq!(first["kind"], "rule");
    assert_eq!(first["technique"], "singles");
    assert_eq!(first["placements"][0]["cell"], "r4c2");
    assert_eq!(first["placements"][0]["digit"], "3");
    assert!(
        first["rule"]
            .as_str()
            .is_some_and(|r| r.starts_with("rules/singles.dl:"))
    );
    assert!(first["words"].as_str().is_some_and(|w| w.contains("r4c2")));
    assert_eq!(steps[1]["pattern"]["units"][0], "row1");
}

#[test]
fn path_writes_a_picture_per_step_and_a_page_that_holds_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let svg = dir.path().join("steps");
    let html = dir.path().join("path.html");
    let out = success_stdout(
        &[
            "path",
            "--puzzle",
            "1",
            "--svg",
            svg.to_str().expect("utf-8"),
            "--html",
            html.to_str().expect("utf-8"),
            ESSAY,
        ],
        None,
    );
    let steps = out.lines().count() - 1;
    let mut files: Vec<String> = std::fs::read_dir(&svg)
        .expect("the picture folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), steps);
    assert_eq!(files[0], "puzzle1-step001.svg");
    let first = std::fs::read_to_string(svg.join(&files[0])).expect("a picture");
    assert!(first.contains("<svg") && first.contains("Naked single: r4c2=3"));
    let page = std::fs::read_to_string(&html).expect("the page");
    assert!(page.contains("Naked single: r4c2=3"));
    assert_eq!(page.matches("<svg").count(), steps);
}

#[test]
fn path_reports_bad_input_and_unwritable_pictures_and_goes_on() {
    let input = format!("{}\n12\n", read_lines(ESSAY)[0]);
    let out = run(&["path", "-"], Some(&input));
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("# puzzle 1 ("), "{text}");
    assert!(text.contains("invalid: puzzle 2:"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: <stdin>:2:1"), "{err}");
    let file = tempfile::NamedTempFile::new().expect("a file");
    let out = run(
        &["path", "--svg", file.path().to_str().expect("utf-8"), ESSAY],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot create the picture folder"));
}

#[test]
fn path_numbers_a_puzzle_by_its_place_in_the_input_and_says_where_the_rules_stall() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let svg = dir.path().join("steps");
    let out = success_stdout(
        &[
            "path",
            "--puzzle",
            "2",
            "--svg",
            svg.to_str().expect("utf-8"),
            ESSAY,
        ],
        None,
    );
    assert!(
        out.starts_with("# puzzle 2 (tests/data/essay.txt:2): solved"),
        "{out}"
    );
    assert!(svg.join("puzzle2-step001.svg").exists());
    // The locked candidates and naked subsets of the README's example.
    assert!(
        out.contains("\n13. Locked candidate: r4c5,r4c6<>1 (box5, row6)\n"),
        "{out}"
    );
    assert!(
        out.contains("\n18. Naked subset: r2c9,r3c9<>49 (col9: r1c9, r6c9)\n"),
        "{out}"
    );
    // Without guessing, singles alone stall on it: exit code 1, and the
    // header says so.
    let out = run(
        &[
            "path",
            "--logic-only",
            "--no-forcing",
            "--max-tier",
            "1",
            "--puzzle",
            "2",
            ESSAY,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("# puzzle 2 (") && text.contains("the rules stall"),
        "{text}"
    );
}

#[test]
fn path_writes_a_chain_in_eurekas_notation() {
    let out = success_stdout(&["path", "tests/data/path/nice_loop.txt"], None);
    let lines: Vec<&str> = out.lines().collect();
    // A chain's derivation reads `end(C, Z)` facts, each derived from some
    // strong link that ends there: no part of this chain.
    assert_eq!(
        lines[1],
        " 1. AIC: r3c8<>5 ((6)r3c8=(6)r1c8-(9)r1c8=(9)r1c5-(9)r3c5=(5)r3c5)"
    );
    assert_eq!(
        lines[2],
        " 2. AIC: r2c5,r2c6<>9 ((9)r1c5=(9)r1c8-(6)r1c8=(6)r1c4-(7)r1c4=(7)r2c4-(7)r2c3=(9)r2c3)"
    );
    // The JSON holds the same chain as strong and weak links.
    let out = success_stdout(
        &["path", "--format", "json", "tests/data/path/nice_loop.txt"],
        None,
    );
    let value: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    let pattern = &value["steps"][1]["pattern"];
    let pairs = |key: &str| -> BTreeSet<String> {
        pattern[key]
            .as_array()
            .expect("links")
            .iter()
            .map(|l| {
                let end = |c: &serde_json::Value| {
                    format!(
                        "{}/{}",
                        c["cell"].as_str().unwrap_or(""),
                        c["digit"].as_str().unwrap_or("")
                    )
                };
                format!("{} {}", end(&l[0]), end(&l[1]))
            })
            .collect()
    };
    let strong: BTreeSet<String> = [
        "r1c5/9 r1c8/9",
        "r1c4/6 r1c8/6",
        "r1c4/7 r2c4/7",
        "r2c3/7 r2c3/9",
    ]
    .map(String::from)
    .into();
    let weak: BTreeSet<String> = ["r1c8/6 r1c8/9", "r1c4/6 r1c4/7", "r2c3/7 r2c4/7"]
        .map(String::from)
        .into();
    assert_eq!(pairs("links"), strong);
    assert_eq!(pairs("weak_links"), weak);
    // The picture draws the weak links dashed, the strong ones solid.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let svg = dir.path().join("steps");
    success_stdout(
        &[
            "path",
            "--svg",
            svg.to_str().expect("utf-8"),
            "tests/data/path/nice_loop.txt",
        ],
        None,
    );
    let picture = std::fs::read_to_string(svg.join("puzzle1-step002.svg")).expect("a picture");
    assert_eq!(
        picture.matches("stroke-dasharray").count(),
        1,
        "one group of weak links"
    );
}
