//! A front end's decisions: from its state, the incoming request, the controller's answer and
//! the fast GRF's lookups, what happens this cycle.

use rust_hdl::prelude::*;

use crate::grf::codes::front_state as state;
use crate::grf::codes::kind;
use crate::grf::widths::{FrontState, KindCode, OpCode, StatusCode};
use crate::params::{GrfOp, GrfStatus};
use crate::parts::logic_in_parts;
use crate::signals::constant;

/// The front end's control (combinational; `docs/grf.md`). Every output is a decision of the
/// cycle; the front end carries them out on its registers, its fast GRF, its outbox and its
/// response register. Built with the switch's search registered (`pipeline` 4), a switch
/// taken only has its block's dirty entries held (`hold`) and goes to `SCAN`, where its first
/// write-back (or the switch) goes out a cycle later, from the held entries.
#[derive(LogicBlock)]
pub struct FrontEndControl {
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// The front end's state (`front::state`: a busy bit and a bit per waiting state).
    pub state: Signal<In, FrontState>,
    /// A request is presented.
    pub req_valid: Signal<In, Bit>,
    /// Its op (`GrfOp`).
    pub req_op: Signal<In, OpCode>,
    /// The served request's op.
    pub rq_op: Signal<In, OpCode>,
    /// The controller's answer's status.
    pub ans_status: Signal<In, StatusCode>,
    /// The answer is ok and not shared.
    pub ans_plain: Signal<In, Bit>,
    /// An answer to a miss (the front end waits in the access state).
    pub ans_access: Signal<In, Bit>,
    /// An answer to the victim's write-back (in the victim state).
    pub ans_victim: Signal<In, Bit>,
    /// An answer to a switch's write-back (in the flush state).
    pub ans_flush: Signal<In, Bit>,
    /// An answer to a command (in the command state).
    pub ans_command: Signal<In, Bit>,
    /// The served request is a write.
    pub rq_write: Signal<In, Bit>,
    /// The fast GRF holds the incoming request's register.
    pub hit: Signal<In, Bit>,
    /// The served request's entry holds another register, dirty.
    pub victim_dirty: Signal<In, Bit>,
    /// The named block has a dirty entry.
    pub found: Signal<In, Bit>,
    /// A request is taken this cycle. In a reset cycle too, where `req_ready` is low: the
    /// reset overrides what the request would leave behind (the state, the fast GRF's valid
    /// and dirty bits, the outbox, the response; the request registers are reloaded before
    /// they are read again), so the decisions need not wait for it.
    pub accept: Signal<Out, Bit>,
    /// The op taken, or the one served.
    pub op: Signal<Out, OpCode>,
    /// The next state (`front::state`).
    pub next_state: Signal<Out, FrontState>,
    /// The data selects take the incoming request's side next cycle: the front end is idle
    /// then, or has just taken a miss, whose answer cannot arrive in the next cycle (so no
    /// fill and no answer's response uses the data chosen then). It does not wait for `hit`.
    pub data_idle: Signal<Out, Bit>,
    /// It waits for the victim's write-back next cycle.
    pub next_victim: Signal<Out, Bit>,
    /// Respond next cycle, with `status`.
    pub respond: Signal<Out, Bit>,
    /// The response's status.
    pub status: Signal<Out, StatusCode>,
    /// A read is taken: the response's data is the fast GRF's hit value (a miss does not
    /// respond), so that the data does not wait for `hit`.
    pub take_read: Signal<Out, Bit>,
    /// The response carries the controller's answer.
    pub respond_answer: Signal<Out, Bit>,
    /// The response carries the answer kept during the victim's write-back.
    pub respond_kept: Signal<Out, Bit>,
    /// Send a transaction to the controller, of kind `send_kind`.
    pub send: Signal<Out, Bit>,
    /// Its kind (`codes::kind`).
    pub send_kind: Signal<Out, KindCode>,
    /// It writes back the victim (its thread, register and value).
    pub send_victim: Signal<Out, Bit>,
    /// It writes back the block's first dirty entry (its register and value).
    pub send_found: Signal<Out, Bit>,
    /// It carries the request's group.
    pub send_group: Signal<Out, Bit>,
    /// Keep the controller's answer while the victim is written back.
    pub keep_answer: Signal<Out, Bit>,
    /// A write is taken: if it hits, its entry stores the request's value, dirty (the entry
    /// that hits decides, so that the store does not wait for `hit`).
    pub take_write: Signal<Out, Bit>,
    /// A fill stores the served request's register in its entry: the write's value, dirty,
    /// else the value read, clean: the controller's answer, or the one kept during the
    /// victim's write-back.
    pub fill: Signal<Out, Bit>,
    /// The front end writes back the block's first dirty entry, which becomes clean, or, with
    /// none (`found` low), sends the switch. It does not wait for `found`.
    pub flush: Signal<Out, Bit>,
    /// The block's entries are invalidated (a release, or a switch once nothing is dirty).
    pub drop: Signal<Out, Bit>,
    /// The named block's dirty entries are held for the switch taken (`pipeline` 4).
    pub hold: Signal<Out, Bit>,
    /// The fill stores the write's value.
    fill_write: Signal<Local, Bit>,
    /// The fill's value is the controller's answer (else the kept one).
    fill_answer: Signal<Local, Bit>,
    access: Signal<Local, Bit>,
    command: Signal<Local, Bit>,
    answered: Signal<Local, Bit>,
    passed_on: Signal<Local, Bit>,
    /// The block's first dirty entry is written back.
    clean: Signal<Local, Bit>,
    /// A switch is taken.
    switch: Signal<Local, Bit>,
    /// The front end is idle next cycle.
    next_idle: Signal<Local, Bit>,
    /// The front end is idle, or waits in the named state: each reads one state bit.
    idle: Signal<Local, Bit>,
    at_access: Signal<Local, Bit>,
    at_victim: Signal<Local, Bit>,
    at_flush: Signal<Local, Bit>,
    at_command: Signal<Local, Bit>,
    at_scan: Signal<Local, Bit>,
    /// The state's bits (`front::state`).
    bit_busy: Constant<FrontState>,
    bit_access: Constant<FrontState>,
    bit_victim: Constant<FrontState>,
    bit_flush: Constant<FrontState>,
    bit_command: Constant<FrontState>,
    bit_scan: Constant<FrontState>,
    zero6: Constant<FrontState>,
    op_read: Constant<OpCode>,
    op_write: Constant<OpCode>,
    op_alloc: Constant<OpCode>,
    op_release: Constant<OpCode>,
    op_wait: Constant<OpCode>,
    op_switch: Constant<OpCode>,
    k_read: Constant<KindCode>,
    k_write_miss: Constant<KindCode>,
    k_writeback: Constant<KindCode>,
    k_alloc: Constant<KindCode>,
    k_release: Constant<KindCode>,
    k_wait: Constant<KindCode>,
    k_switch: Constant<KindCode>,
    s_ok: Constant<StatusCode>,
    /// 1 when the switch's search is registered (`pipeline` 4), else 0.
    _scan: usize,
}

