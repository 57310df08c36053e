//! Emission of the shift-and-fill router: the document's structure, sizes and ports.

use grfgen_hdl::design::emit_design;
use grfgen_hdl::emit::PortDirection;
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

#[test]
fn the_registered_router_has_the_documented_ports() {
    let p = RouteParams::default();
    let e = emit_design::<Route>(&p, "router").unwrap();
    let find = |name: &str| e.ports.iter().find(|q| q.name == name).unwrap();
    assert_eq!(find("clock").direction, PortDirection::Input);
    assert_eq!(find("rs").width, 32 * 32);
    assert_eq!(find("result").direction, PortDirection::Output);
    assert_eq!(find("xbar_pos").element_width(), 7);
    assert_eq!(find("xbar_pos").elements, Some(32));
    assert_eq!(find("amount").width, 7);
    assert_eq!(find("op").width, 3);
    // clock, valid, op, amount, mod_log2, fill, then capture, xbar_pos, lane_xbar, rs, rf, result
    assert_eq!(e.ports.len(), 6 + 6);
}

#[test]
fn the_structure_follows_the_document_for_every_size() {
    for (n, q) in [(4, 4), (8, 2), (16, 4), (32, 4), (64, 4), (64, 8), (8, 1)] {
        let p = route(n, q, 16, false);
        let e = emit_design::<Route>(&p, "net").unwrap();
        assert!(!e.ports.iter().any(|port| port.name == "clock"));
        // Stage 0: N/q groups of q x q crossbars; stage 1: q groups of (N/q) x (N/q) (each
        // output an (N/q):1 mux): both are one crossbar module with N one-hot selects per
        // input count.
        let stage0 = e.verilog.matches("crossbars__select__").count();
        let stage1 = e.verilog.matches("muxes__select__").count();
        assert!(stage0 >= n * q, "{n} {q}: {stage0}");
        assert!(stage1 >= n * (n / q), "{n} {q}: {stage1}");
        assert!(e.verilog.contains("module net_quads("), "{n} {q}");
        assert!(e.verilog.contains("module net_lane_muxes("), "{n} {q}");
        assert!(
            e.verilog.contains("module net_crossbars(") || n / q == q,
            "{n} {q}"
        );
    }
}

#[test]
fn the_full_crossbar_comparison_has_one_crossbar() {
    let p = RouteFullParams {
        lanes: 16,
        element_bits: 32,
    };
    let e = emit_design::<RouteFull>(&p, "full").unwrap();
    assert!(e.verilog.contains("module full_crossbar("));
    assert!(!e.verilog.contains("stage1"));
    assert!(e.ports.iter().any(|port| port.name == "lane_src"));
}
