//! Decodes a pass's scalar controls once, for every lane: subset size, mask, amounts, and what
//! kind of source and fill the lanes compute.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};

/// The router's control decode (combinational): everything a lane's decoder needs from `op`,
/// `amount` and `mod_log2` that is the same for every lane, so that the lanes' own logic is one
/// addition and two comparisons. Sizes and masks come from tables and the shift clamp tests the
/// bits above the mask; the two subtractions (the amount a right shift or rotate adds, the first
/// offset a right shift fills) are made here once instead of in every lane.
#[derive(LogicBlock)]
pub struct ControlDecode {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask.
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Bits<3>>,
    /// Subset size m.
    m: Signal<Local, Bits<7>>,
    /// m - 1: selects a lane's offset in its subset.
    pub mask: Signal<Out, Bits<7>>,
    /// The amount clamped to m (shifts): a left shift fills the offsets below it.
    pub shift: Signal<Out, Bits<7>>,
    /// The amount mod m (rotates, broadcast, butterfly).
    pub wrapped: Signal<Out, Bits<7>>,
    /// What a shift or rotate adds to a lane's offset (mod m) to find its source: the amount
    /// for the left ones, its negation for the right ones.
    pub step: Signal<Out, Bits<7>>,
    /// m - shift: a right shift fills the offsets from it up.
    pub fill_from: Signal<Out, Bits<7>>,
    /// The operation finds a lane's source by adding `step` (shifts and rotates).
    pub adds: Signal<Out, Bit>,
    /// The operation is `broadcast`.
    pub broadcast: Signal<Out, Bit>,
    /// The operation is `butterfly`.
    pub butterfly: Signal<Out, Bit>,
    /// The operation is `shff.left`: offsets below `shift` take the fill value.
    pub fills_low: Signal<Out, Bit>,
    /// The operation is `shff.right`: offsets from `fill_from` up take the fill value.
    pub fills_high: Signal<Out, Bit>,
    /// The operation is a shuffle pass: the networks take explicit controls.
    pub shuffle: Signal<Out, Bit>,
    /// Subset sizes: `subset_size[e - 1]` is 2^e for e = 1..=log2(N).
    subset_size: Vec<Constant<Bits<7>>>,
    /// Offset masks: `subset_mask[e - 1]` is 2^e - 1 for e = 1..=log2(N).
    subset_mask: Vec<Constant<Bits<7>>>,
    /// The operation codes.
    op_shff_left: Constant<Bits<3>>,
    op_shff_right: Constant<Bits<3>>,
    op_rotate_left: Constant<Bits<3>>,
    op_rotate_right: Constant<Bits<3>>,
    op_broadcast: Constant<Bits<3>>,
    op_butterfly: Constant<Bits<3>>,
    op_shuffle: Constant<Bits<3>>,
    zero: Constant<Bits<7>>,
    _lane_bits: usize,
}

/// The constant of operation code `op`.
fn code(op: RouteOpCode) -> Constant<Bits<3>> {
    Constant::new((op as u64).into())
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
            step: Signal::default(),
            fill_from: Signal::default(),
            adds: Signal::default(),
            broadcast: Signal::default(),
            butterfly: Signal::default(),
            fills_low: Signal::default(),
            fills_high: Signal::default(),
            shuffle: Signal::default(),
            subset_size: sizes
                .clone()
                .map(|e| Constant::new((1u64 << e).into()))
                .collect(),
            subset_mask: sizes
                .map(|e| Constant::new(((1u64 << e) - 1).into()))
                .collect(),
            op_shff_left: code(RouteOpCode::ShffLeft),
            op_shff_right: code(RouteOpCode::ShffRight),
            op_rotate_left: code(RouteOpCode::RotateLeft),
            op_rotate_right: code(RouteOpCode::RotateRight),
            op_broadcast: code(RouteOpCode::Broadcast),
            op_butterfly: code(RouteOpCode::Butterfly),
            op_shuffle: code(RouteOpCode::ShufflePass),
            zero: Constant::new(0u64.into()),
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
        self.fill_from.next = self.m.val() - self.shift.val();
        self.fills_low.next = self.op.val() == self.op_shff_left.val();
        self.fills_high.next = self.op.val() == self.op_shff_right.val();
        self.step.next = self.zero.val();
        if self.fills_low.val() {
            self.step.next = self.shift.val();
        }
        if self.fills_high.val() {
            self.step.next = self.zero.val() - self.shift.val();
        }
        if self.op.val() == self.op_rotate_left.val() {
            self.step.next = self.wrapped.val();
        }
        if self.op.val() == self.op_rotate_right.val() {
            self.step.next = self.zero.val() - self.wrapped.val();
        }
        self.adds.next = self.fills_low.val()
            | self.fills_high.val()
            | (self.op.val() == self.op_rotate_left.val())
            | (self.op.val() == self.op_rotate_right.val());
        self.broadcast.next = self.op.val() == self.op_broadcast.val();
        self.butterfly.next = self.op.val() == self.op_butterfly.val();
        self.shuffle.next = self.op.val() == self.op_shuffle.val();
    }
}
