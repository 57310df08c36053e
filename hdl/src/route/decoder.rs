//! Decodes one pass's controls into per-lane routing: the source lane of every output lane
//! and whether every input lane contributes its fill value instead of `rs`.

use rust_hdl::prelude::*;

use crate::params::{RouteOpCode, RouteParams};
use crate::signals;

/// The router's per-lane decoder (combinational), from the decoded controls of
/// [`super::ControlDecode`], given to every lane separately (so that the registered router can
/// drive each group of lanes from a copy of its own). Fields of width 7 hold lane indices and
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
    /// Per lane: the operation code (`RouteOpCode`).
    pub op: Vec<Signal<In, Bits<3>>>,
    /// Per lane: the subset size m ([`super::ControlDecode`]).
    pub m: Vec<Signal<In, Bits<7>>>,
    /// Per lane: m - 1.
    pub mask: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount clamped to m (shifts).
    pub shift: Vec<Signal<In, Bits<7>>>,
    /// Per lane: the amount mod m (rotates, broadcast, butterfly).
    pub wrapped: Vec<Signal<In, Bits<7>>>,
    /// Source lane of every output lane (identity for shuffle passes).
    pub src: Vec<Signal<Out, Bits<7>>>,
    /// Whether every input lane gives its fill value instead of `rs`.
    pub take_fill: Vec<Signal<Out, Bit>>,
    /// Each lane's offset in its subset.
    offset: Vec<Signal<Local, Bits<7>>>,
    /// Each lane's subset base.
    base: Vec<Signal<Local, Bits<7>>>,
    /// Lane numbers 0..N-1.
    lane_id: Vec<Constant<Bits<7>>>,
    /// Operation codes.
    op_shff_left: Constant<Bits<3>>,
    op_shff_right: Constant<Bits<3>>,
    op_rotate_left: Constant<Bits<3>>,
    op_rotate_right: Constant<Bits<3>>,
    op_broadcast: Constant<Bits<3>>,
    op_butterfly: Constant<Bits<3>>,
    _lanes: usize,
}

fn code(op: RouteOpCode) -> Constant<Bits<3>> {
    Constant::new((op as u64).into())
}

impl RouteDecoder {
    /// The decoder for `params.lanes` lanes.
    pub fn new(params: &RouteParams) -> Self {
        let n = params.lanes;
        Self {
            op: signals(n),
            m: signals(n),
            mask: signals(n),
            shift: signals(n),
            wrapped: signals(n),
            src: signals(n),
            take_fill: signals(n),
            offset: signals(n),
            base: signals(n),
            lane_id: (0..n as u64).map(|t| Constant::new(t.into())).collect(),
            op_shff_left: code(RouteOpCode::ShffLeft),
            op_shff_right: code(RouteOpCode::ShffRight),
            op_rotate_left: code(RouteOpCode::RotateLeft),
            op_rotate_right: code(RouteOpCode::RotateRight),
            op_broadcast: code(RouteOpCode::Broadcast),
            op_butterfly: code(RouteOpCode::Butterfly),
            _lanes: n,
        }
    }
}

impl Logic for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..self._lanes {
            self.offset[t].next = self.lane_id[t].val() & self.mask[t].val();
            self.base[t].next = self.lane_id[t].val() & !self.mask[t].val();
            self.src[t].next = self.lane_id[t].val();
            self.take_fill[t].next = false;
            if self.op[t].val() == self.op_shff_left.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() + self.shift[t].val()) & self.mask[t].val());
                self.take_fill[t].next = self.offset[t].val() < self.shift[t].val();
            } else if self.op[t].val() == self.op_shff_right.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() - self.shift[t].val()) & self.mask[t].val());
                self.take_fill[t].next =
                    (self.offset[t].val() + self.shift[t].val()) >= self.m[t].val();
            } else if self.op[t].val() == self.op_rotate_left.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() + self.wrapped[t].val()) & self.mask[t].val());
            } else if self.op[t].val() == self.op_rotate_right.val() {
                self.src[t].next = self.base[t].val()
                    | ((self.offset[t].val() - self.wrapped[t].val()) & self.mask[t].val());
            } else if self.op[t].val() == self.op_broadcast.val() {
                self.src[t].next = self.base[t].val() | self.wrapped[t].val();
            } else if self.op[t].val() == self.op_butterfly.val() {
                self.src[t].next = self.lane_id[t].val() ^ self.wrapped[t].val();
            }
        }
    }
}
