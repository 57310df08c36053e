//! The core slice's data side: operand latches and queue entries, the operand muxes, the
//! integer ALU and its pipeline.

use rust_hdl::prelude::*;

use super::alu::CoreAlu;
use crate::params::{CaptureKind, CoreParams, OperandSource};
use crate::regs::Registers;
use crate::{constant, constant_if, constants, signals};

/// Operand storage, operand muxes and ALU, all lanes of 32-bit wrapping integers.
///
/// The storage is one register file of entries of `lanes` elements: entries 0..2 are the head
/// instruction's operand latches (one per source), then the conflict-queue entries, then the
/// prefetch-queue entries. A read's data arrives the cycle after the read; `capture_kind` /
/// `capture_index` (from the scheduler) say which entry takes each port's data. Each source's
/// operand mux chooses a read port's data, a latch, a queue entry, an earlier source's
/// operand, or, with result forwarding, the ALU's result of this cycle. The ALU ([`CoreAlu`]) takes the operands and leaves its result on `result`
/// `alu_latency` cycles later.
#[derive(LogicBlock)]
pub struct CoreDatapath {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// GPR read data, port-major (`p * lanes + l`).
    pub read_data: Vec<Signal<In, Bits<32>>>,
    /// Per read port: 0 none, 1 operand latch, 2 conflict queue, 3 prefetch queue.
    pub capture_kind: Vec<Signal<In, Bits<2>>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<In, Bits<3>>>,
    /// The op of the instruction whose operands are at the ALU.
    pub alu_op: Signal<In, Bits<3>>,
    /// Per source: 0 read port, 1 latch, 2 conflict queue, 3 prefetch queue, 4/5 same as
    /// source 0/1, 6 the ALU's result (forwarded).
    pub alu_kind: Vec<Signal<In, Bits<3>>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance (0: this
    /// cycle's result, d: the result of d cycles before).
    pub alu_index: Vec<Signal<In, Bits<3>>>,
    /// The operands entering the ALU, source-major (`s * lanes + l`).
    pub operand: Vec<Signal<Out, Bits<32>>>,
    /// The result leaving the pipeline, one element per lane.
    pub result: Vec<Signal<Out, Bits<32>>>,
    /// Latches, conflict queue, prefetch queue: entry-major (`entry * lanes + l`).
    buffer: Registers<Bits<32>>,
    /// The ALU and its pipeline.
    alu: CoreAlu,
    /// With result forwarding, the results of the last `read_latency` cycles, newest first
    /// (`d * lanes + l`: the result of d + 1 cycles before); none without.
    history: Registers<Bits<32>>,
    capture_latch: Constant<Bits<2>>,
    /// Queue codes, present only with their queue.
    capture_cq: Vec<Constant<Bits<2>>>,
    capture_pq: Vec<Constant<Bits<2>>>,
    from_port: Constant<Bits<3>>,
    from_latch: Constant<Bits<3>>,
    from_cq: Vec<Constant<Bits<3>>>,
    from_pq: Vec<Constant<Bits<3>>>,
    /// The forwarded result's code, present only with result forwarding.
    from_result: Vec<Constant<Bits<3>>>,
    alias_of_0: Constant<Bits<3>>,
    alias_of_1: Constant<Bits<3>>,
    zero: Constant<Bits<32>>,
    /// Small numbers 0..max(3, entries, read ports).
    number: Vec<Constant<Bits<3>>>,
    _lanes: usize,
    _read_ports: usize,
    _cq: usize,
    _pq: usize,
    /// Results kept for forwarding: `read_latency` with forwarding, otherwise 0.
    _history: usize,
    /// 1 with forwarding, otherwise 0.
    _forwarding: usize,
}

impl CoreDatapath {
    /// The data side for `params`.
    pub fn new(params: &CoreParams) -> Self {
        let l = params.gpr.lanes;
        let p = params.gpr.read_ports;
        let entries = 3 + params.cq_entries + params.pq_entries;
        let numbers = 3.max(params.cq_entries).max(params.pq_entries).max(p);
        let (cq, pq) = (params.cq_entries > 0, params.pq_entries > 0);
        let history = params.read_latency() * usize::from(params.forward);
        let numbers = numbers.max(history + 1);
        Self {
            clock: Default::default(),
            read_data: signals(p * l),
            capture_kind: signals(p),
            capture_index: signals(p),
            alu_op: Default::default(),
            alu_kind: signals(3),
            alu_index: signals(3),
            operand: signals(3 * l),
            result: signals(l),
            buffer: Registers::new(entries * l),
            alu: CoreAlu::new(params),
            history: Registers::stage(history * l, params.forward),
            capture_latch: constant(CaptureKind::Latch.code()),
            capture_cq: constant_if(cq, CaptureKind::ConflictQueue.code()),
            capture_pq: constant_if(pq, CaptureKind::PrefetchQueue.code()),
            from_port: constant(OperandSource::Port.code()),
            from_latch: constant(OperandSource::Latch.code()),
            from_cq: constant_if(cq, OperandSource::ConflictQueue.code()),
            from_pq: constant_if(pq, OperandSource::PrefetchQueue.code()),
            from_result: constant_if(params.forward, OperandSource::Result.code()),
            alias_of_0: constant(OperandSource::SameAsSource0.code()),
            alias_of_1: constant(OperandSource::SameAsSource1.code()),
            zero: constant(0),
            number: constants(0..numbers as u64),
            _lanes: l,
            _read_ports: p,
            _cq: params.cq_entries,
            _pq: params.pq_entries,
            _history: history,
            _forwarding: usize::from(params.forward),
        }
    }
}

impl Logic for CoreDatapath {
    // Single-value loops bind lanes (nl) and conflict-queue entries (nc).
    #[hdl_gen]
    fn update(&mut self) {
        self.buffer.clock.next = self.clock.val();
        self.history.clock.next = self.clock.val();
        self.alu.clock.next = self.clock.val();
        self.alu.op.next = self.alu_op.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nc in self._cq..(self._cq + 1) {
                for l in 0..self._lanes {
                    // Captures: each entry keeps its value unless a port's data is for it.
                    for i in 0..3 {
                        self.buffer.d[i * nl + l].next = self.buffer.q[i * nl + l].val();
                        for p in 0..self._read_ports {
                            if (self.capture_kind[p].val() == self.capture_latch.val())
                                & (self.capture_index[p].val() == self.number[i].val())
                            {
                                self.buffer.d[i * nl + l].next = self.read_data[p * nl + l].val();
                            }
                        }
                    }
                    for e in 0..self._cq {
                        self.buffer.d[(3 + e) * nl + l].next =
                            self.buffer.q[(3 + e) * nl + l].val();
                        for p in 0..self._read_ports {
                            if (self.capture_kind[p].val() == self.capture_cq[0].val())
                                & (self.capture_index[p].val() == self.number[e].val())
                            {
                                self.buffer.d[(3 + e) * nl + l].next =
                                    self.read_data[p * nl + l].val();
                            }
                        }
                    }
                    for e in 0..self._pq {
                        self.buffer.d[(3 + nc + e) * nl + l].next =
                            self.buffer.q[(3 + nc + e) * nl + l].val();
                        for p in 0..self._read_ports {
                            if (self.capture_kind[p].val() == self.capture_pq[0].val())
                                & (self.capture_index[p].val() == self.number[e].val())
                            {
                                self.buffer.d[(3 + nc + e) * nl + l].next =
                                    self.read_data[p * nl + l].val();
                            }
                        }
                    }
                    // Operand muxes.
                    for s in 0..3 {
                        self.operand[s * nl + l].next = self.zero.val();
                        for p in 0..self._read_ports {
                            if (self.alu_kind[s].val() == self.from_port.val())
                                & (self.alu_index[s].val() == self.number[p].val())
                            {
                                self.operand[s * nl + l].next = self.read_data[p * nl + l].val();
                            }
                        }
                        for i in 0..3 {
                            if (self.alu_kind[s].val() == self.from_latch.val())
                                & (self.alu_index[s].val() == self.number[i].val())
                            {
                                self.operand[s * nl + l].next = self.buffer.q[i * nl + l].val();
                            }
                        }
                        for e in 0..self._cq {
                            if (self.alu_kind[s].val() == self.from_cq[0].val())
                                & (self.alu_index[s].val() == self.number[e].val())
                            {
                                self.operand[s * nl + l].next =
                                    self.buffer.q[(3 + e) * nl + l].val();
                            }
                        }
                        for e in 0..self._pq {
                            if (self.alu_kind[s].val() == self.from_pq[0].val())
                                & (self.alu_index[s].val() == self.number[e].val())
                            {
                                self.operand[s * nl + l].next =
                                    self.buffer.q[(3 + nc + e) * nl + l].val();
                            }
                        }
                        for _f in 0..self._forwarding {
                            if (self.alu_kind[s].val() == self.from_result[0].val())
                                & (self.alu_index[s].val() == self.number[0].val())
                            {
                                self.operand[s * nl + l].next = self.alu.result[l].val();
                            }
                            for d in 0..self._history {
                                if (self.alu_kind[s].val() == self.from_result[0].val())
                                    & (self.alu_index[s].val() == self.number[d + 1].val())
                                {
                                    self.operand[s * nl + l].next =
                                        self.history.q[d * nl + l].val();
                                }
                            }
                        }
                    }
                    if self.alu_kind[1].val() == self.alias_of_0.val() {
                        self.operand[nl + l].next = self.operand[l].val();
                    }
                    if self.alu_kind[2].val() == self.alias_of_0.val() {
                        self.operand[2 * nl + l].next = self.operand[l].val();
                    }
                    if self.alu_kind[2].val() == self.alias_of_1.val() {
                        self.operand[2 * nl + l].next = self.operand[nl + l].val();
                    }
                    for s in 0..3 {
                        self.alu.operand[s * nl + l].next = self.operand[s * nl + l].val();
                    }
                    self.result[l].next = self.alu.result[l].val();
                    for _f in 0..self._forwarding {
                        self.history.d[l].next = self.alu.result[l].val();
                    }
                    for d in 1..self._history {
                        self.history.d[d * nl + l].next = self.history.q[(d - 1) * nl + l].val();
                    }
                }
            }
        }
    }
}
