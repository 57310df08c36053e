//! The document's two-stage routing network (Fig. 6), combinational: the front stage, N/q quad
//! crossbars, then per lane an (N/q):1 mux over output (lane mod q) of every crossbar.

use rust_hdl::prelude::*;

use crate::route::widths::{FillSource, LaneIndex, Log2Lanes, OpCode};
use crate::signals::signals;

use super::control::{ControlDecode, KINDS};
use super::decoder::RouteDecoder;
use super::fills::{fill_groups, Fills};
use super::register_select::RegisterSelect;
use super::shuffle::ShuffleDecode;
use super::stages::{LaneMuxes, QuadCrossbars};
use crate::params::RouteParams;

/// The shift-and-fill routing network, combinational: one pass from control to `routed`
/// through [`ControlDecode`], [`Fills`] and [`ShuffleDecode`], [`RouteDecoder`],
/// [`RegisterSelect`],
/// [`QuadCrossbars`] and [`LaneMuxes`]. Out-of-range shuffle controls give zero.
#[derive(LogicBlock)]
pub struct RouteNetwork<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Log2Lanes>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, FillSource>,
    /// Shuffle pass: `xbar_pos[c * q + k]` is the input position (0..q-1) crossbar `c` sends
    /// to its output `k`.
    pub xbar_pos: Vec<Signal<In, LaneIndex>>,
    /// Shuffle pass: the crossbar (0..N/q-1) lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, LaneIndex>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    control: ControlDecode,
    fills: Fills,
    shuffle: ShuffleDecode,
    decoder: RouteDecoder,
    select: RegisterSelect<E>,
    quads: QuadCrossbars<E>,
    lane_muxes: LaneMuxes<E>,
    _lanes: usize,
    _crossbars: usize,
    /// 4 q x q: the control decode's input positions.
    _positions: usize,
    /// 2 q x N/q: the control decode's distances.
    _offsets: usize,
    /// 2 (N/q)^2: the control decode's crossbar pairs.
    _pairs: usize,
    /// 2 N G: the fill decode's bits.
    _fills: usize,
    /// N x q: the quad crossbars' one-hot selects.
    _position_selects: usize,
    /// N x N/q: the lane muxes' one-hot selects.
    _source_selects: usize,
}

impl<const E: usize> RouteNetwork<E> {
    /// The network for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fill: Signal::default(),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            rs: signals(n),
            rf: signals(n),
            routed: signals(n),
            control: ControlDecode::new(params),
            fills: Fills::new(params),
            shuffle: ShuffleDecode::new(params),
            decoder: RouteDecoder::new(params),
            select: RegisterSelect::new(n),
            quads: QuadCrossbars::new(params),
            lane_muxes: LaneMuxes::new(params),
            _lanes: n,
            _crossbars: params.crossbars(),
            _positions: 4 * params.crossbar * params.crossbar,
            _offsets: 2 * params.crossbar * params.crossbars(),
            _pairs: 2 * params.crossbars() * params.crossbars(),
            _fills: 2 * n * fill_groups(params),
            _position_selects: n * params.crossbar,
            _source_selects: n * params.crossbars(),
        }
    }
}

impl<const E: usize> Logic for RouteNetwork<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.control.op.next = self.op.val();
        self.control.amount.next = self.amount.val();
        self.control.mod_log2.next = self.mod_log2.val();
        self.fills.op.next = self.op.val();
        self.fills.amount.next = self.amount.val();
        self.fills.mod_log2.next = self.mod_log2.val();
        for k in 0..KINDS {
            self.decoder.kinds[k].next = self.control.kinds[k].val();
        }
        for k in 0..self._positions {
            self.decoder.positions[k].next = self.control.positions[k].val();
        }
        for k in 0..self._offsets {
            self.decoder.offsets[k].next = self.control.offsets[k].val();
        }
        for k in 0..self._pairs {
            self.decoder.pairs[k].next = self.control.pairs[k].val();
        }
        for k in 0..self._fills {
            self.decoder.fills[k].next = self.fills.fills[k].val();
        }
        for c in 0..self._crossbars {
            self.decoder.crossbar_match[c].next = self.control.crossbar_match[c].val();
            self.decoder.fill[c].next = self.fill.val();
            self.shuffle.op[c].next = self.op.val();
        }
        for k in 0..self._position_selects {
            self.decoder.shuffle_position[k].next = self.shuffle.position[k].val();
            self.quads.position_select[k].next = self.decoder.position_select[k].val();
        }
        for k in 0..self._source_selects {
            self.decoder.shuffle_source[k].next = self.shuffle.source[k].val();
            self.lane_muxes.lane_select[k].next = self.decoder.lane_select[k].val();
        }
        for t in 0..self._lanes {
            self.shuffle.xbar_pos[t].next = self.xbar_pos[t].val();
            self.shuffle.lane_xbar[t].next = self.lane_xbar[t].val();
            self.select.rs[t].next = self.rs[t].val();
            self.select.rf[t].next = self.rf[t].val();
            self.select.constant[t].next = self.decoder.constant[t].val();
            self.select.upper[t].next = self.decoder.upper[t].val();
            self.select.lowest[t].next = self.decoder.lowest[t].val();
            self.quads.operand[t].next = self.select.out[t].val();
            self.lane_muxes.gathered[t].next = self.quads.gathered[t].val();
            self.routed[t].next = self.lane_muxes.routed[t].val();
        }
    }
}
