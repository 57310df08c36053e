//! Decodes a pass's scalar controls once, for every lane: subset size, mask and amounts.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};

/// The router's control decode (combinational): what every lane's decoder needs from `op`,
/// `amount` and `mod_log2`. Sizes and masks come from tables and the shift clamp tests the
/// bits above the mask, so no carry chain lies on the way to the lanes.
#[derive(LogicBlock)]
pub struct ControlDecode {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask.
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Bits<3>>,
    /// Subset size m.
    pub m: Signal<Out, Bits<7>>,
    /// m - 1: selects a lane's offset in its subset.
    pub mask: Signal<Out, Bits<7>>,
    /// The amount clamped to m (shifts).
    pub shift: Signal<Out, Bits<7>>,
    /// The amount mod m (rotates, broadcast, butterfly).
    pub wrapped: Signal<Out, Bits<7>>,
    /// The operation is a shuffle pass: the networks take explicit controls.
    pub shuffle: Signal<Out, Bit>,
    /// Subset sizes: `subset_size[e - 1]` is 2^e for e = 1..=log2(N).
    subset_size: Vec<Constant<Bits<7>>>,
    /// Offset masks: `subset_mask[e - 1]` is 2^e - 1 for e = 1..=log2(N).
    subset_mask: Vec<Constant<Bits<7>>>,
    /// The shuffle pass's operation code.
    op_shuffle: Constant<Bits<3>>,
    _lane_bits: usize,
}

impl ControlDecode {
    /// The control decode for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let sizes = 1..=params.lane_bits();
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            m: Signal::default(),
            mask: Signal::default(),
            shift: Signal::default(),
            wrapped: Signal::default(),
            shuffle: Signal::default(),
            subset_size: sizes
                .clone()
                .map(|e| Constant::new((1u64 << e).into()))
                .collect(),
            subset_mask: sizes
                .map(|e| Constant::new(((1u64 << e) - 1).into()))
                .collect(),
            op_shuffle: Constant::new((RouteOpCode::ShufflePass as u64).into()),
            _lane_bits: params.lane_bits(),
        }
    }
}

impl Logic for ControlDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // Subset size: 2^mod_log2 for mod_log2 in 1..=log2(N), else the whole group.
        for lg in self._lane_bits..(self._lane_bits + 1) {
            self.m.next = self.subset_size[lg - 1].val();
            self.mask.next = self.subset_mask[lg - 1].val();
        }
        for e in 1..(self._lane_bits + 1) {
            if self.mod_log2.val() == e.to_bits() {
                self.m.next = self.subset_size[e - 1].val();
                self.mask.next = self.subset_mask[e - 1].val();
            }
        }
        self.shift.next = self.amount.val();
        if (self.amount.val() & !self.mask.val()).any() {
            self.shift.next = self.m.val();
        }
        self.wrapped.next = self.amount.val() & self.mask.val();
        self.shuffle.next = self.op.val() == self.op_shuffle.val();
    }
}
