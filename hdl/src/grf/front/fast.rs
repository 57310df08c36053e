//! The EUs' fast GRFs: each a direct-mapped, write-back store of a few registers, with its
//! lookups and its writes.

use rust_hdl::prelude::*;

use super::fast_entries::FastEntries;
use super::first_dirty::FirstDirty;
use crate::cells::regs::Registers;
use crate::grf::ports::FastStores;
use crate::grf::widths::{RegIndex, ThreadIndex};
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::{constant, constants, signals};

/// Every EU's fast GRF (`docs/grf.md`): `fast_regs` entries per EU, the entry of (thread,
/// register) given by the index function. Vectors are EU-major: per EU `[e]`, per entry
/// `[e * fast_regs + i]`, per lane `[e * lanes + l]`. Lookups are combinational: whether the
/// incoming request hits, and the entry that holds it; the served request's entry (its victim,
/// registered: see `last_dirty`); the first dirty entry of a (thread, block), and every entry
/// of it. Writes take effect on the clock edge, at most one kind per cycle: `set` stores an
/// entry, `clean` clears dirty bits, `drop` invalidates.
/// With the switch's search registered (`pipeline` 4) the first dirty entry is searched for
/// among held entries: the block's dirty entries as `hold` took them, less those cleaned since
/// (nothing else writes an EU's fast GRF while it flushes); without, among the live entries.
/// With `pipeline` 4 and up a stored value also lands a cycle late: `set_slot` and `set_data`
/// are registered and written into the entry in the next cycle, so an entry's value enables
/// come from a register, not from the decision to store. Only the incoming request's lookup
/// can read an entry in that cycle (a store is a write hit or a fill, after which the next
/// request can be taken at once; the victim is looked up from the cycle after a request is
/// taken and the held search from the cycle after a switch is taken, and only the request's
/// own fill stores in between), so only the hit data can be stale: `hit_pending` says so, and
/// `pending_data` is the value the response shows instead.
/// `E` is the element width.
#[derive(LogicBlock)]
pub struct FastGrfs<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every entry invalid.
    pub reset: Signal<In, Bit>,
    /// The incoming request's thread.
    pub req_thread: Vec<Signal<In, ThreadIndex>>,
    /// The incoming request's register.
    pub req_reg: Vec<Signal<In, RegIndex>>,
    /// The served request's thread.
    pub rq_thread: Vec<Signal<In, ThreadIndex>>,
    /// The served request's register.
    pub rq_reg: Vec<Signal<In, RegIndex>>,
    /// Per EU: the block looked through (`found`, `in_block`) is the incoming request's, else
    /// the served one's. Both blocks are compared and this picks the result, so the compare
    /// does not wait for the front end's state.
    pub idle: Vec<Signal<In, Bit>>,
    /// The incoming request's register is there.
    pub hit: Vec<Signal<Out, Bit>>,
    /// Per entry: it holds the incoming request's register (at most one per EU).
    pub hit_slot: Vec<Signal<Out, Bit>>,
    /// The value of the entry the incoming request's register maps to, one element per lane:
    /// the register's value on a hit (on a miss another register's, which no response shows;
    /// so the value does not wait for the tag compare).
    pub hit_data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU: the entry the incoming request's register maps to has a store waiting, so
    /// `hit_data` is its old value and `pending_data` the one it takes at the end of the cycle.
    pub hit_pending: Vec<Signal<Out, Bit>>,
    /// Per EU and lane: the value of the store waiting (`pipeline` 4 and up).
    pub pending_data: Vec<Signal<Out, Bits<E>>>,
    /// Per entry: the served request's register maps there.
    pub rq_slot: Vec<Signal<Out, Bit>>,
    /// That entry holds another register, dirty: it must be written back first (looked up a
    /// cycle before and registered, like the victim's fields below).
    pub victim_dirty: Vec<Signal<Out, Bit>>,
    /// The victim's thread.
    pub victim_thread: Vec<Signal<Out, ThreadIndex>>,
    /// The victim's register.
    pub victim_reg: Vec<Signal<Out, RegIndex>>,
    /// The victim's value, one element per lane.
    pub victim_data: Vec<Signal<Out, Bits<E>>>,
    /// The block has a dirty entry.
    pub found: Vec<Signal<Out, Bit>>,
    /// Per entry: it is the block's first dirty entry.
    pub found_slot: Vec<Signal<Out, Bit>>,
    /// That entry's register.
    pub found_reg: Vec<Signal<Out, RegIndex>>,
    /// That entry's value, one element per lane.
    pub found_data: Vec<Signal<Out, Bits<E>>>,
    /// Per entry: it holds a register of the block (valid or not).
    pub in_block: Vec<Signal<Out, Bit>>,
    /// The stores.
    pub set: FastStores<In, Out, E>,
    /// Per entry: clear its dirty bit (it is written back).
    pub clean: Vec<Signal<In, Bit>>,
    /// Per entry: invalidate it, dirty or not.
    pub drop: Vec<Signal<In, Bit>>,
    /// Per EU: hold the block's dirty entries for the search (`pipeline` 4).
    pub hold: Vec<Signal<In, Bit>>,
    /// Per EU: the first held entry, if any, is written back this cycle (`clean` is this and
    /// `found_slot`).
    pub flush: Vec<Signal<In, Bit>>,
    /// The entries and their writes.
    entries: FastEntries<E>,
    /// Per entry: the incoming request's register maps there.
    in_slot: Vec<Signal<Local, Bit>>,
    /// The victim as looked up this cycle: dirty, thread, register, value (per lane).
    look_dirty: Vec<Signal<Local, Bit>>,
    look_thread: Vec<Signal<Local, ThreadIndex>>,
    look_reg: Vec<Signal<Local, RegIndex>>,
    look_data: Vec<Signal<Local, Bits<E>>>,
    /// The victim registered: a served request's entry and its victim change only by the
    /// request's own fill, so the lookup of the cycle before is the victim from the cycle
    /// after the request is taken (the first in which an answer can arrive) to the fill.
    last_dirty: Registers<Bit>,
    last_thread: Registers<ThreadIndex>,
    last_reg: Registers<RegIndex>,
    last_data: Registers<Bits<E>>,
    /// Per entry: searched for the first dirty entry (registered with `pipeline` 4, else
    /// wires from the live entries).
    held: Registers<Bit>,
    /// Per entry and lane: the block's first dirty entry, found a cycle early (`found_slot`,
    /// a copy per lane), which selects the lane's write-back data.
    first: FirstDirty,
    /// Per entry: valid, dirty and of the named block.
    live: Vec<Signal<Local, Bit>>,
    /// Per entry: it holds a register of the incoming request's block, and of the served
    /// request's.
    in_req_block: Vec<Signal<Local, Bit>>,
    in_rq_block: Vec<Signal<Local, Bit>>,
    /// Per EU: some searched entry so far (the OR over the entries before, as the search
    /// goes through them).
    seen: Vec<Signal<Local, Bit>>,
    zero_e: Constant<Bits<E>>,
    zero2: Constant<ThreadIndex>,
    zero6: Constant<RegIndex>,
    /// The index function: per entry, the thread bits and register bits that map to it, and
    /// the masks that pick those bits.
    thread_mask: Constant<ThreadIndex>,
    reg_mask: Constant<RegIndex>,
    slot_thread: Vec<Constant<ThreadIndex>>,
    slot_reg: Vec<Constant<RegIndex>>,
    /// Block bits of a register: `reg & block_mask`.
    block_mask: Constant<RegIndex>,
    /// 1 when the search is among held entries (`pipeline` 4), else 0.
    _scan: usize,
    /// Whether stores land a cycle late (`pipeline` 4 and up): with it, a store is pending
    /// for a cycle.
    deferred: Constant<Bit>,
    _eus: usize,
    _fast: usize,
    _lanes: usize,
}

