//! The `grfgen` command line: parses arguments, calls the hardware and simulation crates and
//! prints what they report. No block logic lives here.

pub mod cli;
pub mod commands;
pub mod config;
pub mod design_files;
pub mod error;
pub mod progress;
pub mod tools;

use cli::{BenchBlock, Cli, Command, EmitBlock, FlowBlock, RouteCommand, SimBlock, SweepBlock};
use commands::{blocks, core, gpr, grf, route};
use error::CliError;

/// Runs a parsed command line; returns what to print.
pub fn execute(cli: &Cli) -> Result<String, CliError> {
    match &cli.command {
        Command::Emit { block } => match block {
            EmitBlock::Gpr { params, output } => gpr::emit(&params.resolve()?, output),
            EmitBlock::Route {
                params,
                full_crossbar,
                output,
            } => route::emit(&params.resolve()?, *full_crossbar, output),
            EmitBlock::Core { params, output } => core::emit(&params.resolve()?, output),
            EmitBlock::Grf { params, output } => grf::emit(&params.resolve()?, output),
        },
        Command::Sim { block } => match block {
            SimBlock::Gpr {
                params,
                run,
                vcd,
                no_rtl,
                json,
            } => gpr::sim(&params.resolve()?, run, vcd.as_ref(), !no_rtl, *json),
            SimBlock::Route { params, run, json } => route::sim(&params.resolve()?, run, *json),
            SimBlock::Grf {
                params,
                run,
                flat,
                rtl,
                no_rtl,
                vcd,
                json,
            } => grf::sim(
                &params.resolve()?,
                run,
                *flat,
                *rtl,
                *no_rtl,
                vcd.as_deref(),
                *json,
            ),
            SimBlock::Core {
                params,
                policy,
                program,
                seed,
                rtl,
                no_rtl,
                schedule,
                json,
            } => core::sim(
                &params.resolve()?,
                *policy,
                program,
                *seed,
                *rtl,
                *no_rtl,
                *schedule,
                *json,
            ),
        },
        Command::Flow { block } => match block {
            FlowBlock::Gpr {
                params,
                out,
                clock_mhz,
                run,
                json,
            } => gpr::flow(&params.resolve()?, out, *clock_mhz, run, *json),
            FlowBlock::Route {
                params,
                out,
                clock_mhz,
                run,
                json,
            } => route::flow(&params.resolve()?, out, *clock_mhz, run, *json),
            FlowBlock::Core {
                params,
                out,
                clock_mhz,
                seed,
                json,
            } => core::flow(&params.resolve()?, out, *clock_mhz, *seed, *json),
            FlowBlock::Grf {
                params,
                out,
                clock_mhz,
                seed,
                json,
            } => grf::flow(&params.resolve()?, out, *clock_mhz, *seed, *json),
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
            BenchBlock::Route {
                mappings,
                synth,
                json,
            } => route::bench(*mappings, *synth, *json),
            BenchBlock::Core { params, seed, json } => {
                core::bench(&params.resolve()?, *seed, *json)
            }
            BenchBlock::Grf {
                params,
                rounds,
                seed,
                energy,
                json,
            } => grf::bench(&params.resolve()?, *rounds, *seed, energy, *json),
        },
        Command::Route { command } => match command {
            RouteCommand::Eval {
                params,
                op,
                rs,
                rf,
                rtl,
                json,
            } => {
                let params = params.resolve()?;
                let op = route::lane_op(&params, op)?;
                route::eval(&params, &op, rs, rf, *rtl, *json)
            }
            RouteCommand::Shuffle {
                params,
                map,
                rs,
                rtl,
                json,
            } => route::shuffle(&params.resolve()?, map, rs, *rtl, *json),
            RouteCommand::Window {
                crossbar,
                element_bits,
                weights,
                seed,
                rtl,
                json,
            } => route::window(*crossbar, *element_bits, weights, *seed, *rtl, *json),
        },
        Command::Blocks { json } => Ok(blocks::blocks(*json)),
    }
}
