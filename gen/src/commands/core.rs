//! The core slice's commands: emit, sim, flow, bench.

use std::path::Path;

use grfgen_hdl::core::emit_core;
use grfgen_hdl::emit::Emitted;
use grfgen_hdl::params::CoreParams;
use grfgen_sim::core::workload::{self, program_registers, NAMES};
use grfgen_sim::core::{builtin, parse, run, CoreRtl, CoreRun, Device, Policy, Workload};
use grfgen_sim::rng::Rng;
use grfgen_sim::verilator::BuildOptions;
use serde_json::json;

use super::{
    block_ram_steps, emit_command, finish_flow, verilator_installed, verilator_seed, write_design,
    Step,
};
use crate::cli::{OutputArgs, PolicyName, ProgramArgs};
use crate::design_files::Timing;
use crate::error::CliError;

fn policy(name: PolicyName) -> Policy {
    match name {
        PolicyName::Naive => Policy::Naive,
        PolicyName::Cq => Policy::Cq,
        PolicyName::CqPq => Policy::CqPq,
        PolicyName::Ideal => Policy::Ideal,
    }
}

fn derived(params: &CoreParams) -> serde_json::Value {
    json!({
        "window": params.window(),
        "rows": params.gpr.rows(),
        "register_bits": params.gpr.register_bits(),
        "entry_bits": params.gpr.entry_bits(),
        "program_registers": program_registers(params),
        "external_registers": workload::EXTERNAL_REGISTERS,
    })
}

fn emit_into(
    params: &CoreParams,
    out: &Path,
    top: &str,
    timing: Timing,
) -> Result<Emitted, CliError> {
    let emitted = emit_core(params, top)?;
    write_design("core", &emitted, params, derived(params), out, timing)?;
    Ok(emitted)
}

/// `grfgen emit core`.
pub fn emit(params: &CoreParams, output: &OutputArgs) -> Result<String, CliError> {
    emit_command(output, params.module_name(), |out, top, timing| {
        emit_into(params, out, top, timing)
    })
}

/// The workload a run asks for: built-in or read from a file.
fn load(params: &CoreParams, program: &ProgramArgs, seed: u64) -> Result<Workload, CliError> {
    match (&program.workload, &program.program) {
        (Some(name), _) => builtin(name, params, seed).map_err(CliError::Input),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::Input(format!(
                    "invalid value {} for --program: {e}",
                    path.display()
                ))
            })?;
            let program = parse(&text, program_registers(params))
                .map_err(|e| CliError::Input(format!("invalid program {}: {e}", path.display())))?;
            Ok(Workload {
                name: path.display().to_string(),
                program,
                external_rate: 0,
            })
        }
        (None, None) => unreachable!("clap requires one of --workload and --program"),
    }
}

/// Runs `workload` under `policy`, in lock step with the RTL when `with_rtl`.
fn execute(
    params: &CoreParams,
    policy: Policy,
    workload: &Workload,
    seed: u64,
    with_rtl: bool,
    schedule: bool,
) -> Result<CoreRun, CliError> {
    if !with_rtl {
        return Ok(run(params, policy, workload, seed, None, schedule));
    }
    let options = BuildOptions {
        seed: verilator_seed(seed),
        ..Default::default()
    };
    let mut device = CoreRtl::build(&policy.hardware(params), &options, None)?;
    Ok(run(
        params,
        policy,
        workload,
        seed,
        Some(&mut device as &mut dyn Device),
        schedule,
    ))
}

