//! The core slice's data side: operand latches and queue entries, the operand muxes, the
//! integer ALU and its pipeline.

mod alu;

pub use alu::CoreAlu;

use rust_hdl::prelude::*;

use crate::cells::crossbar::Crossbar;
use crate::cells::regs::Registers;
use crate::core::widths::{CaptureCode, EntryIndex, OpCode, Word};
use crate::core::MuxInputs;
use crate::params::{CaptureKind, CoreParams, SOURCES};
use crate::signals::{constant, constant_if, constants, signals};

/// Operand storage, operand muxes and ALU, all lanes of 32-bit wrapping integers.
///
/// The storage is one register file of entries of `lanes` elements: entries 0..2 are the head
/// instruction's operand latches (one per source), then the conflict-queue entries, then the
/// prefetch-queue entries. A read's data arrives the cycle after the read; `capture_kind` /
/// `capture_index` (from the scheduler) say which entry takes each port's data. The operand
/// muxes are one crossbar whose inputs ([`MuxInputs`]) are the read ports' data, the latches,
/// the queue entries, the sources' immediates and, with result forwarding, the ALU's result of
/// this cycle and the results kept from the cycles before; each source takes the input its one-hot select names
/// (an alias names its source's input). The ALU ([`CoreAlu`]) takes the operands and leaves
/// its result on `result` `alu_latency` cycles later.
#[derive(LogicBlock)]
pub struct CoreDatapath {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// GPR read data, port-major (`p * lanes + l`).
    pub read_data: Vec<Signal<In, Word>>,
    /// Per read port: 0 none, 1 operand latch, 2 conflict queue, 3 prefetch queue.
    pub capture_kind: Vec<Signal<In, CaptureCode>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<In, EntryIndex>>,
    /// The op of the instruction whose operands are at the ALU.
    pub alu_op: Signal<In, OpCode>,
    /// Per source and operand-mux input (`s * count + i`, [`MuxInputs`]): the source takes
    /// that input (one-hot per source).
    pub alu_select: Vec<Signal<In, Bit>>,
    /// Per source: the immediate of the instruction whose operands are at the ALU.
    pub alu_imm: Vec<Signal<In, Word>>,
    /// The operands entering the ALU, source-major (`s * lanes + l`).
    pub operand: Vec<Signal<Out, Word>>,
    /// The result leaving the pipeline, one element per lane.
    pub result: Vec<Signal<Out, Word>>,
    /// Latches, conflict queue, prefetch queue: entry-major (`entry * lanes + l`).
    buffer: Registers<Word>,
    /// With result forwarding, the results of the last `read_latency` cycles, newest first
    /// (`d * lanes + l`: the result of d + 1 cycles before); none without.
    history: Registers<Word>,
    /// The operand muxes: input-major inputs (`i * lanes + l`), source-major outputs.
    muxes: Crossbar<32>,
    /// The ALU and its pipeline.
    alu: CoreAlu,
    capture_latch: Constant<CaptureCode>,
    /// Queue codes, present only with their queue.
    capture_cq: Vec<Constant<CaptureCode>>,
    capture_pq: Vec<Constant<CaptureCode>>,
    /// Small numbers 0..max(SOURCES, entries): latches and queue entries.
    number: Vec<Constant<EntryIndex>>,
    _lanes: usize,
    _read_ports: usize,
    _cq: usize,
    _pq: usize,
    /// Results kept for forwarding: `read_latency` with forwarding, otherwise 0.
    _history: usize,
    /// 1 with forwarding, otherwise 0.
    _forwarding: usize,
    /// The operand mux's inputs, and where the latches, the queue entries and the results
    /// start among them.
    _inputs: usize,
    _latches_at: usize,
    _cq_at: usize,
    _pq_at: usize,
    _imm_at: usize,
    _result_at: usize,
}

