//! `grfgen flow <block>`: emit, lint, synthesize and co-simulate, and with `--pnr` place and
//! route; then print what was checked.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::pnr::{
    default_timing_weight_of, Device, DEFAULT_TIMING_WEIGHT, MAX_SEEDS, MAX_TIMING_WEIGHT,
    ROUTER_ECP5_TIMING_WEIGHT,
};
use grfgen_flow::steps::{FlowRequest, PnrRequest};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::{Memory, ParamValue, Params};
use grfgen_sim::block::{Block, ParamsOf};

use super::{block_command, clock_arg, json_arg, render, seed, seed_arg, timing};
use crate::params::number;
use crate::params::{resolve, resolve_with_defaults};
use grfgen_engines::error::CliError;

/// The subcommand of `flow` for block `B`.
pub fn command<B: Block>() -> Command {
    block_command::<B, B::Options>()
        .arg(Arg::new("out").long("out").value_name("DIR").help(format!(
            "Directory for the emitted files [default: out/{}]",
            B::Design::NAME
        )))
        .arg(clock_arg("200"))
        .args(super::emit::naming_args())
        .arg(seed_arg())
        .args(pnr_args())
        .arg(
            Arg::new("bitstream")
                .long("bitstream")
                .action(ArgAction::SetTrue)
                .requires("pnr")
                .help("Also pack the kept seed's routed design into a bitstream, DIR/pnr/<top>.bit, .bin or .fs (ecppack, icepack, prjoxide pack or apycula's gowin_pack)"),
        )
        .arg(json_arg())
}

/// `--pnr`, `--device`, `--pnr-seed`, `--pnr-seeds` and `--pnr-timing-weight`.
pub(crate) fn pnr_args() -> [Arg; 5] {
    let [device, seed, seeds, weight] = device_args().map(|a| a.requires("pnr"));
    [
        Arg::new("pnr")
            .long("pnr")
            .action(ArgAction::SetTrue)
            .help("Also place and route, every input and output registered, and report Fmax, utilisation and the critical path"),
        device,
        seed,
        seeds,
        weight,
    ]
}

/// `--device`, `--pnr-seed`, `--pnr-seeds` and `--pnr-timing-weight`: where, how often and
/// how hard for timing to place and route.
pub(crate) fn device_args() -> [Arg; 4] {
    let devices: Vec<&str> = Device::ALL.iter().map(|d| d.name()).collect();
    [
        Arg::new("device")
            .long("device")
            .value_name("DEVICE")
            .help(format!("Device to place and route on: {} [default: ecp5-85k]", devices.join(", "))),
        Arg::new("pnr_seed")
            .long("pnr-seed")
            .value_name("N")
            .help("nextpnr's placement seed, 1..=2147483647 [default: 1]"),
        Arg::new("pnr_seeds")
            .long("pnr-seeds")
            .value_name("N")
            .help(format!("Place and route with N seeds, from --pnr-seed on: every seed's Fmax, the worst, median and best, the best seed's files kept, 1..={MAX_SEEDS} [default: 1]")),
        Arg::new("pnr_timing_weight")
            .long("pnr-timing-weight")
            .value_name("N")
            .help(format!("nextpnr's placer timing weight (--placer-heap-timingweight): how hard critical nets pull their cells together against wire length, 1..={MAX_TIMING_WEIGHT} [default: {DEFAULT_TIMING_WEIGHT}, nextpnr's own; {ROUTER_ECP5_TIMING_WEIGHT} for route on ECP5]")),
    ]
}

/// The place-and-route request for design `name` (a block's `Design::NAME`), if `--pnr` is
/// given.
pub(crate) fn pnr_request(m: &ArgMatches, name: &str) -> Result<Option<PnrRequest>, CliError> {
    if !m.get_flag("pnr") {
        return Ok(None);
    }
    device_request(m, name).map(Some)
}

