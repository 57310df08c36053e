//! The read side of the core's scheduler: the read scheduler, the granted reads onto the GPR's
//! read ports (through the request stage) with where each read's data goes, and the conflict
//! and prefetch queues' entries.

mod allocator;
mod captures;
mod read_scheduler;
mod requests;

pub use allocator::ReadAllocator;
pub use read_scheduler::ReadScheduler;
pub use requests::ReadRequests;

use rust_hdl::prelude::*;

use captures::CaptureDelay;

use crate::cells::regs::Registers;
use crate::checkers::EntryChecker;
use crate::core::widths::{BankMask, CaptureCode, EntryIndex, EntryMask, PortNumber, ReadCount};
use crate::params::{CaptureKind, CoreParams, SOURCES};
use crate::signals::{constant, constants, signals};

/// The read side (`docs/core.md`, rule 2 and the request stage): the read scheduler
/// ([`ReadScheduler`]) decides the reads and the issue from the window's slots and the
/// scoreboard's hazards, the read requests ([`ReadRequests`]) put the granted reads on the
/// GPR's read ports, the capture delay (`CaptureDelay`) says where each read's data goes when
/// it arrives, and the queues' entries ([`QueueEntries`]) are taken by the reads and freed by
/// the issue. Vectors of sources are slot-major (`slot * SOURCES + source`). `RI` is the
/// register-index width.
#[derive(LogicBlock)]
pub struct ReadSide<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing issues, no read in flight, every queue entry free.
    pub reset: Signal<In, Bit>,
    /// Per served slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per served slot and source: the register.
    pub slot_src: Vec<Signal<In, Bits<RI>>>,
    /// Per source of the slots preloads serve: it conflicts with an earlier source for a bank.
    pub later_conflict: Vec<Signal<In, Bit>>,
    /// Per slot and source: its state (`CaptureKind` code).
    pub slot_state: Vec<Signal<In, CaptureCode>>,
    /// Per slot and source: its queue entry.
    pub slot_entry: Vec<Signal<In, EntryIndex>>,
    /// Per served slot and source: an older instruction still writes the register.
    pub hazard: Vec<Signal<In, Bit>>,
    /// Per head source: an issue now takes it from the ALU's output (forwarding).
    pub forward: Vec<Signal<In, Bit>>,
    /// The head may not issue: the pending table holds it.
    pub held: Signal<In, Bit>,
    /// Banks written this cycle that serve no read (1RW banks), one bit per bank.
    pub banks_written: Signal<In, BankMask>,
    /// The head issues this cycle.
    pub issue: Signal<Out, Bit>,
    /// Per slot and source: its state after this cycle's reads.
    pub next_state: Vec<Signal<Out, CaptureCode>>,
    /// Per slot and source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<Out, EntryIndex>>,
    /// Per head source: read this cycle.
    pub head_read: Vec<Signal<Out, Bit>>,
    /// Per head source: the read port reading it.
    pub head_port: Vec<Signal<Out, PortNumber>>,
    /// Per read port: a GPR read this cycle.
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per read port, for the data arriving this cycle: where it goes (`CaptureKind`).
    pub capture_kind: Vec<Signal<Out, CaptureCode>>,
    /// Per read port: the latch (source number) or queue entry.
    pub capture_index: Vec<Signal<Out, EntryIndex>>,
    /// Number of GPR reads this cycle.
    pub reads: Signal<Out, ReadCount>,
    /// Banks read this cycle, one bit per bank.
    pub banks_read: Signal<Out, BankMask>,
    /// Banks read twice this cycle (2R1W banks), one bit per bank.
    pub banks_read_twice: Signal<Out, BankMask>,
    reader: ReadScheduler<RI>,
    /// The reads onto the GPR's ports, through the request stage.
    requests: ReadRequests<RI>,
    /// Where each read's data goes, through the GPR's read latency.
    captures: CaptureDelay,
    /// The queues' busy entries.
    queues: QueueEntries,
    _window: usize,
    _served: usize,
    _preload: usize,
    _read_ports: usize,
    _candidates: usize,
    /// 1 with a conflict or a prefetch queue, otherwise 0.
    _queued: usize,
}

