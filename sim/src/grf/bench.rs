//! The GRF's benchmark: every built-in workload, hierarchical against flat, then the variant-B
//! mappings on the random workload (golden model).

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, GrfParams, Mapping, Param, Params};
use serde::{Deserialize, Serialize};

use super::energy::Energy;
use super::options::Conditions;
use super::run::{change, comparison_table, percent, run, GrfRun};
use super::workload::{builtin, NAMES};
use crate::block::{Report, SimError};

/// The options of the GRF's benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrfBenchOptions {
    /// Length of the workloads.
    pub rounds: usize,
    /// Seed of the workloads and the L3 contents.
    pub seed: u64,
    /// Energy per access.
    #[serde(flatten)]
    pub energy: Energy,
}

impl Default for GrfBenchOptions {
    fn default() -> Self {
        Self {
            rounds: 16,
            seed: 1,
            energy: Energy::default(),
        }
    }
}

impl Params for GrfBenchOptions {
    fn table() -> Vec<Param<Self>> {
        let mut table = vec![
            param!(rounds, "length of the workloads", "N", |_| Allowed::range(
                1, 10_000
            )),
            param!(
                seed,
                "seed of the workloads and the L3 contents",
                "S",
                |_| Allowed::any("any number")
            ),
        ];
        table.extend(
            Energy::table()
                .into_iter()
                .map(|p| p.nested(|o: &Self| &o.energy, |o| &mut o.energy)),
        );
        table
    }
}

/// One workload, hierarchical against flat.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadPair {
    /// The workload.
    pub workload: &'static str,
    /// The hierarchical design.
    pub hierarchical: GrfRun,
    /// The flat design.
    pub flat: GrfRun,
}

/// One variant-B mapping on the random workload.
#[derive(Clone, Debug, Serialize)]
pub struct MappingRun {
    /// The mapping.
    pub mapping: Mapping,
    /// The run.
    pub run: GrfRun,
}

/// Variant B: a quarter of the slow GRF low-energy, every mapping policy.
#[derive(Clone, Debug, Serialize)]
pub struct VariantB {
    /// Physical blocks of the low-energy part.
    pub low_energy_blocks: usize,
    /// The workload the mappings run.
    pub workload: &'static str,
    /// One run per mapping.
    pub runs: Vec<MappingRun>,
}

/// Every workload, hierarchical against flat, and the variant-B mappings.
#[derive(Clone, Debug, Serialize)]
pub struct GrfBench {
    /// Seed of the workloads and the L3.
    pub seed: u64,
    /// Length of the workloads.
    pub rounds: usize,
    /// Energy per access used.
    pub energy_per_access_pj: Energy,
    /// One pair of runs per workload.
    pub workloads: Vec<WorkloadPair>,
    /// The variant-B comparison.
    pub variant_b: VariantB,
}

impl Report for GrfBench {
    fn text(&self) -> String {
        let mut text = format!(
            "seed {}, {} rounds, L3 latency 10\n",
            self.seed, self.rounds
        );
        for WorkloadPair {
            workload,
            hierarchical: hier,
            flat,
        } in &self.workloads
        {
            text += &format!("\n{workload}\n");
            text += &comparison_table(&[("hierarchical", hier), ("flat", flat)]);
            text += &format!(
                "  energy {:+.1}%, cycles {:+.1}%; fast GRF hit rate {:.1}%; L3 traffic {} \
                 against {} without sharing\n",
                change(flat.energy_pj, hier.energy_pj),
                change(flat.cycles as f64, hier.cycles as f64),
                percent(hier.stats.fast_hits, hier.stats.accesses),
                hier.stats.l3_reads + hier.stats.l3_writes,
                hier.l3_without_sharing,
            );
        }
        text += &format!(
            "\nvariant B: blocks 0..{} low-energy, random workload, nothing pre-allocated\n",
            self.variant_b.low_energy_blocks
        );
        text += &format!(
            "{:17} {:>10} {:>10} {:>12}\n",
            "mapping", "slow low", "slow high", "energy pJ"
        );
        for MappingRun { mapping, run } in &self.variant_b.runs {
            text += &format!(
                "{:17} {:>10} {:>10} {:>12.1}\n",
                mapping.to_string(),
                run.stats.slow_accesses_low,
                run.stats.slow_accesses_high,
                run.energy_pj
            );
        }
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Runs every built-in workload, hierarchical and flat, then the variant-B mappings.
pub fn bench(params: &GrfParams, options: &GrfBenchOptions) -> Result<GrfBench, SimError> {
    let (seed, rounds) = (options.seed, options.rounds);
    let conditions = Conditions {
        energy: options.energy,
        ..Conditions::new(seed)
    };
    let flat = Conditions {
        flat: true,
        ..conditions
    };
    let mut workloads = Vec::new();
    for name in NAMES {
        let trace = builtin(name, params, seed, rounds).map_err(SimError::Input)?;
        workloads.push(WorkloadPair {
            workload: name,
            hierarchical: run(params, &trace, &conditions, None),
            flat: run(params, &trace, &flat, None),
        });
    }
    // Variant B: a quarter of the slow GRF is the low-energy part; allocations go there by
    // thread range, by fraction of each thread's blocks, or not at all.
    let quarter = GrfParams {
        preallocated: 0,
        low_energy_blocks: params.blocks() / 4,
        ..params.clone()
    };
    let mut runs = Vec::new();
    for mapping in [
        Mapping::None,
        Mapping::Threads(params.all_threads() / 2),
        Mapping::Fraction(50),
    ] {
        let p = GrfParams {
            mapping,
            ..quarter.clone()
        };
        p.validate()?;
        let trace = builtin("random", &p, seed, rounds).map_err(SimError::Input)?;
        runs.push(MappingRun {
            mapping,
            run: run(&p, &trace, &conditions, None),
        });
    }
    Ok(GrfBench {
        seed,
        rounds,
        energy_per_access_pj: options.energy,
        workloads,
        variant_b: VariantB {
            low_energy_blocks: quarter.low_energy_blocks,
            workload: "random",
            runs,
        },
    })
}
