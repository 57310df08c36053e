//! The cluster controller of the hierarchical GRF: round-robin arbitration of the EUs'
//! transactions, the translation table, shared groups and barriers, the slow GRF's read
//! pipeline, L3 redirects, the save phase of a context switch and the refill engine.

use rust_hdl::prelude::*;

use super::codes::{kind, status};
use crate::params::{GrfParams, Mapping};
use crate::regs::Registers;
use crate::{constant, constants, signals};

/// Controller states.
const IDLE: u64 = 0;
const SLOW_READ: u64 = 1;
const REDIRECT: u64 = 2;
const SWITCH_WAIT: u64 = 3;
const SAVE: u64 = 4;

/// The controller (see `docs/grf.md` for every rule and its timing). `E` is the element width,
/// `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct GrfController<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: table back to its pre-allocation, groups and engine idle.
    pub reset: Signal<In, Bit>,
    /// Per EU: a transaction is waiting.
    pub tx_valid: Vec<Signal<In, Bit>>,
    /// Per EU: its kind (`codes::kind`).
    pub tx_kind: Vec<Signal<In, Bits<3>>>,
    /// Per EU: the global thread (EU * threads + thread).
    pub tx_thread: Vec<Signal<In, Bits<5>>>,
    /// Per EU: the virtual register (or 16 x virtual block).
    pub tx_reg: Vec<Signal<In, Bits<6>>>,
    /// Per EU: the group (alloc, wait).
    pub tx_group: Vec<Signal<In, Bits<3>>>,
    /// Per EU: the data (`eu * lanes + l`).
    pub tx_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the transaction is taken this cycle.
    pub tx_take: Vec<Signal<Out, Bit>>,
    /// Per EU: an answer is visible this cycle.
    pub ans_valid: Vec<Signal<Out, Bit>>,
    /// Per EU: its status (`codes::status`).
    pub ans_status: Vec<Signal<Out, Bits<3>>>,
    /// Per EU: the register is in a shared block.
    pub ans_shared: Vec<Signal<Out, Bit>>,
    /// Per EU: the data read (`eu * lanes + l`).
    pub ans_data: Vec<Signal<Out, Bits<E>>>,
    /// Slow GRF read enable.
    pub sram_read: Signal<Out, Bit>,
    /// Slow GRF read row.
    pub sram_read_row: Signal<Out, Bits<A>>,
    /// Slow GRF read data (one cycle after the read), one element per lane.
    pub sram_read_data: Vec<Signal<In, Bits<E>>>,
    /// Slow GRF write enable.
    pub sram_write: Signal<Out, Bit>,
    /// Slow GRF write row.
    pub sram_write_row: Signal<Out, Bits<A>>,
    /// Slow GRF write data, one element per lane.
    pub sram_write_data: Vec<Signal<Out, Bits<E>>>,
    /// L3 request.
    pub l3_valid: Signal<Out, Bit>,
    /// The request is a write (reads are answered on `l3_rvalid`).
    pub l3_write: Signal<Out, Bit>,
    /// L3 area (0 or 1): L3 address = area * slow_regs + row.
    pub l3_area: Signal<Out, Bit>,
    /// L3 row.
    pub l3_row: Signal<Out, Bits<A>>,
    /// L3 write data, one element per lane.
    pub l3_data: Vec<Signal<Out, Bits<E>>>,
    /// L3 read answer.
    pub l3_rvalid: Signal<In, Bit>,
    /// L3 read answer data, one element per lane.
    pub l3_rdata: Vec<Signal<In, Bits<E>>>,

    state: Registers<Bits<3>>,
    /// The EU being served (or, in the pipeline, a save read's offset).
    serving: Registers<Bits<4>>,
    timer: Registers<Bits<4>>,
    issued: Registers<Bit>,
    redirect_area: Registers<Bit>,
    redirect_row: Registers<Bits<A>>,
    save_base: Registers<Bits<A>>,
    save_step: Registers<Bits<5>>,
    save_area: Registers<Bit>,
    save_block: Registers<Bits<64>>,
    redirect_shared: Registers<Bit>,
    last: Registers<Bits<4>>,
    /// Translation table, one entry per (global thread, virtual block).
    t_valid: Registers<Bit>,
    t_base: Registers<Bits<A>>,
    t_shared: Registers<Bit>,
    t_group: Registers<Bits<3>>,
    /// Free physical blocks and each block's context parity, bit b = block b.
    free: Registers<Bits<64>>,
    parity: Registers<Bits<64>>,
    /// Groups 1..7 at index g - 1.
    g_bound: Registers<Bit>,
    g_base: Registers<Bits<A>>,
    g_refs: Registers<Bits<8>>,
    g_count: Registers<Bits<8>>,
    g_passed: Registers<Bits<8>>,
    g_waiting: Registers<Bits<8>>,
    /// Answers made visible next cycle.
    a_valid: Registers<Bit>,
    a_status: Registers<Bits<3>>,
    a_shared: Registers<Bit>,
    a_data: Registers<Bits<E>>,
    /// Slow read pipeline: per stage valid, save (else an answer), EU, shared; data stages.
    p_valid: Registers<Bit>,
    p_save: Registers<Bit>,
    p_eu: Registers<Bits<4>>,
    p_shared: Registers<Bit>,
    p_data: Registers<Bits<E>>,
    /// Refill engine.
    e_busy: Registers<Bit>,
    e_base: Registers<Bits<A>>,
    e_area: Registers<Bit>,
    e_pending: Registers<Bits<16>>,
    e_flight: Registers<Bit>,
    e_flight_offset: Registers<Bits<4>>,
    e_hold: Registers<Bit>,
    e_hold_offset: Registers<Bits<4>>,
    e_hold_data: Registers<Bits<E>>,

    avail: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    picked: Signal<Local, Bit>,
    pick: Signal<Local, Bits<4>>,
    rr_target: Signal<Local, Bits<4>>,
    k_kind: Signal<Local, Bits<3>>,
    k_thread: Signal<Local, Bits<5>>,
    k_reg: Signal<Local, Bits<6>>,
    k_group: Signal<Local, Bits<3>>,
    k_data: Vec<Signal<Local, Bits<E>>>,
    m_valid: Signal<Local, Bit>,
    m_base: Signal<Local, Bits<A>>,
    m_shared: Signal<Local, Bit>,
    m_group: Signal<Local, Bits<3>>,
    /// The table entry of the taken transaction, one bit per entry.
    m_slot: Vec<Signal<Local, Bit>>,
    k_offset_row: Signal<Local, Bits<A>>,
    row: Signal<Local, Bits<A>>,
    refilling: Signal<Local, Bit>,
    is_access: Signal<Local, Bit>,
    /// The physical block of `m_base` (or of the allocated block), one-hot.
    m_block: Signal<Local, Bits<64>>,
    want_low: Signal<Local, Bit>,
    candidates: Signal<Local, Bits<64>>,
    chosen: Signal<Local, Bits<64>>,
    chosen_base: Signal<Local, Bits<A>>,
    /// The group a transaction touches and its new values.
    gsel: Signal<Local, Bits<3>>,
    n_base: Signal<Local, Bits<A>>,
    n_count: Signal<Local, Bits<8>>,
    n_refs: Signal<Local, Bits<8>>,
    n_passed: Signal<Local, Bits<8>>,
    n_waiting: Signal<Local, Bits<8>>,
    n_bound: Signal<Local, Bit>,
    check_barrier: Signal<Local, Bit>,
    group_dies: Signal<Local, Bit>,
    start_save: Signal<Local, Bit>,
    save_row: Signal<Local, Bits<A>>,
    save_out_row: Signal<Local, Bits<A>>,
    save_done: Signal<Local, Bit>,
    pipe_answer: Signal<Local, Bit>,
    ctl_l3: Signal<Local, Bit>,
    ctl_write: Signal<Local, Bit>,
    redirect_now: Signal<Local, Bit>,
    e_pick: Signal<Local, Bits<16>>,
    e_row: Signal<Local, Bits<A>>,
    e_hold_row: Signal<Local, Bits<A>>,
    e_write: Signal<Local, Bit>,
    redirect_busy: Signal<Local, Bit>,

    st_idle: Constant<Bits<3>>,
    st_slow: Constant<Bits<3>>,
    st_redirect: Constant<Bits<3>>,
    st_switch_wait: Constant<Bits<3>>,
    st_save: Constant<Bits<3>>,
    k_read: Constant<Bits<3>>,
    k_write_miss: Constant<Bits<3>>,
    k_writeback: Constant<Bits<3>>,
    k_alloc: Constant<Bits<3>>,
    k_release: Constant<Bits<3>>,
    k_wait: Constant<Bits<3>>,
    k_switch: Constant<Bits<3>>,
    s_ok: Constant<Bits<3>>,
    s_unmapped: Constant<Bits<3>>,
    s_no_free: Constant<Bits<3>>,
    s_not_owned: Constant<Bits<3>>,
    s_already: Constant<Bits<3>>,
    s_no_group: Constant<Bits<3>>,
    zero_e: Constant<Bits<E>>,
    zero_a: Constant<Bits<A>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    max8: Constant<Bits<8>>,
    zero16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    all16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    fifteen4: Constant<Bits<4>>,
    sixteen5: Constant<Bits<5>>,
    zero5: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
    zero3: Constant<Bits<3>>,
    /// `slow_latency - 1`: the slow-read timer's start.
    timer_start: Constant<Bits<4>>,
    /// Save steps 0..15 (5 bits), matched to offsets.
    step_number: Vec<Constant<Bits<5>>>,
    /// EU numbers and their one-hot waiting bits.
    eu_number: Vec<Constant<Bits<4>>>,
    eu_bit: Vec<Constant<Bits<8>>>,
    /// `eus` as a round-robin bound, and the round-robin steps 1..=eus.
    eus4: Constant<Bits<4>>,
    rr_step: Vec<Constant<Bits<4>>>,
    last_eu: Constant<Bits<4>>,
    /// Global thread numbers, virtual block numbers, offsets 0..15 (4 bits and as rows).
    thread_number: Vec<Constant<Bits<5>>>,
    vb_number: Vec<Constant<Bits<2>>>,
    offset_number: Vec<Constant<Bits<4>>>,
    offset_row: Vec<Constant<Bits<A>>>,
    offset_bit: Vec<Constant<Bits<16>>>,
    /// Per block: base row and one-hot bit.
    block_base: Vec<Constant<Bits<A>>>,
    block_bit: Vec<Constant<Bits<64>>>,
    /// The low-energy part.
    low_blocks: Constant<Bits<64>>,
    /// Group numbers 1..7.
    group_number: Vec<Constant<Bits<3>>>,
    /// Reset values of the table (pre-allocation) and of the free mask.
    reset_valid: Vec<Constant<Bit>>,
    reset_base: Vec<Constant<Bits<A>>>,
    reset_free: Constant<Bits<64>>,
    /// Which allocations want the low-energy part: per global thread, per virtual block.
    low_thread: Vec<Constant<Bit>>,
    low_block: Vec<Constant<Bit>>,
    _eus: usize,
    _lanes: usize,
    _slots: usize,
    _threads: usize,
    _vblocks: usize,
    _blocks: usize,
    _stages: usize,
}

