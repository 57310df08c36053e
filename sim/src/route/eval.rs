//! One lane operation, or one planned shuffle, on given lane values: through the golden model,
//! and through the Verilated router when asked (`grfgen route eval` and `route shuffle`).

use std::str::FromStr;

use grfgen_hdl::params::{ParamError, RouteParams};
use serde::Serialize;

use super::lane_router::LaneRouter;
use super::model::ShufflePass;
use super::model::{apply, Direction, Fill, LaneOp};
use super::plan::plan;
use super::verilated::RouterRtl;
use crate::bits::element_mask;
use crate::block::{Report, Setup, SimError};

/// The lane operations, in the document's spelling (`shff.left`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOpName {
    /// `shff.left`.
    ShffLeft,
    /// `shff.right`.
    ShffRight,
    /// `rotate.left`.
    RotateLeft,
    /// `rotate.right`.
    RotateRight,
    /// `broadcast`.
    Broadcast,
    /// `butterfly`.
    Butterfly,
}

impl LaneOpName {
    /// Every name as written.
    pub const NAMES: [&'static str; 6] = [
        "shff.left",
        "shff.right",
        "rotate.left",
        "rotate.right",
        "broadcast",
        "butterfly",
    ];
}

impl FromStr for LaneOpName {
    type Err = ParamError;

    fn from_str(text: &str) -> Result<Self, ParamError> {
        let all = [
            LaneOpName::ShffLeft,
            LaneOpName::ShffRight,
            LaneOpName::RotateLeft,
            LaneOpName::RotateRight,
            LaneOpName::Broadcast,
            LaneOpName::Butterfly,
        ];
        Self::NAMES
            .iter()
            .position(|&n| n.eq_ignore_ascii_case(text))
            .map(|i| all[i])
            .ok_or_else(|| ParamError::new("op", text, Self::NAMES.join(", ")))
    }
}

impl FromStr for Fill {
    type Err = ParamError;

    /// `rf`, `zero`, `one` or `ones`.
    fn from_str(text: &str) -> Result<Self, ParamError> {
        match text.to_ascii_lowercase().as_str() {
            "rf" => Ok(Fill::Register),
            "zero" => Ok(Fill::Zero),
            "one" => Ok(Fill::One),
            "ones" => Ok(Fill::Ones),
            _ => Err(ParamError::new("fill", text, "rf, zero, one or ones")),
        }
    }
}

/// A lane operation as given on the command line, before it is checked against the group.
#[derive(Clone, Copy, Debug)]
pub struct LaneOpRequest {
    /// The operation.
    pub name: LaneOpName,
    /// Subset size m (default: the whole group).
    pub m: Option<usize>,
    /// Shift or rotate amount.
    pub amount: Option<usize>,
    /// Lane of each subset to broadcast.
    pub lane: Option<usize>,
    /// Butterfly XOR mask.
    pub mask: Option<usize>,
    /// What fills vacated lanes of a shift.
    pub fill: Fill,
}

impl LaneOpRequest {
    /// The lane operation for a group of `lanes`, or the first thing wrong with it.
    pub fn check(&self, lanes: usize) -> Result<LaneOp, SimError> {
        let m = self.m.unwrap_or(lanes);
        if !(m.is_power_of_two() && (2..=lanes).contains(&m)) {
            let allowed = format!("a power of two from 2 to {lanes}");
            return Err(ParamError::new("mod", m, allowed).into());
        }
        let required = |value: Option<usize>, flag: &str| {
            value
                .ok_or_else(|| SimError::Input(format!("missing --{flag}: the operation needs it")))
        };
        let below_m = |value: usize, flag: &'static str| {
            if value < m {
                Ok(value)
            } else {
                let allowed = format!("0..={} (below --mod {m})", m - 1);
                Err(SimError::from(ParamError::new(flag, value, allowed)))
            }
        };
        let direction = match self.name {
            LaneOpName::ShffLeft | LaneOpName::RotateLeft => Direction::Left,
            _ => Direction::Right,
        };
        Ok(match self.name {
            LaneOpName::ShffLeft | LaneOpName::ShffRight => LaneOp::Shff {
                direction,
                m,
                amount: required(self.amount, "amount")?,
                fill: self.fill,
            },
            LaneOpName::RotateLeft | LaneOpName::RotateRight => LaneOp::Rotate {
                direction,
                m,
                amount: required(self.amount, "amount")?,
            },
            LaneOpName::Broadcast => LaneOp::Broadcast {
                m,
                lane: below_m(required(self.lane, "lane")?, "lane")?,
            },
            LaneOpName::Butterfly => LaneOp::Butterfly {
                m,
                mask: below_m(required(self.mask, "mask")?, "mask")?,
            },
        })
    }
}

