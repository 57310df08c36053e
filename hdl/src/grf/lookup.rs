//! What the taken transaction finds: its table entry, the block an allocation would take, and
//! the group it acts on.

use rust_hdl::prelude::*;

use super::codes::kind;
use super::table::mask64;
use crate::params::{GrfParams, Mapping};
use crate::{constant, constants, signals};

/// The lookup (combinational; `docs/grf.md`). From the table's entries it selects the one of
/// (`thread`, `vblock`); from the free mask, the lowest free block of the
/// part the mapping policy prefers for that entry, else the lowest free block anywhere; and
/// from the groups, the transaction's own group for alloc and wait, the entry's otherwise.
/// `A` is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct TransactionLookup<const A: usize> {
    /// The transaction's global thread.
    pub thread: Signal<In, Bits<5>>,
    /// The virtual block of its register.
    pub vblock: Signal<In, Bits<2>>,
    /// Its kind (`codes::kind`).
    pub kind: Signal<In, Bits<3>>,
    /// Its group (alloc, wait).
    pub group: Signal<In, Bits<3>>,
    /// The table's entries: valid, first row, shared, group (`thread * vblocks + vblock`).
    pub entry_valid: Vec<Signal<In, Bit>>,
    /// Per entry: its block's first row.
    pub entry_base: Vec<Signal<In, Bits<A>>>,
    /// Per entry: shared.
    pub entry_shared: Vec<Signal<In, Bit>>,
    /// Per entry: its group.
    pub entry_group: Vec<Signal<In, Bits<3>>>,
    /// The free blocks.
    pub free: Signal<In, Bits<64>>,
    /// The groups 1..=7 (index g - 1): bound, first row, references, accesses, passed, waiting.
    pub group_bound: Vec<Signal<In, Bit>>,
    /// Per group: its block's first row.
    pub group_base: Vec<Signal<In, Bits<A>>>,
    /// Per group: its reference count.
    pub group_refs: Vec<Signal<In, Bits<8>>>,
    /// Per group: its accesses since the barrier last opened.
    pub group_count: Vec<Signal<In, Bits<8>>>,
    /// Per group: the EUs that passed since it re-armed.
    pub group_passed: Vec<Signal<In, Bits<8>>>,
    /// Per group: its waiting EUs.
    pub group_waiting: Vec<Signal<In, Bits<8>>>,
    /// Per entry: it is the transaction's.
    pub slot: Vec<Signal<Out, Bit>>,
    /// The entry maps a block.
    pub valid: Signal<Out, Bit>,
    /// The mapped block's first row.
    pub base: Signal<Out, Bits<A>>,
    /// The block is shared.
    pub shared: Signal<Out, Bit>,
    /// The mapped block, one-hot.
    pub block: Signal<Out, Bits<64>>,
    /// The block an allocation takes, one-hot (zero: none free).
    pub chosen: Signal<Out, Bits<64>>,
    /// That block's first row.
    pub chosen_base: Signal<Out, Bits<A>>,
    /// The group the transaction acts on.
    pub select: Signal<Out, Bits<3>>,
    /// That group's bound bit, first row, references, accesses, passed and waiting EUs.
    pub bound: Signal<Out, Bit>,
    /// The group's first row.
    pub group_row: Signal<Out, Bits<A>>,
    /// The group's reference count.
    pub refs: Signal<Out, Bits<8>>,
    /// The group's accesses since its barrier last opened.
    pub count: Signal<Out, Bits<8>>,
    /// The EUs that passed its barrier since it re-armed.
    pub passed: Signal<Out, Bits<8>>,
    /// Its waiting EUs.
    pub waiting: Signal<Out, Bits<8>>,
    entry_group_now: Signal<Local, Bits<3>>,
    /// Per entry: its first row if it is the transaction's, else zero.
    pick_base: Vec<Signal<Local, Bits<A>>>,
    /// Per entry: its group if it is the transaction's, else zero.
    pick_group: Vec<Signal<Local, Bits<3>>>,
    /// Per block: its one-hot bit if it is the mapped block, else zero.
    pick_block: Vec<Signal<Local, Bits<64>>>,
    /// Per block: its first row if it is the chosen block, else zero.
    pick_chosen: Vec<Signal<Local, Bits<A>>>,
    /// Per group: it is the selected one.
    selected: Vec<Signal<Local, Bit>>,
    /// Per group: its first row, references, accesses, passed and waiting EUs if selected,
    /// else zero.
    pick_row: Vec<Signal<Local, Bits<A>>>,
    pick_refs: Vec<Signal<Local, Bits<8>>>,
    pick_count: Vec<Signal<Local, Bits<8>>>,
    pick_passed: Vec<Signal<Local, Bits<8>>>,
    pick_waiting: Vec<Signal<Local, Bits<8>>>,
    want_low: Signal<Local, Bit>,
    candidates: Signal<Local, Bits<64>>,
    k_alloc: Constant<Bits<3>>,
    k_wait: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    zero_a: Constant<Bits<A>>,
    zero64: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    thread_number: Vec<Constant<Bits<5>>>,
    vb_number: Vec<Constant<Bits<2>>>,
    group_number: Vec<Constant<Bits<3>>>,
    /// Per block: base row and one-hot bit.
    block_base: Vec<Constant<Bits<A>>>,
    block_bit: Vec<Constant<Bits<64>>>,
    /// The low-energy part.
    low_blocks: Constant<Bits<64>>,
    /// Which allocations want the low-energy part: per global thread, per virtual block.
    low_thread: Vec<Constant<Bit>>,
    low_block: Vec<Constant<Bit>>,
    _threads: usize,
    _vblocks: usize,
    _blocks: usize,
}

