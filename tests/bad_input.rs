//! Bad input through the command line, as a user meets it: broken puzzle
//! files and broken rule files. Every case checks the documented exit code
//! (0 solved, 1 not solved, 2 invalid input; `check` says 1 for bad rules),
//! a message that names the file, line and column (and the cell as `r3c5`
//! where one is at fault), and that nothing panics or dies on a signal.
//!
//! Small inputs live in `tests/data/bad_input/`; big or byte-exact ones
//! (10 MB lines, binary garbage, CRLF, a BOM, bytes that are not UTF-8,
//! deeply nested rules) are generated here into temporary files.

use crate::common;

use common::{ESSAY_1, ESSAY_1_SOLUTION, ESSAY_2, ESSAY_2_SOLUTION, read_repo_file, sudolog};
use std::path::{Path, PathBuf};

/// `tests/data/x4.txt` and its solution.
const X4: &str = "1..4.........32.";
const X4_SOLUTION: &str = "1234341221434321";

/// The data directory of this suite, relative to the crate root (where
/// [`sudolog`] runs), so that messages name files as a user typed them.
const DATA: &str = "tests/data/bad_input";

/// What one run of `sudolog` produced.
#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The standard output's lines.
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `sudolog ARGS` (with `stdin` as its standard input when given) and
/// checks that it ended by itself with an exit code (not killed by a
/// signal, as a stack overflow would be) and did not panic.
#[track_caller]
fn run(args: &[&str], stdin: Option<Vec<u8>>) -> Run {
    let mut cmd = sudolog();
    cmd.args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes);
    }
    let out = cmd.output().expect("sudolog runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or_else(|| {
        panic!(
            "sudolog {args:?} was killed ({:?}); stderr:\n{}",
            out.status,
            head(&stderr)
        )
    });
    assert!(
        !stderr.contains("panicked") && !stdout.contains("panicked"),
        "sudolog {args:?} panicked:\n{}",
        head(&stderr)
    );
    Run {
        code,
        stdout,
        stderr,
    }
}

/// The start of a long text, for failure messages.
fn head(text: &str) -> String {
    text.chars().take(3000).collect()
}

/// `sudolog solve --format line FILES...`.
#[track_caller]
fn solve_lines(files: &[&str]) -> Run {
    let mut args = vec!["solve", "--no-progress", "--format", "line"];
    args.extend(files);
    run(&args, None)
}

/// A temporary directory with `name` holding `bytes`; returns the
/// directory (keep it alive) and the file's path as a string.
fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write the temp file");
    (dir, path_string(&path))
}

fn path_string(path: &Path) -> String {
    path.to_str().expect("a UTF-8 temp path").to_string()
}

/// What one output line of `--format line` must be.
#[derive(Clone, Debug)]
enum Want<'a> {
    /// This exact solution.
    Solved(&'a str),
    /// `# invalid: FILE:LINE:COL: ...` whose message contains each text.
    Invalid(usize, usize, &'a [&'a str]),
    /// `# no solution: ...`.
    NoSolution,
}

/// Checks the `--format line` output of a run over `file` against `want`,
/// one result per puzzle in input order, and that each error is also on
/// standard error.
#[track_caller]
fn assert_results(run: &Run, file: &str, want: &[Want]) {
    let lines = run.lines();
    assert_eq!(
        lines.len(),
        want.len(),
        "one result per puzzle, in order:\n{}",
        head(&run.stdout)
    );
    for (i, (got, want)) in lines.iter().zip(want).enumerate() {
        match want {
            Want::Solved(solution) => assert_eq!(got, solution, "result {}", i + 1),
            Want::NoSolution => {
                assert!(got.starts_with("# no solution"), "result {}: {got}", i + 1)
            }
            Want::Invalid(line, col, texts) => {
                let location = format!("{file}:{line}:{col}: ");
                let prefix = format!("# invalid: {location}");
                assert!(
                    got.starts_with(&prefix),
                    "result {}: {got:?} does not start with {prefix:?}",
                    i + 1
                );
                for text in *texts {
                    assert!(
                        got.contains(text),
                        "result {}: {got:?} lacks {text:?}",
                        i + 1
                    );
                }
                // The same error, located the same way, on standard error.
                let message = format!("error: {}", &got["# invalid: ".len()..]);
                assert!(
                    run.stderr.lines().any(|l| l == message),
                    "stderr lacks {message:?}:\n{}",
                    head(&run.stderr)
                );
            }
        }
    }
    let bad = want.iter().any(|w| matches!(w, Want::Invalid(..)));
    let unsolved = want.iter().any(|w| matches!(w, Want::NoSolution));
    let code = if bad {
        2
    } else if unsolved {
        1
    } else {
        0
    };
    assert_eq!(run.code, code, "exit code; stderr:\n{}", head(&run.stderr));
}

