//! Where each operand of the issuing head is when it reaches the ALU: a read port, the operand
//! latch, a conflict- or prefetch-queue entry, or another source of the same instruction;
//! carried through the GPR's read latency with the instruction's op.

use rust_hdl::prelude::*;

use super::decode::alias;
use crate::params::{CaptureKind, CoreParams, OperandSource};
use crate::regs::Registers;
use crate::{constant, constant_if, constants, signals};

/// The ALU's operand sources (registered): decided from the head's sources as it issues, then
/// delayed so that they meet the data of the head's last reads.
#[derive(LogicBlock)]
pub struct OperandSources {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The head's op (window slot 0).
    pub head_op: Signal<In, Bits<3>>,
    /// Per source of the head: its state after this cycle (`CaptureKind` code).
    pub next_state: Vec<Signal<In, Bits<2>>>,
    /// Per source of the head: its queue entry after this cycle.
    pub next_entry: Vec<Signal<In, Bits<3>>>,
    /// Per source of the head: read this cycle.
    pub head_read: Vec<Signal<In, Bit>>,
    /// Per source of the head: the port that reads it.
    pub head_port: Vec<Signal<In, Bits<4>>>,
    /// Per source of the head: the alias code (same register as source 0 or 1).
    pub alias_code: Vec<Signal<In, Bits<2>>>,
    /// Per source of the head, with result forwarding (none without): forwarded if still
    /// pending.
    pub forward: Vec<Signal<In, Bit>>,
    /// Per source of the head, with result forwarding (none without): the forwarded result's
    /// distance (cycles since it left the ALU, when the operands reach it).
    pub distance: Vec<Signal<In, Bits<3>>>,
    /// The issued instruction's op, at the ALU.
    pub alu_op: Signal<Out, Bits<3>>,
    /// Per source: where the operand is (`OperandSource` code), at the ALU.
    pub alu_kind: Vec<Signal<Out, Bits<3>>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance, at the ALU.
    pub alu_index: Vec<Signal<Out, Bits<3>>>,
    /// The op and, per source, the operand's place, for each of the `read_latency` cycles from
    /// issue to the ALU (stage-major).
    op_r: Registers<Bits<3>>,
    kind_r: Registers<Bits<3>>,
    index_r: Registers<Bits<3>>,
    in_cq: Constant<Bits<2>>,
    in_pq: Constant<Bits<2>>,
    from_port: Constant<Bits<3>>,
    from_latch: Constant<Bits<3>>,
    from_cq: Constant<Bits<3>>,
    from_pq: Constant<Bits<3>>,
    /// The forwarded result's code (one constant with forwarding, none without).
    from_result: Vec<Constant<Bits<3>>>,
    /// The pending state's code (one constant with forwarding, none without).
    pending: Vec<Constant<Bits<2>>>,
    alias_of_0: Constant<Bits<3>>,
    alias_of_1: Constant<Bits<3>>,
    alias_0: Constant<Bits<2>>,
    alias_1: Constant<Bits<2>>,
    /// 0, 1, 2, ...: latch and port numbers.
    number: Vec<Constant<Bits<3>>>,
    port_number: Vec<Constant<Bits<4>>>,
    _read_ports: usize,
    /// Head sources that may be forwarded: 3 with result forwarding, otherwise 0.
    _forwarded: usize,
    /// Stages before the last: `read_latency - 1`.
    _later: usize,
    /// The first register of the last stage: `(read_latency - 1) * 3`.
    _last_source: usize,
}

impl OperandSources {
    /// The operand sources of the core described by `params`.
    pub fn new(params: &CoreParams) -> Self {
        let p = params.gpr.read_ports;
        let latency = params.read_latency();
        let code = |c: OperandSource| constant(c.code());
        Self {
            clock: Default::default(),
            head_op: Default::default(),
            next_state: signals(3),
            next_entry: signals(3),
            head_read: signals(3),
            head_port: signals(3),
            alias_code: signals(3),
            forward: signals(3 * usize::from(params.forward)),
            distance: signals(3 * usize::from(params.forward)),
            alu_op: Default::default(),
            alu_kind: signals(3),
            alu_index: signals(3),
            op_r: Registers::new(latency),
            kind_r: Registers::new(3 * latency),
            index_r: Registers::new(3 * latency),
            in_cq: constant(CaptureKind::ConflictQueue.code()),
            in_pq: constant(CaptureKind::PrefetchQueue.code()),
            from_port: code(OperandSource::Port),
            from_latch: code(OperandSource::Latch),
            from_cq: code(OperandSource::ConflictQueue),
            from_pq: code(OperandSource::PrefetchQueue),
            from_result: constant_if(params.forward, OperandSource::Result.code()),
            pending: constant_if(params.forward, CaptureKind::Nowhere.code()),
            alias_of_0: code(OperandSource::SameAsSource0),
            alias_of_1: code(OperandSource::SameAsSource1),
            alias_0: constant(alias::SOURCE_0),
            alias_1: constant(alias::SOURCE_1),
            number: constants(0..3.max(p) as u64),
            port_number: constants(0..p as u64),
            _read_ports: p,
            _forwarded: 3 * usize::from(params.forward),
            _later: latency - 1,
            _last_source: (latency - 1) * 3,
        }
    }
}

impl Logic for OperandSources {
    #[hdl_gen]
    fn update(&mut self) {
        self.op_r.clock.next = self.clock.val();
        self.kind_r.clock.next = self.clock.val();
        self.index_r.clock.next = self.clock.val();
        self.op_r.d[0].next = self.head_op.val();
        for k in 0..self._later {
            self.op_r.d[k + 1].next = self.op_r.q[k].val();
            for s in 0..3 {
                self.kind_r.d[(k + 1) * 3 + s].next = self.kind_r.q[k * 3 + s].val();
                self.index_r.d[(k + 1) * 3 + s].next = self.index_r.q[k * 3 + s].val();
            }
        }
        for last in self._later..(self._later + 1) {
            self.alu_op.next = self.op_r.q[last].val();
        }
        for s in 0..3 {
            self.kind_r.d[s].next = self.from_latch.val();
            self.index_r.d[s].next = self.number[s].val();
            if self.next_state[s].val() == self.in_cq.val() {
                self.kind_r.d[s].next = self.from_cq.val();
                self.index_r.d[s].next = self.next_entry[s].val();
            }
            if self.next_state[s].val() == self.in_pq.val() {
                self.kind_r.d[s].next = self.from_pq.val();
                self.index_r.d[s].next = self.next_entry[s].val();
            }
            if self.head_read[s].val() {
                self.kind_r.d[s].next = self.from_port.val();
                for p in 0..self._read_ports {
                    if self.head_port[s].val() == self.port_number[p].val() {
                        self.index_r.d[s].next = self.number[p].val();
                    }
                }
            }
            for _f in 0..(self._forwarded / 3) {
                if self.forward[s].val() & (self.next_state[s].val() == self.pending[0].val()) {
                    self.kind_r.d[s].next = self.from_result[0].val();
                    self.index_r.d[s].next = self.distance[s].val();
                }
            }
            if self.alias_code[s].val() == self.alias_0.val() {
                self.kind_r.d[s].next = self.alias_of_0.val();
            }
            if self.alias_code[s].val() == self.alias_1.val() {
                self.kind_r.d[s].next = self.alias_of_1.val();
            }
        }
        for last in self._last_source..(self._last_source + 1) {
            for s in 0..3 {
                self.alu_kind[s].next = self.kind_r.q[last + s].val();
                self.alu_index[s].next = self.index_r.q[last + s].val();
            }
        }
    }
}
