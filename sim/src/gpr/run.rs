//! Running the banked GPR: random traffic through the golden model, with the Verilated GPR in
//! lock step; what a run reports; the simulation-speed benchmark.

use std::collections::VecDeque;
use std::time::Instant;

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, GprParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::model::{GprModel, GprRequests, GprResponse};
use super::stimulus::{GprStimulus, RandomTraffic};
use super::verilated::GprRtl;
use crate::ahead::run_ahead;
use crate::block::{Report, Rtl, Setup, SimError, MAX_CYCLES};
use crate::check::{end_cycle, Device, LockStep};

/// The options of a GPR run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GprOptions {
    /// Cycles to simulate.
    pub cycles: u64,
    /// Percent of ports requesting in a cycle.
    pub load: u32,
    /// Percent of requests aimed at a few hot registers, to provoke conflicts.
    pub hot: u32,
}

impl Default for GprOptions {
    fn default() -> Self {
        Self {
            cycles: 100_000,
            load: 75,
            hot: 25,
        }
    }
}

impl Params for GprOptions {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(cycles, "cycles to simulate", "N", |_| Allowed::range(
                1, MAX_CYCLES
            )),
            param!(
                load,
                "percent of ports requesting in a cycle",
                "PCT",
                |_| Allowed::range(0, 100)
            ),
            param!(
                hot,
                "percent of requests aimed at a few hot registers, to provoke conflicts",
                "PCT",
                |_| Allowed::range(0, 100)
            ),
        ]
    }
}

/// Counts and outcome of a GPR run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GprReport {
    /// Cycles simulated.
    pub cycles: u64,
    /// Requests answered by a grant or a refusal (reads and writes).
    pub requests: u64,
    /// Requests granted.
    pub grants: u64,
    /// Requests refused because of a bank conflict or a read/write clash.
    pub conflicts: u64,
    /// Read requests presented.
    pub read_requests: u64,
    /// Read requests granted.
    pub read_grants: u64,
    /// Write requests presented.
    pub write_requests: u64,
    /// Write requests granted.
    pub write_grants: u64,
    /// Whether the RTL ran in lock step, and what it found.
    #[serde(flatten)]
    pub lock_step: LockStep,
}

impl GprReport {
    fn count(&mut self, requests: &GprRequests, response: &GprResponse) {
        let reads = requests.reads.iter().filter(|r| r.is_some()).count() as u64;
        let writes = requests.writes.iter().filter(|w| w.is_some()).count() as u64;
        let read_grants = response.read_grants.iter().filter(|&&g| g).count() as u64;
        let write_grants = response.write_grants.iter().filter(|&&g| g).count() as u64;
        self.read_requests += reads;
        self.write_requests += writes;
        self.read_grants += read_grants;
        self.write_grants += write_grants;
        self.requests += reads + writes;
        self.grants += read_grants + write_grants;
        self.conflicts += reads + writes - read_grants - write_grants;
    }

    /// Refused requests as a fraction of all requests.
    pub fn conflict_rate(&self) -> f64 {
        self.conflicts as f64 / self.requests.max(1) as f64
    }
}

impl Report for GprReport {
    /// The cycles that serving every request takes at the measured grant rate: the cycles
    /// run times requests over grants (a refused request is offered again).
    fn work_cycles(&self) -> Option<f64> {
        Some(self.cycles as f64 * self.requests.max(1) as f64 / self.grants.max(1) as f64)
    }

    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.lock_step)
    }

    fn text(&self) -> String {
        format!(
            "cycles {}  requests {}  grants {}  conflicts {} ({:.1}% of requests)\nmismatches {}",
            self.cycles,
            self.requests,
            self.grants,
            self.conflicts,
            100.0 * self.conflict_rate(),
            self.lock_step.mismatches,
        )
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        let cycles = self.cycles.max(1) as f64;
        vec![
            ("conflict_rate", self.conflict_rate()),
            ("reads_per_cycle", self.read_grants as f64 / cycles),
            ("writes_per_cycle", self.write_grants as f64 / cycles),
            ("mismatches", self.lock_step.mismatches as f64),
        ]
    }
}

