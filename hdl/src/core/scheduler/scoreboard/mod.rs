//! The core's scoreboard: the instructions in flight through the ALU, the long-latency results
//! outstanding, the sources that must wait for a result, and whether the head may issue.

mod flight;
mod forwarding;
mod hazards;
mod pending;
mod readiness;

pub use flight::Flight;
pub use forwarding::Forwarding;
pub use hazards::{Hazards, NextHead};
pub use pending::{CandidateSpans, PendingEntries, PendingLookups, PendingTable};
pub use readiness::WaveReadiness;

pub(crate) use pending::CANDIDATES;

use rust_hdl::prelude::*;

use crate::core::ports::LongResult;

use crate::core::widths::{BankMask, Distance, SyncWaits, UnitCode, WaveNumber, WriteCount};
use crate::params::{CoreParams, CoreUnit, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant_if, signals};

/// The scoreboard (`docs/core.md`). A source of a served slot is hazardous while an older
/// slot of the window writes its register (one writing several registers on a long-latency
/// unit: every register), an instruction in flight is still to write it back on port 0
/// ([`Flight`]), or a long-latency result holds it in the pending table ([`PendingTable`]).
/// The head is held while the table has too few free entries for it, holds a register it
/// writes, or holds a result its sync wait waits on. Vectors of sources are slot-major
/// (`slot * SOURCES + source`). `RI` is the register-index width.
///
/// The hazards and the hold are registered: each cycle computes them for the window of the
/// next cycle, from this cycle's slots, the issue (the window moves up a slot and the head
/// goes in flight, or into the table) and the offered instruction entering a slot. The
/// compares are made for every outcome from registers, the offered instruction and this
/// cycle's external write, and the issue only chooses among them, so the hazards cost the read
/// allocation no time.
#[derive(LogicBlock)]
pub struct Scoreboard<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight or outstanding.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Per served slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per described slot ([`Scoreboard::described_slots`]): its first destination.
    pub slot_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per described slot: its destination registers written.
    pub slot_writes: Vec<Signal<In, WriteCount>>,
    /// Per described slot: its unit.
    pub slot_unit: Vec<Signal<In, UnitCode>>,
    /// Per slot 0 and 1: its sync waits.
    pub slot_wait: Vec<Signal<In, SyncWaits>>,
    /// Per seen slot ([`Scoreboard::seen_slots`]) and source: the register.
    pub slot_src: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot: the offered instruction enters it at the end of this cycle.
    pub entering: Vec<Signal<In, Bit>>,
    /// The offered instruction's sources.
    pub instr_src: Vec<Signal<In, Bits<RI>>>,
    /// The offered instruction's first destination.
    pub instr_dst: Signal<In, Bits<RI>>,
    /// The offered instruction's destination registers written.
    pub instr_writes: Signal<In, WriteCount>,
    /// The offered instruction's unit.
    pub instr_unit: Signal<In, UnitCode>,
    /// The offered instruction's sync waits.
    pub instr_wait: Signal<In, SyncWaits>,
    /// External write request (write port 1).
    pub ext_valid: Signal<In, Bit>,
    /// The external write is a long-latency result's.
    pub ext_result: Signal<In, Bit>,
    /// External write register.
    pub ext_reg: Signal<In, Bits<RI>>,
    /// Per served slot and source: a result for it is still to come.
    pub hazard: Vec<Signal<Out, Bit>>,
    /// The head may not issue: the pending table holds it.
    pub held: Signal<Out, Bit>,
    /// The instruction issued `read_latency` cycles ago has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// A result is written back this cycle (write port 0).
    pub retire_valid: Signal<Out, Bit>,
    /// Its register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    /// A long-latency instruction's value leaving the ALU this cycle.
    pub long: LongResult<Out, In, RI>,
    /// The external write is performed this cycle.
    pub ext_grant: Signal<Out, Bit>,
    /// Banks written this cycle that serve no read (1RW banks), one bit per bank.
    pub banks_written: Signal<Out, BankMask>,
    /// Per head source: an issue now takes it from the ALU's output or a recent result
    /// ([`Forwarding`]; never without result forwarding, nor for an outstanding register).
    pub forward: Vec<Signal<Out, Bit>>,
    /// Per head source, with result forwarding (none without): the forwarded result's
    /// distance.
    pub distance: Vec<Signal<Out, Distance>>,
    /// With several waves (none with one): per window slot, its wave.
    pub slot_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per window slot, it holds an instruction.
    pub all_valid: Vec<Signal<In, Bit>>,
    /// With several waves: per window slot, its first destination.
    pub all_dst: Vec<Signal<In, Bits<RI>>>,
    /// With several waves: per window slot, its destination registers written.
    pub all_writes: Vec<Signal<In, WriteCount>>,
    /// With several waves: per window slot, its unit.
    pub all_unit: Vec<Signal<In, UnitCode>>,
    /// With several waves: the offered instruction's wave.
    pub instr_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: per wave, an instruction is offered.
    pub wave_valid: Vec<Signal<In, Bit>>,
    /// With several waves: per wave, the offered instruction's first destination.
    pub wave_dst: Vec<Signal<In, Bits<RI>>>,
    /// With several waves: per wave, its destination registers written.
    pub wave_writes: Vec<Signal<In, WriteCount>>,
    /// With several waves: per wave, its unit.
    pub wave_unit: Vec<Signal<In, UnitCode>>,
    /// With several waves: per wave, its sync waits.
    pub wave_wait: Vec<Signal<In, SyncWaits>>,
    /// With several waves: per wave and source (`wave * SOURCES + source`), the register.
    pub wave_src: Vec<Signal<In, Bits<RI>>>,
    /// With several waves: per wave and source, a GPR read.
    pub wave_read: Vec<Signal<In, Bit>>,
    /// With several waves: per wave, its offered instruction may enter the window.
    pub wave_ready: Vec<Signal<Out, Bit>>,
    flight: Flight<RI>,
    pending: PendingTable<RI>,
    hazards: Hazards<RI>,
    next_head: NextHead,
    /// The ALU's unit code, with forwarding (none without).
    alu: Vec<Constant<UnitCode>>,
    /// 1 with result forwarding, otherwise 0.
    _forwarding: usize,
    _served: usize,
    _seen: usize,
    /// Flight stages still in flight next cycle.
    _staying: usize,
    /// With several waves, the waves' readiness (with one, a part without ports).
    readiness: WaveReadiness<RI>,
    /// 1 with several waves, else 0.
    _tagged: usize,
    _window: usize,
    _entries: usize,
    _waves: usize,
}