// ---------------------------------------------------------------------------
// Puzzle files: nothing to read, garbage, huge lines.
// ---------------------------------------------------------------------------

#[test]
fn an_empty_file_is_reported_as_holding_no_puzzle() {
    // A file with no puzzle at all (empty, or only a BOM, blank lines and
    // comments) is almost always the wrong file: a user expects to be told,
    // naming the file, and an exit code that is not "every puzzle solved".
    for bytes in [&b""[..], b"\xEF\xBB\xBF", b"\n\n# only a comment\n"] {
        let (_dir, path) = temp_file("empty.txt", bytes);
        let r = solve_lines(&[&path]);
        assert_eq!(r.code, 2, "{bytes:?}: stdout {:?}", r.stdout);
        assert!(
            r.stderr.contains(&path) || r.stdout.contains(&path),
            "{bytes:?}: no message names {path}: stdout {:?}, stderr {:?}",
            r.stdout,
            r.stderr
        );
    }
}

#[test]
fn an_empty_file_in_a_batch_does_not_disturb_the_others() {
    let (_dir, empty) = temp_file("empty.txt", b"");
    let r = solve_lines(&[&empty, "tests/data/x4.txt", &empty]);
    let none = Want::Invalid(1, 1, &["no puzzle in this input"]);
    let (first, last) = (none.clone(), none);
    assert_results(&r, &empty, &[first, Want::Solved(X4_SOLUTION), last]);
}

/// Deterministic bytes that look like a binary file: a PNG signature, then
/// xorshift noise (newlines included, so there are many "lines").
fn garbage(len: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while bytes.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.push((x >> 24) as u8);
    }
    bytes
}

#[test]
fn binary_garbage_gives_located_errors_and_no_result_is_lost() {
    let (_dir, path) = temp_file("image.png", &garbage(64 * 1024));
    let r = solve_lines(&[&path, "tests/data/x4.txt"]);
    assert_eq!(r.code, 2, "{}", head(&r.stderr));
    let lines = r.lines();
    assert!(lines.len() >= 2, "{}", head(&r.stdout));
    // Every result of the garbage file is an error located in it, with
    // increasing line numbers; the good file after it is still solved.
    let (last, errors) = lines.split_last().expect("results");
    assert_eq!(*last, X4_SOLUTION);
    let mut previous = 0;
    for l in errors {
        let rest = l
            .strip_prefix(&format!("# invalid: {path}:"))
            .unwrap_or_else(|| panic!("not an error located in {path}: {l:?}"));
        let mut parts = rest.splitn(3, ':');
        let line: usize = parts.next().and_then(|s| s.parse().ok()).expect("a line");
        let col: usize = parts.next().and_then(|s| s.parse().ok()).expect("a column");
        assert!(line > previous && col >= 1, "{l}");
        previous = line;
        assert!(!parts.next().expect("a message").trim().is_empty(), "{l}");
    }
    // The very first line (`\x89PNG\r`) is not UTF-8 at its first byte.
    assert!(
        errors[0].starts_with(&format!(
            "# invalid: {path}:1:1: byte 0x89 is not valid UTF-8 text"
        )),
        "{}",
        errors[0]
    );
}

#[test]
fn nul_bytes_are_an_error_not_a_crash() {
    let (_dir, path) = temp_file("nul.txt", b"\0\0\0\n");
    let r = solve_lines(&[&path]);
    assert_results(&r, &path, &[Want::Invalid(1, 1, &["line has 3 symbols"])]);
}

