//! Every sub-block of every design, emitted on its own as the design instantiates it, against
//! Verilator's linter with every warning on: a sub-block's ports are clean as a module
//! boundary, not only inside its parent. Needs `verilator`.

use grfgen_flow::tools::lint;
use grfgen_hdl::core::Core;
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::waivers;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::grf::Grf;
use grfgen_hdl::params::{CoreParams, GprParams, GrfParams, RouteFullParams, RouteParams};
use grfgen_hdl::route::{Route, RouteFull};

/// Lints every part of `D` at `params`; panics listing each part with findings.
fn lint_parts<D: Design>(params: &D::Params) {
    let parts = D::parts(params).unwrap();
    assert!(!parts.is_empty(), "{} lists no parts", D::NAME);
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut names: Vec<&str> = parts.iter().map(|p| p.top.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), parts.len(), "{} names a part twice", D::NAME);
    for part in &parts {
        std::fs::write(dir.path().join(format!("{}.v", part.top)), &part.verilog).unwrap();
        std::fs::write(
            dir.path().join(format!("{}.vlt", part.top)),
            waivers(&part.top),
        )
        .unwrap();
        let findings = lint(dir.path(), &part.top).unwrap();
        if !findings.is_empty() {
            failures.push(format!("{}:\n  {}", part.top, findings.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gpr_parts_lint_clean_alone() {
    lint_parts::<Gpr>(&GprParams::default());
}

#[test]
fn core_parts_lint_clean_alone_with_and_without_queues() {
    lint_parts::<Core>(&CoreParams::default());
    lint_parts::<Core>(&CoreParams {
        cq_entries: 0,
        pq_entries: 0,
        lookahead: 1,
        ..CoreParams::default()
    });
}

#[test]
fn route_parts_lint_clean_alone() {
    lint_parts::<Route>(&RouteParams::default());
    lint_parts::<RouteFull>(&RouteFullParams::default());
}

#[test]
fn grf_parts_lint_clean_alone() {
    lint_parts::<Grf>(&GrfParams::default());
}
