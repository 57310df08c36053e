//! Run-time parameters to compile-time widths for the GPR.
//!
//! rust-hdl widths are const generics. Every valid GPR configuration maps to one of
//! 4 element widths x 45 (row bits, register bits) pairs; [`with_widths`] picks the
//! instantiation. The set is exactly what [`GprParams::validate`] accepts.

use crate::params::{GprParams, ParamError};

/// An operation on a GPR whose widths are compile-time constants: `E` element bits,
/// `A` row-address bits, `RI` register-index bits.
pub trait GprWidths {
    /// What the operation returns.
    type Output;
    /// Runs the operation for widths `E`, `A`, `RI` (matching `params`).
    fn run<const E: usize, const A: usize, const RI: usize>(
        self,
        params: &GprParams,
    ) -> Self::Output;
}

/// Validates `params` and runs `op` with the matching widths.
pub fn with_widths<V: GprWidths>(params: &GprParams, op: V) -> Result<V::Output, ParamError> {
    params.validate()?;
    Ok(match params.element_bits {
        8 => by_rows::<8, V>(params, op),
        16 => by_rows::<16, V>(params, op),
        32 => by_rows::<32, V>(params, op),
        64 => by_rows::<64, V>(params, op),
        other => unreachable!("element_bits {other} passed validation"),
    })
}

fn by_rows<const E: usize, V: GprWidths>(params: &GprParams, op: V) -> V::Output {
    macro_rules! arms {
        ($(($a:literal, $($ri:literal),+)),+) => {
            match (params.row_bits(), params.register_bits()) {
                $($(($a, $ri) => op.run::<E, $a, $ri>(params),)+)+
                (a, ri) => unreachable!("row bits {a}, register bits {ri} passed validation"),
            }
        };
    }
    // Row bits 2..=10 (4..=1024 rows) x bank bits 0..=4 (1..=16 banks).
    arms!(
        (2, 2, 3, 4, 5, 6),
        (3, 3, 4, 5, 6, 7),
        (4, 4, 5, 6, 7, 8),
        (5, 5, 6, 7, 8, 9),
        (6, 6, 7, 8, 9, 10),
        (7, 7, 8, 9, 10, 11),
        (8, 8, 9, 10, 11, 12),
        (9, 9, 10, 11, 12, 13),
        (10, 10, 11, 12, 13, 14)
    )
}
