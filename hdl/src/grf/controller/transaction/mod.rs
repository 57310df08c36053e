//! The work on the taken transaction: what it finds, what is decided, and the table and group
//! updates.

mod bookkeeping;
mod decoder;
mod groups;
mod lookup;
mod table;

pub use bookkeeping::BookkeepingStage;
pub use decoder::TransactionDecoder;
pub use groups::GroupUnit;
pub use lookup::TransactionLookup;
pub use table::TranslationTable;

use rust_hdl::prelude::*;

use crate::grf::codes::kind;
use crate::grf::widths::{
    BlockMask, BlockOffset, EuNumber, GlobalThread, GroupNumber, KindCode, OffsetMask, RegIndex,
    StatusCode, OFFSET_BITS, VBLOCK_BITS,
};
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::{constant, constants, signals};

/// The transaction unit (`docs/grf.md`): given the taken transaction's table entry (found by
/// [`crate::grf::EntryLookup`] in the pick stage), the lookup finds the block an allocation would
/// take and the group it acts on; the decoder decides; the table and the groups are updated on
/// the clock edge. The outputs are the decisions the rest of the
/// controller acts on. `A` is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct TransactionUnit<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the table's pre-allocation, every group unbound.
    pub reset: Signal<In, Bit>,
    /// A transaction is taken this cycle.
    pub take: Signal<In, Bit>,
    /// From this EU.
    pub eu: Signal<In, EuNumber>,
    /// Its kind (`codes::kind`).
    pub kind: Signal<In, KindCode>,
    /// Its global thread.
    pub thread: Signal<In, GlobalThread>,
    /// Its register (or 16 x virtual block).
    pub reg_index: Signal<In, RegIndex>,
    /// Its group (alloc, wait).
    pub group: Signal<In, GroupNumber>,
    /// The refill engine's pending rows (none while it is idle).
    pub refill_pending: Signal<In, OffsetMask>,
    /// The transaction's table entry, one-hot ([`crate::grf::EntryLookup`]).
    pub found_slot: Vec<Signal<In, Bit>>,
    /// The entry is mapped.
    pub found_valid: Signal<In, Bit>,
    /// The first row of the block it maps.
    pub found_base: Signal<In, Bits<A>>,
    /// Its block is the one the refill engine refills.
    pub found_refilled: Signal<In, Bit>,
    /// The entry is shared.
    pub found_shared: Signal<In, Bit>,
    /// The entry's group.
    pub found_group: Signal<In, GroupNumber>,
    /// The table's entries, for the entry lookup: mapped.
    pub entry_valid: Vec<Signal<Out, Bit>>,
    /// Per entry: its block's first row.
    pub entry_base: Vec<Signal<Out, Bits<A>>>,
    /// Per entry: shared.
    pub entry_shared: Vec<Signal<Out, Bit>>,
    /// Per entry: its group.
    pub entry_group: Vec<Signal<Out, GroupNumber>>,
    /// The register's row in the slow GRF; a switch's is its block's first row, the first a
    /// save reads.
    pub row: Signal<Out, Bits<A>>,
    /// Its offset within the block.
    pub offset: Signal<Out, BlockOffset>,
    /// The mapped block's first row.
    pub base: Signal<Out, Bits<A>>,
    /// The mapped block, one-hot.
    pub block: Signal<Out, BlockMask>,
    /// The mapped block is shared.
    pub shared: Signal<Out, Bit>,
    /// The EU is answered next cycle, with `status` and `answer_shared`.
    pub answer: Signal<Out, Bit>,
    /// The answer's status.
    pub status: Signal<Out, StatusCode>,
    /// The answer's shared bit.
    pub answer_shared: Signal<Out, Bit>,
    /// Start a slow GRF read.
    pub slow_read: Signal<Out, Bit>,
    /// Serve the read from L3.
    pub redirect: Signal<Out, Bit>,
    /// Write the slow GRF.
    pub write: Signal<Out, Bit>,
    /// The write wins over the refill of its row.
    pub clear_refill: Signal<Out, Bit>,
    /// A context switch of the mapped block.
    pub start_switch: Signal<Out, Bit>,
    /// Per EU: let through by an opening barrier.
    pub open: Vec<Signal<Out, Bit>>,
    /// Per EU: turned away by a dying group.
    pub turned_away: Vec<Signal<Out, Bit>>,
    lookup: TransactionLookup<A>,
    decoder: TransactionDecoder<A>,
    entries: TranslationTable<A>,
    groups: GroupUnit<A>,
    bookkeeping: BookkeepingStage<A>,
    /// The block the entry maps, one-hot.
    found_block: Signal<Local, BlockMask>,
    /// Per block: its first row and its bit.
    block_base: Vec<Constant<Bits<A>>>,
    block_bit: Vec<Constant<BlockMask>>,
    offset_number: Vec<Constant<BlockOffset>>,
    offset_row: Vec<Constant<Bits<A>>>,
    /// Per offset: its row offset if it is the register's, else zero.
    offset_term: Vec<Signal<Local, Bits<A>>>,
    /// The register's offset in its block, as a row.
    offset_wide: Signal<Local, Bits<A>>,
    /// Row zero.
    zero_row: Constant<Bits<A>>,
    /// The switch kind (`codes::kind`).
    k_switch: Constant<KindCode>,
    zero64: Constant<BlockMask>,
    _eus: usize,
    _slots: usize,
    _blocks: usize,
}

