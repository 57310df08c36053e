//! What every simulated block declares: its run options, how a run goes, what it reports and
//! its benchmark. The registry of blocks is [`crate::visit_blocks`].

use std::cell::Cell;
use std::fmt;
use std::path::Path;
use std::time::Instant;

use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::{waivers, EmitError, Port, PortDirection};
use grfgen_hdl::params::{ParamError, Params};
use serde::Serialize;

use crate::check::{LockStep, Mismatch};
use crate::verilator::{
    self, verilator_seed, BuildOptions, Design as VerilatorDesign, Foreign, TraceFormat,
    VerilatedModel, VerilatorError,
};

/// The parameters of block `B`'s design.
pub type ParamsOf<B> = <<B as Block>::Design as Design>::Params;

/// A block that runs: its golden model, its Verilated design in lock step, what it reports.
pub trait Block: 'static {
    /// The design it simulates.
    type Design: Design;
    /// The options of one run (workload, cycles, ...), with their table.
    type Options: Params;
    /// What a run reports.
    type Report: Report;
    /// The options of the block's benchmark, with their table.
    type BenchOptions: Params;
    /// What the benchmark reports.
    type Bench: Report;

    /// One run: the golden model, with the Verilated design in lock step when
    /// [`Setup::rtl`] asks for it.
    fn run(
        params: &ParamsOf<Self>,
        options: &Self::Options,
        setup: &Setup,
    ) -> Result<Self::Report, SimError>;

    /// Reads and checks everything a run takes from beyond its parameters and options (a
    /// program, trace or shader file, a workload's fit to the design) without running it, so
    /// that a sweep refuses a bad input before its first point runs.
    fn inputs(
        _params: &ParamsOf<Self>,
        _options: &Self::Options,
        _seed: u64,
    ) -> Result<(), SimError> {
        Ok(())
    }

    /// The runs `grfgen flow` co-simulates for `params`, given the options on its command
    /// line.
    fn flow_runs(_params: &ParamsOf<Self>, options: &Self::Options) -> Vec<Self::Options> {
        vec![options.clone()]
    }

    /// The configurations `grfgen regress` runs, as parameter overrides by name: the defaults
    /// (no override), then the degenerate corners (one bank, one port, the smallest queues).
    fn corners() -> Vec<Vec<(&'static str, &'static str)>> {
        vec![Vec::new()]
    }

    /// The runs `grfgen regress` co-simulates at `params`: those of `grfgen flow`, each run
    /// for `cycles` cycles where the options have a `cycles`.
    fn regression_runs(params: &ParamsOf<Self>, cycles: u64) -> Vec<Self::Options> {
        let mut runs = Self::flow_runs(params, &Self::Options::default());
        if let Some(param) = <Self::Options as Params>::param("cycles") {
            for run in &mut runs {
                // A `cycles` the options refuse stays as the run had it.
                let _ = param.set(run, &cycles.to_string());
            }
        }
        runs
    }

    /// The benchmark.
    fn bench(
        params: &ParamsOf<Self>,
        options: &Self::BenchOptions,
    ) -> Result<Self::Bench, SimError>;
}

/// What a run (or a benchmark) reports.
pub trait Report: Serialize + 'static {
    /// What the lock step found, for a report that keeps a [`LockStep`]; `None` otherwise.
    fn lock_step(&self) -> Option<&LockStep> {
        None
    }
    /// The first difference between RTL and golden model, if any.
    fn mismatch(&self) -> Option<&Mismatch> {
        self.lock_step()?.first_mismatch.as_ref()
    }
    /// Whether the RTL ran in lock step with the golden model.
    fn rtl(&self) -> bool {
        self.lock_step().is_some_and(|l| l.rtl)
    }
    /// The report in words, for a terminal.
    fn text(&self) -> String;
    /// The report in one line: the first line of [`Report::text`].
    fn summary(&self) -> String {
        self.text().lines().next().unwrap_or_default().to_string()
    }
    /// The figures a sweep tabulates, as `(name, value)`.
    fn metrics(&self) -> Vec<(&'static str, f64)>;
    /// The cycles this run's work takes on the design, which times the clock period give the
    /// time per workload; `None` for a block whose runs are no timed workload.
    fn work_cycles(&self) -> Option<f64> {
        None
    }
}

/// Whether a run co-simulates the RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rtl {
    /// When Verilator is installed and the run can (the default).
    Auto,
    /// Always: an error where the run cannot.
    On,
    /// Never: the golden model only.
    Off,
}

/// The longest run or measurement, in cycles (hours of co-simulation).
pub const MAX_CYCLES: u64 = 10_000_000_000;

