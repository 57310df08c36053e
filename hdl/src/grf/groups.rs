//! The shared groups: each group's block, reference count, barrier counts and waiting EUs.

use rust_hdl::prelude::*;

use crate::params::GrfParams;
use crate::regs::Registers;
use crate::{constant, constants, signals};

/// Groups 1..=7 and their barriers (`docs/grf.md`). One group, `select`, is read
/// combinationally; the operations asked for in a cycle act on it, in the order access, join,
/// bind, leave, wait, and with `apply` the result is stored on the clock edge:
/// - `access`: a shared access counts towards the barrier (the count saturates at 255);
/// - `join`: an allocation into the bound group takes a reference;
/// - `bind`: an allocation binds the group to `bind_base` with one reference;
/// - `leave`: a release drops a reference; the last one kills the group, and its waiters are
///   turned away;
/// - `wait`: EU `wait_eu` waits at the barrier.
///
/// After an access, a leave that keeps the group, or a wait, the barrier opens when the
/// accesses reach the reference count: every waiter is let through, and once as many EUs have
/// passed as there are references, the counts start again. `A` is the row-address width.
#[derive(LogicBlock)]
pub struct GroupUnit<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every group unbound.
    pub reset: Signal<In, Bit>,
    /// The group acted on (1..=7; 0 selects none).
    pub select: Signal<In, Bits<3>>,
    /// Its bound bit.
    pub cur_bound: Signal<In, Bit>,
    /// Its block's first row.
    pub cur_base: Signal<In, Bits<A>>,
    /// Its reference count.
    pub cur_refs: Signal<In, Bits<8>>,
    /// Its accesses since the barrier last opened.
    pub cur_count: Signal<In, Bits<8>>,
    /// The EUs that passed its barrier since it last re-armed.
    pub cur_passed: Signal<In, Bits<8>>,
    /// Its waiting EUs, bit e = EU e.
    pub cur_waiting: Signal<In, Bits<8>>,
    /// Per group (1..=7 at index g - 1): bound to a block.
    pub bound: Vec<Signal<Out, Bit>>,
    /// Per group: its block's first row.
    pub base: Vec<Signal<Out, Bits<A>>>,
    /// Per group: its reference count.
    pub refs: Vec<Signal<Out, Bits<8>>>,
    /// Per group: its accesses since the barrier last opened.
    pub count: Vec<Signal<Out, Bits<8>>>,
    /// Per group: the EUs that passed its barrier since it last re-armed.
    pub passed: Vec<Signal<Out, Bits<8>>>,
    /// Per group: its waiting EUs.
    pub waiting: Vec<Signal<Out, Bits<8>>>,
    /// Store the result of this cycle's operations.
    pub apply: Signal<In, Bit>,
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
    pub wait_eu: Signal<In, Bits<4>>,
    /// The group dies this cycle (its last reference left).
    pub dies: Signal<Out, Bit>,
    /// Per EU: it leaves the barrier this cycle (answer ok).
    pub open: Vec<Signal<Out, Bit>>,
    /// Per EU: its group died under it (answer `no such group`).
    pub turned_away: Vec<Signal<Out, Bit>>,
    g_bound: Registers<Bit>,
    g_base: Registers<Bits<A>>,
    g_refs: Registers<Bits<8>>,
    g_count: Registers<Bits<8>>,
    g_passed: Registers<Bits<8>>,
    g_waiting: Registers<Bits<8>>,
    /// The selected group's values, updated operation by operation.
    n_bound: Signal<Local, Bit>,
    n_base: Signal<Local, Bits<A>>,
    n_refs: Signal<Local, Bits<8>>,
    n_count: Signal<Local, Bits<8>>,
    n_passed: Signal<Local, Bits<8>>,
    n_waiting: Signal<Local, Bits<8>>,
    /// Check whether the barrier opens.
    check: Signal<Local, Bit>,
    /// The waiting EUs: how many (thermometer code: bit k set for k + 1 or more), in binary.
    released_code: Signal<Local, Bits<8>>,
    released: Signal<Local, Bits<8>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    max8: Constant<Bits<8>>,
    group_number: Vec<Constant<Bits<3>>>,
    eu_number: Vec<Constant<Bits<4>>>,
    eu_bit: Vec<Constant<Bits<8>>>,
    /// `count_number[k]` = k + 1.
    count_number: Vec<Constant<Bits<8>>>,
    _eus: usize,
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
            cur_bound: Default::default(),
            cur_base: Default::default(),
            cur_refs: Default::default(),
            cur_count: Default::default(),
            cur_passed: Default::default(),
            cur_waiting: Default::default(),
            bound: signals(groups),
            base: signals(groups),
            refs: signals(groups),
            count: signals(groups),
            passed: signals(groups),
            waiting: signals(groups),
            apply: Default::default(),
            access: Default::default(),
            join_group: Default::default(),
            bind_group: Default::default(),
            bind_base: Default::default(),
            leave: Default::default(),
            wait_group: Default::default(),
            wait_eu: Default::default(),
            dies: Default::default(),
            open: signals(eus),
            turned_away: signals(eus),
            g_bound: Registers::new(groups),
            g_base: Registers::new(groups),
            g_refs: Registers::new(groups),
            g_count: Registers::new(groups),
            g_passed: Registers::new(groups),
            g_waiting: Registers::new(groups),
            n_bound: Default::default(),
            n_base: Default::default(),
            n_refs: Default::default(),
            n_count: Default::default(),
            n_passed: Default::default(),
            n_waiting: Default::default(),
            check: Default::default(),
            released_code: Default::default(),
            released: Default::default(),
            zero8: constant(0),
            one8: constant(1),
            max8: constant(255),
            group_number: constants(1..=groups as u64),
            eu_number: constants(0..eus as u64),
            eu_bit: constants((0..eus).map(|e| 1u64 << e)),
            count_number: constants(1..=eus as u64),
            _eus: eus,
        }
    }
}

