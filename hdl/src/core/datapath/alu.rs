//! The core slice's integer ALU and its pipeline stages.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::core::widths::{OpCode, Word};
use crate::params::{CoreOp, CoreParams, SOURCES};
use crate::signals::{constant, signals};

/// The ALU: `mov`, `add`, `sub`, `mul`, `mad` on every lane, 32-bit wrapping, and 0 for
/// `nop`, with `alu_latency` stages from `operand` to `result` (`docs/core.md`, "RTL"):
/// - 1: the result of the operands as they arrive is registered;
/// - 2: the operands and the op are registered first (the operand stage), then the result;
/// - 3 or more: after the operand stage, the multiply's three partial products (each straight
///   from its multiplier), the `mov`, `add`, `sub` or `nop` result and `mad`'s addend are
///   registered (the product stage), then their sum; further stages delay the result.
///
/// rust-hdl multiplies only 16-bit values (`Bits<16> * Bits<16>`), so `a * b` is built from
/// the low 16 x 16 product and the low halves of the two cross products.
#[derive(LogicBlock)]
pub struct CoreAlu {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The op (`CoreOp`) of the operands presented.
    pub op: Signal<In, OpCode>,
    /// The operands a, b, c, source-major (`s * lanes + l`).
    pub operand: Vec<Signal<In, Word>>,
    /// The result leaving the last stage, one element per lane.
    pub result: Vec<Signal<Out, Word>>,
    /// The operand stage (registers with `alu_latency` 2 or more): operands and op.
    held: Registers<Word>,
    held_op: Registers<OpCode>,
    /// With the product stage, the multipliers' own register of the held a and b (lane-major,
    /// `2 * l + s`), marked keep. Synthesis merges the operand stage's a and b into it, so it
    /// costs no flip-flop; placed and routed, the slice is faster with it on every seed
    /// (`docs/pnr.md`, "Core").
    held_factors: Registers<Word>,
    /// The product stage (registers with `alu_latency` 3 or more), per lane: the low 16 x 16
    /// product, the two cross products shifted into the high half, the result of a `mov`,
    /// `add`, `sub` or `nop`, and the addend (c for `mad`, else zero); and whether the op
    /// multiplies.
    low: Registers<Word>,
    crossed_ab: Registers<Word>,
    crossed_ba: Registers<Word>,
    plain: Registers<Word>,
    addend: Registers<Word>,
    multiplies: Registers<Bit>,
    /// The result stages, stage-major.
    pipe: Registers<Word>,
    a_low: Signal<Local, Bits<16>>,
    a_high: Signal<Local, Bits<16>>,
    b_low: Signal<Local, Bits<16>>,
    b_high: Signal<Local, Bits<16>>,
    op_add: Constant<OpCode>,
    op_sub: Constant<OpCode>,
    op_mul: Constant<OpCode>,
    op_mad: Constant<OpCode>,
    op_nop: Constant<OpCode>,
    zero: Constant<Word>,
    _lanes: usize,
    _stages: usize,
    /// 1 with the product stage, else 0.
    _products: usize,
}

impl CoreAlu {
    /// The ALU of `params`' lanes with `params.alu_latency` stages.
    pub fn new(params: &CoreParams) -> Self {
        let l = params.gpr.lanes;
        let products = params.alu_latency >= 3;
        Self {
            clock: Default::default(),
            op: Default::default(),
            operand: signals(SOURCES * l),
            result: signals(l),
            held: Registers::stage(SOURCES * l, params.alu_latency >= 2),
            held_op: Registers::stage(1, params.alu_latency >= 2),
            held_factors: Registers::copies(2 * l * usize::from(products), true),
            low: Registers::stage(l, products),
            crossed_ab: Registers::stage(l, products),
            crossed_ba: Registers::stage(l, products),
            plain: Registers::stage(l, products),
            addend: Registers::stage(l, products),
            multiplies: Registers::stage(1, products),
            pipe: Registers::new(Self::result_stages(params) * l),
            a_low: Default::default(),
            a_high: Default::default(),
            b_low: Default::default(),
            b_high: Default::default(),
            op_add: constant(CoreOp::Add.code()),
            op_sub: constant(CoreOp::Sub.code()),
            op_mul: constant(CoreOp::Mul.code()),
            op_mad: constant(CoreOp::Mad.code()),
            op_nop: constant(CoreOp::Nop.code()),
            zero: constant(0),
            _lanes: l,
            _stages: Self::result_stages(params),
            _products: usize::from(products),
        }
    }

