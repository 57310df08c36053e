//! The core's benchmark on program files (`grfgen bench core --program FILE...`): one row per
//! program (its figures, every policy's cycles, its conflicts and its cycles after bank-aware
//! allocation), and the geometric mean of each cycles column over the programs.

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::allocated::allocated_figures;
use super::figures::Isa;
use super::model::Policy;
use super::options::CoreBenchOptions;
use super::run::run;
use super::workload::Workload;
use crate::block::{Report, SimError};

/// Cycles of one program (or their geometric mean over the programs) per column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cycles<T> {
    /// Under `naive`.
    pub naive_cycles: T,
    /// Under `cq`.
    pub cq_cycles: T,
    /// Under `cq-pq`.
    pub cq_pq_cycles: T,
    /// On the ideal multi-ported file.
    pub ideal_cycles: T,
    /// Under `cq-pq` after bank-aware allocation (`grfgen allocate`); none when allocation
    /// failed (or, for the mean, failed on some program).
    pub allocated_cycles: Option<T>,
}

/// One program's row.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramRow {
    /// The file, as given.
    pub program: String,
    /// The instruction set it was read in.
    pub isa: Isa,
    /// Instructions that run on a unit (after ir3's `(rptN)` expansion; nops, labels and flow
    /// excluded).
    pub instructions: u64,
    /// Source operands naming a register.
    pub gpr_reads: u64,
    /// Cycles per policy (golden model).
    #[serde(flatten)]
    pub cycles: Cycles<u64>,
    /// Instructions with a source conflict (sources beyond a bank's read ports), under
    /// `cq-pq`.
    pub conflicts: u64,
    /// Why allocation failed, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated_error: Option<String>,
}

/// Every program's row and the geometric means.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramBench {
    /// The seed of the initial values.
    pub seed: u64,
    /// One row per program, in the order given.
    pub programs: Vec<ProgramRow>,
    /// The geometric mean over the programs of each cycles column.
    pub geomean: Cycles<f64>,
}

/// The geometric mean of `values` (none for no values).
fn geomean(values: impl Iterator<Item = u64>) -> Option<f64> {
    let logs: Vec<f64> = values.map(|v| (v.max(1) as f64).ln()).collect();
    (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

impl Cycles<f64> {
    /// The geometric mean of each column over `rows`; the allocated column only when every
    /// row has it.
    fn mean(rows: &[ProgramRow]) -> Self {
        let column =
            |f: fn(&Cycles<u64>) -> u64| geomean(rows.iter().map(|r| f(&r.cycles))).unwrap_or(0.0);
        let allocated: Option<Vec<u64>> = rows.iter().map(|r| r.cycles.allocated_cycles).collect();
        Self {
            naive_cycles: column(|c| c.naive_cycles),
            cq_cycles: column(|c| c.cq_cycles),
            cq_pq_cycles: column(|c| c.cq_pq_cycles),
            ideal_cycles: column(|c| c.ideal_cycles),
            allocated_cycles: allocated.and_then(|a| geomean(a.into_iter())),
        }
    }
}

/// The row of `workload` (a program file), from `seed`.
fn row(params: &CoreParams, workload: &Workload, seed: u64) -> ProgramRow {
    let runs: Vec<_> = (Policy::ALL.iter())
        .map(|&p| run(params, p, workload, seed, None, false))
        .collect();
    let cycles_of = |policy| {
        (runs.iter())
            .find(|r| r.policy == policy)
            .map_or(0, |r| r.cycles)
    };
    let allocated = allocated_figures(params, workload, seed);
    let cq_pq = runs.iter().find(|r| r.policy == Policy::CqPq);
    ProgramRow {
        program: workload.name.clone(),
        isa: workload.figures.isa,
        instructions: workload.figures.instructions,
        gpr_reads: workload.figures.gpr_reads,
        cycles: Cycles {
            naive_cycles: cycles_of(Policy::Naive),
            cq_cycles: cycles_of(Policy::Cq),
            cq_pq_cycles: cycles_of(Policy::CqPq),
            ideal_cycles: cycles_of(Policy::Ideal),
            allocated_cycles: allocated.as_ref().ok().map(|f| f.cycles_after),
        },
        conflicts: cq_pq.map_or(0, |r| r.stats.sc_instructions),
        allocated_error: allocated.err().map(|e| e.to_string()),
    }
}

/// Reads every program the options name (the first that does not read is the error, before
/// anything runs), then runs each under every policy and after allocation.
pub fn bench(params: &CoreParams, options: &CoreBenchOptions) -> Result<ProgramBench, SimError> {
    let seed = options.seed;
    let workloads = (options.programs.runs(&options.latencies).iter())
        .map(|run| run.program(params, seed))
        .collect::<Result<Vec<_>, _>>()?;
    let programs: Vec<ProgramRow> = (workloads.iter())
        .map(|workload| row(params, workload, seed))
        .collect();
    Ok(ProgramBench {
        seed,
        geomean: Cycles::mean(&programs),
        programs,
    })
}

impl Report for ProgramBench {
    fn text(&self) -> String {
        let width = (self.programs.iter())
            .map(|r| r.program.chars().count())
            .chain([16])
            .max()
            .unwrap_or(16);
        let mut text = format!(
            "golden model, seed {}: cycles per policy; conflicts: instructions with a source \
             conflict (cq-pq); allocated: cq-pq cycles after bank-aware allocation\n\
             {:width$}  isa   instrs  gpr reads    naive       cq    cq-pq    ideal  conflicts  allocated\n",
            self.seed, "program"
        );
        for r in &self.programs {
            let c = &r.cycles;
            text += &format!(
                "{:width$}  {:4} {:7} {:10} {:8} {:8} {:8} {:8} {:10} {:>10}\n",
                r.program,
                r.isa.name(),
                r.instructions,
                r.gpr_reads,
                c.naive_cycles,
                c.cq_cycles,
                c.cq_pq_cycles,
                c.ideal_cycles,
                r.conflicts,
                c.allocated_cycles
                    .map_or("-".to_string(), |a| a.to_string()),
            );
        }
        let g = &self.geomean;
        text += &format!(
            "{:width$}  {:4} {:7} {:10} {:8.1} {:8.1} {:8.1} {:8.1} {:10} {:>10}",
            format!(
                "geomean ({})",
                grfgen_support::text::plural(self.programs.len() as u64, "program")
            ),
            "",
            "",
            "",
            g.naive_cycles,
            g.cq_cycles,
            g.cq_pq_cycles,
            g.ideal_cycles,
            "",
            g.allocated_cycles
                .map_or("-".to_string(), |a| format!("{a:.1}")),
        );
        let failed: Vec<String> = (self.programs.iter())
            .filter_map(|r| Some(format!("{}: {}", r.program, r.allocated_error.as_ref()?)))
            .collect();
        if !failed.is_empty() {
            text += &format!("\nnot allocated: {}", failed.join("; "));
        }
        text
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        let g = &self.geomean;
        vec![
            ("naive_cycles", g.naive_cycles),
            ("cq_cycles", g.cq_cycles),
            ("cq_pq_cycles", g.cq_pq_cycles),
            ("ideal_cycles", g.ideal_cycles),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_geometric_mean_is_the_nth_root_of_the_product() {
        let mean = geomean([2, 8].into_iter()).unwrap();
        assert!((mean - 4.0).abs() < 1e-9, "{mean}");
        assert_eq!(geomean(std::iter::empty()), None);
    }
}
