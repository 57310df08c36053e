//! The pending table: the registers of long-latency results not yet written back, as a small
//! CAM, and what it means for the next cycle's head.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::core::widths::{PendingCount, SyncWaits, UnitCode, WaveNumber, WriteCount};
use crate::gpr::RegisterMap;
use crate::params::{BankMap, CoreParams, CoreUnit, GprParams, SOURCES};
use crate::signals::{constant, constants, signals};

/// The instructions the table answers for each cycle: the window's first two slots (the head,
/// the next) and the offered instruction, in that order.
pub(crate) const CANDIDATES: usize = 3;

/// The pending table (`docs/core.md`): `long_results` entries (valid, register, guard: `(sy)`
/// or `(ss)`). A long-latency head that issues takes one free entry per register it writes,
/// the lowest free ones, the `k`-th for `dst + k`; a performed long-latency write frees the
/// entry holding its register. Every compare is an equality on registers, like the flight's.
/// Registers are the slice's indices (through the bank map, [`crate::core::CoreSlice`]); the entries
/// hold those of `dst + k`, computed from the architectural register ([`CandidateSpans`]).
///
/// Its outputs are for the scoreboard's registered hazards, made from this cycle's entries
/// less the one freed this cycle: per source looked up, whether an entry holds it; per
/// source, whether the head writes it (its registers `dst..dst + writes`); and whether each
/// candidate for the next cycle's head would be held there (too few free entries for it, a
/// register it writes outstanding, a sync wait on an outstanding guard), when the head stays
/// and when it issues now (its registers then outstanding too). Candidates: [0] the head, [1]
/// window slot 1, [2] the offered instruction. It wires three parts, each feeding the next
/// only: the candidates' registers ([`CandidateSpans`]), the entries ([`PendingEntries`]) and
/// the lookups ([`PendingLookups`]). `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct PendingTable<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no entry.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Per candidate: its first destination register.
    pub cand_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per candidate: its destination registers written.
    pub cand_writes: Vec<Signal<In, WriteCount>>,
    /// Per candidate: its unit (`CoreUnit`).
    pub cand_unit: Vec<Signal<In, UnitCode>>,
    /// Per candidate: its sync waits (bit 0 `(ss)`, bit 1 `(sy)`).
    pub cand_wait: Vec<Signal<In, SyncWaits>>,
    /// A long-latency result's register is written this cycle.
    pub free: Signal<In, Bit>,
    /// The register written.
    pub free_reg: Signal<In, Bits<RI>>,
    /// Registers looked up: per seen slot and source, then the offered instruction's sources.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per register looked up: an entry holds it after this cycle's free.
    pub outstanding: Vec<Signal<Out, Bit>>,
    /// Per register looked up but the head's own (index less `SOURCES`): the head writes it.
    pub by_head: Vec<Signal<Out, Bit>>,
    /// Held next cycle if the head stays: [0] the head, [1] the offered instruction.
    pub held_staying: Vec<Signal<Out, Bit>>,
    /// Held next cycle if the head issues now: [0] window slot 1, [1] the offered instruction.
    pub held_moving: Vec<Signal<Out, Bit>>,
    /// With several waves (none with one): per candidate, its wave.
    pub cand_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per entry, valid after this cycle's free.
    pub entry_live: Vec<Signal<Out, Bit>>,
    /// With several waves: per entry, its register.
    pub entry_reg: Vec<Signal<Out, Bits<RI>>>,
    /// With several waves: per entry, guarded by `(sy)`.
    pub entry_sy: Vec<Signal<Out, Bit>>,
    /// With several waves: per entry, the wave of the instruction that took it.
    pub entry_wave: Vec<Signal<Out, WaveNumber>>,
    /// With several waves: per `k`, the head's register `dst + k`.
    pub head_plus: Vec<Signal<Out, Bits<RI>>>,
    /// With several waves: per `k`, the head writes register `dst + k`.
    pub head_covers: Vec<Signal<Out, Bit>>,
    /// With several waves: the head is a long-latency instruction.
    pub head_long: Vec<Signal<Out, Bit>>,
    /// With several waves: the head's results are guarded by `(sy)`.
    pub head_sy: Vec<Signal<Out, Bit>>,
    spans: CandidateSpans<RI>,
    entries: PendingEntries<RI>,
    lookups: PendingLookups<RI>,
    _entries: usize,
    _sources: usize,
    /// 1 with several waves (entries carry their wave), else 0.
    _tagged: usize,
}

