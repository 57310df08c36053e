//! The banked GPR's commands: emit, sim, flow, sweep, bench.

use std::path::{Path, PathBuf};
use std::time::Instant;

use grfgen_hdl::emit::Emitted;
use grfgen_hdl::gpr::emit_gpr;
use grfgen_hdl::params::GprParams;
use grfgen_sim::gpr::{run, GprRtl, GprSimReport, RandomTraffic};
use grfgen_sim::verilator::{BuildOptions, TraceFormat};
use serde::Serialize;
use serde_json::json;

use super::{
    check_design, check_percent, emit_command, emit_step, finish_flow, flip_flops, seed,
    verilator_seed, write_design, Step,
};
use crate::cli::{OutputArgs, RunArgs};
use crate::design_files::Timing;
use crate::error::CliError;
use crate::progress::Progress;
use crate::tools::{synth, SynthStats, SynthTarget};

/// Derived quantities recorded in the manifest.
fn derived(params: &GprParams) -> serde_json::Value {
    json!({
        "rows": params.rows(),
        "bank_bits": params.bank_bits(),
        "row_bits": params.row_bits(),
        "register_bits": params.register_bits(),
        "entry_bits": params.entry_bits(),
        "srams": params.banks * params.lanes,
    })
}

/// Emits the GPR into `out`; returns the emitted design.
fn emit_into(
    params: &GprParams,
    out: &Path,
    top: &str,
    timing: Timing,
) -> Result<Emitted, CliError> {
    let emitted = emit_gpr(params, top)?;
    write_design("gpr", &emitted, params, derived(params), out, timing)?;
    Ok(emitted)
}

/// `grfgen emit gpr`.
pub fn emit(params: &GprParams, output: &OutputArgs) -> Result<String, CliError> {
    emit_command(output, params.module_name(), |out, top, timing| {
        emit_into(params, out, top, timing)
    })
}

/// Everything a GPR simulation reports.
#[derive(Serialize)]
struct SimOutput<'a> {
    block: &'static str,
    top: String,
    parameters: &'a GprParams,
    #[serde(flatten)]
    report: &'a GprSimReport,
    seconds: f64,
    cycles_per_second: f64,
}

/// Runs the GPR simulation: returns the report and the seconds the lock-step loop took.
fn simulate(
    params: &GprParams,
    run_args: &RunArgs,
    seed: u64,
    rtl: bool,
    trace: Option<&Path>,
) -> Result<(GprSimReport, f64), CliError> {
    check_percent("load", run_args.load)?;
    check_percent("hot", run_args.hot)?;
    let mut model = if rtl {
        let options = BuildOptions {
            trace: trace.map(TraceFormat::for_path),
            seed: verilator_seed(seed),
            cache: None,
        };
        Some(GprRtl::build(params, &options, trace)?)
    } else {
        None
    };
    let mut stimulus = RandomTraffic::new(params, seed);
    stimulus.load = run_args.load;
    stimulus.hot = run_args.hot;
    let mut progress = Progress::new("gpr", run_args.cycles.cycles);
    let start = Instant::now();
    let report = run(
        params,
        &mut stimulus,
        run_args.cycles.cycles,
        seed,
        model.as_mut(),
        &mut |done| progress.update(done),
    );
    progress.finish();
    Ok((report, start.elapsed().as_secs_f64()))
}

fn mismatch_error(report: &GprSimReport) -> Option<CliError> {
    report.first_mismatch.as_ref().map(|m| {
        CliError::Mismatch(format!(
            "{m} (seed {}; replay with --seed {})",
            report.seed, report.seed
        ))
    })
}

