//! GPR release for occupancy (SPEC S5): the shader format, the compiler's analysis, the golden
//! model of the pool allocator, draw calls and random traffic in lock step with the
//! Verilated allocator, and the benchmark of the release placements.

pub mod bench;
pub mod draw;
pub mod examples;
pub mod model;
pub mod options;
pub mod run;
pub mod shader;
pub mod traffic;
pub mod verilated;

pub use bench::{AllocBench, AllocBenchOptions};
pub use draw::Placement;
pub use model::{Allocation, PoolInputs, PoolModel, PoolOutputs};
pub use options::AllocOptions;
pub use run::{run, AllocReport};

use grfgen_hdl::params::AllocParams;

use crate::block::{Block, Setup, SimError};

/// The GPR pool allocator as a simulated block: `grfgen sim alloc`.
pub struct Alloc;

impl Block for Alloc {
    type Design = grfgen_hdl::alloc::Alloc;
    type Options = AllocOptions;
    type Report = AllocReport;
    type BenchOptions = AllocBenchOptions;
    type Bench = AllocBench;

    fn run(
        params: &AllocParams,
        options: &AllocOptions,
        setup: &Setup,
    ) -> Result<AllocReport, SimError> {
        run::run(params, options, setup)
    }

    /// The shader, read, parsed and compiled for this pool (nothing for random traffic).
    fn inputs(params: &AllocParams, options: &AllocOptions, seed: u64) -> Result<(), SimError> {
        run::inputs(params, options, seed)
    }

    /// The example or shader the options name; else the document's example with the release
    /// in the main shader, and 20,000 cycles of random traffic.
    fn flow_runs(_params: &AllocParams, options: &AllocOptions) -> Vec<AllocOptions> {
        if options.example.is_some() || options.shader.is_some() {
            return vec![options.clone()];
        }
        vec![
            AllocOptions {
                placement: Placement::MainShader,
                ..AllocOptions::example("document")
            },
            AllocOptions {
                cycles: 20_000,
                ..AllocOptions::example("traffic")
            },
        ]
    }

    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("pool", "8"), ("granularity", "1"), ("wave_slots", "1")],
            vec![("pool", "256"), ("granularity", "1"), ("wave_slots", "32")],
            vec![("pool", "32"), ("granularity", "16"), ("wave_slots", "2")],
        ]
    }

    fn bench(params: &AllocParams, options: &AllocBenchOptions) -> Result<AllocBench, SimError> {
        bench::bench(params, options)
    }
}
