//! The banked GPR against the multi-ported register files it replaces (`grfgen compare gpr`):
//! every bank kind of the GPR at its pipeline options, and the flip-flop, live-value-table,
//! invalidation-LVT and XOR files at theirs (`files.rs`), each synthesized (and placed and
//! routed on request) and each running the core slice's workloads, with a verdict on the
//! document's claim.

use std::collections::BTreeMap;
use std::path::Path;

use grfgen_hdl::design::Design;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{BankMap, CoreParams, MultiportParams};
use grfgen_sim::core::allocated::allocated;
use grfgen_sim::core::waves::settle;
use grfgen_sim::core::{run, Policy};
use serde::Serialize;

use super::files::file_rows;
use super::rows::measure;
pub use super::rows::{DesignRow, Hardware, WorkloadFigures};
pub use super::spec::GprComparisonSpec;
use super::verdict::verdict;
use crate::FlowError;

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
/// is a progress step (`grfgen_support::progress`).
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
                let hardware = measure::<Gpr>(&gpr, spec.pnr, work)?;
                for policy in [Policy::Naive, Policy::CqPq] {
                    let row = row(&name, "banked", Gpr::top(&gpr), &hardware, policy);
                    designs.push(with_workloads(row, spec, spec.core(&gpr), &mut notes));
                }
            }
        }
    }
    let (files, why) = file_rows(&spec.file, spec.memory, &spec.file_pipelines());
    notes.extend(why);
    for file in files {
        let hardware = (file.measure)(&file.params, spec.pnr, work)?;
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
