//! Per lane, the decoded pass into the register select's choice and both networks' selects.

use rust_hdl::prelude::*;

use super::control::KINDS;
use super::fills::fill_groups;
use super::select_decode::SelectDecode;
use crate::params::{FillCode, RouteParams};
use crate::parts::logic_in_parts;
use crate::signals::{constant, signals};

/// The router's per-lane decoder (combinational): from [`super::ControlDecode`]'s facts and
/// [`super::ShuffleDecode`]'s one-hot selects, the one-hot selects of both networks and each
/// input lane's choice for the register select, two or three gates deep.
///
/// [`SelectDecode`] turns the facts into the selects lanes share, in `_groups` copies (G), each
/// from its own copy of the facts and serving an equal share of the lanes (lane `t` the copy
/// `t div (N/G)`), so that no fact or shared select fans out to every lane across the device.
/// Lane `t = c*q + k` then takes
/// input position `i` of its crossbar when the shuffle pass says so or the shared `position[k*q
/// + i]` does, and crossbar `j` when the shuffle pass says so or `pair[c*(N/q) + j]`,
/// `offset[k*(N/q) + (j - c) mod (N/q)]` and `allowed[j]` all hold. Input lane `t` gives its
/// fill value when one of its fill bits is set; the fill code of its crossbar then says which
/// value: `rf` or a constant.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// The control decode's kinds, one copy per group of lanes (copy `g` from `g * KINDS`).
    pub kinds: Vec<Signal<In, Bit>>,
    /// The control decode's input positions per kind, one copy per group of lanes.
    pub positions: Vec<Signal<In, Bit>>,
    /// The control decode's distances per direction, one copy per group of lanes.
    pub offsets: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar matches, one copy per group of lanes.
    pub crossbar_match: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar pairs (once: each crossbar's serve its own lanes).
    pub pairs: Vec<Signal<In, Bit>>,
    /// The control decode's fill bits: `shff.left` at `t*G + g` (G groups of subset sizes),
    /// then `shff.right`.
    pub fills: Vec<Signal<In, Bit>>,
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
    /// The shared selects, one copy per group of lanes.
    selects: SelectDecode,
    fill_register: Constant<Bits<2>>,
    fill_zero: Constant<Bits<2>>,
    fill_ones: Constant<Bits<2>>,
    _lanes: usize,
    _fill_groups: usize,
    _crossbar: usize,
    _crossbars: usize,
    /// Copies of the facts and the shared selects (G).
    _groups: usize,
    /// N/G: the lanes each copy serves.
    _group_lanes: usize,
    /// The sizes of one copy of the facts: kinds, positions (4 q q), distances (2 q N/q) and
    /// pairs (2 (N/q)^2).
    _kinds: usize,
    _positions: usize,
    _offsets: usize,
    _pairs: usize,
}

impl RouteDecoder {
    /// The decoder for `params`, with `groups` copies of the facts (a divisor of N/q).
    pub fn new(params: &RouteParams, groups: usize) -> Self {
        let (n, g, q, c) = (
            params.lanes,
            fill_groups(params),
            params.crossbar,
            params.crossbars(),
        );
        Self {
            kinds: signals(groups * KINDS),
            positions: signals(groups * 4 * q * q),
            offsets: signals(groups * 2 * q * c),
            crossbar_match: signals(groups * c),
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
            selects: SelectDecode::new(params, groups),
            fill_register: constant(FillCode::Register as u64),
            fill_zero: constant(FillCode::Zero as u64),
            fill_ones: constant(FillCode::Ones as u64),
            _lanes: n,
            _fill_groups: g,
            _crossbar: q,
            _crossbars: c,
            _groups: groups,
            _group_lanes: n / groups,
            _kinds: KINDS,
            _positions: 4 * q * q,
            _offsets: 2 * q * c,
            _pairs: 2 * c * c,
        }
    }
}

impl Logic for RouteDecoder {
    logic_in_parts!(Facts, Lanes);
}

/// The facts into the shared selects.
enum Facts {}

/// Each lane's selects from its group's shared selects and the shuffle pass.
enum Lanes {}

impl crate::parts::Part<Facts> for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..(self._groups * self._kinds) {
            self.selects.kinds[k].next = self.kinds[k].val();
        }
        for k in 0..(self._groups * self._positions) {
            self.selects.positions[k].next = self.positions[k].val();
        }
        for k in 0..(self._groups * self._offsets) {
            self.selects.offsets[k].next = self.offsets[k].val();
        }
        for k in 0..self._pairs {
            self.selects.pairs[k].next = self.pairs[k].val();
        }
        for c in 0..(self._groups * self._crossbars) {
            self.selects.crossbar_match[c].next = self.crossbar_match[c].val();
        }
    }
}

// rustfmt would break the long index expressions across lines, which rust-hdl's writer leaves
// unevaluated (`docs/rust-hdl.md`, 27): this part keeps each index on one line.
#[rustfmt::skip]
impl crate::parts::Part<Lanes> for RouteDecoder {
    // Single-value loops bind G (`ng`), q (`nq`), N/q (`nc`), N G (`nf`), N/G (`nl`), q N/q
    // (`nz`) and q q (`nw`) for index arithmetic; lane `t` reads copy `t / nl` of the shared
    // selects.
    #[hdl_gen]
    fn update(&mut self) {
        for nf in (self._lanes * self._fill_groups)..(self._lanes * self._fill_groups + 1) {
        for ng in self._fill_groups..(self._fill_groups + 1) {
        for nq in self._crossbar..(self._crossbar + 1) {
        for nc in self._crossbars..(self._crossbars + 1) {
        for nl in self._group_lanes..(self._group_lanes + 1) {
        for nz in (self._crossbar * self._crossbars)..(self._crossbar * self._crossbars + 1) {
        for nw in (self._crossbar * self._crossbar)..(self._crossbar * self._crossbar + 1) {
            for t in 0..self._lanes {
                for i in 0..self._crossbar {
                    self.position_select[t * nq + i].next = self.shuffle_position[t * nq + i].val()
                        | self.selects.position[(t / nl) * nw + (t % nq) * nq + i].val();
                }
                for j in 0..self._crossbars {
                    self.lane_select[t * nc + j].next = self.shuffle_source[t * nc + j].val()
                        | (self.selects.pair[(t / nq) * nc + j].val()
                            & self.selects.offset[(t / nl) * nz + (t % nq) * nc + (j + nc - t / nq) % nc].val()
                            & self.selects.allowed[(t / nl) * nc + j].val());
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
        }
    }
}
