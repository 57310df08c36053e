//! Router stimulus: one cycle's inputs, and seeded random passes of every kind.

use grfgen_hdl::params::RouteParams;

use super::model::{Direction, Fill, LaneOp, Pass, ShufflePass};
use crate::bits::element_mask;
use crate::rng::Rng;

/// The inputs of one router cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteCycle {
    /// A pass happens (the registered router captures only then).
    pub valid: bool,
    /// The pass: a lane operation or a shuffle pass.
    pub pass: Pass,
    /// The shifted (source) register, one value per lane.
    pub rs: Vec<u64>,
    /// The fill register, one value per lane.
    pub rf: Vec<u64>,
}

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

    /// The next cycle.
    pub fn next_cycle(&mut self) -> RouteCycle {
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
        RouteCycle {
            valid,
            pass,
            rs,
            rf,
        }
    }
}
