//! The banked GPR (SPEC S1): RTL and emission.

mod rtl;
mod widths;

pub use rtl::BankedGpr;
pub use widths::{with_widths, GprWidths};

use crate::emit::{emit, Emitted};
use crate::params::{GprParams, ParamError};

/// Emits the GPR for `params` with top module `top`.
pub fn emit_gpr(params: &GprParams, top: &str) -> Result<Emitted, ParamError> {
    struct Emit<'a>(&'a str);
    impl GprWidths for Emit<'_> {
        type Output = Emitted;
        fn run<const E: usize, const A: usize, const RI: usize>(
            self,
            params: &GprParams,
        ) -> Emitted {
            let mut gpr = BankedGpr::<E, A, RI>::new(params);
            emit(&mut gpr, self.0).expect("the banked GPR passes rust-hdl's checks")
        }
    }
    with_widths(params, Emit(top))
}
