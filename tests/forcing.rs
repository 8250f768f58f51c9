//! Forcing (`--forcing-depth`, on at depth 1 with `--logic-only` unless
//! `--no-forcing`): hypotheses where the rules stall, before any guess. It solves hard puzzles without a guess and right (depth 1 on
//! magictour, depth 2 on the forum's hardest), never settles a puzzle with
//! several solutions on one of them, words each step in the trace and in
//! `explain` (with each fork's own derivation), is checked by
//! `verify-rules`, and stops at the search's limits.

use crate::common::{json_lines, read_lines, read_repo_file, repo_path, run, sudolog};
use serde_json::Value;

const MAGICTOUR: &str = "tests/data/path/magictour200.txt";
const MAGICTOUR_SOLUTIONS: &str = "tests/data/path/magictour200.solutions.txt";
const HARDEST: &str = "tests/data/forcing/forum_hardest3.txt";
const HARDEST_SOLUTIONS: &str = "tests/data/forcing/forum_hardest3.solutions.txt";
const SEVERAL: &str = "tests/data/forcing/several5.txt";

/// `sudolog ARGS...` with `stdin` as its standard input: its standard
/// output.
fn output(args: &[&str], stdin: &str) -> String {
    let out = sudolog().args(args).write_stdin(stdin.to_string()).output();
    String::from_utf8(out.expect("sudolog runs").stdout).unwrap()
}

/// `sudolog solve --logic-only --format json ARGS... -` on `puzzles` (one
/// per line): one object per puzzle.
fn solve_json(puzzles: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["solve", "--logic-only", "--format", "json"];
    all.extend_from_slice(args);
    all.push("-");
    json_lines(&output(&all, puzzles))
}

fn solved(r: &Value) -> bool {
    r["status"] == "solved"
}

#[test]
fn forcing_solves_hard_puzzles_without_a_guess_and_right() {
    // The first 40 of magictour: the library alone leaves some stalled.
    let puzzles: Vec<String> = read_lines(MAGICTOUR).into_iter().take(40).collect();
    let puzzles = puzzles.join("\n") + "\n";
    let solutions = read_lines(MAGICTOUR_SOLUTIONS);
    // `--logic-only` forces at depth 1 unless told not to.
    let without = solve_json(&puzzles, &["--max-tier", "all", "--no-forcing"]);
    let with = solve_json(&puzzles, &["--max-tier", "all"]);
    assert_eq!(with.len(), 40);
    let stalled = without.iter().filter(|r| !solved(r)).count();
    assert!(stalled >= 5, "the library alone stalls on {stalled}");
    for (i, r) in with.iter().enumerate() {
        assert!(solved(r), "puzzle {}: {}", i + 1, r["status"]);
        assert_eq!(r["solution"], solutions[i].as_str(), "puzzle {}", i + 1);
        assert_eq!(r["stats"]["branches"], 0, "puzzle {}: no guess", i + 1);
        // Forcing worked exactly where the rules alone stall.
        let forced = r["stats"]["forcing_steps"].as_u64().unwrap();
        assert_eq!(forced > 0, !solved(&without[i]), "puzzle {}", i + 1);
        if forced > 0 {
            assert_eq!(r["stats"]["forcing_depth"], 1);
            assert!(r["stats"]["forks"].as_u64().unwrap() >= 2 * forced);
        }
    }
}

#[test]
fn depth_two_solves_what_depth_one_cannot() {
    // The forum's hardest need a hypothesis inside a hypothesis (with the
    // singles and locked candidates as the rules).
    let solutions = read_lines(HARDEST_SOLUTIONS);
    let hardest = read_repo_file(HARDEST);
    let depth_one = solve_json(&hardest, &["--max-tier", "2", "--forcing-depth", "1"]);
    assert_eq!(depth_one.len(), 3);
    assert!(depth_one.iter().all(|r| r["status"] == "stalled"));
    let depth_two = solve_json(&hardest, &["--max-tier", "2", "--forcing-depth", "2"]);
    for (i, r) in depth_two.iter().enumerate() {
        assert!(solved(r), "puzzle {}: {}", i + 1, r["status"]);
        assert_eq!(r["solution"], solutions[i].as_str());
        assert_eq!(r["stats"]["forcing_depth"], 2);
        assert_eq!(r["stats"]["branches"], 0);
    }
}

