//! The hierarchical GRF's commands: emit, sim, flow, bench.

use std::path::Path;

use grfgen_hdl::emit::Emitted;
use grfgen_hdl::grf::emit_grf;
use grfgen_hdl::params::{GrfParams, Mapping, ParamError};
use grfgen_sim::grf::workload::{builtin, NAMES};
use grfgen_sim::grf::{parse, run, Device, Energy, GrfRtl, GrfRun, Trace};
use grfgen_sim::rng::Rng;
use grfgen_sim::verilator::{BuildOptions, TraceFormat};
use serde_json::{json, Value};

use super::{
    block_ram_steps, emit_command, finish_flow, verilator_installed, verilator_seed, write_design,
    Step,
};
use crate::cli::{EnergyArgs, GrfRunArgs, OutputArgs, TraceArgs};
use crate::design_files::Timing;
use crate::error::CliError;

/// Derived quantities recorded in the manifest.
fn derived(params: &GrfParams) -> Value {
    json!({
        "physical_blocks": params.blocks(),
        "slow_row_bits": params.slow_bits(),
        "virtual_registers": params.virtual_registers(),
        "threads_in_cluster": params.all_threads(),
        "srams": params.lanes,
        "fast_grf_bits_per_eu": params.fast_regs * params.lanes * params.element_bits,
    })
}

fn emit_into(
    params: &GrfParams,
    out: &Path,
    top: &str,
    timing: Timing,
) -> Result<Emitted, CliError> {
    let emitted = emit_grf(params, top)?;
    write_design("grf", &emitted, params, derived(params), out, timing)?;
    Ok(emitted)
}

/// `grfgen emit grf`.
pub fn emit(params: &GrfParams, output: &OutputArgs) -> Result<String, CliError> {
    emit_command(output, params.module_name(), |out, top, timing| {
        emit_into(params, out, top, timing)
    })
}

/// The energy flags, checked.
fn energy(args: &EnergyArgs) -> Result<Energy, CliError> {
    for (name, value) in [
        ("fast_pj", args.fast_pj),
        ("slow_pj", args.slow_pj),
        ("slow_low_pj", args.slow_low_pj),
        ("l3_pj", args.l3_pj),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            return Err(ParamError::new(name, value, "a number >= 0").into());
        }
    }
    Ok(Energy {
        fast_pj: args.fast_pj,
        slow_pj: args.slow_pj,
        slow_low_pj: args.slow_low_pj,
        l3_pj: args.l3_pj,
    })
}

fn check_run(run: &GrfRunArgs) -> Result<(), CliError> {
    if !(1..=10_000).contains(&run.rounds) {
        return Err(ParamError::new("rounds", run.rounds, "1..=10000").into());
    }
    if !(1..=64).contains(&run.l3_latency) {
        return Err(ParamError::new("l3_latency", run.l3_latency, "1..=64").into());
    }
    Ok(())
}

/// The requests a run asks for, with their name: a built-in workload or a trace file.
fn load(
    params: &GrfParams,
    requests: &TraceArgs,
    rounds: usize,
    seed: u64,
) -> Result<(String, Trace), CliError> {
    match (&requests.workload, &requests.trace) {
        (Some(name), _) => Ok((
            name.clone(),
            builtin(name, params, seed, rounds).map_err(CliError::Input)?,
        )),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::Input(format!("invalid value {} for --trace: {e}", path.display()))
            })?;
            let trace = parse(&text, params)
                .map_err(|e| CliError::Input(format!("invalid trace {}: {e}", path.display())))?;
            Ok((path.display().to_string(), trace))
        }
        (None, None) => unreachable!("clap requires one of --workload and --trace"),
    }
}

