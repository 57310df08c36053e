//! The translation table: one entry per (global thread, virtual block), and the free physical
//! blocks.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::{BlockMask, GroupNumber};
use crate::params::GrfParams;
use crate::signals::{constant, constants, signals};

/// The translation table's storage (`docs/grf.md`): the entries and the free mask, shown as
/// they are; [`super::TransactionLookup`] reads them. `write` replaces the entry selected by
/// `slot` on the clock edge; `take_chosen` marks the `chosen` block used, `give_back` frees
/// `block`. `A` is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct TranslationTable<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the pre-allocated entries and free mask.
    pub reset: Signal<In, Bit>,
    /// Per entry: it is the one written.
    pub slot: Vec<Signal<In, Bit>>,
    /// Replace the selected entry on the clock edge.
    pub write: Signal<In, Bit>,
    /// The new entry's valid bit.
    pub write_valid: Signal<In, Bit>,
    /// The new entry's first row.
    pub write_base: Signal<In, Bits<A>>,
    /// The new entry's shared bit.
    pub write_shared: Signal<In, Bit>,
    /// The new entry's group.
    pub write_group: Signal<In, GroupNumber>,
    /// The `chosen` block is no longer free.
    pub take_chosen: Signal<In, Bit>,
    /// The block an allocation takes, one-hot.
    pub chosen: Signal<In, BlockMask>,
    /// `block` is free again.
    pub give_back: Signal<In, Bit>,
    /// The block freed, one-hot.
    pub block: Signal<In, BlockMask>,
    /// Per entry (`thread * virtual_blocks + vblock`): it maps a block.
    pub entry_valid: Vec<Signal<Out, Bit>>,
    /// Per entry: the first row of the block it maps.
    pub entry_base: Vec<Signal<Out, Bits<A>>>,
    /// Per entry: the block is shared.
    pub entry_shared: Vec<Signal<Out, Bit>>,
    /// Per entry: its group (0 private).
    pub entry_group: Vec<Signal<Out, GroupNumber>>,
    /// Free physical blocks, bit b = block b: as the registers hold them, or, with the
    /// bookkeeping a cycle later (`pipeline` 3), as this cycle's changes leave them (the
    /// changes come from registers, so this depends on registers only).
    pub free: Signal<Out, BlockMask>,
    t_valid: Registers<Bit>,
    t_base: Registers<Bits<A>>,
    t_shared: Registers<Bit>,
    t_group: Registers<GroupNumber>,
    t_free: Registers<BlockMask>,
    zero3: Constant<GroupNumber>,
    /// Reset values of the table (pre-allocation) and of the free mask.
    reset_valid: Vec<Constant<Bit>>,
    reset_base: Vec<Constant<Bits<A>>>,
    reset_free: Constant<BlockMask>,
    _slots: usize,
    /// 1 when the bookkeeping is applied a cycle later (`pipeline` 3 and up), else 0.
    _later: usize,
}

/// Ones in the low `n` bits of a 64-bit mask.
pub(super) fn mask64(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl<const A: usize> TranslationTable<A> {
    /// The table for `params` (`A` must be its slow GRF's row-address width).
    pub fn new(params: &GrfParams) -> Self {
        assert_eq!(A, params.slow_bits());
        let vb = params.virtual_blocks;
        let slots = params.all_threads() * vb;
        let entries: Vec<Option<usize>> = (0..slots)
            .map(|k| params.preallocation(k / vb, k % vb))
            .collect();
        let reset_free = entries
            .iter()
            .flatten()
            .fold(mask64(params.blocks()), |free, &b| free & !(1u64 << b));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            slot: signals(slots),
            write: Default::default(),
            write_valid: Default::default(),
            write_base: Default::default(),
            write_shared: Default::default(),
            write_group: Default::default(),
            take_chosen: Default::default(),
            chosen: Default::default(),
            give_back: Default::default(),
            block: Default::default(),
            entry_valid: signals(slots),
            entry_base: signals(slots),
            entry_shared: signals(slots),
            entry_group: signals(slots),
            free: Default::default(),
            t_valid: Registers::new(slots),
            t_base: Registers::new(slots),
            t_shared: Registers::new(slots),
            t_group: Registers::new(slots),
            t_free: Registers::new(1),
            zero3: constant(0),
            reset_valid: entries.iter().map(|e| Constant::new(e.is_some())).collect(),
            reset_base: constants(
                entries
                    .iter()
                    .map(|e| e.map_or(0, |b| b * GrfParams::BLOCK) as u64),
            ),
            reset_free: constant(reset_free),
            _slots: slots,
            _later: usize::from(params.pipeline >= 3),
        }
    }
}

impl<const A: usize> Logic for TranslationTable<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.t_valid.clock.next = self.clock.val();
        self.t_base.clock.next = self.clock.val();
        self.t_shared.clock.next = self.clock.val();
        self.t_group.clock.next = self.clock.val();
        self.t_free.clock.next = self.clock.val();
        self.free.next = self.t_free.q[0].val();
        self.t_free.d[0].next = self.t_free.q[0].val();
        if self.take_chosen.val() {
            self.t_free.d[0].next = self.t_free.q[0].val() & !self.chosen.val();
        }
        if self.give_back.val() {
            self.t_free.d[0].next = self.t_free.q[0].val() | self.block.val();
        }
        // With the changes applied a cycle later, the decisions read the mask as this cycle
        // leaves it, but not as reset does: no transaction is taken during reset.
        for _later in 0..self._later {
            self.free.next = self.t_free.d[0].val();
        }
        if self.reset.val() {
            self.t_free.d[0].next = self.reset_free.val();
        }
        for k in 0..self._slots {
            self.entry_valid[k].next = self.t_valid.q[k].val();
            self.entry_base[k].next = self.t_base.q[k].val();
            self.entry_shared[k].next = self.t_shared.q[k].val();
            self.entry_group[k].next = self.t_group.q[k].val();
            self.t_valid.d[k].next = self.t_valid.q[k].val();
            self.t_base.d[k].next = self.t_base.q[k].val();
            self.t_shared.d[k].next = self.t_shared.q[k].val();
            self.t_group.d[k].next = self.t_group.q[k].val();
            if self.write.val() & self.slot[k].val() {
                self.t_valid.d[k].next = self.write_valid.val();
                self.t_base.d[k].next = self.write_base.val();
                self.t_shared.d[k].next = self.write_shared.val();
                self.t_group.d[k].next = self.write_group.val();
            }
            if self.reset.val() {
                self.t_valid.d[k].next = self.reset_valid[k].val();
                self.t_base.d[k].next = self.reset_base[k].val();
                self.t_shared.d[k].next = false;
                self.t_group.d[k].next = self.zero3.val();
            }
        }
    }
}
