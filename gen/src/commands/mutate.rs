//! `grfgen mutate <block>`: the mutation coverage of a block's co-simulation (see
//! `grfgen_flow::mutate`): mutants drawn by Yosys, each run against the golden model with
//! `regress`'s stimulus, the share caught. With `--out DIR` each outcome is recorded as it is
//! known, and `--resume` goes on with the run recorded there.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::mutate::{mutate as measure, Mutant, MutateSpec, Outcome, MAX_BATCH};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::NoOptions;
use grfgen_sim::block::{Block, ParamsOf};
use grfgen_support::interrupt::Scratch;

use serde::{Deserialize, Serialize};

use super::regress::DEFAULT_CYCLES;
use super::sweep::jobs;
use super::{announce_seed, block_command, json_arg, render};
use crate::params::{given, number, resolve_with_config};
use grfgen_engines::error::CliError;

/// The largest seed Yosys's `mutate -seed` takes.
const MAX_SEED: u64 = 2_147_483_647;

/// The subcommand of `mutate` for block `B`.
pub fn command<B: Block>() -> Command {
    let value = |id: &'static str, name: &'static str, help: String| {
        Arg::new(id).long(id).value_name(name).help(help)
    };
    block_command::<B, NoOptions>()
        .arg(value("mutants", "N", "Mutations to draw with Yosys's mutate -list, 1..=100000 [default: 30]".into()))
        .arg(value("seed", "S", format!("Seed of the draw (Yosys's mutate -seed): the same seed draws the same mutants, 0..={MAX_SEED} [default: fresh, printed]")))
        .arg(value("cycles", "N", format!("Cycles of each run, where the block's runs have cycles, 1..=10000000000 [default: regress's {DEFAULT_CYCLES}]")))
        .arg(value("seeds", "N", "Stimulus seeds each mutant runs with, until one catches it, 1..=1000 [default: 4, as regress]".into()))
        .arg(value("bmc_depth", "K", "Cycles of the bounded equivalence check of each mutant no run catches (Yosys's SAT solver on a miter, every register from zero): none in K cycles is equivalent, not counted; 0 skips the check, 0..=64 [default: 8]".into()).long("bmc-depth"))
        .arg(value("solver_seconds", "S", "Seconds the solver may take for that check before the mutant is unknown, 1..=3600 [default: 30]".into()).long("solver-seconds"))
        .arg(value("batch", "N", format!("Mutants written into one netlist and built as one Verilator model, each switched on by a control input (MCY's mutate -ctrl); 1 builds each alone, 1..={MAX_BATCH} [default: 32]")))
        .arg(Arg::new("skip_meminit").long("skip-meminit").action(ArgAction::SetTrue).help("Draw no mutation of a memory's power-up contents (Yosys $meminit cells): Yosys cannot write an inverted one back, and the bounded check of a memory runs out of time; the block RAMs' zeros at power-up are checked alone (sim/tests/parts.rs)"))
        .arg(Arg::new("jobs").long("jobs").value_name("N").help("Mutants run at once, 1..=256 [default: the number of cores]"))
        .arg(Arg::new("out").long("out").value_name("DIR").help("Keep the run in DIR: the emitted design, the list drawn and each mutant's outcome as it is known (mutants/<n>.json)"))
        .arg(Arg::new("resume").long("resume").action(ArgAction::SetTrue).requires("out").help("Go on with the run recorded in --out DIR: its seed unless --seed is given; the mutants recorded there do not run again"))
        .arg(grfgen_engines::csv::arg().help("Also write the mutants as CSV to FILE (one row per mutant: command, mode, source, module, outcome, cycle, port, stimulus seed, counterexample, error)"))
        .arg(json_arg())
}