/// The device (`--device`, default ecp5-85k), nextpnr seed (`--pnr-seed`, default 1), seed
/// count (`--pnr-seeds`, default 1) and placer timing weight (`--pnr-timing-weight`, default
/// design `name`'s on the device) of a request.
pub(crate) fn device_request(m: &ArgMatches, name: &str) -> Result<PnrRequest, CliError> {
    let device = match m.get_one::<String>("device") {
        Some(name) => name.parse().map_err(CliError::Input)?,
        None => Device::Ecp5_85k,
    };
    let allowed = "1..=2147483647";
    let seed = number::<u64>(m, "pnr_seed", allowed)?.unwrap_or(1);
    if !(1..=2_147_483_647).contains(&seed) {
        return Err(CliError::Input(format!(
            "invalid value {seed} for --pnr-seed: allowed {allowed}"
        )));
    }
    let allowed = format!("1..={MAX_SEEDS}");
    let seeds = number::<u64>(m, "pnr_seeds", &allowed)?.unwrap_or(1);
    if !(1..=MAX_SEEDS).contains(&seeds) || seed + seeds - 1 > 2_147_483_647 {
        return Err(CliError::Input(format!(
            "invalid value {seeds} for --pnr-seeds: allowed {allowed}, the last seed at most 2147483647"
        )));
    }
    let allowed = format!("1..={MAX_TIMING_WEIGHT}");
    let timing_weight = number::<u32>(m, "pnr_timing_weight", &allowed)?;
    let timing_weight = timing_weight.unwrap_or(default_timing_weight_of(name, device));
    if !(1..=MAX_TIMING_WEIGHT).contains(&timing_weight) {
        return Err(CliError::Input(format!(
            "invalid value {timing_weight} for --pnr-timing-weight: allowed {allowed}"
        )));
    }
    // Only `flow` has the flag: the other commands never pack.
    let bitstream = m.try_get_one::<bool>("bitstream").ok().flatten() == Some(&true);
    Ok(PnrRequest {
        device,
        seed,
        seeds,
        timing_weight,
        bitstream,
    })
}

/// Refuses a design of `designs` whose block RAM (`--memory`) `device` has not: the check
/// `flow`, `sweep`, `explore` and `compare` share.
pub(crate) fn check_on_device<P: Params>(designs: &[P], device: Device) -> Result<(), CliError> {
    check_on_device_with(designs, device, &format!("--device {device}"))
}

/// [`check_on_device`], the refusal naming the device as `with` names it.
pub(crate) fn check_on_device_with<P: Params>(
    designs: &[P],
    device: Device,
    with: &str,
) -> Result<(), CliError> {
    let Some(param) = P::param("memory") else {
        return Ok(());
    };
    for design in designs {
        let chosen = Memory::parse(&param.value(design)).unwrap_or_default();
        device
            .check_memory_with(chosen, with)
            .map_err(CliError::Input)?;
    }
    Ok(())
}

/// Runs the flow of block `B`; fails if a step fails.
pub fn flow<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let timing = timing(m)?;
    let pnr = pnr_request(m, B::Design::NAME)?;
    // Placed on a device, a design with block RAM takes the device's unless told otherwise.
    let memory = pnr
        .filter(|_| B::Design::MEMORIES.is_some())
        .map(|r| r.device.memory())
        .unwrap_or_default();
    let params: ParamsOf<B> = resolve_with_defaults(m, &[("memory", memory.name())])?;
    B::Design::check(&params)?;
    if let Some(r) = pnr {
        check_on_device(std::slice::from_ref(&params), r.device)?;
    }
    let options: B::Options = resolve(m)?;
    // An input file that cannot be read fails now, before anything is written or run.
    for p in B::Options::table()
        .iter()
        .filter(|p| p.value_name == "FILE")
    {
        let value = p.value(&options);
        if value != "none" {
            let flag = format!("--{}", p.name.replace('_', "-"));
            grfgen_support::input::read_text(&value, &flag).map_err(CliError::Input)?;
        }
    }
    let given = m
        .get_one::<String>("out")
        .map_or_else(|| PathBuf::from("out").join(B::Design::NAME), PathBuf::from);
    let out = grfgen_engines::output::check_dir("--out", &given)?;
    let request = FlowRequest {
        top: &super::emit::top::<B::Design>(m, &params)?,
        out: &out,
        timing,
        seed: seed(m)?,
        pnr,
    };
    super::announce_seed(m, &format!("flow {}", B::Design::NAME), request.seed);
    let report = grfgen_flow::steps::flow::<B>(&params, &options, &request)?;
    let output = render(m, &report, || report.text());
    match report.ok {
        true => Ok(output),
        false => Err(CliError::Found {
            report: output,
            message: "flow failed: see the FAIL lines above".into(),
        }),
    }
}
