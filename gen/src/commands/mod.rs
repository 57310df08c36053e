//! One module per command family; each returns the text (or JSON) it prints.

pub mod blocks;
pub mod gpr;

use grfgen_hdl::params::ParamError;
use grfgen_sim::rng::Rng;

use crate::cli::RunArgs;
use crate::error::CliError;

/// The run's seed: the given one or a fresh one (always printed, so it can be replayed).
pub fn seed(run: &RunArgs) -> u64 {
    run.seed.unwrap_or_else(Rng::fresh_seed)
}

/// Verilator's seed for x randomisation, derived from the run's seed (never 0, which
/// Verilator reads as "pick one").
pub fn verilator_seed(seed: u64) -> u32 {
    (seed % 0x7fff_fffe) as u32 + 1
}

/// Checks the stimulus percentages.
pub fn check_run(run: &RunArgs) -> Result<(), CliError> {
    for (name, value) in [("load", run.load), ("hot", run.hot)] {
        if value > 100 {
            return Err(ParamError::new(name, value, "0..=100").into());
        }
    }
    Ok(())
}

/// Checks a top module name: a Verilog identifier.
pub fn check_top(name: &str) -> Result<(), CliError> {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(ParamError::new("top", name, "a Verilog identifier: [A-Za-z_][A-Za-z0-9_]*").into())
    }
}
