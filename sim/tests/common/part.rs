//! A sub-block emitted alone, verilated and driven cycle by cycle: what the lock-step tests of
//! parts (`sim/tests/parts.rs`) and of cells (`flow/tests/cells.rs`) share.

use grfgen_hdl::emit::{EmitError, Emitted};
use grfgen_sim::check::compare;
use grfgen_sim::verilator::VerilatedModel;
use grfgen_sim::verilator::{build_emitted, verilator_seed, BuildOptions, Input, Output};

/// A verilated sub-block and the cycle it is in.
pub struct Part {
    model: VerilatedModel,
    seed: u64,
    /// The cycle being checked, from 0.
    pub cycle: u64,
}

impl Part {
    /// Verilates `emitted` with Verilator's `x` randomisation seeded from `seed`.
    pub fn load(emitted: Result<Emitted, EmitError>, seed: u64) -> Self {
        let emitted = emitted.expect("the part emits");
        let options = BuildOptions {
            seed: verilator_seed(seed),
            ..BuildOptions::default()
        };
        let model = build_emitted(&emitted, &options, None).expect("the part verilates");
        Self {
            model,
            seed,
            cycle: 0,
        }
    }

    pub fn input(&self, name: &str) -> Input {
        self.model.input(name).unwrap()
    }

    pub fn inputs(&self, name: &str, count: usize) -> Vec<Input> {
        self.model.inputs(name, count).unwrap()
    }

    pub fn output(&self, name: &str) -> Output {
        self.model.output(name).unwrap()
    }

    pub fn outputs(&self, name: &str, count: usize) -> Vec<Output> {
        self.model.outputs(name, count).unwrap()
    }

    pub fn set(&mut self, input: Input, value: u64) {
        self.model.set(input, value);
    }

    /// Settles the combinational logic; the next check is a new cycle.
    pub fn settle(&mut self) {
        self.model.eval();
    }

    /// The rising edge of `clock` (the inputs were set with it low); the next cycle begins.
    pub fn tick(&mut self, clock: Input) {
        self.model.set(clock, 0);
        self.model.eval();
        self.model.set(clock, 1);
        self.model.eval();
        self.model.set(clock, 0);
        self.cycle += 1;
    }

    /// One cycle with `reset` high; the run starts after it, at cycle 0.
    pub fn reset(&mut self, clock: Input, reset: Input) {
        self.model.set(reset, 1);
        self.tick(clock);
        self.model.set(reset, 0);
        self.cycle = 0;
    }

    /// Panics with the cycle, the port, both values and the seed unless `output` shows
    /// `expected`.
    pub fn expect(&self, port: impl FnOnce() -> String, output: Output, expected: u64) {
        let actual = self.model.get(output);
        if let Err(m) = compare(self.cycle, port, expected, actual) {
            panic!("{m} (seed {})", self.seed);
        }
    }
}
