//! Bank-aware register allocation of core programs: for random valid programs on every bank
//! count and kind, the allocated program computes the same outputs on the golden model, adds no
//! bank conflict and costs no cycle; so do the project's ir3 programs, whose written text reads
//! back to the renamed micro-ops; and the Verilated core runs allocated programs in lock step
//! with no mismatch.

use grfgen_hdl::params::{BankKind, CoreOp, CoreParams, GprParams};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::compilers::core_allocate::{allocate, allocate_with, text, Allocation, Slot};
use grfgen_sim::core::allocated::prove;
use grfgen_sim::core::allocated::{allocated, renamed};
use grfgen_sim::core::ir3::{self, Ir3Options};
use grfgen_sim::core::workload::builtin;
use grfgen_sim::core::CoreOptions;
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
        taken_is_own_or_identity(&params, &written, seed)?;
    }
}

/// `allocated` on `written` takes the allocator's own allocation (no groups: the workload has
/// no ir3 program) when it is no slower than the program as written, else the identity, after
/// running the own one and finding it slower.
fn taken_is_own_or_identity(
    params: &CoreParams,
    written: &Workload,
    seed: u64,
) -> Result<(), TestCaseError> {
    let own = allocate(params, &written.program);
    let (taken, figures) = allocated(params, Policy::CqPq, written, seed).unwrap();
    let before = run(params, Policy::CqPq, written, seed, None, false);
    prop_assert_eq!(figures.cycles_before, before.cycles);
    if figures.allocation.program == own.program {
        let after = run(params, Policy::CqPq, &taken, seed, None, false);
        prop_assert!(
            after.cycles <= before.cycles,
            "{} cycles after, {} before",
            after.cycles,
            before.cycles
        );
    } else {
        let identity = Allocation::identity(params, &written.program);
        prop_assert_eq!(&figures.allocation.program, &identity.program);
        let renamed = renamed(written, &own, &before);
        let slower = run(params, Policy::CqPq, &renamed, seed, None, false);
        prop_assert!(
            slower.cycles > before.cycles,
            "the own allocation was not slower"
        );
    }
    Ok(())
}

/// The register a slot names in `program`.
fn register(program: &[Instruction], slot: Slot) -> usize {
    match slot {
        Slot::Source(i, s) => program[i].src[s].reg().expect("a register source"),
        Slot::Written(i, k) | Slot::Kept(i, k) => program[i].dst + k,
    }
}

/// `count` groups of 2 to 4 register slots of `program`, drawn from `seed` (any slots: the
/// program as written keeps the distances between their registers by definition).
fn groups(program: &[Instruction], count: usize, seed: u64) -> Vec<Vec<Slot>> {
    let slots: Vec<Slot> = (program.iter().enumerate())
        .flat_map(|(i, ins)| {
            let sources = (0..ins.src.len()).filter(|&s| ins.src[s].reg().is_some());
            let sources = sources.map(move |s| Slot::Source(i, s));
            sources.chain((0..ins.writes).map(move |k| Slot::Written(i, k)))
        })
        .collect();
    let mut rng = grfgen_sim::rng::Rng::new(seed);
    match slots.is_empty() {
        true => Vec::new(),
        false => (0..count)
            .map(|_| {
                (0..2 + rng.below(3))
                    .map(|_| slots[rng.below(slots.len())])
                    .collect()
            })
            .collect(),
    }
}

