//! The exploration's chart: time over the workloads against LUTs plus flip-flops, every
//! costed design as a dot, the points that miss a constraint crossed out, the front marked
//! with each point's block RAMs, and the recommendation ringed.

use plotters::prelude::*;

use super::points::{Constraints, Estimate};
use crate::error::CliError;
use crate::sweep::plot::{legend_beside, tick, LEGEND_WIDTH};

/// One design on the chart.
pub struct Dot {
    /// Its figures.
    pub estimate: Estimate,
    /// Whether it is on the front.
    pub front: bool,
    /// Whether it meets the constraints (as far as is known).
    pub feasible: bool,
    /// Whether it is the recommendation.
    pub recommended: bool,
}

/// A range around `values` with a margin, never empty.
fn range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-6);
    (lo - pad).max(0.0)..hi + pad
}

/// The constraints in words, for the chart's caption.
fn caption(constraints: &Constraints) -> String {
    let mut parts = Vec::new();
    if let Some(f) = constraints.min_fmax_mhz {
        parts.push(format!("Fmax >= {f} MHz"));
    }
    if let Some(l) = constraints.max_luts {
        parts.push(format!("LUT <= {l}"));
    }
    if let Some(b) = constraints.max_brams {
        parts.push(format!("BRAM <= {b}"));
    }
    match parts.is_empty() {
        true => "no constraints".into(),
        false => parts.join(", "),
    }
}

/// The chart of `dots` as SVG text, titled `title`.
pub fn svg(title: &str, dots: &[Dot], constraints: &Constraints) -> Result<String, CliError> {
    let failed = |e: String| CliError::Failed(format!("drawing the exploration's chart: {e}"));
    let finite: Vec<&Dot> = dots
        .iter()
        .filter(|d| d.estimate.time_ns.is_finite())
        .collect();
    let xs = range(finite.iter().map(|d| d.estimate.logic));
    let ys = range(finite.iter().map(|d| d.estimate.time_ns));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860 + LEGEND_WIDTH, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{title} ({})", caption(constraints)),
                ("sans-serif", 18),
            )
            .margin(15)
            .margin_right(15 + LEGEND_WIDTH)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(xs, ys)
            .map_err(|e| failed(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("LUT + FF")
            .y_desc("time over the workloads (ns)")
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .draw()
            .map_err(|e| failed(e.to_string()))?;
        let at = |d: &Dot| (d.estimate.logic, d.estimate.time_ns);
        let grey = RGBColor(150, 150, 150);
        chart
            .draw_series(
                finite
                    .iter()
                    .filter(|d| d.feasible)
                    .map(|d| Circle::new(at(d), 3, grey.filled())),
            )
            .map_err(|e| failed(e.to_string()))?
            .label("design")
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, grey.filled()));
        chart
            .draw_series(
                finite
                    .iter()
                    .filter(|d| !d.feasible)
                    .map(|d| Cross::new(at(d), 4, RED.stroke_width(2))),
            )
            .map_err(|e| failed(e.to_string()))?
            .label("misses a constraint")
            .legend(|(x, y)| Cross::new((x + 10, y), 4, RED.stroke_width(2)));
        // The front is over three figures, so its points are marked, not joined: each is
        // labelled with its block RAMs, the figure the chart does not show.
        let front: Vec<&&Dot> = finite.iter().filter(|d| d.front).collect();
        chart
            .draw_series(front.iter().map(|d| Circle::new(at(d), 5, BLUE.filled())))
            .map_err(|e| failed(e.to_string()))?
            .label("Pareto front (LUT+FF, BRAM, time)")
            .legend(|(x, y)| Circle::new((x + 10, y), 5, BLUE.filled()));
        chart
            .draw_series(front.iter().map(|d| {
                let label = format!("{} BRAM", tick(&d.estimate.brams));
                EmptyElement::at(at(d))
                    + Text::new(label, (8, -16), ("sans-serif", 12).into_font().color(&BLUE))
            }))
            .map_err(|e| failed(e.to_string()))?;
        let green = RGBColor(0, 150, 60);
        chart
            .draw_series(
                finite
                    .iter()
                    .filter(|d| d.recommended)
                    .map(|d| Circle::new(at(d), 9, green.stroke_width(3))),
            )
            .map_err(|e| failed(e.to_string()))?
            .label("recommended")
            .legend(move |(x, y)| Circle::new((x + 10, y), 6, green.stroke_width(3)));
        legend_beside(&mut chart).map_err(failed)?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    Ok(svg)
}
