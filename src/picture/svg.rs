//! One step as an SVG picture: the grid, its pencil marks, the step's
//! pattern and conclusions, and its sentence.
//!
//! The picture is drawn in layers, each over the ones before it, so that
//! nothing the step says is hidden: the shading of units and cells, the
//! grid lines, the discs behind the step's candidates, the links between
//! them, the digits, the strikes through eliminated candidates, and the
//! caption under the grid. Every size is derived from [`CELL`] and the
//! box size, so the same code draws 4x4 to 25x25; the document names no
//! ids and no stylesheet, so many pictures can be inlined in one page.

use std::fmt::{self, Display, Write};

use super::{Board, Candidate, Marks, colours};
use crate::grid::Geometry;

/// The side of one cell, in SVG user units (pixels at scale 1).
pub const CELL: f64 = 48.0;
/// The margin around the grid.
pub const MARGIN: f64 = 12.0;

/// The fonts of all text, most wanted first: DejaVu Sans has every digit
/// and letter the grids use and is on most Linux systems; the generic
/// family last so that a viewer without either still draws the text.
const FONTS: &str = "DejaVu Sans, Arial, Helvetica, sans-serif";

/// The caption's font size.
const CAPTION_FONT: f64 = 15.0;
/// The distance between the caption's baselines.
const CAPTION_LINE: f64 = 20.0;
/// The space between the grid's bottom border and the caption's first line.
const CAPTION_GAP: f64 = 8.0;
/// A caption character's mean width, in ems. The wrap cannot measure
/// text (the viewer picks the font), so it counts characters; DejaVu
/// Sans, the widest of the listed fonts, averages about this much.
const CAPTION_CHAR_EM: f64 = 0.56;

/// A digit's height in DejaVu Sans and Arial is about 0.72 em: a baseline
/// half of that below a point centres the digit on it, in every viewer
/// (`dominant-baseline` is not drawn alike everywhere).
const HALF_DIGIT_EM: f64 = 0.36;

/// The top-left corner of a cell (row-major index) in the picture.
pub fn cell_origin(g: Geometry, cell: usize) -> (f64, f64) {
    let (r, c) = (g.row_of(cell) as f64, g.col_of(cell) as f64);
    (MARGIN + c * CELL, MARGIN + r * CELL)
}

/// Where a candidate's pencil mark sits: the centre of its slot in the
/// cell's box_size x box_size mini-grid.
pub fn candidate_centre(g: Geometry, cell: usize, digit: u8) -> (f64, f64) {
    let (x, y) = cell_origin(g, cell);
    let b = g.box_size;
    let slot = CELL / b as f64;
    let i = usize::from(digit.max(1)) - 1;
    (
        x + (i % b) as f64 * slot + slot / 2.0,
        y + (i / b) as f64 * slot + slot / 2.0,
    )
}

/// The point halfway along the drawn link between two candidates (the
/// link bends, so this is off the straight line between their centres).
pub fn link_midpoint(g: Geometry, a: Candidate, b: Candidate) -> (f64, f64) {
    let link = LinkCurve::new(g, a, b);
    link.point_at_half()
}

/// The picture of one step as an SVG document.
pub fn render(board: &Board, marks: &Marks) -> String {
    let mut out = String::new();
    // Writing into a String never fails, so there is no error to pass on.
    let _ = Picture::new(board, marks).write(&mut out);
    out
}

/// A board and its step's marks, with the sizes derived from the grid's.
struct Picture<'a> {
    board: &'a Board,
    marks: &'a Marks,
    g: Geometry,
    /// The side of a candidate's slot in its cell.
    slot: f64,
    /// The caption, wrapped to the grid's width.
    caption: Vec<String>,
}

