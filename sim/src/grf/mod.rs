//! The hierarchical GRF (SPEC S3): golden model, L3 model, energy model, trace format,
//! workloads, the Verilated GRF, runs and benchmark.

pub mod bench;
pub mod energy;
pub mod l3;
pub mod model;
pub mod options;
pub mod run;
pub mod trace;
pub mod verilated;
pub mod workload;

pub use bench::{GrfBench, GrfBenchOptions};
pub use energy::Energy;
pub use l3::{L3Memory, L3Request};
pub use model::{GrfCycle, GrfModel, GrfRequest, GrfResponse, GrfStats};
pub use options::Conditions;
pub use options::GrfOptions;
pub use run::{run, GrfDevice, GrfReport, GrfRun};
pub use trace::{parse, Step, Trace, TraceError};
pub use verilated::GrfRtl;

use grfgen_hdl::params::GrfParams;

use crate::block::{Block, Setup, SimError};

/// The hierarchical GRF as a simulated block: `grfgen sim grf`.
pub struct Grf;

impl Block for Grf {
    type Design = grfgen_hdl::grf::Grf;
    type Options = GrfOptions;
    type Report = GrfReport;
    type BenchOptions = GrfBenchOptions;
    type Bench = GrfBench;

    fn run(params: &GrfParams, options: &GrfOptions, setup: &Setup) -> Result<GrfReport, SimError> {
        run::run_options(params, options, setup)
    }

    /// The requests: the built-in workload, or the trace file read and parsed for this GRF.
    fn inputs(params: &GrfParams, options: &GrfOptions, seed: u64) -> Result<(), SimError> {
        options.trace(params, seed).map(drop)
    }

    /// The workload or trace the options name; else every built-in workload this
    /// configuration can run, four rounds each.
    fn flow_runs(params: &GrfParams, options: &GrfOptions) -> Vec<GrfOptions> {
        if options.workload.is_some() || options.trace.is_some() {
            return vec![options.clone()];
        }
        workload::NAMES
            .into_iter()
            .filter(|name| workload::builtin(name, params, 1, 1).is_ok())
            .map(|name| GrfOptions::workload(name, 4))
            .collect()
    }

    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("eus", "1"), ("threads", "1")],
            vec![("fast_regs", "2"), ("lanes", "1")],
            vec![("virtual_blocks", "1"), ("preallocated", "0")],
            vec![("slow_latency", "8"), ("pipeline", "1")],
            vec![("pipeline", "2")],
            vec![("pipeline", "3")],
            vec![("pipeline", "5")],
        ]
    }

    /// Every built-in workload, for a round per 2,500 cycles asked (a round takes a few hundred
    /// cycles, and every workload runs once per corner and seed).
    fn regression_runs(params: &GrfParams, cycles: u64) -> Vec<GrfOptions> {
        let rounds = (cycles / 2_500).clamp(1, 10_000) as usize;
        Self::flow_runs(params, &GrfOptions::default())
            .into_iter()
            .map(|run| GrfOptions { rounds, ..run })
            .collect()
    }

    fn bench(params: &GrfParams, options: &GrfBenchOptions) -> Result<GrfBench, SimError> {
        bench::bench(params, options)
    }
}
