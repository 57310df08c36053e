//! A run of granules as a mask.

use rust_hdl::prelude::*;

use crate::params::POOL_BITS;
use crate::signals::{constants, signals};

/// The granules `base..base + count` as one bit each, all low unless `valid`
/// (combinational).
#[derive(LogicBlock)]
pub struct RangeMask {
    /// The range is in use.
    pub valid: Signal<In, Bit>,
    /// Its first granule.
    pub base: Signal<In, Bits<POOL_BITS>>,
    /// Its granules.
    pub count: Signal<In, Bits<POOL_BITS>>,
    /// Per granule: inside the range.
    pub mask: Vec<Signal<Out, Bit>>,
    /// One past the range's last granule.
    past: Signal<Local, Bits<POOL_BITS>>,
    /// The granule numbers.
    number: Vec<Constant<Bits<POOL_BITS>>>,
    _granules: usize,
}

impl RangeMask {
    /// A mask over `granules` granules.
    pub fn new(granules: usize) -> Self {
        Self {
            valid: Signal::default(),
            base: Signal::default(),
            count: Signal::default(),
            mask: signals(granules),
            past: Signal::default(),
            number: constants(0..granules as u64),
            _granules: granules,
        }
    }
}

impl Logic for RangeMask {
    #[hdl_gen]
    fn update(&mut self) {
        self.past.next = self.base.val() + self.count.val();
        for i in 0..self._granules {
            self.mask[i].next = self.valid.val()
                & (self.number[i].val() >= self.base.val())
                & (self.number[i].val() < self.past.val());
        }
    }
}
