//! The clustered multi-level register file (SPEC S4): the program format, the compiler's
//! partitioning of virtual registers into local and main files, the reference interpreter
//! that proves a partitioned program computes what the original does, the golden model of
//! the hardware, and runs of the Verilated hardware in lock step with it.

pub mod allocate;
pub mod bench;
pub mod interpret;
pub mod kernels;
pub mod machine;
pub mod options;
pub mod partition;
pub mod program;
pub mod report;
pub mod run;
pub mod schedule;
pub mod verilated;

pub use allocate::{allocate, Allocation, MainFileFull, Physical};
pub use bench::{ClusterBench, ClusterBenchOptions};
pub use interpret::{foreign_local_access, interpret, interpret_partitioned, run_allocated};
pub use machine::{ClusterMachine, Cycle, Issue, Source};
pub use options::ClusterOptions;
pub use partition::{baseline, live_ranges, partition, LiveRange, Partitioned};
pub use program::{parse, ClusterInstr, ClusterOp, Operand, Reg, MAX_REGISTER};
pub use report::{compile, compile_report, CompileReport};
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

/// The document's Fig. 11: C2 writes VR1 and later reads it, C1 reads it three times, C3 once;
/// C1 owns the range (3 of 6 accesses).
pub const FIG11: &str = "\
c2: mov v1, #7   ; 1108: W VR1
c1: out v1       ; 1106: R VR1 (C1 reads three times)
c1: out v1
c1: out v1
c3: out v1       ; 1112: R VR1
c2: out v1       ; 1110: R VR1, the range's last read
";

/// The document's Fig. 13: two live ranges of VR1, both owned by C2. Range 1: C2 writes, C1,
/// C3 and C2 read. Range 2: C3 writes, C2 reads twice, C1 reads.
pub const FIG13: &str = "\
c2: mov v1, #3   ; 1310: W VR1 (range 1)
c1: out v1       ; 1306: R
c3: out v1       ; 1316: R
c2: out v1       ; 1312: R
c3: mov v1, #4   ; 1318: W VR1 (range 2)
c2: out v1       ; 1314: R
c2: out v1       ;       R (C2's second read)
c1: out v1       ; 1308: R
";

/// The built-in examples, by name.
pub const EXAMPLES: [(&str, &str); 2] = [("fig11", FIG11), ("fig13", FIG13)];