impl FrontEndControl {
    /// The control, with the switch's search registered when `scan`.
    pub fn new(scan: bool) -> Self {
        Self {
            reset: Default::default(),
            state: Default::default(),
            req_valid: Default::default(),
            req_op: Default::default(),
            rq_op: Default::default(),
            ans_status: Default::default(),
            ans_plain: Default::default(),
            ans_access: Default::default(),
            ans_victim: Default::default(),
            ans_flush: Default::default(),
            ans_command: Default::default(),
            rq_write: Default::default(),
            hit: Default::default(),
            victim_dirty: Default::default(),
            found: Default::default(),
            accept: Default::default(),
            op: Default::default(),
            next_state: Default::default(),
            respond: Default::default(),
            status: Default::default(),
            take_read: Default::default(),
            respond_answer: Default::default(),
            respond_kept: Default::default(),
            send: Default::default(),
            send_kind: Default::default(),
            send_victim: Default::default(),
            send_found: Default::default(),
            send_group: Default::default(),
            keep_answer: Default::default(),
            take_write: Default::default(),
            fill: Default::default(),
            fill_write: Default::default(),
            fill_answer: Default::default(),
            clean: Default::default(),
            drop: Default::default(),
            hold: Default::default(),
            access: Default::default(),
            command: Default::default(),
            answered: Default::default(),
            passed_on: Default::default(),
            flush: Default::default(),
            switch: Default::default(),
            idle: Default::default(),
            at_access: Default::default(),
            at_victim: Default::default(),
            at_flush: Default::default(),
            at_command: Default::default(),
            at_scan: Default::default(),
            next_idle: Default::default(),
            data_idle: Default::default(),
            next_victim: Default::default(),
            bit_busy: constant(state::BUSY),
            bit_access: constant(state::own_bit(state::ACCESS)),
            bit_victim: constant(state::own_bit(state::VICTIM)),
            bit_flush: constant(state::own_bit(state::FLUSH)),
            bit_command: constant(state::own_bit(state::COMMAND)),
            bit_scan: constant(state::own_bit(state::SCAN)),
            zero6: constant(0),
            op_read: constant(GrfOp::Read.code()),
            op_write: constant(GrfOp::Write.code()),
            op_alloc: constant(GrfOp::Alloc.code()),
            op_release: constant(GrfOp::Release.code()),
            op_wait: constant(GrfOp::Wait.code()),
            op_switch: constant(GrfOp::Switch.code()),
            k_read: constant(kind::READ),
            k_write_miss: constant(kind::WRITE_MISS),
            k_writeback: constant(kind::WRITEBACK),
            k_alloc: constant(kind::ALLOC),
            k_release: constant(kind::RELEASE),
            k_wait: constant(kind::WAIT),
            k_switch: constant(kind::SWITCH),
            s_ok: constant(GrfStatus::Ok.code()),
            _scan: usize::from(scan),
        }
    }
}