impl<const RI: usize> Scoreboard<RI> {
    /// The scoreboard for `params`, serving the slots the read scheduler serves.
    pub fn new(params: &CoreParams) -> Self {
        let served = params.served_slots();
        let (seen, described) = (Self::seen_slots(params), Self::described_slots(params));
        let on = usize::from(params.forward);
        let (waves, w) = (params.wave_count(), params.window());
        let t = usize::from(waves > 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            slot_valid: signals(served),
            slot_dst: signals(described),
            slot_writes: signals(described),
            slot_unit: signals(described),
            slot_wait: signals(2),
            slot_src: signals(SOURCES * seen),
            entering: signals(served),
            instr_src: signals(SOURCES),
            instr_dst: Default::default(),
            instr_writes: Default::default(),
            instr_unit: Default::default(),
            instr_wait: Default::default(),
            ext_valid: Default::default(),
            ext_result: Default::default(),
            ext_reg: Default::default(),
            hazard: signals(SOURCES * served),
            held: Default::default(),
            alu_valid: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            long: LongResult::new(),
            ext_grant: Default::default(),
            banks_written: Default::default(),
            forward: signals(SOURCES),
            distance: signals(SOURCES * on),
            slot_wave: signals(w * t),
            all_valid: signals(w * t),
            all_dst: signals(w * t),
            all_writes: signals(w * t),
            all_unit: signals(w * t),
            instr_wave: signals(t),
            wave_valid: signals(waves * t),
            wave_dst: signals(waves * t),
            wave_writes: signals(waves * t),
            wave_unit: signals(waves * t),
            wave_wait: signals(waves * t),
            wave_src: signals(SOURCES * waves * t),
            wave_read: signals(SOURCES * waves * t),
            wave_ready: signals(waves * t),
            flight: Flight::new(params),
            pending: PendingTable::new(params, SOURCES * seen + SOURCES),
            hazards: Hazards::new(params),
            next_head: NextHead::new(params),
            alu: constant_if(params.forward, CoreUnit::Alu.code()),
            _forwarding: on,
            _served: served,
            _seen: seen,
            _staying: params.issue_to_writeback() - 1,
            readiness: WaveReadiness::new(params),
            _tagged: t,
            _window: w,
            _entries: params.long_results,
            _waves: waves,
        }
    }

    /// The slots whose sources the scoreboard sees: the served ones and the one after them,
    /// which moves into the last served slot on issue (when the window has it).
    pub fn seen_slots(params: &CoreParams) -> usize {
        (params.served_slots() + 1).min(params.window())
    }

    /// The slots whose writes the scoreboard sees: the served ones (older slots of the served
    /// slots and of the offered instruction), and slot 1 (the next head) at least.
    pub fn described_slots(params: &CoreParams) -> usize {
        params.served_slots().max(2)
    }
}

