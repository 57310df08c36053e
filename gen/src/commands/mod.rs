//! One module per block's commands; the pieces they share are here. Each command returns the
//! text (or JSON) it prints.

pub mod blocks;
pub mod core;
pub mod gpr;
pub mod grf;
pub mod route;

use std::path::Path;

use grfgen_hdl::emit::Emitted;
use grfgen_hdl::params::ParamError;
use grfgen_sim::rng::Rng;
use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::{CycleArgs, OutputArgs};
use crate::design_files::{design_files, write_atomically, Timing};
use crate::error::CliError;
use crate::tools::{lint, synth, SynthStats, SynthTarget};

/// The run's seed: the given one or a fresh one (always printed, so it can be replayed).
pub fn seed(run: &CycleArgs) -> u64 {
    run.seed.unwrap_or_else(Rng::fresh_seed)
}

/// Verilator's seed for x randomisation, derived from the run's seed (never 0, which
/// Verilator reads as "pick one").
pub fn verilator_seed(seed: u64) -> u32 {
    (seed % 0x7fff_fffe) as u32 + 1
}

/// Whether `verilator` runs (co-simulation is the default where it does).
pub fn verilator_installed() -> bool {
    std::process::Command::new("verilator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Checks a percentage flag.
pub fn check_percent(name: &'static str, value: u32) -> Result<(), CliError> {
    if value > 100 {
        return Err(ParamError::new(name, value, "0..=100").into());
    }
    Ok(())
}

/// Checks a top module name: a Verilog identifier.
pub fn check_top(name: &str) -> Result<(), CliError> {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(ParamError::new("top", name, "a Verilog identifier: [A-Za-z_][A-Za-z0-9_]*").into())
    }
}

/// Writes an emitted design's files (Verilog, waivers, constraints, manifest) into `out`.
pub fn write_design(
    block: &str,
    emitted: &Emitted,
    params: &impl Serialize,
    derived: Value,
    out: &Path,
    timing: Timing,
) -> Result<(), CliError> {
    let files = design_files(
        block,
        emitted,
        serde_json::to_value(params).expect("parameters serialise"),
        derived,
        timing,
    );
    write_atomically(out, &files)
}

/// `grfgen emit <block>`: checks the timing flags and the top name (`--top`, else
/// `default_top`), then has `emit_into` emit and write the design; returns the summary line.
pub fn emit_command(
    output: &OutputArgs,
    default_top: String,
    emit_into: impl FnOnce(&Path, &str, Timing) -> Result<Emitted, CliError>,
) -> Result<String, CliError> {
    let timing = Timing::new(output.clock_mhz, output.io_delay_ns)?;
    let top = output.top.clone().unwrap_or(default_top);
    check_top(&top)?;
    let emitted = emit_into(&output.out, &top, timing)?;
    Ok(emitted_summary(&output.out, &emitted))
}

/// What `emit` prints after writing a design.
pub fn emitted_summary(out: &Path, emitted: &Emitted) -> String {
    let top = &emitted.top;
    format!(
        "wrote {}: {top}.v ({} lines, {} ports), {top}.vlt, {top}.xdc, {top}.sdc, manifest.json",
        out.display(),
        emitted.verilog.lines().count(),
        emitted.ports.len(),
    )
}

/// One checked step of `flow`.
#[derive(Serialize)]
pub struct Step {
    /// What was done.
    pub step: &'static str,
    /// Whether it passed.
    pub ok: bool,
    /// What it found.
    pub detail: String,
}

/// The emit step of `flow`.
pub fn emit_step(out: &Path, emitted: &Emitted, clock_mhz: f64) -> Step {
    Step {
        step: "emit",
        ok: true,
        detail: format!(
            "{}: {}.v ({} lines, {} ports), .vlt, .xdc, .sdc ({clock_mhz} MHz), manifest.json",
            out.display(),
            emitted.top,
            emitted.verilog.lines().count(),
            emitted.ports.len(),
        ),
    }
}

/// Flip-flops of an iCE40 netlist.
pub fn flip_flops(stats: &SynthStats) -> u64 {
    stats
        .by_type
        .iter()
        .filter(|(kind, _)| kind.starts_with("SB_DFF"))
        .map(|(_, n)| n)
        .sum()
}

/// The lint, generic-synthesis and iCE40 steps of `flow` for the design `top` in `dir`;
/// `judge` decides whether the iCE40 netlist is right and describes it.
pub fn check_design(
    dir: &Path,
    top: &str,
    judge: impl FnOnce(&SynthStats) -> (bool, String),
) -> Result<Vec<Step>, CliError> {
    let findings = lint(dir, top)?;
    let generic = synth(dir, top, SynthTarget::Generic)?;
    let ice40 = synth(dir, top, SynthTarget::Ice40)?;
    let (ice40_ok, ice40_detail) = judge(&ice40);
    Ok(vec![
        Step {
            step: "lint",
            ok: findings.is_empty(),
            detail: if findings.is_empty() {
                "verilator --lint-only -Wall: clean (waivers in the .vlt)".into()
            } else {
                findings.join("; ")
            },
        },
        Step {
            step: "synth",
            ok: true,
            detail: format!("yosys synth: {} cells, check passed", generic.cells),
        },
        Step {
            step: "ice40",
            ok: ice40_ok,
            detail: format!("yosys synth_ice40: {ice40_detail}"),
        },
    ])
}

/// The emit, lint, synthesis and iCE40 steps of `flow` for a design whose memories (named
/// `memories` in the report) must map to block RAM.
pub fn block_ram_steps(
    out: &Path,
    emitted: &Emitted,
    clock_mhz: f64,
    memories: &str,
) -> Result<Vec<Step>, CliError> {
    let mut steps = vec![emit_step(out, emitted, clock_mhz)];
    steps.extend(check_design(out, &emitted.top, |ice40| {
        let brams = ice40.count("SB_RAM40_4K");
        (
            brams > 0,
            format!(
                "{brams} SB_RAM40_4K ({memories}), {} SB_LUT4, {} flip-flops",
                ice40.count("SB_LUT4"),
                flip_flops(ice40)
            ),
        )
    })?);
    Ok(steps)
}

/// Prints `flow`'s steps as a table (or JSON); an error if any failed.
pub fn finish_flow(
    block: &str,
    top: &str,
    parameters: &impl Serialize,
    steps: &[Step],
    as_json: bool,
) -> Result<String, CliError> {
    let all_ok = steps.iter().all(|s| s.ok);
    let text = if as_json {
        serde_json::to_string_pretty(&json!({
            "block": block,
            "top": top,
            "parameters": parameters,
            "ok": all_ok,
            "steps": steps,
        }))
        .expect("flow serialises")
    } else {
        let mut text = format!("grfgen flow {block}: {top}\n");
        for s in steps {
            let mark = if s.ok { "ok  " } else { "FAIL" };
            text += &format!("  {mark}  {:7} {}\n", s.step, s.detail);
        }
        text.trim_end().to_string()
    };
    if all_ok {
        Ok(text)
    } else {
        println!("{text}");
        Err(CliError::Failed(
            "flow failed: see the FAIL lines above".into(),
        ))
    }
}
