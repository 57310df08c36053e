//! The bookkeeping stage: the decisions that change the translation table, the free blocks and
//! the groups, held for a cycle before they are applied (`pipeline` 3 and up) or passed
//! straight through.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::{BlockMask, EuNumber, GroupNumber};
use crate::params::GrfParams;
use crate::signals::signals;

/// The strobes' places in the bookkeeping stage's `flags`, in the order of its ports.
mod strobe {
    /// `table_write`.
    pub const TABLE_WRITE: usize = 0;
    /// `table_valid`.
    pub const TABLE_VALID: usize = 1;
    /// `table_shared`.
    pub const TABLE_SHARED: usize = 2;
    /// `take_block`.
    pub const TAKE_BLOCK: usize = 3;
    /// `give_back`.
    pub const GIVE_BACK: usize = 4;
    /// `access`.
    pub const ACCESS: usize = 5;
    /// `join_group`.
    pub const JOIN: usize = 6;
    /// `bind_group`.
    pub const BIND: usize = 7;
    /// `leave`.
    pub const LEAVE: usize = 8;
    /// `wait_group`.
    pub const WAIT: usize = 9;
    /// The strobes.
    pub const COUNT: usize = 10;
}

/// The bookkeeping stage (`docs/grf.md`, Timing). With `pipeline` 3 or more, the decoder's
/// table, free-block and group decisions are registered and applied the cycle after the
/// transaction is decided; otherwise they are wires. `A` is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct BookkeepingStage<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Replace the table entry `slot`.
    pub table_write: Signal<In, Bit>,
    /// The new entry's valid bit.
    pub table_valid: Signal<In, Bit>,
    /// The new entry's first row, but for a block taken (`take_block`), which is written with
    /// `bind_base`.
    pub table_base: Signal<In, Bits<A>>,
    /// The new entry's shared bit.
    pub table_shared: Signal<In, Bit>,
    /// The new entry's group.
    pub table_group: Signal<In, GroupNumber>,
    /// The entry written, one-hot.
    pub slot: Vec<Signal<In, Bit>>,
    /// The allocation takes the chosen block.
    pub take_block: Signal<In, Bit>,
    /// The chosen block, one-hot.
    pub chosen: Signal<In, BlockMask>,
    /// A block is given back: a private one, or a shared one by its group's last reference.
    pub give_back: Signal<In, Bit>,
    /// The transaction's block, one-hot (the one given back).
    pub block: Signal<In, BlockMask>,
    /// The group acted on.
    pub select: Signal<In, GroupNumber>,
    /// A shared access.
    pub access: Signal<In, Bit>,
    /// An allocation joins the bound group.
    pub join_group: Signal<In, Bit>,
    /// An allocation binds the group.
    pub bind_group: Signal<In, Bit>,
    /// The chosen block's first row: the block an allocation binds, or takes.
    pub bind_base: Signal<In, Bits<A>>,
    /// A release of a shared block.
    pub leave: Signal<In, Bit>,
    /// A wait at the group's barrier.
    pub wait_group: Signal<In, Bit>,
    /// The waiting EU.
    pub wait_eu: Signal<In, EuNumber>,
    /// `table_write`, to apply.
    pub apply_table_write: Signal<Out, Bit>,
    /// `table_valid`, to apply.
    pub apply_table_valid: Signal<Out, Bit>,
    /// `table_base`, to apply.
    pub apply_table_base: Signal<Out, Bits<A>>,
    /// `table_shared`, to apply.
    pub apply_table_shared: Signal<Out, Bit>,
    /// `table_group`, to apply.
    pub apply_table_group: Signal<Out, GroupNumber>,
    /// `slot`, to apply.
    pub apply_slot: Vec<Signal<Out, Bit>>,
    /// `take_block`, to apply.
    pub apply_take_block: Signal<Out, Bit>,
    /// `chosen`, to apply.
    pub apply_chosen: Signal<Out, BlockMask>,
    /// `give_back`, to apply.
    pub apply_give_back: Signal<Out, Bit>,
    /// `block`, to apply.
    pub apply_block: Signal<Out, BlockMask>,
    /// `select`, to apply.
    pub apply_select: Signal<Out, GroupNumber>,
    /// `access`, to apply.
    pub apply_access: Signal<Out, Bit>,
    /// `join_group`, to apply.
    pub apply_join: Signal<Out, Bit>,
    /// `bind_group`, to apply.
    pub apply_bind: Signal<Out, Bit>,
    /// `bind_base`, to apply.
    pub apply_bind_base: Signal<Out, Bits<A>>,
    /// `leave`, to apply.
    pub apply_leave: Signal<Out, Bit>,
    /// `wait_group`, to apply.
    pub apply_wait: Signal<Out, Bit>,
    /// `wait_eu`, to apply.
    pub apply_wait_eu: Signal<Out, EuNumber>,
    /// The strobes, at their places in [`strobe`].
    flags: Registers<Bit>,
    /// The rows: table base, bind base.
    rows: Registers<Bits<A>>,
    /// The groups: table group, select.
    groups: Registers<GroupNumber>,
    /// The blocks: chosen, given back.
    blocks: Registers<BlockMask>,
    slots: Registers<Bit>,
    waiter: Registers<EuNumber>,
    _slots: usize,
}

