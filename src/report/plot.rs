//! The picture of a rating comparison (`grade --compare FILE --plot
//! OUT.svg`): sudolog's rating against the other rater's, one disc per
//! pair of ratings whose area grows with the puzzles that share it (many
//! puzzles share a pair: both scales go in tenths), over the diagonal
//! where the two agree. Drawn with `plotters` into an SVG string.

use plotters::prelude::*;
use std::collections::BTreeMap;

/// The SVG's size in pixels.
const SIZE: (u32, u32) = (720, 720);
/// The radius of the largest disc, in pixels.
const LARGEST: f64 = 18.0;

/// The SVG of `pairs` (sudolog's rating, theirs, both in tenths) with a
/// caption (`title`) and the other rater's name on its axis.
pub fn comparison_svg(pairs: &[(u32, u32)], title: &str, theirs: &str) -> Result<String, String> {
    let mut counts: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for &(ours, other) in pairs {
        *counts.entry((other, ours)).or_default() += 1;
    }
    let most = counts.values().copied().max().unwrap_or(1) as f64;
    let top = pairs
        .iter()
        .map(|&(a, b)| a.max(b))
        .max()
        .map_or(10.0, |t| (f64::from(t) / 10.0).ceil().max(10.0));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5..top + 0.5, 0.5..top + 0.5)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(format!("{theirs} rating"))
            .y_desc("sudolog rating")
            .x_labels(12)
            .y_labels(12)
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| e.to_string())?;
        // Where the two ratings agree.
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.5, 0.5), (top + 0.5, top + 0.5)],
                BLACK.mix(0.4),
            )))
            .map_err(|e| e.to_string())?;
        let discs = counts.iter().map(|(&(other, ours), &n)| {
            // Area, not radius, in proportion to the count.
            let radius = (LARGEST * (n as f64 / most).sqrt()).max(1.5);
            Circle::new(
                (f64::from(other) / 10.0, f64::from(ours) / 10.0),
                radius,
                BLUE.mix(0.45).filled(),
            )
        });
        chart.draw_series(discs).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_per_pair_of_ratings_and_the_caption() {
        let pairs = [(12, 12), (12, 12), (66, 71), (23, 15)];
        let svg = comparison_svg(&pairs, "sudolog against SER", "SER").expect("drawn");
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("sudolog against SER"));
        assert!(svg.contains("SER rating"));
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
    }
}
