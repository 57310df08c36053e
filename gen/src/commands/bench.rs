//! `grfgen bench <block>`: the block's benchmark.

use clap::{ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_sim::block::{BenchRecord, Block, ParamsOf};

use super::{block_command, json_arg, render};
use crate::params::{resolve, resolve_with_config};
use grfgen_engines::error::CliError;

/// The subcommand of `bench` for block `B`.
pub fn command<B: Block>() -> Command {
    block_command::<B, B::BenchOptions>().arg(json_arg())
}

/// Runs the benchmark of block `B`.
pub fn bench<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let params: ParamsOf<B> = resolve_with_config(m)?;
    B::Design::check(&params)?;
    let options: B::BenchOptions = resolve(m)?;
    let record = BenchRecord::<B>::run(&params, &options)?;
    Ok(render(m, &record, || record.text()))
}
