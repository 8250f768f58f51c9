//! The step pictures (`picture::svg::render`), checked as a reader sees
//! them: boards built by hand are rendered to pixels with resvg, and the
//! pixels where a cell, a candidate or a link must be drawn are compared
//! with the colours of `picture::colours`, which the drawing uses too.

use std::sync::{Arc, LazyLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use sudolog::Geometry;
use sudolog::picture::svg::{self, CELL, MARGIN, candidate_centre, cell_origin, link_midpoint};
use sudolog::picture::{Board, Candidate, Marks, colours};

/// The system's fonts, loaded once for all the tests (loading takes
/// longer than rendering a picture).
static FONTS: LazyLock<Arc<fontdb::Database>> = LazyLock::new(|| {
    let mut db = fontdb::Database::new();
    db.load_system_fonts();
    Arc::new(db)
});

/// Rendered pixels per SVG unit: twice the picture's size, so that a
/// small pencil mark has pixels fully inside its strokes.
const SCALE: f32 = 2.0;

/// How far a channel may stray from the named colour (anti-aliasing).
const TOLERANCE: u8 = 10;

/// A picture as pixels.
struct Picture {
    pixels: Pixmap,
    scale: f32,
}

impl Picture {
    /// The colours of the pixels whose centres lie within `half` SVG
    /// units (in x and in y) of `point`.
    fn around(&self, point: (f64, f64), half: f64) -> Vec<[u8; 3]> {
        let s = f64::from(self.scale);
        let (x0, x1) = ((point.0 - half) * s, (point.0 + half) * s);
        let (y0, y1) = ((point.1 - half) * s, (point.1 + half) * s);
        let mut found = Vec::new();
        for y in (y0.floor().max(0.0) as u32)..(y1.ceil() as u32) {
            for x in (x0.floor().max(0.0) as u32)..(x1.ceil() as u32) {
                let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                if !(x0..=x1).contains(&cx) || !(y0..=y1).contains(&cy) {
                    continue;
                }
                let p = self
                    .pixels
                    .pixel(x, y)
                    .expect("the point is inside the picture");
                // The background is opaque, so premultiplied is plain.
                assert_eq!(p.alpha(), 255, "transparent pixel at {x},{y}");
                found.push([p.red(), p.green(), p.blue()]);
            }
        }
        assert!(!found.is_empty(), "no pixel around {point:?}");
        found
    }

    /// How many pixels around `point` have the colour `hex`.
    fn count(&self, point: (f64, f64), half: f64, hex: &str) -> usize {
        let want = rgb(hex);
        self.around(point, half)
            .iter()
            .filter(|&&p| close(p, want))
            .count()
    }

    /// Whether every pixel around `point` has the colour `hex`.
    fn all(&self, point: (f64, f64), half: f64, hex: &str) -> bool {
        let want = rgb(hex);
        self.around(point, half).iter().all(|&p| close(p, want))
    }
}

fn rgb(hex: &str) -> [u8; 3] {
    let hex = hex.strip_prefix('#').expect("a #rrggbb colour");
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits");
    [channel(0), channel(2), channel(4)]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= TOLERANCE)
}

/// The SVG parsed as a viewer would, with the system's fonts.
fn parse(svg: &str) -> usvg::Tree {
    assert!(
        !FONTS.is_empty(),
        "no system font: the tests of digits would pass without drawing any"
    );
    let options = usvg::Options {
        fontdb: Arc::clone(&FONTS),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).unwrap_or_else(|e| panic!("{e}\n{svg}"))
}

fn draw_at(board: &Board, marks: &Marks, scale: f32) -> Picture {
    let tree = parse(&svg::render(board, marks));
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .expect("a picture of some size");
    let mut pixels = Pixmap::new(size.width(), size.height()).expect("a picture of some size");
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixels.as_mut(),
    );
    Picture { pixels, scale }
}

fn draw(board: &Board, marks: &Marks) -> Picture {
    draw_at(board, marks, SCALE)
}

