//! `grfgen sim <block>`: one run, the RTL in lock step with the golden model.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Arg, ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::Params;
use grfgen_sim::block::Rtl;
use grfgen_sim::block::{Block, ParamsOf, RunRecord, Setup};
use grfgen_sim::verilator::{Foreign, MAX_THREADS};
use grfgen_support::interrupt::{self, Partial};

use super::{
    block_command, checked, clock_arg, json_arg, path, render, rtl, rtl_args, seed, seed_arg,
    timing,
};
use crate::params::{given, number, resolve, resolve_with_config};
use grfgen_engines::error::CliError;
use grfgen_engines::progress::Progress;

/// The largest waveform a run writes unless `--vcd-max-mb` allows more, in MiB.
const WAVEFORM_MB: u64 = 1024;
/// The values `--vcd-max-mb` allows.
const WAVEFORM_ALLOWED: &str = "1..=1048576";

/// The subcommand of `sim` for block `B`.
pub fn command<B: Block>() -> Command {
    block_command::<B, B::Options>()
        .arg(seed_arg())
        .args(rtl_args())
        .arg(clock_arg("200").help(
            "Clock of the waveform's time, in MHz: each cycle is one period (0 < f <= 2000)",
        ))
        .arg(
            Arg::new("vcd")
                .long("vcd")
                .value_name("FILE")
                .help("Write a waveform of the RTL to FILE (.vcd, or .fst for FST); it appears once the run ends"),
        )
        .arg(
            Arg::new("vcd_max_mb")
                .long("vcd-max-mb")
                .value_name("MB")
                .help("Stop a run whose waveform grows past MB MiB: 1..=1048576 [default 1024]"),
        )
        .arg(
            Arg::new("verilator_threads")
                .long("verilator-threads")
                .value_name("N")
                .help(format!(
                    "Evaluate the RTL on N threads (Verilator's --threads; for SM-sized models on machines with cores to spare): 1..={MAX_THREADS} [default 1]"
                )),
        )
        .arg(
            Arg::new("verilog")
                .long("verilog")
                .value_name("FILE")
                .help("Co-simulate this Verilog in place of the emitted design: a hand-edited copy, a netlist Yosys wrote of it, or your own implementation with the block's ports"),
        )
        .arg(
            Arg::new("top")
                .long("top")
                .value_name("NAME")
                .requires("verilog")
                .help("The module of --verilog to run [default: the emitted design's top name]"),
        )
        .arg(json_arg())
}

/// The Verilog a user gives with `--verilog` (and `--top`), read; `None` without it.
fn foreign(m: &ArgMatches, rtl: Rtl) -> Result<Option<Foreign>, CliError> {
    let Some(file) = path(m, "verilog") else {
        return Ok(None);
    };
    let shown = grfgen_support::input::shown(&file.to_string_lossy());
    if rtl == Rtl::Off {
        return Err(CliError::Input(format!(
            "invalid value {shown} for --verilog: it runs the RTL; leave out --no-rtl"
        )));
    }
    let text = std::fs::read_to_string(&file)
        .map_err(|e| CliError::Input(format!("invalid value {shown} for --verilog: {e}")))?;
    let top = match crate::params::text(m, "top") {
        Some(name) if !name.is_empty() => Some(name.to_string()),
        Some(name) => {
            return Err(CliError::Input(format!(
                "invalid value {} for --top: a module name",
                grfgen_support::input::shown(name)
            )))
        }
        None => None,
    };
    Ok(Some(Foreign {
        file: shown,
        text,
        top,
        select: None,
    }))
}

