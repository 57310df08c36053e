//! The registered router: the network's three parts, optional pipeline registers between
//! them, and a result register that captures per lane.

use rust_hdl::prelude::*;

use crate::signals;

use super::control::ControlDecode;
use super::front::{RouteFront, KINDS};
use super::select::RegisterSelect;
use super::stages::{LaneMuxes, QuadCrossbars};
use crate::params::RouteParams;
use crate::regs::Registers;

/// The shift-and-fill operand router as a pipeline stage between operand read and execute:
/// [`ControlDecode`], [`RouteFront`], [`RegisterSelect`], [`QuadCrossbars`] and [`LaneMuxes`],
/// followed by a result register.
///
/// One pass per cycle: with `valid` high, every lane whose `capture` bit is high takes the
/// routed value; the other lanes keep theirs. One-pass operations are given with every
/// `capture` bit high; a multi-pass shuffle sets, in each pass, the lanes it completes, and its
/// result is whole after the last pass.
///
/// `pipeline` (0..=4) adds register stages, feed-forward, so a pass still issues every cycle:
/// 1 registers the front decode's outputs (each lane's fill choice, both networks' controls)
/// with the pass's operands, so that the register select and the quad crossbars share the next
/// cycle; 2 also the quad crossbars' outputs (between the two networks); 3 also the control
/// decodes' outputs, one copy per crossbar (kept apart in synthesis) so that no control
/// register drives more than one crossbar's lanes, with the pass's operands; 4 also the pass as
/// it arrives, its scalar controls once per crossbar, so that each crossbar's control decode
/// starts from registers of its own. A pass given in cycle `c` reaches `result` after the
/// rising edge that ends cycle `c + pipeline`.
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
    /// Stage at the input, one copy per crossbar: the operation code.
    arrived_op: Registers<Bits<3>>,
    /// Stage at the input, one copy per crossbar: the amount.
    arrived_amount: Registers<Bits<7>>,
    /// Stage at the input, one copy per crossbar: log2 of the subset size.
    arrived_mod: Registers<Bits<3>>,
    /// Stage at the input, one copy per crossbar: the fill code.
    arrived_fill: Registers<Bits<2>>,
    /// Stage at the input: `rs` (`0..N`), then `rf`.
    arrived_operands: Registers<Bits<E>>,
    /// Stage at the input: `xbar_pos` (`0..N`), then `lane_xbar`.
    arrived_positions: Registers<Bits<7>>,
    /// Stage at the input: the lanes that capture.
    arrived_capture: Registers<Bit>,
    /// One control decode per crossbar, each from its own copy of the controls.
    control: Vec<ControlDecode>,
    /// Stage after the control decode: `rs` (`0..N`), then `rf`.
    decoded_operands: Registers<Bits<E>>,
    /// Stage after the control decode, one copy per crossbar `c`: mask, shift, wrapped, step
    /// and fill_from at `5c..5c+5`.
    decoded_controls: Registers<Bits<7>>,
    /// Stage after the control decode: `xbar_pos` (`0..N`), then `lane_xbar`.
    decoded_positions: Registers<Bits<7>>,
    /// Stage after the control decode, one copy per crossbar `c`: the operation's kinds
    /// ([`super::front::KINDS`] of them) at `6c..6c+6`.
    decoded_kinds: Registers<Bit>,
    /// Stage after the control decode, one copy per crossbar: the fill code.
    decoded_fill: Registers<Bits<2>>,
    /// Stage after the control decode: the lanes that capture.
    decoded_capture: Registers<Bit>,
    front: RouteFront,
    /// Stage after the front decode: `rs` (`0..N`), then `rf`.
    front_operands: Registers<Bits<E>>,
    /// Stage after the front decode: the quad crossbars' one-hot selects.
    front_positions: Registers<Bit>,
    /// Stage after the front decode: the lane muxes' one-hot selects.
    front_sources: Registers<Bit>,
    /// Stage after the front decode: the lanes that take their fill value (`0..N`), then the
    /// lanes that capture.
    front_flags: Registers<Bit>,
    /// Stage after the front decode, one copy per crossbar: the fill code.
    front_fill: Registers<Bits<2>>,
    select: RegisterSelect<E>,
    quads: QuadCrossbars<E>,
    /// Stage between the networks: the quad crossbars' outputs.
    quads_gathered: Registers<Bits<E>>,
    /// Stage between the networks: the lane muxes' one-hot selects.
    quads_source: Registers<Bit>,
    /// Stage between the networks: the lanes that capture.
    quads_capture: Registers<Bit>,
    lane_muxes: LaneMuxes<E>,
    held: Registers<Bits<E>>,
    _lanes: usize,
    _crossbar: usize,
    _crossbars: usize,
    /// N x q: the quad crossbars' one-hot selects.
    _position_selects: usize,
    /// N x N/q: the lane muxes' one-hot selects.
    _source_selects: usize,
}

