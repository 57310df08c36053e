//! The shift-and-fill router's commands: emit, sim, flow, route eval/shuffle/window, bench.

use std::path::Path;
use std::time::Instant;

use grfgen_hdl::emit::Emitted;
use grfgen_hdl::params::{ParamError, RouteParams};
use grfgen_hdl::route::{emit_route, RouteVariant};
use grfgen_sim::bits::element_mask;
use grfgen_sim::rng::Rng;
use grfgen_sim::route::window::{self, GoldenRouter, LaneRouter};
use grfgen_sim::route::{
    apply, plan, run, Direction, Fill, LaneOp, Pass, RouteSimReport, RouterRtl,
};
use grfgen_sim::verilator::BuildOptions;
use serde_json::json;

use super::{
    check_design, emit_command, emit_step, finish_flow, flip_flops, seed, verilator_seed,
    write_design, Step,
};
use crate::cli::{CycleArgs, FillName, LaneOpArgs, LaneOpName, OutputArgs};
use crate::design_files::Timing;
use crate::error::CliError;
use crate::progress::Progress;
use crate::tools::{synth, SynthTarget};

fn derived(params: &RouteParams) -> serde_json::Value {
    json!({
        "crossbars": params.crossbars(),
        "crossbar_size": format!("{0} x {0}", params.crossbar),
        "lane_mux_inputs": params.crossbars(),
        "lane_muxes": params.lanes,
        "index_bits": RouteParams::INDEX_BITS,
    })
}

fn emit_into(
    params: &RouteParams,
    variant: RouteVariant,
    out: &Path,
    top: &str,
    timing: Timing,
) -> Result<Emitted, CliError> {
    let emitted = emit_route(params, variant, top)?;
    write_design("route", &emitted, params, derived(params), out, timing)?;
    Ok(emitted)
}

/// `grfgen emit route`.
pub fn emit(params: &RouteParams, full: bool, output: &OutputArgs) -> Result<String, CliError> {
    let (variant, params) = if full {
        let comb = RouteParams {
            registered: false,
            ..params.clone()
        };
        (RouteVariant::FullCrossbar, comb)
    } else {
        (RouteVariant::TwoStage, params.clone())
    };
    let default_top = match variant {
        RouteVariant::TwoStage => params.module_name(),
        RouteVariant::FullCrossbar => {
            format!("route_full_l{}_e{}", params.lanes, params.element_bits)
        }
    };
    emit_command(output, default_top, |out, top, timing| {
        emit_into(&params, variant, out, top, timing)
    })
}

fn build_rtl(params: &RouteParams, seed: u64) -> Result<RouterRtl, CliError> {
    let options = BuildOptions {
        seed: verilator_seed(seed),
        ..Default::default()
    };
    Ok(RouterRtl::build(params, &options, None)?)
}

fn simulate(
    params: &RouteParams,
    run_args: &CycleArgs,
    seed: u64,
) -> Result<(RouteSimReport, f64), CliError> {
    let mut rtl = build_rtl(params, seed)?;
    let mut progress = Progress::new("route", run_args.cycles);
    let start = Instant::now();
    let report = run(params, &mut rtl, run_args.cycles, seed, &mut |done| {
        progress.update(done)
    });
    progress.finish();
    Ok((report, start.elapsed().as_secs_f64()))
}

fn mismatch_error(report: &RouteSimReport) -> Option<CliError> {
    report.first_mismatch.as_ref().map(|m| {
        CliError::Mismatch(format!(
            "{m} (seed {0}; replay with --seed {0})",
            report.seed
        ))
    })
}

