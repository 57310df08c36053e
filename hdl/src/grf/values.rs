//! The fast GRFs' values: every entry's data, stored directly or through a one-cycle store
//! buffer.

use rust_hdl::prelude::*;

use crate::params::GrfParams;
use crate::regs::Registers;
use crate::signals;

/// The values of every EU's fast-GRF entries (`docs/grf.md`). `set_slot[e * fast + i]` stores
/// EU `e`'s `set_data` in its entry `i`. Direct, the entry's register takes it on the clock
/// edge. Buffered (`pipeline` 4 and up), the store and its entry are registered first and land
/// a cycle later, and `value` shows the buffered store over the entry's register until then:
/// every reader sees what it would see with the direct store, but the decision to store reaches
/// one flip-flop per entry instead of every lane's value. Vectors are EU-major: per entry
/// `[e * fast + i]`, per EU and lane `[e * lanes + l]`, per entry and lane
/// `[(e * fast + i) * lanes + l]`. `E` is the element width.
#[derive(LogicBlock)]
pub struct EntryValues<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per entry: store the EU's `set_data` there.
    pub set_slot: Vec<Signal<In, Bit>>,
    /// Per EU and lane: the value stored.
    pub set_data: Vec<Signal<In, Bits<E>>>,
    /// Per entry and lane: its value, every store of an earlier cycle included.
    pub value: Vec<Signal<Out, Bits<E>>>,
    /// Per entry and lane: the stored value.
    data: Registers<Bits<E>>,
    /// The store buffer (registers when buffered, else wires): per entry, a store to it lands
    /// at the next clock edge; per EU and lane, the value it stores.
    pending: Registers<Bit>,
    pending_data: Registers<Bits<E>>,
    /// 1 when the stores are buffered, else 0.
    _buffered: usize,
    _eus: usize,
    _fast: usize,
    _lanes: usize,
}

impl<const E: usize> EntryValues<E> {
    /// The values of `params`' fast GRFs, buffered with `pipeline` 4 and up.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes, fast) = (params.eus, params.lanes, params.fast_regs);
        let buffered = params.pipeline >= 4;
        Self {
            clock: Default::default(),
            set_slot: signals(eus * fast),
            set_data: signals(eus * lanes),
            value: signals(eus * fast * lanes),
            data: Registers::new(eus * fast * lanes),
            pending: Registers::stage(eus * fast, buffered),
            pending_data: Registers::stage(eus * lanes, buffered),
            _buffered: usize::from(buffered),
            _eus: eus,
            _fast: fast,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for EntryValues<E> {
    // Single-value loops bind the lanes (nl) and entries (nf) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.data.clock.next = self.clock.val();
        self.pending.clock.next = self.clock.val();
        self.pending_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    for l in 0..self._lanes {
                        self.pending_data.d[e * nl + l].next = self.set_data[e * nl + l].val();
                    }
                    for i in 0..self._fast {
                        self.pending.d[e * nf + i].next = self.set_slot[e * nf + i].val();
                        for l in 0..self._lanes {
                            self.data.d[(e * nf + i) * nl + l].next =
                                self.data.q[(e * nf + i) * nl + l].val();
                            self.value[(e * nf + i) * nl + l].next =
                                self.data.q[(e * nf + i) * nl + l].val();
                            if self.pending.q[e * nf + i].val() {
                                self.data.d[(e * nf + i) * nl + l].next =
                                    self.pending_data.q[e * nl + l].val();
                                for _buffered in 0..self._buffered {
                                    self.value[(e * nf + i) * nl + l].next =
                                        self.pending_data.q[e * nl + l].val();
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
