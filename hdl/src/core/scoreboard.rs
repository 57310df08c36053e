//! The core's scoreboard: the instructions in flight through the ALU, and the sources that
//! must wait for a result.

use rust_hdl::prelude::*;

use super::forwarding::Forwarding;
use crate::params::CoreParams;
use crate::regs::Registers;
use crate::signals;

/// The scoreboard (`docs/core.md`). An issued instruction is in flight for `read_latency +
/// alu_latency` cycles: stage `read_latency - 1` is the cycle its operands reach the ALU, the
/// last its write-back. A source
/// of a served slot is hazardous while an older slot of the window, or an instruction in
/// flight, still writes its register. Vectors of sources are slot-major (`slot * 3 + source`).
/// `RI` is the register-index width.
///
/// The hazards are registered: each cycle computes them for the window of the next cycle, from
/// this cycle's slots, the issue (the window moves up a slot and the head goes in flight) and
/// the offered instruction entering a slot. The compares are made for every outcome from
/// registers and the offered instruction, and the issue only chooses among them, so the
/// hazards cost the read allocation no time.
#[derive(LogicBlock)]
pub struct Scoreboard<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Per served slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per served slot: its destination.
    pub slot_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per seen slot (the served slots and, if the window has one, the slot after them) and
    /// source: the register.
    pub slot_src: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot: the offered instruction enters it at the end of this cycle.
    pub entering: Vec<Signal<In, Bit>>,
    /// The offered instruction's sources.
    pub instr_src: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot and source: a result for it is still to come.
    pub hazard: Vec<Signal<Out, Bit>>,
    /// The instruction issued last cycle has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// A result is written back this cycle.
    pub retire_valid: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    /// Per head source: an issue now takes it from the ALU's output or a recent result
    /// ([`Forwarding`]; never without result forwarding).
    pub forward: Vec<Signal<Out, Bit>>,
    /// Per head source, with result forwarding (none without): the forwarded result's
    /// distance.
    pub distance: Vec<Signal<Out, Bits<4>>>,
    flight_valid: Registers<Bit>,
    flight_dst: Registers<Bits<RI>>,
    /// Result forwarding's bookkeeping.
    forwarding: Forwarding<RI>,
    /// Next cycle's hazards.
    held_hazard: Registers<Bit>,
    /// Per seen slot and source: an older slot writes the register.
    by_older: Vec<Signal<Local, Bit>>,
    /// Per seen slot and source: an instruction still in flight next cycle writes it.
    by_flight: Vec<Signal<Local, Bit>>,
    /// Per served slot and offered source: a slot before it writes the register, and a slot
    /// up to it does.
    entering_before: Vec<Signal<Local, Bit>>,
    entering_through: Vec<Signal<Local, Bit>>,
    /// Per served slot and offered source: the slot writes the register.
    writes_offered: Vec<Signal<Local, Bit>>,
    /// Per offered source: an instruction still in flight next cycle writes it.
    entering_by_flight: Vec<Signal<Local, Bit>>,
    /// 1 with result forwarding, otherwise 0.
    _forwarding: usize,
    _served: usize,
    _seen: usize,
    _flight: usize,
    /// Flight stages still in flight next cycle.
    _staying: usize,
    /// The flight stage whose instruction has its operands at the ALU.
    _alu_stage: usize,
}

impl<const RI: usize> Scoreboard<RI> {
    /// The scoreboard for `params`, serving the slots the read scheduler serves.
    pub fn new(params: &CoreParams) -> Self {
        let served = params.served_slots();
        let seen = Self::seen_slots(params);
        let flight = params.issue_to_writeback();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            slot_valid: signals(served),
            slot_dst: signals(served),
            slot_src: signals(3 * seen),
            entering: signals(served),
            instr_src: signals(3),
            hazard: signals(3 * served),
            alu_valid: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            forward: signals(3),
            distance: signals(3 * usize::from(params.forward)),
            flight_valid: Registers::new(flight),
            flight_dst: Registers::new(flight),
            forwarding: Forwarding::new(params),
            _forwarding: usize::from(params.forward),
            held_hazard: Registers::new(3 * served),
            by_older: signals(3 * seen),
            by_flight: signals(3 * seen),
            entering_before: signals(3 * served),
            entering_through: signals(3 * served),
            writes_offered: signals(3 * served),
            entering_by_flight: signals(3),
            _served: served,
            _seen: seen,
            _flight: flight,
            _staying: flight - 1,
            _alu_stage: params.read_latency() - 1,
        }
    }

    /// The slots whose sources the scoreboard sees: the served ones and the one after them,
    /// which moves into the last served slot on issue (when the window has it).
    pub fn seen_slots(params: &CoreParams) -> usize {
        (params.served_slots() + 1).min(params.window())
    }
}

