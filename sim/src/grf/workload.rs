//! Built-in GRF workloads, generated as traces.

use super::trace::{Step, Trace};
use crate::rng::Rng;
use grfgen_hdl::params::{GrfOp, GrfParams};

/// The built-in workload names.
pub const NAMES: [&str; 6] = [
    "private-hot",
    "streaming",
    "producer-consumer",
    "context-switch",
    "faults",
    "random",
];

/// The built-in workload `name` for `params` from `seed`, `rounds` controlling its length.
pub fn builtin(name: &str, params: &GrfParams, seed: u64, rounds: usize) -> Result<Trace, String> {
    let mut rng = Rng::new(seed);
    let lanes = params.lanes;
    let value = |rng: &mut Rng| -> Vec<u64> { (0..lanes).map(|_| rng.next_u64()).collect() };
    let zero = vec![0; lanes];
    let mut trace: Trace = vec![Vec::new(); params.eus];
    let needs_prealloc = params.preallocated > 0;
    match name {
        // Each thread works on a few registers of its pre-allocated block: mostly reads.
        "private-hot" | "streaming" => {
            if !needs_prealloc {
                return Err(format!(
                    "invalid value {name} for --workload: it needs --preallocated 1 or more"
                ));
            }
            let hot = (params.fast_regs / params.threads).max(1);
            for (eu, steps) in trace.iter_mut().enumerate() {
                for i in 0..rounds * 16 {
                    let thread = i % params.threads;
                    let k = i / params.threads;
                    let reg = if name == "private-hot" {
                        (eu + k) % hot
                    } else {
                        k % 16
                    };
                    if k < 16 || rng.chance(1, 4) {
                        steps.push(Step::request(thread, GrfOp::Write, reg, 0, value(&mut rng)));
                    } else {
                        steps.push(Step::request(thread, GrfOp::Read, reg, 0, zero.clone()));
                    }
                }
            }
        }
        // EU 0 produces into a shared block, the others consume the previous phase's value;
        // everyone waits at the group's barrier after each access.
        "producer-consumer" => {
            let vb = params.virtual_blocks - 1;
            for (eu, steps) in trace.iter_mut().enumerate() {
                steps.push(Step::request(0, GrfOp::Alloc, vb * 16, 1, zero.clone()));
                steps.push(Step::Idle(8 * params.eus as u64));
                for phase in 0..rounds * 4 {
                    let reg = vb * 16 + phase % 16;
                    if eu == 0 {
                        steps.push(Step::request(0, GrfOp::Write, reg, 0, value(&mut rng)));
                    } else {
                        let prev = vb * 16 + (phase + 15) % 16;
                        steps.push(Step::request(0, GrfOp::Read, prev, 0, zero.clone()));
                    }
                    steps.push(Step::request(0, GrfOp::Wait, 0, 1, zero.clone()));
                }
                steps.push(Step::request(0, GrfOp::Release, vb * 16, 0, zero.clone()));
            }
        }
        // Threads fill their block, switch its context, work on the new context while it is
        // being refilled (reads served from L3), and switch back.
        "context-switch" => {
            if !needs_prealloc {
                return Err(format!(
                    "invalid value {name} for --workload: it needs --preallocated 1 or more"
                ));
            }
            for steps in trace.iter_mut() {
                for round in 0..rounds {
                    let thread = round % params.threads;
                    for reg in 0..4 {
                        steps.push(Step::request(thread, GrfOp::Write, reg, 0, value(&mut rng)));
                    }
                    steps.push(Step::request(thread, GrfOp::Switch, 0, 0, zero.clone()));
                    for reg in 0..8 {
                        steps.push(Step::request(
                            thread,
                            GrfOp::Read,
                            (reg * 5) % 16,
                            0,
                            zero.clone(),
                        ));
                    }
                    steps.push(Step::request(thread, GrfOp::Write, 3, 0, value(&mut rng)));
                    steps.push(Step::request(thread, GrfOp::Read, 3, 0, zero.clone()));
                }
            }
        }
        // Bad requests mixed into ordinary ones: every fault kind.
        "faults" => {
            let last = params.virtual_blocks - 1;
            for (eu, steps) in trace.iter_mut().enumerate() {
                for round in 0..rounds {
                    let thread = (eu + round) % params.threads;
                    steps.push(Step::request(
                        thread,
                        GrfOp::Read,
                        last * 16 + 1,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Release,
                        last * 16,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(thread, GrfOp::Wait, 0, 7, zero.clone()));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Alloc,
                        last * 16,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Alloc,
                        last * 16,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Write,
                        last * 16 + 2,
                        0,
                        value(&mut rng),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Read,
                        last * 16 + 2,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Switch,
                        last.saturating_sub(1) * 16,
                        0,
                        zero.clone(),
                    ));
                    steps.push(Step::request(
                        thread,
                        GrfOp::Release,
                        last * 16,
                        0,
                        zero.clone(),
                    ));
                }
                // Exhaust the free blocks: the later allocs fail.
                for v in 0..params.virtual_blocks {
                    steps.push(Step::request(
                        eu % params.threads,
                        GrfOp::Alloc,
                        v * 16,
                        0,
                        zero.clone(),
                    ));
                }
            }
        }
        // Random traffic over every op but `wait` (see `random_trace`).
        "random" => return Ok(random_trace(params, seed, rounds, false)),
        other => {
            return Err(format!(
                "invalid value {other} for --workload: allowed {}",
                NAMES.join(", ")
            ))
        }
    }
    Ok(trace)
}

