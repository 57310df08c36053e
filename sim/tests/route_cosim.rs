//! The emitted shift-and-fill router in Verilator against the golden model.
//! Needs `verilator` and `g++` (the Makefile and .ci/run install them).

use grfgen_hdl::params::RouteParams;
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::rng::Rng;
use grfgen_sim::route::window::{convolve, convolve_direct, run_window, COLUMNS, ROWS};
use grfgen_sim::route::{apply, plan, run, Direction, Fill, LaneOp, Pass, RouterRtl};

fn router(
    lanes: usize,
    crossbar: usize,
    bits: usize,
    registered: bool,
) -> (RouteParams, RouterRtl) {
    pipelined(lanes, crossbar, bits, registered, 0)
}

fn pipelined(
    lanes: usize,
    crossbar: usize,
    bits: usize,
    registered: bool,
    pipeline: usize,
) -> (RouteParams, RouterRtl) {
    let params = RouteParams {
        lanes,
        crossbar,
        element_bits: bits,
        registered,
        pipeline,
    };
    let rtl = RouterRtl::build(&params, &Setup::new(1, Rtl::On))
        .expect("Verilator builds the emitted router");
    (params, rtl)
}

fn letters(text: &str) -> Vec<u64> {
    text.bytes().map(u64::from).collect()
}

fn shff(direction: Direction, m: usize, amount: usize) -> LaneOp {
    LaneOp::Shff {
        direction,
        m,
        amount,
        fill: Fill::Register,
    }
}

#[test]
fn the_documents_five_examples_through_the_rtl() {
    let (_, mut rtl) = router(8, 4, 32, true);
    let (r0, r1) = (letters("abcdefgh"), letters("ijklmnop"));
    for (op, expected) in [
        (shff(Direction::Left, 8, 1), "bcdefghi"),
        (shff(Direction::Left, 8, 3), "defghijk"),
        (shff(Direction::Right, 8, 2), "opabcdef"),
        (shff(Direction::Left, 2, 1), "bidkfmho"),
        (shff(Direction::Left, 4, 2), "cdijghmn"),
    ] {
        rtl.step(true, &Pass::Lane(op.clone()), &r0, &r1);
        let got: String = rtl.lanes().iter().map(|&v| v as u8 as char).collect();
        assert_eq!(got, expected, "{op:?}");
        assert_eq!(apply(&op, &r0, &r1, 8), letters(expected));
    }
}

/// Every one-pass operation, at every subset size, with every amount up to past the clamp,
/// matches the formula, at every group size.
#[test]
fn every_one_pass_op_at_every_size_matches_the_formula() {
    for (lanes, crossbar) in [(4, 4), (8, 4), (16, 4), (32, 4), (64, 4), (16, 2), (32, 8)] {
        // 32-bit elements, as the random and planned runs below, so that they share models.
        let (params, mut rtl) = router(lanes, crossbar, 32, true);
        let mut rng = Rng::new(lanes as u64);
        let mut checked = 0;
        let mut m = 2;
        while m <= lanes {
            for amount in 0..=m + 1 {
                let ops = [
                    shff(Direction::Left, m, amount),
                    shff(Direction::Right, m, amount),
                    LaneOp::Shff {
                        direction: Direction::Left,
                        m,
                        amount,
                        fill: [Fill::Zero, Fill::One, Fill::Ones][amount % 3],
                    },
                    LaneOp::Rotate {
                        direction: Direction::Left,
                        m,
                        amount,
                    },
                    LaneOp::Rotate {
                        direction: Direction::Right,
                        m,
                        amount,
                    },
                    LaneOp::Broadcast {
                        m,
                        lane: amount % m,
                    },
                    LaneOp::Butterfly {
                        m,
                        mask: amount % m,
                    },
                ];
                for op in ops {
                    let rs: Vec<u64> = (0..lanes).map(|_| rng.below(65536) as u64).collect();
                    let rf: Vec<u64> = (0..lanes).map(|_| rng.below(65536) as u64).collect();
                    rtl.step(true, &Pass::Lane(op.clone()), &rs, &rf);
                    assert_eq!(
                        rtl.lanes(),
                        apply(&op, &rs, &rf, params.element_bits),
                        "{op:?}"
                    );
                    checked += 1;
                }
            }
            m *= 2;
        }
        assert!(checked > 50);
    }
}

#[test]
#[ignore = "slow (a million co-simulated passes): scripts/slow-tests.sh runs it"]
fn a_million_random_passes_across_8_32_and_64_lanes() {
    random_passes(&[(8, 300_000), (32, 400_000), (64, 300_000)]);
}

/// The quick cut of the test above, for `make test`: 30,000
/// random passes on 8, 32 and 64 lanes.
#[test]
fn random_passes_across_8_32_and_64_lanes() {
    random_passes(&[(8, 30_000), (32, 30_000), (64, 30_000)]);
}

