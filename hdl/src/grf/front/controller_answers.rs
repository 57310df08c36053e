//! The controller's answers as the front ends act on them: straight from the controller, or
//! registered for a cycle (`pipeline` 5), and the answer a front end keeps while its victim is
//! written back.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::codes::front_state as state;
use crate::grf::widths::{FrontState, OpCode, StatusCode};
use crate::params::{GrfOp, GrfParams};
use crate::signals::{constant, signals};

/// Every EU's view of the controller's answer (`docs/grf.md`). Wired (`pipeline` 0 to 4), the
/// outputs follow the answer in the cycle it arrives. Registered (`pipeline` 5), they show it
/// a cycle later, with what the front end decides from it taken a cycle early: which wait it
/// ends (the front end's state when it arrives) and whether the request served is a write. The
/// controller decides whether it is plain (ok and not shared). These hold for the cycle after
/// too, because a front end that waits for an answer changes nothing until it arrives, and has
/// one transaction outstanding, so no second answer follows the first. Per-lane vectors are
/// EU-major (`e * lanes + l`). `E` is the element width.
#[derive(LogicBlock)]
pub struct FrontAnswers<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no answer registered, none kept.
    pub reset: Signal<In, Bit>,
    /// Per EU: the front end's state (`front::state`).
    pub state: Vec<Signal<In, FrontState>>,
    /// Per EU: the served request's op (`GrfOp`).
    pub rq_op: Vec<Signal<In, OpCode>>,
    /// Per EU: the controller answers.
    pub ans_valid: Vec<Signal<In, Bit>>,
    /// Per EU: with this status.
    pub ans_status: Vec<Signal<In, StatusCode>>,
    /// Per EU: it is plain: ok and not shared.
    pub ans_plain: Vec<Signal<In, Bit>>,
    /// Per EU and lane: the data read.
    pub ans_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: keep the answer acted on while the victim is written back.
    pub keep: Vec<Signal<In, Bit>>,
    /// Per EU: the answer's status.
    pub status: Vec<Signal<Out, StatusCode>>,
    /// Per EU: it is ok and not shared.
    pub plain: Vec<Signal<Out, Bit>>,
    /// Per EU: an answer to a miss (it arrived in the access state).
    pub access: Vec<Signal<Out, Bit>>,
    /// Per EU: an answer to the victim's write-back.
    pub victim: Vec<Signal<Out, Bit>>,
    /// Per EU: an answer to a switch's write-back.
    pub flush: Vec<Signal<Out, Bit>>,
    /// Per EU: an answer to a command.
    pub command: Vec<Signal<Out, Bit>>,
    /// Per EU: the request served is a write.
    pub write: Vec<Signal<Out, Bit>>,
    /// Per EU and lane: its data.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU and lane: the kept answer's data.
    pub kept: Vec<Signal<Out, Bits<E>>>,
    /// The answer stage: registers with `pipeline` 5, else wires.
    got_status: Registers<StatusCode>,
    got_plain: Registers<Bit>,
    got_access: Registers<Bit>,
    got_victim: Registers<Bit>,
    got_flush: Registers<Bit>,
    got_command: Registers<Bit>,
    got_write: Registers<Bit>,
    got_data: Registers<Bits<E>>,
    /// Per EU: an answer arrives, gated by reset when registered.
    arrives: Signal<Local, Bit>,
    kept_data: Registers<Bits<E>>,
    /// The waiting states' bits (`front::state`).
    bit_access: Constant<FrontState>,
    bit_victim: Constant<FrontState>,
    bit_flush: Constant<FrontState>,
    bit_command: Constant<FrontState>,
    op_write: Constant<OpCode>,
    zero_e: Constant<Bits<E>>,
    /// 1 when the stage is registered, else 0.
    _registered: usize,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize> FrontAnswers<E> {
    /// The answers of `params`' EUs, registered when `params.answer_stage()`.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        let registered = params.answer_stage();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            state: signals(eus),
            rq_op: signals(eus),
            ans_valid: signals(eus),
            ans_status: signals(eus),
            ans_plain: signals(eus),
            ans_data: signals(eus * lanes),
            keep: signals(eus),
            status: signals(eus),
            plain: signals(eus),
            access: signals(eus),
            victim: signals(eus),
            flush: signals(eus),
            command: signals(eus),
            write: signals(eus),
            data: signals(eus * lanes),
            kept: signals(eus * lanes),
            got_status: Registers::stage(eus, registered),
            got_plain: Registers::stage(eus, registered),
            got_access: Registers::stage(eus, registered),
            got_victim: Registers::stage(eus, registered),
            got_flush: Registers::stage(eus, registered),
            got_command: Registers::stage(eus, registered),
            got_write: Registers::stage(eus, registered),
            arrives: Default::default(),
            got_data: Registers::stage(eus * lanes, registered),
            kept_data: Registers::new(eus * lanes),
            bit_access: constant(state::own_bit(state::ACCESS)),
            bit_victim: constant(state::own_bit(state::VICTIM)),
            bit_flush: constant(state::own_bit(state::FLUSH)),
            bit_command: constant(state::own_bit(state::COMMAND)),
            op_write: constant(GrfOp::Write.code()),
            zero_e: constant(0),
            _registered: usize::from(registered),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for FrontAnswers<E> {
    // A single-value loop binds the lanes (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.got_status.clock.next = self.clock.val();
        self.got_plain.clock.next = self.clock.val();
        self.got_access.clock.next = self.clock.val();
        self.got_victim.clock.next = self.clock.val();
        self.got_flush.clock.next = self.clock.val();
        self.got_command.clock.next = self.clock.val();
        self.got_write.clock.next = self.clock.val();
        self.got_data.clock.next = self.clock.val();
        self.kept_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                self.arrives.next = self.ans_valid[e].val();
                // Registered, an answer seen in a reset cycle is not acted on after it.
                for _registered in 0..self._registered {
                    self.arrives.next = self.ans_valid[e].val() & !self.reset.val();
                }
                self.got_access.d[e].next =
                    self.arrives.val() & (self.state[e].val() & self.bit_access.val()).any();
                self.got_victim.d[e].next =
                    self.arrives.val() & (self.state[e].val() & self.bit_victim.val()).any();
                self.got_flush.d[e].next =
                    self.arrives.val() & (self.state[e].val() & self.bit_flush.val()).any();
                self.got_command.d[e].next =
                    self.arrives.val() & (self.state[e].val() & self.bit_command.val()).any();
                self.got_write.d[e].next = self.rq_op[e].val() == self.op_write.val();
                self.got_status.d[e].next = self.ans_status[e].val();
                self.got_plain.d[e].next = self.ans_plain[e].val();
                self.status[e].next = self.got_status.q[e].val();
                self.plain[e].next = self.got_plain.q[e].val();
                self.access[e].next = self.got_access.q[e].val();
                self.victim[e].next = self.got_victim.q[e].val();
                self.flush[e].next = self.got_flush.q[e].val();
                self.command[e].next = self.got_command.q[e].val();
                self.write[e].next = self.got_write.q[e].val();
                for l in 0..self._lanes {
                    self.got_data.d[e * nl + l].next = self.ans_data[e * nl + l].val();
                    self.data[e * nl + l].next = self.got_data.q[e * nl + l].val();
                    self.kept_data.d[e * nl + l].next = self.kept_data.q[e * nl + l].val();
                    if self.keep[e].val() {
                        self.kept_data.d[e * nl + l].next = self.got_data.q[e * nl + l].val();
                    }
                    if self.reset.val() {
                        self.kept_data.d[e * nl + l].next = self.zero_e.val();
                    }
                    self.kept[e * nl + l].next = self.kept_data.q[e * nl + l].val();
                }
            }
        }
    }
}
