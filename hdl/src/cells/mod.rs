//! The library of cells every block builds from (`docs/architecture.md`, "Cells"): small,
//! parameterised by counts, each co-simulated alone in `sim/tests/cells.rs`.

pub mod crossbar;
pub mod decoder;
pub mod mux_tree;
pub mod regs;

pub use crossbar::{Crossbar, CrossbarLane};
pub use decoder::Decoder;
pub use mux_tree::MuxTree;
pub use regs::Registers;