impl<const RI: usize> PendingTable<RI> {
    /// The pending table of `params`, looking up `sources` registers (the seen slots' and the
    /// offered instruction's).
    pub fn new(params: &CoreParams, sources: usize) -> Self {
        let n = params.long_results;
        let t = usize::from(params.wave_count() > 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            cand_dst: signals(CANDIDATES),
            cand_writes: signals(CANDIDATES),
            cand_unit: signals(CANDIDATES),
            cand_wait: signals(CANDIDATES),
            free: Default::default(),
            free_reg: Default::default(),
            src: signals(sources),
            outstanding: signals(sources),
            by_head: signals(sources - SOURCES),
            held_staying: signals(2),
            held_moving: signals(2),
            cand_wave: signals(CANDIDATES * t),
            entry_live: signals(n * t),
            entry_reg: signals(n * t),
            entry_sy: signals(n * t),
            entry_wave: signals(n * t),
            head_plus: signals(4 * t),
            head_covers: signals(4 * t),
            head_long: signals(t),
            head_sy: signals(t),
            spans: CandidateSpans::new(&params.gpr, CANDIDATES),
            entries: PendingEntries::new(n, t),
            lookups: PendingLookups::new(n, sources, t),
            _entries: n,
            _sources: sources,
            _tagged: t,
        }
    }
}

impl<const RI: usize> Logic for PendingTable<RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.entries.clock.next = self.clock.val();
        self.entries.reset.next = self.reset.val();
        self.entries.issue.next = self.issue.val();
        self.entries.count.next = self.spans.takes[0].val();
        self.entries.take_sy.next = self.spans.head_sy.val();
        self.entries.free.next = self.free.val();
        self.entries.free_reg.next = self.free_reg.val();
        self.lookups.head_sy.next = self.spans.head_sy.val();
        self.lookups.head_long.next = self.spans.head_long.val();
        self.lookups.taken.next = self.entries.taken.val();
        self.lookups.freed.next = self.entries.freed.val();
        for c in 0..CANDIDATES {
            self.spans.cand_dst[c].next = self.cand_dst[c].val();
            self.spans.cand_writes[c].next = self.cand_writes[c].val();
            self.spans.cand_unit[c].next = self.cand_unit[c].val();
            self.lookups.cand_dst[c].next = self.cand_dst[c].val();
            self.lookups.cand_wait[c].next = self.cand_wait[c].val();
            self.lookups.takes[c].next = self.spans.takes[c].val();
        }
        for k in 0..4 {
            self.entries.take_reg[k].next = self.spans.plus[k].val();
        }
        for k in 0..(4 * CANDIDATES) {
            self.lookups.plus[k].next = self.spans.plus[k].val();
            self.lookups.covers[k].next = self.spans.covers[k].val();
        }
        for e in 0..self._entries {
            self.lookups.live[e].next = self.entries.live[e].val();
            self.lookups.reg_index[e].next = self.entries.reg_index[e].val();
            self.lookups.sy[e].next = self.entries.sy[e].val();
        }
        for x in 0..self._sources {
            self.lookups.src[x].next = self.src[x].val();
            self.outstanding[x].next = self.lookups.outstanding[x].val();
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for x in SOURCES..self._sources {
                self.by_head[x - nsrc].next = self.lookups.by_head[x - nsrc].val();
            }
        }
        for m in 0..2 {
            self.held_staying[m].next = self.lookups.held_staying[m].val();
            self.held_moving[m].next = self.lookups.held_moving[m].val();
        }
        // With several waves: the entries' waves, and what the waves' readiness reads.
        for _t in 0..self._tagged {
            self.entries.take_wave[0].next = self.cand_wave[0].val();
            for c in 0..CANDIDATES {
                self.lookups.cand_wave[c].next = self.cand_wave[c].val();
            }
            for e in 0..self._entries {
                self.lookups.wave[e].next = self.entries.wave[e].val();
                self.entry_live[e].next = self.entries.live[e].val();
                self.entry_reg[e].next = self.entries.reg_index[e].val();
                self.entry_sy[e].next = self.entries.sy[e].val();
                self.entry_wave[e].next = self.entries.wave[e].val();
            }
            for k in 0..4 {
                self.head_plus[k].next = self.spans.plus[k].val();
                self.head_covers[k].next = self.spans.covers[k].val();
            }
            self.head_long[0].next = self.spans.head_long.val();
            self.head_sy[0].next = self.spans.head_sy.val();
        }
    }
}

