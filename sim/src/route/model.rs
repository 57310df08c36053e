//! Golden model of the shift-and-fill router, written from SPEC S2: the lane operations by
//! their formulas, and a router pass as its documented control interface defines it.

use std::collections::VecDeque;

use grfgen_hdl::params::{FillCode, RouteParams};
use serde::Serialize;

use crate::bits::element_mask;

/// Shift or rotate direction: left moves values towards lane 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards lane 0.
    Left,
    /// Away from lane 0.
    Right,
}

/// What fills the lanes a shift vacates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// The fill register `rf`.
    Register,
    /// The constant 0.
    Zero,
    /// The constant 1.
    One,
    /// All bits set.
    Ones,
}

impl Fill {
    /// The router's code for this fill.
    pub fn code(self) -> FillCode {
        match self {
            Fill::Register => FillCode::Register,
            Fill::Zero => FillCode::Zero,
            Fill::One => FillCode::One,
            Fill::Ones => FillCode::Ones,
        }
    }
}

/// One lane operation over a SIMD group, within aligned subsets of `m` lanes (`m` a power of
/// two dividing the group; `m` = N for no `.mod`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneOp {
    /// `shff.<dir>.mod<m> d, rs, rf, #amount`: shift `rs`, fill vacated lanes.
    Shff {
        /// Direction.
        direction: Direction,
        /// Subset size.
        m: usize,
        /// Lanes to shift by; clamped to `m`.
        amount: usize,
        /// Fill source.
        fill: Fill,
    },
    /// Rotate `rs` within each subset by `amount` (taken mod `m`).
    Rotate {
        /// Direction.
        direction: Direction,
        /// Subset size.
        m: usize,
        /// Lanes to rotate by.
        amount: usize,
    },
    /// Every lane of a subset takes lane `lane` (< m) of that subset.
    Broadcast {
        /// Subset size.
        m: usize,
        /// Lane within the subset.
        lane: usize,
    },
    /// Lane `t` takes lane `t xor mask` (`mask` < m).
    Butterfly {
        /// Subset size.
        m: usize,
        /// XOR mask.
        mask: usize,
    },
}

impl LaneOp {
    /// The subset size.
    pub fn m(&self) -> usize {
        match *self {
            LaneOp::Shff { m, .. }
            | LaneOp::Rotate { m, .. }
            | LaneOp::Broadcast { m, .. }
            | LaneOp::Butterfly { m, .. } => m,
        }
    }
}

/// `op` applied to `rs` (and `rf`) of one SIMD group; values are `element_bits` wide.
pub fn apply(op: &LaneOp, rs: &[u64], rf: &[u64], element_bits: usize) -> Vec<u64> {
    let n = rs.len();
    let mask = element_mask(element_bits);
    let m = op.m();
    (0..n)
        .map(|t| {
            let b = t - t % m;
            let i = t % m;
            let value = match *op {
                LaneOp::Shff {
                    direction,
                    amount,
                    fill,
                    ..
                } => {
                    let s = amount.min(m);
                    // `Ok(lane)`: rs[lane]; `Err(lane)`: the fill for rf[lane].
                    let from = match direction {
                        Direction::Left if i + s < m => Ok(b + i + s),
                        Direction::Left => Err(b + i + s - m),
                        Direction::Right if i >= s => Ok(b + i - s),
                        Direction::Right => Err(b + m + i - s),
                    };
                    match (from, fill) {
                        (Ok(lane), _) => rs[lane],
                        (Err(lane), Fill::Register) => rf[lane],
                        (Err(_), Fill::Zero) => 0,
                        (Err(_), Fill::One) => 1,
                        (Err(_), Fill::Ones) => u64::MAX,
                    }
                }
                LaneOp::Rotate {
                    direction, amount, ..
                } => {
                    let s = amount % m;
                    match direction {
                        Direction::Left => rs[b + (i + s) % m],
                        Direction::Right => rs[b + (i + m - s) % m],
                    }
                }
                LaneOp::Broadcast { lane, .. } => rs[b + lane],
                LaneOp::Butterfly { mask: x, .. } => rs[t ^ x],
            };
            value & mask
        })
        .collect()
}

/// Explicit controls of one shuffle pass (the router's `op` = 6), as the planner makes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShufflePass {
    /// `xbar_pos[c * q + k]`: the input position crossbar `c` sends to its output `k`.
    pub xbar_pos: Vec<usize>,
    /// The crossbar each lane takes its value from.
    pub lane_xbar: Vec<usize>,
    /// The lanes that take this pass's value (the lanes a planned pass completes).
    pub capture: Vec<bool>,
}

impl ShufflePass {
    /// The value lane `t` receives in this pass: output `t mod q` of crossbar `lane_xbar[t]`,
    /// which is input `xbar_pos[...]` of that crossbar; zero when a control is out of range.
    pub fn lane_value(&self, params: &RouteParams, rs: &[u64], t: usize) -> u64 {
        let q = params.crossbar;
        let crossbar = self.lane_xbar[t];
        if crossbar >= params.crossbars() {
            return 0;
        }
        let position = self.xbar_pos[crossbar * q + t % q];
        if position >= q {
            return 0;
        }
        rs[crossbar * q + position]
    }
}

