//! The clustered file's benchmark: every named program compiled both ways, partitioned and
//! the baseline, side by side on the golden model of the hardware.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, ClusterParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::kernels::NAMES;
use super::options::ClusterOptions;
use super::run::{run, ClusterReport};
use crate::block::{Report, Rtl, Setup, SimError};

/// The options of the clustered file's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterBenchOptions {
    /// Random programs summed into the `random` rows.
    pub programs: u64,
}

impl Default for ClusterBenchOptions {
    fn default() -> Self {
        Self { programs: 200 }
    }
}

impl Params for ClusterBenchOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(
            programs,
            "random programs summed into the random rows",
            "N",
            |_| Allowed::range(1, 1_000_000)
        )]
    }
}

/// One program (or the random programs together) under one compiler.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The program's name.
    pub program: String,
    /// `partitioned` or `baseline`.
    pub compiler: &'static str,
    /// Programs summed.
    pub programs: u64,
    /// Local accesses over all register accesses.
    pub local_fraction: f64,
    /// Main-file reads and writes.
    pub main_accesses: u64,
    /// MOVs inserted.
    pub movs: u64,
    /// Local ranges spilled.
    pub spills: u64,
    /// Cycles.
    pub cycles: u64,
    /// Register-file energy, pJ.
    pub energy_pj: f64,
    /// Whether every output equalled the reference.
    pub outputs_equal: bool,
}

/// The benchmark: a row per program and compiler.
#[derive(Clone, Debug, Serialize)]
pub struct ClusterBench {
    /// The rows, partitioned then baseline for each program.
    pub rows: Vec<BenchRow>,
    /// Programs left out, with why.
    pub skipped: Vec<String>,
}

impl Report for ClusterBench {
    fn text(&self) -> String {
        let mut text = format!(
            "{:<10} {:<12} {:>8} {:>7} {:>9} {:>6} {:>7} {:>8} {:>11}\n",
            "program",
            "compiler",
            "programs",
            "local",
            "main acc",
            "MOVs",
            "spills",
            "cycles",
            "energy pJ"
        );
        for r in &self.rows {
            text += &format!(
                "{:<10} {:<12} {:>8} {:>6.1}% {:>9} {:>6} {:>7} {:>8} {:>11.1}{}\n",
                r.program,
                r.compiler,
                r.programs,
                100.0 * r.local_fraction,
                r.main_accesses,
                r.movs,
                r.spills,
                r.cycles,
                r.energy_pj,
                if r.outputs_equal {
                    ""
                } else {
                    "  OUTPUTS DIFFER"
                },
            );
        }
        for s in &self.skipped {
            text += &format!("skipped {s}\n");
        }
        // No blank line after the table: the report ends with its last row.
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Sums `reports` into one row.
fn row(program: &str, baseline: bool, reports: &[ClusterReport]) -> BenchRow {
    let sum = |f: fn(&ClusterReport) -> u64| reports.iter().map(f).sum::<u64>();
    let local = sum(|r| r.local_accesses);
    let main = sum(|r| r.main_accesses);
    BenchRow {
        program: program.to_string(),
        compiler: if baseline { "baseline" } else { "partitioned" },
        programs: reports.len() as u64,
        local_fraction: local as f64 / (local + main).max(1) as f64,
        main_accesses: main,
        movs: sum(|r| r.movs),
        spills: sum(|r| r.spills),
        cycles: sum(|r| r.cycles),
        energy_pj: reports.iter().map(|r| r.energy_pj).sum(),
        outputs_equal: reports.iter().all(|r| r.outputs_equal),
    }
}

/// Every named program, partitioned and baseline, on the golden model (seeds 1.., so the
/// random rows are the same programs for both compilers).
pub fn bench(
    params: &ClusterParams,
    options: &ClusterBenchOptions,
) -> Result<ClusterBench, SimError> {
    let mut bench = ClusterBench {
        rows: Vec::new(),
        skipped: Vec::new(),
    };
    for name in NAMES {
        let runs = if name == "random" {
            options.programs
        } else {
            1
        };
        for baseline in [false, true] {
            let options = ClusterOptions {
                baseline,
                ..ClusterOptions::example(name)
            };
            let reports: Result<Vec<ClusterReport>, SimError> = (1..=runs)
                .map(|seed| run(params, &options, &Setup::new(seed, Rtl::Off)))
                .collect();
            match reports {
                Ok(reports) => bench.rows.push(row(name, baseline, &reports)),
                Err(SimError::Input(why)) => {
                    if !baseline {
                        bench.skipped.push(format!("{name}: {why}"));
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok(bench)
}
