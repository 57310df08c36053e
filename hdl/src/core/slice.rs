//! The core slice: scheduler, data side and banked GPR together.

use rust_hdl::prelude::*;

use crate::core::ports::{LongResult, OfferedInstruction, OfferedInstructions};
use crate::core::widths::{BankMask, OpCode, ReadCount, Word};

use super::datapath::CoreDatapath;
use super::scheduler::{CoreScheduler, MuxInputs};
use crate::cells::regs::Registers;
use crate::gpr::{BankedGpr, RegisterMap};
use crate::params::{BankMap, CoreParams, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::signals;

/// A shader-core slice (SPEC S1, document Fig. 4, one processing element): a banked GPR, the
/// conflict detector and resolver (scheduler), conflict and prefetch queues, operand muxes and
/// a pipelined integer ALU writing back on GPR write port 0. Write port 1 belongs to an external
/// writer (EFU or texture return).
///
/// The bank map is applied at the slice's boundary: every register index coming in (the
/// instruction's destination and sources, the external write's, the test read's) is mapped to
/// the index whose low bits are the register's bank and whose high bits its row
/// ([`RegisterMap`]), and every index going out (the reads', the write-back's, the long-latency
/// result's) is given back as the register; the scheduler and the GPR inside work on those
/// indices with the `mod` map's rule, bank = low bits. The only register arithmetic inside, a
/// long-latency result's registers `dst + k`, maps its own ([`super::CandidateSpans`]). Nothing
/// is added for the `mod` map, the identity.
///
/// `A` and `RI` are the GPR's row-address and register-index widths; lanes are 32 bits.
#[derive(LogicBlock)]
pub struct CoreSlice<const A: usize, const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of the control state (window, queues, pipeline).
    pub reset: Signal<In, Bit>,
    /// The instruction offered.
    pub instr: OfferedInstruction<Out, In, RI>,
    /// External write request (write port 1).
    pub ext_valid: Signal<In, Bit>,
    /// External write register.
    pub ext_reg: Signal<In, Bits<RI>>,
    /// External write data, one element per lane.
    pub ext_data: Vec<Signal<In, Word>>,
    /// The external write is a long-latency result's register: performed, it frees its entry.
    pub ext_result: Signal<In, Bit>,
    /// The external write is performed this cycle (a write-back to its bank wins it); otherwise
    /// it must be presented again.
    pub ext_grant: Signal<Out, Bit>,
    /// Test access: read `debug_reg` through read port 0 (only while the core is idle).
    pub debug_valid: Signal<In, Bit>,
    /// Test access: the register to read.
    pub debug_reg: Signal<In, Bits<RI>>,
    /// Test access: the data of the read `CoreParams::read_latency` cycles earlier, one element
    /// per lane.
    pub debug_data: Vec<Signal<Out, Word>>,
    /// Per read port: the scheduler reads this cycle (the GPR performs every read it asks for).
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Number of scheduler reads this cycle.
    pub reads: Signal<Out, ReadCount>,
    /// Banks the scheduler reads this cycle, one bit per bank.
    pub banks_read: Signal<Out, BankMask>,
    /// Banks the scheduler reads twice this cycle (2R1W banks), one bit per bank.
    pub banks_read_twice: Signal<Out, BankMask>,
    /// The head instruction issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// Operands of the instruction issued last cycle are at the ALU.
    pub alu_valid: Signal<Out, Bit>,
    /// Its op code.
    pub alu_op: Signal<Out, OpCode>,
    /// Its operands, source-major (`s * lanes + l`).
    pub alu_operand: Vec<Signal<Out, Word>>,
    /// A result is written back this cycle.
    pub retire_valid: Signal<Out, Bit>,
    /// Its register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    /// Its value, one element per lane.
    pub retire_data: Vec<Signal<Out, Word>>,
    /// A long-latency instruction's value leaving the ALU this cycle.
    pub long: LongResult<Out, In, RI>,
    /// Its value, one element per lane.
    pub long_data: Vec<Signal<Out, Word>>,
    /// With several waves (`--waves`), the instructions of every wave after wave 0 (the
    /// `instr_*` ports are wave 0's; none with one wave).
    pub wave: OfferedInstructions<Out, In, RI>,
    gpr: BankedGpr<32, A, RI>,
    scheduler: CoreScheduler<RI>,
    datapath: CoreDatapath,
    /// The request stage of the writes and the test read, with the reads' (`request_stage`):
    /// [0] write port 0, [1] write port 1, [2] the test read.
    staged_valid: Registers<Bit>,
    staged_reg: Registers<Bits<RI>>,
    /// The writes' data, port-major.
    staged_data: Registers<Word>,
    /// The GPR's grants, which answer the scheduler's requests (every one of its reads, and
    /// the writes the slice grants itself) and, with registered arbitration, come a cycle or
    /// two after them: not needed, read by a wire the lint leaves alone.
    grants_unused: Signal<Local, Bit>,
    /// The scheduler's operand kinds and indices, the same places as the one-hot selects the
    /// data side takes (the scheduler's own checks read them): read by a wire the lint leaves
    /// alone.
    sources_unused: Signal<Local, Bit>,
    _lanes: usize,
    _read_ports: usize,
    /// The bank map on each register index coming in (none with the `mod` map): [0] the
    /// destination, [1..=3] the sources, [4] the external write's, [5] the test read's, then
    /// per wave after wave 0 its destination and sources (`6 + (wave - 1) * 4 + k`).
    map_in: Vec<RegisterMap<RI>>,
    /// The bank map undone on each register index going out (none with the `mod` map): [0] the
    /// write-back's, [1] the long-latency result's, [2 + p] read port `p`'s.
    map_out: Vec<RegisterMap<RI>>,
    /// The operand mux's inputs ([`MuxInputs`]).
    _mux_inputs: usize,
    /// 1 when the bank map is not `mod` (the boundary's maps are built), else 0.
    _mapped: usize,
    _waves: usize,
}

