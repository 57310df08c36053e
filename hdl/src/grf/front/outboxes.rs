//! The front ends' outboxes: the transaction each EU sends the controller, held until taken.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::checkers::AtMost;
use crate::grf::widths::{GlobalThread, GroupNumber, KindCode, RegIndex, ThreadIndex};
use crate::params::GrfParams;
use crate::signals::{constants, signals};

/// Every EU's outbox: `send[e]` loads a transaction, which is shown on `valid[e]` .. `data`
/// from the next cycle until the controller `take`s it. An EU sends only to an empty outbox
/// (it has one transaction outstanding), so an empty outbox loads its fields every cycle and
/// `send` sets only `valid`: the fields' enable is a register, not the front end's decision.
/// Per-lane vectors are EU-major (`e * lanes + l`). `E` is the element width.
#[derive(LogicBlock)]
pub struct Outboxes<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub reset: Signal<In, Bit>,
    /// Per EU: load a transaction this cycle.
    pub send: Vec<Signal<In, Bit>>,
    /// Per EU: its kind (`codes::kind`).
    pub send_kind: Vec<Signal<In, KindCode>>,
    /// Per EU: its thread within the EU (the outbox holds the cluster's number for it).
    pub send_thread: Vec<Signal<In, ThreadIndex>>,
    /// Per EU: its register.
    pub send_reg: Vec<Signal<In, RegIndex>>,
    /// Per EU: its group.
    pub send_group: Vec<Signal<In, GroupNumber>>,
    /// Per EU: it is the fast GRF's victim's write-back: its thread, register and data are
    /// the victim's.
    pub from_victim: Vec<Signal<In, Bit>>,
    /// Per EU: it is the write-back of the found block's first dirty entry: its register and
    /// data are that entry's (else the request's).
    pub from_found: Vec<Signal<In, Bit>>,
    /// Per EU: the victim's thread.
    pub victim_thread: Vec<Signal<In, ThreadIndex>>,
    /// Per EU: the victim's register.
    pub victim_reg: Vec<Signal<In, RegIndex>>,
    /// Per EU: the found entry's register.
    pub found_reg: Vec<Signal<In, RegIndex>>,
    /// Per EU and lane: the request's data.
    pub request_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU and lane: the victim's data.
    pub victim_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU and lane: the found block's data.
    pub found_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the controller takes the held transaction this cycle.
    pub take: Vec<Signal<In, Bit>>,
    /// Per EU: a transaction is held.
    pub valid: Vec<Signal<Out, Bit>>,
    /// Per EU: its kind.
    pub kind: Vec<Signal<Out, KindCode>>,
    /// Per EU: its global thread.
    pub thread: Vec<Signal<Out, GlobalThread>>,
    /// Per EU: its register.
    pub reg_index: Vec<Signal<Out, RegIndex>>,
    /// Per EU: its group.
    pub group: Vec<Signal<Out, GroupNumber>>,
    /// Per EU and lane: its data.
    pub data: Vec<Signal<Out, Bits<E>>>,
    held: Registers<Bit>,
    held_kind: Registers<KindCode>,
    held_thread: Registers<GlobalThread>,
    held_reg: Registers<RegIndex>,
    held_group: Registers<GroupNumber>,
    held_data: Registers<Bits<E>>,
    /// Simulation-only: no EU sends to an outbox that holds a transaction (`send[e]` at `e`,
    /// the held bit at `eus + e`): `grf: EU <e> sent to its full outbox`.
    send_check: AtMost,
    /// Local thread numbers; per EU and local thread, the global thread number.
    local_thread: Vec<Constant<ThreadIndex>>,
    global_thread: Vec<Constant<GlobalThread>>,
    _eus: usize,
    _lanes: usize,
    _threads: usize,
}

