//! The core slice's control: the instruction window (with the decoder's conflict detection),
//! the scoreboard, the read side (head reads, conflict-queue preloads, prefetch-queue
//! prefetches, issue, the queues' entries) and the ALU's operand sources, wired together.
//! Every rule is stated in `docs/core.md`; the golden model follows the same text.

mod decode;
mod fetch;
mod operands;
mod read_side;
mod scoreboard;
mod window;

pub use decode::InstructionDecoder;
pub use fetch::WaveFetch;
pub use operands::{MuxInputs, OperandSelects};
pub use read_side::{QueueEntries, ReadAllocator, ReadRequests, ReadScheduler, ReadSide};
pub use scoreboard::{
    CandidateSpans, Flight, Forwarding, Hazards, NextHead, PendingEntries, PendingLookups,
    PendingTable, Scoreboard, WaveReadiness,
};
pub use window::{HeldInstructions, InstructionWindow};

pub(crate) use read_side::queue_checks;
pub(crate) use scoreboard::CANDIDATES;

use rust_hdl::prelude::*;

use crate::core::ports::{LongResult, OfferedInstruction, OfferedInstructions};
use crate::core::widths::{
    BankMask, CaptureCode, EntryIndex, OpCode, OperandIndex, OperandSourceCode, ReadCount,
    WaveNumber, Word,
};

use operands::OperandSources;

use crate::params::{CoreParams, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant_if, signals};

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
    /// The instruction offered.
    pub instr: OfferedInstruction<Out, In, RI>,
    /// Per read port: a GPR read this cycle.
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per read port, for the data arriving this cycle (reads of last cycle): where it goes
    /// (`CaptureKind`: nowhere, the head's operand latch, conflict queue, prefetch queue).
    pub capture_kind: Vec<Signal<Out, CaptureCode>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<Out, EntryIndex>>,
    /// The head issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// The instruction issued `read_latency` cycles ago has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// Its op code.
    pub alu_op: Signal<Out, OpCode>,
    /// Its immediates, per source.
    pub alu_imm: Vec<Signal<Out, Word>>,
    /// Per source: where its value is (`OperandSource`).
    pub alu_kind: Vec<Signal<Out, OperandSourceCode>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance.
    pub alu_index: Vec<Signal<Out, OperandIndex>>,
    /// Per source and operand-mux input: the one-hot select of the same place
    /// ([`MuxInputs`]).
    pub alu_select: Vec<Signal<Out, Bit>>,
    /// Number of GPR reads this cycle (observation).
    pub reads: Signal<Out, ReadCount>,
    /// Banks read this cycle, one bit per bank (observation).
    pub banks_read: Signal<Out, BankMask>,
    /// Banks read twice this cycle (2R1W banks), one bit per bank (observation).
    pub banks_read_twice: Signal<Out, BankMask>,
    /// A result is written back this cycle (write port 0).
    pub retire_valid: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    /// A long-latency instruction's value leaving the ALU this cycle.
    pub long: LongResult<Out, In, RI>,
    /// External write request (write port 1).
    pub ext_valid: Signal<In, Bit>,
    /// The external write is a long-latency result's register.
    pub ext_result: Signal<In, Bit>,
    /// External write register.
    pub ext_reg: Signal<In, Bits<RI>>,
    /// The external write is performed this cycle.
    pub ext_grant: Signal<Out, Bit>,
    /// With several waves, the instructions of every wave after wave 0 (`instr_*` is wave
    /// 0's; none with one wave).
    pub wave: OfferedInstructions<Out, In, RI>,

    window: InstructionWindow<RI>,
    scoreboard: Scoreboard<RI>,
    /// The read scheduler, the reads onto the GPR's ports and the queues' entries.
    read_side: ReadSide<RI>,
    operands: OperandSources,
    _window: usize,
    _served: usize,
    _described: usize,
    _seen: usize,
    _preload: usize,
    _read_ports: usize,
    /// The operand mux's inputs.
    _mux_inputs: usize,
    /// Head sources that may be forwarded: `SOURCES` with result forwarding, otherwise 0.
    _forwarded: usize,
    /// With several waves, the fetch selection (with one, a part without ports).
    fetch: WaveFetch<RI>,
    /// With several waves (none with one), the wave whose instruction entered last.
    last: Vec<DFF<WaveNumber>>,
    /// With several waves: the wave counted as last after reset.
    first_last: Vec<Constant<WaveNumber>>,
    /// 1 with several waves, else 0.
    _tagged: usize,
    _waves: usize,
}

