//! External tools run on emitted designs: Verilator's linter and Yosys.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde::Serialize;

use crate::FlowError;

/// Runs `command`; a missing program becomes an error that says how to install it
/// (`install`, a whole sentence's end: `sudo apt-get install -y yosys`).
pub(crate) fn output(command: &mut Command, install: &str) -> Result<Output, FlowError> {
    grfgen_sim::interrupt::output(command).map_err(|e| {
        let program = command.get_program().to_string_lossy().into_owned();
        if e.kind() == std::io::ErrorKind::NotFound {
            FlowError::Tool(format!("{program} not found; install it with: {install}"))
        } else {
            FlowError::Tool(format!("running {program}: {e}"))
        }
    })
}

/// A tool that failed, in one line (see [`grfgen_sim::tool::failure`]).
pub(crate) fn failure(tool: &str, out: &Output, log_path: Option<&Path>) -> FlowError {
    FlowError::Tool(grfgen_sim::tool::failure(tool, out, log_path))
}

/// The simulation models `<top>.v` in `dir` needs beside it (see
/// [`grfgen_hdl::sram::simulation_models`]).
fn models(dir: &Path, top: &str) -> Result<Vec<(&'static str, &'static str)>, FlowError> {
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v")))?;
    Ok(grfgen_hdl::sram::simulation_models(&verilog))
}

/// `verilator --lint-only -Wall` on `<top>.v` with its waiver file and the simulation models
/// it needs, in `dir`. Returns the warning and error lines (empty when clean).
pub fn lint(dir: &Path, top: &str) -> Result<Vec<String>, FlowError> {
    let models = models(dir, top)?;
    let out = output(
        Command::new("verilator")
            .current_dir(dir)
            .args(["--lint-only", "-Wall", "--top-module", top])
            .arg(format!("{top}.vlt"))
            .arg(format!("{top}.v"))
            .args(models.iter().map(|(file, _)| file)),
        "sudo apt-get install -y verilator",
    )?;
    let text = String::from_utf8_lossy(&out.stderr);
    let mut findings: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("%Warning") || l.starts_with("%Error"))
        .map(str::to_string)
        .collect();
    if !out.status.success() && findings.is_empty() {
        findings.push(text.trim().to_string());
    }
    Ok(findings)
}

/// Cell counts of a synthesized design.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct SynthStats {
    /// All cells.
    pub cells: u64,
    /// Cells by type, e.g. `SB_LUT4`.
    pub by_type: BTreeMap<String, u64>,
}

impl SynthStats {
    /// Cells of type `kind`.
    pub fn count(&self, kind: &str) -> u64 {
        self.by_type.get(kind).copied().unwrap_or(0)
    }

    /// Flip-flops of an iCE40 netlist (every `SB_DFF*` cell).
    pub fn flip_flops(&self) -> u64 {
        self.by_type
            .iter()
            .filter(|(kind, _)| kind.starts_with("SB_DFF"))
            .map(|(_, n)| n)
            .sum()
    }
}

/// Synthesis targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthTarget {
    /// Yosys's generic `synth` (technology-independent gates).
    Generic,
    /// Yosys's `synth_ice40` (Lattice iCE40: SB_LUT4, SB_DFF*, SB_RAM40_4K).
    Ice40,
}

/// The statistics Yosys writes with `stat -json`.
#[derive(serde::Deserialize)]
struct YosysStats {
    design: YosysDesign,
}

/// The whole design's figures in Yosys's statistics.
#[derive(serde::Deserialize)]
struct YosysDesign {
    num_cells: u64,
    #[serde(default)]
    num_cells_by_type: BTreeMap<String, u64>,
}

/// Synthesizes `<top>.v` in `dir` with Yosys, flattened, and returns its cell counts (from the
/// results cache when this Verilog was synthesized before by this Yosys). Vendor primitives
/// with a simulation model stay black boxes. Fails if Yosys reports an error or `check
/// -assert` finds a problem. Nothing is left in `dir`: the statistics go through a temporary
/// directory of their own, removed even when the run is interrupted.
pub fn synth(dir: &Path, top: &str, target: SynthTarget) -> Result<SynthStats, FlowError> {
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v")))?;
    let boxes: String = models(dir, top)?
        .iter()
        .map(|(file, _)| format!("read_verilog -lib {file}; "))
        .collect();
    let command = match target {
        SynthTarget::Generic => format!("synth -flatten -top {top}"),
        SynthTarget::Ice40 => format!("synth_ice40 -top {top}"),
    };
    let key = crate::cache::key(&[
        "yosys",
        &boxes,
        &command,
        &crate::cache::version(Path::new("yosys"), "-V"),
        &verilog,
    ]);
    if let Some(stats) = crate::cache::get("yosys", &key) {
        return Ok(stats);
    }
    let step = grfgen_sim::progress::step(format!("synthesize {top} (yosys {command})"));
    let stats: SynthStats = run_synth(dir, top, &format!("{boxes}{command}"))?;
    step.done(&grfgen_sim::text::plural(stats.cells, "cell"));
    crate::cache::put("yosys", &key, &stats);
    Ok(stats)
}

/// Runs Yosys's `command` (then `check -assert` and `stat`) after reading `<top>.v` in `dir`.
fn run_synth(dir: &Path, top: &str, command: &str) -> Result<SynthStats, FlowError> {
    let scratch = tempfile::Builder::new().prefix("grfgen-yosys-").tempdir()?;
    let _partial = grfgen_sim::interrupt::Partial::new(scratch.path());
    let stats_file = scratch.path().join("stat.json");
    let script = format!(
        "read_verilog {top}.v; {command}; check -assert; tee -q -o {} stat -json",
        stats_file.display()
    );
    let out = output(
        Command::new("yosys")
            .current_dir(dir)
            .args(["-q", "-p", &script]),
        "sudo apt-get install -y yosys",
    )?;
    if !out.status.success() {
        return Err(failure(&format!("yosys {command}"), &out, None));
    }
    yosys_stats(&stats_file)
}

/// The cell counts in the file Yosys wrote with `stat -json`.
pub fn yosys_stats(path: &Path) -> Result<SynthStats, FlowError> {
    let stats: YosysStats = serde_json::from_str(&std::fs::read_to_string(path)?)
        .map_err(|e| FlowError::Tool(format!("reading yosys statistics: {e}")))?;
    Ok(SynthStats {
        cells: stats.design.num_cells,
        by_type: stats.design.num_cells_by_type,
    })
}