impl<const A: usize> TransactionUnit<A> {
    /// The unit for `params`.
    pub fn new(params: &GrfParams) -> Self {
        let eus = params.eus;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            eu: Default::default(),
            kind: Default::default(),
            thread: Default::default(),
            reg_index: Default::default(),
            group: Default::default(),
            refill_pending: Default::default(),
            found_slot: signals(params.all_threads() * params.virtual_blocks),
            found_valid: Default::default(),
            found_base: Default::default(),
            found_refilled: Default::default(),
            found_shared: Default::default(),
            found_group: Default::default(),
            entry_valid: signals(params.all_threads() * params.virtual_blocks),
            entry_base: signals(params.all_threads() * params.virtual_blocks),
            entry_shared: signals(params.all_threads() * params.virtual_blocks),
            entry_group: signals(params.all_threads() * params.virtual_blocks),
            row: Default::default(),
            offset: Default::default(),
            base: Default::default(),
            block: Default::default(),
            shared: Default::default(),
            answer: Default::default(),
            status: Default::default(),
            answer_shared: Default::default(),
            slow_read: Default::default(),
            redirect: Default::default(),
            write: Default::default(),
            clear_refill: Default::default(),
            start_switch: Default::default(),
            open: signals(eus),
            turned_away: signals(eus),
            lookup: TransactionLookup::new(params),
            decoder: TransactionDecoder::default(),
            entries: TranslationTable::new(params),
            groups: GroupUnit::new(params),
            bookkeeping: BookkeepingStage::new(params),
            found_block: Default::default(),
            block_base: constants((0..params.blocks()).map(|b| (b * GrfParams::BLOCK) as u64)),
            block_bit: constants((0..params.blocks()).map(|b| 1u64 << b)),
            offset_number: constants(0..GrfParams::BLOCK as u64),
            offset_row: constants(0..GrfParams::BLOCK as u64),
            offset_term: signals(GrfParams::BLOCK),
            offset_wide: Default::default(),
            zero_row: constant(0),
            k_switch: constant(kind::SWITCH),
            zero64: constant(0),
            _eus: eus,
            _slots: params.all_threads() * params.virtual_blocks,
            _blocks: params.blocks(),
        }
    }
}

/// What the transaction finds: its entry, group and block in the table as the bookkeeping leaves them, the row it names, a free block.
enum Lookup {}

/// What is decided, and the table and the groups acting on it, at once or a cycle later through the bookkeeping stage.
enum Decision {}

impl<const A: usize> Logic for TransactionUnit<A> {
    logic_in_parts!(Lookup, Decision);
}

impl<const A: usize> crate::parts::Part<Lookup> for TransactionUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.entries.clock.next = self.clock.val();
        self.groups.clock.next = self.clock.val();
        self.bookkeeping.clock.next = self.clock.val();
        self.entries.reset.next = self.reset.val();
        self.groups.reset.next = self.reset.val();
        // What the transaction finds.
        self.lookup.thread.next = self.thread.val();
        // A register's virtual block is above its offset, at bit 4 (`OFFSET_BITS`): a literal,
        // since `#[hdl_gen]` would write a named constant into the Verilog as a signal's name.
        self.lookup.vblock.next = self.reg_index.val().get_bits::<VBLOCK_BITS>(4);
        self.lookup.kind.next = self.kind.val();
        self.lookup.group.next = self.group.val();
        self.lookup.free.next = self.entries.free.val();
        // With the bookkeeping stage, the table and the groups show the free blocks and the
        // groups' bindings as the last transaction's bookkeeping, applied this cycle, leaves
        // them.
        self.lookup.entry_group.next = self.found_group.val();
        for k in 0..self._slots {
            self.entry_valid[k].next = self.entries.entry_valid[k].val();
            self.entry_base[k].next = self.entries.entry_base[k].val();
            self.entry_shared[k].next = self.entries.entry_shared[k].val();
            self.entry_group[k].next = self.entries.entry_group[k].val();
            self.bookkeeping.slot[k].next = self.found_slot[k].val();
            self.entries.slot[k].next = self.bookkeeping.apply_slot[k].val();
        }
        for g in 0..GrfParams::GROUPS {
            self.lookup.group_bound[g].next = self.groups.bound[g].val();
            self.lookup.group_base[g].next = self.groups.base[g].val();
            self.lookup.group_one[g].next = self.groups.one[g].val();
        }
        self.offset.next = self.reg_index.val().get_bits::<OFFSET_BITS>(0);
        // The offset widened to a row (docs/rust-hdl.md, 12) as an OR of one-hot gated
        // constants, or'ed into the block's first row (a multiple of 16): no adder.
        self.offset_wide.next = self.zero_row.val();
        for o in 0..GrfParams::BLOCK {
            self.offset_term[o].next = self.zero_row.val();
            if (self.reg_index.val().get_bits::<OFFSET_BITS>(0) == self.offset_number[o].val())
                & (self.kind.val() != self.k_switch.val())
            {
                self.offset_term[o].next = self.offset_row[o].val();
            }
            self.offset_wide.next = self.offset_wide.val() | self.offset_term[o].val();
        }
        self.row.next = self.found_base.val() | self.offset_wide.val();
        self.found_block.next = self.zero64.val();
        for b in 0..self._blocks {
            if self.found_base.val() == self.block_base[b].val() {
                self.found_block.next = self.found_block.val() | self.block_bit[b].val();
            }
        }
        self.base.next = self.found_base.val();
        self.block.next = self.found_block.val();
        self.shared.next = self.found_shared.val();
    }
}

