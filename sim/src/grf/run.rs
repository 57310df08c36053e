//! Running a trace through the GRF: the golden model alone or in lock step with the RTL.

use grfgen_hdl::params::GrfParams;
use serde::Serialize;

use super::l3::L3Memory;
use super::model::{GrfCycle, GrfModel, GrfRequest, GrfStats};
use super::trace::{Step, Trace};
use crate::check::Mismatch;

/// Energy per access of one 32-bit element, in pJ (an access moves `lanes x element_bits`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Energy {
    /// Fast GRF.
    pub fast_pj: f64,
    /// Slow GRF, low-energy part (variant B).
    pub slow_low_pj: f64,
    /// Slow GRF, high-capacity part (the whole slow GRF without variant B).
    pub slow_pj: f64,
    /// L3.
    pub l3_pj: f64,
}

impl Default for Energy {
    /// Illustrative defaults (docs/grf.md says where the ratios come from).
    fn default() -> Self {
        Self {
            fast_pj: 0.5,
            slow_low_pj: 1.5,
            slow_pj: 3.0,
            l3_pj: 30.0,
        }
    }
}

impl Energy {
    /// The energy of `stats`' accesses, in pJ.
    pub fn total(&self, stats: &GrfStats, params: &GrfParams) -> f64 {
        let elements = (params.lanes * params.element_bits) as f64 / 32.0;
        elements
            * (stats.fast_accesses as f64 * self.fast_pj
                + stats.slow_accesses_low as f64 * self.slow_low_pj
                + stats.slow_accesses_high as f64 * self.slow_pj
                + (stats.l3_reads + stats.l3_writes) as f64 * self.l3_pj)
    }
}

/// The other side of a lock-step run: the RTL with its own L3.
pub trait Device {
    /// Runs cycle `cycle` with the EUs' `requests` and compares with `expected`.
    fn cycle(
        &mut self,
        cycle: u64,
        requests: &[Option<GrfRequest>],
        expected: &GrfCycle,
    ) -> Option<Mismatch>;
}

/// The outcome of one run.
#[derive(Clone, Debug, Serialize)]
pub struct GrfRun {
    /// Cycles until every EU finished its trace and the GRF went idle.
    pub cycles: u64,
    /// Counts.
    #[serde(flatten)]
    pub stats: GrfStats,
    /// Slow GRF accesses, both parts.
    pub slow_accesses: u64,
    /// Energy of the accesses, pJ.
    pub energy_pj: f64,
    /// Whether some EU never finished: parked on a barrier nobody can open any more, or still
    /// busy at the cycle limit.
    pub stuck: bool,
    /// Mismatches against the RTL (the run stops at the first).
    pub mismatches: u64,
    /// The first mismatch.
    pub first_mismatch: Option<Mismatch>,
}

/// Runs `trace` through the GRF (flat: without fast GRFs) with an L3 of `l3_latency`, its
/// contents from `seed`; `device` runs in lock step when given. Gives up after `limit` cycles.
#[allow(clippy::too_many_arguments)]
pub fn run(
    params: &GrfParams,
    trace: &Trace,
    flat: bool,
    l3_latency: u64,
    seed: u64,
    energy: &Energy,
    limit: u64,
    mut device: Option<&mut dyn Device>,
) -> GrfRun {
    let l3 = new_l3(params, l3_latency, seed);
    let mut model = GrfModel::new(params, flat, l3);
    let eus = params.eus;
    let mut next = vec![0usize; eus];
    let mut outstanding = vec![false; eus];
    let mut idle_until = vec![0u64; eus];
    let mut first_mismatch = None;
    let mut deadlocked = false;
    let mut cycle = 0;
    while cycle < limit {
        let visible = model.visible();
        for eu in 0..eus {
            if visible[eu].is_some() {
                outstanding[eu] = false;
            }
        }
        let mut requests: Vec<Option<GrfRequest>> = vec![None; eus];
        for eu in 0..eus {
            if outstanding[eu] || cycle < idle_until[eu] {
                continue;
            }
            match trace[eu].get(next[eu]) {
                Some(Step::Idle(n)) => {
                    idle_until[eu] = cycle + n;
                    next[eu] += 1;
                }
                Some(Step::Request(r)) => requests[eu] = Some(r.clone()),
                None => {}
            }
        }
        let out = model.step(&requests);
        if let Some(device) = device.as_deref_mut() {
            if let Some(m) = device.cycle(cycle, &requests, &out) {
                first_mismatch = Some(m);
                break;
            }
        }
        for eu in 0..eus {
            if requests[eu].is_some() && out.ready[eu] {
                outstanding[eu] = true;
                next[eu] += 1;
            }
        }
        cycle += 1;
        let finished = (0..eus).all(|eu| next[eu] >= trace[eu].len() && !outstanding[eu]);
        if finished && model.idle() {
            break;
        }
        // Every EU done or parked on a barrier nobody can open any more.
        let blocked = (0..eus).all(|eu| next[eu] >= trace[eu].len() || outstanding[eu]);
        if blocked && model.parked() {
            deadlocked = true;
            break;
        }
    }
    let stats = model.stats().clone();
    GrfRun {
        cycles: cycle,
        slow_accesses: stats.slow_accesses_low + stats.slow_accesses_high,
        energy_pj: energy.total(&stats, params),
        stats,
        stuck: deadlocked || cycle >= limit,
        mismatches: first_mismatch.is_some() as u64,
        first_mismatch,
    }
}

