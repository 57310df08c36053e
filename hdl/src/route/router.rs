//! The registered router: the network plus a result register that captures per lane.

use rust_hdl::prelude::*;

use crate::signals;

use super::network::RouteNetwork;
use crate::params::RouteParams;
use crate::regs::Registers;

/// The shift-and-fill operand router as a pipeline stage between operand read and execute:
/// [`RouteNetwork`] followed by a result register.
///
/// One pass per cycle: with `valid` high, every lane whose `capture` bit is high takes the
/// routed value on the rising edge; the other lanes keep theirs. One-pass operations are given
/// with every `capture` bit high; a multi-pass shuffle sets, in each pass, the lanes it
/// completes, and its result is whole after the last pass.
#[derive(LogicBlock)]
pub struct ShiftFillRouter<const E: usize> {
    /// Clock: results are captured on its rising edge.
    pub clock: Signal<In, Clock>,
    /// A pass happens this cycle.
    pub valid: Signal<In, Bit>,
    /// Per lane: take this pass's routed value.
    pub capture: Vec<Signal<In, Bit>>,
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask (0..=127).
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m (0: the whole group).
    pub mod_log2: Signal<In, Bits<3>>,
    /// Fill source of shifts (`FillCode`).
    pub fill: Signal<In, Bits<2>>,
    /// Shuffle pass: input position crossbar `c` sends to its output `k`, at `c * q + k`.
    pub xbar_pos: Vec<Signal<In, Bits<7>>>,
    /// Shuffle pass: the crossbar lane `t` takes its value from.
    pub lane_xbar: Vec<Signal<In, Bits<7>>>,
    /// The shifted (source) register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// The result register, one element per lane (zero at power-up).
    pub result: Vec<Signal<Out, Bits<E>>>,
    network: RouteNetwork<E>,
    held: Registers<Bits<E>>,
    _lanes: usize,
}

impl<const E: usize> ShiftFillRouter<E> {
    /// The router for `params` (its `element_bits` must be `E`).
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            clock: Signal::default(),
            valid: Signal::default(),
            capture: signals(n),
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            fill: Signal::default(),
            xbar_pos: signals(n),
            lane_xbar: signals(n),
            rs: signals(n),
            rf: signals(n),
            result: signals(n),
            network: RouteNetwork::new(params),
            held: Registers::new(n),
            _lanes: n,
        }
    }
}

impl<const E: usize> Logic for ShiftFillRouter<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.network.op.next = self.op.val();
        self.network.amount.next = self.amount.val();
        self.network.mod_log2.next = self.mod_log2.val();
        self.network.fill.next = self.fill.val();
        self.held.clock.next = self.clock.val();
        for t in 0..self._lanes {
            self.network.xbar_pos[t].next = self.xbar_pos[t].val();
            self.network.lane_xbar[t].next = self.lane_xbar[t].val();
            self.network.rs[t].next = self.rs[t].val();
            self.network.rf[t].next = self.rf[t].val();
            self.held.d[t].next = self.held.q[t].val();
            if self.valid.val() & self.capture[t].val() {
                self.held.d[t].next = self.network.routed[t].val();
            }
            self.result[t].next = self.held.q[t].val();
        }
    }
}
