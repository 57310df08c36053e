//! Running the points of a sweep, several at a time, each into one record.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Instant;

use grfgen_flow::pnr::{place_and_route_seeds, synthesize_for};
use grfgen_flow::steps::{write_design, PnrRequest};
use grfgen_flow::tools::{synth, SynthTarget};
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl, RunRecord, Setup};
use grfgen_support::interrupt::Scratch;
use serde_json::Value;

use super::store::Record;
use crate::error::CliError;

/// One point to run.
pub struct Job<B: Block> {
    /// Its index in the sweep.
    pub index: usize,
    /// The design's parameters.
    pub params: ParamsOf<B>,
    /// The run's options.
    pub options: B::Options,
    /// Its seed.
    pub seed: u64,
}

/// The flags that set `value`'s non-default entries of `P`.
pub fn flags<P: Params>(value: &P) -> Vec<String> {
    let defaults = P::default();
    P::table()
        .iter()
        .filter(|p| p.value(value) != p.value(&defaults))
        .map(|p| format!("{} {}", p.flag(), p.value(value)))
        .collect()
}

/// The `grfgen sim` command that replays `job`.
pub fn replay<B: Block>(job: &Job<B>, rtl: Rtl) -> String {
    let mut words = vec![format!("grfgen sim {}", B::Design::NAME)];
    words.extend(flags(&job.params));
    words.extend(flags(&job.options));
    words.push(format!("--seed {}", job.seed));
    match rtl {
        Rtl::On => words.push("--rtl".into()),
        Rtl::Off => words.push("--no-rtl".into()),
        Rtl::Auto => {}
    }
    words.join(" ")
}

/// Synthesizes the design of `params` for iCE40 in a scratch directory.
fn ice40<D: Design>(params: &D::Params) -> Result<Value, CliError> {
    let work = Scratch::new("grfgen-point-")?;
    let top = D::top(params);
    write_design::<D>(params, &top, work.path(), Timing::new(200.0, None)?)?;
    let stats = synth(work.path(), &top, SynthTarget::Ice40)?;
    Ok(serde_json::to_value(stats).expect("statistics serialise"))
}

/// Synthesizes the design of `params` for `request`'s device inside its timing harness and,
/// unless `synthesis_only`, places and routes it, in a scratch directory, at the 200 MHz the
/// constraint files ask for. Synthesis alone gives the report without routing's figures.
fn implemented<D: Design>(
    params: &D::Params,
    request: &PnrRequest,
    synthesis_only: bool,
) -> Result<Value, CliError> {
    let work = Scratch::new("grfgen-point-")?;
    let top = D::top(params);
    let timing = Timing::new(200.0, None)?;
    let emitted = write_design::<D>(params, &top, work.path(), timing)?;
    let (dir, device, seed) = (work.path(), request.device, request.seed);
    let report = match synthesis_only {
        true => synthesize_for(dir, &emitted, device, 200.0, seed)?,
        false => {
            let first = request.placement();
            place_and_route_seeds(dir, &emitted, device, 200.0, first, request.seeds)?
        }
    };
    Ok(serde_json::to_value(report).expect("reports serialise"))
}

/// One implementation step's result for one design, filled once and shared.
type Cell = Arc<OnceLock<Result<Value, String>>>;

/// What each design gets beside its runs: synthesis, place and route. Each design of a sweep
/// gets them once, however many run options it is crossed with.
#[derive(Default)]
pub struct Implementation {
    /// Synthesize for iCE40.
    pub synth: bool,
    /// Place and route.
    pub pnr: Option<PnrRequest>,
    /// Stop `pnr` after synthesis for its device: LUTs, flip-flops and block RAMs, no Fmax.
    pub synthesis_only: bool,
    /// Results by design (its parameters as JSON) and step: a cell that the first point to
    /// need it fills while the others wait.
    cache: Mutex<HashMap<(String, &'static str), Cell>>,
}

impl Implementation {
    /// Synthesis when `synth`, place and route when `pnr` asks.
    pub fn new(synth: bool, pnr: Option<PnrRequest>) -> Self {
        Self {
            synth,
            pnr,
            synthesis_only: false,
            cache: Mutex::default(),
        }
    }

