//! The EUs' front ends: each EU's fast GRF (direct-mapped, write-back) and the state machine
//! that serves its requests, sending misses and commands to the controller.

use rust_hdl::prelude::*;

use super::codes::{kind, op, status};
use crate::params::GrfParams;
use crate::regs::Registers;
use crate::{constant, constants, signals};

const IDLE: u64 = 0;
const ACCESS: u64 = 1;
const VICTIM: u64 = 2;
const FLUSH: u64 = 3;
const COMMAND: u64 = 4;

/// Every EU's front end and fast GRF (see `docs/grf.md`). `E` is the element width.
#[derive(LogicBlock)]
pub struct GrfFrontEnds<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every fast GRF empty, every front end idle.
    pub reset: Signal<In, Bit>,
    /// Per EU: a request is presented.
    pub req_valid: Vec<Signal<In, Bit>>,
    /// Per EU: its op (`codes::op`).
    pub req_op: Vec<Signal<In, Bits<3>>>,
    /// Per EU: the thread within the EU.
    pub req_thread: Vec<Signal<In, Bits<2>>>,
    /// Per EU: the virtual register (or 16 x virtual block).
    pub req_reg: Vec<Signal<In, Bits<6>>>,
    /// Per EU: the group (alloc, wait).
    pub req_group: Vec<Signal<In, Bits<3>>>,
    /// Per EU: write data (`eu * lanes + l`).
    pub req_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the presented request is taken this cycle.
    pub req_ready: Vec<Signal<Out, Bit>>,
    /// Per EU: a response is visible this cycle.
    pub resp_valid: Vec<Signal<Out, Bit>>,
    /// Per EU: its status (`codes::status`).
    pub resp_status: Vec<Signal<Out, Bits<3>>>,
    /// Per EU: its data (`eu * lanes + l`).
    pub resp_data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU: a transaction for the controller.
    pub tx_valid: Vec<Signal<Out, Bit>>,
    /// Per EU: its kind.
    pub tx_kind: Vec<Signal<Out, Bits<3>>>,
    /// Per EU: its global thread.
    pub tx_thread: Vec<Signal<Out, Bits<5>>>,
    /// Per EU: its register.
    pub tx_reg: Vec<Signal<Out, Bits<6>>>,
    /// Per EU: its group.
    pub tx_group: Vec<Signal<Out, Bits<3>>>,
    /// Per EU: its data.
    pub tx_data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU: the controller takes the transaction.
    pub tx_take: Vec<Signal<In, Bit>>,
    /// Per EU: the controller's answer.
    pub ans_valid: Vec<Signal<In, Bit>>,
    /// Per EU: its status.
    pub ans_status: Vec<Signal<In, Bits<3>>>,
    /// Per EU: the register is shared (not kept in the fast GRF).
    pub ans_shared: Vec<Signal<In, Bit>>,
    /// Per EU: the data read.
    pub ans_data: Vec<Signal<In, Bits<E>>>,

    state: Registers<Bits<3>>,
    rq_op: Registers<Bits<3>>,
    rq_thread: Registers<Bits<2>>,
    rq_reg: Registers<Bits<6>>,
    rq_data: Registers<Bits<E>>,
    tx_v: Registers<Bit>,
    tx_k: Registers<Bits<3>>,
    tx_t: Registers<Bits<5>>,
    tx_r: Registers<Bits<6>>,
    tx_g: Registers<Bits<3>>,
    tx_d: Registers<Bits<E>>,
    rs_v: Registers<Bit>,
    rs_s: Registers<Bits<3>>,
    rs_d: Registers<Bits<E>>,
    fill: Registers<Bits<E>>,
    /// Fast GRF entries, EU-major (`eu * fast_regs + i`; data `(eu * fast_regs + i) * lanes + l`).
    ent_valid: Registers<Bit>,
    ent_dirty: Registers<Bit>,
    ent_thread: Registers<Bits<2>>,
    ent_reg: Registers<Bits<6>>,
    ent_data: Registers<Bits<E>>,

    /// Per EU and entry: the incoming request's register maps there; the one being served does.
    in_slot: Vec<Signal<Local, Bit>>,
    rq_slot: Vec<Signal<Local, Bit>>,
    hit: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    victim_dirty: Signal<Local, Bit>,
    write: Signal<Local, Bit>,
    flush_thread: Signal<Local, Bits<2>>,
    flush_reg: Signal<Local, Bits<6>>,
    flush_found: Signal<Local, Bit>,
    flush_now: Signal<Local, Bit>,
    global: Signal<Local, Bits<5>>,

    st_idle: Constant<Bits<3>>,
    st_access: Constant<Bits<3>>,
    st_victim: Constant<Bits<3>>,
    st_flush: Constant<Bits<3>>,
    st_command: Constant<Bits<3>>,
    op_read: Constant<Bits<3>>,
    op_write: Constant<Bits<3>>,
    op_alloc: Constant<Bits<3>>,
    op_release: Constant<Bits<3>>,
    op_wait: Constant<Bits<3>>,
    op_switch: Constant<Bits<3>>,
    k_read: Constant<Bits<3>>,
    k_write_miss: Constant<Bits<3>>,
    k_writeback: Constant<Bits<3>>,
    k_alloc: Constant<Bits<3>>,
    k_release: Constant<Bits<3>>,
    k_wait: Constant<Bits<3>>,
    k_switch: Constant<Bits<3>>,
    s_ok: Constant<Bits<3>>,
    zero_e: Constant<Bits<E>>,
    zero3: Constant<Bits<3>>,
    /// Index function: per entry, the thread bits and register bits that map to it, and the
    /// masks that pick those bits.
    thread_mask: Constant<Bits<2>>,
    reg_mask: Constant<Bits<6>>,
    slot_thread: Vec<Constant<Bits<2>>>,
    slot_reg: Vec<Constant<Bits<6>>>,
    /// Per EU and local thread: the global thread number; local thread numbers.
    global_thread: Vec<Constant<Bits<5>>>,
    local_thread: Vec<Constant<Bits<2>>>,
    /// Block bits of a register: `reg & block_mask`.
    block_mask: Constant<Bits<6>>,
    _eus: usize,
    _lanes: usize,
    _fast: usize,
    _threads: usize,
}

