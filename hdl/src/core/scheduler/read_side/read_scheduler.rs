//! The core's read scheduler: which sources the GPR's read ports read this cycle, in order of
//! priority (the head's, then preloads into the conflict queue, then prefetches into the
//! prefetch queue), and whether the head issues.

use rust_hdl::prelude::*;

use super::allocator::ReadAllocator;
use crate::core::widths::{BankMask, CaptureCode, EntryIndex, EntryMask, PortNumber};
use crate::params::{CaptureKind, CoreParams, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant, constant_if, constants, signals};

/// The read scheduler (combinational; `docs/core.md`). Two read allocators hand out the read
/// ports: the first serves the head's pending sources and then, with a conflict queue, the
/// conflicting sources of the next `lookahead` instructions (preloads, each taking a
/// conflict-queue entry); the second, with a prefetch queue, their remaining sources
/// (prefetches, each taking a prefetch-queue entry), in the banks and ports after those the
/// first claims. A queued source asks only while its queue has an entry left for it, so the
/// first segment claims what it reads and the second starts from its claims, not its grants.
/// A source is read only when no older instruction still writes its register. The head issues
/// once none of its sources is pending, unless the pending table holds it. Vectors of sources are slot-major
/// (`slot * SOURCES + source`). `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct ReadScheduler<const RI: usize> {
    /// Synchronous reset: nothing issues.
    pub reset: Signal<In, Bit>,
    /// Per served slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per served slot and source: the register.
    pub slot_src: Vec<Signal<In, Bits<RI>>>,
    /// Per source of the slots preloads serve (`(slot - 1) * SOURCES + source`): it conflicts with
    /// an earlier source for a bank.
    pub later_conflict: Vec<Signal<In, Bit>>,
    /// Per slot and source: its state (`CaptureKind` code).
    pub slot_state: Vec<Signal<In, CaptureCode>>,
    /// Per slot and source: its queue entry.
    pub slot_entry: Vec<Signal<In, EntryIndex>>,
    /// Per served slot and source: an older instruction still writes the register.
    pub hazard: Vec<Signal<In, Bit>>,
    /// Per head source: an issue now takes it from the ALU's output, so it need not be read
    /// (never without result forwarding).
    pub forward: Vec<Signal<In, Bit>>,
    /// The head may not issue: the pending table holds it (its reads go on).
    pub held: Signal<In, Bit>,
    /// Free conflict-queue entries, one bit per entry.
    pub cq_free: Signal<In, EntryMask>,
    /// Free prefetch-queue entries, one bit per entry.
    pub pq_free: Signal<In, EntryMask>,
    /// Banks written this cycle that serve no read (1RW banks; zero otherwise), one bit per
    /// bank.
    pub banks_written: Signal<In, BankMask>,
    /// The head issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// Per slot and source: its state after this cycle's reads.
    pub next_state: Vec<Signal<Out, CaptureCode>>,
    /// Per slot and source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<Out, EntryIndex>>,
    /// Per candidate (the first allocator's, then the second's): granted a read.
    pub cand_grant: Vec<Signal<Out, Bit>>,
    /// Per candidate: the read port of its read.
    pub cand_port: Vec<Signal<Out, PortNumber>>,
    /// Per candidate: its register.
    pub cand_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per candidate: where its data goes (`CaptureKind`: the head's operand latch, or none
    /// when the head issues now and the ALU takes it from the port; a queue).
    pub cand_kind: Vec<Signal<Out, CaptureCode>>,
    /// Per candidate: the operand latch (source number) or queue entry it goes to.
    pub cand_index: Vec<Signal<Out, EntryIndex>>,
    /// Per head source: read this cycle.
    pub head_read: Vec<Signal<Out, Bit>>,
    /// Per head source: the read port reading it.
    pub head_port: Vec<Signal<Out, PortNumber>>,
    /// Conflict-queue entries taken this cycle.
    pub cq_taken: Signal<Out, EntryMask>,
    /// Prefetch-queue entries taken this cycle.
    pub pq_taken: Signal<Out, EntryMask>,
    /// Banks read this cycle, and banks read twice (2R1W banks), one bit per bank.
    pub banks: Vec<Signal<Out, BankMask>>,
    /// The head's reads and the preloads: candidate `slot * SOURCES + source`.
    conflict: ReadAllocator<RI>,
    /// The prefetches: candidate `(slot - 1) * SOURCES + source`.
    prefetch: ReadAllocator<RI>,
    /// The segments' asks and the prefetch segment's claims, where no later segment reads
    /// them: read by a wire the lint leaves alone.
    claims_unused: Signal<Local, Bit>,
    /// Per served slot and source: the slot holds an instruction, the source is pending (a
    /// source the op does not read is done from the start) and no older instruction writes it,
    /// and its bank serves reads this cycle (a 1RW bank being written does not).
    present: Vec<Signal<Local, Bit>>,
    /// Per head source: still pending after this cycle's reads, and not forwarded.
    waiting: Vec<Signal<Local, Bit>>,
    /// One bank bit and the bank mask.
    one_bank: Constant<BankMask>,
    bank_mask: Constant<Bits<RI>>,
    pending: Constant<CaptureCode>,
    done: Constant<CaptureCode>,
    /// The conflict-queue and prefetch-queue state codes, one each when the queue is served.
    in_cq: Vec<Constant<CaptureCode>>,
    in_pq: Vec<Constant<CaptureCode>>,
    no_banks: Constant<BankMask>,
    /// Source numbers.
    number: Vec<Constant<EntryIndex>>,
    _window: usize,
    _served: usize,
    _preload_slots: usize,
    _prefetch_slots: usize,
    /// Slots both preloads and prefetches serve.
    _both_slots: usize,
    /// The first allocator's candidates.
    _conflict: usize,
}

