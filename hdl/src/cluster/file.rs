//! RTL of the clustered multi-level register file: the top module.

use rust_hdl::prelude::*;

use super::alu::Alu;
use super::counter::AccessCounters;
use super::encoding::{Source, COUNTER_BITS, DATA_BITS, OP_BITS, OP_OUT, SEL_BITS};
use super::ports::MainPorts;
use crate::cells::crossbar::Crossbar;
use crate::cells::regs::Registers;
use crate::multiport::{FlopFile, LvtFile};
use crate::params::{ClusterParams, MultiportParams};
use crate::parts::logic_in_parts;
use crate::signals::{constant, signals};

/// The clustered register file (`docs/cluster.md`, "The hardware"): C clusters, each with a
/// local file (2 reads, 1 write, flip-flops) and an ALU, and one main file in block RAM whose
/// read and write ports the clusters share through an arbiter.
///
/// Each cycle every cluster may offer one instruction on its `issue_*` ports. The arbiter
/// grants the main file's ports lowest cluster first (`issue_ready`); a granted instruction
/// reads its sources at the rising edge (the files' reads are registered), executes in the
/// next cycle, and writes its result at the end of it. A result is forwarded to an
/// instruction issued in the cycle it is written (the only read that would miss it). A
/// cluster's operand multiplexer sees its own local file, the main file's read ports and its
/// immediate field only: no path reaches another cluster's local file.
///
/// `L` is the local register-index width, `M` the main one (`L <= M`).
#[derive(LogicBlock)]
pub struct ClusterFile<const L: usize, const M: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per cluster: an instruction is offered.
    pub issue_valid: Vec<Signal<In, Bit>>,
    /// Per cluster: its operation (`encoding::OPS`).
    pub issue_op: Vec<Signal<In, Bits<OP_BITS>>>,
    /// Per cluster: the destination is in the main file (else the local file).
    pub issue_dst_main: Vec<Signal<In, Bit>>,
    /// Per cluster: the destination register.
    pub issue_dst: Vec<Signal<In, Bits<M>>>,
    /// Per cluster: where the first source is (`encoding::Source`).
    pub issue_a_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: the first source's register, or its immediate.
    pub issue_a: Vec<Signal<In, Bits<DATA_BITS>>>,
    /// Per cluster: where the second source is.
    pub issue_b_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: the second source's register, or its immediate.
    pub issue_b: Vec<Signal<In, Bits<DATA_BITS>>>,
    /// Per cluster: the offered instruction issues this cycle (else offer it again).
    pub issue_ready: Vec<Signal<Out, Bit>>,
    /// Per cluster, after the edge: the instruction issued at it is an `out`.
    pub out_valid: Vec<Signal<Out, Bit>>,
    /// Per cluster, after the edge: the result of the instruction issued at it.
    pub out_data: Vec<Signal<Out, Bits<DATA_BITS>>>,
    /// Local-file reads and writes of the instructions issued so far.
    pub local_accesses: Signal<Out, Bits<COUNTER_BITS>>,
    /// Main-file reads and writes of the instructions issued so far.
    pub main_accesses: Signal<Out, Bits<COUNTER_BITS>>,
    /// Offered instructions not issued (a main port was taken), summed over cycles.
    pub main_conflicts: Signal<Out, Bits<COUNTER_BITS>>,
    /// Cycles in which an offered instruction was not issued.
    pub stall_cycles: Signal<Out, Bits<COUNTER_BITS>>,
    ports: MainPorts,
    /// The local files, one group per cluster.
    locals: FlopFile<DATA_BITS, L>,
    main: LvtFile<DATA_BITS, M>,
    alu: Vec<Alu>,
    /// Main read addresses: inputs `2c + k` (cluster `c`'s source `k`), outputs the ports.
    main_address: Crossbar<M>,
    /// Main read data back: inputs the ports, outputs `2c + k`.
    main_operand: Crossbar<DATA_BITS>,
    /// Main write registers: inputs the clusters, outputs the write ports.
    main_write_reg: Crossbar<M>,
    /// Main write data: inputs the clusters, outputs the write ports.
    main_write_data: Crossbar<DATA_BITS>,
    /// Issue to execute: per cluster, granted (`2c`) and destination in main (`2c + 1`).
    x_flag: Registers<Bit>,
    /// Issue to execute: the operand multiplexers' selects (`main_operand.select`).
    x_take: Registers<Bit>,
    /// Issue to execute: the main write selects (`c * write_ports + w`).
    x_write_take: Registers<Bit>,
    x_op: Registers<Bits<OP_BITS>>,
    /// Issue to execute: source selects, `2c + k`.
    x_sel: Registers<Bits<SEL_BITS>>,
    /// Issue to execute: source fields, `2c + k`.
    x_value: Registers<Bits<DATA_BITS>>,
    x_dst: Registers<Bits<M>>,
    /// The writes of the last cycle, for forwarding: local (`c`), then main ports (`C + w`).
    last_valid: Registers<Bit>,
    /// The local writes' registers of the last cycle, per cluster.
    last_local_reg: Registers<Bits<L>>,
    /// The main writes' registers of the last cycle, per write port.
    last_main_reg: Registers<Bits<M>>,
    last_data: Registers<Bits<DATA_BITS>>,
    counters: AccessCounters,
    /// Per source `2c + k`, in execute: the operand.
    operand: Vec<Signal<Local, Bits<DATA_BITS>>>,
    /// Per cluster, in execute: it writes its local file.
    local_write: Vec<Signal<Local, Bit>>,
    /// `writing[w * (C + 1) + c]`: a cluster below `c` writes on main port `w`.
    writing: Vec<Signal<Local, Bit>>,
    sel_local: Constant<Bits<SEL_BITS>>,
    sel_main: Constant<Bits<SEL_BITS>>,
    op_out: Constant<Bits<OP_BITS>>,
    _clusters: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl<const L: usize, const M: usize> ClusterFile<L, M> {
    /// Builds the file for `params`; the widths `L` and `M` must match them.
    pub fn new(params: &ClusterParams) -> Self {
        assert_eq!(L, params.local_bits());
        assert_eq!(M, params.main_bits());
        let (c, r, w) = (
            params.clusters,
            params.main_read_ports,
            params.main_write_ports,
        );
        Self {
            clock: Signal::default(),
            issue_valid: signals(c),
            issue_op: signals(c),
            issue_dst_main: signals(c),
            issue_dst: signals(c),
            issue_a_sel: signals(c),
            issue_a: signals(c),
            issue_b_sel: signals(c),
            issue_b: signals(c),
            issue_ready: signals(c),
            out_valid: signals(c),
            out_data: signals(c),
            local_accesses: Signal::default(),
            main_accesses: Signal::default(),
            main_conflicts: Signal::default(),
            stall_cycles: Signal::default(),
            ports: MainPorts::new(c, r, w),
            locals: FlopFile::grouped(&local_file(params), c),
            main: LvtFile::new(&main_file(params)),
            alu: (0..c).map(|_| Alu::default()).collect(),
            main_address: Crossbar::new(2 * c, r, 1),
            main_operand: Crossbar::new(r, 2 * c, 1),
            main_write_reg: Crossbar::new(c, w, 1),
            main_write_data: Crossbar::new(c, w, 1),
            x_flag: Registers::new(2 * c),
            x_take: Registers::new(2 * c * r),
            x_write_take: Registers::new(c * w),
            x_op: Registers::new(c),
            x_sel: Registers::new(2 * c),
            x_value: Registers::new(2 * c),
            x_dst: Registers::new(c),
            last_valid: Registers::new(c + w),
            last_local_reg: Registers::new(c),
            last_main_reg: Registers::new(w),
            last_data: Registers::new(c + w),
            counters: AccessCounters::new(c),
            operand: signals(2 * c),
            local_write: signals(c),
            writing: signals(w * (c + 1)),
            sel_local: constant(Source::Local.code()),
            sel_main: constant(Source::Main.code()),
            op_out: constant(OP_OUT),
            _clusters: c,
            _read_ports: r,
            _write_ports: w,
        }
    }
}