impl<const A: usize> TransactionLookup<A> {
    /// The lookup for `params` (`A` must be its slow GRF's row-address width).
    pub fn new(params: &GrfParams) -> Self {
        let threads = params.all_threads();
        let vb = params.virtual_blocks;
        let (slots, blocks, groups) = (threads * vb, params.blocks(), GrfParams::GROUPS);
        let (by_thread, by_block) = match params.mapping {
            Mapping::Threads(_) => (true, false),
            Mapping::Fraction(_) => (false, true),
            Mapping::None => (false, false),
        };
        Self {
            thread: Default::default(),
            vblock: Default::default(),
            kind: Default::default(),
            group: Default::default(),
            entry_valid: signals(slots),
            entry_base: signals(slots),
            entry_shared: signals(slots),
            entry_group: signals(slots),
            free: Default::default(),
            group_bound: signals(groups),
            group_base: signals(groups),
            group_refs: signals(groups),
            group_count: signals(groups),
            group_passed: signals(groups),
            group_waiting: signals(groups),
            slot: signals(slots),
            valid: Default::default(),
            base: Default::default(),
            shared: Default::default(),
            block: Default::default(),
            chosen: Default::default(),
            chosen_base: Default::default(),
            select: Default::default(),
            bound: Default::default(),
            group_row: Default::default(),
            refs: Default::default(),
            count: Default::default(),
            passed: Default::default(),
            waiting: Default::default(),
            entry_group_now: Default::default(),
            pick_base: signals(slots),
            pick_group: signals(slots),
            pick_block: signals(blocks),
            pick_chosen: signals(blocks),
            selected: signals(groups),
            pick_row: signals(groups),
            pick_refs: signals(groups),
            pick_count: signals(groups),
            pick_passed: signals(groups),
            pick_waiting: signals(groups),
            want_low: Default::default(),
            candidates: Default::default(),
            k_alloc: constant(kind::ALLOC),
            k_wait: constant(kind::WAIT),
            zero3: constant(0),
            zero8: constant(0),
            zero_a: constant(0),
            zero64: constant(0),
            one64: constant(1),
            thread_number: constants(0..threads as u64),
            vb_number: constants(0..vb as u64),
            group_number: constants(1..=groups as u64),
            block_base: constants((0..blocks).map(|b| (b * GrfParams::BLOCK) as u64)),
            block_bit: constants((0..blocks).map(|b| 1u64 << b)),
            low_blocks: constant(mask64(params.low_energy_blocks)),
            low_thread: (0..threads)
                .map(|t| Constant::new(by_thread && params.wants_low_energy(t, 0)))
                .collect(),
            low_block: (0..vb)
                .map(|v| Constant::new(by_block && params.wants_low_energy(0, v)))
                .collect(),
            _threads: threads,
            _vblocks: vb,
            _blocks: blocks,
        }
    }
}

