//! The control decode's facts combined into the selects every lane shares.

use rust_hdl::prelude::*;

use super::control::KINDS;
use crate::params::RouteParams;
use crate::signals::{constant, signals};

/// From [`super::ControlDecode`]'s facts, the selects of a one-pass operation that lanes share
/// (combinational, one or two gates each): each crossbar output's input position, the
/// distances and crossbar pairs a lane may take, and the crossbars that may be read. The kind
/// of operation picks among the facts; a pass that leaves every lane its own value takes
/// position `k` at output `k` and its own crossbar. A shuffle pass sets no position and no pair.
///
/// The decode comes in `_groups` copies (G), each from its own copy of the facts and serving an
/// equal share of the crossbars: every input and output below but the pairs is G copies of the
/// vector described, copy `g` from `g` times its size (flat, since a vector of sub-blocks has
/// scalar ports only: `docs/rust-hdl.md`, 15). A crossbar's pairs serve its own lanes only, so
/// they come once, each crossbar's decoded with its group's kinds.
#[derive(LogicBlock)]
pub struct SelectDecode {
    /// The control decode's kinds: adds, subtracts, leaves, `broadcast`, `butterfly`.
    pub kinds: Vec<Signal<In, Bit>>,
    /// The control decode's input positions per kind.
    pub positions: Vec<Signal<In, Bit>>,
    /// The control decode's distances per direction.
    pub offsets: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar matches.
    pub crossbar_match: Vec<Signal<In, Bit>>,
    /// The control decode's crossbar pairs: same subset, then the `butterfly` pairs.
    pub pairs: Vec<Signal<In, Bit>>,
    /// One-hot: output `k` of every crossbar takes its input `i` when bit `k*q + i` is set.
    pub position: Vec<Signal<Out, Bit>>,
    /// Bit `k*(N/q) + d`: a lane at output `k` may take the crossbar `d` places on.
    pub offset: Vec<Signal<Out, Bit>>,
    /// Bit `c*(N/q) + j`: a lane of crossbar `c` may take crossbar `j`.
    pub pair: Vec<Signal<Out, Bit>>,
    /// Bit `j`: crossbar `j` may be read.
    pub allowed: Vec<Signal<Out, Bit>>,
    /// The numbers 0..max(q, N/q)-1.
    index: Vec<Constant<Bits<7>>>,
    _crossbar: usize,
    _crossbars: usize,
    /// Copies of the decode (G, a divisor of N/q).
    _groups: usize,
    /// N/(q G): the crossbars each copy serves.
    _group_crossbars: usize,
    /// The control decode's kinds.
    _kinds: usize,
}

impl SelectDecode {
    /// The selects for `params`, in `groups` copies.
    pub fn new(params: &RouteParams, groups: usize) -> Self {
        let (q, c, g) = (params.crossbar, params.crossbars(), groups);
        Self {
            kinds: signals(g * KINDS),
            positions: signals(g * 4 * q * q),
            offsets: signals(g * 2 * q * c),
            crossbar_match: signals(g * c),
            pairs: signals(2 * c * c),
            position: signals(g * q * q),
            offset: signals(g * q * c),
            pair: signals(c * c),
            allowed: signals(g * c),
            index: (0..q.max(c) as u64).map(constant).collect(),
            _crossbar: q,
            _crossbars: c,
            _groups: g,
            _group_crossbars: c / g,
            _kinds: KINDS,
        }
    }
}

impl Logic for SelectDecode {
    // Single-value loops bind q (`nq`), N/q (`nc`) and the kinds (`nk`) for index arithmetic;
    // `g` is the copy. Kinds: 0 adds, 1 subtracts, 2 leaves, 3 `broadcast`, 4 `butterfly`.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for nk in self._kinds..(self._kinds + 1) {
                    for g in 0..self._groups {
                        for k in 0..self._crossbar {
                            for i in 0..self._crossbar {
                                self.position[g * nq * nq + k * nq + i].next = (self.kinds
                                    [g * nk + 2]
                                    .val()
                                    & (self.index[k].val() == self.index[i].val()))
                                    | (self.kinds[g * nk].val()
                                        & self.positions[4 * g * nq * nq + k * nq + i].val())
                                    | (self.kinds[g * nk + 1].val()
                                        & self.positions[4 * g * nq * nq + nq * nq + k * nq + i]
                                            .val())
                                    | (self.kinds[g * nk + 3].val()
                                        & self.positions
                                            [4 * g * nq * nq + 2 * nq * nq + k * nq + i]
                                            .val())
                                    | (self.kinds[g * nk + 4].val()
                                        & self.positions
                                            [4 * g * nq * nq + 3 * nq * nq + k * nq + i]
                                            .val());
                            }
                            for d in 0..self._crossbars {
                                self.offset[g * nq * nc + k * nc + d].next =
                                    !(self.kinds[g * nk].val() | self.kinds[g * nk + 1].val())
                                        | (self.kinds[g * nk].val()
                                            & self.offsets[2 * g * nq * nc + k * nc + d].val())
                                        | (self.kinds[g * nk + 1].val()
                                            & self.offsets[2 * g * nq * nc + nq * nc + k * nc + d]
                                                .val());
                            }
                        }
                        for c in 0..self._crossbars {
                            self.allowed[g * nc + c].next = !self.kinds[g * nk + 3].val()
                                | self.crossbar_match[g * nc + c].val();
                        }
                    }
                    // Crossbar `c`'s pairs, with the kinds of the copy that serves it.
                    for nb in self._group_crossbars..(self._group_crossbars + 1) {
                        for c in 0..self._crossbars {
                            for j in 0..self._crossbars {
                                self.pair[c * nc + j].next = self.pairs[c * nc + j].val();
                                if self.kinds[(c / nb) * nk + 4].val() {
                                    self.pair[c * nc + j].next = self.pairs[c * nc + j].val()
                                        & self.pairs[nc * nc + c * nc + j].val();
                                }
                                if self.kinds[(c / nb) * nk + 2].val() {
                                    self.pair[c * nc + j].next =
                                        self.index[c].val() == self.index[j].val();
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
