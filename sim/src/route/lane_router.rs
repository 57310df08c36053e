//! One lane operation executed by the golden model or by the RTL router.

use super::model::{apply, LaneOp};

/// Executes one lane operation: the golden model or the RTL router.
pub trait LaneRouter {
    /// `op` applied to `rs` and `rf`.
    fn route(&mut self, op: &LaneOp, rs: &[u64], rf: &[u64]) -> Vec<u64>;
}

/// The golden model as a [`LaneRouter`].
pub struct GoldenRouter {
    /// Element width in bits.
    pub element_bits: usize,
}

impl LaneRouter for GoldenRouter {
    fn route(&mut self, op: &LaneOp, rs: &[u64], rf: &[u64]) -> Vec<u64> {
        apply(op, rs, rf, self.element_bits)
    }
}