impl<const E: usize> FastGrfs<E> {
    /// The fast GRFs of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes, fast) = (params.eus, params.lanes, params.fast_regs);
        let index_bits = fast.trailing_zeros() as usize;
        let tb = params.thread_bits();
        let thread_index_bits = tb.min(index_bits);
        let reg_index_bits = index_bits.saturating_sub(tb);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_thread: signals(eus),
            req_reg: signals(eus),
            rq_thread: signals(eus),
            rq_reg: signals(eus),
            idle: signals(eus),
            in_slot: signals(eus * fast),
            hit: signals(eus),
            hit_slot: signals(eus * fast),
            hit_data: signals(eus * lanes),
            rq_slot: signals(eus * fast),
            victim_dirty: signals(eus),
            victim_thread: signals(eus),
            victim_reg: signals(eus),
            victim_data: signals(eus * lanes),
            found: signals(eus),
            found_slot: signals(eus * fast),
            found_reg: signals(eus),
            found_data: signals(eus * lanes),
            in_block: signals(eus * fast),
            set: FastStores::new(eus, fast, lanes),
            clean: signals(eus * fast),
            drop: signals(eus * fast),
            hold: signals(eus),
            flush: signals(eus),
            entries: FastEntries::new(params),
            hit_pending: signals(eus),
            pending_data: signals(eus * lanes),
            held: Registers::stage(eus * fast, params.pipeline >= 4),
            first: FirstDirty::new(params),
            look_dirty: signals(eus),
            look_thread: signals(eus),
            look_reg: signals(eus),
            look_data: signals(eus * lanes),
            last_dirty: Registers::new(eus),
            last_thread: Registers::new(eus),
            last_reg: Registers::new(eus),
            last_data: Registers::new(eus * lanes),
            live: signals(eus * fast),
            in_req_block: signals(eus * fast),
            in_rq_block: signals(eus * fast),
            seen: signals(eus),
            zero_e: constant(0),
            zero2: constant(0),
            zero6: constant(0),
            thread_mask: constant((1u64 << thread_index_bits) - 1),
            reg_mask: constant((1u64 << reg_index_bits) - 1),
            slot_thread: constants((0..fast as u64).map(|i| i & ((1 << thread_index_bits) - 1))),
            slot_reg: constants((0..fast as u64).map(|i| (i >> tb) & ((1 << reg_index_bits) - 1))),
            block_mask: constant(0x30),
            _scan: usize::from(params.pipeline >= 4),
            deferred: Constant::new(params.pipeline >= 4),
            _eus: eus,
            _fast: fast,
            _lanes: lanes,
        }
    }
}

