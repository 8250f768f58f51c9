//! Groups the lines of one input into puzzles, one result per puzzle.
//! The accepted formats are described in the module documentation of
//! [`crate::grid`].

use std::io::{self, BufRead};

use super::assemble::assemble;
use super::layout::{
    LineKind, PUZZLE_LINE_LENGTHS, Sym, classify, first_token, grid_symbols, is_csv_header,
    spaced_symbols,
};
use super::lines::{Line, LineFault, LineSource};
use super::marks::{candidate_line_geometry, read_candidate_line, read_hodoku_line};
use super::regions::{RegionMap, is_region_row, parse_region_map};
use super::symbols::is_any_symbol;
use super::{Geometry, Origin, Puzzle, PuzzleError};

/// The size a lone 16-symbol line is read as when it is not the first row of
/// a 16x16 grid.
const GEOMETRY_4X4: Geometry = Geometry { box_size: 2, n: 4 };

/// Streaming reader over one input (a file or stdin): yields one item per
/// puzzle found, in order, holding at most one puzzle (or one grid block) in
/// memory. A bad puzzle yields one `Err` and reading goes on with the next;
/// only an I/O error ends the input early (after one `Err` for it).
pub struct PuzzleReader<R: BufRead> {
    lines: LineSource<R>,
    /// Lines read ahead (to resolve the 4x4/16x16 ambiguity or to end a
    /// grid block) that still have to be processed, the next one last.
    pending: Vec<io::Result<Line>>,
    file: String,
    finished: bool,
    /// Whether any puzzle or error was returned (or the end reported).
    yielded: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads puzzles from `input`; `file_name` is used in origins and
    /// errors, with `-` shown as `<stdin>`.
    pub fn new(input: R, file_name: &str) -> Self {
        let file = if file_name == "-" {
            "<stdin>"
        } else {
            file_name
        };
        PuzzleReader {
            lines: LineSource::new(input),
            pending: Vec::new(),
            file: file.to_string(),
            finished: false,
            yielded: false,
        }
    }

    /// At the end of the input: an input that held no puzzle at all (empty,
    /// or only comments and blank lines) is an error, so a wrong or empty
    /// file never passes silently.
    fn end_of_input(&mut self) -> Option<Result<Puzzle, PuzzleError>> {
        if std::mem::replace(&mut self.yielded, true) {
            return None;
        }
        let line = self.lines.lines_read().max(1);
        Some(Err(self.error(
            line,
            1,
            "no puzzle in this input: it is empty or holds only comments and blank lines",
        )))
    }

