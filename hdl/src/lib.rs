//! grfgen's hardware: rust-hdl descriptions of the register-file blocks, their parameter types
//! and Verilog emission. Nothing here simulates; the golden models live in `grfgen-sim`.

pub mod catalogue;
pub mod crossbar;
pub mod emit;
pub mod gpr;
pub mod params;
pub mod regs;
pub mod sram;
