//! Where each operand of the issuing head is when it reaches the ALU: a read port, the operand
//! latch, a conflict- or prefetch-queue entry, a forwarded result, another source of the same
//! instruction, or its immediate; carried through the GPR's read latency with the
//! instruction's op and immediates, and decoded a cycle before the ALU into the operand mux's
//! one-hot selects.

use rust_hdl::prelude::*;

use super::decode::alias;
use crate::cells::regs::Registers;
use crate::core::widths::{
    AliasCode, CaptureCode, Distance, EntryIndex, OpCode, OperandIndex, OperandSourceCode,
    PortNumber, Word,
};
use crate::params::{CaptureKind, CoreParams, OperandSource, SOURCES};
use crate::signals::{constant, constant_if, constants, signals};

/// The ALU's operand sources (registered): decided from the head's sources as it issues, then
/// delayed so that they meet the data of the head's last reads, with the op and the
/// immediates. Beside the last stage's kind and index, the same place as the operand mux's
/// one-hot select over its inputs ([`OperandSelects`]).
#[derive(LogicBlock)]
pub struct OperandSources {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The head's op (window slot 0).
    pub head_op: Signal<In, OpCode>,
    /// Per source of the head: its state after this cycle (`CaptureKind` code).
    pub next_state: Vec<Signal<In, CaptureCode>>,
    /// Per source of the head: its queue entry after this cycle.
    pub next_entry: Vec<Signal<In, EntryIndex>>,
    /// Per source of the head: read this cycle.
    pub head_read: Vec<Signal<In, Bit>>,
    /// Per source of the head: the port that reads it.
    pub head_port: Vec<Signal<In, PortNumber>>,
    /// Per source of the head: the alias code (same register as source 0 or 1).
    pub alias_code: Vec<Signal<In, AliasCode>>,
    /// Per source of the head: it takes its immediate (it is no GPR read).
    pub immediate: Vec<Signal<In, Bit>>,
    /// Per source of the head: its immediate.
    pub head_imm: Vec<Signal<In, Word>>,
    /// Per source of the head, with result forwarding (none without): forwarded if still
    /// pending.
    pub forward: Vec<Signal<In, Bit>>,
    /// Per source of the head, with result forwarding (none without): the forwarded result's
    /// distance (cycles since it left the ALU, when the operands reach it).
    pub distance: Vec<Signal<In, Distance>>,
    /// The issued instruction's op, at the ALU.
    pub alu_op: Signal<Out, OpCode>,
    /// Per source: the issued instruction's immediate, at the ALU.
    pub alu_imm: Vec<Signal<Out, Word>>,
    /// Per source: where the operand is (`OperandSource` code), at the ALU.
    pub alu_kind: Vec<Signal<Out, OperandSourceCode>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance, at the ALU.
    pub alu_index: Vec<Signal<Out, OperandIndex>>,
    /// Per source and operand-mux input (`s * count + i`, [`MuxInputs`]): the source takes
    /// that input, at the ALU (one-hot per source).
    pub alu_select: Vec<Signal<Out, Bit>>,
    /// The op and, per source, the operand's place, for each of the `read_latency` cycles from
    /// issue to the ALU (stage-major).
    op_r: Registers<OpCode>,
    imm_r: Registers<Word>,
    kind_r: Registers<OperandSourceCode>,
    index_r: Registers<OperandIndex>,
    /// The operand mux's selects, from the kind and index entering the last stage.
    selects: OperandSelects,
    /// Per source: its queue entry, four bits wide like the index.
    entry: Vec<Signal<Local, OperandIndex>>,
    /// The entry number's three bits, four bits wide.
    entry_bit: Vec<Constant<OperandIndex>>,
    in_cq: Constant<CaptureCode>,
    in_pq: Constant<CaptureCode>,
    from_port: Constant<OperandSourceCode>,
    from_latch: Constant<OperandSourceCode>,
    from_cq: Constant<OperandSourceCode>,
    from_pq: Constant<OperandSourceCode>,
    from_imm: Constant<OperandSourceCode>,
    /// The forwarded result's code (one constant with forwarding, none without).
    from_result: Vec<Constant<OperandSourceCode>>,
    /// The pending state's code (one constant with forwarding, none without).
    pending: Vec<Constant<CaptureCode>>,
    alias_of_0: Constant<OperandSourceCode>,
    alias_of_1: Constant<OperandSourceCode>,
    alias_0: Constant<AliasCode>,
    alias_1: Constant<AliasCode>,
    /// 0, 1, 2, ...: latch and port numbers.
    number: Vec<Constant<OperandIndex>>,
    port_number: Vec<Constant<PortNumber>>,
    _read_ports: usize,
    /// The operand mux's inputs.
    _inputs: usize,
    /// Head sources that may be forwarded: `SOURCES` with result forwarding, otherwise 0.
    _forwarded: usize,
    /// Stages before the last: `read_latency - 1`.
    _later: usize,
    /// The first register of the last stage: `(read_latency - 1) * SOURCES`.
    _last_source: usize,
}

