//! The controller's pick stage: the arbiter's choice, held for a cycle before the controller
//! takes it, or passed straight through.

mod arbiter;
mod entry_lookup;

pub use arbiter::RoundRobinArbiter;
pub use entry_lookup::EntryLookup;

pub(crate) use arbiter::pick_checks;

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::checkers::{AtMost, EntryChecker};
use crate::grf::widths::{
    EuNumber, GlobalThread, GroupNumber, KindCode, RegIndex, VirtualBlock, VBLOCK_BITS,
};
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::signals;

/// The pick stage (`docs/grf.md`). With `pipeline` 1 it is a one-entry register between the
/// round-robin arbiter and the rest of the controller: it loads the arbiter's pick when it is
/// empty or its transaction is taken this cycle, and the controller takes the held transaction
/// in a cycle where it is free. No transaction is dropped and a transaction can still be taken
/// every cycle; each is answered a cycle later than without the stage. With `pipeline` 0 the
/// arbiter picks only when the controller is free, and the pick is taken in the same cycle.
/// The stage also finds the transaction's table entry ([`EntryLookup`]): with `pipeline` 2 as
/// it loads, holding the entry with the transaction (the table lookup leaves the controller's
/// cycle; only the transaction's own EU changes its entries, and it waits for the answer), with
/// less from the held transaction. Nothing is picked or taken during reset. `E` is the element
/// width, `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct PickStage<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the stage empties.
    pub reset: Signal<In, Bit>,
    /// The controller can take a transaction this cycle.
    pub avail: Signal<In, Bit>,
    /// The arbiter picks a transaction this cycle.
    pub picked: Signal<In, Bit>,
    /// The arbiter may pick this cycle (`!full | avail`): the stage's fields load the pick's,
    /// which are zero when nothing is picked. A stage that loads without a pick is empty next
    /// cycle (it was empty, or its transaction is taken), so its fields do not wait for the
    /// arbiter's decision to pick, only for its choice.
    pub load: Signal<In, Bit>,
    /// Per EU: the arbiter presents its transaction (none when nothing waits).
    pub pick_eu_hot: Vec<Signal<In, Bit>>,
    /// The picked transaction's EU.
    pub pick_eu: Signal<In, EuNumber>,
    /// The picked transaction's kind.
    pub pick_kind: Signal<In, KindCode>,
    /// Its global thread.
    pub pick_thread: Signal<In, GlobalThread>,
    /// Its register.
    pub pick_reg_index: Signal<In, RegIndex>,
    /// Its group.
    pub pick_group: Signal<In, GroupNumber>,
    /// Its data, one element per lane.
    pub pick_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the global thread of its waiting transaction (for the entry lookup).
    pub eu_thread: Vec<Signal<In, GlobalThread>>,
    /// Per EU: the virtual block of its waiting transaction's register (for the entry
    /// lookup).
    pub eu_vblock: Vec<Signal<In, VirtualBlock>>,
    /// The stage loads only when the controller takes from it this cycle: it holds a
    /// transaction (`pipeline` 1), or it is wires (`pipeline` 0). The arbiter may pick when
    /// `!full | avail`; that is computed by the parent, so that this block, which reads the
    /// pick, writes nothing the arbiter reads (Verilator would see a loop).
    pub full: Signal<Out, Bit>,
    /// The controller takes a transaction this cycle.
    pub take: Signal<Out, Bit>,
    /// Per EU: the controller takes its transaction this cycle.
    pub taken: Vec<Signal<Out, Bit>>,
    /// The EU of the transaction taken.
    pub eu: Signal<Out, EuNumber>,
    /// Its kind.
    pub kind: Signal<Out, KindCode>,
    /// Its global thread.
    pub thread: Signal<Out, GlobalThread>,
    /// Its register.
    pub reg_index: Signal<Out, RegIndex>,
    /// Its group.
    pub group: Signal<Out, GroupNumber>,
    /// Its data, one element per lane.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// The stage holds a transaction.
    valid: Registers<Bit>,
    /// The held transaction's EU, one-hot.
    eu_hot: Registers<Bit>,
    /// The held transaction's fields.
    held_eu: Registers<EuNumber>,
    held_kind: Registers<KindCode>,
    held_thread: Registers<GlobalThread>,
    held_reg_index: Registers<RegIndex>,
    held_group: Registers<GroupNumber>,
    held_data: Registers<Bits<E>>,
    /// Simulation-only, with the stage: nothing overwritten or taken from nothing
    /// ([`stage_checks`]).
    /// The table's entries, as the transaction unit holds them: mapped.
    pub entry_valid: Vec<Signal<In, Bit>>,
    /// Per entry: its block's first row.
    pub entry_base: Vec<Signal<In, Bits<A>>>,
    /// Per entry: shared.
    pub entry_shared: Vec<Signal<In, Bit>>,
    /// Per entry: its group.
    pub entry_group: Vec<Signal<In, GroupNumber>>,
    /// The first row of the block the refill engine refills.
    pub refill_base: Signal<In, Bits<A>>,
    /// That row as this cycle leaves it.
    pub refill_next_base: Signal<In, Bits<A>>,
    /// The presented transaction's table entry, one-hot.
    pub found_slot: Vec<Signal<Out, Bit>>,
    /// The entry is mapped.
    pub found_valid: Signal<Out, Bit>,
    /// The first row of the block it maps.
    pub found_base: Signal<Out, Bits<A>>,
    /// The entry is shared.
    pub found_shared: Signal<Out, Bit>,
    /// The entry's group.
    pub found_group: Signal<Out, GroupNumber>,
    /// The entry maps the block the refill engine refills.
    pub found_refilled: Signal<Out, Bit>,
    lookup: EntryLookup<A>,
    /// Whether the entry is looked up as the stage loads (`pipeline` 2).
    early: Constant<Bit>,
    /// The entry found as the stage loaded (`pipeline` 2; wires otherwise).
    looked_slot: Registers<Bit>,
    looked_valid: Registers<Bit>,
    looked_base: Registers<Bits<A>>,
    looked_shared: Registers<Bit>,
    looked_group: Registers<GroupNumber>,
    looked_refilled: Registers<Bit>,
    stage_check: EntryChecker,
    /// Simulation-only: the arbiter picks only when the stage may load ([`load_checks`]).
    load_check: AtMost,
    _eus: usize,
    _lanes: usize,
    /// 1 with the stage, else 0.
    _held: usize,
    /// 1 when the entry is looked up as the stage loads, else 0.
    _early: usize,
    _slots: usize,
}

