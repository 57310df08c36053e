//! `grfgen sweep plot`: a sweep's figures as an SVG chart, one series per value of a swept
//! name, optionally with each series' Pareto front.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;
use serde_json::Value;

use super::store::{Record, Spec};
use crate::error::CliError;
use crate::output::write_file;

/// The value of `name` in `record`: a metric (`fmax_mhz`, `pnr_luts` and `time_ns` with
/// `--pnr`), a parameter, an option, a report field, or an iCE40 cell count (`ice40_lut4`,
/// `ice40_ram40`, `ice40_cells`).
pub fn quantity(record: &Record, name: &str) -> Option<Value> {
    if let Some((_, v)) = record.metrics.iter().find(|(n, _)| n == name) {
        return Some(Value::from(*v));
    }
    let cells = |kind: &str| record.ice40.as_ref()?.get("by_type")?.get(kind).cloned();
    match name {
        "ice40_lut4" => return cells("SB_LUT4"),
        "ice40_ram40" => return cells("SB_RAM40_4K"),
        "ice40_cells" => return record.ice40.as_ref()?.get("cells").cloned(),
        _ => {}
    }
    [&record.parameters, &record.options, &record.report]
        .into_iter()
        .find_map(|v| v.get(name).filter(|v| !v.is_null()).cloned())
}

/// `value` as a number, if it is one (numbers, and text that reads as one).
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// `value` as a series label.
fn label(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The unit of a quantity, from its name, for the axis label.
fn unit(name: &str) -> &'static str {
    let units = [
        ("_pj", "pJ"),
        ("_ns", "ns"),
        ("_mhz", "MHz"),
        ("_seconds", "s"),
        ("cycles_over_bound", "ratio"),
        ("cycles", "cycles"),
        ("fraction", "fraction"),
        ("_rate", "fraction"),
        ("per_cycle", "per cycle"),
        ("_luts", "LUT4"),
        ("ice40_", "cells"),
        ("registers", "registers"),
        ("gprs", "registers"),
        ("waves", "waves"),
    ];
    (units.iter())
        .find(|(part, _)| name.contains(part))
        .map_or("count", |(_, unit)| unit)
}

/// The points of each series: `(x, y)` of every ok record, grouped by `series`.
fn series(
    records: &BTreeMap<usize, Record>,
    (x, x_flag): (&str, &str),
    y: &str,
    by: Option<&str>,
) -> Result<BTreeMap<String, Vec<(f64, f64)>>, CliError> {
    let mut out: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in records.values().filter(|r| r.ok()) {
        let get = |name: &str, flag: &str| {
            quantity(r, name).as_ref().and_then(number).ok_or_else(|| {
                CliError::Input(format!(
                    "invalid value {name} for {flag}: not a number in point {} (allowed a swept \
                     parameter or option, a metric, a report field, ice40_lut4 or ice40_ram40)",
                    r.index
                ))
            })
        };
        let key = match by {
            Some(name) => quantity(r, name).as_ref().map_or("-".into(), label),
            None => String::new(),
        };
        out.entry(key)
            .or_default()
            .push((get(x, x_flag)?, get(y, "--y")?));
    }
    for points in out.values_mut() {
        points.sort_by(|a, b| a.partial_cmp(b).expect("finite figures"));
    }
    Ok(out)
}

/// The points of `points` no other point beats on both coordinates (both minimised), by x.
fn pareto(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut front: Vec<(f64, f64)> = Vec::new();
    for &p in points {
        // Points come sorted by x: a point joins the front when it is lower than all before.
        if front.last().is_none_or(|last| p.1 < last.1) {
            front.push(p);
        }
    }
    front
}

/// The range of `values`, widened a little so that no point sits on the frame.
fn range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.05).max(lo.abs() * 0.05).max(1e-9);
    (lo - pad)..(hi + pad)
}

/// What to draw.
pub struct PlotSpec<'a> {
    /// The x quantity (with `pareto`, the second metric).
    pub x: &'a str,
    /// The y quantity.
    pub y: &'a str,
    /// The swept name whose values make the series.
    pub series: Option<&'a str>,
    /// Join each series' Pareto front instead of its points in x order.
    pub pareto: bool,
}

/// Draws `records` of sweep `spec` as `plot` says into `out` (SVG). Returns the series drawn.
pub fn plot(
    spec: &Spec,
    records: &BTreeMap<usize, Record>,
    plot: &PlotSpec,
    out: &Path,
) -> Result<Vec<String>, CliError> {
    if let Some(name) = plot.series {
        let swept: Vec<&str> = (spec.parameters.iter())
            .chain(&spec.options)
            .map(|(n, _)| n.as_str())
            .collect();
        if !swept.contains(&name) {
            return Err(CliError::Input(format!(
                "invalid value {} for --series: allowed a name this sweep lists: {}",
                grfgen_sim::input::shown(name),
                match swept.is_empty() {
                    true => "none (the sweep lists no values)".to_string(),
                    false => swept.join(", "),
                }
            )));
        }
    }
    let x_flag = match plot.pareto {
        true => "--pareto",
        false => "--x",
    };
    let lines = series(records, (plot.x, x_flag), plot.y, plot.series)?;
    if lines.is_empty() {
        return Err(CliError::Input(format!(
            "invalid value {} for DIR: no point finished ok",
            spec.block
        )));
    }
    let all = || lines.values().flatten();
    let (xs, ys) = (range(all().map(|p| p.0)), range(all().map(|p| p.1)));
    let mut svg = String::new();
    let failed = |e: String| CliError::Failed(format!("drawing {}: {e}", out.display()));
    {
        let root = SVGBackend::with_string(&mut svg, (800, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
        let title = format!("{}: {} against {}", spec.block, plot.y, plot.x);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(xs, ys)
            .map_err(|e| failed(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(format!("{} ({})", plot.x, unit(plot.x)))
            .y_desc(format!("{} ({})", plot.y, unit(plot.y)))
            .draw()
            .map_err(|e| failed(e.to_string()))?;
        for (k, (name, points)) in lines.iter().enumerate() {
            let colour = Palette99::pick(k).to_rgba();
            let joined = match plot.pareto {
                true => pareto(points),
                false => points.clone(),
            };
            let legend = match (plot.series, name.as_str()) {
                (Some(by), name) => format!("{by} = {name}"),
                (None, _) => plot.y.to_string(),
            };
            chart
                .draw_series(LineSeries::new(joined, colour.stroke_width(2)))
                .map_err(|e| failed(e.to_string()))?
                .label(legend)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(|e| failed(e.to_string()))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| failed(e.to_string()))?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    write_file("-o", out, svg.as_bytes())?;
    Ok(lines.into_keys().collect())
}
