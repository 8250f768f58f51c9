//! Variants whose clues travel with the puzzle (`rules/variants/`: killer,
//! thermo, arrow, kropki, even_odd): each example puzzle solves to its
//! published solution, uniquely (`--count 2`), `verify-rules` finds no
//! wrong fact, and a plain-Rust checker of each variant, which reads the
//! clue lines itself, confirms the solution against the clues (and
//! rejects a grid that breaks them). Plus the batch of killer puzzles in
//! SudoCue's format, and the errors of clues the rules do not take.

use crate::common;

use common::{N, col_of, read_lines, row_of, sudolog};
use serde_json::Value;
use std::collections::BTreeMap;

/// A full 9x9 grid, row by row.
type Grid = [u8; N];

/// One example: the variant to switch on, its puzzle file (one puzzle), the
/// solution file, and the checker of the variant's clues.
struct Example {
    variant: &'static str,
    puzzle: &'static str,
    solution: &'static str,
    check: fn(&Grid, &Clues) -> Result<(), String>,
}

const EXAMPLES: &[Example] = &[
    Example {
        variant: "even_odd",
        puzzle: "tests/data/variants/even_odd.txt",
        solution: "tests/data/variants/even_odd.solution.txt",
        check: check_even_odd,
    },
    Example {
        variant: "thermo",
        puzzle: "tests/data/variants/thermo.txt",
        solution: "tests/data/variants/thermo.solution.txt",
        check: check_thermo,
    },
    Example {
        variant: "arrow",
        puzzle: "tests/data/variants/arrow.txt",
        solution: "tests/data/variants/arrow.solution.txt",
        check: check_arrow,
    },
    Example {
        variant: "kropki",
        puzzle: "tests/data/variants/kropki.txt",
        solution: "tests/data/variants/kropki.solution.txt",
        check: check_kropki,
    },
    Example {
        variant: "kropki",
        puzzle: "tests/data/variants/kropki_negative.txt",
        solution: "tests/data/variants/kropki_negative.solution.txt",
        check: check_kropki,
    },
    Example {
        variant: "killer",
        puzzle: "tests/data/variants/killer.txt",
        solution: "tests/data/variants/killer.solution.txt",
        check: check_killer,
    },
    Example {
        variant: "killer",
        puzzle: "tests/data/variants/killer_sudocue.txt",
        solution: "tests/data/variants/killer_sudocue.solution.txt",
        check: check_killer,
    },
];

// ---------------------------------------------------------------------------
// The clues, read here in plain Rust (not by sudolog's reader).
// ---------------------------------------------------------------------------

/// A clue value: a cell index (row-major) or a number.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    Cell(usize),
    Num(i64),
}

impl V {
    fn cell(self) -> usize {
        match self {
            V::Cell(c) => c,
            V::Num(n) => panic!("expected a cell, found {n}"),
        }
    }

    fn num(self) -> i64 {
        match self {
            V::Num(n) => n,
            V::Cell(c) => panic!("expected a number, found cell {c}"),
        }
    }
}

/// The clue facts of one puzzle, by relation.
type Clues = BTreeMap<String, Vec<Vec<V>>>;

/// The facts of the clue lines of a file that holds one puzzle; a SudoCue
/// killer line becomes `cage` and `cage_sum` facts.
fn clues_of(path: &str) -> Clues {
    clues_of_lines(&read_lines(path))
}

