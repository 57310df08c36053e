//! Errors of the command line and their exit statuses.

use std::fmt;

use grfgen_flow::FlowError;
use grfgen_hdl::emit::{EmitError, WriteError};
use grfgen_hdl::params::ParamError;
use grfgen_sim::block::SimError;
use grfgen_support::input::{shown, shown_keeping};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a parameter out of range, a malformed file, a bad flag. Exit status 2.
    Input(String),
    /// The work itself failed: a tool error, an I/O error. Exit status 1.
    Failed(String),
    /// The work ran and found something wrong (the RTL and the golden model disagree, a flow
    /// step failed): `report` is printed, then `message`. Exit status 1.
    Found {
        /// What the command reports, printed on standard output.
        report: String,
        /// What went wrong, printed on standard error.
        message: String,
    },
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) | CliError::Found { .. } => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Bad input is one line, whatever the value or the file held.
            CliError::Input(m) => f.write_str(&shown(m)),
            // A tool's log keeps its lines; nothing else reaches the terminal raw.
            CliError::Failed(m) => f.write_str(&shown_keeping(m, &['\n', '\t'])),
            CliError::Found { message, .. } => f.write_str(&shown_keeping(message, &['\n', '\t'])),
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

impl From<SimError> for CliError {
    fn from(e: SimError) -> Self {
        match e {
            SimError::Input(m) => CliError::Input(m),
            e => CliError::Failed(e.to_string()),
        }
    }
}

impl From<FlowError> for CliError {
    fn from(e: FlowError) -> Self {
        match e {
            FlowError::Input(m) => CliError::Input(m),
            FlowError::Sim(e) => e.into(),
            e => CliError::Failed(e.to_string()),
        }
    }
}

impl From<EmitError> for CliError {
    fn from(e: EmitError) -> Self {
        match e {
            EmitError::Param(e) => e.into(),
            e => CliError::Failed(e.to_string()),
        }
    }
}

impl From<WriteError> for CliError {
    fn from(e: WriteError) -> Self {
        FlowError::from(e).into()
    }
}
