//! The registered router: the network's three parts, optional pipeline registers between
//! them, and a result register that captures per lane.

use rust_hdl::prelude::*;

use crate::route::widths::{FillSource, LaneIndex, LaneMask, Log2Lanes, OpCode};
use crate::signals::signals;

use super::control::{ControlDecode, KINDS};
use super::decoder::RouteDecoder;
use super::fills::{fill_groups, FillDecode, FillTerms};
use super::register_select::RegisterSelect;
use super::shuffle::ShuffleDecode;
use super::stages::{LaneMuxes, QuadCrossbars};
use crate::cells::regs::Registers;
use crate::params::RouteParams;
use crate::parts::logic_in_parts;

/// Copies of the lane muxes' selects when they are registered between the networks, and of the
/// register select's `constant` and `upper` flags when they are registered after the lane
/// decode: each drives a quarter of every lane's bits (8 of 32), so that no select register
/// fans out to a whole lane across the device.
pub const SELECT_COPIES: usize = 4;

/// The shift-and-fill operand router as a pipeline stage between operand read and execute:
/// [`ControlDecode`], [`FillTerms`] and [`FillDecode`], [`ShuffleDecode`], [`RouteDecoder`],
/// [`RegisterSelect`], [`QuadCrossbars`] and [`LaneMuxes`], followed by a result register.
///
/// One pass per cycle: with `valid` high, every lane whose `capture` bit is high takes the
/// routed value; the other lanes keep theirs. One-pass operations are given with every
/// `capture` bit high; a multi-pass shuffle sets, in each pass, the lanes it completes, and its
/// result is whole after the last pass.
///
/// `pipeline` (0..=4) adds register stages, feed-forward, so a pass still issues every cycle:
/// 1 registers the lane decode's outputs (each lane's register choice, both networks' one-hot
/// selects) with the pass's operands, so that the register select and the quad crossbars
/// share the next cycle; 2 also the quad crossbars' outputs (between the two networks); 3 also
/// the control decode's vectors, the shuffle pass's one-hot selects and the fill code (a copy
/// per crossbar, kept apart in synthesis), with the pass's operands; 4 also the pass as it
/// arrives (its operation code once per crossbar and once for the control decode), and the fill
/// decode's terms ([`FillTerms`]: two levels of logic after the inputs). A pass given
/// in cycle `c` reaches `result` after the rising edge that ends cycle `c + pipeline`.
#[derive(LogicBlock)]
pub struct ShiftFillRouter<const E: usize> {
    /// Clock: stages and results advance on its rising edge.
    pub clock: Signal<In, Clock>,
    /// A pass happens this cycle.
    pub valid: Signal<In, Bit>,
    /// Per lane: take this pass's routed value.
    pub capture: Vec<Signal<In, Bit>>,
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Log2Lanes>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, FillSource>,
    /// Shuffle pass: input position crossbar `c` sends to its output `k`, at `c * q + k`.
    pub xbar_pos: Vec<Signal<In, LaneIndex>>,
    /// Shuffle pass: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, LaneIndex>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The result register, one element per lane (zero at power-up).
    pub result: Vec<Signal<Out, Bits<E>>>,
    /// Stage at the input: the operation code, a copy per crossbar (`0..N/q`) and one for the
    /// control decode (`N/q`).
    arrived_op: Registers<OpCode>,
    /// Stage at the input: the amount.
    arrived_amount: Registers<LaneIndex>,
    /// Stage at the input: log2 of the subset size.
    arrived_mod: Registers<Log2Lanes>,
    /// Stage at the input: the fill terms of the pass, `shff.left` (0), `shff.right` (1) and the
    /// one-hot subset size (from 2).
    arrived_fill_terms: Registers<Bit>,
    /// Stage at the input: the amount's thermometer code, for the fill decode.
    arrived_above: Registers<LaneMask>,
    /// Stage at the input: the fill code.
    arrived_fill: Registers<FillSource>,
    /// Stage at the input: `rs` (`0..N`), then `rf`.
    arrived_operands: Registers<Bits<E>>,
    /// Stage at the input: `xbar_pos` (`0..N`), then `lane_xbar`.
    arrived_positions: Registers<LaneIndex>,
    /// Stage at the input: the lanes that capture.
    arrived_capture: Registers<Bit>,
    control: ControlDecode,
    fill_terms: FillTerms,
    fills: FillDecode,
    shuffle: ShuffleDecode,
    /// Stage after the control decode: its kinds.
    decoded_kinds: Registers<Bit>,
    /// Stage after the control decode: its input positions.
    decoded_positions: Registers<Bit>,
    /// Stage after the control decode: its distances.
    decoded_offsets: Registers<Bit>,
    /// Stage after the control decode: its crossbar matches.
    decoded_matches: Registers<Bit>,
    /// Stage after the control decode: its crossbar pairs.
    decoded_pairs: Registers<Bit>,
    /// Stage after the control decode: the fill decode's bits.
    decoded_fills: Registers<Bit>,
    /// Stage after the control decode: the shuffle pass's one-hot positions (`0..N q`), then
    /// its one-hot crossbars.
    decoded_shuffle: Registers<Bit>,
    /// Stage after the control decode, one copy per crossbar: the fill code.
    decoded_fill: Registers<FillSource>,
    /// Stage after the control decode: `rs` (`0..N`), then `rf`.
    decoded_operands: Registers<Bits<E>>,
    /// Stage after the control decode: the lanes that capture.
    decoded_capture: Registers<Bit>,
    decoder: RouteDecoder,
    /// Stage after the lane decode: `rs` (`0..N`), then `rf`.
    front_operands: Registers<Bits<E>>,
    /// Stage after the lane decode: the quad crossbars' one-hot selects.
    front_positions: Registers<Bit>,
    /// Stage after the lane decode: the lane muxes' one-hot selects.
    front_sources: Registers<Bit>,
    /// Stage after the lane decode: the register select's `constant` and `upper`, each in
    /// `_flag_copies` copies (C) of one bit per lane (copy `m` of lane `t` at `m * N + t`, then
    /// `upper` from `C * N`), then per lane `lowest` (from `2 C N`) and the lanes that capture
    /// (from `2 C N + N`).
    front_flags: Registers<Bit>,
    select: RegisterSelect<E>,
    quads: QuadCrossbars<E>,
    /// Stage between the networks: the quad crossbars' outputs.
    quads_gathered: Registers<Bits<E>>,
    /// Stage between the networks: the lane muxes' one-hot selects, in `_select_copies` copies
    /// (copy `m` at `m * N * (N/q)`), each driving a share of every lane's bits.
    quads_source: Registers<Bit>,
    /// Stage between the networks: the lanes that capture.
    quads_capture: Registers<Bit>,
    lane_muxes: LaneMuxes<E>,
    held: Registers<Bits<E>>,
    _lanes: usize,
    /// log2 N: the subset sizes.
    _lane_bits: usize,
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
    /// Copies of the lane muxes' selects: [`SELECT_COPIES`] with the stage between the
    /// networks, else 1.
    _select_copies: usize,
    /// Copies of the register select's `constant` and `upper` flags: [`SELECT_COPIES`] with the
    /// stage after the lane decode, else 1.
    _flag_copies: usize,
}

