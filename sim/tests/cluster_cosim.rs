//! The clustered register file run three ways: the reference interpreter, the golden model of
//! the hardware and the Verilated hardware in lock step. Needs `verilator` and `g++` (the
//! Makefile and .ci/run install them).

use grfgen_hdl::params::ClusterParams;
use grfgen_sim::block::{Report, Rtl, Setup};
use grfgen_sim::cluster::schedule::bundles;
use grfgen_sim::cluster::Physical;
use grfgen_sim::cluster::{
    run, ClusterMachine, ClusterOp, ClusterOptions, ClusterReport, Issue, Source,
};

fn params(clusters: usize, local: usize, main: usize, rp: usize, wp: usize) -> ClusterParams {
    ClusterParams {
        clusters,
        local_regs: local,
        main_regs: main,
        main_read_ports: rp,
        main_write_ports: wp,
    }
}

fn run_with(
    params: &ClusterParams,
    options: &ClusterOptions,
    seed: u64,
    rtl: Rtl,
) -> ClusterReport {
    eprintln!("{params:?} {options:?}: seed {seed}");
    run(params, options, &Setup::new(seed, rtl)).expect("the run starts")
}

/// Random programs in lock step until `cycles`: no mismatch, every output as the reference.
fn lock_step(params: &ClusterParams, baseline: bool, cycles: u64, seed: u64) -> ClusterReport {
    let options = ClusterOptions {
        cycles,
        baseline,
        ..ClusterOptions::example("random")
    };
    let report = run_with(params, &options, seed, Rtl::On);
    assert!(report.lock_step.rtl);
    assert_eq!(report.mismatch(), None, "seed {seed}: {report:?}");
    assert!(report.outputs_equal);
    assert!(report.cycles >= cycles, "{report:?}");
    report
}

/// Over 1M cycles across three configurations: the default; eight clusters sharing four
/// read and four write ports; two clusters with tiny local files (many spills) and two write
/// ports. The counters show the traffic the runs were meant to make.
#[test]
fn lock_step_over_a_million_cycles_of_random_programs() {
    let default = lock_step(&ClusterParams::default(), false, 400_000, 11);
    assert!(default.main_conflicts > 0 && default.movs > 0 && default.spills > 0);
    let wide = lock_step(&params(8, 4, 128, 4, 4), false, 350_000, 12);
    assert!(wide.main_conflicts > 0 && wide.local_accesses > 0);
    let tight = lock_step(&params(2, 2, 32, 2, 2), false, 300_000, 13);
    assert!(tight.spills > tight.programs, "{tight:?}");
}

/// The baseline in lock step too: nearly every access goes to the main file.
#[test]
fn the_baseline_runs_in_lock_step() {
    let report = lock_step(&params(4, 8, 64, 3, 1), true, 50_000, 21);
    assert_eq!(report.movs, 0);
    assert!(
        report.main_accesses > 10 * report.local_accesses,
        "{report:?}"
    );
}

/// The figures and kernels give the reference outputs, partitioned and baseline; Fig. 11
/// outputs its 7 five times.
#[test]
fn every_named_program_computes_the_reference() {
    let p = ClusterParams::default();
    for name in ["fig11", "fig13", "broadcast", "reduce", "pipeline"] {
        for baseline in [false, true] {
            let options = ClusterOptions {
                baseline,
                ..ClusterOptions::example(name)
            };
            let report = run_with(&p, &options, 3, Rtl::On);
            assert_eq!(report.mismatch(), None, "{name}: {report:?}");
            assert!(report.outputs_equal && !report.outputs.is_empty());
            assert_eq!(report.outputs, report.reference_outputs);
        }
    }
    let fig11 = run_with(&p, &ClusterOptions::example("fig11"), 1, Rtl::Off);
    assert_eq!(fig11.outputs, vec![7; 5]);
}

