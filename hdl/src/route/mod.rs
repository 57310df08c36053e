//! The SIMD shift-and-fill operand router (SPEC S2): decoder, register select, the two-stage
//! network, the registered router, and a full-crossbar network for comparison.

mod decoder;
mod full;
mod network;
mod router;
mod select;

pub use decoder::RouteDecoder;
pub use full::FullCrossbarNetwork;
pub use network::RouteNetwork;
pub use router::ShiftFillRouter;
pub use select::RegisterSelect;

use crate::emit::{emit, Emitted};
use crate::params::{ParamError, RouteParams};

/// Which routing network to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteVariant {
    /// The document's network: N/q crossbars of q x q and per-lane (N/q):1 muxes; registered
    /// or not as `params.registered` says.
    TwoStage,
    /// One full N x N crossbar, combinational, for comparison.
    FullCrossbar,
}

/// Emits the router for `params` with top module `top`.
pub fn emit_route(
    params: &RouteParams,
    variant: RouteVariant,
    top: &str,
) -> Result<Emitted, ParamError> {
    params.validate()?;
    fn build<const E: usize>(params: &RouteParams, variant: RouteVariant, top: &str) -> Emitted {
        let emitted = match (variant, params.registered) {
            (RouteVariant::TwoStage, true) => emit(&mut ShiftFillRouter::<E>::new(params), top),
            (RouteVariant::TwoStage, false) => emit(&mut RouteNetwork::<E>::new(params), top),
            (RouteVariant::FullCrossbar, _) => {
                emit(&mut FullCrossbarNetwork::<E>::new(params), top)
            }
        };
        emitted.expect("the router passes rust-hdl's checks")
    }
    Ok(match params.element_bits {
        8 => build::<8>(params, variant, top),
        16 => build::<16>(params, variant, top),
        32 => build::<32>(params, variant, top),
        64 => build::<64>(params, variant, top),
        other => unreachable!("element_bits {other} passed validation"),
    })
}
