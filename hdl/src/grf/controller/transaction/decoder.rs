//! What the controller does with the transaction it takes: the answer, the slow GRF access,
//! the table and group updates, the switch.

use rust_hdl::prelude::*;

use crate::grf::codes::kind;
use crate::grf::widths::{GroupNumber, KindCode, StatusCode};
use crate::params::GrfStatus;
use crate::signals::constant;

/// The transaction decoder (combinational; `docs/grf.md` gives every rule). Given the taken
/// transaction (`take`, `kind`, `group`), its table entry (`mapped`, `shared`, `base`), the
/// group it names (`group_bound`, `group_base`), whether a block is free for an allocation
/// and whether the register is being refilled, it gives every decision of the cycle; all are
/// low without `take`. `A` is the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct TransactionDecoder<const A: usize> {
    /// A transaction is taken this cycle.
    pub take: Signal<In, Bit>,
    /// Its kind (`codes::kind`).
    pub kind: Signal<In, KindCode>,
    /// Its group (alloc, wait).
    pub group: Signal<In, GroupNumber>,
    /// Its table entry maps a block.
    pub mapped: Signal<In, Bit>,
    /// The block is shared.
    pub shared: Signal<In, Bit>,
    /// The selected group is bound.
    pub group_bound: Signal<In, Bit>,
    /// Its block's first row.
    pub group_base: Signal<In, Bits<A>>,
    /// The group holds one reference: a release of its shared block kills it.
    pub group_one: Signal<In, Bit>,
    /// Some block is free for an allocation.
    pub free_block: Signal<In, Bit>,
    /// The register is being refilled (still pending).
    pub refilling: Signal<In, Bit>,
    /// The EU is answered next cycle.
    pub answer: Signal<Out, Bit>,
    /// With this status.
    pub status: Signal<Out, StatusCode>,
    /// And this shared bit.
    pub answer_shared: Signal<Out, Bit>,
    /// Start a slow GRF read.
    pub slow_read: Signal<Out, Bit>,
    /// Serve the read from L3 (the register is being refilled).
    pub redirect: Signal<Out, Bit>,
    /// Write the slow GRF.
    pub write: Signal<Out, Bit>,
    /// The write wins over the refill of its row.
    pub clear_refill: Signal<Out, Bit>,
    /// Replace the table entry.
    pub table_write: Signal<Out, Bit>,
    /// The new entry's valid bit.
    pub table_valid: Signal<Out, Bit>,
    /// The new entry's first row: the group's when it joins one; zero when it takes a block
    /// (whose row is added as the change is applied).
    pub table_base: Signal<Out, Bits<A>>,
    /// The new entry's shared bit.
    pub table_shared: Signal<Out, Bit>,
    /// The new entry's group.
    pub table_group: Signal<Out, GroupNumber>,
    /// The allocation takes the chosen free block.
    pub take_block: Signal<Out, Bit>,
    /// A block is free again: a private block is released, or a shared one by its group's
    /// last reference.
    pub give_back: Signal<Out, Bit>,
    /// Group operations (see `GroupUnit`).
    pub group_access: Signal<Out, Bit>,
    /// An allocation joins the bound group.
    pub group_join: Signal<Out, Bit>,
    /// An allocation binds the group.
    pub group_bind: Signal<Out, Bit>,
    /// A release of a shared block.
    pub group_leave: Signal<Out, Bit>,
    /// A wait at the group's barrier.
    pub group_wait: Signal<Out, Bit>,
    /// A context switch of the mapped block.
    pub start_switch: Signal<Out, Bit>,
    is_access: Signal<Local, Bit>,
    access: Signal<Local, Bit>,
    allocate: Signal<Local, Bit>,
    unmap: Signal<Local, Bit>,
    k_read: Constant<KindCode>,
    k_write_miss: Constant<KindCode>,
    k_writeback: Constant<KindCode>,
    k_alloc: Constant<KindCode>,
    k_release: Constant<KindCode>,
    k_wait: Constant<KindCode>,
    k_switch: Constant<KindCode>,
    s_ok: Constant<StatusCode>,
    s_unmapped: Constant<StatusCode>,
    s_no_free: Constant<StatusCode>,
    s_not_owned: Constant<StatusCode>,
    s_already: Constant<StatusCode>,
    s_no_group: Constant<StatusCode>,
    zero3: Constant<GroupNumber>,
    zero_a: Constant<Bits<A>>,
}