/// The operand mux's inputs, in order: the read ports' data, the three operand latches, the
/// conflict-queue entries, the prefetch-queue entries, the three sources' immediates, and with
/// forwarding the ALU's result and the results kept from the `read_latency` cycles before
/// (newest first).
pub struct MuxInputs {
    /// Inputs in all.
    pub count: usize,
    /// The first latch's input.
    pub latches_at: usize,
    /// The first conflict-queue entry's input.
    pub cq_at: usize,
    /// The first prefetch-queue entry's input.
    pub pq_at: usize,
    /// Source 0's immediate's input (sources 1 and 2 follow).
    pub imm_at: usize,
    /// The ALU result's input, with the kept results after it (with forwarding).
    pub result_at: usize,
    /// Results kept for forwarding: `read_latency` with forwarding, otherwise 0.
    pub history: usize,
}

impl MuxInputs {
    /// The operand mux's inputs for `params`.
    pub fn of(params: &CoreParams) -> Self {
        let latches_at = params.gpr.read_ports;
        let cq_at = latches_at + SOURCES;
        let pq_at = cq_at + params.cq_entries;
        let imm_at = pq_at + params.pq_entries;
        let result_at = imm_at + SOURCES;
        let history = params.read_latency() * usize::from(params.forward);
        Self {
            count: result_at + (history + 1) * usize::from(params.forward),
            latches_at,
            cq_at,
            pq_at,
            imm_at,
            result_at,
            history,
        }
    }
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
            next_state: signals(SOURCES),
            next_entry: signals(SOURCES),
            head_read: signals(SOURCES),
            head_port: signals(SOURCES),
            alias_code: signals(SOURCES),
            immediate: signals(SOURCES),
            head_imm: signals(SOURCES),
            forward: signals(SOURCES * usize::from(params.forward)),
            distance: signals(SOURCES * usize::from(params.forward)),
            alu_op: Default::default(),
            alu_imm: signals(SOURCES),
            alu_kind: signals(SOURCES),
            alu_index: signals(SOURCES),
            alu_select: signals(SOURCES * MuxInputs::of(params).count),
            op_r: Registers::new(latency),
            imm_r: Registers::new(SOURCES * latency),
            kind_r: Registers::new(SOURCES * latency),
            index_r: Registers::new(SOURCES * latency),
            selects: OperandSelects::new(params),
            entry: signals(SOURCES),
            entry_bit: constants([1, 2, 4]),
            in_cq: constant(CaptureKind::ConflictQueue.code()),
            in_pq: constant(CaptureKind::PrefetchQueue.code()),
            from_port: code(OperandSource::Port),
            from_latch: code(OperandSource::Latch),
            from_cq: code(OperandSource::ConflictQueue),
            from_pq: code(OperandSource::PrefetchQueue),
            from_imm: code(OperandSource::Immediate),
            from_result: constant_if(params.forward, OperandSource::Result.code()),
            pending: constant_if(params.forward, CaptureKind::Nowhere.code()),
            alias_of_0: code(OperandSource::SameAsSource0),
            alias_of_1: code(OperandSource::SameAsSource1),
            alias_0: constant(alias::SOURCE_0),
            alias_1: constant(alias::SOURCE_1),
            number: constants(0..SOURCES.max(p) as u64),
            port_number: constants(0..p as u64),
            _read_ports: p,
            _inputs: MuxInputs::of(params).count,
            _forwarded: SOURCES * usize::from(params.forward),
            _later: latency - 1,
            _last_source: (latency - 1) * SOURCES,
        }
    }
}

