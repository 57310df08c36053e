//! Which input lanes a shift vacates, for every subset size.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};
use crate::route::widths::{LaneIndex, LaneMask, Log2Lanes, OpCode};
use crate::signals::{constant, signals};

/// Groups of subset sizes whose fill bits [`FillDecode`] ORs per lane and direction: the
/// lane decode ORs the rest, so the OR is split across the register after the control decode.
pub const FILL_GROUPS: usize = 2;

/// The fill bits per lane and direction for `params`: [`FILL_GROUPS`], at most one per size.
pub fn fill_groups(params: &RouteParams) -> usize {
    FILL_GROUPS.min(params.lane_bits())
}

/// The terms of the fill decode (combinational), from the pass's controls: the operation is
/// `shff.left` or `shff.right`, the subset size one-hot, and the amount's thermometer code. The
/// registered router registers them as the pass arrives, so that [`FillDecode`] starts from
/// them a cycle later.
#[derive(LogicBlock)]
pub struct FillTerms {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// The shift amount.
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Log2Lanes>,
    /// The operation is `shff.left`.
    pub left: Signal<Out, Bit>,
    /// The operation is `shff.right`.
    pub right: Signal<Out, Bit>,
    /// One-hot subset size: bit `e` for m = 2^(e+1).
    pub size: Vec<Signal<Out, Bit>>,
    /// Bit `v`: the amount exceeds `v`.
    pub above: Signal<Out, LaneMask>,
    /// The codes 1..log2(N)-1 of `mod_log2`.
    size_code: Vec<Constant<Log2Lanes>>,
    op_shff_left: Constant<OpCode>,
    op_shff_right: Constant<OpCode>,
    all_ones: Constant<LaneMask>,
    _lane_bits: usize,
}

impl FillTerms {
    /// The fill terms for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let l = params.lane_bits();
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            left: Signal::default(),
            right: Signal::default(),
            size: signals(l),
            above: Signal::default(),
            size_code: (1..l as u64).map(constant).collect(),
            op_shff_left: constant(RouteOpCode::ShffLeft as u64),
            op_shff_right: constant(RouteOpCode::ShffRight as u64),
            all_ones: constant(u64::MAX),
            _lane_bits: l,
        }
    }
}

impl Logic for FillTerms {
    // A single-value loop binds log2(N) (`nl`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.left.next = self.op.val() == self.op_shff_left.val();
        self.right.next = self.op.val() == self.op_shff_right.val();
        self.above.next = !(self.all_ones.val() << self.amount.val());
        for nl in self._lane_bits..(self._lane_bits + 1) {
            self.size[nl - 1].next = true;
            for e in 0..(self._lane_bits - 1) {
                self.size[e].next = self.mod_log2.val() == self.size_code[e].val();
                if self.size[e].val() {
                    self.size[nl - 1].next = false;
                }
            }
        }
    }
}

/// The fill decode (combinational), from [`FillTerms`]: for every input lane and every group of
/// subset sizes, whether a shift gives that lane's fill value instead of `rs`. With `i` the
/// lane's offset in its subset of `m` lanes and `s` the amount: `shff.left` fills `i < s` and
/// `shff.right` fills `m - 1 - i < s` (`i >= m - s`). Lane `t`'s offsets are constants per
/// subset size (`t mod m`, `(N - 1 - t) mod m`), so each size's bit is one bit of the amount's
/// thermometer code, gated by the size and the operation; a group's bit is their OR. Size `e`
/// (m = 2^(e+1)) is in group `e * G / log2(N)` of the G groups.
#[derive(LogicBlock)]
pub struct FillDecode {
    /// The operation is `shff.left`.
    pub left: Signal<In, Bit>,
    /// The operation is `shff.right`.
    pub right: Signal<In, Bit>,
    /// One-hot subset size: bit `e` for m = 2^(e+1).
    pub size: Vec<Signal<In, Bit>>,
    /// Bit `v`: the amount exceeds `v`.
    pub above: Signal<In, LaneMask>,
    /// Bit `t*G + g`: `shff.left` in subsets of a size of group `g` fills lane `t` (`0..N G`),
    /// then the same for `shff.right`.
    pub fills: Vec<Signal<Out, Bit>>,
    /// Every lane's offsets, one-hot: `t mod 2^(e+1)` at `t*log2(N) + e`, then
    /// `(N - 1 - t) mod 2^(e+1)` after the first N log2(N).
    offset: Vec<Constant<LaneMask>>,
    _lanes: usize,
    _lane_bits: usize,
    _groups: usize,
}

