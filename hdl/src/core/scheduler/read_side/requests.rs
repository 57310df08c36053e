//! The read requests: the read scheduler's grants, candidate by candidate, gathered onto the
//! GPR's read ports, through the optional request stage.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::core::widths::{BankMask, CaptureCode, EntryIndex, PortNumber, ReadCount};
use crate::params::{CaptureKind, CoreParams};
use crate::signals::{constant, constants, signals};

/// The read requests (`docs/core.md`, "Timing and rules": the request stage). Each candidate read of the read
/// scheduler comes with its grant, its read port, its register and where its data goes; each
/// read port takes the granted candidate that names it (the scheduler gives a port to one
/// candidate at most). With the request stage (`request_stage`) the candidates' decisions and
/// the banks read are registered first, so the ports show a cycle's decisions in the next
/// cycle and the port mux is not on the scheduler's path; without it, they show them in the
/// same cycle. `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct ReadRequests<const RI: usize> {
    /// Clock (the request stage's; unused without it).
    pub clock: Signal<In, Clock>,
    /// Per candidate: granted a read.
    pub grant: Vec<Signal<In, Bit>>,
    /// Per candidate: its read port.
    pub port: Vec<Signal<In, PortNumber>>,
    /// Per candidate: its register.
    pub reg_index: Vec<Signal<In, Bits<RI>>>,
    /// Per candidate: where its data goes (`CaptureKind` code).
    pub kind: Vec<Signal<In, CaptureCode>>,
    /// Per candidate: the operand latch (source number) or queue entry.
    pub index: Vec<Signal<In, EntryIndex>>,
    /// Banks read, and banks read twice (2R1W banks), one bit per bank.
    pub banks: Vec<Signal<In, BankMask>>,
    /// Per read port: a read.
    pub read_valid: Vec<Signal<Out, Bit>>,
    /// Per read port: the register read.
    pub read_reg: Vec<Signal<Out, Bits<RI>>>,
    /// Per read port: where its data goes.
    pub read_kind: Vec<Signal<Out, CaptureCode>>,
    /// Per read port: the operand latch or queue entry it goes to.
    pub read_index: Vec<Signal<Out, EntryIndex>>,
    /// Reads: the highest port used, plus one.
    pub reads: Signal<Out, ReadCount>,
    /// Banks read.
    pub banks_read: Signal<Out, BankMask>,
    /// Banks read twice.
    pub banks_read_twice: Signal<Out, BankMask>,
    /// The request stage, one field each.
    grant_r: Registers<Bit>,
    port_r: Registers<PortNumber>,
    reg_r: Registers<Bits<RI>>,
    kind_r: Registers<CaptureCode>,
    index_r: Registers<EntryIndex>,
    banks_r: Registers<BankMask>,
    /// Per read port and candidate: the candidate's read is on the port.
    on_port: Vec<Signal<Local, Bit>>,
    nothing: Constant<CaptureCode>,
    no_reg: Constant<Bits<RI>>,
    no_index: Constant<EntryIndex>,
    /// Port numbers, and `read_count[p]` = p + 1 (`read_count[0]` no reads).
    port_number: Vec<Constant<PortNumber>>,
    read_count: Vec<Constant<ReadCount>>,
    _candidates: usize,
    _read_ports: usize,
}

impl<const RI: usize> ReadRequests<RI> {
    /// The read requests of the core described by `params`, for `candidates` candidates.
    pub fn new(params: &CoreParams, candidates: usize) -> Self {
        let p = params.gpr.read_ports;
        let on = params.request_stage;
        Self {
            clock: Default::default(),
            grant: signals(candidates),
            port: signals(candidates),
            reg_index: signals(candidates),
            kind: signals(candidates),
            index: signals(candidates),
            banks: signals(2),
            read_valid: signals(p),
            read_reg: signals(p),
            read_kind: signals(p),
            read_index: signals(p),
            reads: Default::default(),
            banks_read: Default::default(),
            banks_read_twice: Default::default(),
            grant_r: Registers::stage(candidates, on),
            port_r: Registers::stage(candidates, on),
            reg_r: Registers::stage(candidates, on),
            kind_r: Registers::stage(candidates, on),
            index_r: Registers::stage(candidates, on),
            banks_r: Registers::stage(2, on),
            on_port: signals(p * candidates),
            nothing: constant(CaptureKind::Nowhere.code()),
            no_reg: constant(0),
            no_index: constant(0),
            port_number: constants(0..p as u64),
            read_count: constants(0..=p as u64),
            _candidates: candidates,
            _read_ports: p,
        }
    }
}

impl<const RI: usize> Logic for ReadRequests<RI> {
    // A single-value loop binds the candidate count (nc) for index arithmetic. Each port's
    // values are an OR over the candidates on it, at most one.
    #[hdl_gen]
    fn update(&mut self) {
        self.grant_r.clock.next = self.clock.val();
        self.port_r.clock.next = self.clock.val();
        self.reg_r.clock.next = self.clock.val();
        self.kind_r.clock.next = self.clock.val();
        self.index_r.clock.next = self.clock.val();
        self.banks_r.clock.next = self.clock.val();
        for c in 0..self._candidates {
            self.grant_r.d[c].next = self.grant[c].val();
            self.port_r.d[c].next = self.port[c].val();
            self.reg_r.d[c].next = self.reg_index[c].val();
            self.kind_r.d[c].next = self.kind[c].val();
            self.index_r.d[c].next = self.index[c].val();
        }
        self.banks_r.d[0].next = self.banks[0].val();
        self.banks_r.d[1].next = self.banks[1].val();
        self.banks_read.next = self.banks_r.q[0].val();
        self.banks_read_twice.next = self.banks_r.q[1].val();
        self.reads.next = self.read_count[0].val();
        for nc in self._candidates..(self._candidates + 1) {
            for p in 0..self._read_ports {
                self.read_valid[p].next = false;
                self.read_reg[p].next = self.no_reg.val();
                self.read_kind[p].next = self.nothing.val();
                self.read_index[p].next = self.no_index.val();
                for c in 0..self._candidates {
                    self.on_port[p * nc + c].next = self.grant_r.q[c].val()
                        & (self.port_r.q[c].val() == self.port_number[p].val());
                    if self.on_port[p * nc + c].val() {
                        self.read_valid[p].next = true;
                        self.read_reg[p].next = self.read_reg[p].val() | self.reg_r.q[c].val();
                        self.read_kind[p].next = self.read_kind[p].val() | self.kind_r.q[c].val();
                        self.read_index[p].next =
                            self.read_index[p].val() | self.index_r.q[c].val();
                    }
                }
                // Ports are used lowest first.
                if self.read_valid[p].val() {
                    self.reads.next = self.read_count[p + 1].val();
                }
            }
        }
    }
}
