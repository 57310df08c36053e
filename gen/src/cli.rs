//! The command line: what `grfgen` accepts, built from the registries of blocks.

use clap::Command;

use crate::cluster;
use crate::commands;
use crate::compare;
use crate::registry::{blocks, designs};
use crate::route;

/// The verbs run on simulated blocks, with what they do.
pub const BLOCK_VERBS: [(&str, &str); 4] = [
    (
        "sim",
        "Co-simulate a block's Verilog in Verilator in lock step with its golden model",
    ),
    (
        "flow",
        "Emit, lint, synthesize and co-simulate a block, then print what was checked",
    ),
    (
        "sweep",
        "Run a block over every combination of listed parameter and option values and tabulate the results",
    ),
    ("bench", "Run a block's benchmark"),
];

/// The whole command tree.
pub fn command() -> Command {
    let emit = Command::new("emit")
        .about("Write a block's Verilog, Verilator waivers, XDC/SDC constraints and manifest.json")
        .subcommand_required(true)
        .subcommands(designs().iter().map(|d| d.emit_command()));
    let block_verbs = BLOCK_VERBS.iter().map(|&(verb, about)| {
        let command = Command::new(verb)
            .about(about)
            .subcommand_required(true)
            .subcommands(blocks().iter().map(|b| b.command(verb)));
        match verb {
            "sweep" => command.subcommands(commands::sweep::tools()).subcommand(
                Command::new("slurm")
                    .about("Run a sweep as a Slurm job array, one shard a task, then merge it")
                    .subcommand_required(true)
                    .subcommands(blocks().iter().map(|b| b.command("slurm"))),
            ),
            _ => command,
        }
    });
    Command::new("grfgen")
        .version(env!("CARGO_PKG_VERSION"))
        .about(
            "grfgen: synthesizable register-file RTL for GPU shader cores, from rust-hdl to \
             Verilog, co-simulated in Verilator against golden models.",
        )
        .propagate_version(true)
        .subcommand_required(true)
        .subcommand(emit)
        .subcommands(block_verbs)
        .subcommand(route::command())
        .subcommand(compare::command())
        .subcommand(cluster::command())
        .subcommand(commands::regress::command())
        .subcommand(commands::blocks::command())
}
