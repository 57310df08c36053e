//! The core's scoreboard: the instructions in flight through the ALU, and the sources that
//! must wait for a result.

use rust_hdl::prelude::*;

use crate::params::CoreParams;
use crate::regs::Registers;
use crate::signals;

/// The scoreboard (`docs/core.md`). An issued instruction is in flight for `alu_latency + 1`
/// cycles: stage 0 is the cycle its operands reach the ALU, the last its write-back. A source
/// of a served slot is hazardous while an older slot of the window, or an instruction in
/// flight, still writes its register. Vectors of sources are slot-major (`slot * 3 + source`).
/// `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct Scoreboard<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// Per served slot but the last: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per served slot but the last (at least the head): its destination.
    pub slot_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot and source: the register.
    pub slot_src: Vec<Signal<In, Bits<RI>>>,
    /// Per served slot and source: a result for it is still to come.
    pub hazard: Vec<Signal<Out, Bit>>,
    /// The instruction issued last cycle has its operands at the ALU now.
    pub alu_valid: Signal<Out, Bit>,
    /// A result is written back this cycle.
    pub retire_valid: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_reg: Signal<Out, Bits<RI>>,
    flight_valid: Registers<Bit>,
    flight_dst: Registers<Bits<RI>>,
    _older: usize,
    _served: usize,
    _flight: usize,
}

impl<const RI: usize> Scoreboard<RI> {
    /// The scoreboard for `params`, serving the slots the read scheduler serves.
    pub fn new(params: &CoreParams) -> Self {
        let served = params.served_slots();
        let older = served - 1;
        let flight = params.alu_latency + 1;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            slot_valid: signals(older),
            slot_dst: signals(older.max(1)),
            slot_src: signals(3 * served),
            hazard: signals(3 * served),
            alu_valid: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            flight_valid: Registers::new(flight),
            flight_dst: Registers::new(flight),
            _older: older,
            _served: served,
            _flight: flight,
        }
    }
}

impl<const RI: usize> Logic for Scoreboard<RI> {
    // A single-value loop binds the pipeline stages (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.flight_valid.clock.next = self.clock.val();
        self.flight_dst.clock.next = self.clock.val();
        for j in 0..self._served {
            for s in 0..3 {
                self.hazard[j * 3 + s].next = false;
                for i in 0..self._older {
                    if i < j {
                        self.hazard[j * 3 + s].next = self.hazard[j * 3 + s].val()
                            | (self.slot_valid[i].val()
                                & (self.slot_dst[i].val() == self.slot_src[j * 3 + s].val()));
                    }
                }
                for f in 0..self._flight {
                    self.hazard[j * 3 + s].next = self.hazard[j * 3 + s].val()
                        | (self.flight_valid.q[f].val()
                            & (self.flight_dst.q[f].val() == self.slot_src[j * 3 + s].val()));
                }
            }
        }
        // In flight: stage 0 issued last cycle, the last stage writes back.
        self.flight_valid.d[0].next = self.issue.val() & !self.reset.val();
        self.flight_dst.d[0].next = self.slot_dst[0].val();
        for nl in self._flight..(self._flight + 1) {
            for f in 1..self._flight {
                self.flight_valid.d[f].next = self.flight_valid.q[f - 1].val() & !self.reset.val();
                self.flight_dst.d[f].next = self.flight_dst.q[f - 1].val();
            }
            self.alu_valid.next = self.flight_valid.q[0].val();
            self.retire_valid.next = self.flight_valid.q[nl - 1].val();
            self.retire_reg.next = self.flight_dst.q[nl - 1].val();
        }
    }
}
