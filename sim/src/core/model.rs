//! Golden model of the core slice, cycle by cycle, written from the scheduling rules of
//! `docs/core.md` (SPEC S1). It keeps values, not wires: a read returns the register's value at
//! once, and only the cycles at which things happen are modelled.

mod fetch;

use std::collections::VecDeque;

use grfgen_hdl::params::{CoreOp, CoreParams, CoreUnit};
use serde::{Deserialize, Serialize};

use super::program::{Instruction, Source};
use crate::bank_map::bank;

/// How operand conflicts are handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Conflicting reads are serialised; no queues.
    Naive,
    /// Conflicting operands of later instructions are preloaded into the conflict queue.
    Cq,
    /// Conflict queue, and free read ports prefetch operands of later instructions.
    CqPq,
    /// A true multi-ported register file: no bank conflicts, no queues (model only).
    Ideal,
}

impl Policy {
    /// Every policy, in report order.
    pub const ALL: [Policy; 4] = [Policy::Naive, Policy::Cq, Policy::CqPq, Policy::Ideal];

    /// The policy's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Naive => "naive",
            Policy::Cq => "cq",
            Policy::CqPq => "cq-pq",
            Policy::Ideal => "ideal",
        }
    }

    /// The hardware parameters this policy runs on: queues it does not use have no entries.
    pub fn hardware(self, params: &CoreParams) -> CoreParams {
        let mut p = params.clone();
        match self {
            Policy::Naive | Policy::Ideal => {
                p.cq_entries = 0;
                p.pq_entries = 0;
            }
            Policy::Cq => p.pq_entries = 0,
            Policy::CqPq => {}
        }
        p
    }
}

/// Where a GPR read's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Destination {
    /// An operand of the instruction being issued.
    Alu,
    /// A conflict-queue entry (preload).
    Cq,
    /// A prefetch-queue entry (prefetch).
    Pq,
}

/// One GPR read of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Read {
    /// Register read.
    pub reg: usize,
    /// Its bank.
    pub bank: usize,
    /// Read port used.
    pub port: usize,
    /// Where the value goes.
    pub to: Destination,
}

/// Operands entering the ALU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluInput {
    /// The operation.
    pub op: CoreOp,
    /// Per source (`op.sources()` of them), the value of every lane.
    pub operands: Vec<Vec<u64>>,
}

/// A result written back to the GPR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retire {
    /// Destination register.
    pub reg: usize,
    /// Its value, every lane.
    pub values: Vec<u64>,
}

/// A write on write port 1 (the external writer's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalWrite {
    /// Register written.
    pub reg: usize,
    /// Its value, every lane.
    pub values: Vec<u64>,
    /// It is one register of a long-latency result (`ext_result`): performed, it frees the
    /// pending-table entry holding the register. Otherwise texture-return traffic.
    pub result: bool,
}

/// A long-latency instruction's value, handed over to the external unit as it leaves the ALU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongResult {
    /// Its first destination register.
    pub reg: usize,
    /// Registers it writes: `reg..reg + writes`.
    pub writes: usize,
    /// The unit that runs it.
    pub unit: CoreUnit,
    /// The ALU's value, every lane.
    pub values: Vec<u64>,
}

/// What the core receives in one cycle.
#[derive(Clone, Debug, Default)]
pub struct CycleInput {
    /// Per wave, the wave's next instruction, if it has one (taken only when the core says so);
    /// missing waves offer none.
    pub instructions: Vec<Option<Instruction>>,
    /// An external write (a long-latency result or texture return) on write port 1.
    pub external: Option<ExternalWrite>,
}

/// What the core does in one cycle.
#[derive(Clone, Debug, Default)]
pub struct CycleOutput {
    /// Per wave, `instr_ready`: with one wave, whether a window slot is free after this cycle's
    /// issue (the offered instruction, if any, is taken); with several, whether the wave's
    /// offered instruction is the one taken.
    pub ready: Vec<bool>,
    /// GPR reads, one entry per read port.
    pub reads: Vec<Option<Read>>,
    /// Whether the head instruction issued (all its operands are read or queued).
    pub issued: bool,
    /// Operands entering the ALU (of the instruction issued last cycle).
    pub alu: Option<AluInput>,
    /// The result written back on write port 0.
    pub retire: Option<Retire>,
    /// A long-latency instruction's value leaving the ALU (the cycle an ALU result issued with
    /// it would be written back).
    pub long: Option<LongResult>,
    /// Whether the external write was granted.
    pub external_granted: bool,
}

