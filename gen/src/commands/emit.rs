//! `grfgen emit <design>`: the Verilog, waivers, constraints and manifest, written atomically.

use std::path::PathBuf;

use clap::{Arg, ArgMatches, Command};
use grfgen_flow::steps::write_design;
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::is_keyword;

use super::{clock_arg, timing};
use crate::error::CliError;
use crate::params::{args, config_arg, resolve_with_config, text, Values};

/// The subcommand of `emit` for design `D`.
pub fn command<D: Design>() -> Command {
    Command::new(D::NAME)
        .about(D::TITLE)
        .args(args::<D::Params>(Values::One))
        .arg(config_arg())
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("DIR")
                .required(true)
                .help("Directory to write into (created if missing; left untouched on failure)"),
        )
        .arg(clock_arg("200"))
        .args(naming_args())
}

/// `--io-delay-ns` and `--top`, which `emit` and `flow` share.
pub fn naming_args() -> [Arg; 2] {
    [
        Arg::new("io_delay_ns")
            .long("io-delay-ns")
            .value_name("NS")
            .help("External input/output delay in ns [default: a quarter of the clock period]"),
        Arg::new("top")
            .long("top")
            .value_name("NAME")
            .help("Top module name [default: one that encodes every parameter]"),
    ]
}

/// The top module's name: `--top` checked, or the one that encodes `params`.
pub fn top<D: Design>(m: &ArgMatches, params: &D::Params) -> Result<String, CliError> {
    match text(m, "top") {
        Some(name) => module_name(name),
        None => Ok(D::top(params)),
    }
}

/// Writes design `D`; returns the summary line.
pub fn emit<D: Design>(m: &ArgMatches) -> Result<String, CliError> {
    let timing = timing(m)?;
    let params: D::Params = resolve_with_config(m)?;
    D::check(&params)?;
    let top = top::<D>(m, &params)?;
    let out = PathBuf::from(m.get_one::<String>("out").expect("required"));
    let emitted = write_design::<D>(&params, &top, &out, timing)?;
    Ok(format!("wrote {}: {}", out.display(), emitted.summary()))
}

/// `--top NAME` checked: a Verilog identifier of `[A-Za-z0-9_]` not starting with a digit, at
/// most 200 characters, and not a Verilog keyword.
fn module_name(name: &str) -> Result<String, CliError> {
    let allowed = "a Verilog identifier of letters, digits and _, not first a digit, at most \
                   200 characters, not a Verilog keyword";
    let legal = !name.is_empty()
        && name.len() <= 200
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !is_keyword(name);
    match legal {
        true => Ok(name.to_string()),
        false => Err(CliError::Input(format!(
            "invalid value {} for --top: allowed {allowed}",
            grfgen_sim::input::shown(name)
        ))),
    }
}
