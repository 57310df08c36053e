//! What the taken transaction finds beside its table entry: the block an allocation would
//! take, and the group it acts on.

use rust_hdl::prelude::*;

use super::table::mask64;
use crate::grf::codes::kind;
use crate::grf::widths::{BlockMask, GlobalThread, GroupNumber, KindCode, VirtualBlock};
use crate::params::{GrfParams, Mapping};
use crate::signals::{constant, constants, signals};

/// The lookup (combinational; `docs/grf.md`). From the free mask it selects the lowest free
/// block of the part the mapping policy prefers for the transaction, else the lowest free
/// block anywhere; and from the groups, the transaction's own group for alloc and wait, its
/// entry's otherwise (the entry itself is found by [`crate::grf::EntryLookup`]). Both read state
/// that any EU's transaction changes, so they stay in the cycle the transaction is taken. `A`
/// is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct TransactionLookup<const A: usize> {
    /// The transaction's global thread.
    pub thread: Signal<In, GlobalThread>,
    /// The virtual block of its register.
    pub vblock: Signal<In, VirtualBlock>,
    /// Its kind (`codes::kind`).
    pub kind: Signal<In, KindCode>,
    /// Its group (alloc, wait).
    pub group: Signal<In, GroupNumber>,
    /// The group of the transaction's entry.
    pub entry_group: Signal<In, GroupNumber>,
    /// The free blocks.
    pub free: Signal<In, BlockMask>,
    /// The groups 1..=7 (index g - 1): bound.
    pub group_bound: Vec<Signal<In, Bit>>,
    /// Per group: its block's first row.
    pub group_base: Vec<Signal<In, Bits<A>>>,
    /// Per group: it holds one reference.
    pub group_one: Vec<Signal<In, Bit>>,
    /// The block an allocation takes, one-hot (zero: none free).
    pub chosen: Signal<Out, BlockMask>,
    /// That block's first row.
    pub chosen_base: Signal<Out, Bits<A>>,
    /// The group the transaction acts on.
    pub select: Signal<Out, GroupNumber>,
    /// That group's bound bit.
    pub bound: Signal<Out, Bit>,
    /// That group holds one reference.
    pub one: Signal<Out, Bit>,
    /// The group's first row.
    pub group_row: Signal<Out, Bits<A>>,
    /// Per block: its first row if it is the chosen block, else zero.
    pick_chosen: Vec<Signal<Local, Bits<A>>>,
    /// Per group: it is the selected one.
    selected: Vec<Signal<Local, Bit>>,
    /// Per group: its first row if selected, else zero.
    pick_row: Vec<Signal<Local, Bits<A>>>,
    want_low: Signal<Local, Bit>,
    candidates: Signal<Local, BlockMask>,
    k_alloc: Constant<KindCode>,
    k_wait: Constant<KindCode>,
    zero_a: Constant<Bits<A>>,
    one64: Constant<BlockMask>,
    thread_number: Vec<Constant<GlobalThread>>,
    vb_number: Vec<Constant<VirtualBlock>>,
    group_number: Vec<Constant<GroupNumber>>,
    /// Per block: its first row.
    block_base: Vec<Constant<Bits<A>>>,
    /// The low-energy part.
    low_blocks: Constant<BlockMask>,
    /// The blocks that exist: the search for the lowest free block is sized to them (its
    /// carry chain stops at the last block, not at bit 63).
    all_blocks: Constant<BlockMask>,
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
        let (blocks, groups) = (params.blocks(), GrfParams::GROUPS);
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
            entry_group: Default::default(),
            free: Default::default(),
            group_bound: signals(groups),
            group_base: signals(groups),
            group_one: signals(groups),
            chosen: Default::default(),
            chosen_base: Default::default(),
            select: Default::default(),
            bound: Default::default(),
            one: Default::default(),
            group_row: Default::default(),
            pick_chosen: signals(blocks),
            selected: signals(groups),
            pick_row: signals(groups),
            want_low: Default::default(),
            candidates: Default::default(),
            k_alloc: constant(kind::ALLOC),
            k_wait: constant(kind::WAIT),
            zero_a: constant(0),
            one64: constant(1),
            thread_number: constants(0..threads as u64),
            vb_number: constants(0..vb as u64),
            group_number: constants(1..=groups as u64),
            block_base: constants((0..blocks).map(|b| (b * GrfParams::BLOCK) as u64)),
            low_blocks: constant(mask64(params.low_energy_blocks)),
            all_blocks: constant(mask64(blocks)),
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
    #[hdl_gen]
    fn update(&mut self) {
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
        self.chosen.next = self.candidates.val()
            & self.all_blocks.val()
            & (!self.candidates.val() + self.one64.val());
        self.chosen_base.next = self.zero_a.val();
        for b in 0..self._blocks {
            self.pick_chosen[b].next = self.zero_a.val();
            if self.chosen.val().get_bit(b) {
                self.pick_chosen[b].next = self.block_base[b].val();
            }
            self.chosen_base.next = self.chosen_base.val() | self.pick_chosen[b].val();
        }
        // The group.
        self.select.next = self.entry_group.val();
        if (self.kind.val() == self.k_wait.val()) | (self.kind.val() == self.k_alloc.val()) {
            self.select.next = self.group.val();
        }
        self.bound.next = false;
        self.one.next = false;
        self.group_row.next = self.zero_a.val();
        for g in 0..GrfParams::GROUPS {
            self.selected[g].next = self.select.val() == self.group_number[g].val();
            self.pick_row[g].next = self.zero_a.val();
            if self.selected[g].val() {
                self.pick_row[g].next = self.group_base[g].val();
            }
            self.bound.next =
                self.bound.val() | (self.selected[g].val() & self.group_bound[g].val());
            self.one.next = self.one.val() | (self.selected[g].val() & self.group_one[g].val());
            self.group_row.next = self.group_row.val() | self.pick_row[g].val();
        }
    }
}
