//! External tools run on emitted designs: Verilator's linter and Yosys.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde::Serialize;

use crate::FlowError;

/// Runs `command`; a missing program becomes an error that says how to install it
/// (`install`, a whole sentence's end: `sudo apt-get install -y yosys`).
pub(crate) fn output(command: &mut Command, install: &str) -> Result<Output, FlowError> {
    output_within(command, install, None)
}

/// [`output`], the tool stopped after `limit` if one is given (an error that says so).
pub(crate) fn output_within(
    command: &mut Command,
    install: &str,
    limit: Option<std::time::Duration>,
) -> Result<Output, FlowError> {
    let ran = match limit {
        Some(limit) => grfgen_support::interrupt::output_within(command, limit),
        None => grfgen_support::interrupt::output(command),
    };
    ran.map_err(|e| {
        let program = command.get_program().to_string_lossy().into_owned();
        if e.kind() == std::io::ErrorKind::NotFound {
            FlowError::Tool(format!("{program} not found; install it with: {install}"))
        } else {
            FlowError::Tool(format!("running {program}: {e}"))
        }
    })
}

/// A tool that failed, in one line (see [`grfgen_support::tool::failure`]).
pub(crate) fn failure(tool: &str, out: &Output, log_path: Option<&Path>) -> FlowError {
    FlowError::Tool(grfgen_support::tool::failure(tool, out, log_path))
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
        self.count_prefixed("SB_DFF")
    }

    /// Cells whose type starts with `prefix`.
    pub fn count_prefixed(&self, prefix: &str) -> u64 {
        self.by_type
            .iter()
            .filter(|(kind, _)| kind.starts_with(prefix))
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

/// Synthesizes `<top>.v` in `dir` with Yosys and returns its cell counts (from the results
/// cache when this Verilog was synthesized before by this Yosys). Vendor primitives with a
/// simulation model stay black boxes. Fails if Yosys reports an error or `check -assert`
/// finds a problem. Nothing is left in `dir`: the statistics go through a temporary directory
/// of their own, removed even when the run is interrupted.
///
/// Every module instantiated more than once (a crossbar lane, an SRAM) keeps its hierarchy
/// through synthesis, so that it is synthesized once rather than once per copy; the rest is
/// flattened, so that logic across the other modules' boundaries is optimised as one. Banks
/// of plain registers are flattened too: they take no time to synthesize, and flattened, the
/// bits nothing reads are removed. The counts are the whole design's, each kept module's
/// cells once per instance (`docs/benchmarks.md`, "Hierarchical synthesis").
pub fn synth(dir: &Path, top: &str, target: SynthTarget) -> Result<SynthStats, FlowError> {
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v")))?;
    let boxes: String = models(dir, top)?
        .iter()
        .map(|(file, _)| format!("read_verilog -lib {file}; "))
        .collect();
    let repeated = repeated_modules(&verilog);
    let keep = match repeated.join(" ") {
        none if none.is_empty() => String::new(),
        names => format!("setattr -mod -set keep_hierarchy 1 {names}; "),
    };
    let synthesis = match target {
        SynthTarget::Generic => format!("synth -flatten -top {top}"),
        SynthTarget::Ice40 => format!("synth_ice40 -top {top}"),
    };
    let command = format!("{keep}{synthesis}");
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
    let step = grfgen_support::progress::step(format!(
        "synthesize {top} (yosys {synthesis}, {} kept whole)",
        grfgen_support::text::plural(repeated.len() as u64, "repeated module")
    ));
    let stats: SynthStats = run_synth(dir, top, &format!("{boxes}{command}"))?;
    step.done(&grfgen_support::text::plural(stats.cells, "cell"));
    crate::cache::put("yosys", &key, &stats);
    Ok(stats)
}

/// The modules of `verilog` (as grfgen writes it: an instance is a line `    <module>
/// <name>(`) that are instantiated more than once, other than banks of registers.
fn repeated_modules(verilog: &str) -> Vec<&str> {
    let mut instances: BTreeMap<&str, usize> = verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module ")?.strip_suffix('('))
        .map(|module| (module, 0))
        .collect();
    for line in verilog.lines() {
        let mut words = line.strip_prefix("    ").unwrap_or("").split(' ');
        if let (Some(module), Some(name), None) = (words.next(), words.next(), words.next()) {
            if name.ends_with('(') {
                if let Some(count) = instances.get_mut(module) {
                    *count += 1;
                }
            }
        }
    }
    instances
        .into_iter()
        .filter(|&(module, count)| count > 1 && !grfgen_hdl::cells::regs::is_register_bank(module))
        .map(|(module, _)| module)
        .collect()
}

/// Runs Yosys's `command` (then `check -assert` and `stat`) after reading `<top>.v` in `dir`.
///
/// The statistics are read from `stat -top`'s text: Yosys 0.23's `stat -json` writes invalid
/// JSON for a design of several modules.
fn run_synth(dir: &Path, top: &str, command: &str) -> Result<SynthStats, FlowError> {
    let scratch = grfgen_support::interrupt::Scratch::new("grfgen-yosys-")?;
    let stats_file = scratch.path().join("stat.txt");
    let script = format!(
        "read_verilog {top}.v; {command}; check -assert; tee -q -o {} stat -top {top}",
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
    design_stats(&std::fs::read_to_string(&stats_file)?)
}

/// The whole design's cell counts in the text of Yosys's `stat -top`: the last `Number of
/// cells:` and the counts by type under it (the design hierarchy's, or the only module's).
fn design_stats(text: &str) -> Result<SynthStats, FlowError> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("Number of cells:"))
        .ok_or_else(|| FlowError::Tool("yosys stat printed no cell count".into()))?;
    let count = |word: Option<&str>| word.and_then(|w| w.parse::<u64>().ok());
    let cells = count(lines[at].split_whitespace().last())
        .ok_or_else(|| FlowError::Tool(format!("yosys stat: unreadable {:?}", lines[at])))?;
    let mut by_type = BTreeMap::new();
    for line in &lines[at + 1..] {
        let mut words = line.split_whitespace();
        let (Some(kind), Some(n), None) = (words.next(), count(words.next()), words.next()) else {
            break;
        };
        by_type.insert(kind.to_string(), n);
    }
    Ok(SynthStats { cells, by_type })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_the_design_hierarchys() {
        // As Yosys 0.23 prints it: a module's block, then the hierarchy's totals.
        let text = "=== top_lane ===\n\n   Number of cells:                 12\n     SB_LUT4                         12\n\n\
                    === design hierarchy ===\n\n   top      1\n     top_lane      4\n\n   \
                    Number of wires:               100\n   Number of cells:                 53\n     \
                    SB_DFF                           5\n     SB_LUT4                         48\n\n";
        let stats = design_stats(text).unwrap();
        assert_eq!(stats.cells, 53);
        assert_eq!(stats.count("SB_LUT4"), 48);
        assert_eq!(stats.count("SB_DFF"), 5);
        assert_eq!(stats.by_type.len(), 2);
        assert!(design_stats("=== top ===\n").is_err());
    }

    #[test]
    fn only_modules_instantiated_twice_or_more_are_repeated_and_register_banks_are_not() {
        let verilog =
            "module top(\n    clock\n);\n    top_body body(\n        .clock(clock)\n    );\n\
                       endmodule\nmodule top_body(\n);\n    top_lane lane__0(\n    );\n    \
                       top_lane lane__1(\n    );\n    top_registers_2x8 hold__0(\n    );\n    \
                       top_registers_2x8 hold__1(\n    );\nendmodule\nmodule top_lane(\n);\n\
                       endmodule\nmodule top_registers_2x8(\n);\nendmodule\n";
        assert_eq!(repeated_modules(verilog), ["top_lane"]);
    }
}
