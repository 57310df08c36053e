//! What `grfgen compare gpr` measures: one design's hardware, one row's figures, and the
//! measurement of a design.

use std::collections::BTreeMap;
use std::path::Path;

use grfgen_hdl::design::{emit_design, Design};
use serde::Serialize;

use crate::pnr::{place_and_route_seeds, synthesize_for, PnrReport};
use crate::steps::PnrRequest;
use crate::FlowError;

/// The clock place and route aims at, in MHz (as `flow --pnr`).
const CLOCK_MHZ: f64 = 200.0;

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
    pub(super) fn of(report: &PnrReport) -> Self {
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

/// Synthesizes design `D` for `params` (and places and routes it with `pnr`) in `work`.
pub(super) fn measure<D: Design>(
    params: &D::Params,
    pnr: Option<PnrRequest>,
    work: &Path,
) -> Result<Hardware, FlowError> {
    let top = D::top(params);
    let emitted = emit_design::<D>(params, &top)?;
    let dir = work.join(&top);
    std::fs::create_dir_all(&dir)?;
    let report = match pnr {
        Some(pnr) => {
            let first = pnr.placement();
            place_and_route_seeds(&dir, &emitted, pnr.device, CLOCK_MHZ, first, pnr.seeds)?
        }
        None => {
            let device = crate::pnr::Device::Ecp5_85k;
            synthesize_for(&dir, &emitted, device, CLOCK_MHZ, 1)?
        }
    };
    Ok(Hardware::of(&report))
}
