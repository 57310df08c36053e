//! An address decoder: several addresses, each turned into one hit line per location.

use rust_hdl::prelude::*;

use crate::signals::signals;

/// `count` independent decoders of `A`-bit addresses over `locations` locations:
/// `hit[c * locations + k]` is high when `valid[c]` is high and `address[c]` is `k`.
/// Combinational. The hits of one address are one-hot (or all low), ready to drive the
/// selects of a [`crate::cells::crossbar::Crossbar`] or the enables of a register array.
#[derive(LogicBlock)]
pub struct Decoder<const A: usize> {
    /// Per address: it is in use.
    pub valid: Vec<Signal<In, Bit>>,
    /// The addresses, each 0..locations-1.
    pub address: Vec<Signal<In, Bits<A>>>,
    /// `hit[c * locations + k]`: address `c` is valid and names location `k`.
    pub hit: Vec<Signal<Out, Bit>>,
    _count: usize,
    _locations: usize,
}

impl<const A: usize> Decoder<A> {
    /// `count` decoders over `locations` locations (at most `2^A`).
    pub fn new(count: usize, locations: usize) -> Self {
        assert!(locations <= 1 << A);
        Self {
            valid: signals(count),
            address: signals(count),
            hit: signals(count * locations),
            _count: count,
            _locations: locations,
        }
    }
}

impl<const A: usize> Logic for Decoder<A> {
    // The loop over one value binds the location count to a loop variable (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nk in self._locations..(self._locations + 1) {
            for c in 0..self._count {
                for k in 0..self._locations {
                    self.hit[c * nk + k].next =
                        self.valid[c].val() & (self.address[c].val() == k.to_bits());
                }
            }
        }
    }
}
