//! Every sub-block of every design, emitted on its own as the design instantiates it, against
//! Verilator's linter with every warning on: a sub-block's ports are clean as a module
//! boundary, not only inside its parent. Needs `verilator`.

use grfgen_flow::tools::lint;
use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::cluster::Cluster;
use grfgen_hdl::core::Core;
use grfgen_hdl::design::Design;
use grfgen_hdl::emit::waivers;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::grf::Grf;
use grfgen_hdl::multiport::{Flops, Ilvt, Lvt, Xor};
use grfgen_hdl::params::{
    AllocParams, BankKind, BankMap, ClusterParams, CoreParams, GprParams, GrfParams, IssuePolicy,
    Memory, MultiportParams, RouteFullParams, RouteParams, TableEncoding, Waves,
};
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
        // A part with `DP16KD` instances (`--memory dp16kd`) lints with their model beside it.
        for (file, text) in grfgen_hdl::sram::simulation_models(&part.verilog) {
            std::fs::write(dir.path().join(file), text).unwrap();
        }
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
fn gpr_parts_lint_clean_alone_for_every_bank_kind() {
    for bank_kind in BankKind::ALL {
        lint_parts::<Gpr>(&GprParams {
            bank_kind,
            ..GprParams::default()
        });
    }
}

#[test]
fn multiport_parts_lint_clean_alone() {
    lint_parts::<Flops>(&MultiportParams::default());
    let one_port = MultiportParams {
        registers: 4,
        lanes: 1,
        read_ports: 1,
        write_ports: 1,
        ..MultiportParams::default()
    };
    let staged = MultiportParams {
        pipeline: 2,
        memory: Memory::Dp16kd,
        ..MultiportParams::default()
    };
    for p in [MultiportParams::default(), one_port, staged] {
        lint_parts::<Lvt>(&p);
        lint_parts::<Xor>(&p);
        for encoding in TableEncoding::ALL {
            lint_parts::<Ilvt>(&MultiportParams {
                encoding,
                ..p.clone()
            });
        }
    }
}

#[test]
fn core_parts_lint_clean_alone_with_and_without_queues() {
    lint_parts::<Core>(&CoreParams::default());
    let mut two_reads = CoreParams::default();
    two_reads.gpr.bank_kind = BankKind::TwoReadsOneWrite;
    lint_parts::<Core>(&two_reads);
    // No queues (one served slot), and a pending table of one entry.
    lint_parts::<Core>(&CoreParams {
        cq_entries: 0,
        pq_entries: 0,
        lookahead: 1,
        long_results: 1,
        ..CoreParams::default()
    });
    // No forwarding, the most lookahead and the largest pending table.
    lint_parts::<Core>(&CoreParams {
        forward: false,
        lookahead: 4,
        long_results: CoreParams::MAX_LONG_RESULTS,
        ..CoreParams::default()
    });
    // The bank maps other than mod (the pending table's candidates map their registers).
    for bank_map in [BankMap::Row, BankMap::Xor] {
        let mut mapped = CoreParams::default();
        mapped.gpr.bank_map = bank_map;
        lint_parts::<Core>(&mapped);
    }
    // Several waves (the waves' readiness and fetch selection), under both issue policies.
    for (waves, issue) in [(4, IssuePolicy::RoundRobin), (2, IssuePolicy::OldestReady)] {
        lint_parts::<Core>(&CoreParams {
            waves: Waves(waves),
            issue,
            ..CoreParams::default()
        });
    }
}

#[test]
fn route_parts_lint_clean_alone() {
    lint_parts::<Route>(&RouteParams::default());
    lint_parts::<RouteFull>(&RouteFullParams::default());
}

#[test]
fn grf_parts_lint_clean_alone() {
    lint_parts::<Grf>(&GrfParams::default());
    // With every register stage (the pick stage, the early lookup, the bookkeeping stage).
    lint_parts::<Grf>(&GrfParams {
        pipeline: GrfParams::MAX_PIPELINE,
        ..GrfParams::default()
    });
}

#[test]
fn cluster_parts_lint_clean_alone() {
    lint_parts::<Cluster>(&ClusterParams::default());
    let wide = ClusterParams {
        clusters: 8,
        main_read_ports: 4,
        main_write_ports: 3,
        ..ClusterParams::default()
    };
    lint_parts::<Cluster>(&wide);
}

#[test]
fn alloc_parts_lint_clean_alone() {
    lint_parts::<Alloc>(&AllocParams::default());
    lint_parts::<Alloc>(&AllocParams {
        pool: 8,
        granularity: 1,
        wave_slots: 1,
    });
}
