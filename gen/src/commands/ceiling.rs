//! `grfgen ceiling`: a device's block RAM alone, placed and routed, with and without its
//! output register: the speed no block on the device can pass, against which each block's
//! Fmax reads as a fraction.

use std::path::PathBuf;

use clap::{Arg, ArgMatches, Command};
use grfgen_flow::pnr::{ceiling as place_ceiling, variants, Ceiling};

use super::flow::{device_args, device_request};
use super::{clock_arg, json_arg, render, timing};
use grfgen_engines::error::CliError;

/// The `ceiling` command.
pub fn command() -> Command {
    Command::new("ceiling")
        .about("Place and route the device's block RAM alone (512 x 32, every input and output registered), with and without its output register: the device's ceiling on speed")
        .args(device_args())
        .arg(clock_arg("200"))
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("DIR")
                .help("Directory for each variant's files, DIR/<top>/pnr [default: out/ceiling]"),
        )
        .arg(json_arg())
}

/// Places and routes each block-RAM variant of the device; one line each, or JSON.
pub fn ceiling(m: &ArgMatches) -> Result<String, CliError> {
    let request = device_request(m, "ceiling")?;
    let mhz = timing(m)?.mhz;
    let given = super::path(m, "out").unwrap_or_else(|| PathBuf::from("out").join("ceiling"));
    let out = grfgen_engines::output::check_dir("--out", &given)?;
    let rows: Vec<Ceiling> = variants(request.device)
        .into_iter()
        .map(|register| {
            place_ceiling(
                &out,
                request.device,
                register,
                mhz,
                request.placement(),
                request.seeds,
            )
        })
        .collect::<Result<_, _>>()?;
    Ok(render(m, &rows, || {
        rows.iter()
            .map(|row| {
                let register = match row.output_register {
                    true => "with its output register",
                    false => "without an output register",
                };
                format!(
                    "{}, {register} ({}): {}",
                    row.memory,
                    row.top,
                    row.pnr.summary()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }))
}
