//! grfgen's simulation side: independent golden models written from the specification,
//! stimulus, the run-time Verilator layer, lock-step co-simulation of RTL and model, and the
//! runs and benchmarks of every block.

pub mod ahead;
pub mod alloc;
pub mod bank_map;
pub mod bits;
pub mod block;
pub mod check;
pub mod cluster;
pub mod compilers;
pub mod core;
mod fault;
pub mod gpr;
pub mod grf;
pub mod multiport;
mod registry;
pub mod rng;
pub mod route;
pub mod verilator;

pub use fault::fault;
pub use registry::visit_blocks;
