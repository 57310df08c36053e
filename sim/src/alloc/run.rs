//! Running the allocator: a draw call of a shader, or random traffic, with the Verilated
//! allocator in lock step; what a run reports.

use grfgen_hdl::params::AllocParams;
use serde::Serialize;

use super::draw::{reference, Draw, Placement};
use super::examples::shader_text;
use super::options::AllocOptions;
use super::shader::{parse, Instr, Shader};
use super::traffic;
use super::verilated::AllocRtl;
use crate::block::{Report, Setup, SimError, MAX_CYCLES};
use crate::check::LockStep;
use crate::compilers::release::{analyse, as_written, check_defined, pack, visit, Analysis, Path};
use crate::rng::Rng;

/// What an allocator run reports.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AllocReport {
    /// The shader's name (or file), or `traffic`.
    pub workload: String,
    /// Where the release ran.
    pub placement: String,
    /// Every path through the main shader with the GPRs it needs.
    pub paths: Vec<Path>,
    /// GPRs per wave allocated at compile time (the most any path needs).
    pub allocated_gprs: usize,
    /// GPRs per wave the draw's path needs.
    pub needed_gprs: usize,
    /// GPRs released (the allocator's counter).
    pub released_gprs: u64,
    /// Waves resident at once under the occupancy formula, at the allocated and the needed
    /// footprint (`docs/alloc.md`, "Occupancy").
    pub occupancy: (usize, usize),
    /// Most waves resident at once.
    pub peak_resident_waves: usize,
    /// Waves resident, on average over the cycles.
    pub mean_resident_waves: f64,
    /// Cycles of the draw (or of the traffic).
    pub cycles: u64,
    /// Cycles a wave asked to launch and could not.
    pub launch_stalls: u64,
    /// Per wave, in launch order: the GPRs it was allocated.
    pub wave_allocations: Vec<usize>,
    /// Whether every wave's outputs equal its outputs as written, on its own registers.
    pub outputs_equal: bool,
    /// Waves launched (traffic).
    pub launches: u64,
    /// Waves retired (traffic).
    pub retires: u64,
    /// Whether the RTL ran in lock step, and the mismatches and broken rules it found (a
    /// register beyond a wave's allocation, an invariant).
    #[serde(flatten)]
    pub lock_step: LockStep,
}

impl Report for AllocReport {
    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.lock_step)
    }

    fn text(&self) -> String {
        if self.workload == "traffic" {
            return format!(
                "traffic: {} cycles; launches {}, retires {}, launch stalls {}, registers \
                 released {}; resident waves peak {}, mean {:.2}\nmismatches {}",
                self.cycles,
                self.launches,
                self.retires,
                self.launch_stalls,
                self.released_gprs,
                self.peak_resident_waves,
                self.mean_resident_waves,
                self.lock_step.mismatches
            );
        }
        let first = self.wave_allocations.first().copied().unwrap_or(0);
        let at_first = self
            .wave_allocations
            .iter()
            .take_while(|&&a| a == first)
            .count();
        format!(
            "{} ({}): {} cycles; GPRs allocated {}, needed {}, released {}; resident waves \
             peak {}, mean {:.2} (formula: {} at the allocation, {} at the need)\n\
             waves {}: the first {at_first} at {first} GPRs, the last at {}; outputs {}\n\
             launch stalls {}\nmismatches {}",
            self.workload,
            self.placement,
            self.cycles,
            self.allocated_gprs,
            self.needed_gprs,
            self.released_gprs,
            self.peak_resident_waves,
            self.mean_resident_waves,
            self.occupancy.0,
            self.occupancy.1,
            self.wave_allocations.len(),
            self.wave_allocations.last().copied().unwrap_or(0),
            if self.outputs_equal {
                "equal the reference"
            } else {
                "DIFFER"
            },
            self.launch_stalls,
            self.lock_step.mismatches
        )
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("draw_cycles", self.cycles as f64),
            ("mean_resident_waves", self.mean_resident_waves),
            ("released_gprs", self.released_gprs as f64),
            ("mismatches", self.lock_step.mismatches as f64),
        ]
    }
}

/// What a shader's errors name: the file and its flag, or the named example.
fn source(options: &AllocOptions, name: &str) -> String {
    match options.example {
        Some(_) => format!("invalid shader {name}"),
        None => format!(
            "invalid value {} for --shader",
            grfgen_support::input::shown(name)
        ),
    }
}

/// The shader of a run and its name.
fn shader(options: &AllocOptions, seed: u64) -> Result<(String, Shader), SimError> {
    let (name, text) = match (&options.example, &options.shader) {
        (Some(name), _) => {
            let text = shader_text(name, &mut Rng::new(seed)).expect("a validated name");
            (name.clone(), text)
        }
        (None, Some(path)) => {
            let text =
                grfgen_support::input::read_text(path, "--shader").map_err(SimError::Input)?;
            (path.clone(), text)
        }
        (None, None) => {
            return Err(SimError::Input(format!(
                "missing --example: allowed {}; or --shader FILE instead",
                super::examples::NAMES.join(", ")
            )))
        }
    };
    let bad = |why: String| SimError::Input(format!("{}: {why}", source(options, &name)));
    let shader = parse(&text).map_err(|e| bad(e.to_string()))?;
    // A file that parses but holds no instructions has nothing to run.
    if shader.instructions == 0 {
        return Err(bad("no instructions in it".into()));
    }
    Ok((name, shader))
}