impl<const A: usize> BookkeepingStage<A> {
    /// The stage of `params` (registers with `pipeline` 3 or more).
    pub fn new(params: &GrfParams) -> Self {
        let held = params.pipeline >= 3;
        let slots = params.all_threads() * params.virtual_blocks;
        Self {
            clock: Default::default(),
            table_write: Default::default(),
            table_valid: Default::default(),
            table_base: Default::default(),
            table_shared: Default::default(),
            table_group: Default::default(),
            slot: signals(slots),
            take_block: Default::default(),
            chosen: Default::default(),
            give_back: Default::default(),
            block: Default::default(),
            select: Default::default(),
            access: Default::default(),
            join_group: Default::default(),
            bind_group: Default::default(),
            bind_base: Default::default(),
            leave: Default::default(),
            wait_group: Default::default(),
            wait_eu: Default::default(),
            apply_table_write: Default::default(),
            apply_table_valid: Default::default(),
            apply_table_base: Default::default(),
            apply_table_shared: Default::default(),
            apply_table_group: Default::default(),
            apply_slot: signals(slots),
            apply_take_block: Default::default(),
            apply_chosen: Default::default(),
            apply_give_back: Default::default(),
            apply_block: Default::default(),
            apply_select: Default::default(),
            apply_access: Default::default(),
            apply_join: Default::default(),
            apply_bind: Default::default(),
            apply_bind_base: Default::default(),
            apply_leave: Default::default(),
            apply_wait: Default::default(),
            apply_wait_eu: Default::default(),
            flags: Registers::stage(strobe::COUNT, held),
            rows: Registers::stage(2, held),
            groups: Registers::stage(2, held),
            blocks: Registers::stage(2, held),
            slots: Registers::stage(slots, held),
            waiter: Registers::stage(1, held),
            _slots: slots,
        }
    }
}

