//! The clustered multi-level register file (SPEC S4): the program format, the compiler's
//! partitioning of virtual registers into local and main files, the reference interpreter
//! that proves a partitioned program computes what the original does, the golden model of
//! the hardware, and runs of the Verilated hardware in lock step with it.

pub mod bench;
pub mod interpret;
pub mod kernels;
pub mod machine;
pub mod options;
pub mod program;
pub(crate) mod regmap;
pub mod run;
pub mod schedule;
pub mod verilated;

pub use crate::compilers::cluster::{
    allocate, baseline, compile, compile_report, live_ranges, partition, Allocation, CompileReport,
    LiveRange, MainFileFull, Partitioned, Physical,
};
pub use bench::{ClusterBench, ClusterBenchOptions};
pub use interpret::{foreign_local_access, interpret, interpret_partitioned, run_allocated};
pub use kernels::{EXAMPLES, FIG11, FIG13};
pub use machine::{ClusterMachine, Cycle, Issue, Source};
pub use options::ClusterOptions;
pub use program::{parse, ClusterInstr, ClusterOp, Operand, Reg, MAX_REGISTER};
pub use run::{run, ClusterReport};

use grfgen_hdl::params::ClusterParams;

use crate::block::{Block, Setup, SimError};

/// The clustered register file as a simulated block: `grfgen sim cluster`.
pub struct Cluster;

impl Block for Cluster {
    type Design = grfgen_hdl::cluster::Cluster;
    type Options = ClusterOptions;
    type Report = ClusterReport;
    type BenchOptions = ClusterBenchOptions;
    type Bench = ClusterBench;

    fn run(
        params: &ClusterParams,
        options: &ClusterOptions,
        setup: &Setup,
    ) -> Result<ClusterReport, SimError> {
        run::run(params, options, setup)
    }

    /// The program: the named example, or the file read and parsed for these clusters.
    fn inputs(
        params: &ClusterParams,
        options: &ClusterOptions,
        _seed: u64,
    ) -> Result<(), SimError> {
        options.programs(params).map(drop)
    }

    /// The example or program the options name; else random programs for 20,000 cycles and
    /// the pipeline kernel.
    fn flow_runs(_params: &ClusterParams, options: &ClusterOptions) -> Vec<ClusterOptions> {
        if options.example.is_some() || options.program.is_some() {
            return vec![options.clone()];
        }
        vec![
            ClusterOptions {
                cycles: 20_000,
                ..ClusterOptions::example("random")
            },
            ClusterOptions {
                baseline: options.baseline,
                ..ClusterOptions::example("pipeline")
            },
        ]
    }

    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("clusters", "1"), ("local_regs", "1"), ("main_regs", "16")],
            vec![
                ("clusters", "8"),
                ("main_read_ports", "4"),
                ("main_write_ports", "4"),
            ],
            vec![
                ("clusters", "2"),
                ("local_regs", "2"),
                ("main_write_ports", "2"),
            ],
        ]
    }

    fn bench(
        params: &ClusterParams,
        options: &ClusterBenchOptions,
    ) -> Result<ClusterBench, SimError> {
        bench::bench(params, options)
    }
}
