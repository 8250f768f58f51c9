//! Pencil-mark states as input: a HoDoKu library line and a candidate line
//! start the solve with their placed digits and removed candidates, whose
//! origin is the input.

use crate::common::{json_lines, run, success_stdout};

const HODOKU: &str = "tests/data/pencil/hodoku.txt";

/// The rows `cell digit rule` of `relation` after a logic-only solve.
fn facts(file: &str, relation: &str, techniques: &str) -> Vec<(String, String, String)> {
    let out = run(
        &[
            "facts",
            file,
            "--logic-only",
            "--techniques",
            techniques,
            "--relation",
            relation,
            "--format",
            "json",
        ],
        None,
    );
    json_lines(&success_stdout(out, "facts"))
        .iter()
        .map(|row| {
            let text = |k: &str| row[k].as_str().unwrap_or_default().to_string();
            (text("c"), text("d"), text("rule"))
        })
        .collect()
}

#[test]
fn a_hodoku_state_starts_from_its_deleted_candidates_and_finds_the_expected_step() {
    let eliminated = facts(HODOKU, "eliminated", "singles,locked");
    let origin = |cell: &str, digit: &str| {
        eliminated
            .iter()
            .find(|(c, d, _)| c == cell && d == digit)
            .map(|(_, _, o)| o.clone())
    };
    // `811 515 ...`: the deleted candidates come from the input.
    for (cell, digit) in [("r1c1", "8"), ("r1c5", "5"), ("r1c5", "7"), ("r9c5", "5")] {
        assert_eq!(
            origin(cell, digit).as_deref(),
            Some("the input"),
            "{cell} {digit}"
        );
    }
    // `193 198`: locked candidates remove 1 from r9c3 and r9c8.
    for cell in ["r9c3", "r9c8"] {
        let o = origin(cell, "1").expect("eliminated");
        assert!(o.starts_with("rules/locked.dl"), "{cell}: {o}");
    }
    // `+9` in r1c2: placed by the input, not a given.
    let placed = facts(HODOKU, "placed", "singles");
    assert!(placed.contains(&("r1c2".into(), "9".into(), "the input".into())));
    assert!(
        !placed
            .iter()
            .any(|(c, _, o)| c == "r1c3" && o == "the input")
    );
}

#[test]
fn explain_says_what_the_input_placed_and_removed() {
    let tree = |what: &str| {
        success_stdout(
            run(&["explain", HODOKU, what, "--logic-only"], None),
            "explain",
        )
    };
    assert_eq!(
        tree("eliminated(r1c1, 8)"),
        "eliminated(r1c1, 8) — removed in the input\n"
    );
    assert_eq!(tree("r1c2"), "placed(r1c2, 9) — placed in the input\n");
    let json = success_stdout(
        run(
            &["explain", HODOKU, "eliminated(r1c1, 8)", "--format", "json"],
            None,
        ),
        "explain",
    );
    assert!(json.contains("\"kind\":\"input\""), "{json}");
}

#[test]
fn a_state_solves_to_a_grid_that_keeps_its_digits() {
    let out = success_stdout(run(&["solve", HODOKU, "--format", "json"], None), "solve");
    let row = &json_lines(&out)[0];
    assert_eq!(row["status"], "solved", "{row}");
    let solution = row["solution"].as_str().expect("a solution").to_string();
    let givens = ".+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9";
    let digits: Vec<char> = givens.chars().filter(|&c| c != '+').collect();
    assert_eq!(digits.len(), 81);
    for (cell, (want, got)) in digits.iter().zip(solution.chars()).enumerate() {
        assert!(*want == '.' || *want == got, "cell {cell}: {want} vs {got}");
    }
    // The deleted candidates are respected: r1c1 is not 8.
    assert_ne!(solution.as_bytes()[0], b'8');
}

#[test]
fn a_candidate_line_solves_like_its_puzzle() {
    let puzzle =
        "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
    let mut line = String::new();
    for ch in puzzle.chars() {
        for k in '1'..='9' {
            line.push(if ch == '.' || ch == k { k } else { '.' });
        }
    }
    let dir = std::env::temp_dir().join(format!("sudolog-pencil-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("state.txt");
    std::fs::write(&file, format!("{puzzle}\n{line}\n")).expect("written");
    let out = success_stdout(
        run(
            &["solve", file.to_str().expect("utf-8"), "--format", "line"],
            None,
        ),
        "solve",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], lines[1]);
    std::fs::remove_dir_all(&dir).ok();
}
