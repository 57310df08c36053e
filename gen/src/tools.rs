//! External tools run on emitted designs: Verilator's linter and Yosys.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::Serialize;

use crate::error::CliError;

/// Runs `command`; a missing program becomes an error that says how to install it.
fn output(command: &mut Command, package: &str) -> Result<std::process::Output, CliError> {
    command.output().map_err(|e| {
        let program = command.get_program().to_string_lossy().into_owned();
        if e.kind() == std::io::ErrorKind::NotFound {
            CliError::Failed(format!(
                "{program} not found; install it with: sudo apt-get install -y {package}"
            ))
        } else {
            CliError::Failed(format!("running {program}: {e}"))
        }
    })
}

/// `verilator --lint-only -Wall` on `<top>.v` with its waiver file, in `dir`.
/// Returns the warning and error lines (empty when clean).
pub fn lint(dir: &Path, top: &str) -> Result<Vec<String>, CliError> {
    let out = output(
        Command::new("verilator")
            .current_dir(dir)
            .args(["--lint-only", "-Wall", "--top-module", top])
            .arg(format!("{top}.vlt"))
            .arg(format!("{top}.v")),
        "verilator",
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
#[derive(Clone, Debug, Default, Serialize)]
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
}

/// Synthesis targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthTarget {
    /// Yosys's generic `synth` (technology-independent gates).
    Generic,
    /// Yosys's `synth_ice40` (Lattice iCE40: SB_LUT4, SB_DFF*, SB_RAM40_4K).
    Ice40,
}

/// Synthesizes `<top>.v` in `dir` with Yosys, flattened, and returns its cell counts.
/// Fails if Yosys reports an error or `check -assert` finds a problem.
pub fn synth(dir: &Path, top: &str, target: SynthTarget) -> Result<SynthStats, CliError> {
    let stats_file = tempfile::NamedTempFile::new_in(dir)?;
    let command = match target {
        SynthTarget::Generic => format!("synth -flatten -top {top}"),
        SynthTarget::Ice40 => format!("synth_ice40 -top {top}"),
    };
    let script = format!(
        "read_verilog {top}.v; {command}; check -assert; tee -q -o {} stat -json",
        stats_file.path().display()
    );
    let out = output(
        Command::new("yosys")
            .current_dir(dir)
            .args(["-q", "-p", &script]),
        "yosys",
    )?;
    if !out.status.success() {
        let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        return Err(CliError::Failed(format!("yosys {command} failed:\n{log}")));
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stats_file.path())?)
            .map_err(|e| CliError::Failed(format!("reading yosys statistics: {e}")))?;
    let design = &json["design"];
    Ok(SynthStats {
        cells: design["num_cells"].as_u64().unwrap_or(0),
        by_type: design["num_cells_by_type"]
            .as_object()
            .map(|types| {
                types
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default(),
    })
}
