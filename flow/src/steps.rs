//! `grfgen flow`: emit a block's files, lint them, synthesize them (generic and iCE40),
//! co-simulate them and, when asked, place and route them; each step checked and described.

use std::path::Path;

use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::{design_files, write_atomically, Emitted, Timing};
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl, RunRecord, Setup};
use grfgen_support::progress;
use grfgen_support::text::plural;
use serde::Serialize;

use crate::pnr::{place_and_route_seeds, write_bitstream, Device, Placement, PnrReport};
use crate::tools::{lint, synth, SynthStats, SynthTarget};
use crate::FlowError;

/// One checked step of the flow.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// What was done.
    pub step: &'static str,
    /// Whether it passed.
    pub ok: bool,
    /// What it found.
    pub detail: String,
}

/// What `grfgen flow` reports.
#[derive(Serialize)]
pub struct FlowReport<P> {
    /// The block.
    pub block: &'static str,
    /// The top module.
    pub top: String,
    /// The design's parameters.
    pub parameters: P,
    /// Whether every step passed.
    pub ok: bool,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Place and route, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pnr: Option<PnrReport>,
    /// The seed of the co-simulations.
    pub seed: u64,
}

/// Place and route as `flow --pnr` asks for it.
#[derive(Clone, Copy, Debug)]
pub struct PnrRequest {
    /// The device.
    pub device: Device,
    /// nextpnr's placement seed, the first of `seeds`.
    pub seed: u64,
    /// How many seeds to place with, from `seed` on (the best one's files are kept).
    pub seeds: u64,
    /// The placer's timing weight (nextpnr's own: [`crate::pnr::DEFAULT_TIMING_WEIGHT`]).
    pub timing_weight: u32,
    /// Whether to pack the best seed's routed design into a bitstream (Gowin devices).
    pub bitstream: bool,
}

impl PnrRequest {
    /// The first seed's placement.
    pub fn placement(&self) -> Placement {
        Placement {
            seed: self.seed,
            timing_weight: self.timing_weight,
        }
    }
}

impl<P> FlowReport<P> {
    /// The steps as a table.
    pub fn text(&self) -> String {
        let mut text = format!("grfgen flow {}: {}\n", self.block, self.top);
        for s in &self.steps {
            let mark = if s.ok { "ok  " } else { "FAIL" };
            text += &format!("  {mark}  {:7} {}\n", s.step, s.detail);
        }
        text.trim_end().to_string()
    }
}

/// Emits design `D` for `params` into `out` with the clock `timing`: every file, atomically.
pub fn write_design<D: Design>(
    params: &D::Params,
    top: &str,
    out: &Path,
    timing: Timing,
) -> Result<Emitted, FlowError> {
    let emitted = emit_design::<D>(params, top)?;
    write_atomically(out, &design_files::<D>(params, &emitted, timing))?;
    Ok(emitted)
}

/// The emit step's description.
fn emit_step(out: &Path, emitted: &Emitted, timing: Timing) -> Step {
    Step {
        step: "emit",
        ok: true,
        detail: format!(
            "{}: {} ({} MHz)",
            out.display(),
            emitted.summary(),
            timing.mhz
        ),
    }
}

/// The iCE40 step's verdict: a design with memories must map them to block RAM.
fn ice40_step<D: Design>(ice40: &SynthStats) -> Step {
    let brams = ice40.count("SB_RAM40_4K");
    let logic = format!(
        "{} SB_LUT4, {} flip-flops",
        ice40.count("SB_LUT4"),
        ice40.flip_flops()
    );
    let (ok, detail) = match D::MEMORIES {
        Some(what) => (brams > 0, format!("{brams} SB_RAM40_4K ({what}), {logic}")),
        None => (brams == 0, format!("{logic}, {brams} SB_RAM40_4K")),
    };
    Step {
        step: "ice40",
        ok,
        detail: format!("yosys synth_ice40: {detail}"),
    }
}

/// The lint and synthesis steps for the design `top` written into `dir`.
pub fn check_design<D: Design>(dir: &Path, top: &str) -> Result<Vec<Step>, FlowError> {
    let step = progress::step(format!("lint {top} (verilator -Wall)"));
    let findings = lint(dir, top)?;
    step.done(&plural(findings.len() as u64, "finding"));
    let generic = synth(dir, top, SynthTarget::Generic)?;
    let ice40 = match vendor_primitives(dir, top)? {
        false => ice40_step::<D>(&synth(dir, top, SynthTarget::Ice40)?),
        true => Step {
            step: "ice40",
            ok: true,
            detail: "not run: the design instantiates a vendor's block RAMs (--memory)".into(),
        },
    };
    Ok(vec![
        Step {
            step: "lint",
            ok: findings.is_empty(),
            detail: if findings.is_empty() {
                "verilator --lint-only -Wall: clean (waivers in the .vlt)".into()
            } else {
                findings.join("; ")
            },
        },
        Step {
            step: "synth",
            ok: true,
            detail: format!("yosys synth: {} cells, check passed", generic.cells),
        },
        ice40,
    ])
}

