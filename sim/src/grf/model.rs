//! Golden model of the hierarchical GRF, cycle by cycle, written from `docs/grf.md`.
//!
//! It keeps the registered state of the design (front ends, controller, refill engine, table)
//! and computes every cycle from the values at the start of the cycle; the RTL must show the
//! same ready bits, responses and L3 requests in the same cycles.

use grfgen_hdl::params::{GrfOp, GrfParams, GrfStatus};
use serde::Serialize;

use super::l3::{L3Memory, L3Request};
use crate::bits::element_mask;

/// One request of an EU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrfRequest {
    /// Thread within the EU.
    pub thread: usize,
    /// Operation.
    pub op: GrfOp,
    /// Virtual register (`read`, `write`) or 16 x virtual block (`alloc`, `release`, `switch`).
    pub reg: usize,
    /// Group for `alloc` (0 private) and `wait`.
    pub group: usize,
    /// Lanes for `write`.
    pub data: Vec<u64>,
}

/// One response to an EU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrfResponse {
    /// Status.
    pub status: GrfStatus,
    /// Lanes (for a successful `read`; zero otherwise).
    pub data: Vec<u64>,
}

/// What the GRF shows in one cycle.
#[derive(Clone, Debug, Default)]
pub struct GrfCycle {
    /// Per EU: a request presented this cycle is taken.
    pub ready: Vec<bool>,
    /// Per EU: the response visible this cycle.
    pub responses: Vec<Option<GrfResponse>>,
    /// The request on the L3 port this cycle.
    pub l3: Option<L3Request>,
}

/// Access counts and energy of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GrfStats {
    /// EU reads and writes taken.
    pub accesses: u64,
    /// Of them, served by the fast GRF.
    pub fast_hits: u64,
    /// Of them, sent to the slow GRF (misses, shared, faulting).
    pub fast_misses: u64,
    /// Fast GRF reads and writes (hits and fills).
    pub fast_accesses: u64,
    /// Slow GRF reads and writes (low-energy part).
    pub slow_accesses_low: u64,
    /// Slow GRF reads and writes (high-capacity part).
    pub slow_accesses_high: u64,
    /// L3 reads.
    pub l3_reads: u64,
    /// L3 writes.
    pub l3_writes: u64,
    /// Requests answered with a fault.
    pub faults: u64,
    /// Reads served from L3 during a refill.
    pub redirects: u64,
    /// Reads and writes of shared registers (data exchanged between threads and EUs through
    /// the slow GRF).
    pub shared_accesses: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Read,
    /// A write the front end keeps if the register is private (write miss).
    WriteMiss,
    /// A write that always goes to the slow GRF (shared, or the flat design).
    Write,
    Writeback,
    Alloc,
    Release,
    Wait,
    Switch,
}

#[derive(Clone, Debug)]
struct Transaction {
    kind: Kind,
    thread: usize,
    reg: usize,
    group: usize,
    data: Vec<u64>,
}