/// The state, a bit each, the request taken or served, and this cycle's events.
enum Events {}

/// The next state, a bit each: a state entered, or kept until the answer it waits for arrives.
enum NextState {}

/// The response, and the transaction sent: a miss, a command, a write-back, a switch.
enum Outputs {}

impl Logic for FrontEndControl {
    logic_in_parts!(Events, NextState, Outputs);
}

impl crate::parts::Part<Events> for FrontEndControl {
    #[hdl_gen]
    fn update(&mut self) {
        // The state, a bit each.
        self.idle.next = !(self.state.val() & self.bit_busy.val()).any();
        self.at_access.next = (self.state.val() & self.bit_access.val()).any();
        self.at_victim.next = (self.state.val() & self.bit_victim.val()).any();
        self.at_flush.next = (self.state.val() & self.bit_flush.val()).any();
        self.at_command.next = (self.state.val() & self.bit_command.val()).any();
        self.at_scan.next = (self.state.val() & self.bit_scan.val()).any();
        // The request taken (idle) or served, and this cycle's events.
        self.accept.next = self.idle.val() & self.req_valid.val();
        self.op.next = self.rq_op.val();
        if self.accept.val() {
            self.op.next = self.req_op.val();
        }
        // What the incoming request is, from its op alone: each decision about it is ANDed
        // with `accept`, so none waits for the choice of `op`.
        self.access.next =
            (self.req_op.val() == self.op_read.val()) | (self.req_op.val() == self.op_write.val());
        self.command.next = !self.access.val() & (self.req_op.val() != self.op_switch.val());
        self.answered.next = self.ans_access.val();
        self.passed_on.next = self.answered.val() & !self.ans_plain.val();
        self.keep_answer.next =
            self.answered.val() & !self.passed_on.val() & self.victim_dirty.val();
        self.fill.next = (self.answered.val() & !self.passed_on.val() & !self.victim_dirty.val())
            | self.ans_victim.val();
        self.fill_write.next = self.fill.val() & self.rq_write.val();
        // A fill answers a miss, or follows the victim's write-back with the kept answer.
        self.fill_answer.next = !self.ans_victim.val();
        self.switch.next = self.accept.val() & (self.req_op.val() == self.op_switch.val());
        // Without the registered search the scan state is never entered.
        self.hold.next = false;
        self.flush.next = self.switch.val() | self.at_scan.val() | self.ans_flush.val();
        for _scan in 0..self._scan {
            self.hold.next = self.switch.val();
            self.flush.next = self.at_scan.val() | self.ans_flush.val();
        }
        self.take_write.next = self.accept.val() & (self.req_op.val() == self.op_write.val());
        self.clean.next = self.flush.val() & self.found.val();
        self.drop.next = (self.accept.val() & (self.req_op.val() == self.op_release.val()))
            | (self.flush.val() & !self.found.val());
    }
}

