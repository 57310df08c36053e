//! The core's benchmark: every policy on every built-in workload against the lower bound.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, CoreParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::model::Policy;
use super::run::{run, CoreRun};
use super::workload::{builtin, NAMES};
use crate::block::{Report, SimError};

/// The options of the core's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreBenchOptions {
    /// Seed of the initial values and the random workloads.
    pub seed: u64,
}

impl Default for CoreBenchOptions {
    fn default() -> Self {
        Self { seed: 1 }
    }
}

impl Params for CoreBenchOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(
            seed,
            "seed of the initial values and the random workloads",
            "S",
            |_| Allowed::any("any number")
        )]
    }
}

/// The kernels the mean over the bound is taken on.
const KERNELS: [&str; 3] = ["conv3x3", "matmul4", "normalize"];

/// Every policy on every workload.
#[derive(Clone, Debug, Serialize)]
pub struct CoreBench {
    /// The seed.
    pub seed: u64,
    /// One run per workload and policy (golden model).
    pub runs: Vec<CoreRun>,
    /// Per policy, the mean of cycles over the bound on the kernels (conv3x3, matmul4,
    /// normalize).
    pub kernel_mean: Vec<(Policy, f64)>,
}

impl Report for CoreBench {
    fn text(&self) -> String {
        let mut text = String::from(
            "workload        policy  cycles  bound  x bound  SC  preloads  prefetches  stalls\n",
        );
        for r in &self.runs {
            text += &format!(
                "{:15} {:7} {:6} {:6}  {:7.3} {:3} {:9} {:11} {:7}\n",
                r.workload,
                r.policy.name(),
                r.cycles,
                r.lower_bound,
                r.ratio(),
                r.stats.sc_instructions,
                r.stats.cq_preloads,
                r.stats.pq_prefetches,
                r.stats.stall_cycles
            );
        }
        let means: Vec<String> = self
            .kernel_mean
            .iter()
            .map(|(p, mean)| format!("{} {mean:.3}", p.name()))
            .collect();
        text += &format!(
            "mean x bound over the kernels ({}): {}",
            KERNELS.join(", "),
            means.join(", ")
        );
        text
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        self.kernel_mean
            .iter()
            .map(|&(p, mean)| (p.name(), mean))
            .collect()
    }
}

/// Runs every policy on every built-in workload (golden model).
pub fn bench(params: &CoreParams, options: &CoreBenchOptions) -> Result<CoreBench, SimError> {
    let seed = options.seed;
    let mut runs = Vec::new();
    for name in NAMES {
        let workload = builtin(name, params, seed).map_err(SimError::Input)?;
        for p in Policy::ALL {
            runs.push(run(params, p, &workload, seed, None, false));
        }
    }
    let kernel_mean = Policy::ALL
        .iter()
        .map(|&p| {
            let ratios: Vec<f64> = runs
                .iter()
                .filter(|r| r.policy == p && KERNELS.contains(&r.workload.as_str()))
                .map(CoreRun::ratio)
                .collect();
            (p, ratios.iter().sum::<f64>() / ratios.len().max(1) as f64)
        })
        .collect();
    Ok(CoreBench {
        seed,
        runs,
        kernel_mean,
    })
}