impl<const RI: usize> CoreScheduler<RI> {
    /// The scheduler for `params` (`RI` must be its register-index width).
    pub fn new(params: &CoreParams) -> Self {
        assert_eq!(RI, params.gpr.register_bits());
        let w = params.window();
        let (served, preload) = (params.served_slots(), params.preload_slots());
        let p = params.gpr.read_ports;
        let waves = params.wave_count();
        let t = usize::from(waves > 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            instr: OfferedInstruction::new(SOURCES),
            read_valid: signals(p),
            read_reg: signals(p),
            capture_kind: signals(p),
            capture_index: signals(p),
            issue: Default::default(),
            alu_valid: Default::default(),
            alu_op: Default::default(),
            alu_imm: signals(SOURCES),
            alu_kind: signals(SOURCES),
            alu_index: signals(SOURCES),
            alu_select: signals(SOURCES * MuxInputs::of(params).count),
            reads: Default::default(),
            banks_read: Default::default(),
            banks_read_twice: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            long: LongResult::new(),
            ext_valid: Default::default(),
            ext_result: Default::default(),
            ext_reg: Default::default(),
            ext_grant: Default::default(),
            wave: OfferedInstructions::new(waves - 1, SOURCES),
            window: InstructionWindow::new(params),
            scoreboard: Scoreboard::new(params),
            read_side: ReadSide::new(params),
            operands: OperandSources::new(params),
            _window: w,
            _served: served,
            _described: Scoreboard::<RI>::described_slots(params),
            _seen: Scoreboard::<RI>::seen_slots(params),
            _preload: preload,
            _read_ports: p,
            _mux_inputs: MuxInputs::of(params).count,
            _forwarded: SOURCES * usize::from(params.forward),
            fetch: WaveFetch::new(params),
            last: (0..t).map(|_| DFF::default()).collect(),
            first_last: constant_if(t == 1, params.issue.first_last(waves) as u64),
            _tagged: t,
            _waves: waves,
        }
    }
}

/// The one-stream slice: the window, scoreboard, read side and operand sources wired together.
enum Wiring {}

/// Where each operand of the issuing head will be when it reaches the ALU: the operand sources wired to the window and the read side.
enum OperandWiring {}

/// With several waves: the fetch selection between the offered instructions and the window.
enum WaveWiring {}

impl<const RI: usize> Logic for CoreScheduler<RI> {
    logic_in_parts!(Wiring, OperandWiring, WaveWiring);
}