impl crate::parts::Part<NextState> for FrontEndControl {
    #[hdl_gen]
    fn update(&mut self) {
        // The next state, a bit each: a state is entered, or kept until the answer it waits
        // for arrives (an answer arrives only in the state that waits for it). Idle is left
        // by a request taken that is not a hit, and entered when a request ends.
        self.next_idle.next = (self.idle.val()
            & !(self.req_valid.val() & !(self.access.val() & self.hit.val())))
            | self.passed_on.val()
            | self.fill.val()
            | self.ans_command.val()
            | self.reset.val();
        self.data_idle.next = (self.idle.val() & !(self.req_valid.val() & !self.access.val()))
            | self.passed_on.val()
            | self.fill.val()
            | self.ans_command.val()
            | self.reset.val();
        self.next_victim.next = (self.keep_answer.val()
            | (self.at_victim.val() & !self.ans_victim.val()))
            & !self.reset.val();
        self.next_state.next = self.zero6.val();
        if !self.next_idle.val() {
            self.next_state.next = self.bit_busy.val();
        }
        if (self.accept.val() & self.access.val() & !self.hit.val())
            | (self.at_access.val() & !self.ans_access.val())
        {
            self.next_state.next = self.next_state.val() | self.bit_access.val();
        }
        if self.next_victim.val() {
            self.next_state.next = self.next_state.val() | self.bit_victim.val();
        }
        if (self.flush.val() & self.found.val()) | (self.at_flush.val() & !self.ans_flush.val()) {
            self.next_state.next = self.next_state.val() | self.bit_flush.val();
        }
        if (self.accept.val() & self.command.val())
            | (self.flush.val() & !self.found.val())
            | (self.at_command.val() & !self.ans_command.val())
        {
            self.next_state.next = self.next_state.val() | self.bit_command.val();
        }
        if self.hold.val() {
            self.next_state.next = self.next_state.val() | self.bit_scan.val();
        }
        if self.reset.val() {
            self.next_state.next = self.zero6.val();
        }
    }
}

impl crate::parts::Part<Outputs> for FrontEndControl {
    #[hdl_gen]
    fn update(&mut self) {
        // The response: a hit, a fault or shared register, a fill, a command's answer.
        self.take_read.next = self.accept.val() & (self.req_op.val() == self.op_read.val());
        self.respond_answer.next = self.passed_on.val()
            | (self.fill.val() & !self.fill_write.val() & self.fill_answer.val());
        self.respond_kept.next = self.fill.val() & !self.fill_write.val() & !self.fill_answer.val();
        self.respond.next = (self.accept.val() & self.access.val() & self.hit.val())
            | self.passed_on.val()
            | self.fill.val()
            | self.ans_command.val();
        self.status.next = self.s_ok.val();
        if self.passed_on.val() | self.at_command.val() {
            self.status.next = self.ans_status.val();
        }
        // The transaction sent: a miss, a command, a victim's or a flush's write-back, a
        // switch.
        self.send.next = (self.accept.val()
            & ((self.access.val() & !self.hit.val()) | self.command.val()))
            | self.keep_answer.val()
            | self.flush.val();
        self.send_kind.next = self.k_read.val();
        if self.op.val() == self.op_write.val() {
            self.send_kind.next = self.k_write_miss.val();
        }
        if self.op.val() == self.op_alloc.val() {
            self.send_kind.next = self.k_alloc.val();
        }
        if self.op.val() == self.op_wait.val() {
            self.send_kind.next = self.k_wait.val();
        }
        if self.op.val() == self.op_release.val() {
            self.send_kind.next = self.k_release.val();
        }
        if self.keep_answer.val() | self.clean.val() {
            self.send_kind.next = self.k_writeback.val();
        }
        if self.flush.val() & !self.found.val() {
            self.send_kind.next = self.k_switch.val();
        }
        self.send_victim.next = self.keep_answer.val();
        self.send_found.next = self.clean.val();
        self.send_group.next = self.accept.val() & !self.flush.val();
    }
}
