//! Decodes a pass's scalar controls once for every lane: which input position every crossbar
//! output takes and which crossbars a lane may take its value from.

use rust_hdl::prelude::*;

use super::above::AboveConstants;
use crate::params::{RouteOpCode, RouteParams};
use crate::parts::logic_in_parts;
use crate::route::widths::{LaneIndex, Log2Lanes, OpCode, LOG2_BITS};
use crate::signals::{constant, signals};

/// The router's control decode (combinational): from `op`, `amount` and `mod_log2`, the facts
/// about a pass that do not depend on a lane's operands, each a function of a few input bits,
/// so that [`super::RouteDecoder`] combines them into every lane's selects in two gates.
///
/// Lane `t = c*q + k` (crossbar `c`, output `k`) of a one-pass operation takes input position
/// `i` of its crossbar, the same in every crossbar, and crossbar `j`. For a shift or rotate by
/// `s` in subsets of `m` lanes, `i = (k & !mask) | ((k ± s) & mask)` within the q positions,
/// and lane `t` reads crossbar `(c & !M) | ((c + R) & M)` (M = m/q - 1, or 0 when m <= q): the
/// same subset, `R` crossbars on, where `R = (s div q) + carry(k + s mod q)` for the left ones
/// and `-(s div q) - borrow(k - s mod q)` for the right ones. `broadcast` reads position
/// `(k & !mask) | (s & mask)` of crossbar `(c & !M) | ((s div q) & M)`, `butterfly` position
/// `k xor (s & mask)` of crossbar `c xor ((s div q) & M)`. A shift by m or more, and code 7,
/// leave every lane its own value; a shuffle pass takes neither.
///
/// Everything is AND, OR, XOR and comparison for equality, so that synthesis maps each output
/// to a few lookup tables of the input bits and no carry chain.
#[derive(LogicBlock)]
pub struct ControlDecode {
    /// Operation code (`RouteOpCode`).
    pub op: Signal<In, OpCode>,
    /// Shift or rotate amount, broadcast lane or butterfly mask.
    pub amount: Signal<In, LaneIndex>,
    /// log2 of the subset size m; 0 or more than log2(N) means the whole group.
    pub mod_log2: Signal<In, Log2Lanes>,
    /// What the operation does, one bit each: 0 adds the amount to a lane's offset (rotate
    /// left, shift left below m), 1 subtracts it (rotate right, shift right below m), 2 leaves
    /// every lane its own value (code 7, a shift by m or more), 3 `broadcast`, 4 `butterfly`.
    pub kinds: Vec<Signal<Out, Bit>>,
    /// Input positions, one-hot per output `k` at `k*q + i`, for each kind that moves values:
    /// adding the amount (`0..q*q`), subtracting it, `broadcast`, then `butterfly`.
    pub positions: Vec<Signal<Out, Bit>>,
    /// Distances: bit `k*(N/q) + d` lets a lane at output `k` take the crossbar `d` places
    /// on (mod N/q) within its subset, adding the amount (`0..q*N/q`), then subtracting it.
    pub offsets: Vec<Signal<Out, Bit>>,
    /// Bit `j`: `(amount div q) & M` equals `j & M` (the crossbar `broadcast` reads).
    pub crossbar_match: Vec<Signal<Out, Bit>>,
    /// Crossbar pairs, bit `c*(N/q) + j`: crossbar `j` is in crossbar `c`'s subset and the
    /// pass is no shuffle (`0..(N/q)^2`), then: `c xor j` agrees with `amount div q` within M
    /// (with the first, crossbar `j` is `c xor ((amount div q) & M)`).
    pub pairs: Vec<Signal<Out, Bit>>,
    /// The subset size, one-hot below the whole group: bit `e` for m = 2^(e+1) < N.
    size: Vec<Signal<Local, Bit>>,
    /// m - 1.
    mask: Signal<Local, LaneIndex>,
    /// m/q - 1 (0 when m <= q): the crossbar bits of a lane's offset in its subset.
    high_mask: Signal<Local, LaneIndex>,
    /// The amount's crossbar bits, `amount div q`.
    amount_high: Signal<Local, LaneIndex>,
    /// The amount is at least m.
    over: Signal<Local, Bit>,
    /// Bit `k*q + i`: outputs `k` and `i` lie in one subset (always when m >= q).
    same_position: Vec<Signal<Local, Bit>>,
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
    /// The operation is `rotate.left`.
    rotate_left: Signal<Local, Bit>,
    /// The operation is `rotate.right`.
    rotate_right: Signal<Local, Bit>,
    /// `amount mod q` against `0..q`: the carry of `k + amount mod q` past q is `above[q-1-k]`,
    /// the borrow of `k - amount mod q` below 0 is `above[k]`.
    low_compare: AboveConstants,
    /// The codes 1..log2(N)-1 of `mod_log2`.
    size_code: Vec<Constant<Log2Lanes>>,
    /// 2^(e+1) - 1 at `e`.
    subset_mask: Vec<Constant<LaneIndex>>,
    /// The numbers 0..max(q, N/q)-1 (positions and crossbars).
    index: Vec<Constant<LaneIndex>>,
    /// q - 1.
    position_mask: Constant<LaneIndex>,
    zero: Constant<LaneIndex>,
    op_rotate_left: Constant<OpCode>,
    op_rotate_right: Constant<OpCode>,
    op_broadcast: Constant<OpCode>,
    op_butterfly: Constant<OpCode>,
    op_shuffle: Constant<OpCode>,
    op_identity: Constant<OpCode>,
    op_shff_left: Constant<OpCode>,
    op_shff_right: Constant<OpCode>,
    _lane_bits: usize,
    _crossbar: usize,
    _crossbar_bits: usize,
    _crossbars: usize,
}