/// The local files' shape: 2 reads and 1 write per cluster, 32-bit registers.
pub fn local_file(params: &ClusterParams) -> MultiportParams {
    MultiportParams {
        registers: 1 << params.local_bits(),
        lanes: 1,
        element_bits: DATA_BITS,
        read_ports: 2,
        write_ports: 1,
        ..MultiportParams::default()
    }
}

/// The main file's shape: the shared ports, 32-bit registers.
pub fn main_file(params: &ClusterParams) -> MultiportParams {
    MultiportParams {
        registers: 1 << params.main_bits(),
        lanes: 1,
        element_bits: DATA_BITS,
        read_ports: params.main_read_ports,
        write_ports: params.main_write_ports,
        ..MultiportParams::default()
    }
}

/// Issue: the ports arbitrated and counted, the sources read, the execute stage loaded.
enum Issue {}

/// Execute: the operands (last cycle's writes forwarded), the ALUs, the write-back.
enum Execute {}

impl<const L: usize, const M: usize> Logic for ClusterFile<L, M> {
    logic_in_parts!(Issue, Execute);
}

impl<const L: usize, const M: usize> crate::parts::Part<Issue> for ClusterFile<L, M> {
    // Single-value loops bind the sizes (`nc`, `nr`, `nw`) to loop variables.
    #[hdl_gen]
    fn update(&mut self) {
        for nc in self._clusters..(self._clusters + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    self.ports.clock.next = self.clock.val();
                    self.locals.clock.next = self.clock.val();
                    self.main.clock.next = self.clock.val();
                    self.x_flag.clock.next = self.clock.val();
                    self.x_take.clock.next = self.clock.val();
                    self.x_write_take.clock.next = self.clock.val();
                    self.x_op.clock.next = self.clock.val();
                    self.x_sel.clock.next = self.clock.val();
                    self.x_value.clock.next = self.clock.val();
                    self.x_dst.clock.next = self.clock.val();
                    self.last_valid.clock.next = self.clock.val();
                    self.last_local_reg.clock.next = self.clock.val();
                    self.last_main_reg.clock.next = self.clock.val();
                    self.last_data.clock.next = self.clock.val();
                    self.counters.clock.next = self.clock.val();
                    // Issue: arbitrate, count, read, and latch into the execute stage.
                    for c in 0..self._clusters {
                        self.ports.valid[c].next = self.issue_valid[c].val();
                        self.ports.a_sel[c].next = self.issue_a_sel[c].val();
                        self.ports.b_sel[c].next = self.issue_b_sel[c].val();
                        self.ports.op[c].next = self.issue_op[c].val();
                        self.ports.dst_main[c].next = self.issue_dst_main[c].val();
                        self.counters.valid[c].next = self.issue_valid[c].val();
                        self.counters.grant[c].next = self.ports.grant[c].val();
                        self.counters.a_sel[c].next = self.issue_a_sel[c].val();
                        self.counters.b_sel[c].next = self.issue_b_sel[c].val();
                        self.counters.op[c].next = self.issue_op[c].val();
                        self.counters.dst_main[c].next = self.issue_dst_main[c].val();
                        self.issue_ready[c].next = self.ports.grant[c].val();
                        // Both sources are read whenever the instruction issues; execute uses
                        // the local data only for a local source.
                        self.locals.read.valid[2 * c].next = self.ports.grant[c].val();
                        self.locals.read.valid[2 * c + 1].next = self.ports.grant[c].val();
                        self.locals.read.reg[2 * c].next = self.issue_a[c].val().get_bits::<L>(0);
                        self.locals.read.reg[2 * c + 1].next =
                            self.issue_b[c].val().get_bits::<L>(0);
                        self.main_address.inputs[2 * c].next =
                            self.issue_a[c].val().get_bits::<M>(0);
                        self.main_address.inputs[2 * c + 1].next =
                            self.issue_b[c].val().get_bits::<M>(0);
                        for p in 0..self._read_ports {
                            self.main_address.select[p * 2 * nc + 2 * c].next =
                                self.ports.a_take[c * nr + p].val();
                            self.main_address.select[p * 2 * nc + 2 * c + 1].next =
                                self.ports.b_take[c * nr + p].val();
                            self.x_take.d[2 * c * nr + p].next =
                                self.ports.a_take[c * nr + p].val();
                            self.x_take.d[(2 * c + 1) * nr + p].next =
                                self.ports.b_take[c * nr + p].val();
                        }
                        for w in 0..self._write_ports {
                            self.x_write_take.d[c * nw + w].next =
                                self.ports.w_take[c * nw + w].val();
                        }
                        self.x_flag.d[2 * c].next = self.ports.grant[c].val();
                        self.x_flag.d[2 * c + 1].next = self.issue_dst_main[c].val();
                        self.x_op.d[c].next = self.issue_op[c].val();
                        self.x_sel.d[2 * c].next = self.issue_a_sel[c].val();
                        self.x_sel.d[2 * c + 1].next = self.issue_b_sel[c].val();
                        self.x_value.d[2 * c].next = self.issue_a[c].val();
                        self.x_value.d[2 * c + 1].next = self.issue_b[c].val();
                        self.x_dst.d[c].next = self.issue_dst[c].val();
                    }
                    for p in 0..self._read_ports {
                        self.main.read.valid[p].next = true;
                        self.main.read.reg[p].next = self.main_address.outputs[p].val();
                        self.main_operand.inputs[p].next = self.main.read.data[p].val();
                    }
                }
            }
        }
    }
}