impl<const E: usize> Outboxes<E> {
    /// The outboxes of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes, threads) = (params.eus, params.lanes, params.threads);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            send: signals(eus),
            send_kind: signals(eus),
            send_thread: signals(eus),
            send_reg: signals(eus),
            send_group: signals(eus),
            from_victim: signals(eus),
            from_found: signals(eus),
            victim_thread: signals(eus),
            victim_reg: signals(eus),
            found_reg: signals(eus),
            request_data: signals(eus * lanes),
            victim_data: signals(eus * lanes),
            found_data: signals(eus * lanes),
            take: signals(eus),
            valid: signals(eus),
            kind: signals(eus),
            thread: signals(eus),
            reg_index: signals(eus),
            group: signals(eus),
            data: signals(eus * lanes),
            held: Registers::new(eus),
            held_kind: Registers::new(eus),
            held_thread: Registers::new(eus),
            held_reg: Registers::new(eus),
            held_group: Registers::new(eus),
            held_data: Registers::new(eus * lanes),
            send_check: AtMost::one_hot(
                2 * eus,
                (0..eus).map(|e| {
                    (
                        vec![e, eus + e],
                        format!("grf: EU {e} sent to its full outbox (%0d of send, held)"),
                    )
                }),
            ),
            local_thread: constants(0..threads as u64),
            global_thread: constants(0..(eus * threads) as u64),
            _eus: eus,
            _lanes: lanes,
            _threads: threads,
        }
    }
}

impl<const E: usize> Logic for Outboxes<E> {
    // Single-value loops bind the lanes (nl) and threads (nt) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.held.clock.next = self.clock.val();
        self.held_kind.clock.next = self.clock.val();
        self.held_thread.clock.next = self.clock.val();
        self.held_reg.clock.next = self.clock.val();
        self.held_group.clock.next = self.clock.val();
        self.held_data.clock.next = self.clock.val();
        self.send_check.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for ne in self._eus..(self._eus + 1) {
                for nt in self._threads..(self._threads + 1) {
                    for e in 0..self._eus {
                        self.send_check.bits[e].next = self.send[e].val();
                        self.send_check.bits[ne + e].next = self.held.q[e].val();
                        self.held.d[e].next = (self.send[e].val()
                            | (self.held.q[e].val() & !self.take[e].val()))
                            & !self.reset.val();
                        self.held_kind.d[e].next = self.held_kind.q[e].val();
                        self.held_thread.d[e].next = self.held_thread.q[e].val();
                        self.held_reg.d[e].next = self.held_reg.q[e].val();
                        self.held_group.d[e].next = self.held_group.q[e].val();
                        if !self.held.q[e].val() {
                            self.held_kind.d[e].next = self.send_kind[e].val();
                            self.held_thread.d[e].next = self.global_thread[e * nt].val();
                            for t in 0..self._threads {
                                if (self.send_thread[e].val() == self.local_thread[t].val())
                                    & !self.from_victim[e].val()
                                    | (self.victim_thread[e].val() == self.local_thread[t].val())
                                        & self.from_victim[e].val()
                                {
                                    self.held_thread.d[e].next =
                                        self.global_thread[e * nt + t].val();
                                }
                            }
                            self.held_reg.d[e].next = self.send_reg[e].val();
                            if self.from_victim[e].val() {
                                self.held_reg.d[e].next = self.victim_reg[e].val();
                            }
                            if self.from_found[e].val() {
                                self.held_reg.d[e].next = self.found_reg[e].val();
                            }
                            self.held_group.d[e].next = self.send_group[e].val();
                        }
                        for l in 0..self._lanes {
                            self.held_data.d[e * nl + l].next = self.held_data.q[e * nl + l].val();
                            if !self.held.q[e].val() {
                                self.held_data.d[e * nl + l].next =
                                    self.request_data[e * nl + l].val();
                                if self.from_victim[e].val() {
                                    self.held_data.d[e * nl + l].next =
                                        self.victim_data[e * nl + l].val();
                                }
                                if self.from_found[e].val() {
                                    self.held_data.d[e * nl + l].next =
                                        self.found_data[e * nl + l].val();
                                }
                            }
                            self.data[e * nl + l].next = self.held_data.q[e * nl + l].val();
                        }
                        self.valid[e].next = self.held.q[e].val();
                        self.kind[e].next = self.held_kind.q[e].val();
                        self.thread[e].next = self.held_thread.q[e].val();
                        self.reg_index[e].next = self.held_reg.q[e].val();
                        self.group[e].next = self.held_group.q[e].val();
                    }
                }
            }
        }
    }
}
