//! The command line: what `grfgen` accepts, built from the registries of blocks.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command};

use grfgen_hdl::params::{flag_suggestion, suggestion};

use crate::commands;
use crate::commands::cluster;
use crate::commands::compare;
use crate::commands::route;
use crate::registry::{blocks, designs};

/// The verbs run on simulated blocks, with what they do.
pub const BLOCK_VERBS: [(&str, &str); 6] = [
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
    (
        "explore",
        "Find the Pareto front of cost, Fmax and time over workloads, and the design to emit for a device",
    ),
    ("bench", "Run a block's benchmark"),
    (
        "mutate",
        "Measure how much of a block's netlist its co-simulation checks: Yosys mutants, the share caught",
    ),
];

/// The whole command tree.
pub fn command() -> Command {
    negative_values(tree())
}

/// `command` and every command under it with every flag that takes a value accepting a
/// negative number as one: `--seed -1` reaches the flag's own check, which names the flag and
/// its range, instead of being refused as an unknown argument `-1`.
fn negative_values(command: Command) -> Command {
    command
        .mut_args(|arg| match arg.get_action().takes_values() {
            true => arg.allow_negative_numbers(true),
            false => arg,
        })
        .mut_subcommands(negative_values)
}

/// The command tree as the registries give it.
fn tree() -> Command {
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
            "explore" => command.subcommand(
                Command::new("slurm")
                    .about("Run an exploration as one Slurm job on one node")
                    .subcommand_required(true)
                    .subcommands(blocks().iter().map(|b| b.command("explore-slurm"))),
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
        .arg(
            Arg::new("quiet")
                .long("quiet")
                .short('q')
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Print no progress on standard error (results and errors still print)"),
        )
        .subcommand(emit)
        .subcommands(block_verbs)
        .subcommand(route::command())
        .subcommand(compare::command())
        .subcommand(cluster::command())
        .subcommand(crate::commands::allocate::command())
        .subcommand(commands::regress::command())
        .subcommand(commands::blocks::command())
        .subcommand(commands::devices::command())
        .subcommand(commands::ceiling::command())
}

/// The one line `grfgen` prints on standard error for a command line that `command()`
/// refused (`args` as given, the program name first): what is wrong, the flag or command it
/// concerns, and what is allowed.
pub fn refusal(error: &clap::Error, args: &[OsString]) -> String {
    let shown = |s: &str| grfgen_support::input::shown(s);
    match error.kind() {
        ErrorKind::MissingRequiredArgument => {
            let missing = match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(names)) => names.join(", "),
                _ => "a required argument".to_string(),
            };
            let (path, _) = deepest(args);
            format!("error: missing required arguments: {missing} (see {path} --help)")
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let (path, under) = deepest(args);
            format!(
                "error: missing command after '{path}': allowed {} (see {path} --help)",
                choices(&under)
            )
        }
        ErrorKind::InvalidSubcommand => {
            let (path, under) = deepest(args);
            let name = match error.get(ContextKind::InvalidSubcommand) {
                Some(ContextValue::String(name)) => name.clone(),
                _ => String::new(),
            };
            let names: Vec<&str> = under.get_subcommands().map(Command::get_name).collect();
            let hint = match suggestion(&name, names) {
                Some(near) => format!("; did you mean '{near}'?"),
                None => String::new(),
            };
            format!(
                "error: unknown command '{}' after '{path}': allowed {}{hint} (see {path} --help)",
                shown(&name),
                choices(&under)
            )
        }
        ErrorKind::UnknownArgument => {
            let (path, under) = deepest(args);
            let flag = match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(flag)) => flag.clone(),
                _ => String::new(),
            };
            let name = flag.trim_start_matches('-');
            let name = name.split('=').next().unwrap_or(name);
            let longs: Vec<&str> = under.get_arguments().filter_map(Arg::get_long).collect();
            let hint = match flag_suggestion(name, longs) {
                Some(near) => format!("; did you mean '--{near}'?"),
                None => String::new(),
            };
            format!(
                "error: unknown flag '{}' for '{path}'{hint} (see {path} --help)",
                shown(&flag)
            )
        }
        ErrorKind::InvalidUtf8 => {
            let at = args.iter().position(|a| a.to_str().is_none()).unwrap_or(0);
            let flag = at.checked_sub(1).and_then(|i| args[i].to_str());
            match flag.filter(|f| f.starts_with("--")) {
                Some(flag) => {
                    let (_, under) = deepest(args);
                    let help = (under.get_arguments())
                        .find(|a| a.get_long() == Some(&flag[2..]))
                        .and_then(|a| a.get_help().map(|h| format!(" ({h})")))
                        .unwrap_or_default();
                    format!(
                        "error: invalid value for {}: not UTF-8 text{help}",
                        shown(flag)
                    )
                }
                None => "error: an argument is not UTF-8 text (see grfgen --help)".to_string(),
            }
        }
        _ => {
            // Clap's first line names the flag and the value.
            let (path, _) = deepest(args);
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            format!("{} (see {path} --help)", shown(first))
        }
    }
}

/// The deepest command that the leading words of `args` name, with those words
/// (`grfgen sweep slurm`).
fn deepest(args: &[OsString]) -> (String, Command) {
    let mut under = command();
    let mut path = vec!["grfgen".to_string()];
    for word in args.iter().skip(1).filter_map(|a| a.to_str()) {
        match under.find_subcommand(word) {
            Some(next) => {
                path.push(word.to_string());
                under = next.clone();
            }
            None => break,
        }
    }
    (path.join(" "), under)
}

/// The names of `command`'s subcommands, as a list in words.
fn choices(command: &Command) -> String {
    let names: Vec<&str> = command
        .get_subcommands()
        .map(Command::get_name)
        .filter(|n| *n != "help")
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "nothing".to_string(),
    }
}