impl<const E: usize, const A: usize> GrfController<E, A> {
    /// The controller for `params` (validated; `E` and `A` must match).
    pub fn new(params: &GrfParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.slow_bits());
        let (eus, lanes) = (params.eus, params.lanes);
        let threads = params.all_threads();
        let vb = params.virtual_blocks;
        let slots = threads * vb;
        let blocks = params.blocks();
        let stages = params.slow_latency;
        let mask64 = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut reset_free = mask64(blocks);
        let mut reset_valid = Vec::new();
        let mut reset_base = Vec::new();
        for t in 0..threads {
            for v in 0..vb {
                match params.preallocation(t, v) {
                    Some(b) => {
                        reset_valid.push(Constant::new(true));
                        reset_base.push(constant((b * GrfParams::BLOCK) as u64));
                        reset_free &= !(1u64 << b);
                    }
                    None => {
                        reset_valid.push(Constant::new(false));
                        reset_base.push(constant(0));
                    }
                }
            }
        }
        let (by_thread, by_block) = match params.mapping {
            Mapping::Threads(_) => (true, false),
            Mapping::Fraction(_) => (false, true),
            Mapping::None => (false, false),
        };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tx_valid: signals(eus),
            tx_kind: signals(eus),
            tx_thread: signals(eus),
            tx_reg: signals(eus),
            tx_group: signals(eus),
            tx_data: signals(eus * lanes),
            tx_take: signals(eus),
            ans_valid: signals(eus),
            ans_status: signals(eus),
            ans_shared: signals(eus),
            ans_data: signals(eus * lanes),
            sram_read: Default::default(),
            sram_read_row: Default::default(),
            sram_read_data: signals(lanes),
            sram_write: Default::default(),
            sram_write_row: Default::default(),
            sram_write_data: signals(lanes),
            l3_valid: Default::default(),
            l3_write: Default::default(),
            l3_area: Default::default(),
            l3_row: Default::default(),
            l3_data: signals(lanes),
            l3_rvalid: Default::default(),
            l3_rdata: signals(lanes),
            state: Registers::new(1),
            serving: Registers::new(1),
            timer: Registers::new(1),
            issued: Registers::new(1),
            redirect_area: Registers::new(1),
            redirect_row: Registers::new(1),
            save_base: Registers::new(1),
            save_step: Registers::new(1),
            save_area: Registers::new(1),
            save_block: Registers::new(1),
            redirect_shared: Registers::new(1),
            last: Registers::new(1),
            t_valid: Registers::new(slots),
            t_base: Registers::new(slots),
            t_shared: Registers::new(slots),
            t_group: Registers::new(slots),
            free: Registers::new(1),
            parity: Registers::new(1),
            g_bound: Registers::new(GrfParams::GROUPS),
            g_base: Registers::new(GrfParams::GROUPS),
            g_refs: Registers::new(GrfParams::GROUPS),
            g_count: Registers::new(GrfParams::GROUPS),
            g_passed: Registers::new(GrfParams::GROUPS),
            g_waiting: Registers::new(GrfParams::GROUPS),
            a_valid: Registers::new(eus),
            a_status: Registers::new(eus),
            a_shared: Registers::new(eus),
            a_data: Registers::new(eus * lanes),
            p_valid: Registers::new(stages),
            p_save: Registers::new(stages),
            p_eu: Registers::new(stages),
            p_shared: Registers::new(stages),
            p_data: Registers::new((stages - 1) * lanes),
            e_busy: Registers::new(1),
            e_base: Registers::new(1),
            e_area: Registers::new(1),
            e_pending: Registers::new(1),
            e_flight: Registers::new(1),
            e_flight_offset: Registers::new(1),
            e_hold: Registers::new(1),
            e_hold_offset: Registers::new(1),
            e_hold_data: Registers::new(lanes),
            avail: Default::default(),
            take: Default::default(),
            picked: Default::default(),
            pick: Default::default(),
            rr_target: Default::default(),
            k_kind: Default::default(),
            k_thread: Default::default(),
            k_reg: Default::default(),
            k_group: Default::default(),
            k_data: signals(lanes),
            m_valid: Default::default(),
            m_base: Default::default(),
            m_shared: Default::default(),
            m_group: Default::default(),
            m_slot: signals(slots),
            k_offset_row: Default::default(),
            row: Default::default(),
            refilling: Default::default(),
            is_access: Default::default(),
            m_block: Default::default(),
            want_low: Default::default(),
            candidates: Default::default(),
            chosen: Default::default(),
            chosen_base: Default::default(),
            gsel: Default::default(),
            n_base: Default::default(),
            n_count: Default::default(),
            n_refs: Default::default(),
            n_passed: Default::default(),
            n_waiting: Default::default(),
            n_bound: Default::default(),
            check_barrier: Default::default(),
            group_dies: Default::default(),
            start_save: Default::default(),
            save_row: Default::default(),
            save_out_row: Default::default(),
            save_done: Default::default(),
            pipe_answer: Default::default(),
            ctl_l3: Default::default(),
            ctl_write: Default::default(),
            redirect_now: Default::default(),
            e_pick: Default::default(),
            e_row: Default::default(),
            e_hold_row: Default::default(),
            e_write: Default::default(),
            redirect_busy: Default::default(),
            st_idle: constant(IDLE),
            st_slow: constant(SLOW_READ),
            st_redirect: constant(REDIRECT),
            st_switch_wait: constant(SWITCH_WAIT),
            st_save: constant(SAVE),
            k_read: constant(kind::READ),
            k_write_miss: constant(kind::WRITE_MISS),
            k_writeback: constant(kind::WRITEBACK),
            k_alloc: constant(kind::ALLOC),
            k_release: constant(kind::RELEASE),
            k_wait: constant(kind::WAIT),
            k_switch: constant(kind::SWITCH),
            s_ok: constant(status::OK),
            s_unmapped: constant(status::UNMAPPED),
            s_no_free: constant(status::NO_FREE_BLOCK),
            s_not_owned: constant(status::NOT_OWNED),
            s_already: constant(status::ALREADY_MAPPED),
            s_no_group: constant(status::NO_SUCH_GROUP),
            zero_e: constant(0),
            zero_a: constant(0),
            zero8: constant(0),
            one8: constant(1),
            max8: constant(255),
            zero16: constant(0),
            one16: constant(1),
            all16: constant(0xffff),
            zero64: constant(0),
            one64: constant(1),
            zero4: constant(0),
            one4: constant(1),
            fifteen4: constant(15),
            sixteen5: constant(16),
            zero5: constant(0),
            one5: constant(1),
            zero3: constant(0),
            timer_start: constant(stages as u64 - 1),
            step_number: constants(0..16),
            eu_number: constants(0..eus as u64),
            eu_bit: constants((0..eus).map(|e| 1u64 << e)),
            eus4: constant(eus as u64),
            rr_step: constants((1..=eus).map(|k| k as u64)),
            last_eu: constant(eus as u64 - 1),
            thread_number: constants(0..threads as u64),
            vb_number: constants(0..vb as u64),
            offset_number: constants(0..16),
            offset_row: constants(0..16),
            offset_bit: constants((0..16).map(|o| 1u64 << o)),
            block_base: constants((0..blocks).map(|b| (b * GrfParams::BLOCK) as u64)),
            block_bit: constants((0..blocks).map(|b| 1u64 << b)),
            low_blocks: constant(mask64(params.low_energy_blocks)),
            group_number: constants(1..=GrfParams::GROUPS as u64),
            reset_valid,
            reset_base,
            reset_free: constant(reset_free & mask64(blocks)),
            low_thread: (0..threads)
                .map(|t| Constant::new(by_thread && params.wants_low_energy(t, 0)))
                .collect(),
            low_block: (0..vb)
                .map(|v| Constant::new(by_block && params.wants_low_energy(0, v)))
                .collect(),
            _eus: eus,
            _lanes: lanes,
            _slots: slots,
            _threads: threads,
            _vblocks: vb,
            _blocks: blocks,
            _stages: stages,
        }
    }
}

