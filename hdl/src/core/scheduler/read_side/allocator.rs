//! A read allocator: one segment of the allocation that hands out the GPR's read ports, and
//! the entries of one queue, to candidate source reads in order.

use rust_hdl::prelude::*;

use crate::core::widths::{BankMask, EntryIndex, EntryMask, PortNumber, Thermometer};
use crate::params::{CoreParams, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant_if, constants, signals};

/// A read allocator (combinational; `docs/core.md`). Its candidates are taken in order: first
/// `plain` candidates that need only a read port, then `queued` candidates that also take an
/// entry of the segment's queue. A candidate that wants a read and was not served by an
/// earlier segment (`served_before`) asks for one; a queued candidate only while the queued
/// candidates wanting a read before it are fewer than the free entries, and it takes the free
/// entry of that rank. An asking candidate that finds a read left in its bank and a read port
/// left is granted: the lowest free read port. The segment enters with the banks claimed (once,
/// and twice) before it and leaves with those it claims, and reports the banks it reads; the
/// read ports used are the claims of the banks: one per bank, or up to two with 2R1W banks
/// (`capacity` 2). The core's conflict queue and prefetch queue are each served by one (the
/// first with the head's reads as its plain candidates). `RI` is the register-index width.
///
/// The rule reads as a chain, candidate after candidate; it is built flat. A candidate's
/// bank is free exactly when no earlier asking candidate names that bank, because the first
/// such candidate either takes the bank or fails on the ports, which every later candidate
/// fails on too (the ports used only grow; the entries cannot fail an asking candidate). So
/// the ports used before a candidate are the banks claimed before it: a count (thermometer
/// code) over the banks instead of a chain over the candidates, and the banks a segment claims
/// are the banks it reads unless its ports ran out. With two reads per bank the same holds per
/// read: a bank is full before a candidate when two earlier asking candidates name it, and each
/// bank counts once per claim, up to two.
#[derive(LogicBlock)]
pub struct ReadAllocator<const RI: usize> {
    /// Per candidate: its source wants a read this cycle.
    pub want: Vec<Signal<In, Bit>>,
    /// Per candidate: its source was read by an earlier segment this cycle.
    pub served_before: Vec<Signal<In, Bit>>,
    /// Per candidate: its register.
    pub reg_index: Vec<Signal<In, Bits<RI>>>,
    /// Banks read before this segment, one bit per bank.
    pub banks_in: Signal<In, BankMask>,
    /// Banks read twice before this segment (2R1W banks), one bit per bank.
    pub twice_in: Signal<In, BankMask>,
    /// Queue entries free before this segment, one bit per entry.
    pub free_in: Signal<In, EntryMask>,
    /// Per candidate: granted a read.
    pub grant: Vec<Signal<Out, Bit>>,
    /// Per candidate: it asks for a read (it wants one, was not served by an earlier segment
    /// and, if queued, finds an entry left for it).
    pub asked: Vec<Signal<Out, Bit>>,
    /// Per candidate: the read port of its read (the ports used before it).
    pub port: Vec<Signal<Out, PortNumber>>,
    /// Per queued candidate: the queue entry it takes.
    pub entry: Vec<Signal<Out, EntryIndex>>,
    /// Banks this segment reads.
    pub banks_out: Signal<Out, BankMask>,
    /// Banks this segment reads twice.
    pub twice_out: Signal<Out, BankMask>,
    /// Banks claimed after this segment: before it, or asked for by one of its candidates.
    pub claimed_out: Signal<Out, BankMask>,
    /// Banks claimed twice after this segment (2R1W banks).
    pub claimed_twice_out: Signal<Out, BankMask>,
    /// Queue entries free after this segment.
    pub free_out: Signal<Out, EntryMask>,
    /// Per candidate: it wants a read and was not served before.
    wanting: Vec<Signal<Local, Bit>>,
    /// Per candidate: its bank, one bit.
    bank_bit: Vec<Signal<Local, BankMask>>,
    /// `at[c * banks + b]`: candidate `c`'s register is in bank `b`.
    at: Vec<Signal<Local, Bit>>,
    /// `claimed[c * banks + b]`: bank `b` is read before this segment or asked for by a
    /// candidate before `c`.
    claimed: Vec<Signal<Local, Bit>>,
    /// `twice[c * banks + b]` (2R1W banks): bank `b` is read twice before this segment or
    /// asked for by two candidates before `c`.
    twice: Vec<Signal<Local, Bit>>,
    /// `full[c * banks + b]`: bank `b` has no read left before candidate `c`.
    full: Vec<Signal<Local, Bit>>,
    /// Per candidate: its bank is full before it.
    blocked: Vec<Signal<Local, Bit>>,
    /// Per candidate: reads claimed before it, a bank's claims counting up to its reads per
    /// cycle (thermometer: bit k set for k + 1 or more).
    claims: Vec<Signal<Local, Thermometer>>,
    /// Per queued candidate: the queued candidates before it that want a read (thermometer).
    rank: Vec<Signal<Local, Thermometer>>,
    /// Free entries (thermometer); present with queued candidates.
    free_count: Vec<Signal<Local, Thermometer>>,
    /// Per entry: free entries below it (thermometer).
    free_below: Vec<Signal<Local, Thermometer>>,
    no_banks: Constant<BankMask>,
    /// Thermometer bit `read_ports - 1`: all read ports used; present with candidates when
    /// the read ports can run out (fewer than the banks' reads per cycle).
    port_limit: Vec<Constant<Thermometer>>,
    /// Constants of the candidate loop, present only with candidates.
    bank_mask: Vec<Constant<Bits<RI>>>,
    one_bank: Vec<Constant<BankMask>>,
    /// Thermometer step and empty thermometer.
    one: Vec<Constant<Thermometer>>,
    none: Vec<Constant<Thermometer>>,
    /// `thermometer_bit[k]`: bit k, "k + 1 or more"; present with candidates.
    thermometer_bit: Vec<Constant<Thermometer>>,
    /// Port numbers `0..=read_ports`; present with candidates.
    number: Vec<Constant<PortNumber>>,
    /// One-hot entries and their numbers.
    entry_bit: Vec<Constant<EntryMask>>,
    entry_number: Vec<Constant<EntryIndex>>,
    _candidates: usize,
    _plain: usize,
    _queued: usize,
    _has_queued: usize,
    _entries: usize,
    _banks: usize,
    _read_ports: usize,
    /// 1 with two reads per bank (2R1W banks), else 0.
    _second: usize,
}