/// An empty grid of side `n`: no digits, no candidates, standard boxes.
fn empty(n: usize) -> Board {
    let geometry = Geometry::from_side(n).expect("a supported size");
    let cells = geometry.cell_count();
    Board {
        geometry,
        regions: (0..cells).map(|c| geometry.box_of(c)).collect(),
        extra_units: Vec::new(),
        givens: vec![0; cells],
        placed: vec![0; cells],
        candidates: vec![0; cells],
    }
}

fn nine() -> Geometry {
    Geometry::from_side(9).expect("9x9")
}

/// The cell at 1-based row and column, as the step texts name it.
fn rc(row: usize, col: usize) -> usize {
    nine().cell_at(row - 1, col - 1)
}

/// A point inside a cell, `dx` and `dy` from its top-left corner.
fn in_cell(g: Geometry, cell: usize, dx: f64, dy: f64) -> (f64, f64) {
    let (x, y) = cell_origin(g, cell);
    (x + dx, y + dy)
}

fn centre(g: Geometry, (cell, digit): Candidate) -> (f64, f64) {
    candidate_centre(g, cell, digit)
}

/// The side of a candidate's slot.
fn slot(g: Geometry) -> f64 {
    CELL / g.box_size as f64
}

#[test]
fn highlighted_cells_and_units_are_shaded() {
    let mut board = empty(9);
    board.extra_units = vec![vec![rc(9, 9), rc(1, 9)]];
    let marks = Marks {
        units: vec![(1..=9).map(|c| rc(5, c)).collect()],
        cells: vec![rc(3, 3), rc(5, 3), rc(1, 9)],
        ..Marks::default()
    };
    let picture = draw(&board, &marks);
    let g = nine();
    let corner = |cell| in_cell(g, cell, 6.0, 6.0);

    assert!(picture.all(corner(rc(3, 3)), 2.0, colours::CELL));
    assert!(picture.all(corner(rc(1, 1)), 2.0, "#ffffff"));
    assert!(picture.all(corner(rc(3, 4)), 2.0, "#ffffff"));
    assert!(picture.all(corner(rc(5, 7)), 2.0, colours::UNIT));
    assert!(picture.all(corner(rc(9, 9)), 2.0, colours::EXTRA_UNIT));
    // Highlighted cells lie over unit shading, and unit shading over the
    // variant's.
    assert!(picture.all(corner(rc(5, 3)), 2.0, colours::CELL));
    assert!(picture.all(corner(rc(1, 9)), 2.0, colours::CELL));
    // The whole cell is shaded, up to its grid lines.
    assert!(picture.all(
        in_cell(g, rc(3, 3), CELL - 4.0, CELL - 4.0),
        1.0,
        colours::CELL
    ));
}

#[test]
fn conclusions_and_pattern_candidates_get_their_discs() {
    let g = nine();
    let mut board = empty(9);
    let all: u32 = g.digit_mask();
    for cell in [rc(2, 2), rc(4, 4), rc(6, 6)] {
        board.candidates[cell] = all;
    }
    let (eliminated, placed, pattern) = ((rc(2, 2), 4), (rc(4, 4), 7), (rc(6, 6), 2));
    let marks = Marks {
        candidates: vec![pattern],
        eliminations: vec![eliminated],
        placements: vec![placed],
        ..Marks::default()
    };
    let picture = draw(&board, &marks);
    let radius = slot(g) * 0.4;

    // The disc shows between the digit and the disc's edge: a good part
    // of the slot has its colour.
    let disc = |c, colour| picture.count(centre(g, c), radius, colour);
    assert!(disc(eliminated, colours::ELIMINATION) > 60);
    assert!(disc(placed, colours::PLACEMENT) > 60);
    assert!(disc(pattern, colours::CANDIDATE) > 60);
    // Each colour marks its own candidate only.
    for (c, colour) in [
        (eliminated, colours::PLACEMENT),
        (placed, colours::ELIMINATION),
        (pattern, colours::ELIMINATION),
        ((rc(2, 2), 5), colours::ELIMINATION),
        ((rc(4, 4), 5), colours::PLACEMENT),
        ((rc(6, 6), 1), colours::CANDIDATE),
    ] {
        assert_eq!(disc(c, colour), 0, "{colour} at {c:?}");
    }
    // The placement's cell is framed, the others are not.
    let left_edge = |cell| in_cell(g, cell, 3.5, CELL / 2.0);
    assert!(picture.count(left_edge(placed.0), 1.0, colours::PLACEMENT) > 0);
    assert_eq!(
        picture.count(left_edge(eliminated.0), 1.0, colours::PLACEMENT),
        0
    );
}

