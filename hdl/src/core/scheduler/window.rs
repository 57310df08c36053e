//! The core's instruction window: the head instruction and the next ones, with the state of
//! every source.

use rust_hdl::prelude::*;

use super::decode::InstructionDecoder;
use super::scoreboard::Scoreboard;
use crate::cells::regs::Registers;
use crate::core::ports::InstructionFields;
use crate::core::widths::{
    AliasCode, CaptureCode, EntryIndex, OpCode, SyncWaits, UnitCode, WaveNumber, Word, WriteCount,
};
use crate::params::{CaptureKind, CoreParams, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant, signals};

/// The instruction window (`docs/core.md`): `lookahead + 1` slots, slot 0 the head. Vectors
/// of sources are slot-major (`slot * SOURCES + source`). A source's state is a `CaptureKind` code:
/// pending (0), done (1), in the conflict queue (2) or the prefetch queue (3), with its queue
/// entry; a source that is not a GPR read is done from fetch and takes its immediate. The
/// offered instruction is decoded as it is taken ([`InstructionDecoder`]). When the
/// head issues the window moves up one slot; the offered instruction is taken into the first
/// free slot after that move, when there is one. It shows what its readers use: the served
/// slots (the head, and those preloads or prefetches serve), the conflicts of the slots
/// preloads serve, what the first slots write (the scoreboard's), the head's aliases and
/// immediates, every source's state. `RI` is the register-index width.
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
    /// Its fields.
    pub instr: InstructionFields<Out, In, RI>,
    /// Per slot and source: its state after this cycle's reads.
    pub next_state: Vec<Signal<In, CaptureCode>>,
    /// Per slot and source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<In, EntryIndex>>,
    /// The offered instruction is taken at the end of this cycle.
    pub ready: Signal<Out, Bit>,
    /// Per served slot: it holds an instruction.
    pub valid: Vec<Signal<Out, Bit>>,
    /// The head's op code.
    pub head_op: Signal<Out, OpCode>,
    /// Per described slot (`Scoreboard::described_slots`): its first destination.
    pub dst: Vec<Signal<Out, Bits<RI>>>,
    /// Per described slot: its destination registers written.
    pub writes: Vec<Signal<Out, WriteCount>>,
    /// Per described slot: its unit.
    pub unit: Vec<Signal<Out, UnitCode>>,
    /// Per slot 0 and 1: its sync waits.
    pub waits: Vec<Signal<Out, SyncWaits>>,
    /// Per seen slot (`Scoreboard::seen_slots`) and source: the register.
    pub src: Vec<Signal<Out, Bits<RI>>>,
    /// Per served slot: the offered instruction enters it at the end of this cycle.
    pub entering: Vec<Signal<Out, Bit>>,
    /// Per head source: the alias code.
    pub alias_code: Vec<Signal<Out, AliasCode>>,
    /// Per head source: it takes its immediate (it is no GPR read).
    pub immediate: Vec<Signal<Out, Bit>>,
    /// Per head source: its immediate.
    pub imm: Vec<Signal<Out, Word>>,
    /// Per source of the slots preloads serve (`(slot - 1) * SOURCES + source`): the bank conflict.
    pub conflict: Vec<Signal<Out, Bit>>,
    /// Per slot and source: the state.
    pub state: Vec<Signal<Out, CaptureCode>>,
    /// Per slot and source: the queue entry.
    pub entry: Vec<Signal<Out, EntryIndex>>,
    /// With several waves (none with one): the offered instruction's wave.
    pub instr_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per slot, it holds an instruction.
    pub all_valid: Vec<Signal<Out, Bit>>,
    /// With several waves: per slot, its first destination.
    pub all_dst: Vec<Signal<Out, Bits<RI>>>,
    /// With several waves: per slot, its destination registers written.
    pub all_writes: Vec<Signal<Out, WriteCount>>,
    /// With several waves: per slot, its unit.
    pub all_unit: Vec<Signal<Out, UnitCode>>,
    /// With several waves: per slot, its wave.
    pub wave: Vec<Signal<Out, WaveNumber>>,
    held_valid: Registers<Bit>,
    held_state: Registers<CaptureCode>,
    held_entry: Registers<EntryIndex>,
    /// The offered instruction's aliases and bank conflicts.
    decoder: InstructionDecoder<RI>,
    /// The instructions the slots hold.
    slots: HeldInstructions<RI>,
    /// Per slot: valid after the move.
    shifted_valid: Vec<Signal<Local, Bit>>,
    /// Per slot: the offered instruction goes there.
    insert: Vec<Signal<Local, Bit>>,
    accept: Signal<Local, Bit>,
    pending: Constant<CaptureCode>,
    done: Constant<CaptureCode>,
    alias_none: Constant<AliasCode>,
    zero3: Constant<EntryIndex>,
    _window: usize,
    _served: usize,
    _described: usize,
    _seen: usize,
    _preload: usize,
    /// 1 with several waves (each slot keeps its wave), else 0.
    _tagged: usize,
}