    fn next_line(&mut self) -> Option<io::Result<Line>> {
        self.pending.pop().or_else(|| self.lines.next_line())
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> PuzzleError {
        PuzzleError::new(&self.file, line, column, message)
    }

    fn fault_error(&self, line: usize, fault: &LineFault) -> PuzzleError {
        let (column, message) = fault.describe();
        self.error(line, column, message)
    }

    /// Reports an I/O failure once and stops this input, since nothing after
    /// a failed read can be trusted to line up.
    fn io_error(&mut self, e: io::Error) -> PuzzleError {
        self.finished = true;
        self.pending.clear();
        let line = self.lines.lines_read() + 1;
        self.error(line, 1, format!("cannot read the input: {e}"))
    }

    fn origin(&self, line: usize) -> Origin {
        Origin {
            file: self.file.clone(),
            line,
        }
    }

    /// The number of grid symbols on the next line that is not a comment or
    /// separator, or `None` if a blank line, a bad line or the end comes
    /// first. The line is put back for the caller to read.
    fn next_row_len(&mut self) -> Option<usize> {
        loop {
            let line = match self.next_line() {
                Some(Ok(line)) => line,
                other => {
                    self.pending.extend(other);
                    return None;
                }
            };
            let kind = match &line.text {
                Ok(text) => classify(text),
                Err(_) => LineKind::Content,
            };
            match kind {
                LineKind::Comment | LineKind::Separator => continue,
                // A blank line could not continue a grid anyway, so it can go.
                LineKind::Blank => return None,
                LineKind::Content => {
                    let len = line
                        .text
                        .as_ref()
                        .ok()
                        .map(|text| grid_symbols(text, 0).len());
                    self.pending.push(Ok(line));
                    return len;
                }
            }
        }
    }

    /// Decides whether a line with `row.len()` of 4, 9, 16 or 25 symbols starts
    /// a grid block. A lone 16-symbol line may be a whole 4x4 puzzle, and a
    /// line with characters that are no symbol at all may be stray text, so
    /// both only start a grid if the next row has the same length. A compact
    /// 16-symbol line of 4x4 symbols only (what `--format line` prints for a
    /// 4x4) is always a 4x4 puzzle, so files of them read back.
    fn starts_grid(&mut self, g: Geometry, row: &[Sym]) -> bool {
        let plain = row.iter().all(|s| is_any_symbol(s.ch));
        if g.n == 16 && reads_as_4x4_line(row) {
            return false;
        }
        (plain && g.n != 16) || self.next_row_len() == Some(g.n)
    }

    /// Reads the rest of a grid block whose first row is `first`.
    fn read_grid(
        &mut self,
        g: Geometry,
        start: usize,
        first: Vec<Sym>,
    ) -> Result<Puzzle, PuzzleError> {
        let mut syms = first;
        syms.reserve(g.cell_count().saturating_sub(syms.len()));
        let mut rows = 1;
        // After the first bad row we keep consuming the block so that its
        // remaining rows do not turn into more errors.
        let mut fault: Option<PuzzleError> = None;
        // A 16x16 block began on a 16-symbol line that was only taken for a
        // first row; if the block is cut short, its lines are read again.
        let mut taken: Vec<Line> = Vec::new();
        while rows < g.n {
            let line = match self.next_line() {
                None => {
                    return Err(fault.unwrap_or_else(|| {
                        self.cut_short(g, start, rows, "the input ended", taken)
                    }));
                }
                Some(Err(e)) => return Err(self.io_error(e)),
                Some(Ok(line)) => line,
            };
            let text = match line.text {
                Ok(text) => text,
                Err(f) => {
                    fault.get_or_insert_with(|| self.fault_error(line.number, &f));
                    rows += 1;
                    continue;
                }
            };
            match classify(&text) {
                LineKind::Comment | LineKind::Separator => continue,
                LineKind::Blank => {
                    let why = format!("a blank line at line {} ended it", line.number);
                    if g.n == 16 {
                        // Read again with the lines before it, it ends them too.
                        taken.push(Line {
                            number: line.number,
                            text: Ok(text),
                        });
                    }
                    return Err(
                        fault.unwrap_or_else(|| self.cut_short(g, start, rows, &why, taken))
                    );
                }
                LineKind::Content => {}
            }
            let row = grid_symbols(&text, line.number);
            rows += 1;
            if row.len() == g.n {
                syms.extend(row);
                if g.n == 16 {
                    taken.push(Line {
                        number: line.number,
                        text: Ok(text),
                    });
                }
                continue;
            }
            if PUZZLE_LINE_LENGTHS.contains(&first_token(&text, 0).0.len()) {
                // A one-line puzzle right after the block: the block was short.
                let why = format!("line {} holds a whole puzzle", line.number);
                self.pending.push(Ok(Line {
                    number: line.number,
                    text: Ok(text),
                }));
                return Err(
                    fault.unwrap_or_else(|| self.cut_short(g, start, rows - 1, &why, taken))
                );
            }
            fault.get_or_insert_with(|| self.row_length_error(g, rows, &row, line.number));
        }
        match fault {
            Some(e) => Err(e),
            None => {
                let regions = self.read_region_block(g)?;
                assemble(g, &syms, self.origin(start), String::new(), regions)
            }
        }
    }

    /// Reads the region map that may follow a grid block (a jigsaw): `n`
    /// rows of `n` letters. Anything else is put back and means none.
    fn read_region_block(&mut self, g: Geometry) -> Result<Option<RegionMap>, PuzzleError> {
        let mut syms = Vec::with_capacity(g.cell_count());
        let mut rows = 0;
        while rows < g.n {
            let line = match self.next_line() {
                Some(Ok(line)) => line,
                Some(Err(e)) => return Err(self.io_error(e)),
                None if rows == 0 => return Ok(None),
                None => return Err(self.short_region_map(g, rows, "the input ended")),
            };
            let text = match &line.text {
                Ok(text) => text.clone(),
                Err(_) if rows == 0 => {
                    self.pending.push(Ok(line));
                    return Ok(None);
                }
                Err(f) => return Err(self.fault_error(line.number, f)),
            };
            match classify(&text) {
                LineKind::Comment | LineKind::Separator => continue,
                LineKind::Blank if rows == 0 => return Ok(None),
                LineKind::Blank => {
                    return Err(self.short_region_map(g, rows, "a blank line ended it"));
                }
                LineKind::Content => {}
            }
            let row = grid_symbols(&text, line.number);
            if rows == 0 && !is_region_row(&row) {
                self.pending.push(Ok(line));
                return Ok(None);
            }
            if row.len() != g.n || !is_region_row(&row) {
                let message = format!(
                    "row {} of the region map has {} but needs {} letters, one region letter per cell",
                    rows + 1,
                    plural(row.len(), "symbol"),
                    g.n
                );
                return Err(self.error(line.number, 1, message));
            }
            syms.extend(row);
            rows += 1;
        }
        parse_region_map(g, &syms, &self.file).map(Some)
    }

    fn short_region_map(&self, g: Geometry, rows: usize, why: &str) -> PuzzleError {
        let line = self.lines.lines_read().max(1);
        self.error(
            line,
            1,
            format!(
                "the region map has only {rows} of its {} rows ({why}); add the missing rows",
                g.n
            ),
        )
    }

    /// The error for a grid block cut short. When the block's rows after
    /// the first are 16-symbol lines of which one reads as a whole 4x4
    /// puzzle, the first line was most likely a bad 4x4 puzzle rather than
    /// a 16x16 grid's first row: only it gets the error, and the lines
    /// `taken` after it are read again, each as what it is, so that every
    /// puzzle among them gets its own result.
    fn cut_short(
        &mut self,
        g: Geometry,
        start: usize,
        rows: usize,
        why: &str,
        taken: Vec<Line>,
    ) -> PuzzleError {
        let replay = taken.iter().any(|line| {
            line.text
                .as_ref()
                .is_ok_and(|text| reads_as_4x4_line(&grid_symbols(text, 0)))
        });
        if replay {
            self.pending.extend(taken.into_iter().rev().map(Ok));
            return self.error(
                start,
                1,
                format!(
                    "this line of 16 symbols is neither a 4x4 puzzle (4x4 digits are 1-4 and \
                     empty cells '.', '_' or '0') nor the first row of a 16x16 grid (the grid \
                     would have only {rows} of its 16 rows: {why}); fix the line or remove it"
                ),
            );
        }
        self.error(
            start,
            1,
            format!(
                "this {} grid has only {rows} of its {} rows ({why}); add the missing rows \
                 or remove the partial grid",
                g.label(),
                g.n
            ),
        )
    }

    fn row_length_error(&self, g: Geometry, row: usize, syms: &[Sym], line: usize) -> PuzzleError {
        let found = syms.len();
        let (column, advice) = match syms.get(g.n) {
            Some(extra) => (extra.col, "remove the extra ones"),
            None => (1, "add the missing cells, using '.' for empty ones"),
        };
        self.error(
            line,
            column,
            format!(
                "row {row} of this {} grid has {found} {} but needs exactly {} \
                 (spaces, '|' and '+' do not count); {advice}",
                g.label(),
                plural(found, "symbol"),
                g.n
            ),
        )
    }

    /// Reads a puzzle written on a single line (with an optional label).
    fn read_line_puzzle(&self, text: &str, number: usize) -> Result<Puzzle, PuzzleError> {
        if text.trim_start().starts_with(':') {
            return read_hodoku_line(text, number, self.origin(number));
        }
        let (token, label) = first_token(text, number);
        if let Some(g) = candidate_line_geometry(token.len()) {
            return read_candidate_line(g, &token, self.origin(number), label);
        }
        if let Some(g) = Geometry::from_cell_count(token.len()) {
            // A jigsaw's region map may follow the puzzle on its line.
            let (map, rest) = first_token(&label, number);
            if map.len() == g.cell_count() && is_region_row(&map) {
                // Columns of the label's words count from the line's start.
                let shift = text.trim_end().chars().count() - label.chars().count();
                let map: Vec<Sym> = map
                    .into_iter()
                    .map(|s| Sym {
                        col: s.col + shift,
                        ..s
                    })
                    .collect();
                let regions = parse_region_map(g, &map, &self.file)?;
                return assemble(g, &token, self.origin(number), rest, Some(regions));
            }
            // A long word of letters is a region map of the wrong length,
            // not a label: solving as a classic Sudoku would be wrong.
            if map.len() >= 2 * g.n && is_region_row(&map) {
                let shift = text.trim_end().chars().count() - label.chars().count();
                return Err(self.error(
                    number,
                    map[0].col + shift,
                    format!(
                        "this jigsaw region map has {} {} but needs {}, one region letter per cell",
                        map.len(),
                        plural(map.len(), "letter"),
                        g.cell_count()
                    ),
                ));
            }
            return assemble(g, &token, self.origin(number), label, None);
        }
        let spaced = spaced_symbols(text, number);
        let all_symbols = spaced.iter().all(|s| is_any_symbol(s.ch));
        if all_symbols && let Some(g) = Geometry::from_cell_count(spaced.len()) {
            return assemble(g, &spaced, self.origin(number), String::new(), None);
        }
        let found = if all_symbols {
            spaced.len()
        } else {
            token.len()
        };
        let column = token.first().map_or(1, |s| s.col);
        Err(self.error(
            number,
            column,
            format!(
                "line has {found} {}; a puzzle line needs 16, 81, 256 or 625 \
                 (4x4, 9x9, 16x16, 25x25)",
                plural(found, "symbol")
            ),
        ))
    }
}

/// Whether a row of 16 symbols is written as a whole 4x4 puzzle is (what
/// `--format line` prints): compact, with 4x4 symbols only.
fn reads_as_4x4_line(row: &[Sym]) -> bool {
    let compact = row.windows(2).all(|w| w[1].col == w[0].col + 1);
    row.len() == 16
        && compact
        && row
            .iter()
            .all(|s| matches!(s.ch, '1'..='4' | '.' | '0' | '_'))
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, PuzzleError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_item() {
            Some(item) => {
                self.yielded = true;
                Some(item)
            }
            None => self.end_of_input(),
        }
    }
}

impl<R: BufRead> PuzzleReader<R> {
    /// The next puzzle or error, `None` at the end.
    fn next_item(&mut self) -> Option<Result<Puzzle, PuzzleError>> {
        if self.finished {
            return None;
        }
        loop {
            let line = match self.next_line()? {
                Ok(line) => line,
                Err(e) => return Some(Err(self.io_error(e))),
            };
            let text = match line.text {
                Ok(text) => text,
                Err(fault) => return Some(Err(self.fault_error(line.number, &fault))),
            };
            if classify(&text) != LineKind::Content || (line.number == 1 && is_csv_header(&text)) {
                continue;
            }
            let row = grid_symbols(&text, line.number);
            let result = match Geometry::from_side(row.len()) {
                Some(g) if self.starts_grid(g, &row) => self.read_grid(g, line.number, row),
                Some(g) if g.n == 16 => assemble(
                    GEOMETRY_4X4,
                    &row,
                    self.origin(line.number),
                    String::new(),
                    None,
                ),
                _ => self.read_line_puzzle(&text, line.number),
            };
            return Some(result);
        }
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
