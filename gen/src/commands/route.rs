//! The router's own commands: `grfgen route eval|shuffle|window` and `grfgen compare route`.

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_hdl::params::RouteParams;
use grfgen_sim::block::{Report, Rtl, Setup};
use grfgen_sim::route::{evaluate, run_window, shuffle, Fill, LaneOpName, LaneOpRequest};

use crate::commands::{json_arg, render, seed, seed_arg};
use crate::params::{args, list_arg as list, resolve, Values};
use grfgen_engines::error::CliError;

/// The numbers of list flag `id` (empty when not given).
fn numbers<T: std::str::FromStr>(
    m: &ArgMatches,
    id: &'static str,
    allowed: &str,
) -> Result<Vec<T>, CliError> {
    let Some(values) = m.get_many::<String>(id) else {
        return Ok(Vec::new());
    };
    values
        .map(|v| {
            v.parse().map_err(|_| {
                CliError::Input(format!("invalid value {v} for --{id}: allowed {allowed}"))
            })
        })
        .collect()
}

/// A flag taking one number.
fn optional_number(
    m: &ArgMatches,
    id: &'static str,
    allowed: &str,
) -> Result<Option<usize>, CliError> {
    crate::params::number(m, id, allowed)
}

/// `--rtl` for the router's one-off commands (the golden model alone otherwise).
fn rtl_flag(help: &'static str) -> Arg {
    Arg::new("rtl")
        .long("rtl")
        .action(ArgAction::SetTrue)
        .help(help)
}

/// The one-off commands run the RTL only when asked.
fn setup_rtl(m: &ArgMatches) -> Rtl {
    if m.get_flag("rtl") {
        Rtl::On
    } else {
        Rtl::Off
    }
}

/// `grfgen route eval`.
fn eval_command() -> Command {
    Command::new("eval")
        .about("One lane operation on given lane values (golden model, and the RTL with --rtl)")
        .args(args::<RouteParams>(Values::One))
        .arg(
            Arg::new("op")
                .long("op")
                .required(true)
                .value_name("OP")
                .help(format!("The operation: {}", LaneOpName::NAMES.join(", "))),
        )
        .arg(
            Arg::new("mod")
                .long("mod")
                .value_name("M")
                .help("Subset size m: a power of two from 2 to N [default: N, the whole group]"),
        )
        .arg(
            Arg::new("amount")
                .long("amount")
                .value_name("S")
                .help("Shift or rotate amount in lanes (shifts clamp at m)"),
        )
        .arg(
            Arg::new("lane")
                .long("lane")
                .value_name("K")
                .help("Lane of each subset to broadcast (0..m-1)"),
        )
        .arg(
            Arg::new("mask")
                .long("mask")
                .value_name("X")
                .help("Butterfly XOR mask (0..m-1)"),
        )
        .arg(
            Arg::new("fill")
                .long("fill")
                .value_name("FILL")
                .default_value("rf")
                .help("What fills vacated lanes of a shift: rf, zero, one or ones"),
        )
        .arg(
            list(
                "rs",
                "LIST",
                "The shifted register: N unsigned values, comma separated",
            )
            .required(true),
        )
        .arg(list(
            "rf",
            "LIST",
            "The fill register: N unsigned values, comma separated [default: all lanes 0]",
        ))
        .arg(rtl_flag(
            "Also run it on the Verilated router and fail if the two disagree",
        ))
        .arg(json_arg())
}

/// `grfgen route shuffle`.
fn shuffle_command() -> Command {
    Command::new("shuffle")
        .about("Any lane mapping, planned into router passes")
        .args(args::<RouteParams>(Values::One))
        .arg(
            list(
                "map",
                "LIST",
                "Source lane of every lane: N values, comma separated",
            )
            .required(true),
        )
        .arg(
            list(
                "rs",
                "LIST",
                "The register to shuffle: N unsigned values, comma separated",
            )
            .required(true),
        )
        .arg(rtl_flag(
            "Also run the plan on the Verilated router and fail if it disagrees",
        ))
        .arg(json_arg())
}

/// `grfgen route window`.
fn window_command() -> Command {
    Command::new("window")
        .about("A 3x3 convolution of an 8 x 16 tile from shift-and-fill operations (32 lanes)")
        .arg(
            Arg::new("crossbar")
                .long("crossbar")
                .value_name("Q")
                .default_value("4")
                .help("Crossbar size q of the router"),
        )
        .arg(
            Arg::new("element_bits")
                .long("element-bits")
                .value_name("N")
                .default_value("32")
                .help("Bits per lane: 8, 16, 32 or 64"),
        )
        .arg(
            list(
                "weights",
                "LIST",
                "The nine weights, row by row, comma separated",
            )
            .default_value("1,1,1,1,1,1,1,1,1"),
        )
        .arg(seed_arg())
        .arg(rtl_flag("Also run every operation on the Verilated router"))
        .arg(json_arg())
}

/// `grfgen route`.
pub fn command() -> Command {
    Command::new("route")
        .about(
            "Run lane operations, shuffles and the 2-D window filter on the shift-and-fill router",
        )
        .subcommand_required(true)
        .subcommands([eval_command(), shuffle_command(), window_command()])
}