/// `grfgen sim route`: random passes of every kind, RTL against golden model.
pub fn sim(params: &RouteParams, run_args: &CycleArgs, as_json: bool) -> Result<String, CliError> {
    let seed = seed(run_args);
    let (report, seconds) = simulate(params, run_args, seed)?;
    let text = if as_json {
        serde_json::to_string_pretty(&json!({
            "block": "route",
            "top": params.module_name(),
            "parameters": params,
            "cycles": report.cycles,
            "seed": report.seed,
            "passes": report.passes,
            "lane_passes": report.lane_passes,
            "shuffle_passes": report.shuffle_passes,
            "mismatches": report.mismatches,
            "first_mismatch": report.first_mismatch,
            "seconds": seconds,
        }))
        .expect("report serialises")
    } else {
        format!(
            "route {top}, seed {seed} (replay with --seed {seed})\n\
             cycles {cycles}  passes {passes} ({lane} lane operations, {shuffle} shuffle passes)\n\
             mismatches {mismatches}  (RTL co-simulated against the golden model, {seconds:.2} s)",
            top = params.module_name(),
            cycles = report.cycles,
            passes = report.passes,
            lane = report.lane_passes,
            shuffle = report.shuffle_passes,
            mismatches = report.mismatches,
        )
    };
    match mismatch_error(&report) {
        Some(error) => {
            println!("{text}");
            Err(error)
        }
        None => Ok(text),
    }
}

/// `grfgen flow route`: emit, lint, synthesize and co-simulate the router.
pub fn flow(
    params: &RouteParams,
    out: &Path,
    clock_mhz: f64,
    run_args: &CycleArgs,
    as_json: bool,
) -> Result<String, CliError> {
    let timing = Timing::new(clock_mhz, None)?;
    let top = params.module_name();
    let emitted = emit_into(params, RouteVariant::TwoStage, out, &top, timing)?;
    let mut steps = vec![emit_step(out, &emitted, clock_mhz)];
    let registers = if params.registered {
        params.lanes * params.element_bits
    } else {
        0
    };
    steps.extend(check_design(out, &top, |ice40| {
        let flops = flip_flops(ice40);
        (
            flops as usize == registers,
            format!(
                "{} SB_LUT4, {flops} flip-flops (the result register: {registers})",
                ice40.count("SB_LUT4")
            ),
        )
    })?);
    let seed = seed(run_args);
    let (report, seconds) = simulate(params, run_args, seed)?;
    steps.push(Step {
        step: "co-sim",
        ok: report.mismatches == 0,
        detail: match &report.first_mismatch {
            None => format!(
                "{} cycles, seed {seed}: {} passes ({} shuffle passes), 0 mismatches ({seconds:.2} s)",
                report.cycles, report.passes, report.shuffle_passes
            ),
            Some(m) => format!("{m}; replay with --seed {seed}"),
        },
    });
    finish_flow("route", &top, params, &steps, as_json)
}

/// Checks a list of lane values: `lanes` of them, each fitting `bits`.
fn check_values(
    flag: &'static str,
    values: &[u64],
    lanes: usize,
    bits: usize,
) -> Result<(), CliError> {
    if values.len() != lanes {
        return Err(ParamError::new(
            flag,
            format!("{} values", values.len()),
            format!("exactly {lanes} values, one per lane"),
        )
        .into());
    }
    let mask = element_mask(bits);
    if let Some(v) = values.iter().find(|&&v| v & !mask != 0) {
        return Err(ParamError::new(flag, v, format!("values 0..={mask} ({bits} bits)")).into());
    }
    Ok(())
}

