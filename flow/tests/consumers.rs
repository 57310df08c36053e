//! The emitted files in the hands of the tools that consume them: FuseSoC reads the core and
//! runs its Verilator lint target; a hand-written SystemVerilog design instantiates the GPR
//! through its template and compiles in Verilator and in Icarus, which also simulates it.
//! Needs `verilator`, `iverilog` and `fusesoc` (`make tools` installs them; FuseSoC into the
//! project's `.venv`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grfgen_flow::steps::write_design;
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::Timing;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{GprParams, Memory, RouteParams};
use grfgen_hdl::route::Route;

/// `fusesoc`: `$FUSESOC`, else the project's `.venv/bin/fusesoc`, else the one on the PATH.
fn fusesoc() -> PathBuf {
    if let Some(path) = std::env::var_os("FUSESOC") {
        return path.into();
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/fusesoc");
    match venv.exists() {
        true => venv,
        false => "fusesoc".into(),
    }
}

/// Runs `command` in `dir`; panics with its output unless it succeeds.
fn run(dir: &Path, command: &mut Command, what: &str) -> Output {
    let out = command
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start ({e}); `make tools` installs it"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    out
}

/// Emits design `D` into `dir/<top>` and has FuseSoC describe it and lint it; gives the lint's
/// Verilator command file.
fn fusesoc_lints<D: Design>(dir: &Path, params: &D::Params) -> String {
    let top = D::top(params);
    let cores = dir.join(&top);
    write_design::<D>(params, &top, &cores, Timing::new(200.0, None).unwrap()).unwrap();
    let vlnv = format!(
        "grfgen:{}:{top}:{}",
        D::NAME.replace('-', "_"),
        env!("CARGO_PKG_VERSION")
    );
    let roots = ["--cores-root", cores.to_str().unwrap()];
    let info = run(
        dir,
        Command::new(fusesoc())
            .args(roots)
            .args(["core-info", &vlnv]),
        "fusesoc core-info",
    );
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(info.contains(&format!("Name:        {vlnv}")), "{info}");
    assert!(info.contains("lint"), "{info}");
    let build = dir.join("build");
    run(
        dir,
        Command::new(fusesoc())
            .args(roots)
            .args(["run", "--target", "lint", "--build-root"])
            .arg(&build)
            .arg(&vlnv),
        "fusesoc run --target lint",
    );
    // The lint ran Verilator on the emitted files with the waivers.
    let flags = std::fs::read_dir(build.join(vlnv.replace(':', "_")).join("lint-verilator"))
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.path().extension().is_some_and(|x| x == "vc"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .expect("a Verilator command file");
    assert!(flags.contains(&format!("{top}.vlt")) && flags.contains(&format!("{top}.v")));
    flags
}

/// The GPR (also with its banks as each vendor's block RAM instances, whose lint reads the
/// primitive's simulation model written beside the design, and no other) and the router.
#[test]
fn fusesoc_reads_and_lints_the_gpr_and_router_cores() {
    let dir = tempfile::tempdir().unwrap();
    let models = ["dp16kd_model.v", "sdpb_model.v", "pdpsc16k_model.v"];
    let flags = fusesoc_lints::<Gpr>(dir.path(), &GprParams::default());
    assert!(models.iter().all(|m| !flags.contains(m)), "{flags}");
    for (memory, model) in [Memory::Dp16kd, Memory::GowinBsram, Memory::NexusEbr]
        .into_iter()
        .zip(models)
    {
        let params = GprParams {
            memory,
            pipeline: GprParams::MAX_PIPELINE,
            ..GprParams::default()
        };
        let flags = fusesoc_lints::<Gpr>(dir.path(), &params);
        let named: Vec<&&str> = models.iter().filter(|m| flags.contains(**m)).collect();
        assert_eq!(named, [&model], "{flags}");
    }
    fusesoc_lints::<Route>(dir.path(), &RouteParams::default());
}

#[test]
fn a_design_using_the_instantiation_template_compiles_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let timing = Timing::new(200.0, None).unwrap();
    write_design::<Gpr>(&GprParams::default(), "gpr_dut", dir, timing).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for file in ["gpr_harness.sv", "gpr_harness_tb.sv"] {
        std::fs::copy(data.join(file), dir.join(file)).unwrap();
    }
    let lint = run(
        dir,
        Command::new("verilator").args([
            "--lint-only",
            "-Wall",
            "-I.",
            "--top-module",
            "gpr_harness",
            "gpr_dut.vlt",
            "gpr_dut.v",
            "gpr_harness.sv",
        ]),
        "verilator --lint-only -Wall",
    );
    assert!(String::from_utf8_lossy(&lint.stderr).trim().is_empty());
    run(
        dir,
        Command::new("iverilog").args([
            "-g2012",
            "-I.",
            "-s",
            "gpr_harness_tb",
            "-o",
            "harness.vvp",
            "gpr_dut.v",
            "gpr_harness.sv",
            "gpr_harness_tb.sv",
        ]),
        "iverilog -g2012",
    );
    let sim = run(dir, Command::new("vvp").args(["-n", "harness.vvp"]), "vvp");
    let printed = String::from_utf8_lossy(&sim.stdout);
    assert!(printed.contains("PASS"), "{printed}");
}