/// `grfgen mutate <block>`.
pub fn mutate<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let params: ParamsOf<B> = resolve_with_config(m)?;
    B::Design::check(&params)?;
    let bounded = |id: &'static str, range: std::ops::RangeInclusive<u64>, default: u64| {
        let allowed = format!("{}..={}", range.start(), range.end());
        match number::<u64>(m, id, &allowed)? {
            None => Ok(default),
            Some(n) if range.contains(&n) => Ok(n),
            Some(n) => Err(CliError::Input(format!(
                "invalid value {n} for --{}: allowed {allowed}",
                id.replace('_', "-")
            ))),
        }
    };
    let out = match m.get_one::<String>("out") {
        Some(dir) => Some(grfgen_engines::output::check_dir("--out", Path::new(dir))?),
        None => None,
    };
    let resume = m.get_flag("resume");
    let taken_up = match (&out, resume) {
        (Some(dir), true) => Recorded::read(dir)?,
        _ => None,
    };
    let fresh = grfgen_sim::rng::Rng::fresh_seed() % (MAX_SEED + 1);
    let seed = match (&taken_up, given(m, "seed")) {
        (Some(recorded), false) => recorded.seed,
        _ => bounded("seed", 0..=MAX_SEED, fresh)?,
    };
    let spec = MutateSpec {
        mutants: bounded("mutants", 1..=100_000, 30)? as usize,
        seed,
        cycles: bounded("cycles", 1..=10_000_000_000, DEFAULT_CYCLES)?,
        seeds: bounded("seeds", 1..=1000, 4)?,
        depth: bounded("bmc_depth", 0..=64, 8)?,
        solver_seconds: bounded("solver_seconds", 1..=3600, 30)?,
        jobs: jobs(m)?,
        batch: bounded("batch", 1..=MAX_BATCH as u64, 32)? as usize,
        skip_meminit: m.get_flag("skip_meminit"),
    };
    let csv = match m.get_one::<String>("csv") {
        Some(file) => Some(grfgen_engines::output::check_file(
            "--csv",
            Path::new(file),
        )?),
        None => None,
    };
    let name = B::Design::NAME;
    let recorded = Recorded::of(name, &params, &spec);
    if let Some(dir) = &out {
        recorded.open(dir, taken_up.as_ref(), resume)?;
    }
    if taken_up.is_none() {
        announce_seed(m, &format!("mutate {name}"), spec.seed);
    }
    let scratch = match out {
        Some(_) => None,
        None => Some(Scratch::new("grfgen-mutate-")?),
    };
    let work = out
        .as_deref()
        .or(scratch.as_ref().map(Scratch::path))
        .expect("one of the two");
    let known = Arc::new(AtomicUsize::new(0));
    let (count, total, kept) = (known.clone(), spec.mutants, out.is_some());
    grfgen_support::interrupt::describe(move |_| match kept {
        true => format!(
            "interrupted: {} of {total} mutants recorded; --resume runs the rest",
            count.load(Ordering::SeqCst)
        ),
        false => "interrupted".to_string(),
    });
    let progress = |_: usize, done: usize, mutant: &Mutant| {
        known.store(done, Ordering::SeqCst);
        grfgen_engines::progress::line(&format!(
            "mutate {name}: {done} of {}: {}",
            spec.mutants,
            outcome(&mutant.outcome)
        ));
    };
    let report = measure::<B>(&params, &spec, work, &progress)?;
    if let Some(file) = &csv {
        grfgen_engines::output::write_file("--csv", file, table(&report.mutants).as_bytes())?;
    }
    Ok(render(m, &report, || report.text()))
}

/// What a run kept in `--out DIR` records of itself (`mutate.json`), for `--resume`: what
/// makes its list and its outcomes, the parallelism aside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Recorded {
    /// The block.
    block: String,
    /// Its parameters.
    parameters: serde_json::Value,
    /// `--seed`.
    seed: u64,
    /// `--mutants`.
    mutants: usize,
    /// `--cycles`.
    cycles: u64,
    /// `--seeds`.
    seeds: u64,
    /// `--bmc-depth`.
    bmc_depth: u64,
    /// `--solver-seconds`.
    solver_seconds: u64,
    /// `--skip-meminit` (absent from the records of runs before it: false).
    #[serde(default)]
    skip_meminit: bool,
}

impl Recorded {
    /// The record of a run of `block` at `params` with `spec`.
    fn of<P: Serialize>(block: &str, params: &P, spec: &MutateSpec) -> Self {
        Self {
            block: block.to_string(),
            parameters: serde_json::to_value(params).unwrap_or_default(),
            seed: spec.seed,
            mutants: spec.mutants,
            cycles: spec.cycles,
            seeds: spec.seeds,
            bmc_depth: spec.depth,
            solver_seconds: spec.solver_seconds,
            skip_meminit: spec.skip_meminit,
        }
    }

