//! Tests of [`PuzzleReader`], kept apart so the reader itself stays short.

use std::io::{BufReader, Cursor, Read};

use super::*;
use crate::grid::{render_grid, render_line};

const E1: &str =
    "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
const E2: &str =
    "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3";
const X4: &str = "1..4.........32.";

fn read_bytes(input: &[u8]) -> Vec<Result<Puzzle, PuzzleError>> {
    PuzzleReader::new(Cursor::new(input.to_vec()), "t.txt").collect()
}

fn read(input: &str) -> Vec<Result<Puzzle, PuzzleError>> {
    read_bytes(input.as_bytes())
}

/// "ok <size> <line>" per puzzle, or the error text, to compare whole streams at once.
fn outcomes(input: &str) -> Vec<String> {
    read(input)
        .into_iter()
        .map(|r| match r {
            Ok(p) => format!("ok {} {}", p.geometry.label(), p.origin.line),
            Err(e) => e.to_string(),
        })
        .collect()
}

fn one(input: &str) -> Puzzle {
    let mut items = read(input);
    assert_eq!(items.len(), 1, "{items:?}");
    items.remove(0).unwrap()
}

fn one_err(input: &str) -> PuzzleError {
    let mut items = read(input);
    assert_eq!(items.len(), 1, "{items:?}");
    items.remove(0).unwrap_err()
}

/// A valid full grid of any size, with some cells blanked.
fn sample(g: Geometry) -> Vec<u8> {
    let (b, n) = (g.box_size, g.n);
    (0..g.cell_count())
        .map(|cell| {
            let (r, c) = (g.row_of(cell), g.col_of(cell));
            if (r * 7 + c * 3) % 5 == 0 {
                0
            } else {
                ((b * (r % b) + r / b + c) % n + 1) as u8
            }
        })
        .collect()
}

#[test]
fn line_format_with_labels() {
    let p = one(&format!("{E1}   essay one  \n"));
    assert_eq!(p.geometry.n, 9);
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    assert_eq!(p.label, "essay one");
    assert_eq!(
        p.origin,
        Origin {
            file: "t.txt".to_string(),
            line: 1
        }
    );
    assert_eq!(p.positions[0], (1, 1));
    assert_eq!(p.positions[80], (1, 81));
    assert_eq!(one(&format!("{E1},{E2}")).label, E2);
    assert_eq!(one(&format!("{E1}:1:{E2}")).label, format!("1:{E2}"));
    assert_eq!(one(&format!("{E1};x")).label, "x");
    assert_eq!(one(&format!("\t {E1}")).positions[0], (1, 3));
    assert_eq!(one(E1).label, "");
}

#[test]
fn zeros_and_underscores_are_empty_up_to_9x9() {
    let p = one(&E1.replace('.', "0"));
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    let p = one(&E1.replace('.', "_"));
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    let p = one(&format!("{} lower", "a".to_string() + &".".repeat(255)));
    assert_eq!(p.cells[0], 10);
}

#[test]
fn space_separated_line() {
    let spaced: String = E1.chars().map(|c| format!("{c} ")).collect();
    let p = one(&spaced);
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    assert_eq!(p.positions[1], (1, 3));
    assert_eq!(p.label, "");
}

#[test]
fn grid_layout_with_comments_and_separators() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells);
    let mut lines: Vec<&str> = grid.lines().collect();
    lines.insert(5, "# a comment inside the grid");
    lines.insert(0, "# heading");
    lines.insert(0, "");
    let text = lines.join("\n");
    let p = one(&text);
    assert_eq!(render_line(&g, &p.cells), E1);
    assert_eq!(p.origin.line, 3);
    assert_eq!(p.positions[0], (3, 1));
    assert_eq!(p.positions[4], (3, 11));
    assert_eq!(p.positions[27], (7, 1));
    assert_eq!(p.label, "");
}

#[test]
fn grid_layout_without_spaces_and_with_tabs() {
    let rows: Vec<String> = E1
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let p = one(&rows.join("\n"));
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    let tabbed: Vec<String> = rows
        .iter()
        .map(|r| r.chars().map(|c| format!("{c}\t")).collect())
        .collect();
    let p = one(&tabbed.join("\n"));
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
    let framed: Vec<String> = rows.iter().map(|r| format!("| {r} |")).collect();
    let p = one(&format!("+===+\n{}\n+===+\n", framed.join("\n")));
    assert_eq!(render_line(&p.geometry, &p.cells), E1);
}

#[test]
fn round_trips_for_every_size() {
    for g in Geometry::all() {
        let cells = sample(g);
        for text in [render_grid(&g, &cells), render_line(&g, &cells)] {
            let p = one(&text);
            assert_eq!(p.geometry, g, "{text}");
            assert_eq!(p.cells, cells, "{text}");
        }
    }
}

#[test]
fn several_puzzles_in_one_input_mixing_layouts() {
    let g9 = Geometry::from_side(9).unwrap();
    let g16 = Geometry::from_side(16).unwrap();
    let text = format!(
        "{E1}\n{}\n{}{E2} x\n{X4}\n",
        render_grid(&g9, &one(E2).cells),
        render_grid(&g16, &sample(g16)),
    );
    assert_eq!(
        outcomes(&text),
        [
            "ok 9x9 1",
            "ok 9x9 2",
            "ok 16x16 14",
            "ok 9x9 33",
            "ok 4x4 34"
        ]
    );
}