/// Whether `<top>.v` in `dir` instantiates vendor primitives (which need their simulation
/// models, and a device of their vendor).
fn vendor_primitives(dir: &Path, top: &str) -> Result<bool, FlowError> {
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v")))?;
    Ok(!grfgen_hdl::sram::simulation_models(&verilog).is_empty())
}

/// The co-simulation step: every run the block's flow asks for, RTL in lock step.
fn cosim_step<B: Block>(
    params: &ParamsOf<B>,
    options: &B::Options,
    seed: u64,
) -> Result<Step, FlowError> {
    let setup = Setup::new(seed, Rtl::On);
    let mut ok = true;
    let mut detail = Vec::new();
    for run_options in B::flow_runs(params, options) {
        let step = progress::step(format!("co-simulate {}", B::Design::top(params)));
        let record = RunRecord::<B>::run(params, &run_options, &setup)?;
        let report = &record.report;
        step.done(&report.summary());
        ok &= report.mismatch().is_none();
        detail.push(match report.mismatch() {
            None => format!("{} ({:.2} s)", report.summary(), record.seconds),
            Some(m) => format!("{m}; replay with --seed {seed}"),
        });
    }
    Ok(Step {
        step: "co-sim",
        ok,
        detail: format!("seed {seed}: {}", detail.join("; ")),
    })
}

/// What a flow is asked to do besides its block's parameters and run options.
pub struct FlowRequest<'a> {
    /// The top module's name.
    pub top: &'a str,
    /// Where the files go.
    pub out: &'a Path,
    /// The clock of the constraint files (and of place and route).
    pub timing: Timing,
    /// The seed of the co-simulations.
    pub seed: u64,
    /// Place and route, if asked.
    pub pnr: Option<PnrRequest>,
}

/// Emits block `B` for `params` into `request.out` as `request.top`, lints, synthesizes and
/// co-simulates it with the runs its flow asks for (from `options`) and the seed; then, if
/// asked, places and routes it at the clock of `request.timing`.
pub fn flow<B: Block>(
    params: &ParamsOf<B>,
    options: &B::Options,
    request: &FlowRequest,
) -> Result<FlowReport<ParamsOf<B>>, FlowError> {
    let FlowRequest {
        top,
        out,
        timing,
        seed,
        pnr,
    } = *request;
    let top = top.to_string();
    let step = progress::step(format!("emit {top}"));
    let emitted = write_design::<B::Design>(params, &top, out, timing)?;
    step.done(&out.display().to_string());
    let mut steps = vec![emit_step(out, &emitted, timing)];
    steps.extend(check_design::<B::Design>(out, &top)?);
    steps.push(cosim_step::<B>(params, options, seed)?);
    let pnr = match pnr {
        Some(request) => {
            let mut report = place_and_route_seeds(
                out,
                &emitted,
                request.device,
                timing.mhz,
                request.placement(),
                request.seeds,
            )?;
            let mut detail = report.summary();
            match (request.bitstream, report.fmax_mhz) {
                (true, Some(_)) if report.brams > 0 && !request.device.packs_block_ram() => {
                    detail += "; no bitstream: apycula's gowin_pack 0.32 cannot write the \
                               GW5A-25's block RAM contents"
                }
                (true, Some(_)) => {
                    let kept = Placement {
                        seed: report.seed,
                        ..request.placement()
                    };
                    report.bitstream = Some(write_bitstream(
                        out,
                        &emitted,
                        request.device,
                        timing.mhz,
                        kept,
                    )?);
                    detail = report.summary();
                }
                (true, None) => detail += "; no bitstream: the design was not placed and routed",
                _ => {}
            }
            steps.push(Step {
                step: "pnr",
                ok: true,
                detail,
            });
            Some(report)
        }
        None => None,
    };
    Ok(FlowReport {
        block: B::Design::NAME,
        top,
        parameters: params.clone(),
        ok: steps.iter().all(|s| s.ok),
        steps,
        pnr,
        seed: request.seed,
    })
}
