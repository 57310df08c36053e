//! Golden model of the hierarchical GRF, cycle by cycle, written from `docs/grf.md`.
//!
//! It keeps the registered state of the design (front ends, controller, refill engine, table)
//! and computes every cycle from the values at the start of the cycle; the RTL must show the
//! same ready bits, responses and L3 requests in the same cycles.

use grfgen_hdl::params::{GrfOp, GrfParams, GrfStatus};
use serde::Serialize;

use super::l3::{L3Memory, L3Request};

mod controller;
mod front;
mod slow;

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
    /// A switch taken with `pipeline` 4: its block's dirty entries are known; the first
    /// write-back (or the switch) goes out this cycle.
    Scan,
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
    /// The pick stage (`pipeline` 1): the EU and the transaction picked, not yet taken.
    stage: Option<(usize, Transaction)>,
    /// Per EU: the controller's answer, visible in cycle `.0`.
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
            stage: None,
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
            && self.stage.is_none()
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
            && self.stage.is_none()
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
        // With the answer stage (`pipeline` 5), a front end acts on an answer a cycle after the
        // controller shows it.
        let acted = u64::from(self.params.answer_stage());
        for (eu, request) in requests.iter().enumerate().take(eus) {
            let answer = match &self.answers[eu] {
                Some((at, _)) if *at + acted == t => self.answers[eu].take().map(|(_, a)| a),
                _ => None,
            };
            self.front_end(eu, request.as_ref(), answer, &mut out);
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
}
