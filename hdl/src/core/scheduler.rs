//! The core slice's control: instruction window, conflict detection, read-port allocation
//! (head reads, conflict-queue preloads, prefetch-queue prefetches), issue, scoreboard and
//! write-back timing. Every rule is stated in `docs/core.md`; the golden model follows the same
//! text.

use rust_hdl::prelude::*;

use crate::params::CoreParams;
use crate::regs::Registers;
use crate::signals;

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
    /// Its op code (`mov`, `add`, `sub`, `mul`, `mad` = 0..4).
    pub instr_op: Signal<In, Bits<3>>,
    /// Its destination register.
    pub instr_dst: Signal<In, Bits<RI>>,
    /// Its source registers (unused ones are ignored).
    pub instr_src: Vec<Signal<In, Bits<RI>>>,
    /// The offered instruction is taken at the end of this cycle.
    pub instr_ready: Signal<Out, Bit>,
    /// Per read port: a GPR read this cycle.
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per read port, for the data arriving this cycle (reads of last cycle): where it goes
    /// (0 nowhere, 1 the head's operand latch, 2 conflict queue, 3 prefetch queue).
    pub capture_kind: Vec<Signal<Out, Bits<2>>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<Out, Bits<3>>>,
    /// The head issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// The instruction issued last cycle has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// Its op code.
    pub alu_op: Signal<Out, Bits<3>>,
    /// Per source: where its value is (0 read port, 1 latch, 2 conflict queue, 3 prefetch
    /// queue, 4 same as source 0, 5 same as source 1).
    pub alu_kind: Vec<Signal<Out, Bits<3>>>,
    /// Per source: the port, latch or entry.
    pub alu_index: Vec<Signal<Out, Bits<3>>>,
    /// Number of GPR reads this cycle (observation).
    pub reads: Signal<Out, Bits<4>>,
    /// Banks read this cycle, one bit per bank (observation).
    pub banks_read: Signal<Out, Bits<16>>,
    /// A result is written back this cycle (write port 0).
    pub retire_valid: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_reg: Signal<Out, Bits<RI>>,

    slot_valid: Registers<Bit>,
    slot_op: Registers<Bits<3>>,
    slot_dst: Registers<Bits<RI>>,
    /// `slot * 3 + source`.
    slot_src: Registers<Bits<RI>>,
    /// 0, or 1 + the earlier source holding the same register.
    slot_alias: Registers<Bits<2>>,
    /// The source shares a bank with an earlier, different source: a preload candidate.
    slot_conflict: Registers<Bit>,
    /// 0 pending (to be read), 1 done (read, an alias, or absent), 2 in the conflict queue,
    /// 3 in the prefetch queue: the same codes as `capture_kind` (0 there means no capture).
    slot_state: Registers<Bits<2>>,
    /// The queue entry of a source in a queue.
    slot_entry: Registers<Bits<3>>,
    /// Busy entries: [0] conflict queue, [1] prefetch queue (bit e = entry e).
    queue_busy: Registers<Bits<8>>,
    /// Issued, not yet written back: stage 0 = issued last cycle, stage `alu_latency` writes back.
    flight_valid: Registers<Bit>,
    flight_dst: Registers<Bits<RI>>,
    capture_kind_r: Registers<Bits<2>>,
    capture_index_r: Registers<Bits<3>>,
    alu_op_r: Registers<Bits<3>>,
    alu_kind_r: Registers<Bits<3>>,
    alu_index_r: Registers<Bits<3>>,

    /// `slot * 3 + source` for the slots reads can serve (the head, and the lookahead when
    /// there is a queue): the source exists for the slot's op.
    present: Vec<Signal<Local, Bit>>,
    /// As `present`: an older slot or an issued instruction still writes the register.
    hazard: Vec<Signal<Local, Bit>>,
    /// Per candidate: may be read this cycle (before port, bank and queue checks).
    eligible: Vec<Signal<Local, Bit>>,
    /// Per candidate: its register.
    cand_reg: Vec<Signal<Local, Bits<RI>>>,
    /// Per candidate: its bank, one-hot.
    cand_bank: Vec<Signal<Local, Bits<16>>>,
    /// Chains over candidates (entry c: before candidate c; the last: after all): banks read,
    /// ports used.
    chain_banks: Vec<Signal<Local, Bits<16>>>,
    chain_ports: Vec<Signal<Local, Bits<4>>>,
    /// Chains over the preload (prefetch) candidates: free conflict-queue (prefetch-queue)
    /// entries before each, and after the last.
    chain_cq: Vec<Signal<Local, Bits<8>>>,
    chain_pq: Vec<Signal<Local, Bits<8>>>,
    /// Per candidate: granted a read.
    grant: Vec<Signal<Local, Bit>>,
    /// Per preload (prefetch) candidate: the lowest free entry, one-hot.
    pick_cq: Vec<Signal<Local, Bits<8>>>,
    pick_pq: Vec<Signal<Local, Bits<8>>>,
    /// Per candidate: capture kind and index of its read.
    cand_kind: Vec<Signal<Local, Bits<2>>>,
    cand_index: Vec<Signal<Local, Bits<3>>>,
    /// `slot * 3 + source`: state and entry after this cycle's grants.
    next_state: Vec<Signal<Local, Bits<2>>>,
    next_entry: Vec<Signal<Local, Bits<3>>>,
    /// Queue entries freed by the issuing head: [0] cq, [1] pq.
    freed: Vec<Signal<Local, Bits<8>>>,
    /// Queue entries taken this cycle: [0] cq, [1] pq.
    taken: Vec<Signal<Local, Bits<8>>>,
    /// Slot valid after the shift.
    shifted_valid: Vec<Signal<Local, Bit>>,
    /// The new instruction goes into this slot.
    insert: Vec<Signal<Local, Bit>>,
    /// Decode of the offered instruction.
    new_alias: Vec<Signal<Local, Bits<2>>>,
    new_conflict: Vec<Signal<Local, Bit>>,
    new_present: Vec<Signal<Local, Bit>>,
    head_ready: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,

    /// Source states / capture kinds.
    pending: Constant<Bits<2>>,
    done: Constant<Bits<2>>,
    in_cq: Constant<Bits<2>>,
    in_pq: Constant<Bits<2>>,
    /// ALU operand kinds beyond the capture kinds: read port, alias of source 0 or 1.
    from_port: Constant<Bits<3>>,
    from_latch: Constant<Bits<3>>,
    from_cq: Constant<Bits<3>>,
    from_pq: Constant<Bits<3>>,
    alias_of_0: Constant<Bits<3>>,
    alias_of_1: Constant<Bits<3>>,
    /// Alias codes.
    alias_none: Constant<Bits<2>>,
    alias_0: Constant<Bits<2>>,
    alias_1: Constant<Bits<2>>,
    /// Op codes with other than two sources.
    op_mov: Constant<Bits<3>>,
    op_mad: Constant<Bits<3>>,
    /// 1, for the lowest-free-entry picks (present when there is a queue).
    one_entry: Vec<Constant<Bits<8>>>,
    no_entries: Constant<Bits<8>>,
    no_banks: Constant<Bits<16>>,
    bank_mask: Constant<Bits<RI>>,
    one_bank: Constant<Bits<16>>,
    /// Existing queue entries: [0] cq, [1] pq.
    queue_mask: Vec<Constant<Bits<8>>>,
    /// One-hot entries 0..max(cq, pq).
    entry_bit: Vec<Constant<Bits<8>>>,
    /// Small numbers 0..max(3, cq, pq, read ports).
    number: Vec<Constant<Bits<3>>>,
    /// Numbers 0..read ports, as port counts.
    port_number: Vec<Constant<Bits<4>>>,
    _window: usize,
    _served: usize,
    _lookahead: usize,
    _preload_slots: usize,
    _prefetch_slots: usize,
    _candidates: usize,
    _read_ports: usize,
    _banks: usize,
    _flight: usize,
    _cq: usize,
    _pq: usize,
}