#[test]
fn lone_16_symbol_line_is_a_4x4_puzzle() {
    let p = one(X4);
    assert_eq!(p.geometry.n, 4);
    assert_eq!(p.cells[..4], [1, 0, 0, 4]);
    // A blank line cannot continue a grid, so these are two 4x4 puzzles.
    assert_eq!(
        outcomes(&format!("{X4}\n\n{X4}\n")),
        ["ok 4x4 1", "ok 4x4 3"]
    );
    // What follows is read normally after the lookahead.
    assert_eq!(outcomes(&format!("{X4}\n{E1}\n")), ["ok 4x4 1", "ok 9x9 2"]);
    assert_eq!(
        outcomes(&format!("{X4}\n# c\n{E1}")),
        ["ok 4x4 1", "ok 9x9 3"]
    );
    // With a label the line is unambiguous.
    assert_eq!(
        outcomes(&format!("{X4} a\n{X4} b\n")),
        ["ok 4x4 1", "ok 4x4 2"]
    );
    let spaced: String = X4.chars().map(|c| format!("{c} ")).collect();
    assert_eq!(one(&spaced).geometry.n, 4);
}

#[test]
fn two_16_symbol_lines_start_a_16x16_grid() {
    let g16 = Geometry::from_side(16).unwrap();
    let cells = sample(g16);
    let rows: Vec<String> = render_line(&g16, &cells)
        .as_bytes()
        .chunks(16)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    // Comments and separator lines between the first two rows do not matter.
    let text = format!("{}\n# note\n----\n{}\n", rows[0], rows[1..].join("\n"));
    let p = one(&text);
    assert_eq!((p.geometry, p.cells), (g16, cells));
    // Compact lines of 4x4 symbols are 4x4 puzzles even on consecutive lines,
    // so a file of `--format line` output for 4x4 puzzles reads back.
    assert_eq!(
        outcomes(&format!("{X4}\n{X4}\n{X4}\n")),
        ["ok 4x4 1", "ok 4x4 2", "ok 4x4 3"]
    );
}

#[test]
fn a_bad_16_symbol_line_before_4x4_puzzles_does_not_swallow_them() {
    let neither = |line: usize, rows: usize, why: &str| {
        format!(
            "t.txt:{line}:1: this line of 16 symbols is neither a 4x4 puzzle (4x4 digits are \
             1-4 and empty cells '.', '_' or '0') nor the first row of a 16x16 grid (the grid \
             would have only {rows} of its 16 rows: {why}); fix the line or remove it"
        )
    };
    assert_eq!(
        outcomes(&format!("{X4}\n12345678ABCDEFGH\n{X4}\n")),
        [
            "ok 4x4 1".to_string(),
            neither(2, 2, "the input ended"),
            "ok 4x4 3".to_string()
        ]
    );
    // Two bad lines: each gets its result, and the blank line still ends
    // the second one's would-be grid.
    assert_eq!(
        outcomes(&format!(
            "12345678ABCDEFGH\nABCDEFGH12345678\n{X4}\n\n{X4}\n"
        )),
        [
            neither(1, 3, "a blank line at line 4 ended it"),
            neither(2, 2, "a blank line at line 4 ended it"),
            "ok 4x4 3".to_string(),
            "ok 4x4 5".to_string()
        ]
    );
    // A 16x16 grid cut short whose rows do not read as 4x4 puzzles keeps
    // its one error.
    let g16 = Geometry::from_side(16).unwrap();
    let line = render_line(&g16, &sample(g16));
    let rows: Vec<&str> = (0..3).map(|r| &line[r * 16..(r + 1) * 16]).collect();
    assert_eq!(
        outcomes(&rows.join("\n")),
        [
            "t.txt:1:1: this 16x16 grid has only 3 of its 16 rows (the input ended); \
          add the missing rows or remove the partial grid"
        ]
    );
}

#[test]
fn bom_and_crlf() {
    let text = format!("\u{FEFF}{E1}\r\n{E2} name\r\n");
    let items = read(&text);
    assert_eq!(items.len(), 2);
    let p = items[0].as_ref().unwrap();
    assert_eq!(p.positions[0], (1, 1));
    assert_eq!(items[1].as_ref().unwrap().label, "name");
    let g = Geometry::from_side(4).unwrap();
    let grid = render_grid(&g, &one(X4).cells).replace('\n', "\r\n");
    assert_eq!(one(&format!("\u{FEFF}{grid}")).cells, one(X4).cells);
}

#[test]
fn invalid_utf8_is_one_error_then_reading_continues() {
    let mut input = b"# x\n14..53\xFF".to_vec();
    input.extend_from_slice(format!("\n{E2}\n").as_bytes());
    let items = read_bytes(&input);
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0].as_ref().unwrap_err().to_string(),
        "t.txt:2:7: byte 0xFF is not valid UTF-8 text; save the file as UTF-8"
    );
    assert!(items[1].is_ok());
}

