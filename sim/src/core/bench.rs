//! The core's benchmark: every policy on every built-in workload against the lower bound, or
//! on program files (`--program FILE...`, [`super::program_bench`]).

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::allocated::{allocated_figures, AllocationFigures};
use super::model::Policy;
use super::options::CoreBenchOptions;
use super::program_bench::{self, ProgramBench};
use super::run::{run, CoreRun};
use super::waves::settle;
use super::workload::{builtin, Workload, NAMES};
use crate::block::{Report, SimError};

/// The kernels the mean over the bound is taken on.
const KERNELS: [&str; 3] = ["conv3x3", "matmul4", "normalize"];

/// What the core's benchmark reports: the built-in workloads, or the program files.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum CoreBench {
    /// Every policy on every built-in workload.
    Workloads(WorkloadBench),
    /// One row per program file, and the geometric mean.
    Programs(ProgramBench),
}

impl Report for CoreBench {
    fn text(&self) -> String {
        match self {
            CoreBench::Workloads(b) => b.text(),
            CoreBench::Programs(b) => b.text(),
        }
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        match self {
            CoreBench::Workloads(b) => b.metrics(),
            CoreBench::Programs(b) => b.metrics(),
        }
    }
}

/// Every policy on every workload.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadBench {
    /// The seed.
    pub seed: u64,
    /// One run per workload and policy (golden model).
    pub runs: Vec<CoreRun>,
    /// Per policy, the mean of cycles over the bound on the kernels (conv3x3, matmul4,
    /// normalize).
    pub kernel_mean: Vec<(Policy, f64)>,
    /// With `--allocate`: per workload, the allocated program's figures under `cq-pq`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allocated: Vec<AllocatedRun>,
    /// The workloads left out because the waves asked for do not fit their registers, each
    /// with the refusal.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
}

/// One workload before and after allocation, under `cq-pq`, against the ideal file.
#[derive(Clone, Debug, Serialize)]
pub struct AllocatedRun {
    /// The workload.
    pub workload: String,
    /// The figures.
    #[serde(flatten)]
    pub figures: AllocationFigures,
}

impl AllocatedRun {
    /// The allocated program's cycles over the ideal file's.
    pub fn over_ideal(&self) -> f64 {
        self.figures.cycles_after as f64 / self.figures.ideal_cycles.max(1) as f64
    }

    /// The program as written's cycles over the ideal file's.
    pub fn before_over_ideal(&self) -> f64 {
        self.figures.cycles_before as f64 / self.figures.ideal_cycles.max(1) as f64
    }
}

/// The mean over the kernels of `f` of each allocated run.
fn kernel_mean_of(runs: &[AllocatedRun], f: fn(&AllocatedRun) -> f64) -> f64 {
    let kernels: Vec<f64> = (runs.iter())
        .filter(|r| KERNELS.contains(&r.workload.as_str()))
        .map(f)
        .collect();
    kernels.iter().sum::<f64>() / kernels.len().max(1) as f64
}

impl Report for WorkloadBench {
    fn text(&self) -> String {
        let mut text = String::from(
            "workload        policy  waves  cycles  bound  x bound    ipc  SC  preloads  prefetches  stalls\n",
        );
        for r in &self.runs {
            text += &format!(
                "{:15} {:7} {:5} {:7} {:6}  {:7.3}  {:5.3} {:3} {:9} {:11} {:7}\n",
                r.workload,
                r.policy.name(),
                r.waves,
                r.cycles,
                r.lower_bound,
                r.ratio(),
                r.ipc,
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
            match means.is_empty() {
                true => "none ran".to_string(),
                false => means.join(", "),
            }
        );
        for refusal in &self.not_run {
            text += &format!("\nnot run: {refusal}");
        }
        if !self.allocated.is_empty() {
            text += "\n\nallocated, cq-pq: workload, cycles before -> after, the ideal file's, \
                     after over ideal, bank conflicts before -> after\n";
            for r in &self.allocated {
                let f = &r.figures;
                text += &format!(
                    "{:15} {:6} -> {:6}  ideal {:6}  {:.3}x  conflicts {} -> {}\n",
                    r.workload,
                    f.cycles_before,
                    f.cycles_after,
                    f.ideal_cycles,
                    r.over_ideal(),
                    f.allocation.conflicts_before,
                    f.allocation.conflicts_after
                );
            }
            text += &format!(
                "kernel mean over the ideal file: {:.3}x before, {:.3}x after allocation",
                kernel_mean_of(&self.allocated, AllocatedRun::before_over_ideal),
                kernel_mean_of(&self.allocated, AllocatedRun::over_ideal)
            );
        }
        text
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        self.kernel_mean
            .iter()
            .map(|&(p, mean)| (p.name(), mean))
            .collect()
    }
}

/// Runs every policy on every built-in workload, or on the program files the options name
/// (golden model).
pub fn bench(params: &CoreParams, options: &CoreBenchOptions) -> Result<CoreBench, SimError> {
    if !options.programs.program.is_empty() {
        return program_bench::bench(params, options).map(CoreBench::Programs);
    }
    let seed = options.seed;
    let workload = |name: &str| {
        builtin(name, params, seed)
            .map(|w| Workload {
                latencies: options.latencies.clone(),
                wave_base: options.wave_base,
                ..w
            })
            .map_err(SimError::Input)
    };
    let (mut runs, mut not_run) = (Vec::new(), Vec::new());
    for name in NAMES {
        let workload = workload(name)?;
        let params = match settle(params, &workload.program, workload.wave_base) {
            Ok(settled) => settled,
            Err(SimError::Input(why)) if params.wave_count() > 1 => {
                not_run.push(format!("{name}: {why}"));
                continue;
            }
            Err(e) => return Err(e),
        };
        for p in Policy::ALL {
            runs.push(run(&params, p, &workload, seed, None, false));
        }
    }
    // Per policy, over the kernels that ran (none when the waves fit none of them).
    let kernel_mean = Policy::ALL
        .iter()
        .filter_map(|&p| {
            let ratios: Vec<f64> = runs
                .iter()
                .filter(|r| r.policy == p && KERNELS.contains(&r.workload.as_str()))
                .map(CoreRun::ratio)
                .collect();
            (!ratios.is_empty()).then(|| (p, ratios.iter().sum::<f64>() / ratios.len() as f64))
        })
        .collect();
    let mut allocated = Vec::new();
    if options.allocate {
        for name in NAMES {
            let workload = workload(name)?;
            let Ok(params) = settle(params, &workload.program, workload.wave_base) else {
                continue;
            };
            allocated.push(AllocatedRun {
                workload: name.to_string(),
                figures: allocated_figures(&params, &workload, seed)?,
            });
        }
    }
    Ok(CoreBench::Workloads(WorkloadBench {
        seed,
        runs,
        kernel_mean,
        allocated,
        not_run,
    }))
}
