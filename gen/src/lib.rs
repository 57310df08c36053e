//! The `grfgen` command line: parses arguments, calls the hardware, simulation, flow and engine
//! crates and prints what they report. No block logic and no engine lives here: the commands
//! are generic over the registries of blocks, one file each under `commands/` (the commands a
//! single block has, `route`, `allocate`, `partition` and `compare`, among them).

pub mod cli;
pub mod commands;
pub mod params;
pub mod registry;

use clap::ArgMatches;

use grfgen_engines::error::CliError;

/// Runs a parsed command line; returns what to print.
pub fn execute(matches: &ArgMatches) -> Result<String, CliError> {
    let (verb, m) = matches.subcommand().expect("a command is required");
    let (name, m) = match m.subcommand() {
        Some((name, sub)) => (name, sub),
        None => ("", m),
    };
    let command = format!("{verb} {name}").trim_end().to_string();
    grfgen_support::interrupt::describe(move |_| {
        format!("interrupted: grfgen {command} stopped; no partial output was left")
    });
    match verb {
        "emit" => {
            let designs = registry::designs();
            let design = designs
                .iter()
                .find(|d| d.emit_command().get_name() == name)
                .expect("clap accepted the design");
            design.emit(m)
        }
        "route" => commands::route::route(name, m),
        "allocate" => commands::allocate::allocate(matches.subcommand().expect("allocate").1),
        "compare" => commands::compare::compare(name, m),
        "partition" => commands::cluster::partition(matches.subcommand().expect("partition").1),
        "sweep" if name == "merge" => commands::sweep::merge(m),
        "sweep" if name == "status" => commands::sweep::status(m),
        "sweep" if name == "plot" => commands::sweep::plot(m),
        "sweep" if name == "export" => commands::sweep::export(m),
        "sweep" | "explore" if name == "slurm" => {
            let (block, m) = m.subcommand().expect("a block is required");
            let blocks = registry::blocks();
            let entry = blocks.iter().find(|b| b.name() == block);
            let command = if verb == "sweep" {
                "slurm"
            } else {
                "explore-slurm"
            };
            entry.expect("clap accepted the block").run(command, m)
        }
        "regress" => commands::regress::regress(matches.subcommand().expect("regress").1),
        "blocks" => Ok(commands::blocks::blocks(
            matches.subcommand().expect("blocks").1,
        )),
        "ceiling" => commands::ceiling::ceiling(matches.subcommand().expect("ceiling").1),
        "devices" => Ok(commands::devices::devices(
            matches.subcommand().expect("devices").1,
        )),
        verb => {
            let blocks = registry::blocks();
            let block = blocks
                .iter()
                .find(|b| b.name() == name)
                .expect("clap accepted the block");
            block.run(verb, m)
        }
    }
}