impl<const RI: usize> CoreScheduler<RI> {
    /// The scheduler for `params` (`RI` must be its register-index width).
    pub fn new(params: &CoreParams) -> Self {
        assert_eq!(RI, params.gpr.register_bits());
        let w = params.window();
        let k = params.lookahead;
        let preload = if params.cq_entries > 0 { k } else { 0 };
        let prefetch = if params.pq_entries > 0 { k } else { 0 };
        let nc = 3 + 3 * preload + 3 * prefetch;
        let p = params.gpr.read_ports;
        let flight = params.alu_latency + 1;
        let mask = |n: usize| Constant::new(((1u64 << n) - 1).into());
        let entries = params.cq_entries.max(params.pq_entries);
        let numbers = 3.max(entries).max(p);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            instr_valid: Default::default(),
            instr_op: Default::default(),
            instr_dst: Default::default(),
            instr_src: signals(3),
            instr_ready: Default::default(),
            read_valid: signals(p),
            read_reg: signals(p),
            capture_kind: signals(p),
            capture_index: signals(p),
            issue: Default::default(),
            alu_valid: Default::default(),
            alu_op: Default::default(),
            alu_kind: signals(3),
            alu_index: signals(3),
            reads: Default::default(),
            banks_read: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            slot_valid: Registers::new(w),
            slot_op: Registers::new(w),
            slot_dst: Registers::new(w),
            slot_src: Registers::new(3 * w),
            slot_alias: Registers::new(3 * w),
            slot_conflict: Registers::new(3 * w),
            slot_state: Registers::new(3 * w),
            slot_entry: Registers::new(3 * w),
            queue_busy: Registers::new(2),
            flight_valid: Registers::new(flight),
            flight_dst: Registers::new(flight),
            capture_kind_r: Registers::new(p),
            capture_index_r: Registers::new(p),
            alu_op_r: Registers::new(1),
            alu_kind_r: Registers::new(3),
            alu_index_r: Registers::new(3),
            present: signals(3 * (1 + preload.max(prefetch))),
            hazard: signals(3 * (1 + preload.max(prefetch))),
            eligible: signals(nc),
            cand_reg: signals(nc),
            cand_bank: signals(nc),
            chain_banks: signals(nc + 1),
            chain_ports: signals(nc + 1),
            chain_cq: signals(3 * preload + 1),
            chain_pq: signals(3 * prefetch + 1),
            grant: signals(nc),
            pick_cq: signals(3 * preload),
            pick_pq: signals(3 * prefetch),
            cand_kind: signals(nc),
            cand_index: signals(nc),
            next_state: signals(3 * w),
            next_entry: signals(3 * w),
            freed: signals(2),
            taken: signals(2),
            shifted_valid: signals(w),
            insert: signals(w),
            new_alias: signals(3),
            new_conflict: signals(3),
            new_present: signals(3),
            head_ready: Default::default(),
            accept: Default::default(),
            pending: Constant::new(0u64.into()),
            done: Constant::new(1u64.into()),
            in_cq: Constant::new(2u64.into()),
            in_pq: Constant::new(3u64.into()),
            from_port: Constant::new(0u64.into()),
            from_latch: Constant::new(1u64.into()),
            from_cq: Constant::new(2u64.into()),
            from_pq: Constant::new(3u64.into()),
            alias_of_0: Constant::new(4u64.into()),
            alias_of_1: Constant::new(5u64.into()),
            alias_none: Constant::new(0u64.into()),
            alias_0: Constant::new(1u64.into()),
            alias_1: Constant::new(2u64.into()),
            op_mov: Constant::new(0u64.into()),
            op_mad: Constant::new(4u64.into()),
            one_entry: (0..(preload + prefetch).min(1))
                .map(|_| Constant::new(1u64.into()))
                .collect(),
            no_entries: Constant::new(0u64.into()),
            no_banks: Constant::new(0u64.into()),
            bank_mask: Constant::new(((params.gpr.banks - 1) as u64).into()),
            one_bank: Constant::new(1u64.into()),
            queue_mask: vec![mask(params.cq_entries), mask(params.pq_entries)],
            entry_bit: (0..entries)
                .map(|e| Constant::new((1u64 << e).into()))
                .collect(),
            number: (0..numbers as u64)
                .map(|n| Constant::new(n.into()))
                .collect(),
            port_number: (0..=p as u64).map(|n| Constant::new(n.into())).collect(),
            _window: w,
            _served: 1 + preload.max(prefetch),
            _lookahead: k,
            _preload_slots: preload,
            _prefetch_slots: prefetch,
            _candidates: nc,
            _read_ports: p,
            _banks: params.gpr.banks,
            _flight: flight,
            _cq: params.cq_entries,
            _pq: params.pq_entries,
        }
    }
}