#[test]
fn a_10_mb_single_line_is_one_error_and_the_next_puzzle_still_solves() {
    let mut bytes = vec![b'1'; 10 * 1024 * 1024];
    bytes.push(b'\n');
    bytes.extend_from_slice(format!("{ESSAY_1}\n").as_bytes());
    let (_dir, path) = temp_file("big.txt", &bytes);
    let too_long: &[&str] = &["line is longer than 65536 bytes"];
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[
            Want::Invalid(1, 1, too_long),
            Want::Solved(ESSAY_1_SOLUTION),
        ],
    );
    // The same from standard input, and without a final newline.
    bytes.truncate(10 * 1024 * 1024);
    let r = run(
        &["solve", "--no-progress", "--format", "line", "-"],
        Some(bytes),
    );
    assert_results(&r, "<stdin>", &[Want::Invalid(1, 1, too_long)]);
}

#[test]
fn a_10_mb_line_of_bytes_that_are_not_utf8_is_one_error() {
    // Too long wins over not UTF-8: the rest of the line is never buffered.
    let mut bytes = garbage(10 * 1024 * 1024);
    // `\r` ends a line too (old Mac files).
    bytes.retain(|&b| b != b'\n' && b != b'\r');
    bytes.push(b'\n');
    bytes.extend_from_slice(format!("{X4}\n").as_bytes());
    let (_dir, path) = temp_file("big.bin", &bytes);
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[
            Want::Invalid(1, 1, &["line is longer than 65536 bytes"]),
            Want::Solved(X4_SOLUTION),
        ],
    );
}

// ---------------------------------------------------------------------------
// Puzzle files: wrong lengths, unknown symbols, repeated digits.
// ---------------------------------------------------------------------------

#[test]
fn wrong_lengths_are_located() {
    let file = format!("{DATA}/wrong_lengths.txt");
    let r = solve_lines(&[&file]);
    let ok = Want::Solved(ESSAY_1_SOLUTION);
    let need = "a puzzle line needs 16, 81, 256 or 625";
    assert_results(
        &r,
        &file,
        &[
            Want::Invalid(3, 1, &["line has 80 symbols", need]),
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Invalid(5, 1, &["line has 82 symbols", need]),
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Invalid(7, 1, &["line has 17 symbols", need]),
            Want::Solved(ESSAY_1_SOLUTION),
            // Indented: the column is where the puzzle starts.
            Want::Invalid(9, 3, &["line has 82 symbols", need]),
            // A grid row one cell short: the rest of that grid is part of
            // the same bad puzzle, not a second error.
            Want::Invalid(
                12,
                1,
                &["row 3 of this 9x9 grid has 8 symbols but needs exactly 9"],
            ),
            Want::Solved(ESSAY_1_SOLUTION),
            // A grid cut short by a blank line.
            Want::Invalid(
                23,
                1,
                &["this 9x9 grid has only 2 of its 9 rows", "line 25"],
            ),
            ok,
        ],
    );
}

#[test]
fn a_grid_row_with_a_cell_too_many_points_at_the_extra_cell() {
    let text = "1 4 . | . 5 3 | 6 . .\n. . . | . 7 . | . . . 1\n";
    let (_dir, path) = temp_file("wide.txt", text.as_bytes());
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[Want::Invalid(
            2,
            23,
            &["row 2 of this 9x9 grid has 10 symbols", "remove the extra"],
        )],
    );
}

#[test]
fn a_grid_cut_short_by_the_end_of_the_file_is_located() {
    let text = "# half a grid\n1 4 . | . 5 3 | 6 . .\n. . . | . 7 . | . . .\n";
    let (_dir, path) = temp_file("cut.txt", text.as_bytes());
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[Want::Invalid(
            2,
            1,
            &["this 9x9 grid has only 2 of its 9 rows", "the input ended"],
        )],
    );
}

#[test]
fn unknown_symbols_are_located_at_their_cell() {
    let file = format!("{DATA}/unknown_symbols.txt");
    let r = solve_lines(&[&file]);
    let ok = || Want::Solved(ESSAY_1_SOLUTION);
    let nine = "9x9 digits are 1-9";
    let sixteen = "16x16 digits are 1-9 and A-G";
    assert_results(
        &r,
        &file,
        &[
            Want::Invalid(2, 21, &["unknown symbol 'X' at r3c3", nine]),
            ok(),
            // A 16x16 digit in a 9x9 puzzle.
            Want::Invalid(4, 31, &["unknown symbol 'A' at r4c4", nine]),
            ok(),
            // The column counts characters, not bytes.
            Want::Invalid(6, 6, &["unknown symbol 'é' at r1c6", nine]),
            ok(),
            Want::Invalid(8, 71, &["unknown symbol '?' at r8c8", nine]),
            ok(),
            Want::Invalid(10, 2, &["unknown symbol 'H' at r1c2", sixteen]),
            ok(),
            // Digits numbered from 0: rejected rather than misread.
            Want::Invalid(
                12,
                2,
                &[
                    "'0' at r1c2 is not a 16x16 symbol",
                    "add one to every digit",
                ],
            ),
            ok(),
        ],
    );
}