impl<const E: usize> ShiftFillRouter<E> {
    /// The router for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        let (n, c) = (params.lanes, params.crossbars());
        let (front, between) = (params.pipeline >= 1, params.pipeline >= 2);
        let (decoded, arrived) = (params.pipeline >= 3, params.pipeline >= 4);
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
            arrived_op: Registers::copies(c, arrived),
            arrived_amount: Registers::copies(c, arrived),
            arrived_mod: Registers::copies(c, arrived),
            arrived_fill: Registers::copies(c, arrived),
            arrived_operands: Registers::stage(2 * n, arrived),
            arrived_positions: Registers::stage(2 * n, arrived),
            arrived_capture: Registers::stage(n, arrived),
            control: (0..c).map(|_| ControlDecode::new(params)).collect(),
            decoded_operands: Registers::stage(2 * n, decoded),
            decoded_controls: Registers::copies(5 * c, decoded),
            decoded_positions: Registers::stage(2 * n, decoded),
            decoded_kinds: Registers::copies(KINDS * c, decoded),
            decoded_fill: Registers::copies(c, decoded),
            decoded_capture: Registers::stage(n, decoded),
            front: RouteFront::new(params),
            front_operands: Registers::stage(2 * n, front),
            front_positions: Registers::stage(n * params.crossbar, front),
            front_sources: Registers::stage(n * c, front),
            front_flags: Registers::stage(2 * n, front),
            front_fill: Registers::copies(c, front),
            select: RegisterSelect::new(n),
            quads: QuadCrossbars::new(params),
            quads_gathered: Registers::stage(n, between),
            quads_source: Registers::stage(n * c, between),
            quads_capture: Registers::stage(n, between),
            lane_muxes: LaneMuxes::new(params),
            held: Registers::new(n),
            _lanes: n,
            _crossbar: params.crossbar,
            _crossbars: c,
            _position_selects: n * params.crossbar,
            _source_selects: n * c,
        }
    }
}