/// Per EU: whether the incoming request hits, the entries of the looked-through block, and the
/// first dirty one.
enum Lookups {}

/// Per EU: the one-hot selections of the hit, the victim and the first dirty entry, and the
/// writes into the entries.
enum Selections {}

// Each part runs its own loop over the EUs; every signal is per EU, per entry or per lane, so
// the second loop reads only what the first wrote for the same EU. Single-value loops bind the
// lanes (nl) and entries (nf) for index arithmetic. The lookups and the writes share no local
// signal, so that a lookup never waits for a write decided on it.
impl<const E: usize> Logic for FastGrfs<E> {
    logic_in_parts!(Lookups, Selections);
}

impl<const E: usize> crate::parts::Part<Lookups> for FastGrfs<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.entries.clock.next = self.clock.val();
        self.entries.reset.next = self.reset.val();
        self.held.clock.next = self.clock.val();
        self.first.clock.next = self.clock.val();
        self.last_dirty.clock.next = self.clock.val();
        self.last_thread.clock.next = self.clock.val();
        self.last_reg.clock.next = self.clock.val();
        self.last_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    self.hit[e].next = false;
                    self.look_dirty[e].next = false;
                    self.look_thread[e].next = self.zero2.val();
                    self.look_reg[e].next = self.zero6.val();
                    self.found[e].next = false;
                    self.found_reg[e].next = self.zero6.val();
                    self.seen[e].next = false;
                    self.first.hold[e].next = self.hold[e].val();
                    self.first.flush[e].next = self.flush[e].val();
                    self.hit_pending[e].next = false;
                    for l in 0..self._lanes {
                        self.hit_data[e * nl + l].next = self.zero_e.val();
                        self.look_data[e * nl + l].next = self.zero_e.val();
                        self.found_data[e * nl + l].next = self.zero_e.val();
                    }
                    for i in 0..self._fast {
                        // Lookups.
                        self.in_slot[e * nf + i].next = ((self.req_thread[e].val()
                            & self.thread_mask.val())
                            == self.slot_thread[i].val())
                            & ((self.req_reg[e].val() & self.reg_mask.val())
                                == self.slot_reg[i].val());
                        self.hit_pending[e].next = self.hit_pending[e].val()
                            | (self.in_slot[e * nf + i].val()
                                & self.entries.pending_slot[e * nf + i].val()
                                & self.deferred.val());
                        self.rq_slot[e * nf + i].next = ((self.rq_thread[e].val()
                            & self.thread_mask.val())
                            == self.slot_thread[i].val())
                            & ((self.rq_reg[e].val() & self.reg_mask.val())
                                == self.slot_reg[i].val());
                        self.in_req_block[e * nf + i].next = (self.entries.thread[e * nf + i]
                            .val()
                            == self.req_thread[e].val())
                            & ((self.entries.reg_index[e * nf + i].val() & self.block_mask.val())
                                == (self.req_reg[e].val() & self.block_mask.val()));
                        self.in_rq_block[e * nf + i].next = (self.entries.thread[e * nf + i].val()
                            == self.rq_thread[e].val())
                            & ((self.entries.reg_index[e * nf + i].val() & self.block_mask.val())
                                == (self.rq_reg[e].val() & self.block_mask.val()));
                        self.in_block[e * nf + i].next = self.in_rq_block[e * nf + i].val();
                        if self.idle[e].val() {
                            self.in_block[e * nf + i].next = self.in_req_block[e * nf + i].val();
                        }
                        self.live[e * nf + i].next = self.in_block[e * nf + i].val()
                            & self.entries.valid[e * nf + i].val()
                            & self.entries.dirty[e * nf + i].val();
                        self.held.d[e * nf + i].next = self.live[e * nf + i].val();
                        // Held, the entries keep what `hold` took, less those cleaned;
                        // wired, they follow the live entries (`hold` changes nothing).
                        for _scan in 0..self._scan {
                            self.held.d[e * nf + i].next =
                                self.held.q[e * nf + i].val() & !self.clean[e * nf + i].val();
                        }
                        if self.hold[e].val() {
                            self.held.d[e * nf + i].next = self.live[e * nf + i].val();
                        }
                        self.first.live[e * nf + i].next = self.live[e * nf + i].val();
                        self.first.held[e * nf + i].next = self.held.q[e * nf + i].val();
                        // The first dirty entry of the block: searched entry that no
                        // searched entry before it precedes (an OR over a few entries, which
                        // maps shallower than a carry chain).
                        self.found_slot[e * nf + i].next =
                            self.held.q[e * nf + i].val() & !self.seen[e].val();
                        self.seen[e].next = self.seen[e].val() | self.held.q[e * nf + i].val();
                    }
                    self.found[e].next = self.seen[e].val();
                }
            }
        }
    }
}

