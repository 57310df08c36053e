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
        let row = |cells: [&str; 9]| {
            let [name, family, memory, luts, ffs, brams, dsps, part, bitstream] = cells;
            format!(
                "{name:10}  {family:6}  {memory:11}  {luts:>6}  {ffs:>6}  {brams:>4}  {dsps:>4}  \
                 {part:53}  {bitstream}\n"
            )
        };
        let mut text = row([
            "device",
            "family",
            "memory",
            "LUT4",
            "FF",
            "BRAM",
            "DSP",
            "part (nextpnr options)",
            "bitstream",
        ]);
        for d in &devices {
            let [luts, ffs, brams, dsps] = [d.luts, d.ffs, d.brams, d.dsps].map(|n| n.to_string());
            text += &row([
                d.name,
                d.family,
                d.memory.name(),
                &luts,
                &ffs,
                &brams,
                &dsps,
                &d.part,
                &d.bitstream,
            ]);
        }
        text.trim_end().to_string()
    })
}
