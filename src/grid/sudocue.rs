//! SudoCue's killer format (also SumoCue's and the forums'): one line,
//! `3x3::k:` and then a value per cell, each ending with `:`, where a
//! value is the cage's sum times 256 plus the cage's number, and a value
//! below 256 a cell in no cage. Read into an empty grid with the cages as
//! clue facts, `cage(C, G)` and `cage_sum(G, S)`, for `--variant killer`.

use super::clues::{ClueFact, ClueValue, MAX_CLUE_NUMBER};
use super::{Geometry, Origin, Puzzle, PuzzleError};

/// Where SudoCue's killer lines start.
pub const PREFIX: &str = "3x3:";

/// Whether a line is a SudoCue killer line.
pub fn is_sudocue_line(text: &str) -> bool {
    text.trim_start().starts_with(PREFIX)
}

/// Reads a SudoCue killer line (the text after it is the puzzle's label).
pub fn read_sudocue_line(text: &str, origin: Origin) -> Result<Puzzle, PuzzleError> {
    let line = origin.line;
    let indent = text.len() - text.trim_start().len();
    let body = text.trim_start();
    let err = |byte: usize, message: String| {
        let column = text[..indent + byte].chars().count() + 1;
        PuzzleError::new(&origin.file, line, column, message)
    };
    let (token, label) = match body.find(char::is_whitespace) {
        Some(end) => (&body[..end], body[end..].trim()),
        None => (body, ""),
    };
    let rest = &token[PREFIX.len()..];
    let Some(flags_end) = rest.find(':') else {
        return Err(err(
            token.len(),
            "a SudoCue killer line goes on `3x3::k:` and a value per cell".into(),
        ));
    };
    let flags = &rest[..flags_end];
    if flags.contains('d') {
        return Err(err(
            PREFIX.len(),
            "this killer also has the diagonal rule (`3x3:d:k:`); write `3x3::k:` and solve \
             with `--variant killer,x`"
                .into(),
        ));
    }
    if !flags.is_empty() {
        return Err(err(
            PREFIX.len(),
            format!("unknown SudoCue flags `{flags}`; a killer line starts `3x3::k:`"),
        ));
    }
    let after_flags = PREFIX.len() + flags_end + 1;
    let Some(values) = token[after_flags..].strip_prefix("k:") else {
        return Err(err(
            after_flags,
            "only SudoCue's killer lines (`3x3::k:`) are read".into(),
        ));
    };
    let mut start = after_flags + 2;
    let g = Geometry { box_size: 3, n: 9 };
    let mut cages: Vec<(i64, i64, usize)> = Vec::new(); // (number, sum, column)
    let mut clues = Vec::new();
    let mut positions = Vec::with_capacity(g.cell_count());
    let fields: Vec<&str> = values.split(':').collect();
    // Each value ends with `:`, so the last field is empty.
    let cells = fields.len().saturating_sub(1);
    if cells != g.cell_count() || fields.last() != Some(&"") {
        return Err(err(
            token.len(),
            format!(
                "a SudoCue killer line has 81 values, each ending with `:`; this one has {cells}{}",
                if fields.last() == Some(&"") {
                    ""
                } else {
                    " and does not end with `:`"
                }
            ),
        ));
    }
    for (cell, field) in fields[..cells].iter().enumerate() {
        let column = text[..indent + start].chars().count() + 1;
        let value: i64 = match field.parse() {
            Ok(v) if (0..=MAX_CLUE_NUMBER).contains(&v) => v,
            _ => {
                return Err(err(
                    start,
                    format!(
                        "`{field}` at {} is not a SudoCue value (the cage's sum times 256 plus its number)",
                        g.cell_name(cell)
                    ),
                ));
            }
        };
        positions.push((line, column));
        start += field.len() + 1;
        if value < 256 {
            continue;
        }
        let (sum, number) = (value / 256, value % 256);
        match cages.iter().find(|c| c.0 == number) {
            Some(&(_, known, _)) if known != sum => {
                return Err(err(
                    start - field.len() - 1,
                    format!(
                        "{} gives cage {number} the sum {sum}, but an earlier cell gave it {known}",
                        g.cell_name(cell)
                    ),
                ));
            }
            Some(_) => {}
            None => cages.push((number, sum, column)),
        }
        let (row, col) = (cell / g.n, cell % g.n);
        clues.push(ClueFact {
            relation: "cage".into(),
            args: vec![ClueValue::Cell(row, col), ClueValue::Number(number)],
            line,
            column,
            arg_columns: vec![column, column],
        });
    }
    for (number, sum, column) in cages {
        clues.push(ClueFact {
            relation: "cage_sum".into(),
            args: vec![ClueValue::Number(number), ClueValue::Number(sum)],
            line,
            column,
            arg_columns: vec![column, column],
        });
    }
    Ok(Puzzle {
        geometry: g,
        cells: vec![0; g.cell_count()],
        origin,
        positions,
        label: label.to_string(),
        regions: None,
        marks: None,
        clues,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            file: "k.txt".into(),
            line: 3,
        }
    }

    /// A line whose first two cells form cage 1 (sum 3), the rest cage 2
    /// (sum 402), and r9c9 in no cage.
    fn line() -> String {
        let mut v = vec![3 * 256 + 1, 3 * 256 + 1];
        v.extend(std::iter::repeat_n(402 * 256 + 2, 78));
        v.push(0);
        let values: String = v.iter().map(|x| format!("{x}:")).collect();
        format!("3x3::k:{values} a label")
    }

    #[test]
    fn reads_cages_and_sums() {
        let p = read_sudocue_line(&line(), origin()).unwrap();
        assert!(p.cells.iter().all(|&c| c == 0));
        assert_eq!(p.label, "a label");
        let facts: Vec<String> = p.clues.iter().map(|f| f.to_string()).collect();
        assert_eq!(facts[0], "cage(r1c1, 1).");
        assert_eq!(facts[1], "cage(r1c2, 1).");
        assert_eq!(facts.len(), 80 + 2);
        assert_eq!(facts[80], "cage_sum(1, 3).");
        assert_eq!(facts[81], "cage_sum(2, 402).");
        assert_eq!(p.clues[1].column, 12);
    }

    #[test]
    fn locates_mistakes() {
        let bad = line().replacen("769:", "x:", 1);
        let e = read_sudocue_line(&bad, origin()).unwrap_err();
        assert_eq!((e.line, e.column), (3, 8));
        assert!(e.message.contains("`x` at r1c1"), "{e}");
        let e = read_sudocue_line("3x3:d:k:1:", origin()).unwrap_err();
        assert!(e.message.contains("--variant killer,x"), "{e}");
        let huge = line().replacen("769:", "99999999999:", 1);
        let e = read_sudocue_line(&huge, origin()).unwrap_err();
        assert!(e.message.contains("`99999999999` at r1c1"), "{e}");
        let e = read_sudocue_line("3x3::k:1:2:", origin()).unwrap_err();
        assert!(e.message.contains("has 2"), "{e}");
        let bad = line().replacen("769:", "1025:", 1);
        let e = read_sudocue_line(&bad, origin()).unwrap_err();
        assert!(
            e.message
                .contains("r1c2 gives cage 1 the sum 3, but an earlier cell gave it 4"),
            "{e}"
        );
    }
}