#[test]
fn forcing_never_settles_a_puzzle_with_several_solutions() {
    // Every fact forcing brings back holds in every solution, so a puzzle
    // with hundreds of them stays open; counting still finds two.
    let several = read_repo_file(SEVERAL);
    for r in solve_json(&several, &["--max-tier", "2", "--forcing-depth", "1"]) {
        assert_eq!(r["status"], "stalled", "{}", r["puzzle"]);
    }
    let args = [
        "solve",
        "--count",
        "2",
        "--forcing-depth",
        "1",
        "--format",
        "json",
        "-",
    ];
    for r in json_lines(&output(&args, &several)) {
        assert_eq!(r["solutions"], 2, "{}", r["puzzle"]);
    }
}

#[test]
fn the_trace_and_explain_word_each_forcing_step() {
    let path = repo_path(MAGICTOUR);
    let args = [
        "solve",
        "--logic-only",
        "--forcing-depth",
        "1",
        "--trace",
        "--stats",
        &path,
    ];
    let out = run(&args, None);
    let text = String::from_utf8(out.stdout).unwrap();
    // Forks that agree, and forks that contradict.
    let line = text
        .lines()
        .find(|l| l.contains("cell forcing on") && l.contains("holds up"))
        .expect("a forcing step");
    assert!(
        text.lines()
            .any(|l| l.contains("forcing on") && l.contains(" contradicts (")),
        "a refuted option"
    );
    let (_, tail) = line.split_once(": eliminated ").expect("an elimination");
    let (digit, cells) = tail.split_once(" from ").unwrap();
    let cell = cells.split([' ', ';']).next().unwrap();
    assert!(
        text.contains("forcing steps over"),
        "the stats line counts them"
    );
    // A stall that forcing goes on from is no end of the branch.
    let lines: Vec<&str> = text.lines().collect();
    for pair in lines.windows(2) {
        if pair[1].contains("forcing on") {
            assert!(
                !pair[0].contains("stalled at step"),
                "{}\n{}",
                pair[0],
                pair[1]
            );
        }
    }
    // `explain` words the forced fact with its hypothesis.
    let fact = format!("eliminated({cell}, {digit})");
    let args = [
        "explain",
        "--logic-only",
        "--forcing-depth",
        "1",
        &path,
        &fact,
    ];
    let explained = String::from_utf8(run(&args, None).stdout).unwrap();
    let first = explained.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!("{fact} — cell forcing on")),
        "{explained}"
    );
    assert!(first.contains("[forcing, step "), "{first}");
}

/// Every node of a tree, depth first.
fn nodes(tree: &Value) -> Vec<&Value> {
    let mut out = vec![tree];
    if let Some(children) = tree["children"].as_array() {
        out.extend(children.iter().flat_map(nodes));
    }
    out
}