/// `program` with the destination of each instruction writing nothing set to 0.
fn normal(program: &[Instruction]) -> Vec<Instruction> {
    let dst = |i: &Instruction| if i.writes == 0 { 0 } else { i.dst };
    (program.iter())
        .map(|i| Instruction {
            dst: dst(i),
            ..i.clone()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn allocation_of_every_instruction_kind_keeps_outputs_and_groups(
        length in 1usize..120,
        banks in prop::sample::select(vec![1usize, 2, 4, 8]),
        kind in prop::sample::select(BankKind::ALL.to_vec()),
        count in 0usize..6,
        seed in 0u64..100_000,
    ) {
        let params = core(banks, kind);
        let program = grfgen_sim::core::workload::random_long_program(length, 24, 4, seed);
        let groups = groups(&program, count, seed);
        let written = workload(program);
        let allocation = allocate_with(&params, &written.program, &groups);
        prop_assert!(allocation.conflicts_after <= allocation.conflicts_before);
        prop_assert!(allocation.program.iter().flat_map(|i| i.reads().chain(i.written()))
            .all(|r| r < params.program_registers()));
        for group in &groups {
            let distance = |p: &[Instruction]| -> Vec<isize> {
                let first = register(p, group[0]) as isize;
                group.iter().map(|&s| register(p, s) as isize - first).collect()
            };
            prop_assert_eq!(distance(&allocation.program), distance(&written.program));
        }
        if let Err(why) = prove(&params, &written, &allocation, seed) {
            prop_assert!(false, "{why}");
        }
        let back = grfgen_sim::core::parse(&text(&allocation.program), params.program_registers());
        prop_assert_eq!(normal(&back.unwrap()), normal(&allocation.program));
        taken_is_own_or_identity(&params, &written, seed)?;
    }
}

#[test]
fn the_kernels_get_no_slower_and_the_documents_example_loses_its_conflicts() {
    let params = CoreParams::default();
    for name in grfgen_sim::core::workload::NAMES {
        let written = builtin(name, &params, 1).unwrap();
        let (renamed, figures) = allocated(&params, Policy::CqPq, &written, 1).unwrap();
        let after = run(&params, Policy::CqPq, &renamed, 1, None, false);
        // `allocated` keeps the registers as written when its allocation is slower, so
        // "no slower" holds by construction; on the kernels the allocator's own allocation
        // is the one taken.
        let own = allocate(&params, &written.program);
        assert_eq!(
            figures.allocation.program, own.program,
            "{name}: allocation was slower"
        );
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
    let (mut cycles, mut runs, mut own_taken) = (0, 0, 0);
    for (k, (banks, kind)) in [
        (2, BankKind::OneReadOneWrite),
        (4, BankKind::TwoReadsOneWrite),
        (4, BankKind::SinglePort),
    ]
    .into_iter()
    .enumerate()
    {
        let params = core(banks, kind);
        for seed in 0..2u64 {
            let mut device =
                CoreRtl::build(&Policy::CqPq.hardware(&params), &Setup::new(1, Rtl::On))
                    .expect("Verilator builds the core");
            let seed = 10 * k as u64 + seed;
            let program = grfgen_sim::core::workload::random_program(2_000, 40, seed);
            let written = workload(program);
            let (renamed, figures) = allocated(&params, Policy::CqPq, &written, seed).unwrap();
            // The code co-simulated is the allocator's own, not the program as written.
            let own = allocate(&params, &written.program);
            own_taken += usize::from(figures.allocation.program == own.program);
            runs += 1;
            let report = run(
                &params,
                Policy::CqPq,
                &renamed,
                seed,
                Some(&mut device as &mut dyn CoreDevice),
                false,
            );
            assert_eq!(
                report.lock_step.mismatches, 0,
                "{banks} banks {kind}, seed {seed}: {:?}",
                report.lock_step.first_mismatch
            );
            cycles += report.cycles;
        }
    }
    assert!(cycles > 10_000, "only {cycles} cycles co-simulated");
    assert!(
        own_taken * 2 >= runs,
        "the own allocation taken on {own_taken} of {runs} runs"
    );
}

/// The project's ir3 programs (`sim/programs/ir3`), by file name.
fn ir3_programs() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/ir3");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the ir3 programs")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    paths.sort();
    assert!(paths.len() >= 5, "{paths:?}");
    paths
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

/// The ir3 program at `path` as a workload for `params`.
fn ir3_workload(params: &CoreParams, path: &str) -> Workload {
    let options = CoreOptions {
        program: Some(path.to_string()),
        ..CoreOptions::default()
    };
    options.program(params, 1).unwrap()
}

/// `allocation` of `written` (read from ir3) written back as ir3, read again: it must give the
/// renamed micro-ops.
fn reads_back(params: &CoreParams, written: &Workload, allocation: &Allocation) -> String {
    let program = written.ir3.as_ref().expect("read from ir3");
    let text = ir3::write(program, allocation);
    let again = ir3::read(&text, params.program_registers(), &Ir3Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", written.name));
    assert_eq!(
        again.instructions, allocation.program,
        "{}:\n{text}",
        written.name
    );
    text
}

#[test]
fn ir3_programs_keep_their_outputs_cost_no_cycle_and_read_back() {
    let geometries = [
        CoreParams::default(),
        core(2, BankKind::OneReadOneWrite),
        core(4, BankKind::TwoReadsOneWrite),
        core(8, BankKind::SinglePort),
    ];
    for params in &geometries {
        for (path, _) in ir3_programs() {
            let written = ir3_workload(params, &path);
            let groups = written.ir3.as_ref().unwrap().groups();
            let allocation = allocate_with(params, &written.program, &groups);
            assert!(
                allocation.conflicts_after <= allocation.conflicts_before,
                "{path}"
            );
            prove(params, &written, &allocation, 3).unwrap_or_else(|e| panic!("{path}: {e}"));
            reads_back(params, &written, &allocation);
            let (renamed, figures) = allocated(params, Policy::CqPq, &written, 1).unwrap();
            let after = run(params, Policy::CqPq, &renamed, 1, None, false);
            assert!(after.cycles <= figures.cycles_before, "{path}");
            reads_back(params, &written, &figures.allocation);
        }
    }
}

#[test]
fn the_documents_example_in_ir3_is_spread_over_the_banks() {
    let params = CoreParams::default();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/ir3/rpt-mad.asm");
    let written = ir3_workload(&params, path);
    let (_, figures) = allocated(&params, Policy::CqPq, &written, 1).unwrap();
    assert_eq!(figures.allocation.conflicts_before, 8);
    assert_eq!(figures.allocation.conflicts_after, 0);
    let text = reads_back(&params, &written, &figures.allocation);
    assert!(text.contains("; input r0.x -> "), "{text}");
}

/// `text`, ir3, as a workload for `params`.
fn ir3_text(params: &CoreParams, text: &str) -> Workload {
    let program = ir3::read(text, params.program_registers(), &Ir3Options::default()).unwrap();
    Workload {
        ir3: Some(std::sync::Arc::new(program.clone())),
        ..Workload::new("constructed", program.instructions)
    }
}

#[test]
fn half_registers_keep_their_half() {
    let params = CoreParams::default();
    // Every mad reads full registers 4, 12 and 20: one bank of four. hr1.x and hr1.y are the
    // two halves of full register 2, written one after the other.
    let original = "mad.f16 hr1.y, hr2.x, hr6.y, hr10.x\n\
                    mad.f16 hr1.x, hr2.y, hr6.x, hr10.y\n\
                    add.f hr3.x, hr1.x, hr1.y\n\
                    end\n";
    let written = ir3_text(&params, original);
    let groups = written.ir3.as_ref().unwrap().groups();
    let allocation = allocate_with(&params, &written.program, &groups);
    assert_eq!(allocation.conflicts_before, 4);
    assert_eq!(allocation.conflicts_after, 0);
    prove(&params, &written, &allocation, 1).unwrap();
    let text = reads_back(&params, &written, &allocation);
    let halves = |text: &str| -> Vec<(bool, usize)> {
        let code = text.lines().filter(|l| !l.starts_with(';'));
        let tokens = code.flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.')));
        tokens
            .filter_map(|t| t.strip_prefix("hr"))
            .filter_map(|t| {
                let (n, c) = t.split_once('.')?;
                let index = 4 * n.parse::<usize>().ok()? + "xyzw".find(c)?;
                Some((index % 2 == 1, index / 2))
            })
            .collect()
    };
    let (before, after) = (halves(original), halves(&text));
    assert_eq!(before.len(), after.len(), "{text}");
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.0, a.0, "a half keeps its half:\n{text}");
    }
    // Both halves of full register 2 stay in one register.
    let full: Vec<usize> = [0, 4, 9, 10].iter().map(|&t| after[t].1).collect();
    assert!(full.iter().all(|&f| f == full[0]), "{text}");
}

#[test]
fn an_rpt_group_whose_strides_break_is_written_as_its_copies() {
    let params = CoreParams::default();
    let original = "(sy)(rpt1)(nop2)mad.f32 r0.x, (r)r1.x, (r)c2.w, (r)(1.0)\nend\n";
    let written = ir3_text(&params, original);
    // Copy 0 moves r0.x -> r2.x and r1.x -> r5.x; copy 1 r0.y -> r2.y but r1.y -> r7.z.
    let mut program = written.program.clone();
    let moves = [(0, 8, 20), (1, 9, 30)];
    for (i, dst, src) in moves {
        program[i].dst = dst;
        program[i].src[0] = grfgen_sim::core::program::Source::Reg(src);
    }
    let allocation = Allocation {
        program,
        inputs: [(4, 20), (5, 30)].into(),
        outputs: [(0, 8), (1, 9)].into(),
        ..Allocation::identity(&params, &written.program)
    };
    let text = reads_back(&params, &written, &allocation);
    let code: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
    assert_eq!(
        code,
        [
            "(sy)mad.f32 r2.x, r5.x, c2.w, (1.0)",
            "(nop2)mad.f32 r2.y, r7.z, c3.x, (0x3f800001)",
            "end"
        ],
        "{text}"
    );
    prove(&params, &written, &allocation, 1).unwrap();
}
