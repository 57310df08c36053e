//! The banked GPR against the multi-ported register files it replaces (`grfgen compare gpr`):
//! every bank kind of the GPR at its pipeline options, and the flip-flop, live-value-table,
//! invalidation-LVT and XOR files at theirs (`files.rs`), each synthesized (and placed and
//! routed on request) and each running the core slice's workloads, with a verdict on the
//! document's claim.

use std::collections::BTreeMap;
use std::path::Path;

use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{
    BankKind, BankMap, CoreParams, GprParams, Memory, MultiportParams, Params, Waves,
};
use grfgen_sim::core::options::ProgramFiles;
use grfgen_sim::core::run::allocated;
use grfgen_sim::core::waves::settle;
use grfgen_sim::core::{run, workload, CoreOptions, Policy, UnitLatencies};
use serde::Serialize;

use super::files::file_rows;
use super::verdict::verdict;
use crate::pnr::{place_and_route_seeds, synthesize_for, PnrReport};
use crate::steps::PnrRequest;
use crate::FlowError;

/// The clock place and route aims at, in MHz (as `flow --pnr`).
const CLOCK_MHZ: f64 = 200.0;

/// What `grfgen compare gpr` compares.
#[derive(Clone, Debug, Serialize)]
pub struct GprComparisonSpec {
    /// The register file every design implements: depth, lanes, element bits, ports.
    pub file: MultiportParams,
    /// Banks of the banked GPR.
    pub banks: usize,
    /// The banked GPR's bank kinds to compare.
    pub bank_kinds: Vec<BankKind>,
    /// The banked GPR's pipeline options to compare (the deepest alone unless asked).
    pub pipelines: Vec<usize>,
    /// Every pipeline option of the multi-ported files; without it, the deepest alone.
    pub all_options: bool,
    /// The banked GPR's bank maps to compare.
    pub bank_maps: Vec<BankMap>,
    /// The banked GPR's block RAM in the Verilog.
    pub memory: Memory,
    /// The core workloads to run.
    pub workloads: Vec<String>,
    /// The program files to run after them.
    pub programs: ProgramFiles,
    /// Place and route (device and seed); without it, synthesis only.
    #[serde(skip)]
    pub pnr: Option<PnrRequest>,
    /// Seed of the workloads' random programs and initial values.
    pub seed: u64,
    /// Run the banked rows' workloads after bank-aware register allocation (the multi-ported
    /// files need none).
    pub allocate: bool,
    /// Waves the core interleaves on every row (`auto`: as many as each program's registers
    /// allow).
    pub waves: Waves,
}

impl GprComparisonSpec {
    /// Checks every design's parameters and every workload name.
    pub fn validate(&self) -> Result<(), FlowError> {
        self.file.validate()?;
        if let Some(pnr) = self.pnr {
            pnr.device
                .check_memory(self.memory)
                .map_err(FlowError::Input)?;
        }
        for &kind in &self.bank_kinds {
            for &pipeline in &self.pipelines {
                for &map in &self.bank_maps {
                    self.gpr(kind, pipeline, map).validate()?;
                }
            }
        }
        if let Some(bad) = self
            .workloads
            .iter()
            .find(|w| !workload::NAMES.contains(&w.as_str()))
        {
            return Err(FlowError::Input(format!(
                "invalid value {bad} for --workloads: allowed {}",
                workload::NAMES.join(", ")
            )));
        }
        for row in file_rows(self, &self.file_pipelines()).0 {
            row.params.validate()?;
        }
        // Every workload must fit the core's registers and every program file read (when the
        // core runs at all).
        if let Ok(core) = self.core(&self.gpr(BankKind::OneReadOneWrite, 0, BankMap::Mod)) {
            for run in self.runs() {
                run.program(&core, self.seed).map_err(|e| {
                    FlowError::Input(e.to_string().replace("--workload:", "--workloads:"))
                })?;
            }
        }
        Ok(())
    }

    /// The core runs: each workload, then each program file.
    fn runs(&self) -> Vec<CoreOptions> {
        let workloads = (self.workloads.iter()).map(|w| CoreOptions::workload(w, Policy::CqPq));
        (workloads.chain(self.programs.runs(&UnitLatencies::default()))).collect()
    }

