//! The energy model of the GRF's accesses: energy per access of one 32-bit element, per level.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, GrfParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::model::GrfStats;

/// Energy per access of one 32-bit element, in pJ (an access moves `lanes x element_bits`).
/// The defaults are illustrative ratios; `docs/grf.md` says where they come from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Energy {
    /// Fast GRF.
    pub fast_pj: f64,
    /// Slow GRF, high-capacity part (the whole slow GRF without variant B).
    pub slow_pj: f64,
    /// Slow GRF, low-energy part (variant B).
    pub slow_low_pj: f64,
    /// L3.
    pub l3_pj: f64,
}

impl Default for Energy {
    fn default() -> Self {
        Self {
            fast_pj: 0.5,
            slow_pj: 3.0,
            slow_low_pj: 1.5,
            l3_pj: 30.0,
        }
    }
}

/// Energies are numbers, zero or more.
fn non_negative(_: &Energy) -> Allowed<f64> {
    Allowed::matching("a number >= 0", |&v: &f64| v >= 0.0)
}

impl Params for Energy {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(
                fast_pj,
                "pJ per fast GRF access of a 32-bit element",
                "PJ",
                non_negative
            ),
            param!(
                slow_pj,
                "pJ per slow GRF access (high-capacity part, or all of it without variant B)",
                "PJ",
                non_negative
            ),
            param!(
                slow_low_pj,
                "pJ per slow GRF access in the low-energy part (variant B)",
                "PJ",
                non_negative
            ),
            param!(
                l3_pj,
                "pJ per L3 access of a 32-bit element",
                "PJ",
                non_negative
            ),
        ]
    }
}

impl Energy {
    /// The energy of `stats`' accesses, in pJ.
    pub fn total(&self, stats: &GrfStats, params: &GrfParams) -> f64 {
        let elements = (params.lanes * params.element_bits) as f64 / 32.0;
        elements
            * (stats.fast_accesses as f64 * self.fast_pj
                + stats.slow_accesses_low as f64 * self.slow_low_pj
                + stats.slow_accesses_high as f64 * self.slow_pj
                + (stats.l3_reads + stats.l3_writes) as f64 * self.l3_pj)
    }
}