impl<const RI: usize> InstructionWindow<RI> {
    /// The window of `params`, its outputs sized for the slots the read scheduler serves.
    pub fn new(params: &CoreParams) -> Self {
        let (served, preload) = (params.served_slots(), params.preload_slots());
        let w = params.window();
        let seen = Scoreboard::<RI>::seen_slots(params);
        let described = Scoreboard::<RI>::described_slots(params);
        let t = usize::from(params.wave_count() > 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            instr_valid: Default::default(),
            instr: InstructionFields::new(SOURCES),
            next_state: signals(SOURCES * w),
            next_entry: signals(SOURCES * w),
            ready: Default::default(),
            valid: signals(served),
            head_op: Default::default(),
            dst: signals(described),
            writes: signals(described),
            unit: signals(described),
            waits: signals(2),
            src: signals(SOURCES * seen),
            entering: signals(served),
            alias_code: signals(SOURCES),
            immediate: signals(SOURCES),
            imm: signals(SOURCES),
            conflict: signals(SOURCES * preload),
            state: signals(SOURCES * w),
            entry: signals(SOURCES * w),
            instr_wave: signals(t),
            all_valid: signals(w * t),
            all_dst: signals(w * t),
            all_writes: signals(w * t),
            all_unit: signals(w * t),
            wave: signals(w * t),
            held_valid: Registers::new(w),
            held_state: Registers::new(SOURCES * w),
            held_entry: Registers::new(SOURCES * w),
            decoder: InstructionDecoder::new(params),
            slots: HeldInstructions::new(params),
            shifted_valid: signals(w),
            insert: signals(w),
            accept: Default::default(),
            pending: constant(CaptureKind::Nowhere.code()),
            done: constant(CaptureKind::Latch.code()),
            alias_none: constant(super::decode::alias::NONE),
            zero3: constant(0),
            _window: w,
            _served: served,
            _described: described,
            _seen: seen,
            _preload: preload,
            _tagged: t,
        }
    }
}

/// The window's fields: the offered instruction into the slots and the decoder, and what the slots hold out to the scheduler.
enum Fields {}

/// The window's movement: up a slot on issue, the offered instruction into the first free slot, each source's state with its instruction.
enum Movement {}

impl<const RI: usize> Logic for InstructionWindow<RI> {
    logic_in_parts!(Fields, Movement);
}

impl<const RI: usize> crate::parts::Part<Fields> for InstructionWindow<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.held_valid.clock.next = self.clock.val();
        self.held_state.clock.next = self.clock.val();
        self.held_entry.clock.next = self.clock.val();
        self.slots.clock.next = self.clock.val();
        self.slots.issue.next = self.issue.val();
        self.slots.instr.op.next = self.instr.op.val();
        self.slots.instr.dst.next = self.instr.dst.val();
        self.slots.instr.writes.next = self.instr.writes.val();
        self.slots.instr.unit.next = self.instr.unit.val();
        self.slots.instr.wait.next = self.instr.wait.val();
        for s in 0..SOURCES {
            self.slots.instr.src[s].next = self.instr.src[s].val();
            self.slots.instr.read[s].next = self.instr.read[s].val();
            self.slots.instr.imm[s].next = self.instr.imm[s].val();
            self.decoder.read[s].next = self.instr.read[s].val();
            self.decoder.src[s].next = self.instr.src[s].val();
            self.slots.instr_alias[s].next = self.decoder.alias_code[s].val();
            self.slots.instr_conflict[s].next = self.decoder.conflict[s].val();
            self.alias_code[s].next = self.slots.alias_code[s].val();
            self.immediate[s].next = self.slots.immediate[s].val();
            self.imm[s].next = self.slots.imm[s].val();
        }
        self.head_op.next = self.slots.head_op.val();
        for j in 0..self._served {
            self.valid[j].next = self.held_valid.q[j].val();
        }
        for j in 0..self._described {
            self.dst[j].next = self.slots.dst[j].val();
            self.writes[j].next = self.slots.writes[j].val();
            self.unit[j].next = self.slots.unit[j].val();
        }
        self.waits[0].next = self.slots.waits[0].val();
        self.waits[1].next = self.slots.waits[1].val();
        for k in 0..(SOURCES * self._seen) {
            self.src[k].next = self.slots.src[k].val();
        }
        for k in 0..(SOURCES * self._preload) {
            self.conflict[k].next = self.slots.conflict[k].val();
        }
        for k in 0..(SOURCES * self._window) {
            self.state[k].next = self.held_state.q[k].val();
            self.entry[k].next = self.held_entry.q[k].val();
        }
    }
}