/// The flight, the pending table, the hazards and the next head wired together.
enum Wiring {}

/// The pending table's candidates, frees and lookups, and the hazards' and the next head's inputs from it and from the slots.
enum PendingWiring {}

/// With several waves: the waves' tags and the waves' readiness.
enum WaveWiring {}

impl<const RI: usize> Logic for Scoreboard<RI> {
    logic_in_parts!(Wiring, PendingWiring, WaveWiring);
}

impl<const RI: usize> crate::parts::Part<Wiring> for Scoreboard<RI> {
    // Wiring. The table's and the hazards' lookups are the seen slots' sources, then the
    // offered instruction's (ns binds the seen slots, nsrc the sources, for index arithmetic).
    #[hdl_gen]
    fn update(&mut self) {
        self.flight.clock.next = self.clock.val();
        self.pending.clock.next = self.clock.val();
        self.hazards.clock.next = self.clock.val();
        self.next_head.clock.next = self.clock.val();
        self.flight.reset.next = self.reset.val();
        self.pending.reset.next = self.reset.val();
        self.hazards.reset.next = self.reset.val();
        self.next_head.reset.next = self.reset.val();
        self.flight.issue.next = self.issue.val();
        self.pending.issue.next = self.issue.val();
        self.hazards.issue.next = self.issue.val();
        self.next_head.issue.next = self.issue.val();
        self.flight.head_dst.next = self.slot_dst[0].val();
        self.flight.head_writes.next = self.slot_writes[0].val();
        self.flight.head_unit.next = self.slot_unit[0].val();
        self.flight.ext_valid.next = self.ext_valid.val();
        self.flight.ext_reg.next = self.ext_reg.val();
        self.alu_valid.next = self.flight.alu_valid.val();
        self.retire_valid.next = self.flight.retire_valid.val();
        self.retire_reg.next = self.flight.retire_reg.val();
        self.long.valid.next = self.flight.long.valid.val();
        self.long.reg.next = self.flight.long.reg.val();
        self.long.writes.next = self.flight.long.writes.val();
        self.long.unit.next = self.flight.long.unit.val();
        self.ext_grant.next = self.flight.ext_grant.val();
        self.banks_written.next = self.flight.banks_written.val();
    }
}

impl<const RI: usize> crate::parts::Part<PendingWiring> for Scoreboard<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        // The pending table: candidates for the next head, the write that frees an entry, lookups.
        for c in 0..2 {
            self.pending.cand_dst[c].next = self.slot_dst[c].val();
            self.pending.cand_writes[c].next = self.slot_writes[c].val();
            self.pending.cand_unit[c].next = self.slot_unit[c].val();
            self.pending.cand_wait[c].next = self.slot_wait[c].val();
            self.next_head.held_staying[c].next = self.pending.held_staying[c].val();
            self.next_head.held_moving[c].next = self.pending.held_moving[c].val();
        }
        self.pending.cand_dst[2].next = self.instr_dst.val();
        self.pending.cand_writes[2].next = self.instr_writes.val();
        self.pending.cand_unit[2].next = self.instr_unit.val();
        self.pending.cand_wait[2].next = self.instr_wait.val();
        self.pending.free.next =
            self.ext_valid.val() & self.ext_result.val() & self.flight.ext_grant.val();
        self.pending.free_reg.next = self.ext_reg.val();
        for i in 0..self._served {
            self.hazards.slot_valid[i].next = self.slot_valid[i].val();
            self.hazards.slot_dst[i].next = self.slot_dst[i].val();
            self.hazards.slot_writes[i].next = self.slot_writes[i].val();
            self.hazards.slot_unit[i].next = self.slot_unit[i].val();
            self.hazards.entering[i].next = self.entering[i].val();
        }
        for f in 0..self._staying {
            self.hazards.flight_write[f].next = self.flight.write[f].val();
            self.hazards.flight_dst[f].next = self.flight.dst[f].val();
        }
        for ns in self._seen..(self._seen + 1) {
            for nsrc in SOURCES..(SOURCES + 1) {
                for x in 0..(SOURCES * self._seen) {
                    self.pending.src[x].next = self.slot_src[x].val();
                    self.hazards.src[x].next = self.slot_src[x].val();
                    self.hazards.by_head[x].next = self.pending.by_head[x].val();
                }
                for s in 0..SOURCES {
                    self.pending.src[nsrc * ns + s].next = self.instr_src[s].val();
                    self.hazards.src[nsrc * ns + s].next = self.instr_src[s].val();
                }
                for x in 0..(SOURCES * self._seen + SOURCES) {
                    self.hazards.outstanding[x].next = self.pending.outstanding[x].val();
                }
                for _f in 0..self._forwarding {
                    self.next_head.head_long[0].next = self.slot_unit[0].val() != self.alu[0].val();
                    for s in 0..SOURCES {
                        self.next_head.outstanding[s].next = self.pending.outstanding[s].val();
                        self.next_head.outstanding[nsrc + s].next =
                            self.pending.outstanding[nsrc + s].val();
                        self.next_head.outstanding[2 * nsrc + s].next =
                            self.pending.outstanding[nsrc * ns + s].val();
                        self.next_head.by_head[s].next = self.pending.by_head[s].val();
                        self.next_head.by_head[nsrc + s].next =
                            self.pending.by_head[nsrc * ns - nsrc + s].val();
                    }
                }
            }
        }
        for k in 0..(SOURCES * self._served) {
            self.hazard[k].next = self.hazards.hazard[k].val();
        }
        self.next_head.entering.next = self.entering[0].val();
        self.held.next = self.next_head.held.val();
        // Forwarding: from the stages written back on port 0, never an outstanding register.
        for s in 0..SOURCES {
            self.forward[s].next = false;
        }
        for _f in 0..self._forwarding {
            self.flight.entering[0].next = self.entering[0].val();
            for k in 0..((CANDIDATES - 1) * SOURCES) {
                self.flight.src[k].next = self.slot_src[k].val();
            }
            for nsrc in SOURCES..(SOURCES + 1) {
                for s in 0..SOURCES {
                    self.flight.src[2 * nsrc + s].next = self.instr_src[s].val();
                    self.forward[s].next =
                        self.flight.forward[s].val() & !self.next_head.head_outstanding[s].val();
                    self.distance[s].next = self.flight.distance[s].val();
                }
            }
        }
    }
}

