//! Ratings: `grade` rates each puzzle's path on Sudoku Explainer's scale
//! from the `.rating` lines of the rule files, with its pearl and diamond,
//! every step's rating in JSON, and `--compare` against published ratings.

use crate::common;

use common::{json_lines, stdout_of, sudolog, tenths};
use serde_json::Value;

fn graded(args: &[&str]) -> Vec<Value> {
    json_lines(&stdout_of(
        sudolog().args(["grade", "--format", "json"]).args(args),
    ))
    .into_iter()
    .filter(|r| r.get("index").is_some())
    .collect()
}

/// `path --format json --logic-only FILE`, a line per puzzle.
fn path_json(file: &str) -> Vec<Value> {
    json_lines(&stdout_of(sudolog().args([
        "path",
        "--format",
        "json",
        "--logic-only",
        file,
    ])))
}

/// The library in a temporary directory, `file`'s text with each `(from,
/// to)` of `edits` replaced (each must be there): a user's own ratings.
fn library_with(file: &str, edits: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    for entry in std::fs::read_dir(common::repo_path("rules")).expect("rules/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "dl") {
            let mut text = std::fs::read_to_string(&path).expect("a rule file");
            if path.ends_with(file) {
                for (from, to) in edits {
                    assert!(text.contains(from), "{from} in {file}");
                    text = text.replace(from, to);
                }
            }
            std::fs::write(dir.path().join(path.file_name().expect("a name")), text)
                .expect("written");
        }
    }
    dir
}

#[test]
fn ratings_come_from_the_rule_files_techniques() {
    let g = graded(&["tests/data/essay.txt"]);
    let ratings: Vec<u64> = g.iter().map(|r| tenths(&r["rating"])).collect();
    // Singles only (hidden singles, and naked singles where no hidden one
    // is left: at most 2.3); a naked subset (3.0, 3.6 or 5.0, by size);
    // a fish (3.2, 3.8 or 5.2).
    assert!(ratings[0] <= 23, "{:?}", g[0]);
    assert!([30, 36, 50].contains(&ratings[1]), "{:?}", g[1]);
    assert!([32, 38, 52].contains(&ratings[2]), "{:?}", g[2]);
    assert_eq!(g[2]["hardest"], "Fish");
}

#[test]
fn a_rating_is_its_hardest_step_and_the_pearl_and_diamond_come_first() {
    for r in graded(&["tests/data/techniques/sample.txt"]) {
        let Some(rating) = r.get("rating").map(tenths) else {
            assert_eq!(r["grade"], "guessing", "{r}");
            continue;
        };
        let (pearl, diamond) = (tenths(&r["pearl"]), tenths(&r["diamond"]));
        assert!(diamond <= pearl && pearl <= rating, "{r}");
        let steps = r["steps"].as_array().expect("steps");
        let rated: Vec<u64> = steps
            .iter()
            .filter(|s| !s["rating"].is_null())
            .map(|s| tenths(&s["rating"]))
            .collect();
        // A fixpoint step is rated by its easiest firing (a firing may be
        // harder than the rating when an easier one shared its step), so
        // some firing is rated exactly the rating, and one the diamond.
        assert!(rated.contains(&rating), "{r}");
        assert!(rated.contains(&diamond), "{r}");
        let hardest = steps
            .iter()
            .filter(|s| !s["rating"].is_null() && tenths(&s["rating"]) == rating)
            .map(|s| s["technique"].as_str().unwrap_or("?"))
            .collect::<Vec<_>>();
        assert!(
            hardest.contains(&r["hardest"].as_str().unwrap_or("")),
            "{r}"
        );
        // Every step has its line, as `path` prints it.
        assert!(steps.iter().all(|s| s["line"].as_str().is_some()), "{r}");
    }
}

#[test]
fn the_steps_are_the_solution_paths_steps() {
    let g = graded(&["tests/data/essay.txt"]);
    let path = path_json("tests/data/essay.txt");
    for (r, p) in g.iter().zip(&path) {
        let ours: Vec<&str> = (r["steps"].as_array().expect("steps").iter())
            .map(|s| s["line"].as_str().unwrap_or(""))
            .collect();
        let theirs = p["steps"].as_array().expect("path steps").len();
        assert_eq!(ours.len(), theirs, "{r}");
    }
}

#[test]
fn a_rule_sets_own_ratings_rate_its_steps() {
    // The library with the singles rated 9.1 and 9.2: the singles puzzle
    // is then rated by them, with no rebuild.
    let dir = library_with(
        "singles.dl",
        &[
            (".rating 2.3", ".rating 9.2"),
            (".rating 1.5", ".rating 9.1"),
            (".rating 1.2 when", ".rating 9.1 when"),
        ],
    );
    let rules = dir.path().to_str().expect("a path");
    let g = graded(&["--rules", rules, "tests/data/essay.txt"]);
    assert!([91, 92].contains(&tenths(&g[0]["rating"])), "{:?}", g[0]);
    assert!(tenths(&g[1]["diamond"]) >= 91, "{:?}", g[1]);
}