impl<const E: usize, const A: usize> PickStage<E, A> {
    /// The pick stage of `params` (its `pipeline`).
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        let (held, early) = (params.pipeline >= 1, params.pipeline >= 2);
        let slots = params.all_threads() * params.virtual_blocks;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            avail: Default::default(),
            picked: Default::default(),
            load: Default::default(),
            pick_eu_hot: signals(eus),
            pick_eu: Default::default(),
            pick_kind: Default::default(),
            pick_thread: Default::default(),
            pick_reg_index: Default::default(),
            pick_group: Default::default(),
            pick_data: signals(lanes),
            eu_thread: signals(eus),
            eu_vblock: signals(eus),
            full: Default::default(),
            take: Default::default(),
            taken: signals(eus),
            eu: Default::default(),
            kind: Default::default(),
            thread: Default::default(),
            reg_index: Default::default(),
            group: Default::default(),
            data: signals(lanes),
            valid: Registers::stage(1, held),
            eu_hot: Registers::stage(eus, held),
            held_eu: Registers::stage(1, held),
            held_kind: Registers::stage(1, held),
            held_thread: Registers::stage(1, held),
            held_reg_index: Registers::stage(1, held),
            held_group: Registers::stage(1, held),
            held_data: Registers::stage(lanes, held),
            entry_valid: signals(slots),
            entry_base: signals(slots),
            entry_shared: signals(slots),
            entry_group: signals(slots),
            refill_base: Default::default(),
            refill_next_base: Default::default(),
            found_slot: signals(slots),
            found_valid: Default::default(),
            found_base: Default::default(),
            found_shared: Default::default(),
            found_group: Default::default(),
            found_refilled: Default::default(),
            lookup: EntryLookup::new(params),
            early: Constant::new(early),
            looked_slot: Registers::stage(slots, early),
            looked_valid: Registers::stage(1, early),
            looked_base: Registers::stage(1, early),
            looked_shared: Registers::stage(1, early),
            looked_group: Registers::stage(1, early),
            looked_refilled: Registers::stage(1, early),
            stage_check: stage_checks(),
            load_check: load_checks(),
            _eus: eus,
            _lanes: lanes,
            _held: usize::from(held),
            _early: usize::from(early),
            _slots: slots,
        }
    }
}

