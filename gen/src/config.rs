//! Block parameters from defaults, a JSON config file and flags, in that order of precedence.

use std::path::{Path, PathBuf};

use clap::Args;
use grfgen_hdl::params::GprParams;
use serde::Deserialize;

use crate::error::CliError;

/// The banked GPR's parameter flags.
#[derive(Args, Clone, Debug, Default)]
pub struct GprArgs {
    /// Number of 1W1R banks: 1, 2, 4, 8 or 16 [default 4]
    #[arg(long, value_name = "N")]
    pub banks: Option<usize>,
    /// Registers: banks x a power of two from 4 to 1024 rows [default 256]
    #[arg(long, value_name = "N")]
    pub registers: Option<usize>,
    /// Lanes per register entry: 1..=64 [default 4]
    #[arg(long, value_name = "N")]
    pub lanes: Option<usize>,
    /// Bits per lane: 8, 16, 32 or 64 [default 32]
    #[arg(long, value_name = "N")]
    pub element_bits: Option<usize>,
    /// Read ports: 1..=8 [default 4]
    #[arg(long, value_name = "N")]
    pub read_ports: Option<usize>,
    /// Write ports: 1..=4 [default 2]
    #[arg(long, value_name = "N")]
    pub write_ports: Option<usize>,
    /// JSON file with any of the parameters above (snake_case keys); flags override it
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// A config file's GPR parameters: any subset.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GprFile {
    banks: Option<usize>,
    registers: Option<usize>,
    lanes: Option<usize>,
    element_bits: Option<usize>,
    read_ports: Option<usize>,
    write_ports: Option<usize>,
}

/// Reads and parses a JSON config file into `T`, with errors that name the file.
pub fn read_config<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::Input(format!(
            "invalid value {} for --config: cannot read it ({e})",
            path.display()
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::Input(format!(
            "invalid value {} for --config: {e}; allowed: a JSON object of parameters",
            path.display()
        ))
    })
}

impl GprArgs {
    /// The parameters: defaults, overridden by the config file, overridden by flags; validated.
    pub fn resolve(&self) -> Result<GprParams, CliError> {
        let file: GprFile = match &self.config {
            Some(path) => read_config(path)?,
            None => GprFile::default(),
        };
        let default = GprParams::default();
        let pick = |flag: Option<usize>, file: Option<usize>, default: usize| {
            flag.or(file).unwrap_or(default)
        };
        let params = GprParams {
            banks: pick(self.banks, file.banks, default.banks),
            registers: pick(self.registers, file.registers, default.registers),
            lanes: pick(self.lanes, file.lanes, default.lanes),
            element_bits: pick(self.element_bits, file.element_bits, default.element_bits),
            read_ports: pick(self.read_ports, file.read_ports, default.read_ports),
            write_ports: pick(self.write_ports, file.write_ports, default.write_ports),
        };
        params.validate()?;
        Ok(params)
    }
}