impl<const RI: usize> crate::parts::Part<Wiring> for CoreScheduler<RI> {
    // Wiring only: the offered instruction into the window; the window's slots to the
    // scoreboard and the read side, their next states back; the reads onto the ports.
    #[hdl_gen]
    fn update(&mut self) {
        self.window.clock.next = self.clock.val();
        self.scoreboard.clock.next = self.clock.val();
        self.window.reset.next = self.reset.val();
        self.scoreboard.reset.next = self.reset.val();
        self.read_side.clock.next = self.clock.val();
        self.read_side.reset.next = self.reset.val();
        self.operands.clock.next = self.clock.val();
        self.window.issue.next = self.read_side.issue.val();
        self.window.instr_valid.next = self.instr.valid.val();
        self.window.instr.op.next = self.instr.op.val();
        self.window.instr.dst.next = self.instr.dst.val();
        self.window.instr.writes.next = self.instr.writes.val();
        self.window.instr.unit.next = self.instr.unit.val();
        self.window.instr.wait.next = self.instr.wait.val();
        self.scoreboard.instr_dst.next = self.instr.dst.val();
        self.scoreboard.instr_writes.next = self.instr.writes.val();
        self.scoreboard.instr_unit.next = self.instr.unit.val();
        self.scoreboard.instr_wait.next = self.instr.wait.val();
        for s in 0..SOURCES {
            self.window.instr.src[s].next = self.instr.src[s].val();
            self.window.instr.read[s].next = self.instr.read[s].val();
            self.window.instr.imm[s].next = self.instr.imm[s].val();
            self.scoreboard.instr_src[s].next = self.instr.src[s].val();
        }
        self.instr.ready.next = self.window.ready.val();
        self.scoreboard.issue.next = self.read_side.issue.val();
        for j in 0..self._served {
            self.read_side.slot_valid[j].next = self.window.valid[j].val();
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
        self.read_side.held.next = self.scoreboard.held.val();
        for k in 0..(SOURCES * self._seen) {
            self.scoreboard.slot_src[k].next = self.window.src[k].val();
        }
        for s in 0..self._forwarded {
            self.operands.forward[s].next = self.scoreboard.forward[s].val();
            self.operands.distance[s].next = self.scoreboard.distance[s].val();
        }
        for k in 0..(SOURCES * self._served) {
            self.read_side.slot_src[k].next = self.window.src[k].val();
            self.read_side.hazard[k].next = self.scoreboard.hazard[k].val();
        }
        for k in 0..(SOURCES * self._preload) {
            self.read_side.later_conflict[k].next = self.window.conflict[k].val();
        }
        for k in 0..(SOURCES * self._window) {
            self.read_side.slot_state[k].next = self.window.state[k].val();
            self.read_side.slot_entry[k].next = self.window.entry[k].val();
            self.window.next_state[k].next = self.read_side.next_state[k].val();
            self.window.next_entry[k].next = self.read_side.next_entry[k].val();
        }
        self.issue.next = self.read_side.issue.val();
        self.reads.next = self.read_side.reads.val();
        self.banks_read.next = self.read_side.banks_read.val();
        self.banks_read_twice.next = self.read_side.banks_read_twice.val();
        self.read_side.banks_written.next = self.scoreboard.banks_written.val();
        self.alu_valid.next = self.scoreboard.alu_valid.val();
        self.retire_valid.next = self.scoreboard.retire_valid.val();
        self.retire_reg.next = self.scoreboard.retire_reg.val();
        self.long.valid.next = self.scoreboard.long.valid.val();
        self.long.reg.next = self.scoreboard.long.reg.val();
        self.long.writes.next = self.scoreboard.long.writes.val();
        self.long.unit.next = self.scoreboard.long.unit.val();
        self.scoreboard.ext_valid.next = self.ext_valid.val();
        self.scoreboard.ext_result.next = self.ext_result.val();
        self.scoreboard.ext_reg.next = self.ext_reg.val();
        self.ext_grant.next = self.scoreboard.ext_grant.val();
        for p in 0..self._read_ports {
            self.read_valid[p].next = self.read_side.read_valid[p].val();
            self.read_reg[p].next = self.read_side.read_reg[p].val();
            self.capture_kind[p].next = self.read_side.capture_kind[p].val();
            self.capture_index[p].next = self.read_side.capture_index[p].val();
        }
    }
}

impl<const RI: usize> crate::parts::Part<OperandWiring> for CoreScheduler<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.operands.head_op.next = self.window.head_op.val();
        for s in 0..SOURCES {
            self.operands.next_state[s].next = self.read_side.next_state[s].val();
            self.operands.next_entry[s].next = self.read_side.next_entry[s].val();
            self.operands.head_read[s].next = self.read_side.head_read[s].val();
            self.operands.head_port[s].next = self.read_side.head_port[s].val();
            self.operands.alias_code[s].next = self.window.alias_code[s].val();
            self.operands.immediate[s].next = self.window.immediate[s].val();
            self.operands.head_imm[s].next = self.window.imm[s].val();
            self.alu_imm[s].next = self.operands.alu_imm[s].val();
            self.read_side.forward[s].next = self.scoreboard.forward[s].val();
            self.alu_kind[s].next = self.operands.alu_kind[s].val();
            self.alu_index[s].next = self.operands.alu_index[s].val();
        }
        for x in 0..(SOURCES * self._mux_inputs) {
            self.alu_select[x].next = self.operands.alu_select[x].val();
        }
        self.alu_op.next = self.operands.alu_op.val();
    }
}