/// Where an obtained operand value sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Read by the head instruction itself.
    Latch,
    /// Conflict-queue entry.
    Cq(usize),
    /// Prefetch-queue entry.
    Pq(usize),
    /// The source's immediate, carried with the instruction.
    Imm,
}

#[derive(Clone, Debug)]
enum Operand {
    /// Still to be read from the GPR.
    Pending,
    /// The same register as an earlier source of the instruction.
    Alias(usize),
    /// Obtained.
    Have(Vec<u64>, Place),
}

#[derive(Clone, Debug)]
struct Slot {
    /// The wave it came from.
    wave: usize,
    instruction: Instruction,
    operands: Vec<Operand>,
    /// Source `s` shares a bank with an earlier, different source: the preload candidates.
    conflicting: Vec<bool>,
}

#[derive(Clone, Debug)]
struct InFlight {
    dst: usize,
    writes: usize,
    unit: CoreUnit,
    values: Vec<u64>,
    writeback: u64,
}

impl InFlight {
    /// Whether it is written back on port 0 (an ALU instruction writing a register): the
    /// flight's hazards and forwards are these.
    fn writes_back(&self) -> bool {
        self.unit == CoreUnit::Alu && self.writes == 1
    }
}

/// A register of a long-latency result outstanding: a pending-table entry.
#[derive(Clone, Copy, Debug)]
struct Outstanding {
    reg: usize,
    /// Guarded by `(sy)` (else by `(ss)`).
    sy: bool,
    /// The wave of the instruction that took it: a sync wait waits on its own wave's entries.
    wave: usize,
}

/// Counts over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CoreStats {
    /// Instructions issued (the core's own: nops kept and the parts of an ir3 instruction
    /// with more than three operands count one each).
    #[serde(rename = "issued")]
    pub instructions: u64,
    /// GPR reads the scheduler made (a register named twice by one instruction, or forwarded,
    /// is read once or not at all).
    #[serde(rename = "scheduler_reads")]
    pub gpr_reads: u64,
    /// Instructions with the source-conflict bit set.
    pub sc_instructions: u64,
    /// Instructions with exactly one and with two conflicts (three sources in one bank).
    pub conflicts: [u64; 2],
    /// Reads into the conflict queue.
    pub cq_preloads: u64,
    /// Reads into the prefetch queue.
    pub pq_prefetches: u64,
    /// Cycles with an instruction at the head that could not issue.
    pub stall_cycles: u64,
    /// External writes granted.
    pub external_writes: u64,
    /// External write requests refused (retried the next cycle).
    pub external_retries: u64,
    /// Long-latency instructions issued.
    pub long_instructions: u64,
    /// External writes of long-latency results granted (each frees a pending-table entry).
    pub long_writes: u64,
    /// Cycles the head had its operands but too few free pending-table entries.
    pub full_stalls: u64,
    /// Cycles the head had its operands but wrote a register still outstanding.
    pub waw_stalls: u64,
    /// Cycles the head had its operands but waited on `(ss)` or `(sy)`.
    pub sync_stalls: u64,
    /// With several waves, the instructions each wave issued (left out with one).
    #[serde(skip_serializing_if = "single_wave")]
    pub issued_per_wave: Vec<u64>,
}

/// Whether per-wave counts describe one wave only (the report keeps its one-wave shape).
fn single_wave(counts: &[u64]) -> bool {
    counts.len() <= 1
}

/// The core slice under one policy.
#[derive(Clone, Debug)]
pub struct CoreModel {
    params: CoreParams,
    policy: Policy,
    /// Waves offered (the hardware's `waves`).
    waves: usize,
    /// The wave whose instruction entered the window last (the issue policy's state).
    last: usize,
    values: Vec<u64>,
    window: VecDeque<Slot>,
    cq: Vec<bool>,
    pq: Vec<bool>,
    /// Every issued instruction until its write-back stage.
    in_flight: VecDeque<InFlight>,
    /// The pending table: registers of long-latency results not yet written.
    pending: Vec<Outstanding>,
    /// What reaches the ALU in each of the next `read_latency` cycles (an issue in cycle t has
    /// its operands there in cycle t + read_latency).
    alu_ahead: VecDeque<Option<AluInput>>,
    cycle: u64,
    stats: CoreStats,
    /// This cycle's read candidates (kept to reuse its storage).
    candidates: Vec<(usize, usize, Destination)>,
}

