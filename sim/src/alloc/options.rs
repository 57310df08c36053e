//! The options of an allocator run: the shader (a named one or a file), the draw's uniforms,
//! where the release runs, the waves and the memory latency.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, Kind, Param, ParamValue, Params};
use serde::{Deserialize, Serialize};

use super::draw::Placement;
use super::examples::NAMES;
use crate::block::MAX_CYCLES;

impl ParamValue for Placement {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Placement::ALL
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(text))
            .map(|(p, _)| *p)
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// The options of an allocator run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocOptions {
    /// A named shader (or `shader`).
    pub example: Option<String>,
    /// A shader file in the documented text format (or `example`).
    pub shader: Option<String>,
    /// The draw's uniforms, `NAME=VALUE` separated by commas; others are 0.
    pub uniform: String,
    /// Where the release runs.
    pub placement: Placement,
    /// Waves in the draw.
    pub waves: u64,
    /// Cycles a load takes.
    pub memory_latency: u64,
    /// Whether the compiler packs each path's registers from r0 (else registers as written).
    pub pack: bool,
    /// Cycles of random traffic (`--example traffic` only).
    pub cycles: u64,
}

impl Default for AllocOptions {
    fn default() -> Self {
        Self {
            example: None,
            shader: None,
            uniform: String::new(),
            placement: Placement::Preamble,
            waves: 64,
            memory_latency: 20,
            pack: true,
            cycles: 100_000,
        }
    }
}

/// Most waves in one draw.
pub const MAX_WAVES: u64 = 1_000_000;
/// Longest memory latency, cycles.
pub const MAX_LATENCY: u64 = 100_000;

impl Params for AllocOptions {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(example, "a named shader (or --shader)", "NAME", |o| {
                Allowed::name_or_file(&NAMES, "--example", "--shader", o.shader.is_some())
            }),
            param!(
                shader,
                "a shader file in the documented text format (docs/alloc.md)",
                "FILE",
                |_| Allowed::any("a file path")
            ),
            param!(
                uniform,
                "the draw's uniforms, NAME=VALUE separated by commas (others are 0)",
                "LIST",
                |_| Allowed::any("names the shader declares, values 0..=4294967295")
            ),
            param!(placement, "where the release runs", "PLACE", |_| {
                Allowed::any("none, command-processor, preamble or main-shader")
            }),
            param!(waves, "waves in the draw", "N", |_| Allowed::range(
                1, MAX_WAVES
            )),
            param!(memory_latency, "cycles a load takes", "CYCLES", |_| {
                Allowed::range(1, MAX_LATENCY)
            }),
            param!(
                pack,
                "pack each path's registers from r0 (else registers as written)",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                cycles,
                "cycles of random traffic (--example traffic)",
                "N",
                |_| Allowed::range(1, MAX_CYCLES)
            ),
        ]
    }
}

impl AllocOptions {
    /// The options running the named shader.
    pub fn example(name: &str) -> Self {
        Self {
            example: Some(name.to_string()),
            ..Self::default()
        }
    }

    /// The uniforms' values, in the order of `names`: from `--uniform`, others 0.
    pub fn values(&self, names: &[String]) -> Result<Vec<u32>, String> {
        let mut values = vec![0; names.len()];
        for pair in self
            .uniform
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let bad = || {
                format!(
                    "invalid value {pair} for --uniform: allowed NAME=VALUE with NAME one of {} \
                     and VALUE 0..=4294967295",
                    names.join(", ")
                )
            };
            let (name, value) = pair.split_once('=').ok_or_else(bad)?;
            let k = names
                .iter()
                .position(|n| n == name.trim())
                .ok_or_else(bad)?;
            values[k] = value.trim().parse().map_err(|_| bad())?;
        }
        Ok(values)
    }
}
