//! `grfgen partition`: the clustered register file's compiler on a program or a built-in
//! example: partitioning (or the baseline), allocation, and where the accesses go.

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_hdl::params::ClusterParams;
use grfgen_sim::cluster::kernels::{program_text, NAMES};
use grfgen_sim::cluster::{compile_report, parse};

use crate::commands::{json_arg, render};
use crate::params::{args, resolve, Values};
use grfgen_engines::error::CliError;

/// The names of the built-in programs with a fixed text (every one but `random`), in words.
fn example_names() -> String {
    let fixed: Vec<&str> = NAMES.into_iter().filter(|&n| n != "random").collect();
    fixed.join(", ")
}

/// `grfgen partition`.
pub fn command() -> Command {
    Command::new("partition")
        .about(
            "Partition a clustered program's virtual registers into local and main files \
             (SPEC S4), allocate them, and count local and main accesses, MOVs and spills",
        )
        .args(args::<ClusterParams>(Values::One))
        .arg(
            Arg::new("program")
                .long("program")
                .value_name("FILE")
                .conflicts_with("example")
                .help("A program in the documented text format (docs/cluster.md)"),
        )
        .arg(
            Arg::new("example")
                .long("example")
                .value_name("NAME")
                .help(format!("A built-in program: {}", example_names())),
        )
        .arg(
            Arg::new("baseline")
                .long("baseline")
                .action(ArgAction::SetTrue)
                .help("Instead of partitioning, keep every register more than one cluster uses in the main file"),
        )
        .arg(json_arg())
}

/// Runs `grfgen partition`.
pub fn partition(m: &ArgMatches) -> Result<String, CliError> {
    let params: ClusterParams = resolve(m)?;
    let (name, text) = match (
        m.get_one::<String>("example"),
        m.get_one::<String>("program"),
    ) {
        (Some(name), _) => {
            let text = program_text(name, params.clusters).ok_or_else(|| {
                CliError::Input(format!(
                    "invalid value {name} for --example: allowed {}",
                    example_names()
                ))
            })?;
            (name.clone(), text)
        }
        (None, Some(path)) => {
            let text =
                grfgen_support::input::read_text(path, "--program").map_err(CliError::Input)?;
            (path.clone(), text)
        }
        (None, None) => {
            return Err(CliError::Input(format!(
                "missing --example: allowed {}; or --program FILE instead",
                example_names()
            )))
        }
    };
    let bad = |why: String| {
        let name = grfgen_support::input::shown(&name);
        CliError::Input(match m.get_one::<String>("example") {
            Some(_) => format!("invalid program {name}: {why}"),
            None => format!("invalid value {name} for --program: {why}"),
        })
    };
    let program = parse(&text, params.clusters).map_err(|e| bad(e.to_string()))?;
    // A file that parses but holds no instructions has nothing to partition.
    if program.is_empty() {
        return Err(bad("no instructions in it".into()));
    }
    let (_, _, report) =
        compile_report(&program, &params, m.get_flag("baseline")).map_err(|full| {
            CliError::Input(format!(
                "invalid value {} for --main-regs: allowed at least {} for this program",
                params.main_regs, full.needed
            ))
        })?;
    Ok(render(m, &report, || report.text()))
}
