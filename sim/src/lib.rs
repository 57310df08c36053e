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
pub mod core;
pub mod gpr;
pub mod grf;
pub mod input;
pub mod interrupt;
pub mod multiport;
pub mod progress;
pub mod rng;
pub mod route;
pub mod text;
pub mod tool;
pub mod verilator;

use block::BlockVisitor;

/// Whether the test-only fault `name` is switched on (`GRFGEN_FAULT=<name>`): a deliberate bug
/// in a golden model, so that the tests can show a regression run catches one. Never set
/// outside the tests.
pub fn fault(name: &str) -> bool {
    std::env::var("GRFGEN_FAULT").is_ok_and(|v| v == name)
}

/// Visits every simulated block, in the order the command line lists them: the registry of
/// blocks. A new block adds its line here.
pub fn visit_blocks(visitor: &mut impl BlockVisitor) {
    visitor.visit::<gpr::Gpr>();
    visitor.visit::<core::Core>();
    visitor.visit::<route::Route>();
    visitor.visit::<grf::Grf>();
    visitor.visit::<multiport::Flops>();
    visitor.visit::<multiport::Lvt>();
    visitor.visit::<multiport::Ilvt>();
    visitor.visit::<multiport::Xor>();
    visitor.visit::<cluster::Cluster>();
    visitor.visit::<alloc::Alloc>();
}
