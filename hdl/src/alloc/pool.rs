//! RTL of the GPR pool allocator: the top module.

use rust_hdl::prelude::*;

use super::fit::FirstFit;
use super::range::RangeMask;
use super::slots::WaveSlots;
use crate::cells::regs::Registers;
use crate::checkers::EntryChecker;
use crate::params::{AllocParams, AMOUNT_BITS, POOL_BITS, RESIDENT_BITS, SLOT_BITS};
use crate::signals::{constant, signals};

/// The GPR pool allocator (`docs/alloc.md`, "The hardware"): a pool of P registers per lane in
/// granules of g, W wave slots, and the draw's footprint register.
///
/// * `set_footprint` (the command processor) loads the footprint; `release_valid` (a
///   `release(n)` of the preamble or the main shader) lowers it by `release_amount`, at most
///   to zero. Both take effect at the rising edge, `set_footprint` first.
/// * A wave asking to `launch` launches in the same cycle when a slot is free and the lowest run
///   of free granules covers the footprint rounded up to granules. It takes the lowest free
///   slot and that run, and keeps them until it retires.
/// * `retire` returns exactly the allocation the slot latched at launch.
#[derive(LogicBlock)]
pub struct GprPool {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Load the footprint (the command processor's `set_footprint(k)`).
    pub set_footprint: Signal<In, Bit>,
    /// The footprint to load, registers per wave.
    pub footprint_value: Signal<In, Bits<AMOUNT_BITS>>,
    /// Lower the footprint (a `release(n)`; `release` is a Verilog keyword).
    pub release_valid: Signal<In, Bit>,
    /// Registers to release.
    pub release_amount: Signal<In, Bits<AMOUNT_BITS>>,
    /// A wave asks to launch.
    pub launch: Signal<In, Bit>,
    /// A wave retires.
    pub retire: Signal<In, Bit>,
    /// The slot of the retiring wave.
    pub retire_slot: Signal<In, Bits<SLOT_BITS>>,
    /// The asking wave launches this cycle.
    pub launched: Signal<Out, Bit>,
    /// Its slot.
    pub launch_slot: Signal<Out, Bits<SLOT_BITS>>,
    /// Its base register.
    pub launch_base: Signal<Out, Bits<POOL_BITS>>,
    /// Its registers (the footprint rounded up to granules).
    pub launch_size: Signal<Out, Bits<POOL_BITS>>,
    /// Waves resident.
    pub resident: Signal<Out, Bits<RESIDENT_BITS>>,
    /// Cycles in which a wave asked to launch and did not.
    pub launch_stalls: Signal<Out, Bits<AMOUNT_BITS>>,
    /// Registers released so far.
    pub released: Signal<Out, Bits<AMOUNT_BITS>>,
    /// The footprint, registers per wave.
    pub footprint: Signal<Out, Bits<AMOUNT_BITS>>,
    /// Registers not allocated.
    pub free_registers: Signal<Out, Bits<POOL_BITS>>,
    fit: FirstFit,
    take: RangeMask,
    give: RangeMask,
    slots: WaveSlots,
    /// Per granule: allocated.
    used: Registers<Bit>,
    /// The footprint, the launch stalls and the registers released.
    state: Registers<Bits<AMOUNT_BITS>>,
    /// Simulation-only: no granule allocated twice or returned while free ([`pool_checks`]).
    pool_check: EntryChecker,
    /// Granules the footprint needs.
    need: Signal<Local, Bits<POOL_BITS>>,
    /// The wave launches.
    grant: Signal<Local, Bit>,
    /// The footprint after `set_footprint`.
    loaded: Signal<Local, Bits<AMOUNT_BITS>>,
    /// Registers released this cycle.
    cut: Signal<Local, Bits<AMOUNT_BITS>>,
    /// `free_below[i]`: free registers in granules below `i`.
    free_below: Vec<Signal<Local, Bits<POOL_BITS>>>,
    pool: Constant<Bits<AMOUNT_BITS>>,
    round_up: Constant<Bits<POOL_BITS>>,
    shift: Constant<Bits<POOL_BITS>>,
    granule: Constant<Bits<POOL_BITS>>,
    none: Constant<Bits<POOL_BITS>>,
    zero: Constant<Bits<AMOUNT_BITS>>,
    one: Constant<Bits<AMOUNT_BITS>>,
    _granules: usize,
}

impl GprPool {
    /// The allocator for `params`.
    pub fn new(params: &AllocParams) -> Self {
        let n = params.granules();
        let g = params.granularity as u64;
        Self {
            clock: Signal::default(),
            set_footprint: Signal::default(),
            footprint_value: Signal::default(),
            release_valid: Signal::default(),
            release_amount: Signal::default(),
            launch: Signal::default(),
            retire: Signal::default(),
            retire_slot: Signal::default(),
            launched: Signal::default(),
            launch_slot: Signal::default(),
            launch_base: Signal::default(),
            launch_size: Signal::default(),
            resident: Signal::default(),
            launch_stalls: Signal::default(),
            released: Signal::default(),
            footprint: Signal::default(),
            free_registers: Signal::default(),
            fit: FirstFit::new(n),
            take: RangeMask::new(n),
            give: RangeMask::new(n),
            slots: WaveSlots::new(params.wave_slots, n),
            used: Registers::new(n),
            state: Registers::new(3),
            pool_check: pool_checks(n),
            need: Signal::default(),
            grant: Signal::default(),
            loaded: Signal::default(),
            cut: Signal::default(),
            free_below: signals(n + 1),
            pool: constant(params.pool as u64),
            round_up: constant(g - 1),
            shift: constant(u64::from(g.trailing_zeros())),
            granule: constant(g),
            none: constant(0),
            zero: constant(0),
            one: constant(1),
            _granules: n,
        }
    }
}

impl Logic for GprPool {
    // The single-value loop binds the granule count (`ng`) to a loop variable.
    #[hdl_gen]
    fn update(&mut self) {
        for ng in self._granules..(self._granules + 1) {
            self.used.clock.next = self.clock.val();
            self.state.clock.next = self.clock.val();
            self.slots.clock.next = self.clock.val();
            // The footprint in granules; one larger than the pool never fits.
            self.need.next = (self.state.q[0].val().get_bits::<POOL_BITS>(0) + self.round_up.val())
                >> self.shift.val();
            for i in 0..self._granules {
                self.fit.used[i].next = self.used.q[i].val();
            }
            self.fit.need.next = self.need.val();
            self.grant.next = self.launch.val()
                & self.slots.any_free.val()
                & self.fit.fits.val()
                & (self.state.q[0].val() <= self.pool.val());
            self.take.valid.next = self.grant.val();
            self.take.base.next = self.fit.base.val();
            self.take.count.next = self.need.val();
            self.slots.launch.next = self.grant.val();
            self.slots.launch_base.next = self.fit.base.val();
            self.slots.launch_count.next = self.need.val();
            self.slots.retire.next = self.retire.val();
            self.slots.retire_slot.next = self.retire_slot.val();
            self.give.valid.next = self.slots.returning.val();
            self.give.base.next = self.slots.return_base.val();
            self.give.count.next = self.slots.return_count.val();
            self.free_below[0].next = self.none.val();
            self.pool_check.clock.next = self.clock.val();
            self.pool_check.enable.next = true;
            for i in 0..self._granules {
                self.pool_check.busy[i].next = self.used.q[i].val();
                self.pool_check.fill[i].next = self.take.mask[i].val();
                self.pool_check.drain[i].next = self.give.mask[i].val();
                self.used.d[i].next =
                    (self.used.q[i].val() & !self.give.mask[i].val()) | self.take.mask[i].val();
                self.free_below[i + 1].next = self.free_below[i].val();
                if !self.used.q[i].val() {
                    self.free_below[i + 1].next = self.free_below[i].val() + self.granule.val();
                }
            }
            // The footprint: loaded, then lowered by at most all of it.
            self.loaded.next = self.state.q[0].val();
            if self.set_footprint.val() {
                self.loaded.next = self.footprint_value.val();
            }
            self.cut.next = self.zero.val();
            if self.release_valid.val() {
                self.cut.next = self.release_amount.val();
                if self.release_amount.val() > self.loaded.val() {
                    self.cut.next = self.loaded.val();
                }
            }
            self.state.d[0].next = self.loaded.val() - self.cut.val();
            self.state.d[1].next = self.state.q[1].val();
            if self.launch.val() & !self.grant.val() {
                self.state.d[1].next = self.state.q[1].val() + self.one.val();
            }
            self.state.d[2].next = self.state.q[2].val() + self.cut.val();
            self.launched.next = self.grant.val();
            self.launch_slot.next = self.slots.free_slot.val();
            self.launch_base.next = self.fit.base.val() << self.shift.val();
            self.launch_size.next = self.need.val() << self.shift.val();
            self.resident.next = self.slots.resident.val();
            self.footprint.next = self.state.q[0].val();
            self.launch_stalls.next = self.state.q[1].val();
            self.released.next = self.state.q[2].val();
            self.free_registers.next = self.free_below[ng].val();
        }
    }
}

/// The pool's granules (`used`, taken by a launch, returned by a retire): none allocated while
/// allocated (`alloc: pool granule <i> allocated while in use (overflow)`), none returned while
/// free (`... returned while free (underflow)`).
pub(crate) fn pool_checks(granules: usize) -> EntryChecker {
    EntryChecker::new(
        (0..granules).map(|i| format!("alloc: pool granule {i}")),
        "allocated while in use",
        "returned while free",
    )
}
