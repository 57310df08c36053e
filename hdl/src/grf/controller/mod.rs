//! The cluster controller of the hierarchical GRF: the sub-blocks that do the work, wired
//! together. The round-robin arbiter takes an EU's transaction, and the pick stage hands it on
//! (at once, or a cycle later with `pipeline` 1); the transaction unit finds its
//! table entry and group, decides, and updates the table and the groups; the sequencer keeps
//! the controller's state; the slow side (read pipeline, save and refill engines) drives the
//! slow GRF and L3; the answer unit answers the EUs.

mod answer_unit;
mod pick;
mod sequencer;
mod slow;
mod transaction;

pub use answer_unit::AnswerUnit;
pub use pick::{EntryLookup, PickStage, RoundRobinArbiter};
pub use sequencer::Sequencer;
pub use slow::{RefillEngine, SaveEngine, SlowPort, SlowReadPipeline};
pub use transaction::{
    BookkeepingStage, GroupUnit, TransactionDecoder, TransactionLookup, TransactionUnit,
    TranslationTable,
};

pub(crate) use pick::{load_checks, pick_checks, stage_checks};
pub(crate) use slow::{hold_checks, l3_checks, port_checks};

use rust_hdl::prelude::*;

use crate::grf::ports::{ControllerAnswers, L3Port, SlowGrfPorts, Transactions};
use crate::grf::widths::VBLOCK_BITS;
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::constant;

/// The controller (see `docs/grf.md` for every rule and its timing). `E` is the element width,
/// `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct GrfController<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: table back to its pre-allocation, groups and engines idle.
    pub reset: Signal<In, Bit>,
    /// Per EU: the transactions for the controller.
    pub tx: Transactions<In, Out, E>,
    /// Per EU: the controller's answers.
    pub ans: ControllerAnswers<Out, In, E>,
    /// The slow GRF's ports.
    pub sram: SlowGrfPorts<Out, In, E, A>,
    /// The L3 port.
    pub l3: L3Port<Out, In, E, A>,
    arbiter: RoundRobinArbiter<E>,
    pick: PickStage<E, A>,
    transaction: TransactionUnit<A>,
    sequencer: Sequencer<A>,
    slow: SlowPort<E, A>,
    answers: AnswerUnit<E>,
    zero_e: Constant<Bits<E>>,
    _eus: usize,
    _lanes: usize,
    /// Translation-table entries: threads x virtual blocks.
    _slots: usize,
}

impl<const E: usize, const A: usize> GrfController<E, A> {
    /// The controller for `params` (validated; `E` and `A` must match).
    pub fn new(params: &GrfParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.slow_bits());
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tx: Transactions::new(eus, lanes),
            ans: ControllerAnswers::new(eus, lanes),
            sram: SlowGrfPorts::new(lanes),
            l3: L3Port::new(lanes),
            arbiter: RoundRobinArbiter::new(params),
            pick: PickStage::new(params),
            transaction: TransactionUnit::new(params),
            sequencer: Sequencer::new(params),
            slow: SlowPort::new(params),
            answers: AnswerUnit::new(params),
            zero_e: constant(0),
            _eus: eus,
            _lanes: lanes,
            _slots: params.all_threads() * params.virtual_blocks,
        }
    }
}

/// The stages' clocks and resets, and the EUs' transactions in through the pick stage.
enum Intake {}

/// The taken transaction's decisions, and the sequencer and the slow side acting on them.
enum Decisions {}

/// The answers: the decisions', the serving EU's, the pipeline's.
enum Answers {}

impl<const E: usize, const A: usize> Logic for GrfController<E, A> {
    logic_in_parts!(Intake, Decisions, Answers);
}