#[test]
fn repeated_givens_name_both_cells_and_the_unit() {
    let file = format!("{DATA}/duplicates.txt");
    let r = solve_lines(&[&file]);
    let ok = || Want::Solved(ESSAY_1_SOLUTION);
    assert_results(
        &r,
        &file,
        &[
            Want::Invalid(
                3,
                9,
                &[
                    "digit 1 at r1c9 repeats the 1 at r1c1 in row 1",
                    "remove one",
                ],
            ),
            ok(),
            Want::Invalid(
                5,
                73,
                &["digit 8 at r9c1 repeats the 8 at r4c1 in column 1"],
            ),
            ok(),
            Want::Invalid(7, 12, &["digit 4 at r2c3 repeats the 4 at r1c2 in box 1"]),
            ok(),
            // A 4x4 line.
            Want::Invalid(9, 4, &["digit 1 at r1c4 repeats the 1 at r1c1 in row 1"]),
            ok(),
            // A grid layout: located at the symbol on its own line.
            Want::Invalid(21, 19, &["digit 6 at r9c8 repeats the 6 at r7c9 in box 9"]),
            ok(),
        ],
    );
}

#[test]
fn errors_keep_their_location_in_grid_and_json_output() {
    let file = format!("{DATA}/duplicates.txt");
    let r = run(&["solve", "--no-progress", &file], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stdout.contains(&format!(
            "# puzzle 1: invalid: {file}:3:9: digit 1 at r1c9 repeats the 1 at r1c1 in row 1"
        )),
        "{}",
        head(&r.stdout)
    );
    let r = run(&["solve", "--no-progress", "--format", "json", &file], None);
    assert_eq!(r.code, 2);
    let rows = common::json_lines(&r.stdout);
    assert_eq!(rows.len(), 10);
    let first = &rows[0];
    assert_eq!(first["status"], "invalid");
    assert_eq!(first["file"], file.as_str());
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(3), Some(9))
    );
    assert!(
        first["error"]
            .as_str()
            .expect("an error")
            .contains("r1c9 repeats the 1 at r1c1")
    );
    assert_eq!(rows[1]["status"], "solved");
}

// ---------------------------------------------------------------------------
// Puzzle files: line endings, byte-order marks, bytes that are not UTF-8.
// ---------------------------------------------------------------------------

/// `text` with every `\n` turned into `\r\n`.
fn crlf(text: &str) -> Vec<u8> {
    text.replace('\n', "\r\n").into_bytes()
}

#[test]
fn windows_line_endings_still_solve() {
    let grid = read_repo_file("tests/data/grid_layout.txt");
    let text = format!("# CRLF\n{ESSAY_1} essay 1\n\n{X4}\n{grid}\n{ESSAY_2}\n");
    let (_dir, path) = temp_file("crlf.txt", &crlf(&text));
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Solved(X4_SOLUTION),
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Solved(ESSAY_2_SOLUTION),
        ],
    );
    // Errors in a CRLF file are located as in an LF one.
    let bad = format!("{X4}\n{}\n", &ESSAY_1[..80]);
    let (_dir, path) = temp_file("crlf_bad.txt", &crlf(&bad));
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[
            Want::Solved(X4_SOLUTION),
            Want::Invalid(2, 1, &["line has 80 symbols"]),
        ],
    );
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_ignored() {
    // Windows editors save UTF-8 with a BOM; the README says it is fine, and
    // the puzzle must solve as without it, in line and grid layout, with
    // CRLF too, and in every file of a batch.
    let (_d1, line) = temp_file("bom_line.txt", format!("\u{feff}{ESSAY_1}\n").as_bytes());
    let grid = read_repo_file("tests/data/grid_layout.txt");
    let grid = grid
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let (_d2, grid) = temp_file("bom_grid.txt", &crlf(&format!("\u{feff}{grid}\n")));
    let (_d3, comment) = temp_file(
        "bom_comment.txt",
        format!("\u{feff}# a comment first\n{X4}\n").as_bytes(),
    );
    let r = solve_lines(&[&line, &grid, &comment]);
    assert_results(
        &r,
        "",
        &[
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Solved(ESSAY_1_SOLUTION),
            Want::Solved(X4_SOLUTION),
        ],
    );
    // Through standard input too.
    let r = run(
        &["solve", "--no-progress", "--format", "line", "-"],
        Some(format!("\u{feff}{X4}\r\n").into_bytes()),
    );
    assert_results(&r, "<stdin>", &[Want::Solved(X4_SOLUTION)]);
}

