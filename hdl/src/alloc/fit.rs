//! First fit: the lowest run of free granules long enough for an allocation.

use rust_hdl::prelude::*;

use crate::params::POOL_BITS;
use crate::signals::{constant, constants, signals};

/// Finds the lowest granule that starts `need` free granules in a row (combinational). Each
/// granule's run of free granules is counted from the top down; the lowest granule whose run
/// covers `need` is the base. Zero granules fit at granule 0.
#[derive(LogicBlock)]
pub struct FirstFit {
    /// Per granule: it is allocated.
    pub used: Vec<Signal<In, Bit>>,
    /// Granules needed.
    pub need: Signal<In, Bits<POOL_BITS>>,
    /// A run long enough exists.
    pub fits: Signal<Out, Bit>,
    /// The first granule of the lowest such run (0 when none).
    pub base: Signal<Out, Bits<POOL_BITS>>,
    /// `run[i]`: free granules in a row from granule `i` up (`run[N]` is 0).
    run: Vec<Signal<Local, Bits<POOL_BITS>>>,
    /// `fit[i]`: the run from granule `i` covers `need`.
    fit: Vec<Signal<Local, Bit>>,
    /// The granule numbers.
    number: Vec<Constant<Bits<POOL_BITS>>>,
    zero: Constant<Bits<POOL_BITS>>,
    one: Constant<Bits<POOL_BITS>>,
    _granules: usize,
}

impl FirstFit {
    /// The search over `granules` granules.
    pub fn new(granules: usize) -> Self {
        Self {
            used: signals(granules),
            need: Signal::default(),
            fits: Signal::default(),
            base: Signal::default(),
            run: signals(granules + 1),
            fit: signals(granules),
            number: constants(0..granules as u64),
            zero: constant(0),
            one: constant(1),
            _granules: granules,
        }
    }
}

impl Logic for FirstFit {
    // The single-value loop binds the granule count (`ng`) to a loop variable.
    #[hdl_gen]
    fn update(&mut self) {
        for ng in self._granules..(self._granules + 1) {
            self.run[ng].next = self.zero.val();
            for k in 0..self._granules {
                self.run[ng - 1 - k].next = self.zero.val();
                if !self.used[ng - 1 - k].val() {
                    self.run[ng - 1 - k].next = self.run[ng - k].val() + self.one.val();
                }
            }
            self.fits.next = false;
            self.base.next = self.zero.val();
            // From the top down, so that the lowest fitting granule is assigned last.
            for k in 0..self._granules {
                self.fit[ng - 1 - k].next = self.run[ng - 1 - k].val() >= self.need.val();
                if self.fit[ng - 1 - k].val() {
                    self.fits.next = true;
                    self.base.next = self.number[ng - 1 - k].val();
                }
            }
        }
    }
}