#[derive(Clone, Debug)]
struct Answer {
    status: GrfStatus,
    shared: bool,
    data: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
struct Entry {
    valid: bool,
    dirty: bool,
    thread: usize,
    reg: usize,
    data: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Front {
    Idle,
    /// Waiting for the answer to a miss.
    Access,
    /// Waiting for the victim's write-back; then fill.
    Victim,
    /// Writing back the block's dirty entries before a switch.
    Flush,
    /// Waiting for a command's answer.
    Command,
}

#[derive(Clone, Debug)]
struct FrontEnd {
    state: Front,
    request: Option<GrfRequest>,
    central: Option<Transaction>,
    response: Option<GrfResponse>,
    /// The answer to fill with once the victim is written back.
    fill: Option<Answer>,
    entries: Vec<Entry>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Mapping {
    valid: bool,
    block: usize,
    shared: bool,
    group: usize,
}

#[derive(Clone, Debug, Default)]
struct Group {
    bound: bool,
    block: usize,
    refs: usize,
    count: usize,
    passed: usize,
    waiting: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Controller {
    Idle,
    /// A slow read for `eu`, answered at `at`.
    SlowRead {
        at: u64,
    },
    /// A read served from L3 address `addr`; `answer` is when L3 answers once issued.
    Redirect {
        eu: usize,
        addr: usize,
        answer: Option<u64>,
    },
    /// A switch of physical `block` waiting for the refill engine.
    SwitchWait {
        eu: usize,
        block: usize,
    },
    /// Saving physical `block` from cycle `start`.
    Save {
        eu: usize,
        block: usize,
        start: u64,
    },
}

#[derive(Clone, Debug, Default)]
struct Engine {
    busy: bool,
    block: usize,
    area: usize,
    pending: u16,
    in_flight: Option<(usize, u64)>,
    hold: Option<(usize, Vec<u64>)>,
}

/// The hierarchical GRF.
#[derive(Clone, Debug)]
pub struct GrfModel {
    params: GrfParams,
    flat: bool,
    cycle: u64,
    front: Vec<FrontEnd>,
    table: Vec<Mapping>,
    free: Vec<bool>,
    groups: Vec<Group>,
    parity: Vec<bool>,
    slow: Vec<Vec<u64>>,
    controller: Controller,
    last_served: usize,
    /// Per EU: the controller's answer visible from cycle `.0`.
    answers: Vec<Option<(u64, Answer)>>,
    engine: Engine,
    /// The refill engine as the save phase leaves it, taking over next cycle.
    armed: Option<Engine>,
    l3: L3Memory,
    stats: GrfStats,
}

impl GrfModel {
    /// A GRF at reset with `l3` behind it; `flat` removes the fast GRFs (every access goes to
    /// the slow GRF).
    pub fn new(params: &GrfParams, flat: bool, l3: L3Memory) -> Self {
        let lanes = params.lanes;
        let mut table = vec![Mapping::default(); params.all_threads() * params.virtual_blocks];
        let mut free = vec![true; params.blocks()];
        for t in 0..params.all_threads() {
            for v in 0..params.virtual_blocks {
                if let Some(b) = params.preallocation(t, v) {
                    table[t * params.virtual_blocks + v] = Mapping {
                        valid: true,
                        block: b,
                        shared: false,
                        group: 0,
                    };
                    free[b] = false;
                }
            }
        }
        Self {
            flat,
            cycle: 0,
            front: (0..params.eus)
                .map(|_| FrontEnd {
                    state: Front::Idle,
                    request: None,
                    central: None,
                    response: None,
                    fill: None,
                    entries: vec![Entry::default(); if flat { 0 } else { params.fast_regs }],
                })
                .collect(),
            table,
            free,
            groups: (0..=GrfParams::GROUPS)
                .map(|_| Group {
                    waiting: vec![false; params.eus],
                    ..Default::default()
                })
                .collect(),
            parity: vec![false; params.blocks()],
            slow: vec![vec![0; lanes]; params.slow_regs],
            controller: Controller::Idle,
            last_served: params.eus - 1,
            answers: vec![None; params.eus],
            engine: Engine::default(),
            armed: None,
            l3,
            stats: GrfStats::default(),
            params: params.clone(),
        }
    }

    /// Counts so far.
    pub fn stats(&self) -> &GrfStats {
        &self.stats
    }

    /// The responses visible in the coming cycle (before it is stepped).
    pub fn visible(&self) -> Vec<Option<GrfResponse>> {
        self.front.iter().map(|f| f.response.clone()).collect()
    }

    /// Whether nothing is in progress: every front end idle with no response due, the
    /// controller idle, the refill engine done.
    pub fn idle(&self) -> bool {
        self.front
            .iter()
            .all(|f| f.state == Front::Idle && f.response.is_none())
            && self.controller == Controller::Idle
            && !self.engine.busy
    }

    /// Whether nothing can happen without a new request: every front end idle or parked on a
    /// `wait` (its transaction taken, no answer due), the controller idle, the refill engine
    /// done.
    pub fn parked(&self) -> bool {
        self.front.iter().all(|f| {
            f.response.is_none()
                && (f.state == Front::Idle || (f.state == Front::Command && f.central.is_none()))
        }) && self.answers.iter().all(Option::is_none)
            && self.controller == Controller::Idle
            && !self.engine.busy
            && self.armed.is_none()
    }

