//! Lock-step co-simulation of the router: random passes of every kind through the Verilated
//! router and the golden model, every lane compared every cycle.

use grfgen_hdl::params::RouteParams;
use serde::Serialize;

use super::model::{Direction, Fill, LaneOp, Pass, RouterModel, ShufflePass};
use super::rtl::RouterRtl;
use crate::bits::element_mask;
use crate::check::Mismatch;
use crate::rng::Rng;

/// Random passes: three in four a lane operation (every kind, direction, subset size 2..=N,
/// amounts past the clamp, every fill), one in four a shuffle pass with random controls
/// (some out of range) and random captures; `valid` low one cycle in ten.
pub struct RandomPasses {
    rng: Rng,
    params: RouteParams,
}

impl RandomPasses {
    /// Random passes for `params` from `seed`.
    pub fn new(params: &RouteParams, seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
            params: params.clone(),
        }
    }

    /// The next cycle: `(valid, pass, rs, rf)`.
    pub fn next_cycle(&mut self) -> (bool, Pass, Vec<u64>, Vec<u64>) {
        let n = self.params.lanes;
        let rng = &mut self.rng;
        let mask = element_mask(self.params.element_bits);
        let rs: Vec<u64> = (0..n).map(|_| rng.next_u64() & mask).collect();
        let rf: Vec<u64> = (0..n).map(|_| rng.next_u64() & mask).collect();
        let valid = !rng.chance(1, 10);
        let pass = if rng.chance(3, 4) {
            let m = 2 << rng.below(self.params.lane_bits());
            let direction = if rng.chance(1, 2) {
                Direction::Left
            } else {
                Direction::Right
            };
            let amount = if rng.chance(1, 8) {
                rng.below(128)
            } else {
                rng.below(m + 1)
            };
            Pass::Lane(match rng.below(4) {
                0 => LaneOp::Shff {
                    direction,
                    m,
                    amount,
                    fill: [Fill::Register, Fill::Zero, Fill::One, Fill::Ones][rng.below(4)],
                },
                1 => LaneOp::Rotate {
                    direction,
                    m,
                    amount,
                },
                2 => LaneOp::Broadcast {
                    m,
                    lane: rng.below(m),
                },
                _ => LaneOp::Butterfly {
                    m,
                    mask: rng.below(m),
                },
            })
        } else {
            let q = self.params.crossbar;
            let crossbars = self.params.crossbars();
            Pass::Shuffle(ShufflePass {
                xbar_pos: (0..n).map(|_| rng.below(q + 1)).collect(),
                lane_xbar: (0..n).map(|_| rng.below(crossbars + 1)).collect(),
                capture: (0..n).map(|_| rng.chance(1, 2)).collect(),
            })
        };
        (valid, pass, rs, rf)
    }
}

/// Counts and outcome of a router co-simulation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RouteSimReport {
    /// Cycles simulated.
    pub cycles: u64,
    /// Seed of the stimulus.
    pub seed: u64,
    /// Valid passes (each one cycle of the router).
    pub passes: u64,
    /// Valid lane-operation passes.
    pub lane_passes: u64,
    /// Valid shuffle passes.
    pub shuffle_passes: u64,
    /// Mismatches found (the run stops at the first).
    pub mismatches: u64,
    /// The first mismatch, if any.
    pub first_mismatch: Option<Mismatch>,
}

/// Runs `cycles` random cycles through the RTL and the golden model in lock step.
pub fn run(
    params: &RouteParams,
    rtl: &mut RouterRtl,
    cycles: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> RouteSimReport {
    let mut stimulus = RandomPasses::new(params, seed);
    let mut model = RouterModel::new(params);
    let mut report = RouteSimReport {
        seed,
        ..Default::default()
    };
    for cycle in 0..cycles {
        let (valid, pass, rs, rf) = stimulus.next_cycle();
        let expected = if params.registered {
            model.step(valid, &pass, &rs, &rf);
            model.result().to_vec()
        } else {
            model.route(&pass, &rs, &rf)
        };
        rtl.cycle(valid, &pass, &rs, &rf);
        report.cycles = cycle + 1;
        if valid || !params.registered {
            report.passes += 1;
            match pass {
                Pass::Lane(_) => report.lane_passes += 1,
                Pass::Shuffle(_) => report.shuffle_passes += 1,
            }
        }
        for (t, &value) in expected.iter().enumerate() {
            let actual = rtl.lane(t);
            if actual != value {
                let name = if params.registered {
                    "result"
                } else {
                    "routed"
                };
                report.mismatches = 1;
                report.first_mismatch = Some(Mismatch::new(
                    cycle,
                    || format!("{name}${t} ({pass:?})"),
                    value,
                    actual,
                ));
                return report;
            }
        }
        if cycle % 65536 == 65535 {
            progress(cycle + 1);
        }
    }
    report
}
