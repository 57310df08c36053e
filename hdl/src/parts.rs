//! A block's combinational logic in named parts. rust-hdl's `#[hdl_gen]` turns one `update`
//! into one `always @(*)` block and calls no function of ours (`docs/rust-hdl.md`, section 25),
//! so a long `update` is written as parts instead: each its own `#[hdl_gen]` function in an
//! impl of [`Part`], and [`logic_in_parts!`] runs and prints them in order as one block, the
//! Verilog the single function gave.

use rust_hdl::prelude::Verilog;

/// One part of a block's combinational logic, named by the marker type `P`; its three
/// functions are what `#[hdl_gen]` writes for an `update`. A block implements it by its path
/// (`impl crate::parts::Part<P> for ...`), never importing it: in scope, its `update` and
/// `connect` would make `#[derive(LogicBlock)]`'s calls of `Logic`'s ambiguous.
pub(crate) trait Part<P> {
    /// The part's logic, run in simulation.
    fn update(&mut self);
    /// Marks the signals the part drives.
    fn connect(&mut self);
    /// The part's statements, as a combinational block.
    fn hdl(&self) -> Verilog;
}

/// One combinational block of the statements of `parts`, in order.
pub(crate) fn joined<const N: usize>(parts: [Verilog; N]) -> Verilog {
    let statements = parts.into_iter().flat_map(|part| match part {
        Verilog::Combinatorial(block) => block,
        _ => unreachable!("#[hdl_gen] writes a combinational block"),
    });
    Verilog::Combinatorial(statements.collect())
}

/// The body of a block's `impl Logic` from its parts (marker types), in order: `update`,
/// `connect` and `hdl` run each part's in turn.
macro_rules! logic_in_parts {
    ($($part:ty),+ $(,)?) => {
        fn update(&mut self) {
            $(<Self as $crate::parts::Part<$part>>::update(self);)+
        }
        fn connect(&mut self) {
            $(<Self as $crate::parts::Part<$part>>::connect(self);)+
        }
        fn hdl(&self) -> rust_hdl::prelude::Verilog {
            $crate::parts::joined([$(<Self as $crate::parts::Part<$part>>::hdl(self)),+])
        }
    };
}
pub(crate) use logic_in_parts;
