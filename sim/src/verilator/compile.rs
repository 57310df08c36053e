//! Verilating, compiling and caching models.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::error::VerilatorError;
use super::model::VerilatedModel;
use super::shim;
use super::{Design, TraceFormat};
use grfgen_support::interrupt::Partial;

/// Changes whenever the shim or the build recipe changes, so old cache entries are not reused.
const RECIPE_VERSION: &str = "grfgen-verilator-11";

/// Builds running in this process now; at most [`build_slots`] run at once.
static BUILDS: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// How many models this process builds at once: one per core. A build's Verilator front end
/// and link run on one core, so two builds keep a 2-core machine busy where one leaves it half
/// idle; each build's own compile jobs (`-j 2`) share the cores.
fn build_slots() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A place among the builds running at once, given back when dropped.
struct BuildSlot;

impl BuildSlot {
    /// Waits for a free place.
    fn take() -> Self {
        let (count, freed) = &BUILDS;
        let mut running = count.lock().unwrap_or_else(|e| e.into_inner());
        while *running >= build_slots() {
            running = freed.wait(running).unwrap_or_else(|e| e.into_inner());
        }
        *running += 1;
        Self
    }
}

impl Drop for BuildSlot {
    fn drop(&mut self) {
        let (count, freed) = &BUILDS;
        *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        freed.notify_one();
    }
}

/// How to build and start a model.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Waveform support compiled in; a file is written only when a path is given at start.
    pub trace: Option<TraceFormat>,
    /// Seed for Verilator's randomisation of `x` values and uninitialised state.
    pub seed: u32,
    /// Where built models are cached; `None` uses [`cache_dir`].
    pub cache: Option<PathBuf>,
    /// The clock a waveform's time follows, in MHz: each evaluation is half a period (the
    /// waveform's unit is 1 ps). It changes nothing else, and is not part of the cache key.
    pub clock_mhz: f64,
    /// Threads the model evaluates on (Verilator's `--threads`), from 1 to [`MAX_THREADS`].
    pub threads: u32,
}

/// The most threads a model may be built for.
pub const MAX_THREADS: u32 = 64;

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            trace: None,
            seed: 1,
            cache: None,
            clock_mhz: 200.0,
            threads: 1,
        }
    }
}

/// The model cache: `$GRFGEN_CACHE`, else `$XDG_CACHE_HOME/grfgen`, else `~/.cache/grfgen`,
/// else `grfgen-cache` in the system temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("GRFGEN_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("grfgen");
    }
    if let Some(home) = std::env::var_os("HOME") {
        return PathBuf::from(home).join(".cache").join("grfgen");
    }
    std::env::temp_dir().join("grfgen-cache")
}