impl CoreModel {
    /// A core with every register zero and nothing in flight.
    pub fn new(params: &CoreParams, policy: Policy) -> Self {
        let hardware = policy.hardware(params);
        let waves = params.wave_count();
        Self {
            waves,
            last: params.issue.first_last(waves),
            values: vec![0; params.gpr.registers * params.gpr.lanes],
            window: VecDeque::new(),
            cq: vec![false; hardware.cq_entries],
            pq: vec![false; hardware.pq_entries],
            in_flight: VecDeque::new(),
            pending: Vec::new(),
            alu_ahead: (0..params.read_latency()).map(|_| None).collect(),
            cycle: 0,
            stats: CoreStats {
                issued_per_wave: vec![0; waves],
                ..CoreStats::default()
            },
            candidates: Vec::new(),
            params: hardware,
            policy,
        }
    }

    /// Counts so far.
    pub fn stats(&self) -> &CoreStats {
        &self.stats
    }

    /// The lanes of register `n`.
    pub fn register(&self, n: usize) -> &[u64] {
        let lanes = self.params.gpr.lanes;
        &self.values[n * lanes..(n + 1) * lanes]
    }

    /// Whether nothing is in the window, in flight or outstanding.
    pub fn idle(&self) -> bool {
        self.window.is_empty()
            && self.in_flight.is_empty()
            && self.pending.is_empty()
            && self.alu_ahead.iter().all(Option::is_none)
    }

    /// The bank of register `reg` under the GPR's bank map.
    fn bank(&self, reg: usize) -> usize {
        bank(self.params.gpr.bank_map, reg, self.params.gpr.banks)
    }

    /// Whether a pending-table entry holds `reg`.
    fn outstanding(&self, reg: usize) -> bool {
        self.pending.iter().any(|p| p.reg == reg)
    }

    /// Whether window slot `older` writes register `reg` for a source of wave `wave`: it
    /// writes `reg` alone, or it is a long-latency instruction of the same wave writing several
    /// registers, which by the window's rule writes every register of its wave.
    fn writes_for(older: &Slot, wave: usize, reg: usize) -> bool {
        let i = &older.instruction;
        (i.writes == 1 && i.dst == reg) || (i.long_latency() && i.writes > 1 && older.wave == wave)
    }

    /// Whether an issued instruction in the ALU is still to write `reg` back.
    fn in_flight_writes(&self, reg: usize) -> bool {
        (self.in_flight.iter()).any(|f| f.writes_back() && f.dst == reg)
    }

    /// Register `reg` may be read for window slot `slot`: no older slot writes it
    /// ([`CoreModel::writes_for`]), no issued instruction is still to write it back, and it is
    /// not outstanding.
    fn safe(&self, slot: usize, reg: usize) -> bool {
        let wave = self.window[slot].wave;
        !(self.window.iter().take(slot)).any(|s| Self::writes_for(s, wave, reg))
            && !self.in_flight_writes(reg)
            && !self.outstanding(reg)
    }

    /// With result forwarding, the value of register `reg` for the head issuing this cycle when
    /// its youngest writer in flight has left the ALU by the time the head's operands reach it
    /// (`read_latency` cycles from now): its write-back is no later than that cycle. An
    /// outstanding register is never forwarded: its youngest writer is a long-latency one.
    fn forwarded(&self, reg: usize) -> Option<&[u64]> {
        if !self.params.forward || self.outstanding(reg) {
            return None;
        }
        let youngest = (self.in_flight.iter().rev()).find(|f| f.writes_back() && f.dst == reg)?;
        let arrival = self.cycle + self.params.read_latency() as u64;
        (youngest.writeback <= arrival).then_some(&youngest.values)
    }

