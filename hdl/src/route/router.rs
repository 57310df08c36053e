//! The registered router: the network's three parts, optional pipeline registers between
//! them, and a result register that captures per lane.

use rust_hdl::prelude::*;

use crate::signals;

use super::control::ControlDecode;
use super::front::RouteFront;
use super::stages::{LaneMuxes, QuadCrossbars};
use crate::params::RouteParams;
use crate::regs::Registers;

/// The shift-and-fill operand router as a pipeline stage between operand read and execute:
/// [`ControlDecode`], [`RouteFront`], [`QuadCrossbars`] and [`LaneMuxes`], followed by a result
/// register.
///
/// One pass per cycle: with `valid` high, every lane whose `capture` bit is high takes the
/// routed value; the other lanes keep theirs. One-pass operations are given with every
/// `capture` bit high; a multi-pass shuffle sets, in each pass, the lanes it completes, and its
/// result is whole after the last pass.
///
/// `pipeline` (0..=3) adds register stages, feed-forward, so a pass still issues every cycle:
/// 1 registers the front stage's outputs (after lane decode and register select), 2 also the
/// quad crossbars' outputs (between the two networks), 3 also the control decode's outputs with
/// the pass's operands. A pass given in cycle `c` reaches `result` after the rising edge that
/// ends cycle `c + pipeline`.
#[derive(LogicBlock)]
pub struct ShiftFillRouter<const E: usize> {
    /// Clock: stages and results advance on its rising edge.
    pub clock: Signal<In, Clock>,
    /// A pass happens this cycle.
    pub valid: Signal<In, Bit>,
    /// Per lane: take this pass's routed value.
    pub capture: Vec<Signal<In, Bit>>,
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Bits<3>>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: input position crossbar `c` sends to its output `k`, at `c * q + k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The result register, one element per lane (zero at power-up).
    pub result: Vec<Signal<Out, Bits<E>>>,
    control: ControlDecode,
    /// Stage after the control decode: `rs` (`0..N`), then `rf`.
    decoded_operands: Registers<Bits<E>>,
    /// Stage after the control decode: `xbar_pos` (`0..N`), `lane_xbar` (`N..2N`), then m,
    /// mask, shift and wrapped.
    decoded_controls: Registers<Bits<7>>,
    /// Stage after the control decode: the operation code.
    decoded_op: Registers<Bits<3>>,
    /// Stage after the control decode: the fill code.
    decoded_fill: Registers<Bits<2>>,
    /// Stage after the control decode: the lanes that capture (`0..N`), then the shuffle flag.
    decoded_flags: Registers<Bit>,
    front: RouteFront<E>,
    /// Stage after the front: every lane's operand.
    front_operand: Registers<Bits<E>>,
    /// Stage after the front: crossbar positions (`0..N`), then lane sources (`N..2N`).
    front_controls: Registers<Bits<7>>,
    /// Stage after the front: the lanes that capture.
    front_capture: Registers<Bit>,
    quads: QuadCrossbars<E>,
    /// Stage between the networks: the quad crossbars' outputs.
    quads_gathered: Registers<Bits<E>>,
    /// Stage between the networks: the lane sources.
    quads_source: Registers<Bits<7>>,
    /// Stage between the networks: the lanes that capture.
    quads_capture: Registers<Bit>,
    lane_muxes: LaneMuxes<E>,
    held: Registers<Bits<E>>,
    _lanes: usize,
}

impl<const E: usize> ShiftFillRouter<E> {
    /// The router for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        let (front, between) = (params.pipeline >= 1, params.pipeline >= 2);
        let decoded = params.pipeline >= 3;
        Self {
            clock: Signal::default(),
            valid: Signal::default(),
            capture: signals(n),
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fill: Signal::default(),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            rs: signals(n),
            rf: signals(n),
            result: signals(n),
            control: ControlDecode::new(params),
            decoded_operands: Registers::stage(2 * n, decoded),
            decoded_controls: Registers::stage(2 * n + 4, decoded),
            decoded_op: Registers::stage(1, decoded),
            decoded_fill: Registers::stage(1, decoded),
            decoded_flags: Registers::stage(n + 1, decoded),
            front: RouteFront::new(params),
            front_operand: Registers::stage(n, front),
            front_controls: Registers::stage(2 * n, front),
            front_capture: Registers::stage(n, front),
            quads: QuadCrossbars::new(params),
            quads_gathered: Registers::stage(n, between),
            quads_source: Registers::stage(n, between),
            quads_capture: Registers::stage(n, between),
            lane_muxes: LaneMuxes::new(params),
            held: Registers::new(n),
            _lanes: n,
        }
    }
}

impl<const E: usize> Logic for ShiftFillRouter<E> {
    // A single-value loop binds N (`nn`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.control.op.next = self.op.val();
        self.control.amount.next = self.amount.val();
        self.control.mod_log2.next = self.mod_log2.val();
        self.decoded_operands.clock.next = self.clock.val();
        self.decoded_controls.clock.next = self.clock.val();
        self.decoded_op.clock.next = self.clock.val();
        self.decoded_fill.clock.next = self.clock.val();
        self.decoded_flags.clock.next = self.clock.val();
        self.front_operand.clock.next = self.clock.val();
        self.front_controls.clock.next = self.clock.val();
        self.front_capture.clock.next = self.clock.val();
        self.quads_gathered.clock.next = self.clock.val();
        self.quads_source.clock.next = self.clock.val();
        self.quads_capture.clock.next = self.clock.val();
        self.held.clock.next = self.clock.val();
        for nn in self._lanes..(self._lanes + 1) {
            // Control decode stage.
            self.decoded_op.d[0].next = self.op.val();
            self.decoded_fill.d[0].next = self.fill.val();
            self.decoded_controls.d[2 * nn].next = self.control.m.val();
            self.decoded_controls.d[2 * nn + 1].next = self.control.mask.val();
            self.decoded_controls.d[2 * nn + 2].next = self.control.shift.val();
            self.decoded_controls.d[2 * nn + 3].next = self.control.wrapped.val();
            self.decoded_flags.d[nn].next = self.control.shuffle.val();
            self.front.op.next = self.decoded_op.q[0].val();
            self.front.fill.next = self.decoded_fill.q[0].val();
            self.front.m.next = self.decoded_controls.q[2 * nn].val();
            self.front.mask.next = self.decoded_controls.q[2 * nn + 1].val();
            self.front.shift.next = self.decoded_controls.q[2 * nn + 2].val();
            self.front.wrapped.next = self.decoded_controls.q[2 * nn + 3].val();
            self.front.shuffle.next = self.decoded_flags.q[nn].val();
            for t in 0..self._lanes {
                self.decoded_operands.d[t].next = self.rs[t].val();
                self.decoded_operands.d[nn + t].next = self.rf[t].val();
                self.decoded_controls.d[t].next = self.xbar_pos[t].val();
                self.decoded_controls.d[nn + t].next = self.lane_xbar[t].val();
                self.decoded_flags.d[t].next = self.valid.val() & self.capture[t].val();
                self.front.rs[t].next = self.decoded_operands.q[t].val();
                self.front.rf[t].next = self.decoded_operands.q[nn + t].val();
                self.front.xbar_pos[t].next = self.decoded_controls.q[t].val();
                self.front.lane_xbar[t].next = self.decoded_controls.q[nn + t].val();
                // Front stage.
                self.front_operand.d[t].next = self.front.operand[t].val();
                self.front_controls.d[t].next = self.front.position[t].val();
                self.front_controls.d[nn + t].next = self.front.lane_source[t].val();
                self.front_capture.d[t].next = self.decoded_flags.q[t].val();
                self.quads.operand[t].next = self.front_operand.q[t].val();
                self.quads.position[t].next = self.front_controls.q[t].val();
                // Between the networks.
                self.quads_gathered.d[t].next = self.quads.gathered[t].val();
                self.quads_source.d[t].next = self.front_controls.q[nn + t].val();
                self.quads_capture.d[t].next = self.front_capture.q[t].val();
                self.lane_muxes.gathered[t].next = self.quads_gathered.q[t].val();
                self.lane_muxes.lane_source[t].next = self.quads_source.q[t].val();
                // Result.
                self.held.d[t].next = self.held.q[t].val();
                if self.quads_capture.q[t].val() {
                    self.held.d[t].next = self.lane_muxes.routed[t].val();
                }
                self.result[t].next = self.held.q[t].val();
            }
        }
    }
}
