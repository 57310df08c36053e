//! grfgen's external tools and the flow that chains them: an emitted design's files written,
//! linted by Verilator, synthesized by Yosys, and co-simulated in lock step with its golden
//! model. Data flows one way: parameters to `grfgen-hdl` (files), to the tools, to
//! `grfgen-sim` (co-simulation), to a report.

pub mod cache;
pub mod compare;
pub mod mutate;
pub mod pnr;
pub mod steps;
pub mod tools;

use std::fmt;

use grfgen_hdl::emit::{EmitError, WriteError};
use grfgen_hdl::params::ParamError;
use grfgen_sim::block::SimError;

/// Why a flow (or a tool run) could not be made.
#[derive(Debug)]
pub enum FlowError {
    /// Bad input: a parameter out of range, a destination that is not a directory.
    Input(String),
    /// A tool is missing or failed.
    Tool(String),
    /// The file system refused.
    Io(std::io::Error),
    /// The co-simulation could not be set up.
    Sim(SimError),
    /// rust-hdl refused the design (a bug in a block).
    Emit(String),
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlowError::Input(why) | FlowError::Tool(why) | FlowError::Emit(why) => f.write_str(why),
            FlowError::Io(e) => e.fmt(f),
            FlowError::Sim(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FlowError {}

impl From<std::io::Error> for FlowError {
    fn from(e: std::io::Error) -> Self {
        FlowError::Io(e)
    }
}

impl From<ParamError> for FlowError {
    fn from(e: ParamError) -> Self {
        FlowError::Input(e.to_string())
    }
}

impl From<SimError> for FlowError {
    fn from(e: SimError) -> Self {
        FlowError::Sim(e)
    }
}

impl From<EmitError> for FlowError {
    fn from(e: EmitError) -> Self {
        match e {
            EmitError::Param(e) => e.into(),
            EmitError::Rejected(_) => FlowError::Emit(e.to_string()),
        }
    }
}

impl From<WriteError> for FlowError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::NotADirectory(_) | WriteError::Taken(_) => FlowError::Input(e.to_string()),
            WriteError::Io { ref error, .. } => {
                FlowError::Io(std::io::Error::new(error.kind(), e.to_string()))
            }
        }
    }
}
