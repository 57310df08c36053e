//! The emitted core slice against the tools: Verilator's linter with every warning on, Yosys generic synthesis,
//! and iCE40 synthesis. Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::core::Core;
use grfgen_hdl::params::{BankKind, BankMap, CoreParams, GprParams};

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
        forward: true,
        request_stage: false,
        long_results: CoreParams::DEFAULT_LONG_RESULTS,
        ..CoreParams::default()
    }
}

/// `params` on the GPR's `pipeline` stages with banks of `kind`.
fn staged(mut params: CoreParams, pipeline: usize, kind: BankKind) -> CoreParams {
    params.gpr.pipeline = pipeline;
    params.gpr.bank_kind = kind;
    params
}

#[test]
fn core_lint_is_clean_with_all_warnings_on() {
    for p in [
        CoreParams::default(),
        core(4, 4, 4, 0, 0, 3, 2),
        CoreParams {
            long_results: 1,
            ..core(8, 2, 3, 1, 0, 1, 1)
        },
        CoreParams {
            long_results: CoreParams::MAX_LONG_RESULTS,
            ..core(2, 1, 2, 0, 8, 4, 8)
        },
        CoreParams {
            forward: false,
            ..core(16, 1, 8, 8, 8, 4, 3)
        },
        staged(core(4, 2, 4, 2, 4, 3, 2), 3, BankKind::TwoReadsOneWrite),
        staged(core(4, 2, 4, 2, 4, 3, 2), 4, BankKind::SinglePort),
        // The request stage, with forwarded distances up to 8 on the deepest GPR.
        CoreParams {
            request_stage: true,
            ..CoreParams::default()
        },
        CoreParams {
            request_stage: true,
            ..staged(core(4, 2, 4, 2, 4, 1, 1), 4, BankKind::SinglePort)
        },
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Core>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

/// Every other bank map than the default `mod` (linted above) - the register indices mapped
/// at the slice's boundary and inside the pending table - on the defaults and on 8 banks of
/// 2R1W with the GPR's registered arbitration: the emitted core lints clean, its top named for
/// its map.
#[test]
fn core_lint_is_clean_under_every_bank_map() {
    for bank_map in BankMap::ALL.into_iter().filter(|&m| m != BankMap::Mod) {
        for mut p in [
            CoreParams::default(),
            staged(core(8, 2, 3, 2, 4, 2, 2), 3, BankKind::TwoReadsOneWrite),
        ] {
            p.gpr.bank_map = bank_map;
            let dir = tempfile::tempdir().unwrap();
            let top = emit_to::<Core>(dir.path(), &p);
            assert!(top.contains(&format!("_bm{bank_map}_")), "{top}");
            let findings = lint(dir.path(), &top).unwrap();
            assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
        }
    }
}

/// A synthesis of minutes: the GPR's own banks are checked on the iCE40 in `gpr_quality.rs`.
#[test]
#[ignore = "slow (minutes of synthesis): scripts/slow-tests.sh runs it"]
fn the_core_synthesizes_for_ice40_with_its_gpr_in_block_ram() {
    let p = core(2, 1, 2, 1, 2, 2, 1);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Core>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    // 2 banks x 1 lane of 64 x 32 bits: two 256 x 16 block RAMs each.
    assert_eq!(stats.count("SB_RAM40_4K"), 4, "{stats:?}");
    assert!(stats.count("SB_LUT4") > 0);
}
