//! Proof by execution: the allocated program runs beside the original and every output must
//! agree.

use grfgen_hdl::params::CoreParams;

use super::Allocation;
use crate::core::model::Policy;
use crate::core::run::{run, CoreRun};
use crate::core::workload::Workload;

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
