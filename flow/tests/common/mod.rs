//! Shared by the quality tests: a design's files written into a directory.

use std::path::Path;

use grfgen_flow::steps::write_design;
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;

/// Writes design `D` for `params` into `dir` under its own top name; returns the top.
pub fn emit_to<D: Design>(dir: &Path, params: &D::Params) -> String {
    let top = D::top(params);
    write_design::<D>(params, &top, dir, Timing::new(200.0, None).unwrap()).unwrap();
    top
}
