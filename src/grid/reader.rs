//! Groups the lines of one input into puzzles, one result per puzzle.
//! The accepted formats are described in the module documentation of
//! [`crate::grid`].

use std::io::{self, BufRead};

use super::assemble::assemble;
use super::clues::{MAX_CLUES_PER_CELL, is_clue_line, read_clue_line};
use super::layout::{
    LineKind, PUZZLE_LINE_LENGTHS, Sym, classify, first_token, grid_symbols, is_csv_header,
    spaced_symbols,
};
use super::lines::{Line, LineFault, LineSource};
use super::marks::{candidate_line_geometry, check_state, read_candidate_line, read_hodoku_line};
use super::pmgrid::{
    Fit, Word, assemble_pm, fit, is_candidates_header, merge_candidates, pm_words, uncomment,
    word_count,
};
use super::regions::{RegionMap, is_region_row, parse_region_map};
use super::sudocue::{is_sudocue_line, read_sudocue_line};
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
        // A folder opens like a file and fails at its first read.
        let advice = if e.kind() == io::ErrorKind::IsADirectory {
            "; name a puzzle file, not a folder"
        } else {
            ""
        };
        self.error(line, 1, format!("cannot read the input: {e}{advice}"))
    }

    fn origin(&self, line: usize) -> Origin {
        Origin {
            file: self.file.clone(),
            line,
        }
    }

    /// Reads the clue lines after a puzzle (blank and comment lines may
    /// come between) into it; the first bad one makes the puzzle an error
    /// at that place. After an error, they are skipped all the same: they
    /// belong to the bad puzzle, which has its one result already.
    fn attach_clues(&mut self, result: &mut Result<Puzzle, PuzzleError>) {
        loop {
            let line = match self.next_line() {
                Some(Ok(line)) => line,
                other => {
                    self.pending.extend(other);
                    return;
                }
            };
            let text = match &line.text {
                Ok(text) if classify(text) != LineKind::Content => continue,
                Ok(text) if is_clue_line(text) => text,
                _ => {
                    self.pending.push(Ok(line));
                    return;
                }
            };
            if let Ok(puzzle) = result {
                let limit = MAX_CLUES_PER_CELL * puzzle.geometry.cell_count();
                match read_clue_line(text, line.number, &self.file, puzzle.geometry) {
                    Ok(facts) if puzzle.clues.len() + facts.len() > limit => {
                        *result = Err(self.error(
                            line.number,
                            1,
                            format!(
                                "more than {limit} clue facts for one puzzle ({MAX_CLUES_PER_CELL} \
                                 per cell): is the puzzle line above the right one?"
                            ),
                        ));
                    }
                    Ok(facts) => puzzle.clues.extend(facts),
                    Err(e) => *result = Err(e),
                }
            }
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

    /// How the next line that is not a comment or separator fits as a row
    /// of a pencil-mark grid of size `g`; the line is put back.
    fn next_row_fit(&mut self, g: Geometry) -> Fit {
        loop {
            let line = match self.next_line() {
                Some(Ok(line)) => line,
                other => {
                    self.pending.extend(other);
                    return Fit::No;
                }
            };
            let Ok(text) = &line.text else {
                self.pending.push(Ok(line));
                return Fit::No;
            };
            match classify(text) {
                LineKind::Comment | LineKind::Separator => continue,
                LineKind::Blank => return Fit::No,
                LineKind::Content => {
                    let found = fit(&pm_words(text, line.number), g);
                    self.pending.push(Ok(line));
                    return found;
                }
            }
        }
    }

    /// The size and words of a line that starts a pencil-mark grid: `n`
    /// words of candidates, at least one of several digits. A line whose
    /// words hold characters that are no digit of the size (a typo, or a
    /// sentence of `n` words) only starts one if the next row is a
    /// pencil-mark row without fault, so stray text never swallows a grid.
    fn starts_pm_grid(&mut self, text: &str, number: usize) -> Option<(Geometry, Vec<Word>)> {
        let g = Geometry::from_side(word_count(text))?;
        let words = pm_words(text, number);
        match fit(&words, g) {
            Fit::Strict => Some((g, words)),
            Fit::Loose if self.next_row_fit(g) == Fit::Strict => Some((g, words)),
            _ => None,
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
        // A pencil-mark grid may begin with a row of placed digits only.
        (plain && g.n != 16) || self.next_row_len() == Some(g.n) || self.next_row_fit(g) != Fit::No
    }

    /// Reads the rest of a grid block whose first row is `first`, one word
    /// per cell. A plain grid has one symbol per cell; a pencil-mark grid
    /// (`pm`, or as soon as a row of candidate words shows up) one word of
    /// candidates per cell.
    fn read_grid(
        &mut self,
        g: Geometry,
        start: usize,
        first: Vec<Word>,
        mut pm: bool,
    ) -> Result<Puzzle, PuzzleError> {
        let mut cells = first;
        cells.reserve(g.cell_count().saturating_sub(cells.len()));
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
                    if g.n == 16 && !pm {
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
            if !pm && row.len() == g.n {
                cells.extend(row.into_iter().map(|s| vec![s]));
                if g.n == 16 {
                    taken.push(Line {
                        number: line.number,
                        text: Ok(text),
                    });
                }
                continue;
            }
            let words = pm_words(&text, line.number);
            if words.len() == g.n && (pm || fit(&words, g) != Fit::No) {
                pm = true;
                cells.extend(words);
                continue;
            }
            if pm && row.len() == g.n {
                // A row of single symbols without spaces (`6..|...|..7`).
                cells.extend(row.into_iter().map(|s| vec![s]));
                continue;
            }
            let lone = first_token(&text, 0).0.len();
            // In a pencil-mark grid a first word up to `n` long is a cell.
            if PUZZLE_LINE_LENGTHS.contains(&lone) && !(pm && lone <= g.n) {
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
            fault.get_or_insert_with(|| {
                if pm {
                    let what = format!("this {} pencil-mark grid", g.label());
                    self.pm_row_error(g, rows, &words, line.number, &what)
                } else {
                    self.row_length_error(g, rows, &row, line.number)
                }
            });
        }
        if let Some(e) = fault {
            return Err(e);
        }
        if pm {
            return assemble_pm(g, &cells, self.origin(start));
        }
        let syms: Vec<Sym> = cells.into_iter().flatten().collect();
        // The grid format prints a stall's pencil marks under the grid (a
        // jigsaw's under its region map) as a comment block; it belongs to
        // the grid, so that the output reads back as the same state.
        let (block, regions) = match self.read_candidates_block(g) {
            Ok(None) => {
                let regions = self.read_region_block(g)?;
                match regions {
                    Some(_) => (self.read_candidates_block(g), regions),
                    None => (Ok(None), None),
                }
            }
            other => (other, None),
        };
        let puzzle = assemble(g, &syms, self.origin(start), String::new(), regions)?;
        match block? {
            Some(words) => merge_candidates(puzzle, &words),
            None => Ok(puzzle),
        }
    }

    /// Reads sudolog's candidates block if the next line is its header
    /// ([`super::render::CANDIDATES_HEADER`]): `n` comment lines, each a
    /// row of candidate words behind `#`, separator lines between them.
    /// Anything else is put back and means no block.
    fn read_candidates_block(&mut self, g: Geometry) -> Result<Option<Vec<Word>>, PuzzleError> {
        let header = match self.next_line() {
            Some(Ok(line)) => line,
            Some(Err(e)) => return Err(self.io_error(e)),
            None => return Ok(None),
        };
        if !header.text.as_ref().is_ok_and(|t| is_candidates_header(t)) {
            self.pending.push(Ok(header));
            return Ok(None);
        }
        let mut cells: Vec<Word> = Vec::with_capacity(g.cell_count());
        let mut rows = 0;
        while rows < g.n {
            let short = |rows: usize, why: &str| {
                format!(
                    "the candidates block under this {} grid has only {rows} of its {} rows \
                     ({why}); give every row's candidates, each line behind '#'",
                    g.label(),
                    g.n
                )
            };
            let line = match self.next_line() {
                Some(Ok(line)) => line,
                Some(Err(e)) => return Err(self.io_error(e)),
                None => return Err(self.error(header.number, 1, short(rows, "the input ended"))),
            };
            let text = match &line.text {
                Ok(text) if classify(text) == LineKind::Comment => uncomment(text),
                Ok(text) => {
                    let why = if classify(text) == LineKind::Blank {
                        format!("a blank line at line {} ended it", line.number)
                    } else {
                        format!("line {} is no comment", line.number)
                    };
                    self.pending.push(Ok(line));
                    return Err(self.error(header.number, 1, short(rows, &why)));
                }
                Err(f) => return Err(self.fault_error(line.number, f)),
            };
            if classify(&text) != LineKind::Content {
                continue;
            }
            rows += 1;
            let words = pm_words(&text, line.number);
            if words.len() == g.n {
                cells.extend(words);
                continue;
            }
            let row = grid_symbols(&text, line.number);
            if row.len() == g.n {
                cells.extend(row.into_iter().map(|s| vec![s]));
                continue;
            }
            let what = format!("the candidates block under this {} grid", g.label());
            return Err(self.pm_row_error(g, rows, &words, line.number, &what));
        }
        Ok(Some(cells))
    }

    /// The error for a row of a pencil-mark grid with the wrong number of
    /// cells; `what` names the grid (`this 9x9 pencil-mark grid`).
    fn pm_row_error(
        &self,
        g: Geometry,
        row: usize,
        words: &[Word],
        line: usize,
        what: &str,
    ) -> PuzzleError {
        let found = words.len();
        let (column, advice) = match words.get(g.n).and_then(|w| w.first()) {
            Some(extra) => (extra.col, "remove the extra ones or join split words"),
            None => (1, "add the missing cells"),
        };
        self.error(
            line,
            column,
            format!(
                "row {row} of {what} has {found} {} but needs exactly {}: each cell's \
                 candidates are one word (such as 1567), cells separated by spaces or '|'; \
                 {advice}",
                plural(found, "cell"),
                g.n
            ),
        )
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
        if is_sudocue_line(text) {
            return read_sudocue_line(text, self.origin(number));
        }
        let (token, label) = first_token(text, number);
        if let Some(g) = candidate_line_geometry(token.len()) {
            // A jigsaw's region map may follow the state, as for a puzzle.
            let (map, rest) = first_token(&label, number);
            if map.len() == g.cell_count() && is_region_row(&map) {
                let map = shifted(map, text, &label);
                let regions = parse_region_map(g, &map, &self.file)?;
                let mut puzzle = read_candidate_line(g, &token, self.origin(number), rest)?;
                puzzle.regions = Some(regions);
                check_state(&puzzle)?;
                return Ok(puzzle);
            }
            let puzzle = read_candidate_line(g, &token, self.origin(number), label)?;
            check_state(&puzzle)?;
            return Ok(puzzle);
        }
        if let Some(g) = Geometry::from_cell_count(token.len()) {
            // A jigsaw's region map may follow the puzzle on its line.
            let (map, rest) = first_token(&label, number);
            if map.len() == g.cell_count() && is_region_row(&map) {
                let map = shifted(map, text, &label);
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

/// The symbols of a word of `label` (the end of line `text`) with their
/// columns counted from the line's start rather than the label's.
fn shifted(word: Vec<Sym>, text: &str, label: &str) -> Vec<Sym> {
    let shift = text
        .trim_end()
        .chars()
        .count()
        .saturating_sub(label.chars().count());
    word.into_iter()
        .map(|s| Sym {
            col: s.col + shift,
            ..s
        })
        .collect()
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
            if is_clue_line(&text) {
                // Clue lines follow their puzzle (and are read with it).
                let e = self.error(
                    line.number,
                    1,
                    "clue facts before any puzzle: put them on the lines right after \
                     the puzzle they belong to",
                );
                let mut skipped = Err(e);
                self.attach_clues(&mut skipped);
                return Some(skipped);
            }
            if let Some((g, words)) = self.starts_pm_grid(&text, line.number) {
                return Some(self.read_grid(g, line.number, words, true));
            }
            let row = grid_symbols(&text, line.number);
            let result = match Geometry::from_side(row.len()) {
                Some(g) if self.starts_grid(g, &row) => {
                    let first = row.into_iter().map(|s| vec![s]).collect();
                    self.read_grid(g, line.number, first, false)
                }
                Some(g) if g.n == 16 => assemble(
                    GEOMETRY_4X4,
                    &row,
                    self.origin(line.number),
                    String::new(),
                    None,
                ),
                _ => self.read_line_puzzle(&text, line.number),
            };
            let mut result = result;
            self.attach_clues(&mut result);
            return Some(result);
        }
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