/// Random passes in lock step on a registered router of each `(lanes, passes)`.
fn random_passes(runs: &[(usize, u64)]) {
    for &(lanes, passes) in runs {
        let (params, mut rtl) = router(lanes, 4, 32, true);
        let seed = 900 + lanes as u64;
        let report = run(&params, passes, seed, Some(&mut rtl), &|_| {});
        assert_eq!(
            report.lock_step.mismatches,
            0,
            "{lanes} lanes, seed {seed}: {}",
            report.lock_step.first_mismatch.unwrap()
        );
        assert!(report.lane_passes > passes / 2 && report.shuffle_passes > passes / 8);
    }
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_pipeline_option_100k_random_passes() {
    for pipeline in 1..=RouteParams::MAX_PIPELINE {
        for (lanes, crossbar) in [(16, 4), (32, 8)] {
            let (params, mut rtl) = pipelined(lanes, crossbar, 32, true, pipeline);
            let seed = 700 + (10 * pipeline + lanes) as u64;
            let report = run(&params, 100_000, seed, Some(&mut rtl), &|_| {});
            let name = grfgen_hdl::params::module_name("route", &params);
            assert_eq!(
                report.lock_step.mismatches, 0,
                "{name}, seed {seed}: {:?}",
                report.lock_step.first_mismatch
            );
            assert!(report.lane_passes > 40_000 && report.shuffle_passes > 10_000);
        }
    }
}

/// A pass reaches the result `pipeline` cycles after the unpipelined router's result, and passes
/// still issue one per cycle.
#[test]
fn a_pipelined_pass_lands_pipeline_cycles_later() {
    let (r0, r1) = (letters("abcdefgh"), letters("ijklmnop"));
    let ops = [shff(Direction::Left, 8, 1), shff(Direction::Right, 8, 2)];
    for pipeline in 1..=RouteParams::MAX_PIPELINE {
        let (_, mut rtl) = pipelined(8, 4, 32, true, pipeline);
        let mut seen = Vec::new();
        for cycle in 0..ops.len() + pipeline {
            let op = &ops[cycle.min(ops.len() - 1)];
            rtl.step(cycle < ops.len(), &Pass::Lane(op.clone()), &r0, &r1);
            seen.push(
                rtl.lanes()
                    .iter()
                    .map(|&v| v as u8 as char)
                    .collect::<String>(),
            );
        }
        let zero = "\0".repeat(8);
        let mut expected = vec![zero; pipeline];
        expected.extend(["bcdefghi".to_string(), "opabcdef".to_string()]);
        assert_eq!(seen, expected, "pipeline {pipeline}");
    }
}

#[test]
fn the_combinational_network_matches_too() {
    let (params, mut rtl) = router(16, 4, 8, false);
    let report = run(&params, 50_000, 4, Some(&mut rtl), &|_| {});
    assert_eq!(
        report.lock_step.mismatches, 0,
        "{:?}",
        report.lock_step.first_mismatch
    );
}

/// Planned shuffles on the unpipelined router and on the default, deepest one; the test below
/// runs them on every pipeline option.
#[test]
fn planned_shuffles_run_exactly_on_the_rtl() {
    planned_shuffles(0);
    planned_shuffles(RouteParams::MAX_PIPELINE);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn planned_shuffles_run_exactly_on_every_pipeline_option() {
    for pipeline in 0..=RouteParams::MAX_PIPELINE {
        planned_shuffles(pipeline);
    }
}

fn planned_shuffles(pipeline: usize) {
    let (params, mut rtl) = pipelined(32, 4, 32, true, pipeline);
    let mut rng = Rng::new(31);
    let rs: Vec<u64> = (0..32).map(|v| 1000 + v).collect();
    let mut most = 0;
    for _ in 0..100 {
        let map: Vec<usize> = (0..32).map(|_| rng.below(32)).collect();
        let plan = plan(&params, &map).unwrap();
        let expected: Vec<u64> = map.iter().map(|&s| rs[s]).collect();
        assert_eq!(rtl.run_plan(&plan, &rs), expected, "{map:?}");
        assert!(plan.passes.len() <= 4);
        most = most.max(plan.passes.len());
    }
    assert!(most > 1, "random mappings need more than one pass");
}

#[test]
fn the_window_filter_through_the_rtl_equals_the_direct_computation() {
    let (params, mut rtl) = router(32, 4, 32, true);
    let mut rng = Rng::new(8);
    let tile: Vec<Vec<u64>> = (0..ROWS)
        .map(|_| (0..COLUMNS).map(|_| rng.below(1 << 12) as u64).collect())
        .collect();
    // No symmetry: a neighbour taken from the wrong side, or a weight from the wrong place,
    // changes the result.
    let weights = [-3, 1, 4, 2, -7, 5, 11, 6, -13];
    let run = convolve(&tile, &weights, &mut rtl, params.element_bits);
    assert_eq!(
        run.output,
        convolve_direct(&tile, &weights, params.element_bits)
    );
    assert_eq!(run.passes, 32);
    // Every interior pixel computed (6 x 14), none on the border.
    let computed = run.output.iter().flatten().filter(|p| p.is_some()).count();
    assert_eq!(computed, (ROWS - 2) * (COLUMNS - 2));
    assert!(run.output[0].iter().all(Option::is_none));
    // Per register: two horizontal shifts, two vertical ones per column offset, nine sums.
    assert_eq!(run.steps.len(), 4 * (2 + 3 * 2 + 9));
    assert_eq!(
        run.steps[..4],
        [
            "shff.right.mod4 h, r1, #0, #1",
            "shff.right v, h, #0, #4",
            "mad acc, v, #-3, acc   (dy -1, dx -1)",
            "mad acc, h, #2, acc   (dy +0, dx -1)",
        ]
    );
}

/// `grfgen route window` with the RTL: the Verilated router's result is checked too.
#[test]
fn the_window_command_checks_the_rtl_router() {
    let weights = [-3, 1, 4, 2, -7, 5, 11, 6, -13];
    let report = run_window(8, 32, &weights, &Setup::new(2, Rtl::On)).unwrap();
    assert!(report.rtl_checked);
    assert_eq!(report.rtl_matches_direct, Some(true));
    assert!(report.failed().is_empty(), "{:?}", report.failed());
}