/// The facts of clue lines (and SudoCue killer lines).
fn clues_of_lines(lines: &[String]) -> Clues {
    let mut clues = Clues::new();
    for line in lines {
        let line = line.trim();
        if let Some(values) = line.strip_prefix("3x3::k:") {
            let values = values.split_whitespace().next().unwrap_or_default();
            let mut sums = BTreeMap::new();
            for (cell, v) in values.split(':').filter(|v| !v.is_empty()).enumerate() {
                let v: i64 = v.parse().expect("a SudoCue value");
                if v >= 256 {
                    let (sum, cage) = (v / 256, v % 256);
                    sums.insert(cage, sum);
                    clues
                        .entry("cage".into())
                        .or_default()
                        .push(vec![V::Cell(cell), V::Num(cage)]);
                }
            }
            for (cage, sum) in sums {
                clues
                    .entry("cage_sum".into())
                    .or_default()
                    .push(vec![V::Num(cage), V::Num(sum)]);
            }
            continue;
        }
        if !line.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        for fact in line.split(").").map(str::trim).filter(|f| !f.is_empty()) {
            let (name, args) = fact.split_once('(').expect("name(args");
            let args = args
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|a| match a.strip_prefix('r') {
                    Some(_) => V::Cell(common::parse_cell(a)),
                    None => V::Num(a.parse().expect("a number")),
                })
                .collect();
            clues.entry(name.trim().to_string()).or_default().push(args);
        }
    }
    clues
}

fn facts<'a>(clues: &'a Clues, name: &str) -> &'a [Vec<V>] {
    clues.get(name).map_or(&[], Vec::as_slice)
}

// ---------------------------------------------------------------------------
// Checkers: plain Rust, independent of the rule files.
// ---------------------------------------------------------------------------

fn check_even_odd(g: &Grid, clues: &Clues) -> Result<(), String> {
    for (name, rest) in [("even", 0), ("odd", 1)] {
        for f in facts(clues, name) {
            let c = f[0].cell();
            if g[c] % 2 != rest {
                return Err(format!(
                    "{} is {name} but holds {}",
                    common::cell_name(c),
                    g[c]
                ));
            }
        }
    }
    Ok(())
}

fn check_thermo(g: &Grid, clues: &Clues) -> Result<(), String> {
    let mut thermos: BTreeMap<i64, Vec<(i64, usize)>> = BTreeMap::new();
    for f in facts(clues, "thermo") {
        thermos
            .entry(f[0].num())
            .or_default()
            .push((f[1].num(), f[2].cell()));
    }
    for (t, mut cells) in thermos {
        cells.sort();
        for w in cells.windows(2) {
            let (a, b) = (w[0].1, w[1].1);
            if g[a] >= g[b] {
                return Err(format!(
                    "thermometer {t}: {} holds {} and {} after it {}",
                    common::cell_name(a),
                    g[a],
                    common::cell_name(b),
                    g[b]
                ));
            }
        }
    }
    Ok(())
}

fn check_arrow(g: &Grid, clues: &Clues) -> Result<(), String> {
    for circle in facts(clues, "arrow_circle") {
        let (r, a) = (circle[0].num(), circle[1].cell());
        let shaft: u32 = facts(clues, "arrow")
            .iter()
            .filter(|f| f[0].num() == r)
            .map(|f| u32::from(g[f[1].cell()]))
            .sum();
        if shaft != u32::from(g[a]) {
            return Err(format!(
                "arrow {r}: the circle holds {} and the shaft adds up to {shaft}",
                g[a]
            ));
        }
    }
    Ok(())
}

/// A cell and its digit as a message shows them: `r1c2 (7)`.
fn holding(g: &Grid, c: usize) -> String {
    format!("{} ({})", common::cell_name(c), g[c])
}

fn adjacent(a: usize, b: usize) -> bool {
    row_of(a).abs_diff(row_of(b)) + col_of(a).abs_diff(col_of(b)) == 1
}

