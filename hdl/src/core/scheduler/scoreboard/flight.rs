//! The instructions in flight through the ALU: from issue to the write-back stage, where an
//! ALU result is written back on port 0 and a long-latency value leaves for the external unit.

use rust_hdl::prelude::*;

use crate::core::ports::LongResult;

use super::forwarding::Forwarding;
use super::pending::CANDIDATES;
use crate::cells::regs::Registers;
use crate::core::widths::{BankMask, Distance, UnitCode, WriteCount};
use crate::params::{CoreParams, CoreUnit, SOURCES};
use crate::signals::{constant, constant_if, signals};

/// The flight (`docs/core.md`): an issued instruction is in flight for `read_latency +
/// alu_latency` cycles; its operands reach the ALU at stage `read_latency - 1`, and the last
/// stage is its write-back stage: an ALU instruction writing a register is written back on
/// port 0 (`retire_*`), a long-latency one shows its value on `long_*`, any other (a `nop`, an
/// ALU instruction writing nothing) only passes. The stages written back on port 0 are the
/// scoreboard's hazards, one compare each, and the results forwarded ([`Forwarding`]). The
/// external write on port 1 is granted unless the write-back writes its bank. `RI` is the
/// register-index width.
#[derive(LogicBlock)]
pub struct Flight<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight.
    pub reset: Signal<In, Bit>,
    /// The head issues this cycle.
    pub issue: Signal<In, Bit>,
    /// The head's first destination register.
    pub head_dst: Signal<In, Bits<RI>>,
    /// The head's destination registers written.
    pub head_writes: Signal<In, WriteCount>,
    /// The head's unit.
    pub head_unit: Signal<In, UnitCode>,
    /// External write request (write port 1).
    pub ext_valid: Signal<In, Bit>,
    /// External write register.
    pub ext_reg: Signal<In, Bits<RI>>,
    /// With forwarding (none without): the offered instruction enters slot 0.
    pub entering: Vec<Signal<In, Bit>>,
    /// With forwarding (none without): the sources of slot 0, slot 1 and the offered
    /// instruction (`candidate * SOURCES + source`).
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per head source (none without forwarding): forwarded if still pending.
    pub forward: Vec<Signal<Out, Bit>>,
    /// Per head source (none without forwarding): the forwarded result's distance.
    pub distance: Vec<Signal<Out, Distance>>,
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
    /// Banks written this cycle that serve no read (1RW banks; zero otherwise), one bit per
    /// bank: the write-back's and the external write's (refused, its bank is the write-back's,
    /// so the set does not depend on the grant).
    pub banks_written: Signal<Out, BankMask>,
    /// Per stage still in flight next cycle (all but the last): written back on port 0.
    pub write: Vec<Signal<Out, Bit>>,
    /// Per stage still in flight next cycle: the first destination register.
    pub dst: Vec<Signal<Out, Bits<RI>>>,
    /// Issued, through the stage at the ALU; then written back on port 0, or long-latency.
    flight_valid: Registers<Bit>,
    flight_write: Registers<Bit>,
    flight_long: Registers<Bit>,
    flight_dst: Registers<Bits<RI>>,
    flight_writes: Registers<WriteCount>,
    flight_unit: Registers<UnitCode>,
    /// Result forwarding's bookkeeping.
    forwarding: Forwarding<RI>,
    /// The head, issuing now, would be written back on port 0.
    head_writes_back: Signal<Local, Bit>,
    alu: Constant<UnitCode>,
    one: Constant<WriteCount>,
    /// The bank bits of a register index.
    bank_mask: Constant<Bits<RI>>,
    no_bank: Constant<Bits<RI>>,
    /// One bank bit, present with 1RW banks.
    one_bank: Vec<Constant<BankMask>>,
    no_banks: Constant<BankMask>,
    _flight: usize,
    _staying: usize,
    /// The stage whose instruction has its operands at the ALU.
    _alu_stage: usize,
    /// 1 with result forwarding, otherwise 0.
    _forwarding: usize,
    /// 1 with single-port (1RW) banks, else 0.
    _single_port: usize,
}

impl<const RI: usize> Flight<RI> {
    /// The flight of `params`.
    pub fn new(params: &CoreParams) -> Self {
        let flight = params.issue_to_writeback();
        let on = usize::from(params.forward);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            head_dst: Default::default(),
            head_writes: Default::default(),
            head_unit: Default::default(),
            ext_valid: Default::default(),
            ext_reg: Default::default(),
            entering: signals(on),
            src: signals(CANDIDATES * SOURCES * on),
            forward: signals(SOURCES * on),
            distance: signals(SOURCES * on),
            alu_valid: Default::default(),
            retire_valid: Default::default(),
            retire_reg: Default::default(),
            long: LongResult::new(),
            ext_grant: Default::default(),
            banks_written: Default::default(),
            write: signals(flight - 1),
            dst: signals(flight - 1),
            flight_valid: Registers::new(params.read_latency()),
            flight_write: Registers::new(flight),
            flight_long: Registers::new(flight),
            flight_dst: Registers::new(flight),
            flight_writes: Registers::new(flight),
            flight_unit: Registers::new(flight),
            forwarding: Forwarding::new(params),
            head_writes_back: Default::default(),
            alu: constant(CoreUnit::Alu.code()),
            one: constant(1),
            bank_mask: constant(params.gpr.banks as u64 - 1),
            no_bank: constant(0),
            one_bank: constant_if(params.gpr.bank_kind.single_port(), 1),
            no_banks: constant(0),
            _flight: flight,
            _staying: flight - 1,
            _alu_stage: params.read_latency() - 1,
            _forwarding: on,
            _single_port: usize::from(params.gpr.bank_kind.single_port()),
        }
    }
}