impl<const E: usize> ShiftFillRouter<E> {
    /// The router for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        let (front, between) = (params.pipeline >= 1, params.pipeline >= 2);
        let fills = n * fill_groups(params);
        let select_copies = if between { SELECT_COPIES } else { 1 };
        let flag_copies = if front { SELECT_COPIES } else { 1 };
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
            arrived_op: Registers::copies(c + 1, arrived),
            arrived_amount: Registers::stage(1, arrived),
            arrived_mod: Registers::stage(1, arrived),
            arrived_fill_terms: Registers::stage(2 + params.lane_bits(), arrived),
            arrived_above: Registers::stage(1, arrived),
            arrived_fill: Registers::stage(1, arrived),
            arrived_operands: Registers::stage(2 * n, arrived),
            arrived_positions: Registers::stage(2 * n, arrived),
            arrived_capture: Registers::stage(n, arrived),
            control: ControlDecode::new(params),
            fill_terms: FillTerms::new(params),
            fills: FillDecode::new(params),
            shuffle: ShuffleDecode::new(params),
            decoded_kinds: Registers::stage(KINDS, decoded),
            decoded_positions: Registers::stage(4 * q * q, decoded),
            decoded_offsets: Registers::stage(2 * q * c, decoded),
            decoded_matches: Registers::stage(c, decoded),
            decoded_pairs: Registers::stage(2 * c * c, decoded),
            decoded_fills: Registers::stage(2 * fills, decoded),
            decoded_shuffle: Registers::stage(n * (q + c), decoded),
            decoded_fill: Registers::copies(c, decoded),
            decoded_operands: Registers::stage(2 * n, decoded),
            decoded_capture: Registers::stage(n, decoded),
            decoder: RouteDecoder::new(params),
            front_operands: Registers::stage(2 * n, front),
            front_positions: Registers::stage(n * q, front),
            front_sources: Registers::stage(n * c, front),
            front_flags: Registers::copies(2 * flag_copies * n + 2 * n, front),
            select: RegisterSelect::with_copies(n, flag_copies),
            quads: QuadCrossbars::new(params),
            quads_gathered: Registers::stage(n, between),
            quads_source: match between {
                true => Registers::copies(select_copies * n * c, true),
                false => Registers::stage(n * c, false),
            },
            quads_capture: Registers::stage(n, between),
            lane_muxes: LaneMuxes::with_copies(params, select_copies),
            held: Registers::new(n),
            _lanes: n,
            _lane_bits: params.lane_bits(),
            _crossbars: c,
            _positions: 4 * q * q,
            _offsets: 2 * q * c,
            _pairs: 2 * c * c,
            _fills: 2 * fills,
            _position_selects: n * q,
            _source_selects: n * c,
            _select_copies: select_copies,
            _flag_copies: flag_copies,
        }
    }
}