    /// The registered result stages: `alu_latency` less the operand and product stages.
    fn result_stages(params: &CoreParams) -> usize {
        params.alu_latency.saturating_sub(2).max(1)
    }
}

impl Logic for CoreAlu {
    // Single-value loops bind lanes (nl) and stages (ns).
    #[hdl_gen]
    fn update(&mut self) {
        self.held.clock.next = self.clock.val();
        self.held_op.clock.next = self.clock.val();
        self.held_factors.clock.next = self.clock.val();
        self.low.clock.next = self.clock.val();
        self.crossed_ab.clock.next = self.clock.val();
        self.crossed_ba.clock.next = self.clock.val();
        self.plain.clock.next = self.clock.val();
        self.addend.clock.next = self.clock.val();
        self.multiplies.clock.next = self.clock.val();
        self.pipe.clock.next = self.clock.val();
        self.held_op.d[0].next = self.op.val();
        self.multiplies.d[0].next = (self.held_op.q[0].val() == self.op_mul.val())
            | (self.held_op.q[0].val() == self.op_mad.val());
        for nl in self._lanes..(self._lanes + 1) {
            for ns in self._stages..(self._stages + 1) {
                for l in 0..self._lanes {
                    for s in 0..SOURCES {
                        self.held.d[s * nl + l].next = self.operand[s * nl + l].val();
                    }
                    // The product stage's values; the factors from their own copy.
                    self.a_low.next = self.held.q[l].val().get_bits::<16>(0);
                    self.a_high.next = self.held.q[l].val().get_bits::<16>(16);
                    self.b_low.next = self.held.q[nl + l].val().get_bits::<16>(0);
                    self.b_high.next = self.held.q[nl + l].val().get_bits::<16>(16);
                    for _p in 0..self._products {
                        self.held_factors.d[2 * l].next = self.operand[l].val();
                        self.held_factors.d[2 * l + 1].next = self.operand[nl + l].val();
                        self.a_low.next = self.held_factors.q[2 * l].val().get_bits::<16>(0);
                        self.a_high.next = self.held_factors.q[2 * l].val().get_bits::<16>(16);
                        self.b_low.next = self.held_factors.q[2 * l + 1].val().get_bits::<16>(0);
                        self.b_high.next = self.held_factors.q[2 * l + 1].val().get_bits::<16>(16);
                    }
                    self.low.d[l].next = self.a_low.val() * self.b_low.val();
                    self.crossed_ab.d[l].next = (self.a_low.val() * self.b_high.val()) << 16;
                    self.crossed_ba.d[l].next = (self.a_high.val() * self.b_low.val()) << 16;
                    self.plain.d[l].next = self.held.q[l].val();
                    if self.held_op.q[0].val() == self.op_add.val() {
                        self.plain.d[l].next = self.held.q[l].val() + self.held.q[nl + l].val();
                    }
                    if self.held_op.q[0].val() == self.op_sub.val() {
                        self.plain.d[l].next = self.held.q[l].val() - self.held.q[nl + l].val();
                    }
                    if self.held_op.q[0].val() == self.op_nop.val() {
                        self.plain.d[l].next = self.zero.val();
                    }
                    self.addend.d[l].next = self.zero.val();
                    if self.held_op.q[0].val() == self.op_mad.val() {
                        self.addend.d[l].next = self.held.q[2 * nl + l].val();
                    }
                    // The result stages.
                    self.pipe.d[l].next = self.plain.q[l].val();
                    if self.multiplies.q[0].val() {
                        self.pipe.d[l].next = self.low.q[l].val()
                            + self.crossed_ab.q[l].val()
                            + self.crossed_ba.q[l].val()
                            + self.addend.q[l].val();
                    }
                    for k in 1..self._stages {
                        self.pipe.d[k * nl + l].next = self.pipe.q[(k - 1) * nl + l].val();
                    }
                    self.result[l].next = self.pipe.q[(ns - 1) * nl + l].val();
                }
            }
        }
    }
}