    /// Where it is kept in `dir`.
    fn path(dir: &Path) -> PathBuf {
        dir.join("mutate.json")
    }

    /// The record in `dir`, if there is one.
    fn read(dir: &Path) -> Result<Option<Self>, CliError> {
        let Ok(text) = std::fs::read_to_string(Self::path(dir)) else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|_| refused(dir, "its mutate.json is not a mutation run's record".into()))
    }

    /// Starts this run in `dir`, or goes on with the one `found` there when `resume` and it
    /// is the same run; any other run there is refused, naming the first difference.
    fn open(&self, dir: &Path, found: Option<&Self>, resume: bool) -> Result<(), CliError> {
        let found = match found {
            Some(found) => Some(found.clone()),
            None => Self::read(dir)?,
        };
        match (found, resume) {
            (Some(found), true) if found == *self => return Ok(()),
            (Some(found), true) => {
                return Err(refused(
                    dir,
                    format!("it holds another run: {}", found.difference(self)),
                ))
            }
            (Some(_), false) => {
                return Err(refused(
                    dir,
                    "it holds a mutation run already; add --resume to go on with it".into(),
                ))
            }
            (None, _) => {}
        }
        let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
        if occupied {
            return Err(refused(
                dir,
                "it is not empty and holds no mutation run".into(),
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| refused(dir, e.to_string()))?;
        let text = serde_json::to_string_pretty(self).expect("records serialise") + "\n";
        grfgen_engines::output::write_file("--out", &Self::path(dir), text.as_bytes())
    }

    /// The first field that differs from `other`'s, as `--flag <here> there, <other> here`.
    fn difference(&self, other: &Self) -> String {
        let fields = [
            ("block", self.block.clone(), other.block.clone()),
            (
                "parameters",
                self.parameters.to_string(),
                other.parameters.to_string(),
            ),
            ("--seed", self.seed.to_string(), other.seed.to_string()),
            (
                "--mutants",
                self.mutants.to_string(),
                other.mutants.to_string(),
            ),
            (
                "--cycles",
                self.cycles.to_string(),
                other.cycles.to_string(),
            ),
            ("--seeds", self.seeds.to_string(), other.seeds.to_string()),
            (
                "--bmc-depth",
                self.bmc_depth.to_string(),
                other.bmc_depth.to_string(),
            ),
            (
                "--solver-seconds",
                self.solver_seconds.to_string(),
                other.solver_seconds.to_string(),
            ),
        ];
        match fields.iter().find(|(_, a, b)| a != b) {
            Some((name, there, here)) => format!("{name} {there} there, {here} here"),
            None => "nothing differs".to_string(),
        }
    }
}

/// `--out DIR` refused, with why.
fn refused(dir: &Path, why: String) -> CliError {
    CliError::Input(format!(
        "invalid value {} for --out: {why}",
        grfgen_support::input::shown(&dir.to_string_lossy())
    ))
}

/// The mutants as CSV: a row per mutant, the columns in the order the help gives, every one
/// present (empty where a mutant has no such field).
fn table(mutants: &[Mutant]) -> String {
    let header = [
        "command",
        "mode",
        "source",
        "module",
        "outcome",
        "cycle",
        "port",
        "stimulus_seed",
        "counterexample",
        "error",
    ]
    .map(String::from);
    let number = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
    let rows: Vec<Vec<String>> = mutants
        .iter()
        .map(|m| {
            vec![
                m.command.clone(),
                m.mode.clone(),
                m.source.clone(),
                m.module.clone(),
                outcome(&m.outcome).to_string(),
                number(m.cycle),
                m.port.clone().unwrap_or_default(),
                number(m.stimulus_seed),
                number(m.counterexample),
                m.error.clone().unwrap_or_default(),
            ]
        })
        .collect();
    grfgen_engines::csv::table(&header, &rows)
}

/// An outcome's word, as the JSON writes it.
fn outcome(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Caught => "caught",
        Outcome::Survived => "survived",
        Outcome::Equivalent => "equivalent",
        Outcome::Unknown => "unknown",
        Outcome::Error => "error",
    }
}