impl<const A: usize> Logic for TransactionLookup<A> {
    // A single-value loop binds the virtual blocks (nv) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // The entry, and the block it maps: one-hot selections as ORs of gated terms, so
        // that none is a chain through the slots or the blocks.
        self.valid.next = false;
        self.base.next = self.zero_a.val();
        self.shared.next = false;
        self.entry_group_now.next = self.zero3.val();
        for nv in self._vblocks..(self._vblocks + 1) {
            for t in 0..self._threads {
                for v in 0..self._vblocks {
                    self.slot[t * nv + v].next = (self.thread.val() == self.thread_number[t].val())
                        & (self.vblock.val() == self.vb_number[v].val());
                    self.pick_base[t * nv + v].next = self.zero_a.val();
                    self.pick_group[t * nv + v].next = self.zero3.val();
                    if self.slot[t * nv + v].val() {
                        self.pick_base[t * nv + v].next = self.entry_base[t * nv + v].val();
                        self.pick_group[t * nv + v].next = self.entry_group[t * nv + v].val();
                    }
                    self.valid.next = self.valid.val()
                        | (self.slot[t * nv + v].val() & self.entry_valid[t * nv + v].val());
                    self.shared.next = self.shared.val()
                        | (self.slot[t * nv + v].val() & self.entry_shared[t * nv + v].val());
                    self.base.next = self.base.val() | self.pick_base[t * nv + v].val();
                    self.entry_group_now.next =
                        self.entry_group_now.val() | self.pick_group[t * nv + v].val();
                }
            }
        }
        self.block.next = self.zero64.val();
        for b in 0..self._blocks {
            self.pick_block[b].next = self.zero64.val();
            if self.base.val() == self.block_base[b].val() {
                self.pick_block[b].next = self.block_bit[b].val();
            }
            self.block.next = self.block.val() | self.pick_block[b].val();
        }
        // The block an allocation takes: the lowest free one of the wanted part, else any.
        self.want_low.next = false;
        for t in 0..self._threads {
            if (self.thread.val() == self.thread_number[t].val()) & self.low_thread[t].val() {
                self.want_low.next = true;
            }
        }
        for v in 0..self._vblocks {
            if (self.vblock.val() == self.vb_number[v].val()) & self.low_block[v].val() {
                self.want_low.next = true;
            }
        }
        self.candidates.next = self.free.val() & !self.low_blocks.val();
        if self.want_low.val() {
            self.candidates.next = self.free.val() & self.low_blocks.val();
        }
        if !self.candidates.val().any() {
            self.candidates.next = self.free.val();
        }
        self.chosen.next = self.candidates.val() & (!self.candidates.val() + self.one64.val());
        self.chosen_base.next = self.zero_a.val();
        for b in 0..self._blocks {
            self.pick_chosen[b].next = self.zero_a.val();
            if self.chosen.val().get_bit(b) {
                self.pick_chosen[b].next = self.block_base[b].val();
            }
            self.chosen_base.next = self.chosen_base.val() | self.pick_chosen[b].val();
        }
        // The group.
        self.select.next = self.entry_group_now.val();
        if (self.kind.val() == self.k_wait.val()) | (self.kind.val() == self.k_alloc.val()) {
            self.select.next = self.group.val();
        }
        self.bound.next = false;
        self.group_row.next = self.zero_a.val();
        self.refs.next = self.zero8.val();
        self.count.next = self.zero8.val();
        self.passed.next = self.zero8.val();
        self.waiting.next = self.zero8.val();
        for g in 0..7 {
            self.selected[g].next = self.select.val() == self.group_number[g].val();
            self.pick_row[g].next = self.zero_a.val();
            self.pick_refs[g].next = self.zero8.val();
            self.pick_count[g].next = self.zero8.val();
            self.pick_passed[g].next = self.zero8.val();
            self.pick_waiting[g].next = self.zero8.val();
            if self.selected[g].val() {
                self.pick_row[g].next = self.group_base[g].val();
                self.pick_refs[g].next = self.group_refs[g].val();
                self.pick_count[g].next = self.group_count[g].val();
                self.pick_passed[g].next = self.group_passed[g].val();
                self.pick_waiting[g].next = self.group_waiting[g].val();
            }
            self.bound.next =
                self.bound.val() | (self.selected[g].val() & self.group_bound[g].val());
            self.group_row.next = self.group_row.val() | self.pick_row[g].val();
            self.refs.next = self.refs.val() | self.pick_refs[g].val();
            self.count.next = self.count.val() | self.pick_count[g].val();
            self.passed.next = self.passed.val() | self.pick_passed[g].val();
            self.waiting.next = self.waiting.val() | self.pick_waiting[g].val();
        }
    }
}
