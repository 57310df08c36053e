//! The GPR pool allocator (SPEC S5): RTL and its design entry.

mod checker;
mod fit;
mod pool;
mod range;
mod slots;

pub use checker::AllocationChecker;
pub use fit::FirstFit;
pub use pool::GprPool;
pub use range::RangeMask;
pub use slots::WaveSlots;

use pool::pool_checks;

use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::AllocParams;

/// The GPR pool allocator as a design: `grfgen emit alloc`.
pub struct Alloc;

impl Design for Alloc {
    type Params = AllocParams;
    const NAME: &'static str = "alloc";
    const TITLE: &'static str =
        "GPR pool allocator: wave slots, first-fit granules, a per-draw footprint with release";
    const SPEC: &'static str = "S5";
    const MEMORIES: Option<&'static str> = None;
    const PORT_ORDER: PortOrder = &[];

    fn build(params: &AllocParams, top: &str) -> Result<Emitted, EmitError> {
        emit(&mut GprPool::new(params), top, Self::PORT_ORDER)
    }

    fn parts(params: &AllocParams) -> Result<Vec<Emitted>, EmitError> {
        let n = params.granules();
        Ok(vec![
            part("alloc_first_fit", FirstFit::new(n))?,
            part("alloc_range_mask", RangeMask::new(n))?,
            part("alloc_wave_slots", WaveSlots::new(params.wave_slots, n))?,
            part(
                "alloc_checker",
                AllocationChecker::new(params.wave_slots, n),
            )?,
            part("alloc_pool_check", pool_checks(n))?,
        ])
    }

    fn derived(params: &AllocParams) -> Vec<(&'static str, u64)> {
        vec![("granules", params.granules() as u64)]
    }
}
