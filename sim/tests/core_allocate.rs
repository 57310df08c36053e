//! Bank-aware register allocation of core programs: for random valid programs on every bank
//! count and kind, the allocated program computes the same outputs on the golden model, adds no
//! bank conflict and costs no cycle; and the Verilated core runs allocated programs in lock
//! step with no mismatch.

use grfgen_hdl::params::{BankKind, CoreOp, CoreParams, GprParams};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::core::allocate::{allocate, prove};
use grfgen_sim::core::run::allocated;
use grfgen_sim::core::workload::builtin;
use grfgen_sim::core::{run, CoreDevice, CoreRtl, Instruction, Policy, Workload};
use proptest::prelude::*;

/// A core of `banks` banks of `kind`, 64 registers (48 for programs), 2 lanes.
fn core(banks: usize, kind: BankKind) -> CoreParams {
    CoreParams {
        gpr: GprParams {
            banks,
            registers: 64,
            lanes: 2,
            bank_kind: kind,
            ..GprParams::default()
        },
        ..CoreParams::default()
    }
}

/// A random program over the first `registers` registers, as proptest draws it.
fn programs(registers: usize) -> impl Strategy<Value = Vec<Instruction>> {
    let instruction = (
        0..5usize,
        0..registers,
        prop::collection::vec(0..registers, 3),
    )
        .prop_map(|(op, dst, src)| {
            // The ops that compute: a nop names no register.
            let op = CoreOp::ALL[op];
            Instruction::alu(op, dst, &src[..op.sources()])
        });
    prop::collection::vec(instruction, 1..80)
}

fn workload(program: Vec<Instruction>) -> Workload {
    Workload::new("random", program)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn allocation_keeps_every_output_and_adds_no_conflict(
        program in programs(24),
        banks in prop::sample::select(vec![1usize, 2, 4, 8]),
        kind in prop::sample::select(BankKind::ALL.to_vec()),
        seed in 0u64..1000,
    ) {
        let params = core(banks, kind);
        let written = workload(program);
        let allocation = allocate(&params, &written.program);
        prop_assert!(allocation.conflicts_after <= allocation.conflicts_before);
        prop_assert!(allocation.program.iter().flat_map(|i| i.reads().chain(i.written()))
            .all(|r| r < params.program_registers()));
        if let Err(why) = prove(&params, &written, &allocation, seed) {
            prop_assert!(false, "{why}");
        }
        let (renamed, figures) = allocated(&params, Policy::CqPq, &written, seed).unwrap();
        let after = run(&params, Policy::CqPq, &renamed, seed, None, false);
        prop_assert!(after.cycles <= figures.cycles_before,
            "{} cycles after, {} before", after.cycles, figures.cycles_before);
    }
}

#[test]
fn the_kernels_get_no_slower_and_the_documents_example_loses_its_conflicts() {
    let params = CoreParams::default();
    for name in grfgen_sim::core::workload::NAMES {
        let written = builtin(name, &params, 1).unwrap();
        let (renamed, figures) = allocated(&params, Policy::CqPq, &written, 1).unwrap();
        let after = run(&params, Policy::CqPq, &renamed, 1, None, false);
        assert!(after.cycles <= figures.cycles_before, "{name}");
        if name == "rpt-mad" {
            assert_eq!(figures.allocation.conflicts_after, 0);
            assert_eq!(
                after.cycles, figures.ideal_cycles,
                "rpt-mad runs as on the ideal file"
            );
        }
    }
}

#[test]
fn the_verilated_core_runs_allocated_programs_in_lock_step() {
    if !grfgen_sim::verilator::installed() {
        eprintln!("SKIPPED: needs verilator");
        return;
    }
    let mut cycles = 0;
    for (k, (banks, kind)) in [
        (2, BankKind::OneReadOneWrite),
        (4, BankKind::TwoReadsOneWrite),
        (4, BankKind::SinglePort),
    ]
    .into_iter()
    .enumerate()
    {
        let params = core(banks, kind);
        for seed in 0..4u64 {
            let mut device =
                CoreRtl::build(&Policy::CqPq.hardware(&params), &Setup::new(1, Rtl::On))
                    .expect("Verilator builds the core");
            let seed = 10 * k as u64 + seed;
            let program = grfgen_sim::core::workload::random_program(2_000, 40, seed);
            let (renamed, _) = allocated(&params, Policy::CqPq, &workload(program), seed).unwrap();
            let report = run(
                &params,
                Policy::CqPq,
                &renamed,
                seed,
                Some(&mut device as &mut dyn CoreDevice),
                false,
            );
            assert_eq!(
                report.mismatches, 0,
                "{banks} banks {kind}, seed {seed}: {:?}",
                report.first_mismatch
            );
            cycles += report.cycles;
        }
    }
    assert!(cycles > 20_000, "only {cycles} cycles co-simulated");
}
