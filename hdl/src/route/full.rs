//! The comparison design: the same operations on one full N x N crossbar.

use rust_hdl::prelude::*;

use crate::route::widths::{FillSource, LaneIndex, Log2Lanes, OpCode};
use crate::signals::signals;

use super::control::{ControlDecode, KINDS};
use super::decoder::RouteDecoder;
use super::fills::{fill_groups, Fills};
use super::register_select::RegisterSelect;
use super::shuffle::ShuffleDecode;
use crate::cells::crossbar::Crossbar;
use crate::params::RouteParams;

/// A routing network built from one full N x N crossbar (every lane can take any lane in one
/// pass). Same operations and decoders as [`super::RouteNetwork`], built with q = 1 (so that
/// a lane's crossbar select is its source lane); for a shuffle pass (`op` = 6) lane `t` takes
/// lane `lane_src[t]` (values >= N give zero). Emitted only to compare its cost with the
/// document's two-stage network.
#[derive(LogicBlock)]
pub struct FullCrossbarNetwork<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Log2Lanes>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, FillSource>,
    /// Shuffle pass: the source lane of every lane.
    pub lane_src: Vec<Signal<In, LaneIndex>>,
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
    crossbar: Crossbar<E>,
    /// Position 0, the only one with q = 1.
    position: Constant<LaneIndex>,
    _lanes: usize,
    /// 2 N G: the fill decode's bits.
    _fills: usize,
}

impl<const E: usize> FullCrossbarNetwork<E> {
    /// The network for `params` (its `element_bits` must be `E` and its `crossbar` 1).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(params.crossbar, 1);
        let n = params.lanes;
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fill: Signal::default(),
            lane_src: signals(n),
            rs: signals(n),
            rf: signals(n),
            routed: signals(n),
            control: ControlDecode::new(params),
            fills: Fills::new(params),
            shuffle: ShuffleDecode::new(params),
            decoder: RouteDecoder::new(params),
            select: RegisterSelect::new(n),
            crossbar: Crossbar::new(n, n, 1),
            position: Constant::new(0u64.into()),
            _lanes: n,
            _fills: 2 * n * fill_groups(params),
        }
    }
}

impl<const E: usize> Logic for FullCrossbarNetwork<E> {
    // With q = 1 the decoders' crossbars are lanes, and a lane's one position select is set
    // exactly when the pass is decoded (it is read, so that nothing is left unused).
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
        for k in 0..4 {
            self.decoder.positions[k].next = self.control.positions[k].val();
        }
        for k in 0..self._fills {
            self.decoder.fills[k].next = self.fills.fills[k].val();
        }
        for k in 0..(2 * self._lanes) {
            self.decoder.offsets[k].next = self.control.offsets[k].val();
        }
        for k in 0..(2 * self._lanes * self._lanes) {
            self.decoder.pairs[k].next = self.control.pairs[k].val();
        }
        for nn in self._lanes..(self._lanes + 1) {
            for t in 0..self._lanes {
                self.shuffle.op[t].next = self.op.val();
                self.shuffle.xbar_pos[t].next = self.position.val();
                self.shuffle.lane_xbar[t].next = self.lane_src[t].val();
                self.decoder.shuffle_position[t].next = self.shuffle.position[t].val();
                self.decoder.crossbar_match[t].next = self.control.crossbar_match[t].val();
                self.decoder.fill[t].next = self.fill.val();
                self.select.rs[t].next = self.rs[t].val();
                self.select.rf[t].next = self.rf[t].val();
                self.select.constant[t].next = self.decoder.constant[t].val();
                self.select.upper[t].next = self.decoder.upper[t].val();
                self.select.lowest[t].next = self.decoder.lowest[t].val();
                self.crossbar.inputs[t].next = self.select.out[t].val();
                for j in 0..self._lanes {
                    self.decoder.shuffle_source[t * nn + j].next =
                        self.shuffle.source[t * nn + j].val();
                    self.crossbar.select[t * nn + j].next = self.decoder.lane_select[t * nn + j]
                        .val()
                        & self.decoder.position_select[t].val();
                }
                self.routed[t].next = self.crossbar.outputs[t].val();
            }
        }
    }
}
