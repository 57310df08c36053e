//! Parameter types of every block: plain data, validated once, shared by the RTL and the golden
//! models (the only thing the two sides share).

mod core;
mod gpr;
mod grf;
mod route;

pub use self::core::CoreParams;
pub use gpr::GprParams;
pub use grf::{GrfParams, Mapping};
pub use route::{FillCode, RouteOpCode, RouteParams};

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

/// Checks that `value` is one of `allowed`.
pub(crate) fn check_one_of(
    param: &'static str,
    value: usize,
    allowed: &[usize],
) -> Result<(), ParamError> {
    if allowed.contains(&value) {
        return Ok(());
    }
    let words: Vec<String> = allowed.iter().map(|v| v.to_string()).collect();
    let (last, rest) = words.split_last().expect("allowed set is not empty");
    let text = if rest.is_empty() {
        last.clone()
    } else {
        format!("{} or {}", rest.join(", "), last)
    };
    Err(ParamError::new(param, value, text))
}

/// Checks that `value` lies in `low..=high`.
pub(crate) fn check_range(
    param: &'static str,
    value: usize,
    low: usize,
    high: usize,
) -> Result<(), ParamError> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(ParamError::new(param, value, format!("{low}..={high}")))
    }
}
