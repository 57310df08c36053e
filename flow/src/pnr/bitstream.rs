//! A bitstream from the routed design, by the device's open packer: `ecppack` (ECP5),
//! `icepack` (iCE40), `prjoxide pack` (Nexus), apycula's `gowin_pack` (Gowin), each from the
//! project's Python environment. A bitstream is the proof that place and route left a
//! complete design, every cell and wire one the device has.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use grfgen_hdl::emit::Emitted;
use serde::{Deserialize, Serialize};

use super::{round3, run_nextpnr, synthesized, venv_tool, Device, Placement};
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

/// A scratch directory removed when this is dropped, and when the run is interrupted.
struct Scratch {
    path: PathBuf,
    _partial: grfgen_support::interrupt::Partial,
}

impl Scratch {
    /// `path`, made empty.
    fn new(path: PathBuf) -> std::io::Result<Self> {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(Self {
            _partial: grfgen_support::interrupt::Partial::new(&path),
            path,
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Routes `emitted` (files in `dir`) on `device` at `clock_mhz` as `placement` says again, in a
/// scratch directory `dir/pnr/bitstream` (the kept report stays as it is), and packs what
/// nextpnr wrote for the packer into `dir/pnr/<top>.<bit|bin|fs>`. The packer writes into the
/// scratch directory, which goes whatever way it ends: a bitstream it did not finish goes with
/// it, and only a whole one is moved beside the report.
pub fn write_bitstream(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    placement: Placement,
) -> Result<Bitstream, FlowError> {
    let packer = device.packer();
    let started = Instant::now();
    synthesized(dir, emitted, device, clock_mhz, placement, true)?;
    let work = dir.join("pnr");
    let scratch = Scratch::new(work.join("bitstream"))?;
    std::fs::copy(work.join("synth.json"), scratch.path.join("synth.json"))?;
    let routed = run_nextpnr(
        &scratch.path,
        emitted,
        device,
        clock_mhz,
        placement,
        packer.nextpnr,
    )?;
    if !routed.status.success() {
        return Err(failure(device.nextpnr(), &routed, None));
    }
    let path = work.join(format!("{}.{}", emitted.top, packer.extension));
    // The YoWASP packers see only their working directory: the bitstream is written there,
    // then moved beside the report.
    let packed_name = format!("bitstream.{}", packer.extension);
    let step =
        grfgen_support::progress::step(format!("pack {} ({})", path.display(), packer.command()));
    let packed = output(
        Command::new(venv_tool(packer.tool))
            .current_dir(&scratch.path)
            .args(packer.arguments(&packed_name)),
        "scripts/ensure-tools.sh (the packers come with the YoWASP nextpnr builds; Gowin's with apycula)",
    );
    match packed {
        Ok(out) if out.status.success() => step.done(""),
        Ok(out) => return Err(failure(packer.tool, &out, None)),
        Err(e) => return Err(e),
    }
    std::fs::rename(scratch.path.join(&packed_name), &path)?;
    Ok(Bitstream {
        bytes: std::fs::metadata(&path)?.len(),
        path: path.display().to_string(),
        packer: packer.command(),
        seconds: round3(started.elapsed().as_secs_f64()),
    })
}
