//! The router's signal widths, in one place. rust-hdl fixes every width at compile time
//! (`docs/rust-hdl.md`, 1), so each is the width of its quantity at the largest value the
//! parameter table allows (`RouteParams::table`), as `log2Ceil` of that maximum; an encoding's
//! width is that of its highest code (`params::route`). Smaller routers use the same widths.

use rust_hdl::prelude::Bits;

use crate::params::{FillCode, RouteOpCode, RouteParams};
use crate::widths::bits_for;

/// The largest of `values`.
const fn largest(values: &[usize]) -> usize {
    let (mut most, mut i) = (0, 0);
    while i < values.len() {
        if values[i] > most {
            most = values[i];
        }
        i += 1;
    }
    most
}

/// Lanes of the largest router (`RouteParams::LANES`): 64.
pub const MAX_LANES: usize = largest(RouteParams::LANES);

/// Bits of an operation code (`RouteOpCode`, codes 0 to 7): 3 bits.
pub const OP_BITS: usize = bits_for(RouteOpCode::Identity as usize + 1);
/// Bits of a fill code (`FillCode`, codes 0 to 3): 2 bits.
pub const FILL_BITS: usize = bits_for(FillCode::Ones as usize + 1);
/// Bits of a log2 of a lane count (the subset size m, the crossbar size q), 0 to log2(64) = 6:
/// 3 bits.
pub const LOG2_BITS: usize = bits_for(bits_for(MAX_LANES) + 1);
/// Bits of every lane-index and amount field of the control interface: lanes, positions and
/// crossbars below 64, amounts up to 64 (a shift by the whole group): 7 bits.
pub const INDEX_BITS: usize = bits_for(MAX_LANES + 1);

/// An operation code (`RouteOpCode`).
pub type OpCode = Bits<OP_BITS>;
/// What fills the lanes a shift vacates (`FillCode`).
pub type FillSource = Bits<FILL_BITS>;
/// log2 of a subset size (`mod_log2`) or of the crossbar size.
pub type Log2Lanes = Bits<LOG2_BITS>;
/// A lane, input position or crossbar number, an amount, or a mask of them.
pub type LaneIndex = Bits<INDEX_BITS>;
/// One bit per lane of the largest group (64 lanes): the amount's thermometer code, a lane's
/// one-hot offset in its subset.
pub type LaneMask = Bits<MAX_LANES>;