#[test]
fn digits_sit_in_their_cells() {
    let g = nine();
    let mut board = empty(9);
    board.givens[rc(1, 1)] = 5;
    board.placed[rc(1, 2)] = 3;
    board.candidates[rc(1, 4)] = 1 << 3;
    // Marks of a cell that has a digit are not drawn over the digit.
    board.candidates[rc(1, 1)] = 1 << 1;
    let picture = draw(&board, &Marks::default());
    let middle = |cell| in_cell(g, cell, CELL / 2.0, CELL / 2.0);
    let inside = CELL / 2.0 - 5.0;
    let white = "#ffffff";

    assert!(picture.count(middle(rc(1, 1)), inside, colours::GIVEN) > 20);
    assert!(picture.count(middle(rc(1, 2)), inside, colours::PLACED) > 20);
    assert_eq!(picture.count(middle(rc(1, 2)), inside, colours::GIVEN), 0);
    assert!(picture.all(middle(rc(1, 3)), inside, white));
    // (The slot's corner of the cell is clear of the big digit.)
    assert!(picture.all(centre(g, (rc(1, 1), 1)), slot(g) / 4.0, white));

    // The pencil mark 3 is in the slot of 3, nowhere else in its cell.
    let mark = |digit| centre(g, (rc(1, 4), digit));
    assert!(picture.count(mark(3), slot(g) / 2.0, colours::MARK) > 3);
    // (Clear of the thick box border left of the cell.)
    for other in [1, 2, 4, 5, 6, 7, 8, 9] {
        assert!(
            picture.all(mark(other), slot(g) / 2.0 - 3.0, white),
            "{other}"
        );
    }
}

#[test]
fn links_are_drawn_between_candidates() {
    let g = nine();
    let mut board = empty(9);
    for cell in [rc(1, 1), rc(1, 5), rc(5, 5)] {
        board.candidates[cell] = g.digit_mask();
    }
    let across = ((rc(1, 1), 1), (rc(1, 5), 1));
    let within = ((rc(5, 5), 1), (rc(5, 5), 2));
    let marks = Marks {
        links: vec![across, within],
        ..Marks::default()
    };
    let linked = draw(&board, &marks);
    let unlinked = draw(&board, &Marks::default());

    for (a, b) in [across, within] {
        let mid = link_midpoint(g, a, b);
        // Near the middle between the two candidates, in the cell for a
        // link within one cell.
        let (p, q) = (centre(g, a), centre(g, b));
        let straight = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        let off = (mid.0 - straight.0).hypot(mid.1 - straight.1);
        assert!(off < CELL / 2.0, "{a:?}-{b:?}: {off} off the middle");
        if a.0 == b.0 {
            let (x, y) = cell_origin(g, a.0);
            assert!((x..x + CELL).contains(&mid.0) && (y..y + CELL).contains(&mid.1));
        }
        assert!(linked.count(mid, 1.0, colours::LINK) > 0, "{a:?}-{b:?}");
        assert_eq!(unlinked.count(mid, 1.0, colours::LINK), 0);
    }
}

