//! Request streams for the banked GPR: seeded random traffic and scripted sequences.

use std::collections::VecDeque;

use grfgen_hdl::params::GprParams;

use super::model::{GprRequests, GprResponse};
use crate::rng::Rng;

/// A source of GPR requests, one cycle at a time.
pub trait GprStimulus {
    /// Fills `requests` for cycle `cycle`; `last` is the GPR's answer to the previous cycle.
    /// Returns false when the stream has ended.
    fn next(&mut self, cycle: u64, last: &GprResponse, requests: &mut GprRequests) -> bool;
}

/// Seeded random traffic. Every port requests with probability `load`/100; a quarter of the
/// requests (`hot`/100) go to a few hot registers so that bank conflicts and same-register
/// read/write pairs are frequent; with `retry` a refused request is repeated unchanged, as a
/// real requester must: in the cycle after its refusal, which with registered arbitration is
/// two cycles after it was made (the port's request of the cycle between is its own).
#[derive(Clone, Debug)]
pub struct RandomTraffic {
    rng: Rng,
    registers: usize,
    hot_registers: usize,
    lanes: usize,
    /// Percent of ports that request in a cycle.
    pub load: u32,
    /// Percent of requests aimed at the hot registers.
    pub hot: u32,
    /// Whether refused requests are repeated.
    pub retry: bool,
    /// Cycles from a request to its grant (`GprParams::grant_latency`).
    grant_latency: usize,
    /// With a grant latency: the requests of the last `grant_latency + 1` cycles, oldest
    /// first (the oldest is the one the last response answers).
    unanswered: VecDeque<GprRequests>,
    /// Without a grant latency: the previous cycle's requests (kept to reuse its storage).
    previous: GprRequests,
}

impl RandomTraffic {
    /// Random traffic for `params` from `seed`, with load 75%, hot 25% and retries.
    pub fn new(params: &GprParams, seed: u64) -> Self {
        // Before cycle `t`, the requests of cycles `t - 1 - latency ..= t - 1`: none yet.
        let latency = params.grant_latency();
        let queued = if latency > 0 { latency + 1 } else { 0 };
        Self {
            grant_latency: latency,
            unanswered: std::iter::repeat_n(GprRequests::idle(params), queued).collect(),
            ..Self::shaped(params.registers, 2 * params.banks, params.lanes, seed)
        }
    }

    /// Random traffic over `registers` registers of `lanes` lanes, `hot_registers` of them
    /// hot, from `seed`, with load 75%, hot 25% and retries.
    pub fn shaped(registers: usize, hot_registers: usize, lanes: usize, seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
            registers,
            hot_registers: hot_registers.min(registers),
            lanes,
            load: 75,
            hot: 25,
            retry: true,
            grant_latency: 0,
            unanswered: VecDeque::new(),
            previous: GprRequests::default(),
        }
    }

    /// Fills every port of `requests` anew, except those `repeat` names (port kind and
    /// number: true for a read), which take their request from `answered`.
    fn fill(
        &mut self,
        requests: &mut GprRequests,
        answered: &GprRequests,
        repeat: impl Fn(bool, usize) -> bool,
    ) {
        for port in 0..requests.reads.len() {
            requests.reads[port] = match repeat(true, port) {
                true => answered.reads[port],
                false => self.rng.chance(self.load, 100).then(|| self.register()),
            };
        }
        for port in 0..requests.writes.len() {
            if repeat(false, port) {
                let lanes = port * self.lanes..(port + 1) * self.lanes;
                requests.writes[port] = answered.writes[port];
                requests.write_data[lanes.clone()].copy_from_slice(&answered.write_data[lanes]);
                continue;
            }
            requests.writes[port] = self.rng.chance(self.load, 100).then(|| self.register());
            for lane in 0..self.lanes {
                requests.write_data[port * self.lanes + lane] = self.rng.next_u64();
            }
        }
    }

    /// Fills every port of `requests` anew: for a file that refuses nothing.
    pub fn fresh(&mut self, requests: &mut GprRequests) {
        let none = GprRequests::sized(0, 0, 0);
        self.fill(requests, &none, |_, _| false);
    }

    fn register(&mut self) -> usize {
        if self.rng.chance(self.hot, 100) {
            self.rng.below(self.hot_registers)
        } else {
            self.rng.below(self.registers)
        }
    }
}

impl GprStimulus for RandomTraffic {
    fn next(&mut self, _cycle: u64, last: &GprResponse, requests: &mut GprRequests) -> bool {
        let retry = self.retry;
        // The requests `last` answers: the previous cycle's, or older with a grant latency.
        let mut answered = match self.unanswered.pop_front() {
            Some(older) => older,
            None => std::mem::take(&mut self.previous),
        };
        if self.grant_latency == 0 {
            answered.clone_from(requests);
        }
        self.fill(requests, &answered, |read, port| {
            let (asked, granted) = match read {
                true => (answered.reads[port].is_some(), last.read_grants[port]),
                false => (answered.writes[port].is_some(), last.write_grants[port]),
            };
            retry && asked && !granted
        });
        match self.grant_latency {
            0 => self.previous = answered,
            _ => {
                answered.clone_from(requests);
                self.unanswered.push_back(answered);
            }
        }
        true
    }
}

/// A fixed list of cycles, played once.
#[derive(Clone, Debug, Default)]
pub struct Script {
    cycles: Vec<GprRequests>,
}

impl Script {
    /// A script playing `cycles` in order.
    pub fn new(cycles: Vec<GprRequests>) -> Self {
        Self { cycles }
    }
}

impl GprStimulus for Script {
    fn next(&mut self, cycle: u64, _last: &GprResponse, requests: &mut GprRequests) -> bool {
        match self.cycles.get(cycle as usize) {
            Some(next) => {
                requests.clone_from(next);
                true
            }
            None => false,
        }
    }
}
