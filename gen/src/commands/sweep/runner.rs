//! Running the points of a sweep, several at a time, each into one record.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::collections::HashMap;
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use grfgen_flow::steps::write_design;
use grfgen_flow::tools::{synth, SynthTarget};
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl, RunRecord, Setup, SimError};
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
fn flags<P: Params>(value: &P) -> Vec<String> {
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
    let work = tempfile::tempdir()?;
    let top = D::top(params);
    write_design::<D>(params, &top, work.path(), Timing::new(200.0, None)?)?;
    let stats = synth(work.path(), &top, SynthTarget::Ice40)?;
    Ok(serde_json::to_value(stats).expect("statistics serialise"))
}

/// Synthesis results by design (its parameters as JSON): each design of a sweep is
/// synthesized once, however many run options it is crossed with.
pub type SynthCache = Mutex<HashMap<String, Result<Value, String>>>;

/// The iCE40 figures of `params`, from `cache` or synthesized now.
fn synthesized<D: Design>(params: &D::Params, cache: &SynthCache) -> Result<Value, String> {
    let key = serde_json::to_string(params).expect("parameters serialise");
    let known = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
    let result = known.unwrap_or_else(|| ice40::<D>(params).map_err(|e| e.to_string()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache.insert(key, result.clone());
    result
}

/// Runs `job` (and synthesizes its design when `synth` holds a cache): its record, whatever
/// happens.
fn run<B: Block>(job: &Job<B>, rtl: Rtl, synth: Option<&SynthCache>) -> Record {
    let start = Instant::now();
    let setup = Setup::new(job.seed, rtl);
    let mut record = Record {
        index: job.index,
        seed: job.seed,
        parameters: serde_json::to_value(&job.params).expect("parameters serialise"),
        options: serde_json::to_value(&job.options).expect("options serialise"),
        status: "ok".into(),
        error: None,
        replay: replay(job, rtl),
        metrics: Vec::new(),
        report: Value::Null,
        ice40: None,
        seconds: 0.0,
    };
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
        }
        Err(SimError::Input(why)) => {
            record.status = "skipped".into();
            record.error = Some(why);
        }
        Err(e) => {
            record.status = "failed".into();
            record.error = Some(e.to_string());
        }
    }
    if let Some(cache) = synth.filter(|_| record.ok()) {
        match synthesized::<B::Design>(&job.params, cache) {
            Ok(stats) => record.ice40 = Some(stats),
            Err(e) => {
                record.status = "failed".into();
                record.error = Some(format!("synthesis: {e}"));
            }
        }
    }
    record.seconds = start.elapsed().as_secs_f64();
    record
}

/// Runs `jobs` on `threads` threads (synthesizing each design when `synth`); `done` gets each
/// record as it finishes, on this thread, and stops the sweep by returning an error.
pub fn run_all<B: Block>(
    jobs: &[Job<B>],
    threads: usize,
    rtl: Rtl,
    synth: bool,
    mut done: impl FnMut(Record) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let next = AtomicUsize::new(0);
    let cache = SynthCache::default();
    let synth = synth.then_some(&cache);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(k) else { break };
                if tx.send(run(job, rtl, synth)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for record in rx {
            if let Err(e) = done(record) {
                // No more points start; those running finish and are dropped.
                next.store(jobs.len(), Ordering::SeqCst);
                return Err(e);
            }
        }
        Ok(())
    })
}
