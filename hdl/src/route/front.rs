//! The router's per-lane stage: lane decode and the controls of both networks.

use rust_hdl::prelude::*;

use crate::signals;

use super::decoder::RouteDecoder;
use crate::params::RouteParams;

/// The operation kinds [`RouteFront::kinds`] holds per lane: a shift or rotate, `broadcast`,
/// `butterfly`, `shff.left`, `shff.right`, a shuffle pass.
pub const KINDS: usize = 6;

/// Decodes a pass, from the controls [`super::ControlDecode`] gives (one copy per lane, so that
/// the registered router can drive each crossbar's lanes from copies of their own), into what
/// the register select and the two networks take (combinational): whether every lane gives its
/// fill value instead of `rs`, the input position every crossbar output takes, and the
/// crossbar every lane takes its value from, both as one-hot selects (so that a registered
/// router's networks start from decoded selects).
///
/// For the one-pass operations crossbar `c`'s output `k` takes input `src[c*q + k] mod q`,
/// which is the same position in every crossbar (`src[k] mod q`: within a subset of at least
/// q lanes every lane's source moves by the same amount mod q, and a smaller subset lies inside
/// one crossbar), so each crossbar decodes its own; lane `t` selects crossbar `src[t] div q`.
/// For a shuffle pass (`op` = 6) the controls come from `xbar_pos` and `lane_xbar` instead.
#[derive(LogicBlock)]
pub struct RouteFront {
    /// Per lane: m - 1.
    pub mask: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount clamped to m (shifts).
    pub shift: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount mod m (rotates, broadcast, butterfly).
    pub wrapped: Vec<Signal<In, Bits<7>>>,
    /// Per lane: what a shift or rotate adds to the offset.
    pub step: Vec<Signal<In, Bits<7>>>,
    /// Per lane: m - shift.
    pub fill_from: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the operation kinds of [`super::ControlDecode`]: a shift or rotate,
    /// `broadcast`, `butterfly`, `shff.left`, `shff.right`, a shuffle pass (at `kind * N + t`).
    pub kinds: Vec<Signal<In, Bit>>,
    /// Shuffle pass: `xbar_pos[c * q + k]` is the input position crossbar `c` sends to its
    /// output `k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// Per lane: give the fill value instead of `rs` (the operation vacates the lane).
    pub take_fill: Vec<Signal<Out, Bit>>,
    /// One-hot: output `k` of crossbar `c` takes input `i` of its crossbar when bit
    /// `(c * q + k) * q + i` is set (none for an out-of-range shuffle control).
    pub position_select: Vec<Signal<Out, Bit>>,
    /// One-hot: lane `t` takes its value from crossbar `j` when bit `t * (N/q) + j` is set.
    pub lane_select: Vec<Signal<Out, Bit>>,
    /// Input position (0..q-1) each crossbar output takes, at `c * q + k`.
    position: Vec<Signal<Local, Bits<7>>>,
    /// Crossbar (0..N/q-1) each lane takes its value from.
    lane_source: Vec<Signal<Local, Bits<7>>>,
    decoder: RouteDecoder,
    /// q - 1.
    position_mask: Constant<Bits<7>>,
    _lanes: usize,
    _crossbar: usize,
    _crossbars: usize,
    _crossbar_bits: usize,
}

impl RouteFront {
    /// The front stage for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            mask: signals(n),
            shift: signals(n),
            wrapped: signals(n),
            step: signals(n),
            fill_from: signals(n),
            kinds: signals(KINDS * n),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            take_fill: signals(n),
            position_select: signals(n * params.crossbar),
            lane_select: signals(n * params.crossbars()),
            position: signals(n),
            lane_source: signals(n),
            decoder: RouteDecoder::new(params),
            position_mask: Constant::new(((params.crossbar - 1) as u64).into()),
            _lanes: n,
            _crossbar: params.crossbar,
            _crossbars: params.crossbars(),
            _crossbar_bits: params.crossbar_bits(),
        }
    }
}

impl Logic for RouteFront {
    // Single-value loops bind log2 q (`lq`), q (`nq`) and N/q (`nc`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for lq in self._crossbar_bits..(self._crossbar_bits + 1) {
            for nn in self._lanes..(self._lanes + 1) {
                for t in 0..self._lanes {
                    self.decoder.mask[t].next = self.mask[t].val();
                    self.decoder.shift[t].next = self.shift[t].val();
                    self.decoder.wrapped[t].next = self.wrapped[t].val();
                    self.decoder.step[t].next = self.step[t].val();
                    self.decoder.fill_from[t].next = self.fill_from[t].val();
                    self.decoder.adds[t].next = self.kinds[t].val();
                    self.decoder.broadcast[t].next = self.kinds[nn + t].val();
                    self.decoder.butterfly[t].next = self.kinds[2 * nn + t].val();
                    self.decoder.fills_low[t].next = self.kinds[3 * nn + t].val();
                    self.decoder.fills_high[t].next = self.kinds[4 * nn + t].val();
                    self.take_fill[t].next = self.decoder.take_fill[t].val();
                    self.position[t].next = self.decoder.src[t].val() & self.position_mask.val();
                    self.lane_source[t].next = self.decoder.src[t].val() >> lq.to_bits::<3>();
                    if self.kinds[5 * nn + t].val() {
                        self.position[t].next = self.xbar_pos[t].val();
                        self.lane_source[t].next = self.lane_xbar[t].val();
                    }
                }
            }
        }
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for t in 0..self._lanes {
                    for i in 0..self._crossbar {
                        self.position_select[t * nq + i].next =
                            self.position[t].val() == i.to_bits();
                    }
                    for j in 0..self._crossbars {
                        self.lane_select[t * nc + j].next =
                            self.lane_source[t].val() == j.to_bits();
                    }
                }
            }
        }
    }
}
