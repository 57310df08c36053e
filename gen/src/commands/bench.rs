//! `grfgen bench <block>`: the block's benchmark.

use clap::{ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_sim::block::{BenchRecord, Block, ParamsOf};

use super::{json_arg, render};
use crate::error::CliError;
use crate::params::{args, config_arg, resolve, resolve_with_config, Values};

/// The subcommand of `bench` for block `B`.
pub fn command<B: Block>() -> Command {
    Command::new(B::Design::NAME)
        .about(B::Design::TITLE)
        .args(args::<ParamsOf<B>>(Values::One))
        .arg(config_arg())
        .args(args::<B::BenchOptions>(Values::One))
        .arg(json_arg())
}

/// Runs the benchmark of block `B`.
pub fn bench<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let params: ParamsOf<B> = resolve_with_config(m)?;
    let options: B::BenchOptions = resolve(m)?;
    let record = BenchRecord::<B>::run(&params, &options)?;
    Ok(render(m, &record, || record.text()))
}
