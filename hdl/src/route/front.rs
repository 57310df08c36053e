//! The router's per-lane stage: lane decode, register select, and the controls of both
//! networks.

use rust_hdl::prelude::*;

use crate::signals;

use super::decoder::RouteDecoder;
use super::select::RegisterSelect;
use crate::params::RouteParams;

/// Decodes a pass, from the controls [`super::ControlDecode`] gives, into what the two networks
/// take (combinational): every lane's operand (`rs` or the fill value), the input position
/// every crossbar output takes, and the crossbar every lane takes its value from.
///
/// For the one-pass operations every crossbar's output `k` takes input `src[k] mod q` (the same
/// position in every crossbar) and lane `t` selects crossbar `src[t] div q`. For a shuffle pass
/// (`op` = 6) the controls come from `xbar_pos` and `lane_xbar` instead.
#[derive(LogicBlock)]
pub struct RouteFront<const E: usize> {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Subset size m.
    pub m: Signal<In, Bits<7>>,
    /// m - 1.
    pub mask: Signal<In, Bits<7>>,
    /// The amount clamped to m (shifts).
    pub shift: Signal<In, Bits<7>>,
    /// The amount mod m (rotates, broadcast, butterfly).
    pub wrapped: Signal<In, Bits<7>>,
    /// The operation is a shuffle pass.
    pub shuffle: Signal<In, Bit>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: `xbar_pos[c * q + k]` is the input position crossbar `c` sends to its
    /// output `k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// Every lane's operand: `rs`, or the fill value where the operation vacates a lane.
    pub operand: Vec<Signal<Out, Bits<E>>>,
    /// Input position (0..q-1) each crossbar output takes, at `c * q + k`.
    pub position: Vec<Signal<Out, Bits<7>>>,
    /// Crossbar (0..N/q-1) each lane takes its value from.
    pub lane_source: Vec<Signal<Out, Bits<7>>>,
    decoder: RouteDecoder,
    select: RegisterSelect<E>,
    /// q - 1.
    position_mask: Constant<Bits<7>>,
    _lanes: usize,
    _crossbar: usize,
    _crossbars: usize,
    _crossbar_bits: usize,
}

impl<const E: usize> RouteFront<E> {
    /// The front stage for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
        let n = params.lanes;
        Self {
            op: Signal::default(),
            m: Signal::default(),
            mask: Signal::default(),
            shift: Signal::default(),
            wrapped: Signal::default(),
            shuffle: Signal::default(),
            fill: Signal::default(),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            rs: signals(n),
            rf: signals(n),
            operand: signals(n),
            position: signals(n),
            lane_source: signals(n),
            decoder: RouteDecoder::new(params),
            select: RegisterSelect::new(n),
            position_mask: Constant::new(((params.crossbar - 1) as u64).into()),
            _lanes: n,
            _crossbar: params.crossbar,
            _crossbars: params.crossbars(),
            _crossbar_bits: params.crossbar_bits(),
        }
    }
}

impl<const E: usize> Logic for RouteFront<E> {
    // Single-value loops bind q (`nq`) and log2 q (`lq`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.decoder.op.next = self.op.val();
        self.decoder.m.next = self.m.val();
        self.decoder.mask.next = self.mask.val();
        self.decoder.shift.next = self.shift.val();
        self.decoder.wrapped.next = self.wrapped.val();
        self.select.fill.next = self.fill.val();
        for t in 0..self._lanes {
            self.select.rs[t].next = self.rs[t].val();
            self.select.rf[t].next = self.rf[t].val();
            self.select.take_fill[t].next = self.decoder.take_fill[t].val();
            self.operand[t].next = self.select.out[t].val();
        }
        for nq in self._crossbar..(self._crossbar + 1) {
            for lq in self._crossbar_bits..(self._crossbar_bits + 1) {
                for c in 0..self._crossbars {
                    for k in 0..self._crossbar {
                        self.position[c * nq + k].next =
                            self.decoder.src[k].val() & self.position_mask.val();
                        if self.shuffle.val() {
                            self.position[c * nq + k].next = self.xbar_pos[c * nq + k].val();
                        }
                        self.lane_source[c * nq + k].next =
                            self.decoder.src[c * nq + k].val() >> lq.to_bits::<3>();
                        if self.shuffle.val() {
                            self.lane_source[c * nq + k].next = self.lane_xbar[c * nq + k].val();
                        }
                    }
                }
            }
        }
    }
}
