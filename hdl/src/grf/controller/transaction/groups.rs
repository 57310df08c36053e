//! The shared groups: each group's block, reference count, barrier counts and waiting EUs.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::{EuMask, EuNumber, GroupBalance, GroupCount, GroupNumber, COUNT_BITS};
use crate::params::GrfParams;
use crate::parts::logic_in_parts;
use crate::signals::{constant, constants, signals};

/// Groups 1..=7 and their barriers (`docs/grf.md`). The operation asked for in a cycle (at most
/// one: the transaction taken does one thing) acts on group `select` and is stored on the clock
/// edge:
/// - `access`: a shared access counts towards the barrier (the count saturates at 255);
/// - `join`: an allocation into the bound group takes a reference;
/// - `bind`: an allocation binds the group to `bind_base` with one reference;
/// - `leave`: a release drops a reference; the last one kills the group, and its waiters are
///   turned away;
/// - `wait`: EU `wait_eu` waits at the barrier.
///
/// After an access, a leave that keeps the group, or a wait, the barrier opens when the
/// accesses reach the reference count: every waiter is let through, and once as many EUs have
/// passed as there are references, the counts start again.
///
/// Every group decides from its own registers, in parallel, so that no decision waits for a
/// selection among the groups. The comparisons are kept as differences, updated by one with each
/// operation: `short` = references - accesses (the barrier is open at zero or below) and `left`
/// = references - passed - waiting (the counts start again when the waiters let through leave
/// it at zero or below); each decision tests a difference against 0 or 1. The access count
/// itself is kept only to saturate it. `A` is the row-address width.
#[derive(LogicBlock)]
pub struct GroupUnit<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every group unbound.
    pub reset: Signal<In, Bit>,
    /// The group acted on (1..=7; 0 selects none).
    pub select: Signal<In, GroupNumber>,
    /// Per group (1..=7 at index g - 1): bound to a block. As the registers hold it, or, with
    /// the bookkeeping a cycle later (`pipeline` 3), as this cycle's operation leaves it (the
    /// operation comes from registers then, so this depends on registers only).
    pub bound: Vec<Signal<Out, Bit>>,
    /// Per group: its block's first row (as `bound`).
    pub base: Vec<Signal<Out, Bits<A>>>,
    /// Per group: it holds one reference, so that a leave kills it (as `bound`).
    pub one: Vec<Signal<Out, Bit>>,
    /// A shared access of the group's block.
    pub access: Signal<In, Bit>,
    /// An allocation joins the bound group.
    pub join_group: Signal<In, Bit>,
    /// An allocation binds the group to `bind_base`.
    pub bind_group: Signal<In, Bit>,
    /// The block bound by `bind`.
    pub bind_base: Signal<In, Bits<A>>,
    /// A release of the group's block.
    pub leave: Signal<In, Bit>,
    /// EU `wait_eu` waits at the group's barrier.
    pub wait_group: Signal<In, Bit>,
    /// The waiting EU.
    pub wait_eu: Signal<In, EuNumber>,
    /// Per EU: it leaves the barrier this cycle (answer ok).
    pub open: Vec<Signal<Out, Bit>>,
    /// Per EU: its group died under it (answer `no such group`).
    pub turned_away: Vec<Signal<Out, Bit>>,
    g_bound: Registers<Bit>,
    g_base: Registers<Bits<A>>,
    g_refs: Registers<GroupBalance>,
    /// Per group: its reference count is one (kept beside the count, so that a release's
    /// decision does not wait for a comparison).
    g_one: Registers<Bit>,
    g_count: Registers<GroupCount>,
    /// References - accesses.
    g_short: Registers<GroupBalance>,
    /// References - passed - waiting.
    g_left: Registers<GroupBalance>,
    g_waiting: Registers<EuMask>,
    /// Per group: the operation acts on it.
    mine: Vec<Signal<Local, Bit>>,
    /// Per group: its access, leave and wait (the operation, if it acts on the group).
    acc: Vec<Signal<Local, Bit>>,
    lv: Vec<Signal<Local, Bit>>,
    wt: Vec<Signal<Local, Bit>>,
    /// Per group: one reference left; the differences at or below 0 and 1.
    one_ref: Vec<Signal<Local, Bit>>,
    short_le0: Vec<Signal<Local, Bit>>,
    short_le1: Vec<Signal<Local, Bit>>,
    left_le0: Vec<Signal<Local, Bit>>,
    left_le1: Vec<Signal<Local, Bit>>,
    /// Per group: it dies, its barrier opens, its counts start again.
    dying: Vec<Signal<Local, Bit>>,
    opens: Vec<Signal<Local, Bit>>,
    rearm: Vec<Signal<Local, Bit>>,
    /// Per group: its waiting EUs with this cycle's waiter.
    waiters: Vec<Signal<Local, EuMask>>,
    /// The waiting EU's bit.
    wait_bit: Signal<Local, EuMask>,
    /// Zero of a count, and of an EU mask (the same width).
    zero8: Constant<GroupCount>,
    one8: Constant<GroupCount>,
    max8: Constant<GroupCount>,
    zero9: Constant<GroupBalance>,
    one9: Constant<GroupBalance>,
    two9: Constant<GroupBalance>,
    zero_a: Constant<Bits<A>>,
    group_number: Vec<Constant<GroupNumber>>,
    eu_number: Vec<Constant<EuNumber>>,
    eu_bit: Vec<Constant<EuMask>>,
    _eus: usize,
    /// 1 when the bookkeeping is applied a cycle later (`pipeline` 3 and up), else 0.
    _later: usize,
}

