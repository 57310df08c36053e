//! The controller's slow side: the slow GRF's read pipeline, the save and refill engines, and
//! who drives the slow GRF's and L3's ports in each cycle.

mod read_pipeline;
mod refill;
mod save;

pub use read_pipeline::SlowReadPipeline;
pub use refill::RefillEngine;
pub use save::SaveEngine;

pub(crate) use refill::hold_checks;

use rust_hdl::prelude::*;

use crate::checkers::{AtMost, OccupancyChecker};
use crate::grf::ports::{L3Port, SlowGrfPorts};
use crate::grf::widths::{BlockMask, BlockOffset, EuNumber, OffsetMask};
use crate::params::GrfParams;
use crate::signals::{constant, signals};

/// The slow side of the controller (`docs/grf.md`). The slow GRF is read by a slow read or by
/// a save, and written by the controller or by the refill engine (never both in one cycle);
/// L3 takes a redirected read, a save's write or a refill read (the refill engine reads only
/// when the port is free). `E` is the element width, `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct SlowPort<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// A slow read of `row` for EU `eu` starts this cycle.
    pub slow_read: Signal<In, Bit>,
    /// The EU it answers.
    pub eu: Signal<In, EuNumber>,
    /// The register read is shared.
    pub shared: Signal<In, Bit>,
    /// The row of a slow read or of the controller's write.
    pub row: Signal<In, Bits<A>>,
    /// The controller writes `row` with `data` this cycle.
    pub write: Signal<In, Bit>,
    /// The data it writes, one element per lane.
    pub data: Vec<Signal<In, Bits<E>>>,
    /// The write wins over the refill of its row (offset `offset`).
    pub clear_refill: Signal<In, Bit>,
    /// The written register's offset in its block.
    pub offset: Signal<In, BlockOffset>,
    /// A switch is taken: record the block at `base` (one-hot `block`).
    pub start_switch: Signal<In, Bit>,
    /// The switched block's first row.
    pub base: Signal<In, Bits<A>>,
    /// The switched block, one-hot.
    pub block: Signal<In, BlockMask>,
    /// The save begins this cycle.
    pub start_save: Signal<In, Bit>,
    /// The controller is in the save phase.
    pub saving: Signal<In, Bit>,
    /// The controller is in the save phase or waiting to start it.
    pub save_side: Signal<In, Bit>,
    /// A redirected read goes to L3 this cycle.
    pub redirect_read: Signal<In, Bit>,
    /// Its area.
    pub redirect_area: Signal<In, Bit>,
    /// Its row.
    pub redirect_row: Signal<In, Bits<A>>,
    /// The redirect holds the L3 port (its read goes out, or its answer is awaited).
    pub redirect_busy: Signal<In, Bit>,
    /// The refill engine is busy.
    pub refill_busy: Signal<Out, Bit>,
    /// Its block's first row.
    pub refill_base: Signal<Out, Bits<A>>,
    /// That row as this cycle leaves it.
    pub refill_next_base: Signal<Out, Bits<A>>,
    /// Its L3 area.
    pub refill_area: Signal<Out, Bit>,
    /// Its pending rows.
    pub refill_pending: Signal<Out, OffsetMask>,
    /// It has an L3 read outstanding.
    pub refill_in_flight: Signal<Out, Bit>,
    /// The save's last write is this cycle.
    pub save_done: Signal<Out, Bit>,
    /// Per EU: a slow read's answer to it leaves the pipeline next cycle.
    pub next_answers: Vec<Signal<Out, Bit>>,
    /// Its shared bit.
    pub next_shared: Signal<Out, Bit>,
    /// The data of the answer leaving the pipeline this cycle, one element per lane.
    pub answer_data: Vec<Signal<Out, Bits<E>>>,
    /// The slow GRF's ports.
    pub sram: SlowGrfPorts<Out, In, E, A>,
    /// The L3 port.
    pub l3: L3Port<Out, In, E, A>,
    pipeline: SlowReadPipeline<E>,
    save: SaveEngine<E, A>,
    refill: RefillEngine<E, A>,
    /// Simulation-only: one user per cycle of each slow GRF port and of the L3 port
    /// ([`port_checks`]).
    port_check: AtMost,
    /// Simulation-only: one L3 read outstanding at most ([`l3_checks`]).
    l3_check: OccupancyChecker,
    zero_e: Constant<Bits<E>>,
    _lanes: usize,
    _eus: usize,
}