/// One run of `trace`: the golden model, in lock step with the RTL when `rtl` (never for the
/// flat design, which is a golden model only).
#[allow(clippy::too_many_arguments)]
fn execute(
    params: &GrfParams,
    trace: &Trace,
    flat: bool,
    l3_latency: u64,
    seed: u64,
    energy: &Energy,
    max_cycles: u64,
    rtl: bool,
    waveform: Option<&Path>,
) -> Result<GrfRun, CliError> {
    if !rtl || flat {
        return Ok(run(
            params, trace, flat, l3_latency, seed, energy, max_cycles, None,
        ));
    }
    let options = BuildOptions {
        trace: waveform.map(TraceFormat::for_path),
        seed: verilator_seed(seed),
        cache: None,
    };
    let mut device = GrfRtl::build(params, l3_latency, seed, &options, waveform)?;
    Ok(run(
        params,
        trace,
        false,
        l3_latency,
        seed,
        energy,
        max_cycles,
        Some(&mut device as &mut dyn Device),
    ))
}

/// L3 accesses the run would have made had its shared data gone through L3 instead (each
/// shared access a write or read of L3).
fn l3_without_sharing(r: &GrfRun) -> u64 {
    r.stats.l3_reads + r.stats.l3_writes + r.stats.shared_accesses
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The change from `before` to `after`, in percent.
fn change(before: f64, after: f64) -> f64 {
    if before == 0.0 {
        0.0
    } else {
        100.0 * (after - before) / before
    }
}

/// A run as JSON: its counts and the derived figures.
fn run_json(r: &GrfRun) -> Value {
    let mut object = serde_json::to_value(r).expect("report serialises");
    object["l3_without_sharing"] = json!(l3_without_sharing(r));
    object
}

/// `grfgen sim grf`.
pub fn sim(
    params: &GrfParams,
    run_args: &GrfRunArgs,
    flat: bool,
    rtl: bool,
    no_rtl: bool,
    waveform: Option<&Path>,
    as_json: bool,
) -> Result<String, CliError> {
    check_run(run_args)?;
    let energy = energy(&run_args.energy)?;
    let with_rtl = !no_rtl && (rtl || verilator_installed());
    if waveform.is_some() && !with_rtl {
        return Err(CliError::Input(
            "invalid value --vcd with --no-rtl: allowed only when the RTL runs".into(),
        ));
    }
    let seed = run_args.seed.unwrap_or_else(Rng::fresh_seed);
    let (name, trace) = load(params, &run_args.requests, run_args.rounds, seed)?;
    let (latency, limit) = (run_args.l3_latency, run_args.max_cycles);
    let report = execute(
        params, &trace, false, latency, seed, &energy, limit, with_rtl, waveform,
    )?;
    let flat_report = flat
        .then(|| {
            execute(
                params, &trace, true, latency, seed, &energy, limit, false, None,
            )
        })
        .transpose()?;
    let text = if as_json {
        let mut object = run_json(&report);
        object["block"] = json!("grf");
        object["top"] = json!(params.module_name());
        object["workload"] = json!(name);
        object["seed"] = json!(seed);
        object["rtl"] = json!(with_rtl);
        object["l3_latency"] = json!(latency);
        object["energy_per_access_pj"] = serde_json::to_value(energy).expect("energy serialises");
        object["parameters"] = serde_json::to_value(params).expect("parameters serialise");
        if let Some(f) = &flat_report {
            object["flat"] = run_json(f);
        }
        serde_json::to_string_pretty(&object).expect("report serialises")
    } else {
        let s = &report.stats;
        let mut text = format!(
            "grf {} on {name} (seed {seed}, L3 latency {latency}): {} cycles\n\
             {} accesses: {} fast GRF hits ({:.1}%), {} misses; slow GRF {} accesses ({} in the \
             low-energy part); L3 {} reads, {} writes ({} reads redirected during refills)\n\
             {} shared accesses (L3 accesses had they gone through L3: {}); {} faults\n\
             energy {:.1} pJ ({} / {} / {} / {} pJ per 32-bit element: fast, slow, slow \
             low-energy part, L3)\n",
            params.module_name(),
            report.cycles,
            s.accesses,
            s.fast_hits,
            percent(s.fast_hits, s.accesses),
            s.fast_misses,
            report.slow_accesses,
            s.slow_accesses_low,
            s.l3_reads,
            s.l3_writes,
            s.redirects,
            s.shared_accesses,
            l3_without_sharing(&report),
            s.faults,
            report.energy_pj,
            energy.fast_pj,
            energy.slow_pj,
            energy.slow_low_pj,
            energy.l3_pj,
        );
        if report.stuck && report.first_mismatch.is_none() {
            text += &format!(
                "warning: the run did not finish: an EU is parked on a barrier nobody can open, \
                 or --max-cycles {limit} was reached\n"
            );
        }
        text += &if with_rtl {
            format!("RTL co-simulated: {} mismatches\n", report.mismatches)
        } else {
            "golden model only\n".to_string()
        };
        if let Some(f) = &flat_report {
            text += &comparison_table(&[("hierarchical", &report), ("flat", f)]);
            text += &format!(
                "hierarchical against flat: energy {:+.1}%, cycles {:+.1}%, slow GRF accesses \
                 {:+.1}%\n",
                change(f.energy_pj, report.energy_pj),
                change(f.cycles as f64, report.cycles as f64),
                change(f.slow_accesses as f64, report.slow_accesses as f64),
            );
        }
        text.trim_end().to_string()
    };
    match &report.first_mismatch {
        Some(m) => {
            println!("{text}");
            Err(CliError::Mismatch(format!(
                "{m} (seed {seed}; replay with --seed {seed})"
            )))
        }
        None => Ok(text),
    }
}

/// Runs as a table: one row per (label, run).
fn comparison_table(rows: &[(&str, &GrfRun)]) -> String {
    let mut text = format!(
        "{:17} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7} {:>12} {:>12}\n",
        "design",
        "cycles",
        "accesses",
        "fast hits",
        "slow",
        "L3 r+w",
        "L3 unsh",
        "energy pJ",
        "pJ/access"
    );
    for (label, r) in rows {
        text += &format!(
            "{:17} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7} {:>12.1} {:>12.2}\n",
            label,
            r.cycles,
            r.stats.accesses,
            r.stats.fast_hits,
            r.slow_accesses,
            r.stats.l3_reads + r.stats.l3_writes,
            l3_without_sharing(r),
            r.energy_pj,
            r.energy_pj / r.stats.accesses.max(1) as f64,
        );
    }
    text
}

/// `grfgen flow grf`: emit, lint, synthesize and co-simulate every built-in workload.
pub fn flow(
    params: &GrfParams,
    out: &Path,
    clock_mhz: f64,
    seed: Option<u64>,
    as_json: bool,
) -> Result<String, CliError> {
    let timing = Timing::new(clock_mhz, None)?;
    let top = params.module_name();
    let emitted = emit_into(params, out, &top, timing)?;
    let mut steps = block_ram_steps(out, &emitted, clock_mhz, "slow GRF")?;
    let seed = seed.unwrap_or_else(Rng::fresh_seed);
    let energy = Energy::default();
    let mut detail = Vec::new();
    let mut ok = true;
    for name in NAMES {
        let trace = match builtin(name, params, seed, 4) {
            Ok(trace) => trace,
            // A workload this configuration cannot run (e.g. nothing pre-allocated).
            Err(why) => {
                detail.push(format!("{name}: skipped ({why})"));
                continue;
            }
        };
        let r = execute(
            params, &trace, false, 10, seed, &energy, 1_000_000, true, None,
        )?;
        ok &= r.mismatches == 0;
        detail.push(match &r.first_mismatch {
            None => format!("{name}: {} cycles, 0 mismatches", r.cycles),
            Some(m) => format!("{name}: {m}; replay with --seed {seed}"),
        });
    }
    steps.push(Step {
        step: "co-sim",
        ok,
        detail: format!("seed {seed}: {}", detail.join("; ")),
    });
    finish_flow("grf", &top, params, &steps, as_json)
}

/// `grfgen bench grf`: every built-in workload, hierarchical against flat, then the variant-B
/// mappings on the random workload (golden model).
pub fn bench(
    params: &GrfParams,
    rounds: usize,
    seed: u64,
    energy_args: &EnergyArgs,
    as_json: bool,
) -> Result<String, CliError> {
    if !(1..=10_000).contains(&rounds) {
        return Err(ParamError::new("rounds", rounds, "1..=10000").into());
    }
    let energy = energy(energy_args)?;
    let limit = 10_000_000;
    let mut workloads = Vec::new();
    for name in NAMES {
        let trace = builtin(name, params, seed, rounds).map_err(CliError::Input)?;
        let hier = run(params, &trace, false, 10, seed, &energy, limit, None);
        let flat = run(params, &trace, true, 10, seed, &energy, limit, None);
        workloads.push((name, hier, flat));
    }
    // Variant B: a quarter of the slow GRF is the low-energy part; allocations go there by
    // thread range, by fraction of each thread's blocks, or not at all.
    let quarter = GrfParams {
        preallocated: 0,
        low_energy_blocks: params.blocks() / 4,
        ..params.clone()
    };
    let policies = [
        Mapping::None,
        Mapping::Threads(params.all_threads() / 2),
        Mapping::Fraction(50),
    ];
    let mut variant_b = Vec::new();
    for mapping in policies {
        let p = GrfParams {
            mapping,
            ..quarter.clone()
        };
        p.validate()?;
        let trace = builtin("random", &p, seed, rounds).map_err(CliError::Input)?;
        variant_b.push((
            mapping,
            run(&p, &trace, false, 10, seed, &energy, limit, None),
        ));
    }
    if as_json {
        return Ok(serde_json::to_string_pretty(&json!({
            "parameters": params,
            "seed": seed,
            "rounds": rounds,
            "energy_per_access_pj": energy,
            "workloads": workloads.iter().map(|(name, hier, flat)| json!({
                "workload": name,
                "hierarchical": run_json(hier),
                "flat": run_json(flat),
            })).collect::<Vec<_>>(),
            "variant_b": {
                "low_energy_blocks": quarter.low_energy_blocks,
                "workload": "random",
                "runs": variant_b.iter().map(|(mapping, r)| json!({
                    "mapping": mapping.to_string(),
                    "run": run_json(r),
                })).collect::<Vec<_>>(),
            },
        }))
        .expect("bench serialises"));
    }
    let mut text = format!(
        "grf {} (seed {seed}, {rounds} rounds, L3 latency 10)\n",
        params.module_name()
    );
    for (name, hier, flat) in &workloads {
        text += &format!("\n{name}\n");
        text += &comparison_table(&[("hierarchical", hier), ("flat", flat)]);
        text += &format!(
            "  energy {:+.1}%, cycles {:+.1}%; fast GRF hit rate {:.1}%; L3 traffic {} against {} \
             without sharing\n",
            change(flat.energy_pj, hier.energy_pj),
            change(flat.cycles as f64, hier.cycles as f64),
            percent(hier.stats.fast_hits, hier.stats.accesses),
            hier.stats.l3_reads + hier.stats.l3_writes,
            l3_without_sharing(hier),
        );
    }
    text += &format!(
        "\nvariant B: blocks 0..{} low-energy, random workload, nothing pre-allocated\n",
        quarter.low_energy_blocks
    );
    text += &format!(
        "{:17} {:>10} {:>10} {:>12}\n",
        "mapping", "slow low", "slow high", "energy pJ"
    );
    for (mapping, r) in &variant_b {
        text += &format!(
            "{:17} {:>10} {:>10} {:>12.1}\n",
            mapping.to_string(),
            r.stats.slow_accesses_low,
            r.stats.slow_accesses_high,
            r.energy_pj
        );
    }
    Ok(text.trim_end().to_string())
}
