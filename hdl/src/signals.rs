//! Fresh signals and constants for the blocks' run-time-sized vectors and tables.

use rust_hdl::prelude::{Bits, Constant, Direction, Signal, Synth};

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