    /// The names the runs' figures are listed by: the workloads', then the files'.
    fn run_names(&self) -> Vec<String> {
        (self.workloads.iter().chain(&self.programs.program))
            .cloned()
            .collect()
    }

    /// The banked GPR of `kind` with `pipeline` stages and bank map `map`.
    fn gpr(&self, kind: BankKind, pipeline: usize, map: BankMap) -> GprParams {
        let f = &self.file;
        GprParams {
            banks: self.banks,
            registers: f.registers,
            lanes: f.lanes,
            element_bits: f.element_bits,
            read_ports: f.read_ports,
            write_ports: f.write_ports,
            pipeline,
            bank_kind: kind,
            memory: self.memory,
            bank_map: map,
        }
    }

    /// The multi-ported files' pipeline options compared: all with `all_options`, else the
    /// deepest.
    pub(super) fn file_pipelines(&self) -> Vec<usize> {
        match self.all_options {
            true => (0..=MultiportParams::MAX_PIPELINE).collect(),
            false => vec![MultiportParams::MAX_PIPELINE],
        }
    }

    /// The core slice an ideal file of `file`'s stages runs on: a GPR whose read latency is the
    /// file's, `1 + pipeline` (the GPR's own for pipeline options 0..=2), the reads never
    /// conflicting under the `ideal` policy.
    pub(super) fn ideal_core(&self, file: &MultiportParams) -> Result<CoreParams, String> {
        self.core(&self.gpr(BankKind::OneReadOneWrite, file.pipeline, BankMap::Mod))
    }

    /// The core slice on `gpr`, its pipeline stages included (each a cycle more from a read to
    /// its data, which the core's RTL and golden model both follow). Why not, when the core
    /// cannot run here.
    fn core(&self, gpr: &GprParams) -> Result<CoreParams, String> {
        let core = CoreParams {
            gpr: gpr.clone(),
            waves: self.waves,
            ..CoreParams::default()
        };
        core.validate()
            .map_err(|e| format!("the core slice cannot run: {e}"))?;
        Ok(core)
    }
}

/// What one design costs after synthesis, and after place and route when asked.
#[derive(Clone, Debug, Serialize)]
pub struct Hardware {
    /// Whether it fits the device.
    pub fits: bool,
    /// Why not, if it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Fmax after place and route, MHz: with several placement seeds, the worst seed's, the
    /// clock every seed meets.
    pub fmax_mhz: Option<f64>,
    /// With several placement seeds: their median Fmax, MHz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_mhz_median: Option<f64>,
    /// With several placement seeds: the best seed's Fmax, MHz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_mhz_best: Option<f64>,
    /// LUT4s.
    pub luts: u64,
    /// Flip-flops of the design (the timing harness's excluded).
    pub ffs: u64,
    /// Block RAMs.
    pub brams: u64,
    /// Source-to-sink connections routed (harness included).
    pub routed_arcs: Option<u64>,
    /// Routing wires used, summed over every net (harness included).
    pub wirelength: Option<u64>,
}

impl Hardware {
    fn of(report: &PnrReport) -> Self {
        Self {
            fits: report.fits,
            reason: report.reason.clone(),
            fmax_mhz: report.fmax_mhz_worst.or(report.fmax_mhz),
            fmax_mhz_median: report.fmax_mhz_median.filter(|_| report.seeds.len() > 1),
            fmax_mhz_best: report.fmax_mhz_best.filter(|_| report.seeds.len() > 1),
            luts: report.luts,
            ffs: report.ffs.saturating_sub(report.harness_ffs),
            brams: report.brams,
            routed_arcs: report.routed_arcs,
            wirelength: report.wirelength,
        }
    }
}

/// One workload on one design.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadFigures {
    /// Cycles of the core slice.
    pub cycles: u64,
    /// Cycles / Fmax, in ns (with place and route).
    pub time_ns: Option<f64>,
}

/// One row: a design under one operand policy.
#[derive(Clone, Debug, Serialize)]
pub struct DesignRow {
    /// The row's name, e.g. `banked-1r1w-p0 cq-pq`.
    pub name: String,
    /// `banked` or `multiport`.
    pub kind: &'static str,
    /// The top module.
    pub top: String,
    /// The core's operand policy: `naive`, `cq-pq`, or `ideal` for multi-ported files.
    pub policy: &'static str,
    /// Cost and speed.
    #[serde(flatten)]
    pub hardware: Hardware,
    /// Per workload: cycles and time.
    pub workloads: BTreeMap<String, WorkloadFigures>,
}