impl<const E: usize, const A: usize> crate::parts::Part<Intake> for GrfController<E, A> {
    // A single-value loop binds the lanes (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.arbiter.clock.next = self.clock.val();
        self.pick.clock.next = self.clock.val();
        self.transaction.clock.next = self.clock.val();
        self.sequencer.clock.next = self.clock.val();
        self.slow.clock.next = self.clock.val();
        self.answers.clock.next = self.clock.val();
        self.arbiter.reset.next = self.reset.val();
        self.pick.reset.next = self.reset.val();
        self.transaction.reset.next = self.reset.val();
        self.sequencer.reset.next = self.reset.val();
        self.slow.reset.next = self.reset.val();
        self.answers.reset.next = self.reset.val();
        // The EUs' transactions in, through the pick stage; their answers out.
        self.arbiter.allow.next =
            (!self.pick.full.val() | self.sequencer.avail.val()) & !self.reset.val();
        self.pick.avail.next = self.sequencer.avail.val();
        self.pick.picked.next = self.arbiter.take.val();
        self.pick.load.next = self.arbiter.allow.val();
        self.pick.pick_eu.next = self.arbiter.eu.val();
        self.pick.pick_kind.next = self.arbiter.kind.val();
        self.pick.pick_thread.next = self.arbiter.thread.val();
        self.pick.pick_reg_index.next = self.arbiter.reg_index.val();
        self.pick.pick_group.next = self.arbiter.group.val();
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                self.arbiter.tx_valid[e].next = self.tx.valid[e].val();
                self.arbiter.tx_kind[e].next = self.tx.kind[e].val();
                self.arbiter.tx_thread[e].next = self.tx.thread[e].val();
                self.arbiter.tx_reg[e].next = self.tx.reg[e].val();
                self.arbiter.tx_group[e].next = self.tx.group[e].val();
                self.tx.take[e].next = self.arbiter.taken[e].val();
                self.pick.pick_eu_hot[e].next = self.arbiter.first[e].val();
                self.pick.eu_thread[e].next = self.tx.thread[e].val();
                // The virtual block, above the offset (bit 4 is `OFFSET_BITS`, a literal:
                // `#[hdl_gen]` would write a named constant as a signal's name).
                self.pick.eu_vblock[e].next = self.tx.reg[e].val().get_bits::<VBLOCK_BITS>(4);
                self.answers.taken[e].next = self.pick.taken[e].val();
                self.answers.turned_away[e].next = self.transaction.turned_away[e].val();
                self.answers.open[e].next = self.transaction.open[e].val();
                self.answers.pipe_next[e].next = self.slow.next_answers[e].val();
                self.ans.valid[e].next = self.answers.ans.valid[e].val();
                self.ans.status[e].next = self.answers.ans.status[e].val();
                self.ans.plain[e].next = self.answers.ans.plain[e].val();
                for l in 0..self._lanes {
                    self.arbiter.tx_data[e * nl + l].next = self.tx.data[e * nl + l].val();
                    self.ans.data[e * nl + l].next = self.answers.ans.data[e * nl + l].val();
                }
            }
        }
    }
}

