//! The document's two networks (Fig. 6): N/q quad crossbars, then a per-lane (N/q):1 mux.

use rust_hdl::prelude::*;

use crate::signals;

use crate::crossbar::Crossbar;
use crate::params::RouteParams;

/// The first network: N/q full q x q crossbars; crossbar `c` serves lanes `c*q .. c*q+q-1`
/// and can send any of them to any of its outputs (permutation or broadcast). Combinational.
#[derive(LogicBlock)]
pub struct QuadCrossbars<const E: usize> {
    /// Every lane's operand.
    pub operand: Vec<Signal<In, Bits<E>>>,
    /// One-hot: output `k` of crossbar `c` takes the crossbar's input `i` when bit
    /// `(c * q + k) * q + i` is set (none set gives zero).
    pub position_select: Vec<Signal<In, Bit>>,
    /// The crossbar outputs in the order the lane muxes take them: output `k` of crossbar `c`
    /// at `k * (N/q) + c`.
    pub gathered: Vec<Signal<Out, Bits<E>>>,
    crossbars: Crossbar<E>,
    _crossbar: usize,
    _crossbars: usize,
}

impl<const E: usize> QuadCrossbars<E> {
    /// The crossbars for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        Self {
            operand: signals(n),
            position_select: signals(n * q),
            gathered: signals(n),
            crossbars: Crossbar::grouped(c, q, q, 1),
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl<const E: usize> Logic for QuadCrossbars<E> {
    // Single-value loops bind q (`nq`) and N/q (`nc`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for c in 0..self._crossbars {
                    for k in 0..self._crossbar {
                        self.crossbars.inputs[c * nq + k].next = self.operand[c * nq + k].val();
                        for i in 0..self._crossbar {
                            self.crossbars.select[(c * nq + k) * nq + i].next =
                                self.position_select[(c * nq + k) * nq + i].val();
                        }
                        self.gathered[k * nc + c].next = self.crossbars.outputs[c * nq + k].val();
                    }
                }
            }
        }
    }
}

/// The second network: lane `t` takes output `t mod q` of the crossbar it selects, as q groups
/// of (N/q) x (N/q) muxes (group `k` serves the lanes with `t mod q = k`). Combinational.
#[derive(LogicBlock)]
pub struct LaneMuxes<const E: usize> {
    /// The crossbar outputs: output `k` of crossbar `c` at `k * (N/q) + c`.
    pub gathered: Vec<Signal<In, Bits<E>>>,
    /// One-hot: lane `t` takes its value from crossbar `c` when bit `t * (N/q) + c` is set
    /// (none set gives zero).
    pub lane_select: Vec<Signal<In, Bit>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    muxes: Crossbar<E>,
    _crossbar: usize,
    _crossbars: usize,
}

impl<const E: usize> LaneMuxes<E> {
    /// The lane muxes for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        assert_eq!(E, params.element_bits);
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        Self {
            gathered: signals(n),
            lane_select: signals(n * c),
            routed: signals(n),
            muxes: Crossbar::grouped(q, c, c, 1),
            _crossbar: q,
            _crossbars: c,
        }
    }
}

impl<const E: usize> Logic for LaneMuxes<E> {
    // Single-value loops bind q (`nq`) and N/q (`nc`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for o in 0..self._crossbars {
                    for k in 0..self._crossbar {
                        self.muxes.inputs[k * nc + o].next = self.gathered[k * nc + o].val();
                        for c in 0..self._crossbars {
                            self.muxes.select[(k * nc + o) * nc + c].next =
                                self.lane_select[(o * nq + k) * nc + c].val();
                        }
                        self.routed[o * nq + k].next = self.muxes.outputs[k * nc + o].val();
                    }
                }
            }
        }
    }
}