#[test]
fn a_byte_order_mark_inside_a_file_is_a_located_error() {
    // Two BOM files concatenated (`cat a.txt b.txt`): the second BOM is not
    // at the start of the input, so it is an error, located at line 2.
    let text = format!("\u{feff}{X4}\n\u{feff}{ESSAY_1}\n{X4}\n");
    let (_dir, path) = temp_file("cat.txt", text.as_bytes());
    let r = solve_lines(&[&path]);
    assert_results(
        &r,
        &path,
        &[
            Want::Solved(X4_SOLUTION),
            Want::Invalid(2, 1, &[]),
            Want::Solved(X4_SOLUTION),
        ],
    );
}

#[test]
fn bytes_that_are_not_utf8_are_located() {
    // A Latin-1 `é` (0xE9) and a stray 0xFF inside puzzle lines: an error
    // for that puzzle at the byte's column, and the next puzzle solves.
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&ESSAY_1.as_bytes()[..42]);
    bytes.push(0xFF);
    bytes.extend_from_slice(&ESSAY_1.as_bytes()[43..]);
    bytes.extend_from_slice(format!("\n{X4}\n{ESSAY_1} caf").as_bytes());
    bytes.push(0xE9);
    bytes.extend_from_slice(format!("\n{X4}\n").as_bytes());
    let (_dir, path) = temp_file("latin1.txt", &bytes);
    let r = solve_lines(&[&path]);
    let not_utf8 = "is not valid UTF-8 text; save the file as UTF-8";
    assert_results(
        &r,
        &path,
        &[
            Want::Invalid(1, 43, &["byte 0xFF", not_utf8]),
            Want::Solved(X4_SOLUTION),
            Want::Invalid(3, 86, &["byte 0xE9", not_utf8]),
            Want::Solved(X4_SOLUTION),
        ],
    );
}

#[test]
fn a_comment_line_that_is_not_utf8_is_still_a_comment() {
    // README: "lines starting with `#` are skipped". A Latin-1 header such
    // as `# café puzzles` belongs to no puzzle, so it must not add a result
    // of its own (which breaks "one result per puzzle") nor fail the run.
    let mut bytes = b"# caf\xe9 puzzles\n".to_vec();
    bytes.extend_from_slice(format!("{X4}\n").as_bytes());
    let (_dir, path) = temp_file("latin1_comment.txt", &bytes);
    let r = solve_lines(&[&path]);
    assert_results(&r, &path, &[Want::Solved(X4_SOLUTION)]);
}

// ---------------------------------------------------------------------------
// A batch mixing good and bad puzzles.
// ---------------------------------------------------------------------------

