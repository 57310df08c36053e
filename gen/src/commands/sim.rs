//! `grfgen sim <block>`: one run, the RTL in lock step with the golden model.

use clap::{Arg, ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, RunRecord, Setup};

use super::{block_command, checked, json_arg, path, render, rtl, rtl_args, seed, seed_arg};
use crate::error::CliError;
use crate::params::{resolve, resolve_with_config};
use crate::progress::Progress;

/// The subcommand of `sim` for block `B`.
pub fn command<B: Block>() -> Command {
    block_command::<B, B::Options>()
        .arg(seed_arg())
        .args(rtl_args())
        .arg(
            Arg::new("vcd")
                .long("vcd")
                .value_name("FILE")
                .help("Write a waveform of the RTL to FILE (.vcd, or .fst for FST)"),
        )
        .arg(json_arg())
}

/// Runs block `B` once; prints its report, and fails on a mismatch.
pub fn sim<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let params: ParamsOf<B> = resolve_with_config(m)?;
    let options: B::Options = resolve(m)?;
    let seed = seed(m)?;
    let waveform = path(m, "vcd");
    let cycles = B::Options::param("cycles")
        .and_then(|p| p.value(&options).parse().ok())
        .unwrap_or(0);
    let progress = Progress::new(B::Design::NAME, cycles);
    let update = |done| progress.update(done);
    let setup = Setup {
        seed,
        rtl: rtl(m),
        waveform: waveform.as_deref(),
        progress: &update,
    };
    let record = RunRecord::<B>::run(&params, &options, &setup);
    progress.finish();
    let record = record?;
    let output = render(m, &record, || record.text());
    checked(output, &record.report, seed)
}