impl<'a> Picture<'a> {
    fn new(board: &'a Board, marks: &'a Marks) -> Self {
        let g = board.geometry;
        let grid = g.n as f64 * CELL;
        // Never fewer than a few words a line, even under a 4x4 grid.
        let width = ((grid / (CAPTION_FONT * CAPTION_CHAR_EM)) as usize).max(12);
        Picture {
            board,
            marks,
            g,
            slot: CELL / g.box_size as f64,
            caption: wrap(&marks.caption, width),
        }
    }

    /// The grid's side in user units.
    fn grid(&self) -> f64 {
        self.g.n as f64 * CELL
    }

    /// The whole picture's width and height.
    fn size(&self) -> (f64, f64) {
        let bottom = MARGIN + self.grid();
        let caption = if self.caption.is_empty() {
            0.0
        } else {
            CAPTION_GAP + self.caption.len() as f64 * CAPTION_LINE
        };
        (self.grid() + 2.0 * MARGIN, bottom + caption + MARGIN)
    }

    fn in_grid(&self, cell: usize) -> bool {
        cell < self.g.cell_count()
    }

    /// A candidate the picture can draw: a cell of the grid and a digit
    /// of its size, in a cell that shows pencil marks.
    fn drawable(&self, (cell, digit): Candidate) -> bool {
        self.in_grid(cell) && (1..=self.g.n).contains(&usize::from(digit)) && self.open(cell)
    }

    /// A cell with neither a given nor a placed digit.
    fn open(&self, cell: usize) -> bool {
        digit_at(&self.board.givens, cell) == 0 && digit_at(&self.board.placed, cell) == 0
    }

    /// The region of a cell; the standard boxes if the board has no map
    /// of the right length, so a short map draws boxes rather than
    /// failing.
    fn region(&self, cell: usize) -> usize {
        match self.board.regions.get(cell) {
            Some(&r) if self.board.regions.len() == self.g.cell_count() => r,
            _ => self.g.box_of(cell),
        }
    }

    fn disc_radius(&self) -> f64 {
        self.slot * 0.44
    }

    fn mark_font(&self) -> f64 {
        // 4x4 slots are large: marks as big as the slot would rival the
        // givens.
        (self.slot * 0.72).min(14.0)
    }

