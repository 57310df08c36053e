//! Which input lanes a shift vacates, for every subset size.

use rust_hdl::prelude::*;

use super::above::AboveConstants;
use crate::params::{RouteOpCode, RouteParams};
use crate::{constant, signals};

/// The fill part of the control decode (combinational): for every input lane and every subset
/// size, whether a shift gives that lane's fill value instead of `rs`. With `i` the lane's
/// offset in its subset of `m` lanes and `s` the amount: `shff.left` fills `i < s` and
/// `shff.right` fills `m - 1 - i < s` (`i >= m - s`). Lane `t`'s offsets are constants per
/// subset size (`t mod m`, `(N - 1 - t) mod m`), so each bit is one comparison of the amount
/// with a constant, gated by the size and the operation.
#[derive(LogicBlock)]
pub struct FillDecode {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// The shift amount.
    pub amount: Signal<In, Bits<7>>,
    /// One-hot subset size: bit `e` for m = 2^(e+1).
    pub size: Vec<Signal<In, Bit>>,
    /// Bit `t*log2(N) + e`: `shff.left` in subsets of 2^(e+1) lanes fills lane `t`.
    pub low: Vec<Signal<Out, Bit>>,
    /// Bit `t*log2(N) + e`: `shff.right` in subsets of 2^(e+1) lanes fills lane `t`.
    pub high: Vec<Signal<Out, Bit>>,
    /// The amount against every lane's offsets: `t mod 2^(e+1)` at `t*log2(N) + e`, then
    /// `(N - 1 - t) mod 2^(e+1)` after the first N log2(N).
    offsets: AboveConstants,
    op_shff_left: Constant<Bits<3>>,
    op_shff_right: Constant<Bits<3>>,
    _lanes: usize,
    _lane_bits: usize,
}

impl FillDecode {
    /// The fill decode for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let (n, l) = (params.lanes, params.lane_bits());
        let offset = |from_top: bool| {
            (0..n).flat_map(move |t| {
                (1..=l).map(move |e| {
                    let lane = if from_top { n - 1 - t } else { t };
                    (lane % (1 << e)) as u64
                })
            })
        };
        let limits: Vec<u64> = offset(false).chain(offset(true)).collect();
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            size: signals(l),
            low: signals(n * l),
            high: signals(n * l),
            offsets: AboveConstants::new(&limits),
            op_shff_left: constant(RouteOpCode::ShffLeft as u64),
            op_shff_right: constant(RouteOpCode::ShffRight as u64),
            _lanes: n,
            _lane_bits: l,
        }
    }
}

impl Logic for FillDecode {
    // A single-value loop binds N log2(N) (`nf`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.offsets.value.next = self.amount.val();
        for nf in (self._lanes * self._lane_bits)..(self._lanes * self._lane_bits + 1) {
            for nl in self._lane_bits..(self._lane_bits + 1) {
                for t in 0..self._lanes {
                    for e in 0..self._lane_bits {
                        self.low[t * nl + e].next = (self.op.val() == self.op_shff_left.val())
                            & self.size[e].val()
                            & self.offsets.above[t * nl + e].val();
                        self.high[t * nl + e].next = (self.op.val() == self.op_shff_right.val())
                            & self.size[e].val()
                            & self.offsets.above[nf + t * nl + e].val();
                    }
                }
            }
        }
    }
}
