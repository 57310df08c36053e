//! The true multi-ported register files (`flops`, `lvt`, `ilvt`, `xor`): one golden model with
//! each design's timing, random traffic, the Verilated files, runs and benchmark.

pub mod model;
pub mod run;
pub mod verilated;

pub use model::{MultiportModel, MultiportResponse, Timing};
pub use run::{run, MultiportReport};
pub use verilated::MultiportRtl;

use std::marker::PhantomData;

use grfgen_hdl::multiport::{self as hdl, Structure};
use grfgen_hdl::params::MultiportParams;

use crate::block::{Block, Setup, SimError};
use crate::gpr::{GprBench, GprBenchOptions, GprOptions};

/// A design's read latency and write visibility, as `docs/multiport.md` gives them.
pub trait Contract {
    /// The timing of the design built for `params`.
    fn timing(params: &MultiportParams) -> Timing;
}

impl Contract for hdl::FlopStructure {
    /// Registered reads; a read sees every earlier cycle's writes.
    fn timing(_: &MultiportParams) -> Timing {
        Timing {
            read_latency: 1,
            write_delay: 1,
        }
    }
}

impl Contract for hdl::LvtStructure {
    /// A cycle more of read latency per stage; a read sees every earlier cycle's writes.
    fn timing(params: &MultiportParams) -> Timing {
        Timing {
            read_latency: 1 + params.pipeline,
            write_delay: 1,
        }
    }
}

/// The timing of the files whose writes read the other banks first: a write takes two
/// cycles, and each stage adds a cycle to it and to the read latency.
fn read_before_write(params: &MultiportParams) -> Timing {
    Timing {
        read_latency: 1 + params.pipeline,
        write_delay: 2 + params.pipeline,
    }
}

impl Contract for hdl::IlvtStructure {
    /// As the XOR file's.
    fn timing(params: &MultiportParams) -> Timing {
        read_before_write(params)
    }
}

impl Contract for hdl::XorStructure {
    /// LaForest et al.'s: a write takes two cycles.
    fn timing(params: &MultiportParams) -> Timing {
        read_before_write(params)
    }
}

/// A multi-ported file as a simulated block: `grfgen sim flops`, `lvt`, `ilvt`, `xor`.
pub struct Multiport<S>(PhantomData<S>);

/// The flip-flop file as a simulated block.
pub type Flops = Multiport<hdl::FlopStructure>;
/// The live-value-table file as a simulated block.
pub type Lvt = Multiport<hdl::LvtStructure>;
/// The invalidation-based live-value-table file as a simulated block.
pub type Ilvt = Multiport<hdl::IlvtStructure>;
/// The XOR file as a simulated block.
pub type Xor = Multiport<hdl::XorStructure>;

impl<S: Structure + Contract> Block for Multiport<S> {
    type Design = hdl::Multiport<S>;
    type Options = GprOptions;
    type Report = MultiportReport;
    type BenchOptions = GprBenchOptions;
    type Bench = GprBench;

    fn run(
        params: &MultiportParams,
        options: &GprOptions,
        setup: &Setup,
    ) -> Result<MultiportReport, SimError> {
        run::run_options::<Self::Design>(params, S::timing(params), options, setup)
    }

    /// The defaults, the degenerate corners, and the stages on `DP16KD` block RAM where the
    /// design has block RAM.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        let mut corners = vec![
            vec![],
            vec![
                ("registers", "4"),
                ("read_ports", "1"),
                ("write_ports", "1"),
                ("lanes", "1"),
            ],
            vec![
                ("registers", "16"),
                ("read_ports", "8"),
                ("write_ports", "4"),
            ],
        ];
        if S::MEMORIES.is_some() {
            corners.push(vec![("pipeline", "2"), ("memory", "dp16kd")]);
            corners.push(vec![
                ("registers", "16"),
                ("write_ports", "3"),
                ("pipeline", "1"),
                ("memory", "dp16kd"),
            ]);
        }
        if S::NAME == hdl::IlvtStructure::NAME {
            corners.push(vec![("encoding", "onehot")]);
            corners.push(vec![
                ("registers", "16"),
                ("write_ports", "4"),
                ("encoding", "onehot"),
                ("pipeline", "2"),
            ]);
        }
        corners
    }

    fn bench(params: &MultiportParams, options: &GprBenchOptions) -> Result<GprBench, SimError> {
        run::bench::<Self::Design>(params, S::timing(params), options)
    }
}