    fn write(&self, out: &mut String) -> fmt::Result {
        let (w, h) = self.size();
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="{FONTS}">"#,
            N(w),
            N(h),
            N(w),
            N(h)
        )?;
        if !self.marks.caption.is_empty() {
            writeln!(out, "<title>{}</title>", Escaped(&self.marks.caption))?;
        }
        writeln!(
            out,
            r#"<rect width="{}" height="{}" fill="white"/>"#,
            N(w),
            N(h)
        )?;
        for unit in &self.board.extra_units {
            self.shade(out, unit, colours::EXTRA_UNIT)?;
        }
        for unit in &self.marks.units {
            self.shade(out, unit, colours::UNIT)?;
        }
        self.shade(out, &self.marks.cells, colours::CELL)?;
        self.grid_lines(out)?;
        self.placement_outlines(out)?;
        self.discs(out)?;
        self.links(out)?;
        self.digits(out)?;
        self.strikes(out)?;
        self.caption(out)?;
        writeln!(out, "</svg>")
    }

    fn shade(&self, out: &mut String, cells: &[usize], colour: &str) -> fmt::Result {
        let cells: Vec<usize> = cells.iter().copied().filter(|&c| self.in_grid(c)).collect();
        if cells.is_empty() {
            return Ok(());
        }
        writeln!(out, r#"<g fill="{colour}">"#)?;
        for cell in cells {
            let (x, y) = cell_origin(self.g, cell);
            writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
                N(x),
                N(y),
                N(CELL),
                N(CELL)
            )?;
        }
        writeln!(out, "</g>")
    }

    /// Thin lines between all cells, then thick ones where two
    /// neighbouring cells lie in different regions (so a jigsaw's regions
    /// get their own borders), then the outer border.
    fn grid_lines(&self, out: &mut String) -> fmt::Result {
        let (n, grid) = (self.g.n, self.grid());
        let (top, bottom) = (MARGIN, MARGIN + grid);
        let mut thin = String::new();
        for i in 1..n {
            let at = MARGIN + i as f64 * CELL;
            write!(
                thin,
                "M{} {}V{}M{} {}H{}",
                N(at),
                N(top),
                N(bottom),
                N(top),
                N(at),
                N(bottom)
            )?;
        }
        if !thin.is_empty() {
            writeln!(
                out,
                r#"<path d="{thin}" stroke="{}" stroke-width="1" fill="none"/>"#,
                colours::GRID
            )?;
        }

        let mut thick = String::new();
        for i in 1..n {
            let at = MARGIN + i as f64 * CELL;
            // Along the line between columns i-1 and i, then between rows
            // i-1 and i: runs of borders, so one stroke draws each run.
            let vertical =
                |j| self.region(self.g.cell_at(j, i - 1)) != self.region(self.g.cell_at(j, i));
            for (from, to) in runs(n, vertical) {
                let (y0, y1) = (MARGIN + from as f64 * CELL, MARGIN + to as f64 * CELL);
                write!(thick, "M{} {}V{}", N(at), N(y0), N(y1))?;
            }
            let horizontal =
                |j| self.region(self.g.cell_at(i - 1, j)) != self.region(self.g.cell_at(i, j));
            for (from, to) in runs(n, horizontal) {
                let (x0, x1) = (MARGIN + from as f64 * CELL, MARGIN + to as f64 * CELL);
                write!(thick, "M{} {}H{}", N(x0), N(at), N(x1))?;
            }
        }
        let width = thick_width(self.g);
        if !thick.is_empty() {
            // Square caps reach half the width past each end, so runs
            // meet without notches at corners and crossings.
            writeln!(
                out,
                r#"<path d="{thick}" stroke="{}" stroke-width="{}" stroke-linecap="square" fill="none"/>"#,
                colours::BORDER,
                N(width)
            )?;
        }
        writeln!(
            out,
            r#"<rect x="{m}" y="{m}" width="{s}" height="{s}" stroke="{}" stroke-width="{}" fill="none"/>"#,
            colours::BORDER,
            N(width),
            m = N(MARGIN),
            s = N(grid)
        )
    }

    /// A frame inside each cell where the step places a digit, so the
    /// placement is seen at a glance and not only by its small disc.
    fn placement_outlines(&self, out: &mut String) -> fmt::Result {
        let cells = self.placements().map(|(cell, _)| cell);
        let inset = 2.0 + thick_width(self.g) / 2.0;
        let mut frames = String::new();
        for cell in cells {
            let (x, y) = cell_origin(self.g, cell);
            writeln!(
                frames,
                r#"<rect x="{}" y="{}" width="{s}" height="{s}"/>"#,
                N(x + inset),
                N(y + inset),
                s = N(CELL - 2.0 * inset)
            )?;
        }
        if frames.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            r#"<g fill="none" stroke="{}" stroke-width="2.5">"#,
            colours::PLACEMENT
        )?;
        out.push_str(&frames);
        writeln!(out, "</g>")
    }

    fn placements(&self) -> impl Iterator<Item = Candidate> + '_ {
        self.marks
            .placements
            .iter()
            .copied()
            .filter(|&c| self.drawable(c))
    }

    /// The discs behind marked candidates: the pattern's first, then the
    /// eliminations and placements over them, so that a candidate both in
    /// the pattern and concluded shows its conclusion.
    fn discs(&self, out: &mut String) -> fmt::Result {
        let layers = [
            (&self.marks.candidates, colours::CANDIDATE),
            (&self.marks.eliminations, colours::ELIMINATION),
            (&self.marks.placements, colours::PLACEMENT),
        ];
        for (candidates, colour) in layers {
            let shown: Vec<Candidate> = candidates
                .iter()
                .copied()
                .filter(|&c| self.drawable(c))
                .collect();
            if shown.is_empty() {
                continue;
            }
            writeln!(out, r#"<g fill="{colour}">"#)?;
            for (cell, digit) in shown {
                let (x, y) = candidate_centre(self.g, cell, digit);
                writeln!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}"/>"#,
                    N(x),
                    N(y),
                    N(self.disc_radius())
                )?;
            }
            writeln!(out, "</g>")?;
        }
        Ok(())
    }

    /// Strong links as solid curves, weak links dashed, with a dot at
    /// each end.
    fn links(&self, out: &mut String) -> fmt::Result {
        let curves = |links: &[(Candidate, Candidate)]| -> Vec<LinkCurve> {
            links
                .iter()
                .filter(|&&(a, b)| a != b && self.drawable(a) && self.drawable(b))
                .map(|&(a, b)| LinkCurve::new(self.g, a, b))
                .collect()
        };
        let strong = curves(&self.marks.links);
        let weak = curves(&self.marks.weak_links);
        if strong.is_empty() && weak.is_empty() {
            return Ok(());
        }
        let width = (self.slot * 0.11).clamp(1.0, 2.0);
        for (links, dash) in [
            (&strong, String::new()),
            (
                &weak,
                format!(
                    r#" stroke-dasharray="{} {}""#,
                    N(width * 3.0),
                    N(width * 2.0)
                ),
            ),
        ] {
            if links.is_empty() {
                continue;
            }
            writeln!(
                out,
                r#"<g stroke="{}" stroke-width="{}" fill="none"{dash}>"#,
                colours::LINK,
                N(width)
            )?;
            for link in links {
                let (s, c, e) = (link.start, link.control, link.end);
                writeln!(
                    out,
                    r#"<path d="M{} {}Q{} {} {} {}"/>"#,
                    N(s.0),
                    N(s.1),
                    N(c.0),
                    N(c.1),
                    N(e.0),
                    N(e.1)
                )?;
            }
            writeln!(out, "</g>")?;
        }
        writeln!(out, r#"<g fill="{}">"#, colours::LINK)?;
        for link in strong.iter().chain(&weak) {
            for (x, y) in [link.start, link.end] {
                writeln!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}"/>"#,
                    N(x),
                    N(y),
                    N(width * 1.4)
                )?;
            }
        }
        writeln!(out, "</g>")
    }

    /// Givens and placed digits large, the open cells' pencil marks small;
    /// a marked candidate is drawn even if the board lacks it, so that a
    /// step never points at an empty slot.
    fn digits(&self, out: &mut String) -> fmt::Result {
        let big = CELL * 0.7;
        for (digits, colour) in [
            (&self.board.givens, colours::GIVEN),
            (&self.board.placed, colours::PLACED),
        ] {
            let mut texts = String::new();
            for cell in 0..self.g.cell_count() {
                let d = digit_at(digits, cell);
                if d == 0 {
                    continue;
                }
                let (x, y) = cell_origin(self.g, cell);
                self.text(&mut texts, x + CELL / 2.0, y + CELL / 2.0, big, d)?;
            }
            if !texts.is_empty() {
                writeln!(
                    out,
                    r#"<g fill="{colour}" font-size="{}" text-anchor="middle">"#,
                    N(big)
                )?;
                out.push_str(&texts);
                writeln!(out, "</g>")?;
            }
        }

        let marked: Vec<Candidate> = [
            &self.marks.candidates,
            &self.marks.eliminations,
            &self.marks.placements,
        ]
        .into_iter()
        .flatten()
        .copied()
        .filter(|&c| self.drawable(c))
        .collect();
        let small = self.mark_font();
        let (mut plain, mut on_disc) = (String::new(), String::new());
        for cell in (0..self.g.cell_count()).filter(|&c| self.open(c)) {
            let bits = self.board.candidates.get(cell).copied().unwrap_or(0);
            for d in 1..=self.g.n as u8 {
                let has = bits.checked_shr(u32::from(d)).unwrap_or(0) & 1 == 1;
                let disc = marked.contains(&(cell, d));
                if !has && !disc {
                    continue;
                }
                let (x, y) = candidate_centre(self.g, cell, d);
                let texts = if disc { &mut on_disc } else { &mut plain };
                self.text(texts, x, y, small, d)?;
            }
        }
        for (texts, colour, weight) in [
            (plain, colours::MARK, "normal"),
            (on_disc, colours::TEXT, "bold"),
        ] {
            if texts.is_empty() {
                continue;
            }
            writeln!(
                out,
                r#"<g fill="{colour}" font-size="{}" font-weight="{weight}" text-anchor="middle">"#,
                N(small)
            )?;
            out.push_str(&texts);
            writeln!(out, "</g>")?;
        }
        Ok(())
    }

    /// One digit centred on (`x`, `y`).
    fn text(&self, out: &mut String, x: f64, y: f64, size: f64, digit: u8) -> fmt::Result {
        writeln!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            N(x),
            N(y + size * HALF_DIGIT_EM),
            self.g.digit_symbol(digit)
        )
    }

    /// A slash through each eliminated candidate, over its digit. The
    /// strike has the disc's colour, so a white edge keeps it visible on
    /// the disc.
    fn strikes(&self, out: &mut String) -> fmt::Result {
        let struck: Vec<Candidate> = self
            .marks
            .eliminations
            .iter()
            .copied()
            .filter(|&c| self.drawable(c))
            .collect();
        if struck.is_empty() {
            return Ok(());
        }
        // Past the disc's edge, so the ends show on the white around it;
        // thin, so the digit under it stays readable.
        let reach = self.disc_radius();
        let width = (self.slot * 0.06).max(0.8);
        let mut d = String::new();
        for (cell, digit) in struck {
            let (x, y) = candidate_centre(self.g, cell, digit);
            write!(
                d,
                "M{} {}L{} {}",
                N(x - reach),
                N(y + reach),
                N(x + reach),
                N(y - reach)
            )?;
        }
        for (colour, w) in [("white", width + 1.0), (colours::ELIMINATION, width)] {
            writeln!(
                out,
                r#"<path d="{d}" stroke="{colour}" stroke-width="{}" stroke-linecap="round" fill="none"/>"#,
                N(w)
            )?;
        }
        Ok(())
    }

    fn caption(&self, out: &mut String) -> fmt::Result {
        if self.caption.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            r#"<g fill="{}" font-size="{}">"#,
            colours::TEXT,
            N(CAPTION_FONT)
        )?;
        let first = MARGIN + self.grid() + CAPTION_GAP + CAPTION_FONT;
        for (i, line) in self.caption.iter().enumerate() {
            writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                N(MARGIN),
                N(first + i as f64 * CAPTION_LINE),
                Escaped(line)
            )?;
        }
        writeln!(out, "</g>")
    }
}