/// The registers each candidate of the pending table writes (`PendingTable`): per candidate
/// and `k`, register `dst + k` and whether it is written (`k < writes`); whether it is a
/// long-latency instruction and the entries it takes (its writes, or none); and whether the
/// head is long-latency and its results guarded by `(sy)`.
///
/// The registers come in and go out as the slice's indices, through the bank map: a result's
/// registers are consecutive architectural registers, so with a map other than `mod` register
/// `dst + k` is `map(unmap(dst) + k)` (the index `dst + k` would name another register). `RI`
/// is the register-index width.
#[derive(LogicBlock)]
pub struct CandidateSpans<const RI: usize> {
    /// Per candidate: its first destination register.
    pub cand_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per candidate: its destination registers written.
    pub cand_writes: Vec<Signal<In, WriteCount>>,
    /// Per candidate: its unit.
    pub cand_unit: Vec<Signal<In, UnitCode>>,
    /// Per candidate and `k` (`c * 4 + k`): register `dst + k`.
    pub plus: Vec<Signal<Out, Bits<RI>>>,
    /// Per candidate and `k`: register `dst + k` is written.
    pub covers: Vec<Signal<Out, Bit>>,
    /// Per candidate: the pending-table entries it takes.
    pub takes: Vec<Signal<Out, PendingCount>>,
    /// The head (candidate 0) is a long-latency instruction.
    pub head_long: Signal<Out, Bit>,
    /// The head's results are guarded by `(sy)`.
    pub head_sy: Signal<Out, Bit>,
    /// Per candidate: a long-latency instruction.
    long: Vec<Signal<Local, Bit>>,
    /// 0..=4 as register offsets, as write counts, and as entry counts.
    offset: Vec<Constant<Bits<RI>>>,
    number: Vec<Constant<WriteCount>>,
    count: Vec<Constant<PendingCount>>,
    alu: Constant<UnitCode>,
    tex: Constant<UnitCode>,
    global_mem: Constant<UnitCode>,
    /// Per candidate: its first destination given back as the architectural register (none
    /// with the `mod` map).
    unmap: Vec<RegisterMap<RI>>,
    /// Per candidate and `k` in 1..4 (`c * 3 + k - 1`): that register plus `k` through the
    /// map (none with the `mod` map).
    remap: Vec<RegisterMap<RI>>,
    /// 1 when the bank map is not `mod`, else 0.
    _mapped: usize,
    _candidates: usize,
    /// 1 when there is a candidate (the head), else 0 (a slice of one wave builds the waves'
    /// spans with none).
    _head: usize,
}

impl<const RI: usize> CandidateSpans<RI> {
    /// The spans of `candidates` candidates (the first one the head) for a GPR of `gpr`'s
    /// register count and bank map.
    pub fn new(gpr: &GprParams, candidates: usize) -> Self {
        let mapped = usize::from(gpr.bank_map != BankMap::Mod);
        Self {
            cand_dst: signals(candidates),
            cand_writes: signals(candidates),
            cand_unit: signals(candidates),
            plus: signals(4 * candidates),
            covers: signals(4 * candidates),
            takes: signals(candidates),
            head_long: Default::default(),
            head_sy: Default::default(),
            long: signals(candidates),
            offset: constants(0..4),
            number: constants(0..5),
            count: constants(0..5),
            alu: constant(CoreUnit::Alu.code()),
            tex: constant(CoreUnit::Tex.code()),
            global_mem: constant(CoreUnit::GlobalMem.code()),
            unmap: (0..candidates * mapped)
                .map(|_| RegisterMap::new(gpr, true))
                .collect(),
            remap: (0..3 * candidates * mapped)
                .map(|_| RegisterMap::new(gpr, false))
                .collect(),
            _mapped: mapped,
            _candidates: candidates,
            _head: candidates.min(1),
        }
    }
}

