//! A read allocator: one segment of the chain that hands out the GPR's read ports, and the
//! entries of one queue, to candidate source reads in order.

use rust_hdl::prelude::*;

use crate::params::CoreParams;
use crate::{constant_if, constants, signals};

/// A read allocator (combinational; `docs/core.md`). Its candidates are taken in order: first
/// `plain` candidates that need only a read port, then `queued` candidates that also take an
/// entry of the segment's queue. A candidate that wants a read, was not served by an earlier
/// segment (`served_before`), finds its bank unread, a read port left and, if queued, a free
/// entry, is granted: the lowest free read port and the lowest free entry. The chain enters
/// with the banks read, the ports used and the entries free before this segment and leaves
/// with them after it. The core's conflict queue and prefetch queue are each served by one
/// (the first with the head's reads as its plain candidates). `RI` is the register-index
/// width.
#[derive(LogicBlock)]
pub struct ReadAllocator<const RI: usize> {
    /// Per candidate: its source wants a read this cycle.
    pub want: Vec<Signal<In, Bit>>,
    /// Per candidate: its source was read by an earlier segment this cycle.
    pub served_before: Vec<Signal<In, Bit>>,
    /// Per candidate: its register.
    pub reg_index: Vec<Signal<In, Bits<RI>>>,
    /// Banks read before this segment, one bit per bank.
    pub banks_in: Signal<In, Bits<16>>,
    /// Read ports used before this segment.
    pub ports_in: Signal<In, Bits<4>>,
    /// Queue entries free before this segment, one bit per entry.
    pub free_in: Signal<In, Bits<8>>,
    /// Per candidate: granted a read.
    pub grant: Vec<Signal<Out, Bit>>,
    /// Per candidate: the read port of its read (the ports used before it).
    pub port: Vec<Signal<Out, Bits<4>>>,
    /// Per queued candidate: the queue entry it takes.
    pub entry: Vec<Signal<Out, Bits<3>>>,
    /// Banks read after this segment.
    pub banks_out: Signal<Out, Bits<16>>,
    /// Read ports used after this segment.
    pub ports_out: Signal<Out, Bits<4>>,
    /// Queue entries free after this segment.
    pub free_out: Signal<Out, Bits<8>>,
    /// The running chain: banks read, ports used, entries free.
    banks: Signal<Local, Bits<16>>,
    ports: Signal<Local, Bits<4>>,
    free: Signal<Local, Bits<8>>,
    /// Per candidate: its bank, one-hot.
    bank: Vec<Signal<Local, Bits<16>>>,
    /// Per candidate: the lowest entry free before it, one-hot.
    pick: Vec<Signal<Local, Bits<8>>>,
    /// Per candidate: it takes a queue entry.
    queued: Vec<Constant<Bit>>,
    /// Constants of the candidate loop, present only with candidates.
    bank_mask: Vec<Constant<Bits<RI>>>,
    one_bank: Vec<Constant<Bits<16>>>,
    one_entry: Vec<Constant<Bits<8>>>,
    one_port: Vec<Constant<Bits<4>>>,
    read_ports: Vec<Constant<Bits<4>>>,
    /// One-hot entries and their numbers.
    entry_bit: Vec<Constant<Bits<8>>>,
    entry_number: Vec<Constant<Bits<3>>>,
    _candidates: usize,
    _plain: usize,
    _queued: usize,
    _entries: usize,
}

impl<const RI: usize> ReadAllocator<RI> {
    /// The core's conflict-queue segment: the head's three reads, then the preloads of the
    /// next slots' sources (slot-major), into the conflict queue.
    pub fn conflict(params: &CoreParams) -> Self {
        let gpr = &params.gpr;
        let preloads = 3 * params.preload_slots();
        Self::new(3, preloads, gpr.banks, gpr.read_ports, params.cq_entries)
    }

    /// The core's prefetch-queue segment: the prefetches of the next slots' sources
    /// (slot-major), into the prefetch queue.
    pub fn prefetch(params: &CoreParams) -> Self {
        let gpr = &params.gpr;
        let prefetches = 3 * params.prefetch_slots();
        Self::new(0, prefetches, gpr.banks, gpr.read_ports, params.pq_entries)
    }

    /// A segment of `plain` then `queued` candidates over `banks` banks and `read_ports` read
    /// ports, the queued ones filling a queue of `entries` entries.
    pub fn new(
        plain: usize,
        queued: usize,
        banks: usize,
        read_ports: usize,
        entries: usize,
    ) -> Self {
        let candidates = plain + queued;
        Self {
            want: signals(candidates),
            served_before: signals(candidates),
            reg_index: signals(candidates),
            banks_in: Default::default(),
            ports_in: Default::default(),
            free_in: Default::default(),
            grant: signals(candidates),
            port: signals(candidates),
            entry: signals(queued),
            banks_out: Default::default(),
            ports_out: Default::default(),
            free_out: Default::default(),
            banks: Default::default(),
            ports: Default::default(),
            free: Default::default(),
            bank: signals(candidates),
            pick: signals(candidates),
            queued: (0..candidates).map(|c| Constant::new(c >= plain)).collect(),
            bank_mask: constant_if(candidates > 0, (banks - 1) as u64),
            one_bank: constant_if(candidates > 0, 1),
            one_entry: constant_if(candidates > 0, 1),
            one_port: constant_if(candidates > 0, 1),
            read_ports: constant_if(candidates > 0, read_ports as u64),
            entry_bit: constants((0..entries).map(|e| 1u64 << e)),
            entry_number: constants(0..entries as u64),
            _candidates: candidates,
            _plain: plain,
            _queued: queued,
            _entries: entries,
        }
    }
}

impl<const RI: usize> Logic for ReadAllocator<RI> {
    // The running chain is updated candidate by candidate (Verilog's blocking semantics). A
    // single-value loop binds the plain candidates (np) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.banks.next = self.banks_in.val();
        self.ports.next = self.ports_in.val();
        self.free.next = self.free_in.val();
        for c in 0..self._candidates {
            self.bank[c].next =
                self.one_bank[0].val() << (self.reg_index[c].val() & self.bank_mask[0].val());
            self.pick[c].next = self.free.val() & (!self.free.val() + self.one_entry[0].val());
            self.grant[c].next = self.want[c].val()
                & !self.served_before[c].val()
                & !(self.banks.val() & self.bank[c].val()).any()
                & (self.ports.val() < self.read_ports[0].val())
                & (!self.queued[c].val() | self.free.val().any());
            self.port[c].next = self.ports.val();
            if self.grant[c].val() {
                self.banks.next = self.banks.val() | self.bank[c].val();
                self.ports.next = self.ports.val() + self.one_port[0].val();
                if self.queued[c].val() {
                    self.free.next = self.free.val() & !self.pick[c].val();
                }
            }
        }
        self.banks_out.next = self.banks.val();
        self.ports_out.next = self.ports.val();
        self.free_out.next = self.free.val();
        for np in self._plain..(self._plain + 1) {
            for c in 0..self._queued {
                self.entry[c].next = self.entry_number[0].val();
                for e in 0..self._entries {
                    if self.pick[np + c].val() == self.entry_bit[e].val() {
                        self.entry[c].next = self.entry_number[e].val();
                    }
                }
            }
        }
    }
}
