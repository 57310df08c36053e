//! The register-select stage: per lane, `rs` or the fill value.

use rust_hdl::prelude::*;

use crate::signals;

use crate::params::FillCode;

/// Per lane, chooses between the shifted register `rs` and the fill value: the fill register
/// `rf`, or the constant 0, 1 or all ones (`fill`, a `FillCode`). Combinational.
#[derive(LogicBlock)]
pub struct RegisterSelect<const E: usize> {
    /// The shifted register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// Per lane: give the fill value instead of `rs`.
    pub take_fill: Vec<Signal<In, Bit>>,
    /// Per lane: what the fill value is (`FillCode`), so that groups of lanes can read copies.
    pub fill: Vec<Signal<In, Bits<2>>>,
    /// The selected element of every lane.
    pub out: Vec<Signal<Out, Bits<E>>>,
    zero: Constant<Bits<E>>,
    one: Constant<Bits<E>>,
    ones: Constant<Bits<E>>,
    fill_register: Constant<Bits<2>>,
    fill_zero: Constant<Bits<2>>,
    fill_one: Constant<Bits<2>>,
    _lanes: usize,
}

impl<const E: usize> RegisterSelect<E> {
    /// The stage for `lanes` lanes.
    pub fn new(lanes: usize) -> Self {
        let code = |c: FillCode| Constant::new((c as u64).into());
        Self {
            rs: signals(lanes),
            rf: signals(lanes),
            take_fill: signals(lanes),
            fill: signals(lanes),
            out: signals(lanes),
            zero: Constant::new(Bits::default()),
            one: Constant::new(1u64.into()),
            ones: Constant::new(!Bits::<E>::default()),
            fill_register: code(FillCode::Register),
            fill_zero: code(FillCode::Zero),
            fill_one: code(FillCode::One),
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for RegisterSelect<E> {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..self._lanes {
            self.out[t].next = self.rs[t].val();
            if self.take_fill[t].val() {
                if self.fill[t].val() == self.fill_register.val() {
                    self.out[t].next = self.rf[t].val();
                } else if self.fill[t].val() == self.fill_zero.val() {
                    self.out[t].next = self.zero.val();
                } else if self.fill[t].val() == self.fill_one.val() {
                    self.out[t].next = self.one.val();
                } else {
                    self.out[t].next = self.ones.val();
                }
            }
        }
    }
}
