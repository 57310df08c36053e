//! Per lane, the decoded pass into the register select's choice and both networks' selects.

use rust_hdl::prelude::*;

use crate::params::{FillCode, RouteParams};
use crate::{constant, signals};

/// The router's per-lane decoder (combinational): from [`super::ControlDecode`]'s vectors and
/// [`super::ShuffleDecode`]'s one-hot selects, the one-hot selects of both networks and each
/// input lane's choice for the register select, one or two gates deep per lane.
///
/// Lane `t = c*q + k` takes input position `i` of its crossbar when the shuffle pass says so or
/// the control decode's `position[k*q + i]` does, and crossbar `j` when the shuffle pass says
/// so or `pair[c*(N/q) + j]`, `offset[k*(N/q) + (j - c) mod (N/q)]` and `allowed[j]` all hold.
/// Input lane `t` gives its fill value when any of its `fill_low` or `fill_high` bits is set;
/// the fill code of its crossbar then says which value: `rf` or a constant.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// The control decode's input positions: output `k` takes input `i` at `k*q + i`.
    pub position: Vec<Signal<In, Bit>>,
    /// The control decode's distances: bit `k*(N/q) + d` lets output `k` take the crossbar `d`
    /// places on.
    pub offset: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar pairs: bit `c*(N/q) + j` lets crossbar `c`'s lanes take
    /// crossbar `j`.
    pub pair: Vec<Signal<In, Bit>>,
    /// The control decode's readable crossbars.
    pub allowed: Vec<Signal<In, Bit>>,
    /// The control decode's left-shift fills, bit `t*log2(N) + e`.
    pub fill_low: Vec<Signal<In, Bit>>,
    /// The control decode's right-shift fills, bit `t*log2(N) + e`.
    pub fill_high: Vec<Signal<In, Bit>>,
    /// The shuffle pass's input positions, one-hot at `t*q + i`.
    pub shuffle_position: Vec<Signal<In, Bit>>,
    /// The shuffle pass's crossbars, one-hot at `t*(N/q) + j`.
    pub shuffle_source: Vec<Signal<In, Bit>>,
    /// Per crossbar: what fills its lanes (`FillCode`).
    pub fill: Vec<Signal<In, Bits<2>>>,
    /// One-hot: output `k` of crossbar `c` takes input `i` when bit `(c*q + k)*q + i` is set.
    pub position_select: Vec<Signal<Out, Bit>>,
    /// One-hot: lane `t` takes its value from crossbar `j` when bit `t*(N/q) + j` is set.
    pub lane_select: Vec<Signal<Out, Bit>>,
    /// Per input lane: it gives a constant (0, 1 or all ones), not a register.
    pub constant: Vec<Signal<Out, Bit>>,
    /// Per input lane, bits 1 and up: the constant's bit, else `rf` (set) or `rs` (clear).
    pub upper: Vec<Signal<Out, Bit>>,
    /// Per input lane, bit 0: the constant's bit, else `rf` (set) or `rs` (clear).
    pub lowest: Vec<Signal<Out, Bit>>,
    /// Per input lane: it gives its fill value.
    take_fill: Vec<Signal<Local, Bit>>,
    fill_register: Constant<Bits<2>>,
    fill_zero: Constant<Bits<2>>,
    fill_ones: Constant<Bits<2>>,
    _lanes: usize,
    _lane_bits: usize,
    _crossbar: usize,
    _crossbars: usize,
}

impl RouteDecoder {
    /// The decoder for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (n, l, q, c) = (
            params.lanes,
            params.lane_bits(),
            params.crossbar,
            params.crossbars(),
        );
        Self {
            position: signals(q * q),
            offset: signals(q * c),
            pair: signals(c * c),
            allowed: signals(c),
            fill_low: signals(n * l),
            fill_high: signals(n * l),
            shuffle_position: signals(n * q),
            shuffle_source: signals(n * c),
            fill: signals(c),
            position_select: signals(n * q),
            lane_select: signals(n * c),
            constant: signals(n),
            upper: signals(n),
            lowest: signals(n),
            take_fill: signals(n),
            fill_register: constant(FillCode::Register as u64),
            fill_zero: constant(FillCode::Zero as u64),
            fill_ones: constant(FillCode::Ones as u64),
            _lanes: n,
            _lane_bits: l,
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl Logic for RouteDecoder {
    // Single-value loops bind log2 N (`nl`), q (`nq`) and N/q (`nc`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lane_bits..(self._lane_bits + 1) {
            for nq in self._crossbar..(self._crossbar + 1) {
                for nc in self._crossbars..(self._crossbars + 1) {
                    for t in 0..self._lanes {
                        for i in 0..self._crossbar {
                            self.position_select[t * nq + i].next =
                                self.shuffle_position[t * nq + i].val()
                                    | self.position[(t % nq) * nq + i].val();
                        }
                        for j in 0..self._crossbars {
                            self.lane_select[t * nc + j].next = self.shuffle_source[t * nc + j]
                                .val()
                                | (self.pair[(t / nq) * nc + j].val()
                                    & self.offset[(t % nq) * nc + (j + nc - t / nq) % nc].val()
                                    & self.allowed[j].val());
                        }
                        self.take_fill[t].next = false;
                        for e in 0..self._lane_bits {
                            self.take_fill[t].next = self.take_fill[t].val()
                                | self.fill_low[t * nl + e].val()
                                | self.fill_high[t * nl + e].val();
                        }
                        self.constant[t].next = self.take_fill[t].val()
                            & (self.fill[t / nq].val() != self.fill_register.val());
                        self.upper[t].next = self.take_fill[t].val()
                            & ((self.fill[t / nq].val() == self.fill_register.val())
                                | (self.fill[t / nq].val() == self.fill_ones.val()));
                        self.lowest[t].next = self.take_fill[t].val()
                            & (self.fill[t / nq].val() != self.fill_zero.val());
                    }
                }
            }
        }
    }
}
