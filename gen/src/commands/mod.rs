//! The commands, each generic over the block it runs; the flags they share are here.

pub mod allocate;
pub mod bench;
pub mod blocks;
pub mod ceiling;
pub mod cluster;
pub mod compare;
pub mod devices;
pub mod emit;
pub mod explore;
pub mod flow;
pub mod mutate;
pub mod regress;
pub mod route;
pub mod sim;
pub mod sweep;

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl};
use grfgen_sim::rng::Rng;
use serde::Serialize;

use crate::params::{args, config_arg, given, number, text, Values};
use grfgen_engines::error::CliError;

/// The subcommand for block `B`: its parameters (one value each) with `--config`, then the
/// options `O` (its run or benchmark options).
pub fn block_command<B: Block, O: Params>() -> Command {
    Command::new(B::Design::NAME)
        .about(B::Design::TITLE)
        .args(args::<ParamsOf<B>>(Values::One))
        .arg(config_arg())
        .args(args::<O>(Values::One))
}

/// `--json`.
pub fn json_arg() -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("Print one JSON object instead of text")
}

/// `--seed S`.
pub fn seed_arg() -> Arg {
    Arg::new("seed")
        .long("seed")
        .value_name("S")
        .help("Seed of the stimulus, the initial values and Verilator's x randomisation [default: fresh, printed]")
}

/// The seed given, or a fresh one (always printed, so that it can be replayed).
pub fn seed(m: &ArgMatches) -> Result<u64, CliError> {
    Ok(number(m, "seed", "0..=18446744073709551615")?.unwrap_or_else(Rng::fresh_seed))
}

/// The line that names a seed and how to replay it: `<command>: seed S (replay with --seed S)`.
pub fn seed_line(command: &str, seed: u64) -> String {
    format!("{command}: seed {seed} (replay with --seed {seed})")
}

/// Prints [`seed_line`] on standard error when the seed was drawn, not given: once the input
/// is checked (bad input still gives one line) and before the work, even with `--quiet`.
pub fn announce_seed(m: &ArgMatches, command: &str, seed: u64) {
    if !given(m, "seed") {
        eprintln!("{}", seed_line(command, seed));
    }
}

/// `--clock-mhz F`, with `default` MHz.
pub fn clock_arg(default: &'static str) -> Arg {
    Arg::new("clock_mhz")
        .long("clock-mhz")
        .value_name("MHZ")
        .default_value(default)
        .help("Clock frequency for the constraint files, in MHz (0 < f <= 2000)")
}

/// The clock of the constraint files: `--clock-mhz` and, where the command has it,
/// `--io-delay-ns`.
pub fn timing(m: &ArgMatches) -> Result<Timing, CliError> {
    let allowed = "more than 0 and at most 2000";
    let mhz = match number::<f64>(m, "clock_mhz", allowed)? {
        Some(mhz) => mhz,
        None => m
            .get_one::<String>("clock_mhz")
            .and_then(|d| d.parse().ok())
            .unwrap_or(200.0),
    };
    let delay = match m.try_get_one::<String>("io_delay_ns") {
        Ok(Some(_)) => number::<f64>(m, "io_delay_ns", "0..=one clock period")?,
        _ => None,
    };
    Ok(Timing::new(mhz, delay)?)
}

/// `--rtl` and `--no-rtl`.
pub fn rtl_args() -> [Arg; 2] {
    [
        Arg::new("rtl")
            .long("rtl")
            .action(ArgAction::SetTrue)
            .overrides_with("no_rtl")
            .help("Co-simulate the RTL (the default when Verilator is installed)"),
        Arg::new("no_rtl")
            .long("no-rtl")
            .action(ArgAction::SetTrue)
            .overrides_with("rtl")
            .help("Run the golden model only"),
    ]
}

/// Whether the RTL runs, from `--rtl` and `--no-rtl`.
pub fn rtl(m: &ArgMatches) -> Rtl {
    if m.get_flag("no_rtl") {
        Rtl::Off
    } else if m.get_flag("rtl") {
        Rtl::On
    } else {
        Rtl::Auto
    }
}

/// The path given as `--<id>`, if any.
pub fn path(m: &ArgMatches, id: &str) -> Option<std::path::PathBuf> {
    given(m, id)
        .then(|| text(m, id))
        .flatten()
        .map(std::path::PathBuf::from)
}

/// What a command prints: `value` as JSON with `--json`, else `text`.
pub fn render(m: &ArgMatches, value: &impl Serialize, text: impl FnOnce() -> String) -> String {
    if m.get_flag("json") {
        serde_json::to_string_pretty(value).expect("reports serialise")
    } else {
        text()
    }
}

/// The output of a run whose report may hold a mismatch: an error carrying the output then.
pub fn checked(output: String, report: &impl Report, seed: u64) -> Result<String, CliError> {
    match report.mismatch() {
        None => Ok(output),
        Some(m) => Err(CliError::Found {
            report: output,
            message: format!("{m} (seed {seed}; replay with --seed {seed})"),
        }),
    }
}