/// Builds (or finds in the cache) the model of `design` and starts one instance of it.
/// `trace_path` names the waveform file to write, if any; it needs `options.trace`.
pub fn build(
    design: &Design,
    options: &BuildOptions,
    trace_path: Option<&Path>,
) -> Result<VerilatedModel, VerilatorError> {
    let root = options.cache.clone().unwrap_or_else(cache_dir);
    let key = cache_key(design, options)?;
    let entry = root.join(format!("model-{key}"));
    let library = entry.join("libmodel.so");
    // One build of an entry at a time, across threads and processes (sweep shards on one
    // machine, or on a shared cache): concurrent callers of one design wait for the first
    // build instead of repeating it. Staging names keep even unlocked writers apart.
    fs::create_dir_all(&root)?;
    let _entry_lock = EntryLock::take(&root.join(format!("lock-{key}")))?;
    if !library.exists() {
        remove_abandoned(&root);
        let _slot = BuildSlot::take();
        let staging = root.join(staging_name("staging", &key));
        let _ = fs::remove_dir_all(&staging);
        let _partial = Partial::new(&staging);
        fs::create_dir_all(&staging)?;
        let step = grfgen_support::progress::step(format!(
            "build the Verilator model of {} (once; cached in {})",
            design.top,
            root.display()
        ));
        let built = compile(design, options, &staging);
        if let Err(e) = built {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
        step.done("");
        // Another process may have built the same entry meanwhile: keep theirs.
        if fs::rename(&staging, &entry).is_err() {
            let _ = fs::remove_dir_all(&staging);
        }
        if !library.exists() {
            return Err(VerilatorError::Load(format!(
                "{} missing after build",
                library.display()
            )));
        }
    }
    let half_period_ps = (500_000.0 / options.clock_mhz).round().max(1.0) as u64;
    let start = super::model::Start {
        seed: options.seed,
        trace: trace_path,
        half_period_ps,
    };
    VerilatedModel::load(&library, design.top, design.ports, &start)
}

/// The name of this process's staging directory for the cache entry `<kind>-<key>`:
/// `<kind>-<key>-<pid>.<host>`, so that a shared cache tells whose it is.
fn staging_name(kind: &str, key: &str) -> String {
    format!("{kind}-{key}-{}.{}", std::process::id(), host_name())
}

/// This machine's host name (empty if it has none).
fn host_name() -> String {
    let mut name = [0u8; 256];
    // SAFETY: gethostname writes at most `len` bytes into the buffer.
    let ok = unsafe { libc::gethostname(name.as_mut_ptr().cast(), name.len()) } == 0;
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    match ok {
        true => String::from_utf8_lossy(&name[..end]).into_owned(),
        false => String::new(),
    }
}

/// Removes the staging directories that builds killed on this machine left in the cache
/// `root` (see [`staging_name`]): those of this host whose process is gone.
fn remove_abandoned(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    let host = host_name();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((rest, their_host)) = name.split_once('.') else {
            continue;
        };
        let mut parts = rest.split('-');
        let (Some(kind), Some(_key), Some(pid), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(pid) = pid.parse::<i32>() else {
            continue;
        };
        if !matches!(kind, "staging" | "runtime") || their_host != host {
            continue;
        }
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// An exclusive `flock` on a cache entry's lock file, released when dropped (or when the
/// process dies, whatever kills it).
struct EntryLock(fs::File);

impl EntryLock {
    /// Waits for and takes the lock on `path`.
    fn take(path: &Path) -> Result<Self, VerilatorError> {
        use std::os::unix::io::AsRawFd;
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        // SAFETY: flock on a descriptor this function owns; no memory is shared.
        match unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } {
            0 => Ok(Self(file)),
            _ => Err(std::io::Error::last_os_error().into()),
        }
    }
}

impl Drop for EntryLock {
    fn drop(&mut self) {
        use std::os::unix::io::AsRawFd;
        // SAFETY: as in `take`; closing the file would release the lock anyway.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// Whether Verilator is installed (co-simulation is the default where it is).
pub fn installed() -> bool {
    verilator_version().is_ok()
}

/// Verilator's seed for x randomisation from a run's seed (never 0, which Verilator reads as
/// "pick one").
pub fn verilator_seed(seed: u64) -> u32 {
    (seed % 0x7fff_fffe) as u32 + 1
}

/// The installed Verilator's version line, read once.
fn verilator_version() -> Result<&'static str, VerilatorError> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new("verilator").arg("--version").output().ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        })
        .as_deref()
        .ok_or(VerilatorError::Missing { tool: "verilator" })
}

fn cache_key(design: &Design, options: &BuildOptions) -> Result<String, VerilatorError> {
    let mut hash = Sha256::new();
    for part in [
        RECIPE_VERSION,
        verilator_version()?,
        &format!("{:?} threads {}", options.trace, options.threads),
        design.top,
        design.verilog,
        design.waivers,
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    for port in design.ports {
        hash.update(port.name.as_bytes());
        hash.update([0]);
    }
    let digest = hash.finalize();
    Ok(digest[..12].iter().map(|b| format!("{b:02x}")).collect())
}

fn run(step: &'static str, command: &mut Command) -> Result<(), VerilatorError> {
    let tool = match command.get_program().to_str() {
        Some("verilator") => "verilator",
        _ => "g++",
    };
    let out = grfgen_support::interrupt::output(command).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => VerilatorError::Missing { tool },
        _ => VerilatorError::Io(e),
    })?;
    if out.status.success() {
        return Ok(());
    }
    let log = grfgen_support::tool::failure(tool, &out, None);
    Err(VerilatorError::Failed { step, log })
}

/// Verilates `design` and links it with the shim into `dir/libmodel.so`.
fn compile(design: &Design, options: &BuildOptions, dir: &Path) -> Result<(), VerilatorError> {
    let trace = options.trace;
    let source = dir.join(format!("{}.v", design.top));
    fs::write(&source, design.verilog)?;
    let mut verilate = Command::new("verilator");
    verilate
        .args(["--cc", "--build", "-j", "2", "--prefix", shim::PREFIX])
        .arg("--Mdir")
        .arg(dir.join("obj"))
        .args(["-CFLAGS", "-fPIC", "-O3", "-Wno-fatal"])
        .args(["-MAKEFLAGS", FAST_OPTIMISATION])
        .args(["-MAKEFLAGS", SLOW_OPTIMISATION])
        .args(["--x-assign", "unique", "--x-initial", "unique", "--assert"])
        .args(["--top-module", design.top]);
    if options.threads > 1 {
        verilate.args(["--threads", &options.threads.to_string()]);
    }
    match trace {
        Some(TraceFormat::Vcd) => {
            verilate.arg("--trace");
        }
        Some(TraceFormat::Fst) => {
            verilate.arg("--trace-fst");
        }
        None => {}
    }
    if !design.waivers.is_empty() {
        let waivers = dir.join(format!("{}.vlt", design.top));
        fs::write(&waivers, design.waivers)?;
        verilate.arg(waivers);
    }
    verilate.arg(&source);
    // Verilator's front end runs on one core: the run-time library, when not yet built,
    // compiles on the other meanwhile.
    let root = dir.parent().unwrap_or(dir);
    let (verilated, runtime) = std::thread::scope(|scope| {
        let runtime = scope.spawn(|| runtime_objects(root, trace));
        (run("verilator", &mut verilate), runtime.join())
    });
    verilated?;
    let runtime = runtime.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;

    let shim_path = dir.join("shim.cpp");
    fs::write(
        &shim_path,
        shim::source(design.ports, trace, options.threads),
    )?;
    let mut link = compiler(trace)?;
    link.arg("-shared")
        .arg(format!("-I{}", dir.join("obj").display()))
        .arg(&shim_path)
        .args(&runtime)
        .arg(dir.join("obj").join(archive_name(&dir.join("obj"))?))
        .args(["-Wl,--exclude-libs,ALL", "-Wl,--no-undefined"])
        .args(["-pthread", "-latomic"]);
    if trace == Some(TraceFormat::Fst) {
        link.arg("-lz");
    }
    link.arg("-o").arg(dir.join("libmodel.so"));
    run("compiling the model", &mut link)
}

/// The g++ optimisation of the once-only construction and initialisation code (Verilator's
/// `Slow` files): `-O0`. Without it they take the `-O3` of `-CFLAGS`, a quarter of a core
/// slice's build time (docs/benchmarks.md, "The test suite's time").
const SLOW_OPTIMISATION: &str = "OPT_SLOW=-O0";

/// The g++ optimisation of the per-cycle code, in place of Verilator's default `-Os` (which
/// takes 2.8x as long as `-O2` to compile on large models): `-O1`. The default core builds in
/// 13.8 s against 19.1 s at `-O2`; the SM-sized GPR runs 24% slower, the default GPR and router
/// within the machine's noise. Most runs are shorter than their model's build
/// (docs/benchmarks.md, "The test suite's time").
const FAST_OPTIMISATION: &str = "OPT_FAST=-O1";

/// `g++` with the flags Verilator's own makefile uses for a model with `trace` support.
fn compiler(trace: Option<TraceFormat>) -> Result<Command, VerilatorError> {
    let include = verilator_root()?.join("include");
    let flag = |on: bool| if on { "1" } else { "0" };
    let mut gxx = Command::new("g++");
    gxx.args(["-fPIC", "-O2", "-std=gnu++17", "-faligned-new"])
        .arg(format!("-I{}", include.display()))
        .arg(format!("-I{}", include.join("vltstd").display()))
        .arg("-DVM_COVERAGE=0")
        .arg("-DVM_SC=0")
        .arg(format!("-DVM_TRACE={}", flag(trace.is_some())))
        .arg(format!(
            "-DVM_TRACE_VCD={}",
            flag(trace == Some(TraceFormat::Vcd))
        ))
        .arg(format!(
            "-DVM_TRACE_FST={}",
            flag(trace == Some(TraceFormat::Fst))
        ));
    Ok(gxx)
}

/// Verilator's run-time library compiled once per trace variant and shared by every model in
/// the cache (it takes longer to compile than a small model).
fn runtime_objects(
    root: &Path,
    trace: Option<TraceFormat>,
) -> Result<Vec<PathBuf>, VerilatorError> {
    let mut sources = vec!["verilated.cpp", "verilated_threads.cpp"];
    match trace {
        Some(TraceFormat::Vcd) => sources.push("verilated_vcd_c.cpp"),
        Some(TraceFormat::Fst) => sources.push("verilated_fst_c.cpp"),
        None => {}
    }
    let mut hash = Sha256::new();
    hash.update(format!("{RECIPE_VERSION}{}{trace:?}", verilator_version()?).as_bytes());
    let key: String = hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = root.join(format!("runtime-{key}"));
    let objects: Vec<PathBuf> = sources
        .iter()
        .map(|s| dir.join(s.replace(".cpp", ".o")))
        .collect();
    // Builds of different models run at once and share this library: one compiles it.
    let _lock = EntryLock::take(&root.join(format!("lock-runtime-{key}")))?;
    if objects.iter().all(|o| o.exists()) {
        return Ok(objects);
    }
    let staging = root.join(staging_name("runtime", &key));
    let _ = fs::remove_dir_all(&staging);
    let _partial = Partial::new(&staging);
    fs::create_dir_all(&staging)?;
    let include = verilator_root()?.join("include");
    let header = staging.join("grf_print.h");
    fs::write(&header, shim::PRINT_HEADER)?;
    for source in &sources {
        let mut gxx = compiler(trace)?;
        gxx.arg("-include")
            .arg(&header)
            .arg("-c")
            .arg(include.join(source))
            .arg("-o")
            .arg(staging.join(source.replace(".cpp", ".o")));
        if let Err(e) = run("compiling Verilator's run-time library", &mut gxx) {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
    }
    if fs::rename(&staging, &dir).is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    Ok(objects)
}

/// The model archive: `Vgrf__ALL.a` (Verilator 5.006) or `libVgrf.a` (newer).
fn archive_name(obj: &Path) -> Result<String, VerilatorError> {
    [
        format!("{}__ALL.a", shim::PREFIX),
        format!("lib{}.a", shim::PREFIX),
    ]
    .into_iter()
    .find(|name| obj.join(name).exists())
    .ok_or_else(|| VerilatorError::Failed {
        step: "verilator",
        log: format!("no model archive in {}", obj.display()),
    })
}

fn verilator_root() -> Result<PathBuf, VerilatorError> {
    if let Some(root) = std::env::var_os("VERILATOR_ROOT") {
        return Ok(PathBuf::from(root));
    }
    let out = Command::new("verilator")
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .map_err(|_| VerilatorError::Missing { tool: "verilator" })?;
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}
