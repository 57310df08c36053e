//! A shuffle pass's explicit controls, decoded per lane.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};
use crate::route::widths::{LaneIndex, OpCode};
use crate::signals::{constant, signals};

/// Decodes a shuffle pass's per-lane controls into one-hot selects (combinational), all clear
/// unless the operation is a shuffle pass (`op` = 6). Each crossbar's lanes read the operation
/// code from their own copy (`op[c]`), so that no copy drives more than one crossbar's lanes.
/// Out-of-range controls set no bit, so the lane or crossbar output they control is zero.
#[derive(LogicBlock)]
pub struct ShuffleDecode {
    /// Per crossbar: the operation code (`RouteOpCode`).
    pub op: Vec<Signal<In, OpCode>>,
    /// Per crossbar output: `xbar_pos[c * q + k]` is the input position crossbar `c` sends to
    /// its output `k`.
    pub xbar_pos: Vec<Signal<In, LaneIndex>>,
    /// Per lane: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, LaneIndex>>,
    /// One-hot: output `k` of crossbar `c` takes input `i` when bit `(c * q + k) * q + i` is set.
    pub position: Vec<Signal<Out, Bit>>,
    /// One-hot: lane `t` takes its value from crossbar `j` when bit `t * (N/q) + j` is set.
    pub source: Vec<Signal<Out, Bit>>,
    /// The numbers 0..max(q, N/q)-1.
    index: Vec<Constant<LaneIndex>>,
    op_shuffle: Constant<OpCode>,
    _lanes: usize,
    _crossbar: usize,
    _crossbars: usize,
}

impl ShuffleDecode {
    /// The decode for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        Self {
            op: signals(c),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            position: signals(n * q),
            source: signals(n * c),
            index: (0..q.max(c) as u64).map(constant).collect(),
            op_shuffle: constant(RouteOpCode::ShufflePass as u64),
            _lanes: n,
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl Logic for ShuffleDecode {
    // Single-value loops bind q (`nq`) and N/q (`nc`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for t in 0..self._lanes {
                    for i in 0..self._crossbar {
                        self.position[t * nq + i].next = (self.op[t / nq].val()
                            == self.op_shuffle.val())
                            & (self.xbar_pos[t].val() == self.index[i].val());
                    }
                    for j in 0..self._crossbars {
                        self.source[t * nc + j].next = (self.op[t / nq].val()
                            == self.op_shuffle.val())
                            & (self.lane_xbar[t].val() == self.index[j].val());
                    }
                }
            }
        }
    }
}