impl<const A: usize> GroupUnit<A> {
    /// The groups for `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let eus = params.eus;
        let groups = GrfParams::GROUPS;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            select: Default::default(),
            bound: signals(groups),
            base: signals(groups),
            one: signals(groups),
            access: Default::default(),
            join_group: Default::default(),
            bind_group: Default::default(),
            bind_base: Default::default(),
            leave: Default::default(),
            wait_group: Default::default(),
            wait_eu: Default::default(),
            open: signals(eus),
            turned_away: signals(eus),
            g_bound: Registers::new(groups),
            g_base: Registers::new(groups),
            g_refs: Registers::new(groups),
            g_one: Registers::new(groups),
            g_count: Registers::new(groups),
            g_short: Registers::new(groups),
            g_left: Registers::new(groups),
            g_waiting: Registers::new(groups),
            mine: signals(groups),
            acc: signals(groups),
            lv: signals(groups),
            wt: signals(groups),
            one_ref: signals(groups),
            short_le0: signals(groups),
            short_le1: signals(groups),
            left_le0: signals(groups),
            left_le1: signals(groups),
            dying: signals(groups),
            opens: signals(groups),
            rearm: signals(groups),
            waiters: signals(groups),
            wait_bit: Default::default(),
            zero8: constant(0),
            one8: constant(1),
            max8: constant(255),
            zero9: constant(0),
            one9: constant(1),
            two9: constant(2),
            zero_a: constant(0),
            group_number: constants(1..=groups as u64),
            eu_number: constants(0..eus as u64),
            eu_bit: constants((0..eus).map(|e| 1u64 << e)),
            _eus: eus,
            _later: usize::from(params.pipeline >= 3),
        }
    }
}

/// Per group: what the operation does to it, decided from its own registers, and the waiters
/// it lets through or turns away.
enum Effects {}

/// Per group: its registers after the operation, and the bindings the decisions read.
enum Updates {}

// Each part runs its own loop over the groups; the second reads only the first's per-group
// signals, so it sees what the first decided for the same group.
impl<const A: usize> Logic for GroupUnit<A> {
    logic_in_parts!(Effects, Updates);
}

