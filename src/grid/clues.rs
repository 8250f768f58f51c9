//! Clues that travel with a puzzle: facts such as `cage(r1c1, 1).
//! cage_sum(1, 15).` on the lines after it, for the variants whose
//! constraints differ from puzzle to puzzle (killer cages, thermometers,
//! arrows, kropki dots). The reader only reads them; which relations they
//! may name, and with which columns, is the rules' business (`.input` in a
//! rule file), checked when a solve starts.

use super::{Geometry, PuzzleError};

/// One value of a clue fact: the rule language's cell constants and whole
/// numbers (a puzzle names no symbols: those are the rules').
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClueValue {
    /// A cell, 0-based row and column (`r1c1` is `(0, 0)`).
    Cell(usize, usize),
    /// A whole number.
    Number(i64),
}

impl std::fmt::Display for ClueValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClueValue::Cell(r, c) => write!(f, "r{}c{}", r + 1, c + 1),
            ClueValue::Number(v) => write!(f, "{v}"),
        }
    }
}

/// A fact a puzzle carries, with where it is written so that a fact the
/// rules do not accept is reported at its place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClueFact {
    /// The relation it adds to.
    pub relation: String,
    /// Its values, one per column.
    pub args: Vec<ClueValue>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) of the relation's name.
    pub column: usize,
    /// 1-based column of each value.
    pub arg_columns: Vec<usize>,
}

impl std::fmt::Display for ClueFact {
    /// As it is written: `cage(r1c1, 1).`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(", self.relation)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        f.write_str(").")
    }
}

/// The most clue facts one puzzle may carry, per cell of its grid: a
/// killer has about one and a half, kropki dots at most two, so eight
/// leaves room for any layout while a runaway file (a million clue lines
/// after one puzzle) stops early, as an error of that puzzle.
pub const MAX_CLUES_PER_CELL: usize = 8;

/// The largest number a clue may give, so that sums and products of clues
/// in rules stay far from the engine's 32-bit values.
pub const MAX_CLUE_NUMBER: i64 = i32::MAX as i64 / 2;

/// A puzzle's clue facts as clue lines (each ending with a newline, about
/// 100 characters wide), which read back with the puzzle above them.
pub fn render_clues(facts: &[ClueFact]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for fact in facts {
        let text = fact.to_string();
        if width > 0 && width + 1 + text.len() > 100 {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        width += text.len();
        out.push_str(&text);
    }
    if width > 0 {
        out.push('\n');
    }
    out
}

/// Whether a line holds clue facts: its first word is a lowercase name
/// followed by `(` (no puzzle line, region map or label starts so).
pub fn is_clue_line(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let name_len = t
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(t.len());
    name_len > 0
        && t.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && t[name_len..].trim_start().starts_with('(')
}

/// Reads the facts of one clue line (`name(v, ...).` one after another),
/// checking that every cell lies in a grid of size `g`.
pub fn read_clue_line(
    text: &str,
    line: usize,
    file: &str,
    g: Geometry,
) -> Result<Vec<ClueFact>, PuzzleError> {
    let chars: Vec<char> = text.chars().collect();
    let mut s = Scanner {
        chars: &chars,
        pos: 0,
        line,
        file,
    };
    let mut facts = Vec::new();
    loop {
        s.skip_blanks();
        if s.at_end() {
            return Ok(facts);
        }
        facts.push(s.fact(g)?);
    }
}

/// The characters of one line and the place reached in them.
struct Scanner<'a> {
    chars: &'a [char],
    pos: usize,
    line: usize,
    file: &'a str,
}

const CLUE_HELP: &str = "a clue line holds facts such as `cage(r1c1, 1). cage_sum(1, 15).`: \
     a relation's name, its values (cells like `r3c5`, whole numbers) in parentheses, and a `.`";

