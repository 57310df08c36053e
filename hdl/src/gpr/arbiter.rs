//! The banked GPR's arbitration: which requests each bank serves this cycle.

use rust_hdl::prelude::*;

use super::priority::LowestPortWins;
use crate::cells::regs::Registers;
use crate::params::GprParams;
use crate::signals::signals;

/// Per-bank arbitration of the GPR's ports (combinational; `docs/gpr.md`), in this order:
/// 1. writes: per bank, the lowest-numbered requesting write port wins;
/// 2. a read of a register that a granted write writes this cycle is not granted; with
///    single-port (`1rw`) banks, no read of a bank being written is;
/// 3. reads: per bank, the lowest-numbered remaining read port wins (the two lowest, in
///    slots 0 and 1, with `2r1w` banks).
///
/// Built `uncontended_reads`, it serves a requester that never reads one bank twice in a cycle
/// nor a register written in the same cycle (the core slice's scheduler): the clash compare of
/// step 2 and the priority of step 3 are not built, and every read is granted (with 1RW banks,
/// every read of a bank not being written, which is all the scheduler asks for).
///
/// With registered arbitration (`pipeline` 3 and 4) the request cycle decides step 1 and
/// decodes the reads: the write wins and grants, each read's bank, which write asks for each
/// read's register and the banks that serve no read are registered; step 2's clash (a match
/// whose write is granted) and step 3 run on them in the next cycle, so the grants answer the
/// previous cycle's requests. With a registered clash (`pipeline` 4) the clash cycle takes
/// step 2 and registers each read's remaining bank request (and the write wins and grants
/// again); step 3 runs in a third cycle, so the grants answer the requests of two cycles
/// before.
///
/// `RI` is the register-index width; register `n` is in bank `n mod banks`.
#[derive(LogicBlock)]
pub struct BankArbiter<const RI: usize> {
    /// Clock of the registered decodes (unused without them).
    pub clock: Signal<In, Clock>,
    /// Read request valid, one per read port.
    pub read_valid: Vec<Signal<In, Bit>>,
    /// Register index of each read request.
    pub read_reg: Vec<Signal<In, Bits<RI>>>,
    /// Write request valid, one per write port.
    pub write_valid: Vec<Signal<In, Bit>>,
    /// Register index of each write request.
    pub write_reg: Vec<Signal<In, Bits<RI>>>,
    /// Per read port: granted.
    pub read_grant: Vec<Signal<Out, Bit>>,
    /// Per write port: granted.
    pub write_grant: Vec<Signal<Out, Bit>>,
    /// `read_win[(p * banks + b) * reads_per_bank + s]`: read port `p` is granted slot `s` of
    /// bank `b` (one-hot per bank and slot).
    pub read_win: Vec<Signal<Out, Bit>>,
    /// `write_win[w * banks + b]`: write port `w` is granted bank `b` (one-hot per bank).
    pub write_win: Vec<Signal<Out, Bit>>,
    /// Step 1 and the read decodes as steps 2 and 3 take them, registered with registered
    /// arbitration (wires otherwise): the write wins (`w * banks + b`).
    write_wins: Registers<Bit>,
    /// The write grants.
    write_grants: Registers<Bit>,
    /// Per read port and bank, the read asks for the bank (`p * banks + b`).
    read_hits: Registers<Bit>,
    /// Per read port and write port (`p * write_ports + w`): the two ask for one register
    /// (step 2 takes the matches whose write is granted).
    same_register: Registers<Bit>,
    /// Per bank: it serves no read (step 2: a single-port bank being written).
    blocks: Registers<Bit>,
    /// Clash stage (`pipeline` 4, wires otherwise): the write wins again, as the grant cycle
    /// gives them.
    write_wins_late: Registers<Bit>,
    /// Clash stage: the write grants again.
    write_grants_late: Registers<Bit>,
    /// Clash stage: per read port and bank, the read asks for the bank after step 2
    /// (`p * banks + b`), the hits of step 3.
    contenders: Registers<Bit>,
    /// Per read port: it reads the register that a granted write writes (step 2; in the
    /// grant cycle, from the registered matches and write grants).
    read_clash: Vec<Signal<Local, Bit>>,
    /// Per bank: it serves no read this cycle (a single-port bank being written).
    read_blocked: Vec<Signal<Local, Bit>>,
    /// Per bank, the lowest-numbered write port wins.
    writes: LowestPortWins,
    /// Per bank, the lowest-numbered remaining read port wins.
    reads: LowestPortWins,
    /// `banks - 1`: masks a register index down to its bank number.
    bank_mask: Constant<Bits<RI>>,
    _banks: usize,
    _read_ports: usize,
    _write_ports: usize,
    _reads_per_bank: usize,
    /// Whether a read may clash with a write to its register (two-port banks that contend);
    /// a constant, so that synthesis drops the compares when not.
    clash: Constant<Bit>,
    /// 1 with single-port banks, else 0.
    _single_port: usize,
}

impl<const RI: usize> BankArbiter<RI> {
    /// The arbitration for `params` (`RI` must be its register-index width).
    pub fn new(params: &GprParams) -> Self {
        Self::build(params, true)
    }

    /// The arbitration for `params` when reads never contend (see the type).
    pub fn uncontended_reads(params: &GprParams) -> Self {
        Self::build(params, false)
    }