/// Compiles `shader` (called `name`) for a draw with `options`: its registers, the analysis.
/// A register read before any write names the file, the line and the column.
pub fn compile(
    params: &AllocParams,
    options: &AllocOptions,
    (name, shader): (&str, &Shader),
) -> Result<(crate::compilers::release::Assignment, Analysis), SimError> {
    let values = options.values(&shader.uniforms).map_err(SimError::Input)?;
    let unwritten = |r: usize, i: usize| {
        let (line, column) = shader.places.get(i).copied().unwrap_or((1, 1));
        SimError::Input(format!(
            "{}: line {line}, column {column}: r{r} is read before any write on some path",
            source(options, name)
        ))
    };
    let regs = match options.pack {
        true => pack(shader).map_err(|e| unwritten(e.register, e.instruction))?,
        false => as_written(shader),
    };
    let analysis = analyse(shader, &regs, options.pack, &values);
    check_defined(shader, &analysis.paths).map_err(|e| unwritten(e.register, e.instruction))?;
    let size = params.rounded(analysis.allocated);
    if size > params.pool {
        return Err(SimError::Input(format!(
            "invalid value {} for --pool: allowed at least {size} for this shader",
            params.pool
        )));
    }
    Ok((regs, analysis))
}

/// The shader of a draw, read, parsed and compiled for `params`; nothing for random traffic.
pub fn inputs(params: &AllocParams, options: &AllocOptions, seed: u64) -> Result<(), SimError> {
    if options.example.as_deref() == Some("traffic") {
        return Ok(());
    }
    let (name, shader) = shader(options, seed)?;
    compile(params, options, (&name, &shader)).map(drop)
}

/// One allocator run: a draw of the shader, or random traffic, from the options and the seed.
pub fn run(
    params: &AllocParams,
    options: &AllocOptions,
    setup: &Setup,
) -> Result<AllocReport, SimError> {
    if options.example.as_deref() == Some("traffic") {
        return run_traffic(params, options, setup);
    }
    let (name, shader) = shader(options, setup.seed)?;
    let (regs, analysis) = compile(params, options, (&name, &shader))?;
    let mut device = setup.device(|| AllocRtl::build(params, setup))?;
    let mut by_id: Vec<Option<&Instr>> = vec![None; shader.instructions];
    shader.preamble.iter().for_each(|i| by_id[i.id] = Some(i));
    visit(&shader.main, &mut |i| by_id[i.id] = Some(i));
    let by_id: Vec<&Instr> = by_id.into_iter().map(|i| i.expect("every id")).collect();
    let draw = Draw {
        params,
        by_id: by_id.clone(),
        preamble: &shader.preamble,
        regs: &regs,
        analysis: &analysis,
        placement: options.placement,
        waves: options.waves as usize,
        latency: options.memory_latency,
    };
    let bound = draw.serial_cycles();
    if bound > MAX_CYCLES {
        return Err(SimError::Input(format!(
            "invalid value {} for --waves: this draw may take up to {bound} cycles (waves one \
             after another at --memory-latency {}), more than the {MAX_CYCLES} a run may take; \
             allowed fewer waves or a shorter latency",
            options.waves, options.memory_latency
        )));
    }
    let result = draw.run(device.as_mut().map(|d| d as _), setup.progress);
    let path = &analysis.paths[analysis.selected].instructions;
    let reference: Vec<Vec<u32>> = (0..options.waves as usize)
        .map(|w| reference(&by_id, path, w))
        .collect();
    Ok(AllocReport {
        workload: name,
        placement: options.placement.name().to_string(),
        allocated_gprs: analysis.allocated,
        needed_gprs: analysis.needed,
        released_gprs: result.released,
        occupancy: (
            params.occupancy(analysis.allocated),
            params.occupancy(analysis.needed),
        ),
        peak_resident_waves: result.peak_resident,
        mean_resident_waves: result.mean_resident,
        cycles: result.cycles,
        launch_stalls: result.launch_stalls,
        wave_allocations: result.allocations,
        outputs_equal: result.mismatch.is_none() && result.outputs == reference,
        lock_step: LockStep {
            rtl: device.is_some(),
            mismatches: u64::from(result.mismatch.is_some()),
            first_mismatch: result.mismatch,
        },
        paths: analysis.paths,
        ..Default::default()
    })
}

/// Random launch, retire, footprint and release traffic for `options.cycles` cycles.
fn run_traffic(
    params: &AllocParams,
    options: &AllocOptions,
    setup: &Setup,
) -> Result<AllocReport, SimError> {
    let mut device = setup.device(|| AllocRtl::build(params, setup))?;
    let result = traffic::run(
        params,
        options.cycles,
        setup.seed,
        device.as_mut().map(|d| d as _),
        setup.progress,
    );
    Ok(AllocReport {
        workload: "traffic".into(),
        placement: Placement::None.name().into(),
        released_gprs: result.released,
        peak_resident_waves: result.peak_resident,
        mean_resident_waves: result.mean_resident,
        cycles: result.cycles,
        launch_stalls: result.launch_stalls,
        launches: result.launches,
        retires: result.retires,
        outputs_equal: true,
        lock_step: LockStep {
            rtl: device.is_some(),
            mismatches: u64::from(result.mismatch.is_some()),
            first_mismatch: result.mismatch,
        },
        ..Default::default()
    })
}