#[test]
fn a_mixed_batch_gives_one_result_per_puzzle_in_input_order() {
    let no_solution = common::read_lines("tests/data/no_solution.txt")
        .into_iter()
        .next()
        .expect("a puzzle without solution");
    let sixteen = read_repo_file("tests/data/sixteen.txt");
    let sixteen_solution = read_repo_file("tests/data/sixteen.solution.txt");
    let sixteen_solution = sixteen_solution.trim();
    let grid = read_repo_file("tests/data/grid_layout.txt");
    let mut duplicate = ESSAY_1.to_string();
    duplicate.replace_range(8..9, "1");
    let mut bytes = Vec::new();
    let mut add = |b: &[u8]| bytes.extend_from_slice(b);
    add(format!("# a batch of good and bad puzzles\n{ESSAY_1}\n").as_bytes()); // 1-2
    add(format!("{}\n{X4}\n", &ESSAY_1[..80]).as_bytes()); // 3-4
    add(b"1..4....\xff....32.\n"); // 5
    add(&crlf(&format!("{}\n", grid.trim_end()))); // 6-17 (a comment, then the grid)
    add(format!("{duplicate},a row repeats\n{no_solution}\n").as_bytes()); // 18-19
    add(sixteen.as_bytes()); // 20
    add(&vec![b'.'; 70_000]); // 21
    add(format!("\n\n1 4 . | . 5 3 | 6 . .\n\n{ESSAY_2}\n").as_bytes()); // 21-25
    let (_dir, path) = temp_file("batch.txt", &bytes);
    let want = [
        Want::Solved(ESSAY_1_SOLUTION),
        Want::Invalid(3, 1, &["line has 80 symbols"]),
        Want::Solved(X4_SOLUTION),
        Want::Invalid(5, 9, &["byte 0xFF is not valid UTF-8"]),
        Want::Solved(ESSAY_1_SOLUTION),
        Want::Invalid(18, 9, &["digit 1 at r1c9 repeats the 1 at r1c1 in row 1"]),
        Want::NoSolution,
        Want::Solved(sixteen_solution),
        Want::Invalid(21, 1, &["line is longer than 65536 bytes"]),
        Want::Invalid(23, 1, &["this 9x9 grid has only 1 of its 9 rows"]),
        Want::Solved(ESSAY_2_SOLUTION),
    ];
    // One thread or two: the same results in the same order.
    for jobs in ["1", "2"] {
        let r = run(
            &[
                "solve",
                "--no-progress",
                "-j",
                jobs,
                "--format",
                "line",
                &path,
            ],
            None,
        );
        assert_results(&r, &path, &want);
    }
    // JSON: one object per puzzle, indexed in order, each with its line.
    let r = run(
        &[
            "solve",
            "--no-progress",
            "-j",
            "2",
            "--format",
            "json",
            &path,
        ],
        None,
    );
    assert_eq!(r.code, 2);
    let rows = common::json_lines(&r.stdout);
    let lines: Vec<u64> = rows
        .iter()
        .map(|o| o["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(lines, [2, 3, 4, 5, 7, 18, 19, 20, 21, 23, 25]);
    let indexes: Vec<u64> = rows
        .iter()
        .map(|o| o["index"].as_u64().expect("an index"))
        .collect();
    assert_eq!(indexes, (1..=11).collect::<Vec<u64>>());
    let statuses: Vec<&str> = rows
        .iter()
        .map(|o| o["status"].as_str().expect("a status"))
        .collect();
    assert_eq!(
        statuses,
        [
            "solved",
            "invalid",
            "solved",
            "invalid",
            "solved",
            "invalid",
            "no_solution",
            "solved",
            "invalid",
            "invalid",
            "solved"
        ]
    );
}

#[test]
fn an_unreadable_input_is_one_located_error() {
    // A directory where a file is expected, and a file that does not exist.
    let dir = tempfile::tempdir().expect("a temp dir");
    let missing: PathBuf = dir.path().join("missing.txt");
    let missing = path_string(&missing);
    let as_dir = path_string(dir.path());
    let r = solve_lines(&[&as_dir, &missing, "tests/data/x4.txt"]);
    let lines = r.lines();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(
        lines[0].starts_with(&format!("# invalid: {as_dir}:1:1: cannot read the input"))
            && lines[0].ends_with("; name a puzzle file, not a folder"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!("# invalid: {missing}: cannot open the file")),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], X4_SOLUTION);
    assert_eq!(r.code, 2);
}

// ---------------------------------------------------------------------------
// Rule files.
// ---------------------------------------------------------------------------

/// Runs a rule file through `solve --rules-add` (exit 2, nothing solved) and
/// `check --rules-add` (exit 1), and checks both report `message` at
/// `file:line:col` with the source line, a caret and a help.
#[track_caller]
fn assert_rule_error(file: &str, message: &str, line: usize, col: usize) {
    let location = format!("{file}:{line}:{col}");
    let solve = run(
        &[
            "solve",
            "--no-progress",
            "--format",
            "line",
            "--rules-add",
            file,
            "tests/data/x4.txt",
        ],
        None,
    );
    assert_eq!(solve.code, 2, "solve: {}", head(&solve.stderr));
    assert_eq!(solve.stdout, "", "no puzzle is solved with bad rules");
    let check = run(&["check", "--rules-add", file], None);
    assert_eq!(check.code, 1, "check: {}", head(&check.stderr));
    for (what, stderr) in [("solve", &solve.stderr), ("check", &check.stderr)] {
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ") && first.contains(message),
            "{what}: {first:?} lacks {message:?}"
        );
        assert!(
            first.ends_with(&format!("({location})")),
            "{what}: {first:?} is not located at {location}"
        );
        assert!(
            stderr.contains(&format!("┌─ {location}")),
            "{what}: {}",
            head(stderr)
        );
        assert!(stderr.contains('^'), "{what}: no caret: {}", head(stderr));
        assert!(
            stderr.contains("help:"),
            "{what}: no help: {}",
            head(stderr)
        );
    }
}

