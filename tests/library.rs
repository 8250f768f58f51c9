//! The library's front door: a puzzle parsed from a string and solved with
//! `sudolog solve`'s defaults, as the crate's quick start shows.

use sudolog::grid::{Puzzle, PuzzleError};
use sudolog::solve::{Solver, Verdict};

#[test]
fn a_parsed_puzzle_solves_like_the_command_line() {
    let solver = Solver::new().unwrap_or_else(|e| panic!("the standard library: {e}"));
    let puzzle: Puzzle = "1..4.........32.".parse().expect("a 4x4 puzzle");
    let outcome = solver.solve(&puzzle);
    assert_eq!(outcome.verdict, Verdict::Solved);
    assert_eq!(
        outcome.grid,
        [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    );
    // A grid of rows parses too; givens that cannot all hold get no solution.
    let rows = "12 3.\n.. ..\n.. ..\n.. .4\n";
    let puzzle: Puzzle = rows.parse().expect("a 4x4 grid");
    assert_eq!(puzzle.cells.iter().filter(|&&d| d != 0).count(), 4);
    let dead: Puzzle = "12....3....3....".parse().expect("no repeated digit");
    assert_eq!(solver.solve(&dead).verdict, Verdict::NoSolution);
}

#[test]
fn text_that_is_not_one_puzzle_is_a_located_error() {
    let err = |text: &str| -> PuzzleError {
        match text.parse::<Puzzle>() {
            Ok(p) => panic!("{text:?} parsed as {p:?}"),
            Err(e) => e,
        }
    };
    assert!(err("").message.contains("no puzzle"));
    let two = err("1..4.........32.\n1..4.........32.\n");
    assert_eq!(two.line, 2);
    assert!(two.message.contains("more than one puzzle"), "{two}");
    let bad = err("1..4....X....32.");
    assert_eq!((bad.line, bad.column), (1, 9));
    assert!(bad.message.contains("r3c1"), "{bad}");
}

#[test]
fn the_packaged_crate_carries_its_rules_and_licences() {
    // What `cargo package` would upload: every rule file the library
    // embeds (`include_str!` in src/lang/library.rs, so the crate builds on
    // its own), the licences and the README; never the fuzz crate.
    let out = std::process::Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{out:?}");
    let listed = String::from_utf8_lossy(&out.stdout);
    let files: Vec<&str> = listed.lines().collect();
    let library = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang/library.rs"),
    )
    .expect("library source");
    let embedded: Vec<&str> = library
        .split("include_str!(\"../../")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(embedded.len() >= 8, "{embedded:?}");
    for path in embedded
        .iter()
        .chain(&["LICENSE-MIT", "LICENSE-APACHE", "README.md", "Cargo.toml"])
    {
        assert!(files.contains(path), "{path} is not packaged: {listed}");
    }
    assert!(!files.iter().any(|f| f.starts_with("fuzz/")), "{listed}");
}

#[test]
fn rule_loading_errors_say_what_went_wrong_as_types() {
    use sudolog::RuleSources;
    use sudolog::RulesError;
    let mut rules = RuleSources::standard();
    match rules.add_variant("x_sudokuu") {
        Err(RulesError::UnknownVariant { name, known }) => {
            assert_eq!(name, "x_sudokuu");
            assert!(known.iter().any(|k| k == "x"), "{known:?}");
        }
        other => panic!("an unknown variant, not {other:?}"),
    }
    let missing = std::path::Path::new("tests/data/rules/no_such_file.dl");
    match rules.add_file(missing) {
        Err(e @ RulesError::UnreadableFile { .. }) => {
            assert!(e.to_string().contains("no_such_file.dl"), "{e}");
            assert!(!e.is_invalid_rules());
        }
        other => panic!("an unreadable file, not {other:?}"),
    }
    let mut program = rules.load().expect("the standard library loads");
    match program.restrict_techniques(&["singlez".to_string()]) {
        Err(e @ RulesError::UnknownTechnique { .. }) => {
            assert!(e.to_string().contains("did you mean `singles`?"), "{e}");
        }
        other => panic!("an unknown technique, not {other:?}"),
    }
    let mut broken = RuleSources::default();
    broken.add_text("broken.dl", "placed(C, D) :- nothing(C, D).\n");
    assert!(broken.load().is_err_and(|e| e.is_invalid_rules()));
}

#[test]
fn the_solver_counts_solutions_and_tells_uniqueness() {
    use sudolog::Uniqueness;
    let solver = Solver::new().unwrap_or_else(|e| panic!("the standard library: {e}"));
    // Four givens of a 4x4 grid leave it several solutions; the essay's
    // first puzzle has one.
    let open: Puzzle = "1...............".parse().expect("a 4x4 puzzle");
    let counted = solver.count(&open, 3);
    assert_eq!((counted.solutions, counted.complete), (3, false));
    assert_eq!(solver.uniqueness(&open), Uniqueness::Several);
    let unique: Puzzle =
        "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6."
            .parse()
            .expect("a 9x9 puzzle");
    let counted = solver.count(&unique, 2);
    assert_eq!((counted.solutions, counted.complete), (1, true));
    assert_eq!(solver.uniqueness(&unique), Uniqueness::Unique);
    assert!(solver.engine().program().techniques.len() >= 2);
}
