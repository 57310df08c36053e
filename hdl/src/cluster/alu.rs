//! The small ALU of one cluster.

use rust_hdl::prelude::*;

use super::encoding::{op_code, DATA_BITS, OPS, OP_BITS};
use crate::signals::constants;

/// One cluster's ALU (combinational): the program format's operations on 32-bit values, all
/// wrapping. `mov` and `out` pass `a` through.
#[derive(LogicBlock)]
pub struct Alu {
    /// Operation code (`encoding::OPS`).
    pub op: Signal<In, Bits<OP_BITS>>,
    /// First operand.
    pub a: Signal<In, Bits<DATA_BITS>>,
    /// Second operand (unused by `mov` and `out`).
    pub b: Signal<In, Bits<DATA_BITS>>,
    /// The result.
    pub result: Signal<Out, Bits<DATA_BITS>>,
    /// The low 32 bits of `a * b`, from 16 x 16 partial products (docs/rust-hdl.md, limit 10).
    product: Signal<Local, Bits<DATA_BITS>>,
    /// The codes of `add sub mul and or xor`, in that order (`mov` and `out` need none).
    code: Vec<Constant<Bits<OP_BITS>>>,
}

impl Default for Alu {
    fn default() -> Self {
        Self {
            op: Signal::default(),
            a: Signal::default(),
            b: Signal::default(),
            result: Signal::default(),
            product: Signal::default(),
            code: constants(OPS[1..7].iter().map(|m| op_code(m).expect("listed"))),
        }
    }
}

impl Logic for Alu {
    #[hdl_gen]
    fn update(&mut self) {
        self.product.next = (self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(0))
            + (((self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(16))
                + (self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(0)))
                << 16);
        // mov and out pass `a`.
        self.result.next = self.a.val();
        if self.op.val() == self.code[0].val() {
            self.result.next = self.a.val() + self.b.val();
        }
        if self.op.val() == self.code[1].val() {
            self.result.next = self.a.val() - self.b.val();
        }
        if self.op.val() == self.code[2].val() {
            self.result.next = self.product.val();
        }
        if self.op.val() == self.code[3].val() {
            self.result.next = self.a.val() & self.b.val();
        }
        if self.op.val() == self.code[4].val() {
            self.result.next = self.a.val() | self.b.val();
        }
        if self.op.val() == self.code[5].val() {
            self.result.next = self.a.val() ^ self.b.val();
        }
    }
}