/// What a thread of a random trace believes about its virtual blocks: unmapped, or mapped
/// private (group 0) or into a shared group. Beliefs go wrong when an `alloc` fails.
type Beliefs = Vec<Option<usize>>;

/// Random traffic, `rounds * 16` steps per EU: reads and writes (mostly of blocks the thread
/// believes mapped, half of them to four hot registers of the block), allocs (private or into
/// groups 1..3), releases, switches, short idles and, with `waits`, waits on groups the thread
/// joined. Most requests are valid; the rest fault. Waits can leave EUs parked at the end
/// (nobody touches the group any more).
pub fn random_trace(params: &GrfParams, seed: u64, rounds: usize, waits: bool) -> Trace {
    let mut rng = Rng::new(seed);
    let (lanes, vb) = (params.lanes, params.virtual_blocks);
    let zero = vec![0; lanes];
    let mut trace: Trace = vec![Vec::new(); params.eus];
    for (eu, steps) in trace.iter_mut().enumerate() {
        let mut beliefs: Vec<Beliefs> = (0..params.threads)
            .map(|t| {
                let g = eu * params.threads + t;
                (0..vb)
                    .map(|v| params.preallocation(g, v).map(|_| 0))
                    .collect()
            })
            .collect();
        for _ in 0..rounds * 16 {
            let thread = rng.below(params.threads);
            let known = &mut beliefs[thread];
            let mapped: Vec<usize> = (0..vb).filter(|&v| known[v].is_some()).collect();
            let unmapped: Vec<usize> = (0..vb).filter(|&v| known[v].is_none()).collect();
            let pick = |rng: &mut Rng, from: &[usize]| {
                if from.is_empty() || rng.chance(1, 10) {
                    rng.below(vb)
                } else {
                    from[rng.below(from.len())]
                }
            };
            let step = match rng.below(100) {
                0..=74 => {
                    let block = pick(&mut rng, &mapped);
                    let offset = if rng.chance(1, 2) {
                        rng.below(4)
                    } else {
                        rng.below(16)
                    };
                    let reg = block * 16 + offset;
                    if rng.below(75) < 40 {
                        Step::request(thread, GrfOp::Read, reg, 0, zero.clone())
                    } else {
                        let value = (0..lanes).map(|_| rng.next_u64()).collect();
                        Step::request(thread, GrfOp::Write, reg, 0, value)
                    }
                }
                75..=82 => {
                    let block = pick(&mut rng, &unmapped);
                    let group = if rng.chance(1, 2) {
                        0
                    } else {
                        1 + rng.below(3)
                    };
                    known[block] = Some(group);
                    Step::request(thread, GrfOp::Alloc, block * 16, group, zero.clone())
                }
                83..=88 => {
                    let block = pick(&mut rng, &mapped);
                    known[block] = None;
                    Step::request(thread, GrfOp::Release, block * 16, 0, zero.clone())
                }
                89..=91 => {
                    let block = pick(&mut rng, &mapped);
                    Step::request(thread, GrfOp::Switch, block * 16, 0, zero.clone())
                }
                92..=94 if waits => {
                    let groups: Vec<usize> =
                        known.iter().flatten().copied().filter(|&g| g > 0).collect();
                    let group = if groups.is_empty() || rng.chance(1, 10) {
                        rng.below(GrfParams::GROUPS + 1)
                    } else {
                        groups[rng.below(groups.len())]
                    };
                    Step::request(thread, GrfOp::Wait, 0, group, zero.clone())
                }
                _ => Step::Idle(rng.below(6) as u64),
            };
            steps.push(step);
        }
    }
    trace
}
