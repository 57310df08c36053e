//! The core's instruction decoder: which of an offered instruction's reads repeat an earlier
//! read, and which conflict with an earlier one for a bank.

use rust_hdl::prelude::*;

use crate::core::widths::AliasCode;
use crate::params::{CoreParams, SOURCES};
use crate::signals::{constant, signals};

/// Alias codes: a source that names the same register as an earlier one is read once.
pub mod alias {
    /// A register of its own.
    pub const NONE: u64 = 0;
    /// The same register as source 0.
    pub const SOURCE_0: u64 = 1;
    /// The same register as source 1.
    pub const SOURCE_1: u64 = 2;
}

/// The instruction decoder (combinational; `docs/core.md`). Only sources that are GPR reads
/// count: a source naming the same register as an earlier read is its alias (read once); a
/// read that is no alias and shares a bank with an earlier, different read is in conflict:
/// the conflict detector's SC bit, per source. An immediate is never an alias and never
/// conflicts. `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct InstructionDecoder<const RI: usize> {
    /// Per source: it is a GPR read (not an immediate, not an unused slot).
    pub read: Vec<Signal<In, Bit>>,
    /// Source registers 0..2.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per source: its alias code (`alias`).
    pub alias_code: Vec<Signal<Out, AliasCode>>,
    /// Per source: it conflicts with an earlier source for a bank.
    pub conflict: Vec<Signal<Out, Bit>>,
    alias_none: Constant<AliasCode>,
    alias_0: Constant<AliasCode>,
    alias_1: Constant<AliasCode>,
    /// `banks - 1`: masks a register index down to its bank.
    bank_mask: Constant<Bits<RI>>,
}

impl<const RI: usize> InstructionDecoder<RI> {
    /// The decoder for `params`' banks.
    pub fn new(params: &CoreParams) -> Self {
        Self {
            read: signals(SOURCES),
            src: signals(SOURCES),
            alias_code: signals(SOURCES),
            conflict: signals(SOURCES),
            alias_none: constant(alias::NONE),
            alias_0: constant(alias::SOURCE_0),
            alias_1: constant(alias::SOURCE_1),
            bank_mask: constant((params.gpr.banks - 1) as u64),
        }
    }
}

impl<const RI: usize> Logic for InstructionDecoder<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.alias_code[0].next = self.alias_none.val();
        self.alias_code[1].next = self.alias_none.val();
        if self.read[1].val() & self.read[0].val() & (self.src[1].val() == self.src[0].val()) {
            self.alias_code[1].next = self.alias_0.val();
        }
        self.alias_code[2].next = self.alias_none.val();
        if self.read[2].val() & self.read[1].val() & (self.src[2].val() == self.src[1].val()) {
            self.alias_code[2].next = self.alias_1.val();
        }
        if self.read[2].val() & self.read[0].val() & (self.src[2].val() == self.src[0].val()) {
            self.alias_code[2].next = self.alias_0.val();
        }
        self.conflict[0].next = false;
        self.conflict[1].next = self.read[1].val()
            & self.read[0].val()
            & (self.alias_code[1].val() == self.alias_none.val())
            & ((self.src[1].val() & self.bank_mask.val())
                == (self.src[0].val() & self.bank_mask.val()));
        self.conflict[2].next = self.read[2].val()
            & (self.alias_code[2].val() == self.alias_none.val())
            & ((self.read[0].val()
                & ((self.src[2].val() & self.bank_mask.val())
                    == (self.src[0].val() & self.bank_mask.val())))
                | (self.read[1].val()
                    & (self.alias_code[1].val() == self.alias_none.val())
                    & ((self.src[2].val() & self.bank_mask.val())
                        == (self.src[1].val() & self.bank_mask.val()))));
    }
}
