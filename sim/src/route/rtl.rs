//! The Verilated router: drives passes and reads results.

use std::path::Path;

use grfgen_hdl::params::{RouteOpCode, RouteParams};
use grfgen_hdl::route::{emit_route, RouteVariant};

use super::model::{Direction, LaneOp, Pass};
use crate::verilator::{self, BuildOptions, PortId, VerilatedModel, VerilatorError};

/// The control fields of one pass, as the router's ports take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    /// `op` (a `RouteOpCode`).
    pub op: u64,
    /// `amount` (7 bits).
    pub amount: u64,
    /// `mod_log2` (0: the whole group).
    pub mod_log2: u64,
    /// `fill` (a `FillCode`).
    pub fill: u64,
}

impl Controls {
    /// The encoding of `pass` for a group of `lanes` lanes.
    pub fn of(pass: &Pass, lanes: usize) -> Self {
        let op = match pass {
            Pass::Shuffle(_) => {
                return Self {
                    op: RouteOpCode::ShufflePass as u64,
                    amount: 0,
                    mod_log2: 0,
                    fill: 0,
                }
            }
            Pass::Lane(op) => op,
        };
        let m = op.m();
        let mod_log2 = if m >= lanes {
            0
        } else {
            m.trailing_zeros() as u64
        };
        let (code, amount, fill) = match *op {
            LaneOp::Shff {
                direction,
                amount,
                fill,
                ..
            } => {
                let code = match direction {
                    Direction::Left => RouteOpCode::ShffLeft,
                    Direction::Right => RouteOpCode::ShffRight,
                };
                // The router clamps to m itself; the field holds up to 127.
                (code, amount.min(127), fill.code() as u64)
            }
            LaneOp::Rotate {
                direction, amount, ..
            } => {
                let code = match direction {
                    Direction::Left => RouteOpCode::RotateLeft,
                    Direction::Right => RouteOpCode::RotateRight,
                };
                // The router takes the amount mod m; m divides 128.
                (code, amount % 128, 0)
            }
            LaneOp::Broadcast { lane, .. } => (RouteOpCode::Broadcast, lane, 0),
            LaneOp::Butterfly { mask, .. } => (RouteOpCode::Butterfly, mask, 0),
        };
        Self {
            op: code as u64,
            amount: amount as u64,
            mod_log2,
            fill,
        }
    }
}

/// The Verilated router (registered, or the combinational network) with its ports looked up.
pub struct RouterRtl {
    model: VerilatedModel,
    params: RouteParams,
    clock: Option<PortId>,
    valid: Option<PortId>,
    capture: Vec<PortId>,
    op: PortId,
    amount: PortId,
    mod_log2: PortId,
    fill: PortId,
    xbar_pos: Vec<PortId>,
    lane_xbar: Vec<PortId>,
    rs: Vec<PortId>,
    rf: Vec<PortId>,
    out: Vec<PortId>,
}

impl RouterRtl {
    /// Emits, verilates (or takes from the cache) and starts the two-stage router.
    pub fn build(
        params: &RouteParams,
        options: &BuildOptions,
        trace: Option<&Path>,
    ) -> Result<Self, VerilatorError> {
        let top = params.module_name();
        let emitted =
            emit_route(params, RouteVariant::TwoStage, &top).expect("parameters were validated");
        let model = verilator::build_emitted(&emitted, options, trace)?;
        let n = params.lanes;
        let one = |name: &str| {
            model
                .port(name)
                .unwrap_or_else(|| panic!("router has {name}"))
        };
        let many = |name: &str| {
            (0..n)
                .map(|t| one(&format!("{name}${t}")))
                .collect::<Vec<_>>()
        };
        let registered = params.registered;
        Ok(Self {
            clock: registered.then(|| one("clock")),
            valid: registered.then(|| one("valid")),
            capture: if registered {
                many("capture")
            } else {
                Vec::new()
            },
            op: one("op"),
            amount: one("amount"),
            mod_log2: one("mod_log2"),
            fill: one("fill"),
            xbar_pos: many("xbar_pos"),
            lane_xbar: many("lane_xbar"),
            rs: many("rs"),
            rf: many("rf"),
            out: many(if registered { "result" } else { "routed" }),
            params: params.clone(),
            model,
        })
    }

    /// Runs one cycle: drives `pass` with `rs` and `rf` (and `valid`), raises the clock of a
    /// registered router; then [`RouterRtl::lane`] reads the result register (registered) or
    /// the routed values (combinational).
    pub fn cycle(&mut self, valid: bool, pass: &Pass, rs: &[u64], rf: &[u64]) {
        let controls = Controls::of(pass, self.params.lanes);
        let m = &mut self.model;
        if let Some(clock) = self.clock {
            m.set(clock, 0);
        }
        if let Some(port) = self.valid {
            m.set(port, valid as u64);
        }
        m.set(self.op, controls.op);
        m.set(self.amount, controls.amount);
        m.set(self.mod_log2, controls.mod_log2);
        m.set(self.fill, controls.fill);
        for t in 0..self.params.lanes {
            m.set(self.rs[t], rs[t]);
            m.set(self.rf[t], rf[t]);
            let (position, crossbar, capture) = match pass {
                Pass::Shuffle(s) => (s.xbar_pos[t], s.lane_xbar[t], s.capture[t]),
                Pass::Lane(_) => (0, 0, true),
            };
            m.set(self.xbar_pos[t], position as u64);
            m.set(self.lane_xbar[t], crossbar as u64);
            if let Some(&port) = self.capture.get(t) {
                m.set(port, capture as u64);
            }
        }
        m.eval();
        if let Some(clock) = self.clock {
            m.set(clock, 1);
            m.eval();
        }
    }

    /// Lane `t` of the router's output after the last cycle.
    pub fn lane(&self, t: usize) -> u64 {
        self.model.get(self.out[t])
    }

    /// Every lane of the output.
    pub fn lanes(&self) -> Vec<u64> {
        (0..self.params.lanes).map(|t| self.lane(t)).collect()
    }
}