#[test]
fn invalid_utf8_inside_a_grid_is_one_error() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells).replace(". 7 .", ". \u{1}7 .");
    let input = format!("{grid}\n{E2}\n").replace('\u{1}', "\u{80}");
    let mut bytes = input.into_bytes();
    // Turn the two-byte encoding of U+0080 into a lone continuation byte.
    let at = bytes.windows(2).position(|w| w == [0xC2, 0x80]).unwrap();
    bytes.remove(at);
    let items = read_bytes(&bytes);
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(
        items[0].as_ref().unwrap_err().to_string(),
        "t.txt:2:11: byte 0x80 is not valid UTF-8 text; save the file as UTF-8"
    );
    assert!(items[1].is_ok());
}

#[test]
fn ten_megabyte_line_is_one_error() {
    let mut input = format!("{E1}\n").into_bytes();
    input.extend(std::iter::repeat_n(b'7', 10 * 1024 * 1024));
    input.extend_from_slice(format!("\n{E2}\n").as_bytes());
    let reader = BufReader::new(Cursor::new(input));
    let items: Vec<_> = PuzzleReader::new(reader, "big").collect();
    assert_eq!(items.len(), 3);
    let e = items[1].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.message.starts_with("line is longer than 65536 bytes"));
    assert_eq!(items[2].as_ref().unwrap().origin.line, 3);
}

#[test]
fn wrong_length_lines() {
    let e = one_err(&format!("{} 80 cells", &E1[..80]));
    assert_eq!(
        e.to_string(),
        "t.txt:1:1: line has 80 symbols; a puzzle line needs 16, 81, 256 or 625 \
         (4x4, 9x9, 16x16, 25x25)"
    );
    let spaced: String = E1[1..].chars().map(|c| format!(" {c}")).collect();
    let e = one_err(&spaced);
    assert_eq!(
        (e.column, e.message.starts_with("line has 80 symbols;")),
        (2, true)
    );
    let e = one_err("hello");
    assert!(e.message.starts_with("line has 5 symbols;"));
    let e = one_err("x");
    assert!(e.message.starts_with("line has 1 symbol;"));
    let e = one_err(",,,");
    assert!(e.message.starts_with("line has 0 symbols;"));
}

#[test]
fn unknown_symbols() {
    let e = one_err(&E1.replacen('5', "a", 1));
    assert_eq!(
        e.to_string(),
        "t.txt:1:5: unknown symbol 'a' at r1c5: 9x9 digits are 1-9 and empty cells are \
         '.', '_' or '0'; replace it with one of those"
    );
    let e = one_err(&format!("{X4} too big").replace('4', "5"));
    assert_eq!((e.line, e.column), (1, 4));
    assert!(
        e.message
            .starts_with("unknown symbol '5' at r1c4: 4x4 digits are 1-4")
    );
    let e = one_err(&format!("{}Q", ".".repeat(624)));
    assert_eq!(e.column, 625);
    assert!(
        e.message
            .starts_with("unknown symbol 'Q' at r25c25: 25x25 digits are 1-9 and A-P")
    );
    let e = one_err(&format!("{}H", ".".repeat(255)));
    assert!(e.message.contains("16x16 digits are 1-9 and A-G"));
}

#[test]
fn zero_in_16x16_is_explained() {
    let g16 = Geometry::from_side(16).unwrap();
    let text = render_grid(&g16, &sample(g16)).replacen('.', "0", 1);
    let e = one_err(&text);
    assert_eq!(
        e.to_string(),
        "t.txt:1:1: '0' at r1c1 is not a 16x16 symbol: 16x16 digits are 1-9 and A-G and \
         empty cells are '.' or '_'; if this file numbers digits from 0 (0-F), add one to every digit"
    );
    let e = one_err(&"0".repeat(625));
    assert!(e.message.starts_with("'0' at r1c1 is not a 25x25 symbol"));
}

#[test]
fn grid_row_with_wrong_count_is_one_error() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells);
    let long = grid.replacen("7 . . | 9", "7 . . | 9 9", 1);
    let items = outcomes(&format!("{long}{E2}\n"));
    assert_eq!(
        items,
        [
            "t.txt:6:23: row 5 of this 9x9 grid has 10 symbols but needs exactly 9 \
             (spaces, '|' and '+' do not count); remove the extra ones",
            "ok 9x9 12",
        ]
    );
    let short = grid.replacen(". 6 3 | . 1", ". 6 3 | 1", 1);
    let items = outcomes(&format!("{short}{E2}\n"));
    assert_eq!(
        items,
        [
            "t.txt:10:1: row 8 of this 9x9 grid has 8 symbols but needs exactly 9 \
             (spaces, '|' and '+' do not count); add the missing cells, using '.' for empty ones",
            "ok 9x9 12",
        ]
    );
}

#[test]
fn grid_cut_short() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells);
    let lines: Vec<&str> = grid.lines().collect();
    let first_five = lines[..6].join("\n");
    assert_eq!(
        outcomes(&format!("# c\n{first_five}\n\n{E2}\n")),
        [
            "t.txt:2:1: this 9x9 grid has only 5 of its 9 rows (a blank line at line 8 ended it); \
             add the missing rows or remove the partial grid",
            "ok 9x9 9",
        ]
    );
    assert_eq!(
        outcomes(&first_five),
        [
            "t.txt:1:1: this 9x9 grid has only 5 of its 9 rows (the input ended); \
          add the missing rows or remove the partial grid"
        ]
    );
    assert_eq!(
        outcomes(&format!("{first_five}\n{E2} next\n")),
        [
            "t.txt:1:1: this 9x9 grid has only 5 of its 9 rows (line 7 holds a whole puzzle); \
             add the missing rows or remove the partial grid",
            "ok 9x9 7",
        ]
    );
}