impl<const RI: usize> ReadSide<RI> {
    /// The read side of `params`' scheduler.
    pub fn new(params: &CoreParams) -> Self {
        let (w, served, p) = (
            params.window(),
            params.served_slots(),
            params.gpr.read_ports,
        );
        let candidates = ReadScheduler::<RI>::candidates(params);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            slot_valid: signals(served),
            slot_src: signals(SOURCES * served),
            later_conflict: signals(SOURCES * params.preload_slots()),
            slot_state: signals(SOURCES * w),
            slot_entry: signals(SOURCES * w),
            hazard: signals(SOURCES * served),
            forward: signals(SOURCES),
            held: Default::default(),
            banks_written: Default::default(),
            issue: Default::default(),
            next_state: signals(SOURCES * w),
            next_entry: signals(SOURCES * w),
            head_read: signals(SOURCES),
            head_port: signals(SOURCES),
            read_valid: signals(p),
            read_reg: signals(p),
            capture_kind: signals(p),
            capture_index: signals(p),
            reads: Default::default(),
            banks_read: Default::default(),
            banks_read_twice: Default::default(),
            reader: ReadScheduler::new(params),
            requests: ReadRequests::new(params, candidates),
            captures: CaptureDelay::new(params),
            queues: QueueEntries::new(params),
            _window: w,
            _served: served,
            _preload: params.preload_slots(),
            _read_ports: p,
            _candidates: candidates,
            _queued: usize::from(params.cq_entries.max(params.pq_entries) > 0),
        }
    }
}

impl<const RI: usize> Logic for ReadSide<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.requests.clock.next = self.clock.val();
        self.captures.clock.next = self.clock.val();
        self.queues.clock.next = self.clock.val();
        self.reader.reset.next = self.reset.val();
        self.captures.reset.next = self.reset.val();
        self.queues.reset.next = self.reset.val();
        // The read scheduler, from the window and the scoreboard.
        self.reader.held.next = self.held.val();
        self.reader.banks_written.next = self.banks_written.val();
        self.reader.cq_free.next = self.queues.cq_free.val();
        self.reader.pq_free.next = self.queues.pq_free.val();
        for j in 0..self._served {
            self.reader.slot_valid[j].next = self.slot_valid[j].val();
        }
        for k in 0..(SOURCES * self._served) {
            self.reader.slot_src[k].next = self.slot_src[k].val();
            self.reader.hazard[k].next = self.hazard[k].val();
        }
        for k in 0..(SOURCES * self._preload) {
            self.reader.later_conflict[k].next = self.later_conflict[k].val();
        }
        for k in 0..(SOURCES * self._window) {
            self.reader.slot_state[k].next = self.slot_state[k].val();
            self.reader.slot_entry[k].next = self.slot_entry[k].val();
            self.next_state[k].next = self.reader.next_state[k].val();
            self.next_entry[k].next = self.reader.next_entry[k].val();
        }
        for s in 0..SOURCES {
            self.reader.forward[s].next = self.forward[s].val();
            self.head_read[s].next = self.reader.head_read[s].val();
            self.head_port[s].next = self.reader.head_port[s].val();
        }
        self.issue.next = self.reader.issue.val();
        // The queues' entries: taken by the reads, freed by the issue.
        self.queues.cq_taken.next = self.reader.cq_taken.val();
        self.queues.pq_taken.next = self.reader.pq_taken.val();
        for _q in 0..self._queued {
            self.queues.issue[0].next = self.reader.issue.val();
            for s in 0..SOURCES {
                self.queues.next_state[s].next = self.reader.next_state[s].val();
                self.queues.next_entry[s].next = self.reader.next_entry[s].val();
            }
        }
        // The reads, and where their data goes when it arrives.
        for c in 0..self._candidates {
            self.requests.grant[c].next = self.reader.cand_grant[c].val();
            self.requests.port[c].next = self.reader.cand_port[c].val();
            self.requests.reg_index[c].next = self.reader.cand_reg[c].val();
            self.requests.kind[c].next = self.reader.cand_kind[c].val();
            self.requests.index[c].next = self.reader.cand_index[c].val();
        }
        self.requests.banks[0].next = self.reader.banks[0].val();
        self.requests.banks[1].next = self.reader.banks[1].val();
        self.reads.next = self.requests.reads.val();
        self.banks_read.next = self.requests.banks_read.val();
        self.banks_read_twice.next = self.requests.banks_read_twice.val();
        for p in 0..self._read_ports {
            self.read_valid[p].next = self.requests.read_valid[p].val();
            self.read_reg[p].next = self.requests.read_reg[p].val();
            self.captures.read_kind[p].next = self.requests.read_kind[p].val();
            self.captures.read_index[p].next = self.requests.read_index[p].val();
            self.capture_kind[p].next = self.captures.capture_kind[p].val();
            self.capture_index[p].next = self.captures.capture_index[p].val();
        }
    }
}

