//! Running a trace through the GRF: the golden model alone or in lock step with the RTL, and
//! what a run reports.

use grfgen_hdl::params::{GrfParams, Params};
use serde::Serialize;

use super::energy::Energy;
use super::l3::new_l3;
use super::model::{GrfCycle, GrfModel, GrfRequest, GrfStats};
use super::options::{Conditions, GrfOptions};
use super::trace::{Step, Trace};
use super::verilated::GrfRtl;
use crate::block::{Report, Setup, SimError};
use crate::check::{end_cycle, Device, LockStep};

/// What the RTL side of a GRF run is: driven with the EUs' requests, compared with the
/// model's cycle.
pub type GrfDevice<'a> = dyn Device<Input = Vec<Option<GrfRequest>>, Expected = GrfCycle> + 'a;

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
    /// L3 accesses the run would have made had its shared data gone through L3 instead (each
    /// shared access a write or read of L3).
    pub l3_without_sharing: u64,
    /// Energy of the accesses, pJ.
    pub energy_pj: f64,
    /// Whether some EU never finished: parked on a barrier nobody can open any more, or still
    /// busy at the cycle limit.
    pub stuck: bool,
    /// Whether the RTL ran in lock step, and what it found (the run stops at the first
    /// mismatch).
    #[serde(flatten)]
    pub lock_step: LockStep,
}

/// Per EU, where it is in its trace.
struct Progress {
    next: Vec<usize>,
    outstanding: Vec<bool>,
    idle_until: Vec<u64>,
}

impl Progress {
    /// This cycle's requests: each EU's next step unless it waits for an answer or idles.
    fn requests(&mut self, trace: &Trace, cycle: u64) -> Vec<Option<GrfRequest>> {
        let mut requests = vec![None; trace.len()];
        for (eu, request) in requests.iter_mut().enumerate() {
            if self.outstanding[eu] || cycle < self.idle_until[eu] {
                continue;
            }
            match trace[eu].get(self.next[eu]) {
                Some(Step::Idle(n)) => {
                    self.idle_until[eu] = cycle + n;
                    self.next[eu] += 1;
                }
                Some(Step::Request(r)) => *request = Some(r.clone()),
                None => {}
            }
        }
        requests
    }

    /// Whether EU `eu` has nothing left to send.
    fn done(&self, trace: &Trace, eu: usize) -> bool {
        self.next[eu] >= trace[eu].len()
    }
}

/// Runs `trace` through the GRF under `conditions`; `device` runs in lock step when given.
pub fn run(
    params: &GrfParams,
    trace: &Trace,
    conditions: &Conditions,
    mut device: Option<&mut GrfDevice>,
) -> GrfRun {
    let l3 = new_l3(params, conditions.l3_latency, conditions.seed);
    let mut model = GrfModel::new(params, conditions.flat, l3);
    let eus = params.eus;
    let mut at = Progress {
        next: vec![0; eus],
        outstanding: vec![false; eus],
        idle_until: vec![0; eus],
    };
    let rtl = device.is_some();
    let mut first_mismatch = None;
    let mut deadlocked = false;
    let mut cycle = 0;
    while cycle < conditions.max_cycles {
        for (eu, response) in model.visible().iter().enumerate() {
            if response.is_some() {
                at.outstanding[eu] = false;
            }
        }
        let requests = at.requests(trace, cycle);
        let out = model.step(&requests);
        if let Err(m) = end_cycle(device.as_deref_mut(), cycle, &requests, &out, &|_| {}) {
            first_mismatch = Some(m);
            break;
        }
        for (eu, request) in requests.iter().enumerate() {
            if request.is_some() && out.ready[eu] {
                at.outstanding[eu] = true;
                at.next[eu] += 1;
            }
        }
        cycle += 1;
        let finished = (0..eus).all(|eu| at.done(trace, eu) && !at.outstanding[eu]);
        if finished && model.idle() {
            break;
        }
        // Every EU done or parked on a barrier nobody can open any more.
        let blocked = (0..eus).all(|eu| at.done(trace, eu) || at.outstanding[eu]);
        if blocked && model.parked() {
            deadlocked = true;
            break;
        }
    }
    let stats = model.stats().clone();
    GrfRun {
        cycles: cycle,
        slow_accesses: stats.slow_accesses_low + stats.slow_accesses_high,
        l3_without_sharing: stats.l3_reads + stats.l3_writes + stats.shared_accesses,
        energy_pj: conditions.energy.total(&stats, params),
        stats,
        stuck: deadlocked || cycle >= conditions.max_cycles,
        lock_step: LockStep {
            rtl,
            mismatches: first_mismatch.is_some() as u64,
            first_mismatch,
        },
    }
}

/// The percentage `part` is of `whole`.
pub fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The change from `before` to `after`, in percent.
pub fn change(before: f64, after: f64) -> f64 {
    if before == 0.0 {
        0.0
    } else {
        100.0 * (after - before) / before
    }
}