#[test]
fn explain_shows_each_forks_own_derivation() {
    // Magictour 77 forces often, with refuted options and with forks
    // that all agree.
    let puzzle = format!("{}\n", read_lines(MAGICTOUR)[76]);
    let trace = output(&["solve", "--logic-only", "--trace", "-"], &puzzle);
    let steps: Vec<&str> = trace.lines().filter(|l| l.contains("forcing on")).collect();
    let refuted = steps
        .iter()
        .find_map(|l| {
            let (head, _) = l.split_once(" contradicts (")?;
            let option = head.rsplit([':', ',']).next()?.trim();
            let (cell, digit) = option.split_once('=')?;
            Some((format!("eliminated({cell}, {digit})"), option.to_string()))
        })
        .expect("a refuted option");
    let agreed = steps
        .iter()
        .find(|l| !l.contains("contradicts"))
        .and_then(|l| {
            let (_, tail) = l.split_once(": eliminated ")?;
            let (digit, cells) = tail.split_once(" from ")?;
            let cell = cells.split([' ', ';']).next()?;
            let options = l.matches(" holds up").count();
            Some((format!("eliminated({cell}, {digit})"), options))
        })
        .expect("a step whose forks all agree");
    let explain = |fact: &str| -> Value {
        let args = ["explain", "--logic-only", "--format", "json", "-", fact];
        serde_json::from_str(&output(&args, &puzzle)).expect("a JSON tree")
    };
    // Inside a fork, the facts it derived come after the stall, and what
    // it started from is marked as known before the supposition.
    fn check_fork<'v>(fork: &'v Value, stall: u64, what: &str) -> &'v Value {
        let below = &fork["children"][0];
        assert_eq!(below["kind"], "derived", "{what}: {fork}");
        for n in nodes(below) {
            match n["kind"].as_str() {
                Some("derived") => assert!(n["step"].as_u64() > Some(stall), "{what}: {n}"),
                Some("premise") => assert!(n["step"].as_u64() <= Some(stall), "{what}: {n}"),
                _ => {}
            }
        }
        let supposed = fork["fact"].as_str().unwrap_or_default().replace('=', ", ");
        assert!(
            nodes(below)
                .iter()
                .any(|n| n["kind"] == "supposition" && n["fact"] == format!("placed({supposed})")),
            "{what}: the fork's derivation goes back to its supposition: {fork}"
        );
        below
    }
    // A refuted option: its one fork, down to the contradiction.
    let (fact, option) = refuted;
    let tree = explain(&fact);
    assert_eq!(tree["kind"], "forcing", "{tree}");
    let stall = tree["step"].as_u64().expect("a step");
    let forks = tree["children"].as_array().expect("forks");
    assert_eq!(forks.len(), 1, "only the refuted option's fork: {tree}");
    assert_eq!(
        (&forks[0]["kind"], &forks[0]["refuted"]),
        (&"fork".into(), &true.into())
    );
    assert_eq!(forks[0]["fact"], option);
    let end = check_fork(&forks[0], stall, &fact);
    assert!(
        end["fact"]
            .as_str()
            .unwrap_or_default()
            .starts_with("contradiction("),
        "{end}"
    );
    // Forks that all agree: each reaches the fact itself.
    let (fact, options) = agreed;
    let tree = explain(&fact);
    let stall = tree["step"].as_u64().expect("a step");
    let forks = tree["children"].as_array().expect("forks");
    assert_eq!(forks.len(), options, "every option's fork: {tree}");
    for fork in forks {
        assert_eq!(fork["refuted"], false);
        let end = check_fork(fork, stall, &fact);
        assert_eq!(end["fact"], fact.as_str());
    }
    // The text says the same in words.
    let text = output(&["explain", "--logic-only", "-", &fact], &puzzle);
    assert!(
        text.contains("supposed in a fork, whose rules reach the fact as well"),
        "{text}"
    );
    assert!(text.contains(" — the supposition"), "{text}");
    assert!(text.contains(" — known before the supposition ["), "{text}");
}

#[test]
fn stats_count_each_round_once_across_forcing_steps() {
    // The branch goes on after each forcing step: its rounds so far were
    // once counted again at every step.
    let puzzle = format!("{}\n", read_lines(MAGICTOUR)[76]);
    let out = output(
        &["solve", "--logic-only", "--trace", "--stats", "-"],
        &puzzle,
    );
    let number = |prefix: &str, suffix: &str| -> u64 {
        let line = out.lines().find(|l| l.starts_with(prefix)).expect(prefix);
        let rest = &line[prefix.len()..];
        rest.split(suffix)
            .next()
            .unwrap()
            .trim()
            .parse()
            .expect("a number")
    };
    assert!(out.contains("forcing steps over"), "{out}");
    assert_eq!(
        number("# stats: ", " steps"),
        number("# solved at step ", "\n"),
        "one branch: its rounds are its steps"
    );
}