impl<const RI: usize> Logic for Flight<RI> {
    // A single-value loop binds the stages (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.flight_valid.clock.next = self.clock.val();
        self.flight_write.clock.next = self.clock.val();
        self.flight_long.clock.next = self.clock.val();
        self.flight_dst.clock.next = self.clock.val();
        self.flight_writes.clock.next = self.clock.val();
        self.flight_unit.clock.next = self.clock.val();
        self.head_writes_back.next =
            (self.head_unit.val() == self.alu.val()) & (self.head_writes.val() == self.one.val());
        // Stage 0 issued last cycle; each stage moves on; the last is the write-back stage.
        self.flight_valid.d[0].next = self.issue.val() & !self.reset.val();
        self.flight_write.d[0].next =
            self.issue.val() & self.head_writes_back.val() & !self.reset.val();
        self.flight_long.d[0].next =
            self.issue.val() & (self.head_unit.val() != self.alu.val()) & !self.reset.val();
        self.flight_dst.d[0].next = self.head_dst.val();
        self.flight_writes.d[0].next = self.head_writes.val();
        self.flight_unit.d[0].next = self.head_unit.val();
        for f in 1..(self._alu_stage + 1) {
            self.flight_valid.d[f].next = self.flight_valid.q[f - 1].val() & !self.reset.val();
        }
        for f in 1..self._flight {
            self.flight_write.d[f].next = self.flight_write.q[f - 1].val() & !self.reset.val();
            self.flight_long.d[f].next = self.flight_long.q[f - 1].val() & !self.reset.val();
            self.flight_dst.d[f].next = self.flight_dst.q[f - 1].val();
            self.flight_writes.d[f].next = self.flight_writes.q[f - 1].val();
            self.flight_unit.d[f].next = self.flight_unit.q[f - 1].val();
        }
        for f in 0..self._staying {
            self.write[f].next = self.flight_write.q[f].val();
            self.dst[f].next = self.flight_dst.q[f].val();
        }
        for a in self._alu_stage..(self._alu_stage + 1) {
            self.alu_valid.next = self.flight_valid.q[a].val();
        }
        for nl in self._flight..(self._flight + 1) {
            self.retire_valid.next = self.flight_write.q[nl - 1].val();
            self.retire_reg.next = self.flight_dst.q[nl - 1].val();
            self.long.valid.next = self.flight_long.q[nl - 1].val();
            self.long.reg.next = self.flight_dst.q[nl - 1].val();
            self.long.writes.next = self.flight_writes.q[nl - 1].val();
            self.long.unit.next = self.flight_unit.q[nl - 1].val();
        }
        self.forwarding.clock.next = self.clock.val();
        for _f in 0..self._forwarding {
            self.forwarding.control[0].next = self.reset.val();
            self.forwarding.control[1].next = self.issue.val();
            self.forwarding.control[2].next = self.entering[0].val();
            self.forwarding.control[3].next = self.issue.val() & self.head_writes_back.val();
            self.forwarding.head_dst[0].next = self.head_dst.val();
            for k in 0..(CANDIDATES * SOURCES) {
                self.forwarding.src[k].next = self.src[k].val();
            }
            for s in 0..SOURCES {
                self.forward[s].next = self.forwarding.forward[s].val();
                self.distance[s].next = self.forwarding.distance[s].val();
            }
            for f in 0..self._staying {
                self.forwarding.flight_valid[f].next = self.flight_write.q[f].val();
                self.forwarding.flight_dst[f].next = self.flight_dst.q[f].val();
            }
        }
        self.banks_written.next = self.no_banks.val();
        for _single_port in 0..self._single_port {
            if self.retire_valid.val() {
                self.banks_written.next = self.banks_written.val()
                    | (self.one_bank[0].val() << (self.retire_reg.val() & self.bank_mask.val()));
            }
            if self.ext_valid.val() {
                self.banks_written.next = self.banks_written.val()
                    | (self.one_bank[0].val() << (self.ext_reg.val() & self.bank_mask.val()));
            }
        }
        // Port 0 wins a bank both write, as in the GPR's arbitration.
        self.ext_grant.next = self.ext_valid.val()
            & !(self.retire_valid.val()
                & (((self.retire_reg.val() ^ self.ext_reg.val()) & self.bank_mask.val())
                    == self.no_bank.val()));
    }
}