impl<const RI: usize> ReadScheduler<RI> {
    /// The read scheduler of `params`. Preloads and prefetches serve the next `lookahead`
    /// instructions when their queue exists.
    pub fn new(params: &CoreParams) -> Self {
        let w = params.window();
        let (preload, prefetch) = (params.preload_slots(), params.prefetch_slots());
        let served = params.served_slots();
        let candidates = Self::candidates(params);
        Self {
            reset: Default::default(),
            slot_valid: signals(served),
            slot_src: signals(SOURCES * served),
            later_conflict: signals(SOURCES * preload),
            slot_state: signals(SOURCES * w),
            slot_entry: signals(SOURCES * w),
            hazard: signals(SOURCES * served),
            forward: signals(SOURCES),
            held: Default::default(),
            cq_free: Default::default(),
            pq_free: Default::default(),
            banks_written: Default::default(),
            issue: Default::default(),
            next_state: signals(SOURCES * w),
            next_entry: signals(SOURCES * w),
            cand_grant: signals(candidates),
            cand_port: signals(candidates),
            cand_reg: signals(candidates),
            cand_kind: signals(candidates),
            cand_index: signals(candidates),
            head_read: signals(SOURCES),
            head_port: signals(SOURCES),
            cq_taken: Default::default(),
            pq_taken: Default::default(),
            banks: signals(2),
            conflict: ReadAllocator::conflict(params),
            prefetch: ReadAllocator::prefetch(params),
            claims_unused: Default::default(),
            present: signals(SOURCES * served),
            waiting: signals(SOURCES),
            one_bank: constant(1),
            bank_mask: constant(params.gpr.banks as u64 - 1),
            pending: constant(CaptureKind::Nowhere.code()),
            done: constant(CaptureKind::Latch.code()),
            in_cq: constant_if(preload > 0, CaptureKind::ConflictQueue.code()),
            in_pq: constant_if(prefetch > 0, CaptureKind::PrefetchQueue.code()),
            no_banks: constant(0),
            number: constants(0..SOURCES as u64),
            _window: w,
            _served: served,
            _preload_slots: preload,
            _prefetch_slots: prefetch,
            _both_slots: preload.min(prefetch),
            _conflict: SOURCES + SOURCES * preload,
        }
    }

