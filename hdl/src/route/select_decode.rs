//! The control decode's facts combined into the selects every lane shares.

use rust_hdl::prelude::*;

use crate::params::RouteParams;
use crate::route::widths::LaneIndex;
use crate::signals::{constant, signals};

/// From [`super::ControlDecode`]'s facts, the selects of a one-pass operation that lanes share
/// (combinational, one or two gates each): each crossbar output's input position, the
/// distances and crossbar pairs a lane may take, and the crossbars that may be read. The kind
/// of operation picks among the facts; a pass that leaves every lane its own value takes
/// position `k` at output `k` and its own crossbar. A shuffle pass sets no position and no pair.
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
    index: Vec<Constant<LaneIndex>>,
    _crossbar: usize,
    _crossbars: usize,
}

impl SelectDecode {
    /// The selects for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (q, c) = (params.crossbar, params.crossbars());
        Self {
            kinds: signals(super::control::KINDS),
            positions: signals(4 * q * q),
            offsets: signals(2 * q * c),
            crossbar_match: signals(c),
            pairs: signals(2 * c * c),
            position: signals(q * q),
            offset: signals(q * c),
            pair: signals(c * c),
            allowed: signals(c),
            index: (0..q.max(c) as u64).map(constant).collect(),
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl Logic for SelectDecode {
    // Single-value loops bind q (`nq`) and N/q (`nc`) for index arithmetic. Kinds: 0 adds, 1
    // subtracts, 2 leaves, 3 `broadcast`, 4 `butterfly`.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for k in 0..self._crossbar {
                    for i in 0..self._crossbar {
                        self.position[k * nq + i].next = (self.kinds[2].val()
                            & (self.index[k].val() == self.index[i].val()))
                            | (self.kinds[0].val() & self.positions[k * nq + i].val())
                            | (self.kinds[1].val() & self.positions[nq * nq + k * nq + i].val())
                            | (self.kinds[3].val()
                                & self.positions[2 * nq * nq + k * nq + i].val())
                            | (self.kinds[4].val()
                                & self.positions[3 * nq * nq + k * nq + i].val());
                    }
                    for d in 0..self._crossbars {
                        self.offset[k * nc + d].next = !(self.kinds[0].val() | self.kinds[1].val())
                            | (self.kinds[0].val() & self.offsets[k * nc + d].val())
                            | (self.kinds[1].val() & self.offsets[nq * nc + k * nc + d].val());
                    }
                }
                for c in 0..self._crossbars {
                    self.allowed[c].next = !self.kinds[3].val() | self.crossbar_match[c].val();
                    for j in 0..self._crossbars {
                        self.pair[c * nc + j].next = self.pairs[c * nc + j].val();
                        if self.kinds[4].val() {
                            self.pair[c * nc + j].next = self.pairs[c * nc + j].val()
                                & self.pairs[nc * nc + c * nc + j].val();
                        }
                        if self.kinds[2].val() {
                            self.pair[c * nc + j].next = self.index[c].val() == self.index[j].val();
                        }
                    }
                }
            }
        }
    }
}