/// The stages' clocks and the pass's scalar controls: the operation code, the fill decode's terms.
enum Controls {}

/// The control decode's facts and the networks' one-hot selects, through the stages after each decode.
enum Selects {}

impl<const E: usize> Logic for ShiftFillRouter<E> {
    logic_in_parts!(Controls, Selects);
}

impl<const E: usize> crate::parts::Part<Controls> for ShiftFillRouter<E> {
    // Single-value loops bind N (`nn`), N/q (`nc`), N q (`np`) and N times the flag copies (`nf`)
    // for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.arrived_op.clock.next = self.clock.val();
        self.arrived_amount.clock.next = self.clock.val();
        self.arrived_mod.clock.next = self.clock.val();
        self.arrived_fill_terms.clock.next = self.clock.val();
        self.arrived_above.clock.next = self.clock.val();
        self.arrived_fill.clock.next = self.clock.val();
        self.arrived_operands.clock.next = self.clock.val();
        self.arrived_positions.clock.next = self.clock.val();
        self.arrived_capture.clock.next = self.clock.val();
        self.decoded_kinds.clock.next = self.clock.val();
        self.decoded_positions.clock.next = self.clock.val();
        self.decoded_offsets.clock.next = self.clock.val();
        self.decoded_matches.clock.next = self.clock.val();
        self.decoded_pairs.clock.next = self.clock.val();
        self.decoded_fills.clock.next = self.clock.val();
        self.decoded_shuffle.clock.next = self.clock.val();
        self.decoded_fill.clock.next = self.clock.val();
        self.decoded_operands.clock.next = self.clock.val();
        self.decoded_capture.clock.next = self.clock.val();
        self.front_operands.clock.next = self.clock.val();
        self.front_positions.clock.next = self.clock.val();
        self.front_sources.clock.next = self.clock.val();
        self.front_flags.clock.next = self.clock.val();
        self.quads_gathered.clock.next = self.clock.val();
        self.quads_source.clock.next = self.clock.val();
        self.quads_capture.clock.next = self.clock.val();
        self.held.clock.next = self.clock.val();
        // The pass's scalar controls: the control decode's own copy of the operation code, and
        // one per crossbar; the fill decode's terms, decoded as the pass arrives.
        for nc in self._crossbars..(self._crossbars + 1) {
            self.arrived_op.d[nc].next = self.op.val();
            self.control.op.next = self.arrived_op.q[nc].val();
        }
        self.arrived_amount.d[0].next = self.amount.val();
        self.arrived_mod.d[0].next = self.mod_log2.val();
        self.arrived_fill.d[0].next = self.fill.val();
        self.control.amount.next = self.arrived_amount.q[0].val();
        self.control.mod_log2.next = self.arrived_mod.q[0].val();
        self.fill_terms.op.next = self.op.val();
        self.fill_terms.amount.next = self.amount.val();
        self.fill_terms.mod_log2.next = self.mod_log2.val();
        self.arrived_fill_terms.d[0].next = self.fill_terms.left.val();
        self.arrived_fill_terms.d[1].next = self.fill_terms.right.val();
        self.arrived_above.d[0].next = self.fill_terms.above.val();
        self.fills.left.next = self.arrived_fill_terms.q[0].val();
        self.fills.right.next = self.arrived_fill_terms.q[1].val();
        self.fills.above.next = self.arrived_above.q[0].val();
        for e in 0..self._lane_bits {
            self.arrived_fill_terms.d[e + 2].next = self.fill_terms.size[e].val();
            self.fills.size[e].next = self.arrived_fill_terms.q[e + 2].val();
        }
        for c in 0..self._crossbars {
            self.arrived_op.d[c].next = self.op.val();
            self.shuffle.op[c].next = self.arrived_op.q[c].val();
            self.decoded_fill.d[c].next = self.arrived_fill.q[0].val();
            self.decoder.fill[c].next = self.decoded_fill.q[c].val();
            self.decoded_matches.d[c].next = self.control.crossbar_match[c].val();
            self.decoder.crossbar_match[c].next = self.decoded_matches.q[c].val();
        }
    }
}