impl<const A: usize> crate::parts::Part<Effects> for GroupUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.g_bound.clock.next = self.clock.val();
        self.g_base.clock.next = self.clock.val();
        self.g_refs.clock.next = self.clock.val();
        self.g_one.clock.next = self.clock.val();
        self.g_count.clock.next = self.clock.val();
        self.g_short.clock.next = self.clock.val();
        self.g_left.clock.next = self.clock.val();
        self.g_waiting.clock.next = self.clock.val();
        self.wait_bit.next = self.zero8.val();
        for e in 0..self._eus {
            if self.wait_eu.val() == self.eu_number[e].val() {
                self.wait_bit.next = self.eu_bit[e].val();
            }
            self.open[e].next = false;
            self.turned_away[e].next = false;
        }
        for g in 0..GrfParams::GROUPS {
            // What the operation does to this group, decided from its own registers.
            self.mine[g].next = self.select.val() == self.group_number[g].val();
            self.acc[g].next = self.access.val() & self.mine[g].val();
            self.lv[g].next = self.leave.val() & self.mine[g].val();
            self.wt[g].next = self.wait_group.val() & self.mine[g].val();
            self.one_ref[g].next = self.g_one.q[g].val();
            // Bit 8 (`COUNT_BITS`) is a difference's sign: a literal, since `#[hdl_gen]` would
            // write a named constant into the Verilog as a signal's name.
            self.short_le0[g].next =
                self.g_short.q[g].val().get_bit(8) | !self.g_short.q[g].val().any();
            self.short_le1[g].next = self.g_short.q[g].val().get_bit(8)
                | !self.g_short.q[g].val().get_bits::<COUNT_BITS>(1).any();
            self.left_le0[g].next =
                self.g_left.q[g].val().get_bit(8) | !self.g_left.q[g].val().any();
            self.left_le1[g].next = self.g_left.q[g].val().get_bit(8)
                | !self.g_left.q[g].val().get_bits::<COUNT_BITS>(1).any();
            self.dying[g].next = self.lv[g].val() & self.one_ref[g].val();
            // An access or a leave brings the accesses one closer to the references; a wait
            // does not.
            self.opens[g].next = self.g_bound.q[g].val()
                & ((self.acc[g].val() & self.short_le1[g].val())
                    | (self.lv[g].val() & !self.one_ref[g].val() & self.short_le1[g].val())
                    | (self.wt[g].val() & self.short_le0[g].val()));
            // A leave and a wait bring the passed and waiting one closer to the references.
            self.rearm[g].next = self.opens[g].val()
                & ((self.acc[g].val() & self.left_le0[g].val())
                    | ((self.lv[g].val() | self.wt[g].val()) & self.left_le1[g].val()));
            self.waiters[g].next = self.g_waiting.q[g].val();
            if self.wt[g].val() {
                self.waiters[g].next = self.g_waiting.q[g].val() | self.wait_bit.val();
            }
            // The answers: the waiters let through, or turned away.
            for e in 0..self._eus {
                self.open[e].next = self.open[e].val()
                    | (self.opens[g].val() & (self.waiters[g].val() & self.eu_bit[e].val()).any());
                self.turned_away[e].next = self.turned_away[e].val()
                    | (self.dying[g].val()
                        & (self.g_waiting.q[g].val() & self.eu_bit[e].val()).any());
            }
        }
    }
}