/// The width of the thick lines: thinner on the large grids, where a
/// cell's slots are small and a heavy border would crowd its marks.
fn thick_width(g: Geometry) -> f64 {
    if g.box_size >= 4 { 2.5 } else { 3.0 }
}

/// The digit of `cell` in a row-major list, 0 (none) past its end.
fn digit_at(digits: &[u8], cell: usize) -> u8 {
    digits.get(cell).copied().unwrap_or(0)
}

/// The maximal runs `from..to` of `0..n` where `on` holds.
fn runs(n: usize, on: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for j in 0..=n {
        match (start, j < n && on(j)) {
            (None, true) => start = Some(j),
            (Some(from), false) => {
                found.push((from, j));
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// A link as drawn: a quadratic curve that leaves and enters its
/// candidates at their discs' edges, so the discs and digits stay clear.
struct LinkCurve {
    start: (f64, f64),
    control: (f64, f64),
    end: (f64, f64),
}

impl LinkCurve {
    fn new(g: Geometry, a: Candidate, b: Candidate) -> Self {
        // Either order draws the same curve: the bend's side follows the
        // candidates, not the order the step listed them in.
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let slot = CELL / g.box_size as f64;
        let (p, q) = (candidate_centre(g, a.0, a.1), candidate_centre(g, b.0, b.1));
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let length = dx.hypot(dy).max(f64::EPSILON);
        let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        let mut normal = (dy / length, -dx / length);
        // A straight line would pass through the candidates between the
        // two ends (the same digit of every cell between them, in a row):
        // a gentle bend passes beside them. Inside one cell the two slots
        // are so close that only a deep bend, towards the cell's middle,
        // leaves a visible line between the discs.
        let bend = if a.0 == b.0 {
            let (x, y) = cell_origin(g, a.0);
            let inward = (x + CELL / 2.0 - mid.0, y + CELL / 2.0 - mid.1);
            if normal.0 * inward.0 + normal.1 * inward.1 < 0.0 {
                normal = (-normal.0, -normal.1);
            }
            (length * 0.12).max(slot)
        } else {
            length * 0.12
        };
        let control = (mid.0 + normal.0 * bend, mid.1 + normal.1 * bend);
        let radius = slot * 0.44;
        let towards = |from: (f64, f64)| {
            let (ux, uy) = (control.0 - from.0, control.1 - from.1);
            let l = ux.hypot(uy).max(f64::EPSILON);
            (from.0 + ux / l * radius, from.1 + uy / l * radius)
        };
        LinkCurve {
            start: towards(p),
            control,
            end: towards(q),
        }
    }

    /// The curve's point at its parameter 1/2.
    fn point_at_half(&self) -> (f64, f64) {
        let (s, c, e) = (self.start, self.control, self.end);
        (
            0.25 * s.0 + 0.5 * c.0 + 0.25 * e.0,
            0.25 * s.1 + 0.5 * c.1 + 0.25 * e.1,
        )
    }
}

/// The caption's lines: its own line breaks kept, each paragraph broken
/// at spaces into lines of at most `width` characters (a longer word is
/// cut, since the picture cannot widen for it).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let chars: Vec<char> = word.chars().collect();
            for piece in chars.chunks(width) {
                let len = line.chars().count();
                if len > 0 && len + 1 + piece.len() > width {
                    lines.push(std::mem::take(&mut line));
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.extend(piece);
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

/// A number as the SVG writes it: at most two decimals, none when whole,
/// so the document stays short and the same board gives the same text.
struct N(f64);

impl Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = (self.0 * 100.0).round() / 100.0;
        // -0 would print as "-0".
        let x = if x == 0.0 { 0.0 } else { x };
        let text = format!("{x:.2}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(text)
    }
}

/// Text escaped for XML content and attribute values.
struct Escaped<'a>(&'a str);

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for ch in self.0.chars() {
            match ch {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                _ => f.write_char(ch)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        let shown: Vec<String> = [12.0, 12.5, 1.0 / 3.0, -0.001, 100.006]
            .iter()
            .map(|&x| N(x).to_string())
            .collect();
        assert_eq!(shown, ["12", "12.5", "0.33", "0", "100.01"]);
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            Escaped(r#"r1c2<>6 & "x" 'y'"#).to_string(),
            "r1c2&lt;&gt;6 &amp; &quot;x&quot; &apos;y&apos;"
        );
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("one\ntwo", 20), ["one", "two"]);
        assert!(wrap("", 10).is_empty());
    }

    #[test]
    fn runs_are_maximal() {
        let on = [true, true, false, true, false, false, true];
        assert_eq!(runs(on.len(), |j| on[j]), [(0, 2), (3, 4), (6, 7)]);
        assert!(runs(3, |_| false).is_empty());
    }
}
