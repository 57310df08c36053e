//! The shift-and-fill router (SPEC S2): golden model, planner, stimulus, the Verilated router,
//! runs, one-off operations, the 2-D window example and the planner benchmark.

pub mod bench;
pub mod eval;
pub mod lane_router;
pub mod model;
pub mod plan;
pub mod run;
pub mod stimulus;
pub mod verilated;
pub mod window;

pub use bench::{RouteBench, RouteBenchOptions};
pub use eval::{evaluate, shuffle, LaneOpName, LaneOpRequest, LanesReport};
pub use model::{apply, Direction, Fill, LaneOp, Pass, RouterModel, ShufflePass};
pub use plan::{plan, PlanError, ShufflePlan};
pub use run::{run, RouteOptions, RouteReport};
pub use stimulus::{RandomPasses, RouteCycle};
pub use verilated::{Controls, RouterRtl};
pub use window::{run_window, WindowReport};

use grfgen_hdl::params::RouteParams;

use crate::block::{Block, Setup, SimError};

/// The router as a simulated block: `grfgen sim route`.
pub struct Route;

impl Block for Route {
    type Design = grfgen_hdl::route::Route;
    type Options = RouteOptions;
    type Report = RouteReport;
    type BenchOptions = RouteBenchOptions;
    type Bench = RouteBench;

    fn run(
        params: &RouteParams,
        options: &RouteOptions,
        setup: &Setup,
    ) -> Result<RouteReport, SimError> {
        run::run_options(params, options, setup)
    }

    /// The planner's passes; the router's parameters do not enter (every size is measured).
    /// The defaults and the degenerate corners.
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![
            vec![],
            vec![("lanes", "4"), ("crossbar", "1")],
            vec![("crossbar", "32")],
            vec![("pipeline", "3"), ("element_bits", "8")],
            vec![("pipeline", "0"), ("lanes", "8")],
        ]
    }

    fn bench(_: &RouteParams, options: &RouteBenchOptions) -> Result<RouteBench, SimError> {
        Ok(bench::bench(options))
    }
}
