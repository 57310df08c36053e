//! Per lane, the decoded pass into the register select's choice and both networks' selects.

use rust_hdl::prelude::*;

use super::control::KINDS;
use super::fills::fill_groups;
use super::select_decode::SelectDecode;
use crate::params::{FillCode, RouteParams};
use crate::route::widths::FillSource;
use crate::signals::{constant, signals};

/// The router's per-lane decoder (combinational): from [`super::ControlDecode`]'s facts and
/// [`super::ShuffleDecode`]'s one-hot selects, the one-hot selects of both networks and each
/// input lane's choice for the register select, two or three gates deep.
///
/// [`SelectDecode`] turns the facts into the selects lanes share. Lane `t = c*q + k` then takes
/// input position `i` of its crossbar when the shuffle pass says so or the shared `position[k*q
/// + i]` does, and crossbar `j` when the shuffle pass says so or `pair[c*(N/q) + j]`,
/// `offset[k*(N/q) + (j - c) mod (N/q)]` and `allowed[j]` all hold. Input lane `t` gives its
/// fill value when one of its fill bits is set; the fill code of its crossbar then says which
/// value: `rf` or a constant.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// The control decode's kinds.
    pub kinds: Vec<Signal<In, Bit>>,
    /// The control decode's input positions per kind.
    pub positions: Vec<Signal<In, Bit>>,
    /// The control decode's distances per direction.
    pub offsets: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar matches.
    pub crossbar_match: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar pairs.
    pub pairs: Vec<Signal<In, Bit>>,
    /// The control decode's fill bits: `shff.left` at `t*G + g` (G groups of subset sizes),
    /// then `shff.right`.
    pub fills: Vec<Signal<In, Bit>>,
    /// The shuffle pass's input positions, one-hot at `t*q + i`.
    pub shuffle_position: Vec<Signal<In, Bit>>,
    /// The shuffle pass's crossbars, one-hot at `t*(N/q) + j`.
    pub shuffle_source: Vec<Signal<In, Bit>>,
    /// Per crossbar: what fills its lanes (`FillCode`).
    pub fill: Vec<Signal<In, FillSource>>,
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
    selects: SelectDecode,
    fill_register: Constant<FillSource>,
    fill_zero: Constant<FillSource>,
    fill_ones: Constant<FillSource>,
    _lanes: usize,
    _fill_groups: usize,
    _crossbar: usize,
    _crossbars: usize,
}

impl RouteDecoder {
    /// The decoder for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (n, g, q, c) = (
            params.lanes,
            fill_groups(params),
            params.crossbar,
            params.crossbars(),
        );
        Self {
            kinds: signals(KINDS),
            positions: signals(4 * q * q),
            offsets: signals(2 * q * c),
            crossbar_match: signals(c),
            pairs: signals(2 * c * c),
            fills: signals(2 * n * g),
            shuffle_position: signals(n * q),
            shuffle_source: signals(n * c),
            fill: signals(c),
            position_select: signals(n * q),
            lane_select: signals(n * c),
            constant: signals(n),
            upper: signals(n),
            lowest: signals(n),
            take_fill: signals(n),
            selects: SelectDecode::new(params),
            fill_register: constant(FillCode::Register as u64),
            fill_zero: constant(FillCode::Zero as u64),
            fill_ones: constant(FillCode::Ones as u64),
            _lanes: n,
            _fill_groups: g,
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl Logic for RouteDecoder {
    // Single-value loops bind G (`ng`), q (`nq`), N/q (`nc`) and N G (`nf`) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..KINDS {
            self.selects.kinds[k].next = self.kinds[k].val();
        }
        for k in 0..(4 * self._crossbar * self._crossbar) {
            self.selects.positions[k].next = self.positions[k].val();
        }
        for k in 0..(2 * self._crossbar * self._crossbars) {
            self.selects.offsets[k].next = self.offsets[k].val();
        }
        for k in 0..(2 * self._crossbars * self._crossbars) {
            self.selects.pairs[k].next = self.pairs[k].val();
        }
        for c in 0..self._crossbars {
            self.selects.crossbar_match[c].next = self.crossbar_match[c].val();
        }
        for nf in (self._lanes * self._fill_groups)..(self._lanes * self._fill_groups + 1) {
            for ng in self._fill_groups..(self._fill_groups + 1) {
                for nq in self._crossbar..(self._crossbar + 1) {
                    for nc in self._crossbars..(self._crossbars + 1) {
                        for t in 0..self._lanes {
                            for i in 0..self._crossbar {
                                self.position_select[t * nq + i].next =
                                    self.shuffle_position[t * nq + i].val()
                                        | self.selects.position[(t % nq) * nq + i].val();
                            }
                            for j in 0..self._crossbars {
                                self.lane_select[t * nc + j].next = self.shuffle_source[t * nc + j]
                                    .val()
                                    | (self.selects.pair[(t / nq) * nc + j].val()
                                        & self.selects.offset
                                            [(t % nq) * nc + (j + nc - t / nq) % nc]
                                            .val()
                                        & self.selects.allowed[j].val());
                            }
                            self.take_fill[t].next = false;
                            for g in 0..self._fill_groups {
                                self.take_fill[t].next = self.take_fill[t].val()
                                    | self.fills[t * ng + g].val()
                                    | self.fills[nf + t * ng + g].val();
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
}
