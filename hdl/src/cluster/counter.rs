//! The clustered file's counters, and the event counter (`COUNTER_BITS`) they are built from.

use rust_hdl::prelude::*;

use super::encoding::{Source, COUNTER_BITS, OP_BITS, OP_OUT, SEL_BITS};
use crate::cells::regs::Registers;
use crate::signals::{constant, constants, signals};

/// Bits of the per-cycle sum of events (at most 63 events a cycle).
const SUM_BITS: usize = 6;

/// Counts events: each cycle, the number of `event` inputs high is added to `count` on the
/// rising edge (wrapping at 2^32). The cycle's sum is taken in 6 bits, then widened through a
/// table (docs/rust-hdl.md, limit 12), so that the 32-bit adder is one, not one per event.
#[derive(LogicBlock)]
pub struct EventCounter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The events of this cycle.
    pub event: Vec<Signal<In, Bit>>,
    /// Events counted before this cycle.
    pub count: Signal<Out, Bits<COUNTER_BITS>>,
    /// `sum[k]`: events among the first `k` inputs.
    sum: Vec<Signal<Local, Bits<SUM_BITS>>>,
    /// This cycle's events, 32 bits wide.
    step: Signal<Local, Bits<COUNTER_BITS>>,
    /// The numbers `0..=events` in 6 bits.
    small: Vec<Constant<Bits<SUM_BITS>>>,
    /// The numbers `0..=events` in 32 bits.
    wide: Vec<Constant<Bits<COUNTER_BITS>>>,
    total: Registers<Bits<COUNTER_BITS>>,
    _events: usize,
}

impl EventCounter {
    /// A counter of up to `events` events a cycle (at most 63).
    pub fn new(events: usize) -> Self {
        assert!(events < 1 << SUM_BITS);
        Self {
            clock: Signal::default(),
            event: signals(events),
            count: Signal::default(),
            sum: signals(events + 1),
            step: Signal::default(),
            small: constants(0..=events as u64),
            wide: constants(0..=events as u64),
            total: Registers::new(1),
            _events: events,
        }
    }
}

impl Logic for EventCounter {
    // The single-value loop binds the event count (`ne`) to a loop variable.
    #[hdl_gen]
    fn update(&mut self) {
        for ne in self._events..(self._events + 1) {
            self.total.clock.next = self.clock.val();
            self.sum[0].next = self.small[0].val();
            for k in 0..self._events {
                self.sum[k + 1].next = self.sum[k].val();
                if self.event[k].val() {
                    self.sum[k + 1].next = self.sum[k].val() + self.small[1].val();
                }
            }
            self.step.next = self.wide[0].val();
            for v in 1..(self._events + 1) {
                if self.sum[ne].val() == self.small[v].val() {
                    self.step.next = self.wide[v].val();
                }
            }
            self.total.d[0].next = self.total.q[0].val() + self.step.val();
            self.count.next = self.total.q[0].val();
        }
    }
}

/// The clustered file's counters: each cycle, the local and main accesses of the issued
/// instructions (register sources and destinations), the offered instructions not issued,
/// and whether any was not.
#[derive(LogicBlock)]
pub struct AccessCounters {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per cluster: an instruction is offered.
    pub valid: Vec<Signal<In, Bit>>,
    /// Per cluster: it issues.
    pub grant: Vec<Signal<In, Bit>>,
    /// Per cluster: where its first source is (`encoding::Source`).
    pub a_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: where its second source is.
    pub b_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: its operation.
    pub op: Vec<Signal<In, Bits<OP_BITS>>>,
    /// Per cluster: its destination is in the main file.
    pub dst_main: Vec<Signal<In, Bit>>,
    /// Local-file reads and writes so far.
    pub local_accesses: Signal<Out, Bits<COUNTER_BITS>>,
    /// Main-file reads and writes so far.
    pub main_accesses: Signal<Out, Bits<COUNTER_BITS>>,
    /// Offered instructions not issued, so far.
    pub main_conflicts: Signal<Out, Bits<COUNTER_BITS>>,
    /// Cycles with an offered instruction not issued, so far.
    pub stall_cycles: Signal<Out, Bits<COUNTER_BITS>>,
    local_count: EventCounter,
    main_count: EventCounter,
    conflict_count: EventCounter,
    stall_count: EventCounter,
    /// Per cluster: its operation writes a register.
    writes: Vec<Signal<Local, Bit>>,
    /// `stalled[c]`: a cluster below `c` was denied.
    stalled: Vec<Signal<Local, Bit>>,
    sel_local: Constant<Bits<SEL_BITS>>,
    sel_main: Constant<Bits<SEL_BITS>>,
    op_out: Constant<Bits<OP_BITS>>,
    _clusters: usize,
}

impl AccessCounters {
    /// The counters of `clusters` clusters.
    pub fn new(clusters: usize) -> Self {
        Self {
            clock: Signal::default(),
            valid: signals(clusters),
            grant: signals(clusters),
            a_sel: signals(clusters),
            b_sel: signals(clusters),
            op: signals(clusters),
            dst_main: signals(clusters),
            local_accesses: Signal::default(),
            main_accesses: Signal::default(),
            main_conflicts: Signal::default(),
            stall_cycles: Signal::default(),
            local_count: EventCounter::new(3 * clusters),
            main_count: EventCounter::new(3 * clusters),
            conflict_count: EventCounter::new(clusters),
            stall_count: EventCounter::new(1),
            writes: signals(clusters),
            stalled: signals(clusters + 1),
            sel_local: constant(Source::Local.code()),
            sel_main: constant(Source::Main.code()),
            op_out: constant(OP_OUT),
            _clusters: clusters,
        }
    }
}

impl Logic for AccessCounters {
    // The single-value loop binds the cluster count (`nc`) to a loop variable.
    #[hdl_gen]
    fn update(&mut self) {
        for nc in self._clusters..(self._clusters + 1) {
            self.local_count.clock.next = self.clock.val();
            self.main_count.clock.next = self.clock.val();
            self.conflict_count.clock.next = self.clock.val();
            self.stall_count.clock.next = self.clock.val();
            self.stalled[0].next = false;
            for c in 0..self._clusters {
                self.writes[c].next = self.op[c].val() != self.op_out.val();
                self.local_count.event[3 * c].next =
                    self.grant[c].val() & (self.a_sel[c].val() == self.sel_local.val());
                self.local_count.event[3 * c + 1].next =
                    self.grant[c].val() & (self.b_sel[c].val() == self.sel_local.val());
                self.local_count.event[3 * c + 2].next =
                    self.grant[c].val() & self.writes[c].val() & !self.dst_main[c].val();
                self.main_count.event[3 * c].next =
                    self.grant[c].val() & (self.a_sel[c].val() == self.sel_main.val());
                self.main_count.event[3 * c + 1].next =
                    self.grant[c].val() & (self.b_sel[c].val() == self.sel_main.val());
                self.main_count.event[3 * c + 2].next =
                    self.grant[c].val() & self.writes[c].val() & self.dst_main[c].val();
                self.conflict_count.event[c].next = self.valid[c].val() & !self.grant[c].val();
                self.stalled[c + 1].next =
                    self.stalled[c].val() | (self.valid[c].val() & !self.grant[c].val());
            }
            self.stall_count.event[0].next = self.stalled[nc].val();
            self.local_accesses.next = self.local_count.count.val();
            self.main_accesses.next = self.main_count.count.val();
            self.main_conflicts.next = self.conflict_count.count.val();
            self.stall_cycles.next = self.stall_count.count.val();
        }
    }
}
