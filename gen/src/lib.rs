//! The `grfgen` command line: parses arguments, calls the hardware and simulation crates and
//! prints what they report. No block logic lives here.

pub mod cli;
pub mod commands;
pub mod config;
pub mod design_files;
pub mod error;
pub mod progress;
pub mod tools;

use cli::{BenchBlock, Cli, Command, EmitBlock, FlowBlock, SimBlock, SweepBlock};
use commands::{blocks, gpr};
use error::CliError;

/// Runs a parsed command line; returns what to print.
pub fn execute(cli: &Cli) -> Result<String, CliError> {
    match &cli.command {
        Command::Emit { block } => match block {
            EmitBlock::Gpr { params, output } => gpr::emit(&params.resolve()?, output),
        },
        Command::Sim { block } => match block {
            SimBlock::Gpr {
                params,
                run,
                vcd,
                no_rtl,
                json,
            } => gpr::sim(&params.resolve()?, run, vcd.as_ref(), !no_rtl, *json),
        },
        Command::Flow { block } => match block {
            FlowBlock::Gpr {
                params,
                out,
                clock_mhz,
                run,
                json,
            } => gpr::flow(&params.resolve()?, out, *clock_mhz, run, *json),
        },
        Command::Sweep { block } => match block {
            SweepBlock::Gpr {
                banks,
                registers,
                lanes,
                element_bits,
                read_ports,
                write_ports,
                run,
                synth,
                json,
            } => gpr::sweep(
                &gpr::SweepLists {
                    banks,
                    registers,
                    lanes,
                    element_bits,
                    read_ports,
                    write_ports,
                },
                run,
                *synth,
                *json,
            ),
        },
        Command::Bench { block } => match block {
            BenchBlock::Gpr {
                params,
                cycles,
                json,
            } => gpr::bench(&params.resolve()?, *cycles, *json),
        },
        Command::Blocks { json } => Ok(blocks::blocks(*json)),
    }
}
