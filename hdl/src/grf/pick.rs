//! The controller's pick stage: the arbiter's choice, held for a cycle before the controller
//! takes it, or passed straight through.

use rust_hdl::prelude::*;

use crate::checkers::EntryChecker;
use crate::params::GrfParams;
use crate::regs::Registers;
use crate::signals;

/// The pick stage (`docs/grf.md`). With `pipeline` 1 it is a one-entry register between the
/// round-robin arbiter and the rest of the controller: it loads the arbiter's pick when it is
/// empty or its transaction is taken this cycle, and the controller takes the held transaction
/// in a cycle where it is free. No transaction is dropped and a transaction can still be taken
/// every cycle; each is answered a cycle later than without the stage. With `pipeline` 0 the
/// arbiter picks only when the controller is free, and the pick is taken in the same cycle.
/// Nothing is picked or taken during reset. `E` is the element width.
#[derive(LogicBlock)]
pub struct PickStage<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the stage empties.
    pub reset: Signal<In, Bit>,
    /// The controller can take a transaction this cycle.
    pub avail: Signal<In, Bit>,
    /// The arbiter picks a transaction this cycle.
    pub picked: Signal<In, Bit>,
    /// Per EU: the arbiter picks its transaction.
    pub pick_eu_hot: Vec<Signal<In, Bit>>,
    /// The picked transaction's EU.
    pub pick_eu: Signal<In, Bits<4>>,
    /// The picked transaction's kind.
    pub pick_kind: Signal<In, Bits<3>>,
    /// Its global thread.
    pub pick_thread: Signal<In, Bits<5>>,
    /// Its register.
    pub pick_reg_index: Signal<In, Bits<6>>,
    /// Its group.
    pub pick_group: Signal<In, Bits<3>>,
    /// Its data, one element per lane.
    pub pick_data: Vec<Signal<In, Bits<E>>>,
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
    pub eu: Signal<Out, Bits<4>>,
    /// Its kind.
    pub kind: Signal<Out, Bits<3>>,
    /// Its global thread.
    pub thread: Signal<Out, Bits<5>>,
    /// Its register.
    pub reg_index: Signal<Out, Bits<6>>,
    /// Its group.
    pub group: Signal<Out, Bits<3>>,
    /// Its data, one element per lane.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// The stage holds a transaction.
    valid: Registers<Bit>,
    /// The held transaction's EU, one-hot.
    eu_hot: Registers<Bit>,
    /// The held transaction's fields.
    held_eu: Registers<Bits<4>>,
    held_kind: Registers<Bits<3>>,
    held_thread: Registers<Bits<5>>,
    held_reg_index: Registers<Bits<6>>,
    held_group: Registers<Bits<3>>,
    held_data: Registers<Bits<E>>,
    /// Simulation-only, with the stage: nothing overwritten or taken from nothing
    /// ([`stage_checks`]).
    stage_check: EntryChecker,
    _eus: usize,
    _lanes: usize,
    /// 1 with the stage, else 0.
    _held: usize,
}

impl<const E: usize> PickStage<E> {
    /// The pick stage of `params` (its `pipeline`).
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        let held = params.pipeline >= 1;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            avail: Default::default(),
            picked: Default::default(),
            pick_eu_hot: signals(eus),
            pick_eu: Default::default(),
            pick_kind: Default::default(),
            pick_thread: Default::default(),
            pick_reg_index: Default::default(),
            pick_group: Default::default(),
            pick_data: signals(lanes),
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
            stage_check: stage_checks(),
            _eus: eus,
            _lanes: lanes,
            _held: usize::from(held),
        }
    }
}

impl<const E: usize> Logic for PickStage<E> {
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
        self.stage_check.drain[0].next = self.take.val();
        self.stage_check.enable.next = false;
        for _held in 0..self._held {
            self.stage_check.enable.next = !self.reset.val();
            self.full.next = self.valid.q[0].val();
            if !self.picked.val() {
                self.valid.d[0].next = self.valid.q[0].val() & !self.take.val();
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
