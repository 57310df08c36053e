//! The scoreboard's registered decisions: which sources of the next cycle's window must wait
//! for a result ([`Hazards`]), and what the pending table means for its head ([`NextHead`]).

use rust_hdl::prelude::*;

use super::pending::CANDIDATES;
use super::Scoreboard;
use crate::cells::regs::Registers;
use crate::core::widths::{UnitCode, WaveNumber, WriteCount};
use crate::params::{CoreParams, CoreUnit, SOURCES};
use crate::parts::logic_in_parts;
use crate::signals::{constant, signals};

/// The hazards (`docs/core.md`), computed each cycle for the next cycle's window. Next
/// cycle's slot `j` holds this slot's instruction, or on issue the next slot's (the head going
/// in flight or into the pending table), or the offered instruction. Its sources' hazards: an
/// older slot writing the register (the window's rule: a slot writing one register, by its
/// first destination; one holding a long-latency instruction writing several, every
/// register), an instruction staying in flight to write it back on port 0, or an outstanding
/// register; on issue the head is compared by the registers it writes, which then are in
/// flight or outstanding. The compares are made for every outcome and the issue only chooses
/// among them. Vectors of sources are slot-major (`slot * SOURCES + source`). `RI` is the
/// register-index width.
#[derive(LogicBlock)]
pub struct Hazards<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no hazard.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Per served slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per served slot: its first destination.
    pub slot_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot: its destination registers written.
    pub slot_writes: Vec<Signal<In, WriteCount>>,
    /// Per served slot: its unit.
    pub slot_unit: Vec<Signal<In, UnitCode>>,
    /// Per seen slot and source, then per source of the offered instruction: the register.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot: the offered instruction enters it at the end of this cycle.
    pub entering: Vec<Signal<In, Bit>>,
    /// Per flight stage still in flight next cycle: written back on port 0.
    pub flight_write: Vec<Signal<In, Bit>>,
    /// Per flight stage still in flight next cycle: its register.
    pub flight_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per seen slot's source, then offered source: outstanding after this cycle.
    pub outstanding: Vec<Signal<In, Bit>>,
    /// Per source of the seen slots after the head, then offered source: the head writes it.
    pub by_head: Vec<Signal<In, Bit>>,
    /// Per served slot and source: a result for it is still to come.
    pub hazard: Vec<Signal<Out, Bit>>,
    /// With several waves (none with one): per seen slot, its wave.
    pub slot_wave: Vec<Signal<In, WaveNumber>>,
    /// With several waves: the offered instruction's wave.
    pub instr_wave: Vec<Signal<In, WaveNumber>>,
    held_hazard: Registers<Bit>,
    /// Per served slot, as an older slot: it writes its first destination only, or (a
    /// long-latency instruction writing several registers) every register.
    one: Vec<Signal<Local, Bit>>,
    many: Vec<Signal<Local, Bit>>,
    /// Per seen slot and source: a slot between the head and it writes the register.
    by_older: Vec<Signal<Local, Bit>>,
    /// Per source (seen slots', offered): an instruction staying in flight writes it back.
    by_flight: Vec<Signal<Local, Bit>>,
    /// Per served slot and offered source: the slot writes the register; a slot before it
    /// does (the head staying), or one up to it (the head issuing), or the flight, or the
    /// table.
    writes_offered: Vec<Signal<Local, Bit>>,
    entering_before: Vec<Signal<Local, Bit>>,
    entering_through: Vec<Signal<Local, Bit>>,
    alu: Constant<UnitCode>,
    one_write: Constant<WriteCount>,
    _served: usize,
    _seen: usize,
    _sources: usize,
    _staying: usize,
    /// With several waves 1 and 0, else 0 and 1: a long-latency slot writing several
    /// registers makes only its own wave's younger sources hazardous.
    _tagged: usize,
    _untagged: usize,
}

