//! `grfgen sweep <block>`: every combination of the listed parameter and option values, run
//! (and synthesized with `--synth`), tabulated.

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::steps::write_design;
use grfgen_flow::tools::{synth, SynthStats, SynthTarget};
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Report, RunRecord, Setup};
use serde::Serialize;

use super::{json_arg, render, rtl, rtl_args, seed, seed_arg};
use crate::error::CliError;
use crate::params::{args, lists, Values};

/// The subcommand of `sweep` for block `B`.
pub fn command<B: Block>() -> Command {
    Command::new(B::Design::NAME)
        .about(B::Design::TITLE)
        .args(args::<ParamsOf<B>>(Values::List))
        .args(args::<B::Options>(Values::List))
        .arg(seed_arg())
        .args(rtl_args())
        .arg(
            Arg::new("synth")
                .long("synth")
                .action(ArgAction::SetTrue)
                .help("Also synthesize each point with yosys synth_ice40 and report its cells"),
        )
        .arg(json_arg())
}

/// Every combination of `lists` applied to `P`'s defaults, validated.
fn grid<P: Params>(lists: &[(&'static str, Vec<String>)]) -> Result<Vec<P>, CliError> {
    let mut points = vec![P::default()];
    for (name, values) in lists {
        let param = P::param(name).expect("listed from the table");
        let mut next = Vec::with_capacity(points.len() * values.len());
        for point in &points {
            for value in values {
                let mut p = point.clone();
                param.set(&mut p, value)?;
                next.push(p);
            }
        }
        points = next;
    }
    for p in &points {
        p.validate()?;
    }
    Ok(points)
}

/// One point of a sweep.
#[derive(Serialize)]
#[serde(bound = "")]
struct SweepPoint<B: Block> {
    parameters: ParamsOf<B>,
    options: B::Options,
    report: B::Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    ice40: Option<SynthStats>,
}

/// A whole sweep.
#[derive(Serialize)]
#[serde(bound = "")]
struct SweepReport<B: Block> {
    block: &'static str,
    seed: u64,
    swept: Vec<&'static str>,
    points: Vec<SweepPoint<B>>,
}

/// Synthesizes the design of `params` for iCE40 in a scratch directory.
fn ice40<D: Design>(params: &D::Params) -> Result<SynthStats, CliError> {
    let work = tempfile::tempdir()?;
    let top = D::top(params);
    write_design::<D>(params, &top, work.path(), Timing::new(200.0, None)?)?;
    Ok(synth(work.path(), &top, SynthTarget::Ice40)?)
}

/// The value of every swept name at a point, as text.
fn swept_values<B: Block>(point: &SweepPoint<B>, swept: &[&'static str]) -> Vec<String> {
    swept
        .iter()
        .map(|name| match ParamsOf::<B>::param(name) {
            Some(p) => p.value(&point.parameters),
            None => B::Options::param(name).map_or_else(String::new, |p| p.value(&point.options)),
        })
        .collect()
}

/// The sweep as a table: the swept values, then the block's metrics.
fn table<B: Block>(report: &SweepReport<B>) -> String {
    let Some(first) = report.points.first() else {
        return String::new();
    };
    let metrics: Vec<&str> = first.report.metrics().iter().map(|m| m.0).collect();
    let mut text = format!("seed {}\n", report.seed);
    let mut header: Vec<String> = report.swept.iter().map(|s| s.to_string()).collect();
    header.extend(metrics.iter().map(|m| m.to_string()));
    if first.ice40.is_some() {
        header.extend(["ice40_lut4".into(), "ice40_ram40".into()]);
    }
    text += &header.join("  ");
    let values: Vec<Vec<f64>> = report
        .points
        .iter()
        .map(|p| p.report.metrics().iter().map(|m| m.1).collect())
        .collect();
    // A column of counts prints as integers, any other to three decimals.
    let counts: Vec<bool> = (0..metrics.len())
        .map(|j| {
            values
                .iter()
                .all(|row| row[j].fract() == 0.0 && row[j].abs() < 1e15)
        })
        .collect();
    for (point, row_values) in report.points.iter().zip(&values) {
        let mut row = swept_values(point, &report.swept);
        row.extend(
            row_values
                .iter()
                .zip(&counts)
                .map(|(v, &count)| match count {
                    true => format!("{v:.0}"),
                    false => format!("{v:.3}"),
                }),
        );
        if let Some(s) = &point.ice40 {
            row.extend([
                s.count("SB_LUT4").to_string(),
                s.count("SB_RAM40_4K").to_string(),
            ]);
        }
        let cells: Vec<String> = row
            .iter()
            .zip(&header)
            .map(|(v, h)| format!("{v:>width$}", width = h.len()))
            .collect();
        text += &format!("\n{}", cells.join("  "));
    }
    text
}

/// Runs every point of the sweep; fails at the first mismatch.
pub fn sweep<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let param_lists = lists::<ParamsOf<B>>(m);
    let option_lists = lists::<B::Options>(m);
    let designs: Vec<ParamsOf<B>> = grid(&param_lists)?;
    let runs: Vec<B::Options> = grid(&option_lists)?;
    let seed = seed(m)?;
    let setup = Setup::new(seed, rtl(m));
    let total = designs.len() * runs.len();
    let mut points = Vec::with_capacity(total);
    for params in &designs {
        let cells = match m.get_flag("synth") {
            true => Some(ice40::<B::Design>(params)?),
            false => None,
        };
        for options in &runs {
            eprintln!("[{}/{total}] {}", points.len() + 1, B::Design::top(params));
            let record = RunRecord::<B>::run(params, options, &setup)?;
            if let Some(mismatch) = record.report.mismatch() {
                return Err(CliError::Found {
                    report: record.text(),
                    message: format!("{mismatch} (seed {seed}; replay with --seed {seed})"),
                });
            }
            points.push(SweepPoint::<B> {
                parameters: params.clone(),
                options: options.clone(),
                report: record.report,
                ice40: cells.clone(),
            });
        }
    }
    let report = SweepReport::<B> {
        block: B::Design::NAME,
        seed,
        swept: param_lists
            .iter()
            .chain(&option_lists)
            .map(|l| l.0)
            .collect(),
        points,
    };
    Ok(render(m, &report, || table(&report)))
}