/// `grfgen compare route`.
pub fn compare_command() -> Command {
    Command::new("route")
        .about("Yosys cells of the router's two-stage network against one full N x N crossbar, for 16, 32 and 64 lanes")
        .arg(Arg::new("crossbar").long("crossbar").value_name("Q").default_value("4").help("Crossbar size q of the two-stage network"))
        .arg(Arg::new("element_bits").long("element-bits").value_name("N").default_value("32").help("Bits per lane: 8, 16, 32 or 64"))
        .arg(json_arg())
}

/// A number flag with a default.
fn with_default(m: &ArgMatches, id: &'static str, allowed: &str) -> Result<usize, CliError> {
    let value = m.get_one::<String>(id).expect("has a default");
    value.parse().map_err(|_| {
        CliError::Input(format!(
            "invalid value {value} for --{}: allowed {allowed}",
            id.replace('_', "-")
        ))
    })
}

/// Runs `grfgen route <what>`.
pub fn route(what: &str, m: &ArgMatches) -> Result<String, CliError> {
    match what {
        "eval" => eval(m),
        "shuffle" => {
            let params: RouteParams = resolve(m)?;
            let map = numbers(m, "map", "lanes 0..N-1")?;
            let rs = numbers(m, "rs", "unsigned integers")?;
            let report = shuffle(&params, &map, &rs, &Setup::new(1, setup_rtl(m)))?;
            Ok(render(m, &report, || report.text()))
        }
        _ => window(m),
    }
}

/// `grfgen route window`.
fn window(m: &ArgMatches) -> Result<String, CliError> {
    let crossbar = with_default(m, "crossbar", "a power of two from 1 to 32")?;
    let bits = with_default(m, "element_bits", "8, 16, 32 or 64")?;
    let weights: Vec<i64> = numbers(m, "weights", "integers")?;
    let setup = Setup::new(seed(m)?, setup_rtl(m));
    let report = run_window(crossbar, bits, &weights, &setup)?;
    // After the run: its input is checked there, and a refusal is one line.
    crate::commands::announce_seed(m, "route window", setup.seed);
    let failed = report.failed();
    let output = render(m, &report, || report.text());
    match failed.is_empty() {
        true => Ok(output),
        false => Err(CliError::Found {
            report: output,
            message: format!(
                "the window filter differs from the direct computation: {}",
                failed.join(", ")
            ),
        }),
    }
}

/// `grfgen route eval`.
/// The operation flags of `route eval` and the operations that use each.
const OPERATION_FLAGS: [(&str, &[&str]); 5] = [
    (
        "amount",
        &["shff.left", "shff.right", "rotate.left", "rotate.right"],
    ),
    ("fill", &["shff.left", "shff.right"]),
    ("rf", &["shff.left", "shff.right"]),
    ("lane", &["broadcast"]),
    ("mask", &["butterfly"]),
];

/// Refuses a flag that operation `name` does not use, naming the operations that use it.
fn unused_flags(m: &ArgMatches, name: LaneOpName) -> Result<(), CliError> {
    let op = LaneOpName::NAMES[name as usize];
    for (flag, users) in OPERATION_FLAGS {
        if crate::params::given(m, flag) && !users.contains(&op) {
            let users = match users.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            return Err(CliError::Input(format!(
                "invalid value for --{flag}: {op} does not use it; --{flag} is for {users}"
            )));
        }
    }
    Ok(())
}

fn eval(m: &ArgMatches) -> Result<String, CliError> {
    let params: RouteParams = resolve(m)?;
    let name: LaneOpName = m.get_one::<String>("op").expect("required").parse()?;
    unused_flags(m, name)?;
    let fill: Fill = m
        .get_one::<String>("fill")
        .expect("has a default")
        .parse()?;
    if fill != Fill::Register && crate::params::given(m, "rf") {
        let fill = m.get_one::<String>("fill").expect("has a default");
        return Err(CliError::Input(format!(
            "invalid value for --rf: --fill {} does not use it; --rf is for --fill rf",
            grfgen_support::text::quoted(fill)
        )));
    }
    let request = LaneOpRequest {
        name,
        m: optional_number(m, "mod", "a power of two from 2 to N")?,
        amount: optional_number(m, "amount", "a number of lanes")?,
        lane: optional_number(m, "lane", "a lane 0..m-1")?,
        mask: optional_number(m, "mask", "a mask 0..m-1")?,
        fill,
    };
    let op = request.check(params.lanes)?;
    let rs = numbers(m, "rs", "unsigned integers")?;
    let rf = numbers(m, "rf", "unsigned integers")?;
    let setup = Setup::new(1, setup_rtl(m));
    let report = evaluate(&params, &op, &rs, &rf, &setup)?;
    Ok(render(m, &report, || report.text()))
}

/// Runs `grfgen compare route`.
pub fn compare(m: &ArgMatches) -> Result<String, CliError> {
    let crossbar = with_default(m, "crossbar", "a power of two from 1 to 16")?;
    let bits = with_default(m, "element_bits", "8, 16, 32 or 64")?;
    let report = grfgen_flow::compare::route_networks(crossbar, bits)?;
    Ok(render(m, &report, || report.text()))
}
