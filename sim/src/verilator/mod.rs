//! Run-time Verilator layer: verilates any emitted design, compiles it with a small C++ shim
//! into a shared library, caches the library by a hash of its inputs, and drives it from Rust.
//!
//! It works with Verilator 5.006 (Debian bookworm) and newer. Nothing here knows about a
//! particular block: a design is Verilog text, a top module name and a port list.

mod assertions;
mod compile;
mod error;
mod foreign;
mod model;
mod shim;

pub use assertions::take_assertion;
pub use compile::{build, cache_dir, installed, verilator_seed, BuildOptions, MAX_THREADS};
pub use error::VerilatorError;
pub use foreign::{module_ports, Declared, Foreign, Select};
pub use model::{
    stop_waveform, waveform_stopped_at, Input, InputVector, Output, OutputVector, VerilatedModel,
};

use grfgen_hdl::emit::{waivers, Emitted, Port};

/// Waveform format written on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// Value change dump (`--trace`), readable by every viewer.
    Vcd,
    /// Fast signal trace (`--trace-fst`), compressed, for GTKWave.
    Fst,
}

impl TraceFormat {
    /// The format a waveform file name asks for: `.fst` gives FST, anything else VCD.
    pub fn for_path(path: &std::path::Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some("fst") => TraceFormat::Fst,
            _ => TraceFormat::Vcd,
        }
    }
}

/// A design to verilate: the Verilog text, its top module and the ports the model exposes.
#[derive(Clone, Copy, Debug)]
pub struct Design<'a> {
    /// Name of the top module.
    pub top: &'a str,
    /// The whole Verilog text.
    pub verilog: &'a str,
    /// Lint waivers to pass to Verilator (`.vlt` text), may be empty.
    pub waivers: &'a str,
    /// Top-level ports, in the order [`VerilatedModel::port`] indexes them.
    pub ports: &'a [Port],
}

/// Verilates a design as `grfgen-hdl` emitted it, with the project's waivers for its top (see
/// [`build`]).
pub fn build_emitted(
    emitted: &Emitted,
    options: &BuildOptions,
    trace: Option<&std::path::Path>,
) -> Result<VerilatedModel, VerilatorError> {
    let waivers = waivers(&emitted.top);
    let design = Design {
        top: &emitted.top,
        verilog: &emitted.simulation_text(),
        waivers: &waivers,
        ports: &emitted.ports,
    };
    build(&design, options, trace)
}