impl<const RI: usize> Logic for CandidateSpans<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        for _h in 0..self._head {
            self.head_sy.next = (self.cand_unit[0].val() == self.tex.val())
                | (self.cand_unit[0].val() == self.global_mem.val());
        }
        for c in 0..self._candidates {
            self.long[c].next = self.cand_unit[c].val() != self.alu.val();
            self.takes[c].next = self.count[0].val();
            for k in 0..4 {
                self.plus[c * 4 + k].next = self.cand_dst[c].val() + self.offset[k].val();
                self.covers[c * 4 + k].next = self.cand_writes[c].val() > self.number[k].val();
                if self.long[c].val() & (self.cand_writes[c].val() == self.number[k + 1].val()) {
                    self.takes[c].next = self.count[k + 1].val();
                }
            }
        }
        for _m in 0..self._mapped {
            for c in 0..self._candidates {
                self.unmap[c].register.next = self.cand_dst[c].val();
                for k in 1..4 {
                    self.remap[c * 3 + k - 1].register.next =
                        self.unmap[c].mapped.val() + self.offset[k].val();
                    self.plus[c * 4 + k].next = self.remap[c * 3 + k - 1].mapped.val();
                }
            }
        }
        for _h in 0..self._head {
            self.head_long.next = self.long[0].val();
        }
        for _n in self._head..1 {
            self.head_long.next = false;
            self.head_sy.next = false;
        }
    }
}

/// The pending table's lookups (`PendingTable`), from its entries after this cycle's free:
/// per register looked up, whether an entry holds it, and (all but the head's own) whether
/// the head writes it; and whether each candidate for next cycle's head is held, if the head
/// stays and if it issues now.
#[derive(LogicBlock)]
pub struct PendingLookups<const RI: usize> {
    /// Per candidate: its first destination register.
    pub cand_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per candidate: its sync waits.
    pub cand_wait: Vec<Signal<In, SyncWaits>>,
    /// Per candidate and `k`: register `dst + k` ([`CandidateSpans`]).
    pub plus: Vec<Signal<In, Bits<RI>>>,
    /// Per candidate and `k`: register `dst + k` is written.
    pub covers: Vec<Signal<In, Bit>>,
    /// Per candidate: the entries it takes.
    pub takes: Vec<Signal<In, PendingCount>>,
    /// The head is a long-latency instruction.
    pub head_long: Signal<In, Bit>,
    /// The head's results are guarded by `(sy)`.
    pub head_sy: Signal<In, Bit>,
    /// Per entry: valid after this cycle's free.
    pub live: Vec<Signal<In, Bit>>,
    /// Per entry: its register.
    pub reg_index: Vec<Signal<In, Bits<RI>>>,
    /// Per entry: guarded by `(sy)`.
    pub sy: Vec<Signal<In, Bit>>,
    /// Entries taken at the start of this cycle.
    pub taken: Signal<In, PendingCount>,
    /// An entry is freed this cycle.
    pub freed: Signal<In, Bit>,
    /// Registers looked up.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per register looked up: an entry holds it.
    pub outstanding: Vec<Signal<Out, Bit>>,
    /// Per register looked up but the head's own (index less `SOURCES`): the head writes it.
    pub by_head: Vec<Signal<Out, Bit>>,
    /// Held next cycle if the head stays: [0] the head, [1] the offered instruction.
    pub held_staying: Vec<Signal<Out, Bit>>,
    /// Held next cycle if the head issues now: [0] window slot 1, [1] the offered instruction.
    pub held_moving: Vec<Signal<Out, Bit>>,
    /// With several waves (none with one): per candidate, its wave.
    pub cand_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per entry, its wave.
    pub wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per candidate, an outstanding `(ss)` or `(sy)` guard of its wave.
    wave_ss: Vec<Signal<Local, Bit>>,
    wave_sy: Vec<Signal<Local, Bit>>,
    /// Per candidate: an outstanding register it writes; an outstanding guard it waits on.
    waw: Vec<Signal<Local, Bit>>,
    sync: Vec<Signal<Local, Bit>>,
    /// Per moving candidate: it writes a register the head writes, or waits on its guard.
    overlap: Vec<Signal<Local, Bit>>,
    waits_on_head: Vec<Signal<Local, Bit>>,
    /// Outstanding guards.
    ss_live: Signal<Local, Bit>,
    sy_live: Signal<Local, Bit>,
    /// Per sum of entries a candidate needs (the head's, the offered instruction's, the head's
    /// and slot 1's, the head's and the offered one's): more than are free after this cycle's
    /// free. Both cases of the free are compared at once, so that the free, which the cycle
    /// decides late, only picks one.
    short: Vec<Signal<Local, Bit>>,
    /// Entries the table has, and one more (the room with an entry freed).
    capacity: Constant<PendingCount>,
    capacity_freed: Constant<PendingCount>,
    _entries: usize,
    _sources: usize,
    /// 1 with several waves (a sync wait waits on its own wave's entries), else 0.
    _tagged: usize,
}