/// The lane operation `route eval` asks for, checked against the group.
pub fn lane_op(params: &RouteParams, args: &LaneOpArgs) -> Result<LaneOp, CliError> {
    let n = params.lanes;
    let LaneOpArgs {
        op,
        m,
        amount,
        lane,
        mask,
        fill,
    } = *args;
    let m = m.unwrap_or(n);
    if !(m.is_power_of_two() && (2..=n).contains(&m)) {
        return Err(ParamError::new("mod", m, format!("a power of two from 2 to {n}")).into());
    }
    let required = |value: Option<usize>, flag: &'static str| {
        value.ok_or_else(|| CliError::Input(format!("missing --{flag}: the operation needs it")))
    };
    let below_m = |value: usize, flag: &'static str| {
        if value < m {
            Ok(value)
        } else {
            Err(CliError::from(ParamError::new(
                flag,
                value,
                format!("0..={} (below --mod {m})", m - 1),
            )))
        }
    };
    let direction = match op {
        LaneOpName::ShffLeft | LaneOpName::RotateLeft => Direction::Left,
        _ => Direction::Right,
    };
    Ok(match op {
        LaneOpName::ShffLeft | LaneOpName::ShffRight => LaneOp::Shff {
            direction,
            m,
            amount: required(amount, "amount")?,
            fill: match fill {
                FillName::Rf => Fill::Register,
                FillName::Zero => Fill::Zero,
                FillName::One => Fill::One,
                FillName::Ones => Fill::Ones,
            },
        },
        LaneOpName::RotateLeft | LaneOpName::RotateRight => LaneOp::Rotate {
            direction,
            m,
            amount: required(amount, "amount")?,
        },
        LaneOpName::Broadcast => LaneOp::Broadcast {
            m,
            lane: below_m(required(lane, "lane")?, "lane")?,
        },
        LaneOpName::Butterfly => LaneOp::Butterfly {
            m,
            mask: below_m(required(mask, "mask")?, "mask")?,
        },
    })
}

/// `grfgen route eval`.
pub fn eval(
    params: &RouteParams,
    op: &LaneOp,
    rs: &[u64],
    rf: &[u64],
    with_rtl: bool,
    as_json: bool,
) -> Result<String, CliError> {
    let bits = params.element_bits;
    check_values("rs", rs, params.lanes, bits)?;
    let zeros = vec![0; params.lanes];
    let rf = if rf.is_empty() {
        if matches!(
            op,
            LaneOp::Shff {
                fill: Fill::Register,
                ..
            }
        ) {
            return Err(CliError::Input(
                "missing --rf: a shift filling from the register needs it (or give --fill zero)"
                    .into(),
            ));
        }
        &zeros[..]
    } else {
        check_values("rf", rf, params.lanes, bits)?;
        rf
    };
    let result = apply(op, rs, rf, bits);
    if with_rtl {
        let mut rtl = build_rtl(params, 1)?;
        let actual = rtl.route(op, rs, rf);
        compare_lanes(&result, &actual)?;
    }
    Ok(report_lanes(&result, 1, with_rtl, None, as_json))
}

fn compare_lanes(expected: &[u64], actual: &[u64]) -> Result<(), CliError> {
    match expected.iter().zip(actual).position(|(e, a)| e != a) {
        None => Ok(()),
        Some(t) => Err(CliError::Mismatch(format!(
            "the RTL router disagrees with the golden model on lane {t}: expected {}, got {}",
            expected[t], actual[t]
        ))),
    }
}

fn report_lanes(
    result: &[u64],
    passes: usize,
    rtl_checked: bool,
    plan: Option<serde_json::Value>,
    as_json: bool,
) -> String {
    if as_json {
        let mut object = json!({
            "result": result,
            "passes": passes,
            "rtl_checked": rtl_checked,
        });
        if let Some(plan) = plan {
            object["plan"] = plan;
        }
        return serde_json::to_string_pretty(&object).expect("result serialises");
    }
    let values: Vec<String> = result.iter().map(u64::to_string).collect();
    format!(
        "result: {}\npasses: {passes}{}",
        values.join(","),
        if rtl_checked {
            " (RTL router agrees)"
        } else {
            ""
        }
    )
}