#[test]
fn duplicates_are_located_in_the_file() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells).replacen("8 . 9", "8 . 1", 1);
    let e = one_err(&format!("#\n{grid}"));
    assert_eq!(
        e.to_string(),
        "t.txt:6:13: digit 1 at r4c6 repeats the 1 at r4c3 in row 4; remove one of them"
    );
    let e = one_err(&E1.replacen("14", "11", 1));
    assert_eq!(
        e.to_string(),
        "t.txt:1:2: digit 1 at r1c2 repeats the 1 at r1c1 in row 1; remove one of them"
    );
}

#[test]
fn errors_do_not_stop_reading() {
    let text = format!(
        "bad\n{E1}\n{}\n\n{E2}\nworse line\n",
        E1.replacen('4', "1", 1)
    );
    let got = outcomes(&text);
    assert_eq!(got.len(), 5);
    assert_eq!((got[1].as_str(), got[3].as_str()), ("ok 9x9 2", "ok 9x9 5"));
    assert!(got[2].starts_with("t.txt:3:"));
    assert!(
        got[4].starts_with("t.txt:6:1: line has 5 symbols"),
        "{got:?}"
    );
}

#[test]
fn an_input_without_puzzles_is_one_error() {
    for (text, line) in [
        ("", 1),
        ("\n\n# just a comment\n---+---\n  \n", 5),
        ("\u{FEFF}", 1),
    ] {
        let got = outcomes(text);
        assert_eq!(got.len(), 1, "{text:?}: {got:?}");
        assert!(
            got[0].starts_with(&format!("t.txt:{line}:1: no puzzle in this input")),
            "{got:?}"
        );
    }
}

#[test]
fn every_line_ending_separates_puzzles() {
    for text in [
        "1..4.........32.\n2..1.........13.\n",
        "1..4.........32.\r\n2..1.........13.\r\n",
        "1..4.........32.\r2..1.........13.\r",
    ] {
        assert_eq!(
            outcomes(text),
            ["ok 4x4 1", "ok 4x4 2"].map(String::from),
            "{text:?}"
        );
    }
}

#[test]
fn a_comment_that_is_not_utf8_is_still_skipped() {
    let got = read_bytes(b"# caf\xe9\n1..4.........32.\n");
    assert_eq!(got.len(), 1);
    assert!(got[0].is_ok(), "{got:?}");
}

#[test]
fn stdin_is_named_in_messages() {
    let items: Vec<_> = PuzzleReader::new(Cursor::new("oops"), "-").collect();
    assert!(
        items[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("<stdin>:1:1: ")
    );
    let items: Vec<_> = PuzzleReader::new(Cursor::new(E1), "-").collect();
    assert_eq!(items[0].as_ref().unwrap().origin.file, "<stdin>");
}

/// Hands out its bytes, then fails, like a disk error mid-file.
struct Failing(Cursor<Vec<u8>>);
impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn io_error_ends_the_input_with_one_error() {
    for tail in ["", "1 4 . | . 5 3 | 6 . .\n", &format!("{X4}\n")] {
        let input = format!("{E1}\n{tail}").into_bytes();
        let reader = BufReader::new(Failing(Cursor::new(input)));
        let got: Vec<String> = PuzzleReader::new(reader, "f")
            .map(|r| r.map_or_else(|e| e.to_string(), |_| "ok".to_string()))
            .collect();
        let line = if tail.is_empty() { 2 } else { 3 };
        let io = format!("f:{line}:1: cannot read the input: disk on fire");
        if tail.starts_with(X4) {
            // The lone 4x4 line is complete; the failure shows up in the lookahead.
            assert_eq!(got, ["ok", "ok", io.as_str()]);
        } else {
            assert_eq!(got, ["ok", io.as_str()], "{tail:?}");
        }
    }
}

#[test]
fn arbitrary_bytes_never_panic() {
    // Inputs built mostly from characters the reader cares about, so that
    // all its paths get exercised; a tiny xorshift keeps the test deterministic.
    let alphabet: &[u8] = b"123456789ABCDEFGP0._|+-= \t\n\n\r#,:;x\xFF\xEF\xBB\xBF";
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for round in 0..300 {
        let len = 1 + round * 7;
        let mut bytes = Vec::with_capacity(len);
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bytes.push(alphabet[(state % alphabet.len() as u64) as usize]);
        }
        let _ = read_bytes(&bytes);
    }
    // Structured near-misses: rows of 16 and lines of 81 with noise.
    for k in 0..40 {
        let row = "123456789ABCDEFG".repeat(1 + k % 3);
        let text = format!(
            "{row}\n{}\n{}\n\n{row}",
            &row[..(k % 16) + 1],
            E1.repeat(k % 4)
        );
        let _ = read(&text);
    }
}

#[test]
fn text_line_of_grid_length_is_not_a_grid() {
    // "Puzzle 123" has 9 non-space characters, but is no grid row.
    assert_eq!(
        outcomes(&format!("Puzzle 123\n{E1}\n")),
        [
            "t.txt:1:1: line has 6 symbols; a puzzle line needs 16, 81, 256 or 625 \
             (4x4, 9x9, 16x16, 25x25)",
            "ok 9x9 2",
        ]
    );
}

