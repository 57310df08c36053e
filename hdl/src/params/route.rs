use serde::{Deserialize, Serialize};

use super::{Allowed, Param, Params};
use crate::param;

/// Parameters of the SIMD shift-and-fill operand router (SPEC S2). The allowed values are in
/// [`RouteParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteParams {
    /// SIMD lanes N.
    pub lanes: usize,
    /// Crossbar size q: lanes per first-stage crossbar.
    pub crossbar: usize,
    /// Bits per lane operand.
    pub element_bits: usize,
    /// Whether the result is registered (the router is its own pipeline stage). Multi-pass
    /// shuffles need it: their passes accumulate in the result register.
    pub registered: bool,
    /// Register stages inside the registered router: 1 after lane decode and register select,
    /// 2 also between the two networks, 3 also after the control decode. Each adds a cycle of
    /// latency, none of throughput.
    pub pipeline: usize,
}

impl Default for RouteParams {
    fn default() -> Self {
        Self {
            lanes: 32,
            crossbar: 4,
            element_bits: 32,
            registered: true,
            pipeline: Self::MAX_PIPELINE,
        }
    }
}

/// An accessor pair of a `usize` field of `P`.
type UsizeField<P> = (fn(&P) -> &usize, fn(&mut P) -> &mut usize);

/// The router's lane count and element width, shared by both networks.
fn lanes_and_width<P: 'static>(lanes: UsizeField<P>, bits: UsizeField<P>) -> [Param<P>; 2] {
    [
        Param::new("lanes", "SIMD lanes N", "N", lanes.0, lanes.1, |_| {
            Allowed::one_of(RouteParams::LANES)
        }),
        Param::new(
            "element_bits",
            "bits per lane operand",
            "N",
            bits.0,
            bits.1,
            |_| Allowed::one_of(RouteParams::ELEMENT_BITS),
        ),
    ]
}

impl Params for RouteParams {
    /// An unregistered router has no stages: `--registered false` alone means `--pipeline 0`.
    fn settle(&mut self, given: &dyn Fn(&str) -> bool) {
        if !self.registered && !given("pipeline") {
            self.pipeline = 0;
        }
    }

    fn table() -> Vec<Param<Self>> {
        let [lanes, bits] = lanes_and_width(
            (|p: &Self| &p.lanes, |p| &mut p.lanes),
            (|p: &Self| &p.element_bits, |p| &mut p.element_bits),
        );
        vec![
            lanes,
            param!(crossbar, "lanes per first-stage crossbar (q)", "Q", |p| {
                // The powers of two dividing the lanes, up to the most lanes: a lane count of 0
                // (refused by its own check) has every power of two as a divisor.
                let most = Self::LANES[Self::LANES.len() - 1].trailing_zeros();
                let sizes: Vec<usize> = (0..=p.lanes.trailing_zeros().min(most))
                    .map(|e| 1 << e)
                    .collect();
                Allowed::one_of(&sizes)
            }),
            bits,
            param!(
                registered,
                "result register (a pipeline stage; multi-pass shuffles need it)",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                pipeline,
                "register stages: 1 after lane decode, 2 also between the networks, 3 also after control decode, 4 also at the input",
                "N",
                |p| match p.registered {
                    true => Allowed::range(0, Self::MAX_PIPELINE),
                    false => Allowed::one_of(&[0]),
                }
            ),
        ]
    }
}

impl RouteParams {
    /// Allowed lane counts.
    pub const LANES: &'static [usize] = &[4, 8, 16, 32, 64];
    /// Allowed element widths.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Most register stages inside the router.
    pub const MAX_PIPELINE: usize = 4;

    /// Cycles from a pass to its result: 0 for the combinational network, otherwise the result
    /// register's cycle plus the pipeline stages.
    pub fn latency(&self) -> usize {
        match self.registered {
            true => 1 + self.pipeline,
            false => 0,
        }
    }

    /// Number of first-stage crossbars, N / q (also the input count of each lane's final mux).
    pub fn crossbars(&self) -> usize {
        self.lanes / self.crossbar
    }

    /// log2(N).
    pub fn lane_bits(&self) -> usize {
        self.lanes.trailing_zeros() as usize
    }

    /// log2(q).
    pub fn crossbar_bits(&self) -> usize {
        self.crossbar.trailing_zeros() as usize
    }
}

/// Parameters of the comparison network: one full N x N crossbar doing the router's
/// operations, combinational. The allowed values are in [`RouteFullParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteFullParams {
    /// SIMD lanes N.
    pub lanes: usize,
    /// Bits per lane operand.
    pub element_bits: usize,
}

impl Default for RouteFullParams {
    fn default() -> Self {
        let route = RouteParams::default();
        Self {
            lanes: route.lanes,
            element_bits: route.element_bits,
        }
    }
}

impl Params for RouteFullParams {
    fn table() -> Vec<Param<Self>> {
        lanes_and_width(
            (|p: &Self| &p.lanes, |p| &mut p.lanes),
            (|p: &Self| &p.element_bits, |p| &mut p.element_bits),
        )
        .into()
    }
}

impl RouteFullParams {
    /// The router parameters with the same lanes and width (combinational; `crossbar` unused).
    pub fn router(&self) -> RouteParams {
        RouteParams {
            lanes: self.lanes,
            crossbar: 1,
            element_bits: self.element_bits,
            registered: false,
            pipeline: 0,
        }
    }
}

/// The router's operation codes (the `op` input, 3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteOpCode {
    /// `shff.left`: shift towards lane 0 within each subset, fill the top lanes.
    ShffLeft = 0,
    /// `shff.right`: shift away from lane 0 within each subset, fill the bottom lanes.
    ShffRight = 1,
    /// Rotate towards lane 0 within each subset.
    RotateLeft = 2,
    /// Rotate away from lane 0 within each subset.
    RotateRight = 3,
    /// Every lane of a subset takes lane `amount` of the subset.
    Broadcast = 4,
    /// Lane `t` takes lane `t xor amount` (amount < m).
    Butterfly = 5,
    /// One pass of an arbitrary mapping, controlled per crossbar output and per lane.
    ShufflePass = 6,
    /// Every lane keeps its own `rs` value (code 7, reserved).
    Identity = 7,
}

/// What fills the lanes a shift vacates (the `fill` input, 2 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FillCode {
    /// The fill register `rf`.
    Register = 0,
    /// The constant 0.
    Zero = 1,
    /// The constant 1.
    One = 2,
    /// All bits set.
    Ones = 3,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossbar_must_be_a_power_of_two_within_the_group() {
        let p = RouteParams::default();
        p.validate().unwrap();
        assert_eq!(p.crossbars(), 8);
        let bad = RouteParams {
            crossbar: 3,
            ..p.clone()
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "invalid value 3 for --crossbar: allowed 1, 2, 4, 8, 16 or 32"
        );
        let bad = RouteParams { lanes: 12, ..p };
        assert_eq!(bad.validate().unwrap_err().param, "lanes");
    }
}
