//! What can go wrong in verilating, compiling or loading a model.

use std::fmt;
use std::io;

/// A failure to verilate, compile or load a model.
#[derive(Debug)]
pub enum VerilatorError {
    /// A tool is not installed.
    Missing {
        /// The program that was not found.
        tool: &'static str,
    },
    /// A tool ran and failed; `log` says how, in one line, and where its whole output is.
    Failed {
        /// What was being done.
        step: &'static str,
        /// The failure in one line (see [`grfgen_support::tool::failure`]).
        log: String,
    },
    /// A file-system error.
    Io(io::Error),
    /// The shared library could not be loaded or lacks an entry point.
    Load(String),
    /// The emitted design lacks a port the driver needs (a renamed or missing port).
    MissingPort {
        /// The design's top module.
        top: String,
        /// The port, or port group, that was looked for.
        port: String,
    },
}

impl fmt::Display for VerilatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerilatorError::Missing { tool } => write!(
                f,
                "{tool} not found; install it with: sudo apt-get install -y verilator g++"
            ),
            VerilatorError::Failed { step, log } => write!(f, "{step}: {log}"),
            VerilatorError::Io(e) => write!(f, "model cache: {e}"),
            VerilatorError::Load(e) => write!(f, "loading the model: {e}"),
            VerilatorError::MissingPort { top, port } => {
                write!(f, "the emitted design {top} has no port {port}")
            }
        }
    }
}

impl std::error::Error for VerilatorError {}

impl From<io::Error> for VerilatorError {
    fn from(e: io::Error) -> Self {
        VerilatorError::Io(e)
    }
}