impl<const RI: usize> crate::parts::Part<Movement> for InstructionWindow<RI> {
    // Single-value loops bind the slots (nw) and the sources (nsrc) for index arithmetic. Each
    // source's state follows its instruction: kept, moved up a slot on issue, or new with the
    // offered one.
    #[hdl_gen]
    fn update(&mut self) {
        for nw in self._window..(self._window + 1) {
            // The window moves up on issue; the offered instruction takes the first free slot.
            for j in 0..(self._window - 1) {
                self.shifted_valid[j].next = self.held_valid.q[j].val();
                if self.issue.val() {
                    self.shifted_valid[j].next = self.held_valid.q[j + 1].val();
                }
            }
            self.shifted_valid[nw - 1].next = self.held_valid.q[nw - 1].val() & !self.issue.val();
            self.ready.next = !self.shifted_valid[nw - 1].val() & !self.reset.val();
        }
        self.accept.next = self.instr_valid.val() & self.ready.val();
        self.insert[0].next = self.accept.val() & !self.shifted_valid[0].val();
        for j in 1..self._window {
            self.insert[j].next =
                self.accept.val() & !self.shifted_valid[j].val() & self.shifted_valid[j - 1].val();
        }
        for j in 0..self._served {
            self.entering[j].next = self.insert[j].val();
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for j in 0..self._window {
                self.slots.insert[j].next = self.insert[j].val();
                self.held_valid.d[j].next =
                    (self.shifted_valid[j].val() | self.insert[j].val()) & !self.reset.val();
                for s in 0..SOURCES {
                    self.held_state.d[j * nsrc + s].next = self.next_state[j * nsrc + s].val();
                    self.held_entry.d[j * nsrc + s].next = self.next_entry[j * nsrc + s].val();
                }
            }
            for j in 0..(self._window - 1) {
                for s in 0..SOURCES {
                    if self.issue.val() {
                        self.held_state.d[j * nsrc + s].next =
                            self.next_state[j * nsrc + s + nsrc].val();
                        self.held_entry.d[j * nsrc + s].next =
                            self.next_entry[j * nsrc + s + nsrc].val();
                    }
                }
            }
            for j in 0..self._window {
                for s in 0..SOURCES {
                    if self.insert[j].val() {
                        self.held_state.d[j * nsrc + s].next = self.done.val();
                        if self.instr.read[s].val()
                            & (self.decoder.alias_code[s].val() == self.alias_none.val())
                        {
                            self.held_state.d[j * nsrc + s].next = self.pending.val();
                        }
                        self.held_entry.d[j * nsrc + s].next = self.zero3.val();
                    }
                }
            }
        }
        for _t in 0..self._tagged {
            self.slots.instr_wave[0].next = self.instr_wave[0].val();
            for j in 0..self._window {
                self.all_valid[j].next = self.held_valid.q[j].val();
                self.all_dst[j].next = self.slots.all_dst[j].val();
                self.all_writes[j].next = self.slots.all_writes[j].val();
                self.all_unit[j].next = self.slots.all_unit[j].val();
                self.wave[j].next = self.slots.wave[j].val();
            }
        }
    }
}