    /// Runs one cycle.
    pub fn step(&mut self, input: &CycleInput) -> CycleOutput {
        let mut out = CycleOutput {
            reads: vec![None; self.params.gpr.read_ports],
            alu: self.alu_ahead.pop_front().flatten(),
            ..Default::default()
        };
        self.write_back(input, &mut out);
        // Reads: the head first, then preloads, then prefetches, each taking the lowest free
        // read port and a bank with a read left this cycle (one read per bank, two with 2R1W
        // banks; none of a 1RW bank being written).
        // At most 16 banks.
        let mut written = [false; 16];
        if self.params.gpr.bank_kind.single_port() {
            if let Some(retire) = &out.retire {
                written[self.bank(retire.reg)] = true;
            }
            if let (Some(external), true) = (&input.external, out.external_granted) {
                written[self.bank(external.reg)] = true;
            }
        }
        self.allocate_reads(&mut out, &written);
        out.issued = self.issue();
        if !out.issued {
            self.alu_ahead.push_back(None);
            if !self.window.is_empty() {
                self.stats.stall_cycles += 1;
            }
        }
        self.end_of_cycle(input, &out);
        out.ready = self.fetch(&input.instructions);
        self.cycle += 1;
        out
    }

    /// The write-back stage: an ALU result on write port 0, or a long-latency value handed over;
    /// and the external write on port 1, which loses a bank to port 0.
    fn write_back(&mut self, input: &CycleInput, out: &mut CycleOutput) {
        if let Some(f) = (self.in_flight.front()).filter(|f| f.writeback == self.cycle) {
            if f.writes_back() {
                out.retire = Some(Retire {
                    reg: f.dst,
                    values: f.values.clone(),
                });
            } else if f.unit.long_latency() {
                out.long = Some(LongResult {
                    reg: f.dst,
                    writes: f.writes,
                    unit: f.unit,
                    values: f.values.clone(),
                });
            }
        }
        if let Some(external) = &input.external {
            let blocked =
                (out.retire.as_ref()).is_some_and(|r| self.bank(r.reg) == self.bank(external.reg));
            out.external_granted = !blocked;
            if blocked {
                self.stats.external_retries += 1;
            } else {
                self.stats.external_writes += 1;
            }
        }
    }

    /// Whether `instruction`, its operands obtained, is held: fewer pending-table entries free
    /// than it takes, a register it writes outstanding, or a sync wait on an outstanding
    /// result its flag guards. Counts each reason.
    fn held(&mut self, instruction: &Instruction, wave: usize) -> bool {
        let takes = usize::from(instruction.long_latency()) * instruction.writes;
        let full = takes > self.params.long_results - self.pending.len();
        let waw = instruction.written().any(|r| self.outstanding(r));
        let sync = self.waits(instruction, wave);
        self.stats.full_stalls += u64::from(full);
        self.stats.waw_stalls += u64::from(waw);
        self.stats.sync_stalls += u64::from(sync);
        full || waw || sync
    }

    /// Whether `instruction` of wave `wave` waits on `(ss)` or `(sy)` while an entry of its
    /// wave that the flag guards is outstanding.
    fn waits(&self, instruction: &Instruction, wave: usize) -> bool {
        let guarded = |sy: bool| (self.pending.iter()).any(|p| p.sy == sy && p.wave == wave);
        (instruction.wait.ss && guarded(false)) || (instruction.wait.sy && guarded(true))
    }

    /// Issue: the head goes when every operand is obtained or forwarded and nothing holds it.
    fn issue(&mut self) -> bool {
        let Some(head) = self.window.front() else {
            return false;
        };
        let ready = (head.operands.iter().zip(&head.instruction.src)).all(|(o, src)| {
            !matches!(o, Operand::Pending)
                || src.reg().is_some_and(|reg| self.forwarded(reg).is_some())
        });
        if !ready {
            return false;
        }
        // The head leaves the window while the table is asked about it, and comes back if held.
        let slot = self.window.pop_front().expect("checked");
        let wave = slot.wave;
        if self.held(&slot.instruction, wave) {
            self.window.push_front(slot);
            return false;
        }
        let Slot {
            instruction,
            operands: obtained,
            ..
        } = slot;
        // Each obtained value leaves its queue entry; an alias copies an earlier source's.
        let mut operands: Vec<Vec<u64>> = Vec::with_capacity(obtained.len());
        for (operand, src) in obtained.into_iter().zip(&instruction.src) {
            let value = match operand {
                Operand::Have(v, place) => {
                    match place {
                        Place::Cq(e) => self.cq[e] = false,
                        Place::Pq(e) => self.pq[e] = false,
                        Place::Latch | Place::Imm => {}
                    }
                    v
                }
                Operand::Alias(t) => operands[t].clone(),
                Operand::Pending => {
                    let reg = src.reg().expect("only a register is pending");
                    self.forwarded(reg).expect("checked").to_vec()
                }
            };
            operands.push(value);
        }
        let (mask, op) = (element_mask(), instruction.op);
        let values = (0..self.params.gpr.lanes)
            .map(|l| {
                let lane = |s: usize| operands.get(s).map_or(0, |v| v[l]);
                alu(op, lane(0), lane(1), lane(2), mask)
            })
            .collect();
        if instruction.long_latency() {
            self.stats.long_instructions += 1;
            let sy = instruction.unit.guarded_by_sy();
            let entry = |reg| Outstanding { reg, sy, wave };
            self.pending.extend(instruction.written().map(entry));
        }
        self.in_flight.push_back(InFlight {
            dst: instruction.dst,
            writes: instruction.writes,
            unit: instruction.unit,
            values,
            writeback: self.cycle + self.params.issue_to_writeback() as u64,
        });
        self.alu_ahead.push_back(Some(AluInput { op, operands }));
        self.stats.instructions += 1;
        self.stats.issued_per_wave[wave] += 1;
        true
    }

