//! Decodes one pass's operation into per-lane routing: the source lane of every output lane
//! and whether every input lane contributes its fill value instead of `rs`.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};
use crate::signals;

/// The router's control decoder (combinational). Fields of width 7 hold lane indices and
/// amounts (N <= 64, amounts up to 64).
///
/// For output lane `t` in the subset of `m` lanes starting at `b`, with `i = t - b` and `s` the
/// amount clamped to `m`: `shff.left` reads lane `b + (i + s) mod m`, `shff.right` lane
/// `b + (i - s) mod m`, rotates the same with the amount taken mod `m`, `broadcast` lane
/// `b + amount mod m`, `butterfly` lane `t xor (amount mod m)`. Input lane `j` (offset `i` in
/// its subset) gives its fill value instead of `rs` for `shff.left` when `i < s` and for
/// `shff.right` when `i + s >= m`: exactly the lanes whose values land in vacated positions.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask.
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Bits<3>>,
    /// Source lane of every output lane (identity for shuffle passes).
    pub src: Vec<Signal<Out, Bits<7>>>,
    /// Whether every input lane gives its fill value instead of `rs`.
    pub take_fill: Vec<Signal<Out, Bit>>,
    /// The operation is a shuffle pass: the network takes explicit controls.
    pub shuffle: Signal<Out, Bit>,
    /// Subset size m.
    m: Signal<Local, Bits<7>>,
    /// m - 1.
    mask: Signal<Local, Bits<7>>,
    /// The amount clamped to m (shifts).
    shift: Signal<Local, Bits<7>>,
    /// The amount mod m (rotates, broadcast, butterfly).
    wrapped: Signal<Local, Bits<7>>,
    /// Each lane's offset in its subset.
    offset: Vec<Signal<Local, Bits<7>>>,
    /// Each lane's subset base.
    base: Vec<Signal<Local, Bits<7>>>,
    /// Lane numbers 0..N-1.
    lane_id: Vec<Constant<Bits<7>>>,
    /// Subset sizes: `subset_size[e - 1]` is 2^e for e = 1..=log2(N).
    subset_size: Vec<Constant<Bits<7>>>,
    /// Offset masks: `subset_mask[e - 1]` is 2^e - 1 for e = 1..=log2(N).
    subset_mask: Vec<Constant<Bits<7>>>,
    /// Operation codes.
    op_shff_left: Constant<Bits<3>>,
    op_shff_right: Constant<Bits<3>>,
    op_rotate_left: Constant<Bits<3>>,
    op_rotate_right: Constant<Bits<3>>,
    op_broadcast: Constant<Bits<3>>,
    op_butterfly: Constant<Bits<3>>,
    op_shuffle: Constant<Bits<3>>,
    _lanes: usize,
    _lane_bits: usize,
}

fn code(op: RouteOpCode) -> Constant<Bits<3>> {
    Constant::new((op as u64).into())
}

impl RouteDecoder {
    /// The decoder for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            op: Default::default(),
            amount: Default::default(),
            mod_log2: Default::default(),
            src: signals(n),
            take_fill: signals(n),
            shuffle: Default::default(),
            m: Default::default(),
            mask: Default::default(),
            shift: Default::default(),
            wrapped: Default::default(),
            offset: signals(n),
            base: signals(n),
            lane_id: (0..n as u64).map(|t| Constant::new(t.into())).collect(),
            subset_size: (1..=params.lane_bits())
                .map(|e| Constant::new((1u64 << e).into()))
                .collect(),
            subset_mask: (1..=params.lane_bits())
                .map(|e| Constant::new(((1u64 << e) - 1).into()))
                .collect(),
            op_shff_left: code(RouteOpCode::ShffLeft),
            op_shff_right: code(RouteOpCode::ShffRight),
            op_rotate_left: code(RouteOpCode::RotateLeft),
            op_rotate_right: code(RouteOpCode::RotateRight),
            op_broadcast: code(RouteOpCode::Broadcast),
            op_butterfly: code(RouteOpCode::Butterfly),
            op_shuffle: code(RouteOpCode::ShufflePass),
            _lanes: n,
            _lane_bits: params.lane_bits(),
        }
    }
}

impl Logic for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        // Subset size: 2^mod_log2 for mod_log2 in 1..=log2(N), else the whole group. Sizes and
        // masks come from tables, and the clamp tests the bits above the mask, so no carry
        // chain lies on the way to the lanes.
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
        for t in 0..self._lanes {
            self.offset[t].next = self.lane_id[t].val() & self.mask.val();
            self.base[t].next = self.lane_id[t].val() & !self.mask.val();
            self.src[t].next = self.lane_id[t].val();
            self.take_fill[t].next = false;
            if self.op.val() == self.op_shff_left.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() + self.shift.val()) & self.mask.val());
                self.take_fill[t].next = self.offset[t].val() < self.shift.val();
            } else if self.op.val() == self.op_shff_right.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() - self.shift.val()) & self.mask.val());
                self.take_fill[t].next = (self.offset[t].val() + self.shift.val()) >= self.m.val();
            } else if self.op.val() == self.op_rotate_left.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() + self.wrapped.val()) & self.mask.val());
            } else if self.op.val() == self.op_rotate_right.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() - self.wrapped.val()) & self.mask.val());
            } else if self.op.val() == self.op_broadcast.val() {
                self.src[t].next = self.base[t].val() | self.wrapped.val();
            } else if self.op.val() == self.op_butterfly.val() {
                self.src[t].next = self.lane_id[t].val() ^ self.wrapped.val();
            }
        }
    }
}