/// The stage's clocks, the pick it loads, and its transaction taken when the controller is free.
enum Stage {}

/// The translation entry of the pick as the stage loads it, or of the transaction it presents.
enum Entry {}

/// The transaction taken.
enum Taken {}

impl<const E: usize, const A: usize> Logic for PickStage<E, A> {
    logic_in_parts!(Stage, Entry, Taken);
}

impl<const E: usize, const A: usize> crate::parts::Part<Stage> for PickStage<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.clock.next = self.clock.val();
        self.eu_hot.clock.next = self.clock.val();
        self.held_eu.clock.next = self.clock.val();
        self.held_kind.clock.next = self.clock.val();
        self.held_thread.clock.next = self.clock.val();
        self.held_reg_index.clock.next = self.clock.val();
        self.held_group.clock.next = self.clock.val();
        self.held_data.clock.next = self.clock.val();
        self.stage_check.clock.next = self.clock.val();
        self.looked_slot.clock.next = self.clock.val();
        self.looked_valid.clock.next = self.clock.val();
        self.looked_base.clock.next = self.clock.val();
        self.looked_shared.clock.next = self.clock.val();
        self.looked_group.clock.next = self.clock.val();
        self.looked_refilled.clock.next = self.clock.val();
        // The stage loads a pick (wires without the stage).
        self.valid.d[0].next = self.picked.val();
        self.held_eu.d[0].next = self.pick_eu.val();
        self.held_kind.d[0].next = self.pick_kind.val();
        self.held_thread.d[0].next = self.pick_thread.val();
        self.held_reg_index.d[0].next = self.pick_reg_index.val();
        self.held_group.d[0].next = self.pick_group.val();
        for e in 0..self._eus {
            self.eu_hot.d[e].next = self.pick_eu_hot[e].val();
        }
        for l in 0..self._lanes {
            self.held_data.d[l].next = self.pick_data[l].val();
        }
        // The controller takes what the stage presents when it is free (without the stage, the
        // arbiter picks only then). The stage keeps its transaction until taken.
        self.take.next = self.valid.q[0].val() & self.avail.val() & !self.reset.val();
        self.full.next = true;
        self.stage_check.busy[0].next = self.valid.q[0].val();
        self.stage_check.fill[0].next = self.picked.val();
        self.load_check.clock.next = self.clock.val();
        self.load_check.bits[0].next = self.picked.val();
        self.load_check.bits[1].next = !self.load.val();
        self.stage_check.drain[0].next = self.take.val();
        self.stage_check.enable.next = false;
        for _held in 0..self._held {
            self.stage_check.enable.next = !self.reset.val();
            self.full.next = self.valid.q[0].val();
            if !self.picked.val() {
                self.valid.d[0].next = self.valid.q[0].val() & !self.take.val();
            }
            if !self.load.val() {
                self.held_eu.d[0].next = self.held_eu.q[0].val();
                self.held_kind.d[0].next = self.held_kind.q[0].val();
                self.held_thread.d[0].next = self.held_thread.q[0].val();
                self.held_reg_index.d[0].next = self.held_reg_index.q[0].val();
                self.held_group.d[0].next = self.held_group.q[0].val();
                for e in 0..self._eus {
                    self.eu_hot.d[e].next = self.eu_hot.q[e].val();
                }
                for l in 0..self._lanes {
                    self.held_data.d[l].next = self.held_data.q[l].val();
                }
            }
            if self.reset.val() {
                self.valid.d[0].next = false;
            }
        }
    }
}