/// The instructions a window's slots hold (`InstructionWindow`): every field of each, kept,
/// moved up a slot when the head issues, or taken from the offered instruction where it is
/// inserted. It shows what the window shows of them. `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct HeldInstructions<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The head issues this cycle: the slots move up.
    pub issue: Signal<In, Bit>,
    /// Per slot: the offered instruction goes there (after the move).
    pub insert: Vec<Signal<In, Bit>>,
    /// The offered instruction's fields.
    pub instr: InstructionFields<Out, In, RI>,
    /// Per source: the alias code.
    pub instr_alias: Vec<Signal<In, AliasCode>>,
    /// Per source: the bank conflict.
    pub instr_conflict: Vec<Signal<In, Bit>>,
    /// The head's op code.
    pub head_op: Signal<Out, OpCode>,
    /// Per described slot: the first destination.
    pub dst: Vec<Signal<Out, Bits<RI>>>,
    /// Per described slot: the destination registers written.
    pub writes: Vec<Signal<Out, WriteCount>>,
    /// Per described slot: the unit.
    pub unit: Vec<Signal<Out, UnitCode>>,
    /// Per slot 0 and 1: the sync waits.
    pub waits: Vec<Signal<Out, SyncWaits>>,
    /// Per seen slot and source: the register.
    pub src: Vec<Signal<Out, Bits<RI>>>,
    /// Per head source: the alias code.
    pub alias_code: Vec<Signal<Out, AliasCode>>,
    /// Per head source: it takes its immediate.
    pub immediate: Vec<Signal<Out, Bit>>,
    /// Per head source: the immediate.
    pub imm: Vec<Signal<Out, Word>>,
    /// Per source of the slots preloads serve: the bank conflict.
    pub conflict: Vec<Signal<Out, Bit>>,
    /// With several waves (none with one): the offered instruction's wave.
    pub instr_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per slot, the first destination.
    pub all_dst: Vec<Signal<Out, Bits<RI>>>,
    /// With several waves: per slot, the destination registers written.
    pub all_writes: Vec<Signal<Out, WriteCount>>,
    /// With several waves: per slot, the unit.
    pub all_unit: Vec<Signal<Out, UnitCode>>,
    /// With several waves: per slot, the wave.
    pub wave: Vec<Signal<Out, WaveNumber>>,
    /// With several waves, each slot's wave (none with one).
    held_wave: Vec<DFF<WaveNumber>>,
    held_op: Registers<OpCode>,
    held_dst: Registers<Bits<RI>>,
    held_writes: Registers<WriteCount>,
    held_unit: Registers<UnitCode>,
    held_wait: Registers<SyncWaits>,
    held_src: Registers<Bits<RI>>,
    held_read: Registers<Bit>,
    held_imm: Registers<Word>,
    held_alias: Registers<AliasCode>,
    held_conflict: Registers<Bit>,
    _window: usize,
    _described: usize,
    _seen: usize,
    _preload: usize,
    _tagged: usize,
}

impl<const RI: usize> HeldInstructions<RI> {
    /// The slots of `params`' window, showing what its window shows.
    pub fn new(params: &CoreParams) -> Self {
        let w = params.window();
        let t = usize::from(params.wave_count() > 1);
        Self {
            clock: Default::default(),
            issue: Default::default(),
            insert: signals(w),
            instr: InstructionFields::new(SOURCES),
            instr_alias: signals(SOURCES),
            instr_conflict: signals(SOURCES),
            head_op: Default::default(),
            dst: signals(Scoreboard::<RI>::described_slots(params)),
            writes: signals(Scoreboard::<RI>::described_slots(params)),
            unit: signals(Scoreboard::<RI>::described_slots(params)),
            waits: signals(2),
            src: signals(SOURCES * Scoreboard::<RI>::seen_slots(params)),
            alias_code: signals(SOURCES),
            immediate: signals(SOURCES),
            imm: signals(SOURCES),
            conflict: signals(SOURCES * params.preload_slots()),
            instr_wave: signals(t),
            all_dst: signals(w * t),
            all_writes: signals(w * t),
            all_unit: signals(w * t),
            wave: signals(w * t),
            held_wave: (0..w * t).map(|_| DFF::default()).collect(),
            held_op: Registers::new(w),
            held_dst: Registers::new(w),
            held_writes: Registers::new(w),
            held_unit: Registers::new(w),
            held_wait: Registers::new(w),
            held_src: Registers::new(SOURCES * w),
            held_read: Registers::new(SOURCES * w),
            held_imm: Registers::new(SOURCES * w),
            held_alias: Registers::new(SOURCES * w),
            held_conflict: Registers::new(SOURCES * w),
            _window: w,
            _described: Scoreboard::<RI>::described_slots(params),
            _seen: Scoreboard::<RI>::seen_slots(params),
            _preload: params.preload_slots(),
            _tagged: t,
        }
    }
}

