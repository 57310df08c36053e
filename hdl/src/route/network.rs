//! The document's two-stage routing network (Fig. 6): N/q full q x q crossbars, then per lane
//! an (N/q):1 mux over output (lane mod q) of every crossbar; register select in front.

use rust_hdl::prelude::*;

use crate::signals;

use super::decoder::RouteDecoder;
use super::select::RegisterSelect;
use crate::crossbar::Crossbar;
use crate::params::RouteParams;

/// The shift-and-fill routing network, combinational: one pass from control to `routed`.
///
/// Stage 0 is N/q crossbars of q x q (crossbar `c` serves lanes `c*q .. c*q+q-1`, any
/// permutation or broadcast of them). Stage 1 gives lane `t` the output `t mod q` of the
/// crossbar it selects. For the one-pass operations the decoder sets both stages: every
/// crossbar's output `k` takes input `src[k] mod q` (the same position in every crossbar) and
/// lane `t` selects crossbar `src[t] div q`. For a shuffle pass (`op` = 6) the controls come
/// from `xbar_pos` and `lane_xbar` instead; out-of-range values give zero.
#[derive(LogicBlock)]
pub struct RouteNetwork<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Bits<3>>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: `xbar_pos[c * q + k]` is the input position (0..q-1) crossbar `c` sends
    /// to its output `k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar (0..N/q-1) lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    decoder: RouteDecoder,
    select: RegisterSelect<E>,
    /// N/q crossbars of q x q.
    stage0: Crossbar<E>,
    /// Per lane an (N/q):1 mux, as q groups of (N/q) x (N/q): group `k` serves the lanes
    /// `t` with `t mod q = k`; its input `c` is output `k` of crossbar `c`.
    stage1: Crossbar<E>,
    /// Input position each crossbar output takes (`c * q + k`).
    position: Vec<Signal<Local, Bits<7>>>,
    /// Crossbar each lane takes its value from.
    lane_source: Vec<Signal<Local, Bits<7>>>,
    /// q - 1.
    position_mask: Constant<Bits<7>>,
    _lanes: usize,
    _crossbar: usize,
    _crossbars: usize,
    _crossbar_bits: usize,
}

impl<const E: usize> RouteNetwork<E> {
    /// The network for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fill: Signal::default(),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            rs: signals(n),
            rf: signals(n),
            routed: signals(n),
            decoder: RouteDecoder::new(params),
            select: RegisterSelect::new(n),
            stage0: Crossbar::grouped(c, q, q, 1),
            stage1: Crossbar::grouped(q, c, c, 1),
            position: signals(n),
            lane_source: signals(n),
            position_mask: Constant::new(((q - 1) as u64).into()),
            _lanes: n,
            _crossbar: q,
            _crossbars: c,
            _crossbar_bits: params.crossbar_bits(),
        }
    }
}

impl<const E: usize> Logic for RouteNetwork<E> {
    // Single-value loops bind q (`nq`), N/q (`nc`) and log2 q (`lq`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.decoder.op.next = self.op.val();
        self.decoder.amount.next = self.amount.val();
        self.decoder.mod_log2.next = self.mod_log2.val();
        self.select.fill.next = self.fill.val();
        for t in 0..self._lanes {
            self.select.rs[t].next = self.rs[t].val();
            self.select.rf[t].next = self.rf[t].val();
            self.select.take_fill[t].next = self.decoder.take_fill[t].val();
            self.stage0.inputs[t].next = self.select.out[t].val();
        }
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for lq in self._crossbar_bits..(self._crossbar_bits + 1) {
                    for c in 0..self._crossbars {
                        for k in 0..self._crossbar {
                            self.position[c * nq + k].next =
                                self.decoder.src[k].val() & self.position_mask.val();
                            if self.decoder.shuffle.val() {
                                self.position[c * nq + k].next = self.xbar_pos[c * nq + k].val();
                            }
                            for i in 0..self._crossbar {
                                self.stage0.select[(c * nq + k) * nq + i].next =
                                    self.position[c * nq + k].val() == i.to_bits();
                            }
                            self.stage1.inputs[k * nc + c].next =
                                self.stage0.outputs[c * nq + k].val();
                        }
                    }
                    for o in 0..self._crossbars {
                        for k in 0..self._crossbar {
                            self.lane_source[o * nq + k].next =
                                self.decoder.src[o * nq + k].val() >> lq.to_bits::<3>();
                            if self.decoder.shuffle.val() {
                                self.lane_source[o * nq + k].next =
                                    self.lane_xbar[o * nq + k].val();
                            }
                            for c in 0..self._crossbars {
                                self.stage1.select[(k * nc + o) * nc + c].next =
                                    self.lane_source[o * nq + k].val() == c.to_bits();
                            }
                            self.routed[o * nq + k].next = self.stage1.outputs[k * nc + o].val();
                        }
                    }
                }
            }
        }
    }
}