#[test]
fn typo_in_first_grid_row_is_reported_as_a_symbol() {
    let g = Geometry::from_side(9).unwrap();
    let grid = render_grid(&g, &one(E1).cells).replacen("1 4", "1 X", 1);
    assert_eq!(
        outcomes(&format!("{grid}\n{E2}")),
        [
            "t.txt:1:3: unknown symbol 'X' at r1c2: 9x9 digits are 1-9 and empty cells are \
             '.', '_' or '0'; replace it with one of those",
            "ok 9x9 13",
        ]
    );
}

#[test]
fn a_csv_header_line_is_skipped() {
    // The Kaggle sets start with `quizzes,solutions` (issue 14, item 10:
    // the header was reported as a bad puzzle).
    let input = format!("quizzes,solutions\n{E1},{E1}\n");
    let items: Vec<_> = PuzzleReader::new(Cursor::new(input), "k.csv").collect();
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0].as_ref().expect("a puzzle").origin.line, 2);
    // Only on the first line, and only names: a later one is an error.
    let input = format!("{E1}\nquizzes,solutions\n");
    let items: Vec<_> = PuzzleReader::new(Cursor::new(input), "k.csv").collect();
    assert_eq!(items.len(), 2);
    assert!(items[1].is_err());
}

#[test]
fn a_region_map_of_the_wrong_length_is_an_error_not_a_label() {
    // It was read as a label and the jigsaw solved as a classic Sudoku
    // (issue 14, item 10). A short word after the puzzle stays a label.
    let map = "AAABBCCCCAAABBBCCCAADBBBBCCADDEEEFFFDDDEEEFFFDDDEEHFFFGGGEHHIIIGGGHHHIIIGGGHHHII";
    let e = one_err(&format!("{E1} {map}"));
    assert_eq!((e.line, e.column), (1, 83));
    assert!(
        e.message.contains("80 letters but needs 81"),
        "{}",
        e.message
    );
    assert!(one(&format!("{E1} Easy")).regions.is_none());
}

/// A HoDoKu library line (locked candidates, `0100`), as in its regression
/// library: givens with `+` before placed digits, then deleted candidates.
const HODOKU: &str = ":0100:1:.+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9:811 515 715 538 761 595 795:193 198::";

/// The candidate line of a 9x9 puzzle's givens: a given keeps its digit
/// only, an empty cell every digit, except those in `removed`.
fn candidate_line(cells: &[u8], removed: &[(usize, u8)]) -> String {
    let mut out = String::new();
    for (cell, &d) in cells.iter().enumerate() {
        for k in 1..=9u8 {
            let keep = if d == 0 {
                !removed.contains(&(cell, k))
            } else {
                k == d
            };
            out.push(if keep { char::from(b'0' + k) } else { '.' });
        }
    }
    out
}

#[test]
fn a_candidate_line_is_a_pencil_mark_state() {
    let cells: Vec<u8> = E1
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let line = candidate_line(&cells, &[(2, 7), (2, 9), (80, 1)]);
    assert_eq!(line.len(), 729);
    let p = one(&format!("{line} stuck here\n"));
    assert_eq!(p.geometry.n, 9);
    assert_eq!(p.label, "stuck here");
    // A cell with one candidate is a given (the line cannot tell a given
    // from a digit placed later); the others are open, with their marks.
    assert_eq!(p.cells, cells);
    let marks = p.marks.expect("marks");
    assert!(marks.entered.iter().all(|&d| d == 0));
    assert_eq!(marks.removed[2], 1 << 7 | 1 << 9);
    assert_eq!(marks.removed[80], 1 << 1);
    // r1c1 holds the given 1: every other digit is removed.
    assert_eq!(marks.removed[0], (2..=9).fold(0, |m, d| m | 1 << d));
    assert_eq!(p.positions[1], (1, 10));
}

#[test]
fn a_candidate_line_reports_a_cell_without_candidates_and_bad_characters() {
    let mut line = candidate_line(&[0; 81], &[]);
    line.replace_range(9 * 13..9 * 14, ".........");
    let e = one_err(&line);
    assert_eq!((e.line, e.column), (1, 9 * 13 + 1));
    assert!(e.message.contains("r2c5 has no candidate left"), "{e}");
    line.replace_range(9 * 13..9 * 14, "12345678x");
    let e = one_err(&line);
    assert_eq!(e.column, 9 * 14);
    assert!(e.message.contains("'x' is no candidate of r2c5"), "{e}");
}

#[test]
fn a_hodoku_line_keeps_givens_placed_digits_and_deleted_candidates() {
    let p = one(&format!("{HODOKU}\n"));
    assert_eq!(p.label, "0100");
    let marks = p.marks.clone().expect("marks");
    // `.+92`: r1c2 was placed (9), r1c3 is a given (2).
    assert_eq!((p.cells[1], marks.entered[1]), (0, 9));
    assert_eq!((p.cells[2], marks.entered[2]), (2, 0));
    assert_eq!(p.positions[2], (1, 12));
    // `811`: 8 deleted from r1c1; `595` and `795`: 5 and 7 from r9c5.
    assert_eq!(marks.removed[0], 1 << 8);
    assert_eq!(marks.removed[76], 1 << 5 | 1 << 7);
    assert_eq!(marks.removed_candidates().len(), 7);
    assert_eq!(marks.entered_digits().len(), 17);
}