/// The number of [`ControlDecode::kinds`].
pub const KINDS: usize = 5;

/// The constant of operation code `op`.
fn code(op: RouteOpCode) -> Constant<OpCode> {
    constant(op as u64)
}

impl ControlDecode {
    /// The control decode for `params`.
    pub fn new(params: &RouteParams) -> Self {
        let (l, q, c) = (params.lane_bits(), params.crossbar, params.crossbars());
        Self {
            op: Signal::default(),
            amount: Signal::default(),
            mod_log2: Signal::default(),
            kinds: signals(KINDS),
            positions: signals(4 * q * q),
            offsets: signals(2 * q * c),
            crossbar_match: signals(c),
            pairs: signals(2 * c * c),
            size: signals(l - 1),
            mask: Signal::default(),
            high_mask: Signal::default(),
            amount_high: Signal::default(),
            over: Signal::default(),
            same_position: signals(q * q),
            shift_left: Signal::default(),
            shift_right: Signal::default(),
            broadcast: Signal::default(),
            butterfly: Signal::default(),
            shuffle: Signal::default(),
            high_equal: signals(c),
            rotate_left: Signal::default(),
            rotate_right: Signal::default(),
            low_compare: AboveConstants::new(&(0..q as u64).collect::<Vec<_>>()),
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
            _lane_bits: l,
            _crossbar: q,
            _crossbar_bits: params.crossbar_bits(),
            _crossbars: c,
        }
    }
}

/// The operation decoded: its kind, the subset's size and masks, the amount's high part and the crossbars it selects.
enum Operation {}

/// Per crossbar output and input, whether the amount moves the one to the other, and the
/// crossbar offset each output takes (the amount div q, with its carry or borrow).
enum Selects {}

impl Logic for ControlDecode {
    logic_in_parts!(Operation, Selects);
}