/// Checks that the rule file's text at `line`:`col` starts with `at`
/// (columns in characters), so the expected locations are right.
#[track_caller]
fn assert_text_at(file: &str, line: usize, col: usize, at: &str) {
    let text = read_repo_file(file);
    let l = text.lines().nth(line - 1).expect("the line exists");
    let rest: String = l.chars().skip(col - 1).collect();
    assert!(rest.starts_with(at), "{file}:{line}:{col} is {rest:?}");
}

#[test]
fn rule_file_errors_are_located() {
    // (file, message, line, column, text there)
    let cases = [
        (
            "unterminated_comment.dl",
            "unterminated block comment",
            4,
            3,
            "/*",
        ),
        (
            "unterminated_string.dl",
            "unterminated string",
            3,
            44,
            "\"row).",
        ),
        (
            "huge_integer.dl",
            "integer too large",
            4,
            9,
            "99999999999999999999999",
        ),
        (
            "unknown_relation.dl",
            "undeclared relation `peers`",
            3,
            24,
            "peers(C, _)",
        ),
        (
            "arity.dl",
            "`row` has 2 columns but is used with 3",
            3,
            17,
            "row(C, 1, 2)",
        ),
        (
            "unsafe_variable.dl",
            "variable `D` in the head is not bound by the body",
            3,
            10,
            "D)",
        ),
        (
            "negation_cycle.dl",
            "cycle through negation or counting: `even`, `odd`",
            5,
            1,
            "odd(C) :-",
        ),
        (
            "too_many_columns.dl",
            "`wide` has 9 columns; a relation has at most 8",
            3,
            84,
            "i: cell",
        ),
    ];
    for (name, message, line, col, at) in cases {
        let file = format!("{DATA}/{name}");
        assert_text_at(&file, line, col, at);
        assert_rule_error(&file, message, line, col);
    }
}

#[test]
fn more_unbound_variables_and_numbers_out_of_range() {
    let cases = [
        (
            ".decl f(c: cell)\nf(C) :- cell(C), !given(X, 1).\n",
            "variable `X` in a negation is not bound",
            2,
            19,
        ),
        (
            ".decl f(c: cell)\nf(C) :- cell(C), D > 3.\n",
            "variable `D` in a comparison is not bound",
            2,
            18,
        ),
        (
            ".decl f(n: number)\nf(-99999999999999999999999).\n",
            "integer too large",
            2,
            4,
        ),
        (
            ".decl f(n: number)\nf(M) :- size(N), M = N + 9223372036854775807.\n",
            "does not fit in 32 bits",
            2,
            26,
        ),
        (
            ".decl f(c: cell)\nf(r99999999999999999999c1).\n",
            "has a row or column number too large",
            2,
            3,
        ),
    ];
    for (text, message, line, col) in cases {
        let (_dir, path) = temp_file("user.dl", text.as_bytes());
        assert_rule_error(&path, message, line, col);
    }
}

#[test]
fn a_rule_file_that_is_not_utf8_or_missing_is_invalid_input() {
    let (_dir, latin1) = temp_file("latin1.dl", b"// caf\xe9\n.decl f(c: cell)\n");
    let missing = format!("{DATA}/no_such_file.dl");
    for file in [latin1.as_str(), missing.as_str()] {
        let r = run(
            &[
                "solve",
                "--no-progress",
                "--rules-add",
                file,
                "tests/data/x4.txt",
            ],
            None,
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("cannot read the rule file {file}")),
            "{}",
            r.stderr
        );
        assert_eq!(r.stdout, "");
    }
}