/// The comparison.
#[derive(Clone, Debug, Serialize)]
pub struct GprComparison {
    /// What was compared.
    pub spec: GprComparisonSpec,
    /// The device, and whether place and route ran.
    pub device: String,
    /// Whether the designs were placed and routed.
    pub placed_and_routed: bool,
    /// One row per design and policy.
    pub designs: Vec<DesignRow>,
    /// The verdict on the document's claim, and on the ambition, line by line.
    pub verdict: Vec<String>,
    /// Why some figures are missing.
    pub notes: Vec<String>,
}

impl GprComparison {
    /// The comparison as tables: cost, then cycles (and time) per workload, then the verdict.
    pub fn text(&self) -> String {
        let f = &self.spec.file;
        let how = match (self.placed_and_routed, self.spec.pnr) {
            (true, Some(pnr)) if pnr.seeds > 1 => format!(
                "placed and routed with seeds {}..{}, Fmax the worst seed's",
                pnr.seed,
                pnr.seed + pnr.seeds - 1
            ),
            (true, _) => "placed and routed".to_string(),
            (false, _) => "synthesized only".to_string(),
        };
        let mut text = format!(
            "GPR comparison: {} registers x {} lanes x {} bits, {}R{}W, {} banks; {} ({how})\n",
            f.registers,
            f.lanes,
            f.element_bits,
            f.read_ports,
            f.write_ports,
            self.spec.banks,
            self.device
        );
        let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        text += &format!(
            "  {:24} {:>7} {:>7} {:>5} {:>8} {:>8} {:>9}\n",
            "design", "LUT", "FF", "BRAM", "Fmax", "arcs", "wires"
        );
        for d in self.designs.iter().filter(|d| d.policy != "naive") {
            let h = &d.hardware;
            let fmax = match (&h.reason, h.fmax_mhz) {
                (Some(_), _) => "no fit".to_string(),
                (None, f) => f.map_or("-".into(), |f| format!("{f:.1}")),
            };
            text += &format!(
                "  {:24} {:>7} {:>7} {:>5} {:>8} {:>8} {:>9}\n",
                d.name.trim_end_matches(" cq-pq").trim_end_matches(" ideal"),
                h.luts,
                h.ffs,
                h.brams,
                fmax,
                opt(h.routed_arcs),
                opt(h.wirelength)
            );
        }
        text += "  cycles (time in ns) per workload:\n";
        for d in &self.designs {
            let figures: Vec<String> = d
                .workloads
                .iter()
                .map(|(w, x)| match x.time_ns {
                    Some(t) => format!("{w} {} ({t:.0})", x.cycles),
                    None => format!("{w} {}", x.cycles),
                })
                .collect();
            text += &format!("  {:24} {}\n", d.name, figures.join("  "));
        }
        for line in self.verdict.iter().chain(&self.notes) {
            text += &format!("{line}\n");
        }
        text.trim_end().to_string()
    }
}

