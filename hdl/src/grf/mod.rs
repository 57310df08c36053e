//! The hierarchical GRF (SPEC S3): fast GRFs per EU, the shared slow GRF, the translation
//! table with shared groups and barriers, and the L3 port for context switches.

mod cluster;
pub mod codes;
mod controller;
mod front;

pub use cluster::GrfCluster;
pub use controller::GrfController;
pub use front::GrfFrontEnds;

use crate::emit::{emit, Emitted};
use crate::params::{GrfParams, ParamError};

/// An operation on a GRF whose widths are compile-time constants: `E` element bits, `A` slow
/// GRF row-address bits.
pub trait GrfWidths {
    /// What the operation returns.
    type Output;
    /// Runs the operation for widths `E` and `A` (matching `params`).
    fn run<const E: usize, const A: usize>(self, params: &GrfParams) -> Self::Output;
}

/// Validates `params` and runs `op` with the matching widths.
pub fn with_grf_widths<V: GrfWidths>(params: &GrfParams, op: V) -> Result<V::Output, ParamError> {
    params.validate()?;
    fn rows<const E: usize, V: GrfWidths>(params: &GrfParams, op: V) -> V::Output {
        match params.slow_bits() {
            6 => op.run::<E, 6>(params),
            7 => op.run::<E, 7>(params),
            8 => op.run::<E, 8>(params),
            9 => op.run::<E, 9>(params),
            10 => op.run::<E, 10>(params),
            a => unreachable!("slow row bits {a} passed validation"),
        }
    }
    Ok(match params.element_bits {
        16 => rows::<16, V>(params, op),
        32 => rows::<32, V>(params, op),
        e => unreachable!("element_bits {e} passed validation"),
    })
}

/// Emits the hierarchical GRF for `params` with top module `top`.
pub fn emit_grf(params: &GrfParams, top: &str) -> Result<Emitted, ParamError> {
    struct Emit<'a>(&'a str);
    impl GrfWidths for Emit<'_> {
        type Output = Emitted;
        fn run<const E: usize, const A: usize>(self, params: &GrfParams) -> Emitted {
            let mut cluster = GrfCluster::<E, A>::new(params);
            emit(&mut cluster, self.0).expect("the GRF passes rust-hdl's checks")
        }
    }
    with_grf_widths(params, Emit(top))
}