impl<const E: usize> GrfFrontEnds<E> {
    /// The front ends for `params` (validated; `E` must match).
    pub fn new(params: &GrfParams) -> Self {
        assert_eq!(E, params.element_bits);
        let (eus, lanes, fast, threads) =
            (params.eus, params.lanes, params.fast_regs, params.threads);
        let index_bits = fast.trailing_zeros() as usize;
        let tb = params.thread_bits();
        let thread_index_bits = tb.min(index_bits);
        let reg_index_bits = index_bits.saturating_sub(tb);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: signals(eus),
            req_op: signals(eus),
            req_thread: signals(eus),
            req_reg: signals(eus),
            req_group: signals(eus),
            req_data: signals(eus * lanes),
            req_ready: signals(eus),
            resp_valid: signals(eus),
            resp_status: signals(eus),
            resp_data: signals(eus * lanes),
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
            state: Registers::new(eus),
            rq_op: Registers::new(eus),
            rq_thread: Registers::new(eus),
            rq_reg: Registers::new(eus),
            rq_data: Registers::new(eus * lanes),
            tx_v: Registers::new(eus),
            tx_k: Registers::new(eus),
            tx_t: Registers::new(eus),
            tx_r: Registers::new(eus),
            tx_g: Registers::new(eus),
            tx_d: Registers::new(eus * lanes),
            rs_v: Registers::new(eus),
            rs_s: Registers::new(eus),
            rs_d: Registers::new(eus * lanes),
            fill: Registers::new(eus * lanes),
            ent_valid: Registers::new(eus * fast),
            ent_dirty: Registers::new(eus * fast),
            ent_thread: Registers::new(eus * fast),
            ent_reg: Registers::new(eus * fast),
            ent_data: Registers::new(eus * fast * lanes),
            in_slot: signals(eus * fast),
            rq_slot: signals(eus * fast),
            hit: Default::default(),
            accept: Default::default(),
            victim_dirty: Default::default(),
            write: Default::default(),
            flush_thread: Default::default(),
            flush_reg: Default::default(),
            flush_found: Default::default(),
            flush_now: Default::default(),
            global: Default::default(),
            st_idle: constant(IDLE),
            st_access: constant(ACCESS),
            st_victim: constant(VICTIM),
            st_flush: constant(FLUSH),
            st_command: constant(COMMAND),
            op_read: constant(op::READ),
            op_write: constant(op::WRITE),
            op_alloc: constant(op::ALLOC),
            op_release: constant(op::RELEASE),
            op_wait: constant(op::WAIT),
            op_switch: constant(op::SWITCH),
            k_read: constant(kind::READ),
            k_write_miss: constant(kind::WRITE_MISS),
            k_writeback: constant(kind::WRITEBACK),
            k_alloc: constant(kind::ALLOC),
            k_release: constant(kind::RELEASE),
            k_wait: constant(kind::WAIT),
            k_switch: constant(kind::SWITCH),
            s_ok: constant(status::OK),
            zero_e: constant(0),
            zero3: constant(0),
            thread_mask: constant((1u64 << thread_index_bits) - 1),
            reg_mask: constant((1u64 << reg_index_bits) - 1),
            slot_thread: constants((0..fast as u64).map(|i| i & ((1 << thread_index_bits) - 1))),
            slot_reg: constants((0..fast as u64).map(|i| (i >> tb) & ((1 << reg_index_bits) - 1))),
            global_thread: constants(0..(eus * threads) as u64),
            local_thread: constants(0..threads as u64),
            block_mask: constant(0x30),
            _eus: eus,
            _lanes: lanes,
            _fast: fast,
            _threads: threads,
        }
    }
}

