//! Decodes a pass's scalar controls once for every lane: which input position every crossbar
//! output takes, which crossbars a lane may take its value from, and which lanes a shift fills.

use rust_hdl::prelude::*;

use super::above::AboveConstants;
use super::fills::FillDecode;
use crate::params::{RouteOpCode, RouteParams};
use crate::{constant, signals};

/// The router's control decode (combinational): from `op`, `amount` and `mod_log2`, everything
/// the per-lane decoder ([`super::RouteDecoder`]) needs that does not depend on the lane's own
/// operands, as small vectors of bits, so that each lane's selects are one gate deep.
///
/// Lane `t = c*q + k` (crossbar `c`, output `k`) of a one-pass operation takes input position
/// `position[k*q + i]` of its crossbar, the same in every crossbar, and takes crossbar `j` when
/// `pair[c*(N/q) + j]`, `offset[k*(N/q) + (j - c) mod (N/q)]` and `allowed[j]` all hold: for a
/// shift or rotate by `s`, lane `t` reads crossbar `(c & !M) | ((c + R) & M)` (M = m/q - 1, or 0
/// when m <= q; R = (s div q) plus the carry of `k + s mod q`), which is `pair` (same subset)
/// and `offset` (the distance R within it); `broadcast` reads crossbar `(c & !M) | (k' & M)`
/// (`allowed`); `butterfly` reads `c xor ((amount div q) & M)` (`pair`). A shift by m or more,
/// and code 7, leave every lane its own value. A shuffle pass sets none of them.
///
/// Everything is AND, OR, XOR and comparison for equality, so that synthesis maps each output
/// to a few lookup tables of the input bits and no carry chain.
#[derive(LogicBlock)]
pub struct ControlDecode {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, Bits<3>>,
    /// Shift or rotate amount, broadcast lane or butterfly mask.
    pub amount: Signal<In, Bits<7>>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Bits<3>>,
    /// One-hot: output `k` of every crossbar takes its input `i` when bit `k*q + i` is set
    /// (none for a shuffle pass).
    pub position: Vec<Signal<Out, Bit>>,
    /// Bit `k*(N/q) + d`: a lane at output `k` may take the crossbar `d` places after its own
    /// (mod N/q) in its subset; all set for operations that do not shift or rotate.
    pub offset: Vec<Signal<Out, Bit>>,
    /// Bit `c*(N/q) + j`: a lane of crossbar `c` may take crossbar `j` (same subset; for
    /// `butterfly`, the crossbar it pairs with; for code 7 and shifts by m or more, its own).
    pub pair: Vec<Signal<Out, Bit>>,
    /// Bit `j`: crossbar `j` may be read (`broadcast`: the crossbar of the broadcast lane in
    /// every subset); all set for the other operations.
    pub allowed: Vec<Signal<Out, Bit>>,
    /// Bit `t*log2(N) + e`: input lane `t` gives its fill value for a `shff.left` in subsets of
    /// 2^(e+1) lanes (its offset is below the amount).
    pub fill_low: Vec<Signal<Out, Bit>>,
    /// Bit `t*log2(N) + e`: input lane `t` gives its fill value for a `shff.right` in subsets
    /// of 2^(e+1) lanes (its offset is at least m minus the amount).
    pub fill_high: Vec<Signal<Out, Bit>>,
    /// One-hot subset size: bit `e` for m = 2^(e+1).
    size: Vec<Signal<Local, Bit>>,
    /// m - 1.
    mask: Signal<Local, Bits<7>>,
    /// m/q - 1 (0 when m <= q): the crossbar bits of a lane's offset in its subset.
    high_mask: Signal<Local, Bits<7>>,
    /// The amount's crossbar bits, `amount div q`.
    amount_high: Signal<Local, Bits<7>>,
    /// The amount is at least m.
    over: Signal<Local, Bit>,
    /// The operation adds the amount to a lane's offset (rotate left, shift left below m).
    left: Signal<Local, Bit>,
    /// The operation subtracts the amount (rotate right, shift right below m).
    right: Signal<Local, Bit>,
    /// Every lane keeps its own value (code 7, shifts by m or more).
    idle: Signal<Local, Bit>,
    /// The operation is `shff.left`.
    shift_left: Signal<Local, Bit>,
    /// The operation is `shff.right`.
    shift_right: Signal<Local, Bit>,
    /// The operation is `broadcast`.
    broadcast: Signal<Local, Bit>,
    /// The operation is `butterfly`.
    butterfly: Signal<Local, Bit>,
    /// The operation is a shuffle pass.
    shuffle: Signal<Local, Bit>,
    /// `(amount div q) & M` equals `d & M`, at `d`.
    high_equal: Vec<Signal<Local, Bit>>,
    /// `amount mod q` against `0..q`: the carry of `k + amount mod q` past q is `above[q-1-k]`,
    /// the borrow of `k - amount mod q` below 0 is `above[k]`.
    low_compare: AboveConstants,
    fills: FillDecode,
    /// The codes 1..log2(N)-1 of `mod_log2`.
    size_code: Vec<Constant<Bits<3>>>,
    /// 2^(e+1) - 1 at `e`.
    subset_mask: Vec<Constant<Bits<7>>>,
    /// The numbers 0..max(q, N/q)-1 (positions and crossbars).
    index: Vec<Constant<Bits<7>>>,
    /// q - 1.
    position_mask: Constant<Bits<7>>,
    zero: Constant<Bits<7>>,
    op_rotate_left: Constant<Bits<3>>,
    op_rotate_right: Constant<Bits<3>>,
    op_broadcast: Constant<Bits<3>>,
    op_butterfly: Constant<Bits<3>>,
    op_shuffle: Constant<Bits<3>>,
    op_identity: Constant<Bits<3>>,
    op_shff_left: Constant<Bits<3>>,
    op_shff_right: Constant<Bits<3>>,
    _lanes: usize,
    _lane_bits: usize,
    _crossbar: usize,
    _crossbar_bits: usize,
    _crossbars: usize,
}

