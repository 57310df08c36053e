//! The controller's state: idle, a slow read, an L3 redirect, a switch waiting for the refill
//! engine, or a save.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::codes::controller_state::{IDLE, REDIRECT, SAVE, SLOW_READ, SWITCH_WAIT};
use crate::grf::widths::{ControllerState, EuNumber, LatencyCount};
use crate::params::GrfParams;
use crate::signals::constant;

/// The controller's sequencer (`docs/grf.md`). It takes a transaction when idle, or in the
/// last cycle of a slow read; a slow read keeps it busy until its answer leaves the pipeline;
/// a redirected read issues its L3 read when no refill read is outstanding and answers with
/// L3's data; a switch waits for the refill engine, then saves. `A` is the slow GRF's
/// row-address width.
#[derive(LogicBlock)]
pub struct Sequencer<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle.
    pub reset: Signal<In, Bit>,
    /// A transaction can be taken this cycle.
    pub avail: Signal<Out, Bit>,
    /// A transaction is taken this cycle.
    pub take: Signal<In, Bit>,
    /// From EU `eu`.
    pub eu: Signal<In, EuNumber>,
    /// It starts a slow read.
    pub slow_read: Signal<In, Bit>,
    /// It is a read served from L3 at `redirect_row` of `refill_area`.
    pub redirect: Signal<In, Bit>,
    /// The redirected register's row.
    pub redirect_row: Signal<In, Bits<A>>,
    /// The redirected register is shared.
    pub redirect_shared: Signal<In, Bit>,
    /// It is a context switch.
    pub start_switch: Signal<In, Bit>,
    /// The refill engine is busy.
    pub refill_busy: Signal<In, Bit>,
    /// The refill engine's L3 area.
    pub refill_area: Signal<In, Bit>,
    /// The refill engine has an L3 read outstanding.
    pub refill_in_flight: Signal<In, Bit>,
    /// L3 answers a read.
    pub l3_rvalid: Signal<In, Bit>,
    /// The save's last write is this cycle.
    pub save_done: Signal<In, Bit>,
    /// The EU being served.
    pub serving: Signal<Out, EuNumber>,
    /// The save begins this cycle.
    pub start_save: Signal<Out, Bit>,
    /// In the save phase.
    pub saving: Signal<Out, Bit>,
    /// In the save phase, or waiting to start it: the slow GRF's read port is the save's.
    pub save_side: Signal<Out, Bit>,
    /// The redirect's L3 read goes out this cycle.
    pub l3_read: Signal<Out, Bit>,
    /// Its area.
    pub l3_area: Signal<Out, Bit>,
    /// Its row.
    pub l3_row: Signal<Out, Bits<A>>,
    /// The L3 port is taken by the redirect this cycle, or waits for its answer.
    pub l3_busy: Signal<Out, Bit>,
    /// L3 answers the redirect: answer the serving EU with L3's data.
    pub redirect_done: Signal<Out, Bit>,
    /// The redirected register is shared (for that answer).
    pub done_shared: Signal<Out, Bit>,
    state: Registers<ControllerState>,
    served: Registers<EuNumber>,
    timer: Registers<LatencyCount>,
    issued: Registers<Bit>,
    area: Registers<Bit>,
    row: Registers<Bits<A>>,
    shared: Registers<Bit>,
    /// `avail` registered: computed from the state and timer this cycle leaves, so that the
    /// controller's decisions start from a flip-flop.
    free: Registers<Bit>,
    st_idle: Constant<ControllerState>,
    st_slow: Constant<ControllerState>,
    st_redirect: Constant<ControllerState>,
    st_switch_wait: Constant<ControllerState>,
    st_save: Constant<ControllerState>,
    zero4: Constant<LatencyCount>,
    one4: Constant<LatencyCount>,
    /// `slow_latency - 1`: the slow-read timer's start.
    timer_start: Constant<LatencyCount>,
}

impl<const A: usize> Sequencer<A> {
    /// The sequencer for `params`' slow latency.
    pub fn new(params: &GrfParams) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            avail: Default::default(),
            take: Default::default(),
            eu: Default::default(),
            slow_read: Default::default(),
            redirect: Default::default(),
            redirect_row: Default::default(),
            redirect_shared: Default::default(),
            start_switch: Default::default(),
            refill_busy: Default::default(),
            refill_area: Default::default(),
            refill_in_flight: Default::default(),
            l3_rvalid: Default::default(),
            save_done: Default::default(),
            serving: Default::default(),
            start_save: Default::default(),
            saving: Default::default(),
            save_side: Default::default(),
            l3_read: Default::default(),
            l3_area: Default::default(),
            l3_row: Default::default(),
            l3_busy: Default::default(),
            redirect_done: Default::default(),
            done_shared: Default::default(),
            state: Registers::new(1),
            served: Registers::new(1),
            timer: Registers::new(1),
            issued: Registers::new(1),
            area: Registers::new(1),
            row: Registers::new(1),
            shared: Registers::new(1),
            free: Registers::new(1),
            st_idle: constant(IDLE),
            st_slow: constant(SLOW_READ),
            st_redirect: constant(REDIRECT),
            st_switch_wait: constant(SWITCH_WAIT),
            st_save: constant(SAVE),
            zero4: constant(0),
            one4: constant(1),
            timer_start: constant(params.slow_latency as u64 - 1),
        }
    }
}

