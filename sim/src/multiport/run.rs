//! Running a multi-ported file: random traffic through the golden model, with the Verilated
//! file in lock step; what a run reports; the simulation-speed benchmark.

use grfgen_hdl::design::Design;
use grfgen_hdl::params::MultiportParams;
use serde::Serialize;

use super::model::{MultiportModel, MultiportResponse, Timing};
use super::verilated::MultiportRtl;
use crate::block::{Report, Rtl, Setup, SimError};
use crate::check::{end_cycle, Device, LockStep};
use crate::gpr::run::measure_speed;
use crate::gpr::{GprBench, GprBenchOptions, GprOptions, GprRequests, RandomTraffic};

/// Counts and outcome of a run of a multi-ported file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MultiportReport {
    /// Cycles simulated.
    pub cycles: u64,
    /// Reads performed (every read is served).
    pub reads: u64,
    /// Writes performed (every write is served).
    pub writes: u64,
    /// Reads whose data a write of their register makes undefined (in the same cycle, or in
    /// the cycle a later-committing write is stored): not compared.
    pub undefined_reads: u64,
    /// Whether the RTL ran in lock step, and what it found.
    #[serde(flatten)]
    pub lock_step: LockStep,
}

impl Report for MultiportReport {
    /// The cycles run: every request is served in its own cycle.
    fn work_cycles(&self) -> Option<f64> {
        Some(self.cycles as f64)
    }

    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.lock_step)
    }

    fn text(&self) -> String {
        format!(
            "cycles {}  reads {}  writes {}  conflicts 0  undefined reads (colliding with a write) {}\n\
             mismatches {}",
            self.cycles, self.reads, self.writes, self.undefined_reads, self.lock_step.mismatches,
        )
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        let cycles = self.cycles.max(1) as f64;
        vec![
            ("reads_per_cycle", self.reads as f64 / cycles),
            ("writes_per_cycle", self.writes as f64 / cycles),
            ("mismatches", self.lock_step.mismatches as f64),
        ]
    }
}

/// Runs `cycles` cycles of `traffic` (every port drawn anew each cycle) through the golden
/// model with `timing` and, when given, through `device` in lock step, stopping at the first
/// mismatch.
pub fn run(
    params: &MultiportParams,
    timing: Timing,
    traffic: &mut RandomTraffic,
    cycles: u64,
    mut device: Option<&mut dyn Device<Input = GprRequests, Expected = MultiportResponse>>,
    progress: &dyn Fn(u64),
) -> MultiportReport {
    let mut model = MultiportModel::new(params, timing);
    let mut requests = GprRequests::sized(params.read_ports, params.write_ports, params.lanes);
    let mut response = MultiportResponse::new(params);
    let mut report = MultiportReport {
        lock_step: LockStep {
            rtl: device.is_some(),
            ..Default::default()
        },
        ..Default::default()
    };
    for cycle in 0..cycles {
        traffic.fresh(&mut requests);
        let undefined = model.step(&requests, &mut response);
        report.cycles = cycle + 1;
        report.reads += requests.reads.iter().filter(|r| r.is_some()).count() as u64;
        report.undefined_reads += undefined as u64;
        report.writes += requests.writes.iter().filter(|w| w.is_some()).count() as u64;
        let checked = end_cycle(device.as_deref_mut(), cycle, &requests, &response, progress);
        if let Err(mismatch) = checked {
            report.lock_step.mismatches = 1;
            report.lock_step.first_mismatch = Some(mismatch);
            break;
        }
    }
    report
}

/// The random traffic of a run: a few hot registers, so that reads often meet writes.
fn traffic(params: &MultiportParams, options: &GprOptions, seed: u64) -> RandomTraffic {
    let mut traffic = RandomTraffic::shaped(params.registers, 8, params.lanes, seed);
    traffic.load = options.load;
    traffic.hot = options.hot;
    traffic
}

/// One run of design `D` with `timing`: random traffic from the options and the seed.
pub(super) fn run_options<D: Design<Params = MultiportParams>>(
    params: &MultiportParams,
    timing: Timing,
    options: &GprOptions,
    setup: &Setup,
) -> Result<MultiportReport, SimError> {
    let mut rtl = setup.device(|| MultiportRtl::build::<D>(params, setup))?;
    Ok(run(
        params,
        timing,
        &mut traffic(params, options, setup.seed),
        options.cycles,
        rtl.as_mut().map(|d| d as _),
        setup.progress,
    ))
}

/// Cycles per second of the golden model alone and of lock-step co-simulation of design `D`
/// with `timing` (seed 1, default traffic).
pub(super) fn bench<D: Design<Params = MultiportParams>>(
    params: &MultiportParams,
    timing: Timing,
    options: &GprBenchOptions,
) -> Result<GprBench, SimError> {
    let setup = Setup::new(1, Rtl::On);
    let cycles = options.cycles;
    let traffic = || traffic(params, &GprOptions::default(), setup.seed);
    measure_speed(
        cycles,
        || run(params, timing, &mut traffic(), cycles, None, &|_| {}).cycles,
        || MultiportRtl::build::<D>(params, &setup),
        |rtl| {
            let cosim = run(params, timing, &mut traffic(), cycles, Some(rtl), &|_| {});
            match cosim.mismatch() {
                Some(m) => Err(SimError::Mismatch(format!("{m} (seed 1)"))),
                None => Ok(cosim.cycles),
            }
        },
    )
}
