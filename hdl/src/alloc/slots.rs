//! The wave slots: which waves are resident, and the allocation each latched at launch.

use rust_hdl::prelude::*;

use super::checker::AllocationChecker;
use crate::cells::regs::Registers;
use crate::params::{POOL_BITS, RESIDENT_BITS, SLOT_BITS};
use crate::signals::{constants, signals};

/// The wave slots. A launch takes the lowest free slot and latches its allocation (first
/// granule, granules); a retire frees its slot and shows the allocation it returns. Nothing
/// changes an allocation in between.
#[derive(LogicBlock)]
pub struct WaveSlots {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// A wave launches this cycle (into `free_slot`).
    pub launch: Signal<In, Bit>,
    /// Its first granule.
    pub launch_base: Signal<In, Bits<POOL_BITS>>,
    /// Its granules.
    pub launch_count: Signal<In, Bits<POOL_BITS>>,
    /// A wave retires this cycle.
    pub retire: Signal<In, Bit>,
    /// The slot it retires from.
    pub retire_slot: Signal<In, Bits<SLOT_BITS>>,
    /// Some slot is free.
    pub any_free: Signal<Out, Bit>,
    /// The lowest free slot.
    pub free_slot: Signal<Out, Bits<SLOT_BITS>>,
    /// Waves resident.
    pub resident: Signal<Out, Bits<RESIDENT_BITS>>,
    /// The retire names a resident wave: its allocation returns.
    pub returning: Signal<Out, Bit>,
    /// The returning allocation's first granule.
    pub return_base: Signal<Out, Bits<POOL_BITS>>,
    /// The returning allocation's granules.
    pub return_count: Signal<Out, Bits<POOL_BITS>>,
    valid: Registers<Bit>,
    base: Registers<Bits<POOL_BITS>>,
    count: Registers<Bits<POOL_BITS>>,
    /// Simulation-only assertions on the allocations.
    assertions: AllocationChecker,
    /// `resident_below[s]`: resident waves in slots below `s`.
    resident_below: Vec<Signal<Local, Bits<RESIDENT_BITS>>>,
    /// Per slot: the retire frees it.
    retiring: Vec<Signal<Local, Bit>>,
    slot_number: Vec<Constant<Bits<SLOT_BITS>>>,
    none: Constant<Bits<RESIDENT_BITS>>,
    one: Constant<Bits<RESIDENT_BITS>>,
    zero: Constant<Bits<POOL_BITS>>,
    _slots: usize,
}

impl WaveSlots {
    /// `slots` wave slots over `granules` granules.
    pub fn new(slots: usize, granules: usize) -> Self {
        Self {
            clock: Signal::default(),
            launch: Signal::default(),
            launch_base: Signal::default(),
            launch_count: Signal::default(),
            retire: Signal::default(),
            retire_slot: Signal::default(),
            any_free: Signal::default(),
            free_slot: Signal::default(),
            resident: Signal::default(),
            returning: Signal::default(),
            return_base: Signal::default(),
            return_count: Signal::default(),
            valid: Registers::new(slots),
            base: Registers::new(slots),
            count: Registers::new(slots),
            assertions: AllocationChecker::new(slots, granules),
            resident_below: signals(slots + 1),
            retiring: signals(slots),
            slot_number: constants(0..slots as u64),
            none: Constant::new(0u64.into()),
            one: Constant::new(1u64.into()),
            zero: Constant::new(0u64.into()),
            _slots: slots,
        }
    }
}

impl Logic for WaveSlots {
    // The single-value loop binds the slot count (`ns`) to a loop variable.
    #[hdl_gen]
    fn update(&mut self) {
        for ns in self._slots..(self._slots + 1) {
            self.valid.clock.next = self.clock.val();
            self.base.clock.next = self.clock.val();
            self.count.clock.next = self.clock.val();
            self.assertions.clock.next = self.clock.val();
            self.any_free.next = false;
            self.free_slot.next = self.slot_number[0].val();
            self.returning.next = false;
            self.return_base.next = self.zero.val();
            self.return_count.next = self.zero.val();
            self.resident_below[0].next = self.none.val();
            for k in 0..self._slots {
                // From the top down, so that the lowest free slot is assigned last.
                if !self.valid.q[ns - 1 - k].val() {
                    self.any_free.next = true;
                    self.free_slot.next = self.slot_number[ns - 1 - k].val();
                }
            }
            for s in 0..self._slots {
                self.resident_below[s + 1].next = self.resident_below[s].val();
                if self.valid.q[s].val() {
                    self.resident_below[s + 1].next = self.resident_below[s].val() + self.one.val();
                }
                self.retiring[s].next = self.retire.val()
                    & self.valid.q[s].val()
                    & (self.retire_slot.val() == self.slot_number[s].val());
                if self.retiring[s].val() {
                    self.returning.next = true;
                    self.return_base.next = self.base.q[s].val();
                    self.return_count.next = self.count.q[s].val();
                }
                self.valid.d[s].next = self.valid.q[s].val() & !self.retiring[s].val();
                self.base.d[s].next = self.base.q[s].val();
                self.count.d[s].next = self.count.q[s].val();
                if self.launch.val() & (self.free_slot.val() == self.slot_number[s].val()) {
                    self.valid.d[s].next = true;
                    self.base.d[s].next = self.launch_base.val();
                    self.count.d[s].next = self.launch_count.val();
                }
            }
            for s in 0..self._slots {
                self.assertions.valid[s].next = self.valid.q[s].val();
                self.assertions.base[s].next = self.base.q[s].val();
                self.assertions.count[s].next = self.count.q[s].val();
                self.assertions.next_valid[s].next = self.valid.d[s].val();
                self.assertions.next_base[s].next = self.base.d[s].val();
                self.assertions.next_count[s].next = self.count.d[s].val();
            }
            self.resident.next = self.resident_below[ns].val();
        }
    }
}
