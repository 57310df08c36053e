//! The emitted shift-and-fill router and its comparison network against the tools: Verilator's linter with every warning on, Yosys generic synthesis,
//! and iCE40 synthesis. Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::params::{RouteFullParams, RouteParams};
use grfgen_hdl::route::{Route, RouteFull};

fn route(lanes: usize, crossbar: usize, bits: usize, registered: bool) -> RouteParams {
    RouteParams {
        lanes,
        crossbar,
        element_bits: bits,
        registered,
        pipeline: 0,
    }
}

fn pipelined(p: RouteParams, pipeline: usize) -> RouteParams {
    RouteParams { pipeline, ..p }
}

#[test]
fn router_lint_is_clean_with_all_warnings_on() {
    for p in [
        RouteParams::default(),
        route(4, 4, 8, true),
        route(64, 8, 64, true),
        route(8, 1, 16, false),
        route(16, 16, 16, false),
        pipelined(route(4, 4, 8, true), 1),
        pipelined(route(16, 2, 16, true), 2),
        pipelined(RouteParams::default(), 3),
        pipelined(route(64, 8, 64, true), 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Route>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
    let full = RouteFullParams {
        lanes: 16,
        element_bits: 32,
    };
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<RouteFull>(dir.path(), &full);
    let findings = lint(dir.path(), &top).unwrap();
    assert!(findings.is_empty(), "{full:?}:\n{}", findings.join("\n"));
}

/// Each pipeline stage is registers after synthesis (none is optimised away), and the stages
/// that are off leave nothing behind.
#[test]
fn each_pipeline_stage_adds_flip_flops() {
    let mut counts = Vec::new();
    for stages in 0..=RouteParams::MAX_PIPELINE {
        let p = pipelined(route(8, 4, 8, true), stages);
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Route>(dir.path(), &p);
        counts.push(
            synth(dir.path(), &top, SynthTarget::Ice40)
                .unwrap()
                .flip_flops(),
        );
    }
    assert_eq!(counts[0] as usize, 8 * 8, "{counts:?}");
    assert!(counts.windows(2).all(|w| w[1] > w[0]), "{counts:?}");
}

#[test]
fn the_router_synthesizes_with_only_its_result_register_as_state() {
    let p = route(8, 4, 8, true);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Route>(dir.path(), &p);
    assert!(synth(dir.path(), &top, SynthTarget::Generic).unwrap().cells > 0);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    assert_eq!(
        stats.flip_flops() as usize,
        p.lanes * p.element_bits,
        "{stats:?}"
    );
    assert_eq!(stats.count("SB_RAM40_4K"), 0);
}
