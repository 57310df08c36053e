//! The Verilated GPR pool allocator as the other side of a lock-step run.

use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::params::AllocParams;

use super::model::{PoolInputs, PoolOutputs};
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::verilator::{Input, Output, VerilatedModel};

/// The inputs, in the order [`AllocRtl::drive`] sets them.
const INPUTS: [&str; 8] = [
    "clock",
    "set_footprint",
    "footprint_value",
    "release_valid",
    "release_amount",
    "launch",
    "retire",
    "retire_slot",
];

/// The outputs compared every cycle (the launch's slot, base and size only when it launched).
const OUTPUTS: [&str; 9] = [
    "launched",
    "launch_slot",
    "launch_base",
    "launch_size",
    "resident",
    "launch_stalls",
    "released",
    "footprint",
    "free_registers",
];

/// The Verilated allocator with its ports resolved.
pub struct AllocRtl {
    model: VerilatedModel,
    inputs: Vec<Input>,
    outputs: Vec<Output>,
}

impl AllocRtl {
    /// Emits, verilates (or takes from the cache) and starts the allocator for `params`.
    pub fn build(params: &AllocParams, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Alloc>(params)?;
        let inputs = INPUTS
            .iter()
            .map(|n| model.input(n))
            .collect::<Result<_, _>>()?;
        let outputs = OUTPUTS
            .iter()
            .map(|n| model.output(n))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            model,
            inputs,
            outputs,
        })
    }

    /// Drives `inputs` with the clock low and settles.
    fn drive(&mut self, inputs: &PoolInputs) {
        let values = [
            0,
            u64::from(inputs.set_footprint.is_some()),
            u64::from(inputs.set_footprint.unwrap_or(0)),
            u64::from(inputs.release.is_some()),
            u64::from(inputs.release.unwrap_or(0)),
            u64::from(inputs.launch),
            u64::from(inputs.retire.is_some()),
            inputs.retire.unwrap_or(0) as u64,
        ];
        for (&port, value) in self.inputs.iter().zip(values) {
            self.model.set(port, value);
        }
        self.model.eval();
    }

    /// Output `k` of [`OUTPUTS`].
    fn get(&self, k: usize) -> u64 {
        self.model.get(self.outputs[k])
    }
}

impl Device for AllocRtl {
    type Input = PoolInputs;
    type Expected = PoolOutputs;

    /// Before the edge: the launch decision, the counters and the state; then the edge.
    fn cycle(
        &mut self,
        cycle: u64,
        inputs: &PoolInputs,
        expected: &PoolOutputs,
    ) -> Result<(), Mismatch> {
        self.drive(inputs);
        let launch = expected.launched;
        let check =
            |k: usize, value: u64| compare(cycle, || OUTPUTS[k].to_string(), value, self.get(k));
        check(0, u64::from(launch.is_some()))?;
        if let Some((slot, alloc)) = launch {
            check(1, slot as u64)?;
            check(2, alloc.base as u64)?;
            check(3, alloc.size as u64)?;
        }
        check(4, expected.resident as u64)?;
        check(5, expected.launch_stalls & 0xffff_ffff)?;
        check(6, expected.released & 0xffff_ffff)?;
        check(7, u64::from(expected.footprint))?;
        check(8, expected.free_registers as u64)?;
        self.model.set(self.inputs[0], 1);
        self.model.eval();
        Ok(())
    }
}