impl<const E: usize, const A: usize> crate::parts::Part<Decisions> for GrfController<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The taken transaction.
        self.transaction.take.next = self.pick.take.val();
        self.transaction.eu.next = self.pick.eu.val();
        self.transaction.kind.next = self.pick.kind.val();
        self.transaction.thread.next = self.pick.thread.val();
        self.transaction.reg_index.next = self.pick.reg_index.val();
        self.transaction.group.next = self.pick.group.val();
        self.pick.refill_base.next = self.slow.refill_base.val();
        self.pick.refill_next_base.next = self.slow.refill_next_base.val();
        self.transaction.found_refilled.next = self.pick.found_refilled.val();
        self.transaction.refill_pending.next = self.slow.refill_pending.val();
        self.transaction.found_valid.next = self.pick.found_valid.val();
        self.transaction.found_base.next = self.pick.found_base.val();
        self.transaction.found_shared.next = self.pick.found_shared.val();
        self.transaction.found_group.next = self.pick.found_group.val();
        for k in 0..self._slots {
            self.transaction.found_slot[k].next = self.pick.found_slot[k].val();
            self.pick.entry_valid[k].next = self.transaction.entry_valid[k].val();
            self.pick.entry_base[k].next = self.transaction.entry_base[k].val();
            self.pick.entry_shared[k].next = self.transaction.entry_shared[k].val();
            self.pick.entry_group[k].next = self.transaction.entry_group[k].val();
        }
        // The sequencer and the slow side act on the decisions.
        self.sequencer.take.next = self.pick.take.val();
        self.sequencer.eu.next = self.pick.eu.val();
        self.sequencer.slow_read.next = self.transaction.slow_read.val();
        self.sequencer.redirect.next = self.transaction.redirect.val();
        self.sequencer.redirect_row.next = self.transaction.row.val();
        self.sequencer.redirect_shared.next = self.transaction.shared.val();
        self.sequencer.start_switch.next = self.transaction.start_switch.val();
        self.sequencer.refill_busy.next = self.slow.refill_busy.val();
        self.sequencer.refill_area.next = self.slow.refill_area.val();
        self.sequencer.refill_in_flight.next = self.slow.refill_in_flight.val();
        self.sequencer.l3_rvalid.next = self.l3.rvalid.val();
        self.sequencer.save_done.next = self.slow.save_done.val();
        self.slow.slow_read.next = self.transaction.slow_read.val();
        self.slow.eu.next = self.pick.eu.val();
        self.slow.shared.next = self.transaction.shared.val();
        self.slow.row.next = self.transaction.row.val();
        self.slow.write.next = self.transaction.write.val();
        self.slow.clear_refill.next = self.transaction.clear_refill.val();
        self.slow.offset.next = self.transaction.offset.val();
        self.slow.start_switch.next = self.transaction.start_switch.val();
        self.slow.base.next = self.transaction.base.val();
        self.slow.block.next = self.transaction.block.val();
        self.slow.start_save.next = self.sequencer.start_save.val();
        self.slow.saving.next = self.sequencer.saving.val();
        self.slow.save_side.next = self.sequencer.save_side.val();
        self.slow.redirect_read.next = self.sequencer.l3_read.val();
        self.slow.redirect_area.next = self.sequencer.l3_area.val();
        self.slow.redirect_row.next = self.sequencer.l3_row.val();
        self.slow.redirect_busy.next = self.sequencer.l3_busy.val();
        self.slow.l3.rvalid.next = self.l3.rvalid.val();
        self.sram.read.next = self.slow.sram.read.val();
        self.sram.read_row.next = self.slow.sram.read_row.val();
        self.sram.write.next = self.slow.sram.write.val();
        self.sram.write_row.next = self.slow.sram.write_row.val();
        self.l3.valid.next = self.slow.l3.valid.val();
        self.l3.write.next = self.slow.l3.write.val();
        self.l3.area.next = self.slow.l3.area.val();
        self.l3.row.next = self.slow.l3.row.val();
    }
}

impl<const E: usize, const A: usize> crate::parts::Part<Answers> for GrfController<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // The answers: the decisions', the serving EU's, the pipeline's.
        self.answers.answer.next = self.transaction.answer.val();
        self.answers.status.next = self.transaction.status.val();
        self.answers.shared.next = self.transaction.answer_shared.val();
        self.answers.serve.next = self.sequencer.redirect_done.val() | self.slow.save_done.val();
        self.answers.serve_eu.next = self.sequencer.serving.val();
        self.answers.serve_shared.next =
            self.sequencer.redirect_done.val() & self.sequencer.done_shared.val();
        self.answers.pipe_next_shared.next = self.slow.next_shared.val();
        for l in 0..self._lanes {
            self.pick.pick_data[l].next = self.arbiter.data[l].val();
            self.slow.data[l].next = self.pick.data[l].val();
            self.slow.sram.read_data[l].next = self.sram.read_data[l].val();
            self.slow.l3.rdata[l].next = self.l3.rdata[l].val();
            self.sram.write_data[l].next = self.slow.sram.write_data[l].val();
            self.l3.data[l].next = self.slow.l3.data[l].val();
            self.answers.pipe_data[l].next = self.slow.answer_data[l].val();
            self.answers.serve_data[l].next = self.zero_e.val();
            if self.sequencer.redirect_done.val() {
                self.answers.serve_data[l].next = self.l3.rdata[l].val();
            }
        }
    }
}
