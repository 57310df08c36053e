//! The shift-and-fill router (SPEC S2): golden model, planner, the Verilated router,
//! co-simulation and the 2-D window example.

pub mod cosim;
pub mod model;
pub mod plan;
pub mod rtl;
pub mod window;

pub use cosim::{run, RandomPasses, RouteSimReport};
pub use model::{apply, Direction, Fill, LaneOp, Pass, RouterModel, ShufflePass};
pub use plan::{plan, PlanError, PlannedPass, ShufflePlan};
pub use rtl::{Controls, RouterRtl};
