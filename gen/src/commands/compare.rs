//! `grfgen compare`: designs against their alternatives. `compare route` is the router's
//! (`crate::commands::route`); `compare gpr` sets the banked GPR against the multi-ported files.

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::compare::gpr::{compare_gpr, GprComparisonSpec};
use grfgen_flow::pnr::Device;
use grfgen_hdl::params::{
    Allowed, BankKind, BankMap, GprParams, Memory, MultiportParams, ParamValue, Waves,
};
use grfgen_sim::core::options::ProgramFiles;
use grfgen_sim::core::workload;

use crate::commands::flow::{pnr_args, pnr_request};
use crate::commands::route;
use crate::commands::{json_arg, render};
use crate::params::{args, list_arg as list, number, Values};
use grfgen_engines::error::CliError;

/// `grfgen compare`.
pub fn command() -> Command {
    Command::new("compare")
        .about("Compare designs with their alternatives")
        .subcommand_required(true)
        .subcommand(route::compare_command())
        .subcommand(gpr_command())
}

/// Runs `grfgen compare <what>`.
pub fn compare(what: &str, m: &ArgMatches) -> Result<String, CliError> {
    match what {
        "route" => route::compare(m),
        _ => gpr(m),
    }
}

/// The bank counts `--banks` allows, in words.
fn banks_allowed() -> String {
    Allowed::one_of(GprParams::BANKS).words().to_string()
}

/// The bank kinds `--bank-kinds` allows, in words.
fn kinds_allowed() -> String {
    Allowed::one_of(&BankKind::ALL).words().to_string()
}

/// The options each multi-ported row sets for itself (stages, block RAM, table encoding), not
/// flags of `compare gpr`.
const PER_ROW: [&str; 3] = ["pipeline", "memory", "encoding"];

/// The flags of the register file every design implements: `MultiportParams`' but the options
/// each row sets for itself.
fn file_args() -> Vec<Arg> {
    (args::<MultiportParams>(Values::One).into_iter())
        .filter(|a| !PER_ROW.contains(&a.get_id().as_str()))
        .collect()
}

/// `grfgen compare gpr`.
fn gpr_command() -> Command {
    Command::new("gpr")
        .about(
            "The banked GPR (every bank kind) against the flip-flop, live-value-table, \
             invalidation-LVT and XOR 2W4R files, each at its deepest pipeline option (every \
             option with --all-options): cost, Fmax, routing and core workload time",
        )
        .args(file_args())
        .arg(
            Arg::new("banks")
                .long("banks")
                .value_name("N")
                .help(format!(
                    "Banks of the banked GPR: {} [default 4]",
                    banks_allowed()
                )),
        )
        .arg(list(
            "bank_kinds",
            "KINDS",
            format!(
                "Bank kinds to compare, comma-separated: {} [default all]",
                kinds_allowed()
            ),
        ))
        .arg(
            Arg::new("memory")
                .long("memory")
                .value_name("KIND")
                .help(
                    "Block RAM of the banked rows: inferred, dp16kd, gowin-bsram or nexus-ebr \
                     [default: the device's primitive (dp16kd on an ECP5), inferred on an iCE40]",
                ),
        )
        .arg(list(
            "bank_maps",
            "MAPS",
            "Bank maps of the banked rows, comma-separated: mod, row or xor [default: mod]",
        ))
        .arg(list(
            "pipelines",
            "LIST",
            format!(
                "GPR pipeline options of the banked rows, comma-separated: 0..={} [default: {}, \
                 all with --all-options]",
                GprParams::MAX_PIPELINE,
                GprParams::MAX_PIPELINE
            ),
        ))
        .arg(
            Arg::new("all_options")
                .long("all-options")
                .action(ArgAction::SetTrue)
                .help(format!(
                    "Every pipeline option of every row: the banked GPR's 0..={}, the block-RAM \
                     files' 0..={} (without it, each row's deepest)",
                    GprParams::MAX_PIPELINE,
                    MultiportParams::MAX_PIPELINE
                )),
        )
        .arg(list(
            "workloads",
            "NAMES",
            format!(
                "Core workloads to run, comma-separated: {} [default all, none with --program]",
                workload::NAMES.join(", ")
            ),
        ))
        .args(args::<ProgramFiles>(Values::One))
        .args(pnr_args())
        .arg(
            Arg::new("seed")
                .long("seed")
                .value_name("S")
                .help("Seed of the random workloads' programs and initial values [default: 1]"),
        )
        .arg(
            Arg::new("waves")
                .long("waves")
                .value_name("W")
                .help("Waves the core interleaves on every row, each on its own registers: 1..=16 or auto [default 1]"),
        )
        .arg(
            Arg::new("allocate")
                .long("allocate")
                .action(ArgAction::SetTrue)
                .help("Run the banked rows' workloads after bank-aware register allocation (grfgen allocate)"),
        )
        .arg(grfgen_engines::csv::arg())
        .arg(json_arg())
}