/// Compares the designs `spec` names, working in `work`; each synthesis and place and route
/// is a progress step (`grfgen_sim::progress`).
pub fn compare_gpr(spec: &GprComparisonSpec, work: &Path) -> Result<GprComparison, FlowError> {
    spec.validate()?;
    let mut designs = Vec::new();
    let mut notes = Vec::new();
    for &kind in &spec.bank_kinds {
        for &pipeline in &spec.pipelines {
            for &map in &spec.bank_maps {
                let gpr = spec.gpr(kind, pipeline, map);
                let name = match map {
                    BankMap::Mod => format!("banked-{kind}-p{pipeline}"),
                    map => format!("banked-{kind}-p{pipeline}-{map}"),
                };
                let hardware = measure::<Gpr>(&gpr, spec, work)?;
                for policy in [Policy::Naive, Policy::CqPq] {
                    let row = row(&name, "banked", Gpr::top(&gpr), &hardware, policy);
                    designs.push(with_workloads(row, spec, spec.core(&gpr), &mut notes));
                }
            }
        }
    }
    let (files, why) = file_rows(spec, &spec.file_pipelines());
    notes.extend(why);
    for file in files {
        let hardware = (file.measure)(&file.params, spec, work)?;
        let row = row(&file.name, "multiport", file.top, &hardware, Policy::Ideal);
        let core = spec.ideal_core(&file.params);
        designs.push(with_workloads(row, spec, core, &mut notes));
    }
    if spec.banks != 4 || spec.file != MultiportParams::default() {
        notes.push(
            "the document's claim is about four 1W1R banks at 256 x 128-bit registers, 4R2W; \
             this comparison is at another size"
                .into(),
        );
    }
    notes.push(
        "ilvt and xor make a write visible to reads 2 + pipeline cycles after its request, a \
         cycle or more later than the core's GPR; their rows' cycles assume the core forwards \
         the values it wrote in those cycles (docs/multiport.md)"
            .into(),
    );
    let mut seen = Vec::new();
    notes.retain(|n| {
        !seen.contains(n) && {
            seen.push(n.clone());
            true
        }
    });
    let placed_and_routed = spec.pnr.is_some();
    Ok(GprComparison {
        verdict: verdict(&designs, &spec.run_names(), placed_and_routed),
        device: spec
            .pnr
            .map_or(crate::pnr::Device::Ecp5_85k, |r| r.device)
            .name()
            .into(),
        spec: spec.clone(),
        placed_and_routed,
        designs,
        notes,
    })
}

/// A row without workloads.
fn row(name: &str, kind: &'static str, top: String, hw: &Hardware, policy: Policy) -> DesignRow {
    DesignRow {
        name: format!("{name} {}", policy.name()),
        kind,
        top,
        policy: policy.name(),
        hardware: hw.clone(),
        workloads: BTreeMap::new(),
    }
}

/// Fills `row`'s workloads on `core` (or notes why the core cannot run).
fn with_workloads(
    mut row: DesignRow,
    spec: &GprComparisonSpec,
    core: Result<CoreParams, String>,
    notes: &mut Vec<String>,
) -> DesignRow {
    let core = match core {
        Ok(core) => core,
        Err(why) => {
            notes.push(format!("no workload figures: {why}"));
            return row;
        }
    };
    let policy = match row.policy {
        "naive" => Policy::Naive,
        "cq-pq" => Policy::CqPq,
        _ => Policy::Ideal,
    };
    let hardware = policy.hardware(&core);
    for (name, options) in spec.run_names().iter().zip(spec.runs()) {
        let workload = match options.program(&hardware, spec.seed) {
            Ok(workload) => workload,
            Err(why) => {
                notes.push(format!("no figures for {name}: {why}"));
                continue;
            }
        };
        let workload = match (spec.allocate, row.kind) {
            (true, "banked") => match allocated(&hardware, policy, &workload, spec.seed) {
                Ok((renamed, _)) => renamed,
                Err(why) => {
                    notes.push(format!("no allocated figures for {name}: {why}"));
                    continue;
                }
            },
            _ => workload,
        };
        let hardware = match settle(&hardware, &workload.program, workload.wave_base) {
            Ok(settled) => settled,
            Err(why) => {
                notes.push(format!("no figures for {name}: {why}"));
                continue;
            }
        };
        let cycles = run(&hardware, policy, &workload, spec.seed, None, false).cycles;
        let time_ns = row.hardware.fmax_mhz.map(|f| cycles as f64 * 1000.0 / f);
        row.workloads
            .insert(name.clone(), WorkloadFigures { cycles, time_ns });
    }
    row
}

/// Synthesizes design `D` for `params` (and places and routes it when asked) in `work`.
pub(super) fn measure<D: Design>(
    params: &D::Params,
    spec: &GprComparisonSpec,
    work: &Path,
) -> Result<Hardware, FlowError> {
    let top = D::top(params);
    let emitted = emit_design::<D>(params, &top)?;
    let dir = work.join(&top);
    std::fs::create_dir_all(&dir)?;
    let report = match spec.pnr {
        Some(pnr) => {
            place_and_route_seeds(&dir, &emitted, pnr.device, CLOCK_MHZ, pnr.seed, pnr.seeds)?
        }
        None => {
            let device = crate::pnr::Device::Ecp5_85k;
            synthesize_for(&dir, &emitted, device, CLOCK_MHZ, 1)?
        }
    };
    Ok(Hardware::of(&report))
}