impl<const A: usize> crate::parts::Part<Decision> for TransactionUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // What is decided.
        self.decoder.take.next = self.take.val();
        self.decoder.kind.next = self.kind.val();
        self.decoder.group.next = self.group.val();
        self.decoder.mapped.next = self.found_valid.val();
        self.decoder.shared.next = self.found_shared.val();
        self.decoder.group_bound.next = self.lookup.bound.val();
        self.decoder.group_base.next = self.lookup.group_row.val();
        self.decoder.group_one.next = self.lookup.one.val();
        // Some block is chosen exactly when some block is free: the status does not wait for
        // the search.
        self.decoder.free_block.next = self.entries.free.val().any();
        // A pending row means the refill engine is busy; the block was compared as the entry
        // was found.
        self.decoder.refilling.next = self.found_refilled.val()
            & self
                .refill_pending
                .val()
                .get_bit(self.reg_index.val().get_bits::<OFFSET_BITS>(0).index());
        self.answer.next = self.decoder.answer.val();
        self.status.next = self.decoder.status.val();
        self.answer_shared.next = self.decoder.answer_shared.val();
        self.slow_read.next = self.decoder.slow_read.val();
        self.redirect.next = self.decoder.redirect.val();
        self.write.next = self.decoder.write.val();
        self.clear_refill.next = self.decoder.clear_refill.val();
        self.start_switch.next = self.decoder.start_switch.val();
        // The table and the groups act on it: at once, or a cycle later through the
        // bookkeeping stage.
        self.bookkeeping.table_write.next = self.decoder.table_write.val();
        self.bookkeeping.table_valid.next = self.decoder.table_valid.val();
        self.bookkeeping.table_base.next = self.decoder.table_base.val();
        self.bookkeeping.table_shared.next = self.decoder.table_shared.val();
        self.bookkeeping.table_group.next = self.decoder.table_group.val();
        self.bookkeeping.take_block.next = self.decoder.take_block.val();
        self.bookkeeping.chosen.next = self.lookup.chosen.val();
        self.bookkeeping.give_back.next = self.decoder.give_back.val();
        self.bookkeeping.block.next = self.found_block.val();
        self.bookkeeping.select.next = self.lookup.select.val();
        self.bookkeeping.access.next = self.decoder.group_access.val();
        self.bookkeeping.join_group.next = self.decoder.group_join.val();
        self.bookkeeping.bind_group.next = self.decoder.group_bind.val();
        self.bookkeeping.bind_base.next = self.lookup.chosen_base.val();
        self.bookkeeping.leave.next = self.decoder.group_leave.val();
        self.bookkeeping.wait_group.next = self.decoder.group_wait.val();
        self.bookkeeping.wait_eu.next = self.eu.val();
        self.entries.write.next = self.bookkeeping.apply_table_write.val();
        self.entries.write_valid.next = self.bookkeeping.apply_table_valid.val();
        self.entries.write_base.next = self.bookkeeping.apply_table_base.val();
        self.entries.write_shared.next = self.bookkeeping.apply_table_shared.val();
        self.entries.write_group.next = self.bookkeeping.apply_table_group.val();
        self.entries.take_chosen.next = self.bookkeeping.apply_take_block.val();
        self.entries.chosen.next = self.bookkeeping.apply_chosen.val();
        self.entries.give_back.next = self.bookkeeping.apply_give_back.val();
        self.entries.block.next = self.bookkeeping.apply_block.val();
        self.groups.select.next = self.bookkeeping.apply_select.val();
        self.groups.access.next = self.bookkeeping.apply_access.val();
        self.groups.join_group.next = self.bookkeeping.apply_join.val();
        self.groups.bind_group.next = self.bookkeeping.apply_bind.val();
        self.groups.bind_base.next = self.bookkeeping.apply_bind_base.val();
        self.groups.leave.next = self.bookkeeping.apply_leave.val();
        self.groups.wait_group.next = self.bookkeeping.apply_wait.val();
        self.groups.wait_eu.next = self.bookkeeping.apply_wait_eu.val();
        for e in 0..self._eus {
            self.open[e].next = self.groups.open[e].val();
            self.turned_away[e].next = self.groups.turned_away[e].val();
        }
    }
}