impl Logic for OperandSources {
    // Single-value loops bind the sources (nsrc) and the last stage (last) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.op_r.clock.next = self.clock.val();
        self.imm_r.clock.next = self.clock.val();
        self.kind_r.clock.next = self.clock.val();
        self.index_r.clock.next = self.clock.val();
        self.op_r.d[0].next = self.head_op.val();
        for k in 0..self._later {
            self.op_r.d[k + 1].next = self.op_r.q[k].val();
            for nsrc in SOURCES..(SOURCES + 1) {
                for s in 0..SOURCES {
                    self.imm_r.d[(k + 1) * nsrc + s].next = self.imm_r.q[k * nsrc + s].val();
                    self.kind_r.d[(k + 1) * nsrc + s].next = self.kind_r.q[k * nsrc + s].val();
                    self.index_r.d[(k + 1) * nsrc + s].next = self.index_r.q[k * nsrc + s].val();
                }
            }
        }
        for last in self._later..(self._later + 1) {
            self.alu_op.next = self.op_r.q[last].val();
            for nsrc in SOURCES..(SOURCES + 1) {
                for s in 0..SOURCES {
                    self.alu_imm[s].next = self.imm_r.q[last * nsrc + s].val();
                }
            }
        }
        for s in 0..SOURCES {
            self.entry[s].next = self.number[0].val();
            for b in 0..3 {
                if self.next_entry[s].val().get_bit(b) {
                    self.entry[s].next = self.entry[s].val() | self.entry_bit[b].val();
                }
            }
            self.kind_r.d[s].next = self.from_latch.val();
            self.index_r.d[s].next = self.number[s].val();
            if self.next_state[s].val() == self.in_cq.val() {
                self.kind_r.d[s].next = self.from_cq.val();
                self.index_r.d[s].next = self.entry[s].val();
            }
            if self.next_state[s].val() == self.in_pq.val() {
                self.kind_r.d[s].next = self.from_pq.val();
                self.index_r.d[s].next = self.entry[s].val();
            }
            if self.head_read[s].val() {
                self.kind_r.d[s].next = self.from_port.val();
                for p in 0..self._read_ports {
                    if self.head_port[s].val() == self.port_number[p].val() {
                        self.index_r.d[s].next = self.number[p].val();
                    }
                }
            }
            for _f in 0..(self._forwarded / SOURCES) {
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
            if self.immediate[s].val() {
                self.kind_r.d[s].next = self.from_imm.val();
            }
            self.imm_r.d[s].next = self.head_imm[s].val();
        }
        for last in self._last_source..(self._last_source + 1) {
            for s in 0..SOURCES {
                self.alu_kind[s].next = self.kind_r.q[last + s].val();
                self.alu_index[s].next = self.index_r.q[last + s].val();
            }
        }
        // The operand mux's selects for the last stage, from the kind and index that enter it.
        self.selects.clock.next = self.clock.val();
        for last in self._last_source..(self._last_source + 1) {
            for s in 0..SOURCES {
                self.selects.kind[s].next = self.kind_r.d[last + s].val();
                self.selects.index[s].next = self.index_r.d[last + s].val();
            }
        }
        for x in 0..(SOURCES * self._inputs) {
            self.alu_select[x].next = self.selects.select[x].val();
        }
    }
}

/// The operand mux's one-hot selects over its inputs ([`MuxInputs`]), registered: decoded from
/// each source's kind and index as they enter the last stage before the ALU, and each alias
/// given the selects of the source it names, so that the mux is a single AND-OR with no
/// decode and no alias after the register.
#[derive(LogicBlock)]
pub struct OperandSelects {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per source: where its operand will be next cycle (`OperandSource` code).
    pub kind: Vec<Signal<In, OperandSourceCode>>,
    /// Per source: the port, latch or entry, or a forwarded result's distance.
    pub index: Vec<Signal<In, OperandIndex>>,
    /// Per source and input (`s * count + i`): the source takes the input (one-hot per source).
    pub select: Vec<Signal<Out, Bit>>,
    select_r: Registers<Bit>,
    /// Per source and input: the select decoded from the kind and index, before aliases are
    /// resolved.
    decoded: Vec<Signal<Local, Bit>>,
    from_port: Constant<OperandSourceCode>,
    from_latch: Constant<OperandSourceCode>,
    /// The queues' codes, present only with their queue.
    from_cq: Vec<Constant<OperandSourceCode>>,
    from_pq: Vec<Constant<OperandSourceCode>>,
    from_imm: Constant<OperandSourceCode>,
    /// The forwarded result's code (one constant with forwarding, none without).
    from_result: Vec<Constant<OperandSourceCode>>,
    alias_of_0: Constant<OperandSourceCode>,
    alias_of_1: Constant<OperandSourceCode>,
    /// 0, 1, 2, ...: port, latch, entry and distance numbers.
    number: Vec<Constant<OperandIndex>>,
    _read_ports: usize,
    /// The operand mux's inputs: how many, and where each kind's start.
    _inputs: usize,
    _latches_at: usize,
    _cq_at: usize,
    _pq_at: usize,
    _imm_at: usize,
    _result_at: usize,
    /// Queue entries, and results kept for forwarding (`read_latency` with forwarding).
    _cq: usize,
    _pq: usize,
    _history: usize,
    /// 1 with result forwarding, otherwise 0.
    _forwarding: usize,
}