/// The threads `--verilator-threads` asks for: 1 unless given.
fn verilator_threads(m: &ArgMatches) -> Result<u32, CliError> {
    let allowed = format!("1..={MAX_THREADS}");
    match number::<u32>(m, "verilator_threads", &allowed)? {
        None => Ok(1),
        Some(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        Some(n) => Err(CliError::Input(format!(
            "invalid value {n} for --verilator-threads: allowed {allowed}"
        ))),
    }
}

/// Runs block `B` once; prints its report, and fails on a mismatch.
pub fn sim<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let params: ParamsOf<B> = resolve_with_config(m)?;
    B::Design::check(&params)?;
    let options: B::Options = resolve(m)?;
    let seed = seed(m)?;
    let waveform_mb = match number::<u64>(m, "vcd_max_mb", WAVEFORM_ALLOWED)? {
        None => WAVEFORM_MB,
        Some(mb) if (1..=1 << 20).contains(&mb) => mb,
        Some(mb) => {
            return Err(CliError::Input(format!(
                "invalid value {mb} for --vcd-max-mb: allowed {WAVEFORM_ALLOWED}"
            )))
        }
    };
    let waveform = path(m, "vcd").map(Waveform::new).transpose()?;
    let cycles = B::Options::param("cycles")
        .and_then(|p| p.value(&options).parse().ok())
        .unwrap_or(0);
    let name = B::Design::NAME;
    interrupt::describe(move |done| {
        let when = match done {
            0 => "before its first cycle".to_string(),
            n => format!("after {n} cycles"),
        };
        format!("interrupted: sim {name} stopped {when}, nothing written (seed {seed}; replay with --seed {seed})")
    });
    if !given(m, "seed") {
        interrupt::announce(super::seed_line(&format!("sim {name}"), seed));
    }
    let _watch = waveform.as_ref().and_then(|w| w.watch(waveform_mb));
    let foreign = foreign(m, rtl(m))?;
    // A given Verilog file runs: Verilator missing is then an error, not a run without it.
    let rtl = match foreign {
        Some(_) => Rtl::On,
        None => rtl(m),
    };
    let progress = Progress::new(name, cycles);
    let update = |done| progress.update(done);
    let setup = Setup {
        seed,
        rtl,
        waveform: waveform.as_ref().map(|w| w.partial.as_path()),
        progress: &update,
        clock_mhz: timing(m)?.mhz,
        threads: verilator_threads(m)?,
        model_seconds: Default::default(),
        foreign: foreign.as_ref(),
    };
    let record = RunRecord::<B>::run(&params, &options, &setup);
    progress.finish();
    let record = record?;
    if let Some(waveform) = waveform {
        if let Some(cycle) = grfgen_sim::verilator::waveform_stopped_at() {
            eprintln!(
                "warning: the waveform {} stops at cycle {cycle}: it reached --vcd-max-mb {waveform_mb}; the run went on to its end (raise --vcd-max-mb for more)",
                waveform.target.display()
            );
        }
        waveform.keep()?;
    }
    let output = render(m, &record, || record.text());
    checked(output, &record.report, seed)
}

/// A waveform being written: to a hidden file beside `--vcd FILE`, renamed to it once the run
/// ends, and removed if the run fails, is interrupted or outgrows its limit. A `FILE` that is
/// not a regular file (a FIFO, `/dev/stdout`) is written in place instead.
struct Waveform {
    /// The file the user asked for.
    target: PathBuf,
    /// The file being written.
    partial: PathBuf,
    /// Removes `partial` on interruption (none when the target is written in place).
    _registered: Option<Partial>,
}

impl Waveform {
    /// The waveform for `--vcd target`, checked before the run starts.
    fn new(given: PathBuf) -> Result<Self, CliError> {
        if given.as_os_str() == "-" {
            return Err(CliError::Input(
                "invalid value - for --vcd: allowed a file name (standard output holds the \
                 report; give a FIFO or /dev/stdout to stream the waveform)"
                    .into(),
            ));
        }
        let target = grfgen_engines::output::check_file("--vcd", &given)?;
        if grfgen_engines::output::is_special(&target) {
            return Ok(Self {
                partial: target.clone(),
                target,
                _registered: None,
            });
        }
        let name = target.file_name().unwrap_or_default();
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let partial = dir.join(format!(
            ".{}.partial-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let partial = with_extension_of(&partial, &target);
        Ok(Self {
            _registered: Some(Partial::new(&partial)),
            target,
            partial,
        })
    }

    /// Whether the waveform goes straight to its target (a special file).
    fn in_place(&self) -> bool {
        self._registered.is_none()
    }

    /// Stops the waveform, not the run, once it passes `mb` MiB (checked ten times a second):
    /// it keeps its first part; a special file has no size to watch.
    fn watch(&self, mb: u64) -> Option<WatchGuard> {
        if self.in_place() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (path, flag) = (self.partial.clone(), stop.clone());
        std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                let size = std::fs::metadata(&path).map_or(0, |m| m.len());
                if size > mb << 20 {
                    grfgen_sim::verilator::stop_waveform();
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Some(WatchGuard(stop))
    }

    /// Moves the finished waveform to its name.
    fn keep(self) -> Result<(), CliError> {
        if self.in_place() {
            return Ok(());
        }
        std::fs::rename(&self.partial, &self.target).map_err(|e| {
            let _ = std::fs::remove_file(&self.partial);
            CliError::Failed(format!("cannot write --vcd {}: {e}", self.target.display()))
        })
    }
}

impl Drop for Waveform {
    fn drop(&mut self) {
        // After `keep` the file has its name already; otherwise the run failed. A special
        // file is never removed.
        if !self.in_place() {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

/// Stops a waveform's size watch when dropped.
struct WatchGuard(Arc<AtomicBool>);

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `path` with `target`'s extension added, so that the format a name asks for (`.fst`) holds
/// for the file being written.
fn with_extension_of(path: &Path, target: &Path) -> PathBuf {
    match target.extension() {
        Some(ext) => {
            let mut name = path.as_os_str().to_owned();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        }
        None => path.to_path_buf(),
    }
}
