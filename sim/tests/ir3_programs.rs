//! The project's own ir3 programs (`sim/programs/ir3`) on the core slice: their figures follow
//! the counting rules (`docs/core.md`, "ir3 programs"), every policy keeps the order ideal <=
//! cq-pq <= cq <= naive on each, and each runs in lock step with the emitted RTL under every
//! policy the RTL has and every GPR bank kind.

use grfgen_hdl::params::{BankKind, CoreParams, GprParams};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::core::figures::Isa;
use grfgen_sim::core::{run, CoreDevice, CoreOptions, CoreRtl, Policy, Workload};

/// Every program, with its instructions and GPR reads counted by hand from its text: after
/// `(rptN)` expansion; nops, labels, declarations and flow excluded; one read per operand
/// naming an `r` or `hr` register; a memory operand's register is a read; a store of count N
/// reads N components of its data; a texture sample's coordinate reads its dimensions'
/// components (`sam` in 2D: two).
const PROGRAMS: [(&str, u64, u64); 5] = [
    // 19 lines, the (rpt3) mad four: 22. Reads: 7 address computations and loads of one
    // each, the mad's 4 x 2, `stg g[r1.z], r4.x, 4` 1 + 4, then 2, 2, 2, 2 (stg of 1), 1
    // (ldg), 2, 2 (stl of 1), 1 (ldl), 2, 2 (stg of 1): 38.
    ("compute-axpy", 22, 38),
    // bary 3 + 3 + 2, sam 1, cov 3 + 3, 17 single lines, mul 3, mad 3, mov 1: 39. Reads:
    // bary 8, sam's coordinate 2, cov 6; the 17 lines 34; mul 3, mad 6, mov 1: 60.
    ("fragment-half", 39, 60),
    // 14 ALU lines (5 flow: br, br, jump, jump, end). Reads: cmps 1, mul 2, cmps 1, mov 0,
    // mad 2, add 2, add 1, add 1, cov 1, rcp 1, mul 2: 14.
    ("loop-branches", 14, 14),
    // (rpt3) mad of three registers: 4 instructions, 12 reads.
    ("rpt-mad", 4, 12),
    // 4 x 4 (rpt3), 3 x 3 (rpt2), 4 single, (rpt2) mul 3, mov 1: 33. Reads: mul 4, three
    // mads 3 x 8, mul 3, two mads 2 x 6, 2 + 3 + 3 + 1, mul 3 x 2, mov 0: 58.
    ("vertex-transform", 33, 58),
];

/// The seed of every run's initial values.
const SEED: u64 = 7;

/// Program `name` read for `params` (by its file name, as `--program` reads it).
fn program(name: &str, params: &CoreParams) -> Workload {
    let path = format!("{}/programs/ir3/{name}.asm", env!("CARGO_MANIFEST_DIR"));
    let options = CoreOptions {
        program: Some(path),
        ..CoreOptions::default()
    };
    options.program(params, SEED).expect("the program reads")
}

/// The default core with `kind` banks.
fn with_kind(kind: BankKind) -> CoreParams {
    let defaults = CoreParams::default();
    CoreParams {
        gpr: GprParams {
            bank_kind: kind,
            ..defaults.gpr.clone()
        },
        ..defaults
    }
}

#[test]
fn every_program_is_in_the_list() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/ir3");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".asm").map(str::to_string))
        .collect();
    names.sort();
    let listed: Vec<&str> = PROGRAMS.iter().map(|p| p.0).collect();
    assert_eq!(names, listed);
}

#[test]
fn instructions_and_gpr_reads_follow_the_counting_rules() {
    let params = CoreParams::default();
    for (name, instructions, gpr_reads) in PROGRAMS {
        let f = program(name, &params).figures;
        assert_eq!(f.isa, Isa::Ir3, "{name}");
        assert_eq!(
            (f.instructions, f.gpr_reads),
            (instructions, gpr_reads),
            "{name}: (instructions, gpr_reads)"
        );
        assert_eq!(
            f.alu + f.sfu + f.tex + f.mem + f.varying,
            instructions,
            "{name}"
        );
    }
}

#[test]
fn cycles_are_ordered_ideal_cq_pq_cq_naive_under_every_bank_kind() {
    for kind in BankKind::ALL {
        let params = with_kind(kind);
        for (name, ..) in PROGRAMS {
            let workload = program(name, &params);
            let cycles: Vec<u64> = [Policy::Ideal, Policy::CqPq, Policy::Cq, Policy::Naive]
                .into_iter()
                .map(|p| run(&params, p, &workload, SEED, None, false).cycles)
                .collect();
            assert!(
                cycles.windows(2).all(|w| w[0] <= w[1]),
                "{name} on {kind:?} banks: ideal, cq-pq, cq, naive = {cycles:?}"
            );
        }
    }
}

/// Every program in lock step with the RTL under `pairs` of policy and bank kind: no
/// mismatch. One model per pair, built once (and cached across runs, `GRFGEN_CACHE`); the
/// lock-step cycles of every run.
fn cosimulate_every_program(pairs: &[(Policy, BankKind)]) -> u64 {
    let mut cycles = 0;
    for &(policy, kind) in pairs {
        let params = with_kind(kind);
        let setup = Setup::new(1, Rtl::On);
        for (name, ..) in PROGRAMS {
            let mut device = CoreRtl::build(&policy.hardware(&params), &setup)
                .expect("Verilator builds the emitted core");
            let workload = program(name, &params);
            let device = Some(&mut device as &mut dyn CoreDevice);
            let report = run(&params, policy, &workload, SEED, device, false);
            assert_eq!(
                report.lock_step.mismatches,
                0,
                "{name} under {policy:?} on {kind:?} banks: {}",
                report.lock_step.first_mismatch.unwrap()
            );
            cycles += report.cycles;
        }
    }
    cycles
}

/// Every program in lock step under each policy the RTL has (the ideal file is the golden
/// model's alone), on the default core, whose three models the core's workload tests build
/// too: the quick cut `make test` runs (every bank kind in the slow test below).
#[test]
fn every_program_cosimulates_under_each_policy() {
    let pairs = [
        (Policy::Naive, BankKind::OneReadOneWrite),
        (Policy::Cq, BankKind::OneReadOneWrite),
        (Policy::CqPq, BankKind::OneReadOneWrite),
    ];
    let cycles = cosimulate_every_program(&pairs);
    assert!(cycles > 3 * 400, "{cycles} lock-step cycles");
}

/// Every program in lock step under every policy and every bank kind (9 models).
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_program_cosimulates_under_every_policy_and_bank_kind() {
    let pairs: Vec<(Policy, BankKind)> = BankKind::ALL
        .into_iter()
        .flat_map(|kind| [Policy::Naive, Policy::Cq, Policy::CqPq].map(|p| (p, kind)))
        .collect();
    let cycles = cosimulate_every_program(&pairs);
    assert!(cycles > 9 * 400, "{cycles} lock-step cycles");
}
