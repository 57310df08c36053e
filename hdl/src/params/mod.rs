//! Parameter types of every block: plain data, validated once, shared by the RTL and the golden
//! models (the only thing the two sides share).

mod alloc;
mod cluster;
mod core;
mod gpr;
mod grf;
mod multiport;
mod names;
mod route;
mod table;

pub use self::core::{CaptureKind, CoreOp, CoreParams, OperandSource};
pub use alloc::{AllocParams, POOL_BITS, RESIDENT_BITS, SLOT_BITS};
pub use cluster::ClusterParams;
pub use gpr::{BankKind, GprParams};
pub use grf::{GrfOp, GrfParams, GrfStatus, Mapping};
pub use multiport::MultiportParams;
pub use names::{abbreviation, module_name, ABBREVIATIONS};
pub use route::{FillCode, RouteFullParams, RouteOpCode, RouteParams};
pub use table::{Allowed, Kind, NoOptions, Param, ParamValue, Params};

use std::fmt;

/// A parameter value outside its allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name as the command line spells it, e.g. `banks`.
    pub param: &'static str,
    /// The offending value, as given.
    pub value: String,
    /// The allowed values, in words, e.g. `1, 2, 4, 8 or 16`.
    pub allowed: String,
}

impl ParamError {
    /// A `ParamError` for `param` = `value`, allowed `allowed`.
    pub fn new(param: &'static str, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        Self {
            param,
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid value {} for --{}: allowed {}",
            self.value,
            self.param.replace('_', "-"),
            self.allowed
        )
    }
}

impl std::error::Error for ParamError {}
