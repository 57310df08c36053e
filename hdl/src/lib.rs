//! grfgen's hardware: rust-hdl descriptions of the register-file blocks, their parameter types
//! and Verilog emission with the files written beside it. Nothing here simulates; the golden
//! models live in `grfgen-sim`.

pub mod alloc;
pub mod cells;
pub mod checkers;
pub mod cluster;
pub mod core;
pub mod design;
pub mod emit;
pub mod gpr;
pub mod grf;
pub mod multiport;
pub mod params;
mod parts;
mod port_group;
mod registry;
pub mod route;
mod signals;
pub mod sram;
mod widths;

pub use registry::{catalogue, visit_designs};
