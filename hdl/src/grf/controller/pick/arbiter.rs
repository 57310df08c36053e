//! The controller's round-robin arbiter: which EU's transaction the controller takes.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::checkers::AtMost;
use crate::grf::widths::{EuNumber, GlobalThread, GroupNumber, KindCode, RegIndex};
use crate::params::GrfParams;
use crate::signals::{constant, constants, signals};

/// Round-robin arbiter over the EUs' transactions (`docs/grf.md`): when `allow` is high, the
/// first EU with a transaction after the one served last is taken, and its transaction is
/// presented on `kind` .. `data` in the same cycle; with no EU waiting, `eu` and the fields are
/// zero. `E` is the element width.
///
/// The order is held as a precedence matrix: a register bit per pair of EUs says whether the
/// first comes before the second (after the EU served last, then by number). An EU wins when
/// it waits and no EU before it waits: two LUT levels from the waiting bits. The winner's
/// fields are an OR of per-EU terms gated by the one-hot grant, so no part of the pick is a
/// chain through the EUs.
#[derive(LogicBlock)]
pub struct RoundRobinArbiter<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: EU 0 comes first after it.
    pub reset: Signal<In, Bit>,
    /// The controller can take a transaction this cycle.
    pub allow: Signal<In, Bit>,
    /// Per EU: a transaction is waiting.
    pub tx_valid: Vec<Signal<In, Bit>>,
    /// Per EU: its kind (`codes::kind`).
    pub tx_kind: Vec<Signal<In, KindCode>>,
    /// Per EU: its global thread.
    pub tx_thread: Vec<Signal<In, GlobalThread>>,
    /// Per EU: its register (or 16 x virtual block).
    pub tx_reg: Vec<Signal<In, RegIndex>>,
    /// Per EU: its group.
    pub tx_group: Vec<Signal<In, GroupNumber>>,
    /// Per EU and lane: its data (`eu * lanes + l`).
    pub tx_data: Vec<Signal<In, Bits<E>>>,
    /// A transaction is taken this cycle.
    pub take: Signal<Out, Bit>,
    /// Per EU: its transaction is taken this cycle.
    pub taken: Vec<Signal<Out, Bit>>,
    /// Per EU: its transaction is the one presented, taken or not (one-hot; all low when no
    /// EU waits).
    pub first: Vec<Signal<Out, Bit>>,
    /// The EU whose transaction is presented (the one taken, when `take`).
    pub eu: Signal<Out, EuNumber>,
    /// The presented transaction's kind.
    pub kind: Signal<Out, KindCode>,
    /// Its global thread.
    pub thread: Signal<Out, GlobalThread>,
    /// Its register.
    pub reg_index: Signal<Out, RegIndex>,
    /// Its group.
    pub group: Signal<Out, GroupNumber>,
    /// Its data, one element per lane.
    pub data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU: it comes after the EU served last (all low after reset: EU 0 comes first).
    after_last: Registers<Bit>,
    /// Per pair of EUs (`a * eus + b`): a comes before b in the order (from `after_last`).
    precedes: Registers<Bit>,
    /// Per pair of EUs (`a * eus + b`): a < b, the order among EUs on the same side.
    lower_number: Vec<Constant<Bit>>,
    /// Simulation-only: the pick is one-hot ([`pick_checks`]).
    pick_check: AtMost,
    /// Per EU: some EU before it waits.
    blocked: Vec<Signal<Local, Bit>>,
    /// Some EU waits.
    picked: Signal<Local, Bit>,
    /// Per EU: its number if picked, else zero.
    pick_eu: Vec<Signal<Local, EuNumber>>,
    /// Per EU: its kind if picked, else zero.
    pick_kind: Vec<Signal<Local, KindCode>>,
    /// Per EU: its thread if picked, else zero.
    pick_thread: Vec<Signal<Local, GlobalThread>>,
    /// Per EU: its register if picked, else zero.
    pick_reg: Vec<Signal<Local, RegIndex>>,
    /// Per EU: its group if picked, else zero.
    pick_group: Vec<Signal<Local, GroupNumber>>,
    /// Per EU and lane: its data if picked, else zero.
    pick_data: Vec<Signal<Local, Bits<E>>>,
    /// Zero of a kind, and of a group (the same width).
    zero3: Constant<KindCode>,
    zero4: Constant<EuNumber>,
    zero5: Constant<GlobalThread>,
    zero6: Constant<RegIndex>,
    zero_e: Constant<Bits<E>>,
    /// EU numbers.
    eu_number: Vec<Constant<EuNumber>>,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize> RoundRobinArbiter<E> {
    /// The arbiter for `params`' EUs and lanes.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            allow: Default::default(),
            tx_valid: signals(eus),
            tx_kind: signals(eus),
            tx_thread: signals(eus),
            tx_reg: signals(eus),
            tx_group: signals(eus),
            tx_data: signals(eus * lanes),
            take: Default::default(),
            taken: signals(eus),
            eu: Default::default(),
            kind: Default::default(),
            thread: Default::default(),
            reg_index: Default::default(),
            group: Default::default(),
            data: signals(lanes),
            after_last: Registers::new(eus),
            precedes: Registers::new(eus * eus),
            lower_number: (0..eus * eus)
                .map(|k| Constant::new(k / eus < k % eus))
                .collect(),
            pick_check: pick_checks(eus),
            blocked: signals(eus),
            first: signals(eus),
            picked: Default::default(),
            pick_eu: signals(eus),
            pick_kind: signals(eus),
            pick_thread: signals(eus),
            pick_reg: signals(eus),
            pick_group: signals(eus),
            pick_data: signals(eus * lanes),
            zero3: constant(0),
            zero4: constant(0),
            zero5: constant(0),
            zero6: constant(0),
            zero_e: constant(0),
            eu_number: constants(0..eus as u64),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for RoundRobinArbiter<E> {
    // A single-value loop binds lanes (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.after_last.clock.next = self.clock.val();
        self.pick_check.clock.next = self.clock.val();
        self.precedes.clock.next = self.clock.val();
        // An EU wins when it waits and no waiting EU comes before it.
        self.picked.next = false;
        for ne in self._eus..(self._eus + 1) {
            for e in 0..self._eus {
                self.picked.next = self.picked.val() | self.tx_valid[e].val();
                self.blocked[e].next = false;
                for a in 0..self._eus {
                    self.blocked[e].next = self.blocked[e].val()
                        | (self.tx_valid[a].val() & self.precedes.q[a * ne + e].val());
                }
                self.first[e].next = self.tx_valid[e].val() & !self.blocked[e].val();
            }
        }
        self.take.next = self.allow.val() & self.picked.val() & !self.reset.val();
        // The picked EU's fields: an OR of one-hot gated terms.
        self.eu.next = self.zero4.val();
        self.kind.next = self.zero3.val();
        self.thread.next = self.zero5.val();
        self.reg_index.next = self.zero6.val();
        self.group.next = self.zero3.val();
        for l in 0..self._lanes {
            self.data[l].next = self.zero_e.val();
        }
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                // (The order registers are not yet set in the first reset cycle.)
                self.pick_check.bits[e].next = self.first[e].val() & !self.reset.val();
                self.taken[e].next = self.take.val() & self.first[e].val();
                self.pick_eu[e].next = self.zero4.val();
                self.pick_kind[e].next = self.zero3.val();
                self.pick_thread[e].next = self.zero5.val();
                self.pick_reg[e].next = self.zero6.val();
                self.pick_group[e].next = self.zero3.val();
                for l in 0..self._lanes {
                    self.pick_data[e * nl + l].next = self.zero_e.val();
                }
                if self.first[e].val() {
                    self.pick_eu[e].next = self.eu_number[e].val();
                    self.pick_kind[e].next = self.tx_kind[e].val();
                    self.pick_thread[e].next = self.tx_thread[e].val();
                    self.pick_reg[e].next = self.tx_reg[e].val();
                    self.pick_group[e].next = self.tx_group[e].val();
                    for l in 0..self._lanes {
                        self.pick_data[e * nl + l].next = self.tx_data[e * nl + l].val();
                    }
                }
                self.eu.next = self.eu.val() | self.pick_eu[e].val();
                self.kind.next = self.kind.val() | self.pick_kind[e].val();
                self.thread.next = self.thread.val() | self.pick_thread[e].val();
                self.reg_index.next = self.reg_index.val() | self.pick_reg[e].val();
                self.group.next = self.group.val() | self.pick_group[e].val();
                for l in 0..self._lanes {
                    self.data[l].next = self.data[l].val() | self.pick_data[e * nl + l].val();
                }
            }
        }
        // The EUs after the one taken come first next time; reset puts EU 0 first.
        for ne in self._eus..(self._eus + 1) {
            for e in 0..self._eus {
                self.after_last.d[e].next = self.after_last.q[e].val();
                if self.take.val() {
                    self.after_last.d[e].next = false;
                    for a in 0..self._eus {
                        self.after_last.d[e].next = self.after_last.d[e].val()
                            | (self.first[a].val() & self.lower_number[a * ne + e].val());
                    }
                }
                if self.reset.val() {
                    self.after_last.d[e].next = false;
                }
            }
            // The order they give: those after the one taken first, each side by number.
            for a in 0..self._eus {
                for b in 0..self._eus {
                    self.precedes.d[a * ne + b].next = (self.after_last.d[a].val()
                        & !self.after_last.d[b].val())
                        | (!(self.after_last.d[a].val() ^ self.after_last.d[b].val())
                            & self.lower_number[a * ne + b].val());
                }
            }
        }
    }
}

/// The arbiter's pick over `eus` EUs (`first`, one bit per EU): one-hot or none,
/// `grf: round-robin arbiter picks <n> EUs`.
pub(crate) fn pick_checks(eus: usize) -> AtMost {
    AtMost::one_hot(
        eus,
        [(
            (0..eus).collect(),
            "grf: round-robin arbiter picks %0d EUs".to_string(),
        )],
    )
}