    /// End of the cycle: the GPR takes the writes; a performed long-latency write frees its
    /// pending-table entry; the instruction at its write-back stage leaves the flight.
    fn end_of_cycle(&mut self, input: &CycleInput, out: &CycleOutput) {
        let lanes = self.params.gpr.lanes;
        if let Some(retire) = &out.retire {
            self.values[retire.reg * lanes..(retire.reg + 1) * lanes]
                .copy_from_slice(&retire.values);
        }
        if let (Some(external), true) = (&input.external, out.external_granted) {
            let mask = element_mask();
            let lanes = &mut self.values[external.reg * lanes..(external.reg + 1) * lanes];
            for (value, data) in lanes.iter_mut().zip(&external.values) {
                *value = data & mask;
            }
            if external.result {
                self.stats.long_writes += 1;
                self.pending.retain(|p| p.reg != external.reg);
            }
        }
        if (self.in_flight.front()).is_some_and(|f| f.writeback == self.cycle) {
            self.in_flight.pop_front();
        }
    }
    /// The slot of `instruction` of wave `wave` as it enters the window: its sources' aliases
    /// and conflicts.
    fn decode(&mut self, instruction: &Instruction, wave: usize) -> Slot {
        assert!(
            instruction.writes <= self.params.long_results || !instruction.long_latency(),
            "`{instruction}` takes more entries than the pending table's {}: it could never issue",
            self.params.long_results
        );
        let n = instruction.src.len();
        let lanes = self.params.gpr.lanes;
        let mut operands = Vec::with_capacity(n);
        let mut conflicting = Vec::with_capacity(n);
        for (s, source) in instruction.src.iter().enumerate() {
            let reg = match *source {
                Source::Reg(reg) => reg,
                Source::Imm(value) => {
                    operands.push(Operand::Have(vec![u64::from(value); lanes], Place::Imm));
                    conflicting.push(false);
                    continue;
                }
            };
            match instruction.src[..s].iter().position(|&r| r == *source) {
                Some(first) => {
                    operands.push(Operand::Alias(first));
                    conflicting.push(false);
                }
                None => {
                    conflicting.push((0..s).any(|t| {
                        !matches!(operands[t], Operand::Alias(_))
                            && instruction.src[t]
                                .reg()
                                .is_some_and(|other| self.bank(other) == self.bank(reg))
                    }));
                    operands.push(Operand::Pending);
                }
            }
        }
        let conflicts = conflicting.iter().filter(|&&c| c).count();
        if conflicts > 0 {
            self.stats.sc_instructions += 1;
            self.stats.conflicts[conflicts - 1] += 1;
        }
        Slot {
            wave,
            instruction: instruction.clone(),
            operands,
            conflicting,
        }
    }