impl<const E: usize, const A: usize> Logic for GrfController<E, A> {
    // Single-value loops bind sizes for index arithmetic (docs/rust-hdl.md): nl lanes, nv
    // virtual blocks, ns pipeline stages, ne EUs. Locals are assigned before they are read;
    // some are then updated in the same block (Verilog's blocking semantics).
    #[hdl_gen]
    fn update(&mut self) {
        self.state.clock.next = self.clock.val();
        self.serving.clock.next = self.clock.val();
        self.timer.clock.next = self.clock.val();
        self.issued.clock.next = self.clock.val();
        self.redirect_area.clock.next = self.clock.val();
        self.redirect_row.clock.next = self.clock.val();
        self.redirect_shared.clock.next = self.clock.val();
        self.save_base.clock.next = self.clock.val();
        self.save_step.clock.next = self.clock.val();
        self.save_area.clock.next = self.clock.val();
        self.save_block.clock.next = self.clock.val();
        self.last.clock.next = self.clock.val();
        self.t_valid.clock.next = self.clock.val();
        self.t_base.clock.next = self.clock.val();
        self.t_shared.clock.next = self.clock.val();
        self.t_group.clock.next = self.clock.val();
        self.free.clock.next = self.clock.val();
        self.parity.clock.next = self.clock.val();
        self.g_bound.clock.next = self.clock.val();
        self.g_base.clock.next = self.clock.val();
        self.g_refs.clock.next = self.clock.val();
        self.g_count.clock.next = self.clock.val();
        self.g_passed.clock.next = self.clock.val();
        self.g_waiting.clock.next = self.clock.val();
        self.a_valid.clock.next = self.clock.val();
        self.a_status.clock.next = self.clock.val();
        self.a_shared.clock.next = self.clock.val();
        self.a_data.clock.next = self.clock.val();
        self.p_valid.clock.next = self.clock.val();
        self.p_save.clock.next = self.clock.val();
        self.p_eu.clock.next = self.clock.val();
        self.p_shared.clock.next = self.clock.val();
        self.p_data.clock.next = self.clock.val();
        self.e_busy.clock.next = self.clock.val();
        self.e_base.clock.next = self.clock.val();
        self.e_area.clock.next = self.clock.val();
        self.e_pending.clock.next = self.clock.val();
        self.e_flight.clock.next = self.clock.val();
        self.e_flight_offset.clock.next = self.clock.val();
        self.e_hold.clock.next = self.clock.val();
        self.e_hold_offset.clock.next = self.clock.val();
        self.e_hold_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nv in self._vblocks..(self._vblocks + 1) {
                for ns in self._stages..(self._stages + 1) {
                    for ne in self._eus..(self._eus + 1) {
                        // ---- Defaults: every register keeps its value; no port is used.
                        self.state.d[0].next = self.state.q[0].val();
                        self.serving.d[0].next = self.serving.q[0].val();
                        self.timer.d[0].next = self.timer.q[0].val();
                        self.issued.d[0].next = self.issued.q[0].val();
                        self.redirect_area.d[0].next = self.redirect_area.q[0].val();
                        self.redirect_row.d[0].next = self.redirect_row.q[0].val();
                        self.redirect_shared.d[0].next = self.redirect_shared.q[0].val();
                        self.save_base.d[0].next = self.save_base.q[0].val();
                        self.save_step.d[0].next = self.save_step.q[0].val();
                        self.save_area.d[0].next = self.save_area.q[0].val();
                        self.save_block.d[0].next = self.save_block.q[0].val();
                        self.last.d[0].next = self.last.q[0].val();
                        for k in 0..self._slots {
                            self.t_valid.d[k].next = self.t_valid.q[k].val();
                            self.t_base.d[k].next = self.t_base.q[k].val();
                            self.t_shared.d[k].next = self.t_shared.q[k].val();
                            self.t_group.d[k].next = self.t_group.q[k].val();
                        }
                        self.free.d[0].next = self.free.q[0].val();
                        self.parity.d[0].next = self.parity.q[0].val();
                        for g in 0..7 {
                            self.g_bound.d[g].next = self.g_bound.q[g].val();
                            self.g_base.d[g].next = self.g_base.q[g].val();
                            self.g_refs.d[g].next = self.g_refs.q[g].val();
                            self.g_count.d[g].next = self.g_count.q[g].val();
                            self.g_passed.d[g].next = self.g_passed.q[g].val();
                            self.g_waiting.d[g].next = self.g_waiting.q[g].val();
                        }
                        for e in 0..self._eus {
                            self.a_valid.d[e].next = false;
                            self.a_status.d[e].next = self.s_ok.val();
                            self.a_shared.d[e].next = false;
                            self.tx_take[e].next = false;
                        }
                        for k in 0..(self._eus * self._lanes) {
                            self.a_data.d[k].next = self.zero_e.val();
                        }
                        self.e_busy.d[0].next = self.e_busy.q[0].val();
                        self.e_base.d[0].next = self.e_base.q[0].val();
                        self.e_area.d[0].next = self.e_area.q[0].val();
                        self.e_pending.d[0].next = self.e_pending.q[0].val();
                        self.e_flight.d[0].next = self.e_flight.q[0].val();
                        self.e_flight_offset.d[0].next = self.e_flight_offset.q[0].val();
                        self.e_hold.d[0].next = self.e_hold.q[0].val();
                        self.e_hold_offset.d[0].next = self.e_hold_offset.q[0].val();
                        for l in 0..self._lanes {
                            self.e_hold_data.d[l].next = self.e_hold_data.q[l].val();
                            self.sram_write_data[l].next = self.zero_e.val();
                            self.l3_data[l].next = self.zero_e.val();
                        }
                        self.sram_read.next = false;
                        self.sram_read_row.next = self.zero_a.val();
                        self.sram_write.next = false;
                        self.sram_write_row.next = self.zero_a.val();
                        self.l3_valid.next = false;
                        self.l3_write.next = false;
                        self.l3_area.next = false;
                        self.l3_row.next = self.zero_a.val();
                        self.ctl_l3.next = false;
                        self.ctl_write.next = false;
                        self.redirect_now.next = false;
                        self.start_save.next = false;
                        self.check_barrier.next = false;
                        self.group_dies.next = false;
                        self.save_done.next = false;
                        // The slow read pipeline moves every cycle; stage 0 is loaded below.
                        self.p_valid.d[0].next = false;
                        self.p_save.d[0].next = false;
                        self.p_eu.d[0].next = self.zero4.val();
                        self.p_shared.d[0].next = false;
                        for k in 1..self._stages {
                            self.p_valid.d[k].next = self.p_valid.q[k - 1].val();
                            self.p_save.d[k].next = self.p_save.q[k - 1].val();
                            self.p_eu.d[k].next = self.p_eu.q[k - 1].val();
                            self.p_shared.d[k].next = self.p_shared.q[k - 1].val();
                        }
                        for l in 0..self._lanes {
                            self.p_data.d[l].next = self.sram_read_data[l].val();
                            for k in 1..(self._stages - 1) {
                                self.p_data.d[k * nl + l].next =
                                    self.p_data.q[(k - 1) * nl + l].val();
                            }
                        }

                        // ---- Round robin: the first waiting EU after the one served last.
                        self.avail.next = (self.state.q[0].val() == self.st_idle.val())
                            | ((self.state.q[0].val() == self.st_slow.val())
                                & (self.timer.q[0].val() == self.zero4.val()));
                        self.picked.next = false;
                        self.pick.next = self.zero4.val();
                        for kk in 0..self._eus {
                            // Steps eus, eus-1, ..., 1: the smallest step that finds an EU wins.
                            self.rr_target.next =
                                self.last.q[0].val() + self.rr_step[ne - kk - 1].val();
                            if self.rr_target.val() >= self.eus4.val() {
                                self.rr_target.next = self.rr_target.val() - self.eus4.val();
                            }
                            for e in 0..self._eus {
                                if self.tx_valid[e].val()
                                    & (self.rr_target.val() == self.eu_number[e].val())
                                {
                                    self.picked.next = true;
                                    self.pick.next = self.eu_number[e].val();
                                }
                            }
                        }
                        self.take.next = self.avail.val() & self.picked.val() & !self.reset.val();

                        // ---- The taken transaction and its table entry.
                        self.k_kind.next = self.tx_kind[0].val();
                        self.k_thread.next = self.tx_thread[0].val();
                        self.k_reg.next = self.tx_reg[0].val();
                        self.k_group.next = self.tx_group[0].val();
                        for l in 0..self._lanes {
                            self.k_data[l].next = self.tx_data[l].val();
                        }
                        for e in 0..self._eus {
                            if self.pick.val() == self.eu_number[e].val() {
                                self.k_kind.next = self.tx_kind[e].val();
                                self.k_thread.next = self.tx_thread[e].val();
                                self.k_reg.next = self.tx_reg[e].val();
                                self.k_group.next = self.tx_group[e].val();
                                for l in 0..self._lanes {
                                    self.k_data[l].next = self.tx_data[e * nl + l].val();
                                }
                                self.tx_take[e].next = self.take.val();
                            }
                        }
                        self.m_valid.next = false;
                        self.m_base.next = self.zero_a.val();
                        self.m_shared.next = false;
                        self.m_group.next = self.zero3.val();
                        for t in 0..self._threads {
                            for v in 0..self._vblocks {
                                self.m_slot[t * nv + v].next = (self.k_thread.val()
                                    == self.thread_number[t].val())
                                    & (self.k_reg.val().get_bits::<2>(4)
                                        == self.vb_number[v].val());
                                if self.m_slot[t * nv + v].val() {
                                    self.m_valid.next = self.t_valid.q[t * nv + v].val();
                                    self.m_base.next = self.t_base.q[t * nv + v].val();
                                    self.m_shared.next = self.t_shared.q[t * nv + v].val();
                                    self.m_group.next = self.t_group.q[t * nv + v].val();
                                }
                            }
                        }
                        self.k_offset_row.next = self.zero_a.val();
                        for o in 0..16 {
                            if self.k_reg.val().get_bits::<4>(0) == self.offset_number[o].val() {
                                self.k_offset_row.next = self.offset_row[o].val();
                            }
                        }
                        self.row.next = self.m_base.val() + self.k_offset_row.val();
                        self.m_block.next = self.zero64.val();
                        for b in 0..self._blocks {
                            if self.m_base.val() == self.block_base[b].val() {
                                self.m_block.next = self.block_bit[b].val();
                            }
                        }
                        self.refilling.next = self.e_busy.q[0].val()
                            & (self.e_base.q[0].val() == self.m_base.val())
                            & self.e_pending.q[0]
                                .val()
                                .get_bit(self.k_reg.val().get_bits::<4>(0).index());
                        self.is_access.next = (self.k_kind.val() == self.k_read.val())
                            | (self.k_kind.val() == self.k_write_miss.val())
                            | (self.k_kind.val() == self.k_writeback.val());

                        // ---- The group the transaction touches.
                        self.gsel.next = self.m_group.val();
                        if (self.k_kind.val() == self.k_wait.val())
                            | (self.k_kind.val() == self.k_alloc.val())
                        {
                            self.gsel.next = self.k_group.val();
                        }
                        self.n_bound.next = false;
                        self.n_base.next = self.zero_a.val();
                        self.n_count.next = self.zero8.val();
                        self.n_refs.next = self.zero8.val();
                        self.n_passed.next = self.zero8.val();
                        self.n_waiting.next = self.zero8.val();
                        for g in 0..7 {
                            if self.gsel.val() == self.group_number[g].val() {
                                self.n_bound.next = self.g_bound.q[g].val();
                                self.n_base.next = self.g_base.q[g].val();
                                self.n_count.next = self.g_count.q[g].val();
                                self.n_refs.next = self.g_refs.q[g].val();
                                self.n_passed.next = self.g_passed.q[g].val();
                                self.n_waiting.next = self.g_waiting.q[g].val();
                            }
                        }

                        // ---- Allocation: the lowest free block of the wanted part, else any.
                        self.want_low.next = false;
                        for t in 0..self._threads {
                            if (self.k_thread.val() == self.thread_number[t].val())
                                & self.low_thread[t].val()
                            {
                                self.want_low.next = true;
                            }
                        }
                        for v in 0..self._vblocks {
                            if (self.k_reg.val().get_bits::<2>(4) == self.vb_number[v].val())
                                & self.low_block[v].val()
                            {
                                self.want_low.next = true;
                            }
                        }
                        self.candidates.next = self.free.q[0].val() & !self.low_blocks.val();
                        if self.want_low.val() {
                            self.candidates.next = self.free.q[0].val() & self.low_blocks.val();
                        }
                        if !self.candidates.val().any() {
                            self.candidates.next = self.free.q[0].val();
                        }
                        self.chosen.next =
                            self.candidates.val() & (!self.candidates.val() + self.one64.val());
                        self.chosen_base.next = self.zero_a.val();
                        for b in 0..self._blocks {
                            if self.chosen.val() == self.block_bit[b].val() {
                                self.chosen_base.next = self.block_base[b].val();
                            }
                        }

                        // ---- Serving the taken transaction.
                        if self.take.val() {
                            self.state.d[0].next = self.st_idle.val();
                            self.last.d[0].next = self.pick.val();
                            self.serving.d[0].next = self.pick.val();
                            for e in 0..self._eus {
                                // Every kind answers next cycle except a read (slow GRF or
                                // L3), a wait that must park and a switch that saves first.
                                if self.pick.val() == self.eu_number[e].val() {
                                    self.a_valid.d[e].next = true;
                                    self.a_shared.d[e].next = self.m_shared.val();
                                    if self.is_access.val() & !self.m_valid.val() {
                                        self.a_status.d[e].next = self.s_unmapped.val();
                                    }
                                    if self.k_kind.val() == self.k_read.val() {
                                        self.a_valid.d[e].next = !self.m_valid.val();
                                    }
                                    if self.k_kind.val() == self.k_alloc.val() {
                                        self.a_shared.d[e].next = false;
                                        if self.m_valid.val() {
                                            self.a_status.d[e].next = self.s_already.val();
                                        } else if !(self.k_group.val().any() & self.n_bound.val())
                                            & !self.chosen.val().any()
                                        {
                                            self.a_status.d[e].next = self.s_no_free.val();
                                        }
                                    }
                                    if self.k_kind.val() == self.k_release.val() {
                                        self.a_shared.d[e].next = false;
                                        if !self.m_valid.val() {
                                            self.a_status.d[e].next = self.s_not_owned.val();
                                        }
                                    }
                                    if self.k_kind.val() == self.k_wait.val() {
                                        self.a_shared.d[e].next = false;
                                        self.a_valid.d[e].next = !self.n_bound.val();
                                        self.a_status.d[e].next = self.s_no_group.val();
                                    }
                                    if self.k_kind.val() == self.k_switch.val() {
                                        self.a_shared.d[e].next = false;
                                        self.a_valid.d[e].next = !self.m_valid.val();
                                        self.a_status.d[e].next = self.s_unmapped.val();
                                    }
                                }
                            }
                            // Reads and writes of mapped registers.
                            if self.is_access.val() & self.m_valid.val() {
                                if self.m_shared.val() {
                                    self.check_barrier.next = true;
                                    if self.n_count.val() != self.max8.val() {
                                        self.n_count.next = self.n_count.val() + self.one8.val();
                                    }
                                }
                                if self.k_kind.val() == self.k_read.val() {
                                    if self.refilling.val() {
                                        self.state.d[0].next = self.st_redirect.val();
                                        self.redirect_area.d[0].next = self.e_area.q[0].val();
                                        self.redirect_row.d[0].next = self.row.val();
                                        self.redirect_shared.d[0].next = self.m_shared.val();
                                        self.issued.d[0].next = !self.e_flight.q[0].val();
                                        if !self.e_flight.q[0].val() {
                                            self.redirect_now.next = true;
                                        }
                                    } else {
                                        self.sram_read.next = true;
                                        self.sram_read_row.next = self.row.val();
                                        self.p_valid.d[0].next = true;
                                        self.p_eu.d[0].next = self.pick.val();
                                        self.p_shared.d[0].next = self.m_shared.val();
                                        self.state.d[0].next = self.st_slow.val();
                                        self.timer.d[0].next = self.timer_start.val();
                                    }
                                } else if !((self.k_kind.val() == self.k_write_miss.val())
                                    & !self.m_shared.val())
                                {
                                    self.ctl_write.next = true;
                                    self.sram_write.next = true;
                                    self.sram_write_row.next = self.row.val();
                                    for l in 0..self._lanes {
                                        self.sram_write_data[l].next = self.k_data[l].val();
                                    }
                                    if self.refilling.val() {
                                        for o in 0..16 {
                                            if self.k_reg.val().get_bits::<4>(0)
                                                == self.offset_number[o].val()
                                            {
                                                self.e_pending.d[0].next = self.e_pending.q[0]
                                                    .val()
                                                    & !self.offset_bit[o].val();
                                            }
                                        }
                                    }
                                }
                            }
                            // Allocation.
                            if (self.k_kind.val() == self.k_alloc.val()) & !self.m_valid.val() {
                                if self.k_group.val().any() & self.n_bound.val() {
                                    self.n_refs.next = self.n_refs.val() + self.one8.val();
                                    for k in 0..self._slots {
                                        if self.m_slot[k].val() {
                                            self.t_valid.d[k].next = true;
                                            self.t_base.d[k].next = self.n_base.val();
                                            self.t_shared.d[k].next = true;
                                            self.t_group.d[k].next = self.k_group.val();
                                        }
                                    }
                                } else if self.chosen.val().any() {
                                    self.free.d[0].next = self.free.q[0].val() & !self.chosen.val();
                                    for k in 0..self._slots {
                                        if self.m_slot[k].val() {
                                            self.t_valid.d[k].next = true;
                                            self.t_base.d[k].next = self.chosen_base.val();
                                            self.t_shared.d[k].next = self.k_group.val().any();
                                            self.t_group.d[k].next = self.k_group.val();
                                        }
                                    }
                                    if self.k_group.val().any() {
                                        self.n_bound.next = true;
                                        self.n_base.next = self.chosen_base.val();
                                        self.n_refs.next = self.one8.val();
                                        self.n_count.next = self.zero8.val();
                                        self.n_passed.next = self.zero8.val();
                                    }
                                }
                            }
                            // Release.
                            if (self.k_kind.val() == self.k_release.val()) & self.m_valid.val() {
                                for k in 0..self._slots {
                                    if self.m_slot[k].val() {
                                        self.t_valid.d[k].next = false;
                                        self.t_base.d[k].next = self.zero_a.val();
                                        self.t_shared.d[k].next = false;
                                        self.t_group.d[k].next = self.zero3.val();
                                    }
                                }
                                if !self.m_shared.val() {
                                    self.free.d[0].next = self.free.q[0].val() | self.m_block.val();
                                } else {
                                    self.n_refs.next = self.n_refs.val() - self.one8.val();
                                    if self.n_refs.val() == self.zero8.val() {
                                        self.group_dies.next = true;
                                        self.free.d[0].next =
                                            self.free.q[0].val() | self.m_block.val();
                                    } else {
                                        self.check_barrier.next = true;
                                    }
                                }
                            }
                            // Wait: park, then maybe open at once.
                            if (self.k_kind.val() == self.k_wait.val()) & self.n_bound.val() {
                                for e in 0..self._eus {
                                    if self.pick.val() == self.eu_number[e].val() {
                                        self.n_waiting.next =
                                            self.n_waiting.val() | self.eu_bit[e].val();
                                    }
                                }
                                self.check_barrier.next = true;
                            }
                            // Switch: save now, or once the refill engine is free.
                            if (self.k_kind.val() == self.k_switch.val()) & self.m_valid.val() {
                                self.save_base.d[0].next = self.m_base.val();
                                self.save_block.d[0].next = self.m_block.val();
                                self.state.d[0].next = self.st_switch_wait.val();
                                self.start_save.next = !self.e_busy.q[0].val();
                            }
                        }

                        // ---- Barriers: a dying group turns its waiters away; an open barrier
                        //      answers them.
                        if self.group_dies.val() {
                            for e in 0..self._eus {
                                if (self.n_waiting.val() & self.eu_bit[e].val()).any() {
                                    self.a_valid.d[e].next = true;
                                    self.a_status.d[e].next = self.s_no_group.val();
                                }
                            }
                            self.n_bound.next = false;
                            self.n_count.next = self.zero8.val();
                            self.n_passed.next = self.zero8.val();
                            self.n_waiting.next = self.zero8.val();
                        }
                        if self.check_barrier.val()
                            & self.n_bound.val()
                            & (self.n_count.val() >= self.n_refs.val())
                        {
                            for e in 0..self._eus {
                                if (self.n_waiting.val() & self.eu_bit[e].val()).any() {
                                    self.a_valid.d[e].next = true;
                                    self.a_status.d[e].next = self.s_ok.val();
                                    self.n_passed.next = self.n_passed.val() + self.one8.val();
                                }
                            }
                            self.n_waiting.next = self.zero8.val();
                            if self.n_passed.val() >= self.n_refs.val() {
                                self.n_count.next = self.zero8.val();
                                self.n_passed.next = self.zero8.val();
                            }
                        }
                        if self.take.val() {
                            for g in 0..7 {
                                if self.gsel.val() == self.group_number[g].val() {
                                    self.g_bound.d[g].next = self.n_bound.val();
                                    self.g_base.d[g].next = self.n_base.val();
                                    self.g_count.d[g].next = self.n_count.val();
                                    self.g_refs.d[g].next = self.n_refs.val();
                                    self.g_passed.d[g].next = self.n_passed.val();
                                    self.g_waiting.d[g].next = self.n_waiting.val();
                                }
                            }
                        }

                        // ---- A slow read: free again when its answer leaves the pipeline.
                        if (self.state.q[0].val() == self.st_slow.val()) & !self.take.val() {
                            self.timer.d[0].next = self.timer.q[0].val() - self.one4.val();
                            if self.timer.q[0].val() == self.zero4.val() {
                                self.state.d[0].next = self.st_idle.val();
                            }
                        }
                        // ---- A redirect: issue when no L3 read is outstanding; answer on L3's.
                        if self.state.q[0].val() == self.st_redirect.val() {
                            if !self.issued.q[0].val() & !self.e_flight.q[0].val() {
                                self.redirect_now.next = true;
                                self.issued.d[0].next = true;
                            }
                            if self.issued.q[0].val() & self.l3_rvalid.val() {
                                self.state.d[0].next = self.st_idle.val();
                                for e in 0..self._eus {
                                    if self.serving.q[0].val() == self.eu_number[e].val() {
                                        self.a_valid.d[e].next = true;
                                        self.a_shared.d[e].next = self.redirect_shared.q[0].val();
                                        for l in 0..self._lanes {
                                            self.a_data.d[e * nl + l].next = self.l3_rdata[l].val();
                                        }
                                    }
                                }
                            }
                        }
                        if self.redirect_now.val() {
                            self.ctl_l3.next = true;
                            self.l3_valid.next = true;
                            self.l3_area.next = self.redirect_area.q[0].val();
                            self.l3_row.next = self.redirect_row.q[0].val();
                            if self.take.val() {
                                self.l3_area.next = self.e_area.q[0].val();
                                self.l3_row.next = self.row.val();
                            }
                        }
                        self.redirect_busy.next = self.redirect_now.val()
                            | ((self.state.q[0].val() == self.st_redirect.val())
                                & self.issued.q[0].val()
                                & !self.l3_rvalid.val());

                        // ---- A switch: the save phase reads the block's 16 rows, one a cycle,
                        //      and writes each to L3 as it leaves the pipeline.
                        if (self.state.q[0].val() == self.st_switch_wait.val())
                            & !self.e_busy.q[0].val()
                        {
                            self.start_save.next = true;
                        }
                        if self.start_save.val() {
                            self.state.d[0].next = self.st_save.val();
                            self.save_step.d[0].next = self.zero5.val();
                            self.save_area.d[0].next =
                                (self.parity.q[0].val() & self.save_block.d[0].val()).any();
                        }
                        self.save_row.next = self.save_base.d[0].val();
                        if (self.start_save.val() | (self.state.q[0].val() == self.st_save.val()))
                            & (self.save_step.d[0].val() < self.sixteen5.val())
                        {
                            for o in 0..16 {
                                if self.save_step.d[0].val() == self.step_number[o].val() {
                                    self.save_row.next =
                                        self.save_base.d[0].val() + self.offset_row[o].val();
                                    self.p_eu.d[0].next = self.offset_number[o].val();
                                }
                            }
                            self.sram_read.next = true;
                            self.sram_read_row.next = self.save_row.val();
                            self.p_valid.d[0].next = true;
                            self.p_save.d[0].next = true;
                            self.save_step.d[0].next = self.save_step.d[0].val() + self.one5.val();
                        }
                        self.save_out_row.next = self.save_base.q[0].val();
                        for o in 0..16 {
                            if self.p_eu.q[ns - 1].val() == self.offset_number[o].val() {
                                self.save_out_row.next =
                                    self.save_base.q[0].val() + self.offset_row[o].val();
                            }
                        }
                        if self.p_valid.q[ns - 1].val() & self.p_save.q[ns - 1].val() {
                            self.ctl_l3.next = true;
                            self.l3_valid.next = true;
                            self.l3_write.next = true;
                            self.l3_area.next = self.save_area.q[0].val();
                            self.l3_row.next = self.save_out_row.val();
                            for l in 0..self._lanes {
                                self.l3_data[l].next = self.p_data.q[(ns - 2) * nl + l].val();
                            }
                            self.save_done.next = self.p_eu.q[ns - 1].val() == self.fifteen4.val();
                        }
                        if self.save_done.val() {
                            self.state.d[0].next = self.st_idle.val();
                            self.parity.d[0].next =
                                self.parity.q[0].val() ^ self.save_block.q[0].val();
                            for e in 0..self._eus {
                                if self.serving.q[0].val() == self.eu_number[e].val() {
                                    self.a_valid.d[e].next = true;
                                }
                            }
                        }

                        // ---- Answers visible this cycle: registered ones and the pipeline's.
                        self.pipe_answer.next =
                            self.p_valid.q[ns - 1].val() & !self.p_save.q[ns - 1].val();
                        for e in 0..self._eus {
                            self.ans_valid[e].next = self.a_valid.q[e].val();
                            self.ans_status[e].next = self.a_status.q[e].val();
                            self.ans_shared[e].next = self.a_shared.q[e].val();
                            for l in 0..self._lanes {
                                self.ans_data[e * nl + l].next = self.a_data.q[e * nl + l].val();
                            }
                            if self.pipe_answer.val()
                                & (self.p_eu.q[ns - 1].val() == self.eu_number[e].val())
                            {
                                self.ans_valid[e].next = true;
                                self.ans_shared[e].next = self.p_shared.q[ns - 1].val();
                                for l in 0..self._lanes {
                                    self.ans_data[e * nl + l].next =
                                        self.p_data.q[(ns - 2) * nl + l].val();
                                }
                            }
                        }

                        // ---- The refill engine: one L3 read at a time, each answer written
                        //      back unless the controller writes the slow GRF that cycle.
                        self.e_write.next = false;
                        self.e_hold_row.next = self.e_base.q[0].val();
                        self.e_row.next = self.e_base.q[0].val();
                        self.e_pick.next = self.e_pending.q[0].val()
                            & (!self.e_pending.q[0].val() + self.one16.val());
                        for o in 0..16 {
                            if self.e_hold_offset.q[0].val() == self.offset_number[o].val() {
                                self.e_hold_row.next =
                                    self.e_base.q[0].val() + self.offset_row[o].val();
                            }
                            if self.e_pick.val() == self.offset_bit[o].val() {
                                self.e_row.next = self.e_base.q[0].val() + self.offset_row[o].val();
                                self.e_flight_offset.d[0].next = self.offset_number[o].val();
                            }
                        }
                        if self.e_busy.q[0].val() {
                            if self.e_hold.q[0].val() & !self.ctl_write.val() {
                                self.e_hold.d[0].next = false;
                                if self.e_pending.q[0]
                                    .val()
                                    .get_bit(self.e_hold_offset.q[0].val().index())
                                {
                                    self.e_write.next = true;
                                    for o in 0..16 {
                                        if self.e_hold_offset.q[0].val()
                                            == self.offset_number[o].val()
                                        {
                                            self.e_pending.d[0].next = self.e_pending.q[0].val()
                                                & !self.offset_bit[o].val();
                                        }
                                    }
                                }
                            }
                            if !self.e_flight.q[0].val()
                                & !self.e_hold.q[0].val()
                                & !self.ctl_l3.val()
                                & !self.redirect_busy.val()
                                & self.e_pending.q[0].val().any()
                            {
                                self.l3_valid.next = true;
                                self.l3_area.next = self.e_area.q[0].val();
                                self.l3_row.next = self.e_row.val();
                                self.e_flight.d[0].next = true;
                            } else {
                                self.e_flight_offset.d[0].next = self.e_flight_offset.q[0].val();
                            }
                            if self.e_flight.q[0].val() & self.l3_rvalid.val() {
                                self.e_flight.d[0].next = false;
                                self.e_hold.d[0].next = true;
                                self.e_hold_offset.d[0].next = self.e_flight_offset.q[0].val();
                                for l in 0..self._lanes {
                                    self.e_hold_data.d[l].next = self.l3_rdata[l].val();
                                }
                            }
                            if !self.e_pending.d[0].val().any()
                                & !self.e_flight.d[0].val()
                                & !self.e_hold.d[0].val()
                            {
                                self.e_busy.d[0].next = false;
                            }
                        } else {
                            self.e_flight_offset.d[0].next = self.e_flight_offset.q[0].val();
                        }
                        if self.e_write.val() {
                            self.sram_write.next = true;
                            self.sram_write_row.next = self.e_hold_row.val();
                            for l in 0..self._lanes {
                                self.sram_write_data[l].next = self.e_hold_data.q[l].val();
                            }
                        }
                        // The save's last write arms the engine for the block's other context.
                        if self.save_done.val() {
                            self.e_busy.d[0].next = true;
                            self.e_base.d[0].next = self.save_base.q[0].val();
                            self.e_area.d[0].next = !self.save_area.q[0].val();
                            self.e_pending.d[0].next = self.all16.val();
                            self.e_flight.d[0].next = false;
                            self.e_hold.d[0].next = false;
                        }

                        // ---- Reset.
                        if self.reset.val() {
                            self.state.d[0].next = self.st_idle.val();
                            self.issued.d[0].next = false;
                            self.last.d[0].next = self.last_eu.val();
                            for k in 0..self._slots {
                                self.t_valid.d[k].next = self.reset_valid[k].val();
                                self.t_base.d[k].next = self.reset_base[k].val();
                                self.t_shared.d[k].next = false;
                                self.t_group.d[k].next = self.zero3.val();
                            }
                            self.free.d[0].next = self.reset_free.val();
                            self.parity.d[0].next = self.zero64.val();
                            for g in 0..7 {
                                self.g_bound.d[g].next = false;
                                self.g_refs.d[g].next = self.zero8.val();
                                self.g_count.d[g].next = self.zero8.val();
                                self.g_passed.d[g].next = self.zero8.val();
                                self.g_waiting.d[g].next = self.zero8.val();
                            }
                            for e in 0..self._eus {
                                self.a_valid.d[e].next = false;
                            }
                            for k in 0..self._stages {
                                self.p_valid.d[k].next = false;
                            }
                            self.e_busy.d[0].next = false;
                            self.e_flight.d[0].next = false;
                            self.e_hold.d[0].next = false;
                            self.e_pending.d[0].next = self.zero16.val();
                        }
                    }
                }
            }
        }
    }
}