impl<const A: usize> crate::parts::Part<Updates> for GroupUnit<A> {
    #[hdl_gen]
    fn update(&mut self) {
        for g in 0..GrfParams::GROUPS {
            // The registers.
            self.bound[g].next = self.g_bound.q[g].val();
            self.base[g].next = self.g_base.q[g].val();
            self.one[g].next = self.g_one.q[g].val();
            self.g_bound.d[g].next = self.g_bound.q[g].val();
            self.g_base.d[g].next = self.g_base.q[g].val();
            self.g_refs.d[g].next = self.g_refs.q[g].val();
            self.g_count.d[g].next = self.g_count.q[g].val();
            self.g_short.d[g].next = self.g_short.q[g].val();
            self.g_left.d[g].next = self.g_left.q[g].val();
            self.g_waiting.d[g].next = self.waiters[g].val();
            if self.acc[g].val() & (self.g_count.q[g].val() != self.max8.val()) {
                self.g_count.d[g].next = self.g_count.q[g].val() + self.one8.val();
                self.g_short.d[g].next = self.g_short.q[g].val() - self.one9.val();
            }
            if self.join_group.val() & self.mine[g].val() {
                self.g_refs.d[g].next = self.g_refs.q[g].val() + self.one9.val();
                self.g_short.d[g].next = self.g_short.q[g].val() + self.one9.val();
                self.g_left.d[g].next = self.g_left.q[g].val() + self.one9.val();
            }
            if self.lv[g].val() {
                self.g_refs.d[g].next = self.g_refs.q[g].val() - self.one9.val();
                self.g_short.d[g].next = self.g_short.q[g].val() - self.one9.val();
                self.g_left.d[g].next = self.g_left.q[g].val() - self.one9.val();
            }
            if self.wt[g].val() {
                self.g_left.d[g].next = self.g_left.q[g].val() - self.one9.val();
            }
            if self.opens[g].val() {
                self.g_waiting.d[g].next = self.zero8.val();
            }
            if self.rearm[g].val() {
                self.g_count.d[g].next = self.zero8.val();
                self.g_short.d[g].next = self.g_refs.q[g].val();
                self.g_left.d[g].next = self.g_refs.q[g].val();
                if self.lv[g].val() {
                    self.g_short.d[g].next = self.g_refs.q[g].val() - self.one9.val();
                    self.g_left.d[g].next = self.g_refs.q[g].val() - self.one9.val();
                }
            }
            if self.bind_group.val() & self.mine[g].val() {
                self.g_bound.d[g].next = true;
                self.g_base.d[g].next = self.bind_base.val();
                self.g_refs.d[g].next = self.one9.val();
                self.g_count.d[g].next = self.zero8.val();
                self.g_short.d[g].next = self.one9.val();
                self.g_left.d[g].next = self.one9.val();
            }
            if self.dying[g].val() {
                self.g_bound.d[g].next = false;
                self.g_base.d[g].next = self.zero_a.val();
            }
            // The decisions read the bindings as this cycle leaves them, but not as reset
            // does: no transaction is taken during reset.
            for _later in 0..self._later {
                self.bound[g].next = self.g_bound.d[g].val();
                self.base[g].next = self.g_base.d[g].val();
            }
            if self.dying[g].val() | self.reset.val() {
                self.g_bound.d[g].next = false;
                self.g_base.d[g].next = self.zero_a.val();
                self.g_refs.d[g].next = self.zero9.val();
                self.g_count.d[g].next = self.zero8.val();
                self.g_short.d[g].next = self.zero9.val();
                self.g_left.d[g].next = self.zero9.val();
                self.g_waiting.d[g].next = self.zero8.val();
            }
            // One reference after the operation: a bind sets it, a join from none, a leave
            // from two; nothing else changes the count. Decided from the registers, not from
            // the new count.
            self.g_one.d[g].next = self.g_one.q[g].val();
            if self.join_group.val() & self.mine[g].val() {
                self.g_one.d[g].next = self.g_refs.q[g].val() == self.zero9.val();
            }
            if self.lv[g].val() {
                self.g_one.d[g].next = self.g_refs.q[g].val() == self.two9.val();
            }
            if self.bind_group.val() & self.mine[g].val() {
                self.g_one.d[g].next = true;
            }
            if self.dying[g].val() | self.reset.val() {
                self.g_one.d[g].next = false;
            }
            for _later in 0..self._later {
                self.one[g].next = self.g_one.d[g].val();
            }
        }
    }
}