/// Partitioning moves accesses from the main file to the local files on every kernel; the
/// per-access energies make that an energy saving.
#[test]
fn partitioning_serves_more_accesses_locally_than_the_baseline() {
    let p = ClusterParams::default();
    for name in ["fig11", "fig13", "broadcast", "reduce", "pipeline"] {
        let partitioned = run_with(&p, &ClusterOptions::example(name), 1, Rtl::Off);
        let baseline = ClusterOptions {
            baseline: true,
            ..ClusterOptions::example(name)
        };
        let baseline = run_with(&p, &baseline, 1, Rtl::Off);
        assert!(
            partitioned.local_fraction > baseline.local_fraction,
            "{name}"
        );
        assert!(partitioned.main_accesses < baseline.main_accesses, "{name}");
        assert!(partitioned.energy_pj < baseline.energy_pj, "{name}");
    }
}

fn issue(op: ClusterOp, dst: Option<Physical>, a: Source, b: Source) -> Issue {
    Issue {
        op,
        dst,
        src: [a, b],
    }
}

/// The arbiter's rule, on the model: with two main read ports, clusters issue in order
/// until the running count of main reads passes two; a cluster after a denied one waits even
/// when it needs no port. Reads see the files as they were before the cycle.
#[test]
fn main_ports_go_to_the_lowest_clusters_first() {
    let mut m = ClusterMachine::new(&params(4, 4, 8, 2, 1));
    let load = issue(
        ClusterOp::Mov,
        Some(Physical::Main(1)),
        Source::Immediate(5),
        Source::Immediate(0),
    );
    let first = m.step(&[Some(load), None, None, None]);
    assert_eq!(first.issued, vec![true, false, false, false]);
    let add = issue(
        ClusterOp::Add,
        Some(Physical::Local(0)),
        Source::Main(1),
        Source::Main(1),
    );
    let out = issue(ClusterOp::Out, None, Source::Main(1), Source::Immediate(0));
    let local = issue(
        ClusterOp::Mov,
        Some(Physical::Local(1)),
        Source::Immediate(9),
        Source::Immediate(0),
    );
    let cycle = m.step(&[Some(add), Some(out), Some(local), None]);
    assert_eq!(cycle.issued, vec![true, false, false, false]);
    assert_eq!((cycle.main_conflicts, cycle.stall_cycles), (2, 1));
    assert_eq!((cycle.local_accesses, cycle.main_accesses), (1, 3));
    let cycle = m.step(&[None, Some(out), Some(local), None]);
    assert_eq!(cycle.issued, vec![false, true, true, false]);
    assert_eq!(cycle.outputs, vec![None, Some(5), None, None]);
    // Two writes to the main file with one write port: the second waits.
    let w0 = issue(
        ClusterOp::Mov,
        Some(Physical::Main(2)),
        Source::Immediate(1),
        Source::Immediate(0),
    );
    let cycle = m.step(&[Some(w0), Some(w0), None, None]);
    assert_eq!(cycle.issued, vec![true, false, false, false]);
}

/// Bundles: one instruction per cluster, no main register written by one member and read or
/// written by another, `out`s in cluster order.
#[test]
fn bundles_keep_members_independent() {
    let write = issue(
        ClusterOp::Mov,
        Some(Physical::Main(3)),
        Source::Immediate(1),
        Source::Immediate(0),
    );
    let read = issue(ClusterOp::Out, None, Source::Main(3), Source::Immediate(0));
    let other = issue(ClusterOp::Out, None, Source::Main(4), Source::Immediate(0));
    let local = issue(
        ClusterOp::Mov,
        Some(Physical::Local(0)),
        Source::Immediate(1),
        Source::Immediate(0),
    );
    let sizes = |stream: &[(usize, Issue)]| -> Vec<usize> {
        bundles(stream).iter().map(|b| b.len()).collect()
    };
    assert_eq!(sizes(&[(0, write), (1, read)]), vec![1, 1]);
    assert_eq!(sizes(&[(0, read), (1, write)]), vec![1, 1]);
    assert_eq!(sizes(&[(0, write), (1, write)]), vec![1, 1]);
    assert_eq!(sizes(&[(0, local), (0, local)]), vec![1, 1]);
    assert_eq!(sizes(&[(0, local), (1, local), (2, write)]), vec![3]);
    assert_eq!(sizes(&[(0, other), (1, read)]), vec![2]);
    assert_eq!(sizes(&[(1, other), (0, read)]), vec![1, 1]);
}