impl<const RI: usize> Hazards<RI> {
    /// The hazards of `params`' served slots.
    pub fn new(params: &CoreParams) -> Self {
        let (served, seen) = (params.served_slots(), Scoreboard::<RI>::seen_slots(params));
        let staying = params.issue_to_writeback() - 1;
        let t = usize::from(params.wave_count() > 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            slot_valid: signals(served),
            slot_dst: signals(served),
            slot_writes: signals(served),
            slot_unit: signals(served),
            src: signals(SOURCES * seen + SOURCES),
            entering: signals(served),
            flight_write: signals(staying),
            flight_dst: signals(staying),
            outstanding: signals(SOURCES * seen + SOURCES),
            by_head: signals(SOURCES * seen),
            hazard: signals(SOURCES * served),
            slot_wave: signals(seen * t),
            instr_wave: signals(t),
            held_hazard: Registers::new(SOURCES * served),
            one: signals(served),
            many: signals(served),
            by_older: signals(SOURCES * seen),
            by_flight: signals(SOURCES * seen + SOURCES),
            writes_offered: signals(SOURCES * served),
            entering_before: signals(SOURCES * served),
            entering_through: signals(SOURCES * served),
            alu: constant(CoreUnit::Alu.code()),
            one_write: constant(1),
            _served: served,
            _seen: seen,
            _sources: SOURCES * seen + SOURCES,
            _staying: staying,
            _tagged: t,
            _untagged: 1 - t,
        }
    }
}

/// Every compare, from this cycle's registers and the offered instruction.
enum Compares {}

/// Next cycle's hazards, chosen among the compares by the issue and the entering slot.
enum NextHazards {}

impl<const RI: usize> Logic for Hazards<RI> {
    logic_in_parts!(Compares, NextHazards);
}

impl<const RI: usize> crate::parts::Part<Compares> for Hazards<RI> {
    // Single-value loops bind the seen slots (ns) and the sources (nsrc) for index
    // arithmetic: the offered instruction's lookups follow the seen slots'.
    #[hdl_gen]
    fn update(&mut self) {
        self.held_hazard.clock.next = self.clock.val();
        for i in 0..self._served {
            self.one[i].next =
                self.slot_valid[i].val() & (self.slot_writes[i].val() == self.one_write.val());
            self.many[i].next = self.slot_valid[i].val()
                & (self.slot_unit[i].val() != self.alu.val())
                & (self.slot_writes[i].val() > self.one_write.val());
        }
        // Every compare, from this cycle's registers and the offered instruction.
        for x in 0..self._sources {
            self.by_flight[x].next = false;
            for f in 0..self._staying {
                self.by_flight[x].next = self.by_flight[x].val()
                    | (self.flight_write[f].val()
                        & (self.flight_dst[f].val() == self.src[x].val()));
            }
        }
        for nsrc in SOURCES..(SOURCES + 1) {
            for k in 0..self._seen {
                for s in 0..SOURCES {
                    self.by_older[k * nsrc + s].next = false;
                    for i in 1..self._served {
                        if i < k {
                            for _u in 0..self._untagged {
                                self.by_older[k * nsrc + s].next = self.by_older[k * nsrc + s]
                                    .val()
                                    | self.many[i].val()
                                    | (self.one[i].val()
                                        & (self.slot_dst[i].val() == self.src[k * nsrc + s].val()));
                            }
                            for _t in 0..self._tagged {
                                self.by_older[k * nsrc + s].next = self.by_older[k * nsrc + s]
                                    .val()
                                    | (self.many[i].val()
                                        & (self.slot_wave[i].val() == self.slot_wave[k].val()))
                                    | (self.one[i].val()
                                        & (self.slot_dst[i].val() == self.src[k * nsrc + s].val()));
                            }
                        }
                    }
                }
            }
        }
        for ns in self._seen..(self._seen + 1) {
            for nsrc in SOURCES..(SOURCES + 1) {
                for s in 0..SOURCES {
                    for i in 0..self._served {
                        for _u in 0..self._untagged {
                            self.writes_offered[i * nsrc + s].next = self.many[i].val()
                                | (self.one[i].val()
                                    & (self.slot_dst[i].val() == self.src[nsrc * ns + s].val()));
                        }
                        for _t in 0..self._tagged {
                            self.writes_offered[i * nsrc + s].next = (self.many[i].val()
                                & (self.slot_wave[i].val() == self.instr_wave[0].val()))
                                | (self.one[i].val()
                                    & (self.slot_dst[i].val() == self.src[nsrc * ns + s].val()));
                        }
                    }
                    for j in 0..self._served {
                        self.entering_before[j * nsrc + s].next = self.by_flight[nsrc * ns + s]
                            .val()
                            | self.outstanding[nsrc * ns + s].val();
                        self.entering_through[j * nsrc + s].next =
                            self.entering_before[j * nsrc + s].val()
                                | self.by_head[nsrc * ns - nsrc + s].val();
                        for i in 0..self._served {
                            if i < j {
                                self.entering_before[j * nsrc + s].next =
                                    self.entering_before[j * nsrc + s].val()
                                        | self.writes_offered[i * nsrc + s].val();
                            }
                            if (i > 0) & (i <= j) {
                                self.entering_through[j * nsrc + s].next =
                                    self.entering_through[j * nsrc + s].val()
                                        | self.writes_offered[i * nsrc + s].val();
                            }
                        }
                    }
                }
            }
        }
    }
}