impl<const L: usize, const M: usize> crate::parts::Part<Execute> for ClusterFile<L, M> {
    #[hdl_gen]
    fn update(&mut self) {
        for nc in self._clusters..(self._clusters + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    // Execute: operands (forwarding last cycle's writes), ALU, write-back.
                    for o in 0..(2 * self._clusters) {
                        for p in 0..self._read_ports {
                            self.main_operand.select[o * nr + p].next =
                                self.x_take.q[o * nr + p].val();
                        }
                        self.operand[o].next = self.x_value.q[o].val();
                        if self.x_sel.q[o].val() == self.sel_local.val() {
                            self.operand[o].next = self.locals.read.data[o].val();
                            if self.last_valid.q[o / 2].val()
                                & (self.last_local_reg.q[o / 2].val()
                                    == self.x_value.q[o].val().get_bits::<L>(0))
                            {
                                self.operand[o].next = self.last_data.q[o / 2].val();
                            }
                        }
                        if self.x_sel.q[o].val() == self.sel_main.val() {
                            self.operand[o].next = self.main_operand.outputs[o].val();
                            // The lowest write port wins, as in the file: it is tried last.
                            for w in 0..self._write_ports {
                                if self.last_valid.q[nc + nw - 1 - w].val()
                                    & (self.last_main_reg.q[nw - 1 - w].val()
                                        == self.x_value.q[o].val().get_bits::<M>(0))
                                {
                                    self.operand[o].next = self.last_data.q[nc + nw - 1 - w].val();
                                }
                            }
                        }
                    }
                    for c in 0..self._clusters {
                        self.alu[c].op.next = self.x_op.q[c].val();
                        self.alu[c].a.next = self.operand[2 * c].val();
                        self.alu[c].b.next = self.operand[2 * c + 1].val();
                        self.out_valid[c].next = self.x_flag.q[2 * c].val()
                            & (self.x_op.q[c].val() == self.op_out.val());
                        self.out_data[c].next = self.alu[c].result.val();
                        self.local_write[c].next = self.x_flag.q[2 * c].val()
                            & (self.x_op.q[c].val() != self.op_out.val())
                            & !self.x_flag.q[2 * c + 1].val();
                        self.locals.write.valid[c].next = self.local_write[c].val();
                        self.locals.write.reg[c].next = self.x_dst.q[c].val().get_bits::<L>(0);
                        self.locals.write.data[c].next = self.alu[c].result.val();
                        self.last_valid.d[c].next = self.local_write[c].val();
                        self.last_local_reg.d[c].next = self.x_dst.q[c].val().get_bits::<L>(0);
                        self.last_data.d[c].next = self.alu[c].result.val();
                        self.main_write_reg.inputs[c].next = self.x_dst.q[c].val();
                        self.main_write_data.inputs[c].next = self.alu[c].result.val();
                        for w in 0..self._write_ports {
                            self.main_write_reg.select[w * nc + c].next =
                                self.x_write_take.q[c * nw + w].val();
                            self.main_write_data.select[w * nc + c].next =
                                self.x_write_take.q[c * nw + w].val();
                        }
                    }
                    for w in 0..self._write_ports {
                        self.writing[w * (nc + 1)].next = false;
                        for c in 0..self._clusters {
                            self.writing[w * (nc + 1) + c + 1].next =
                                self.writing[w * (nc + 1) + c].val()
                                    | self.x_write_take.q[c * nw + w].val();
                        }
                        self.main.write.valid[w].next = self.writing[w * (nc + 1) + nc].val();
                        self.main.write.reg[w].next = self.main_write_reg.outputs[w].val();
                        self.main.write.data[w].next = self.main_write_data.outputs[w].val();
                        self.last_valid.d[nc + w].next = self.writing[w * (nc + 1) + nc].val();
                        self.last_main_reg.d[w].next = self.main_write_reg.outputs[w].val();
                        self.last_data.d[nc + w].next = self.main_write_data.outputs[w].val();
                    }
                    self.local_accesses.next = self.counters.local_accesses.val();
                    self.main_accesses.next = self.counters.main_accesses.val();
                    self.main_conflicts.next = self.counters.main_conflicts.val();
                    self.stall_cycles.next = self.counters.stall_cycles.val();
                }
            }
        }
    }
}