/// `grfgen route shuffle`.
pub fn shuffle(
    params: &RouteParams,
    map: &[usize],
    rs: &[u64],
    with_rtl: bool,
    as_json: bool,
) -> Result<String, CliError> {
    check_values("rs", rs, params.lanes, params.element_bits)?;
    let plan = plan(params, map).map_err(|e| CliError::Input(e.to_string()))?;
    let passes = plan.passes.len();
    if passes > 1 && !params.registered {
        return Err(CliError::Input(format!(
            "invalid value false for --registered: this mapping needs {passes} passes, which accumulate in the result register"
        )));
    }
    let result: Vec<u64> = map.iter().map(|&s| rs[s]).collect();
    if with_rtl {
        let mut rtl = build_rtl(params, 1)?;
        for pass in &plan.passes {
            rtl.cycle(true, &Pass::Shuffle(pass.to_pass()), rs, rs);
        }
        compare_lanes(&result, &rtl.lanes())?;
    }
    let plan_json = serde_json::to_value(&plan.passes).expect("plan serialises");
    let mut text = report_lanes(&result, passes, with_rtl, Some(plan_json), as_json);
    if !as_json {
        for (i, pass) in plan.passes.iter().enumerate() {
            let lanes: Vec<String> = (0..params.lanes)
                .filter(|&t| pass.capture[t])
                .map(|t| t.to_string())
                .collect();
            text += &format!(
                "\npass {i}: crossbar positions {:?}, lanes captured {}",
                pass.xbar_pos,
                lanes.join(",")
            );
        }
    }
    Ok(text)
}

/// `grfgen route window`: the 3x3 convolution through shift-and-fill operations.
pub fn window(
    crossbar: usize,
    element_bits: usize,
    weights: &[i64],
    seed: Option<u64>,
    with_rtl: bool,
    as_json: bool,
) -> Result<String, CliError> {
    let params = RouteParams {
        lanes: window::LANES,
        crossbar,
        element_bits,
        registered: true,
    };
    params.validate()?;
    let weights: [i64; 9] = weights.try_into().map_err(|_| {
        ParamError::new(
            "weights",
            format!("{} values", weights.len()),
            "exactly 9 values, row by row",
        )
    })?;
    let seed = seed.unwrap_or_else(Rng::fresh_seed);
    let mut rng = Rng::new(seed);
    let pixel_max = element_mask(element_bits).min(255) as usize + 1;
    let tile: Vec<Vec<u64>> = (0..window::ROWS)
        .map(|_| {
            (0..window::COLUMNS)
                .map(|_| rng.below(pixel_max) as u64)
                .collect()
        })
        .collect();
    let direct = window::convolve_direct(&tile, &weights, element_bits);
    let golden = window::convolve(
        &tile,
        &weights,
        &mut GoldenRouter { element_bits },
        element_bits,
    );
    let mut checks = vec![("golden model", golden.output == direct)];
    if with_rtl {
        let mut rtl = build_rtl(&params, seed)?;
        let run = window::convolve(&tile, &weights, &mut rtl, element_bits);
        checks.push(("RTL router", run.output == direct));
    }
    let interior = direct.iter().flatten().filter(|p| p.is_some()).count();
    let failed: Vec<&str> = checks
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(who, _)| *who)
        .collect();
    let text = if as_json {
        serde_json::to_string_pretty(&json!({
            "seed": seed,
            "weights": weights,
            "passes": golden.passes,
            "interior_pixels": interior,
            "golden_matches_direct": checks[0].1,
            "rtl_checked": with_rtl,
            "rtl_matches_direct": checks.get(1).map(|c| c.1),
            "steps": golden.steps,
            "tile": tile,
            "output": direct,
        }))
        .expect("window report serialises")
    } else {
        let mut text = format!(
            "3x3 convolution of an 8 x 16 tile (seed {seed}), weights {weights:?}\n\
             {} router passes, {} operations in all; {interior} interior pixels compared with a direct computation\n",
            golden.passes,
            golden.steps.len()
        );
        for (who, ok) in &checks {
            text += &format!("{who}: {}\n", if *ok { "equal" } else { "DIFFERENT" });
        }
        text += "operations for output register r1 (r2..r4 alike):\n";
        for step in golden.steps.iter().take(golden.steps.len() / 4) {
            text += &format!("  {step}\n");
        }
        text.trim_end().to_string()
    };
    if failed.is_empty() {
        Ok(text)
    } else {
        println!("{text}");
        Err(CliError::Mismatch(format!(
            "the window filter differs from the direct computation: {}",
            failed.join(", ")
        )))
    }
}

