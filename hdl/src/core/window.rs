//! The core's instruction window: the head instruction and the next ones, with the state of
//! every source.

use rust_hdl::prelude::*;

use super::scoreboard::Scoreboard;
use crate::params::{CaptureKind, CoreParams};
use crate::regs::Registers;
use crate::{constant, signals};

/// The instruction window (`docs/core.md`): `lookahead + 1` slots, slot 0 the head. Vectors
/// of sources are slot-major (`slot * 3 + source`). A source's state is a `CaptureKind` code:
/// pending (0), done (1), in the conflict queue (2) or the prefetch queue (3), with its queue
/// entry. When the head issues the window moves up one slot; the offered instruction is taken
/// into the first free slot after that move, when there is one. It shows what its readers use:
/// the served slots (the head, and those preloads or prefetches serve), the conflicts of the
/// slots preloads serve, the head's aliases, every source's state. `RI` is the register-index
/// width.
#[derive(LogicBlock)]
pub struct InstructionWindow<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// An instruction is offered.
    pub instr_valid: Signal<In, Bit>,
    /// Its op code.
    pub instr_op: Signal<In, Bits<3>>,
    /// Its destination register.
    pub instr_dst: Signal<In, Bits<RI>>,
    /// Its sources 0..2.
    pub instr_src: Vec<Signal<In, Bits<RI>>>,
    /// Per source: the op reads it.
    pub instr_present: Vec<Signal<In, Bit>>,
    /// Per source: its alias code.
    pub instr_alias: Vec<Signal<In, Bits<2>>>,
    /// Per source: its bank conflict.
    pub instr_conflict: Vec<Signal<In, Bit>>,
    /// Per slot and source: its state after this cycle's reads.
    pub next_state: Vec<Signal<In, Bits<2>>>,
    /// Per slot and source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<In, Bits<3>>>,
    /// The offered instruction is taken at the end of this cycle.
    pub ready: Signal<Out, Bit>,
    /// Per served slot: it holds an instruction.
    pub valid: Vec<Signal<Out, Bit>>,
    /// The head's op code.
    pub head_op: Signal<Out, Bits<3>>,
    /// Per served slot: its destination.
    pub dst: Vec<Signal<Out, Bits<RI>>>,
    /// Per seen slot (`Scoreboard::seen_slots`) and source: the register.
    pub src: Vec<Signal<Out, Bits<RI>>>,
    /// Per served slot: the offered instruction enters it at the end of this cycle.
    pub entering: Vec<Signal<Out, Bit>>,
    /// Per head source: the alias code.
    pub alias_code: Vec<Signal<Out, Bits<2>>>,
    /// Per source of the slots preloads serve (`(slot - 1) * 3 + source`): the bank conflict.
    pub conflict: Vec<Signal<Out, Bit>>,
    /// Per slot and source: the state.
    pub state: Vec<Signal<Out, Bits<2>>>,
    /// Per slot and source: the queue entry.
    pub entry: Vec<Signal<Out, Bits<3>>>,
    held_valid: Registers<Bit>,
    held_op: Registers<Bits<3>>,
    held_dst: Registers<Bits<RI>>,
    held_src: Registers<Bits<RI>>,
    held_alias: Registers<Bits<2>>,
    held_conflict: Registers<Bit>,
    held_state: Registers<Bits<2>>,
    held_entry: Registers<Bits<3>>,
    /// Per slot: valid after the move.
    shifted_valid: Vec<Signal<Local, Bit>>,
    /// Per slot: the offered instruction goes there.
    insert: Vec<Signal<Local, Bit>>,
    accept: Signal<Local, Bit>,
    pending: Constant<Bits<2>>,
    done: Constant<Bits<2>>,
    alias_none: Constant<Bits<2>>,
    zero3: Constant<Bits<3>>,
    _window: usize,
    _served: usize,
    _seen: usize,
    _preload: usize,
}

impl<const RI: usize> InstructionWindow<RI> {
    /// The window of `params`, its outputs sized for the slots the read scheduler serves.
    pub fn new(params: &CoreParams) -> Self {
        let (served, preload) = (params.served_slots(), params.preload_slots());
        let w = params.window();
        let seen = Scoreboard::<RI>::seen_slots(params);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            instr_valid: Default::default(),
            instr_op: Default::default(),
            instr_dst: Default::default(),
            instr_src: signals(3),
            instr_present: signals(3),
            instr_alias: signals(3),
            instr_conflict: signals(3),
            next_state: signals(3 * w),
            next_entry: signals(3 * w),
            ready: Default::default(),
            valid: signals(served),
            head_op: Default::default(),
            dst: signals(served),
            src: signals(3 * seen),
            entering: signals(served),
            alias_code: signals(3),
            conflict: signals(3 * preload),
            state: signals(3 * w),
            entry: signals(3 * w),
            held_valid: Registers::new(w),
            held_op: Registers::new(w),
            held_dst: Registers::new(w),
            held_src: Registers::new(3 * w),
            held_alias: Registers::new(3 * w),
            held_conflict: Registers::new(3 * w),
            held_state: Registers::new(3 * w),
            held_entry: Registers::new(3 * w),
            shifted_valid: signals(w),
            insert: signals(w),
            accept: Default::default(),
            pending: constant(CaptureKind::Nowhere.code()),
            done: constant(CaptureKind::Latch.code()),
            alias_none: constant(super::decode::alias::NONE),
            zero3: constant(0),
            _window: w,
            _served: served,
            _seen: seen,
            _preload: preload,
        }
    }
}