/// How a run is set up, whatever the block.
pub struct Setup<'a> {
    /// Seed of the stimulus, the initial values and Verilator's randomisation.
    pub seed: u64,
    /// Whether the RTL runs in lock step.
    pub rtl: Rtl,
    /// Where to write a waveform of the RTL, if anywhere.
    pub waveform: Option<&'a Path>,
    /// Told the cycles done so far, now and then, on long runs.
    pub progress: &'a dyn Fn(u64),
    /// The clock a waveform's time follows, in MHz (one period per cycle).
    pub clock_mhz: f64,
    /// Threads each model evaluates on (Verilator's `--threads`).
    pub threads: u32,
    /// Seconds spent so far emitting, verilating (or finding in the cache) and loading models.
    pub model_seconds: Cell<f64>,
    /// A user's Verilog to run in place of the emitted design (`--verilog`), if any.
    pub foreign: Option<&'a Foreign>,
}

impl<'a> Setup<'a> {
    /// A quiet setup: `seed`, the RTL as `rtl` says, no waveform.
    pub fn new(seed: u64, rtl: Rtl) -> Self {
        Self {
            seed,
            rtl,
            waveform: None,
            progress: &|_| {},
            clock_mhz: 200.0,
            threads: 1,
            model_seconds: Cell::new(0.0),
            foreign: None,
        }
    }

    /// Whether this run co-simulates, for a run that `can` (ideal models cannot): an error if
    /// the RTL was asked for and cannot run, or a waveform was asked for without it.
    pub fn with_rtl(&self, can: bool, why_not: &str) -> Result<bool, SimError> {
        let rtl = match self.rtl {
            Rtl::On if !can => {
                return Err(SimError::Input(format!("invalid value --rtl: {why_not}")))
            }
            Rtl::On => true,
            Rtl::Auto => can && verilator::installed(),
            Rtl::Off => false,
        };
        if self.waveform.is_some() && !rtl {
            return Err(SimError::Input(
                "invalid use of --vcd: a waveform is the RTL's, and this run has no RTL (leave out --no-rtl; the ideal models have no RTL)".into(),
            ));
        }
        Ok(rtl)
    }

    /// The design to run in lock step, built by `build`, when this run co-simulates (see
    /// [`Setup::with_rtl`]).
    pub fn device<T>(
        &self,
        build: impl FnOnce() -> Result<T, SimError>,
    ) -> Result<Option<T>, SimError> {
        match self.with_rtl(true, "")? {
            true => build().map(Some),
            false => Ok(None),
        }
    }

    /// Emits design `D` for `params`, verilates it (or takes it from the cache) and starts
    /// it with this run's seed and waveform.
    pub fn verilate<D: Design>(&self, params: &D::Params) -> Result<VerilatedModel, SimError> {
        let start = Instant::now();
        let model = self.verilate_untimed::<D>(params);
        self.model_seconds
            .set(self.model_seconds.get() + start.elapsed().as_secs_f64());
        model
    }

    /// [`Setup::verilate`], without counting its time.
    fn verilate_untimed<D: Design>(&self, params: &D::Params) -> Result<VerilatedModel, SimError> {
        let emitted = emit_design::<D>(params, &D::top(params))?;
        let options = BuildOptions {
            trace: self.waveform.map(TraceFormat::for_path),
            seed: verilator_seed(self.seed),
            cache: None,
            clock_mhz: self.clock_mhz,
            threads: self.threads,
        };
        let Some(foreign) = self.foreign else {
            let waivers = waivers(&emitted.top);
            let design = VerilatorDesign {
                top: &emitted.top,
                verilog: &emitted.simulation_text(),
                waivers: &waivers,
                ports: &emitted.ports,
            };
            return Ok(verilator::build(&design, &options, self.waveform)?);
        };
        // The user's module, its ports checked against the block's; its own lint warnings do
        // not stop the build (the project's waivers are for the emitted text).
        let top = foreign.top.as_deref().unwrap_or(&emitted.top);
        foreign
            .check(top, &emitted.ports, D::NAME)
            .map_err(SimError::Input)?;
        let mut ports = emitted.ports.clone();
        if let Some(select) = &foreign.select {
            ports.push(Port {
                name: select.name.clone(),
                direction: PortDirection::Input,
                width: select.width,
                elements: None,
                order: None,
            });
        }
        let design = VerilatorDesign {
            top,
            verilog: &foreign.text_with(&emitted.models),
            waivers: "",
            ports: &ports,
        };
        let mut model = verilator::build(&design, &options, self.waveform)?;
        if let Some(select) = &foreign.select {
            // Held from before the first evaluation: the model's inputs start random.
            let input = model.input(&select.name)?;
            model.set(input, select.value);
        }
        Ok(model)
    }
}

