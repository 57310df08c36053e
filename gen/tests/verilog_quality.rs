//! The emitted Verilog against the tools: Verilator's linter with every warning on, Yosys
//! generic synthesis, and iCE40 synthesis (the GPR's banks mapped to block RAM).
//! Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

use std::path::Path;

use grfgen::design_files::{design_files, write_atomically, Timing};
use grfgen::tools::{lint, synth, SynthTarget};
use grfgen_hdl::core::emit_core;
use grfgen_hdl::emit::Emitted;
use grfgen_hdl::gpr::emit_gpr;
use grfgen_hdl::grf::emit_grf;
use grfgen_hdl::params::{CoreParams, GprParams, GrfParams, Mapping, RouteParams};
use grfgen_hdl::route::{emit_route, RouteVariant};

fn gpr(banks: usize, rows: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> GprParams {
    GprParams {
        banks,
        registers: banks * rows,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
    }
}

fn write(dir: &Path, block: &str, emitted: &Emitted) -> String {
    let files = design_files(
        block,
        emitted,
        serde_json::Value::Null,
        serde_json::Value::Null,
        Timing::new(200.0, None).unwrap(),
    );
    write_atomically(dir, &files).unwrap();
    emitted.top.clone()
}

fn emit_to(dir: &Path, params: &GprParams) -> String {
    write(
        dir,
        "gpr",
        &emit_gpr(params, &params.module_name()).unwrap(),
    )
}

fn route(lanes: usize, crossbar: usize, bits: usize, registered: bool) -> RouteParams {
    RouteParams {
        lanes,
        crossbar,
        element_bits: bits,
        registered,
    }
}

fn emit_route_to(dir: &Path, params: &RouteParams, variant: RouteVariant) -> String {
    let top = format!("{}_{variant:?}", params.module_name()).to_lowercase();
    write(dir, "route", &emit_route(params, variant, &top).unwrap())
}

#[test]
fn router_lint_is_clean_with_all_warnings_on() {
    for (p, variant) in [
        (RouteParams::default(), RouteVariant::TwoStage),
        (route(4, 4, 8, true), RouteVariant::TwoStage),
        (route(64, 8, 64, true), RouteVariant::TwoStage),
        (route(8, 1, 16, false), RouteVariant::TwoStage),
        (route(16, 16, 16, false), RouteVariant::TwoStage),
        (route(16, 4, 32, false), RouteVariant::FullCrossbar),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_route_to(dir.path(), &p, variant);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(
            findings.is_empty(),
            "{p:?} {variant:?}:\n{}",
            findings.join("\n")
        );
    }
}

#[test]
fn the_router_synthesizes_with_only_its_result_register_as_state() {
    let p = route(8, 4, 8, true);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_route_to(dir.path(), &p, RouteVariant::TwoStage);
    assert!(synth(dir.path(), &top, SynthTarget::Generic).unwrap().cells > 0);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    let flops: u64 = stats
        .by_type
        .iter()
        .filter(|(k, _)| k.starts_with("SB_DFF"))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(flops as usize, p.lanes * p.element_bits, "{stats:?}");
    assert_eq!(stats.count("SB_RAM40_4K"), 0);
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    for p in [
        gpr(1, 64, 4, 32, 4, 2),
        gpr(2, 128, 4, 32, 1, 2),
        GprParams::default(),
        gpr(8, 32, 8, 16, 4, 2),
        gpr(16, 1024, 1, 64, 8, 4),
        gpr(2, 4, 3, 8, 3, 1),
        gpr(4, 16, 64, 16, 2, 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn the_waiver_file_is_needed_and_each_waiver_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to(dir.path(), &GprParams::default());
    let waivers = std::fs::read_to_string(dir.path().join(format!("{top}.vlt"))).unwrap();
    let rules: Vec<&str> = waivers
        .lines()
        .filter(|l| l.starts_with("lint_off"))
        .collect();
    assert!(!rules.is_empty());
    for (i, line) in waivers.lines().enumerate() {
        if line.starts_with("lint_off") {
            let before = waivers.lines().nth(i - 1).unwrap();
            assert!(before.starts_with("//"), "waiver without a reason: {line}");
            assert!(
                line.contains(&format!("-file \"*{top}.v\"")),
                "unscoped: {line}"
            );
        }
    }
    // Without the waivers, Verilator does complain: they are not decoration.
    std::fs::write(dir.path().join(format!("{top}.vlt")), "`verilator_config\n").unwrap();
    assert!(!lint(dir.path(), &top).unwrap().is_empty());
}

#[test]
fn generic_yosys_synthesis_passes_its_checks() {
    let p = gpr(2, 16, 2, 16, 2, 2);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Generic).unwrap();
    assert!(stats.cells > 0);
}

#[test]
fn ice40_maps_every_bank_to_block_ram() {
    // (params, SB_RAM40_4K expected): a 64 x 32 bank lane needs two 256 x 16 block RAMs,
    // a 32 x 16 one needs one.
    for (p, rams) in [(GprParams::default(), 32), (gpr(8, 32, 8, 16, 4, 2), 64)] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        assert_eq!(stats.count("SB_RAM40_4K"), rams, "{p:?}: {stats:?}");
        // The only flip-flops are the read-route registers (read ports x banks): no bank was
        // turned into flip-flops and no bypass logic was added around the block RAMs.
        let flops: u64 = stats
            .by_type
            .iter()
            .filter(|(k, _)| k.starts_with("SB_DFF"))
            .map(|(_, n)| n)
            .sum();
        assert_eq!(flops as usize, p.read_ports * p.banks, "{p:?}: {stats:?}");
    }
}

fn core(
    banks: usize,
    lanes: usize,
    read_ports: usize,
    cq: usize,
    pq: usize,
    lookahead: usize,
    latency: usize,
) -> CoreParams {
    CoreParams {
        gpr: GprParams {
            banks,
            registers: 64 * banks.min(4),
            lanes,
            read_ports,
            ..GprParams::default()
        },
        cq_entries: cq,
        pq_entries: pq,
        lookahead,
        alu_latency: latency,
    }
}

#[test]
fn core_lint_is_clean_with_all_warnings_on() {
    for p in [
        CoreParams::default(),
        core(4, 4, 4, 0, 0, 3, 2),
        core(8, 2, 3, 1, 0, 1, 1),
        core(2, 1, 2, 0, 8, 4, 8),
        core(16, 1, 8, 8, 8, 4, 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = write(
            dir.path(),
            "core",
            &emit_core(&p, &p.module_name()).unwrap(),
        );
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn the_core_synthesizes_for_ice40_with_its_gpr_in_block_ram() {
    let p = core(2, 1, 2, 1, 2, 2, 1);
    let dir = tempfile::tempdir().unwrap();
    let top = write(
        dir.path(),
        "core",
        &emit_core(&p, &p.module_name()).unwrap(),
    );
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    // 2 banks x 1 lane of 64 x 32 bits: two 256 x 16 block RAMs each.
    assert_eq!(stats.count("SB_RAM40_4K"), 4, "{stats:?}");
    assert!(stats.count("SB_LUT4") > 0);
}

fn grf(
    eus: usize,
    threads: usize,
    fast: usize,
    slow: usize,
    latency: usize,
    lanes: usize,
) -> GrfParams {
    GrfParams {
        eus,
        threads,
        fast_regs: fast,
        slow_regs: slow,
        slow_latency: latency,
        lanes,
        ..GrfParams::default()
    }
}

#[test]
fn grf_lint_is_clean_with_all_warnings_on() {
    let small = GrfParams {
        virtual_blocks: 1,
        element_bits: 16,
        ..grf(1, 1, 2, 64, 2, 1)
    };
    let two_parts = GrfParams {
        low_energy_blocks: 4,
        mapping: Mapping::Fraction(50),
        ..grf(2, 4, 4, 128, 4, 2)
    };
    let by_thread = GrfParams {
        preallocated: 0,
        low_energy_blocks: 8,
        mapping: Mapping::Threads(3),
        ..grf(3, 3, 16, 512, 5, 1)
    };
    for p in [
        GrfParams::default(),
        small,
        two_parts,
        by_thread,
        grf(8, 4, 32, 1024, 8, 2),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = write(dir.path(), "grf", &emit_grf(&p, &p.module_name()).unwrap());
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn the_grf_synthesizes_for_ice40_with_its_slow_grf_in_block_ram() {
    let p = grf(2, 1, 2, 256, 2, 2);
    let dir = tempfile::tempdir().unwrap();
    let top = write(dir.path(), "grf", &emit_grf(&p, &p.module_name()).unwrap());
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    // 2 lanes of 256 x 32 bits: two 256 x 16 block RAMs each.
    assert_eq!(stats.count("SB_RAM40_4K"), 4, "{stats:?}");
    assert!(stats.count("SB_LUT4") > 0);
}
