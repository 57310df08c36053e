//! The shader-core slice (SPEC S1, all of it): scheduler, data side, banked GPR.

mod datapath;
mod scheduler;
mod slice;

pub use datapath::CoreDatapath;
pub use scheduler::CoreScheduler;
pub use slice::CoreSlice;

use crate::emit::{emit, Emitted};
use crate::gpr::{with_widths, GprWidths};
use crate::params::{CoreParams, ParamError};

/// Emits the core slice for `params` with top module `top`.
pub fn emit_core(params: &CoreParams, top: &str) -> Result<Emitted, ParamError> {
    params.validate()?;
    struct Emit<'a>(&'a CoreParams, &'a str);
    impl GprWidths for Emit<'_> {
        type Output = Emitted;
        fn run<const E: usize, const A: usize, const RI: usize>(
            self,
            _: &crate::params::GprParams,
        ) -> Emitted {
            // The slice's lanes are 32 bits whatever E is: validation made E = 32.
            let mut slice = CoreSlice::<A, RI>::new(self.0);
            emit(&mut slice, self.1).expect("the core slice passes rust-hdl's checks")
        }
    }
    with_widths(&params.gpr, Emit(params, top))
}