    /// The candidate reads: the head's three, the preloads, then the prefetches.
    pub fn candidates(params: &CoreParams) -> usize {
        SOURCES + SOURCES * params.preload_slots() + SOURCES * params.prefetch_slots()
    }
}

/// Which sources each allocator is asked to read: the head's and the preloads' conflicts, then the prefetches.
enum Requests {}

/// Whether the head issues: its reads done, or each pending source forwarded.
enum Issue {}

/// Each candidate's read and where its data goes, and what the queues and banks give this cycle.
enum Routes {}

impl<const RI: usize> Logic for ReadScheduler<RI> {
    logic_in_parts!(Requests, Issue, Routes);
}

impl<const RI: usize> crate::parts::Part<Requests> for ReadScheduler<RI> {
    // Single-value loops bind sizes (nsrc the sources) for index arithmetic. Candidate
    // `j * SOURCES + s` of the first allocator, and `(j - 1) * SOURCES + s` of the second, is
    // source s of slot j.
    #[hdl_gen]
    fn update(&mut self) {
        for nsrc in SOURCES..(SOURCES + 1) {
            // Pending, readable sources of held instructions, in banks that serve reads.
            for j in 0..self._served {
                for s in 0..SOURCES {
                    self.present[j * nsrc + s].next = self.slot_valid[j].val()
                        & (self.slot_state[j * nsrc + s].val() == self.pending.val())
                        & !self.hazard[j * nsrc + s].val()
                        & !(self.banks_written.val()
                            & (self.one_bank.val()
                                << (self.slot_src[j * nsrc + s].val() & self.bank_mask.val())))
                        .any();
                }
            }
            // The head's pending sources, then the conflicting sources of the next slots.
            self.conflict.banks_in.next = self.no_banks.val();
            self.conflict.twice_in.next = self.no_banks.val();
            self.conflict.free_in.next = self.cq_free.val();
            for j in 0..(self._preload_slots + 1) {
                for s in 0..SOURCES {
                    self.conflict.served_before[j * nsrc + s].next = false;
                    self.conflict.reg_index[j * nsrc + s].next = self.slot_src[j * nsrc + s].val();
                    self.conflict.want[j * nsrc + s].next = self.present[j * nsrc + s].val();
                }
            }
            for j in 1..(self._preload_slots + 1) {
                for s in 0..SOURCES {
                    self.conflict.want[j * nsrc + s].next = self.present[j * nsrc + s].val()
                        & self.later_conflict[j * nsrc + s - nsrc].val();
                }
            }
            // Prefetches: the next slots' other sources, unless preloaded now.
            self.prefetch.banks_in.next = self.conflict.claimed_out.val();
            self.prefetch.twice_in.next = self.conflict.claimed_twice_out.val();
            self.prefetch.free_in.next = self.pq_free.val();
            for j in 1..(self._prefetch_slots + 1) {
                for s in 0..SOURCES {
                    self.prefetch.want[j * nsrc + s - nsrc].next = self.present[j * nsrc + s].val();
                    self.prefetch.served_before[j * nsrc + s - nsrc].next = false;
                    self.prefetch.reg_index[j * nsrc + s - nsrc].next =
                        self.slot_src[j * nsrc + s].val();
                }
            }
            for j in 1..(self._both_slots + 1) {
                for s in 0..SOURCES {
                    self.prefetch.served_before[j * nsrc + s - nsrc].next =
                        self.conflict.asked[j * nsrc + s].val();
                }
            }
            for j in 0..self._window {
                for s in 0..SOURCES {
                    self.next_state[j * nsrc + s].next = self.slot_state[j * nsrc + s].val();
                    self.next_entry[j * nsrc + s].next = self.slot_entry[j * nsrc + s].val();
                }
            }
            for j in 1..(self._preload_slots + 1) {
                for s in 0..SOURCES {
                    if self.conflict.grant[j * nsrc + s].val() {
                        self.next_state[j * nsrc + s].next = self.in_cq[0].val();
                        self.next_entry[j * nsrc + s].next =
                            self.conflict.entry[j * nsrc + s - nsrc].val();
                    }
                }
            }
            for j in 1..(self._prefetch_slots + 1) {
                for s in 0..SOURCES {
                    if self.prefetch.grant[j * nsrc + s - nsrc].val() {
                        self.next_state[j * nsrc + s].next = self.in_pq[0].val();
                        self.next_entry[j * nsrc + s].next =
                            self.prefetch.entry[j * nsrc + s - nsrc].val();
                    }
                }
            }
        }
    }
}