/// `grfgen sim core`.
#[allow(clippy::too_many_arguments)]
pub fn sim(
    params: &CoreParams,
    policy_name: PolicyName,
    program: &ProgramArgs,
    seed: Option<u64>,
    rtl: bool,
    no_rtl: bool,
    schedule: bool,
    as_json: bool,
) -> Result<String, CliError> {
    let chosen = policy(policy_name);
    if rtl && chosen == Policy::Ideal {
        return Err(CliError::Input(
            "invalid value ideal for --policy with --rtl: the ideal file is a golden model only"
                .into(),
        ));
    }
    let with_rtl = !no_rtl && chosen != Policy::Ideal && (rtl || verilator_installed());
    let seed = seed.unwrap_or_else(Rng::fresh_seed);
    let workload = load(params, program, seed)?;
    let report = execute(params, chosen, &workload, seed, with_rtl, schedule)?;
    let others: Vec<CoreRun> = Policy::ALL
        .iter()
        .map(|&p| run(params, p, &workload, seed, None, false))
        .collect();
    let text = if as_json {
        let mut object = serde_json::to_value(&report).expect("report serialises");
        object["instructions"] = json!(report.stats.instructions);
        object["lower_bound_terms"] = object["lower_bound"].clone();
        object["lower_bound"] = json!(report.lower_bound.cycles);
        object["policy"] = json!(chosen.name());
        object["seed"] = json!(seed);
        object["rtl"] = json!(with_rtl);
        object["parameters"] = serde_json::to_value(params).expect("parameters serialise");
        object["comparison"] = others
            .iter()
            .map(|r| {
                (
                    r.policy.name().to_string(),
                    json!({
                        "cycles": r.cycles,
                        "lower_bound": r.lower_bound.cycles,
                        "stall_cycles": r.stats.stall_cycles,
                    }),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into();
        serde_json::to_string_pretty(&object).expect("report serialises")
    } else {
        let s = &report.stats;
        let ratio = |r: &CoreRun| r.cycles as f64 / r.lower_bound.cycles.max(1) as f64;
        let mut text = format!(
            "core {} on {} (seed {seed}): {} cycles, lower bound {} ({:.2}x)\n\
             {} instructions, {} with a source conflict; {} GPR reads: {} preloads into the CQ, {} prefetches into the PQ; {} stall cycles\n",
            chosen.name(),
            workload.name,
            report.cycles,
            report.lower_bound.cycles,
            ratio(&report),
            s.instructions,
            s.sc_instructions,
            s.gpr_reads,
            s.cq_preloads,
            s.pq_prefetches,
            s.stall_cycles,
        );
        if s.external_writes + s.external_retries > 0 {
            text += &format!(
                "external writes {} ({} retried cycles)\n",
                s.external_writes, s.external_retries
            );
        }
        text += &if with_rtl {
            format!("RTL co-simulated: {} mismatches\n", report.mismatches)
        } else {
            "golden model only\n".to_string()
        };
        text += "policy   cycles  x bound  stalls\n";
        for r in &others {
            text += &format!(
                "{:7} {:7}  {:7.2}  {:6}\n",
                r.policy.name(),
                r.cycles,
                ratio(r),
                r.stats.stall_cycles
            );
        }
        if let Some(cycles) = &report.schedule {
            text += "GPR reads by cycle (register, bank, port, destination):\n";
            for (t, reads) in cycles.iter().enumerate() {
                let list: Vec<String> = reads
                    .iter()
                    .map(|r| {
                        format!("R{} b{} p{} {:?}", r.reg, r.bank, r.port, r.to).to_lowercase()
                    })
                    .collect();
                text += &format!("  cycle {t:3}: {}\n", list.join(", "));
            }
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

/// `grfgen flow core`: emit, lint, synthesize and co-simulate the document's example and a
/// random program.
pub fn flow(
    params: &CoreParams,
    out: &Path,
    clock_mhz: f64,
    seed: Option<u64>,
    as_json: bool,
) -> Result<String, CliError> {
    let timing = Timing::new(clock_mhz, None)?;
    let top = params.module_name();
    let emitted = emit_into(params, out, &top, timing)?;
    let mut steps = block_ram_steps(out, &emitted, clock_mhz, "GPR banks")?;
    let seed = seed.unwrap_or_else(Rng::fresh_seed);
    let mut detail = Vec::new();
    let mut ok = true;
    for name in ["rpt-mad", "random"] {
        let workload = builtin(name, params, seed).map_err(CliError::Input)?;
        let report = execute(params, Policy::CqPq, &workload, seed, true, false)?;
        ok &= report.mismatches == 0;
        detail.push(match &report.first_mismatch {
            None => format!("{name}: {} cycles, 0 mismatches", report.cycles),
            Some(m) => format!("{name}: {m}; replay with --seed {seed}"),
        });
    }
    steps.push(Step {
        step: "co-sim",
        ok,
        detail: format!("cq-pq, seed {seed}: {}", detail.join("; ")),
    });
    finish_flow("core", &top, params, &steps, as_json)
}

/// `grfgen bench core`: every policy on every built-in workload (golden model).
pub fn bench(params: &CoreParams, seed: u64, as_json: bool) -> Result<String, CliError> {
    let mut rows = Vec::new();
    for name in NAMES {
        let workload = builtin(name, params, seed).map_err(CliError::Input)?;
        for p in Policy::ALL {
            rows.push(run(params, p, &workload, seed, None, false));
        }
    }
    if as_json {
        return Ok(serde_json::to_string_pretty(&json!({
            "parameters": params,
            "seed": seed,
            "runs": rows,
        }))
        .expect("bench serialises"));
    }
    let mut text = String::from(
        "workload        policy  cycles  bound  x bound  SC  preloads  prefetches  stalls\n",
    );
    for r in &rows {
        text += &format!(
            "{:15} {:7} {:6} {:6}  {:7.3} {:3} {:9} {:11} {:7}\n",
            r.workload,
            r.policy.name(),
            r.cycles,
            r.lower_bound.cycles,
            r.cycles as f64 / r.lower_bound.cycles.max(1) as f64,
            r.stats.sc_instructions,
            r.stats.cq_preloads,
            r.stats.pq_prefetches,
            r.stats.stall_cycles
        );
    }
    let kernels = ["conv3x3", "matmul4", "normalize"];
    let mean = |p: Policy| {
        let ratios: Vec<f64> = rows
            .iter()
            .filter(|r| r.policy == p && kernels.contains(&r.workload.as_str()))
            .map(|r| r.cycles as f64 / r.lower_bound.cycles.max(1) as f64)
            .collect();
        ratios.iter().sum::<f64>() / ratios.len().max(1) as f64
    };
    text += &format!(
        "mean x bound over the kernels (conv3x3, matmul4, normalize): naive {:.3}, cq {:.3}, cq-pq {:.3}, ideal {:.3}",
        mean(Policy::Naive),
        mean(Policy::Cq),
        mean(Policy::CqPq),
        mean(Policy::Ideal)
    );
    Ok(text)
}