impl<const A: usize, const RI: usize> CoreSlice<A, RI> {
    /// The slice for `params` (validated; `A` and `RI` must match its GPR).
    pub fn new(params: &CoreParams) -> Self {
        let (l, p) = (params.gpr.lanes, params.gpr.read_ports);
        let mapped = usize::from(params.gpr.bank_map != BankMap::Mod);
        let waves = params.wave_count();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            instr: OfferedInstruction::new(SOURCES),
            ext_valid: Default::default(),
            ext_reg: Default::default(),
            ext_data: signals(l),
            ext_result: Default::default(),
            ext_grant: Default::default(),
            debug_valid: Default::default(),
            debug_reg: Default::default(),
            debug_data: signals(l),
            read_valid: signals(p),
            read_reg: signals(p),
            reads: Default::default(),
            banks_read: Default::default(),
            banks_read_twice: Default::default(),
            issue: Default::default(),
            alu_valid: Default::default(),
            alu_op: Default::default(),
            alu_operand: signals(SOURCES * l),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            retire_data: signals(l),
            long: LongResult::new(),
            long_data: signals(l),
            wave: OfferedInstructions::new(waves - 1, SOURCES),
            gpr: BankedGpr::for_scheduler(&params.physical_gpr()),
            scheduler: CoreScheduler::new(params),
            datapath: CoreDatapath::new(params),
            staged_valid: Registers::stage(3, params.request_stage),
            staged_reg: Registers::stage(3, params.request_stage),
            staged_data: Registers::stage(2 * l, params.request_stage),
            grants_unused: Default::default(),
            sources_unused: Default::default(),
            _lanes: l,
            _read_ports: p,
            map_in: (0..(2 + 4 * waves) * mapped)
                .map(|_| RegisterMap::new(&params.gpr, false))
                .collect(),
            map_out: (0..(p + 2) * mapped)
                .map(|_| RegisterMap::new(&params.gpr, true))
                .collect(),
            _mux_inputs: MuxInputs::of(params).count,
            _mapped: mapped,
            _waves: waves,
        }
    }
}

/// The GPR, the scheduler and the data side wired together, with the bank map at the boundary.
enum Wiring {}

/// The bank map at the boundary, the grants left unused, and the data paths between the GPR, the data side and the ports.
enum Boundary {}

/// With several waves: the instruction ports of the waves after wave 0, through the bank map.
enum WaveWiring {}

impl<const A: usize, const RI: usize> Logic for CoreSlice<A, RI> {
    logic_in_parts!(Wiring, Boundary, WaveWiring);
}