/// Named mappings of `n` lanes used by the benchmark.
fn patterns(n: usize) -> Vec<(&'static str, Vec<usize>)> {
    let mut list = vec![
        ("reversal", (0..n).map(|t| n - 1 - t).collect()),
        (
            "interleave halves",
            (0..n).map(|t| (t % 2) * (n / 2) + t / 2).collect(),
        ),
        (
            "deinterleave",
            (0..n)
                .map(|t| {
                    if t < n / 2 {
                        2 * t
                    } else {
                        2 * (t - n / 2) + 1
                    }
                })
                .collect(),
        ),
    ];
    if n == 32 {
        // A 4-column x 8-row tile (lane = row * 4 + column) transposed into 8 columns x 4 rows.
        list.push((
            "transpose 4x8 tile",
            (0..32).map(|t| (t % 8) * 4 + t / 8).collect::<Vec<_>>(),
        ));
    }
    list
}

/// `grfgen bench route`: planner passes and (with `synth`) yosys cell counts.
pub fn bench(mappings: usize, with_synth: bool, as_json: bool) -> Result<String, CliError> {
    let mut rows = Vec::new();
    let mut rng = Rng::new(1);
    for n in [8usize, 16, 32, 64] {
        let params = RouteParams {
            lanes: n,
            ..RouteParams::default()
        };
        let q = params.crossbar;
        let mut histogram = vec![0usize; q + 1];
        for _ in 0..mappings {
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i + 1));
            }
            let passes = plan(&params, &perm)
                .expect("permutations are valid")
                .passes
                .len();
            histogram[passes] += 1;
        }
        let mean = histogram
            .iter()
            .enumerate()
            .map(|(p, c)| p * c)
            .sum::<usize>() as f64
            / mappings as f64;
        let named: Vec<(String, usize)> = patterns(n)
            .into_iter()
            .map(|(name, map)| {
                (
                    name.to_string(),
                    plan(&params, &map).expect("valid").passes.len(),
                )
            })
            .collect();
        rows.push(json!({
            "lanes": n,
            "crossbar": q,
            "bound": q,
            "random_permutations": mappings,
            "pass_histogram": histogram,
            "mean_passes": mean,
            "patterns": named,
        }));
    }
    let mut cells = Vec::new();
    if with_synth {
        let work = tempfile::tempdir()?;
        for n in [16usize, 32, 64] {
            let params = RouteParams {
                lanes: n,
                registered: false,
                ..RouteParams::default()
            };
            let mut entry = json!({ "lanes": n, "crossbar": params.crossbar, "element_bits": params.element_bits });
            for (name, variant) in [
                ("two_stage", RouteVariant::TwoStage),
                ("full_crossbar", RouteVariant::FullCrossbar),
            ] {
                let top = format!("{name}_{n}");
                let dir = work.path().join(&top);
                emit_into(&params, variant, &dir, &top, Timing::new(200.0, None)?)?;
                let stats = synth(&dir, &top, SynthTarget::Generic)?;
                entry[name] = json!(stats.cells);
            }
            cells.push(entry);
        }
    }
    if as_json {
        return Ok(
            serde_json::to_string_pretty(&json!({ "planner": rows, "cells": cells }))
                .expect("bench serialises"),
        );
    }
    let mut text = String::from("planner passes over random permutations (bound: q passes)\n");
    for row in &rows {
        text += &format!(
            "  N={:2} q={}: mean {:.2}, histogram by passes {}, {}\n",
            row["lanes"],
            row["crossbar"],
            row["mean_passes"].as_f64().unwrap_or(0.0),
            row["pass_histogram"],
            row["patterns"]
                .as_array()
                .map(|p| p
                    .iter()
                    .map(|e| format!("{} {}", e[0].as_str().unwrap_or(""), e[1]))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        );
    }
    if !cells.is_empty() {
        text += "yosys synth cells, combinational network, 32-bit lanes (two-stage q=4 vs full crossbar)\n";
        for c in &cells {
            text += &format!(
                "  N={:2}: two-stage {:>7}  full crossbar {:>7}\n",
                c["lanes"], c["two_stage"], c["full_crossbar"]
            );
        }
    }
    Ok(text.trim_end().to_string())
}
