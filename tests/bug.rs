//! BUG+1 (`rules/bug.dl`) and `.assumes stalled`: the rule places the
//! grave's extra digit on HoDoKu's cases, only where the singles are
//! stalled, never on its fail case; the directive is listed by `check`,
//! needs the singles beside it, and is refused below tier 2.

use crate::common::{run, text};

/// Three states in HoDoKu's format: a BUG+1 (r7c3 is 4), the same with a
/// naked single left (r1c1), and HoDoKu's case that is not a BUG+1.
const STATES: &str = "tests/data/bug/bug_plus_one.txt";

#[test]
fn check_lists_bug_as_assuming_one_solution_and_stalled_singles() {
    let out = run(&["check"], None);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.lines().any(|l| l.contains(" bug ")
            && l.contains("assumes one solution")
            && l.contains("assumes the singles are stalled")),
        "{stdout}"
    );
}

#[test]
fn the_hint_places_the_extra_digit_only_where_the_singles_are_stalled() {
    let out = run(&["hint", "--technique", "bug", STATES], None);
    let (stdout, stderr) = text(&out);
    let blocks: Vec<&str> = stdout.split("# puzzle ").skip(1).collect();
    assert_eq!(blocks.len(), 3, "{stdout}{stderr}");
    assert!(
        blocks[0].contains("BUG+1") && blocks[0].contains("r7c3=4"),
        "{}",
        blocks[0]
    );
    // A naked single is left in the second state: BUG+1 is not tried
    // there (its two-digit cells may have one digit).
    assert!(blocks[1].contains("stuck"), "{}", blocks[1]);
    // HoDoKu's state that is not a BUG+1.
    assert!(blocks[2].contains("stuck"), "{}", blocks[2]);
    // Every technique: the second state's hint is the single.
    let out = run(&["hint", "--puzzle", "2", STATES], None);
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("Naked single") && stdout.contains("r1c1=7"),
        "{stdout}"
    );
}

#[test]
fn a_solve_uses_it_and_the_trace_says_it_assumes_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("bug.txt");
    let text_of = std::fs::read_to_string(STATES).unwrap();
    let line = text_of.lines().find(|l| l.starts_with(':')).unwrap();
    std::fs::write(&first, line).unwrap();
    let first = first.to_str().unwrap();
    let args = [
        "solve",
        "--logic-only",
        "--no-forcing",
        "--trace",
        "--techniques",
        "singles,bug",
        first,
    ];
    let out = run(&args, None);
    let (stdout, stderr) = text(&out);
    let all = format!("{stdout}{stderr}");
    assert!(
        all.lines().any(|l| l.contains(": bug (assumes one solution) [")
            && l.contains("placed 4 in r7c3")),
        "{all}"
    );
    assert_eq!(out.status.code(), Some(0), "{all}");
}

#[test]
fn it_needs_the_singles_beside_it() {
    let out = run(
        &[
            "solve",
            "--logic-only",
            "--no-forcing",
            "--techniques",
            "bug",
            STATES,
        ],
        None,
    );
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("technique `bug` assumes the singles are stalled")
            && stderr.contains("add `singles` to --techniques"),
        "{stderr}"
    );
}

#[test]
fn a_file_below_tier_2_cannot_assume_stalled_singles() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("early.dl");
    for tier in ["", ".tier 1\n"] {
        std::fs::write(
            &path,
            format!("{tier}.assumes stalled\nplaced(C, D) :- given(C, D).\n"),
        )
        .unwrap();
        let out = run(&["check", path.to_str().unwrap()], None);
        let (_, stderr) = text(&out);
        assert_ne!(out.status.code(), Some(0));
        assert!(
            stderr.contains("`.assumes stalled` in a file of tier") && stderr.contains("early.dl:"),
            "{stderr}"
        );
    }
    // In a gated tier it is fine.
    std::fs::write(
        &path,
        ".tier 5\n.assumes stalled\nplaced(C, D) :- given(C, D).\n",
    )
    .unwrap();
    let out = run(&["check", path.to_str().unwrap()], None);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout
            .lines()
            .any(|l| l.contains(" early ") && l.contains("(assumes the singles are stalled)")),
        "{stdout}"
    );
}