/// The conflict and prefetch queues' busy entries (`docs/core.md`): an entry is taken by a
/// read whose data it will hold and freed at the end of the issue cycle of the instruction that
/// uses it; reset frees every entry. With the simulation-only checks of each queue's entries
/// ([`queue_checks`]).
#[derive(LogicBlock)]
pub struct QueueEntries {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every entry free.
    pub reset: Signal<In, Bit>,
    /// With a queue (none without): the head issues this cycle.
    pub issue: Vec<Signal<In, Bit>>,
    /// With a queue (none without), per head source: its state after this cycle's reads
    /// (`CaptureKind` code).
    pub next_state: Vec<Signal<In, CaptureCode>>,
    /// With a queue (none without), per head source: its queue entry after this cycle's reads.
    pub next_entry: Vec<Signal<In, EntryIndex>>,
    /// Conflict-queue entries taken this cycle.
    pub cq_taken: Signal<In, EntryMask>,
    /// Prefetch-queue entries taken this cycle.
    pub pq_taken: Signal<In, EntryMask>,
    /// Free conflict-queue entries, one bit per entry.
    pub cq_free: Signal<Out, EntryMask>,
    /// Free prefetch-queue entries, one bit per entry.
    pub pq_free: Signal<Out, EntryMask>,
    /// Busy entries: [0] conflict queue, [1] prefetch queue (bit e = entry e).
    queue_busy: Registers<EntryMask>,
    /// Simulation-only: the conflict queue's entries.
    cq_check: EntryChecker,
    /// Simulation-only: the prefetch queue's entries.
    pq_check: EntryChecker,
    /// Queue entries freed by the issuing head: [0] cq, [1] pq.
    freed: Vec<Signal<Local, EntryMask>>,
    /// A source's state in the conflict queue (one constant, none without the queue).
    in_cq: Vec<Constant<CaptureCode>>,
    /// A source's state in the prefetch queue (one constant, none without the queue).
    in_pq: Vec<Constant<CaptureCode>>,
    no_entries: Constant<EntryMask>,
    /// Existing queue entries: [0] cq, [1] pq.
    queue_mask: Vec<Constant<EntryMask>>,
    /// One-hot entries 0..max(cq, pq).
    entry_bit: Vec<Constant<EntryMask>>,
    /// The queue entries' numbers, 0..max(cq, pq).
    number: Vec<Constant<EntryIndex>>,
    _cq: usize,
    _pq: usize,
}