    fn zero(&self) -> Vec<u64> {
        vec![0; self.params.lanes]
    }

    fn fast_index(&self, thread: usize, reg: usize) -> usize {
        self.params.fast_index(thread, reg)
    }

    fn count_slow(&mut self, reg: usize) {
        if reg / GrfParams::BLOCK < self.params.low_energy_blocks {
            self.stats.slow_accesses_low += 1;
        } else {
            self.stats.slow_accesses_high += 1;
        }
    }

    /// Runs one cycle with the EUs' `requests` (one optional request per EU).
    pub fn step(&mut self, requests: &[Option<GrfRequest>]) -> GrfCycle {
        let t = self.cycle;
        let eus = self.params.eus;
        let mut out = GrfCycle {
            ready: vec![false; eus],
            responses: self.front.iter_mut().map(|f| f.response.take()).collect(),
            l3: None,
        };
        let l3_answer = self.l3.answer(t);
        let pending_at_start = self.engine.pending;
        // Answers the controller makes visible next cycle.
        let mut next_answers: Vec<Option<Answer>> = vec![None; eus];
        let mut slow_write_now = false;

        self.control(
            t,
            &l3_answer,
            &mut next_answers,
            &mut out,
            &mut slow_write_now,
        );
        self.refill(t, &l3_answer, slow_write_now, pending_at_start, &mut out);
        if let Some(engine) = self.armed.take() {
            self.engine = engine;
        }
        for eu in 0..eus {
            let answer = match &self.answers[eu] {
                Some((at, _)) if *at == t => self.answers[eu].take().map(|(_, a)| a),
                _ => None,
            };
            self.front_end(eu, requests[eu].as_ref(), answer, &mut out);
        }
        for (eu, answer) in next_answers.into_iter().enumerate() {
            if let Some(a) = answer {
                self.answers[eu] = Some((t + 1, a));
            }
        }
        if let Some(r) = &out.l3 {
            if r.write {
                self.stats.l3_writes += 1;
            } else {
                self.stats.l3_reads += 1;
            }
            self.l3.request(t, r);
        }
        self.cycle += 1;
        out
    }

    /// Front end of `eu` for one cycle.
    fn front_end(
        &mut self,
        eu: usize,
        request: Option<&GrfRequest>,
        answer: Option<Answer>,
        out: &mut GrfCycle,
    ) {
        let state = self.front[eu].state;
        match state {
            Front::Idle => {
                out.ready[eu] = true;
                if let Some(r) = request {
                    self.accept(eu, r.clone());
                }
            }
            Front::Access => {
                if let Some(a) = answer {
                    self.access_answered(eu, a);
                }
            }
            Front::Victim => {
                if answer.is_some() {
                    let fill = self.front[eu]
                        .fill
                        .take()
                        .expect("victim state keeps the fill");
                    self.fill(eu, fill);
                }
            }
            Front::Flush => {
                if answer.is_some() {
                    self.flush_next(eu);
                }
            }
            Front::Command => {
                if let Some(a) = answer {
                    self.respond(eu, a.status, a.data);
                }
            }
        }
    }

    fn respond(&mut self, eu: usize, status: GrfStatus, data: Vec<u64>) {
        if status != GrfStatus::Ok {
            self.stats.faults += 1;
        }
        let f = &mut self.front[eu];
        f.response = Some(GrfResponse { status, data });
        f.state = Front::Idle;
        f.request = None;
    }

    fn send(&mut self, eu: usize, kind: Kind, data: Vec<u64>, state: Front) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("a request is in progress");
        self.front[eu].central = Some(Transaction {
            kind,
            thread: eu * self.params.threads + r.thread,
            reg: r.reg,
            group: r.group,
            data,
        });
        self.front[eu].state = state;
    }