#[test]
fn large_grids_render_and_parse() {
    for n in [16, 25] {
        let mut board = empty(n);
        let g = board.geometry;
        let last = g.cell_count() - 1;
        board.givens[0] = n as u8;
        board.placed[1] = 10;
        board.candidates[last] = g.digit_mask();
        let marks = Marks {
            cells: vec![last],
            candidates: vec![(last, 1)],
            eliminations: vec![(last, n as u8)],
            links: vec![((last, 1), (last - 1, 1))],
            caption: format!("A {n}x{n} step: r{n}c{n}<>{n}"),
            ..Marks::default()
        };
        board.candidates[last - 1] = 1 << 1;
        let tree = parse(&svg::render(&board, &marks));
        let side = n as f32 * CELL as f32 + 2.0 * MARGIN as f32;
        assert_eq!(tree.size().width(), side, "{n}x{n}");
        assert!(tree.size().height() > side);

        let picture = draw_at(&board, &marks, 1.0);
        let middle = |cell| in_cell(g, cell, CELL / 2.0, CELL / 2.0);
        assert!(picture.count(middle(0), CELL / 2.0 - 5.0, colours::GIVEN) > 10);
        let small_disc = |c, colour| picture.count(centre(g, c), slot(g) * 0.4, colour);
        assert!(small_disc((last, 1), colours::CANDIDATE) > 5);
        assert!(small_disc((last, n as u8), colours::ELIMINATION) > 5);
    }
}

#[test]
fn regions_get_thick_borders_where_they_meet() {
    let mut board = empty(9);
    // A jigsaw-like map: r1c4 belongs to the first region, not the second
    // box, so the border runs right of it and not left of it.
    board.regions[rc(1, 4)] = board.regions[rc(1, 1)];
    let picture = draw(&board, &Marks::default());
    let line = |col: usize, row: usize| {
        (
            MARGIN + col as f64 * CELL,
            MARGIN + (row as f64 + 0.5) * CELL,
        )
    };
    let dark = |point| picture.all(point, 0.5, colours::BORDER);
    let light = |point| {
        picture
            .around(point, 1.0)
            .iter()
            .all(|p| p.iter().all(|&c| c >= 140))
    };

    // Between r1c4 and r1c5 (regions meet), and under r1c4.
    assert!(dark(line(4, 0)));
    assert!(dark((MARGIN + 3.5 * CELL, MARGIN + CELL)));
    // Between r1c3 and r1c4 (one region): thin, though a box border in
    // the standard boxes; below it the standard border is thick.
    assert!(light(line(3, 0)));
    assert!(dark(line(3, 1)));
    // Thin lines inside a region are drawn, in their own colour.
    assert!(light(line(1, 0)));
    assert!(picture.count(line(1, 0), 1.0, colours::GRID) > 0);
    // The outer border.
    assert!(dark(line(0, 4)));
    assert!(dark(line(9, 4)));
}

#[test]
fn captions_are_escaped_and_wrapped() {
    let caption = "Locked candidates: r1c2<>6 & more, because \"box 1\" holds 6 only in row 1; \
                   the rest of the sentence is long enough to need more than one line under a 4x4 grid";
    let marks = Marks {
        caption: caption.to_string(),
        ..Marks::default()
    };
    let svg = svg::render(&empty(4), &marks);
    assert!(svg.contains("r1c2&lt;&gt;6 &amp; more"));
    let tree = parse(&svg);

    // The text reads back as written, over several lines that fit the
    // picture.
    let mut lines = Vec::new();
    for node in tree.root().children() {
        collect_texts(node, &mut lines);
    }
    assert!(lines.len() > 2, "{lines:?}");
    let words: Vec<&str> = lines.iter().map(|(text, _)| text.as_str()).collect();
    assert_eq!(words.join(" "), caption);
    let width = tree.size().width();
    for (text, right) in &lines {
        assert!(
            *right <= width - MARGIN as f32 / 2.0,
            "{text:?} ends at {right} of {width}"
        );
    }
}

/// The text (and right edge) of every text element under `node`.
fn collect_texts(node: &usvg::Node, out: &mut Vec<(String, f32)>) {
    match node {
        usvg::Node::Group(group) => {
            for child in group.children() {
                collect_texts(child, out);
            }
        }
        usvg::Node::Text(text) => {
            let chunks: Vec<&str> = text.chunks().iter().map(|c| c.text()).collect();
            out.push((chunks.concat(), text.abs_bounding_box().right()));
        }
        _ => {}
    }
}

