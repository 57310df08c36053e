//! grfgen's simulation side: independent golden models written from the specification,
//! stimulus, the run-time Verilator layer, and lock-step co-simulation of RTL and model.

pub mod bits;
pub mod check;
pub mod core;
pub mod gpr;
pub mod grf;
pub mod rng;
pub mod route;
pub mod verilator;