impl<const RI: usize> PendingLookups<RI> {
    /// The lookups of `entries` entries for `sources` registers; `tagged` (0 or 1) with
    /// several waves.
    pub fn new(entries: usize, sources: usize, tagged: usize) -> Self {
        Self {
            cand_dst: signals(CANDIDATES),
            cand_wait: signals(CANDIDATES),
            plus: signals(4 * CANDIDATES),
            covers: signals(4 * CANDIDATES),
            takes: signals(CANDIDATES),
            head_long: Default::default(),
            head_sy: Default::default(),
            live: signals(entries),
            reg_index: signals(entries),
            sy: signals(entries),
            taken: Default::default(),
            freed: Default::default(),
            src: signals(sources),
            outstanding: signals(sources),
            by_head: signals(sources - SOURCES),
            held_staying: signals(2),
            held_moving: signals(2),
            cand_wave: signals(CANDIDATES * tagged),
            wave: signals(entries * tagged),
            wave_ss: signals(CANDIDATES * tagged),
            wave_sy: signals(CANDIDATES * tagged),
            waw: signals(CANDIDATES),
            sync: signals(CANDIDATES),
            overlap: signals(2),
            waits_on_head: signals(2),
            ss_live: Default::default(),
            sy_live: Default::default(),
            short: signals(4),
            capacity: constant(entries as u64),
            capacity_freed: constant(entries as u64 + 1),
            _entries: entries,
            _sources: sources,
            _tagged: tagged,
        }
    }
}

impl<const RI: usize> Logic for PendingLookups<RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.ss_live.next = false;
        self.sy_live.next = false;
        for c in 0..CANDIDATES {
            self.waw[c].next = false;
        }
        for x in 0..self._sources {
            self.outstanding[x].next = false;
        }
        for e in 0..self._entries {
            self.ss_live.next = self.ss_live.val() | (self.live[e].val() & !self.sy[e].val());
            self.sy_live.next = self.sy_live.val() | (self.live[e].val() & self.sy[e].val());
            for c in 0..CANDIDATES {
                for k in 0..4 {
                    self.waw[c].next = self.waw[c].val()
                        | (self.live[e].val()
                            & self.covers[c * 4 + k].val()
                            & (self.reg_index[e].val() == self.plus[c * 4 + k].val()));
                }
            }
            for x in 0..self._sources {
                self.outstanding[x].next = self.outstanding[x].val()
                    | (self.live[e].val() & (self.reg_index[e].val() == self.src[x].val()));
            }
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for x in SOURCES..self._sources {
                self.by_head[x - nsrc].next = false;
                for k in 0..4 {
                    self.by_head[x - nsrc].next = self.by_head[x - nsrc].val()
                        | (self.covers[k].val() & (self.src[x].val() == self.plus[k].val()));
                }
            }
        }
        // Held next cycle: as the table will be, with the head's entries if it issues now.
        for c in 0..CANDIDATES {
            self.sync[c].next = (self.cand_wait[c].val().get_bit(0) & self.ss_live.val())
                | (self.cand_wait[c].val().get_bit(1) & self.sy_live.val());
        }
        // With several waves a sync wait waits on its own wave's entries only.
        for _t in 0..self._tagged {
            for c in 0..CANDIDATES {
                self.wave_ss[c].next = false;
                self.wave_sy[c].next = false;
                for e in 0..self._entries {
                    if self.live[e].val() & (self.wave[e].val() == self.cand_wave[c].val()) {
                        self.wave_ss[c].next = self.wave_ss[c].val() | !self.sy[e].val();
                        self.wave_sy[c].next = self.wave_sy[c].val() | self.sy[e].val();
                    }
                }
                self.sync[c].next = (self.cand_wait[c].val().get_bit(0) & self.wave_ss[c].val())
                    | (self.cand_wait[c].val().get_bit(1) & self.wave_sy[c].val());
            }
        }
        self.short[0].next = (self.freed.val()
            & ((self.taken.val() + self.takes[0].val()) > self.capacity_freed.val()))
            | (!self.freed.val()
                & ((self.taken.val() + self.takes[0].val()) > self.capacity.val()));
        self.short[1].next = (self.freed.val()
            & ((self.taken.val() + self.takes[2].val()) > self.capacity_freed.val()))
            | (!self.freed.val()
                & ((self.taken.val() + self.takes[2].val()) > self.capacity.val()));
        for m in 0..2 {
            self.short[2 + m].next = (self.freed.val()
                & ((self.taken.val() + self.takes[0].val() + self.takes[m + 1].val())
                    > self.capacity_freed.val()))
                | (!self.freed.val()
                    & ((self.taken.val() + self.takes[0].val() + self.takes[m + 1].val())
                        > self.capacity.val()));
        }
        for m in 0..2 {
            self.overlap[m].next = false;
            for k in 0..4 {
                self.overlap[m].next = self.overlap[m].val()
                    | (self.covers[k].val()
                        & self.covers[(m + 1) * 4].val()
                        & (self.cand_dst[m + 1].val() == self.plus[k].val()))
                    | (self.covers[(m + 1) * 4 + k].val()
                        & self.covers[0].val()
                        & (self.cand_dst[0].val() == self.plus[(m + 1) * 4 + k].val()));
            }
            self.waits_on_head[m].next = (self.cand_wait[m + 1].val().get_bit(0)
                & !self.head_sy.val())
                | (self.cand_wait[m + 1].val().get_bit(1) & self.head_sy.val());
            for _t in 0..self._tagged {
                self.waits_on_head[m].next = self.waits_on_head[m].val()
                    & (self.cand_wave[m + 1].val() == self.cand_wave[0].val());
            }
            self.held_moving[m].next = self.waw[m + 1].val()
                | self.sync[m + 1].val()
                | (self.head_long.val()
                    & self.covers[0].val()
                    & (self.overlap[m].val() | self.waits_on_head[m].val()))
                | self.short[2 + m].val();
        }
        self.held_staying[0].next = self.waw[0].val() | self.sync[0].val() | self.short[0].val();
        self.held_staying[1].next = self.waw[2].val() | self.sync[2].val() | self.short[1].val();
    }
}

