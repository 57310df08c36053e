//! grfgen's hardware: rust-hdl descriptions of the register-file blocks, their parameter types
//! and Verilog emission. Nothing here simulates; the golden models live in `grfgen-sim`.

pub mod catalogue;
pub mod core;
pub mod crossbar;
pub mod emit;
pub mod gpr;
pub mod grf;
pub mod params;
pub mod regs;
pub mod route;
pub mod sram;

use rust_hdl::prelude::{Direction, Signal, Synth};

/// `count` fresh signals: the ports or locals of a run-time-sized vector.
pub(crate) fn signals<D: Direction, T: Synth>(count: usize) -> Vec<Signal<D, T>> {
    (0..count).map(|_| Signal::default()).collect()
}