impl OperandSelects {
    /// The selects of the operand mux of `params`.
    pub fn new(params: &CoreParams) -> Self {
        let p = params.gpr.read_ports;
        let inputs = MuxInputs::of(params);
        let forwarding = usize::from(params.forward);
        let numbers = [SOURCES, p, params.cq_entries, params.pq_entries]
            .into_iter()
            .chain((forwarding == 1).then_some(inputs.history + 1))
            .max()
            .unwrap_or(SOURCES);
        let code = |c: OperandSource| constant(c.code());
        Self {
            clock: Default::default(),
            kind: signals(SOURCES),
            index: signals(SOURCES),
            select: signals(SOURCES * inputs.count),
            select_r: Registers::new(SOURCES * inputs.count),
            decoded: signals(SOURCES * inputs.count),
            from_port: code(OperandSource::Port),
            from_latch: code(OperandSource::Latch),
            from_cq: constant_if(params.cq_entries > 0, OperandSource::ConflictQueue.code()),
            from_pq: constant_if(params.pq_entries > 0, OperandSource::PrefetchQueue.code()),
            from_imm: code(OperandSource::Immediate),
            from_result: constant_if(params.forward, OperandSource::Result.code()),
            alias_of_0: code(OperandSource::SameAsSource0),
            alias_of_1: code(OperandSource::SameAsSource1),
            number: constants(0..numbers as u64),
            _read_ports: p,
            _inputs: inputs.count,
            _latches_at: inputs.latches_at,
            _cq_at: inputs.cq_at,
            _pq_at: inputs.pq_at,
            _imm_at: inputs.imm_at,
            _result_at: inputs.result_at,
            _cq: params.cq_entries,
            _pq: params.pq_entries,
            _history: inputs.history,
            _forwarding: forwarding,
        }
    }
}

impl Logic for OperandSelects {
    // Single-value loops bind where each kind of input starts (nl, nc, np, nm, nr) and the
    // inputs (ni) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.select_r.clock.next = self.clock.val();
        for ni in self._inputs..(self._inputs + 1) {
            for s in 0..SOURCES {
                for i in 0..self._inputs {
                    self.decoded[s * ni + i].next = false;
                }
                for p in 0..self._read_ports {
                    self.decoded[s * ni + p].next = (self.kind[s].val() == self.from_port.val())
                        & (self.index[s].val() == self.number[p].val());
                }
                for nl in self._latches_at..(self._latches_at + 1) {
                    for i in 0..SOURCES {
                        self.decoded[s * ni + nl + i].next = (self.kind[s].val()
                            == self.from_latch.val())
                            & (self.index[s].val() == self.number[i].val());
                    }
                }
                for nc in self._cq_at..(self._cq_at + 1) {
                    for e in 0..self._cq {
                        self.decoded[s * ni + nc + e].next = (self.kind[s].val()
                            == self.from_cq[0].val())
                            & (self.index[s].val() == self.number[e].val());
                    }
                }
                for np in self._pq_at..(self._pq_at + 1) {
                    for e in 0..self._pq {
                        self.decoded[s * ni + np + e].next = (self.kind[s].val()
                            == self.from_pq[0].val())
                            & (self.index[s].val() == self.number[e].val());
                    }
                }
                for nm in self._imm_at..(self._imm_at + 1) {
                    self.decoded[s * ni + nm + s].next = self.kind[s].val() == self.from_imm.val();
                }
                for nr in self._result_at..(self._result_at + 1) {
                    for d in 0..(self._history + self._forwarding) {
                        self.decoded[s * ni + nr + d].next = (self.kind[s].val()
                            == self.from_result[0].val())
                            & (self.index[s].val() == self.number[d].val());
                    }
                }
            }
            for i in 0..self._inputs {
                self.select_r.d[i].next = self.decoded[i].val();
                self.select_r.d[ni + i].next = self.decoded[ni + i].val();
                if self.kind[1].val() == self.alias_of_0.val() {
                    self.select_r.d[ni + i].next = self.decoded[i].val();
                }
                self.select_r.d[2 * ni + i].next = self.decoded[2 * ni + i].val();
                if self.kind[2].val() == self.alias_of_0.val() {
                    self.select_r.d[2 * ni + i].next = self.decoded[i].val();
                }
                if self.kind[2].val() == self.alias_of_1.val() {
                    self.select_r.d[2 * ni + i].next = self.select_r.d[ni + i].val();
                }
            }
            for x in 0..(SOURCES * self._inputs) {
                self.select[x].next = self.select_r.q[x].val();
            }
        }
    }
}