#[test]
fn verify_rules_checks_what_forcing_derives() {
    let (puzzles, solutions) = (read_lines(MAGICTOUR), read_lines(MAGICTOUR_SOLUTIONS));
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, lines: &[String]| {
        let file = dir.path().join(name);
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        file.to_string_lossy().into_owned()
    };
    let against = write("p.txt", &puzzles[..20]);
    let with = write("s.txt", &solutions[..20]);
    let verify = |extra: &[&str], against: &str, with: &str| {
        let mut args = vec!["verify-rules", "--forcing-depth", "1", "--against", against];
        args.extend_from_slice(&["--solutions", with]);
        args.extend_from_slice(extra);
        let out = run(&args, None);
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    // Forcing solves these without a guess: nothing it derives is wrong.
    let (code, text) = verify(&[], &against, &with);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("and a run with forcing at depth 1: no rule, nor forcing, derived"),
        "{text}"
    );
    // A false dead end on the solution's digit in a fork: forcing takes
    // the digit out, and is named for it, with the fork that refuted it.
    // (Magictour 77's r1c3 holds 8; the rules alone never reach a wrong
    // fact, only the dead end.)
    let bogus = dir.path().join("bogus.dl");
    std::fs::write(
        &bogus,
        "// A false dead end.\ncontradiction(\"bogus\", r1c3) :- placed(r1c3, 8).\n",
    )
    .unwrap();
    assert!(
        solutions[76].starts_with("798"),
        "r1c3 of the solution is 8"
    );
    let against = write("p77.txt", &puzzles[76..77]);
    let with = write("s77.txt", &solutions[76..77]);
    let bogus = bogus.to_string_lossy().into_owned();
    let (code, text) = verify(&["--rules-add", &bogus], &against, &with);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("unsound: forcing (forcing) derived eliminated(r1c3, 8) at step"),
        "{text}"
    );
    assert!(text.contains("but r1c3 is 8"), "{text}");
    assert!(
        text.contains("r1c3=8 — supposed in a fork, whose rules reach a contradiction"),
        "{text}"
    );
    let mut args = vec!["verify-rules", "--rules-add", &bogus, "--against", &against];
    args.extend_from_slice(&["--solutions", &with]);
    assert_eq!(
        run(&args, None).status.code(),
        Some(0),
        "without forcing, nothing wrong"
    );
}

#[test]
fn the_search_limits_stop_forcing() {
    let path = repo_path(HARDEST);
    let base = [
        "solve",
        "--logic-only",
        "--max-tier",
        "2",
        "--forcing-depth",
        "2",
        "--format",
        "json",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        args.push(&path);
        let out = run(&args, None);
        (
            out.status.code(),
            json_lines(&String::from_utf8(out.stdout).unwrap()),
        )
    };
    // Forks count as branches.
    let (code, rows) = with(&["--max-branches", "5"]);
    assert_eq!(code, Some(1));
    assert!(rows.iter().all(|r| r["status"] == "limit"), "{rows:?}");
    let (code, rows) = with(&["--timeout", "0.01"]);
    assert_eq!(code, Some(1));
    assert!(rows.iter().all(|r| r["status"] == "limit"), "{rows:?}");
}

