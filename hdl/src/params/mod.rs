//! Parameter types of every block: plain data, validated once, shared by the RTL and the golden
//! models (the only thing the two sides share).

mod alloc;
mod cluster;
mod core;
mod gpr;
mod grf;
mod memory;
mod multiport;
mod names;
mod route;
mod suggest;
mod table;
mod waves;

pub use self::core::{CaptureKind, CoreOp, CoreParams, CoreUnit, OperandSource, SOURCES};
pub use alloc::{AllocParams, AMOUNT_BITS, POOL_BITS, RESIDENT_BITS, SLOT_BITS};
pub use cluster::ClusterParams;
pub use gpr::{BankKind, BankMap, GprParams};
pub use grf::{GrfOp, GrfParams, GrfStatus, Mapping};
pub use memory::Memory;
pub use multiport::{MultiportParams, TableEncoding};
pub use names::{abbreviation, module_name, ABBREVIATIONS};
pub use route::{FillCode, RouteFullParams, RouteOpCode, RouteParams};
pub use suggest::{flag_suggestion, suggestion};
pub use table::{Allowed, Kind, NoOptions, Param, ParamValue, Params};
pub use waves::{IssuePolicy, Waves};

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
        // A value is echoed up to 40 characters: a 100,000-digit number is not repeated whole.
        let mut value: String = self.value.chars().take(40).collect();
        if self.value.chars().nth(40).is_some() {
            value.push_str("...");
        }
        if value.is_empty() {
            value = "''".into();
        }
        write!(
            f,
            "invalid value {value} for --{}: allowed {}",
            self.param.replace('_', "-"),
            self.allowed
        )?;
        // A word that misspells one of the allowed words: say which.
        let words = self
            .allowed
            .split(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)))
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()) && w.len() > 1);
        let numeric = self.value.chars().all(|c| c.is_ascii_digit() || c == '-');
        match suggestion(&self.value, words) {
            Some(near) if !numeric => write!(f, "; did you mean {near}?"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for ParamError {}