impl<const A: usize> Default for TransactionDecoder<A> {
    fn default() -> Self {
        Self {
            take: Default::default(),
            kind: Default::default(),
            group: Default::default(),
            mapped: Default::default(),
            shared: Default::default(),
            group_bound: Default::default(),
            group_base: Default::default(),
            group_one: Default::default(),
            free_block: Default::default(),
            refilling: Default::default(),
            answer: Default::default(),
            status: Default::default(),
            answer_shared: Default::default(),
            slow_read: Default::default(),
            redirect: Default::default(),
            write: Default::default(),
            clear_refill: Default::default(),
            table_write: Default::default(),
            table_valid: Default::default(),
            table_base: Default::default(),
            table_shared: Default::default(),
            table_group: Default::default(),
            take_block: Default::default(),
            give_back: Default::default(),
            group_access: Default::default(),
            group_join: Default::default(),
            group_bind: Default::default(),
            group_leave: Default::default(),
            group_wait: Default::default(),
            start_switch: Default::default(),
            is_access: Default::default(),
            access: Default::default(),
            allocate: Default::default(),
            unmap: Default::default(),
            k_read: constant(kind::READ),
            k_write_miss: constant(kind::WRITE_MISS),
            k_writeback: constant(kind::WRITEBACK),
            k_alloc: constant(kind::ALLOC),
            k_release: constant(kind::RELEASE),
            k_wait: constant(kind::WAIT),
            k_switch: constant(kind::SWITCH),
            s_ok: constant(GrfStatus::Ok.code()),
            s_unmapped: constant(GrfStatus::Unmapped.code()),
            s_no_free: constant(GrfStatus::NoFreeBlock.code()),
            s_not_owned: constant(GrfStatus::NotOwned.code()),
            s_already: constant(GrfStatus::AlreadyMapped.code()),
            s_no_group: constant(GrfStatus::NoSuchGroup.code()),
            zero3: constant(0),
            zero_a: constant(0),
        }
    }
}

impl<const A: usize> Logic for TransactionDecoder<A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The answer: next cycle, except a read (slow GRF or L3), a wait that parks and a
        // switch that saves first.
        self.is_access.next = (self.kind.val() == self.k_read.val())
            | (self.kind.val() == self.k_write_miss.val())
            | (self.kind.val() == self.k_writeback.val());
        self.answer.next = self.take.val();
        self.answer_shared.next = self.shared.val();
        self.status.next = self.s_ok.val();
        if self.is_access.val() & !self.mapped.val() {
            self.status.next = self.s_unmapped.val();
        }
        if self.kind.val() == self.k_read.val() {
            self.answer.next = self.take.val() & !self.mapped.val();
        }
        if self.kind.val() == self.k_alloc.val() {
            self.answer_shared.next = false;
            if self.mapped.val() {
                self.status.next = self.s_already.val();
            } else if !(self.group.val().any() & self.group_bound.val()) & !self.free_block.val() {
                self.status.next = self.s_no_free.val();
            }
        }
        if self.kind.val() == self.k_release.val() {
            self.answer_shared.next = false;
            if !self.mapped.val() {
                self.status.next = self.s_not_owned.val();
            }
        }
        if self.kind.val() == self.k_wait.val() {
            self.answer_shared.next = false;
            self.answer.next = self.take.val() & !self.group_bound.val();
            self.status.next = self.s_no_group.val();
        }
        if self.kind.val() == self.k_switch.val() {
            self.answer_shared.next = false;
            self.answer.next = self.take.val() & !self.mapped.val();
            self.status.next = self.s_unmapped.val();
        }
        // Reads and writes of mapped registers.
        self.access.next = self.take.val() & self.is_access.val() & self.mapped.val();
        self.group_access.next = self.access.val() & self.shared.val();
        self.slow_read.next =
            self.access.val() & (self.kind.val() == self.k_read.val()) & !self.refilling.val();
        self.redirect.next =
            self.access.val() & (self.kind.val() == self.k_read.val()) & self.refilling.val();
        self.write.next = self.access.val()
            & (self.kind.val() != self.k_read.val())
            & !((self.kind.val() == self.k_write_miss.val()) & !self.shared.val());
        self.clear_refill.next = self.write.val() & self.refilling.val();
        // Allocation: join the bound group, else take the chosen block (binding the group).
        self.allocate.next =
            self.take.val() & (self.kind.val() == self.k_alloc.val()) & !self.mapped.val();
        self.group_join.next =
            self.allocate.val() & self.group.val().any() & self.group_bound.val();
        self.take_block.next = self.allocate.val()
            & !(self.group.val().any() & self.group_bound.val())
            & self.free_block.val();
        self.group_bind.next = self.take_block.val() & self.group.val().any();
        // Release: unmap; a private block is free again, a shared one drops a reference (and is
        // free again with the last).
        self.unmap.next =
            self.take.val() & (self.kind.val() == self.k_release.val()) & self.mapped.val();
        self.give_back.next = self.unmap.val() & (!self.shared.val() | self.group_one.val());
        self.group_leave.next = self.unmap.val() & self.shared.val();
        self.table_write.next = self.group_join.val() | self.take_block.val() | self.unmap.val();
        self.table_valid.next = !self.unmap.val();
        self.table_base.next = self.zero_a.val();
        self.table_shared.next = false;
        self.table_group.next = self.zero3.val();
        if self.group_join.val() {
            self.table_base.next = self.group_base.val();
            self.table_shared.next = true;
            self.table_group.next = self.group.val();
        }
        // A block taken: its first row, the chosen block's, is added as the change is applied
        // (`BookkeepingStage`), so that it does not wait for this cycle's decisions.
        if self.take_block.val() {
            self.table_shared.next = self.group.val().any();
            self.table_group.next = self.group.val();
        }
        self.group_wait.next =
            self.take.val() & (self.kind.val() == self.k_wait.val()) & self.group_bound.val();
        self.start_switch.next =
            self.take.val() & (self.kind.val() == self.k_switch.val()) & self.mapped.val();
    }
}
