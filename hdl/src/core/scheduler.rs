//! The core slice's control: the instruction decoder (conflict detection), the instruction
//! window, the scoreboard, the read scheduler (head reads, conflict-queue preloads,
//! prefetch-queue prefetches, issue), and the queues' and the ALU's bookkeeping. Every rule is
//! stated in `docs/core.md`; the golden model follows the same text.

use rust_hdl::prelude::*;

use super::captures::CaptureDelay;
use super::decode::InstructionDecoder;
use super::operands::{MuxInputs, OperandSources};
use super::reads::ReadScheduler;
use super::requests::ReadRequests;
use super::scoreboard::Scoreboard;
use super::window::InstructionWindow;
use crate::checkers::EntryChecker;
use crate::params::{CaptureKind, CoreParams};
use crate::regs::Registers;
use crate::{constant, constants, signals};

/// The scheduler of the core slice (combinational decisions, registered state).
///
/// Window slot 0 is the head: the oldest instruction, the one collecting its operands. Slots
/// `1..=lookahead` hold the next instructions. Every cycle the read ports go, lowest port first,
/// to (1) the head's pending sources, (2) conflict-queue preloads of later instructions'
/// conflicting sources, (3) prefetch-queue prefetches of later instructions' sources; each read
/// needs a bank nobody else reads that cycle and a register no older instruction still writes.
/// The head issues in the cycle its last source is read (or at once if all are queued).
#[derive(LogicBlock)]
pub struct CoreScheduler<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the window, the queues and the pipeline.
    pub reset: Signal<In, Bit>,
    /// An instruction is offered.
    pub instr_valid: Signal<In, Bit>,
    /// Its op code (`CoreOp`).
    pub instr_op: Signal<In, Bits<3>>,
    /// Its first destination register.
    pub instr_dst: Signal<In, Bits<RI>>,
    /// Its source registers (those that are no GPR read are ignored).
    pub instr_src: Vec<Signal<In, Bits<RI>>>,
    /// Per source: it is a GPR read.
    pub instr_read: Vec<Signal<In, Bit>>,
    /// Per source: its value when it is no GPR read.
    pub instr_imm: Vec<Signal<In, Bits<32>>>,
    /// Its destination registers written.
    pub instr_writes: Signal<In, Bits<3>>,
    /// Its unit (`CoreUnit`).
    pub instr_unit: Signal<In, Bits<3>>,
    /// Its sync waits: bit 0 `(ss)`, bit 1 `(sy)`.
    pub instr_wait: Signal<In, Bits<2>>,
    /// The offered instruction is taken at the end of this cycle.
    pub instr_ready: Signal<Out, Bit>,
    /// Per read port: a GPR read this cycle.
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per read port, for the data arriving this cycle (reads of last cycle): where it goes
    /// (`CaptureKind`: nowhere, the head's operand latch, conflict queue, prefetch queue).
    pub capture_kind: Vec<Signal<Out, Bits<2>>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<Out, Bits<3>>>,
    /// The head issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// The instruction issued `read_latency` cycles ago has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// Its op code.
    pub alu_op: Signal<Out, Bits<3>>,
    /// Its immediates, per source.
    pub alu_imm: Vec<Signal<Out, Bits<32>>>,
    /// Per source: where its value is (`OperandSource`).
    pub alu_kind: Vec<Signal<Out, Bits<3>>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance.
    pub alu_index: Vec<Signal<Out, Bits<4>>>,
    /// Per source and operand-mux input: the one-hot select of the same place
    /// ([`MuxInputs`]).
    pub alu_select: Vec<Signal<Out, Bit>>,
    /// Number of GPR reads this cycle (observation).
    pub reads: Signal<Out, Bits<4>>,
    /// Banks read this cycle, one bit per bank (observation).
    pub banks_read: Signal<Out, Bits<16>>,
    /// Banks read twice this cycle (2R1W banks), one bit per bank (observation).
    pub banks_read_twice: Signal<Out, Bits<16>>,
    /// A result is written back this cycle (write port 0).
    pub retire_valid: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    /// A long-latency instruction's value leaves the ALU this cycle.
    pub long_valid: Signal<Out, Bit>,
    /// Its first destination register.
    pub long_reg: Signal<Out, Bits<RI>>,
    /// Its destination registers written.
    pub long_writes: Signal<Out, Bits<3>>,
    /// Its unit.
    pub long_unit: Signal<Out, Bits<3>>,
    /// External write request (write port 1).
    pub ext_valid: Signal<In, Bit>,
    /// The external write is a long-latency result's register.
    pub ext_result: Signal<In, Bit>,
    /// External write register.
    pub ext_reg: Signal<In, Bits<RI>>,
    /// The external write is performed this cycle.
    pub ext_grant: Signal<Out, Bit>,

    decoder: InstructionDecoder<RI>,
    window: InstructionWindow<RI>,
    scoreboard: Scoreboard<RI>,
    reader: ReadScheduler<RI>,
    /// The reads onto the GPR's ports, through the request stage.
    requests: ReadRequests<RI>,
    /// The queues' busy entries.
    queues: QueueEntries,
    /// Where each read's data goes, through the GPR's read latency.
    captures: CaptureDelay,
    operands: OperandSources,
    _window: usize,
    _served: usize,
    _described: usize,
    _seen: usize,
    _preload: usize,
    _read_ports: usize,
    _candidates: usize,
    /// The operand mux's inputs.
    _mux_inputs: usize,
    /// Head sources that may be forwarded: 3 with result forwarding, otherwise 0.
    _forwarded: usize,
    /// 1 with a conflict or a prefetch queue, otherwise 0.
    _queued: usize,
}