impl<const A: usize, const RI: usize> crate::parts::Part<Wiring> for CoreSlice<A, RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.gpr.clock.next = self.clock.val();
        self.scheduler.clock.next = self.clock.val();
        self.datapath.clock.next = self.clock.val();
        self.staged_valid.clock.next = self.clock.val();
        self.staged_reg.clock.next = self.clock.val();
        self.staged_data.clock.next = self.clock.val();
        self.scheduler.reset.next = self.reset.val();
        self.scheduler.instr.valid.next = self.instr.valid.val();
        self.scheduler.instr.op.next = self.instr.op.val();
        self.scheduler.instr.dst.next = self.instr.dst.val();
        self.scheduler.instr.writes.next = self.instr.writes.val();
        self.scheduler.instr.unit.next = self.instr.unit.val();
        self.scheduler.instr.wait.next = self.instr.wait.val();
        self.scheduler.ext_valid.next = self.ext_valid.val();
        self.scheduler.ext_result.next = self.ext_result.val();
        self.scheduler.ext_reg.next = self.ext_reg.val();
        self.sources_unused.next = false;
        for s in 0..SOURCES {
            self.scheduler.instr.src[s].next = self.instr.src[s].val();
            self.scheduler.instr.read[s].next = self.instr.read[s].val();
            self.scheduler.instr.imm[s].next = self.instr.imm[s].val();
            self.datapath.alu_imm[s].next = self.scheduler.alu_imm[s].val();
            self.sources_unused.next = self.sources_unused.val()
                | self.scheduler.alu_kind[s].val().any()
                | self.scheduler.alu_index[s].val().any();
        }
        for x in 0..(SOURCES * self._mux_inputs) {
            self.datapath.alu_select[x].next = self.scheduler.alu_select[x].val();
        }
        self.instr.ready.next = self.scheduler.instr.ready.val();
        self.issue.next = self.scheduler.issue.val();
        self.reads.next = self.scheduler.reads.val();
        self.banks_read.next = self.scheduler.banks_read.val();
        self.banks_read_twice.next = self.scheduler.banks_read_twice.val();
        self.datapath.alu_op.next = self.scheduler.alu_op.val();
        self.alu_valid.next = self.scheduler.alu_valid.val();
        self.alu_op.next = self.scheduler.alu_op.val();
        // Reads: the scheduler's, with the test port taking read port 0 when asked.
        for p in 0..self._read_ports {
            self.gpr.read_valid[p].next = self.scheduler.read_valid[p].val();
            self.gpr.read_reg[p].next = self.scheduler.read_reg[p].val();
            self.datapath.capture_kind[p].next = self.scheduler.capture_kind[p].val();
            self.datapath.capture_index[p].next = self.scheduler.capture_index[p].val();
            self.read_valid[p].next = self.scheduler.read_valid[p].val();
            self.read_reg[p].next = self.gpr.read_reg[p].val();
        }
        self.staged_valid.d[2].next = self.debug_valid.val();
        self.staged_reg.d[2].next = self.debug_reg.val();
        if self.staged_valid.q[2].val() {
            self.gpr.read_valid[0].next = true;
            self.gpr.read_reg[0].next = self.staged_reg.q[2].val();
        }
        // Writes: ALU results on port 0, the external writer on port 1, through the request
        // stage with the reads.
        self.staged_valid.d[0].next = self.scheduler.retire_valid.val();
        self.staged_reg.d[0].next = self.scheduler.retire_reg.val();
        self.staged_valid.d[1].next = self.ext_valid.val();
        self.staged_reg.d[1].next = self.ext_reg.val();
        for w in 0..2 {
            self.gpr.write_valid[w].next = self.staged_valid.q[w].val();
            self.gpr.write_reg[w].next = self.staged_reg.q[w].val();
        }
        // Port 0 wins a bank both write, as in the GPR's arbitration; the scheduler decides it
        // in the request cycle, which the GPR's registered arbitration answers only later.
        self.retire_valid.next = self.scheduler.retire_valid.val();
        self.retire_reg.next = self.scheduler.retire_reg.val();
        self.ext_grant.next = self.scheduler.ext_grant.val();
        self.long.valid.next = self.scheduler.long.valid.val();
        self.long.reg.next = self.scheduler.long.reg.val();
        self.long.writes.next = self.scheduler.long.writes.val();
        self.long.unit.next = self.scheduler.long.unit.val();
    }
}

