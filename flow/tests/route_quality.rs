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
    }
}

#[test]
fn router_lint_is_clean_with_all_warnings_on() {
    for p in [
        RouteParams::default(),
        route(4, 4, 8, true),
        route(64, 8, 64, true),
        route(8, 1, 16, false),
        route(16, 16, 16, false),
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
