//! The register-select stage: per lane, `rs`, `rf` or a constant.

use rust_hdl::prelude::*;

use crate::signals;

/// Per lane, chooses between the shifted register `rs`, the fill register `rf` and a constant,
/// as [`super::RouteDecoder`] decoded it (combinational): each bit is a function of four
/// inputs (`constant`, its choice bit, `rs`, `rf`), one lookup table.
#[derive(LogicBlock)]
pub struct RegisterSelect<const E: usize> {
    /// The shifted register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// Per lane: give a constant.
    pub constant: Vec<Signal<In, Bit>>,
    /// Per lane, bits 1 and up: the constant's bit, else `rf` (set) or `rs` (clear).
    pub upper: Vec<Signal<In, Bit>>,
    /// Per lane, bit 0: the constant's bit, else `rf` (set) or `rs` (clear).
    pub lowest: Vec<Signal<In, Bit>>,
    /// The selected element of every lane.
    pub out: Vec<Signal<Out, Bits<E>>>,
    /// Per lane, every bit's choice: `upper` in bits 1 and up, `lowest` in bit 0.
    choice: Vec<Signal<Local, Bits<E>>>,
    zero: Constant<Bits<E>>,
    one: Constant<Bits<E>>,
    /// Bits 1 and up.
    upper_bits: Constant<Bits<E>>,
    _lanes: usize,
}

impl<const E: usize> RegisterSelect<E> {
    /// The stage for `lanes` lanes.
    pub fn new(lanes: usize) -> Self {
        Self {
            rs: signals(lanes),
            rf: signals(lanes),
            constant: signals(lanes),
            upper: signals(lanes),
            lowest: signals(lanes),
            out: signals(lanes),
            choice: signals(lanes),
            zero: Constant::new(Bits::default()),
            one: Constant::new(1u64.into()),
            upper_bits: Constant::new(!Bits::<E>::from(1u64)),
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for RegisterSelect<E> {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..self._lanes {
            self.choice[t].next = self.zero.val();
            if self.upper[t].val() {
                self.choice[t].next = self.upper_bits.val();
            }
            if self.lowest[t].val() {
                self.choice[t].next = self.choice[t].val() | self.one.val();
            }
            self.out[t].next = (self.choice[t].val() & self.rf[t].val())
                | (!self.choice[t].val() & self.rs[t].val());
            if self.constant[t].val() {
                self.out[t].next = self.choice[t].val();
            }
        }
    }
}
