//! The hierarchical GRF (SPEC S3): golden model, L3 model, trace format, workloads, runs.

pub mod l3;
pub mod model;
pub mod rtl;
pub mod run;
pub mod trace;
pub mod workload;

pub use l3::{L3Memory, L3Request};
pub use model::{GrfCycle, GrfModel, GrfOp, GrfRequest, GrfResponse, GrfStats, Status};
pub use rtl::GrfRtl;
pub use run::{run, Device, Energy, GrfRun};
pub use trace::{parse, Step, Trace, TraceError};
