//! Waves on the emitted core slice: the fetch selection, the waves' readiness, the slots' and
//! the pending table's wave tags in Verilator, in lock step with the golden model on built-in
//! workloads, the project's ir3 programs and random programs with long-latency results.

use grfgen_hdl::params::{BankKind, BankMap, CoreParams, GprParams, IssuePolicy, Waves};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::core::waves::settle;
use grfgen_sim::core::workload::{random_long_program, NAMES};
use grfgen_sim::core::{builtin, run, CoreDevice, CoreOptions, CoreRtl, Policy, Workload};

/// The project's ir3 programs.
const PROGRAMS: [&str; 5] = [
    "compute-axpy",
    "fragment-half",
    "loop-branches",
    "rpt-mad",
    "vertex-transform",
];

/// One configuration of a slice with several waves.
struct Shape {
    waves: usize,
    issue: IssuePolicy,
    kind: BankKind,
    pipeline: usize,
    map: BankMap,
    policy: Policy,
}

impl Shape {
    /// The core's parameters: the defaults with 512 registers, so that eight waves of the
    /// built-in kernels fit.
    fn params(&self) -> CoreParams {
        let defaults = CoreParams::default();
        CoreParams {
            gpr: GprParams {
                registers: 512,
                bank_kind: self.kind,
                pipeline: self.pipeline,
                bank_map: self.map,
                ..defaults.gpr.clone()
            },
            waves: Waves(self.waves),
            issue: self.issue,
            ..defaults
        }
    }
}

/// What the runs of a shape covered.
#[derive(Default)]
struct Covered {
    runs: usize,
    /// Workloads whose waves do not fit the file.
    skipped: Vec<String>,
    cycles: u64,
    long_instructions: u64,
    waited: u64,
}

/// The workloads every shape runs: the built-in ones whose waves fit, the ir3 programs, and
/// two random programs over 24 registers with long-latency results, sync waits and external
/// traffic.
fn workloads(params: &CoreParams) -> Vec<Workload> {
    let mut all: Vec<Workload> = NAMES
        .iter()
        .map(|name| builtin(name, params, 11).unwrap())
        .collect();
    for name in PROGRAMS {
        let options = CoreOptions {
            program: Some(format!(
                "{}/programs/ir3/{name}.asm",
                env!("CARGO_MANIFEST_DIR")
            )),
            ..CoreOptions::default()
        };
        all.push(options.program(params, 11).expect("the program reads"));
    }
    for seed in [3, 4] {
        let program = random_long_program(400, 24, params.long_results, seed);
        all.push(Workload {
            external_rate: 30,
            ..Workload::new(&format!("random-long-{seed}"), program)
        });
    }
    all
}

/// Runs every workload whose waves fit on `shape`'s RTL in lock step with the golden model;
/// panics on a mismatch, naming the shape, workload, cycle and port.
fn lock_step(shape: &Shape) -> Covered {
    let params = shape.params();
    let setup = Setup::new(1, Rtl::On);
    let mut covered = Covered::default();
    for workload in workloads(&params) {
        let settled = match settle(&params, &workload.program, 0) {
            Ok(settled) => settled,
            // Only the built-in programs drawn over every register leave no room for a wave.
            Err(e) => {
                let full = ["random", "random-long", "texture-return"];
                assert!(
                    e.to_string().contains("waves need") && full.contains(&workload.name.as_str()),
                    "{}: {e}",
                    workload.name
                );
                covered.skipped.push(workload.name.clone());
                continue;
            }
        };
        let mut device = CoreRtl::build(&shape.policy.hardware(&settled), &setup)
            .expect("Verilator builds the emitted core");
        let device = Some(&mut device as &mut dyn CoreDevice);
        let report = run(&settled, shape.policy, &workload, 11, device, false);
        assert_eq!(
            report.lock_step.mismatches,
            0,
            "{} waves, {:?}, {:?} banks, pipeline {}, {:?} map, {:?}, {}: {}",
            shape.waves,
            shape.issue,
            shape.kind,
            shape.pipeline,
            shape.map,
            shape.policy,
            workload.name,
            report.lock_step.first_mismatch.unwrap()
        );
        assert_eq!(report.waves, shape.waves);
        covered.runs += 1;
        covered.cycles += report.cycles;
        covered.long_instructions += report.stats.long_instructions;
        covered.waited += report.stats.stall_cycles;
    }
    covered
}

#[test]
fn waves_run_in_lock_step_with_the_rtl() {
    let shapes = [
        Shape {
            waves: 2,
            issue: IssuePolicy::RoundRobin,
            kind: BankKind::OneReadOneWrite,
            pipeline: 2,
            map: BankMap::Mod,
            policy: Policy::CqPq,
        },
        Shape {
            waves: 4,
            issue: IssuePolicy::OldestReady,
            kind: BankKind::TwoReadsOneWrite,
            pipeline: 4,
            map: BankMap::Mod,
            policy: Policy::Cq,
        },
        Shape {
            waves: 8,
            issue: IssuePolicy::RoundRobin,
            kind: BankKind::SinglePort,
            pipeline: 0,
            map: BankMap::Xor,
            policy: Policy::Naive,
        },
    ];
    for shape in &shapes {
        let covered = lock_step(shape);
        // Four built-in kernels, five ir3 programs and two random programs fit every shape.
        assert!(covered.runs >= 11, "{} runs", covered.runs);
        assert_eq!(covered.skipped.len(), 3, "{:?}", covered.skipped);
        assert!(covered.cycles > 5_000, "{} cycles", covered.cycles);
        assert!(
            covered.long_instructions > 200,
            "{}",
            covered.long_instructions
        );
        assert!(covered.waited > 0);
    }
}

/// Every bank kind and GPR pipeline option at 2, 4 and 8 waves, the issue policies, the
/// queue policies and the bank maps in turn: 45 models.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn waves_run_in_lock_step_on_every_bank_kind_and_pipeline_option() {
    let mut cycles = 0;
    for (k, kind) in BankKind::ALL.into_iter().enumerate() {
        for pipeline in 0..=4 {
            for (i, waves) in [2, 4, 8].into_iter().enumerate() {
                let turn = k + pipeline + i;
                let shape = Shape {
                    waves,
                    issue: IssuePolicy::ALL[turn % 2],
                    kind,
                    pipeline,
                    map: BankMap::ALL[turn % 3],
                    policy: [Policy::Naive, Policy::Cq, Policy::CqPq][turn % 3],
                };
                let covered = lock_step(&shape);
                assert!(covered.runs >= 11, "{} runs", covered.runs);
                cycles += covered.cycles;
            }
        }
    }
    assert!(cycles > 45 * 5_000, "{cycles} lock-step cycles");
}