#[test]
fn windows_line_endings_and_a_bom_in_rule_files() {
    // A CRLF rule file is read like an LF one (locations included), and a
    // BOM before the first declaration is not an unexpected character.
    let (_d1, path) = temp_file(
        "crlf.dl",
        &crlf(".decl f(c: cell)\nf(C) :- cell(C), nope(C).\n"),
    );
    assert_rule_error(&path, "undeclared relation `nope`", 2, 18);
    let (_d2, path) = temp_file(
        "bom.dl",
        "\u{feff}.decl f(c: cell)\nf(C) :- cell(C).\n".as_bytes(),
    );
    let r = run(
        &[
            "solve",
            "--no-progress",
            "--format",
            "line",
            "--rules-add",
            &path,
            "tests/data/x4.txt",
        ],
        None,
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "1234341221434321\n"),
        "{}",
        r.stderr
    );
}

/// Checks that a generated rule file (`deep.dl`, one huge line 2) is
/// rejected with `message`, located on line 2, without a crash.
#[track_caller]
fn assert_deep_rejected(text: &str, message: &str) {
    let (_dir, path) = temp_file("deep.dl", text.as_bytes());
    for args in [
        vec![
            "solve",
            "--no-progress",
            "--rules-add",
            &path,
            "tests/data/x4.txt",
        ],
        vec!["check", "--rules-add", &path],
    ] {
        let r = run(&args, None);
        assert_eq!(r.code, if args[0] == "solve" { 2 } else { 1 }, "{args:?}");
        let first = r.stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("error: {message} ({path}:2:")),
            "{args:?}: {}",
            head(first)
        );
        assert_eq!(r.stdout, "");
    }
}

#[test]
fn deep_nesting_in_rules_is_an_error_not_a_stack_overflow() {
    const DEPTH: usize = 100_000;
    let decl = ".decl f(n: number)\n";
    let parens = format!(
        "{decl}f(M) :- size(N), M = {}N{}.\n",
        "(".repeat(DEPTH),
        ")".repeat(DEPTH)
    );
    assert_deep_rejected(&parens, "expression is too deeply nested");
    // Opened and never closed.
    let open = format!("{decl}f(M) :- size(N), M = {}\n", "(".repeat(DEPTH));
    assert_deep_rejected(&open, "expression is too deeply nested");
    let minus = format!("{decl}f(M) :- size(N), M = {}N.\n", "-".repeat(DEPTH));
    assert_deep_rejected(&minus, "expression is too deeply nested");
    let sum = format!("{decl}f(M) :- size(N), M = N{}.\n", " + 1".repeat(DEPTH));
    assert_deep_rejected(&sum, "expression is too deeply nested");
    let counts = format!(
        ".decl g(c: cell)\ng(C) :- cell(C), {}cell(C){}.\n",
        "count : { ".repeat(DEPTH),
        " } >= 1".repeat(DEPTH)
    );
    assert_deep_rejected(&counts, "expression is too deeply nested");
    let negations = format!(
        ".decl g(c: cell)\ng(C) :- cell(C), {}cell(C).\n",
        "!".repeat(DEPTH)
    );
    assert_deep_rejected(&negations, "expected an atom after `!`, found `!`");
}

#[test]
fn standard_input_named_twice_is_refused_not_waited_for() {
    // It used to wait forever for the second reading (issue 14, item 8).
    for args in [
        vec!["solve", "-", "-"],
        vec!["grade", "-", "tests/data/x4.txt", "-"],
        vec!["verify-rules", "--against", "-", "--solutions", "-"],
    ] {
        let out = sudolog()
            .args(&args)
            .write_stdin("1..4.........32.\n")
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .expect("sudolog runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("standard input (`-`) is named twice"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Once is fine.
    sudolog()
        .args(["solve", "--format", "line", "-"])
        .write_stdin("1..4.........32.\n")
        .assert()
        .success();
}

#[test]
fn a_failed_write_to_standard_error_is_no_panic() {
    // `--trace`, `--stats` and errors go to standard error; a full or
    // closed stderr used to panic with exit 101 (issue 14, item 9).
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not on this system
    };
    for (args, code) in [
        (
            vec!["solve", "--trace", "--stats", "tests/data/essay.txt"],
            0,
        ),
        (vec!["solve", "tests/data/no-such-file.txt"], 2),
        (
            vec!["check", "--rules-add", "tests/data/bad_input/arity.dl"],
            1,
        ),
    ] {
        let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudolog"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(full.try_clone().expect("clones"))
            .status()
            .expect("sudolog runs");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}
