//! The bank map as wiring: a register index rewritten so that its bank is in its low bits.

use rust_hdl::prelude::*;

use crate::params::{BankMap, GprParams};
use crate::signals::{constant, constant_if};

/// A register index rewritten by the bank map (combinational): with `B = 2^b` banks, the
/// index whose low `b` bits are the register's bank under the map and whose other bits are
/// its row, so that a GPR built for the `mod` map serves any map unchanged behind it. Built
/// `inverse`, it gives the register back from such an index. `row` moves a vec4's component
/// bits above the bank bits (`[hi | mid | lo]` to `[hi | lo | mid]`); `xor` folds the row's low
/// bits into the bank (its own inverse). The `mod` map is the identity and is never built.
/// `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct RegisterMap<const RI: usize> {
    /// The register index (the mapped index when built inverse).
    pub register: Signal<In, Bits<RI>>,
    /// The mapped index (the register when built inverse).
    pub mapped: Signal<Out, Bits<RI>>,
    /// `B - 1` and `b` (a shift amount).
    bank_mask: Constant<Bits<RI>>,
    bank_bits: Constant<Bits<RI>>,
    /// With the row map (none without): the bits above a vec4's components and the bank
    /// (`[hi]`), `3` (a vec4's component bits) and `2` (a shift amount).
    high: Vec<Constant<Bits<RI>>>,
    component_mask: Vec<Constant<Bits<RI>>>,
    two: Vec<Constant<Bits<RI>>>,
    /// 1 for the row map one way, the other way, and the xor map; else 0.
    _row: usize,
    _row_inverse: usize,
    _xor: usize,
}

impl<const RI: usize> RegisterMap<RI> {
    /// The map of `params`' banks, one way or the other (`inverse`).
    pub fn new(params: &GprParams, inverse: bool) -> Self {
        let b = params.bank_bits();
        let all = (1u64 << RI) - 1;
        let map = params.bank_map;
        let row = map == BankMap::Row;
        Self {
            register: Default::default(),
            mapped: Default::default(),
            bank_mask: constant((1u64 << b) - 1),
            bank_bits: constant(b as u64),
            high: constant_if(row, all & !((1u64 << (b + 2)) - 1)),
            component_mask: constant_if(row, 3),
            two: constant_if(row, 2),
            _row: usize::from(row && !inverse),
            _row_inverse: usize::from(row && inverse),
            _xor: usize::from(map == BankMap::Xor),
        }
    }
}

impl<const RI: usize> Logic for RegisterMap<RI> {
    #[hdl_gen]
    fn update(&mut self) {
        self.mapped.next = self.register.val();
        for _r in 0..self._row {
            self.mapped.next = (self.register.val() & self.high[0].val())
                | ((self.register.val() & self.component_mask[0].val()) << self.bank_bits.val())
                | ((self.register.val() >> self.two[0].val()) & self.bank_mask.val());
        }
        for _r in 0..self._row_inverse {
            self.mapped.next = (self.register.val() & self.high[0].val())
                | ((self.register.val() & self.bank_mask.val()) << self.two[0].val())
                | ((self.register.val() >> self.bank_bits.val()) & self.component_mask[0].val());
        }
        for _x in 0..self._xor {
            self.mapped.next = self.register.val()
                ^ ((self.register.val() >> self.bank_bits.val()) & self.bank_mask.val());
        }
    }
}