impl<const RI: usize> CoreScheduler<RI> {
    /// The scheduler for `params` (`RI` must be its register-index width).
    pub fn new(params: &CoreParams) -> Self {
        assert_eq!(RI, params.gpr.register_bits());
        let w = params.window();
        let (served, preload) = (params.served_slots(), params.preload_slots());
        let p = params.gpr.read_ports;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            instr_valid: Default::default(),
            instr_op: Default::default(),
            instr_dst: Default::default(),
            instr_src: signals(3),
            instr_read: signals(3),
            instr_imm: signals(3),
            instr_writes: Default::default(),
            instr_unit: Default::default(),
            instr_wait: Default::default(),
            instr_ready: Default::default(),
            read_valid: signals(p),
            read_reg: signals(p),
            capture_kind: signals(p),
            capture_index: signals(p),
            issue: Default::default(),
            alu_valid: Default::default(),
            alu_op: Default::default(),
            alu_imm: signals(3),
            alu_kind: signals(3),
            alu_index: signals(3),
            alu_select: signals(3 * MuxInputs::of(params).count),
            reads: Default::default(),
            banks_read: Default::default(),
            banks_read_twice: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            long_valid: Default::default(),
            long_reg: Default::default(),
            long_writes: Default::default(),
            long_unit: Default::default(),
            ext_valid: Default::default(),
            ext_result: Default::default(),
            ext_reg: Default::default(),
            ext_grant: Default::default(),
            decoder: InstructionDecoder::new(params),
            window: InstructionWindow::new(params),
            scoreboard: Scoreboard::new(params),
            reader: ReadScheduler::new(params),
            requests: ReadRequests::new(params, ReadScheduler::<RI>::candidates(params)),
            queues: QueueEntries::new(params),
            captures: CaptureDelay::new(params),
            operands: OperandSources::new(params),
            _window: w,
            _served: served,
            _described: Scoreboard::<RI>::described_slots(params),
            _seen: Scoreboard::<RI>::seen_slots(params),
            _preload: preload,
            _read_ports: p,
            _candidates: ReadScheduler::<RI>::candidates(params),
            _mux_inputs: MuxInputs::of(params).count,
            _forwarded: 3 * usize::from(params.forward),
            _queued: usize::from(params.cq_entries.max(params.pq_entries) > 0),
        }
    }
}

