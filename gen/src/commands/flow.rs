//! `grfgen flow <block>`: emit, lint, synthesize and co-simulate, then print what was checked.

use std::path::PathBuf;

use clap::{Arg, ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_sim::block::{Block, ParamsOf};

use super::{block_command, clock_arg, json_arg, render, seed, seed_arg, timing};
use crate::error::CliError;
use crate::params::{resolve, resolve_with_config};

/// The subcommand of `flow` for block `B`.
pub fn command<B: Block>() -> Command {
    block_command::<B, B::Options>()
        .arg(Arg::new("out").long("out").value_name("DIR").help(format!(
            "Directory for the emitted files [default: out/{}]",
            B::Design::NAME
        )))
        .arg(clock_arg("200"))
        .arg(seed_arg())
        .arg(json_arg())
}

/// Runs the flow of block `B`; fails if a step fails.
pub fn flow<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let timing = timing(m)?;
    let params: ParamsOf<B> = resolve_with_config(m)?;
    let options: B::Options = resolve(m)?;
    let out = m
        .get_one::<String>("out")
        .map_or_else(|| PathBuf::from("out").join(B::Design::NAME), PathBuf::from);
    let seed = seed(m)?;
    let report = grfgen_flow::steps::flow::<B>(&params, &options, &out, timing, seed)?;
    let output = render(m, &report, || report.text());
    match report.ok {
        true => Ok(output),
        false => Err(CliError::Found {
            report: output,
            message: "flow failed: see the FAIL lines above".into(),
        }),
    }
}
