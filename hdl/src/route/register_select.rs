//! The register-select stage: per lane, `rs`, `rf` or a constant.

use rust_hdl::prelude::*;

use crate::signals::signals;

/// Per lane, chooses between the shifted register `rs`, the fill register `rf` and a constant,
/// as [`super::RouteDecoder`] decoded it (combinational): each bit is a function of four
/// inputs (`constant`, its choice bit, `rs`, `rf`), one lookup table.
///
/// `constant` and `upper` may come in copies, each driving an equal share of every lane's bits
/// (copy `m` the `m`-th share, from bit 0 up), so that no flag fans out to a whole lane.
#[derive(LogicBlock)]
pub struct RegisterSelect<const E: usize> {
    /// The shifted register, one element per lane.
    pub rs: Vec<Signal<In, Bits<E>>>,
    /// The fill register, one element per lane.
    pub rf: Vec<Signal<In, Bits<E>>>,
    /// Per copy and lane (`m * N + t`): give a constant.
    pub constant: Vec<Signal<In, Bit>>,
    /// Per copy and lane, bits 1 and up: the constant's bit, else `rf` (set) or `rs` (clear).
    pub upper: Vec<Signal<In, Bit>>,
    /// Per lane, bit 0 (in the first copy's share): the constant's bit, else `rf` (set) or `rs`
    /// (clear).
    pub lowest: Vec<Signal<In, Bit>>,
    /// The selected element of every lane.
    pub out: Vec<Signal<Out, Bits<E>>>,
    /// Per lane, every bit's choice: `upper` in bits 1 and up, `lowest` in bit 0.
    choice: Vec<Signal<Local, Bits<E>>>,
    /// Per lane, the bits that give a constant.
    fixed: Vec<Signal<Local, Bits<E>>>,
    zero: Constant<Bits<E>>,
    one: Constant<Bits<E>>,
    /// Per copy, its share of the bits above bit 0.
    upper_bits: Vec<Constant<Bits<E>>>,
    /// Per copy, its share of the bits.
    share: Vec<Constant<Bits<E>>>,
    _lanes: usize,
    _copies: usize,
}

impl<const E: usize> RegisterSelect<E> {
    /// The stage for `lanes` lanes, with one copy of the flags.
    pub fn new(lanes: usize) -> Self {
        Self::with_copies(lanes, 1)
    }

    /// The stage for `lanes` lanes, with `copies` copies of the flags (a divisor of `E`).
    pub fn with_copies(lanes: usize, copies: usize) -> Self {
        assert_eq!(E % copies, 0, "each copy drives an equal share of the bits");
        let width = E / copies;
        let share = |m: usize| -> u64 {
            let ones = match width {
                64 => u64::MAX,
                _ => (1u64 << width) - 1,
            };
            ones << (m * width)
        };
        Self {
            rs: signals(lanes),
            rf: signals(lanes),
            constant: signals(copies * lanes),
            upper: signals(copies * lanes),
            lowest: signals(lanes),
            out: signals(lanes),
            choice: signals(lanes),
            fixed: signals(lanes),
            zero: Constant::new(Bits::default()),
            one: Constant::new(1u64.into()),
            upper_bits: (0..copies)
                .map(|m| Constant::new((share(m) & !1).into()))
                .collect(),
            share: (0..copies)
                .map(|m| Constant::new(share(m).into()))
                .collect(),
            _lanes: lanes,
            _copies: copies,
        }
    }
}

impl<const E: usize> Logic for RegisterSelect<E> {
    // A single-value loop binds N (`nn`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nn in self._lanes..(self._lanes + 1) {
            for t in 0..self._lanes {
                self.choice[t].next = self.zero.val();
                self.fixed[t].next = self.zero.val();
                for m in 0..self._copies {
                    if self.upper[m * nn + t].val() {
                        self.choice[t].next = self.choice[t].val() | self.upper_bits[m].val();
                    }
                    if self.constant[m * nn + t].val() {
                        self.fixed[t].next = self.fixed[t].val() | self.share[m].val();
                    }
                }
                if self.lowest[t].val() {
                    self.choice[t].next = self.choice[t].val() | self.one.val();
                }
                self.out[t].next = (self.fixed[t].val() & self.choice[t].val())
                    | (!self.fixed[t].val()
                        & ((self.choice[t].val() & self.rf[t].val())
                            | (!self.choice[t].val() & self.rs[t].val())));
            }
        }
    }
}