    fn accept(&mut self, eu: usize, mut r: GrfRequest) {
        let fast = !self.flat;
        let mask = element_mask(self.params.element_bits);
        r.data.iter_mut().for_each(|v| *v &= mask);
        self.front[eu].request = Some(r.clone());
        match r.op {
            GrfOp::Read | GrfOp::Write => {
                self.stats.accesses += 1;
                let i = self.fast_index(r.thread, r.reg);
                let hit = fast && {
                    let e = &self.front[eu].entries[i];
                    e.valid && e.thread == r.thread && e.reg == r.reg
                };
                if hit {
                    self.stats.fast_hits += 1;
                    self.stats.fast_accesses += 1;
                    let e = &mut self.front[eu].entries[i];
                    let data = if r.op == GrfOp::Write {
                        e.data = r.data.clone();
                        e.dirty = true;
                        vec![0; r.data.len()]
                    } else {
                        e.data.clone()
                    };
                    self.respond(eu, GrfStatus::Ok, data);
                } else {
                    self.stats.fast_misses += 1;
                    let kind = match (r.op, fast) {
                        (GrfOp::Read, _) => Kind::Read,
                        (_, true) => Kind::WriteMiss,
                        (_, false) => Kind::Write,
                    };
                    self.send(eu, kind, r.data.clone(), Front::Access);
                }
            }
            GrfOp::Alloc => self.send(eu, Kind::Alloc, self.zero(), Front::Command),
            GrfOp::Wait => self.send(eu, Kind::Wait, self.zero(), Front::Command),
            GrfOp::Release => {
                self.invalidate_block(eu, r.thread, r.reg / GrfParams::BLOCK);
                self.send(eu, Kind::Release, self.zero(), Front::Command);
            }
            GrfOp::Switch => self.flush_next(eu),
        }
    }

    /// Switch: write back the next dirty entry of the block, or invalidate and send the switch.
    fn flush_next(&mut self, eu: usize) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("a switch is in progress");
        let block = r.reg / GrfParams::BLOCK;
        let dirty = self.front[eu].entries.iter().position(|e| {
            e.valid && e.dirty && e.thread == r.thread && e.reg / GrfParams::BLOCK == block
        });
        match dirty {
            Some(i) => {
                let e = &mut self.front[eu].entries[i];
                e.dirty = false;
                let transaction = Transaction {
                    kind: Kind::Writeback,
                    thread: eu * self.params.threads + e.thread,
                    reg: e.reg,
                    group: 0,
                    data: e.data.clone(),
                };
                self.front[eu].central = Some(transaction);
                self.front[eu].state = Front::Flush;
            }
            None => {
                self.invalidate_block(eu, r.thread, block);
                self.send(eu, Kind::Switch, self.zero(), Front::Command);
            }
        }
    }

    fn invalidate_block(&mut self, eu: usize, thread: usize, block: usize) {
        for e in &mut self.front[eu].entries {
            if e.valid && e.thread == thread && e.reg / GrfParams::BLOCK == block {
                e.valid = false;
                e.dirty = false;
            }
        }
    }

    fn access_answered(&mut self, eu: usize, a: Answer) {
        if a.status != GrfStatus::Ok || a.shared || self.flat {
            let data = if a.status == GrfStatus::Ok {
                a.data
            } else {
                self.zero()
            };
            return self.respond(eu, a.status, data);
        }
        let r = self.front[eu]
            .request
            .clone()
            .expect("an access is in progress");
        let i = self.fast_index(r.thread, r.reg);
        let victim = self.front[eu].entries[i].clone();
        if victim.valid && victim.dirty {
            self.front[eu].fill = Some(a);
            self.front[eu].central = Some(Transaction {
                kind: Kind::Writeback,
                thread: eu * self.params.threads + victim.thread,
                reg: victim.reg,
                group: 0,
                data: victim.data,
            });
            self.front[eu].state = Front::Victim;
        } else {
            self.fill(eu, a);
        }
    }

    fn fill(&mut self, eu: usize, a: Answer) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("an access is in progress");
        let i = self.fast_index(r.thread, r.reg);
        let write = r.op == GrfOp::Write;
        self.front[eu].entries[i] = Entry {
            valid: true,
            dirty: write,
            thread: r.thread,
            reg: r.reg,
            data: if write {
                r.data.clone()
            } else {
                a.data.clone()
            },
        };
        self.stats.fast_accesses += 1;
        let data = if write { self.zero() } else { a.data };
        self.respond(eu, GrfStatus::Ok, data);
    }