impl<const RI: usize> Logic for CoreScheduler<RI> {
    // Single-value loops bind sizes for index arithmetic (docs/rust-hdl.md): nw window slots,
    // nk preload slots, nf prefetch slots, np read ports, nl pipeline stages. Locals are
    // assigned before they are read; some are then updated (x = x | y), which is Verilog's
    // blocking semantics (the project simulates the emitted Verilog).
    #[hdl_gen]
    fn update(&mut self) {
        self.slot_valid.clock.next = self.clock.val();
        self.slot_op.clock.next = self.clock.val();
        self.slot_dst.clock.next = self.clock.val();
        self.slot_src.clock.next = self.clock.val();
        self.slot_alias.clock.next = self.clock.val();
        self.slot_conflict.clock.next = self.clock.val();
        self.slot_state.clock.next = self.clock.val();
        self.slot_entry.clock.next = self.clock.val();
        self.queue_busy.clock.next = self.clock.val();
        self.flight_valid.clock.next = self.clock.val();
        self.flight_dst.clock.next = self.clock.val();
        self.capture_kind_r.clock.next = self.clock.val();
        self.capture_index_r.clock.next = self.clock.val();
        self.alu_op_r.clock.next = self.clock.val();
        self.alu_kind_r.clock.next = self.clock.val();
        self.alu_index_r.clock.next = self.clock.val();
        for nw in self._window..(self._window + 1) {
            for nk in self._preload_slots..(self._preload_slots + 1) {
                for nf in self._prefetch_slots..(self._prefetch_slots + 1) {
                    for np in self._read_ports..(self._read_ports + 1) {
                        for nl in self._flight..(self._flight + 1) {
                            // Sources that exist: mov has one, mad three, the others two.
                            for j in 0..self._served {
                                self.present[j * 3].next = self.slot_valid.q[j].val();
                                self.present[j * 3 + 1].next = self.slot_valid.q[j].val()
                                    & (self.slot_op.q[j].val() != self.op_mov.val());
                                self.present[j * 3 + 2].next = self.slot_valid.q[j].val()
                                    & (self.slot_op.q[j].val() == self.op_mad.val());
                            }
                            // Hazards: an older slot or an issued instruction writes the register.
                            for j in 0..self._served {
                                for s in 0..3 {
                                    self.hazard[j * 3 + s].next = false;
                                    for i in 0..self._window {
                                        if i < j {
                                            self.hazard[j * 3 + s].next = self.hazard[j * 3 + s]
                                                .val()
                                                | (self.slot_valid.q[i].val()
                                                    & (self.slot_dst.q[i].val()
                                                        == self.slot_src.q[j * 3 + s].val()));
                                        }
                                    }
                                    for f in 0..self._flight {
                                        self.hazard[j * 3 + s].next = self.hazard[j * 3 + s].val()
                                            | (self.flight_valid.q[f].val()
                                                & (self.flight_dst.q[f].val()
                                                    == self.slot_src.q[j * 3 + s].val()));
                                    }
                                }
                            }
                            // The chains start from nothing read, no port used, the free entries.
                            self.chain_banks[0].next = self.no_banks.val();
                            self.chain_ports[0].next = self.port_number[0].val();
                            self.chain_cq[0].next =
                                !self.queue_busy.q[0].val() & self.queue_mask[0].val();
                            self.chain_pq[0].next =
                                !self.queue_busy.q[1].val() & self.queue_mask[1].val();
                            for j in 0..self._window {
                                for s in 0..3 {
                                    self.next_state[j * 3 + s].next =
                                        self.slot_state.q[j * 3 + s].val();
                                    self.next_entry[j * 3 + s].next =
                                        self.slot_entry.q[j * 3 + s].val();
                                }
                            }
                            // 1. The head's pending sources (candidates 0..2).
                            for s in 0..3 {
                                self.eligible[s].next = self.present[s].val()
                                    & (self.slot_state.q[s].val() == self.pending.val())
                                    & !self.hazard[s].val();
                                self.cand_reg[s].next = self.slot_src.q[s].val();
                                self.cand_bank[s].next = self.one_bank.val()
                                    << (self.slot_src.q[s].val() & self.bank_mask.val());
                                self.cand_index[s].next = self.number[s].val();
                                self.grant[s].next = self.eligible[s].val()
                                    & !(self.chain_banks[s].val() & self.cand_bank[s].val()).any()
                                    & (self.chain_ports[s].val() < self.port_number[np].val());
                                self.chain_banks[s + 1].next = self.chain_banks[s].val();
                                self.chain_ports[s + 1].next = self.chain_ports[s].val();
                                if self.grant[s].val() {
                                    self.chain_banks[s + 1].next =
                                        self.chain_banks[s].val() | self.cand_bank[s].val();
                                    self.chain_ports[s + 1].next =
                                        self.chain_ports[s].val() + self.port_number[1].val();
                                    self.next_state[s].next = self.done.val();
                                }
                            }
                            // 2. Preloads: conflicting sources of later slots into the conflict
                            //    queue (candidates 3 + 3 * (j - 1) + s).
                            for j in 1..(self._preload_slots + 1) {
                                for s in 0..3 {
                                    self.eligible[3 * j + s].next = self.present[j * 3 + s].val()
                                        & (self.slot_state.q[j * 3 + s].val()
                                            == self.pending.val())
                                        & self.slot_conflict.q[j * 3 + s].val()
                                        & !self.hazard[j * 3 + s].val();
                                    self.cand_reg[3 * j + s].next =
                                        self.slot_src.q[j * 3 + s].val();
                                    self.cand_bank[3 * j + s].next = self.one_bank.val()
                                        << (self.slot_src.q[j * 3 + s].val()
                                            & self.bank_mask.val());
                                    self.pick_cq[3 * j + s - 3].next = self.chain_cq[3 * j + s - 3]
                                        .val()
                                        & (!self.chain_cq[3 * j + s - 3].val()
                                            + self.one_entry[0].val());
                                    self.grant[3 * j + s].next = self.eligible[3 * j + s].val()
                                        & !(self.chain_banks[3 * j + s].val()
                                            & self.cand_bank[3 * j + s].val())
                                        .any()
                                        & (self.chain_ports[3 * j + s].val()
                                            < self.port_number[np].val())
                                        & self.chain_cq[3 * j + s - 3].val().any();
                                    self.cand_index[3 * j + s].next = self.number[0].val();
                                    for e in 0..self._cq {
                                        if self.pick_cq[3 * j + s - 3].val()
                                            == self.entry_bit[e].val()
                                        {
                                            self.cand_index[3 * j + s].next = self.number[e].val();
                                        }
                                    }
                                    self.chain_banks[3 * j + s + 1].next =
                                        self.chain_banks[3 * j + s].val();
                                    self.chain_ports[3 * j + s + 1].next =
                                        self.chain_ports[3 * j + s].val();
                                    self.chain_cq[3 * j + s - 2].next =
                                        self.chain_cq[3 * j + s - 3].val();
                                    if self.grant[3 * j + s].val() {
                                        self.chain_banks[3 * j + s + 1].next =
                                            self.chain_banks[3 * j + s].val()
                                                | self.cand_bank[3 * j + s].val();
                                        self.chain_ports[3 * j + s + 1].next =
                                            self.chain_ports[3 * j + s].val()
                                                + self.port_number[1].val();
                                        self.chain_cq[3 * j + s - 2].next =
                                            self.chain_cq[3 * j + s - 3].val()
                                                & !self.pick_cq[3 * j + s - 3].val();
                                        self.next_state[j * 3 + s].next = self.in_cq.val();
                                        self.next_entry[j * 3 + s].next =
                                            self.cand_index[3 * j + s].val();
                                    }
                                }
                            }
                            // 3. Prefetches: remaining sources of later slots into the prefetch
                            //    queue (candidates 3 + 3 * nk + 3 * (j - 1) + s).
                            for j in 1..(self._prefetch_slots + 1) {
                                for s in 0..3 {
                                    self.eligible[3 * nk + 3 * j + s].next = self.present
                                        [j * 3 + s]
                                        .val()
                                        & (self.next_state[j * 3 + s].val() == self.pending.val())
                                        & !self.hazard[j * 3 + s].val();
                                    self.cand_reg[3 * nk + 3 * j + s].next =
                                        self.slot_src.q[j * 3 + s].val();
                                    self.cand_bank[3 * nk + 3 * j + s].next = self.one_bank.val()
                                        << (self.slot_src.q[j * 3 + s].val()
                                            & self.bank_mask.val());
                                    self.pick_pq[3 * j + s - 3].next = self.chain_pq[3 * j + s - 3]
                                        .val()
                                        & (!self.chain_pq[3 * j + s - 3].val()
                                            + self.one_entry[0].val());
                                    self.grant[3 * nk + 3 * j + s].next =
                                        self.eligible[3 * nk + 3 * j + s].val()
                                            & !(self.chain_banks[3 * nk + 3 * j + s].val()
                                                & self.cand_bank[3 * nk + 3 * j + s].val())
                                            .any()
                                            & (self.chain_ports[3 * nk + 3 * j + s].val()
                                                < self.port_number[np].val())
                                            & self.chain_pq[3 * j + s - 3].val().any();
                                    self.cand_index[3 * nk + 3 * j + s].next = self.number[0].val();
                                    for e in 0..self._pq {
                                        if self.pick_pq[3 * j + s - 3].val()
                                            == self.entry_bit[e].val()
                                        {
                                            self.cand_index[3 * nk + 3 * j + s].next =
                                                self.number[e].val();
                                        }
                                    }
                                    self.chain_banks[3 * nk + 3 * j + s + 1].next =
                                        self.chain_banks[3 * nk + 3 * j + s].val();
                                    self.chain_ports[3 * nk + 3 * j + s + 1].next =
                                        self.chain_ports[3 * nk + 3 * j + s].val();
                                    self.chain_pq[3 * j + s - 2].next =
                                        self.chain_pq[3 * j + s - 3].val();
                                    if self.grant[3 * nk + 3 * j + s].val() {
                                        self.chain_banks[3 * nk + 3 * j + s + 1].next =
                                            self.chain_banks[3 * nk + 3 * j + s].val()
                                                | self.cand_bank[3 * nk + 3 * j + s].val();
                                        self.chain_ports[3 * nk + 3 * j + s + 1].next =
                                            self.chain_ports[3 * nk + 3 * j + s].val()
                                                + self.port_number[1].val();
                                        self.chain_pq[3 * j + s - 2].next =
                                            self.chain_pq[3 * j + s - 3].val()
                                                & !self.pick_pq[3 * j + s - 3].val();
                                        self.next_state[j * 3 + s].next = self.in_pq.val();
                                        self.next_entry[j * 3 + s].next =
                                            self.cand_index[3 * nk + 3 * j + s].val();
                                    }
                                }
                            }
                            // Issue: the head goes once no source is left pending.
                            self.head_ready.next = self.slot_valid.q[0].val();
                            for s in 0..3 {
                                if self.next_state[s].val() == self.pending.val() {
                                    self.head_ready.next = false;
                                }
                            }
                            self.issue.next = self.head_ready.val() & !self.reset.val();
                            // The head's reads land in its latches, unless it issues now and the
                            // ALU takes them straight from the read ports next cycle.
                            for s in 0..3 {
                                self.cand_kind[s].next = self.done.val();
                                if self.issue.val() {
                                    self.cand_kind[s].next = self.pending.val();
                                }
                            }
                            for c in 3..(self._candidates) {
                                self.cand_kind[c].next = self.in_pq.val();
                            }
                            for c in 3..(3 + 3 * self._preload_slots) {
                                self.cand_kind[c].next = self.in_cq.val();
                            }
                            // Read ports in candidate order.
                            for p in 0..self._read_ports {
                                self.read_valid[p].next = false;
                                self.read_reg[p].next = self.cand_reg[0].val();
                                self.capture_kind_r.d[p].next = self.pending.val();
                                self.capture_index_r.d[p].next = self.number[0].val();
                                for c in 0..self._candidates {
                                    if self.grant[c].val()
                                        & (self.chain_ports[c].val() == self.port_number[p].val())
                                    {
                                        self.read_valid[p].next = true;
                                        self.read_reg[p].next = self.cand_reg[c].val();
                                        self.capture_kind_r.d[p].next = self.cand_kind[c].val();
                                        self.capture_index_r.d[p].next = self.cand_index[c].val();
                                    }
                                }
                                if self.reset.val() {
                                    self.capture_kind_r.d[p].next = self.pending.val();
                                }
                                self.capture_kind[p].next = self.capture_kind_r.q[p].val();
                                self.capture_index[p].next = self.capture_index_r.q[p].val();
                            }
                            // Queue entries: taken along the chains, freed by the issuing head.
                            self.taken[0].next =
                                self.chain_cq[0].val() & !self.chain_cq[nk * 3].val();
                            self.taken[1].next =
                                self.chain_pq[0].val() & !self.chain_pq[nf * 3].val();
                            self.freed[0].next = self.no_entries.val();
                            self.freed[1].next = self.no_entries.val();
                            self.reads.next = self.chain_ports[3 + 3 * nk + 3 * nf].val();
                            self.banks_read.next = self.chain_banks[3 + 3 * nk + 3 * nf].val();
                            for s in 0..3 {
                                for e in 0..self._cq {
                                    if self.issue.val()
                                        & (self.next_state[s].val() == self.in_cq.val())
                                        & (self.next_entry[s].val() == self.number[e].val())
                                    {
                                        self.freed[0].next =
                                            self.freed[0].val() | self.entry_bit[e].val();
                                    }
                                }
                                for e in 0..self._pq {
                                    if self.issue.val()
                                        & (self.next_state[s].val() == self.in_pq.val())
                                        & (self.next_entry[s].val() == self.number[e].val())
                                    {
                                        self.freed[1].next =
                                            self.freed[1].val() | self.entry_bit[e].val();
                                    }
                                }
                            }
                            for q in 0..2 {
                                self.queue_busy.d[q].next = (self.queue_busy.q[q].val()
                                    | self.taken[q].val())
                                    & !self.freed[q].val();
                                if self.reset.val() {
                                    self.queue_busy.d[q].next = self.no_entries.val();
                                }
                            }
                            // Where each operand of the issuing head will be next cycle.
                            self.alu_op_r.d[0].next = self.slot_op.q[0].val();
                            for s in 0..3 {
                                self.alu_kind_r.d[s].next = self.from_latch.val();
                                self.alu_index_r.d[s].next = self.number[s].val();
                                if self.next_state[s].val() == self.in_cq.val() {
                                    self.alu_kind_r.d[s].next = self.from_cq.val();
                                    self.alu_index_r.d[s].next = self.next_entry[s].val();
                                }
                                if self.next_state[s].val() == self.in_pq.val() {
                                    self.alu_kind_r.d[s].next = self.from_pq.val();
                                    self.alu_index_r.d[s].next = self.next_entry[s].val();
                                }
                                if self.grant[s].val() {
                                    self.alu_kind_r.d[s].next = self.from_port.val();
                                    for p in 0..self._read_ports {
                                        if self.chain_ports[s].val() == self.port_number[p].val() {
                                            self.alu_index_r.d[s].next = self.number[p].val();
                                        }
                                    }
                                }
                                if self.slot_alias.q[s].val() == self.alias_0.val() {
                                    self.alu_kind_r.d[s].next = self.alias_of_0.val();
                                }
                                if self.slot_alias.q[s].val() == self.alias_1.val() {
                                    self.alu_kind_r.d[s].next = self.alias_of_1.val();
                                }
                                self.alu_kind[s].next = self.alu_kind_r.q[s].val();
                                self.alu_index[s].next = self.alu_index_r.q[s].val();
                            }
                            self.alu_op.next = self.alu_op_r.q[0].val();
                            // In flight: stage 0 issued last cycle, the last stage writes back.
                            self.flight_valid.d[0].next = self.issue.val();
                            self.flight_dst.d[0].next = self.slot_dst.q[0].val();
                            for f in 1..self._flight {
                                self.flight_valid.d[f].next =
                                    self.flight_valid.q[f - 1].val() & !self.reset.val();
                                self.flight_dst.d[f].next = self.flight_dst.q[f - 1].val();
                            }
                            self.alu_valid.next = self.flight_valid.q[0].val();
                            self.retire_valid.next = self.flight_valid.q[nl - 1].val();
                            self.retire_reg.next = self.flight_dst.q[nl - 1].val();
                            // Decode of the offered instruction.
                            self.new_present[0].next = true;
                            self.new_present[1].next = self.instr_op.val() != self.op_mov.val();
                            self.new_present[2].next = self.instr_op.val() == self.op_mad.val();
                            self.new_alias[0].next = self.alias_none.val();
                            self.new_alias[1].next = self.alias_none.val();
                            if self.instr_src[1].val() == self.instr_src[0].val() {
                                self.new_alias[1].next = self.alias_0.val();
                            }
                            self.new_alias[2].next = self.alias_none.val();
                            if self.instr_src[2].val() == self.instr_src[1].val() {
                                self.new_alias[2].next = self.alias_1.val();
                            }
                            if self.instr_src[2].val() == self.instr_src[0].val() {
                                self.new_alias[2].next = self.alias_0.val();
                            }
                            self.new_conflict[0].next = false;
                            self.new_conflict[1].next = self.new_present[1].val()
                                & (self.new_alias[1].val() == self.alias_none.val())
                                & ((self.instr_src[1].val() & self.bank_mask.val())
                                    == (self.instr_src[0].val() & self.bank_mask.val()));
                            self.new_conflict[2].next = self.new_present[2].val()
                                & (self.new_alias[2].val() == self.alias_none.val())
                                & (((self.instr_src[2].val() & self.bank_mask.val())
                                    == (self.instr_src[0].val() & self.bank_mask.val()))
                                    | ((self.new_alias[1].val() == self.alias_none.val())
                                        & ((self.instr_src[2].val() & self.bank_mask.val())
                                            == (self.instr_src[1].val() & self.bank_mask.val()))));
                            // The window moves up on issue; the new instruction takes the first
                            // free slot.
                            for j in 0..(self._window - 1) {
                                self.shifted_valid[j].next = self.slot_valid.q[j].val();
                                if self.issue.val() {
                                    self.shifted_valid[j].next = self.slot_valid.q[j + 1].val();
                                }
                            }
                            self.shifted_valid[nw - 1].next =
                                self.slot_valid.q[nw - 1].val() & !self.issue.val();
                            self.instr_ready.next =
                                !self.shifted_valid[nw - 1].val() & !self.reset.val();
                            self.accept.next = self.instr_valid.val() & self.instr_ready.val();
                            self.insert[0].next = self.accept.val() & !self.shifted_valid[0].val();
                            for j in 1..self._window {
                                self.insert[j].next = self.accept.val()
                                    & !self.shifted_valid[j].val()
                                    & self.shifted_valid[j - 1].val();
                            }
                            for j in 0..self._window {
                                self.slot_valid.d[j].next = (self.shifted_valid[j].val()
                                    | self.insert[j].val())
                                    & !self.reset.val();
                            }
                            for j in 0..(self._window - 1) {
                                self.slot_op.d[j].next = self.slot_op.q[j].val();
                                self.slot_dst.d[j].next = self.slot_dst.q[j].val();
                                if self.issue.val() {
                                    self.slot_op.d[j].next = self.slot_op.q[j + 1].val();
                                    self.slot_dst.d[j].next = self.slot_dst.q[j + 1].val();
                                }
                                for s in 0..3 {
                                    self.slot_src.d[j * 3 + s].next =
                                        self.slot_src.q[j * 3 + s].val();
                                    self.slot_alias.d[j * 3 + s].next =
                                        self.slot_alias.q[j * 3 + s].val();
                                    self.slot_conflict.d[j * 3 + s].next =
                                        self.slot_conflict.q[j * 3 + s].val();
                                    self.slot_state.d[j * 3 + s].next =
                                        self.next_state[j * 3 + s].val();
                                    self.slot_entry.d[j * 3 + s].next =
                                        self.next_entry[j * 3 + s].val();
                                    if self.issue.val() {
                                        self.slot_src.d[j * 3 + s].next =
                                            self.slot_src.q[j * 3 + s + 3].val();
                                        self.slot_alias.d[j * 3 + s].next =
                                            self.slot_alias.q[j * 3 + s + 3].val();
                                        self.slot_conflict.d[j * 3 + s].next =
                                            self.slot_conflict.q[j * 3 + s + 3].val();
                                        self.slot_state.d[j * 3 + s].next =
                                            self.next_state[j * 3 + s + 3].val();
                                        self.slot_entry.d[j * 3 + s].next =
                                            self.next_entry[j * 3 + s + 3].val();
                                    }
                                }
                            }
                            self.slot_op.d[nw - 1].next = self.slot_op.q[nw - 1].val();
                            self.slot_dst.d[nw - 1].next = self.slot_dst.q[nw - 1].val();
                            for s in 0..3 {
                                self.slot_src.d[nw * 3 - 3 + s].next =
                                    self.slot_src.q[nw * 3 - 3 + s].val();
                                self.slot_alias.d[nw * 3 - 3 + s].next =
                                    self.slot_alias.q[nw * 3 - 3 + s].val();
                                self.slot_conflict.d[nw * 3 - 3 + s].next =
                                    self.slot_conflict.q[nw * 3 - 3 + s].val();
                                self.slot_state.d[nw * 3 - 3 + s].next =
                                    self.next_state[nw * 3 - 3 + s].val();
                                self.slot_entry.d[nw * 3 - 3 + s].next =
                                    self.next_entry[nw * 3 - 3 + s].val();
                            }
                            for j in 0..self._window {
                                if self.insert[j].val() {
                                    self.slot_op.d[j].next = self.instr_op.val();
                                    self.slot_dst.d[j].next = self.instr_dst.val();
                                    for s in 0..3 {
                                        self.slot_src.d[j * 3 + s].next = self.instr_src[s].val();
                                        self.slot_alias.d[j * 3 + s].next = self.new_alias[s].val();
                                        self.slot_conflict.d[j * 3 + s].next =
                                            self.new_conflict[s].val();
                                        self.slot_state.d[j * 3 + s].next = self.done.val();
                                        if self.new_present[s].val()
                                            & (self.new_alias[s].val() == self.alias_none.val())
                                        {
                                            self.slot_state.d[j * 3 + s].next = self.pending.val();
                                        }
                                        self.slot_entry.d[j * 3 + s].next = self.number[0].val();
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
