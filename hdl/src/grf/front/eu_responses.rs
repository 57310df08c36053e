//! The front ends' response registers: what each EU sees the cycle after it is decided.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::StatusCode;
use crate::params::GrfParams;
use crate::signals::{constant, signals};

/// Every EU's response register: `respond[e]` with `status[e]` and its data is visible on
/// `valid[e]`, `status_out[e]` and its `data_out` for the next cycle; without `valid`, the
/// status and data mean nothing, so the status register loads `status[e]` every cycle and
/// does not wait for the decision to respond. The data register loads
/// the fast GRF's hit data, the answer's or the kept data as the front end's state selects, and
/// one registered bit per EU zeroes the output when none of them was chosen: the decisions to
/// take a read or to respond with an answer reach one flip-flop per EU instead of every lane's
/// data. With `pipeline` 4 and up, a read hit whose entry has a store waiting shows the
/// waiting value, registered beside the data register, so the choice stays off the hit data's
/// path. Per-lane vectors are
/// EU-major (`e * lanes + l`). `E` is the element width.
#[derive(LogicBlock)]
pub struct Responses<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no response.
    pub reset: Signal<In, Bit>,
    /// Per EU: respond next cycle.
    pub respond: Vec<Signal<In, Bit>>,
    /// Per EU: with this status.
    pub status: Vec<Signal<In, StatusCode>>,
    /// Per EU: the data is the fast GRF's hit data (taken whether or not `respond` is high, so
    /// that the data does not wait for the response's decision; a miss does not respond).
    pub from_hit: Vec<Signal<In, Bit>>,
    /// Per EU: the data is the controller's answer (only with `respond`).
    pub from_answer: Vec<Signal<In, Bit>>,
    /// Per EU: the data is the answer kept from an earlier cycle (only with `respond`; else
    /// zero).
    pub from_kept: Vec<Signal<In, Bit>>,
    /// Per EU and lane: the data register loads the hit data (the front end is idle); else the
    /// kept data with `load_kept`, else the answer's data (the front end waits for an answer
    /// to a miss; the data shows only with `from_answer`). Every lane has its own copy, so
    /// that a copy drives one lane's multiplexers.
    pub load_hit: Vec<Signal<In, Bit>>,
    /// Per EU and lane: it loads the kept data (the front end waits for the victim's
    /// write-back; the data shows only with `from_kept`).
    pub load_kept: Vec<Signal<In, Bit>>,
    /// Per EU and lane: the fast GRF's hit data.
    pub hit_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the hit data's entry has a store waiting (`pipeline` 4 and up): a read hit shows
    /// `pending_data` instead.
    pub hit_pending: Vec<Signal<In, Bit>>,
    /// Per EU and lane: the value of that store.
    pub pending_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU and lane: the controller's answer data.
    pub answer_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU and lane: the kept answer data.
    pub kept_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: a response is visible.
    pub valid: Vec<Signal<Out, Bit>>,
    /// Per EU: its status (`GrfStatus`).
    pub status_out: Vec<Signal<Out, StatusCode>>,
    /// Per EU and lane: its data.
    pub data_out: Vec<Signal<Out, Bits<E>>>,
    held: Registers<Bit>,
    held_status: Registers<StatusCode>,
    held_data: Registers<Bits<E>>,
    /// Per EU: the data shown is zero (no read, answer or kept data was chosen).
    held_zero: Registers<Bit>,
    /// Per EU: the data shown is the waiting store's (`pipeline` 4 and up, else wires).
    held_pending: Registers<Bit>,
    /// Per EU and lane: the waiting store's value, as the response was decided.
    held_fresh: Registers<Bits<E>>,
    zero_e: Constant<Bits<E>>,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize> Responses<E> {
    /// The response registers of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            respond: signals(eus),
            status: signals(eus),
            from_hit: signals(eus),
            from_answer: signals(eus),
            from_kept: signals(eus),
            load_hit: signals(eus * lanes),
            load_kept: signals(eus * lanes),
            hit_data: signals(eus * lanes),
            hit_pending: signals(eus),
            pending_data: signals(eus * lanes),
            answer_data: signals(eus * lanes),
            kept_data: signals(eus * lanes),
            valid: signals(eus),
            status_out: signals(eus),
            data_out: signals(eus * lanes),
            held: Registers::new(eus),
            held_status: Registers::new(eus),
            held_data: Registers::new(eus * lanes),
            held_zero: Registers::new(eus),
            held_pending: Registers::stage(eus, params.pipeline >= 4),
            held_fresh: Registers::stage(eus * lanes, params.pipeline >= 4),
            zero_e: constant(0),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for Responses<E> {
    // A single-value loop binds the lanes (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.held.clock.next = self.clock.val();
        self.held_status.clock.next = self.clock.val();
        self.held_data.clock.next = self.clock.val();
        self.held_zero.clock.next = self.clock.val();
        self.held_pending.clock.next = self.clock.val();
        self.held_fresh.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                self.held.d[e].next = self.respond[e].val() & !self.reset.val();
                self.held_status.d[e].next = self.status[e].val();
                self.held_zero.d[e].next =
                    !(self.from_hit[e].val() | self.from_answer[e].val() | self.from_kept[e].val());
                self.held_pending.d[e].next =
                    self.hit_pending[e].val() & self.load_hit[e * nl].val();
                for l in 0..self._lanes {
                    self.held_fresh.d[e * nl + l].next = self.pending_data[e * nl + l].val();
                    self.held_data.d[e * nl + l].next = self.answer_data[e * nl + l].val();
                    if self.load_kept[e * nl + l].val() {
                        self.held_data.d[e * nl + l].next = self.kept_data[e * nl + l].val();
                    }
                    if self.load_hit[e * nl + l].val() {
                        self.held_data.d[e * nl + l].next = self.hit_data[e * nl + l].val();
                    }
                    self.data_out[e * nl + l].next = self.held_data.q[e * nl + l].val();
                    if self.held_pending.q[e].val() {
                        self.data_out[e * nl + l].next = self.held_fresh.q[e * nl + l].val();
                    }
                    if self.held_zero.q[e].val() {
                        self.data_out[e * nl + l].next = self.zero_e.val();
                    }
                }
                self.valid[e].next = self.held.q[e].val();
                self.status_out[e].next = self.held_status.q[e].val();
            }
        }
    }
}