/// Runs as a table: one row per (label, run).
pub fn comparison_table(rows: &[(&str, &GrfRun)]) -> String {
    let mut text = format!(
        "{:17} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7} {:>12} {:>12}\n",
        "design",
        "cycles",
        "accesses",
        "fast hits",
        "slow",
        "L3 r+w",
        "L3 unsh",
        "energy pJ",
        "pJ/access"
    );
    for (label, r) in rows {
        text += &format!(
            "{:17} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7} {:>12.1} {:>12.2}\n",
            label,
            r.cycles,
            r.stats.accesses,
            r.stats.fast_hits,
            r.slow_accesses,
            r.stats.l3_reads + r.stats.l3_writes,
            r.l3_without_sharing,
            r.energy_pj,
            r.energy_pj / r.stats.accesses.max(1) as f64,
        );
    }
    text
}

/// What `grfgen sim grf` reports: the run, and with `flat` the flat design's beside it.
#[derive(Clone, Debug, Serialize)]
pub struct GrfReport {
    /// The workload's name, or the trace file.
    pub workload: String,
    /// Cycles from an L3 read to its answer.
    pub l3_latency: u64,
    /// Energy per access used.
    pub energy_per_access_pj: Energy,
    /// The run.
    #[serde(flatten)]
    pub run: GrfRun,
    /// The flat design on the same trace (golden model), when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flat: Option<GrfRun>,
}

impl Report for GrfReport {
    /// The workload's cycles, to its last answer.
    fn work_cycles(&self) -> Option<f64> {
        Some(self.run.cycles as f64)
    }

    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.run.lock_step)
    }

    fn text(&self) -> String {
        let (r, s, e) = (&self.run, &self.run.stats, &self.energy_per_access_pj);
        let mut text = format!(
            "grf on {} (L3 latency {}): {} cycles\n\
             {} accesses: {} fast GRF hits ({:.1}%), {} misses; slow GRF {} accesses ({} in the \
             low-energy part); L3 {} reads, {} writes ({} reads redirected during refills)\n\
             {} shared accesses (L3 accesses had they gone through L3: {}); {} faults\n\
             energy {:.1} pJ ({} / {} / {} / {} pJ per 32-bit element: fast, slow, slow \
             low-energy part, L3)\nmismatches {}\n",
            self.workload,
            self.l3_latency,
            r.cycles,
            s.accesses,
            s.fast_hits,
            percent(s.fast_hits, s.accesses),
            s.fast_misses,
            r.slow_accesses,
            s.slow_accesses_low,
            s.l3_reads,
            s.l3_writes,
            s.redirects,
            s.shared_accesses,
            r.l3_without_sharing,
            s.faults,
            r.energy_pj,
            e.fast_pj,
            e.slow_pj,
            e.slow_low_pj,
            e.l3_pj,
            r.lock_step.mismatches,
        );
        if r.stuck && r.lock_step.first_mismatch.is_none() {
            text += "warning: the run did not finish: an EU is parked on a barrier nobody can \
                     open, or --max-cycles was reached\n";
        }
        if let Some(f) = &self.flat {
            text += &comparison_table(&[("hierarchical", r), ("flat", f)]);
            text += &format!(
                "hierarchical against flat: energy {:+.1}%, cycles {:+.1}%, slow GRF accesses \
                 {:+.1}%\n",
                change(f.energy_pj, r.energy_pj),
                change(f.cycles as f64, r.cycles as f64),
                change(f.slow_accesses as f64, r.slow_accesses as f64),
            );
        }
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        let (r, s) = (&self.run, &self.run.stats);
        vec![
            ("cycles", r.cycles as f64),
            (
                "fast_hit_rate",
                s.fast_hits as f64 / s.accesses.max(1) as f64,
            ),
            ("slow_accesses", r.slow_accesses as f64),
            ("l3_accesses", (s.l3_reads + s.l3_writes) as f64),
            ("energy_pj", r.energy_pj),
            ("mismatches", r.lock_step.mismatches as f64),
        ]
    }
}

/// One GRF run from the options and the seed (and the flat design beside it when asked).
pub(super) fn run_options(
    params: &GrfParams,
    options: &GrfOptions,
    setup: &Setup,
) -> Result<GrfReport, SimError> {
    options.validate()?;
    let with_rtl = setup.with_rtl(true, "")?;
    let (workload, trace) = options.trace(params, setup.seed)?;
    let conditions = options.conditions(setup.seed);
    let mut device = match with_rtl {
        true => Some(GrfRtl::build(params, conditions.l3_latency, setup)?),
        false => None,
    };
    let device = device.as_mut().map(|d| d as &mut GrfDevice);
    let report = run(params, &trace, &conditions, device);
    let flat = options.flat.then(|| {
        let flat = Conditions {
            flat: true,
            ..conditions
        };
        run(params, &trace, &flat, None)
    });
    Ok(GrfReport {
        workload,
        l3_latency: conditions.l3_latency,
        energy_per_access_pj: conditions.energy,
        run: report,
        flat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grf::workload::{builtin, NAMES};
    use grfgen_hdl::params::{GrfOp, GrfStatus};

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
                    assert_eq!(response.status, GrfStatus::Ok);
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
            let conditions = Conditions {
                max_cycles: 100_000,
                ..Conditions::new(5)
            };
            let hier = run(&params, &trace, &conditions, None);
            let flat = run(
                &params,
                &trace,
                &Conditions {
                    flat: true,
                    ..conditions
                },
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
