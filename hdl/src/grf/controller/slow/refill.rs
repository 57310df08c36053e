//! The refill engine: after a save, the block's other context read back from L3 in the
//! background, one row at a time.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::checkers::EntryChecker;
use crate::grf::widths::{BlockOffset, OffsetMask};
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::{constant, constants, signals};

/// The refill engine (`docs/grf.md`). `arm` starts a refill of the block at `arm_base` from
/// L3 area `arm_area`, all 16 rows pending. It issues one L3 read at a time when the L3 port
/// is free (`port_busy` low), holds each answer, and writes it into the slow GRF the next cycle
/// the controller does not write it (`controller_write` low), unless the row is no longer
/// pending: a controller write of a pending row (`clear`) wins over the refill. `E` is the
/// element width, `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct RefillEngine<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle.
    pub reset: Signal<In, Bit>,
    /// Start a refill this cycle (the save's last write).
    pub arm: Signal<In, Bit>,
    /// The block's first row.
    pub arm_base: Signal<In, Bits<A>>,
    /// The L3 area to read.
    pub arm_area: Signal<In, Bit>,
    /// The controller writes row `clear_offset` of the block this cycle: it is no longer
    /// pending.
    pub clear: Signal<In, Bit>,
    /// The row offset the controller writes.
    pub clear_offset: Signal<In, BlockOffset>,
    /// The controller writes the slow GRF this cycle.
    pub controller_write: Signal<In, Bit>,
    /// The controller uses the L3 port this cycle or waits for its own read.
    pub port_busy: Signal<In, Bit>,
    /// L3 answers the oldest outstanding read.
    pub l3_rvalid: Signal<In, Bit>,
    /// The answer's data, one element per lane.
    pub l3_rdata: Vec<Signal<In, Bits<E>>>,
    /// A refill is in progress.
    pub busy: Signal<Out, Bit>,
    /// The refilled block's first row.
    pub base: Signal<Out, Bits<A>>,
    /// That row as this cycle leaves it (a refill armed now changes it).
    pub next_base: Signal<Out, Bits<A>>,
    /// The L3 area read.
    pub area: Signal<Out, Bit>,
    /// The rows still pending, bit o = offset o.
    pub pending: Signal<Out, OffsetMask>,
    /// An L3 read is outstanding.
    pub in_flight: Signal<Out, Bit>,
    /// Issue an L3 read this cycle.
    pub l3_read: Signal<Out, Bit>,
    /// The L3 row read.
    pub l3_row: Signal<Out, Bits<A>>,
    /// Write a row into the slow GRF this cycle.
    pub write: Signal<Out, Bit>,
    /// The row written.
    pub write_row: Signal<Out, Bits<A>>,
    /// The data written, one element per lane.
    pub write_data: Vec<Signal<Out, Bits<E>>>,
    e_base: Registers<Bits<A>>,
    e_area: Registers<Bit>,
    e_pending: Registers<OffsetMask>,
    e_flight: Registers<Bit>,
    e_flight_offset: Registers<BlockOffset>,
    e_hold: Registers<Bit>,
    e_hold_offset: Registers<BlockOffset>,
    e_hold_data: Registers<Bits<E>>,
    /// Simulation-only: the held answer is written before the next arrives
    /// ([`hold_checks`]).
    hold_check: EntryChecker,
    /// The lowest pending row, one-hot.
    pick: Signal<Local, OffsetMask>,
    /// Its offset.
    pick_offset: Signal<Local, BlockOffset>,
    zero4: Constant<BlockOffset>,
    zero16: Constant<OffsetMask>,
    one16: Constant<OffsetMask>,
    all16: Constant<OffsetMask>,
    /// Offsets 0..15 (4 bits, as rows, one-hot).
    offset_number: Vec<Constant<BlockOffset>>,
    offset_row: Vec<Constant<Bits<A>>>,
    offset_bit: Vec<Constant<OffsetMask>>,
    _lanes: usize,
}