/// The constant of operation code `op`.
fn code(op: RouteOpCode) -> Constant<Bits<3>> {
    constant(op as u64)
}

impl ControlDecode {
    /// The control decode for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (n, l, q, c) = (
            params.lanes,
            params.lane_bits(),
            params.crossbar,
            params.crossbars(),
        );
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            position: signals(q * q),
            offset: signals(q * c),
            pair: signals(c * c),
            allowed: signals(c),
            fill_low: signals(n * l),
            fill_high: signals(n * l),
            size: signals(l),
            mask: Signal::default(),
            high_mask: Signal::default(),
            amount_high: Signal::default(),
            over: Signal::default(),
            left: Signal::default(),
            right: Signal::default(),
            idle: Signal::default(),
            shift_left: Signal::default(),
            shift_right: Signal::default(),
            broadcast: Signal::default(),
            butterfly: Signal::default(),
            shuffle: Signal::default(),
            high_equal: signals(c),
            low_compare: AboveConstants::new(&(0..q as u64).collect::<Vec<_>>()),
            fills: FillDecode::new(params),
            size_code: (1..l as u64).map(constant).collect(),
            subset_mask: (1..=l).map(|e| constant((1 << e) - 1)).collect(),
            index: (0..q.max(c) as u64).map(constant).collect(),
            position_mask: constant(q as u64 - 1),
            zero: constant(0),
            op_rotate_left: code(RouteOpCode::RotateLeft),
            op_rotate_right: code(RouteOpCode::RotateRight),
            op_broadcast: code(RouteOpCode::Broadcast),
            op_butterfly: code(RouteOpCode::Butterfly),
            op_shuffle: code(RouteOpCode::ShufflePass),
            op_identity: code(RouteOpCode::Identity),
            op_shff_left: code(RouteOpCode::ShffLeft),
            op_shff_right: code(RouteOpCode::ShffRight),
            _lanes: n,
            _lane_bits: l,
            _crossbar: q,
            _crossbar_bits: params.crossbar_bits(),
            _crossbars: c,
        }
    }
}