impl<const A: usize, const RI: usize> crate::parts::Part<Boundary> for CoreSlice<A, RI> {
    #[hdl_gen]
    fn update(&mut self) {
        // The bank map at the boundary: the indices coming in mapped, those going out given
        // back (each assigned above as it is, for the `mod` map).
        for _m in 0..self._mapped {
            self.map_in[0].register.next = self.instr.dst.val();
            self.scheduler.instr.dst.next = self.map_in[0].mapped.val();
            for s in 0..SOURCES {
                self.map_in[1 + s].register.next = self.instr.src[s].val();
                self.scheduler.instr.src[s].next = self.map_in[1 + s].mapped.val();
            }
            self.map_in[4].register.next = self.ext_reg.val();
            self.scheduler.ext_reg.next = self.map_in[4].mapped.val();
            self.staged_reg.d[1].next = self.map_in[4].mapped.val();
            self.map_in[5].register.next = self.debug_reg.val();
            self.staged_reg.d[2].next = self.map_in[5].mapped.val();
            self.map_out[0].register.next = self.scheduler.retire_reg.val();
            self.retire_reg.next = self.map_out[0].mapped.val();
            self.map_out[1].register.next = self.scheduler.long.reg.val();
            self.long.reg.next = self.map_out[1].mapped.val();
            for p in 0..self._read_ports {
                self.map_out[2 + p].register.next = self.gpr.read_reg[p].val();
                self.read_reg[p].next = self.map_out[2 + p].mapped.val();
            }
        }
        self.grants_unused.next = self.gpr.write_grant[0].val() | self.gpr.write_grant[1].val();
        for p in 0..self._read_ports {
            self.grants_unused.next = self.grants_unused.val() | self.gpr.read_grant[p].val();
        }
        for nl in self._lanes..(self._lanes + 1) {
            for l in 0..self._lanes {
                self.staged_data.d[l].next = self.datapath.result[l].val();
                self.staged_data.d[nl + l].next = self.ext_data[l].val();
                self.gpr.write_data[l].next = self.staged_data.q[l].val();
                self.gpr.write_data[nl + l].next = self.staged_data.q[nl + l].val();
                self.retire_data[l].next = self.datapath.result[l].val();
                self.long_data[l].next = self.datapath.result[l].val();
                self.debug_data[l].next = self.gpr.read_data[l].val();
                for s in 0..SOURCES {
                    self.alu_operand[s * nl + l].next = self.datapath.operand[s * nl + l].val();
                }
            }
        }
        for k in 0..(self._read_ports * self._lanes) {
            self.datapath.read_data[k].next = self.gpr.read_data[k].val();
        }
    }
}

impl<const A: usize, const RI: usize> crate::parts::Part<WaveWiring> for CoreSlice<A, RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nsrc in SOURCES..(SOURCES + 1) {
            for w in 1..self._waves {
                self.scheduler.wave.valid[w - 1].next = self.wave.valid[w - 1].val();
                self.scheduler.wave.op[w - 1].next = self.wave.op[w - 1].val();
                self.scheduler.wave.dst[w - 1].next = self.wave.dst[w - 1].val();
                self.scheduler.wave.writes[w - 1].next = self.wave.writes[w - 1].val();
                self.scheduler.wave.unit[w - 1].next = self.wave.unit[w - 1].val();
                self.scheduler.wave.wait[w - 1].next = self.wave.wait[w - 1].val();
                self.wave.ready[w - 1].next = self.scheduler.wave.ready[w - 1].val();
                for s in 0..SOURCES {
                    self.scheduler.wave.src[w * nsrc + s - nsrc].next =
                        self.wave.src[w * nsrc + s - nsrc].val();
                    self.scheduler.wave.read[w * nsrc + s - nsrc].next =
                        self.wave.read[w * nsrc + s - nsrc].val();
                    self.scheduler.wave.imm[w * nsrc + s - nsrc].next =
                        self.wave.imm[w * nsrc + s - nsrc].val();
                }
            }
            for _m in 0..self._mapped {
                for w in 1..self._waves {
                    self.map_in[w * 4 + 2].register.next = self.wave.dst[w - 1].val();
                    self.scheduler.wave.dst[w - 1].next = self.map_in[w * 4 + 2].mapped.val();
                    for s in 0..SOURCES {
                        self.map_in[w * 4 + 3 + s].register.next =
                            self.wave.src[w * nsrc + s - nsrc].val();
                        self.scheduler.wave.src[w * nsrc + s - nsrc].next =
                            self.map_in[w * 4 + 3 + s].mapped.val();
                    }
                }
            }
        }
    }
}