impl<const E: usize, const A: usize> SlowPort<E, A> {
    /// The slow side for `params`.
    pub fn new(params: &GrfParams) -> Self {
        let lanes = params.lanes;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            slow_read: Default::default(),
            eu: Default::default(),
            shared: Default::default(),
            row: Default::default(),
            write: Default::default(),
            data: signals(lanes),
            clear_refill: Default::default(),
            offset: Default::default(),
            start_switch: Default::default(),
            base: Default::default(),
            block: Default::default(),
            start_save: Default::default(),
            saving: Default::default(),
            save_side: Default::default(),
            redirect_read: Default::default(),
            redirect_area: Default::default(),
            redirect_row: Default::default(),
            redirect_busy: Default::default(),
            refill_busy: Default::default(),
            refill_base: Default::default(),
            refill_next_base: Default::default(),
            refill_area: Default::default(),
            refill_pending: Default::default(),
            refill_in_flight: Default::default(),
            save_done: Default::default(),
            next_answers: signals(params.eus),
            next_shared: Default::default(),
            answer_data: signals(lanes),
            sram: SlowGrfPorts::new(lanes),
            l3: L3Port::new(lanes),
            pipeline: SlowReadPipeline::new(params),
            save: SaveEngine::new(params),
            refill: RefillEngine::new(params),
            port_check: port_checks(),
            l3_check: l3_checks(),
            zero_e: constant(0),
            _lanes: lanes,
            _eus: params.eus,
        }
    }
}

impl<const E: usize, const A: usize> Logic for SlowPort<E, A> {
    // Over 100 lines (115): the port check's seven users are each bound to their bit by a
    // one-value loop, as index arithmetic sees loop variables only (docs/rust-hdl.md, 2).
    #[hdl_gen]
    fn update(&mut self) {
        self.pipeline.clock.next = self.clock.val();
        self.save.clock.next = self.clock.val();
        self.refill.clock.next = self.clock.val();
        self.pipeline.reset.next = self.reset.val();
        self.save.reset.next = self.reset.val();
        self.refill.reset.next = self.reset.val();
        // The save engine and the refill engine it arms.
        self.save.latch.next = self.start_switch.val();
        self.save.base_in.next = self.base.val();
        self.save.block_in.next = self.block.val();
        self.save.start.next = self.start_save.val();
        self.save.active.next = self.saving.val();
        self.save.out_valid.next = self.pipeline.out_valid.val();
        self.save.out_save.next = self.pipeline.out_save.val();
        self.save.out_tag.next = self.pipeline.out_tag.val();
        self.save_done.next = self.save.done.val();
        self.refill.arm.next = self.save.done.val();
        self.refill.arm_base.next = self.save.base.val();
        self.refill.arm_area.next = !self.save.area.val();
        self.refill.clear.next = self.clear_refill.val();
        self.refill.clear_offset.next = self.offset.val();
        self.refill.controller_write.next = self.write.val();
        self.refill.port_busy.next = self.redirect_busy.val() | self.save.l3_write.val();
        self.refill.l3_rvalid.next = self.l3.rvalid.val();
        self.refill_busy.next = self.refill.busy.val();
        self.refill_base.next = self.refill.base.val();
        self.refill_next_base.next = self.refill.next_base.val();
        self.refill_area.next = self.refill.area.val();
        self.refill_pending.next = self.refill.pending.val();
        self.refill_in_flight.next = self.refill.in_flight.val();
        // The pipeline carries a slow read's answer, or a save's row.
        self.pipeline.launch.next = self.slow_read.val() | self.save.read.val();
        self.pipeline.launch_save.next = self.save.read.val();
        self.pipeline.launch_tag.next = self.save.read_tag.val();
        if self.slow_read.val() {
            self.pipeline.launch_tag.next = self.eu.val();
        }
        self.pipeline.launch_shared.next = self.slow_read.val() & self.shared.val();
        for e in 0..self._eus {
            self.next_answers[e].next = self.pipeline.next_answers[e].val();
        }
        self.next_shared.next = self.pipeline.next_shared.val();
        // The slow GRF: a slow read or a save's read; the controller's or a refill write.
        self.sram.read.next = self.slow_read.val() | self.save.read.val();
        // The read row does not wait for the decision to read: a save reads only in its phase,
        // after its wait, or in the cycle its switch is taken, where the transaction's row is
        // the block's first; a slow read only in a cycle a transaction is taken.
        self.sram.read_row.next = self.row.val();
        if self.save_side.val() {
            self.sram.read_row.next = self.save.read_row.val();
        }
        self.sram.write.next = self.write.val() | self.refill.write.val();
        self.sram.write_row.next = self.refill.write_row.val();
        if self.write.val() {
            self.sram.write_row.next = self.row.val();
        }
        // Simulation-only checks: the users of each port (a one-value loop binds each user's
        // bit, as index arithmetic sees loop variables only: docs/rust-hdl.md, 2); the L3
        // reads outstanding.
        self.port_check.clock.next = self.clock.val();
        for u in port_user::SLOW_READ..(port_user::SLOW_READ + 1) {
            self.port_check.bits[u].next = self.slow_read.val();
        }
        for u in port_user::SAVE_READ..(port_user::SAVE_READ + 1) {
            self.port_check.bits[u].next = self.save.read.val();
        }
        for u in port_user::WRITE..(port_user::WRITE + 1) {
            self.port_check.bits[u].next = self.write.val();
        }
        for u in port_user::REFILL_WRITE..(port_user::REFILL_WRITE + 1) {
            self.port_check.bits[u].next = self.refill.write.val();
        }
        for u in port_user::REDIRECT_READ..(port_user::REDIRECT_READ + 1) {
            self.port_check.bits[u].next = self.redirect_read.val();
        }
        for u in port_user::SAVE_L3_WRITE..(port_user::SAVE_L3_WRITE + 1) {
            self.port_check.bits[u].next = self.save.l3_write.val();
        }
        for u in port_user::REFILL_L3_READ..(port_user::REFILL_L3_READ + 1) {
            self.port_check.bits[u].next = self.refill.l3_read.val();
        }
        self.l3_check.clock.next = self.clock.val();
        self.l3_check.reset.next = self.reset.val();
        self.l3_check.push.next = self.redirect_read.val() | self.refill.l3_read.val();
        self.l3_check.pop.next = self.l3.rvalid.val();
        // L3: a redirect's read, a save's write or a refill read.
        self.l3.valid.next =
            self.redirect_read.val() | self.save.l3_write.val() | self.refill.l3_read.val();
        self.l3.write.next = self.save.l3_write.val();
        self.l3.area.next = self.redirect_area.val();
        self.l3.row.next = self.redirect_row.val();
        if self.save.l3_write.val() {
            self.l3.area.next = self.save.l3_area.val();
            self.l3.row.next = self.save.l3_row.val();
        }
        if self.refill.l3_read.val() {
            self.l3.area.next = self.refill.area.val();
            self.l3.row.next = self.refill.l3_row.val();
        }
        for l in 0..self._lanes {
            self.pipeline.sram_data[l].next = self.sram.read_data[l].val();
            self.save.out_data[l].next = self.pipeline.out_data[l].val();
            self.refill.l3_rdata[l].next = self.l3.rdata[l].val();
            self.answer_data[l].next = self.pipeline.out_data[l].val();
            self.sram.write_data[l].next = self.refill.write_data[l].val();
            if self.write.val() {
                self.sram.write_data[l].next = self.data[l].val();
            }
            self.l3.data[l].next = self.zero_e.val();
            if self.save.l3_write.val() {
                self.l3.data[l].next = self.save.l3_data[l].val();
            }
        }
    }
}