impl<const RI: usize> crate::parts::Part<WaveWiring> for Scoreboard<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        // With several waves: the waves of the slots, the offered instruction and the table's
        // candidates, and each wave's readiness.
        for _t in 0..self._tagged {
            for k in 0..self._seen {
                self.hazards.slot_wave[k].next = self.slot_wave[k].val();
            }
            self.hazards.instr_wave[0].next = self.instr_wave[0].val();
            self.pending.cand_wave[0].next = self.slot_wave[0].val();
            self.pending.cand_wave[1].next = self.slot_wave[1].val();
            self.pending.cand_wave[2].next = self.instr_wave[0].val();
            self.readiness.issue[0].next = self.issue.val();
            self.readiness.head_long[0].next = self.pending.head_long[0].val();
            self.readiness.head_sy[0].next = self.pending.head_sy[0].val();
            for j in 0..self._window {
                self.readiness.slot_valid[j].next = self.all_valid[j].val();
                self.readiness.slot_dst[j].next = self.all_dst[j].val();
                self.readiness.slot_writes[j].next = self.all_writes[j].val();
                self.readiness.slot_unit[j].next = self.all_unit[j].val();
                self.readiness.slot_wave[j].next = self.slot_wave[j].val();
            }
            for f in 0..self._staying {
                self.readiness.flight_write[f].next = self.flight.write[f].val();
                self.readiness.flight_dst[f].next = self.flight.dst[f].val();
            }
            for e in 0..self._entries {
                self.readiness.entry_live[e].next = self.pending.entry_live[e].val();
                self.readiness.entry_reg[e].next = self.pending.entry_reg[e].val();
                self.readiness.entry_sy[e].next = self.pending.entry_sy[e].val();
                self.readiness.entry_wave[e].next = self.pending.entry_wave[e].val();
            }
            for k in 0..4 {
                self.readiness.head_plus[k].next = self.pending.head_plus[k].val();
                self.readiness.head_covers[k].next = self.pending.head_covers[k].val();
            }
            for w in 0..self._waves {
                self.readiness.valid[w].next = self.wave_valid[w].val();
                self.readiness.dst[w].next = self.wave_dst[w].val();
                self.readiness.writes[w].next = self.wave_writes[w].val();
                self.readiness.unit[w].next = self.wave_unit[w].val();
                self.readiness.waits[w].next = self.wave_wait[w].val();
                self.wave_ready[w].next = self.readiness.ready[w].val();
                for nsrc in SOURCES..(SOURCES + 1) {
                    for s in 0..SOURCES {
                        self.readiness.src[w * nsrc + s].next = self.wave_src[w * nsrc + s].val();
                        self.readiness.read[w * nsrc + s].next = self.wave_read[w * nsrc + s].val();
                    }
                }
            }
        }
    }
}
