//! `grfgen mutate <block>`: the mutation coverage of a block's co-simulation (see
//! `grfgen_flow::mutate`): mutants drawn by Yosys, each run against the golden model with
//! `regress`'s stimulus, the share caught.

use std::path::Path;

use clap::{Arg, ArgMatches, Command};
use grfgen_flow::mutate::{mutate as measure, Mutant, MutateSpec, Outcome};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::NoOptions;
use grfgen_sim::block::{Block, ParamsOf};
use grfgen_support::interrupt::Scratch;

use super::regress::DEFAULT_CYCLES;
use super::{announce_seed, block_command, json_arg, render};
use crate::error::CliError;
use crate::params::{number, resolve_with_config};

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
        .arg(crate::csv::arg().help("Also write the mutants as CSV to FILE (one row per mutant: command, mode, source, module, outcome, cycle, port, stimulus seed, counterexample, error)"))
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
    let fresh = grfgen_sim::rng::Rng::fresh_seed() % (MAX_SEED + 1);
    let spec = MutateSpec {
        mutants: bounded("mutants", 1..=100_000, 30)? as usize,
        seed: bounded("seed", 0..=MAX_SEED, fresh)?,
        cycles: bounded("cycles", 1..=10_000_000_000, DEFAULT_CYCLES)?,
        seeds: bounded("seeds", 1..=1000, 4)?,
        depth: bounded("bmc_depth", 0..=64, 8)?,
        solver_seconds: bounded("solver_seconds", 1..=3600, 30)?,
    };
    let csv = match m.get_one::<String>("csv") {
        Some(file) => Some(crate::output::check_file("--csv", Path::new(file))?),
        None => None,
    };
    let name = B::Design::NAME;
    announce_seed(m, &format!("mutate {name}"), spec.seed);
    let work = Scratch::new("grfgen-mutate-")?;
    let progress = |n: usize, mutant: &Mutant| {
        crate::progress::line(&format!(
            "mutate {name}: mutant {} of {}: {}",
            n + 1,
            spec.mutants,
            outcome(&mutant.outcome)
        ));
    };
    let report = measure::<B>(&params, &spec, work.path(), &progress)?;
    if let Some(file) = &csv {
        crate::output::write_file("--csv", file, table(&report.mutants).as_bytes())?;
    }
    Ok(render(m, &report, || report.text()))
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
    crate::csv::table(&header, &rows)
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