    /// Hands out this cycle's reads; `written[b]`: bank `b` can serve no read. A queued
    /// candidate asks for a read only while fewer candidates of its queue asked before it than
    /// the queue has free entries; a prefetch does not ask for a source a preload asked for.
    fn allocate_reads(&mut self, out: &mut CycleOutput, written: &[bool]) {
        let ideal = self.policy == Policy::Ideal;
        let lanes = self.params.gpr.lanes;
        let capacity = self.params.gpr.bank_kind.reads_per_bank();
        let mut ports = 0;
        let mut bank_reads = [0; 16];
        // (slot, source, destination) in priority order.
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        if let Some(head) = self.window.front() {
            candidates.extend((0..head.operands.len()).map(|s| (0, s, Destination::Alu)));
        }
        for (to, queue) in [(Destination::Cq, &self.cq), (Destination::Pq, &self.pq)] {
            if queue.is_empty() {
                continue;
            }
            for (j, slot) in self.window.iter().enumerate().skip(1) {
                for s in 0..slot.operands.len() {
                    if to == Destination::Pq || slot.conflicting[s] {
                        candidates.push((j, s, to));
                    }
                }
            }
        }
        let free = |queue: &[bool]| queue.iter().filter(|&&busy| !busy).count();
        let free = [free(&self.cq), free(&self.pq)];
        // Per queue, the candidates that wanted a read so far; the sources preloads asked for.
        let (mut wanted, mut preloaded) = ([0, 0], Vec::new());
        for &(j, s, to) in &candidates {
            let Some(reg) = self.window[j].instruction.src[s].reg() else {
                continue;
            };
            let bank = self.bank(reg);
            let mut wants = matches!(self.window[j].operands[s], Operand::Pending)
                && (ideal || !written[bank])
                && self.safe(j, reg);
            if to != Destination::Alu {
                let q = usize::from(to == Destination::Pq);
                wants &= q == 0 || !preloaded.contains(&(j, s));
                let room = wanted[q] < free[q];
                wanted[q] += usize::from(wants);
                wants &= room;
                if wants && q == 0 {
                    preloaded.push((j, s));
                }
            }
            if !wants
                || ports == self.params.gpr.read_ports
                || (!ideal && bank_reads[bank] == capacity)
            {
                continue;
            }
            let place = match to {
                Destination::Alu => Place::Latch,
                Destination::Cq => match self.cq.iter().position(|&busy| !busy) {
                    Some(e) => Place::Cq(e),
                    None => continue,
                },
                Destination::Pq => match self.pq.iter().position(|&busy| !busy) {
                    Some(e) => Place::Pq(e),
                    None => continue,
                },
            };
            match place {
                Place::Cq(e) => {
                    self.cq[e] = true;
                    self.stats.cq_preloads += 1;
                }
                Place::Pq(e) => {
                    self.pq[e] = true;
                    self.stats.pq_prefetches += 1;
                }
                Place::Latch | Place::Imm => {}
            }
            let value = self.values[reg * lanes..(reg + 1) * lanes].to_vec();
            self.window[j].operands[s] = Operand::Have(value, place);
            bank_reads[bank] += 1;
            out.reads[ports] = Some(Read {
                reg,
                bank,
                port: ports,
                to,
            });
            ports += 1;
            self.stats.gpr_reads += 1;
        }
        self.candidates = candidates;
    }
}

/// The ALU's result for one lane, wrapping at `mask` (all ones of the element width).
pub fn alu(op: CoreOp, a: u64, b: u64, c: u64, mask: u64) -> u64 {
    let value = match op {
        CoreOp::Mov => a,
        CoreOp::Add => a.wrapping_add(b),
        CoreOp::Sub => a.wrapping_sub(b),
        CoreOp::Mul => a.wrapping_mul(b),
        CoreOp::Mad => a.wrapping_mul(b).wrapping_add(c),
        CoreOp::Nop => 0,
    };
    value & mask
}

/// All ones of the ALU's 32-bit lanes.
pub fn element_mask() -> u64 {
    crate::bits::element_mask(CoreParams::ELEMENT_BITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's counts list the instructions per wave only when there are several waves.
    #[test]
    fn the_counts_per_wave_are_reported_only_for_several_waves() {
        let json = |waves: usize| {
            let stats = CoreStats {
                issued_per_wave: vec![3; waves],
                ..CoreStats::default()
            };
            serde_json::to_value(&stats).unwrap()
        };
        assert!(json(0).get("issued_per_wave").is_none());
        assert!(json(1).get("issued_per_wave").is_none());
        assert_eq!(json(2)["issued_per_wave"], serde_json::json!([3, 3]));
    }
}
