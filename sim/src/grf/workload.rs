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
    let needs_prealloc = matches!(name, "private-hot" | "streaming" | "context-switch");
    if needs_prealloc && params.preallocated == 0 {
        return Err(format!(
            "invalid value {name} for --workload: it needs --preallocated 1 or more"
        ));
    }
    let mut rng = Rng::new(seed);
    let mut trace: Trace = vec![Vec::new(); params.eus];
    let eus = trace.iter_mut().enumerate().map(|(eu, steps)| EuSteps {
        eu,
        steps,
        lanes: params.lanes,
    });
    match name {
        "private-hot" => eus.for_each(|mut s| s.hot(params, &mut rng, rounds, true)),
        "streaming" => eus.for_each(|mut s| s.hot(params, &mut rng, rounds, false)),
        "producer-consumer" => eus.for_each(|mut s| s.producer_consumer(params, &mut rng, rounds)),
        "context-switch" => eus.for_each(|mut s| s.context_switch(params, &mut rng, rounds)),
        "faults" => eus.for_each(|mut s| s.faults(params, &mut rng, rounds)),
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

/// One EU's steps of a built-in workload, as they are generated.
struct EuSteps<'a> {
    /// The EU.
    eu: usize,
    /// Its steps so far.
    steps: &'a mut Vec<Step>,
    /// Lanes per register.
    lanes: usize,
}

impl EuSteps<'_> {
    /// Appends `op` of `thread` on register (or 16 x block) `reg` with `group`, without data.
    fn ask(&mut self, thread: usize, op: GrfOp, reg: usize, group: usize) {
        let zero = vec![0; self.lanes];
        self.steps.push(Step::request(thread, op, reg, group, zero));
    }

    /// Appends a write of random data by `thread` to `reg`.
    fn write(&mut self, rng: &mut Rng, thread: usize, reg: usize) {
        let data = (0..self.lanes).map(|_| rng.next_u64()).collect();
        self.steps
            .push(Step::request(thread, GrfOp::Write, reg, 0, data));
    }

    /// Each thread works on a few registers of its pre-allocated block (`hot`: as many as
    /// fit the fast GRF; else all 16 in turn): mostly reads.
    fn hot(&mut self, params: &GrfParams, rng: &mut Rng, rounds: usize, hot: bool) {
        let few = (params.fast_regs / params.threads).max(1);
        for i in 0..rounds * 16 {
            let thread = i % params.threads;
            let k = i / params.threads;
            let reg = if hot { (self.eu + k) % few } else { k % 16 };
            if k < 16 || rng.chance(1, 4) {
                self.write(rng, thread, reg);
            } else {
                self.ask(thread, GrfOp::Read, reg, 0);
            }
        }
    }

    /// EU 0 produces into a shared block, the others consume the previous phase's value;
    /// everyone waits at the group's barrier after each access.
    fn producer_consumer(&mut self, params: &GrfParams, rng: &mut Rng, rounds: usize) {
        let vb = params.virtual_blocks - 1;
        self.ask(0, GrfOp::Alloc, vb * 16, 1);
        self.steps.push(Step::Idle(8 * params.eus as u64));
        for phase in 0..rounds * 4 {
            if self.eu == 0 {
                self.write(rng, 0, vb * 16 + phase % 16);
            } else {
                self.ask(0, GrfOp::Read, vb * 16 + (phase + 15) % 16, 0);
            }
            self.ask(0, GrfOp::Wait, 0, 1);
        }
        self.ask(0, GrfOp::Release, vb * 16, 0);
    }

    /// Threads fill their block, switch its context, work on the new context while it is
    /// being refilled (reads served from L3), and switch back.
    fn context_switch(&mut self, params: &GrfParams, rng: &mut Rng, rounds: usize) {
        for round in 0..rounds {
            let thread = round % params.threads;
            for reg in 0..4 {
                self.write(rng, thread, reg);
            }
            self.ask(thread, GrfOp::Switch, 0, 0);
            for reg in 0..8 {
                self.ask(thread, GrfOp::Read, (reg * 5) % 16, 0);
            }
            self.write(rng, thread, 3);
            self.ask(thread, GrfOp::Read, 3, 0);
        }
    }

    /// Bad requests mixed into ordinary ones: every fault kind; then allocs that exhaust the
    /// free blocks.
    fn faults(&mut self, params: &GrfParams, rng: &mut Rng, rounds: usize) {
        let last = params.virtual_blocks - 1;
        for round in 0..rounds {
            let thread = (self.eu + round) % params.threads;
            self.ask(thread, GrfOp::Read, last * 16 + 1, 0);
            self.ask(thread, GrfOp::Release, last * 16, 0);
            self.ask(thread, GrfOp::Wait, 0, 7);
            self.ask(thread, GrfOp::Alloc, last * 16, 0);
            self.ask(thread, GrfOp::Alloc, last * 16, 0);
            self.write(rng, thread, last * 16 + 2);
            self.ask(thread, GrfOp::Read, last * 16 + 2, 0);
            self.ask(thread, GrfOp::Switch, last.saturating_sub(1) * 16, 0);
            self.ask(thread, GrfOp::Release, last * 16, 0);
        }
        for v in 0..params.virtual_blocks {
            self.ask(self.eu % params.threads, GrfOp::Alloc, v * 16, 0);
        }
    }
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
