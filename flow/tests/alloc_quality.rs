//! The emitted GPR pool allocator against the tools: Verilator's linter with every warning
//! on, and iCE40 synthesis (no memories: the allocator is flip-flops and logic). Needs
//! `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::params::AllocParams;

fn params(pool: usize, granularity: usize, wave_slots: usize) -> AllocParams {
    AllocParams {
        pool,
        granularity,
        wave_slots,
    }
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    for p in [
        AllocParams::default(),
        params(8, 1, 1),
        params(256, 1, 32),
        params(16, 16, 2),
        params(12, 4, 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Alloc>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

/// The state is one flip-flop per granule, a valid bit and two 10-bit fields per slot, and
/// three 32-bit registers; synthesis keeps them all and maps no RAM.
#[test]
fn ice40_keeps_exactly_the_allocators_state() {
    let p = AllocParams::default();
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Alloc>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    assert_eq!(stats.count("SB_RAM40_4K"), 0, "{stats:?}");
    let state = p.granules() + p.wave_slots * (1 + 2 * 10) + 3 * 32;
    assert!(stats.flip_flops() as usize <= state, "{stats:?}");
    assert!(stats.flip_flops() as usize >= p.granules() + p.wave_slots, "{stats:?}");
}