#[test]
fn a_hodoku_line_reports_impossible_states_where_they_are_written() {
    // Deleting the digit a cell holds.
    let bad = HODOKU.replace(":811 ", ":811 912 ");
    let e = one_err(&bad);
    assert!(e.message.contains("r1c2 holds 9"), "{e}");
    assert_eq!(e.column, HODOKU.find(":811").unwrap() + 6);
    // A malformed deleted candidate.
    let e = one_err(&HODOKU.replace(":811 ", ":81 "));
    assert!(e.message.contains("'81' is no deleted candidate"), "{e}");
    // Every candidate of r1c1 deleted.
    let all: Vec<String> = (1..=9)
        .filter(|&d| d != 8)
        .map(|d| format!("{d}11"))
        .collect();
    let e = one_err(&HODOKU.replace(":811 ", &format!(":811 {} ", all.join(" "))));
    assert!(e.message.contains("r1c1 has no candidate left"), "{e}");
    assert_eq!(e.column, 9);
    // A placed digit that repeats a given.
    let e = one_err(&HODOKU.replacen(".+92", "+292", 1));
    assert!(e.message.contains('2'), "{e}");
    // A '+' with no digit after it.
    let e = one_err(&HODOKU.replacen("3.+9:811", "3.9+:811", 1));
    assert!(e.message.contains("a '+' ends the givens field"), "{e}");
    assert_eq!(e.column, HODOKU.find(":811").unwrap());
    // Too few fields, too few cells.
    assert!(one_err(":0100:1:").message.contains("fewer fields"));
    assert!(one_err(":0100:1:123::").message.contains("has 3 cells"));
}

/// A pencil-mark state of any size: the `sample` grid's digits, and for
/// each open cell its solution digit and one or two more candidates.
fn sample_state(g: Geometry) -> (Vec<u8>, Vec<u32>) {
    let (b, n) = (g.box_size, g.n);
    let cells = sample(g);
    let candidates = (0..g.cell_count())
        .map(|cell| {
            let (r, c) = (g.row_of(cell), g.col_of(cell));
            let digit = (b * (r % b) + r / b + c) % n + 1;
            let other = digit % n + 1;
            let third = (digit + cell) % n + 1;
            let mask = 1u32 << digit | 1 << other;
            if cell % 3 == 0 {
                mask | 1 << third
            } else {
                mask
            }
        })
        .collect();
    (cells, candidates)
}

/// The state's candidates as [`Puzzle::candidate_masks`] gives them.
fn masks_of(g: Geometry, cells: &[u8], candidates: &[u32]) -> Vec<u32> {
    cells
        .iter()
        .zip(candidates)
        .map(|(&d, &m)| if d == 0 { m & g.digit_mask() } else { 1 << d })
        .collect()
}

#[test]
fn a_pencil_mark_grid_reads_as_its_state_for_every_size() {
    use crate::grid::render_candidates;
    for g in Geometry::all() {
        let (cells, candidates) = sample_state(g);
        let text = render_candidates(&g, &cells, &candidates);
        let p = one(&text);
        assert_eq!(p.geometry, g, "{text}");
        assert_eq!(
            p.candidate_masks(),
            masks_of(g, &cells, &candidates),
            "{text}"
        );
        // Placed digits are givens; open cells are open.
        assert_eq!(p.cells, cells, "{text}");
        assert!(p.marks.is_some());
    }
}

#[test]
fn the_grid_output_with_its_candidates_block_reads_back_as_the_same_state() {
    use crate::grid::render_candidates_comment;
    for g in Geometry::all() {
        let (cells, mut candidates) = sample_state(g);
        // An open cell with one candidate left: the block writes it as one
        // digit, and the grid above says the cell is open.
        candidates[1] = 1 << 2;
        let mut cells = cells;
        cells[1] = 0;
        let text = format!(
            "# puzzle 1 (x.txt:1): stalled\n{}{}# stats: 1 steps\n",
            render_grid(&g, &cells),
            render_candidates_comment(&g, &cells, &candidates)
        );
        let p = one(&text);
        assert_eq!(p.geometry, g);
        assert_eq!(p.cells, cells, "{text}");
        assert_eq!(
            p.candidate_masks(),
            masks_of(g, &cells, &candidates),
            "{text}"
        );
        assert_eq!(p.candidate_masks()[1], 1 << 2);
        // Without its block, the same grid is only its digits.
        let bare: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(one(&bare).marks.is_none());
    }
}

#[test]
fn a_jigsaw_grid_takes_the_block_under_its_region_map() {
    use crate::grid::{render_candidates_comment, render_jigsaw};
    let g = Geometry::from_side(4).unwrap();
    let cells = vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4];
    let regions = [0u8, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
    let mut candidates = vec![0b11110u32; 16];
    candidates[5] = 0b01100;
    let text = format!(
        "{}{}",
        render_jigsaw(&g, &cells, &regions),
        render_candidates_comment(&g, &cells, &candidates)
    );
    let p = one(&text);
    assert!(p.regions.is_some(), "{text}");
    assert_eq!(p.candidate_masks()[5], 0b01100);
    assert_eq!(p.candidate_masks()[0], 1 << 1);
}