impl<const RI: usize> Logic for Scoreboard<RI> {
    // A single-value loop binds the pipeline stages (nl) for index arithmetic. Flight stages
    // 0..flight-2 are in flight next cycle, one stage further.
    #[hdl_gen]
    fn update(&mut self) {
        self.flight_valid.clock.next = self.clock.val();
        self.flight_dst.clock.next = self.clock.val();
        self.held_hazard.clock.next = self.clock.val();
        for nl in self._flight..(self._flight + 1) {
            // Every compare, from this cycle's registers and the offered instruction.
            for k in 0..self._seen {
                for s in 0..3 {
                    self.by_older[k * 3 + s].next = false;
                    for i in 0..self._served {
                        if i < k {
                            self.by_older[k * 3 + s].next = self.by_older[k * 3 + s].val()
                                | (self.slot_valid[i].val()
                                    & (self.slot_dst[i].val() == self.slot_src[k * 3 + s].val()));
                        }
                    }
                    self.by_flight[k * 3 + s].next = false;
                    for f in 0..self._staying {
                        self.by_flight[k * 3 + s].next = self.by_flight[k * 3 + s].val()
                            | (self.flight_valid.q[f].val()
                                & (self.flight_dst.q[f].val() == self.slot_src[k * 3 + s].val()));
                    }
                }
            }
            for s in 0..3 {
                for i in 0..self._served {
                    self.writes_offered[i * 3 + s].next = self.slot_valid[i].val()
                        & (self.slot_dst[i].val() == self.instr_src[s].val());
                }
                self.entering_by_flight[s].next = false;
                for f in 0..self._staying {
                    self.entering_by_flight[s].next = self.entering_by_flight[s].val()
                        | (self.flight_valid.q[f].val()
                            & (self.flight_dst.q[f].val() == self.instr_src[s].val()));
                }
                for j in 0..self._served {
                    self.entering_before[j * 3 + s].next = false;
                    for i in 0..self._served {
                        if i < j {
                            self.entering_before[j * 3 + s].next = self.entering_before[j * 3 + s]
                                .val()
                                | self.writes_offered[i * 3 + s].val();
                        }
                    }
                    self.entering_through[j * 3 + s].next = self.entering_before[j * 3 + s].val()
                        | self.writes_offered[j * 3 + s].val();
                }
            }
            // Next cycle's slot j: this slot's instruction, or on issue the next slot's (whose
            // older slots are this cycle's slots up to j, the head going in flight), or the
            // offered instruction.
            for j in 0..self._served {
                for s in 0..3 {
                    self.held_hazard.d[j * 3 + s].next =
                        self.by_older[j * 3 + s].val() | self.by_flight[j * 3 + s].val();
                    if self.issue.val() {
                        self.held_hazard.d[j * 3 + s].next = false;
                    }
                }
            }
            for j in 0..(self._seen - 1) {
                for s in 0..3 {
                    if self.issue.val() {
                        self.held_hazard.d[j * 3 + s].next = self.by_older[j * 3 + s + 3].val()
                            | self.by_flight[j * 3 + s + 3].val();
                    }
                }
            }
            for j in 0..self._served {
                for s in 0..3 {
                    if self.entering[j].val() {
                        self.held_hazard.d[j * 3 + s].next = self.entering_before[j * 3 + s].val()
                            | self.entering_by_flight[s].val();
                        if self.issue.val() {
                            self.held_hazard.d[j * 3 + s].next = self.entering_through[j * 3 + s]
                                .val()
                                | self.entering_by_flight[s].val();
                        }
                    }
                    if self.reset.val() {
                        self.held_hazard.d[j * 3 + s].next = false;
                    }
                    self.hazard[j * 3 + s].next = self.held_hazard.q[j * 3 + s].val();
                }
            }
            self.forwarding.clock.next = self.clock.val();
            for s in 0..3 {
                self.forward[s].next = false;
            }
            for _f in 0..self._forwarding {
                self.forwarding.control[0].next = self.reset.val();
                self.forwarding.control[1].next = self.issue.val();
                self.forwarding.control[2].next = self.entering[0].val();
                self.forwarding.head_dst[0].next = self.slot_dst[0].val();
                for k in 0..6 {
                    self.forwarding.src[k].next = self.slot_src[k].val();
                }
                for s in 0..3 {
                    self.forwarding.src[6 + s].next = self.instr_src[s].val();
                    self.forward[s].next = self.forwarding.forward[s].val();
                    self.distance[s].next = self.forwarding.distance[s].val();
                }
                for f in 0..self._staying {
                    self.forwarding.flight_valid[f].next = self.flight_valid.q[f].val();
                    self.forwarding.flight_dst[f].next = self.flight_dst.q[f].val();
                }
            }
            // In flight: stage 0 issued last cycle, the last stage writes back.
            self.flight_valid.d[0].next = self.issue.val() & !self.reset.val();
            self.flight_dst.d[0].next = self.slot_dst[0].val();
            for f in 1..self._flight {
                self.flight_valid.d[f].next = self.flight_valid.q[f - 1].val() & !self.reset.val();
                self.flight_dst.d[f].next = self.flight_dst.q[f - 1].val();
            }
            for a in self._alu_stage..(self._alu_stage + 1) {
                self.alu_valid.next = self.flight_valid.q[a].val();
            }
            self.retire_valid.next = self.flight_valid.q[nl - 1].val();
            self.retire_reg.next = self.flight_dst.q[nl - 1].val();
        }
    }
}
