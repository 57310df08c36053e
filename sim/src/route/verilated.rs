//! The Verilated router: drives passes and reads results, in lock step or alone.

use grfgen_hdl::params::{RouteOpCode, RouteParams};
use grfgen_hdl::route::Route;

use super::lane_router::LaneRouter;
use super::model::{Direction, LaneOp, Pass};
use super::plan::ShufflePlan;
use super::stimulus::RouteCycle;
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::verilator::{Input, InputVector, OutputVector, VerilatedModel};

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

/// `values` as port values.
fn widen(values: &[usize]) -> impl Iterator<Item = u64> + '_ {
    values.iter().map(|&v| v as u64)
}

/// The Verilated router (registered, or the combinational network) with its ports resolved.
pub struct RouterRtl {
    model: VerilatedModel,
    params: RouteParams,
    clock: Option<Input>,
    valid: Option<Input>,
    capture: Option<InputVector>,
    op: Input,
    amount: Input,
    mod_log2: Input,
    fill: Input,
    xbar_pos: InputVector,
    lane_xbar: InputVector,
    rs: InputVector,
    rf: InputVector,
    out: OutputVector,
    /// What the lanes read after the last cycle.
    actual: Vec<u64>,
}

impl RouterRtl {
    /// Emits, verilates (or takes from the cache) and starts the two-stage router.
    pub fn build(params: &RouteParams, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Route>(params)?;
        let n = params.lanes;
        let registered = params.registered;
        Ok(Self {
            clock: registered.then(|| model.input("clock")).transpose()?,
            valid: registered.then(|| model.input("valid")).transpose()?,
            capture: (registered)
                .then(|| model.input_vector("capture", n))
                .transpose()?,
            op: model.input("op")?,
            amount: model.input("amount")?,
            mod_log2: model.input("mod_log2")?,
            fill: model.input("fill")?,
            xbar_pos: model.input_vector("xbar_pos", n)?,
            lane_xbar: model.input_vector("lane_xbar", n)?,
            rs: model.input_vector("rs", n)?,
            rf: model.input_vector("rf", n)?,
            out: model.output_vector(if registered { "result" } else { "routed" }, n)?,
            actual: vec![0; n],
            params: params.clone(),
            model,
        })
    }

    /// Runs one cycle: drives `pass` with `rs` and `rf` (and `valid`), raises the clock of a
    /// registered router; then [`RouterRtl::lanes`] reads the result register (registered) or
    /// the routed values (combinational).
    pub fn step(&mut self, valid: bool, pass: &Pass, rs: &[u64], rf: &[u64]) {
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
        m.set_vector(&self.rs, rs.iter().copied());
        m.set_vector(&self.rf, rf.iter().copied());
        let lanes = self.params.lanes;
        match pass {
            Pass::Shuffle(s) => {
                m.set_vector(&self.xbar_pos, widen(&s.xbar_pos));
                m.set_vector(&self.lane_xbar, widen(&s.lane_xbar));
                if let Some(port) = &self.capture {
                    m.set_vector(port, s.capture.iter().map(|&c| c as u64));
                }
            }
            Pass::Lane(_) => {
                m.set_vector(&self.xbar_pos, std::iter::repeat_n(0, lanes));
                m.set_vector(&self.lane_xbar, std::iter::repeat_n(0, lanes));
                if let Some(port) = &self.capture {
                    m.set_vector(port, std::iter::repeat_n(1, lanes));
                }
            }
        }
        m.eval();
        if let Some(clock) = self.clock {
            m.set(clock, 1);
            m.eval();
        }
    }

    /// Every lane of the output after the last cycle.
    pub fn lanes(&self) -> Vec<u64> {
        let mut lanes = vec![0; self.params.lanes];
        self.model.read_vector(&self.out, &mut lanes);
        lanes
    }

    /// Runs `pipeline` cycles without a pass, so the last pass given reaches the result.
    fn drain(&mut self, pass: &Pass, rs: &[u64], rf: &[u64]) {
        for _ in 0..self.params.pipeline {
            self.step(false, pass, rs, rf);
        }
    }

    /// Runs every pass of `plan` on `rs`; the lanes hold the shuffled register after it.
    pub fn run_plan(&mut self, plan: &ShufflePlan, rs: &[u64]) -> Vec<u64> {
        for pass in &plan.passes {
            self.step(true, &Pass::Shuffle(pass.clone()), rs, rs);
        }
        if let Some(last) = plan.passes.last() {
            self.drain(&Pass::Shuffle(last.clone()), rs, rs);
        }
        self.lanes()
    }
}

impl Device for RouterRtl {
    type Input = RouteCycle;
    type Expected = Vec<u64>;

    /// The result register (registered) or the routed lanes (combinational) after the cycle.
    fn cycle(
        &mut self,
        cycle: u64,
        input: &RouteCycle,
        expected: &Vec<u64>,
    ) -> Result<(), Mismatch> {
        self.step(input.valid, &input.pass, &input.rs, &input.rf);
        let name = if self.params.registered {
            "result"
        } else {
            "routed"
        };
        self.model.read_vector(&self.out, &mut self.actual);
        for (t, (&value, &actual)) in expected.iter().zip(&self.actual).enumerate() {
            let pass = &input.pass;
            compare(cycle, || format!("{name}[{t}] ({pass:?})"), value, actual)?;
        }
        Ok(())
    }
}

impl LaneRouter for RouterRtl {
    fn route(&mut self, op: &LaneOp, rs: &[u64], rf: &[u64]) -> Vec<u64> {
        let pass = Pass::Lane(op.clone());
        self.step(true, &pass, rs, rf);
        self.drain(&pass, rs, rf);
        self.lanes()
    }
}
