//! `grfgen devices`: the FPGAs `--pnr` places on.

use clap::{ArgMatches, Command};
use grfgen_flow::pnr::{Device, DeviceInfo};

use super::{json_arg, render};

/// The `devices` command.
pub fn command() -> Command {
    Command::new("devices")
        .about("List the FPGAs --pnr places on: part, tools, default block RAM, capacity, bitstream packer")
        .arg(json_arg())
}

/// The devices as a table, or as JSON.
pub fn devices(m: &ArgMatches) -> String {
    let devices: Vec<DeviceInfo> = Device::ALL.iter().map(|d| d.info()).collect();
    render(m, &devices, || {
        let mut text = format!(
            "{:10}  {:6}  {:8}  {:>6}  {:>5}  {:>4}  {:43}  {}\n",
            "device",
            "family",
            "memory",
            "LUT4",
            "BRAM",
            "DSP",
            "part (nextpnr options)",
            "bitstream"
        );
        for d in &devices {
            text += &format!(
                "{:10}  {:6}  {:8}  {:>6}  {:>5}  {:>4}  {:43}  {}\n",
                d.name,
                d.family,
                d.memory.name(),
                d.luts,
                d.brams,
                d.dsps,
                d.part,
                d.bitstream.as_deref().unwrap_or("-")
            );
        }
        text.trim_end().to_string()
    })
}