/// Runs `stimulus` for up to `cycles` cycles through the golden model and, when given,
/// through `device` in lock step, stopping at the first mismatch. With a device, the stimulus
/// and the golden model run ahead on a second thread (`crate::ahead`).
pub fn run(
    params: &GprParams,
    stimulus: &mut (dyn GprStimulus + Send),
    cycles: u64,
    mut device: Option<&mut dyn Device<Input = GprRequests, Expected = GprResponse>>,
    progress: &dyn Fn(u64),
) -> GprReport {
    let mut model = GprModel::new(params);
    let mut requests = GprRequests::idle(params);
    let mut response = GprResponse::new(params);
    let with_device = device.is_some();
    let mut report = GprReport {
        lock_step: LockStep {
            rtl: with_device,
            ..Default::default()
        },
        ..Default::default()
    };
    // With a grant latency a cycle's grants answer the requests that many cycles before.
    let mut answered: VecDeque<GprRequests> =
        std::iter::repeat_n(GprRequests::idle(params), params.grant_latency()).collect();
    // A cycle travels as its requests, then the golden model's response.
    let split = requests.words();
    let words = split + response.words();
    let golden = |cycle: u64, slot: &mut [u64]| {
        if !stimulus.next(cycle, &response, &mut requests) {
            return false;
        }
        model.step(&requests, &mut response);
        requests.save(&mut slot[..split]);
        response.save(&mut slot[split..]);
        true
    };
    // The check's own copies of the cycle.
    let (mut seen, mut expected) = (GprRequests::idle(params), GprResponse::new(params));
    let check = |cycle: u64, slot: &[u64]| {
        seen.load(&slot[..split]);
        expected.load(&slot[split..]);
        report.cycles = cycle + 1;
        match answered.pop_front() {
            Some(mut oldest) => {
                report.count(&oldest, &expected);
                oldest.clone_from(&seen);
                answered.push_back(oldest);
            }
            None => report.count(&seen, &expected),
        }
        let checked = end_cycle(device.as_deref_mut(), cycle, &seen, &expected, progress);
        if let Err(mismatch) = checked {
            report.lock_step.mismatches = 1;
            report.lock_step.first_mismatch = Some(mismatch);
            return false;
        }
        true
    };
    run_ahead(cycles, with_device, words, golden, check);
    report
}

/// One GPR run: random traffic from the options and the seed.
pub(super) fn run_options(
    params: &GprParams,
    options: &GprOptions,
    setup: &Setup,
) -> Result<GprReport, SimError> {
    let mut rtl = setup.device(|| GprRtl::build(params, setup))?;
    let mut stimulus = RandomTraffic::new(params, setup.seed);
    stimulus.load = options.load;
    stimulus.hot = options.hot;
    Ok(run(
        params,
        &mut stimulus,
        options.cycles,
        rtl.as_mut().map(|d| d as _),
        setup.progress,
    ))
}

/// The options of the GPR's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GprBenchOptions {
    /// Cycles per measurement.
    pub cycles: u64,
}

impl Default for GprBenchOptions {
    fn default() -> Self {
        Self { cycles: 2_000_000 }
    }
}

impl Params for GprBenchOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(cycles, "cycles per measurement", "N", |_| {
            Allowed::range(1, MAX_CYCLES)
        })]
    }
}

/// Simulation speed of the GPR: golden model alone against lock-step co-simulation.
#[derive(Clone, Debug, Serialize)]
pub struct GprBench {
    /// Cycles per measurement.
    pub cycles: u64,
    /// Golden model alone, cycles per second.
    pub golden_cycles_per_second: f64,
    /// Lock-step co-simulation, cycles per second.
    pub cosim_cycles_per_second: f64,
    /// Seconds to verilate and compile the model, or to find it in the cache.
    pub model_build_seconds: f64,
}

impl Report for GprBench {
    fn text(&self) -> String {
        format!(
            "{} cycles each\n\
             golden model only:      {:>12.0} cycles/s\n\
             lock-step co-sim (RTL): {:>12.0} cycles/s\n\
             model build (verilate + compile, or cache hit): {:.1} s",
            self.cycles,
            self.golden_cycles_per_second,
            self.cosim_cycles_per_second,
            self.model_build_seconds
        )
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("golden_cycles_per_second", self.golden_cycles_per_second),
            ("cosim_cycles_per_second", self.cosim_cycles_per_second),
        ]
    }
}

/// Measures cycles per second of the golden model alone and of lock-step co-simulation
/// (seed 1; the model build is timed separately).
pub(super) fn bench(params: &GprParams, options: &GprBenchOptions) -> Result<GprBench, SimError> {
    let setup = Setup::new(1, Rtl::On);
    let cycles = options.cycles;
    let traffic = || RandomTraffic::new(params, setup.seed);
    measure_speed(
        cycles,
        || run(params, &mut traffic(), cycles, None, &|_| {}).cycles,
        || GprRtl::build(params, &setup),
        |rtl| {
            let cosim = run(params, &mut traffic(), cycles, Some(rtl), &|_| {});
            match cosim.mismatch() {
                Some(m) => Err(SimError::Mismatch(format!("{m} (seed 1)"))),
                None => Ok(cosim.cycles),
            }
        },
    )
}

/// Measures a block's simulation speed over `cycles` cycles: `golden` runs the golden model
/// alone, `build` makes the Verilated design (timed on its own), `cosim` runs both in lock
/// step; each run returns the cycles it ran.
pub(crate) fn measure_speed<T>(
    cycles: u64,
    golden: impl FnOnce() -> u64,
    build: impl FnOnce() -> Result<T, SimError>,
    cosim: impl FnOnce(&mut T) -> Result<u64, SimError>,
) -> Result<GprBench, SimError> {
    let start = Instant::now();
    let golden_cycles = golden();
    let golden_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut rtl = build()?;
    let build_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let cosim_cycles = cosim(&mut rtl)?;
    let cosim_seconds = start.elapsed().as_secs_f64();
    Ok(GprBench {
        cycles,
        golden_cycles_per_second: golden_cycles as f64 / golden_seconds.max(1e-9),
        cosim_cycles_per_second: cosim_cycles as f64 / cosim_seconds.max(1e-9),
        model_build_seconds: build_seconds,
    })
}
