//! Block parameters from defaults, a JSON config file and flags, in that order of precedence.

use std::path::{Path, PathBuf};

use clap::Args;
use grfgen_hdl::params::{CoreParams, GprParams, GrfParams, Mapping, ParamError, RouteParams};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::CliError;

/// A block's parameter struct, as the command line resolves it.
pub trait BlockParams: Serialize + DeserializeOwned + Default {
    /// Checks every parameter.
    fn validate(&self) -> Result<(), ParamError>;
}

impl BlockParams for GprParams {
    fn validate(&self) -> Result<(), ParamError> {
        GprParams::validate(self)
    }
}

impl BlockParams for RouteParams {
    fn validate(&self) -> Result<(), ParamError> {
        RouteParams::validate(self)
    }
}

/// The banked GPR's parameter flags (unset flags are skipped when serialised).
#[derive(Args, Clone, Debug, Default, Serialize)]
pub struct GprArgs {
    /// Number of 1W1R banks: 1, 2, 4, 8 or 16 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banks: Option<usize>,
    /// Registers: banks x a power of two from 4 to 1024 rows [default 256]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registers: Option<usize>,
    /// Lanes per register entry: 1..=64 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes: Option<usize>,
    /// Bits per lane: 8, 16, 32 or 64 [default 32]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element_bits: Option<usize>,
    /// Read ports: 1..=8 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_ports: Option<usize>,
    /// Write ports: 1..=4 [default 2]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_ports: Option<usize>,
    /// JSON file with any of the parameters above (snake_case keys); flags override it
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
}

impl GprArgs {
    /// The parameters: defaults, overridden by the config file, overridden by flags; validated.
    pub fn resolve(&self) -> Result<GprParams, CliError> {
        resolve(self.config.as_deref(), self)
    }
}

/// The shift-and-fill router's parameter flags.
#[derive(Args, Clone, Debug, Default, Serialize)]
pub struct RouteArgs {
    /// SIMD lanes N: 4, 8, 16, 32 or 64 [default 32]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes: Option<usize>,
    /// Crossbar size q: a power of two from 1 to N [default 4]
    #[arg(long, value_name = "Q")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossbar: Option<usize>,
    /// Bits per lane: 8, 16, 32 or 64 [default 32]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element_bits: Option<usize>,
    /// Register the result (a pipeline stage; needed by multi-pass shuffles) [default true]
    #[arg(long, value_name = "BOOL")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
    /// JSON file with any of the parameters above (snake_case keys); flags override it
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
}

impl RouteArgs {
    /// The parameters: defaults, overridden by the config file, overridden by flags; validated.
    pub fn resolve(&self) -> Result<RouteParams, CliError> {
        resolve(self.config.as_deref(), self)
    }
}

/// Reads and parses a JSON config file, with errors that name the file.
pub fn read_config(path: &Path) -> Result<Value, CliError> {
    let bad = |why: String| {
        CliError::Input(format!(
            "invalid value {} for --config: {why}; allowed: a JSON object of parameters",
            path.display()
        ))
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it ({e})")))?;
    serde_json::from_str(&text).map_err(|e| bad(e.to_string()))
}

/// `P`'s defaults, overridden by the object in `config`, overridden by the set `flags`;
/// validated.
pub fn resolve<P: BlockParams>(
    config: Option<&Path>,
    flags: &impl Serialize,
) -> Result<P, CliError> {
    let Value::Object(mut merged) = serde_json::to_value(P::default()).expect("defaults serialise")
    else {
        unreachable!("parameter structs serialise to objects")
    };
    let allowed: Vec<String> = merged.keys().cloned().collect();
    if let Some(path) = config {
        let bad = |why: String| {
            CliError::Input(format!(
                "invalid value {} for --config: {why}; allowed keys: {}",
                path.display(),
                allowed.join(", ")
            ))
        };
        let Value::Object(file) = read_config(path)? else {
            return Err(bad("not a JSON object".into()));
        };
        for (key, value) in file {
            if !merged.contains_key(&key) {
                return Err(bad(format!("unknown parameter `{key}`")));
            }
            merged.insert(key, value);
        }
        if let Err(e) = serde_json::from_value::<P>(Value::Object(merged.clone())) {
            return Err(bad(e.to_string()));
        }
    }
    let Value::Object(set): Value = serde_json::to_value(flags).expect("flags serialise") else {
        unreachable!("flag structs serialise to objects")
    };
    merged.extend(set);
    let params: P = serde_json::from_value(Value::Object(Map::from_iter(merged)))
        .map_err(|e| CliError::Input(format!("invalid parameters: {e}")))?;
    params.validate()?;
    Ok(params)
}

impl BlockParams for CoreParams {
    fn validate(&self) -> Result<(), ParamError> {
        CoreParams::validate(self)
    }
}

/// The core slice's parameter flags: the GPR's and its own.
#[derive(Args, Clone, Debug, Default, Serialize)]
pub struct CoreArgs {
    /// GPR parameters.
    #[command(flatten)]
    #[serde(flatten)]
    pub gpr: GprArgs,
    /// Conflict-queue entries: 0..=8 [default 2]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cq_entries: Option<usize>,
    /// Prefetch-queue entries: 0..=8 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pq_entries: Option<usize>,
    /// Later instructions preloads and prefetches may serve: 1..=4 [default 3]
    #[arg(long, value_name = "K")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lookahead: Option<usize>,
    /// ALU pipeline stages: 1..=8 [default 2]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alu_latency: Option<usize>,
}

impl CoreArgs {
    /// The parameters: defaults, overridden by the config file, overridden by flags; validated.
    pub fn resolve(&self) -> Result<CoreParams, CliError> {
        resolve(self.gpr.config.as_deref(), self)
    }
}

impl BlockParams for GrfParams {
    fn validate(&self) -> Result<(), ParamError> {
        GrfParams::validate(self)
    }
}

/// The hierarchical GRF's parameter flags.
#[derive(Args, Clone, Debug, Default, Serialize)]
pub struct GrfArgs {
    /// Execution units sharing the slow GRF: 1..=8 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eus: Option<usize>,
    /// Hardware threads per EU: 1..=4 [default 2]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Virtual blocks of 16 registers per thread: 1..=4 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub virtual_blocks: Option<usize>,
    /// Virtual blocks every thread has mapped at reset: 0..=virtual blocks [default 1]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preallocated: Option<usize>,
    /// Fast GRF entries per EU: 2, 4, 8, 16 or 32 [default 8]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fast_regs: Option<usize>,
    /// Slow GRF registers: 64, 128, 256, 512 or 1024 [default 256]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slow_regs: Option<usize>,
    /// Cycles from a slow GRF read to its data: 2..=8 [default 3]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slow_latency: Option<usize>,
    /// Lanes per register: 1..=8 [default 4]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes: Option<usize>,
    /// Bits per lane: 16 or 32 [default 32]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element_bits: Option<usize>,
    /// Physical blocks forming the low-energy part (variant B): 0..=slow regs / 16 [default 0]
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_energy_blocks: Option<usize>,
    /// Which allocations go to the low-energy part: none, threads:K or fraction:P [default none]
    #[arg(long, value_name = "POLICY", value_parser = clap::value_parser!(Mapping))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<Mapping>,
    /// JSON file with any of the parameters above (snake_case keys); flags override it
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
}

impl GrfArgs {
    /// The parameters: defaults, overridden by the config file, overridden by flags; validated.
    pub fn resolve(&self) -> Result<GrfParams, CliError> {
        resolve(self.config.as_deref(), self)
    }
}
