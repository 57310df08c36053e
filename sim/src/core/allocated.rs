//! An allocated workload (`--allocate`): the allocation of a program, proved by execution
//! (the allocated program runs beside the original and every output must agree), kept only
//! where it costs no cycles, and its figures.

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::model::Policy;
use super::run::{run, CoreRun};
use super::workload::Workload;
use crate::block::SimError;
use crate::compilers::core_allocate::{allocate_with, Allocation};

/// The workload that runs `allocation` of `workload`: the renamed program, the same external
/// traffic, and each input register loaded with the value `original` (a run of `workload`)
/// loaded into the register it renames.
pub fn renamed(workload: &Workload, allocation: &Allocation, original: &CoreRun) -> Workload {
    let input_values = (allocation.inputs.iter())
        .filter_map(|(from, to)| {
            Some((
                *to,
                original.inputs.wave(0).get(&format!("R{from}"))?.clone(),
            ))
        })
        .collect();
    Workload {
        external_rate: workload.external_rate,
        input_values,
        latencies: workload.latencies.clone(),
        figures: workload.figures.clone(),
        ..Workload::new(
            &format!("{} (allocated)", workload.name),
            allocation.program.clone(),
        )
    }
}

/// Proves by execution that `allocation` keeps `workload`'s meaning: both run on the golden
/// model from `seed`, the renamed program's inputs loaded with the original's values, and every
/// output read back through the map must equal the original's, lane for lane. The error names
/// the register, the lane and both values.
pub fn prove(
    params: &CoreParams,
    workload: &Workload,
    allocation: &Allocation,
    seed: u64,
) -> Result<(), String> {
    let original = run(params, Policy::Ideal, workload, seed, None, false);
    let allocated = run(
        params,
        Policy::Ideal,
        &renamed(workload, allocation, &original),
        seed,
        None,
        false,
    );
    for (from, to) in &allocation.outputs {
        let expected = &original.outputs.wave(0)[&format!("R{from}")];
        let got = &allocated.outputs.wave(0)[&format!("R{to}")];
        if let Some(lane) = (0..expected.len()).find(|&l| expected[l] != got[l]) {
            return Err(format!(
                "the allocated program computes another R{from}: lane {lane} is {:#x} in the \
                 original and {:#x} in its new register R{to}",
                expected[lane], got[lane]
            ));
        }
    }
    Ok(())
}

/// What allocation did to a program (`--allocate`): its cycles before and after under the run's
/// policy, the bounds, the ideal file's cycles, and the map of inputs and outputs.
#[derive(Clone, Debug, Serialize)]
pub struct AllocationFigures {
    /// Cycles of the program as written, under the run's policy (golden model).
    pub cycles_before: u64,
    /// Cycles of the allocated program (the run's own).
    pub cycles_after: u64,
    /// The lower bound of the program as written.
    pub lower_bound_before: u64,
    /// The lower bound of the allocated program.
    pub lower_bound_after: u64,
    /// Cycles of the program on the ideal multi-ported file (which needs no allocation).
    pub ideal_cycles: u64,
    /// The allocation: conflicts before and after, values, registers, the maps.
    #[serde(flatten)]
    pub allocation: Allocation,
}

impl AllocationFigures {
    /// The figures in words.
    pub(crate) fn text(&self) -> String {
        let a = &self.allocation;
        format!(
            "allocated: {} cycles before, {} after ({:.3}x the ideal file's {}); bound {} -> {}; \
             bank conflicts {} -> {}{}; {} values in {} registers",
            self.cycles_before,
            self.cycles_after,
            self.cycles_after as f64 / self.ideal_cycles.max(1) as f64,
            self.ideal_cycles,
            self.lower_bound_before,
            self.lower_bound_after,
            a.conflicts_before,
            a.conflicts_after,
            match a.conflict_free() {
                true => "",
                false => " (no conflict-free assignment found: the cheapest found)",
            },
            a.values,
            a.registers_used,
        )
    }
}

/// `written` allocated for `params`, proved by execution from `seed`, as a workload to run;
/// and the figures of the program as written under `policy` and on the ideal file. An
/// allocation that runs slower than the program as written under `policy` is not taken: the
/// program keeps its registers (the identity allocation), so allocation never costs cycles.
pub fn allocated(
    params: &CoreParams,
    policy: Policy,
    written: &Workload,
    seed: u64,
) -> Result<(Workload, AllocationFigures), SimError> {
    let groups = written.ir3.as_ref().map(|p| p.groups()).unwrap_or_default();
    let mut allocation = allocate_with(params, &written.program, &groups);
    let before = run(params, policy, written, seed, None, false);
    let trial = run(
        params,
        policy,
        &renamed(written, &allocation, &before),
        seed,
        None,
        false,
    );
    if trial.cycles > before.cycles {
        allocation = Allocation::identity(params, &written.program);
    }
    prove(params, written, &allocation, seed).map_err(SimError::Mismatch)?;
    let ideal = run(params, Policy::Ideal, written, seed, None, false);
    let workload = renamed(written, &allocation, &before);
    Ok((
        workload,
        AllocationFigures {
            cycles_before: before.cycles,
            cycles_after: 0,
            lower_bound_before: before.lower_bound,
            lower_bound_after: 0,
            ideal_cycles: ideal.cycles,
            allocation,
        },
    ))
}

/// `workload` before and after bank-aware allocation, under `cq-pq`, from `seed`.
pub fn allocated_figures(
    params: &CoreParams,
    workload: &Workload,
    seed: u64,
) -> Result<AllocationFigures, SimError> {
    let (renamed, mut figures) = allocated(params, Policy::CqPq, workload, seed)?;
    let after = run(params, Policy::CqPq, &renamed, seed, None, false);
    figures.cycles_after = after.cycles;
    figures.lower_bound_after = after.lower_bound;
    Ok(figures)
}