/// The pending table's entries (`PendingTable`): valid, register and guard each, and how many
/// are taken. A performed long-latency write frees the entry holding its register; the
/// issuing head takes `count` entries, the lowest free ones (free at the start of the cycle),
/// the `k`-th for `take_reg[k]`.
#[derive(LogicBlock)]
pub struct PendingEntries<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no entry.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Entries the head takes when it issues (0 to 4).
    pub count: Signal<In, PendingCount>,
    /// The register of the `k`-th entry taken.
    pub take_reg: Vec<Signal<In, Bits<RI>>>,
    /// The guard of the entries taken: `(sy)`, else `(ss)`.
    pub take_sy: Signal<In, Bit>,
    /// A long-latency result's register is written this cycle.
    pub free: Signal<In, Bit>,
    /// The register written.
    pub free_reg: Signal<In, Bits<RI>>,
    /// Per entry: valid after this cycle's free.
    pub live: Vec<Signal<Out, Bit>>,
    /// Per entry: its register.
    pub reg_index: Vec<Signal<Out, Bits<RI>>>,
    /// Per entry: guarded by `(sy)`.
    pub sy: Vec<Signal<Out, Bit>>,
    /// Entries taken at the start of this cycle.
    pub taken: Signal<Out, PendingCount>,
    /// An entry is freed this cycle.
    pub freed: Signal<Out, Bit>,
    /// With several waves (none with one): the wave of the entries taken.
    pub take_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per entry, the wave of the instruction that took it.
    pub wave: Vec<Signal<Out, WaveNumber>>,
    entry_valid: Registers<Bit>,
    entry_reg: Registers<Bits<RI>>,
    entry_sy: Registers<Bit>,
    used: Registers<PendingCount>,
    /// Per entry `e` and `k` in 0..=4, at `e * 5 + k`: at least `k` entries below `e` are free
    /// (a thermometer code of its rank among the free entries, in plain logic that synthesis
    /// balances into a tree, not a chain of adders).
    at_least: Vec<Signal<Local, Bit>>,
    /// Per entry: the issuing head takes it.
    take: Vec<Signal<Local, Bit>>,
    /// Entries taken after this cycle's free.
    used_after: Signal<Local, PendingCount>,
    number: Vec<Constant<PendingCount>>,
    /// With several waves, each entry's wave (none with one).
    entry_wave: Vec<DFF<WaveNumber>>,
    _entries: usize,
    _tagged: usize,
}