fn check_kropki(g: &Grid, clues: &Clues) -> Result<(), String> {
    let consecutive = |x: u8, y: u8| x.abs_diff(y) == 1;
    let double = |x: u8, y: u8| x == 2 * y || y == 2 * x;
    let mut dotted = Vec::new();
    for (name, holds) in [
        ("white_dot", &consecutive as &dyn Fn(u8, u8) -> bool),
        ("black_dot", &double),
    ] {
        for f in facts(clues, name) {
            let (a, b) = (f[0].cell(), f[1].cell());
            assert!(adjacent(a, b), "a dot joins neighbours");
            if !holds(g[a], g[b]) {
                return Err(format!(
                    "{name} between {} and {}",
                    holding(g, a),
                    holding(g, b)
                ));
            }
            dotted.push((a.min(b), a.max(b)));
        }
    }
    if !facts(clues, "kropki_negative").is_empty() {
        for a in 0..N {
            for b in a + 1..N {
                if adjacent(a, b)
                    && !dotted.contains(&(a, b))
                    && (consecutive(g[a], g[b]) || double(g[a], g[b]))
                {
                    return Err(format!(
                        "no dot between {} and {}, which needs one",
                        holding(g, a),
                        holding(g, b)
                    ));
                }
            }
        }
    }
    Ok(())
}