impl<const RI: usize> Logic for HeldInstructions<RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    // Over 100 lines (106): one loop over the slots, which a split would reorder in the Verilog
    // (docs/rust-hdl.md, 25).
    #[hdl_gen]
    fn update(&mut self) {
        self.held_op.clock.next = self.clock.val();
        self.held_dst.clock.next = self.clock.val();
        self.held_writes.clock.next = self.clock.val();
        self.held_unit.clock.next = self.clock.val();
        self.held_wait.clock.next = self.clock.val();
        self.held_src.clock.next = self.clock.val();
        self.held_read.clock.next = self.clock.val();
        self.held_imm.clock.next = self.clock.val();
        self.held_alias.clock.next = self.clock.val();
        self.held_conflict.clock.next = self.clock.val();
        self.head_op.next = self.held_op.q[0].val();
        for j in 0..self._described {
            self.dst[j].next = self.held_dst.q[j].val();
            self.writes[j].next = self.held_writes.q[j].val();
            self.unit[j].next = self.held_unit.q[j].val();
        }
        self.waits[0].next = self.held_wait.q[0].val();
        self.waits[1].next = self.held_wait.q[1].val();
        for k in 0..(SOURCES * self._seen) {
            self.src[k].next = self.held_src.q[k].val();
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for k in 0..(SOURCES * self._preload) {
                self.conflict[k].next = self.held_conflict.q[k + nsrc].val();
            }
            for s in 0..SOURCES {
                self.alias_code[s].next = self.held_alias.q[s].val();
                self.immediate[s].next = !self.held_read.q[s].val();
                self.imm[s].next = self.held_imm.q[s].val();
            }
            for j in 0..self._window {
                self.held_op.d[j].next = self.held_op.q[j].val();
                self.held_dst.d[j].next = self.held_dst.q[j].val();
                self.held_writes.d[j].next = self.held_writes.q[j].val();
                self.held_unit.d[j].next = self.held_unit.q[j].val();
                self.held_wait.d[j].next = self.held_wait.q[j].val();
                for s in 0..SOURCES {
                    self.held_src.d[j * nsrc + s].next = self.held_src.q[j * nsrc + s].val();
                    self.held_read.d[j * nsrc + s].next = self.held_read.q[j * nsrc + s].val();
                    self.held_imm.d[j * nsrc + s].next = self.held_imm.q[j * nsrc + s].val();
                    self.held_alias.d[j * nsrc + s].next = self.held_alias.q[j * nsrc + s].val();
                    self.held_conflict.d[j * nsrc + s].next =
                        self.held_conflict.q[j * nsrc + s].val();
                }
            }
            for j in 0..(self._window - 1) {
                if self.issue.val() {
                    self.held_op.d[j].next = self.held_op.q[j + 1].val();
                    self.held_dst.d[j].next = self.held_dst.q[j + 1].val();
                    self.held_writes.d[j].next = self.held_writes.q[j + 1].val();
                    self.held_unit.d[j].next = self.held_unit.q[j + 1].val();
                    self.held_wait.d[j].next = self.held_wait.q[j + 1].val();
                    for s in 0..SOURCES {
                        self.held_src.d[j * nsrc + s].next =
                            self.held_src.q[j * nsrc + s + nsrc].val();
                        self.held_read.d[j * nsrc + s].next =
                            self.held_read.q[j * nsrc + s + nsrc].val();
                        self.held_imm.d[j * nsrc + s].next =
                            self.held_imm.q[j * nsrc + s + nsrc].val();
                        self.held_alias.d[j * nsrc + s].next =
                            self.held_alias.q[j * nsrc + s + nsrc].val();
                        self.held_conflict.d[j * nsrc + s].next =
                            self.held_conflict.q[j * nsrc + s + nsrc].val();
                    }
                }
            }
            for j in 0..self._window {
                if self.insert[j].val() {
                    self.held_op.d[j].next = self.instr.op.val();
                    self.held_dst.d[j].next = self.instr.dst.val();
                    self.held_writes.d[j].next = self.instr.writes.val();
                    self.held_unit.d[j].next = self.instr.unit.val();
                    self.held_wait.d[j].next = self.instr.wait.val();
                    for s in 0..SOURCES {
                        self.held_src.d[j * nsrc + s].next = self.instr.src[s].val();
                        self.held_read.d[j * nsrc + s].next = self.instr.read[s].val();
                        self.held_imm.d[j * nsrc + s].next = self.instr.imm[s].val();
                        self.held_alias.d[j * nsrc + s].next = self.instr_alias[s].val();
                        self.held_conflict.d[j * nsrc + s].next = self.instr_conflict[s].val();
                    }
                }
            }
        }
        // With several waves each slot keeps its wave, moving with its instruction.
        for _t in 0..self._tagged {
            for j in 0..self._window {
                self.held_wave[j].clock.next = self.clock.val();
                self.all_dst[j].next = self.held_dst.q[j].val();
                self.all_writes[j].next = self.held_writes.q[j].val();
                self.all_unit[j].next = self.held_unit.q[j].val();
                self.wave[j].next = self.held_wave[j].q.val();
                self.held_wave[j].d.next = self.held_wave[j].q.val();
            }
            for j in 0..(self._window - 1) {
                if self.issue.val() {
                    self.held_wave[j].d.next = self.held_wave[j + 1].q.val();
                }
            }
            for j in 0..self._window {
                if self.insert[j].val() {
                    self.held_wave[j].d.next = self.instr_wave[0].val();
                }
            }
        }
    }
}