impl CoreDatapath {
    /// The data side for `params`.
    pub fn new(params: &CoreParams) -> Self {
        let l = params.gpr.lanes;
        let p = params.gpr.read_ports;
        let entries = SOURCES + params.cq_entries + params.pq_entries;
        let numbers = SOURCES.max(params.cq_entries).max(params.pq_entries);
        let (cq, pq) = (params.cq_entries > 0, params.pq_entries > 0);
        let inputs = MuxInputs::of(params);
        Self {
            clock: Default::default(),
            read_data: signals(p * l),
            capture_kind: signals(p),
            capture_index: signals(p),
            alu_op: Default::default(),
            alu_select: signals(SOURCES * inputs.count),
            alu_imm: signals(SOURCES),
            operand: signals(SOURCES * l),
            result: signals(l),
            buffer: Registers::new(entries * l),
            history: Registers::stage(inputs.history * l, params.forward),
            muxes: Crossbar::new(inputs.count, SOURCES, l),
            alu: CoreAlu::new(params),
            capture_latch: constant(CaptureKind::Latch.code()),
            capture_cq: constant_if(cq, CaptureKind::ConflictQueue.code()),
            capture_pq: constant_if(pq, CaptureKind::PrefetchQueue.code()),
            number: constants(0..numbers as u64),
            _lanes: l,
            _read_ports: p,
            _cq: params.cq_entries,
            _pq: params.pq_entries,
            _history: inputs.history,
            _forwarding: usize::from(params.forward),
            _inputs: inputs.count,
            _latches_at: inputs.latches_at,
            _cq_at: inputs.cq_at,
            _pq_at: inputs.pq_at,
            _imm_at: inputs.imm_at,
            _result_at: inputs.result_at,
        }
    }
}

impl Logic for CoreDatapath {
    // Single-value loops bind lanes (nl), conflict-queue entries (nc), the sources (nsrc: the
    // operand latches) and where the mux's inputs start (nla, nm, nr).
    #[hdl_gen]
    fn update(&mut self) {
        self.buffer.clock.next = self.clock.val();
        self.history.clock.next = self.clock.val();
        self.alu.clock.next = self.clock.val();
        self.alu.op.next = self.alu_op.val();
        for x in 0..(SOURCES * self._inputs) {
            self.muxes.select[x].next = self.alu_select[x].val();
        }
        for nl in self._lanes..(self._lanes + 1) {
            for nc in self._cq..(self._cq + 1) {
                for l in 0..self._lanes {
                    // Captures: each entry keeps its value unless a port's data is for it.
                    for i in 0..SOURCES {
                        self.buffer.d[i * nl + l].next = self.buffer.q[i * nl + l].val();
                        for p in 0..self._read_ports {
                            if (self.capture_kind[p].val() == self.capture_latch.val())
                                & (self.capture_index[p].val() == self.number[i].val())
                            {
                                self.buffer.d[i * nl + l].next = self.read_data[p * nl + l].val();
                            }
                        }
                    }
                    for nsrc in SOURCES..(SOURCES + 1) {
                        for e in 0..self._cq {
                            self.buffer.d[(nsrc + e) * nl + l].next =
                                self.buffer.q[(nsrc + e) * nl + l].val();
                            for p in 0..self._read_ports {
                                if (self.capture_kind[p].val() == self.capture_cq[0].val())
                                    & (self.capture_index[p].val() == self.number[e].val())
                                {
                                    self.buffer.d[(nsrc + e) * nl + l].next =
                                        self.read_data[p * nl + l].val();
                                }
                            }
                        }
                        for e in 0..self._pq {
                            self.buffer.d[(nsrc + nc + e) * nl + l].next =
                                self.buffer.q[(nsrc + nc + e) * nl + l].val();
                            for p in 0..self._read_ports {
                                if (self.capture_kind[p].val() == self.capture_pq[0].val())
                                    & (self.capture_index[p].val() == self.number[e].val())
                                {
                                    self.buffer.d[(nsrc + nc + e) * nl + l].next =
                                        self.read_data[p * nl + l].val();
                                }
                            }
                        }
                    }
                    // The operand muxes' inputs, in the order of `MuxInputs`.
                    for p in 0..self._read_ports {
                        self.muxes.inputs[p * nl + l].next = self.read_data[p * nl + l].val();
                    }
                    for nla in self._latches_at..(self._latches_at + 1) {
                        for i in 0..(SOURCES + self._cq + self._pq) {
                            self.muxes.inputs[(nla + i) * nl + l].next =
                                self.buffer.q[i * nl + l].val();
                        }
                    }
                    for nm in self._imm_at..(self._imm_at + 1) {
                        for s in 0..SOURCES {
                            self.muxes.inputs[(nm + s) * nl + l].next = self.alu_imm[s].val();
                        }
                    }
                    for nr in self._result_at..(self._result_at + 1) {
                        for _f in 0..self._forwarding {
                            self.muxes.inputs[nr * nl + l].next = self.alu.result[l].val();
                        }
                        for d in 0..self._history {
                            self.muxes.inputs[(nr + 1 + d) * nl + l].next =
                                self.history.q[d * nl + l].val();
                        }
                    }
                    for s in 0..SOURCES {
                        self.operand[s * nl + l].next = self.muxes.outputs[s * nl + l].val();
                        self.alu.operand[s * nl + l].next = self.muxes.outputs[s * nl + l].val();
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