impl<const RI: usize> ReadAllocator<RI> {
    /// The core's conflict-queue segment: the head's three reads, then the preloads of the
    /// next slots' sources (slot-major), into the conflict queue.
    pub fn conflict(params: &CoreParams) -> Self {
        let gpr = &params.gpr;
        let preloads = SOURCES * params.preload_slots();
        let capacity = gpr.bank_kind.reads_per_bank();
        Self::new(
            SOURCES,
            preloads,
            gpr.banks,
            gpr.read_ports,
            params.cq_entries,
            capacity,
        )
    }

    /// The core's prefetch-queue segment: the prefetches of the next slots' sources
    /// (slot-major), into the prefetch queue.
    pub fn prefetch(params: &CoreParams) -> Self {
        let gpr = &params.gpr;
        let prefetches = SOURCES * params.prefetch_slots();
        let capacity = gpr.bank_kind.reads_per_bank();
        Self::new(
            0,
            prefetches,
            gpr.banks,
            gpr.read_ports,
            params.pq_entries,
            capacity,
        )
    }

    /// A segment of `plain` then `queued` candidates over `banks` banks of `capacity` reads
    /// (1 or 2) and `read_ports` read ports (at most 8), the queued ones filling a queue of
    /// `entries` entries (at most 8).
    pub fn new(
        plain: usize,
        queued: usize,
        banks: usize,
        read_ports: usize,
        entries: usize,
        capacity: usize,
    ) -> Self {
        let second = usize::from(capacity == 2);
        let candidates = plain + queued;
        let has_queued = usize::from(queued > 0);
        let any = candidates > 0;
        Self {
            want: signals(candidates),
            served_before: signals(candidates),
            reg_index: signals(candidates),
            banks_in: Default::default(),
            twice_in: Default::default(),
            free_in: Default::default(),
            grant: signals(candidates),
            asked: signals(candidates),
            port: signals(candidates),
            entry: signals(queued),
            banks_out: Default::default(),
            twice_out: Default::default(),
            claimed_out: Default::default(),
            claimed_twice_out: Default::default(),
            free_out: Default::default(),
            wanting: signals(candidates),
            bank_bit: signals(candidates),
            at: signals(candidates * banks),
            claimed: signals(candidates * banks),
            twice: signals(candidates * banks * second),
            full: signals(candidates * banks),
            blocked: signals(candidates),
            claims: signals(candidates),
            rank: signals(queued),
            free_count: signals(has_queued),
            free_below: signals(entries),
            no_banks: Constant::new(0.into()),
            port_limit: constant_if(
                candidates > 0 && read_ports < banks * capacity,
                1 << (read_ports - 1),
            ),
            bank_mask: constant_if(candidates > 0, (banks - 1) as u64),
            one_bank: constant_if(candidates > 0, 1),
            one: constant_if(candidates > 0, 1),
            none: constant_if(candidates > 0, 0),
            thermometer_bit: constants((0..read_ports).map(|k| 1u64 << k).filter(|_| any)),
            number: constants((0..=read_ports as u64).filter(|_| any)),
            entry_bit: constants((0..entries).map(|e| 1u64 << e)),
            entry_number: constants(0..entries as u64),
            _candidates: candidates,
            _plain: plain,
            _queued: queued,
            _has_queued: has_queued,
            _entries: entries,
            _banks: banks,
            _read_ports: read_ports,
            _second: second,
        }
    }
}

