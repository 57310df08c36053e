//! The document's two-stage routing network (Fig. 6), combinational: the front stage, N/q quad
//! crossbars, then per lane an (N/q):1 mux over output (lane mod q) of every crossbar.

use rust_hdl::prelude::*;

use crate::signals;

use super::control::ControlDecode;
use super::front::RouteFront;
use super::select::RegisterSelect;
use super::stages::{LaneMuxes, QuadCrossbars};
use crate::params::RouteParams;

/// The shift-and-fill routing network, combinational: one pass from control to `routed`
/// through [`ControlDecode`], [`RouteFront`], [`QuadCrossbars`] and [`LaneMuxes`]. Out-of-range shuffle controls
/// give zero.
#[derive(LogicBlock)]
pub struct RouteNetwork<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Bits<3>>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: `xbar_pos[c * q + k]` is the input position (0..q-1) crossbar `c` sends
    /// to its output `k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar (0..N/q-1) lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    control: ControlDecode,
    front: RouteFront,
    select: RegisterSelect<E>,
    quads: QuadCrossbars<E>,
    lane_muxes: LaneMuxes<E>,
    _lanes: usize,
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
            front: RouteFront::new(params),
            select: RegisterSelect::new(n),
            quads: QuadCrossbars::new(params),
            lane_muxes: LaneMuxes::new(params),
            _lanes: n,
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
        for nn in self._lanes..(self._lanes + 1) {
            for t in 0..self._lanes {
                self.front.kinds[t].next = self.control.adds.val();
                self.front.kinds[nn + t].next = self.control.broadcast.val();
                self.front.kinds[2 * nn + t].next = self.control.butterfly.val();
                self.front.kinds[3 * nn + t].next = self.control.fills_low.val();
                self.front.kinds[4 * nn + t].next = self.control.fills_high.val();
                self.front.kinds[5 * nn + t].next = self.control.shuffle.val();
            }
        }
        for t in 0..self._lanes {
            self.front.mask[t].next = self.control.mask.val();
            self.front.shift[t].next = self.control.shift.val();
            self.front.wrapped[t].next = self.control.wrapped.val();
            self.front.step[t].next = self.control.step.val();
            self.front.fill_from[t].next = self.control.fill_from.val();
            self.front.xbar_pos[t].next = self.xbar_pos[t].val();
            self.front.lane_xbar[t].next = self.lane_xbar[t].val();
            self.select.rs[t].next = self.rs[t].val();
            self.select.rf[t].next = self.rf[t].val();
            self.select.fill[t].next = self.fill.val();
            self.select.take_fill[t].next = self.front.take_fill[t].val();
            self.quads.operand[t].next = self.select.out[t].val();
            self.lane_muxes.gathered[t].next = self.quads.gathered[t].val();
            self.routed[t].next = self.lane_muxes.routed[t].val();
        }
        for k in 0..self._position_selects {
            self.quads.position_select[k].next = self.front.position_select[k].val();
        }
        for k in 0..self._source_selects {
            self.lane_muxes.lane_select[k].next = self.front.lane_select[k].val();
        }
    }
}