impl crate::parts::Part<Operation> for ControlDecode {
    // Single-value loops bind log2 N (`nl`), q (`nq`), log2 q (`lq`) and N/q (`nc`) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.shift_left.next = self.op.val() == self.op_shff_left.val();
        self.shift_right.next = self.op.val() == self.op_shff_right.val();
        self.rotate_left.next = self.op.val() == self.op_rotate_left.val();
        self.rotate_right.next = self.op.val() == self.op_rotate_right.val();
        self.broadcast.next = self.op.val() == self.op_broadcast.val();
        self.butterfly.next = self.op.val() == self.op_butterfly.val();
        self.shuffle.next = self.op.val() == self.op_shuffle.val();
        // Subset size: 2^mod_log2 for mod_log2 in 1..log2(N), else the whole group.
        for nl in self._lane_bits..(self._lane_bits + 1) {
            self.mask.next = self.subset_mask[nl - 1].val();
            for e in 0..(self._lane_bits - 1) {
                self.size[e].next = self.mod_log2.val() == self.size_code[e].val();
                if self.size[e].val() {
                    self.mask.next = self.subset_mask[e].val();
                }
            }
        }
        for lq in self._crossbar_bits..(self._crossbar_bits + 1) {
            self.high_mask.next = self.mask.val() >> lq.to_bits::<LOG2_BITS>();
            self.amount_high.next = self.amount.val() >> lq.to_bits::<LOG2_BITS>();
        }
        self.low_compare.value.next = self.amount.val() & self.position_mask.val();
        self.over.next = (self.amount.val() & !self.mask.val()).any();
        self.kinds[0].next = self.rotate_left.val() | (self.shift_left.val() & !self.over.val());
        self.kinds[1].next = self.rotate_right.val() | (self.shift_right.val() & !self.over.val());
        self.kinds[2].next = (self.op.val() == self.op_identity.val())
            | ((self.shift_left.val() | self.shift_right.val()) & self.over.val());
        self.kinds[3].next = self.broadcast.val();
        self.kinds[4].next = self.butterfly.val();
        for d in 0..self._crossbars {
            self.high_equal[d].next = ((self.amount_high.val() ^ self.index[d].val())
                & self.high_mask.val())
                == self.zero.val();
            self.crossbar_match[d].next = self.high_equal[d].val();
        }
    }
}

impl crate::parts::Part<Selects> for ControlDecode {
    #[hdl_gen]
    fn update(&mut self) {
        for nq in self._crossbar..(self._crossbar + 1) {
            for nc in self._crossbars..(self._crossbars + 1) {
                for k in 0..self._crossbar {
                    for i in 0..self._crossbar {
                        // Output k can take input i only if they agree outside the subset
                        // (m < q); then the amount must move k to i.
                        self.same_position[k * nq + i].next = ((self.index[k].val()
                            ^ self.index[i].val())
                            & !self.mask.val()
                            & self.position_mask.val())
                            == self.zero.val();
                        self.positions[k * nq + i].next = self.same_position[k * nq + i].val()
                            & (((self.amount.val() ^ (self.index[i].val() - self.index[k].val()))
                                & self.mask.val()
                                & self.position_mask.val())
                                == self.zero.val());
                        self.positions[nq * nq + k * nq + i].next = self.same_position[k * nq + i]
                            .val()
                            & (((self.amount.val() ^ (self.index[k].val() - self.index[i].val()))
                                & self.mask.val()
                                & self.position_mask.val())
                                == self.zero.val());
                        self.positions[2 * nq * nq + k * nq + i].next =
                            self.same_position[k * nq + i].val()
                                & (((self.amount.val() ^ self.index[i].val())
                                    & self.mask.val()
                                    & self.position_mask.val())
                                    == self.zero.val());
                        self.positions[3 * nq * nq + k * nq + i].next = self.same_position
                            [k * nq + i]
                            .val()
                            & (((self.amount.val() ^ self.index[k].val() ^ self.index[i].val())
                                & self.mask.val()
                                & self.position_mask.val())
                                == self.zero.val());
                    }
                    // R = (amount div q) + carry, or -(amount div q) - borrow, within M.
                    for d in 0..self._crossbars {
                        self.offsets[k * nc + d].next = self.high_equal[d].val();
                        if self.low_compare.above[nq - 1 - k].val() {
                            self.offsets[k * nc + d].next =
                                self.high_equal[(d + nc - 1) % nc].val();
                        }
                        self.offsets[nq * nc + k * nc + d].next =
                            self.high_equal[(nc - d) % nc].val();
                        if self.low_compare.above[k].val() {
                            self.offsets[nq * nc + k * nc + d].next =
                                self.high_equal[(2 * nc - d - 1) % nc].val();
                        }
                    }
                }
                for c in 0..self._crossbars {
                    for j in 0..self._crossbars {
                        self.pairs[c * nc + j].next = !self.shuffle.val()
                            & (((self.index[c].val() ^ self.index[j].val())
                                & !self.high_mask.val())
                                == self.zero.val());
                        self.pairs[nc * nc + c * nc + j].next =
                            ((self.amount_high.val() ^ self.index[c].val() ^ self.index[j].val())
                                & self.high_mask.val())
                                == self.zero.val();
                    }
                }
            }
        }
    }
}
