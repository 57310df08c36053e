//! The document's two networks (Fig. 6): N/q quad crossbars, then a per-lane (N/q):1 mux.

use rust_hdl::prelude::*;

use crate::signals::signals;

use crate::cells::crossbar::Crossbar;
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
///
/// Built with `copies` copies of the selects, each copy drives the muxes of an equal share of
/// every lane's bits (copy `m`, bits `m * E / copies` up), so that no select fans out to a whole
/// lane: the muxes are built once per copy, each masked to its bits (a module of its own,
/// which synthesis builds without the other bits).
#[derive(LogicBlock)]
pub struct LaneMuxes<const E: usize> {
    /// The crossbar outputs: output `k` of crossbar `c` at `k * (N/q) + c`.
    pub gathered: Vec<Signal<In, Bits<E>>>,
    /// One-hot per copy: lane `t` takes its value from crossbar `c` when bit
    /// `m * N * (N/q) + t * (N/q) + c` of copy `m` is set (none set gives zero).
    pub lane_select: Vec<Signal<In, Bit>>,
    /// The routed operand of every lane.
    pub routed: Vec<Signal<Out, Bits<E>>>,
    /// The muxes, one group per copy and `t mod q` (group `m * q + k`), each masked to its
    /// copy's bits.
    muxes: Crossbar<E>,
    /// Zero.
    zero: Constant<Bits<E>>,
    _crossbar: usize,
    _crossbars: usize,
    _copies: usize,
    /// Selects per copy: N x N/q.
    _selects: usize,
}

impl<const E: usize> LaneMuxes<E> {
    /// The lane muxes for `params` (its `element_bits` must be `E`), with one set of selects.
    pub fn new(params: &RouteParams) -> Self {
        Self::with_copies(params, 1)
    }

    /// The lane muxes with `copies` copies of the selects (a divisor of `E`).
    pub fn with_copies(params: &RouteParams, copies: usize) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(E % copies, 0, "each copy drives an equal share of the bits");
        let (n, q, c) = (params.lanes, params.crossbar, params.crossbars());
        let share = E / copies;
        let ones = match share {
            64 => u64::MAX,
            _ => (1u64 << share) - 1,
        };
        // Group `m * q + k` drives copy `m`'s bits; a single copy drives every bit.
        let masks: Vec<Option<u64>> = (0..copies * q)
            .map(|g| (copies > 1).then(|| ones << ((g / q) * share)))
            .collect();
        Self {
            gathered: signals(n),
            lane_select: signals(copies * n * c),
            routed: signals(n),
            muxes: Crossbar::grouped_masked(copies * q, c, c, 1, &masks),
            zero: Constant::new(0u64.to_bits()),
            _crossbar: q,
            _crossbars: c,
            _copies: copies,
            _selects: n * c,
        }
    }
}

impl<const E: usize> Logic for LaneMuxes<E> {
    // Single-value loops bind q (`nq`), N/q (`nc`) and the selects per copy (`ns`) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for ns in self._selects..(self._selects + 1) {
                    for o in 0..self._crossbars {
                        for k in 0..self._crossbar {
                            self.routed[o * nq + k].next = self.zero.val();
                            for m in 0..self._copies {
                                self.muxes.inputs[(m * nq + k) * nc + o].next =
                                    self.gathered[k * nc + o].val();
                                for c in 0..self._crossbars {
                                    self.muxes.select[((m * nq + k) * nc + o) * nc + c].next =
                                        self.lane_select[m * ns + (o * nq + k) * nc + c].val();
                                }
                                self.routed[o * nq + k].next = self.routed[o * nq + k].val()
                                    | self.muxes.outputs[(m * nq + k) * nc + o].val();
                            }
                        }
                    }
                }
            }
        }
    }
}
