//! The banked GPR (SPEC S1): golden model, stimulus, the Verilated GPR, runs and benchmark.

pub mod model;
pub mod run;
pub mod stimulus;
pub mod verilated;

pub use model::{GprModel, GprRequests, GprResponse};
pub use run::{run, GprBench, GprBenchOptions, GprOptions, GprReport};
pub use stimulus::{GprStimulus, RandomTraffic, Script};
pub use verilated::GprRtl;

use grfgen_hdl::params::GprParams;

use crate::block::{Block, Setup, SimError};

/// The banked GPR as a simulated block: `grfgen sim gpr`.
pub struct Gpr;

impl Block for Gpr {
    type Design = grfgen_hdl::gpr::Gpr;
    type Options = GprOptions;
    type Report = GprReport;
    type BenchOptions = GprBenchOptions;
    type Bench = GprBench;

    fn run(params: &GprParams, options: &GprOptions, setup: &Setup) -> Result<GprReport, SimError> {
        run::run_options(params, options, setup)
    }

    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("banks", "1"), ("registers", "16")],
            vec![("read_ports", "1"), ("write_ports", "1")],
            vec![("lanes", "1"), ("element_bits", "8")],
            vec![("bank_kind", "2r1w")],
            vec![("bank_kind", "1rw"), ("pipeline", "2")],
            vec![("bank_kind", "2r1w"), ("pipeline", "3")],
            vec![("memory", "dp16kd"), ("pipeline", "3")],
            vec![("memory", "dp16kd"), ("pipeline", "4")],
            vec![("bank_kind", "1rw"), ("pipeline", "4")],
            vec![
                ("memory", "dp16kd"),
                ("bank_kind", "1rw"),
                ("pipeline", "2"),
            ],
        ]
    }

    fn bench(params: &GprParams, options: &GprBenchOptions) -> Result<GprBench, SimError> {
        run::bench(params, options)
    }
}
