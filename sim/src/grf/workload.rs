//! Built-in GRF workloads, generated as traces.

use grfgen_hdl::params::GrfParams;

use super::model::{GrfOp, GrfRequest};
use super::trace::{Step, Trace};
use crate::rng::Rng;

/// The built-in workload names.
pub const NAMES: [&str; 6] = [
    "private-hot",
    "streaming",
    "producer-consumer",
    "context-switch",
    "faults",
    "random",
];

fn request(thread: usize, op: GrfOp, reg: usize, group: usize, data: Vec<u64>) -> Step {
    Step::Request(GrfRequest {
        thread,
        op,
        reg,
        group,
        data,
    })
}

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
                        steps.push(request(thread, GrfOp::Write, reg, 0, value(&mut rng)));
                    } else {
                        steps.push(request(thread, GrfOp::Read, reg, 0, zero.clone()));
                    }
                }
            }
        }
        // EU 0 produces into a shared block, the others consume the previous phase's value;
        // everyone waits at the group's barrier after each access.
        "producer-consumer" => {
            let vb = params.virtual_blocks - 1;
            for (eu, steps) in trace.iter_mut().enumerate() {
                steps.push(request(0, GrfOp::Alloc, vb * 16, 1, zero.clone()));
                steps.push(Step::Idle(8 * params.eus as u64));
                for phase in 0..rounds * 4 {
                    let reg = vb * 16 + phase % 16;
                    if eu == 0 {
                        steps.push(request(0, GrfOp::Write, reg, 0, value(&mut rng)));
                    } else {
                        let prev = vb * 16 + (phase + 15) % 16;
                        steps.push(request(0, GrfOp::Read, prev, 0, zero.clone()));
                    }
                    steps.push(request(0, GrfOp::Wait, 0, 1, zero.clone()));
                }
                steps.push(request(0, GrfOp::Release, vb * 16, 0, zero.clone()));
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
                        steps.push(request(thread, GrfOp::Write, reg, 0, value(&mut rng)));
                    }
                    steps.push(request(thread, GrfOp::Switch, 0, 0, zero.clone()));
                    for reg in 0..8 {
                        steps.push(request(
                            thread,
                            GrfOp::Read,
                            (reg * 5) % 16,
                            0,
                            zero.clone(),
                        ));
                    }
                    steps.push(request(thread, GrfOp::Write, 3, 0, value(&mut rng)));
                    steps.push(request(thread, GrfOp::Read, 3, 0, zero.clone()));
                }
            }
        }
        // Bad requests mixed into ordinary ones: every fault kind.
        "faults" => {
            let last = params.virtual_blocks - 1;
            for (eu, steps) in trace.iter_mut().enumerate() {
                for round in 0..rounds {
                    let thread = (eu + round) % params.threads;
                    steps.push(request(thread, GrfOp::Read, last * 16 + 1, 0, zero.clone()));
                    steps.push(request(thread, GrfOp::Release, last * 16, 0, zero.clone()));
                    steps.push(request(thread, GrfOp::Wait, 0, 7, zero.clone()));
                    steps.push(request(thread, GrfOp::Alloc, last * 16, 0, zero.clone()));
                    steps.push(request(thread, GrfOp::Alloc, last * 16, 0, zero.clone()));
                    steps.push(request(
                        thread,
                        GrfOp::Write,
                        last * 16 + 2,
                        0,
                        value(&mut rng),
                    ));
                    steps.push(request(thread, GrfOp::Read, last * 16 + 2, 0, zero.clone()));
                    steps.push(request(
                        thread,
                        GrfOp::Switch,
                        last.saturating_sub(1) * 16,
                        0,
                        zero.clone(),
                    ));
                    steps.push(request(thread, GrfOp::Release, last * 16, 0, zero.clone()));
                }
                // Exhaust the free blocks: the later allocs fail.
                for v in 0..params.virtual_blocks {
                    steps.push(request(
                        eu % params.threads,
                        GrfOp::Alloc,
                        v * 16,
                        0,
                        zero.clone(),
                    ));
                }
            }
        }
        // Random reads, writes, allocs, releases and switches over every thread and block
        // (no waits: a barrier needs its sharers' cooperation).
        "random" => {
            let vregs = params.virtual_registers();
            for steps in trace.iter_mut() {
                for _ in 0..rounds * 16 {
                    let thread = rng.below(params.threads);
                    let roll = rng.below(100);
                    let step = match roll {
                        0..=39 => request(thread, GrfOp::Read, rng.below(vregs), 0, zero.clone()),
                        40..=79 => {
                            request(thread, GrfOp::Write, rng.below(vregs), 0, value(&mut rng))
                        }
                        80..=87 => request(
                            thread,
                            GrfOp::Alloc,
                            rng.below(params.virtual_blocks) * 16,
                            if rng.chance(1, 2) {
                                0
                            } else {
                                1 + rng.below(3)
                            },
                            zero.clone(),
                        ),
                        88..=93 => request(
                            thread,
                            GrfOp::Release,
                            rng.below(params.virtual_blocks) * 16,
                            0,
                            zero.clone(),
                        ),
                        94..=96 => request(
                            thread,
                            GrfOp::Switch,
                            rng.below(params.virtual_blocks) * 16,
                            0,
                            zero.clone(),
                        ),
                        _ => Step::Idle(rng.below(6) as u64),
                    };
                    steps.push(step);
                }
            }
        }
        other => {
            return Err(format!(
                "invalid value {other} for --workload: allowed {}",
                NAMES.join(", ")
            ))
        }
    }
    Ok(trace)
}
