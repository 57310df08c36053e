//! `grfgen emit <design>`: the Verilog, waivers, constraints and manifest, written atomically.

use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::{design_files, is_keyword, write_atomically};

use super::{clock_arg, timing};
use crate::params::{args, config_arg, resolve_with_config, text, Values};
use grfgen_engines::error::CliError;

/// The subcommand of `emit` for design `D`.
pub fn command<D: Design>() -> Command {
    Command::new(D::NAME)
        .about(D::TITLE)
        .args(args::<D::Params>(Values::One))
        .arg(config_arg())
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("DIR")
                .required(true)
                .help("Directory to write into (created if missing; left untouched on failure)"),
        )
        .arg(clock_arg("200"))
        .args(naming_args())
        .arg(
            Arg::new("clean")
                .long("clean")
                .action(ArgAction::SetTrue)
                .help("Remove the files an earlier emit wrote into --out (as its manifest.json lists them) that this one does not write"),
        )
}

/// `--io-delay-ns` and `--top`, which `emit` and `flow` share.
pub fn naming_args() -> [Arg; 2] {
    [
        Arg::new("io_delay_ns")
            .long("io-delay-ns")
            .value_name("NS")
            .help("External input/output delay in ns [default: a quarter of the clock period]"),
        Arg::new("top")
            .long("top")
            .value_name("NAME")
            .help("Top module name [default: one that encodes every parameter]"),
    ]
}

/// The top module's name: `--top` checked, or the one that encodes `params`.
pub fn top<D: Design>(m: &ArgMatches, params: &D::Params) -> Result<String, CliError> {
    match text(m, "top") {
        Some(name) => module_name(name),
        None => Ok(D::top(params)),
    }
}

/// Writes design `D`; returns the summary line.
pub fn emit<D: Design>(m: &ArgMatches) -> Result<String, CliError> {
    let timing = timing(m)?;
    let params: D::Params = resolve_with_config(m)?;
    D::check(&params)?;
    let top = top::<D>(m, &params)?;
    let given = PathBuf::from(m.get_one::<String>("out").expect("required"));
    let out = grfgen_engines::output::check_dir("--out", &given)?;
    let emitted = emit_design::<D>(&params, &top)?;
    let files = design_files::<D>(&params, &emitted, timing);
    let stale = earlier_files(&out, &files);
    if !stale.is_empty() && !m.get_flag("clean") {
        let shown: Vec<&str> = stale.iter().take(6).map(String::as_str).collect();
        let more = match stale.len().saturating_sub(shown.len()) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        return Err(CliError::Input(format!(
            "invalid value {} for --out: it holds files an earlier emit wrote that this one does not ({}{more}); add --clean to remove them, or give another --out",
            grfgen_support::input::shown(&given.to_string_lossy()),
            shown.join(", ")
        )));
    }
    write_atomically(&out, &files)?;
    for name in &stale {
        std::fs::remove_file(out.join(name)).map_err(|e| {
            CliError::Failed(format!(
                "cannot remove {} (--clean): {e}",
                out.join(name).display()
            ))
        })?;
    }
    let cleaned = match stale.len() {
        0 => String::new(),
        n => format!(
            "; removed {} of an earlier emit",
            grfgen_support::text::plural(n as u64, "file")
        ),
    };
    Ok(format!(
        "wrote {}: {}{cleaned}",
        given.display(),
        emitted.summary()
    ))
}

/// The files an earlier emit wrote into `dir`, as its `manifest.json` lists them, that `files`
/// (this emit's) do not replace and that are still there: plain names only, never a path.
fn earlier_files(dir: &Path, files: &[(String, String)]) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.json")) else {
        return Vec::new();
    };
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let listed = (manifest.get("files").and_then(|f| f.as_object()))
        .into_iter()
        .flat_map(|f| f.values())
        .chain(
            (manifest.get("simulation_models").and_then(|m| m.as_array()))
                .into_iter()
                .flatten(),
        )
        .filter_map(serde_json::Value::as_str);
    let mut stale: Vec<String> = listed
        .filter(|name| !name.contains('/') && !name.starts_with('.'))
        .filter(|name| !files.iter().any(|(new, _)| new == name))
        .filter(|name| std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file()))
        .map(str::to_string)
        .collect();
    stale.sort();
    stale.dedup();
    stale
}

/// `--top NAME` checked: a Verilog identifier of `[A-Za-z0-9_]` not starting with a digit, at
/// most 200 characters, and not a Verilog keyword.
fn module_name(name: &str) -> Result<String, CliError> {
    let allowed = "a Verilog identifier of letters, digits and _, not first a digit, at most \
                   200 characters, not a Verilog keyword";
    let legal = !name.is_empty()
        && name.len() <= 200
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !is_keyword(name);
    match legal {
        true => Ok(name.to_string()),
        false => Err(CliError::Input(format!(
            "invalid value {} for --top: allowed {allowed}",
            grfgen_support::input::shown(name)
        ))),
    }
}