impl<const E: usize> Logic for ShiftFillRouter<E> {
    // Single-value loops bind N (`nn`) and q (`nq`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.arrived_op.clock.next = self.clock.val();
        self.arrived_amount.clock.next = self.clock.val();
        self.arrived_mod.clock.next = self.clock.val();
        self.arrived_fill.clock.next = self.clock.val();
        self.arrived_operands.clock.next = self.clock.val();
        self.arrived_positions.clock.next = self.clock.val();
        self.arrived_capture.clock.next = self.clock.val();
        self.decoded_operands.clock.next = self.clock.val();
        self.decoded_controls.clock.next = self.clock.val();
        self.decoded_positions.clock.next = self.clock.val();
        self.decoded_kinds.clock.next = self.clock.val();
        self.decoded_fill.clock.next = self.clock.val();
        self.decoded_capture.clock.next = self.clock.val();
        self.front_operands.clock.next = self.clock.val();
        self.front_positions.clock.next = self.clock.val();
        self.front_sources.clock.next = self.clock.val();
        self.front_flags.clock.next = self.clock.val();
        self.front_fill.clock.next = self.clock.val();
        self.quads_gathered.clock.next = self.clock.val();
        self.quads_source.clock.next = self.clock.val();
        self.quads_capture.clock.next = self.clock.val();
        self.held.clock.next = self.clock.val();
        for nq in self._crossbar..(self._crossbar + 1) {
            for nn in self._lanes..(self._lanes + 1) {
                // The pass's scalar controls, a copy per crossbar, each decoded for its own lanes.
                for c in 0..self._crossbars {
                    self.arrived_op.d[c].next = self.op.val();
                    self.arrived_amount.d[c].next = self.amount.val();
                    self.arrived_mod.d[c].next = self.mod_log2.val();
                    self.arrived_fill.d[c].next = self.fill.val();
                    self.control[c].op.next = self.arrived_op.q[c].val();
                    self.control[c].amount.next = self.arrived_amount.q[c].val();
                    self.control[c].mod_log2.next = self.arrived_mod.q[c].val();
                    self.decoded_controls.d[5 * c].next = self.control[c].mask.val();
                    self.decoded_controls.d[5 * c + 1].next = self.control[c].shift.val();
                    self.decoded_controls.d[5 * c + 2].next = self.control[c].wrapped.val();
                    self.decoded_controls.d[5 * c + 3].next = self.control[c].step.val();
                    self.decoded_controls.d[5 * c + 4].next = self.control[c].fill_from.val();
                    self.decoded_kinds.d[6 * c].next = self.control[c].adds.val();
                    self.decoded_kinds.d[6 * c + 1].next = self.control[c].broadcast.val();
                    self.decoded_kinds.d[6 * c + 2].next = self.control[c].butterfly.val();
                    self.decoded_kinds.d[6 * c + 3].next = self.control[c].fills_low.val();
                    self.decoded_kinds.d[6 * c + 4].next = self.control[c].fills_high.val();
                    self.decoded_kinds.d[6 * c + 5].next = self.control[c].shuffle.val();
                    self.decoded_fill.d[c].next = self.arrived_fill.q[c].val();
                    self.front_fill.d[c].next = self.decoded_fill.q[c].val();
                    for k in 0..self._crossbar {
                        self.front.mask[c * nq + k].next = self.decoded_controls.q[5 * c].val();
                        self.front.shift[c * nq + k].next =
                            self.decoded_controls.q[5 * c + 1].val();
                        self.front.wrapped[c * nq + k].next =
                            self.decoded_controls.q[5 * c + 2].val();
                        self.front.step[c * nq + k].next = self.decoded_controls.q[5 * c + 3].val();
                        self.front.fill_from[c * nq + k].next =
                            self.decoded_controls.q[5 * c + 4].val();
                        for j in 0..6 {
                            self.front.kinds[j * nn + c * nq + k].next =
                                self.decoded_kinds.q[6 * c + j].val();
                        }
                        self.select.fill[c * nq + k].next = self.front_fill.q[c].val();
                    }
                }
            }
        }
        // The networks' one-hot selects, through the front stage (and between the networks).
        for k in 0..self._position_selects {
            self.front_positions.d[k].next = self.front.position_select[k].val();
            self.quads.position_select[k].next = self.front_positions.q[k].val();
        }
        for k in 0..self._source_selects {
            self.front_sources.d[k].next = self.front.lane_select[k].val();
            self.quads_source.d[k].next = self.front_sources.q[k].val();
            self.lane_muxes.lane_select[k].next = self.quads_source.q[k].val();
        }
        for nn in self._lanes..(self._lanes + 1) {
            for t in 0..self._lanes {
                // Input stage.
                self.arrived_operands.d[t].next = self.rs[t].val();
                self.arrived_operands.d[nn + t].next = self.rf[t].val();
                self.arrived_positions.d[t].next = self.xbar_pos[t].val();
                self.arrived_positions.d[nn + t].next = self.lane_xbar[t].val();
                self.arrived_capture.d[t].next = self.valid.val() & self.capture[t].val();
                // Control decode stage.
                self.decoded_operands.d[t].next = self.arrived_operands.q[t].val();
                self.decoded_operands.d[nn + t].next = self.arrived_operands.q[nn + t].val();
                self.decoded_positions.d[t].next = self.arrived_positions.q[t].val();
                self.decoded_positions.d[nn + t].next = self.arrived_positions.q[nn + t].val();
                self.decoded_capture.d[t].next = self.arrived_capture.q[t].val();
                self.front.xbar_pos[t].next = self.decoded_positions.q[t].val();
                self.front.lane_xbar[t].next = self.decoded_positions.q[nn + t].val();
                // Front stage: the decode's outputs with the operands.
                self.front_operands.d[t].next = self.decoded_operands.q[t].val();
                self.front_operands.d[nn + t].next = self.decoded_operands.q[nn + t].val();
                self.front_flags.d[t].next = self.front.take_fill[t].val();
                self.front_flags.d[nn + t].next = self.decoded_capture.q[t].val();
                // Register select and the quad crossbars.
                self.select.rs[t].next = self.front_operands.q[t].val();
                self.select.rf[t].next = self.front_operands.q[nn + t].val();
                self.select.take_fill[t].next = self.front_flags.q[t].val();
                self.quads.operand[t].next = self.select.out[t].val();
                // Between the networks.
                self.quads_gathered.d[t].next = self.quads.gathered[t].val();
                self.quads_capture.d[t].next = self.front_flags.q[nn + t].val();
                self.lane_muxes.gathered[t].next = self.quads_gathered.q[t].val();
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