/// One cycle of the router: a lane operation (every lane captures) or a shuffle pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// A one-pass lane operation.
    Lane(LaneOp),
    /// A pass of a planned shuffle.
    Shuffle(ShufflePass),
}

/// What a pass writes into the result register: the routed value of every lane that captures.
type Capture = Vec<Option<u64>>;

/// The registered router's result register, as its control interface defines it: a pass given
/// in cycle `c` is in the result register after cycle `c + pipeline`.
#[derive(Clone, Debug)]
pub struct RouterModel {
    params: RouteParams,
    result: Vec<u64>,
    /// Passes still inside the pipeline stages, oldest first (`None`: no pass that cycle).
    in_flight: VecDeque<Option<Capture>>,
}

impl RouterModel {
    /// A router with its result register at zero and no pass in flight.
    pub fn new(params: &RouteParams) -> Self {
        Self {
            params: params.clone(),
            result: vec![0; params.lanes],
            in_flight: std::iter::repeat_n(None, params.pipeline).collect(),
        }
    }

    /// The result register.
    pub fn result(&self) -> &[u64] {
        &self.result
    }

    /// What the network routes in `pass` to every lane (before the result register).
    pub fn route(&self, pass: &Pass, rs: &[u64], rf: &[u64]) -> Vec<u64> {
        let mask = element_mask(self.params.element_bits);
        match pass {
            Pass::Lane(op) => apply(op, rs, rf, self.params.element_bits),
            Pass::Shuffle(shuffle) => (0..self.params.lanes)
                .map(|t| shuffle.lane_value(&self.params, rs, t) & mask)
                .collect(),
        }
    }

    /// One cycle: the pass given `pipeline` cycles ago, if valid, lands: every capturing lane
    /// (all lanes for a lane operation) takes its value. This cycle's pass enters the stages.
    pub fn step(&mut self, valid: bool, pass: &Pass, rs: &[u64], rf: &[u64]) {
        let entering = valid.then(|| {
            let routed = self.route(pass, rs, rf);
            routed
                .into_iter()
                .enumerate()
                .map(|(t, value)| match pass {
                    Pass::Lane(_) => Some(value),
                    Pass::Shuffle(shuffle) => shuffle.capture[t].then_some(value),
                })
                .collect()
        });
        self.in_flight.push_back(entering);
        let Some(Some(landing)) = self.in_flight.pop_front() else {
            return;
        };
        for (held, value) in self.result.iter_mut().zip(landing) {
            if let Some(value) = value {
                *held = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(text: &str) -> Vec<u64> {
        text.bytes().map(u64::from).collect()
    }

    fn show(values: &[u64]) -> String {
        values.iter().map(|&v| v as u8 as char).collect()
    }

    fn shff(direction: Direction, m: usize, amount: usize) -> LaneOp {
        LaneOp::Shff {
            direction,
            m,
            amount,
            fill: Fill::Register,
        }
    }

    #[test]
    fn the_documents_five_examples() {
        let (r0, r1) = (letters("abcdefgh"), letters("ijklmnop"));
        let run = |op: LaneOp| show(&apply(&op, &r0, &r1, 8));
        assert_eq!(run(shff(Direction::Left, 8, 1)), "bcdefghi"); // a
        assert_eq!(run(shff(Direction::Left, 8, 3)), "defghijk"); // b
        assert_eq!(run(shff(Direction::Right, 8, 2)), "opabcdef"); // c
        assert_eq!(run(shff(Direction::Left, 2, 1)), "bidkfmho"); // d
        assert_eq!(run(shff(Direction::Left, 4, 2)), "cdijghmn"); // e
    }

    #[test]
    fn a_shift_by_m_or_more_gives_the_fill_register_in_the_same_lanes() {
        let (r0, r1) = (letters("abcdefgh"), letters("ijklmnop"));
        for amount in [8, 9, 64] {
            for direction in [Direction::Left, Direction::Right] {
                assert_eq!(
                    show(&apply(&shff(direction, 8, amount), &r0, &r1, 8)),
                    "ijklmnop"
                );
            }
        }
        assert_eq!(
            show(&apply(&shff(Direction::Right, 4, 7), &r0, &r1, 8)),
            "ijklmnop"
        );
    }

    #[test]
    fn rotate_broadcast_butterfly_and_constant_fills() {
        let r0 = letters("abcdefgh");
        let r1 = letters("ijklmnop");
        let rot = LaneOp::Rotate {
            direction: Direction::Right,
            m: 4,
            amount: 5,
        };
        assert_eq!(show(&apply(&rot, &r0, &r1, 8)), "dabchefg");
        let bc = LaneOp::Broadcast { m: 4, lane: 2 };
        assert_eq!(show(&apply(&bc, &r0, &r1, 8)), "ccccgggg");
        let bf = LaneOp::Butterfly { m: 8, mask: 7 };
        assert_eq!(show(&apply(&bf, &r0, &r1, 8)), "hgfedcba");
        let zero_fill = LaneOp::Shff {
            direction: Direction::Left,
            m: 4,
            amount: 2,
            fill: Fill::Ones,
        };
        assert_eq!(
            apply(&zero_fill, &[1, 2, 3, 4], &[0; 4], 8),
            [3, 4, 255, 255]
        );
    }
}