    /// The controller for one cycle.
    fn control(
        &mut self,
        t: u64,
        l3_answer: &Option<Vec<u64>>,
        next: &mut [Option<Answer>],
        out: &mut GrfCycle,
        slow_write_now: &mut bool,
    ) {
        let latency = self.params.slow_latency as u64;
        match self.controller.clone() {
            Controller::Idle => {}
            Controller::SlowRead { at } => {
                if at == t {
                    self.controller = Controller::Idle;
                } else {
                    return;
                }
            }
            Controller::Redirect { eu, addr, answer } => {
                match answer {
                    None => {
                        if self.engine.in_flight.is_none() {
                            out.l3 = Some(L3Request {
                                write: false,
                                addr,
                                data: self.zero(),
                            });
                            self.controller = Controller::Redirect {
                                eu,
                                addr,
                                answer: Some(t + self.l3.latency()),
                            };
                        }
                    }
                    Some(at) if at == t => {
                        let data = l3_answer.clone().expect("L3 answers in time");
                        next[eu] = Some(Answer {
                            status: GrfStatus::Ok,
                            shared: self.redirect_shared(eu),
                            data,
                        });
                        self.controller = Controller::Idle;
                        // The controller is busy until its answer is visible.
                        return;
                    }
                    Some(_) => {}
                }
                return;
            }
            Controller::SwitchWait { eu, block } => {
                if self.engine.busy {
                    return;
                }
                self.controller = Controller::Save {
                    eu,
                    block,
                    start: t,
                };
                self.save(t, out);
                return;
            }
            Controller::Save { .. } => {
                self.save(t, out);
                return;
            }
        }
        // Idle: take the next transaction, round robin.
        let eus = self.params.eus;
        let Some(eu) = (1..=eus)
            .map(|k| (self.last_served + k) % eus)
            .find(|&e| self.front[e].central.is_some())
        else {
            return;
        };
        self.last_served = eu;
        let tx = self.front[eu].central.take().expect("found");
        let vb = tx.reg / GrfParams::BLOCK;
        let slot = tx.thread * self.params.virtual_blocks + vb;
        let map = self.table[slot];
        let fault = |status| {
            Some(Answer {
                status,
                shared: false,
                data: vec![0; self.params.lanes],
            })
        };
        match tx.kind {
            Kind::Read | Kind::WriteMiss | Kind::Write | Kind::Writeback => {
                if !map.valid {
                    next[eu] = fault(GrfStatus::Unmapped);
                    return;
                }
                let phys = map.block * GrfParams::BLOCK + tx.reg % GrfParams::BLOCK;
                if map.shared {
                    self.stats.shared_accesses += 1;
                    // The access count saturates (8 bits in the RTL).
                    let count = &mut self.groups[map.group].count;
                    *count = (*count + 1).min(255);
                }
                let refilling = self.engine.busy
                    && self.engine.block == map.block
                    && self.engine.pending & (1 << (tx.reg % GrfParams::BLOCK)) != 0;
                match tx.kind {
                    Kind::Read => {
                        if refilling {
                            self.stats.redirects += 1;
                            let addr = self.engine.area * self.params.slow_regs
                                + map.block * GrfParams::BLOCK
                                + tx.reg % 16;
                            self.controller = Controller::Redirect {
                                eu,
                                addr,
                                answer: None,
                            };
                            // The redirect can go out this very cycle.
                            if self.engine.in_flight.is_none() {
                                out.l3 = Some(L3Request {
                                    write: false,
                                    addr,
                                    data: self.zero(),
                                });
                                self.controller = Controller::Redirect {
                                    eu,
                                    addr,
                                    answer: Some(t + self.l3.latency()),
                                };
                            }
                        } else {
                            self.count_slow(phys);
                            self.answers[eu] = Some((
                                t + latency,
                                Answer {
                                    status: GrfStatus::Ok,
                                    shared: map.shared,
                                    data: self.slow[phys].clone(),
                                },
                            ));
                            self.controller = Controller::SlowRead { at: t + latency };
                        }
                    }
                    _ => {
                        let keep = tx.kind == Kind::WriteMiss && !map.shared;
                        if !keep {
                            let mask = element_mask(self.params.element_bits);
                            self.slow[phys] = tx.data.iter().map(|v| v & mask).collect();
                            self.count_slow(phys);
                            *slow_write_now = true;
                            if refilling {
                                self.engine.pending &= !(1 << (tx.reg % GrfParams::BLOCK));
                            }
                        }
                        next[eu] = Some(Answer {
                            status: GrfStatus::Ok,
                            shared: map.shared,
                            data: self.zero(),
                        });
                    }
                }
                if map.shared {
                    self.open_barrier(map.group, next);
                }
            }
            Kind::Alloc => {
                if map.valid {
                    next[eu] = fault(GrfStatus::AlreadyMapped);
                    return;
                }
                let g = tx.group;
                if g > 0 && self.groups[g].bound {
                    self.groups[g].refs += 1;
                    self.table[slot] = Mapping {
                        valid: true,
                        block: self.groups[g].block,
                        shared: true,
                        group: g,
                    };
                } else {
                    let Some(block) = self.pick_block(tx.thread, vb) else {
                        next[eu] = fault(GrfStatus::NoFreeBlock);
                        return;
                    };
                    self.free[block] = false;
                    self.table[slot] = Mapping {
                        valid: true,
                        block,
                        shared: g > 0,
                        group: g,
                    };
                    if g > 0 {
                        let group = &mut self.groups[g];
                        group.bound = true;
                        group.block = block;
                        group.refs = 1;
                        group.count = 0;
                        group.passed = 0;
                    }
                }
                next[eu] = Some(Answer {
                    status: GrfStatus::Ok,
                    shared: false,
                    data: self.zero(),
                });
            }
            Kind::Release => {
                if !map.valid {
                    next[eu] = fault(GrfStatus::NotOwned);
                    return;
                }
                self.table[slot] = Mapping::default();
                next[eu] = Some(Answer {
                    status: GrfStatus::Ok,
                    shared: false,
                    data: self.zero(),
                });
                if !map.shared {
                    self.free[map.block] = true;
                } else {
                    let g = map.group;
                    self.groups[g].refs -= 1;
                    if self.groups[g].refs == 0 {
                        self.free[map.block] = true;
                        let group = &mut self.groups[g];
                        group.bound = false;
                        group.count = 0;
                        group.passed = 0;
                        for w in 0..self.params.eus {
                            if group.waiting[w] {
                                group.waiting[w] = false;
                                next[w] = Some(Answer {
                                    status: GrfStatus::NoSuchGroup,
                                    shared: false,
                                    data: vec![0; self.params.lanes],
                                });
                            }
                        }
                    } else {
                        self.open_barrier(g, next);
                    }
                }
            }
            Kind::Wait => {
                let g = tx.group;
                if g == 0 || g > GrfParams::GROUPS || !self.groups[g].bound {
                    next[eu] = fault(GrfStatus::NoSuchGroup);
                    return;
                }
                self.groups[g].waiting[eu] = true;
                self.open_barrier(g, next);
            }
            Kind::Switch => {
                if !map.valid {
                    next[eu] = fault(GrfStatus::Unmapped);
                    return;
                }
                self.controller = Controller::SwitchWait {
                    eu,
                    block: map.block,
                };
                if !self.engine.busy {
                    self.controller = Controller::Save {
                        eu,
                        block: map.block,
                        start: t,
                    };
                    self.save(t, out);
                }
            }
        }
    }