/// The state of HoDoKu's print of a pencil-mark grid (borders `.---.`,
/// `:---+`, `'---'`; a width per column), with one cell changed by `edit`.
const HODOKU_PM: &str = "\
.----------------.--------------.------------.
| 16    8    3   | 5   2    14  | 46  9   7  |
| 4567  456  457 | 8   67   9   | 1   2   3  |
| 167   2    9   | 3   167  147 | 46  5   8  |
:----------------+--------------+------------:
| 2     345  145 | 6   9    8   | 7   13  45 |
| 489   7    148 | 12  5    3   | 28  6   49 |
| 589   359  6   | 7   4    12  | 28  13  59 |
:----------------+--------------+------------:
| 3     45   457 | 14  17   6   | 9   8   2  |
| 469   469  2   | 49  8    5   | 3   7   1  |
| 789   1    78  | 29  3    27  | 5   4   6  |
'----------------'--------------'------------'
";

#[test]
fn hodoku_and_sudoku_explainer_borders_frame_a_pencil_mark_grid() {
    let p = one(HODOKU_PM);
    assert_eq!(p.origin.line, 2);
    assert_eq!(p.cells[1], 8);
    assert_eq!(p.cells[0], 0);
    assert_eq!(p.candidate_masks()[0], 1 << 1 | 1 << 6);
    assert_eq!(p.positions[9], (3, 3));
    let se = HODOKU_PM
        .replace(
            ".----------------.--------------.------------.",
            "*--------------------------------------------*",
        )
        .replace(
            "'----------------'--------------'------------'",
            "*--------------------------------------------*",
        )
        .replace(
            ":----------------+--------------+------------:",
            "|----------------+--------------+------------|",
        );
    assert_eq!(one(&se).candidate_masks(), p.candidate_masks());
}

#[test]
fn a_pencil_mark_grid_may_start_with_a_row_of_placed_digits() {
    use crate::grid::render_candidates;
    for g in [
        Geometry::from_side(9).unwrap(),
        Geometry::from_side(16).unwrap(),
    ] {
        let (mut cells, candidates) = sample_state(g);
        // Row 1 of the sample's solution is 1..=n.
        for (c, cell) in cells.iter_mut().take(g.n).enumerate() {
            *cell = (c + 1) as u8;
        }
        let text = render_candidates(&g, &cells, &candidates);
        assert!(
            text.lines()
                .next()
                .unwrap()
                .split_whitespace()
                .all(|w| w.len() == 1 || w == "|")
        );
        let p = one(&text);
        assert_eq!(p.geometry, g, "{text}");
        assert_eq!(
            p.candidate_masks(),
            masks_of(g, &cells, &candidates),
            "{text}"
        );
    }
}

#[test]
fn pencil_mark_errors_are_located_and_name_the_cell() {
    // A symbol that is no digit of the grid.
    let e = one_err(&HODOKU_PM.replace("| 4567  456  457 |", "| 4567  456  4x7 |"));
    assert_eq!((e.line, e.column), (3, 15));
    assert!(
        e.message
            .contains("'x' is no digit of a 9x9 grid, in the candidates of r2c3"),
        "{e}"
    );
    // A cell without candidates.
    let e = one_err(&HODOKU_PM.replace("| 4567  456  457 |", "| 4567  .    457 |"));
    assert_eq!((e.line, e.column), (3, 9));
    assert!(e.message.contains("r2c2 has no candidate left"), "{e}");
    // A row with eight cells.
    let e = one_err(&HODOKU_PM.replace("| 4567  456  457 |", "| 4567  456       |"));
    assert_eq!(e.line, 3);
    assert!(
        e.message
            .contains("row 2 of this 9x9 pencil-mark grid has 8 cells but needs exactly 9"),
        "{e}"
    );
    // A row with ten: located at the extra word.
    let e = one_err(&HODOKU_PM.replace("| 4567  456  457 |", "| 4567  456  45 7 |"));
    assert_eq!((e.line, e.column), (3, 44));
    // Two givens 8 in row 1.
    let e = one_err(&HODOKU_PM.replace("| 16    8 ", "| 8     8 "));
    assert!(e.message.contains('8'), "{e}");
    // A missing row.
    let cut: String = HODOKU_PM
        .lines()
        .filter(|l| !l.starts_with("| 489"))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = one_err(&cut);
    assert!(e.message.contains("only 8 of its 9 rows"), "{e}");
}

#[test]
fn a_typo_in_the_first_row_is_an_error_there_and_prose_never_swallows_a_grid() {
    let bad = HODOKU_PM.replace("| 16    8 ", "| 1y    8 ");
    let e = one_err(&bad);
    assert_eq!((e.line, e.column), (2, 4));
    assert!(
        e.message
            .contains("'y' is no digit of a 9x9 grid, in the candidates of r1c1"),
        "{e}"
    );
    // A sentence of nine words before a plain grid stays an error of its own.
    let g = Geometry::from_side(9).unwrap();
    let text = format!(
        "This is a line of text with nine words\n{}",
        render_grid(&g, &one(E1).cells)
    );
    let items = read(&text);
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(items[0].is_err());
    assert_eq!(render_line(&g, &items[1].as_ref().unwrap().cells), E1);
}