/// The lanes a lane operation or a shuffle produced.
#[derive(Clone, Debug, Serialize)]
pub struct LanesReport {
    /// The value of every lane.
    pub result: Vec<u64>,
    /// Router passes taken.
    pub passes: usize,
    /// Whether the Verilated router ran and agreed.
    pub rtl_checked: bool,
    /// A shuffle's passes, as the router's controls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Vec<ShufflePass>>,
}

impl Report for LanesReport {
    fn rtl(&self) -> bool {
        self.rtl_checked
    }

    fn text(&self) -> String {
        let values: Vec<String> = self.result.iter().map(u64::to_string).collect();
        let agrees = if self.rtl_checked {
            " (RTL router agrees)"
        } else {
            ""
        };
        let mut text = format!(
            "result: {}\npasses: {}{agrees}",
            values.join(","),
            self.passes
        );
        for (i, pass) in self.plan.iter().flatten().enumerate() {
            let lanes: Vec<String> = (0..pass.capture.len())
                .filter(|&t| pass.capture[t])
                .map(|t| t.to_string())
                .collect();
            text += &format!(
                "\npass {i}: crossbar positions {:?}, lanes captured {}",
                pass.xbar_pos,
                lanes.join(",")
            );
        }
        text
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![("passes", self.passes as f64)]
    }
}

/// Checks a list of lane values given as `flag`: one per lane, each fitting `bits`.
fn check_values(flag: &'static str, values: &[u64], params: &RouteParams) -> Result<(), SimError> {
    let lanes = params.lanes;
    if values.len() != lanes {
        let allowed = format!("exactly {lanes} values, one per lane of --lanes {lanes}");
        return Err(ParamError::new(flag, format!("{} values", values.len()), allowed).into());
    }
    let bits = params.element_bits;
    let mask = element_mask(bits);
    match values.iter().find(|&&v| v & !mask != 0) {
        Some(v) => Err(ParamError::new(flag, v, format!("values 0..={mask} ({bits} bits)")).into()),
        None => Ok(()),
    }
}

/// Fails with a mismatch where the RTL's lanes differ from the model's.
fn agree(expected: &[u64], actual: &[u64]) -> Result<(), SimError> {
    match expected.iter().zip(actual).position(|(e, a)| e != a) {
        None => Ok(()),
        Some(t) => Err(SimError::Mismatch(format!(
            "the RTL router disagrees with the golden model on lane {t}: expected {}, got {}",
            expected[t], actual[t]
        ))),
    }
}

/// `op` on `rs` and `rf` (zeros when empty: allowed unless the op fills from the register).
pub fn evaluate(
    params: &RouteParams,
    op: &LaneOp,
    rs: &[u64],
    rf: &[u64],
    setup: &Setup,
) -> Result<LanesReport, SimError> {
    check_values("rs", rs, params)?;
    // Without --rf the fill register holds zeros, as the help says.
    let zeros = vec![0; params.lanes];
    let rf = if rf.is_empty() {
        &zeros[..]
    } else {
        check_values("rf", rf, params)?;
        rf
    };
    let result = apply(op, rs, rf, params.element_bits);
    let rtl_checked = setup.with_rtl(true, "")?;
    if rtl_checked {
        let actual = RouterRtl::build(params, setup)?.route(op, rs, rf);
        agree(&result, &actual)?;
    }
    Ok(LanesReport {
        result,
        passes: 1,
        rtl_checked,
        plan: None,
    })
}

/// The shuffle `map` (lane `t` takes lane `map[t]`) of `rs`, planned into router passes.
pub fn shuffle(
    params: &RouteParams,
    map: &[usize],
    rs: &[u64],
    setup: &Setup,
) -> Result<LanesReport, SimError> {
    check_values("rs", rs, params)?;
    let plan = plan(params, map).map_err(|e| SimError::Input(e.to_string()))?;
    let passes = plan.passes.len();
    if passes > 1 && !params.registered {
        return Err(SimError::Input(format!(
            "invalid value false for --registered: this mapping needs {passes} passes, which \
             accumulate in the result register"
        )));
    }
    let result: Vec<u64> = map.iter().map(|&s| rs[s]).collect();
    let rtl_checked = setup.with_rtl(true, "")?;
    if rtl_checked {
        let actual = RouterRtl::build(params, setup)?.run_plan(&plan, rs);
        agree(&result, &actual)?;
    }
    Ok(LanesReport {
        result,
        passes,
        rtl_checked,
        plan: Some(plan.passes),
    })
}