impl<const RI: usize> Logic for CoreScheduler<RI> {
    // Wiring of the sub-blocks, then the queues' and the ALU's bookkeeping.
    #[hdl_gen]
    fn update(&mut self) {
        self.window.clock.next = self.clock.val();
        self.scoreboard.clock.next = self.clock.val();
        self.window.reset.next = self.reset.val();
        self.scoreboard.reset.next = self.reset.val();
        self.reader.reset.next = self.reset.val();
        self.queues.clock.next = self.clock.val();
        self.queues.reset.next = self.reset.val();
        self.queues.cq_taken.next = self.reader.cq_taken.val();
        for _q in 0..self._queued {
            self.queues.issue[0].next = self.reader.issue.val();
            for s in 0..3 {
                self.queues.next_state[s].next = self.reader.next_state[s].val();
                self.queues.next_entry[s].next = self.reader.next_entry[s].val();
            }
        }
        self.queues.pq_taken.next = self.reader.pq_taken.val();
        self.captures.clock.next = self.clock.val();
        self.operands.clock.next = self.clock.val();
        // The offered instruction, decoded, into the window.
        self.window.issue.next = self.reader.issue.val();
        self.window.instr_valid.next = self.instr_valid.val();
        self.window.instr_op.next = self.instr_op.val();
        self.window.instr_dst.next = self.instr_dst.val();
        self.window.instr_writes.next = self.instr_writes.val();
        self.window.instr_unit.next = self.instr_unit.val();
        self.window.instr_wait.next = self.instr_wait.val();
        self.scoreboard.instr_dst.next = self.instr_dst.val();
        self.scoreboard.instr_writes.next = self.instr_writes.val();
        self.scoreboard.instr_unit.next = self.instr_unit.val();
        self.scoreboard.instr_wait.next = self.instr_wait.val();
        for s in 0..3 {
            self.decoder.read[s].next = self.instr_read[s].val();
            self.decoder.src[s].next = self.instr_src[s].val();
            self.window.instr_src[s].next = self.instr_src[s].val();
            self.window.instr_read[s].next = self.instr_read[s].val();
            self.window.instr_imm[s].next = self.instr_imm[s].val();
            self.window.instr_alias[s].next = self.decoder.alias_code[s].val();
            self.window.instr_conflict[s].next = self.decoder.conflict[s].val();
            self.scoreboard.instr_src[s].next = self.instr_src[s].val();
        }
        self.instr_ready.next = self.window.ready.val();
        // The window's slots to the scoreboard and the read scheduler; its next states back.
        self.scoreboard.issue.next = self.reader.issue.val();
        self.reader.cq_free.next = self.queues.cq_free.val();
        self.reader.pq_free.next = self.queues.pq_free.val();
        for j in 0..self._served {
            self.reader.slot_valid[j].next = self.window.valid[j].val();
            self.scoreboard.slot_valid[j].next = self.window.valid[j].val();
            self.scoreboard.entering[j].next = self.window.entering[j].val();
        }
        for j in 0..self._described {
            self.scoreboard.slot_dst[j].next = self.window.dst[j].val();
            self.scoreboard.slot_writes[j].next = self.window.writes[j].val();
            self.scoreboard.slot_unit[j].next = self.window.unit[j].val();
        }
        self.scoreboard.slot_wait[0].next = self.window.waits[0].val();
        self.scoreboard.slot_wait[1].next = self.window.waits[1].val();
        self.reader.held.next = self.scoreboard.held.val();
        for k in 0..(3 * self._seen) {
            self.scoreboard.slot_src[k].next = self.window.src[k].val();
        }
        for s in 0..self._forwarded {
            self.operands.forward[s].next = self.scoreboard.forward[s].val();
            self.operands.distance[s].next = self.scoreboard.distance[s].val();
        }
        for k in 0..(3 * self._served) {
            self.reader.slot_src[k].next = self.window.src[k].val();
            self.reader.hazard[k].next = self.scoreboard.hazard[k].val();
        }
        for k in 0..(3 * self._preload) {
            self.reader.later_conflict[k].next = self.window.conflict[k].val();
        }
        for k in 0..(3 * self._window) {
            self.reader.slot_state[k].next = self.window.state[k].val();
            self.reader.slot_entry[k].next = self.window.entry[k].val();
            self.window.next_state[k].next = self.reader.next_state[k].val();
            self.window.next_entry[k].next = self.reader.next_entry[k].val();
        }
        self.issue.next = self.reader.issue.val();
        self.reads.next = self.requests.reads.val();
        self.banks_read.next = self.requests.banks_read.val();
        self.banks_read_twice.next = self.requests.banks_read_twice.val();
        self.reader.banks_written.next = self.scoreboard.banks_written.val();
        self.alu_valid.next = self.scoreboard.alu_valid.val();
        self.retire_valid.next = self.scoreboard.retire_valid.val();
        self.retire_reg.next = self.scoreboard.retire_reg.val();
        self.long_valid.next = self.scoreboard.long_valid.val();
        self.long_reg.next = self.scoreboard.long_reg.val();
        self.long_writes.next = self.scoreboard.long_writes.val();
        self.long_unit.next = self.scoreboard.long_unit.val();
        self.scoreboard.ext_valid.next = self.ext_valid.val();
        self.scoreboard.ext_result.next = self.ext_result.val();
        self.scoreboard.ext_reg.next = self.ext_reg.val();
        self.ext_grant.next = self.scoreboard.ext_grant.val();
        // The reads, and where their data goes when it arrives.
        self.requests.clock.next = self.clock.val();
        for c in 0..self._candidates {
            self.requests.grant[c].next = self.reader.cand_grant[c].val();
            self.requests.port[c].next = self.reader.cand_port[c].val();
            self.requests.reg_index[c].next = self.reader.cand_reg[c].val();
            self.requests.kind[c].next = self.reader.cand_kind[c].val();
            self.requests.index[c].next = self.reader.cand_index[c].val();
        }
        self.requests.banks[0].next = self.reader.banks[0].val();
        self.requests.banks[1].next = self.reader.banks[1].val();
        self.captures.reset.next = self.reset.val();
        for p in 0..self._read_ports {
            self.read_valid[p].next = self.requests.read_valid[p].val();
            self.read_reg[p].next = self.requests.read_reg[p].val();
            self.captures.read_kind[p].next = self.requests.read_kind[p].val();
            self.captures.read_index[p].next = self.requests.read_index[p].val();
            self.capture_kind[p].next = self.captures.capture_kind[p].val();
            self.capture_index[p].next = self.captures.capture_index[p].val();
        }
        // Where each operand of the issuing head will be when it reaches the ALU.
        self.operands.head_op.next = self.window.head_op.val();
        for s in 0..3 {
            self.operands.next_state[s].next = self.reader.next_state[s].val();
            self.operands.next_entry[s].next = self.reader.next_entry[s].val();
            self.operands.head_read[s].next = self.reader.head_read[s].val();
            self.operands.head_port[s].next = self.reader.head_port[s].val();
            self.operands.alias_code[s].next = self.window.alias_code[s].val();
            self.operands.immediate[s].next = self.window.immediate[s].val();
            self.operands.head_imm[s].next = self.window.imm[s].val();
            self.alu_imm[s].next = self.operands.alu_imm[s].val();
            self.reader.forward[s].next = self.scoreboard.forward[s].val();
            self.alu_kind[s].next = self.operands.alu_kind[s].val();
            self.alu_index[s].next = self.operands.alu_index[s].val();
        }
        for x in 0..(3 * self._mux_inputs) {
            self.alu_select[x].next = self.operands.alu_select[x].val();
        }
        self.alu_op.next = self.operands.alu_op.val();
    }
}