#[test]
fn a_bad_candidates_block_is_an_error_of_its_grid() {
    use crate::grid::render_candidates_comment;
    let g = Geometry::from_side(9).unwrap();
    let cells = one(E1).cells;
    let candidates: Vec<u32> = cells.iter().map(|_| g.digit_mask()).collect();
    let grid = render_grid(&g, &cells);
    let block = render_candidates_comment(&g, &cells, &candidates);
    let text = format!("{grid}{block}");
    assert!(one(&text).marks.is_some());
    // r1c1 holds 1 in the grid; the block gives it 2.
    let e = one_err(&text.replacen("#   1 ", "#   2 ", 1));
    assert_eq!((e.line, e.column), (13, 5));
    assert!(
        e.message
            .contains("r1c1 holds 1 in the grid above, but its candidates here are '2'"),
        "{e}"
    );
    // The block stops after 8 rows, then the next puzzle follows.
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop();
    let short = format!("{}\n{E2}\n", lines.join("\n"));
    let items = read(&short);
    assert_eq!(items.len(), 2, "{items:?}");
    let e = items[0].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (12, 1));
    assert!(
        e.message
            .contains("only 8 of its 9 rows (line 23 is no comment)"),
        "{e}"
    );
    assert!(items[1].is_ok());
    // A block row with a cell missing.
    let e = one_err(&text.replacen("#   1 ", "#   ", 1));
    assert_eq!(e.line, 13);
    assert!(
        e.message
            .contains("row 1 of the candidates block under this 9x9 grid has 8 cells"),
        "{e}"
    );
    // An open cell without candidates in the block.
    let open = text.lines().nth(12).unwrap();
    let emptied = open.replacen("123456789", ".        ", 1);
    let e = one_err(&text.replacen(open, &emptied, 1));
    assert!(e.message.contains("r1c3 has no candidate left"), "{e}");
}

#[test]
fn a_candidate_line_keeps_a_jigsaw_region_map() {
    let g = Geometry::from_side(4).unwrap();
    let line = crate::grid::render_candidate_line(
        &g,
        &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        &[0b11110; 16],
    );
    let p = one(&format!("{line} AABBAABBCCDDCCDD state"));
    assert!(p.regions.is_some());
    assert_eq!(p.label, "state");
    assert_eq!(p.candidate_masks()[0], 1 << 1);
    let e = one_err(&format!("{line} AABBAABBCCDDCCDE"));
    assert_eq!(e.column, 64 + 2 + 15);
}

#[test]
fn clue_lines_belong_to_the_puzzle_above() {
    let input = format!(
        "{E1}\ncage(r1c1, 1). cage_sum(1, 3).\n\n# a comment\ncage(r1c2, 1).\n{E2}\n{E1} name\n"
    );
    let items = read(&input);
    assert_eq!(items.len(), 3, "{items:?}");
    let first = items[0].as_ref().unwrap();
    let names: Vec<String> = first.clues.iter().map(|f| f.to_string()).collect();
    assert_eq!(
        names,
        ["cage(r1c1, 1).", "cage_sum(1, 3).", "cage(r1c2, 1)."]
    );
    assert_eq!((first.clues[2].line, first.clues[2].column), (5, 1));
    assert!(items[1].as_ref().unwrap().clues.is_empty());
    assert_eq!(items[2].as_ref().unwrap().origin.line, 7);
}

#[test]
fn clues_follow_a_grid_and_its_region_map() {
    let grid: String = E1
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
        .collect();
    let p = one(&format!("{grid}even(r2c2).\n"));
    assert_eq!(p.clues.len(), 1);
}

#[test]
fn a_bad_clue_is_its_puzzle_error_and_the_next_puzzle_reads() {
    let input = format!("{E1}\ncage(r1c1, 1)\ncage(r1c2, 1).\n{E2}\n");
    assert_eq!(
        outcomes(&input),
        [
            "t.txt:2:14: expected `.` to end the fact `cage(...)`, found the end of the line; a clue line holds facts such as `cage(r1c1, 1). cage_sum(1, 15).`: a relation's name, its values (cells like `r3c5`, whole numbers) in parentheses, and a `.`",
            "ok 9x9 4"
        ]
    );
    // Clues after a bad puzzle are skipped with it: one result per puzzle.
    let input = format!("{}x\ncage(r1c1, 1).\n{E2}\n", &E1[..80]);
    let out = outcomes(&input);
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[1], "ok 9x9 3");
}

#[test]
fn clues_before_any_puzzle_are_an_error() {
    let out = outcomes(&format!("cage(r1c1, 1).\ncage(r1c2, 1).\n{E1}\n"));
    assert_eq!(
        out,
        [
            "t.txt:1:1: clue facts before any puzzle: put them on the lines right after the puzzle they belong to",
            "ok 9x9 3"
        ]
    );
}

#[test]
fn clue_facts_per_puzzle_are_bounded() {
    // 9 facts per line, 73 lines: 657 facts, past 8 per cell (648).
    let line = "even(r1c1). ".repeat(9);
    let lines: String = std::iter::repeat_n(format!("{line}\n"), 73).collect();
    let input = format!("{E1}\n{lines}{E2}\n");
    let out = outcomes(&input);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("t.txt:74:1: more than 648 clue facts for one puzzle"),
        "{out:?}"
    );
    assert_eq!(out[1], "ok 9x9 75");
    // Up to the bound, they are read.
    let lines: String = std::iter::repeat_n(format!("{line}\n"), 72).collect();
    assert_eq!(one(&format!("{E1}\n{lines}")).clues.len(), 648);
}