impl Logic for ControlDecode {
    // Single-value loops bind log2 N (`nl`), q (`nq`), log2 q (`lq`) and N/q (`nc`) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.shift_left.next = self.op.val() == self.op_shff_left.val();
        self.shift_right.next = self.op.val() == self.op_shff_right.val();
        self.broadcast.next = self.op.val() == self.op_broadcast.val();
        self.butterfly.next = self.op.val() == self.op_butterfly.val();
        self.shuffle.next = self.op.val() == self.op_shuffle.val();
        // Subset size: 2^mod_log2 for mod_log2 in 1..log2(N), else the whole group.
        for nl in self._lane_bits..(self._lane_bits + 1) {
            self.mask.next = self.subset_mask[nl - 1].val();
            self.size[nl - 1].next = true;
            for e in 0..(self._lane_bits - 1) {
                self.size[e].next = self.mod_log2.val() == self.size_code[e].val();
                if self.size[e].val() {
                    self.size[nl - 1].next = false;
                    self.mask.next = self.subset_mask[e].val();
                }
            }
        }
        for lq in self._crossbar_bits..(self._crossbar_bits + 1) {
            self.high_mask.next = self.mask.val() >> lq.to_bits::<3>();
            self.amount_high.next = self.amount.val() >> lq.to_bits::<3>();
        }
        self.low_compare.value.next = self.amount.val() & self.position_mask.val();
        self.over.next = (self.amount.val() & !self.mask.val()).any();
        self.left.next = (self.op.val() == self.op_rotate_left.val())
            | (self.shift_left.val() & !self.over.val());
        self.right.next = (self.op.val() == self.op_rotate_right.val())
            | (self.shift_right.val() & !self.over.val());
        self.idle.next = (self.op.val() == self.op_identity.val())
            | ((self.shift_left.val() | self.shift_right.val()) & self.over.val());
        for d in 0..self._crossbars {
            self.high_equal[d].next = ((self.amount_high.val() ^ self.index[d].val())
                & self.high_mask.val())
                == self.zero.val();
            self.allowed[d].next = !self.broadcast.val() | self.high_equal[d].val();
        }
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                // Output k takes input i: the offsets agree outside the subset (m < q) and the
                // amount moves k to i inside it.
                for k in 0..self._crossbar {
                    for i in 0..self._crossbar {
                        self.position[k * nq + i].next = (self.idle.val()
                            & (self.index[k].val() == self.index[i].val()))
                            | ((((self.index[k].val() ^ self.index[i].val())
                                & !self.mask.val()
                                & self.position_mask.val())
                                == self.zero.val())
                                & ((self.left.val()
                                    & (((self.amount.val()
                                        ^ (self.index[i].val() - self.index[k].val()))
                                        & self.mask.val()
                                        & self.position_mask.val())
                                        == self.zero.val()))
                                    | (self.right.val()
                                        & (((self.amount.val()
                                            ^ (self.index[k].val() - self.index[i].val()))
                                            & self.mask.val()
                                            & self.position_mask.val())
                                            == self.zero.val()))
                                    | (self.broadcast.val()
                                        & (((self.amount.val() ^ self.index[i].val())
                                            & self.mask.val()
                                            & self.position_mask.val())
                                            == self.zero.val()))
                                    | (self.butterfly.val()
                                        & (((self.amount.val()
                                            ^ self.index[k].val()
                                            ^ self.index[i].val())
                                            & self.mask.val()
                                            & self.position_mask.val())
                                            == self.zero.val()))));
                    }
                    // The distance d: R = (amount div q) + carry (left) or -(amount div q) -
                    // borrow (right), compared within the subset.
                    for d in 0..self._crossbars {
                        self.offset[k * nc + d].next = !(self.left.val() | self.right.val());
                        if self.left.val() {
                            self.offset[k * nc + d].next = self.high_equal[d].val();
                            if self.low_compare.above[nq - 1 - k].val() {
                                self.offset[k * nc + d].next =
                                    self.high_equal[(d + nc - 1) % nc].val();
                            }
                        }
                        if self.right.val() {
                            self.offset[k * nc + d].next = self.high_equal[(nc - d) % nc].val();
                            if self.low_compare.above[k].val() {
                                self.offset[k * nc + d].next =
                                    self.high_equal[(2 * nc - d - 1) % nc].val();
                            }
                        }
                    }
                }
                for c in 0..self._crossbars {
                    for j in 0..self._crossbars {
                        self.pair[c * nc + j].next = !self.shuffle.val()
                            & (((self.index[c].val() ^ self.index[j].val())
                                & !self.high_mask.val())
                                == self.zero.val())
                            & (!self.butterfly.val()
                                | (((self.amount_high.val()
                                    ^ self.index[c].val()
                                    ^ self.index[j].val())
                                    & self.high_mask.val())
                                    == self.zero.val()));
                        if self.idle.val() {
                            self.pair[c * nc + j].next = self.index[c].val() == self.index[j].val();
                        }
                    }
                }
            }
        }
        self.fills.op.next = self.op.val();
        self.fills.amount.next = self.amount.val();
        for e in 0..self._lane_bits {
            self.fills.size[e].next = self.size[e].val();
        }
        for k in 0..(self._lanes * self._lane_bits) {
            self.fill_low[k].next = self.fills.low[k].val();
            self.fill_high[k].next = self.fills.high[k].val();
        }
    }
}