impl<const E: usize, const A: usize> crate::parts::Part<Entry> for PickStage<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The entry: of the pick as the stage loads it (held with the transaction), or of the
        // transaction the stage presents.
        for e in 0..self._eus {
            self.lookup.eu_hot[e].next = self.eu_hot.q[e].val();
            self.lookup.thread[e].next = self.held_thread.q[0].val();
            self.lookup.vblock[e].next = self.held_reg_index.q[0].val().get_bits::<VBLOCK_BITS>(4);
            if self.early.val() {
                self.lookup.eu_hot[e].next = self.pick_eu_hot[e].val();
                self.lookup.thread[e].next = self.eu_thread[e].val();
                self.lookup.vblock[e].next = self.eu_vblock[e].val();
            }
        }
        for k in 0..self._slots {
            self.lookup.entry_valid[k].next = self.entry_valid[k].val();
            self.lookup.entry_base[k].next = self.entry_base[k].val();
            self.lookup.entry_shared[k].next = self.entry_shared[k].val();
            self.lookup.entry_group[k].next = self.entry_group[k].val();
            self.looked_slot.d[k].next = self.lookup.slot[k].val();
            self.found_slot[k].next = self.looked_slot.q[k].val();
        }
        self.looked_valid.d[0].next = self.lookup.valid.val();
        self.looked_base.d[0].next = self.lookup.base.val();
        self.looked_shared.d[0].next = self.lookup.shared.val();
        self.looked_group.d[0].next = self.lookup.group.val();
        // Looked up as the stage loads, the entry is compared with the refilled block as the
        // cycle leaves it; a held one again each cycle, as a refill may be armed meanwhile.
        self.lookup.refill_base.next = self.refill_base.val();
        if self.early.val() {
            self.lookup.refill_base.next = self.refill_next_base.val();
        }
        self.looked_refilled.d[0].next = self.lookup.refilled.val();
        for _early in 0..self._early {
            if !self.load.val() {
                for k in 0..self._slots {
                    self.looked_slot.d[k].next = self.looked_slot.q[k].val();
                }
                self.looked_valid.d[0].next = self.looked_valid.q[0].val();
                self.looked_base.d[0].next = self.looked_base.q[0].val();
                self.looked_shared.d[0].next = self.looked_shared.q[0].val();
                self.looked_group.d[0].next = self.looked_group.q[0].val();
                self.looked_refilled.d[0].next =
                    self.looked_base.q[0].val() == self.refill_next_base.val();
            }
        }
        self.found_valid.next = self.looked_valid.q[0].val();
        self.found_base.next = self.looked_base.q[0].val();
        self.found_shared.next = self.looked_shared.q[0].val();
        self.found_group.next = self.looked_group.q[0].val();
        self.found_refilled.next = self.looked_refilled.q[0].val();
    }
}

impl<const E: usize, const A: usize> crate::parts::Part<Taken> for PickStage<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The transaction taken.
        for e in 0..self._eus {
            self.taken[e].next = self.take.val() & self.eu_hot.q[e].val();
        }
        self.eu.next = self.held_eu.q[0].val();
        self.kind.next = self.held_kind.q[0].val();
        self.thread.next = self.held_thread.q[0].val();
        self.reg_index.next = self.held_reg_index.q[0].val();
        self.group.next = self.held_group.q[0].val();
        for l in 0..self._lanes {
            self.data[l].next = self.held_data.q[l].val();
        }
    }
}

/// The one-entry pick stage (checked only when it is built, `pipeline` 1, and not in reset):
/// `grf: pick stage loaded while holding a transaction not taken (overflow)`,
/// `grf: pick stage taken while empty (underflow)`.
pub(crate) fn stage_checks() -> EntryChecker {
    EntryChecker::new(
        ["grf: pick stage".to_string()],
        "loaded while holding a transaction not taken",
        "taken while empty",
    )
}

/// A pick and no `load` at once (every pipeline; the fields loaded only with `load` would miss
/// the pick): `grf: pick stage picked while it may not load`.
pub(crate) fn load_checks() -> AtMost {
    AtMost::one_hot(
        2,
        [(
            vec![0, 1],
            "grf: pick stage picked while it may not load (%0d of a pick and no load)".to_string(),
        )],
    )
}
