//! The true multi-ported register files (`flops`, `lvt`): one golden model, random traffic,
//! the Verilated files, runs and benchmark.

pub mod model;
pub mod run;
pub mod verilated;

pub use model::{MultiportModel, MultiportResponse};
pub use run::{run, MultiportReport};
pub use verilated::MultiportRtl;

use std::marker::PhantomData;

use grfgen_hdl::multiport::{self as hdl, Structure};
use grfgen_hdl::params::MultiportParams;

use crate::block::{Block, Setup, SimError};
use crate::gpr::{GprBench, GprBenchOptions, GprOptions};

/// A multi-ported file as a simulated block: `grfgen sim flops`, `grfgen sim lvt`.
pub struct Multiport<S>(PhantomData<S>);

/// The flip-flop file as a simulated block.
pub type Flops = Multiport<hdl::FlopStructure>;
/// The live-value-table file as a simulated block.
pub type Lvt = Multiport<hdl::LvtStructure>;

impl<S: Structure> Block for Multiport<S> {
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
        run::run_options::<Self::Design>(params, options, setup)
    }

    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
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
        ]
    }

    fn bench(params: &MultiportParams, options: &GprBenchOptions) -> Result<GprBench, SimError> {
        run::bench::<Self::Design>(params, options)
    }
}