/// The users of the slow GRF's ports and of the L3 port: their bits in [`port_checks`].
mod port_user {
    /// The slow GRF's read port: a slow read.
    pub const SLOW_READ: usize = 0;
    /// The slow GRF's read port: the save's read.
    pub const SAVE_READ: usize = 1;
    /// The slow GRF's write port: the controller's write.
    pub const WRITE: usize = 2;
    /// The slow GRF's write port: the refill's write.
    pub const REFILL_WRITE: usize = 3;
    /// The L3 port: a redirect's read.
    pub const REDIRECT_READ: usize = 4;
    /// The L3 port: the save's write.
    pub const SAVE_L3_WRITE: usize = 5;
    /// The L3 port: the refill's read.
    pub const REFILL_L3_READ: usize = 6;
    /// The users.
    pub const COUNT: usize = 7;
}

/// Who uses each port in a cycle, one at most (bits: [`port_user`]):
/// `grf: slow GRF read port used by <n> of the slow read and the save`,
/// `grf: slow GRF write port used by <n> of the controller and the refill`,
/// `grf: L3 port used by <n> of the redirect, the save and the refill`.
pub(crate) fn port_checks() -> AtMost {
    use port_user::*;
    AtMost::one_hot(
        COUNT,
        [
            (
                vec![SLOW_READ, SAVE_READ],
                "grf: slow GRF read port used by %0d of the slow read and the save",
            ),
            (
                vec![WRITE, REFILL_WRITE],
                "grf: slow GRF write port used by %0d of the controller and the refill",
            ),
            (
                vec![REDIRECT_READ, SAVE_L3_WRITE, REFILL_L3_READ],
                "grf: L3 port used by %0d of the redirect, the save and the refill",
            ),
        ]
        .map(|(bits, message)| (bits, message.to_string())),
    )
}

/// The L3 reads outstanding (a redirect's or a refill's; L3 answers in order and each
/// answer is taken as the one awaited): one at most, `grf: L3 reads issued while one is
/// outstanding (overflow)`, `grf: L3 reads answered while none is outstanding (underflow)`.
pub(crate) fn l3_checks() -> OccupancyChecker {
    OccupancyChecker::new(
        "grf: L3 reads",
        1,
        "issued while one is outstanding",
        "answered while none is outstanding",
    )
}