/// The values of list flag `id` parsed by `parse`, each once, or `default` when it is not
/// given.
fn values<T: PartialEq>(
    m: &ArgMatches,
    id: &'static str,
    allowed: &str,
    default: Vec<T>,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, CliError> {
    let Some(given) = m.get_many::<String>(id) else {
        return Ok(default);
    };
    let mut list: Vec<T> = Vec::new();
    for v in given {
        let value = parse(v).ok_or_else(|| {
            CliError::Input(format!(
                "invalid value {v} for --{}: allowed {allowed}",
                id.replace('_', "-")
            ))
        })?;
        if !list.contains(&value) {
            list.push(value);
        }
    }
    Ok(list)
}

/// Runs `grfgen compare gpr`.
fn gpr(m: &ArgMatches) -> Result<String, CliError> {
    let file: MultiportParams = crate::params::resolve(m)?;
    let banks = number::<usize>(m, "banks", &banks_allowed())?.unwrap_or(4);
    let all_options = m.get_flag("all_options");
    let pipelines = match all_options {
        true => (0..=GprParams::MAX_PIPELINE).collect(),
        false => vec![GprParams::MAX_PIPELINE],
    };
    let allowed = format!("0..={}", GprParams::MAX_PIPELINE);
    let pnr = pnr_request(m, "gpr")?;
    let device = pnr.map_or(Device::Ecp5_85k, |r| r.device);
    let memory = match m.get_one::<String>("memory") {
        Some(text) => Memory::parse(text).ok_or_else(|| {
            CliError::Input(format!(
                "invalid value {} for --memory: allowed {}",
                grfgen_support::input::shown(text),
                grfgen_hdl::params::Allowed::one_of(&Memory::ALL).words()
            ))
        })?,
        None => device.memory(),
    };
    device.check_memory(memory).map_err(CliError::Input)?;
    let programs: ProgramFiles = crate::params::resolve(m)?;
    let spec = GprComparisonSpec {
        file,
        banks,
        memory,
        bank_kinds: values(
            m,
            "bank_kinds",
            "1r1w, 2r1w or 1rw",
            BankKind::ALL.to_vec(),
            BankKind::parse,
        )?,
        pipelines: values(m, "pipelines", &allowed, pipelines, |v| {
            v.parse().ok().filter(|&p| p <= GprParams::MAX_PIPELINE)
        })?,
        all_options,
        bank_maps: values(
            m,
            "bank_maps",
            "mod, row or xor",
            vec![BankMap::Mod],
            BankMap::parse,
        )?,
        workloads: values(
            m,
            "workloads",
            &workload::NAMES.join(", "),
            match programs.program.is_empty() {
                true => workload::NAMES.iter().map(|w| w.to_string()).collect(),
                false => Vec::new(),
            },
            |v| Some(v.to_string()),
        )?,
        programs,
        pnr,
        seed: number(m, "seed", "0..=18446744073709551615")?.unwrap_or(1),
        allocate: m.get_flag("allocate"),
        waves: waves(m)?,
    };
    spec.validate()?;
    let csv = crate::commands::path(m, "csv");
    if let Some(file) = &csv {
        grfgen_engines::output::check_file("--csv", file)?;
    }
    let work = grfgen_support::interrupt::Scratch::new("grfgen-compare-")?;
    let report = compare_gpr(&spec, work.path())?;
    if let Some(file) = &csv {
        let rows = serde_json::to_value(&report.designs).expect("reports serialise");
        let table = grfgen_engines::csv::objects(rows.as_array().map_or(&[][..], Vec::as_slice));
        grfgen_engines::output::write_file("--csv", file, table.as_bytes())?;
    }
    Ok(render(m, &report, || report.text()))
}

/// The waves `--waves` asks for: 1 unless given.
fn waves(m: &ArgMatches) -> Result<Waves, CliError> {
    let Some(text) = crate::params::text(m, "waves") else {
        return Ok(Waves::default());
    };
    (Waves::parse(text).filter(|w| w.0 <= Waves::MAX)).ok_or_else(|| {
        CliError::Input(format!(
            "invalid value {} for --waves: allowed 1..={} or auto",
            grfgen_support::input::shown(text),
            Waves::MAX
        ))
    })
}