/// Which candidates ask, and the conflict-queue entry each queued one takes.
enum Asks {}

/// The banks and ports claimed before each candidate, and whether it is granted.
enum Claims {}

/// What the segment reads (once, twice), claims, and leaves free.
enum Leaves {}

impl<const RI: usize> Logic for ReadAllocator<RI> {
    logic_in_parts!(Asks, Claims, Leaves);
}

impl<const RI: usize> crate::parts::Part<Asks> for ReadAllocator<RI> {
    // Single-value loops bind the bank count (nb) and the plain candidates (np) for index
    // arithmetic. A thermometer counts up as `(t << 1) | 1`.
    #[hdl_gen]
    fn update(&mut self) {
        // A queued candidate asks while the wanting ones before it leave a free entry for it.
        for c in 0..self._candidates {
            self.wanting[c].next = self.want[c].val() & !self.served_before[c].val();
            self.asked[c].next = self.wanting[c].val();
        }
        for e in 0..self._entries {
            self.free_below[e].next = self.none[0].val();
        }
        for e in 1..self._entries {
            self.free_below[e].next = self.free_below[e - 1].val();
            if self.free_in.val().get_bit(e - 1) {
                self.free_below[e].next =
                    (self.free_below[e - 1].val() << self.one[0].val()) | self.one[0].val();
            }
        }
        for f in 0..self._has_queued {
            self.free_count[f].next = self.none[0].val();
            for e in 0..self._entries {
                if self.free_in.val().get_bit(e) {
                    self.free_count[f].next =
                        (self.free_count[f].val() << self.one[0].val()) | self.one[0].val();
                }
            }
        }
        for np in self._plain..(self._plain + 1) {
            for q in 0..self._queued {
                self.rank[q].next = self.none[0].val();
            }
            for q in 1..self._queued {
                self.rank[q].next = self.rank[q - 1].val();
                if self.wanting[np + q - 1].val() {
                    self.rank[q].next =
                        (self.rank[q - 1].val() << self.one[0].val()) | self.one[0].val();
                }
            }
            for q in 0..self._queued {
                if !(self.free_count[0].val() & !self.rank[q].val()).any() {
                    self.asked[np + q].next = false;
                }
                self.entry[q].next = self.entry_number[0].val();
                for e in 0..self._entries {
                    if self.free_in.val().get_bit(e)
                        & (self.free_below[e].val() == self.rank[q].val())
                    {
                        self.entry[q].next = self.entry_number[e].val();
                    }
                }
            }
        }
    }
}

