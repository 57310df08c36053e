//! The shader-core slice (SPEC S1): programs, the golden model, the lower bound, workloads and
//! co-simulation.

pub mod bound;
pub mod model;
pub mod program;
pub mod rtl;
pub mod run;
pub mod workload;

pub use bound::{lower_bound, LowerBound};
pub use model::{CoreModel, CoreStats, CycleInput, CycleOutput, Policy};
pub use program::{parse, Instruction, Op, ParseError};
pub use rtl::CoreRtl;
pub use run::{run, CoreRun, Device};
pub use workload::{builtin, Workload};
