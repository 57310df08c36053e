//! The banked GPR (SPEC S1): golden model, stimulus and co-simulation.

pub mod cosim;
pub mod model;
pub mod stimulus;

pub use cosim::{run, GprRtl, GprSimReport};
pub use model::{GprModel, GprRequests, GprResponse};
pub use stimulus::{GprStimulus, RandomTraffic, Script};