impl Scanner<'_> {
    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_blanks(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
        {
            self.pos += 1;
        }
    }

    fn error(&self, at: usize, message: impl Into<String>) -> PuzzleError {
        PuzzleError::new(self.file, self.line, at + 1, message)
    }

    /// What the scanner found where it expected something else, for
    /// messages: the character, or the end of the line.
    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end of the line".to_string(),
        }
    }

    fn word(&mut self) -> &[char] {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '+')
        {
            self.pos += 1;
        }
        &self.chars[start..self.pos]
    }

    fn expect(&mut self, want: char, what: &str) -> Result<(), PuzzleError> {
        self.skip_blanks();
        if self.peek() == Some(want) {
            self.pos += 1;
            return Ok(());
        }
        Err(self.error(
            self.pos,
            format!("expected {what}, found {}; {CLUE_HELP}", self.found()),
        ))
    }

    fn fact(&mut self, g: Geometry) -> Result<ClueFact, PuzzleError> {
        let column = self.pos;
        let name: String = self.word().iter().collect();
        let valid_name = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid_name {
            let shown = if name.is_empty() {
                self.found()
            } else {
                format!("`{name}`")
            };
            return Err(self.error(
                column,
                format!("expected a relation's name, found {shown}; {CLUE_HELP}"),
            ));
        }
        self.expect('(', &format!("`(` after `{name}`"))?;
        let mut args = Vec::new();
        let mut arg_columns = Vec::new();
        self.skip_blanks();
        if self.peek() == Some(')') {
            self.pos += 1;
        } else {
            loop {
                self.skip_blanks();
                arg_columns.push(self.pos + 1);
                args.push(self.value(g)?);
                self.skip_blanks();
                match self.peek() {
                    Some(',') => self.pos += 1,
                    Some(')') => {
                        self.pos += 1;
                        break;
                    }
                    _ => {
                        return Err(self.error(
                            self.pos,
                            format!(
                                "expected `,` or `)` in the facts of `{name}`, found {}",
                                self.found()
                            ),
                        ));
                    }
                }
            }
        }
        self.expect('.', &format!("`.` to end the fact `{name}(...)`"))?;
        Ok(ClueFact {
            relation: name,
            args,
            line: self.line,
            column: column + 1,
            arg_columns,
        })
    }

    fn value(&mut self, g: Geometry) -> Result<ClueValue, PuzzleError> {
        let at = self.pos;
        let word: String = self.word().iter().collect();
        if let Ok(v) = word.parse::<i64>() {
            return if v.abs() <= MAX_CLUE_NUMBER {
                Ok(ClueValue::Number(v))
            } else {
                Err(self.error(at, format!("the number {word} is too large for a clue")))
            };
        }
        if let Some((row, col)) = super::cell_name_coords(&word) {
            if row == 0 || col == 0 || row > g.n || col > g.n {
                return Err(self.error(
                    at,
                    format!(
                        "cell {word} lies outside the {n}x{n} grid; rows and columns go from 1 to {n}",
                        n = g.n
                    ),
                ));
            }
            return Ok(ClueValue::Cell(row - 1, col - 1));
        }
        let shown = if word.is_empty() {
            self.found()
        } else {
            format!("`{word}`")
        };
        Err(self.error(
            at,
            format!(
                "expected a cell such as `r3c5` or a whole number, found {shown}; a clue's \
                 values are cells and numbers only"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G9: Geometry = Geometry { box_size: 3, n: 9 };

    #[test]
    fn tells_clue_lines_from_puzzles() {
        assert!(is_clue_line("cage(r1c1, 1). cage_sum(1, 3)."));
        assert!(is_clue_line("  thermo (1, 1, r2c2)."));
        assert!(!is_clue_line("..3.2.6..9..3.5..1"));
        assert!(!is_clue_line("AAABBBCCC"));
        assert!(!is_clue_line("Cage(r1c1, 1)."));
        assert!(!is_clue_line("cage"));
    }

    #[test]
    fn reads_facts_with_their_places() {
        let facts = read_clue_line("cage(r1c1, 1).  cage_sum(1, -15).", 4, "f", G9).unwrap();
        assert_eq!(facts.len(), 2);
        assert_eq!(facts[0].relation, "cage");
        assert_eq!(facts[0].args, [ClueValue::Cell(0, 0), ClueValue::Number(1)]);
        assert_eq!((facts[0].line, facts[0].column), (4, 1));
        assert_eq!(facts[0].arg_columns, [6, 12]);
        assert_eq!(
            facts[1].args,
            [ClueValue::Number(1), ClueValue::Number(-15)]
        );
        assert_eq!(facts[1].column, 17);
        assert_eq!(facts[1].to_string(), "cage_sum(1, -15).");
        assert!(
            read_clue_line("flag().", 1, "f", G9).unwrap()[0]
                .args
                .is_empty()
        );
    }

    #[test]
    fn clues_render_as_lines_that_read_back() {
        let line: String = (1..=30)
            .map(|i| format!("cage(r1c{}, {i}). ", i % 9 + 1))
            .collect();
        let facts = read_clue_line(&line, 1, "f", G9).unwrap();
        let text = render_clues(&facts);
        assert!(text.lines().all(|l| l.len() <= 100), "{text}");
        let again: Vec<ClueFact> = text
            .lines()
            .flat_map(|l| read_clue_line(l, 1, "f", G9).unwrap())
            .collect();
        let args = |f: &[ClueFact]| f.iter().map(|f| f.args.clone()).collect::<Vec<_>>();
        assert_eq!(args(&again), args(&facts));
        assert_eq!(render_clues(&[]), "");
    }

    #[test]
    fn locates_mistakes() {
        let e = read_clue_line("cage(r1c10, 1).", 2, "f", G9).unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert!(e.message.contains("outside the 9x9 grid"), "{e}");
        let e = read_clue_line("cage(r1c1, 1)", 2, "f", G9).unwrap_err();
        assert_eq!(e.column, 14);
        assert!(e.message.contains("`.` to end"), "{e}");
        let e = read_clue_line("cage(r1c1; 1).", 2, "f", G9).unwrap_err();
        assert_eq!(e.column, 10);
        let e = read_clue_line("cage(\"a\", 1).", 2, "f", G9).unwrap_err();
        assert!(e.message.contains("cells and numbers only"), "{e}");
        let e = read_clue_line("cage(r1c1, 1). 7", 2, "f", G9).unwrap_err();
        assert_eq!(e.column, 16);
    }
}
