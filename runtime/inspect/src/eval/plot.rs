//! `eval --svg`: the cost/quality curve an author reads to choose levels — for every reader
//! class, the catalog's tokens (x) against `hit_at_1` (y) at levels 0..=9, drawn with
//! `plotters`' SVG backend.

use super::Evaluation;
use crate::report::{levels, runs};
use plotters::prelude::*;

/// The picture's size in pixels.
const SIZE: (u32, u32) = (800, 520);

/// Why the curves could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// No reader has a task: there is no point to draw.
    #[error("cannot draw the SVG: no reader has a task: nothing to draw")]
    Empty,
    /// The drawing library failed.
    #[error("cannot draw the SVG: {0}")]
    Draw(String),
}

/// The SVG document of `eval`'s curves.
pub fn svg(eval: &Evaluation) -> Result<String, PlotError> {
    let has_points = eval.classes.iter().any(|c| !c.levels.is_empty());
    if !has_points {
        return Err(PlotError::Empty);
    }
    let mut out = String::new();
    draw(eval, &mut out).map_err(|e| PlotError::Draw(e.to_string()))?;
    Ok(out)
}

fn draw(eval: &Evaluation, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let tokens = eval
        .classes
        .iter()
        .flat_map(|c| c.levels.iter().map(|l| l.tokens));
    let (lo, hi) = tokens.fold((usize::MAX, 0), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let pad = ((hi.saturating_sub(lo)) / 20).max(5);
    let x = lo.saturating_sub(pad) as f64..(hi + pad) as f64;
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{} search hit@1 against catalog tokens, levels 0..=9 ({} tasks)",
                eval.search,
                eval.tasks.len()
            ),
            ("sans-serif", 18),
        )
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x, 0.0..1.05)?;
    chart
        .configure_mesh()
        .x_desc("catalog tokens (o200k_base)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("hit@1")
        .draw()?;
    for (i, class) in eval.classes.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = class
            .levels
            .iter()
            .map(|l| (l.tokens as f64, l.hit_at_1))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
            .label(match class.class.label().as_str() {
                "-" => "- (no runner)".to_owned(),
                label => label.to_owned(),
            })
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
        // One dot and label per run of levels at the same point.
        chart.draw_series(runs(&points).into_iter().map(|(first, last)| {
            EmptyElement::at(points[first])
                + Circle::new((0, 0), 3, color.filled())
                + Text::new(
                    levels(first, last),
                    (4, -14),
                    ("sans-serif", 11).into_font(),
                )
        }))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