#[test]
fn compare_reports_the_rank_correlation_and_the_bands() {
    let out = stdout_of(sudolog().args([
        "grade",
        "--compare",
        "tests/data/rating/berthier40.ser.txt",
        "tests/data/rating/berthier40.txt",
    ]));
    let line = |start: &str| {
        out.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("a line `{start}`: {out}"))
            .to_string()
    };
    assert!(
        line("compared with").contains("40 puzzles rated by both"),
        "{out}"
    );
    let rho: f64 = line("Spearman rank correlation:")
        .rsplit(' ')
        .next()
        .and_then(|w| w.parse().ok())
        .expect("a correlation");
    assert!(rho >= 0.85, "{out}");
    // The band table: seven rows of seven counts, 40 in all.
    let rows: Vec<u64> = out
        .lines()
        .skip_while(|l| !l.starts_with("their band"))
        .skip(2)
        .take(7)
        .flat_map(|l| {
            l.split_whitespace()
                .rev()
                .take(7)
                .map(|w| w.parse::<u64>().expect("a count"))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(rows.len(), 49, "{out}");
    assert_eq!(rows.iter().sum::<u64>(), 40, "{out}");
    // The same run in JSON ends with the comparison as an object.
    let json = json_lines(&stdout_of(sudolog().args([
        "grade",
        "--format",
        "json",
        "--compare",
        "tests/data/rating/berthier40.ser.txt",
        "tests/data/rating/berthier40.txt",
    ])));
    let last = json.last().expect("lines");
    assert_eq!(last["puzzles"], 40);
    assert!(
        last["spearman"].as_f64().is_some_and(|r| r >= 0.85),
        "{last}"
    );
}

#[test]
fn a_ratings_file_that_does_not_read_is_located() {
    let out = sudolog()
        .args([
            "grade",
            "--compare",
            "tests/data/rating/bad.ser.txt",
            "tests/data/essay.txt",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tests/data/rating/bad.ser.txt:2:1: `seven` is not a rating"),
        "{err}"
    );
}

/// The library with the hidden single rated 9.1 where six cells of its
/// unit are placed, and 9.2 elsewhere: a condition's count counts its own
/// variables (`Y`, new to the rule) over the facts before the step. On a
/// puzzle that the singles solve, the first hidden single (the givens
/// fill no unit that far) is 9.2, and the last (the grid is nearly full)
/// 9.1.
#[test]
fn a_rating_condition_may_count() {
    let dir = library_with(
        "singles.dl",
        &[(
            ".rating 1.2 when unit_kind(U, \"box\").\n.rating 1.5",
            ".rating 9.1 when count : { in_unit(Y, U), placed(Y, _) } >= 6.\n.rating 9.2",
        )],
    );
    let rules = dir.path().to_str().expect("a path");
    let g = graded(&["--rules", rules, "--puzzle", "1", "tests/data/essay.txt"]);
    let steps = g[0]["steps"].as_array().expect("steps");
    let hidden = |t: u64| {
        (steps.iter())
            .filter(|s| s["technique"] == "Hidden single" && tenths(&s["rating"]) == t)
            .count()
    };
    assert!(hidden(91) > 0 && hidden(92) > 0, "{:?}", g[0]);
    let mut hiddens = steps.iter().filter(|s| s["technique"] == "Hidden single");
    let first = hiddens.next().expect("a hidden single");
    assert_eq!(tenths(&first["rating"]), 92, "{first}");
    let last = hiddens.next_back().expect("another");
    assert_eq!(tenths(&last["rating"]), 91, "{last}");
}

/// A firing's facts are each rated by the first line that one of their
/// derivations meets, and the firing by the least of those: locked
/// candidates rated by a line that never holds (9.1), then one that always
/// does (9.3), then 9.2. Every locked candidate is 9.3: no fact of a
/// firing with several eliminations falls through to 9.2 because 9.3 was
/// already the best.
#[test]
fn each_fact_is_rated_by_its_first_line_that_holds() {
    let dir = library_with(
        "locked.dl",
        &[(
            ".rating 2.6 when unit_kind(A, \"box\").\n.rating 2.8",
            ".rating 9.1 when count : { in_unit(Y, A), placed(Y, _) } >= 99.\n\
             .rating 9.3 when count : { in_unit(Y, A), placed(Y, _) } >= 0.\n\
             .rating 9.2",
        )],
    );
    let rules = dir.path().to_str().expect("a path");
    let g = graded(&["--rules", rules, "tests/data/techniques/sample.txt"]);
    let mut several = 0;
    for row in &g {
        for step in row["steps"].as_array().expect("steps") {
            if step["technique"] == "Locked candidate" {
                assert_eq!(tenths(&step["rating"]), 93, "{step}");
                several += usize::from(step["line"].as_str().unwrap_or("").contains(','));
            }
        }
    }
    assert!(several > 0, "a locked candidate with several eliminations");
}

#[test]
fn a_rating_condition_may_name_only_the_rules_variables() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("my_singles.dl");
    std::fs::write(
        &file,
        ".tier 1\n.rating 1.0 when unit_kind(V, \"box\").\n.rating 1.5\n\
         placed(C, D) :- in_unit(C, U), digit(D), size(N),\n    \
         count : { in_unit(X, U), X != C, eliminated(X, D) } >= N - 1.\n",
    )
    .expect("written");
    let out = sudolog()
        .args(["check", file.to_str().expect("a path")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "rule errors exit with 1");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`V` is not a variable of the rule below"),
        "{err}"
    );
    assert!(err.contains("my_singles.dl:2:1"), "{err}");
}

#[test]
fn plot_draws_the_comparison_as_an_svg() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let svg = dir.path().join("ratings.svg");
    let out = stdout_of(sudolog().args([
        "grade",
        "--compare",
        "tests/data/rating/berthier40.ser.txt",
        "--plot",
        svg.to_str().expect("a path"),
        "tests/data/rating/berthier40.txt",
    ]));
    assert!(out.contains("Spearman rank correlation"), "{out}");
    let text = std::fs::read_to_string(&svg).expect("the plot is written");
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.contains("40 puzzles: Spearman"), "{text}");
    // A disc per pair of ratings: fewer than the puzzles, as pairs repeat.
    let discs = text.matches("<circle").count();
    assert!((5..40).contains(&discs), "{discs} discs");
    // A plot that cannot be written is an error naming it.
    let missing = dir.path().join("no such folder").join("r.svg");
    let out = sudolog()
        .args([
            "grade",
            "--compare",
            "tests/data/rating/berthier40.ser.txt",
            "--plot",
            missing.to_str().expect("a path"),
            "tests/data/rating/berthier40.txt",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write the plot"), "{err}");
    // Without `--compare` there is nothing to draw.
    let out = sudolog()
        .args(["grade", "--plot", "x.svg", "tests/data/essay.txt"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compare"));
}

#[test]
fn the_quick_rating_of_the_text_output_is_the_paths() {
    // Text rates the facts without listing steps; JSON rates every step
    // of the path: the same rating, pearl and diamond.
    for file in [
        "tests/data/rating/berthier40.txt",
        "tests/data/techniques/sample.txt",
    ] {
        let text = stdout_of(sudolog().args(["grade", file]));
        let quick: Vec<String> = text
            .lines()
            .take_while(|l| !l.is_empty())
            .map(|l| l.split_whitespace().nth(2).expect("a rating").to_string())
            .collect();
        let path: Vec<String> = graded(&[file])
            .iter()
            .map(|r| match r.get("rating") {
                Some(rating) => format!(
                    "{:.1}/{:.1}/{:.1}",
                    rating.as_f64().unwrap_or(0.0),
                    r["pearl"].as_f64().unwrap_or(0.0),
                    r["diamond"].as_f64().unwrap_or(0.0)
                ),
                None => "-".to_string(),
            })
            .collect();
        assert_eq!(quick, path, "{file}");
    }
}

#[test]
fn path_json_rates_each_step_as_grade_does() {
    let g = graded(&["tests/data/essay.txt"]);
    let path = path_json("tests/data/essay.txt");
    for (r, p) in g.iter().zip(&path) {
        let from_grade: Vec<Value> = (r["steps"].as_array().expect("steps").iter())
            .map(|s| s["rating"].clone())
            .collect();
        let from_path: Vec<Value> = (p["steps"].as_array().expect("path steps").iter())
            .map(|s| s["rating"].clone())
            .collect();
        assert_eq!(from_grade, from_path, "{p}");
        assert!(from_path.iter().all(Value::is_number), "{p}");
    }
}

#[test]
fn check_lists_each_rules_ratings() {
    let out = stdout_of(sudolog().args(["check"]));
    let ratings: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("ratings"))
        .skip(1)
        .collect();
    let hidden = ratings
        .iter()
        .find(|l| l.contains("rules/singles.dl") && l.contains("when"))
        .unwrap_or_else(|| panic!("the hidden single's ratings: {out}"));
    assert!(
        hidden.ends_with(".rating 1.2 when unit_kind(U, \"box\"). | .rating 1.5"),
        "{hidden}"
    );
    // Every rule that places or eliminates above the grid's own rules has
    // one in the library.
    let listing = common::parse_listing(&out);
    let concluding = listing
        .rules
        .iter()
        .filter(|r| (r.head == "placed" || r.head == "eliminated") && r.technique != "grid")
        .count();
    assert_eq!(ratings.len(), concluding, "{out}");
}

#[test]
fn a_ratings_file_of_another_length_than_the_input_is_noted() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let ratings = dir.path().join("two.txt");
    std::fs::write(&ratings, "1.2\n1.5\n").expect("written");
    let grade = |ratings: &str| {
        let out = sudolog()
            .args(["grade", "--compare", ratings, "tests/data/essay.txt"])
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = grade(ratings.to_str().expect("a path"));
    assert!(err.contains("has 2 ratings for 3 puzzles"), "{err}");
    std::fs::write(&ratings, "1.2\n1.5\n7.2\n").expect("written");
    let err = grade(ratings.to_str().expect("a path"));
    assert!(!err.contains("ratings for"), "{err}");
}
