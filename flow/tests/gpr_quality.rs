//! The emitted banked GPR against the tools: Verilator's linter with every warning on, Yosys generic synthesis,
//! and iCE40 synthesis. Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{BankKind, GprParams};

fn gpr(banks: usize, rows: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> GprParams {
    GprParams {
        banks,
        registers: banks * rows,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
        pipeline: 0,
        bank_kind: BankKind::OneReadOneWrite,
        ..GprParams::default()
    }
}

fn emit(dir: &std::path::Path, params: &GprParams) -> String {
    emit_to::<Gpr>(dir, params)
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
        GprParams {
            pipeline: 1,
            ..gpr(1, 64, 4, 32, 4, 2)
        },
        GprParams {
            pipeline: 2,
            ..GprParams::default()
        },
        GprParams {
            bank_kind: BankKind::TwoReadsOneWrite,
            ..gpr(1, 64, 4, 32, 1, 1)
        },
        GprParams {
            bank_kind: BankKind::TwoReadsOneWrite,
            pipeline: 2,
            ..gpr(8, 32, 8, 16, 4, 2)
        },
        GprParams {
            bank_kind: BankKind::SinglePort,
            ..gpr(1, 64, 4, 32, 1, 1)
        },
        GprParams {
            bank_kind: BankKind::SinglePort,
            pipeline: 1,
            ..GprParams::default()
        },
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn the_waiver_file_is_needed_and_each_waiver_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let top = emit(dir.path(), &GprParams::default());
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
    let top = emit(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Generic).unwrap();
    assert!(stats.cells > 0);
}

/// The pipeline stages keep every bank in block RAM and add their registers.
#[test]
fn pipelined_banks_stay_in_block_ram() {
    let mut flops = Vec::new();
    for pipeline in 0..=GprParams::MAX_PIPELINE {
        let p = GprParams {
            pipeline,
            ..GprParams::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let top = emit(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        assert_eq!(stats.count("SB_RAM40_4K"), 32, "{p:?}: {stats:?}");
        flops.push(stats.flip_flops());
    }
    assert!(flops.windows(2).all(|w| w[1] > w[0]), "{flops:?}");
}

#[test]
fn ice40_maps_every_bank_to_block_ram() {
    // (params, SB_RAM40_4K expected): a 64 x 32 bank lane needs two 256 x 16 block RAMs,
    // a 32 x 16 one needs one.
    for (p, rams) in [(GprParams::default(), 32), (gpr(8, 32, 8, 16, 4, 2), 64)] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        assert_eq!(stats.count("SB_RAM40_4K"), rams, "{p:?}: {stats:?}");
        // The only flip-flops are the read-route registers (read ports x banks): no bank was
        // turned into flip-flops and no bypass logic was added around the block RAMs.
        assert_eq!(
            stats.flip_flops() as usize,
            p.read_ports * p.banks,
            "{p:?}: {stats:?}"
        );
    }
}

/// 2R1W banks take two block RAMs per bank and lane where 1R1W banks take one; 1RW banks are
/// single-port block RAMs, as many as 1R1W ones, with the same flip-flops.
#[test]
fn every_bank_kind_maps_to_block_ram() {
    for (kind, rams) in [
        (BankKind::OneReadOneWrite, 32),
        (BankKind::TwoReadsOneWrite, 64),
        (BankKind::SinglePort, 32),
    ] {
        let p = GprParams {
            bank_kind: kind,
            ..GprParams::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let top = emit(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        assert_eq!(stats.count("SB_RAM40_4K"), rams, "{kind}: {stats:?}");
        // One read-route flip-flop per read port, bank and slot that the port can win: port
        // `r` takes slot `s` only behind `s` lower ports, so port 0 never takes slot 1.
        let slots = kind.reads_per_bank();
        let routes = p.banks * (0..slots).map(|s| p.read_ports - s).sum::<usize>();
        assert_eq!(stats.flip_flops() as usize, routes, "{kind}: {stats:?}");
    }
}