    /// Whether the register a redirect serves is shared (for the front end's fill decision).
    fn redirect_shared(&self, eu: usize) -> bool {
        let r = self.front[eu]
            .request
            .as_ref()
            .expect("a read is in progress");
        let thread = eu * self.params.threads + r.thread;
        self.table[thread * self.params.virtual_blocks + r.reg / GrfParams::BLOCK].shared
    }

    /// Opens group `g`'s barrier if its accesses reach its reference count.
    fn open_barrier(&mut self, g: usize, next: &mut [Option<Answer>]) {
        let lanes = self.params.lanes;
        let group = &mut self.groups[g];
        if !group.bound || group.count < group.refs {
            return;
        }
        for w in 0..group.waiting.len() {
            if group.waiting[w] {
                group.waiting[w] = false;
                group.passed += 1;
                next[w] = Some(Answer {
                    status: GrfStatus::Ok,
                    shared: false,
                    data: vec![0; lanes],
                });
            }
        }
        if group.passed >= group.refs {
            group.count = 0;
            group.passed = 0;
        }
    }

    /// The lowest free block, in the part the mapping policy picks first.
    fn pick_block(&self, thread: usize, vb: usize) -> Option<usize> {
        let low = self.params.low_energy_blocks;
        let blocks = self.params.blocks();
        let first = |range: std::ops::Range<usize>| range.into_iter().find(|&b| self.free[b]);
        if self.params.wants_low_energy(thread, vb) {
            first(0..low).or_else(|| first(low..blocks))
        } else {
            first(low..blocks).or_else(|| first(0..low))
        }
    }