    /// `step` of the design of `params`, from the cache or done now by `make`.
    fn get<D: Design>(
        &self,
        params: &D::Params,
        step: &'static str,
        make: impl FnOnce() -> Result<Value, CliError>,
    ) -> Result<Value, String> {
        let key = (
            serde_json::to_string(params).expect("parameters serialise"),
            step,
        );
        let cell = {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(cache.entry(key).or_default())
        };
        cell.get_or_init(|| make().map_err(|e| e.to_string()))
            .clone()
    }

    /// Adds synthesis and place-and-route figures to `record` (of a design of `D`).
    fn add<D: Design>(&self, params: &D::Params, record: &mut Record) {
        if self.synth {
            match self.get::<D>(params, "synth", || ice40::<D>(params)) {
                Ok(stats) => record.ice40 = Some(stats),
                Err(e) => record.fail(format!("synthesis: {e}")),
            }
        }
        if let Some(request) = &self.pnr {
            let only = self.synthesis_only;
            let step = if only {
                "device synthesis"
            } else {
                "place and route"
            };
            match self.get::<D>(params, step, || implemented::<D>(params, request, only)) {
                Ok(report) => record.add_pnr(report),
                Err(e) => record.fail(format!("{step}: {e}")),
            }
        }
    }
}

/// The record of `job` before it runs: `ok`, with no figures.
fn blank<B: Block>(job: &Job<B>, rtl: Rtl) -> Record {
    Record {
        index: job.index,
        seed: job.seed,
        parameters: serde_json::to_value(&job.params).expect("parameters serialise"),
        options: serde_json::to_value(&job.options).expect("options serialise"),
        status: "ok".into(),
        error: None,
        replay: replay(job, rtl),
        metrics: Vec::new(),
        report: Value::Null,
        work_cycles: None,
        ice40: None,
        pnr: None,
        seconds: 0.0,
    }
}

/// The record of a `job` that does not apply to its configuration (`Block::inputs` refused
/// it, for `why`): `skipped`, never run.
pub fn skipped<B: Block>(job: &Job<B>, rtl: Rtl, why: String) -> Record {
    Record {
        status: "skipped".into(),
        error: Some(why),
        ..blank(job, rtl)
    }
}

/// Runs `job` (and implements its design as `implementation` says): its record, whatever
/// happens.
fn run<B: Block>(job: &Job<B>, rtl: Rtl, implementation: &Implementation) -> Record {
    let start = Instant::now();
    let setup = Setup::new(job.seed, rtl);
    let mut record = blank(job, rtl);
    match RunRecord::<B>::run(&job.params, &job.options, &setup) {
        Ok(run) => {
            if let Some(m) = run.report.mismatch() {
                record.status = "mismatch".into();
                record.error = Some(m.to_string());
            }
            record.metrics = (run.report.metrics().into_iter())
                .map(|(name, value)| (name.to_string(), value))
                .collect();
            record.report = serde_json::to_value(&run.report).expect("reports serialise");
            record.work_cycles = run.report.work_cycles();
        }
        Err(e) => {
            record.status = "failed".into();
            record.error = Some(e.to_string());
        }
    }
    if record.ok() {
        implementation.add::<B::Design>(&job.params, &mut record);
    }
    record.seconds = start.elapsed().as_secs_f64();
    record
}

/// Runs `jobs` on `threads` threads (implementing each design as `implementation` says);
/// `done` gets each record as it finishes, on this thread, and stops the sweep by returning
/// an error.
pub fn run_all<B: Block>(
    jobs: &[Job<B>],
    threads: usize,
    rtl: Rtl,
    implementation: &Implementation,
    mut done: impl FnMut(Record) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let next = AtomicUsize::new(0);
    let recorded = std::sync::Arc::new(AtomicUsize::new(0));
    let (count, total) = (recorded.clone(), jobs.len());
    grfgen_support::interrupt::describe(move |_| {
        format!(
            "interrupted: {} of {total} points recorded, the rest not started or dropped; --resume runs them",
            count.load(Ordering::SeqCst)
        )
    });
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(k) else { break };
                if tx.send(run(job, rtl, implementation)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for record in rx {
            let result = done(record);
            recorded.fetch_add(1, Ordering::SeqCst);
            if let Err(e) = result {
                // No more points start; those running finish and are dropped.
                next.store(jobs.len(), Ordering::SeqCst);
                return Err(e);
            }
        }
        Ok(())
    })
}