/// The conflict and prefetch queues' busy entries (`docs/core.md`): an entry is taken by a
/// read whose data it will hold and freed at the end of the issue cycle of the instruction that
/// uses it; reset frees every entry. With the simulation-only checks of each queue's entries
/// ([`queue_checks`]).
#[derive(LogicBlock)]
pub struct QueueEntries {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every entry free.
    pub reset: Signal<In, Bit>,
    /// With a queue (none without): the head issues this cycle.
    pub issue: Vec<Signal<In, Bit>>,
    /// With a queue (none without), per head source: its state after this cycle's reads
    /// (`CaptureKind` code).
    pub next_state: Vec<Signal<In, Bits<2>>>,
    /// With a queue (none without), per head source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<In, Bits<3>>>,
    /// Conflict-queue entries taken this cycle.
    pub cq_taken: Signal<In, Bits<8>>,
    /// Prefetch-queue entries taken this cycle.
    pub pq_taken: Signal<In, Bits<8>>,
    /// Free conflict-queue entries, one bit per entry.
    pub cq_free: Signal<Out, Bits<8>>,
    /// Free prefetch-queue entries, one bit per entry.
    pub pq_free: Signal<Out, Bits<8>>,
    /// Busy entries: [0] conflict queue, [1] prefetch queue (bit e = entry e).
    queue_busy: Registers<Bits<8>>,
    /// Simulation-only: the conflict queue's entries.
    cq_check: EntryChecker,
    /// Simulation-only: the prefetch queue's entries.
    pq_check: EntryChecker,
    /// Queue entries freed by the issuing head: [0] cq, [1] pq.
    freed: Vec<Signal<Local, Bits<8>>>,
    /// A source's state in the conflict queue (one constant, none without the queue).
    in_cq: Vec<Constant<Bits<2>>>,
    /// A source's state in the prefetch queue (one constant, none without the queue).
    in_pq: Vec<Constant<Bits<2>>>,
    no_entries: Constant<Bits<8>>,
    /// Existing queue entries: [0] cq, [1] pq.
    queue_mask: Vec<Constant<Bits<8>>>,
    /// One-hot entries 0..max(cq, pq).
    entry_bit: Vec<Constant<Bits<8>>>,
    /// The queue entries' numbers, 0..max(cq, pq).
    number: Vec<Constant<Bits<3>>>,
    _cq: usize,
    _pq: usize,
}

