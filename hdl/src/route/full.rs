//! The comparison design: the same operations on one full N x N crossbar.

use rust_hdl::prelude::*;

use crate::signals;

use super::control::ControlDecode;
use super::decoder::RouteDecoder;
use super::select::RegisterSelect;
use crate::crossbar::Crossbar;
use crate::params::RouteParams;

/// A routing network built from one full N x N crossbar (every lane can take any lane in one
/// pass). Same operations and decoder as [`super::RouteNetwork`]; for a shuffle pass
/// (`op` = 6) lane `t` takes lane `lane_src[t]` (values >= N give zero). Emitted only to compare
/// its cost with the document's two-stage network.
#[derive(LogicBlock)]
pub struct FullCrossbarNetwork<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Bits<3>>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: the source lane of every lane.
    pub lane_src: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    control: ControlDecode,
    decoder: RouteDecoder,
    select: RegisterSelect<E>,
    crossbar: Crossbar<E>,
    /// Source lane of every lane.
    source: Vec<Signal<Local, Bits<7>>>,
    _lanes: usize,
}

impl<const E: usize> FullCrossbarNetwork<E> {
    /// The network for `params` (its `element_bits` must be `E`; `crossbar` is not used).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
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
            decoder: RouteDecoder::new(params),
            select: RegisterSelect::new(n),
            crossbar: Crossbar::new(n, n, 1),
            source: signals(n),
            _lanes: n,
        }
    }
}

impl<const E: usize> Logic for FullCrossbarNetwork<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.control.op.next = self.op.val();
        self.control.amount.next = self.amount.val();
        self.control.mod_log2.next = self.mod_log2.val();
        for nn in self._lanes..(self._lanes + 1) {
            for t in 0..self._lanes {
                self.decoder.mask[t].next = self.control.mask.val();
                self.decoder.shift[t].next = self.control.shift.val();
                self.decoder.wrapped[t].next = self.control.wrapped.val();
                self.decoder.step[t].next = self.control.step.val();
                self.decoder.fill_from[t].next = self.control.fill_from.val();
                self.decoder.adds[t].next = self.control.adds.val();
                self.decoder.broadcast[t].next = self.control.broadcast.val();
                self.decoder.butterfly[t].next = self.control.butterfly.val();
                self.decoder.fills_low[t].next = self.control.fills_low.val();
                self.decoder.fills_high[t].next = self.control.fills_high.val();
                self.select.fill[t].next = self.fill.val();
                self.select.rs[t].next = self.rs[t].val();
                self.select.rf[t].next = self.rf[t].val();
                self.select.take_fill[t].next = self.decoder.take_fill[t].val();
                self.crossbar.inputs[t].next = self.select.out[t].val();
                self.source[t].next = self.decoder.src[t].val();
                if self.control.shuffle.val() {
                    self.source[t].next = self.lane_src[t].val();
                }
                for j in 0..self._lanes {
                    self.crossbar.select[t * nn + j].next = self.source[t].val() == j.to_bits();
                }
                self.routed[t].next = self.crossbar.outputs[t].val();
            }
        }
    }
}
