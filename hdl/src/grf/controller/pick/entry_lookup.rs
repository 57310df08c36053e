//! A transaction's translation-table entry: which slot it is, whether it is mapped, the block it
//! maps and the group that entry belongs to.

use rust_hdl::prelude::*;

use crate::grf::widths::{GlobalThread, GroupNumber, VirtualBlock};
use crate::params::GrfParams;
use crate::signals::{constant, constants, signals};

/// Finds the entry of (thread, virtual block) in the translation table (combinational). Only
/// the transaction's own EU changes its threads' entries, and an EU has one transaction
/// outstanding, so the entry found for a transaction stays right until it is taken: with
/// `--pipeline 2` the pick stage looks it up as it loads and holds the result.
///
/// Each EU's slots are decoded from that EU's own thread and virtual block, and each EU's
/// entry is found among its own threads' slots; only then does the EU picked (`eu_hot`)
/// choose among the EUs' entries: the decode and the search of every EU run beside the
/// arbitration instead of after it.
#[derive(LogicBlock)]
pub struct EntryLookup<const A: usize> {
    /// Per EU: its transaction is the one looked up (one-hot or none).
    pub eu_hot: Vec<Signal<In, Bit>>,
    /// Per EU: the global thread of its transaction.
    pub thread: Vec<Signal<In, GlobalThread>>,
    /// Per EU: the virtual block of its transaction.
    pub vblock: Vec<Signal<In, VirtualBlock>>,
    /// Every table entry: mapped.
    pub entry_valid: Vec<Signal<In, Bit>>,
    /// Every table entry: the first row of its physical block.
    pub entry_base: Vec<Signal<In, Bits<A>>>,
    /// Every table entry: shared through a group.
    pub entry_shared: Vec<Signal<In, Bit>>,
    /// Every table entry: its group (1..=7; 0 for a private entry).
    pub entry_group: Vec<Signal<In, GroupNumber>>,
    /// The first row of the block the refill engine refills.
    pub refill_base: Signal<In, Bits<A>>,
    /// One-hot: the transaction's slot (`thread * virtual_blocks + vblock`).
    pub slot: Vec<Signal<Out, Bit>>,
    /// The entry is mapped.
    pub valid: Signal<Out, Bit>,
    /// The first row of the block it maps (zero when unmapped).
    pub base: Signal<Out, Bits<A>>,
    /// The entry is shared.
    pub shared: Signal<Out, Bit>,
    /// The entry's group.
    pub group: Signal<Out, GroupNumber>,
    /// The entry's block is the one refilled (compared per EU before the pick).
    pub refilled: Signal<Out, Bit>,
    /// Per slot: it is its EU's transaction's (whether or not the EU is picked).
    own_slot: Vec<Signal<Local, Bit>>,
    /// Per EU: its transaction's entry (mapped, base, shared, group).
    own_valid: Vec<Signal<Local, Bit>>,
    own_base: Vec<Signal<Local, Bits<A>>>,
    own_shared: Vec<Signal<Local, Bit>>,
    own_group: Vec<Signal<Local, GroupNumber>>,
    own_refilled: Vec<Signal<Local, Bit>>,
    thread_number: Vec<Constant<GlobalThread>>,
    vb_number: Vec<Constant<VirtualBlock>>,
    zero3: Constant<GroupNumber>,
    zero_a: Constant<Bits<A>>,
    _eus: usize,
    /// Threads per EU.
    _threads: usize,
    _vblocks: usize,
}

impl<const A: usize> EntryLookup<A> {
    /// The lookup over the table of `params`.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, threads, vb) = (params.eus, params.threads, params.virtual_blocks);
        let slots = params.all_threads() * vb;
        Self {
            eu_hot: signals(eus),
            thread: signals(eus),
            vblock: signals(eus),
            entry_valid: signals(slots),
            entry_base: signals(slots),
            entry_shared: signals(slots),
            entry_group: signals(slots),
            refill_base: Default::default(),
            slot: signals(slots),
            valid: Default::default(),
            base: Default::default(),
            shared: Default::default(),
            group: Default::default(),
            refilled: Default::default(),
            own_slot: signals(slots),
            own_valid: signals(eus),
            own_base: signals(eus),
            own_shared: signals(eus),
            own_group: signals(eus),
            own_refilled: signals(eus),
            thread_number: constants(0..params.all_threads() as u64),
            vb_number: constants(0..vb as u64),
            zero3: constant(0),
            zero_a: constant(0),
            _eus: eus,
            _threads: threads,
            _vblocks: vb,
        }
    }
}

impl<const A: usize> Logic for EntryLookup<A> {
    // Single-value loops bind the threads per EU (nt) and virtual blocks (nv) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        // The entry: one-hot selections as ORs of gated terms, so that none is a chain through
        // the slots; each EU's among its own slots first, then the picked EU's.
        self.valid.next = false;
        self.base.next = self.zero_a.val();
        self.shared.next = false;
        self.group.next = self.zero3.val();
        self.refilled.next = false;
        for nt in self._threads..(self._threads + 1) {
            for nv in self._vblocks..(self._vblocks + 1) {
                for e in 0..self._eus {
                    self.own_valid[e].next = false;
                    self.own_base[e].next = self.zero_a.val();
                    self.own_shared[e].next = false;
                    self.own_group[e].next = self.zero3.val();
                    for t in 0..self._threads {
                        for v in 0..self._vblocks {
                            self.own_slot[(e * nt + t) * nv + v].next = (self.thread[e].val()
                                == self.thread_number[e * nt + t].val())
                                & (self.vblock[e].val() == self.vb_number[v].val());
                            self.slot[(e * nt + t) * nv + v].next =
                                self.eu_hot[e].val() & self.own_slot[(e * nt + t) * nv + v].val();
                            if self.own_slot[(e * nt + t) * nv + v].val() {
                                self.own_valid[e].next = self.own_valid[e].val()
                                    | self.entry_valid[(e * nt + t) * nv + v].val();
                                self.own_shared[e].next = self.own_shared[e].val()
                                    | self.entry_shared[(e * nt + t) * nv + v].val();
                                self.own_base[e].next = self.own_base[e].val()
                                    | self.entry_base[(e * nt + t) * nv + v].val();
                                self.own_group[e].next = self.own_group[e].val()
                                    | self.entry_group[(e * nt + t) * nv + v].val();
                            }
                        }
                    }
                    self.own_refilled[e].next = self.own_base[e].val() == self.refill_base.val();
                    if self.eu_hot[e].val() {
                        self.valid.next = self.valid.val() | self.own_valid[e].val();
                        self.shared.next = self.shared.val() | self.own_shared[e].val();
                        self.base.next = self.base.val() | self.own_base[e].val();
                        self.group.next = self.group.val() | self.own_group[e].val();
                        self.refilled.next = self.refilled.val() | self.own_refilled[e].val();
                    }
                }
            }
        }
    }
}