/// The error of a run given neither a built-in workload (one of `names`) nor the file flag
/// `alternative` (`--program`, `--trace`).
pub fn missing_workload(names: &[&str], alternative: &str) -> SimError {
    SimError::Input(format!(
        "missing --workload: allowed {}; or {alternative} FILE instead",
        names.join(", ")
    ))
}

/// Why a run could not be made.
#[derive(Debug)]
pub enum SimError {
    /// Bad input: an unknown workload, a malformed program or trace, options that clash.
    Input(String),
    /// Verilator could not build or load the design.
    Verilator(VerilatorError),
    /// rust-hdl refused the design (a bug in a block).
    Emit(String),
    /// The RTL and the golden model disagreed where a run cannot report it (a benchmark).
    Mismatch(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Input(why) | SimError::Emit(why) | SimError::Mismatch(why) => {
                f.write_str(why)
            }
            SimError::Verilator(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SimError {}

impl From<VerilatorError> for SimError {
    fn from(e: VerilatorError) -> Self {
        SimError::Verilator(e)
    }
}

impl From<ParamError> for SimError {
    fn from(e: ParamError) -> Self {
        SimError::Input(e.to_string())
    }
}

impl From<EmitError> for SimError {
    fn from(e: EmitError) -> Self {
        match e {
            EmitError::Param(e) => e.into(),
            EmitError::Rejected(_) => SimError::Emit(e.to_string()),
        }
    }
}

/// One run of a block as `grfgen sim` reports it: what ran, how, and the block's report.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct RunRecord<B: Block> {
    /// The block.
    pub block: &'static str,
    /// The top module of its design.
    pub top: String,
    /// The design's parameters.
    pub parameters: ParamsOf<B>,
    /// The run's options.
    pub options: B::Options,
    /// The seed; the same seed replays the same run.
    pub seed: u64,
    /// What the block reports.
    #[serde(flatten)]
    pub report: B::Report,
    /// Wall-clock seconds of the run, model build included.
    pub seconds: f64,
    /// Of `seconds`, those spent emitting, verilating (or finding in the cache) and loading
    /// the Verilated model; the rest is the simulation itself.
    pub model_seconds: f64,
}

impl<B: Block> RunRecord<B> {
    /// Validates `params` and `options`, then runs block `B` once.
    pub fn run(
        params: &ParamsOf<B>,
        options: &B::Options,
        setup: &Setup,
    ) -> Result<Self, SimError> {
        grfgen_hdl::design::validate::<B::Design>(params)?;
        options.validate()?;
        let start = Instant::now();
        let models_before = setup.model_seconds.get();
        let report = B::run(params, options, setup)?;
        Ok(Self {
            block: B::Design::NAME,
            top: B::Design::top(params),
            parameters: params.clone(),
            options: options.clone(),
            seed: setup.seed,
            report,
            seconds: start.elapsed().as_secs_f64(),
            model_seconds: setup.model_seconds.get() - models_before,
        })
    }

    /// The run in words: what ran, then the block's report.
    pub fn text(&self) -> String {
        let side = if self.report.rtl() {
            "RTL co-simulated in lock step with the golden model"
        } else {
            "golden model only"
        };
        format!(
            "{} {}, seed {} (replay with --seed {}), {side}, {:.2} s\n{}",
            self.block,
            self.top,
            self.seed,
            self.seed,
            self.seconds,
            self.report.text()
        )
    }
}

/// A block's benchmark as `grfgen bench` reports it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct BenchRecord<B: Block> {
    /// The block.
    pub block: &'static str,
    /// The top module of its design.
    pub top: String,
    /// The design's parameters.
    pub parameters: ParamsOf<B>,
    /// The benchmark's options.
    pub options: B::BenchOptions,
    /// What the benchmark reports.
    #[serde(flatten)]
    pub report: B::Bench,
}

impl<B: Block> BenchRecord<B> {
    /// Validates `params` and `options`, then runs block `B`'s benchmark.
    pub fn run(params: &ParamsOf<B>, options: &B::BenchOptions) -> Result<Self, SimError> {
        grfgen_hdl::design::validate::<B::Design>(params)?;
        options.validate()?;
        Ok(Self {
            block: B::Design::NAME,
            top: B::Design::top(params),
            parameters: params.clone(),
            options: options.clone(),
            report: B::bench(params, options)?,
        })
    }

    /// The benchmark in words.
    pub fn text(&self) -> String {
        format!("{} {}\n{}", self.block, self.top, self.report.text())
    }
}

/// Something done for every simulated block (see [`crate::visit_blocks`]).
pub trait BlockVisitor {
    /// Called once per block.
    fn visit<B: Block>(&mut self);
}