    fn build(params: &GprParams, contended: bool) -> Self {
        assert_eq!(RI, params.register_bits());
        let (b, p, w) = (params.banks, params.read_ports, params.write_ports);
        let (kind, slots) = (params.bank_kind, params.bank_kind.reads_per_bank());
        assert!(
            contended || slots == 1,
            "uncontended reads need one read slot per bank"
        );
        let (registered, late) = (params.registered_arbitration(), params.registered_clash());
        Self {
            clock: Signal::default(),
            write_wins: Registers::stage(w * b, registered),
            write_grants: Registers::stage(w, registered),
            read_hits: Registers::stage(p * b, registered),
            same_register: Registers::stage(p * w, registered),
            blocks: Registers::stage(b, registered),
            write_wins_late: Registers::stage(w * b, late),
            write_grants_late: Registers::stage(w, late),
            contenders: Registers::stage(p * b, late),
            read_valid: signals(p),
            read_reg: signals(p),
            write_valid: signals(w),
            write_reg: signals(w),
            read_grant: signals(p),
            write_grant: signals(w),
            read_win: signals(p * b * slots),
            write_win: signals(w * b),
            read_clash: signals(p),
            read_blocked: signals(b),
            writes: LowestPortWins::new(w, b),
            reads: match contended {
                true => LowestPortWins::with_capacity(p, b, slots),
                false => LowestPortWins::uncontended(p, b),
            },
            bank_mask: Constant::new(((b - 1) as u64).into()),
            _banks: b,
            _read_ports: p,
            _write_ports: w,
            _reads_per_bank: slots,
            clash: Constant::new(contended && !kind.single_port()),
            _single_port: usize::from(kind.single_port()),
        }
    }
}

impl<const RI: usize> Logic for BankArbiter<RI> {
    // Loops over a single value (`nb`, `ns`) bind the bank count and the read slots to loop
    // variables: rust-hdl evaluates index arithmetic over loop variables only
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        self.write_wins.clock.next = self.clock.val();
        self.write_grants.clock.next = self.clock.val();
        self.read_hits.clock.next = self.clock.val();
        self.same_register.clock.next = self.clock.val();
        self.blocks.clock.next = self.clock.val();
        self.write_wins_late.clock.next = self.clock.val();
        self.write_grants_late.clock.next = self.clock.val();
        self.contenders.clock.next = self.clock.val();
        for nb in self._banks..(self._banks + 1) {
            for ns in self._reads_per_bank..(self._reads_per_bank + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    // 1. Writes: per bank, the lowest-numbered write port wins.
                    for w in 0..self._write_ports {
                        for b in 0..self._banks {
                            self.writes.hit[w * nb + b].next = self.write_valid[w].val()
                                & ((self.write_reg[w].val() & self.bank_mask.val()) == b.to_bits());
                            self.write_wins.d[w * nb + b].next = self.writes.win[w * nb + b].val();
                            self.write_wins_late.d[w * nb + b].next =
                                self.write_wins.q[w * nb + b].val();
                            self.write_win[w * nb + b].next =
                                self.write_wins_late.q[w * nb + b].val();
                        }
                        self.write_grants.d[w].next = self.writes.grant[w].val();
                        self.write_grants_late.d[w].next = self.write_grants.q[w].val();
                        self.write_grant[w].next = self.write_grants_late.q[w].val();
                    }
                    // 2. Reads clashing with a granted write drop out, and so do reads of a
                    //    single-port bank being written.
                    for b in 0..self._banks {
                        self.read_blocked[b].next = false;
                        for _single_port in 0..self._single_port {
                            for w in 0..self._write_ports {
                                self.read_blocked[b].next =
                                    self.read_blocked[b].val() | self.writes.win[w * nb + b].val();
                            }
                        }
                        self.blocks.d[b].next = self.read_blocked[b].val();
                    }
                    for p in 0..self._read_ports {
                        self.read_clash[p].next = false;
                        for w in 0..self._write_ports {
                            self.same_register.d[p * nw + w].next = self.clash.val()
                                & (self.write_reg[w].val() == self.read_reg[p].val());
                            self.read_clash[p].next = self.read_clash[p].val()
                                | (self.same_register.q[p * nw + w].val()
                                    & self.write_grants.q[w].val());
                        }
                        // The read's decode: the bank it asks for.
                        for b in 0..self._banks {
                            self.read_hits.d[p * nb + b].next = self.read_valid[p].val()
                                & ((self.read_reg[p].val() & self.bank_mask.val()) == b.to_bits());
                        }
                        // 3. Reads: per bank, the lowest-numbered remaining read ports win.
                        for b in 0..self._banks {
                            self.contenders.d[p * nb + b].next = self.read_hits.q[p * nb + b].val()
                                & !self.read_clash[p].val()
                                & !self.blocks.q[b].val();
                            self.reads.hit[p * nb + b].next = self.contenders.q[p * nb + b].val();
                            for s in 0..self._reads_per_bank {
                                self.read_win[(p * nb + b) * ns + s].next =
                                    self.reads.win[(p * nb + b) * ns + s].val();
                            }
                        }
                        self.read_grant[p].next = self.reads.grant[p].val();
                    }
                }
            }
        }
    }
}
