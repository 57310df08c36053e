//! Errors of the command line and their exit statuses.

use std::fmt;

use grfgen_hdl::params::ParamError;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a parameter out of range, a malformed file, a bad flag. Exit status 2.
    Input(String),
    /// The work itself failed: a tool error, an I/O error. Exit status 1.
    Failed(String),
    /// Co-simulation found the RTL and the golden model disagreeing. Exit status 1.
    Mismatch(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) | CliError::Mismatch(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Failed(m) | CliError::Mismatch(m) => f.write_str(m),
        }
    }
}

impl From<ParamError> for CliError {
    fn from(e: ParamError) -> Self {
        CliError::Input(e.to_string())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Failed(e.to_string())
    }
}

impl From<grfgen_sim::verilator::VerilatorError> for CliError {
    fn from(e: grfgen_sim::verilator::VerilatorError) -> Self {
        CliError::Failed(e.to_string())
    }
}