impl<const RI: usize> crate::parts::Part<Issue> for ReadScheduler<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        // The head's reads are done; it issues once none of its sources is pending, or each
        // pending one is forwarded, and the pending table does not hold it.
        for s in 0..SOURCES {
            if self.conflict.grant[s].val() {
                self.next_state[s].next = self.done.val();
            }
            self.waiting[s].next =
                (self.next_state[s].val() == self.pending.val()) & !self.forward[s].val();
            self.head_read[s].next = self.conflict.grant[s].val();
            self.head_port[s].next = self.conflict.port[s].val();
        }
        self.issue.next = self.slot_valid[0].val()
            & !self.reset.val()
            & !self.held.val()
            & !(self.waiting[0].val() | self.waiting[1].val() | self.waiting[2].val());
    }
}

impl<const RI: usize> crate::parts::Part<Routes> for ReadScheduler<RI> {
    // Single-value loops bind sizes (nsrc the sources, nc the first allocator's candidates)
    // for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // Each candidate's read, and where its data goes: the head's reads to its operand
        // latches (or, when it issues now, straight to the ALU), the others to their queue.
        for c in 0..(SOURCES * self._preload_slots + SOURCES) {
            self.cand_grant[c].next = self.conflict.grant[c].val();
            self.cand_port[c].next = self.conflict.port[c].val();
            self.cand_reg[c].next = self.slot_src[c].val();
        }
        for s in 0..SOURCES {
            self.cand_kind[s].next = self.done.val();
            if self.issue.val() {
                self.cand_kind[s].next = self.pending.val();
            }
            self.cand_index[s].next = self.number[s].val();
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for c in 0..(SOURCES * self._preload_slots) {
                self.cand_kind[c + nsrc].next = self.in_cq[0].val();
                self.cand_index[c + nsrc].next = self.conflict.entry[c].val();
            }
            for nc in self._conflict..(self._conflict + 1) {
                for c in 0..(SOURCES * self._prefetch_slots) {
                    self.cand_grant[nc + c].next = self.prefetch.grant[c].val();
                    self.cand_port[nc + c].next = self.prefetch.port[c].val();
                    self.cand_reg[nc + c].next = self.slot_src[c + nsrc].val();
                    self.cand_kind[nc + c].next = self.in_pq[0].val();
                    self.cand_index[nc + c].next = self.prefetch.entry[c].val();
                }
            }
        }
        self.cq_taken.next = self.cq_free.val() & !self.conflict.free_out.val();
        self.pq_taken.next = self.pq_free.val() & !self.prefetch.free_out.val();
        self.banks[0].next = self.conflict.banks_out.val() | self.prefetch.banks_out.val();
        self.banks[1].next = self.conflict.twice_out.val()
            | self.prefetch.twice_out.val()
            | (self.conflict.banks_out.val() & self.prefetch.banks_out.val());
        self.claims_unused.next =
            (self.prefetch.claimed_out.val() | self.prefetch.claimed_twice_out.val()).any();
        for c in 0..(SOURCES * self._preload_slots + SOURCES) {
            self.claims_unused.next = self.claims_unused.val() | self.conflict.asked[c].val();
        }
        for c in 0..(SOURCES * self._prefetch_slots) {
            self.claims_unused.next = self.claims_unused.val() | self.prefetch.asked[c].val();
        }
    }
}