/// `grfgen sim gpr`. Prints the report; fails on a mismatch.
pub fn sim(
    params: &GprParams,
    run_args: &RunArgs,
    vcd: Option<&PathBuf>,
    rtl: bool,
    as_json: bool,
) -> Result<String, CliError> {
    if vcd.is_some() && !rtl {
        return Err(CliError::Input(
            "invalid value --vcd with --no-rtl: allowed only when the RTL runs".into(),
        ));
    }
    let seed = seed(&run_args.cycles);
    let (report, seconds) = simulate(params, run_args, seed, rtl, vcd.map(|p| p.as_path()))?;
    let text = if as_json {
        let output = SimOutput {
            block: "gpr",
            top: params.module_name(),
            parameters: params,
            report: &report,
            seconds,
            cycles_per_second: report.cycles as f64 / seconds.max(1e-9),
        };
        serde_json::to_string_pretty(&output).expect("report serialises")
    } else {
        let side = if rtl {
            "RTL co-simulated against the golden model"
        } else {
            "golden model only"
        };
        format!(
            "gpr {top}, seed {seed} (replay with --seed {seed})\n\
             cycles {cycles}  requests {requests}  grants {grants}  conflicts {conflicts} ({rate:.1}% of requests)\n\
             mismatches {mismatches}  ({side}, {seconds:.2} s, {speed:.0} cycles/s)",
            top = params.module_name(),
            cycles = report.cycles,
            requests = report.requests,
            grants = report.grants,
            conflicts = report.conflicts,
            rate = 100.0 * report.conflicts as f64 / report.requests.max(1) as f64,
            mismatches = report.mismatches,
            speed = report.cycles as f64 / seconds.max(1e-9),
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

/// `grfgen flow gpr`: emit, lint, synthesize (generic and iCE40) and co-simulate.
pub fn flow(
    params: &GprParams,
    out: &Path,
    clock_mhz: f64,
    run_args: &RunArgs,
    as_json: bool,
) -> Result<String, CliError> {
    let timing = Timing::new(clock_mhz, None)?;
    check_percent("load", run_args.load)?;
    check_percent("hot", run_args.hot)?;
    let top = params.module_name();
    let emitted = emit_into(params, out, &top, timing)?;
    let mut steps = vec![emit_step(out, &emitted, clock_mhz)];
    let srams = params.banks * params.lanes;
    steps.extend(check_design(out, &top, |ice40| {
        let brams = ice40.count("SB_RAM40_4K");
        (
            brams > 0,
            format!(
                "{brams} SB_RAM40_4K for {srams} banks x lanes, {} SB_LUT4, {} flip-flops",
                ice40.count("SB_LUT4"),
                flip_flops(ice40)
            ),
        )
    })?);
    let seed = seed(&run_args.cycles);
    let (report, seconds) = simulate(params, run_args, seed, true, None)?;
    steps.push(Step {
        step: "co-sim",
        ok: report.mismatches == 0,
        detail: match &report.first_mismatch {
            None => format!(
                "{} cycles, seed {seed}: {} requests, {} conflicts, 0 mismatches ({seconds:.2} s)",
                report.cycles, report.requests, report.conflicts
            ),
            Some(m) => format!("{m}; replay with --seed {seed}"),
        },
    });
    finish_flow("gpr", &top, params, &steps, as_json)
}

/// The lists `sweep` takes, one per parameter.
pub struct SweepLists<'a> {
    /// Bank counts.
    pub banks: &'a [usize],
    /// Register counts.
    pub registers: &'a [usize],
    /// Lanes.
    pub lanes: &'a [usize],
    /// Element widths.
    pub element_bits: &'a [usize],
    /// Read ports.
    pub read_ports: &'a [usize],
    /// Write ports.
    pub write_ports: &'a [usize],
}

impl SweepLists<'_> {
    /// Every combination, validated up front.
    fn points(&self) -> Result<Vec<GprParams>, CliError> {
        let mut points = Vec::new();
        for &banks in self.banks {
            for &registers in self.registers {
                for &lanes in self.lanes {
                    for &element_bits in self.element_bits {
                        for &read_ports in self.read_ports {
                            for &write_ports in self.write_ports {
                                let p = GprParams {
                                    banks,
                                    registers,
                                    lanes,
                                    element_bits,
                                    read_ports,
                                    write_ports,
                                };
                                p.validate()?;
                                points.push(p);
                            }
                        }
                    }
                }
            }
        }
        Ok(points)
    }
}

/// One point of a sweep.
#[derive(Serialize)]
struct SweepRow {
    parameters: GprParams,
    cycles: u64,
    requests: u64,
    conflicts: u64,
    conflict_rate: f64,
    reads_per_cycle: f64,
    writes_per_cycle: f64,
    mismatches: u64,
    ice40: Option<SynthStats>,
}

/// `grfgen sweep gpr`: co-simulates every combination (and synthesizes it with `synth`).
pub fn sweep(
    lists: &SweepLists,
    run_args: &RunArgs,
    with_synth: bool,
    as_json: bool,
) -> Result<String, CliError> {
    check_percent("load", run_args.load)?;
    check_percent("hot", run_args.hot)?;
    let points = lists.points()?;
    let seed = seed(&run_args.cycles);
    let work = tempfile::tempdir()?;
    let mut rows = Vec::new();
    for (i, params) in points.iter().enumerate() {
        eprintln!("[{}/{}] {}", i + 1, points.len(), params.module_name());
        let (report, _) = simulate(params, run_args, seed, true, None)?;
        let ice40 = if with_synth {
            let dir = work.path().join(params.module_name());
            let timing = Timing::new(200.0, None)?;
            emit_into(params, &dir, &params.module_name(), timing)?;
            Some(synth(&dir, &params.module_name(), SynthTarget::Ice40)?)
        } else {
            None
        };
        if let Some(error) = mismatch_error(&report) {
            return Err(error);
        }
        let cycles = report.cycles.max(1) as f64;
        rows.push(SweepRow {
            parameters: params.clone(),
            cycles: report.cycles,
            requests: report.requests,
            conflicts: report.conflicts,
            conflict_rate: report.conflicts as f64 / report.requests.max(1) as f64,
            reads_per_cycle: report.read_grants as f64 / cycles,
            writes_per_cycle: report.write_grants as f64 / cycles,
            mismatches: report.mismatches,
            ice40,
        });
    }
    if as_json {
        return Ok(serde_json::to_string_pretty(&json!({
            "block": "gpr",
            "seed": seed,
            "points": rows,
        }))
        .expect("sweep serialises"));
    }
    let mut text = format!(
        "seed {seed}, {} cycles per point, load {}%, hot {}%\n\
         banks  regs  lanes  bits  rd  wr  conflicts  reads/cyc  writes/cyc  mism{}\n",
        run_args.cycles.cycles,
        run_args.load,
        run_args.hot,
        if with_synth {
            "  ice40 LUT4  RAM40"
        } else {
            ""
        }
    );
    for r in &rows {
        let p = &r.parameters;
        text += &format!(
            "{:5} {:5} {:6} {:5} {:3} {:3}  {:8.1}%  {:9.2}  {:10.2}  {:4}",
            p.banks,
            p.registers,
            p.lanes,
            p.element_bits,
            p.read_ports,
            p.write_ports,
            100.0 * r.conflict_rate,
            r.reads_per_cycle,
            r.writes_per_cycle,
            r.mismatches
        );
        if let Some(s) = &r.ice40 {
            text += &format!("  {:10}  {:5}", s.count("SB_LUT4"), s.count("SB_RAM40_4K"));
        }
        text.push('\n');
    }
    Ok(text.trim_end().to_string())
}

/// `grfgen bench gpr`: cycles per second of the golden model alone and of lock-step
/// co-simulation (model build excluded; build time reported separately).
pub fn bench(params: &GprParams, cycles: u64, as_json: bool) -> Result<String, CliError> {
    let seed = 1;
    let mut stimulus = RandomTraffic::new(params, seed);
    let start = Instant::now();
    let golden = run(params, &mut stimulus, cycles, seed, None, &mut |_| {});
    let golden_seconds = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let options = BuildOptions {
        seed: verilator_seed(seed),
        ..Default::default()
    };
    let mut rtl = GprRtl::build(params, &options, None)?;
    let build_seconds = start.elapsed().as_secs_f64();
    let mut stimulus = RandomTraffic::new(params, seed);
    let start = Instant::now();
    let cosim = run(
        params,
        &mut stimulus,
        cycles,
        seed,
        Some(&mut rtl),
        &mut |_| {},
    );
    let cosim_seconds = start.elapsed().as_secs_f64();
    if let Some(error) = mismatch_error(&cosim) {
        return Err(error);
    }
    let golden_rate = golden.cycles as f64 / golden_seconds.max(1e-9);
    let cosim_rate = cosim.cycles as f64 / cosim_seconds.max(1e-9);
    Ok(if as_json {
        serde_json::to_string_pretty(&json!({
            "block": "gpr",
            "top": params.module_name(),
            "cycles": cycles,
            "golden_cycles_per_second": golden_rate,
            "cosim_cycles_per_second": cosim_rate,
            "model_build_seconds": build_seconds,
        }))
        .expect("bench serialises")
    } else {
        format!(
            "gpr {}: {cycles} cycles each\n\
             golden model only:      {golden_rate:>12.0} cycles/s\n\
             lock-step co-sim (RTL): {cosim_rate:>12.0} cycles/s\n\
             model build (verilate + compile, or cache hit): {build_seconds:.1} s",
            params.module_name()
        )
    })
}
