//! A value compared with a list of constants, without a carry chain.

use rust_hdl::prelude::*;

use crate::route::widths::{LaneIndex, INDEX_BITS};
use crate::signals::{constant, signals};

/// `above[i]` is `value > constants[i]` (combinational). Each comparison is written bit by bit:
/// some bit `p` is set in `value` and clear in the constant while the bits above `p` agree.
/// Synthesis maps that to a few lookup tables of the value's bits, where `>` would become a
/// carry chain that the logic optimiser cannot merge with what follows.
#[derive(LogicBlock)]
pub struct AboveConstants {
    /// The value compared.
    pub value: Signal<In, LaneIndex>,
    /// Per constant: the value is greater.
    pub above: Vec<Signal<Out, Bit>>,
    /// The constants.
    limit: Vec<Constant<LaneIndex>>,
    /// Bit `p` alone, at `p`.
    bit: Vec<Constant<LaneIndex>>,
    /// The bits above bit `p`, at `p`.
    higher: Vec<Constant<LaneIndex>>,
    zero: Constant<LaneIndex>,
    _count: usize,
}

impl AboveConstants {
    /// Comparisons of the value with each of `limits` (each below `2^INDEX_BITS`, 128).
    pub fn new(limits: &[u64]) -> Self {
        let all = (1u64 << INDEX_BITS) - 1;
        Self {
            value: Signal::default(),
            above: signals(limits.len()),
            limit: limits.iter().map(|&x| constant(x)).collect(),
            bit: (0..INDEX_BITS).map(|p| constant(1 << p)).collect(),
            higher: (0..INDEX_BITS)
                .map(|p| constant(all & !((2 << p) - 1)))
                .collect(),
            zero: constant(0),
            _count: limits.len(),
        }
    }
}

impl Logic for AboveConstants {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._count {
            self.above[i].next = false;
            for p in 0..INDEX_BITS {
                self.above[i].next = self.above[i].val()
                    | ((self.value.val() & !self.limit[i].val() & self.bit[p].val()).any()
                        & (((self.value.val() ^ self.limit[i].val()) & self.higher[p].val())
                            == self.zero.val()));
            }
        }
    }
}
