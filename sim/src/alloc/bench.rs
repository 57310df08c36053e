//! The allocator's benchmark: each placement of the release against memory latency, for the
//! document's example and generated shaders, on the golden model.

use grfgen_hdl::param;
use grfgen_hdl::params::{AllocParams, Allowed, Param, Params};
use serde::{Deserialize, Serialize};

use super::draw::Placement;
use super::options::{AllocOptions, MAX_WAVES};
use super::run::run;
use crate::block::{Report, Rtl, Setup, SimError};

/// The memory latencies the benchmark runs, cycles.
pub const LATENCIES: [u64; 4] = [1, 20, 100, 400];

/// The shaders the benchmark runs, with uniforms selecting a light path.
const SHADERS: [(&str, &str); 3] = [
    ("document", "mode=0"),
    ("nested", "quality=0"),
    ("nested", "quality=2"),
];

/// The options of the allocator's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocBenchOptions {
    /// Waves per draw.
    pub waves: u64,
}

impl Default for AllocBenchOptions {
    fn default() -> Self {
        Self { waves: 256 }
    }
}

impl Params for AllocBenchOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(waves, "waves per draw", "N", |_| Allowed::range(
            1, MAX_WAVES
        ))]
    }
}

/// One draw of the benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The shader.
    pub shader: &'static str,
    /// The draw's uniforms.
    pub uniform: &'static str,
    /// Memory latency, cycles.
    pub latency: u64,
    /// Where the release ran.
    pub placement: &'static str,
    /// Cycles per draw.
    pub cycles: u64,
    /// Waves resident on average.
    pub mean_resident_waves: f64,
    /// GPRs allocated and needed per wave.
    pub gprs: (usize, usize),
}

/// The benchmark's rows.
#[derive(Clone, Debug, Serialize)]
pub struct AllocBench {
    /// One per shader, latency and placement.
    pub rows: Vec<BenchRow>,
}

impl Report for AllocBench {
    fn text(&self) -> String {
        let mut text = format!(
            "{:<9} {:<10} {:>7} {:<18} {:>9} {:>9} {:>7}\n",
            "shader", "uniform", "latency", "placement", "cycles", "resident", "GPRs"
        );
        for r in &self.rows {
            text += &format!(
                "{:<9} {:<10} {:>7} {:<18} {:>9} {:>9.2} {:>3}/{:<3}\n",
                r.shader,
                r.uniform,
                r.latency,
                r.placement,
                r.cycles,
                r.mean_resident_waves,
                r.gprs.1,
                r.gprs.0
            );
        }
        text + "(the document claims a benefit only in words: these figures are the project's own)"
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Every shader x latency x placement, golden model, seed 1.
pub fn bench(params: &AllocParams, options: &AllocBenchOptions) -> Result<AllocBench, SimError> {
    let mut rows = Vec::new();
    for (shader, uniform) in SHADERS {
        for latency in LATENCIES {
            for (placement, name) in Placement::ALL {
                let options = AllocOptions {
                    uniform: uniform.to_string(),
                    placement,
                    waves: options.waves,
                    memory_latency: latency,
                    ..AllocOptions::example(shader)
                };
                let report = run(params, &options, &Setup::new(1, Rtl::Off))?;
                if let Some(m) = &report.lock_step.first_mismatch {
                    return Err(SimError::Mismatch(format!("{shader} {name}: {m}")));
                }
                rows.push(BenchRow {
                    shader,
                    uniform,
                    latency,
                    placement: name,
                    cycles: report.cycles,
                    mean_resident_waves: report.mean_resident_waves,
                    gprs: (report.allocated_gprs, report.needed_gprs),
                });
            }
        }
    }
    Ok(AllocBench { rows })
}