impl<const RI: usize> crate::parts::Part<NextHazards> for Hazards<RI> {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // Next cycle's slot j: this slot's instruction (the head, an older slot under the
        // window's rule), on issue the next slot's, or the offered instruction.
        for nsrc in SOURCES..(SOURCES + 1) {
            for j in 0..self._served {
                for s in 0..SOURCES {
                    self.held_hazard.d[j * nsrc + s].next = (self.by_older[j * nsrc + s].val()
                        | self.by_flight[j * nsrc + s].val()
                        | self.outstanding[j * nsrc + s].val())
                        & !self.issue.val();
                }
            }
            for j in 1..self._served {
                for s in 0..SOURCES {
                    for _u in 0..self._untagged {
                        if !self.issue.val()
                            & (self.by_head[j * nsrc + s - nsrc].val() | self.many[0].val())
                        {
                            self.held_hazard.d[j * nsrc + s].next = true;
                        }
                    }
                    for _t in 0..self._tagged {
                        if !self.issue.val()
                            & (self.by_head[j * nsrc + s - nsrc].val()
                                | (self.many[0].val()
                                    & (self.slot_wave[0].val() == self.slot_wave[j].val())))
                        {
                            self.held_hazard.d[j * nsrc + s].next = true;
                        }
                    }
                }
            }
            for j in 0..(self._seen - 1) {
                for s in 0..SOURCES {
                    if self.issue.val() {
                        self.held_hazard.d[j * nsrc + s].next = self.by_head[j * nsrc + s].val()
                            | self.by_older[j * nsrc + s + nsrc].val()
                            | self.by_flight[j * nsrc + s + nsrc].val()
                            | self.outstanding[j * nsrc + s + nsrc].val();
                    }
                }
            }
            for j in 0..self._served {
                for s in 0..SOURCES {
                    if self.entering[j].val() {
                        self.held_hazard.d[j * nsrc + s].next =
                            self.entering_before[j * nsrc + s].val();
                        if self.issue.val() {
                            self.held_hazard.d[j * nsrc + s].next =
                                self.entering_through[j * nsrc + s].val();
                        }
                    }
                    if self.reset.val() {
                        self.held_hazard.d[j * nsrc + s].next = false;
                    }
                    self.hazard[j * nsrc + s].next = self.held_hazard.q[j * nsrc + s].val();
                }
            }
        }
    }
}