impl<const E: usize> Logic for GrfFrontEnds<E> {
    // Single-value loops bind lanes (nl), fast entries (nf) and threads (nt) for index
    // arithmetic. Locals are assigned before being read; some are then updated (Verilog's
    // blocking semantics).
    #[hdl_gen]
    fn update(&mut self) {
        self.state.clock.next = self.clock.val();
        self.rq_op.clock.next = self.clock.val();
        self.rq_thread.clock.next = self.clock.val();
        self.rq_reg.clock.next = self.clock.val();
        self.rq_data.clock.next = self.clock.val();
        self.tx_v.clock.next = self.clock.val();
        self.tx_k.clock.next = self.clock.val();
        self.tx_t.clock.next = self.clock.val();
        self.tx_r.clock.next = self.clock.val();
        self.tx_g.clock.next = self.clock.val();
        self.tx_d.clock.next = self.clock.val();
        self.rs_v.clock.next = self.clock.val();
        self.rs_s.clock.next = self.clock.val();
        self.rs_d.clock.next = self.clock.val();
        self.fill.clock.next = self.clock.val();
        self.ent_valid.clock.next = self.clock.val();
        self.ent_dirty.clock.next = self.clock.val();
        self.ent_thread.clock.next = self.clock.val();
        self.ent_reg.clock.next = self.clock.val();
        self.ent_data.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for nt in self._threads..(self._threads + 1) {
                    for e in 0..self._eus {
                        // ---- Defaults: registers keep their values; no response.
                        self.state.d[e].next = self.state.q[e].val();
                        self.rq_op.d[e].next = self.rq_op.q[e].val();
                        self.rq_thread.d[e].next = self.rq_thread.q[e].val();
                        self.rq_reg.d[e].next = self.rq_reg.q[e].val();
                        self.tx_v.d[e].next = self.tx_v.q[e].val() & !self.tx_take[e].val();
                        self.tx_k.d[e].next = self.tx_k.q[e].val();
                        self.tx_t.d[e].next = self.tx_t.q[e].val();
                        self.tx_r.d[e].next = self.tx_r.q[e].val();
                        self.tx_g.d[e].next = self.tx_g.q[e].val();
                        self.rs_v.d[e].next = false;
                        self.rs_s.d[e].next = self.s_ok.val();
                        for l in 0..self._lanes {
                            self.rq_data.d[e * nl + l].next = self.rq_data.q[e * nl + l].val();
                            self.tx_d.d[e * nl + l].next = self.tx_d.q[e * nl + l].val();
                            self.rs_d.d[e * nl + l].next = self.zero_e.val();
                            self.fill.d[e * nl + l].next = self.fill.q[e * nl + l].val();
                        }
                        for i in 0..self._fast {
                            self.ent_valid.d[e * nf + i].next = self.ent_valid.q[e * nf + i].val();
                            self.ent_dirty.d[e * nf + i].next = self.ent_dirty.q[e * nf + i].val();
                            self.ent_thread.d[e * nf + i].next =
                                self.ent_thread.q[e * nf + i].val();
                            self.ent_reg.d[e * nf + i].next = self.ent_reg.q[e * nf + i].val();
                            for l in 0..self._lanes {
                                self.ent_data.d[(e * nf + i) * nl + l].next =
                                    self.ent_data.q[(e * nf + i) * nl + l].val();
                            }
                        }
                        // ---- Outputs from registers.
                        self.req_ready[e].next =
                            (self.state.q[e].val() == self.st_idle.val()) & !self.reset.val();
                        self.resp_valid[e].next = self.rs_v.q[e].val();
                        self.resp_status[e].next = self.rs_s.q[e].val();
                        self.tx_valid[e].next = self.tx_v.q[e].val();
                        self.tx_kind[e].next = self.tx_k.q[e].val();
                        self.tx_thread[e].next = self.tx_t.q[e].val();
                        self.tx_reg[e].next = self.tx_r.q[e].val();
                        self.tx_group[e].next = self.tx_g.q[e].val();
                        for l in 0..self._lanes {
                            self.resp_data[e * nl + l].next = self.rs_d.q[e * nl + l].val();
                            self.tx_data[e * nl + l].next = self.tx_d.q[e * nl + l].val();
                        }
                        // ---- Where the incoming request and the one being served map.
                        self.accept.next = (self.state.q[e].val() == self.st_idle.val())
                            & self.req_valid[e].val()
                            & !self.reset.val();
                        self.hit.next = false;
                        self.victim_dirty.next = false;
                        for i in 0..self._fast {
                            self.in_slot[e * nf + i].next = ((self.req_thread[e].val()
                                & self.thread_mask.val())
                                == self.slot_thread[i].val())
                                & ((self.req_reg[e].val() & self.reg_mask.val())
                                    == self.slot_reg[i].val());
                            self.rq_slot[e * nf + i].next = ((self.rq_thread.q[e].val()
                                & self.thread_mask.val())
                                == self.slot_thread[i].val())
                                & ((self.rq_reg.q[e].val() & self.reg_mask.val())
                                    == self.slot_reg[i].val());
                            if self.in_slot[e * nf + i].val()
                                & self.ent_valid.q[e * nf + i].val()
                                & (self.ent_thread.q[e * nf + i].val() == self.req_thread[e].val())
                                & (self.ent_reg.q[e * nf + i].val() == self.req_reg[e].val())
                            {
                                self.hit.next = true;
                            }
                            if self.rq_slot[e * nf + i].val()
                                & self.ent_valid.q[e * nf + i].val()
                                & self.ent_dirty.q[e * nf + i].val()
                            {
                                self.victim_dirty.next = true;
                            }
                        }
                        self.global.next = self.global_thread[e * nt].val();
                        for t in 0..self._threads {
                            if self.req_thread[e].val() == self.local_thread[t].val() {
                                self.global.next = self.global_thread[e * nt + t].val();
                            }
                        }
                        self.write.next = self.rq_op.q[e].val() == self.op_write.val();
                        self.flush_now.next = false;
                        self.flush_found.next = false;
                        self.flush_thread.next = self.rq_thread.q[e].val();
                        self.flush_reg.next = self.rq_reg.q[e].val();

                        // ---- Idle: take a request.
                        if self.accept.val() {
                            self.rq_op.d[e].next = self.req_op[e].val();
                            self.rq_thread.d[e].next = self.req_thread[e].val();
                            self.rq_reg.d[e].next = self.req_reg[e].val();
                            self.tx_t.d[e].next = self.global.val();
                            self.tx_r.d[e].next = self.req_reg[e].val();
                            self.tx_g.d[e].next = self.req_group[e].val();
                            for l in 0..self._lanes {
                                self.rq_data.d[e * nl + l].next = self.req_data[e * nl + l].val();
                                self.tx_d.d[e * nl + l].next = self.req_data[e * nl + l].val();
                            }
                            if (self.req_op[e].val() == self.op_read.val())
                                | (self.req_op[e].val() == self.op_write.val())
                            {
                                if self.hit.val() {
                                    self.rs_v.d[e].next = true;
                                    for i in 0..self._fast {
                                        if self.in_slot[e * nf + i].val() {
                                            if self.req_op[e].val() == self.op_write.val() {
                                                self.ent_dirty.d[e * nf + i].next = true;
                                                for l in 0..self._lanes {
                                                    self.ent_data.d[(e * nf + i) * nl + l].next =
                                                        self.req_data[e * nl + l].val();
                                                }
                                            } else {
                                                for l in 0..self._lanes {
                                                    self.rs_d.d[e * nl + l].next = self.ent_data.q
                                                        [(e * nf + i) * nl + l]
                                                        .val();
                                                }
                                            }
                                        }
                                    }
                                } else {
                                    self.tx_v.d[e].next = true;
                                    self.tx_k.d[e].next = self.k_write_miss.val();
                                    if self.req_op[e].val() == self.op_read.val() {
                                        self.tx_k.d[e].next = self.k_read.val();
                                    }
                                    self.state.d[e].next = self.st_access.val();
                                }
                            }
                            if (self.req_op[e].val() == self.op_alloc.val())
                                | (self.req_op[e].val() == self.op_wait.val())
                                | (self.req_op[e].val() == self.op_release.val())
                            {
                                self.tx_v.d[e].next = true;
                                self.tx_k.d[e].next = self.k_alloc.val();
                                if self.req_op[e].val() == self.op_wait.val() {
                                    self.tx_k.d[e].next = self.k_wait.val();
                                }
                                if self.req_op[e].val() == self.op_release.val() {
                                    self.tx_k.d[e].next = self.k_release.val();
                                    // A release drops the block's fast copies, dirty or not.
                                    for i in 0..self._fast {
                                        if (self.ent_thread.q[e * nf + i].val()
                                            == self.req_thread[e].val())
                                            & ((self.ent_reg.q[e * nf + i].val()
                                                & self.block_mask.val())
                                                == (self.req_reg[e].val() & self.block_mask.val()))
                                        {
                                            self.ent_valid.d[e * nf + i].next = false;
                                            self.ent_dirty.d[e * nf + i].next = false;
                                        }
                                    }
                                }
                                self.state.d[e].next = self.st_command.val();
                            }
                            if self.req_op[e].val() == self.op_switch.val() {
                                self.flush_now.next = true;
                                self.flush_thread.next = self.req_thread[e].val();
                                self.flush_reg.next = self.req_reg[e].val();
                            }
                        }
                        // ---- A miss answered: respond, or fill (after writing back a victim).
                        if (self.state.q[e].val() == self.st_access.val()) & self.ans_valid[e].val()
                        {
                            if (self.ans_status[e].val() != self.s_ok.val())
                                | self.ans_shared[e].val()
                            {
                                self.rs_v.d[e].next = true;
                                self.rs_s.d[e].next = self.ans_status[e].val();
                                for l in 0..self._lanes {
                                    self.rs_d.d[e * nl + l].next = self.ans_data[e * nl + l].val();
                                }
                                self.state.d[e].next = self.st_idle.val();
                            } else if self.victim_dirty.val() {
                                self.tx_v.d[e].next = true;
                                self.tx_k.d[e].next = self.k_writeback.val();
                                self.tx_g.d[e].next = self.zero3.val();
                                for l in 0..self._lanes {
                                    self.fill.d[e * nl + l].next = self.ans_data[e * nl + l].val();
                                }
                                for i in 0..self._fast {
                                    if self.rq_slot[e * nf + i].val() {
                                        for t in 0..self._threads {
                                            if self.ent_thread.q[e * nf + i].val()
                                                == self.local_thread[t].val()
                                            {
                                                self.tx_t.d[e].next =
                                                    self.global_thread[e * nt + t].val();
                                            }
                                        }
                                        self.tx_r.d[e].next = self.ent_reg.q[e * nf + i].val();
                                        for l in 0..self._lanes {
                                            self.tx_d.d[e * nl + l].next =
                                                self.ent_data.q[(e * nf + i) * nl + l].val();
                                        }
                                    }
                                }
                                self.state.d[e].next = self.st_victim.val();
                            } else {
                                self.rs_v.d[e].next = true;
                                for i in 0..self._fast {
                                    if self.rq_slot[e * nf + i].val() {
                                        self.ent_valid.d[e * nf + i].next = true;
                                        self.ent_dirty.d[e * nf + i].next = self.write.val();
                                        self.ent_thread.d[e * nf + i].next =
                                            self.rq_thread.q[e].val();
                                        self.ent_reg.d[e * nf + i].next = self.rq_reg.q[e].val();
                                        for l in 0..self._lanes {
                                            self.ent_data.d[(e * nf + i) * nl + l].next =
                                                self.ans_data[e * nl + l].val();
                                            if self.write.val() {
                                                self.ent_data.d[(e * nf + i) * nl + l].next =
                                                    self.rq_data.q[e * nl + l].val();
                                            }
                                        }
                                    }
                                }
                                if !self.write.val() {
                                    for l in 0..self._lanes {
                                        self.rs_d.d[e * nl + l].next =
                                            self.ans_data[e * nl + l].val();
                                    }
                                }
                                self.state.d[e].next = self.st_idle.val();
                            }
                        }
                        // ---- The victim is written back: fill.
                        if (self.state.q[e].val() == self.st_victim.val()) & self.ans_valid[e].val()
                        {
                            self.rs_v.d[e].next = true;
                            for i in 0..self._fast {
                                if self.rq_slot[e * nf + i].val() {
                                    self.ent_valid.d[e * nf + i].next = true;
                                    self.ent_dirty.d[e * nf + i].next = self.write.val();
                                    self.ent_thread.d[e * nf + i].next = self.rq_thread.q[e].val();
                                    self.ent_reg.d[e * nf + i].next = self.rq_reg.q[e].val();
                                    for l in 0..self._lanes {
                                        self.ent_data.d[(e * nf + i) * nl + l].next =
                                            self.fill.q[e * nl + l].val();
                                        if self.write.val() {
                                            self.ent_data.d[(e * nf + i) * nl + l].next =
                                                self.rq_data.q[e * nl + l].val();
                                        }
                                    }
                                }
                            }
                            if !self.write.val() {
                                for l in 0..self._lanes {
                                    self.rs_d.d[e * nl + l].next = self.fill.q[e * nl + l].val();
                                }
                            }
                            self.state.d[e].next = self.st_idle.val();
                        }
                        // ---- A switch writes back the block's dirty entries one by one.
                        if (self.state.q[e].val() == self.st_flush.val()) & self.ans_valid[e].val()
                        {
                            self.flush_now.next = true;
                        }
                        if self.flush_now.val() {
                            for i in 0..self._fast {
                                if !self.flush_found.val()
                                    & self.ent_valid.q[e * nf + i].val()
                                    & self.ent_dirty.q[e * nf + i].val()
                                    & (self.ent_thread.q[e * nf + i].val()
                                        == self.flush_thread.val())
                                    & ((self.ent_reg.q[e * nf + i].val() & self.block_mask.val())
                                        == (self.flush_reg.val() & self.block_mask.val()))
                                {
                                    self.flush_found.next = true;
                                    self.ent_dirty.d[e * nf + i].next = false;
                                    self.tx_r.d[e].next = self.ent_reg.q[e * nf + i].val();
                                    for l in 0..self._lanes {
                                        self.tx_d.d[e * nl + l].next =
                                            self.ent_data.q[(e * nf + i) * nl + l].val();
                                    }
                                }
                            }
                            self.tx_v.d[e].next = true;
                            if self.flush_found.val() {
                                self.tx_k.d[e].next = self.k_writeback.val();
                                self.tx_g.d[e].next = self.zero3.val();
                                self.state.d[e].next = self.st_flush.val();
                            } else {
                                self.tx_k.d[e].next = self.k_switch.val();
                                self.tx_r.d[e].next = self.flush_reg.val();
                                for i in 0..self._fast {
                                    if (self.ent_thread.q[e * nf + i].val()
                                        == self.flush_thread.val())
                                        & ((self.ent_reg.q[e * nf + i].val()
                                            & self.block_mask.val())
                                            == (self.flush_reg.val() & self.block_mask.val()))
                                    {
                                        self.ent_valid.d[e * nf + i].next = false;
                                        self.ent_dirty.d[e * nf + i].next = false;
                                    }
                                }
                                self.state.d[e].next = self.st_command.val();
                            }
                        }
                        // ---- A command answered.
                        if (self.state.q[e].val() == self.st_command.val())
                            & self.ans_valid[e].val()
                        {
                            self.rs_v.d[e].next = true;
                            self.rs_s.d[e].next = self.ans_status[e].val();
                            self.state.d[e].next = self.st_idle.val();
                        }
                        // ---- Reset.
                        if self.reset.val() {
                            self.state.d[e].next = self.st_idle.val();
                            self.tx_v.d[e].next = false;
                            self.rs_v.d[e].next = false;
                            for i in 0..self._fast {
                                self.ent_valid.d[e * nf + i].next = false;
                                self.ent_dirty.d[e * nf + i].next = false;
                            }
                        }
                    }
                }
            }
        }
    }
}
