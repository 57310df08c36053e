//! The document's two-stage routing network (Fig. 6), combinational: the front stage, N/q quad
//! crossbars, then per lane an (N/q):1 mux over output (lane mod q) of every crossbar.

use rust_hdl::prelude::*;

use crate::signals;

use super::control::ControlDecode;
use super::front::RouteFront;
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
    front: RouteFront<E>,
    quads: QuadCrossbars<E>,
    lane_muxes: LaneMuxes<E>,
    _lanes: usize,
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
            quads: QuadCrossbars::new(params),
            lane_muxes: LaneMuxes::new(params),
            _lanes: n,
        }
    }
}

impl<const E: usize> Logic for RouteNetwork<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.control.op.next = self.op.val();
        self.control.amount.next = self.amount.val();
        self.control.mod_log2.next = self.mod_log2.val();
        self.front.op.next = self.op.val();
        self.front.m.next = self.control.m.val();
        self.front.mask.next = self.control.mask.val();
        self.front.shift.next = self.control.shift.val();
        self.front.wrapped.next = self.control.wrapped.val();
        self.front.shuffle.next = self.control.shuffle.val();
        self.front.fill.next = self.fill.val();
        for t in 0..self._lanes {
            self.front.xbar_pos[t].next = self.xbar_pos[t].val();
            self.front.lane_xbar[t].next = self.lane_xbar[t].val();
            self.front.rs[t].next = self.rs[t].val();
            self.front.rf[t].next = self.rf[t].val();
            self.quads.operand[t].next = self.front.operand[t].val();
            self.quads.position[t].next = self.front.position[t].val();
            self.lane_muxes.gathered[t].next = self.quads.gathered[t].val();
            self.lane_muxes.lane_source[t].next = self.front.lane_source[t].val();
            self.routed[t].next = self.lane_muxes.routed[t].val();
        }
    }
}
