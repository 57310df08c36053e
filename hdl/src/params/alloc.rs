use serde::{Deserialize, Serialize};

use super::{Allowed, Param, Params};
use crate::param;

/// Bits of a register count or register number in the pool (0..=511, the pool at most 256).
pub const POOL_BITS: usize = 9;
/// Bits of a wave-slot number (at most 32 slots).
pub const SLOT_BITS: usize = 5;
/// Bits of a count of resident waves (0..=32).
pub const RESIDENT_BITS: usize = 6;
/// Bits of a footprint, a release amount, or a count the pool reports (`launch_stalls`,
/// `released`): 32.
pub const AMOUNT_BITS: usize = 32;

/// Parameters of the GPR pool allocator (SPEC S5). The document gives no pool size,
/// granularity or wave slots: these are ours, with the worked example as the default
/// (96 registers per lane, granules of 4, 16 wave slots). The allowed values are in
/// [`AllocParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllocParams {
    /// Registers per lane in the pool (P).
    pub pool: usize,
    /// Allocation granularity in registers (g): every allocation is a whole number of granules.
    pub granularity: usize,
    /// Wave slots (W): the most waves resident at once.
    pub wave_slots: usize,
}

impl Default for AllocParams {
    fn default() -> Self {
        Self {
            pool: 96,
            granularity: 4,
            wave_slots: 16,
        }
    }
}

impl AllocParams {
    /// Granules in the pool.
    pub fn granules(&self) -> usize {
        self.pool / self.granularity
    }

    /// The registers an allocation for `footprint` registers takes: rounded up to granules.
    pub fn rounded(&self, footprint: usize) -> usize {
        footprint.div_ceil(self.granularity) * self.granularity
    }

    /// Waves resident at once when every wave takes `footprint` registers: whole allocations
    /// in the pool, at most the wave slots (`docs/alloc.md`, "Occupancy").
    pub fn occupancy(&self, footprint: usize) -> usize {
        match self.rounded(footprint) {
            0 => self.wave_slots,
            size => (self.pool / size).min(self.wave_slots),
        }
    }
}

impl Params for AllocParams {
    fn table() -> Vec<Param<Self>> {
        // The granularity comes first: the pool's check depends on it.
        vec![
            param!(
                granularity,
                "allocation granularity in registers (g)",
                "N",
                |_| { Allowed::one_of(&[1, 2, 4, 8, 16]) }
            ),
            param!(
                pool,
                "registers per lane in the pool (P), a whole number of granules",
                "N",
                |p| {
                    let g = p.granularity.max(1);
                    Allowed::matching(
                        format!("{g}..=256, a multiple of --granularity {g}"),
                        move |v: &usize| (g..=256).contains(v) && v.is_multiple_of(g),
                    )
                }
            ),
            param!(
                wave_slots,
                "wave slots (W): the most waves resident at once",
                "N",
                |_| { Allowed::range(1, 32) }
            ),
        ]
    }
}