impl<const RI: usize> crate::parts::Part<WaveWiring> for CoreScheduler<RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // With several waves the fetch selection offers the window one wave's instruction.
        for _t in 0..self._tagged {
            self.last[0].clock.next = self.clock.val();
            self.fetch.last[0].next = self.last[0].q.val();
            self.last[0].d.next = self.last[0].q.val();
            if self.window.ready.val() & self.fetch.instr_valid[0].val() {
                self.last[0].d.next = self.fetch.instr_wave[0].val();
            }
            if self.reset.val() {
                self.last[0].d.next = self.first_last[0].val();
            }
            self.fetch.op[0].next = self.instr.op.val();
            self.fetch.dst[0].next = self.instr.dst.val();
            self.fetch.writes[0].next = self.instr.writes.val();
            self.fetch.unit[0].next = self.instr.unit.val();
            self.fetch.waits[0].next = self.instr.wait.val();
            self.scoreboard.wave_valid[0].next = self.instr.valid.val();
            self.scoreboard.wave_dst[0].next = self.instr.dst.val();
            self.scoreboard.wave_writes[0].next = self.instr.writes.val();
            self.scoreboard.wave_unit[0].next = self.instr.unit.val();
            self.scoreboard.wave_wait[0].next = self.instr.wait.val();
            for s in 0..SOURCES {
                self.fetch.src[s].next = self.instr.src[s].val();
                self.fetch.read[s].next = self.instr.read[s].val();
                self.fetch.imm[s].next = self.instr.imm[s].val();
                self.scoreboard.wave_src[s].next = self.instr.src[s].val();
                self.scoreboard.wave_read[s].next = self.instr.read[s].val();
            }
            for w in 1..self._waves {
                self.fetch.op[w].next = self.wave.op[w - 1].val();
                self.fetch.dst[w].next = self.wave.dst[w - 1].val();
                self.fetch.writes[w].next = self.wave.writes[w - 1].val();
                self.fetch.unit[w].next = self.wave.unit[w - 1].val();
                self.fetch.waits[w].next = self.wave.wait[w - 1].val();
                self.scoreboard.wave_valid[w].next = self.wave.valid[w - 1].val();
                self.scoreboard.wave_dst[w].next = self.wave.dst[w - 1].val();
                self.scoreboard.wave_writes[w].next = self.wave.writes[w - 1].val();
                self.scoreboard.wave_unit[w].next = self.wave.unit[w - 1].val();
                self.scoreboard.wave_wait[w].next = self.wave.wait[w - 1].val();
                self.wave.ready[w - 1].next = self.window.ready.val() & self.fetch.pick[w].val();
                for nsrc in SOURCES..(SOURCES + 1) {
                    for s in 0..SOURCES {
                        self.fetch.src[w * nsrc + s].next =
                            self.wave.src[w * nsrc + s - nsrc].val();
                        self.fetch.read[w * nsrc + s].next =
                            self.wave.read[w * nsrc + s - nsrc].val();
                        self.fetch.imm[w * nsrc + s].next =
                            self.wave.imm[w * nsrc + s - nsrc].val();
                        self.scoreboard.wave_src[w * nsrc + s].next =
                            self.wave.src[w * nsrc + s - nsrc].val();
                        self.scoreboard.wave_read[w * nsrc + s].next =
                            self.wave.read[w * nsrc + s - nsrc].val();
                    }
                }
            }
            for w in 0..self._waves {
                self.fetch.ready[w].next = self.scoreboard.wave_ready[w].val();
            }
            self.instr.ready.next = self.window.ready.val() & self.fetch.pick[0].val();
            self.window.instr_valid.next = self.fetch.instr_valid[0].val();
            self.window.instr.op.next = self.fetch.instr_op[0].val();
            self.window.instr.dst.next = self.fetch.instr_dst[0].val();
            self.window.instr.writes.next = self.fetch.instr_writes[0].val();
            self.window.instr.unit.next = self.fetch.instr_unit[0].val();
            self.window.instr.wait.next = self.fetch.instr_wait[0].val();
            self.window.instr_wave[0].next = self.fetch.instr_wave[0].val();
            self.scoreboard.instr_dst.next = self.fetch.instr_dst[0].val();
            self.scoreboard.instr_writes.next = self.fetch.instr_writes[0].val();
            self.scoreboard.instr_unit.next = self.fetch.instr_unit[0].val();
            self.scoreboard.instr_wait.next = self.fetch.instr_wait[0].val();
            self.scoreboard.instr_wave[0].next = self.fetch.instr_wave[0].val();
            for s in 0..SOURCES {
                self.window.instr.src[s].next = self.fetch.instr_src[s].val();
                self.window.instr.read[s].next = self.fetch.instr_read[s].val();
                self.window.instr.imm[s].next = self.fetch.instr_imm[s].val();
                self.scoreboard.instr_src[s].next = self.fetch.instr_src[s].val();
            }
            for j in 0..self._window {
                self.scoreboard.slot_wave[j].next = self.window.wave[j].val();
                self.scoreboard.all_valid[j].next = self.window.all_valid[j].val();
                self.scoreboard.all_dst[j].next = self.window.all_dst[j].val();
                self.scoreboard.all_writes[j].next = self.window.all_writes[j].val();
                self.scoreboard.all_unit[j].next = self.window.all_unit[j].val();
            }
        }
    }
}