impl<const E: usize> crate::parts::Part<Selections> for FastGrfs<E> {
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    for i in 0..self._fast {
                        self.hit_slot[e * nf + i].next = self.in_slot[e * nf + i].val()
                            & self.entries.valid[e * nf + i].val()
                            & (self.entries.thread[e * nf + i].val() == self.req_thread[e].val())
                            & (self.entries.reg_index[e * nf + i].val() == self.req_reg[e].val());
                        if self.hit_slot[e * nf + i].val() {
                            self.hit[e].next = true;
                        }
                        // The selections are one-hot: each is an OR of gated terms, so that
                        // none is a chain of multiplexers through the entries.
                        if self.rq_slot[e * nf + i].val() {
                            self.look_dirty[e].next = self.look_dirty[e].val()
                                | (self.entries.valid[e * nf + i].val()
                                    & self.entries.dirty[e * nf + i].val());
                            self.look_thread[e].next =
                                self.look_thread[e].val() | self.entries.thread[e * nf + i].val();
                            self.look_reg[e].next =
                                self.look_reg[e].val() | self.entries.reg_index[e * nf + i].val();
                        }
                        if self.found_slot[e * nf + i].val() {
                            self.found_reg[e].next =
                                self.found_reg[e].val() | self.entries.reg_index[e * nf + i].val();
                        }
                        for l in 0..self._lanes {
                            if self.in_slot[e * nf + i].val() {
                                self.hit_data[e * nl + l].next = self.hit_data[e * nl + l].val()
                                    | self.entries.data[(e * nf + i) * nl + l].val();
                            }
                            if self.rq_slot[e * nf + i].val() {
                                self.look_data[e * nl + l].next = self.look_data[e * nl + l].val()
                                    | self.entries.data[(e * nf + i) * nl + l].val();
                            }
                            if self.first.first[(e * nf + i) * nl + l].val() {
                                self.found_data[e * nl + l].next = self.found_data[e * nl + l]
                                    .val()
                                    | self.entries.data[(e * nf + i) * nl + l].val();
                            }
                        }
                        // Writes.
                        self.entries.set.slot[e * nf + i].next = self.set.slot[e * nf + i].val();
                        self.entries.clean[e * nf + i].next = self.clean[e * nf + i].val();
                        self.entries.drop[e * nf + i].next = self.drop[e * nf + i].val();
                    }
                    self.entries.set.dirty[e].next = self.set.dirty[e].val();
                    self.entries.set.thread[e].next = self.set.thread[e].val();
                    self.entries.set.reg[e].next = self.set.reg[e].val();
                    self.last_dirty.d[e].next = self.look_dirty[e].val();
                    self.last_thread.d[e].next = self.look_thread[e].val();
                    self.last_reg.d[e].next = self.look_reg[e].val();
                    self.victim_dirty[e].next = self.last_dirty.q[e].val();
                    self.victim_thread[e].next = self.last_thread.q[e].val();
                    self.victim_reg[e].next = self.last_reg.q[e].val();
                    for l in 0..self._lanes {
                        self.entries.set.data[e * nl + l].next = self.set.data[e * nl + l].val();
                        self.pending_data[e * nl + l].next =
                            self.entries.pending_data[e * nl + l].val();
                        self.last_data.d[e * nl + l].next = self.look_data[e * nl + l].val();
                        self.victim_data[e * nl + l].next = self.last_data.q[e * nl + l].val();
                    }
                }
            }
        }
    }
}
