//! The fast GRFs' entries: the registers that hold them and the writes into them.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::ports::FastStores;
use crate::grf::widths::{RegIndex, ThreadIndex};
use crate::params::GrfParams;
use crate::signals::signals;

/// Every EU's fast GRF entries (`docs/grf.md`): per entry valid, dirty, thread, register and
/// value. Writes take effect on the clock edge: `set_slot` stores an entry, `clean` clears its
/// dirty bit, `drop` (or reset) invalidates it. With `pipeline` 4 and up a stored value lands
/// a cycle late: the entry and the value are registered (`pending_slot`, `pending_data`) and
/// written in the next cycle, so an entry's value enables come from a register, not from the
/// decision to store; the other fields are written at once. Vectors are EU-major: per EU
/// `[e]`, per entry `[e * fast_regs + i]`, per lane `[e * lanes + l]`, per entry and lane
/// `[(e * fast_regs + i) * lanes + l]`. `E` is the element width.
#[derive(LogicBlock)]
pub struct FastEntries<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every entry invalid.
    pub reset: Signal<In, Bit>,
    /// The stores.
    pub set: FastStores<In, Out, E>,
    /// Per entry: clear its dirty bit (it is written back).
    pub clean: Vec<Signal<In, Bit>>,
    /// Per entry: invalidate it, dirty or not.
    pub drop: Vec<Signal<In, Bit>>,
    /// Per entry: it holds a register.
    pub valid: Vec<Signal<Out, Bit>>,
    /// Per entry: its value is newer than the slow GRF's.
    pub dirty: Vec<Signal<Out, Bit>>,
    /// Per entry: the thread of the register it holds.
    pub thread: Vec<Signal<Out, ThreadIndex>>,
    /// Per entry: the register it holds.
    pub reg_index: Vec<Signal<Out, RegIndex>>,
    /// Per entry and lane: its value.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// Per entry: a value is stored there at the end of this cycle (`pipeline` 4 and up).
    pub pending_slot: Vec<Signal<Out, Bit>>,
    /// Per EU and lane: that value.
    pub pending_data: Vec<Signal<Out, Bits<E>>>,
    ent_valid: Registers<Bit>,
    ent_dirty: Registers<Bit>,
    ent_thread: Registers<ThreadIndex>,
    ent_reg: Registers<RegIndex>,
    ent_data: Registers<Bits<E>>,
    /// `set_slot` and `set_data` registered with `pipeline` 4 and up, else wires.
    pend_slot: Registers<Bit>,
    pend_data: Registers<Bits<E>>,
    _eus: usize,
    _fast: usize,
    _lanes: usize,
}

impl<const E: usize> FastEntries<E> {
    /// The fast GRF entries of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes, fast) = (params.eus, params.lanes, params.fast_regs);
        let defer = params.pipeline >= 4;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            set: FastStores::new(eus, fast, lanes),
            clean: signals(eus * fast),
            drop: signals(eus * fast),
            valid: signals(eus * fast),
            dirty: signals(eus * fast),
            thread: signals(eus * fast),
            reg_index: signals(eus * fast),
            data: signals(eus * fast * lanes),
            pending_slot: signals(eus * fast),
            pending_data: signals(eus * lanes),
            ent_valid: Registers::new(eus * fast),
            ent_dirty: Registers::new(eus * fast),
            ent_thread: Registers::new(eus * fast),
            ent_reg: Registers::new(eus * fast),
            ent_data: Registers::new(eus * fast * lanes),
            pend_slot: Registers::stage(eus * fast, defer),
            pend_data: Registers::stage(eus * lanes, defer),
            _eus: eus,
            _fast: fast,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for FastEntries<E> {
    // Single-value loops bind the lanes (nl) and entries (nf) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.ent_valid.clock.next = self.clock.val();
        self.ent_dirty.clock.next = self.clock.val();
        self.ent_thread.clock.next = self.clock.val();
        self.ent_reg.clock.next = self.clock.val();
        self.ent_data.clock.next = self.clock.val();
        self.pend_slot.clock.next = self.clock.val();
        self.pend_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    for l in 0..self._lanes {
                        self.pend_data.d[e * nl + l].next = self.set.data[e * nl + l].val();
                        self.pending_data[e * nl + l].next = self.pend_data.q[e * nl + l].val();
                    }
                    for i in 0..self._fast {
                        self.valid[e * nf + i].next = self.ent_valid.q[e * nf + i].val();
                        self.dirty[e * nf + i].next = self.ent_dirty.q[e * nf + i].val();
                        self.thread[e * nf + i].next = self.ent_thread.q[e * nf + i].val();
                        self.reg_index[e * nf + i].next = self.ent_reg.q[e * nf + i].val();
                        self.pending_slot[e * nf + i].next = self.pend_slot.q[e * nf + i].val();
                        self.ent_valid.d[e * nf + i].next = self.ent_valid.q[e * nf + i].val();
                        self.ent_dirty.d[e * nf + i].next = self.ent_dirty.q[e * nf + i].val();
                        self.ent_thread.d[e * nf + i].next = self.ent_thread.q[e * nf + i].val();
                        self.ent_reg.d[e * nf + i].next = self.ent_reg.q[e * nf + i].val();
                        for l in 0..self._lanes {
                            self.data[(e * nf + i) * nl + l].next =
                                self.ent_data.q[(e * nf + i) * nl + l].val();
                            self.ent_data.d[(e * nf + i) * nl + l].next =
                                self.ent_data.q[(e * nf + i) * nl + l].val();
                            if self.pend_slot.q[e * nf + i].val() {
                                self.ent_data.d[(e * nf + i) * nl + l].next =
                                    self.pend_data.q[e * nl + l].val();
                            }
                        }
                        self.pend_slot.d[e * nf + i].next =
                            self.set.slot[e * nf + i].val() & !self.reset.val();
                        if self.set.slot[e * nf + i].val() {
                            self.ent_valid.d[e * nf + i].next = true;
                            self.ent_dirty.d[e * nf + i].next = self.set.dirty[e].val();
                            self.ent_thread.d[e * nf + i].next = self.set.thread[e].val();
                            self.ent_reg.d[e * nf + i].next = self.set.reg[e].val();
                        }
                        if self.clean[e * nf + i].val() {
                            self.ent_dirty.d[e * nf + i].next = false;
                        }
                        if self.drop[e * nf + i].val() | self.reset.val() {
                            self.ent_valid.d[e * nf + i].next = false;
                            self.ent_dirty.d[e * nf + i].next = false;
                        }
                    }
                }
            }
        }
    }
}