impl QueueEntries {
    /// The queues of `params`.
    pub fn new(params: &CoreParams) -> Self {
        let mask = |n: usize| constant((1u64 << n) - 1);
        let entries = params.cq_entries.max(params.pq_entries);
        let queued = usize::from(entries > 0);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: signals(queued),
            next_state: signals(3 * queued),
            next_entry: signals(3 * queued),
            cq_taken: Default::default(),
            pq_taken: Default::default(),
            cq_free: Default::default(),
            pq_free: Default::default(),
            queue_busy: Registers::new(2),
            cq_check: queue_checks("conflict", params.cq_entries),
            pq_check: queue_checks("prefetch", params.pq_entries),
            freed: signals(2),
            in_cq: constants((params.cq_entries > 0).then_some(CaptureKind::ConflictQueue.code())),
            in_pq: constants((params.pq_entries > 0).then_some(CaptureKind::PrefetchQueue.code())),
            no_entries: constant(0),
            queue_mask: vec![mask(params.cq_entries), mask(params.pq_entries)],
            entry_bit: constants((0..entries).map(|e| 1u64 << e)),
            number: constants(0..entries as u64),
            _cq: params.cq_entries,
            _pq: params.pq_entries,
        }
    }
}

impl Logic for QueueEntries {
    #[hdl_gen]
    fn update(&mut self) {
        self.queue_busy.clock.next = self.clock.val();
        self.cq_free.next = !self.queue_busy.q[0].val() & self.queue_mask[0].val();
        self.pq_free.next = !self.queue_busy.q[1].val() & self.queue_mask[1].val();
        // Entries: taken by this cycle's reads, freed by the issuing head.
        self.freed[0].next = self.no_entries.val();
        self.freed[1].next = self.no_entries.val();
        for s in 0..3 {
            for e in 0..self._cq {
                if self.issue[0].val()
                    & (self.next_state[s].val() == self.in_cq[0].val())
                    & (self.next_entry[s].val() == self.number[e].val())
                {
                    self.freed[0].next = self.freed[0].val() | self.entry_bit[e].val();
                }
            }
            for e in 0..self._pq {
                if self.issue[0].val()
                    & (self.next_state[s].val() == self.in_pq[0].val())
                    & (self.next_entry[s].val() == self.number[e].val())
                {
                    self.freed[1].next = self.freed[1].val() | self.entry_bit[e].val();
                }
            }
        }
        self.queue_busy.d[0].next =
            (self.queue_busy.q[0].val() | self.cq_taken.val()) & !self.freed[0].val();
        self.queue_busy.d[1].next =
            (self.queue_busy.q[1].val() | self.pq_taken.val()) & !self.freed[1].val();
        if self.reset.val() {
            self.queue_busy.d[0].next = self.no_entries.val();
            self.queue_busy.d[1].next = self.no_entries.val();
        }
        self.cq_check.clock.next = self.clock.val();
        self.pq_check.clock.next = self.clock.val();
        self.cq_check.enable.next = !self.reset.val();
        self.pq_check.enable.next = !self.reset.val();
        for e in 0..self._cq {
            self.cq_check.busy[e].next = self.queue_busy.q[0].val().get_bit(e);
            self.cq_check.fill[e].next = self.cq_taken.val().get_bit(e);
            self.cq_check.drain[e].next = self.freed[0].val().get_bit(e);
        }
        for e in 0..self._pq {
            self.pq_check.busy[e].next = self.queue_busy.q[1].val().get_bit(e);
            self.pq_check.fill[e].next = self.pq_taken.val().get_bit(e);
            self.pq_check.drain[e].next = self.freed[1].val().get_bit(e);
        }
    }
}

/// The entries of the `which` (conflict or prefetch) queue of `entries` entries: none taken
/// while busy (`core: conflict queue entry <e> taken while busy (overflow)`) and none freed
/// while free (`... freed while free (underflow)`); not checked during reset.
pub(crate) fn queue_checks(which: &str, entries: usize) -> EntryChecker {
    EntryChecker::new(
        (0..entries).map(|e| format!("core: {which} queue entry {e}")),
        "taken while busy",
        "freed while free",
    )
}