impl<const RI: usize> Logic for InstructionWindow<RI> {
    // A single-value loop binds the slots (nw) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.held_valid.clock.next = self.clock.val();
        self.held_op.clock.next = self.clock.val();
        self.held_dst.clock.next = self.clock.val();
        self.held_src.clock.next = self.clock.val();
        self.held_alias.clock.next = self.clock.val();
        self.held_conflict.clock.next = self.clock.val();
        self.held_state.clock.next = self.clock.val();
        self.held_entry.clock.next = self.clock.val();
        self.head_op.next = self.held_op.q[0].val();
        for nw in self._window..(self._window + 1) {
            for j in 0..self._served {
                self.valid[j].next = self.held_valid.q[j].val();
                self.dst[j].next = self.held_dst.q[j].val();
            }
            for k in 0..(3 * self._seen) {
                self.src[k].next = self.held_src.q[k].val();
            }
            for k in 0..(3 * self._preload) {
                self.conflict[k].next = self.held_conflict.q[k + 3].val();
            }
            for s in 0..3 {
                self.alias_code[s].next = self.held_alias.q[s].val();
            }
            for k in 0..(3 * self._window) {
                self.state[k].next = self.held_state.q[k].val();
                self.entry[k].next = self.held_entry.q[k].val();
            }
            // The window moves up on issue; the offered instruction takes the first free slot.
            for j in 0..(self._window - 1) {
                self.shifted_valid[j].next = self.held_valid.q[j].val();
                if self.issue.val() {
                    self.shifted_valid[j].next = self.held_valid.q[j + 1].val();
                }
            }
            self.shifted_valid[nw - 1].next = self.held_valid.q[nw - 1].val() & !self.issue.val();
            self.ready.next = !self.shifted_valid[nw - 1].val() & !self.reset.val();
            self.accept.next = self.instr_valid.val() & self.ready.val();
            self.insert[0].next = self.accept.val() & !self.shifted_valid[0].val();
            for j in 1..self._window {
                self.insert[j].next = self.accept.val()
                    & !self.shifted_valid[j].val()
                    & self.shifted_valid[j - 1].val();
            }
            for j in 0..self._served {
                self.entering[j].next = self.insert[j].val();
            }
            for j in 0..self._window {
                self.held_valid.d[j].next =
                    (self.shifted_valid[j].val() | self.insert[j].val()) & !self.reset.val();
                // A slot keeps its instruction, takes the next slot's, or the offered one.
                self.held_op.d[j].next = self.held_op.q[j].val();
                self.held_dst.d[j].next = self.held_dst.q[j].val();
                for s in 0..3 {
                    self.held_src.d[j * 3 + s].next = self.held_src.q[j * 3 + s].val();
                    self.held_alias.d[j * 3 + s].next = self.held_alias.q[j * 3 + s].val();
                    self.held_conflict.d[j * 3 + s].next = self.held_conflict.q[j * 3 + s].val();
                    self.held_state.d[j * 3 + s].next = self.next_state[j * 3 + s].val();
                    self.held_entry.d[j * 3 + s].next = self.next_entry[j * 3 + s].val();
                }
            }
            for j in 0..(self._window - 1) {
                if self.issue.val() {
                    self.held_op.d[j].next = self.held_op.q[j + 1].val();
                    self.held_dst.d[j].next = self.held_dst.q[j + 1].val();
                    for s in 0..3 {
                        self.held_src.d[j * 3 + s].next = self.held_src.q[j * 3 + s + 3].val();
                        self.held_alias.d[j * 3 + s].next = self.held_alias.q[j * 3 + s + 3].val();
                        self.held_conflict.d[j * 3 + s].next =
                            self.held_conflict.q[j * 3 + s + 3].val();
                        self.held_state.d[j * 3 + s].next = self.next_state[j * 3 + s + 3].val();
                        self.held_entry.d[j * 3 + s].next = self.next_entry[j * 3 + s + 3].val();
                    }
                }
            }
            for j in 0..self._window {
                if self.insert[j].val() {
                    self.held_op.d[j].next = self.instr_op.val();
                    self.held_dst.d[j].next = self.instr_dst.val();
                    for s in 0..3 {
                        self.held_src.d[j * 3 + s].next = self.instr_src[s].val();
                        self.held_alias.d[j * 3 + s].next = self.instr_alias[s].val();
                        self.held_conflict.d[j * 3 + s].next = self.instr_conflict[s].val();
                        self.held_state.d[j * 3 + s].next = self.done.val();
                        if self.instr_present[s].val()
                            & (self.instr_alias[s].val() == self.alias_none.val())
                        {
                            self.held_state.d[j * 3 + s].next = self.pending.val();
                        }
                        self.held_entry.d[j * 3 + s].next = self.zero3.val();
                    }
                }
            }
        }
    }
}