fn check_killer(g: &Grid, clues: &Clues) -> Result<(), String> {
    let mut cages: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for f in facts(clues, "cage") {
        cages.entry(f[1].num()).or_default().push(f[0].cell());
    }
    for f in facts(clues, "cage_sum") {
        let (cage, sum) = (f[0].num(), f[1].num());
        let cells = cages.get(&cage).map_or(&[][..], Vec::as_slice);
        let total: i64 = cells.iter().map(|&c| i64::from(g[c])).sum();
        if total != sum {
            return Err(format!("cage {cage} adds up to {total}, not {sum}"));
        }
        for (i, &a) in cells.iter().enumerate() {
            if cells[i + 1..].iter().any(|&b| g[b] == g[a]) {
                return Err(format!("cage {cage} holds {} twice", g[a]));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Running sudolog.
// ---------------------------------------------------------------------------

fn grid_of(line: &str) -> Grid {
    common::parse_puzzle(line)
}

/// The first line of a file that is not a comment.
fn first_data_line(path: &str) -> String {
    read_lines(path)
        .into_iter()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a data line")
}

fn solve_json(args: &[&str]) -> (i32, Vec<Value>) {
    let out = sudolog()
        .args(["solve", "--format", "json"])
        .args(args)
        .output()
        .expect("sudolog runs");
    let code = out.status.code().expect("an exit code");
    (
        code,
        common::json_lines(&String::from_utf8_lossy(&out.stdout)),
    )
}

#[test]
fn every_example_solves_uniquely_to_its_published_solution() {
    for e in EXAMPLES {
        let file = common::repo_path(e.puzzle);
        let (code, rows) = solve_json(&["--variant", e.variant, "--count", "2", &file]);
        assert_eq!(code, 0, "{}: {rows:?}", e.puzzle);
        assert_eq!(rows.len(), 1, "{}", e.puzzle);
        let row = &rows[0];
        assert_eq!(row["status"], "solved", "{}: {row}", e.puzzle);
        assert_eq!(row["solutions"], 1, "{}: unique", e.puzzle);
        assert_eq!(row["search_complete"], true, "{}", e.puzzle);
        let expected = first_data_line(e.solution);
        assert_eq!(row["solution"], expected.as_str(), "{}", e.puzzle);
        // `grade` reads the clues too, and rates the puzzle.
        let out = sudolog()
            .args(["grade", "--variant", e.variant, "--format", "json", &file])
            .output()
            .expect("sudolog runs");
        let graded = common::json_lines(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(out.status.code(), Some(0), "{}: {graded:?}", e.puzzle);
        assert!(
            graded[0]["rating"].as_f64().is_some(),
            "{}: {}",
            e.puzzle,
            graded[0]
        );
        assert!(
            graded[0]["firings"][e.variant].as_u64() > Some(0),
            "{}",
            graded[0]
        );
    }
}

#[test]
fn the_checkers_confirm_every_solution_and_reject_a_grid_that_breaks_the_clues() {
    // A valid plain sudoku that none of the examples has as its solution.
    let other = grid_of(&first_data_line("tests/data/variants/x.solution.txt"));
    for e in EXAMPLES {
        let clues = clues_of(e.puzzle);
        assert!(!clues.is_empty(), "{}: clues read", e.puzzle);
        let solution = grid_of(&first_data_line(e.solution));
        (e.check)(&solution, &clues).unwrap_or_else(|why| panic!("{}: {why}", e.puzzle));
        assert!(
            (e.check)(&other, &clues).is_err(),
            "{}: the checker accepts a grid that breaks the clues",
            e.puzzle
        );
    }
}

#[test]
fn verify_rules_finds_no_wrong_fact() {
    for e in EXAMPLES {
        let out = sudolog()
            .args(["verify-rules", "--variant", e.variant, "--against"])
            .arg(common::repo_path(e.puzzle))
            .arg("--solutions")
            .arg(common::repo_path(e.solution))
            .output()
            .expect("sudolog runs");
        let (stdout, stderr) = common::text(&out);
        assert_eq!(out.status.code(), Some(0), "{}: {stdout}{stderr}", e.puzzle);
        assert!(
            stdout.contains("no rule derived a fact that contradicts"),
            "{stdout}"
        );
    }
}

#[test]
fn a_batch_of_killers_in_sudocue_lines_solves_in_order_on_two_threads() {
    // The first 20 of the 100 (the README's figure is over all of them).
    let lines: Vec<String> = read_lines("tests/data/variants/killer100.txt")
        .into_iter()
        .filter(|l| !l.starts_with('#'))
        .take(20)
        .collect();
    let solutions: Vec<String> = read_lines("tests/data/variants/killer100.solutions.txt")
        .into_iter()
        .take(20)
        .collect();
    let mut cmd = sudolog();
    cmd.args([
        "solve",
        "--variant",
        "killer",
        "-j",
        "2",
        "--format",
        "line",
        "-",
    ]);
    cmd.write_stdin(lines.join("\n"));
    let out = common::stdout_of(&mut cmd);
    let solved: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(solved, solutions, "{out}");
    for (line, solution) in lines.iter().zip(&solutions) {
        let clues = clues_of_lines(std::slice::from_ref(line));
        check_killer(&grid_of(solution), &clues).unwrap_or_else(|why| panic!("{line}: {why}"));
    }
}

#[test]
fn clues_the_rules_do_not_take_are_located_errors_and_the_batch_goes_on() {
    let grid = ".".repeat(81);
    let input = format!(
        "{grid}\ncage(r1c1, 1). cage_sum(1, 3, 4).\n{grid}\nthermo(1, 1, r1c1).\n{grid}\ncage(3, r1c1).\n{grid}\ncage(r1c1, 1). cage(r1c2, 1). cage_sum(1, 3).\n"
    );
    let mut cmd = sudolog();
    cmd.args([
        "solve",
        "--variant",
        "killer",
        "--format",
        "line",
        "-j",
        "2",
        "-",
    ]);
    cmd.write_stdin(input);
    let out = cmd.output().expect("sudolog runs");
    let (stdout, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    let results: Vec<&str> = stdout.lines().collect();
    assert_eq!(results.len(), 4, "{stdout}");
    assert!(
        results[0].contains("<stdin>:2:16: `cage_sum` takes 2 values, `cage_sum(g: number, s: number)`; this fact gives 3"),
        "{stdout}"
    );
    assert!(
        results[1].contains(
            "<stdin>:4:1: the rules have no relation `thermo`: solve with `--variant thermo`"
        ),
        "{stdout}"
    );
    assert!(
        results[2].contains(
            "<stdin>:6:6: column `c` of `cage(c: cell, g: number)` takes a cell such as r3c5, not 3"
        ),
        "{stdout}"
    );
    assert!(!results[3].contains("invalid"), "{stdout}");
    // Without the variant, the error names the one that reads the clues.
    let file = common::repo_path("tests/data/variants/kropki.txt");
    let out = sudolog()
        .args(["solve", &file])
        .output()
        .expect("sudolog runs");
    let (stdout, _) = common::text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout.contains(
            "kropki.txt:6:1: the rules have no relation `white_dot`: solve with `--variant kropki`"
        ),
        "{stdout}"
    );
}

#[test]
fn a_killer_with_the_diagonal_rule_asks_for_the_x_variant() {
    let line = format!("3x3:d:k:{}", "1:".repeat(81));
    let mut cmd = sudolog();
    cmd.args(["solve", "--variant", "killer", "-"]);
    cmd.write_stdin(line);
    let out = common::stdout_of(&mut cmd);
    assert!(
        out.contains("<stdin>:1:5: this killer also has the diagonal rule"),
        "{out}"
    );
    assert!(out.contains("--variant killer,x"), "{out}");
}

/// `generate`'s line output as puzzles: each puzzle line with the clue
/// lines after it.
fn made_puzzles(made: &str) -> Vec<Vec<String>> {
    let mut puzzles: Vec<Vec<String>> = Vec::new();
    for line in made.lines() {
        match puzzles.last_mut() {
            Some(p) if line.starts_with(|c: char| c.is_ascii_lowercase()) => p.push(line.into()),
            _ => puzzles.push(vec![line.into()]),
        }
    }
    puzzles
}

/// `sudolog solve --variant V --count 2 --format json` on one puzzle's
/// text: its JSON result.
fn count_two(variant: &str, puzzle: &str) -> Value {
    let mut cmd = sudolog();
    cmd.args([
        "solve",
        "--variant",
        variant,
        "--count",
        "2",
        "--format",
        "json",
        "-",
    ]);
    cmd.write_stdin(puzzle.to_string());
    common::json_lines(&common::stdout_of(&mut cmd)).remove(0)
}

#[test]
fn generate_makes_minimal_unique_puzzles_around_a_layout_of_clues() {
    let layout = common::repo_path("tests/data/variants/thermo.txt");
    let out = sudolog()
        .args(["generate", "--variant", "thermo", "--clues", &layout])
        .args(["--count", "2", "--seed", "7", "-j", "2", "--no-progress"])
        .output()
        .expect("sudolog runs");
    let (made, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(0), "{made}{stderr}");
    let layout_clues = clues_of("tests/data/variants/thermo.txt");
    // Each puzzle line is followed by the layout's clue lines.
    let puzzles = made_puzzles(&made);
    assert_eq!(puzzles.len(), 2, "{made}");
    for lines in &puzzles {
        assert_eq!(clues_of_lines(&lines[1..]), layout_clues, "{made}");
        let text = format!("{}\n", lines.join("\n"));
        let count = |puzzle: &str| count_two("thermo", puzzle);
        let row = count(&text);
        assert_eq!(row["solutions"], 1, "{text}: unique");
        let solution = grid_of(row["solution"].as_str().expect("a solution"));
        check_thermo(&solution, &layout_clues).unwrap_or_else(|why| panic!("{text}: {why}"));
        let givens = grid_of(&lines[0]);
        for (cell, &d) in givens.iter().enumerate() {
            if d == 0 {
                continue;
            }
            assert_eq!(solution[cell], d, "a given kept");
            // Minimal: without any one given, a second solution appears.
            let mut fewer = givens;
            fewer[cell] = 0;
            let line: String = fewer
                .iter()
                .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
                .collect();
            let row = count(&format!("{line}\n{}\n", lines[1..].join("\n")));
            assert_eq!(
                row["solutions"],
                2,
                "{text}: without {}",
                common::cell_name(cell)
            );
        }
    }
    // A layout file whose puzzle has no clues, or clues without their
    // variant, is an error.
    let out = sudolog()
        .args(["generate", "--clues", &layout])
        .output()
        .expect("sudolog runs");
    let (_, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--clues: ") && stderr.contains("--variant thermo"),
        "{stderr}"
    );
}

#[test]
fn generate_makes_killers_with_random_cages_that_decide_the_grid() {
    let out = sudolog()
        .args(["generate", "--variant", "killer", "--cages"])
        .args(["--count", "2", "--seed", "3", "-j", "2", "--no-progress"])
        .output()
        .expect("sudolog runs");
    let (made, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(0), "{made}{stderr}");
    let puzzles = made_puzzles(&made);
    assert_eq!(puzzles.len(), 2, "{made}");
    for lines in &puzzles {
        let clues = clues_of_lines(&lines[1..]);
        // Every cell in one cage; cages connected, of at most five cells.
        let mut cages: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for f in facts(&clues, "cage") {
            cages.entry(f[1].num()).or_default().push(f[0].cell());
        }
        let mut cells: Vec<usize> = cages.values().flatten().copied().collect();
        cells.sort_unstable();
        assert_eq!(cells, (0..N).collect::<Vec<_>>(), "{made}");
        assert_eq!(facts(&clues, "cage_sum").len(), cages.len());
        for cage in cages.values() {
            assert!(cage.len() <= 5, "{cage:?}");
            let mut reached = vec![cage[0]];
            while let Some(next) = cage
                .iter()
                .find(|&&c| !reached.contains(&c) && reached.iter().any(|&r| adjacent(r, c)))
            {
                reached.push(*next);
            }
            assert_eq!(reached.len(), cage.len(), "a cage in pieces: {cage:?}");
        }
        let text = format!("{}\n", lines.join("\n"));
        let row = count_two("killer", &text);
        assert_eq!(row["solutions"], 1, "{text}: unique");
        let solution = grid_of(row["solution"].as_str().expect("a solution"));
        check_killer(&solution, &clues).unwrap_or_else(|why| panic!("{text}: {why}"));
    }
    // Without the killer rules, `--cages` says what is missing.
    let out = sudolog()
        .args(["generate", "--cages"])
        .output()
        .expect("sudolog runs");
    let (_, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--variant killer"), "{stderr}");
}

#[test]
fn the_readmes_rule_over_a_cages_placed_sum_is_sound_and_fires() {
    // The README's example of a sum over the solving state: digits too large
    // for what a cage's placed digits leave go from its open cells. On the
    // first 20 killers it must derive eliminations of its own, and none
    // that contradicts a solution.
    let rule = "eliminated(C, D) :- cage(C, G), cage_sum(G, S), digit(D),\n    \
                P = sum X : { cage(Y, G), placed(Y, X) }, P + D > S, unless placed(C, _).\n";
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("cage_room.dl");
    std::fs::write(&file, format!(".tier 1\n{rule}")).expect("written");
    let take = |path: &str| -> String {
        let lines: Vec<String> = read_lines(path)
            .into_iter()
            .filter(|l| !l.starts_with('#'))
            .take(20)
            .collect();
        lines.join("\n") + "\n"
    };
    let puzzles = dir.path().join("killers.txt");
    let solutions = dir.path().join("killers.solutions.txt");
    std::fs::write(&puzzles, take("tests/data/variants/killer100.txt")).expect("written");
    std::fs::write(
        &solutions,
        take("tests/data/variants/killer100.solutions.txt"),
    )
    .expect("written");
    let out = sudolog()
        .args(["verify-rules", "--variant", "killer", "--rules-add"])
        .arg(&file)
        .arg("--against")
        .arg(&puzzles)
        .arg("--solutions")
        .arg(&solutions)
        .output()
        .expect("sudolog runs");
    let (stdout, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("20 puzzles"), "{stdout}");
    assert!(
        stdout.contains("no rule derived a fact that contradicts"),
        "{stdout}"
    );
    let out = sudolog()
        .args([
            "facts",
            "--variant",
            "killer",
            "--relation",
            "eliminated",
            "--rules-add",
        ])
        .arg(&file)
        .arg(&puzzles)
        .output()
        .expect("sudolog runs");
    let (stdout, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("cage_room.dl:2"),
        "the rule never fired:\n{stdout}"
    );
}