impl<const RI: usize> crate::parts::Part<Claims> for ReadAllocator<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        for nb in self._banks..(self._banks + 1) {
            // Which banks are claimed before each candidate.
            for c in 0..self._candidates {
                for b in 0..self._banks {
                    self.at[c * nb + b].next =
                        (self.reg_index[c].val() & self.bank_mask[0].val()) == b.to_bits();
                    self.claimed[c * nb + b].next = self.banks_in.val().get_bit(b);
                }
            }
            for c in 1..self._candidates {
                for b in 0..self._banks {
                    self.claimed[c * nb + b].next = self.claimed[c * nb + b - nb].val()
                        | (self.asked[c - 1].val() & self.at[c * nb + b - nb].val());
                }
            }
            // With two reads per bank: which banks are claimed twice before each candidate.
            for _second in 0..self._second {
                for c in 0..self._candidates {
                    for b in 0..self._banks {
                        self.twice[c * nb + b].next = self.twice_in.val().get_bit(b);
                    }
                }
                for c in 1..self._candidates {
                    for b in 0..self._banks {
                        self.twice[c * nb + b].next = self.twice[c * nb + b - nb].val()
                            | (self.asked[c - 1].val()
                                & self.at[c * nb + b - nb].val()
                                & self.claimed[c * nb + b - nb].val());
                    }
                }
            }
            // Per candidate: its bank full already, and the ports used before it.
            for c in 0..self._candidates {
                self.blocked[c].next = false;
                self.claims[c].next = self.none[0].val();
                for b in 0..self._banks {
                    self.full[c * nb + b].next = self.claimed[c * nb + b].val();
                    for _second in 0..self._second {
                        self.full[c * nb + b].next = self.twice[c * nb + b].val();
                        if self.twice[c * nb + b].val() {
                            self.claims[c].next =
                                (self.claims[c].val() << self.one[0].val()) | self.one[0].val();
                        }
                    }
                    if self.full[c * nb + b].val() & self.at[c * nb + b].val() {
                        self.blocked[c].next = true;
                    }
                    if self.claimed[c * nb + b].val() {
                        self.claims[c].next =
                            (self.claims[c].val() << self.one[0].val()) | self.one[0].val();
                    }
                }
                // With a read port for every read the banks serve, a candidate that finds
                // every port used finds its bank full too: the test is left out.
                self.grant[c].next = self.asked[c].val() & !self.blocked[c].val();
                for limit in 0..self.port_limit.len() {
                    if (self.claims[c].val() & self.port_limit[limit].val()).any() {
                        self.grant[c].next = false;
                    }
                }
                self.port[c].next = self.number[0].val();
                for k in 0..self._read_ports {
                    if (self.claims[c].val() & self.thermometer_bit[k].val()).any() {
                        self.port[c].next = self.number[k + 1].val();
                    }
                }
            }
        }
    }
}

impl<const RI: usize> crate::parts::Part<Leaves> for ReadAllocator<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        // What the segment reads (once, twice), claims, and leaves free.
        self.banks_out.next = self.no_banks.val();
        self.twice_out.next = self.no_banks.val();
        self.claimed_out.next = self.banks_in.val();
        self.claimed_twice_out.next = self.twice_in.val();
        for c in 0..self._candidates {
            self.bank_bit[c].next =
                self.one_bank[0].val() << (self.reg_index[c].val() & self.bank_mask[0].val());
            if self.grant[c].val() {
                self.twice_out.next =
                    self.twice_out.val() | (self.banks_out.val() & self.bank_bit[c].val());
                self.banks_out.next = self.banks_out.val() | self.bank_bit[c].val();
            }
            if self.asked[c].val() {
                self.claimed_twice_out.next = self.claimed_twice_out.val()
                    | (self.claimed_out.val() & self.bank_bit[c].val());
                self.claimed_out.next = self.claimed_out.val() | self.bank_bit[c].val();
            }
        }
        self.free_out.next = self.free_in.val();
        for np in self._plain..(self._plain + 1) {
            for q in 0..self._queued {
                for e in 0..self._entries {
                    if self.grant[np + q].val()
                        & (self.entry[q].val() == self.entry_number[e].val())
                    {
                        self.free_out.next = self.free_out.val() & !self.entry_bit[e].val();
                    }
                }
            }
        }
    }
}