impl<const RI: usize> PendingEntries<RI> {
    /// `entries` entries; `tagged` (0 or 1) with several waves, each entry keeping its wave.
    pub fn new(entries: usize, tagged: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            count: Default::default(),
            take_reg: signals(4),
            take_sy: Default::default(),
            free: Default::default(),
            free_reg: Default::default(),
            live: signals(entries),
            reg_index: signals(entries),
            sy: signals(entries),
            used_after: Default::default(),
            taken: Default::default(),
            entry_valid: Registers::new(entries),
            entry_reg: Registers::new(entries),
            entry_sy: Registers::new(entries),
            used: Registers::new(1),
            at_least: signals(entries * 5),
            take: signals(entries),
            freed: Default::default(),
            number: constants(0..5),
            take_wave: signals(tagged),
            wave: signals(entries * tagged),
            entry_wave: (0..entries * tagged).map(|_| DFF::default()).collect(),
            _entries: entries,
            _tagged: tagged,
        }
    }
}

impl<const RI: usize> Logic for PendingEntries<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.entry_valid.clock.next = self.clock.val();
        self.entry_reg.clock.next = self.clock.val();
        self.entry_sy.clock.next = self.clock.val();
        self.used.clock.next = self.clock.val();
        self.freed.next = false;
        self.at_least[0].next = true;
        for k in 1..5 {
            self.at_least[k].next = false;
        }
        for e in 1..self._entries {
            self.at_least[e * 5].next = true;
            for k in 1..5 {
                self.at_least[e * 5 + k].next = self.at_least[(e - 1) * 5 + k].val()
                    | (self.at_least[(e - 1) * 5 + k - 1].val() & !self.entry_valid.q[e - 1].val());
            }
        }
        for e in 0..self._entries {
            self.live[e].next = self.entry_valid.q[e].val()
                & !(self.free.val() & (self.entry_reg.q[e].val() == self.free_reg.val()));
            self.freed.next =
                self.freed.val() | (self.entry_valid.q[e].val() & !self.live[e].val());
            self.reg_index[e].next = self.entry_reg.q[e].val();
            self.sy[e].next = self.entry_sy.q[e].val();
            // Taken when fewer than `count` entries below it are free.
            self.take[e].next = false;
            for c in 1..5 {
                if self.count.val() == self.number[c].val() {
                    self.take[e].next = self.issue.val()
                        & !self.entry_valid.q[e].val()
                        & !self.at_least[e * 5 + c].val();
                }
            }
            self.entry_valid.d[e].next =
                (self.live[e].val() | self.take[e].val()) & !self.reset.val();
            self.entry_reg.d[e].next = self.entry_reg.q[e].val();
            self.entry_sy.d[e].next = self.entry_sy.q[e].val();
            for k in 0..4 {
                if self.take[e].val()
                    & self.at_least[e * 5 + k].val()
                    & !self.at_least[e * 5 + k + 1].val()
                {
                    self.entry_reg.d[e].next = self.take_reg[k].val();
                    self.entry_sy.d[e].next = self.take_sy.val();
                }
            }
        }
        self.taken.next = self.used.q[0].val();
        self.used_after.next = self.used.q[0].val();
        if self.freed.val() {
            self.used_after.next = self.used.q[0].val() - self.number[1].val();
        }
        self.used.d[0].next = self.used_after.val();
        if self.issue.val() {
            self.used.d[0].next = self.used_after.val() + self.count.val();
        }
        if self.reset.val() {
            self.used.d[0].next = self.number[0].val();
        }
        for _t in 0..self._tagged {
            for e in 0..self._entries {
                self.entry_wave[e].clock.next = self.clock.val();
                self.wave[e].next = self.entry_wave[e].q.val();
                self.entry_wave[e].d.next = self.entry_wave[e].q.val();
                if self.take[e].val() {
                    self.entry_wave[e].d.next = self.take_wave[0].val();
                }
            }
        }
    }
}
