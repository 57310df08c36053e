//! `grfgen sweep plot`: a sweep's figures as an SVG chart, one series per value of a swept
//! name, optionally with each series' Pareto front.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use serde_json::Value;

use grfgen_hdl::params::suggestion;
use grfgen_support::text::quoted;

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

/// The name a user wrote for a quantity, as records spell it: `read-ports` is `read_ports`.
pub fn canonical(name: &str) -> String {
    name.trim().trim_start_matches("--").replace('-', "_")
}

/// Every name a plot may use in `records` (of a sweep that lists `swept`): the metrics, the
/// parameters and options, the report's numeric fields and the iCE40 cell counts.
fn names(records: &BTreeMap<usize, Record>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if let Some(r) = records.values().find(|r| r.ok()) {
        names.extend(r.metrics.iter().map(|(n, _)| n.clone()));
        for object in [&r.parameters, &r.options] {
            names.extend(
                object
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k.clone()),
            );
        }
        let numeric = r.report.as_object().into_iter().flatten();
        names.extend(
            numeric
                .filter(|(_, v)| v.is_number())
                .map(|(k, _)| k.clone()),
        );
        if r.ice40.is_some() {
            names.extend(["ice40_lut4", "ice40_ram40", "ice40_cells"].map(String::from));
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The refusal of `name` for `flag`: the names allowed, and the likeliest one meant.
fn unknown(name: &str, flag: &str, why: &str, allowed: &[String]) -> CliError {
    let hint = match suggestion(name, allowed.iter().map(String::as_str)) {
        Some(near) => format!("; did you mean {near}?"),
        None => String::new(),
    };
    CliError::Input(format!(
        "invalid value {} for {flag}: {why}; allowed {}{hint}",
        quoted(name),
        allowed.join(", ")
    ))
}

/// The x values of a plot: numbers, or categories (a swept option such as `policy`) drawn at
/// 0, 1, 2, ... in the order the sweep lists them.
enum Axis {
    /// Every x is a number.
    Numbers,
    /// The categories, in order.
    Categories(Vec<String>),
}

/// The points of every series, by the series' value.
type Lines = BTreeMap<String, Vec<(f64, f64)>>;

/// The points of each series: `(x, y)` of every ok record, grouped by `series`; and whether x
/// is numeric or categorical.
fn series(
    spec: &Spec,
    records: &BTreeMap<usize, Record>,
    (x, x_flag): (&str, &str),
    y: &str,
    by: Option<&str>,
) -> Result<(Lines, Axis), CliError> {
    let allowed = names(records);
    let ok = || records.values().filter(|r| r.ok());
    for (name, flag) in [(x, x_flag), (y, "--y")] {
        if ok().any(|r| quantity(r, name).is_none()) {
            return Err(unknown(name, flag, "not a figure of this sweep", &allowed));
        }
    }
    let xs: Vec<Value> = ok().filter_map(|r| quantity(r, x)).collect();
    let axis = match xs.iter().all(|v| number(v).is_some()) {
        true => Axis::Numbers,
        false => {
            // The order the sweep lists them in, then any other in sorted order.
            let listed = (spec.parameters.iter().chain(&spec.options))
                .find(|(n, _)| n == x)
                .map(|(_, values)| values.clone())
                .unwrap_or_default();
            let mut found: Vec<String> = xs.iter().map(label).collect();
            found.sort();
            found.dedup();
            let mut order: Vec<String> = listed.into_iter().filter(|v| found.contains(v)).collect();
            let rest: Vec<String> = found.into_iter().filter(|v| !order.contains(v)).collect();
            order.extend(rest);
            Axis::Categories(order)
        }
    };
    let mut out = Lines::new();
    for r in ok() {
        let at = |value: Value| match &axis {
            Axis::Categories(order) => order
                .iter()
                .position(|c| *c == label(&value))
                .map(|i| i as f64),
            Axis::Numbers => number(&value),
        };
        let px = quantity(r, x).and_then(at);
        let py = quantity(r, y).as_ref().and_then(number);
        let (Some(px), Some(py)) = (px, py) else {
            return Err(unknown(
                y,
                "--y",
                &format!("not a number in point {}", r.index),
                &allowed,
            ));
        };
        let key = match by {
            Some(name) => quantity(r, name).as_ref().map_or("-".into(), label),
            None => String::new(),
        };
        out.entry(key).or_default().push((px, py));
    }
    for points in out.values_mut() {
        points.sort_by(|a, b| a.partial_cmp(b).expect("finite figures"));
    }
    Ok((out, axis))
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

/// The formats a plot is written in, by the name's extension.
const FORMATS: &str = ".svg (SVG) or .png (PNG)";

/// Draws `records` of sweep `spec` as `plot` says into `out`: SVG, or PNG for a name ending in
/// `.png`. Returns the series drawn.
pub fn plot(
    spec: &Spec,
    records: &BTreeMap<usize, Record>,
    plot: &PlotSpec,
    out: &Path,
) -> Result<Vec<String>, CliError> {
    let png = format_of(out)?;
    if let Some(name) = plot.series {
        let swept: Vec<String> = (spec.parameters.iter())
            .chain(&spec.options)
            .map(|(n, _)| n.clone())
            .collect();
        if !swept.iter().any(|s| s == name) {
            let why = match swept.is_empty() {
                true => "the sweep lists no values",
                false => "not a name this sweep lists",
            };
            return Err(unknown(name, "--series", why, &swept));
        }
    }
    let x_flag = match plot.pareto {
        true => "--pareto",
        false => "--x",
    };
    let (lines, axis) = series(spec, records, (plot.x, x_flag), plot.y, plot.series)?;
    if lines.is_empty() {
        return Err(CliError::Input(format!(
            "invalid value {} for DIR: no point finished ok",
            spec.block
        )));
    }
    let svg = draw(spec, &lines, &axis, plot, out)?;
    let bytes = match png {
        true => rasterize(&svg, out)?,
        false => svg.into_bytes(),
    };
    write_file("--out", out, &bytes)?;
    Ok(lines.into_keys().collect())
}

/// Whether `out` asks for PNG (`.png`) rather than SVG (`.svg`); any other name is refused,
/// but for a special file (`/dev/stdout`, a FIFO), which gets SVG unless it ends in `.png`.
pub fn format_of(out: &Path) -> Result<bool, CliError> {
    let extension = out.extension().map(|e| e.to_string_lossy().to_lowercase());
    match extension.as_deref() {
        Some("png") => Ok(true),
        Some("svg") => Ok(false),
        _ if crate::output::is_special(out) => Ok(false),
        _ => Err(CliError::Input(format!(
            "invalid value {} for --out: allowed a name ending in {FORMATS}",
            quoted(&out.to_string_lossy())
        ))),
    }
}

/// Pixels kept right of a chart's plotting area for its legend, so that the legend covers no
/// point, line or label.
pub(crate) const LEGEND_WIDTH: u32 = 250;

/// A tick label: a whole number as one (`5200`, `1`), else with at most three decimals and no
/// trailing zeros.
pub(crate) fn tick(value: &f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{value:.0}");
    }
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Draws `chart`'s legend in the [`LEGEND_WIDTH`] pixels kept beside its plotting area.
pub(crate) fn legend_beside<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
) -> Result<(), String> {
    let (width, _) = chart.plotting_area().dim_in_pixel();
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::Coordinate(width as i32 + 15, 0))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

/// `svg` rendered as a PNG image, with the machine's fonts for its text.
pub(crate) fn rasterize(svg: &str, out: &Path) -> Result<Vec<u8>, CliError> {
    let failed = |e: String| CliError::Failed(format!("drawing {}: {e}", out.display()));
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    // The chart asks for `sans-serif`: the first of the usual Linux sans fonts installed (a
    // font database names Arial otherwise), else any font there is.
    let families: Vec<String> = (options.fontdb.faces())
        .flat_map(|face| face.families.iter().map(|(name, _)| name.clone()))
        .collect();
    let preferred = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Lato"];
    let sans = (preferred.iter())
        .find(|p| families.iter().any(|f| f == *p))
        .map(|p| p.to_string())
        .or_else(|| families.first().cloned());
    if let Some(sans) = sans {
        options.fontdb_mut().set_sans_serif_family(sans.clone());
        options.font_family = sans;
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| failed(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| failed("an empty image".into()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| failed(e.to_string()))
}

/// The chart of `lines` as SVG text.
fn draw(
    spec: &Spec,
    lines: &Lines,
    axis: &Axis,
    plot: &PlotSpec,
    out: &Path,
) -> Result<String, CliError> {
    let all = || lines.values().flatten();
    let (xs, ys) = (range(all().map(|p| p.0)), range(all().map(|p| p.1)));
    let mut svg = String::new();
    let failed = |e: String| CliError::Failed(format!("drawing {}: {e}", out.display()));
    {
        let root = SVGBackend::with_string(&mut svg, (800 + LEGEND_WIDTH, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
        let title = format!("{}: {} against {}", spec.block, plot.y, plot.x);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .margin_right(15 + LEGEND_WIDTH)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(xs, ys)
            .map_err(|e| failed(e.to_string()))?;
        let category = |v: &f64| match axis {
            Axis::Categories(order) if (v - v.round()).abs() < 1e-6 && *v >= 0.0 => {
                order.get(v.round() as usize).cloned().unwrap_or_default()
            }
            Axis::Categories(_) => String::new(),
            Axis::Numbers => tick(v),
        };
        let (x_unit, ticks) = match axis {
            Axis::Categories(order) => (String::new(), order.len().max(2) * 4 - 3),
            Axis::Numbers => (format!(" ({})", unit(plot.x)), 10),
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(format!("{}{x_unit}", plot.x))
            .y_desc(format!("{} ({})", plot.y, unit(plot.y)))
            .x_labels(ticks)
            .x_label_formatter(&category)
            .y_label_formatter(&tick);
        mesh.draw().map_err(|e| failed(e.to_string()))?;
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
        legend_beside(&mut chart).map_err(failed)?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    Ok(svg)
}