impl<const E: usize, const A: usize> RefillEngine<E, A> {
    /// The refill engine for `params`' lanes.
    pub fn new(params: &GrfParams) -> Self {
        let lanes = params.lanes;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            arm: Default::default(),
            arm_base: Default::default(),
            arm_area: Default::default(),
            clear: Default::default(),
            clear_offset: Default::default(),
            controller_write: Default::default(),
            port_busy: Default::default(),
            l3_rvalid: Default::default(),
            l3_rdata: signals(lanes),
            busy: Default::default(),
            base: Default::default(),
            next_base: Default::default(),
            area: Default::default(),
            pending: Default::default(),
            in_flight: Default::default(),
            l3_read: Default::default(),
            l3_row: Default::default(),
            write: Default::default(),
            write_row: Default::default(),
            write_data: signals(lanes),
            e_base: Registers::new(1),
            e_area: Registers::new(1),
            e_pending: Registers::new(1),
            e_flight: Registers::new(1),
            e_flight_offset: Registers::new(1),
            e_hold: Registers::new(1),
            e_hold_offset: Registers::new(1),
            e_hold_data: Registers::new(lanes),
            hold_check: hold_checks(),
            pick: Default::default(),
            pick_offset: Default::default(),
            zero4: constant(0),
            zero16: constant(0),
            one16: constant(1),
            all16: constant(0xffff),
            offset_number: constants(0..GrfParams::BLOCK as u64),
            offset_row: constants(0..GrfParams::BLOCK as u64),
            offset_bit: constants((0..GrfParams::BLOCK).map(|o| 1u64 << o)),
            _lanes: lanes,
        }
    }
}

/// The engine's state: busy, the pending rows after a controller write, the rows and offsets it reads next.
enum Rows {}

/// What the engine does this cycle: the held answer written, the next read started, an arriving answer held, a refill armed.
enum Actions {}

impl<const E: usize, const A: usize> Logic for RefillEngine<E, A> {
    logic_in_parts!(Rows, Actions);
}

impl<const E: usize, const A: usize> crate::parts::Part<Rows> for RefillEngine<E, A> {
    // Locals and register inputs are assigned before they are read; some are then updated in
    // the same block (Verilog's blocking semantics).
    #[hdl_gen]
    fn update(&mut self) {
        self.e_base.clock.next = self.clock.val();
        self.e_area.clock.next = self.clock.val();
        self.e_pending.clock.next = self.clock.val();
        self.e_flight.clock.next = self.clock.val();
        self.e_flight_offset.clock.next = self.clock.val();
        self.e_hold.clock.next = self.clock.val();
        self.e_hold_offset.clock.next = self.clock.val();
        self.e_hold_data.clock.next = self.clock.val();
        self.e_base.d[0].next = self.e_base.q[0].val();
        self.e_area.d[0].next = self.e_area.q[0].val();
        self.e_pending.d[0].next = self.e_pending.q[0].val();
        self.e_flight.d[0].next = self.e_flight.q[0].val();
        self.e_flight_offset.d[0].next = self.e_flight_offset.q[0].val();
        self.e_hold.d[0].next = self.e_hold.q[0].val();
        self.e_hold_offset.d[0].next = self.e_hold_offset.q[0].val();
        for l in 0..self._lanes {
            self.e_hold_data.d[l].next = self.e_hold_data.q[l].val();
            self.write_data[l].next = self.e_hold_data.q[l].val();
        }
        // Busy exactly while a row is pending, a read is in flight or an answer is held: arming
        // fills the pending rows, and the engine empties the three only by its own transitions
        // (none of them fills while the three are empty). So the bit is not a register whose
        // next value waits for the controller's use of the L3 port.
        self.busy.next =
            self.e_pending.q[0].val().any() | self.e_flight.q[0].val() | self.e_hold.q[0].val();
        self.base.next = self.e_base.q[0].val();
        self.area.next = self.e_area.q[0].val();
        self.pending.next = self.e_pending.q[0].val();
        self.in_flight.next = self.e_flight.q[0].val();
        // A controller write of a pending row wins over the refill.
        if self.clear.val() {
            for o in 0..GrfParams::BLOCK {
                if self.clear_offset.val() == self.offset_number[o].val() {
                    self.e_pending.d[0].next =
                        self.e_pending.q[0].val() & !self.offset_bit[o].val();
                }
            }
        }
        // The rows: the held answer's, and the lowest pending one (the next to read).
        self.write.next = false;
        self.write_row.next = self.e_base.q[0].val();
        self.l3_row.next = self.e_base.q[0].val();
        self.pick.next =
            self.e_pending.q[0].val() & (!self.e_pending.q[0].val() + self.one16.val());
        // Rows and offsets as ORs of one-hot gated constants (a block's first row is a
        // multiple of 16): no adder, no chain of multiplexers.
        self.pick_offset.next = self.zero4.val();
        for o in 0..GrfParams::BLOCK {
            if self.e_hold_offset.q[0].val() == self.offset_number[o].val() {
                self.write_row.next = self.write_row.val() | self.offset_row[o].val();
            }
            if self.pick.val().get_bit(o) {
                self.l3_row.next = self.l3_row.val() | self.offset_row[o].val();
                self.pick_offset.next = self.pick_offset.val() | self.offset_number[o].val();
            }
        }
        self.e_flight_offset.d[0].next = self.pick_offset.val();
        self.l3_read.next = false;
    }
}

