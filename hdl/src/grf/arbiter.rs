//! The controller's round-robin arbiter: which EU's transaction the controller takes.

use rust_hdl::prelude::*;

use crate::params::GrfParams;
use crate::regs::Registers;
use crate::{constant, constants, signals};

/// Round-robin arbiter over the EUs' transactions (`docs/grf.md`): when `allow` is high, the
/// first EU with a transaction after the one served last is taken, and its transaction is
/// presented on `kind` .. `data` in the same cycle. `E` is the element width.
#[derive(LogicBlock)]
pub struct RoundRobinArbiter<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: EU 0 comes first after it.
    pub reset: Signal<In, Bit>,
    /// The controller can take a transaction this cycle.
    pub allow: Signal<In, Bit>,
    /// Per EU: a transaction is waiting.
    pub tx_valid: Vec<Signal<In, Bit>>,
    /// Per EU: its kind (`codes::kind`).
    pub tx_kind: Vec<Signal<In, Bits<3>>>,
    /// Per EU: its global thread.
    pub tx_thread: Vec<Signal<In, Bits<5>>>,
    /// Per EU: its register (or 16 x virtual block).
    pub tx_reg: Vec<Signal<In, Bits<6>>>,
    /// Per EU: its group.
    pub tx_group: Vec<Signal<In, Bits<3>>>,
    /// Per EU and lane: its data (`eu * lanes + l`).
    pub tx_data: Vec<Signal<In, Bits<E>>>,
    /// A transaction is taken this cycle.
    pub take: Signal<Out, Bit>,
    /// Per EU: its transaction is taken this cycle.
    pub taken: Vec<Signal<Out, Bit>>,
    /// The EU whose transaction is presented (the one taken, when `take`).
    pub eu: Signal<Out, Bits<4>>,
    /// The presented transaction's kind.
    pub kind: Signal<Out, Bits<3>>,
    /// Its global thread.
    pub thread: Signal<Out, Bits<5>>,
    /// Its register.
    pub reg_index: Signal<Out, Bits<6>>,
    /// Its group.
    pub group: Signal<Out, Bits<3>>,
    /// Its data, one element per lane.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// The EU served last.
    last: Registers<Bits<4>>,
    /// Some EU has a transaction.
    picked: Signal<Local, Bit>,
    /// The EU a round-robin step looks at.
    target: Signal<Local, Bits<4>>,
    zero4: Constant<Bits<4>>,
    /// `eus` as a round-robin bound, and the round-robin steps 1..=eus.
    eus4: Constant<Bits<4>>,
    rr_step: Vec<Constant<Bits<4>>>,
    last_eu: Constant<Bits<4>>,
    /// EU numbers.
    eu_number: Vec<Constant<Bits<4>>>,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize> RoundRobinArbiter<E> {
    /// The arbiter for `params`' EUs and lanes.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            allow: Default::default(),
            tx_valid: signals(eus),
            tx_kind: signals(eus),
            tx_thread: signals(eus),
            tx_reg: signals(eus),
            tx_group: signals(eus),
            tx_data: signals(eus * lanes),
            take: Default::default(),
            taken: signals(eus),
            eu: Default::default(),
            kind: Default::default(),
            thread: Default::default(),
            reg_index: Default::default(),
            group: Default::default(),
            data: signals(lanes),
            last: Registers::new(1),
            picked: Default::default(),
            target: Default::default(),
            zero4: constant(0),
            eus4: constant(eus as u64),
            rr_step: constants((1..=eus).map(|k| k as u64)),
            last_eu: constant(eus as u64 - 1),
            eu_number: constants(0..eus as u64),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for RoundRobinArbiter<E> {
    // Single-value loops bind lanes (nl) and EUs (ne) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.last.clock.next = self.clock.val();
        self.last.d[0].next = self.last.q[0].val();
        for nl in self._lanes..(self._lanes + 1) {
            for ne in self._eus..(self._eus + 1) {
                // Steps eus, eus-1, ..., 1 after the last served: the smallest step that finds
                // an EU wins.
                self.picked.next = false;
                self.eu.next = self.zero4.val();
                for kk in 0..self._eus {
                    self.target.next = self.last.q[0].val() + self.rr_step[ne - kk - 1].val();
                    if self.target.val() >= self.eus4.val() {
                        self.target.next = self.target.val() - self.eus4.val();
                    }
                    for e in 0..self._eus {
                        if self.tx_valid[e].val() & (self.target.val() == self.eu_number[e].val()) {
                            self.picked.next = true;
                            self.eu.next = self.eu_number[e].val();
                        }
                    }
                }
                self.take.next = self.allow.val() & self.picked.val() & !self.reset.val();
                self.kind.next = self.tx_kind[0].val();
                self.thread.next = self.tx_thread[0].val();
                self.reg_index.next = self.tx_reg[0].val();
                self.group.next = self.tx_group[0].val();
                for l in 0..self._lanes {
                    self.data[l].next = self.tx_data[l].val();
                }
                for e in 0..self._eus {
                    self.taken[e].next = false;
                    if self.eu.val() == self.eu_number[e].val() {
                        self.kind.next = self.tx_kind[e].val();
                        self.thread.next = self.tx_thread[e].val();
                        self.reg_index.next = self.tx_reg[e].val();
                        self.group.next = self.tx_group[e].val();
                        for l in 0..self._lanes {
                            self.data[l].next = self.tx_data[e * nl + l].val();
                        }
                        self.taken[e].next = self.take.val();
                    }
                }
                if self.take.val() {
                    self.last.d[0].next = self.eu.val();
                }
                if self.reset.val() {
                    self.last.d[0].next = self.last_eu.val();
                }
            }
        }
    }
}