/// What the pending table means for the next cycle's head (`docs/core.md`), registered like
/// the hazards: whether it is held (from the table's decisions for each outcome: the head
/// stays, slot 1 moves up on issue, or the offered instruction enters slot 0) and, with
/// forwarding, which of its sources are outstanding (never forwarded: their youngest writer is
/// long-latency). On issue a long-latency head's registers are outstanding too.
#[derive(LogicBlock)]
pub struct NextHead {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing held.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// The offered instruction enters slot 0 at the end of this cycle.
    pub entering: Signal<In, Bit>,
    /// With forwarding (none without): the head is a long-latency instruction.
    pub head_long: Vec<Signal<In, Bit>>,
    /// The table holds next cycle's head if the head stays: [0] the head, [1] the offered
    /// instruction.
    pub held_staying: Vec<Signal<In, Bit>>,
    /// The table holds it if the head issues now: [0] slot 1, [1] the offered instruction.
    pub held_moving: Vec<Signal<In, Bit>>,
    /// With forwarding (none without): per source of the head, slot 1 and the offered
    /// instruction (`candidate * SOURCES + source`), outstanding after this cycle.
    pub outstanding: Vec<Signal<In, Bit>>,
    /// With forwarding (none without): per source of slot 1 and the offered instruction, the
    /// head writes it.
    pub by_head: Vec<Signal<In, Bit>>,
    /// The head is held.
    pub held: Signal<Out, Bit>,
    /// With forwarding (none without): per head source, outstanding.
    pub head_outstanding: Vec<Signal<Out, Bit>>,
    held_head: Registers<Bit>,
    held_outstanding: Registers<Bit>,
    /// Head sources whose outstanding state is kept: `SOURCES` with forwarding, otherwise 0.
    _forwarded: usize,
}

impl NextHead {
    /// The next head's bookkeeping for `params`.
    pub fn new(params: &CoreParams) -> Self {
        let on = usize::from(params.forward);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            entering: Default::default(),
            head_long: signals(on),
            held_staying: signals(2),
            held_moving: signals(2),
            outstanding: signals(CANDIDATES * SOURCES * on),
            by_head: signals((CANDIDATES - 1) * SOURCES * on),
            held: Default::default(),
            head_outstanding: signals(SOURCES * on),
            held_head: Registers::new(1),
            held_outstanding: Registers::stage(SOURCES * on, on == 1),
            _forwarded: SOURCES * on,
        }
    }
}

impl Logic for NextHead {
    // A single-value loop binds the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.held_head.clock.next = self.clock.val();
        self.held_outstanding.clock.next = self.clock.val();
        self.held_head.d[0].next = self.held_staying[0].val();
        if self.issue.val() {
            self.held_head.d[0].next = self.held_moving[0].val();
        }
        if self.entering.val() {
            self.held_head.d[0].next = self.held_staying[1].val();
            if self.issue.val() {
                self.held_head.d[0].next = self.held_moving[1].val();
            }
        }
        if self.reset.val() {
            self.held_head.d[0].next = false;
        }
        self.held.next = self.held_head.q[0].val();
        for nsrc in SOURCES..(SOURCES + 1) {
            for s in 0..self._forwarded {
                self.held_outstanding.d[s].next = self.outstanding[s].val();
                if self.issue.val() {
                    self.held_outstanding.d[s].next = self.outstanding[nsrc + s].val()
                        | (self.head_long[0].val() & self.by_head[s].val());
                }
                if self.entering.val() {
                    self.held_outstanding.d[s].next = self.outstanding[2 * nsrc + s].val();
                    if self.issue.val() {
                        self.held_outstanding.d[s].next = self.outstanding[2 * nsrc + s].val()
                            | (self.head_long[0].val() & self.by_head[nsrc + s].val());
                    }
                }
                if self.reset.val() {
                    self.held_outstanding.d[s].next = false;
                }
                self.head_outstanding[s].next = self.held_outstanding.q[s].val();
            }
        }
    }
}