impl<const E: usize> crate::parts::Part<Selects> for ShiftFillRouter<E> {
    #[hdl_gen]
    fn update(&mut self) {
        // The control decode's facts, through the stage after it.
        for k in 0..KINDS {
            self.decoded_kinds.d[k].next = self.control.kinds[k].val();
            self.decoder.kinds[k].next = self.decoded_kinds.q[k].val();
        }
        for k in 0..self._positions {
            self.decoded_positions.d[k].next = self.control.positions[k].val();
            self.decoder.positions[k].next = self.decoded_positions.q[k].val();
        }
        for k in 0..self._offsets {
            self.decoded_offsets.d[k].next = self.control.offsets[k].val();
            self.decoder.offsets[k].next = self.decoded_offsets.q[k].val();
        }
        for k in 0..self._pairs {
            self.decoded_pairs.d[k].next = self.control.pairs[k].val();
            self.decoder.pairs[k].next = self.decoded_pairs.q[k].val();
        }
        for k in 0..self._fills {
            self.decoded_fills.d[k].next = self.fills.fills[k].val();
            self.decoder.fills[k].next = self.decoded_fills.q[k].val();
        }
        // The networks' one-hot selects, through the stages after each decode.
        for np in self._position_selects..(self._position_selects + 1) {
            for k in 0..self._position_selects {
                self.decoded_shuffle.d[k].next = self.shuffle.position[k].val();
                self.decoder.shuffle_position[k].next = self.decoded_shuffle.q[k].val();
                self.front_positions.d[k].next = self.decoder.position_select[k].val();
                self.quads.position_select[k].next = self.front_positions.q[k].val();
            }
            for ns in self._source_selects..(self._source_selects + 1) {
                for k in 0..self._source_selects {
                    self.decoded_shuffle.d[np + k].next = self.shuffle.source[k].val();
                    self.decoder.shuffle_source[k].next = self.decoded_shuffle.q[np + k].val();
                    self.front_sources.d[k].next = self.decoder.lane_select[k].val();
                    for m in 0..self._select_copies {
                        self.quads_source.d[m * ns + k].next = self.front_sources.q[k].val();
                        self.lane_muxes.lane_select[m * ns + k].next =
                            self.quads_source.q[m * ns + k].val();
                    }
                }
            }
        }
        for nf in (self._flag_copies * self._lanes)..(self._flag_copies * self._lanes + 1) {
            for nn in self._lanes..(self._lanes + 1) {
                for t in 0..self._lanes {
                    self.arrived_operands.d[t].next = self.rs[t].val();
                    self.arrived_operands.d[nn + t].next = self.rf[t].val();
                    self.arrived_positions.d[t].next = self.xbar_pos[t].val();
                    self.arrived_positions.d[nn + t].next = self.lane_xbar[t].val();
                    self.arrived_capture.d[t].next = self.valid.val() & self.capture[t].val();
                    self.shuffle.xbar_pos[t].next = self.arrived_positions.q[t].val();
                    self.shuffle.lane_xbar[t].next = self.arrived_positions.q[nn + t].val();
                    self.decoded_operands.d[t].next = self.arrived_operands.q[t].val();
                    self.decoded_operands.d[nn + t].next = self.arrived_operands.q[nn + t].val();
                    self.decoded_capture.d[t].next = self.arrived_capture.q[t].val();
                    self.front_operands.d[t].next = self.decoded_operands.q[t].val();
                    self.front_operands.d[nn + t].next = self.decoded_operands.q[nn + t].val();
                    for m in 0..self._flag_copies {
                        self.front_flags.d[m * nn + t].next = self.decoder.constant[t].val();
                        self.front_flags.d[nf + m * nn + t].next = self.decoder.upper[t].val();
                        self.select.constant[m * nn + t].next =
                            self.front_flags.q[m * nn + t].val();
                        self.select.upper[m * nn + t].next =
                            self.front_flags.q[nf + m * nn + t].val();
                    }
                    self.front_flags.d[2 * nf + t].next = self.decoder.lowest[t].val();
                    self.front_flags.d[2 * nf + nn + t].next = self.decoded_capture.q[t].val();
                    self.select.rs[t].next = self.front_operands.q[t].val();
                    self.select.rf[t].next = self.front_operands.q[nn + t].val();
                    self.select.lowest[t].next = self.front_flags.q[2 * nf + t].val();
                    self.quads.operand[t].next = self.select.out[t].val();
                    self.quads_gathered.d[t].next = self.quads.gathered[t].val();
                    self.quads_capture.d[t].next = self.front_flags.q[2 * nf + nn + t].val();
                    self.lane_muxes.gathered[t].next = self.quads_gathered.q[t].val();
                    self.held.d[t].next = self.held.q[t].val();
                    if self.quads_capture.q[t].val() {
                        self.held.d[t].next = self.lane_muxes.routed[t].val();
                    }
                    self.result[t].next = self.held.q[t].val();
                }
            }
        }
    }
}