impl<const A: usize> Logic for GroupUnit<A> {
    // Locals are assigned before they are read; some are then updated in the same block
    // (Verilog's blocking semantics).
    #[hdl_gen]
    fn update(&mut self) {
        self.g_bound.clock.next = self.clock.val();
        self.g_base.clock.next = self.clock.val();
        self.g_refs.clock.next = self.clock.val();
        self.g_count.clock.next = self.clock.val();
        self.g_passed.clock.next = self.clock.val();
        self.g_waiting.clock.next = self.clock.val();
        self.n_bound.next = self.cur_bound.val();
        self.n_base.next = self.cur_base.val();
        self.n_refs.next = self.cur_refs.val();
        self.n_count.next = self.cur_count.val();
        self.n_passed.next = self.cur_passed.val();
        self.n_waiting.next = self.cur_waiting.val();
        // The operations, in order.
        self.check.next = false;
        self.dies.next = false;
        if self.access.val() {
            self.check.next = true;
            if self.n_count.val() != self.max8.val() {
                self.n_count.next = self.n_count.val() + self.one8.val();
            }
        }
        if self.join_group.val() {
            self.n_refs.next = self.n_refs.val() + self.one8.val();
        }
        if self.bind_group.val() {
            self.n_bound.next = true;
            self.n_base.next = self.bind_base.val();
            self.n_refs.next = self.one8.val();
            self.n_count.next = self.zero8.val();
            self.n_passed.next = self.zero8.val();
        }
        if self.leave.val() {
            self.n_refs.next = self.n_refs.val() - self.one8.val();
            if self.n_refs.val() == self.zero8.val() {
                self.dies.next = true;
            } else {
                self.check.next = true;
            }
        }
        if self.wait_group.val() {
            for e in 0..self._eus {
                if self.wait_eu.val() == self.eu_number[e].val() {
                    self.n_waiting.next = self.n_waiting.val() | self.eu_bit[e].val();
                }
            }
            self.check.next = true;
        }
        // A dying group turns its waiters away; an open barrier lets them through.
        for e in 0..self._eus {
            self.turned_away[e].next = false;
            self.open[e].next = false;
        }
        if self.dies.val() {
            for e in 0..self._eus {
                self.turned_away[e].next = (self.n_waiting.val() & self.eu_bit[e].val()).any();
            }
            self.n_bound.next = false;
            self.n_count.next = self.zero8.val();
            self.n_passed.next = self.zero8.val();
            self.n_waiting.next = self.zero8.val();
        }
        // The waiting EUs, counted without an adder per EU: a thermometer code, then binary.
        self.released_code.next = self.zero8.val();
        for e in 0..self._eus {
            if (self.n_waiting.val() & self.eu_bit[e].val()).any() {
                self.released_code.next =
                    (self.released_code.val() << self.one8.val()) | self.one8.val();
            }
        }
        self.released.next = self.zero8.val();
        for e in 0..self._eus {
            if (self.released_code.val() & self.eu_bit[e].val()).any() {
                self.released.next = self.count_number[e].val();
            }
        }
        if self.check.val() & self.n_bound.val() & (self.n_count.val() >= self.n_refs.val()) {
            for e in 0..self._eus {
                if (self.n_waiting.val() & self.eu_bit[e].val()).any() {
                    self.open[e].next = true;
                }
            }
            self.n_passed.next = self.n_passed.val() + self.released.val();
            self.n_waiting.next = self.zero8.val();
            if self.n_passed.val() >= self.n_refs.val() {
                self.n_count.next = self.zero8.val();
                self.n_passed.next = self.zero8.val();
            }
        }
        for g in 0..7 {
            self.bound[g].next = self.g_bound.q[g].val();
            self.base[g].next = self.g_base.q[g].val();
            self.refs[g].next = self.g_refs.q[g].val();
            self.count[g].next = self.g_count.q[g].val();
            self.passed[g].next = self.g_passed.q[g].val();
            self.waiting[g].next = self.g_waiting.q[g].val();
            self.g_bound.d[g].next = self.g_bound.q[g].val();
            self.g_base.d[g].next = self.g_base.q[g].val();
            self.g_refs.d[g].next = self.g_refs.q[g].val();
            self.g_count.d[g].next = self.g_count.q[g].val();
            self.g_passed.d[g].next = self.g_passed.q[g].val();
            self.g_waiting.d[g].next = self.g_waiting.q[g].val();
            if self.apply.val() & (self.select.val() == self.group_number[g].val()) {
                self.g_bound.d[g].next = self.n_bound.val();
                self.g_base.d[g].next = self.n_base.val();
                self.g_count.d[g].next = self.n_count.val();
                self.g_refs.d[g].next = self.n_refs.val();
                self.g_passed.d[g].next = self.n_passed.val();
                self.g_waiting.d[g].next = self.n_waiting.val();
            }
            if self.reset.val() {
                self.g_bound.d[g].next = false;
                self.g_refs.d[g].next = self.zero8.val();
                self.g_count.d[g].next = self.zero8.val();
                self.g_passed.d[g].next = self.zero8.val();
                self.g_waiting.d[g].next = self.zero8.val();
            }
        }
    }
}
