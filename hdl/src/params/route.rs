use serde::{Deserialize, Serialize};

use super::{check_one_of, ParamError};

/// Parameters of the SIMD shift-and-fill operand router (SPEC S2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteParams {
    /// SIMD lanes N: 4, 8, 16, 32 or 64.
    pub lanes: usize,
    /// Crossbar size q (lanes per first-stage crossbar): a power of two from 1 to N.
    pub crossbar: usize,
    /// Bits per lane operand: 8, 16, 32 or 64.
    pub element_bits: usize,
    /// Whether the result is registered (the router is its own pipeline stage). Multi-pass
    /// shuffles need it: their passes accumulate in the result register.
    pub registered: bool,
}

impl Default for RouteParams {
    fn default() -> Self {
        Self {
            lanes: 32,
            crossbar: 4,
            element_bits: 32,
            registered: true,
        }
    }
}

impl RouteParams {
    /// Allowed lane counts.
    pub const LANES: &'static [usize] = &[4, 8, 16, 32, 64];
    /// Allowed element widths.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Width of every lane-index and amount field of the control interface: enough for 64
    /// lanes and for amounts up to 64 (a shift by the whole group).
    pub const INDEX_BITS: usize = 7;

    /// Checks every parameter; the first one out of range is reported.
    pub fn validate(&self) -> Result<(), ParamError> {
        check_one_of("lanes", self.lanes, Self::LANES)?;
        let crossbars: Vec<usize> = (0..=self.lanes.trailing_zeros()).map(|e| 1 << e).collect();
        check_one_of("crossbar", self.crossbar, &crossbars)?;
        check_one_of("element_bits", self.element_bits, Self::ELEMENT_BITS)
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

    /// A module name that encodes the configuration, e.g. `route_l32_q4_e32`.
    pub fn module_name(&self) -> String {
        format!(
            "route_l{}_q{}_e{}{}",
            self.lanes,
            self.crossbar,
            self.element_bits,
            if self.registered { "" } else { "_comb" }
        )
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