/// The L3 both sides of a run start from: `2 * slow_regs` words (two context areas per block).
pub fn new_l3(params: &GrfParams, latency: u64, seed: u64) -> L3Memory {
    L3Memory::new(
        2 * params.slow_regs,
        params.lanes,
        params.element_bits,
        latency,
        seed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grf::model::{GrfOp, Status};
    use crate::grf::workload::{builtin, NAMES};

    /// Drives `trace` and checks every read of a private register against the last value the
    /// thread wrote (the workloads used here have no switches and no shared blocks).
    fn reads_return_last_writes(params: &GrfParams, trace: &Trace, flat: bool) -> u64 {
        let l3 = new_l3(params, 10, 1);
        let mut model = GrfModel::new(params, flat, l3);
        let eus = params.eus;
        let mut next = vec![0usize; eus];
        let mut pending: Vec<Option<GrfRequest>> = vec![None; eus];
        let mut memory = std::collections::HashMap::new();
        let mut checked = 0;
        for _ in 0..200_000 {
            let visible = model.visible();
            for eu in 0..eus {
                if let Some(response) = &visible[eu] {
                    let r = pending[eu].take().expect("a response answers a request");
                    assert_eq!(response.status, Status::Ok);
                    let key = (eu, r.thread, r.reg);
                    match r.op {
                        GrfOp::Write => {
                            let mask = crate::bits::element_mask(params.element_bits);
                            memory.insert(key, r.data.iter().map(|v| v & mask).collect::<Vec<_>>());
                        }
                        GrfOp::Read => {
                            if let Some(v) = memory.get(&key) {
                                assert_eq!(&response.data, v, "{key:?}");
                                checked += 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
            let mut requests = vec![None; eus];
            for eu in 0..eus {
                if pending[eu].is_none() {
                    if let Some(Step::Request(r)) = trace[eu].get(next[eu]) {
                        requests[eu] = Some(r.clone());
                    }
                }
            }
            let out = model.step(&requests);
            for eu in 0..eus {
                if requests[eu].is_some() && out.ready[eu] {
                    pending[eu] = requests[eu].take();
                    next[eu] += 1;
                }
            }
            if (0..eus).all(|e| next[e] >= trace[e].len() && pending[e].is_none()) && model.idle() {
                break;
            }
        }
        checked
    }

    #[test]
    fn private_registers_read_back_their_last_write_through_evictions() {
        for fast in [2, 8, 32] {
            let params = GrfParams {
                fast_regs: fast,
                ..GrfParams::default()
            };
            for name in ["private-hot", "streaming"] {
                let trace = builtin(name, &params, 3, 6).unwrap();
                for flat in [false, true] {
                    let checked = reads_return_last_writes(&params, &trace, flat);
                    assert!(checked > 100, "{name} fast {fast} flat {flat}: {checked}");
                }
            }
        }
    }

    #[test]
    fn every_workload_finishes_and_the_fast_level_saves_energy() {
        let params = GrfParams::default();
        for name in NAMES {
            let trace = builtin(name, &params, 5, 4).unwrap();
            let hier = run(
                &params,
                &trace,
                false,
                10,
                5,
                &Energy::default(),
                100_000,
                None,
            );
            let flat = run(
                &params,
                &trace,
                true,
                10,
                5,
                &Energy::default(),
                100_000,
                None,
            );
            assert!(!hier.stuck && !flat.stuck, "{name}");
            assert_eq!(hier.stats.accesses, flat.stats.accesses, "{name}");
            if name == "private-hot" {
                assert!(
                    hier.stats.fast_hits * 2 > hier.stats.accesses,
                    "{:?}",
                    hier.stats
                );
                assert!(hier.energy_pj < flat.energy_pj);
                assert!(hier.cycles < flat.cycles);
            }
            if name == "faults" {
                assert!(hier.stats.faults > 0);
            }
            if name == "context-switch" {
                assert!(
                    hier.stats.l3_writes > 0 && hier.stats.l3_reads > 0 && hier.stats.redirects > 0,
                    "{:?}",
                    hier.stats
                );
            }
        }
    }
}