/// An SVG file the tool wrote, as pixels.
fn rasterize(svg: &str) -> Picture {
    let tree = parse(svg);
    let size = tree
        .size()
        .to_int_size()
        .scale_by(SCALE)
        .expect("a picture of some size");
    let mut pixels = Pixmap::new(size.width(), size.height()).expect("a picture of some size");
    resvg::render(
        &tree,
        Transform::from_scale(SCALE, SCALE),
        &mut pixels.as_mut(),
    );
    Picture {
        pixels,
        scale: SCALE,
    }
}

#[test]
fn path_hint_and_explain_draw_the_same_x_wing_step() {
    // HoDoKu's X-wing case (0300): 3 in rows 3 and 7 lies in columns 3
    // and 4 only, so 3 leaves the rest of those columns.
    let case = ":0300:3:9.....+5+6+1..+6.+1.7+937+1..962486...2+147+9........5....4...642..+586+1+75.71.+2..+4..1....+52::313 314 343 344 353 354 363 364 394::";
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("xwing.txt");
    std::fs::write(&input, format!("{case}\n")).expect("the case is written");
    let input = input.to_str().expect("utf-8");
    let run = |args: &[&str]| {
        let out = crate::common::sudolog()
            .args(args)
            .output()
            .expect("sudolog runs");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let steps = dir.path().join("steps");
    let explained = dir.path().join("explain.svg");
    let hints = dir.path().join("hints");
    run(&["path", "--svg", steps.to_str().expect("utf-8"), input]);
    run(&[
        "explain",
        "--max-tier",
        "all",
        "--svg",
        explained.to_str().expect("utf-8"),
        input,
        "eliminated(r1c3, 3)",
    ]);
    run(&["hint", "--svg", hints.to_str().expect("utf-8"), input]);
    let read = |p: std::path::PathBuf| std::fs::read_to_string(&p).expect("a picture");
    let x_wing = read(steps.join("puzzle1-step002.svg"));
    assert_eq!(read(explained), x_wing, "explain draws the path's step");
    // The hint sees the same state, so its second instance is the X-wing.
    assert_eq!(
        read(hints.join("puzzle1-hint2.svg")),
        x_wing,
        "hint draws it too"
    );

    let picture = rasterize(&x_wing);
    let g = Geometry::from_side(9).expect("9x9");
    let cell = |name: &str| g.parse_cell_name(name).expect("a cell");
    // Every elimination is marked, on its candidate's slot.
    for name in ["r1c3", "r1c4", "r4c3", "r9c4"] {
        let at = candidate_centre(g, cell(name), 3);
        assert!(
            picture.count(at, 3.0, colours::ELIMINATION) > 4,
            "{name}<>3 is marked"
        );
    }
    // The base rows are shaded; a row outside them is not.
    let corner = |name: &str| {
        let (x, y) = cell_origin(g, cell(name));
        (x + 4.0, y + 4.0)
    };
    assert!(
        picture.all(corner("r3c5"), 1.5, colours::UNIT),
        "row 3 is shaded"
    );
    assert!(
        picture.all(corner("r7c5"), 1.5, colours::UNIT),
        "row 7 is shaded"
    );
    assert!(picture.all(corner("r2c5"), 1.5, "#ffffff"), "row 2 is not");
    // The pattern's 3s in the base rows are circled.
    let at = candidate_centre(g, cell("r3c3"), 3);
    assert!(
        picture.count(at, 3.0, colours::CANDIDATE) > 4,
        "r3c3's 3 is circled"
    );
    // The givens sit in their cells: r1c1 holds a 9, r1c2 is open.
    let centre = |name: &str| {
        let (x, y) = cell_origin(g, cell(name));
        (x + CELL / 2.0, y + CELL / 2.0)
    };
    assert!(
        picture.count(centre("r1c1"), 8.0, colours::GIVEN) > 10,
        "r1c1's 9 is drawn"
    );
    assert_eq!(
        picture.count(centre("r2c2"), 6.0, colours::GIVEN),
        0,
        "r2c2 is open"
    );
}
