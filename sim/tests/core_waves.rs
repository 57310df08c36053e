//! Waves on the core's golden model: every wave computes what the program computes from its
//! own inputs, whatever the policy and the stagger; more waves hide latency; the issue policy
//! decides the interleaving.

use grfgen_hdl::params::{CoreParams, IssuePolicy, Waves};
use grfgen_sim::block::{Block, Rtl, Setup};
use grfgen_sim::core::waves::settle;
use grfgen_sim::core::workload::{random_long_program, NAMES};
use grfgen_sim::core::{builtin, run, Core, CoreOptions, CoreRun, Policy, Workload};

/// The defaults with `waves` waves under `issue`.
fn waves(waves: usize, issue: IssuePolicy) -> CoreParams {
    CoreParams {
        waves: Waves(waves),
        issue,
        ..CoreParams::default()
    }
}

/// `workload` run alone from wave `wave`'s inputs of `multi`: what that wave must compute.
fn alone(workload: &Workload, multi: &CoreRun, wave: usize) -> CoreRun {
    let inputs = (multi.inputs.wave(wave).iter())
        .map(|(name, values)| (name[1..].parse().unwrap(), values.clone()))
        .collect();
    let single = Workload {
        input_values: inputs,
        wave_base: 0,
        ..workload.clone()
    };
    run(
        &CoreParams::default(),
        Policy::CqPq,
        &single,
        3,
        None,
        false,
    )
}

#[test]
fn every_wave_computes_the_program_on_its_own_inputs() {
    for name in NAMES {
        for issue in IssuePolicy::ALL {
            for (count, wave_base) in [(2, 0), (4, 1), (8, 3)] {
                let mut workload = builtin(name, &CoreParams::default(), 3).unwrap();
                workload.wave_base = wave_base;
                // 1,024 registers, so that eight waves of every built-in kernel fit.
                let mut wanted = waves(count, issue);
                wanted.gpr.registers = 1024;
                let params = match settle(&wanted, &workload.program, wave_base) {
                    Ok(params) => params,
                    // Only eight waves of a 240-register kernel exceed the largest file.
                    Err(e) => {
                        assert!(count == 8 && e.to_string().contains("waves need"), "{e}");
                        continue;
                    }
                };
                for policy in Policy::ALL {
                    let multi = run(&params, policy, &workload, 3, None, false);
                    assert_eq!(multi.waves, count);
                    assert!(multi.cycles >= multi.lower_bound, "{name} {policy:?}");
                    let n = workload.program.len() as u64;
                    assert_eq!(multi.stats.issued_per_wave, vec![n; count]);
                    for w in 0..count {
                        let expected = alone(&workload, &multi, w);
                        assert_eq!(
                            multi.outputs.wave(w),
                            expected.outputs.wave(0),
                            "{name} {policy:?} {issue:?} wave {w} of {count}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn wave_zero_has_the_one_wave_runs_inputs_and_one_wave_keeps_its_cycles() {
    let workload = builtin("conv3x3", &CoreParams::default(), 9).unwrap();
    let one = run(
        &CoreParams::default(),
        Policy::CqPq,
        &workload,
        9,
        None,
        false,
    );
    let four = run(
        &waves(4, IssuePolicy::RoundRobin),
        Policy::CqPq,
        &workload,
        9,
        None,
        false,
    );
    assert_eq!(one.inputs.wave(0), four.inputs.wave(0));
    assert_ne!(four.inputs.wave(0), four.inputs.wave(1));
    assert_eq!(one.outputs.wave(0), four.outputs.wave(0));
    let gto = waves(1, IssuePolicy::OldestReady);
    assert_eq!(
        run(&gto, Policy::CqPq, &workload, 9, None, false).cycles,
        one.cycles
    );
}

#[test]
fn more_waves_hide_latency_on_the_ideal_file() {
    let workload = builtin("conv3x3", &CoreParams::default(), 1).unwrap();
    let ipc = |w: usize| {
        run(
            &waves(w, IssuePolicy::RoundRobin),
            Policy::Ideal,
            &workload,
            1,
            None,
            false,
        )
        .ipc
    };
    let (one, two, four) = (ipc(1), ipc(2), ipc(4));
    assert!(one < two && two < four, "{one} {two} {four}");
    assert!(four > 0.9, "{four}");
}

#[test]
fn the_issue_policy_decides_the_interleaving() {
    // Long-latency results keep a wave busy: greedy-then-oldest runs one wave as far as it
    // goes, round-robin alternates, and the two finish at different cycles.
    let program = random_long_program(64, 20, 16, 7);
    let workload = Workload::new("long", program);
    let cycles = |issue| {
        let params = settle(&waves(4, issue), &workload.program, 0).unwrap();
        run(&params, Policy::CqPq, &workload, 7, None, false)
    };
    let (rr, gto) = (
        cycles(IssuePolicy::RoundRobin),
        cycles(IssuePolicy::OldestReady),
    );
    assert_ne!(rr.cycles, gto.cycles);
    assert_eq!(rr.outputs, gto.outputs);
}

#[test]
fn auto_waves_take_the_allocated_footprint() {
    // compute-axpy names R0..R31 (footprint 32: 7 waves in 240 registers); bank-aware
    // allocation packs it into 28, where 8 waves fit.
    let options = CoreOptions {
        program: Some(format!(
            "{}/programs/ir3/compute-axpy.asm",
            env!("CARGO_MANIFEST_DIR")
        )),
        ..CoreOptions::default()
    };
    let params = CoreParams {
        waves: Waves::AUTO,
        ..CoreParams::default()
    };
    let setup = Setup::new(1, Rtl::Off);
    let waves = |allocate: bool| {
        let options = CoreOptions {
            allocate,
            ..options.clone()
        };
        let report = <Core as Block>::run(&params, &options, &setup).unwrap();
        (report.run.waves, report.run.footprint)
    };
    assert_eq!(waves(false), (7, 32));
    assert_eq!(waves(true), (8, 28));
}
