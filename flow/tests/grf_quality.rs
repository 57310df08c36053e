//! The emitted hierarchical GRF against the tools: Verilator's linter with every warning on, Yosys generic synthesis,
//! and iCE40 synthesis. Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::grf::Grf;
use grfgen_hdl::params::{GrfParams, Mapping};

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
    let staged = |pipeline| GrfParams {
        pipeline,
        ..GrfParams::default()
    };
    let wide_staged = GrfParams {
        pipeline: 3,
        ..grf(8, 4, 32, 1024, 8, 2)
    };
    for p in [
        GrfParams::default(),
        small,
        two_parts,
        by_thread,
        grf(8, 4, 32, 1024, 8, 2),
        staged(1),
        staged(2),
        staged(3),
        staged(4),
        staged(5),
        wide_staged,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Grf>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn the_grf_synthesizes_for_ice40_with_its_slow_grf_in_block_ram() {
    let p = grf(2, 1, 2, 256, 2, 2);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Grf>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    // 2 lanes of 256 x 32 bits: two 256 x 16 block RAMs each.
    assert_eq!(stats.count("SB_RAM40_4K"), 4, "{stats:?}");
    assert!(stats.count("SB_LUT4") > 0);
}
