//! Run-time parameters to compile-time widths, one way for every block.
//!
//! rust-hdl widths are const generics (docs/rust-hdl.md, limit 1). A block's parameters fix up
//! to three widths: `E` (element bits), `A` (an address: row bits) and `R` (a register index);
//! a block that needs fewer fixes the rest at 1. [`dispatch!`] turns the run-time widths into
//! the matching instantiation of a [`WidthOp`], from a table the block lists once; the table is
//! exactly what the block's validation accepts, so the fall-through arm cannot be reached.
//! [`bits_for`] and [`wider`] size the signals whose widths do not vary: each block's `widths`
//! file names them once, at the largest values its parameter table allows.

/// Bits that number `count` values, 0 to `count - 1`: ceil(log2(count)), 0 for one value. The
/// blocks' `widths` files (`grf`, `core`, `route`) derive their signal widths with it from the
/// largest values their parameter tables allow.
pub const fn bits_for(count: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < count {
        bits += 1;
    }
    bits
}

/// The larger of two widths.
pub const fn wider(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// An operation whose widths are compile-time constants.
pub trait WidthOp {
    /// What the operation returns.
    type Output;
    /// Runs the operation with element width `E`, address width `A` and index width `R`.
    fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output;
}

/// Runs a [`WidthOp`] with the widths `(e, a, r)` found in a table:
/// `dispatch!(op, (e, a, r), E in [8, 16], (A, R) in [(2, 2), (2, 3)])` instantiates the
/// operation for every element width crossed with every `(A, R)` pair.
macro_rules! dispatch {
    ($op:expr, ($e:expr, $a:expr, $r:expr), E in [$($ev:literal),+], (A, R) in $pairs:tt) => {{
        let op = $op;
        let key = ($a, $r);
        match $e {
            $($ev => $crate::widths::dispatch!(@pairs op, $ev, key, $pairs),)+
            other => unreachable!("element width {other} passed validation"),
        }
    }};
    (@pairs $op:ident, $ev:literal, $key:ident, [$(($av:literal, $rv:literal)),+]) => {
        match $key {
            $(($av, $rv) => $crate::widths::WidthOp::run::<$ev, $av, $rv>($op),)+
            (a, r) => unreachable!("widths {a} and {r} passed validation"),
        }
    };
}

pub(crate) use dispatch;