#[test]
fn the_path_shows_forcing_steps_in_order() {
    // magictour's first puzzle: the library alone stalls on it.
    let path = repo_path(MAGICTOUR);
    let args = [
        "path",
        "--puzzle",
        "1",
        "--max-tier",
        "all",
        "--forcing-depth",
        "1",
        "--format",
        "json",
        &path,
    ];
    let out = run(&args, None);
    assert_eq!(out.status.code(), Some(0));
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    let steps = rows[0]["steps"].as_array().expect("steps");
    let forcing: Vec<&Value> = steps.iter().filter(|s| s["kind"] == "forcing").collect();
    assert!(!forcing.is_empty(), "{steps:?}");
    for f in &forcing {
        let line = f["line"].as_str().unwrap();
        assert!(line.contains(" forcing on "), "{line}");
        assert!(f["forks"].as_array().unwrap().len() >= 2, "{f}");
        assert!(f["words"].as_str().unwrap().contains("forcing on"), "{f}");
    }
    // No guess, and the steps in step order.
    assert!(steps.iter().all(|s| s["kind"] != "guess"));
    let order: Vec<u64> = steps.iter().map(|s| s["step"].as_u64().unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
}

#[test]
fn a_hint_where_no_technique_applies_is_a_forcing_step() {
    // magictour's first puzzle where every technique stalls, as a
    // candidate line.
    let puzzles = read_lines(MAGICTOUR);
    let solution: Vec<u8> = read_lines(MAGICTOUR_SOLUTIONS)[0]
        .bytes()
        .map(|b| b - b'0')
        .collect();
    let args = [
        "solve",
        "--logic-only",
        "--no-forcing",
        "--max-tier",
        "all",
        "--format",
        "candidates",
        "-",
    ];
    let stall = output(&args, &format!("{}\n", puzzles[0]));
    let hint = |extra: &[&str]| {
        let mut args = vec!["hint", "--format", "json"];
        args.extend_from_slice(extra);
        args.push("-");
        json_lines(&output(&args, &stall)).remove(0)
    };
    let forced = hint(&[]);
    assert_eq!(forced["technique"], "forcing", "{forced}");
    assert_eq!(forced["depth"], 1);
    let eliminations = forced["eliminations"].as_array().unwrap();
    assert!(!eliminations.is_empty(), "{forced}");
    for e in eliminations {
        let cell = e["cell"].as_str().unwrap();
        let (r, c) = cell[1..].split_once('c').unwrap();
        let index = (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1;
        assert_ne!(
            u64::from(solution[index]),
            e["digit"].as_u64().unwrap(),
            "{e}"
        );
        assert!(e["words"].as_str().unwrap().contains("forcing on"), "{e}");
    }
    assert_eq!(hint(&["--no-forcing"])["status"], "stuck");
    // A time limit stops the search for a forcing step, and says so.
    let stopped = hint(&["--forcing-depth", "2", "--timeout", "0.000001"]);
    assert_eq!(stopped["status"], "stopped", "{stopped}");
    assert!(
        stopped["message"].as_str().unwrap().contains("--timeout"),
        "{stopped}"
    );
}

#[test]
fn forcing_works_on_a_variant_and_a_jigsaw() {
    // Hypotheses range over the rule set's units, a variant's included;
    // the forced solve agrees with the guessing one.
    for (file, extra) in [
        ("tests/data/variants/x.txt", vec!["--variant", "x"]),
        ("tests/data/jigsaw.txt", vec![]),
    ] {
        let path = repo_path(file);
        let solve = |mode: &str| {
            let mut args = vec!["solve", mode, "--format", "json"];
            args.extend_from_slice(&extra);
            args.push(&path);
            json_lines(&String::from_utf8(run(&args, None).stdout).unwrap())
        };
        let forced = solve("--logic-only");
        let guessed = solve("--count=1");
        assert!(!forced.is_empty());
        for (f, g) in forced.iter().zip(&guessed) {
            assert!(solved(f), "{file}: {f}");
            assert_eq!(f["solution"], g["solution"], "{file}");
            assert_eq!(f["stats"]["branches"], 0, "{file}");
        }
    }
}
