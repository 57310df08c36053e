//! Decodes one pass's controls into per-lane routing: the source lane of every output lane
//! and whether every input lane contributes its fill value instead of `rs`.

use rust_hdl::prelude::*;

use crate::params::RouteParams;
use crate::signals;

/// The router's per-lane decoder (combinational), from the controls of
/// [`super::ControlDecode`], given to every lane separately (so that the registered router can
/// drive each group of lanes from a copy of its own). Fields of width 7 hold lane indices and
/// amounts (N <= 64, amounts up to 64).
///
/// For output lane `t` in the subset of `m` lanes starting at `b`, with `i = t - b` and `s` the
/// amount clamped to `m`: `shff.left` reads lane `b + (i + s) mod m`, `shff.right` lane
/// `b + (i - s) mod m`, rotates the same with the amount taken mod `m`, `broadcast` lane
/// `b + amount mod m`, `butterfly` lane `t xor (amount mod m)`. Input lane `j` (offset `i` in
/// its subset) gives its fill value instead of `rs` for `shff.left` when `i < s` and for
/// `shff.right` when `i >= m - s`: exactly the lanes whose values land in vacated positions.
/// The control decode gives the amount to add (`step`, negated for the right ones) and `m - s`,
/// so a lane adds once and compares twice.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// Per lane: m - 1.
    pub mask: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount clamped to m (a left shift fills the offsets below it).
    pub shift: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount mod m (broadcast, butterfly).
    pub wrapped: Vec<Signal<In, Bits<7>>>,
    /// Per lane: what a shift or rotate adds to the offset.
    pub step: Vec<Signal<In, Bits<7>>>,
    /// Per lane: m - shift (a right shift fills the offsets from it up).
    pub fill_from: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the operation is a shift or rotate.
    pub adds: Vec<Signal<In, Bit>>,
    /// Per lane: the operation is `broadcast`.
    pub broadcast: Vec<Signal<In, Bit>>,
    /// Per lane: the operation is `butterfly`.
    pub butterfly: Vec<Signal<In, Bit>>,
    /// Per lane: the operation is `shff.left`.
    pub fills_low: Vec<Signal<In, Bit>>,
    /// Per lane: the operation is `shff.right`.
    pub fills_high: Vec<Signal<In, Bit>>,
    /// Source lane of every output lane (identity for shuffle passes).
    pub src: Vec<Signal<Out, Bits<7>>>,
    /// Whether every input lane gives its fill value instead of `rs`.
    pub take_fill: Vec<Signal<Out, Bit>>,
    /// Each lane's offset in its subset.
    offset: Vec<Signal<Local, Bits<7>>>,
    /// Each lane's subset base.
    base: Vec<Signal<Local, Bits<7>>>,
    /// Lane numbers 0..N-1.
    lane_id: Vec<Constant<Bits<7>>>,
    _lanes: usize,
}

impl RouteDecoder {
    /// The decoder for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            mask: signals(n),
            shift: signals(n),
            wrapped: signals(n),
            step: signals(n),
            fill_from: signals(n),
            adds: signals(n),
            broadcast: signals(n),
            butterfly: signals(n),
            fills_low: signals(n),
            fills_high: signals(n),
            src: signals(n),
            take_fill: signals(n),
            offset: signals(n),
            base: signals(n),
            lane_id: (0..n as u64).map(|t| Constant::new(t.into())).collect(),
            _lanes: n,
        }
    }
}

impl Logic for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..self._lanes {
            self.offset[t].next = self.lane_id[t].val() & self.mask[t].val();
            self.base[t].next = self.lane_id[t].val() & !self.mask[t].val();
            self.src[t].next = self.lane_id[t].val();
            if self.adds[t].val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() + self.step[t].val()) & self.mask[t].val());
            }
            if self.broadcast[t].val() {
                self.src[t].next = self.base[t].val() | self.wrapped[t].val();
            }
            if self.butterfly[t].val() {
                self.src[t].next = self.lane_id[t].val() ^ self.wrapped[t].val();
            }
            self.take_fill[t].next = (self.fills_low[t].val()
                & (self.offset[t].val() < self.shift[t].val()))
                | (self.fills_high[t].val() & (self.offset[t].val() >= self.fill_from[t].val()));
        }
    }
}
