//! Running the router: random passes of every kind through the golden model, with the
//! Verilated router in lock step; what a run reports.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, Param, Params, RouteParams};
use serde::{Deserialize, Serialize};

use super::model::{Pass, RouterModel};
use super::stimulus::{RandomPasses, RouteCycle};
use super::verilated::RouterRtl;
use crate::block::{Report, Setup, SimError, MAX_CYCLES};
use crate::check::{end_cycle, Device, LockStep};

/// The options of a router run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteOptions {
    /// Cycles to simulate.
    pub cycles: u64,
}

impl Default for RouteOptions {
    fn default() -> Self {
        Self { cycles: 100_000 }
    }
}

impl Params for RouteOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(cycles, "cycles to simulate", "N", |_| {
            Allowed::range(1, MAX_CYCLES)
        })]
    }
}

/// Counts and outcome of a router run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RouteReport {
    /// Cycles simulated.
    pub cycles: u64,
    /// Passes that took effect (valid, or every cycle of the combinational network).
    pub passes: u64,
    /// Of them, lane operations.
    pub lane_passes: u64,
    /// Of them, shuffle passes.
    pub shuffle_passes: u64,
    /// Whether the RTL ran in lock step, and what it found.
    #[serde(flatten)]
    pub lock_step: LockStep,
}

impl Report for RouteReport {
    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.lock_step)
    }

    fn text(&self) -> String {
        format!(
            "cycles {}  passes {} ({} lane operations, {} shuffle passes)\nmismatches {}",
            self.cycles,
            self.passes,
            self.lane_passes,
            self.shuffle_passes,
            self.lock_step.mismatches
        )
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("passes", self.passes as f64),
            ("mismatches", self.lock_step.mismatches as f64),
        ]
    }
}

/// Runs `cycles` random cycles from `seed` through the golden model and, when given, through
/// `device` in lock step, stopping at the first mismatch.
pub fn run(
    params: &RouteParams,
    cycles: u64,
    seed: u64,
    mut device: Option<&mut dyn Device<Input = RouteCycle, Expected = Vec<u64>>>,
    progress: &dyn Fn(u64),
) -> RouteReport {
    let mut stimulus = RandomPasses::new(params, seed);
    let mut model = RouterModel::new(params);
    let mut report = RouteReport {
        lock_step: LockStep {
            rtl: device.is_some(),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut expected = Vec::new();
    for cycle in 0..cycles {
        let input = stimulus.next_cycle();
        if params.registered {
            model.step(input.valid, &input.pass, &input.rs, &input.rf);
            expected.clear();
            expected.extend_from_slice(model.result());
        } else {
            expected = model.route(&input.pass, &input.rs, &input.rf);
        }
        report.cycles = cycle + 1;
        if input.valid || !params.registered {
            report.passes += 1;
            match input.pass {
                Pass::Lane(_) => report.lane_passes += 1,
                Pass::Shuffle(_) => report.shuffle_passes += 1,
            }
        }
        let checked = end_cycle(device.as_deref_mut(), cycle, &input, &expected, progress);
        if let Err(mismatch) = checked {
            report.lock_step.mismatches = 1;
            report.lock_step.first_mismatch = Some(mismatch);
            break;
        }
    }
    report
}

/// One router run from the options and the seed.
pub(super) fn run_options(
    params: &RouteParams,
    options: &RouteOptions,
    setup: &Setup,
) -> Result<RouteReport, SimError> {
    let mut rtl = setup.device(|| RouterRtl::build(params, setup))?;
    Ok(run(
        params,
        options.cycles,
        setup.seed,
        rtl.as_mut().map(|d| d as _),
        setup.progress,
    ))
}