    /// One cycle of a switch's save phase.
    fn save(&mut self, t: u64, out: &mut GrfCycle) {
        let Controller::Save { eu, block, start } = self.controller.clone() else {
            unreachable!("called in the save phase")
        };
        let latency = self.params.slow_latency as u64;
        let step = t - start;
        if step < 16 {
            self.count_slow(block * GrfParams::BLOCK);
        }
        if step >= latency && step < latency + 16 {
            let offset = (step - latency) as usize;
            let area = self.parity[block] as usize;
            out.l3 = Some(L3Request {
                write: true,
                addr: area * self.params.slow_regs + block * GrfParams::BLOCK + offset,
                data: self.slow[block * GrfParams::BLOCK + offset].clone(),
            });
        }
        if step == latency + 15 {
            // Answer and arm the refill: both visible next cycle.
            self.answers[eu] = Some((
                t + 1,
                Answer {
                    status: GrfStatus::Ok,
                    shared: false,
                    data: self.zero(),
                },
            ));
            self.parity[block] = !self.parity[block];
            self.armed = Some(Engine {
                busy: true,
                block,
                area: self.parity[block] as usize,
                pending: 0xffff,
                in_flight: None,
                hold: None,
            });
            self.controller = Controller::Idle;
        }
    }

    /// The refill engine for one cycle.
    fn refill(
        &mut self,
        t: u64,
        l3_answer: &Option<Vec<u64>>,
        slow_write_now: bool,
        pending_at_start: u16,
        out: &mut GrfCycle,
    ) {
        if !self.engine.busy {
            return;
        }
        let held = self.engine.hold.take();
        let in_flight = self.engine.in_flight;
        // A held answer goes into the slow GRF unless the controller writes it this cycle.
        if let Some((offset, data)) = held.clone() {
            if slow_write_now {
                self.engine.hold = Some((offset, data));
            } else if self.engine.pending & (1 << offset) != 0 {
                let phys = self.engine.block * GrfParams::BLOCK + offset;
                self.slow[phys] = data;
                self.count_slow(phys);
                self.engine.pending &= !(1 << offset);
            }
        }
        // The next read, when nothing is outstanding and the port is free.
        let controller_reading = matches!(
            self.controller,
            Controller::Redirect {
                answer: Some(_),
                ..
            }
        );
        if in_flight.is_none() && held.is_none() && out.l3.is_none() && !controller_reading {
            if let Some(offset) = (0..16).find(|o| pending_at_start & (1 << o) != 0) {
                out.l3 = Some(L3Request {
                    write: false,
                    addr: self.engine.area * self.params.slow_regs
                        + self.engine.block * GrfParams::BLOCK
                        + offset,
                    data: self.zero(),
                });
                self.engine.in_flight = Some((offset, t + self.l3.latency()));
            }
        }
        // An answer arrives: held for the next cycle.
        if let Some((offset, due)) = in_flight {
            if due == t {
                self.engine.in_flight = None;
                self.engine.hold = Some((offset, l3_answer.clone().expect("L3 answers in time")));
            }
        }
        if self.engine.pending == 0 && self.engine.in_flight.is_none() && self.engine.hold.is_none()
        {
            self.engine.busy = false;
        }
    }
}