impl QueueEntries {
    /// The queues of `params`.
    pub fn new(params: &CoreParams) -> Self {
        let mask = |n: usize| constant((1u64 << n) - 1);
        let entries = params.cq_entries.max(params.pq_entries);
        let queued = usize::from(entries > 0);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: signals(queued),
            next_state: signals(SOURCES * queued),
            next_entry: signals(SOURCES * queued),
            cq_taken: Default::default(),
            pq_taken: Default::default(),
            cq_free: Default::default(),
            pq_free: Default::default(),
            queue_busy: Registers::new(2),
            cq_check: queue_checks("conflict", params.cq_entries),
            pq_check: queue_checks("prefetch", params.pq_entries),
            freed: signals(2),
            in_cq: constants((params.cq_entries > 0).then_some(CaptureKind::ConflictQueue.code())),
            in_pq: constants((params.pq_entries > 0).then_some(CaptureKind::PrefetchQueue.code())),
            no_entries: constant(0),
            queue_mask: vec![mask(params.cq_entries), mask(params.pq_entries)],
            entry_bit: constants((0..entries).map(|e| 1u64 << e)),
            number: constants(0..entries as u64),
            _cq: params.cq_entries,
            _pq: params.pq_entries,
        }
    }
}

impl Logic for QueueEntries {
    #[hdl_gen]
    fn update(&mut self) {
        self.queue_busy.clock.next = self.clock.val();
        self.cq_free.next = !self.queue_busy.q[0].val() & self.queue_mask[0].val();
        self.pq_free.next = !self.queue_busy.q[1].val() & self.queue_mask[1].val();
        // Entries: taken by this cycle's reads, freed by the issuing head.
        self.freed[0].next = self.no_entries.val();
        self.freed[1].next = self.no_entries.val();
        for s in 0..SOURCES {
            for e in 0..self._cq {
                if self.issue[0].val()
                    & (self.next_state[s].val() == self.in_cq[0].val())
                    & (self.next_entry[s].val() == self.number[e].val())
                {
                    self.freed[0].next = self.freed[0].val() | self.entry_bit[e].val();
                }
            }
            for e in 0..self._pq {
                if self.issue[0].val()
                    & (self.next_state[s].val() == self.in_pq[0].val())
                    & (self.next_entry[s].val() == self.number[e].val())
                {
                    self.freed[1].next = self.freed[1].val() | self.entry_bit[e].val();
                }
            }
        }
        self.queue_busy.d[0].next =
            (self.queue_busy.q[0].val() | self.cq_taken.val()) & !self.freed[0].val();
        self.queue_busy.d[1].next =
            (self.queue_busy.q[1].val() | self.pq_taken.val()) & !self.freed[1].val();
        if self.reset.val() {
            self.queue_busy.d[0].next = self.no_entries.val();
            self.queue_busy.d[1].next = self.no_entries.val();
        }
        self.cq_check.clock.next = self.clock.val();
        self.pq_check.clock.next = self.clock.val();
        self.cq_check.enable.next = !self.reset.val();
        self.pq_check.enable.next = !self.reset.val();
        for e in 0..self._cq {
            self.cq_check.busy[e].next = self.queue_busy.q[0].val().get_bit(e);
            self.cq_check.fill[e].next = self.cq_taken.val().get_bit(e);
            self.cq_check.drain[e].next = self.freed[0].val().get_bit(e);
        }
        for e in 0..self._pq {
            self.pq_check.busy[e].next = self.queue_busy.q[1].val().get_bit(e);
            self.pq_check.fill[e].next = self.pq_taken.val().get_bit(e);
            self.pq_check.drain[e].next = self.freed[1].val().get_bit(e);
        }
    }
}

/// The entries of the `which` (conflict or prefetch) queue of `entries` entries: none taken
/// while busy (`core: conflict queue entry <e> taken while busy (overflow)`) and none freed
/// while free (`... freed while free (underflow)`); not checked during reset.
pub(crate) fn queue_checks(which: &str, entries: usize) -> EntryChecker {
    EntryChecker::new(
        (0..entries).map(|e| format!("core: {which} queue entry {e}")),
        "taken while busy",
        "freed while free",
    )
}
