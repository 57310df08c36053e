//! The shader-core slice (SPEC S1): programs, the golden model, the lower bound, workloads,
//! the Verilated slice, runs and the policy benchmark.

pub mod allocated;
pub mod bench;
pub mod bound;
pub mod external;
pub mod figures;
pub mod ir3;
pub mod model;
pub mod options;
pub mod program;
pub mod program_bench;
pub mod program_file;
pub mod report;
pub mod run;
pub mod verilated;
pub mod waves;
pub mod workload;

pub use bench::CoreBench;
pub use bound::{lower_bound, LowerBound};
pub use external::{ExternalUnit, UnitLatencies};
pub use model::{CoreModel, CoreStats, CycleInput, CycleOutput, ExternalWrite, LongResult, Policy};
pub use options::{CoreBenchOptions, CoreOptions};
pub use program::{parse, Instruction, ParseError};
pub use report::CoreReport;
pub use run::{run, CoreRun};
pub use verilated::{CoreDevice, CoreRtl};
pub use workload::{builtin, Workload};

use grfgen_hdl::params::CoreParams;

use crate::block::{Block, Setup, SimError};

/// The core slice as a simulated block: `grfgen sim core`.
pub struct Core;

impl Block for Core {
    type Design = grfgen_hdl::core::Core;
    type Options = CoreOptions;
    type Report = CoreReport;
    type BenchOptions = CoreBenchOptions;
    type Bench = CoreBench;

    fn run(
        params: &CoreParams,
        options: &CoreOptions,
        setup: &Setup,
    ) -> Result<CoreReport, SimError> {
        report::run_options(params, options, setup)
    }

    /// The program: the built-in workload, or the file read and parsed for these registers.
    fn inputs(params: &CoreParams, options: &CoreOptions, seed: u64) -> Result<(), SimError> {
        options.program(params, seed).map(drop)
    }

    /// The workload or program the options name; else the document's example and a random
    /// program, under the options' policy. The random programs use every register: with
    /// several waves, the first kernels whose waves the registers hold take their place.
    fn flow_runs(params: &CoreParams, options: &CoreOptions) -> Vec<CoreOptions> {
        if options.workload.is_some() || options.program.is_some() {
            return vec![options.clone()];
        }
        let fits = |name: &&str| {
            workload::builtin(name, params, 1)
                .is_ok_and(|w| waves::settle(params, &w.program, w.wave_base).is_ok())
        };
        ["rpt-mad", "random", "matmul4", "conv3x3", "normalize"]
            .into_iter()
            .filter(fits)
            .take(2)
            .map(|name| CoreOptions::workload(name, options.policy))
            .collect()
    }

    /// The defaults, the degenerate corners, the document's configuration (no forwarding, no
    /// request stage), the GPR's stages, the defaults before forwarding's (two instructions of
    /// lookahead, two ALU stages, the GPR's bank port stage) and the defaults before the request
    /// stage's.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("cq_entries", "0"), ("pq_entries", "0")],
            vec![("banks", "1"), ("registers", "32")],
            vec![("lookahead", "1"), ("alu_latency", "1")],
            vec![("read_ports", "1"), ("bank_kind", "2r1w")],
            vec![("bank_kind", "1rw"), ("lanes", "1")],
            vec![("pipeline", "1"), ("bank_kind", "2r1w")],
            vec![("pipeline", "2"), ("bank_kind", "1rw")],
            vec![("pipeline", "2"), ("memory", "dp16kd")],
            vec![
                ("lookahead", "3"),
                ("pipeline", "0"),
                ("alu_latency", "2"),
                ("forward", "false"),
                ("request_stage", "false"),
            ],
            vec![("pipeline", "3"), ("bank_kind", "2r1w")],
            vec![
                ("pipeline", "4"),
                ("bank_kind", "1rw"),
                ("memory", "dp16kd"),
            ],
            vec![
                ("lookahead", "2"),
                ("alu_latency", "2"),
                ("pipeline", "1"),
                ("request_stage", "false"),
            ],
            vec![("request_stage", "false")],
        ]
    }

    /// The document's example, and a random program of about `cycles` instructions.
    fn regression_runs(_: &CoreParams, cycles: u64) -> Vec<CoreOptions> {
        let instructions = (cycles as usize).clamp(1, options::MAX_INSTRUCTIONS);
        vec![
            CoreOptions::workload("rpt-mad", Policy::CqPq),
            CoreOptions {
                instructions,
                ..CoreOptions::workload("random", Policy::CqPq)
            },
        ]
    }

    fn bench(params: &CoreParams, options: &CoreBenchOptions) -> Result<CoreBench, SimError> {
        bench::bench(params, options)
    }
}
