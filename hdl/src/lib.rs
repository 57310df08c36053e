//! grfgen's hardware: rust-hdl descriptions of the register-file blocks, their parameter types
//! and Verilog emission with the files written beside it. Nothing here simulates; the golden
//! models live in `grfgen-sim`.

pub mod alloc;
pub mod checkers;
pub mod cluster;
pub mod core;
pub mod crossbar;
pub mod decoder;
pub mod design;
pub mod emit;
pub mod gpr;
pub mod grf;
pub mod multiport;
pub mod mux_tree;
pub mod params;
mod parts;
pub mod regs;
pub mod route;
pub mod sram;
mod widths;

use rust_hdl::prelude::{Bits, Constant, Direction, Signal, Synth};

use design::DesignVisitor;

/// Visits every design, in the order the catalogue lists them: the registry of blocks. A new
/// block adds its line here.
pub fn visit_designs(visitor: &mut impl DesignVisitor) {
    visitor.visit::<gpr::Gpr>();
    visitor.visit::<core::Core>();
    visitor.visit::<route::Route>();
    visitor.visit::<route::RouteFull>();
    visitor.visit::<grf::Grf>();
    visitor.visit::<multiport::Flops>();
    visitor.visit::<multiport::Lvt>();
    visitor.visit::<multiport::Ilvt>();
    visitor.visit::<multiport::Xor>();
    visitor.visit::<cluster::Cluster>();
    visitor.visit::<alloc::Alloc>();
}

/// `count` fresh signals: the ports or locals of a run-time-sized vector.
pub(crate) fn signals<D: Direction, T: Synth>(count: usize) -> Vec<Signal<D, T>> {
    (0..count).map(|_| Signal::default()).collect()
}

/// An `N`-bit constant of `value`.
pub(crate) fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.into())
}

/// An `N`-bit constant of `value` when `used`, else none: for a constant read only by loops
/// that may run zero times, since Verilator flags a parameter nothing reads. Read it as `[0]`
/// inside those loops.
pub(crate) fn constant_if<const N: usize>(used: bool, value: u64) -> Vec<Constant<Bits<N>>> {
    constants(Some(value).filter(|_| used))
}

/// `N`-bit constants of `values`, in order: a table indexed by a loop variable.
pub(crate) fn constants<const N: usize>(
    values: impl IntoIterator<Item = u64>,
) -> Vec<Constant<Bits<N>>> {
    values.into_iter().map(constant).collect()
}