impl FillDecode {
    /// The fill decode for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let (n, l, g) = (params.lanes, params.lane_bits(), fill_groups(params));
        let offset = |from_top: bool| {
            (0..n).flat_map(move |t| {
                (1..=l).map(move |e| {
                    let lane = if from_top { n - 1 - t } else { t };
                    (lane % (1 << e)) as u64
                })
            })
        };
        Self {
            left: Signal::default(),
            right: Signal::default(),
            size: signals(l),
            above: Signal::default(),
            fills: signals(2 * n * g),
            offset: offset(false)
                .chain(offset(true))
                .map(|o| constant(1 << o))
                .collect(),
            _lanes: n,
            _lane_bits: l,
            _groups: g,
        }
    }
}

impl Logic for FillDecode {
    // Single-value loops bind N log2(N) (`nf`), log2(N) (`nl`), G (`ng`) and N G (`nb`) for
    // index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nf in (self._lanes * self._lane_bits)..(self._lanes * self._lane_bits + 1) {
            for nl in self._lane_bits..(self._lane_bits + 1) {
                for ng in self._groups..(self._groups + 1) {
                    for nb in (self._lanes * self._groups)..(self._lanes * self._groups + 1) {
                        for t in 0..self._lanes {
                            for g in 0..self._groups {
                                self.fills[t * ng + g].next = false;
                                self.fills[nb + t * ng + g].next = false;
                            }
                            for e in 0..self._lane_bits {
                                self.fills[t * ng + e * ng / nl].next = self.fills
                                    [t * ng + e * ng / nl]
                                    .val()
                                    | (self.left.val()
                                        & self.size[e].val()
                                        & (self.above.val() & self.offset[t * nl + e].val()).any());
                                self.fills[nb + t * ng + e * ng / nl].next = self.fills
                                    [nb + t * ng + e * ng / nl]
                                    .val()
                                    | (self.right.val()
                                        & self.size[e].val()
                                        & (self.above.val() & self.offset[nf + t * nl + e].val())
                                            .any());
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The fill decode in one piece (combinational), for the networks without registers:
/// [`FillTerms`] into [`FillDecode`].
#[derive(LogicBlock)]
pub struct Fills {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// The shift amount.
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Log2Lanes>,
    /// [`FillDecode::fills`].
    pub fills: Vec<Signal<Out, Bit>>,
    terms: FillTerms,
    decode: FillDecode,
    _lane_bits: usize,
    _fills: usize,
}

impl Fills {
    /// The fill decode for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let fills = 2 * params.lanes * fill_groups(params);
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fills: signals(fills),
            terms: FillTerms::new(params),
            decode: FillDecode::new(params),
            _lane_bits: params.lane_bits(),
            _fills: fills,
        }
    }
}

impl Logic for Fills {
    #[hdl_gen]
    fn update(&mut self) {
        self.terms.op.next = self.op.val();
        self.terms.amount.next = self.amount.val();
        self.terms.mod_log2.next = self.mod_log2.val();
        self.decode.left.next = self.terms.left.val();
        self.decode.right.next = self.terms.right.val();
        self.decode.above.next = self.terms.above.val();
        for e in 0..self._lane_bits {
            self.decode.size[e].next = self.terms.size[e].val();
        }
        for k in 0..self._fills {
            self.fills[k].next = self.decode.fills[k].val();
        }
    }
}
