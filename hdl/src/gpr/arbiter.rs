//! The banked GPR's arbitration: which requests each bank serves this cycle.

use rust_hdl::prelude::*;

use super::priority::LowestPortWins;
use crate::params::GprParams;
use crate::signals;

/// Per-bank arbitration of the GPR's ports (combinational; `docs/gpr.md`), in this order:
/// 1. writes: per bank, the lowest-numbered requesting write port wins;
/// 2. a read of a register that a granted write writes this cycle is not granted;
/// 3. reads: per bank, the lowest-numbered remaining read port wins.
///
/// Built `uncontended_reads`, it serves a requester that never reads one bank twice in a cycle
/// nor a register written in the same cycle (the core slice's scheduler): steps 2 and 3 are
/// not built, and every read is granted.
///
/// `RI` is the register-index width; register `n` is in bank `n mod banks`.
#[derive(LogicBlock)]
pub struct BankArbiter<const RI: usize> {
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
    /// `read_win[p * banks + b]`: read port `p` is granted bank `b` (one-hot per bank).
    pub read_win: Vec<Signal<Out, Bit>>,
    /// `write_win[w * banks + b]`: write port `w` is granted bank `b` (one-hot per bank).
    pub write_win: Vec<Signal<Out, Bit>>,
    /// Per read port: it reads the register that a granted write writes.
    read_clash: Vec<Signal<Local, Bit>>,
    /// Per bank, the lowest-numbered write port wins.
    writes: LowestPortWins,
    /// Per bank, the lowest-numbered remaining read port wins.
    reads: LowestPortWins,
    /// `banks - 1`: masks a register index down to its bank number.
    bank_mask: Constant<Bits<RI>>,
    _banks: usize,
    _read_ports: usize,
    _write_ports: usize,
    /// 1 when reads may contend, 0 when built `uncontended_reads`.
    _contended: usize,
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
        Self {
            read_valid: signals(p),
            read_reg: signals(p),
            write_valid: signals(w),
            write_reg: signals(w),
            read_grant: signals(p),
            write_grant: signals(w),
            read_win: signals(p * b),
            write_win: signals(w * b),
            read_clash: signals(p),
            writes: LowestPortWins::new(w, b),
            reads: match contended {
                true => LowestPortWins::new(p, b),
                false => LowestPortWins::uncontended(p, b),
            },
            bank_mask: Constant::new(((b - 1) as u64).into()),
            _banks: b,
            _read_ports: p,
            _write_ports: w,
            _contended: usize::from(contended),
        }
    }
}

impl<const RI: usize> Logic for BankArbiter<RI> {
    // A loop over a single value (`nb`) binds the bank count to a loop variable: rust-hdl
    // evaluates index arithmetic over loop variables only (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nb in self._banks..(self._banks + 1) {
            // 1. Writes: per bank, the lowest-numbered write port wins.
            for w in 0..self._write_ports {
                for b in 0..self._banks {
                    self.writes.hit[w * nb + b].next = self.write_valid[w].val()
                        & ((self.write_reg[w].val() & self.bank_mask.val()) == b.to_bits());
                    self.write_win[w * nb + b].next = self.writes.win[w * nb + b].val();
                }
                self.write_grant[w].next = self.writes.grant[w].val();
            }
            // 2. Reads clashing with a granted write drop out.
            for p in 0..self._read_ports {
                self.read_clash[p].next = false;
                for _contended in 0..self._contended {
                    for w in 0..self._write_ports {
                        self.read_clash[p].next = self.read_clash[p].val()
                            | (self.writes.grant[w].val()
                                & (self.write_reg[w].val() == self.read_reg[p].val()));
                    }
                }
                for b in 0..self._banks {
                    // 3. Reads: per bank, the lowest-numbered remaining read port wins.
                    self.reads.hit[p * nb + b].next = self.read_valid[p].val()
                        & !self.read_clash[p].val()
                        & ((self.read_reg[p].val() & self.bank_mask.val()) == b.to_bits());
                    self.read_win[p * nb + b].next = self.reads.win[p * nb + b].val();
                }
                self.read_grant[p].next = self.reads.grant[p].val();
            }
        }
    }
}
