//! `grfgen allocate`: bank-aware register allocation of a core program (a file in the core's
//! format or ir3, or a built-in workload) for a GPR geometry, proved by execution, written as a
//! program in its own format with its map.

use clap::{Arg, ArgMatches, Command};
use grfgen_hdl::params::CoreParams;
use grfgen_sim::compilers::core_allocate::text;
use grfgen_sim::core::allocated::{allocated, AllocationFigures};
use grfgen_sim::core::figures::Isa;
use grfgen_sim::core::ir3;
use grfgen_sim::core::workload::NAMES;
use grfgen_sim::core::{run, CoreOptions, Policy};
use serde::Serialize;

use crate::commands::{json_arg, path, render, seed_arg};
use crate::params::{args, config_arg, resolve_with_config, Values};
use grfgen_engines::error::CliError;

/// `grfgen allocate`.
pub fn command() -> Command {
    Command::new("allocate")
        .about(
            "Assign a core program's registers so that each instruction's sources fall in \
             different banks; prove by execution that it computes the same; write it with its map",
        )
        .args(args::<CoreParams>(Values::One))
        .arg(config_arg())
        .arg(
            Arg::new("program")
                .long("program")
                .value_name("FILE")
                .conflicts_with("workload")
                .help("A program in the documented text format, or ir3 (docs/core.md)"),
        )
        .arg(
            Arg::new("isa")
                .long("isa")
                .value_name("ISA")
                .requires("program")
                .help("The program's instruction set, core or ir3, written back in the same [default: ir3 for .ir3 and .asm files, else core]"),
        )
        .arg(
            Arg::new("workload")
                .long("workload")
                .value_name("NAME")
                .help(format!("A built-in workload: {}", NAMES.join(", "))),
        )
        .arg(seed_arg())
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .help("Write the allocated program (its map in leading comments) to FILE [default: standard output]"),
        )
        .arg(json_arg())
}

/// What `grfgen allocate --json` prints.
#[derive(Serialize)]
struct Allocated<'a> {
    /// The program allocated.
    workload: &'a str,
    /// The allocated program, in the documented format.
    program: String,
    /// The seed of the random workloads and initial values.
    seed: u64,
    /// Its figures, under `cq-pq`.
    #[serde(flatten)]
    figures: &'a AllocationFigures,
}

/// The allocated program as a file: the figures in comments, the map (in the core's names;
/// the ir3 writer gives its own), then the program.
fn file_text(
    name: &str,
    top: &str,
    seed: u64,
    figures: &AllocationFigures,
    program: &str,
    isa: Isa,
) -> String {
    let a = &figures.allocation;
    let pairs = |map: &std::collections::BTreeMap<usize, usize>| -> String {
        let pairs: Vec<String> = map.iter().map(|(f, t)| format!("R{f} -> R{t}")).collect();
        pairs.join(", ")
    };
    let maps = match isa {
        Isa::Core => format!(
            "// inputs, loaded before the run: {}\n// outputs, read after the run: {}\n",
            pairs(&a.inputs),
            pairs(&a.outputs),
        ),
        Isa::Ir3 => String::new(),
    };
    let comment = match isa {
        Isa::Core => "//",
        Isa::Ir3 => ";",
    };
    format!(
        "{comment} {name}, allocated by grfgen allocate for {top}, seed {seed} (replay with --seed {seed})\n\
         {comment} bank conflicts {} -> {}; cq-pq cycles {} -> {} (the ideal file: {})\n{maps}{program}",
        a.conflicts_before,
        a.conflicts_after,
        figures.cycles_before,
        figures.cycles_after,
        figures.ideal_cycles,
    )
}

/// The `--isa` given, checked.
fn isa(m: &ArgMatches) -> Result<Option<Isa>, CliError> {
    m.get_one::<String>("isa")
        .map(|text| {
            use grfgen_hdl::params::ParamValue;
            Isa::parse(text).ok_or_else(|| {
                CliError::Input(format!(
                    "invalid value {} for --isa: allowed core or ir3",
                    grfgen_support::input::shown(text)
                ))
            })
        })
        .transpose()
}

/// Runs `grfgen allocate`.
pub fn allocate(m: &ArgMatches) -> Result<String, CliError> {
    let params: CoreParams = resolve_with_config(m)?;
    let options = CoreOptions {
        workload: m.get_one::<String>("workload").cloned(),
        program: m.get_one::<String>("program").cloned(),
        isa: isa(m)?,
        ..CoreOptions::default()
    };
    let out = path(m, "out");
    if let Some(file) = &out {
        grfgen_engines::output::check_file("--out", file)?;
    }
    let seed = crate::commands::seed(m)?;
    let written = options.program(&params, seed)?;
    crate::commands::announce_seed(m, "allocate", seed);
    let (renamed, mut figures) = allocated(&params, Policy::CqPq, &written, seed)?;
    let after = run(&params, Policy::CqPq, &renamed, seed, None, false);
    figures.cycles_after = after.cycles;
    figures.lower_bound_after = after.lower_bound;
    let (program, isa) = match &written.ir3 {
        Some(source) => (ir3::write(source, &figures.allocation), Isa::Ir3),
        None => (text(&renamed.program), Isa::Core),
    };
    let top = grfgen_hdl::params::module_name("core", &params);
    let file = file_text(&written.name, &top, seed, &figures, &program, isa);
    let summary = || {
        let a = &figures.allocation;
        format!(
            "allocated {} for {top}: bank conflicts {} -> {}{}, cq-pq cycles {} -> {} (the ideal \
             file: {}); {} values in {} registers; the outputs agree with the original's",
            written.name,
            a.conflicts_before,
            a.conflicts_after,
            match a.conflict_free() {
                true => "",
                false => " (no conflict-free assignment found: the cheapest found)",
            },
            figures.cycles_before,
            figures.cycles_after,
            figures.ideal_cycles,
            a.values,
            a.registers_used
        )
    };
    if let Some(file_path) = &out {
        grfgen_engines::output::write_file("--out", file_path, file.as_bytes())?;
    }
    let report = Allocated {
        workload: &written.name,
        program,
        seed,
        figures: &figures,
    };
    Ok(render(m, &report, || match &out {
        Some(file_path) => format!("{}; wrote {}", summary(), file_path.display()),
        None => file.trim_end().to_string(),
    }))
}