impl<const E: usize, const A: usize> crate::parts::Part<Actions> for RefillEngine<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        // Every action needs an answer held, a read in flight or a row pending: none acts
        // while the engine is idle.
        // The held answer goes into the slow GRF unless the controller writes it now.
        if self.e_hold.q[0].val() & !self.controller_write.val() {
            self.e_hold.d[0].next = false;
            if self.e_pending.q[0]
                .val()
                .get_bit(self.e_hold_offset.q[0].val().index())
            {
                self.write.next = true;
                for o in 0..GrfParams::BLOCK {
                    if self.e_hold_offset.q[0].val() == self.offset_number[o].val() {
                        self.e_pending.d[0].next =
                            self.e_pending.q[0].val() & !self.offset_bit[o].val();
                    }
                }
            }
        }
        // The next read, when nothing is outstanding and the port is free.
        if !self.e_flight.q[0].val()
            & !self.e_hold.q[0].val()
            & !self.port_busy.val()
            & self.e_pending.q[0].val().any()
        {
            self.l3_read.next = true;
            self.e_flight.d[0].next = true;
        } else {
            self.e_flight_offset.d[0].next = self.e_flight_offset.q[0].val();
        }
        // An answer arrives: held for the next cycle.
        if self.e_flight.q[0].val() & self.l3_rvalid.val() {
            self.e_flight.d[0].next = false;
            self.e_hold.d[0].next = true;
            self.e_hold_offset.d[0].next = self.e_flight_offset.q[0].val();
            for l in 0..self._lanes {
                self.e_hold_data.d[l].next = self.l3_rdata[l].val();
            }
        }
        if self.arm.val() {
            self.e_base.d[0].next = self.arm_base.val();
            self.e_area.d[0].next = self.arm_area.val();
            self.e_pending.d[0].next = self.all16.val();
            self.e_flight.d[0].next = false;
            self.e_hold.d[0].next = false;
        }
        self.next_base.next = self.e_base.d[0].val();
        // The held answer: filled by L3's answer, emptied when written or dropped.
        self.hold_check.clock.next = self.clock.val();
        self.hold_check.enable.next = self.busy.val() & !self.reset.val();
        self.hold_check.busy[0].next = self.e_hold.q[0].val();
        self.hold_check.fill[0].next = self.e_flight.q[0].val() & self.l3_rvalid.val();
        self.hold_check.drain[0].next = self.e_hold.q[0].val() & !self.controller_write.val();
        if self.reset.val() {
            self.e_flight.d[0].next = false;
            self.e_hold.d[0].next = false;
            self.e_pending.d[0].next = self.zero16.val();
        }
    }
}

/// The refill engine's one-entry answer register, checked while a refill is in progress and
/// not in reset: `grf: refill answer register loaded while an answer waits to be written
/// (overflow)`, `... written while empty (underflow)`.
pub(crate) fn hold_checks() -> EntryChecker {
    EntryChecker::new(
        ["grf: refill answer register".to_string()],
        "loaded while an answer waits to be written",
        "written while empty",
    )
}
