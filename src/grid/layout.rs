//! Recognises what a single text line is (skippable, separator, content)
//! and pulls out its symbols with their columns, so the reader only has to
//! decide how lines group into puzzles.

/// Lengths a whole puzzle written on one line can have (4x4 … 25x25).
pub(crate) const PUZZLE_LINE_LENGTHS: [usize; 4] = [16, 81, 256, 625];

/// What role a line plays before we know which puzzle it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Only whitespace; ends a grid block.
    Blank,
    /// Starts with `#`; ignored everywhere.
    Comment,
    /// Only `-`, `+`, `|`, `=` and spaces, or a border with `.`, `:`, `'`
    /// or `*` corners: drawing between grid rows.
    Separator,
    /// Anything else: a puzzle, a grid row, or an error.
    Content,
}

/// A character that may stand for a cell, with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sym {
    /// The character as written.
    pub ch: char,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
}

/// Classifies one line of text.
pub(crate) fn classify(text: &str) -> LineKind {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        LineKind::Blank
    } else if trimmed.starts_with('#') {
        LineKind::Comment
    } else if trimmed
        .chars()
        .all(|ch| matches!(ch, '-' | '+' | '|' | '=') || ch.is_whitespace())
        || is_border(trimmed)
    {
        LineKind::Separator
    } else {
        LineKind::Content
    }
}

/// Whether a line is the border of a drawn grid that also uses `.`, `:`,
/// `'` or `*` at its corners (HoDoKu's `.---.---.`, `:---+---:`,
/// `'---'---'`, Sudoku Explainer's `*-----*`). A run of dashes is required
/// so that a row of empty cells (`...`) stays a row.
fn is_border(trimmed: &str) -> bool {
    trimmed.contains("--")
        && trimmed.chars().all(|ch| {
            matches!(ch, '-' | '+' | '|' | '=' | '.' | ':' | '\'' | '*') || ch.is_whitespace()
        })
}

/// Whether a file's first line is the header of a CSV file of puzzles
/// (`quizzes,solutions` in the Kaggle sets): at least two comma-separated
/// names, each starting with a letter and none the length of a puzzle.
pub(crate) fn is_csv_header(text: &str) -> bool {
    let fields: Vec<&str> = text.trim().split(',').map(str::trim).collect();
    fields.len() >= 2
        && fields.iter().all(|f| {
            f.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && f.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ')
                && !PUZZLE_LINE_LENGTHS.contains(&f.len())
        })
}

/// The symbols of a grid row: everything except whitespace and the box
/// drawing characters `|` and `+`.
pub(crate) fn grid_symbols(text: &str, line: usize) -> Vec<Sym> {
    symbols_where(text, line, |ch| {
        !(ch.is_whitespace() || ch == '|' || ch == '+')
    })
}

/// Every non-whitespace character, for puzzles written with spaces between cells.
pub(crate) fn spaced_symbols(text: &str, line: usize) -> Vec<Sym> {
    symbols_where(text, line, |ch| !ch.is_whitespace())
}

fn symbols_where(text: &str, line: usize, keep: impl Fn(char) -> bool) -> Vec<Sym> {
    text.chars()
        .enumerate()
        .filter(|&(_, ch)| keep(ch))
        .map(|(i, ch)| Sym {
            ch,
            line,
            col: i + 1,
        })
        .collect()
}

/// Splits a one-puzzle-per-line line into its first token and the label
/// after it. The token ends at whitespace or at `,` `;` `:` so that CSV
/// (`puzzle,solution`) and tdoku (`puzzle:count:solution`) lines work; one
/// such delimiter is dropped from the label.
pub(crate) fn first_token(text: &str, line: usize) -> (Vec<Sym>, String) {
    let is_end = |ch: char| ch.is_whitespace() || matches!(ch, ',' | ';' | ':');
    let mut token = Vec::new();
    let mut rest = "";
    for (i, (byte_at, ch)) in text.char_indices().enumerate() {
        if is_end(ch) {
            if token.is_empty() && ch.is_whitespace() {
                continue;
            }
            rest = &text[byte_at..];
            break;
        }
        token.push(Sym {
            ch,
            line,
            col: i + 1,
        });
    }
    let rest = rest.trim_start();
    let rest = rest.strip_prefix([',', ';', ':']).unwrap_or(rest);
    (token, rest.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(syms: &[Sym]) -> String {
        syms.iter().map(|s| s.ch).collect()
    }

    #[test]
    fn classifies_lines() {
        assert_eq!(classify(""), LineKind::Blank);
        assert_eq!(classify(" \t "), LineKind::Blank);
        assert_eq!(classify("# note"), LineKind::Comment);
        assert_eq!(classify("  #1 2 3"), LineKind::Comment);
        assert_eq!(classify("------+-------+------"), LineKind::Separator);
        assert_eq!(classify("===|==="), LineKind::Separator);
        assert_eq!(classify("| |"), LineKind::Separator);
        assert_eq!(classify("1 2 | 3 4"), LineKind::Content);
        assert_eq!(classify("...."), LineKind::Content);
        assert_eq!(classify(".----.----."), LineKind::Separator);
        assert_eq!(classify(":----+----:"), LineKind::Separator);
        assert_eq!(classify("'----'----'"), LineKind::Separator);
        assert_eq!(classify("*-----------*"), LineKind::Separator);
        assert_eq!(classify(". . . | . . ."), LineKind::Content);
        assert_eq!(classify(".-."), LineKind::Content);
    }

    #[test]
    fn grid_symbols_keep_columns() {
        let syms = grid_symbols("1 2 | .\t4", 7);
        assert_eq!(chars(&syms), "12.4");
        assert_eq!(
            syms.iter().map(|s| s.col).collect::<Vec<_>>(),
            vec![1, 3, 7, 9]
        );
        assert!(syms.iter().all(|s| s.line == 7));
        assert_eq!(chars(&spaced_symbols(" 1 2 | 3", 1)), "12|3");
    }

    #[test]
    fn tokens_and_labels() {
        let (t, label) = first_token("  12.4 easy one  ", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("12.4", "easy one"));
        assert_eq!(t[0].col, 3);
        let (t, label) = first_token("12.4,3214", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("12.4", "3214"));
        let (t, label) = first_token("12.4:1:3214", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("12.4", "1:3214"));
        let (t, label) = first_token("12.4 ; x", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("12.4", "x"));
        let (t, label) = first_token("é1 ü", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("é1", "ü"));
        let (t, label) = first_token(",x", 1);
        assert_eq!((chars(&t).as_str(), label.as_str()), ("", "x"));
    }
}