impl<const A: usize> Logic for BookkeepingStage<A> {
    // Each strobe's place in `flags` is bound by a one-value loop: index arithmetic sees loop
    // variables only (docs/rust-hdl.md, 2).
    #[hdl_gen]
    fn update(&mut self) {
        self.flags.clock.next = self.clock.val();
        self.rows.clock.next = self.clock.val();
        self.groups.clock.next = self.clock.val();
        self.blocks.clock.next = self.clock.val();
        self.slots.clock.next = self.clock.val();
        self.waiter.clock.next = self.clock.val();
        for f in strobe::TABLE_WRITE..(strobe::TABLE_WRITE + 1) {
            self.flags.d[f].next = self.table_write.val();
        }
        for f in strobe::TABLE_VALID..(strobe::TABLE_VALID + 1) {
            self.flags.d[f].next = self.table_valid.val();
        }
        for f in strobe::TABLE_SHARED..(strobe::TABLE_SHARED + 1) {
            self.flags.d[f].next = self.table_shared.val();
        }
        for f in strobe::TAKE_BLOCK..(strobe::TAKE_BLOCK + 1) {
            self.flags.d[f].next = self.take_block.val();
        }
        for f in strobe::GIVE_BACK..(strobe::GIVE_BACK + 1) {
            self.flags.d[f].next = self.give_back.val();
        }
        for f in strobe::ACCESS..(strobe::ACCESS + 1) {
            self.flags.d[f].next = self.access.val();
        }
        for f in strobe::JOIN..(strobe::JOIN + 1) {
            self.flags.d[f].next = self.join_group.val();
        }
        for f in strobe::BIND..(strobe::BIND + 1) {
            self.flags.d[f].next = self.bind_group.val();
        }
        for f in strobe::LEAVE..(strobe::LEAVE + 1) {
            self.flags.d[f].next = self.leave.val();
        }
        for f in strobe::WAIT..(strobe::WAIT + 1) {
            self.flags.d[f].next = self.wait_group.val();
        }
        self.rows.d[0].next = self.table_base.val();
        self.rows.d[1].next = self.bind_base.val();
        self.groups.d[0].next = self.table_group.val();
        self.groups.d[1].next = self.select.val();
        self.blocks.d[0].next = self.chosen.val();
        self.blocks.d[1].next = self.block.val();
        self.waiter.d[0].next = self.wait_eu.val();
        for k in 0..self._slots {
            self.slots.d[k].next = self.slot[k].val();
            self.apply_slot[k].next = self.slots.q[k].val();
        }
        for f in strobe::TABLE_WRITE..(strobe::TABLE_WRITE + 1) {
            self.apply_table_write.next = self.flags.q[f].val();
        }
        for f in strobe::TABLE_VALID..(strobe::TABLE_VALID + 1) {
            self.apply_table_valid.next = self.flags.q[f].val();
        }
        for f in strobe::TABLE_SHARED..(strobe::TABLE_SHARED + 1) {
            self.apply_table_shared.next = self.flags.q[f].val();
        }
        for f in strobe::TAKE_BLOCK..(strobe::TAKE_BLOCK + 1) {
            self.apply_take_block.next = self.flags.q[f].val();
        }
        for f in strobe::GIVE_BACK..(strobe::GIVE_BACK + 1) {
            self.apply_give_back.next = self.flags.q[f].val();
        }
        for f in strobe::ACCESS..(strobe::ACCESS + 1) {
            self.apply_access.next = self.flags.q[f].val();
        }
        for f in strobe::JOIN..(strobe::JOIN + 1) {
            self.apply_join.next = self.flags.q[f].val();
        }
        for f in strobe::BIND..(strobe::BIND + 1) {
            self.apply_bind.next = self.flags.q[f].val();
        }
        for f in strobe::LEAVE..(strobe::LEAVE + 1) {
            self.apply_leave.next = self.flags.q[f].val();
        }
        for f in strobe::WAIT..(strobe::WAIT + 1) {
            self.apply_wait.next = self.flags.q[f].val();
        }
        // A block taken is written with its first row, the one it binds.
        self.apply_table_base.next = self.rows.q[0].val();
        for f in strobe::TAKE_BLOCK..(strobe::TAKE_BLOCK + 1) {
            if self.flags.q[f].val() {
                self.apply_table_base.next = self.rows.q[0].val() | self.rows.q[1].val();
            }
        }
        self.apply_bind_base.next = self.rows.q[1].val();
        self.apply_table_group.next = self.groups.q[0].val();
        self.apply_select.next = self.groups.q[1].val();
        self.apply_chosen.next = self.blocks.q[0].val();
        self.apply_block.next = self.blocks.q[1].val();
        self.apply_wait_eu.next = self.waiter.q[0].val();
    }
}
