//! A transaction's translation-table entry: which slot it is, whether it is mapped, the block it
//! maps and the group that entry belongs to.

use rust_hdl::prelude::*;

use crate::params::GrfParams;
use crate::{constant, constants, signals};

/// Finds the entry of (thread, virtual block) in the translation table (combinational). Only
/// the transaction's own EU changes its threads' entries, and an EU has one transaction
/// outstanding, so the entry found for a transaction stays right until it is taken: with
/// `--pipeline 2` the pick stage looks it up as it loads and holds the result.
#[derive(LogicBlock)]
pub struct EntryLookup<const A: usize> {
    /// Global thread of the transaction.
    pub thread: Signal<In, Bits<5>>,
    /// Virtual block of the transaction.
    pub vblock: Signal<In, Bits<2>>,
    /// Every table entry: mapped.
    pub entry_valid: Vec<Signal<In, Bit>>,
    /// Every table entry: the first row of its physical block.
    pub entry_base: Vec<Signal<In, Bits<A>>>,
    /// Every table entry: shared through a group.
    pub entry_shared: Vec<Signal<In, Bit>>,
    /// Every table entry: its group (1..=7; 0 for a private entry).
    pub entry_group: Vec<Signal<In, Bits<3>>>,
    /// One-hot: the transaction's slot (`thread * virtual_blocks + vblock`).
    pub slot: Vec<Signal<Out, Bit>>,
    /// The entry is mapped.
    pub valid: Signal<Out, Bit>,
    /// The first row of the block it maps (zero when unmapped).
    pub base: Signal<Out, Bits<A>>,
    /// The entry is shared.
    pub shared: Signal<Out, Bit>,
    /// The entry's group.
    pub group: Signal<Out, Bits<3>>,
    /// One-hot: the physical block `base` is the first row of.
    pub block: Signal<Out, Bits<64>>,
    pick_base: Vec<Signal<Local, Bits<A>>>,
    pick_group: Vec<Signal<Local, Bits<3>>>,
    pick_block: Vec<Signal<Local, Bits<64>>>,
    zero3: Constant<Bits<3>>,
    zero_a: Constant<Bits<A>>,
    zero64: Constant<Bits<64>>,
    thread_number: Vec<Constant<Bits<5>>>,
    vb_number: Vec<Constant<Bits<2>>>,
    block_base: Vec<Constant<Bits<A>>>,
    block_bit: Vec<Constant<Bits<64>>>,
    _threads: usize,
    _vblocks: usize,
    _blocks: usize,
}

impl<const A: usize> EntryLookup<A> {
    /// The lookup over the table of `params`.
    pub fn new(params: &GrfParams) -> Self {
        let threads = params.all_threads();
        let vb = params.virtual_blocks;
        let (slots, blocks) = (threads * vb, params.blocks());
        Self {
            thread: Default::default(),
            vblock: Default::default(),
            entry_valid: signals(slots),
            entry_base: signals(slots),
            entry_shared: signals(slots),
            entry_group: signals(slots),
            slot: signals(slots),
            valid: Default::default(),
            base: Default::default(),
            shared: Default::default(),
            group: Default::default(),
            block: Default::default(),
            pick_base: signals(slots),
            pick_group: signals(slots),
            pick_block: signals(blocks),
            zero3: constant(0),
            zero_a: constant(0),
            zero64: constant(0),
            thread_number: constants(0..threads as u64),
            vb_number: constants(0..vb as u64),
            block_base: constants((0..blocks).map(|b| (b * GrfParams::BLOCK) as u64)),
            block_bit: constants((0..blocks).map(|b| 1u64 << b)),
            _threads: threads,
            _vblocks: vb,
            _blocks: blocks,
        }
    }
}

impl<const A: usize> Logic for EntryLookup<A> {
    // A single-value loop binds the virtual blocks (nv) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // The entry, and the block it maps: one-hot selections as ORs of gated terms, so that
        // none is a chain through the slots or the blocks.
        self.valid.next = false;
        self.base.next = self.zero_a.val();
        self.shared.next = false;
        self.group.next = self.zero3.val();
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
                    self.group.next = self.group.val() | self.pick_group[t * nv + v].val();
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
    }
}