impl<const A: usize> Logic for Sequencer<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.state.clock.next = self.clock.val();
        self.served.clock.next = self.clock.val();
        self.timer.clock.next = self.clock.val();
        self.issued.clock.next = self.clock.val();
        self.area.clock.next = self.clock.val();
        self.row.clock.next = self.clock.val();
        self.shared.clock.next = self.clock.val();
        self.free.clock.next = self.clock.val();
        self.state.d[0].next = self.state.q[0].val();
        self.served.d[0].next = self.served.q[0].val();
        self.timer.d[0].next = self.timer.q[0].val();
        self.issued.d[0].next = self.issued.q[0].val();
        self.area.d[0].next = self.area.q[0].val();
        self.row.d[0].next = self.row.q[0].val();
        self.shared.d[0].next = self.shared.q[0].val();
        self.serving.next = self.served.q[0].val();
        self.saving.next = self.state.q[0].val() == self.st_save.val();
        self.save_side.next =
            self.saving.val() | (self.state.q[0].val() == self.st_switch_wait.val());
        self.avail.next = self.free.q[0].val();
        self.l3_read.next = false;
        self.start_save.next = false;
        // A slow read: free again when its answer leaves the pipeline.
        if (self.state.q[0].val() == self.st_slow.val()) & !self.take.val() {
            self.timer.d[0].next = self.timer.q[0].val() - self.one4.val();
            if self.timer.q[0].val() == self.zero4.val() {
                self.state.d[0].next = self.st_idle.val();
            }
        }
        // The transaction taken.
        if self.take.val() {
            self.state.d[0].next = self.st_idle.val();
            self.served.d[0].next = self.eu.val();
            if self.slow_read.val() {
                self.state.d[0].next = self.st_slow.val();
                self.timer.d[0].next = self.timer_start.val();
            }
            if self.redirect.val() {
                self.state.d[0].next = self.st_redirect.val();
                self.area.d[0].next = self.refill_area.val();
                self.row.d[0].next = self.redirect_row.val();
                self.shared.d[0].next = self.redirect_shared.val();
                self.issued.d[0].next = !self.refill_in_flight.val();
                self.l3_read.next = !self.refill_in_flight.val();
            }
            if self.start_switch.val() {
                self.state.d[0].next = self.st_switch_wait.val();
                self.start_save.next = !self.refill_busy.val();
            }
        }
        // A redirect: issue when no L3 read is outstanding; answer on L3's.
        self.redirect_done.next = false;
        if self.state.q[0].val() == self.st_redirect.val() {
            if !self.issued.q[0].val() & !self.refill_in_flight.val() {
                self.l3_read.next = true;
                self.issued.d[0].next = true;
            }
            if self.issued.q[0].val() & self.l3_rvalid.val() {
                self.state.d[0].next = self.st_idle.val();
                self.redirect_done.next = true;
            }
        }
        self.done_shared.next = self.shared.q[0].val();
        self.l3_area.next = self.area.q[0].val();
        self.l3_row.next = self.row.q[0].val();
        if self.take.val() {
            self.l3_area.next = self.refill_area.val();
            self.l3_row.next = self.redirect_row.val();
        }
        self.l3_busy.next = self.l3_read.val()
            | ((self.state.q[0].val() == self.st_redirect.val())
                & self.issued.q[0].val()
                & !self.l3_rvalid.val());
        // A switch: the save begins once the refill engine is free; its end frees the
        // controller.
        if (self.state.q[0].val() == self.st_switch_wait.val()) & !self.refill_busy.val() {
            self.start_save.next = true;
        }
        if self.start_save.val() {
            self.state.d[0].next = self.st_save.val();
        }
        if self.save_done.val() {
            self.state.d[0].next = self.st_idle.val();
        }
        if self.reset.val() {
            self.state.d[0].next = self.st_idle.val();
            self.issued.d[0].next = false;
        }
        self.free.d[0].next = (self.state.d[0].val() == self.st_idle.val())
            | ((self.state.d[0].val() == self.st_slow.val())
                & (self.timer.d[0].val() == self.zero4.val()));
    }
}
