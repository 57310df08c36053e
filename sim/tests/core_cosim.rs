//! The emitted core slice in Verilator against the golden model.

use grfgen_hdl::params::{BankMap, CoreParams, GprParams, IssuePolicy, Waves};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::core::waves::{settle, PerWave, Registers};

use grfgen_hdl::params::{CoreOp, CoreUnit};
use grfgen_sim::core::program::{Instruction, Source, Wait};
use grfgen_sim::core::workload::{random_long_program, random_program};
use grfgen_sim::core::{builtin, run, CoreDevice, CoreRtl, Policy, UnitLatencies, Workload};

fn rtl(params: &CoreParams, policy: Policy) -> CoreRtl {
    CoreRtl::build(&policy.hardware(params), &Setup::new(1, Rtl::On))
        .expect("Verilator builds the emitted core")
}

#[test]
fn workloads_match_on_every_policy() {
    let params = CoreParams::default();
    for policy in [Policy::CqPq, Policy::Cq, Policy::Naive] {
        for name in grfgen_sim::core::workload::NAMES {
            builtin_in_lock_step(&params, policy, name, 5, "");
        }
    }
}

/// Built-in workload `name` from `seed` on the golden model and the RTL in lock step: no
/// mismatch (`what` names the configuration in the failure).
fn builtin_in_lock_step(params: &CoreParams, policy: Policy, name: &str, seed: u64, what: &str) {
    let mut device = rtl(params, policy);
    let workload = builtin(name, params, seed).unwrap();
    let device = Some(&mut device as &mut dyn CoreDevice);
    let report = run(params, policy, &workload, seed, device, false);
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{name} {what}{policy:?}: {}",
        report.lock_step.first_mismatch.unwrap()
    );
}

/// Every built-in workload (`random-long` too: long-latency results in consecutive registers,
/// which under `row` and `xor` are not consecutive indices inside the slice) on the default
/// core with the bank map `map`, under cq-pq and naive in turn, with zero mismatches.
fn workloads_match_under(map: BankMap) {
    let params = CoreParams {
        gpr: GprParams {
            bank_map: map,
            ..CoreParams::default().gpr
        },
        ..CoreParams::default()
    };
    for (n, name) in grfgen_sim::core::workload::NAMES.into_iter().enumerate() {
        let policy = [Policy::CqPq, Policy::Naive][n % 2];
        builtin_in_lock_step(&params, policy, name, 7, &format!("{map} "));
    }
}

#[test]
fn workloads_match_under_the_mod_map() {
    workloads_match_under(BankMap::Mod);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn workloads_match_under_the_row_map() {
    workloads_match_under(BankMap::Row);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn workloads_match_under_the_xor_map() {
    workloads_match_under(BankMap::Xor);
}

/// The bank map decides which reads of an instruction conflict (4 banks): R0, R4, R8 share
/// bank 0 under `mod` only, R0, R1, R2 (one vec4) under `row` only, R0, R5, R10 under `xor`
/// only. On the naive policy a conflicting instruction's three reads take a cycle each, the
/// others one cycle; the RTL in lock step reads the same registers in the same cycles and
/// shows the same banks read (the harness compares `read_reg` and `banks_read`).
#[test]
fn the_bank_map_decides_which_reads_of_an_instruction_conflict() {
    let programs = [
        ("mad R12, R0, R4, R8\n", BankMap::Mod),
        ("mad R12, R0, R1, R2\n", BankMap::Row),
        ("mad R12, R0, R5, R10\n", BankMap::Xor),
    ];
    for (source, conflicting) in programs {
        for map in BankMap::ALL {
            let params = CoreParams {
                gpr: GprParams {
                    bank_map: map,
                    ..CoreParams::default().gpr
                },
                ..CoreParams::default()
            };
            let report = lockstep(&params, Policy::Naive, source, 0);
            let schedule = report.schedule.as_ref().unwrap();
            let read_cycles = schedule.iter().filter(|reads| !reads.is_empty()).count();
            let mut banks: Vec<usize> = schedule.iter().flatten().map(|r| r.bank).collect();
            banks.sort_unstable();
            banks.dedup();
            let conflict = map == conflicting;
            assert_eq!(
                report.stats.sc_instructions,
                u64::from(conflict),
                "{source} {map}"
            );
            assert_eq!(read_cycles, [1, 3][usize::from(conflict)], "{source} {map}");
            assert_eq!(banks.len(), [3, 1][usize::from(conflict)], "{source} {map}");
        }
    }
}

/// What random co-simulations covered: cycles, those of programs with long-latency
/// instructions, and the cycles the pending table held a head with its operands (too few
/// entries, a register it writes outstanding, a sync wait).
#[derive(Default)]
struct Totals {
    cycles: u64,
    long_cycles: u64,
    full: u64,
    waw: u64,
    sync: u64,
}

/// A random workload over 24 registers from `seed`: `instructions` ALU instructions
/// (`random`), or with `long` as many of `random-long` (long-latency instructions of every
/// unit writing up to `long_results` registers, immediates, nops, sync waits); unit latencies
/// drawn from the seed; external traffic in 0, 30 or 60% of the cycles.
fn random_workload(seed: u64, instructions: usize, long_results: usize, long: bool) -> Workload {
    let (name, program) = match long {
        false => ("random", random_program(instructions, 24, seed)),
        true => (
            "random-long",
            random_long_program(instructions, 24, long_results, seed),
        ),
    };
    Workload {
        external_rate: (seed % 3 * 30) as u32,
        latencies: UnitLatencies {
            sfu_latency: 1 + (seed / 2 % 12) as usize,
            varying_latency: 1 + (seed / 2 % 5) as usize,
            tex_latency: 8 + (seed / 2 % 40) as usize,
            mem_latency: 12 + (seed / 2 % 60) as usize,
        },
        ..Workload::new(&format!("{name}-{seed}"), program)
    }
}

/// Naive and cq-pq in turn, by seed.
fn alternate(seed: u64) -> Policy {
    [Policy::Naive, Policy::CqPq][seed as usize % 2]
}

/// Runs `workload` from `seed` on the golden model and the RTL of `params` under `policy`;
/// panics on the first mismatch, else adds the run to `totals`.
fn cosimulate(
    params: &CoreParams,
    policy: Policy,
    workload: &Workload,
    seed: u64,
    totals: &mut Totals,
) {
    let params = &settle(params, &workload.program, 0).expect("the waves fit");
    let mut device = rtl(params, policy);
    let device = Some(&mut device as &mut dyn CoreDevice);
    let report = run(params, policy, workload, seed, device, false);
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{params:?} {policy:?} {}: {}",
        workload.name,
        report.lock_step.first_mismatch.unwrap()
    );
    let s = &report.stats;
    let issued = vec![workload.program.len() as u64; report.waves];
    assert_eq!(
        s.issued_per_wave, issued,
        "every wave issues its whole program"
    );
    totals.cycles += report.cycles;
    if s.long_instructions > 0 {
        totals.long_cycles += report.cycles;
    }
    totals.full += s.full_stalls;
    totals.waw += s.waw_stalls;
    totals.sync += s.sync_stalls;
}

/// Co-simulates random workloads of `instructions` on `params`, seeds from `seed` on under
/// `policy(seed)`, until both the ALU programs and the `random-long` ones have run `cycles`
/// (each next run of the kind that has run fewer).
fn cosimulate_until(
    params: &CoreParams,
    policy: impl Fn(u64) -> Policy,
    mut seed: u64,
    instructions: usize,
    cycles: u64,
    totals: &mut Totals,
) {
    let (mut alu, mut long) = (0, 0);
    while alu < cycles || long < cycles {
        seed += 1;
        let with_long = long < alu;
        let workload = random_workload(seed, instructions, params.long_results, with_long);
        let before = totals.cycles;
        cosimulate(params, policy(seed), &workload, seed, totals);
        *(if with_long { &mut long } else { &mut alu }) += totals.cycles - before;
    }
}

impl Totals {
    /// Prints what `test` covered.
    fn print(&self, test: &str) {
        println!(
            "{test}: {} cycles, {} of them with long-latency instructions; heads held {} cycles \
             by a full table, {} by a write after write, {} by a sync wait",
            self.cycles, self.long_cycles, self.full, self.waw, self.sync
        );
    }
}

/// Random programs over few registers (many hazards and bank conflicts), external traffic,
/// varied queue sizes, lookahead, ALU latency, read ports, bank maps (each on two
/// configurations), pending tables (1 to 32 entries) and waves (1 to 8, both issue policies),
/// with and without result forwarding and the request stage: at least 1,000,000
/// cycles in all across 2, 4 and 8 banks and both queue policies, at least 85,000 of random
/// ALU programs and as many of `random-long` ones per configuration (at least 500,000 of
/// these in all, with the table full, writes after writes and sync waits holding heads).
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn a_million_cycles_of_random_programs() {
    let mut totals = Totals::default();
    for (i, banks) in [2usize, 4, 8].into_iter().enumerate() {
        for (k, policy) in [Policy::Cq, Policy::CqPq].into_iter().enumerate() {
            let variant = i * 2 + k;
            let params = CoreParams {
                gpr: grfgen_hdl::params::GprParams {
                    banks,
                    registers: [64, 64, 128, 64, 256, 64][variant],
                    lanes: 2,
                    read_ports: [4, 3, 4, 2, 4, 3][variant],
                    bank_map: BankMap::ALL[variant % 3],
                    ..Default::default()
                },
                cq_entries: [2, 1, 3, 2, 4, 2][variant],
                pq_entries: [4, 2, 6, 3, 8, 4][variant],
                lookahead: [3, 1, 4, 2, 4, 3][variant],
                alu_latency: [2, 1, 3, 2, 4, 1][variant],
                forward: [true, true, true, false, true, false][variant],
                request_stage: [false, true, true, false, true, false][variant],
                long_results: [16, 1, 4, 2, 32, 3][variant],
                waves: Waves([1, 2, 4, 1, 8, 2][variant]),
                issue: IssuePolicy::ALL[variant / 2 % 2],
            };
            let seed = 100 * variant as u64;
            cosimulate_until(&params, |_| policy, seed, 8_000, 85_000, &mut totals);
        }
    }
    totals.print("a million cycles");
    assert!(totals.cycles >= 1_000_000, "{} cycles", totals.cycles);
    assert!(
        totals.long_cycles >= 500_000,
        "{} with long ops",
        totals.long_cycles
    );
    assert!(totals.full > 0 && totals.waw > 0 && totals.sync > 0);
}

/// Every bank kind: random programs with external traffic, at least 50,000 cycles of ALU
/// programs and as many of `random-long` ones on each of three shapes per kind (4 banks; 1 bank with 1
/// read port, the degenerate file; 8 banks with 2 read ports, pending tables of 2, 1 and 8
/// entries; the bank maps in turn), under naive and cq-pq in turn.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_bank_kind_runs_random_programs_in_lock_step() {
    use grfgen_hdl::params::BankKind;
    let mut totals = Totals::default();
    for (k, kind) in [BankKind::TwoReadsOneWrite, BankKind::SinglePort]
        .into_iter()
        .enumerate()
    {
        for (shape, (banks, read_ports)) in [(4, 4), (1, 1), (8, 2)].into_iter().enumerate() {
            let params = CoreParams {
                gpr: GprParams {
                    banks,
                    registers: 64,
                    lanes: 2,
                    read_ports,
                    bank_kind: kind,
                    bank_map: BankMap::ALL[(k + shape) % 3],
                    ..Default::default()
                },
                long_results: [2, 1, 8][shape],
                ..CoreParams::default()
            };
            let seed = 500 + 10 * shape as u64;
            cosimulate_until(&params, alternate, seed, 5_000, 50_000, &mut totals);
        }
    }
    totals.print("every bank kind");
    assert!(
        totals.long_cycles >= 300_000,
        "{} with long ops",
        totals.long_cycles
    );
}

/// Shape `k` (0..3) of the random sweeps on `kind` banks: 4, 2 or 8 banks of 64 registers and
/// 2 lanes with 4, 3 or 2 read ports, queues, lookahead, ALU latency (forwarding at the first
/// two) and pending table varied with it, on GPR `pipeline` with `map` and `request_stage`.
fn shape(
    k: usize,
    kind: grfgen_hdl::params::BankKind,
    pipeline: usize,
    map: BankMap,
    request_stage: bool,
) -> CoreParams {
    CoreParams {
        gpr: GprParams {
            banks: [4, 2, 8][k],
            registers: 64,
            lanes: 2,
            read_ports: [4, 3, 2][k],
            bank_kind: kind,
            pipeline,
            bank_map: map,
            ..Default::default()
        },
        cq_entries: [2, 1, 3][k],
        pq_entries: [4, 2, 6][k],
        lookahead: [3, 1, 4][k],
        alu_latency: [2, 1, 3][k],
        forward: k < 2,
        request_stage,
        long_results: [4, 16, 1][k],
        ..CoreParams::default()
    }
}

/// Every GPR pipeline option under every bank kind: random programs with external traffic,
/// varied queues, lookahead, ALU latency and pending tables, at least 50,000 lock-step cycles
/// of ALU programs and as many of `random-long` ones per pipeline option and bank kind
/// (each read later by the GPR's grant and read latencies, each issue's operands with it);
/// forwarding at ALU latencies 2 and 1 (results kept as long as the read latency), none at 3;
/// the request stage on every other pipeline option and bank kind, so that each pipeline runs
/// with it and without; the bank maps in turn, so that each pipeline runs with each.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_gpr_pipeline_option_runs_random_programs_in_lock_step() {
    use grfgen_hdl::params::BankKind;
    let mut totals = Totals::default();
    for pipeline in 1..=CoreParams::MAX_GPR_PIPELINE {
        for (k, kind) in BankKind::ALL.into_iter().enumerate() {
            let map = BankMap::ALL[(pipeline + k) % 3];
            let params = shape(k, kind, pipeline, map, (pipeline + k) % 2 == 1);
            let seed = 900 + 10 * (3 * pipeline + k) as u64;
            cosimulate_until(&params, alternate, seed, 6_000, 50_000, &mut totals);
        }
    }
    totals.print("every GPR pipeline option");
    assert!(
        totals.long_cycles >= 600_000,
        "{} with long ops",
        totals.long_cycles
    );
}

/// The quick cut of the three random sweeps above, for `make test`: one configuration per bank
/// kind, on GPR pipelines 0, 2 and 4, each with another bank map, queue sizes, lookahead, ALU
/// latency and pending table, the request stage on one, at least 15,000 lock-step cycles of
/// random ALU programs and as many of `random-long` ones each, under cq-pq.
#[test]
fn random_programs_run_in_lock_step_on_every_bank_kind_and_pipeline_depth() {
    use grfgen_hdl::params::BankKind;
    let mut totals = Totals::default();
    for (k, kind) in BankKind::ALL.into_iter().enumerate() {
        let params = shape(k, kind, [0, 2, 4][k], BankMap::ALL[k], k == 1);
        let seed = 1300 + 10 * k as u64;
        cosimulate_until(&params, |_| Policy::CqPq, seed, 4_000, 15_000, &mut totals);
    }
    totals.print("every bank kind and pipeline depth");
    assert!(
        totals.long_cycles >= 45_000,
        "{} with long ops",
        totals.long_cycles
    );
    assert!(totals.full > 0 && totals.waw > 0 && totals.sync > 0);
}

fn lockstep(
    params: &CoreParams,
    policy: Policy,
    source: &str,
    external_rate: u32,
) -> grfgen_sim::core::CoreRun {
    let program = grfgen_sim::core::parse(source, params.program_registers()).unwrap();
    let workload = Workload {
        external_rate,
        ..Workload::new("directed", program)
    };
    lockstep_workload(params, policy, &workload)
}

/// Runs `source` from seed 3 on the golden model alone, keeping the schedule: the baseline a
/// directed test compares its configuration in lock step with (an ordinary configuration,
/// whose RTL the random and workload tests run; a Verilator model less to build).
fn golden(params: &CoreParams, policy: Policy, source: &str) -> grfgen_sim::core::CoreRun {
    let program = grfgen_sim::core::parse(source, params.program_registers()).unwrap();
    run(
        params,
        policy,
        &Workload::new("directed", program),
        3,
        None,
        true,
    )
}

/// Runs `workload` from seed 3 on the golden model and the RTL in lock step, keeping the
/// schedule; panics on a mismatch.
fn lockstep_workload(
    params: &CoreParams,
    policy: Policy,
    workload: &Workload,
) -> grfgen_sim::core::CoreRun {
    let mut device = rtl(params, policy);
    let device = Some(&mut device as &mut dyn CoreDevice);
    let report = run(params, policy, workload, 3, device, true);
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{}",
        report.lock_step.first_mismatch.as_ref().unwrap()
    );
    report
}

/// The document's configuration keeps the document's schedule (`docs/core.md`): the four MADs
/// of `(rpt3) mad` in 10 cycles from a cold start, and 4 cycles more for each further group.
#[test]
fn the_documents_configuration_keeps_the_documents_schedule() {
    let groups = [
        "(rpt3) mad.f32 R0, R0, R4, R8\n",
        "(rpt3) mad.f32 R12, R12, R16, R20\n",
        "(rpt3) mad.f32 R24, R24, R28, R32\n",
    ];
    for n in 1..=groups.len() {
        let source = groups[..n].concat();
        let report = lockstep(&CoreParams::document(), Policy::CqPq, &source, 0);
        assert_eq!(report.cycles, 10 + 4 * (n as u64 - 1), "{n} groups");
    }
}

#[test]
fn a_full_conflict_queue_makes_instructions_wait_and_loses_nothing() {
    // Eight instructions with three sources in one bank each; one CQ entry.
    let params = CoreParams {
        cq_entries: 1,
        pq_entries: 0,
        ..CoreParams::document()
    };
    let source = "(rpt7) mad R16, R0, R4, R8\n";
    let small = lockstep(&params, Policy::Cq, source, 0);
    let roomy = golden(
        &CoreParams {
            cq_entries: 4,
            ..params.clone()
        },
        Policy::Cq,
        source,
    );
    assert_eq!(small.stats.sc_instructions, 8);
    assert_eq!(small.stats.conflicts, [0, 8], "two conflicts each");
    assert!(small.stats.cq_preloads < 16, "{:?}", small.stats);
    assert!(
        roomy.stats.cq_preloads > small.stats.cq_preloads,
        "{:?}",
        roomy.stats
    );
    assert!(small.stats.stall_cycles > roomy.stats.stall_cycles);
    assert!(small.cycles > roomy.cycles);
}

#[test]
fn a_full_prefetch_queue_limits_prefetching_and_loses_nothing() {
    let params = CoreParams {
        cq_entries: 0,
        pq_entries: 1,
        lookahead: 4,
        ..CoreParams::default()
    };
    let report = lockstep(
        &params,
        Policy::CqPq,
        &grfgen_sim::core::workload::matmul4_source(),
        0,
    );
    let roomy = golden(
        &CoreParams {
            pq_entries: 8,
            ..params.clone()
        },
        Policy::CqPq,
        &grfgen_sim::core::workload::matmul4_source(),
    );
    assert!(report.stats.pq_prefetches < roomy.stats.pq_prefetches);
    assert!(report.cycles >= roomy.cycles);
}

#[test]
fn write_backs_collide_with_the_external_writer_and_both_land() {
    // Results into bank 0 every cycle; the external writer (registers 240..255, so banks 0..3)
    // writes every cycle it can; port 0 (results) wins a shared bank.
    let params = CoreParams::default();
    let source = "(rpt15) add R0, R64, R65\n(rpt15) add R16, R68, R69\n";
    let report = lockstep(&params, Policy::CqPq, source, 100);
    assert!(report.stats.external_retries > 0, "{:?}", report.stats);
    assert!(report.stats.external_writes > 0);
}

#[test]
fn a_dependent_chain_runs_at_the_latency_bound() {
    let params = CoreParams::default();
    let report = lockstep(
        &params,
        Policy::CqPq,
        "add R1, R0, R0\nadd R2, R1, R1\nmul R3, R2, R1\nmad R4, R3, R2, R1\n",
        0,
    );
    assert_eq!(report.cycles, report.lower_bound);
}

/// With result forwarding a chain of dependences issues every `alu_latency` cycles and meets
/// the bound; without, every `read_latency + alu_latency + 1`. Interleaved chains put each
/// dependence 1 to `read_latency + alu_latency` instructions after its writer, so that every
/// kept result is forwarded.
#[test]
fn forwarding_takes_results_from_the_alu_and_its_kept_results() {
    use std::fmt::Write;
    for (alu_latency, pipeline) in [(1, 0), (2, 1), (3, 2), (2, 4)] {
        // The cycles do not depend on the file's size: (3, 2) is the default core, whose
        // models (with and without forwarding) other tests use too; the others run on a small
        // file (64 registers, 2 lanes).
        let gpr = match (alu_latency, pipeline) == (3, 2) {
            true => CoreParams::default().gpr,
            false => grfgen_hdl::params::GprParams {
                pipeline,
                registers: 64,
                lanes: 2,
                ..Default::default()
            },
        };
        let params = CoreParams {
            gpr,
            alu_latency,
            ..CoreParams::default()
        };
        let without = CoreParams {
            forward: false,
            ..params.clone()
        };
        let chain = "add R1, R0, R0
add R2, R1, R1
mul R3, R2, R1
mad R4, R3, R2, R3
";
        let forwarded = lockstep(&params, Policy::CqPq, chain, 0);
        // The RTL without forwarding runs in lock step on the default core; elsewhere the
        // golden model gives the baseline's cycles (a Verilator model less each).
        let read = match (alu_latency, pipeline) == (3, 2) {
            true => lockstep(&without, Policy::CqPq, chain, 0),
            false => golden(&without, Policy::CqPq, chain),
        };
        let (hop, slow) = (alu_latency as u64, params.issue_to_writeback() as u64 + 1);
        assert_eq!(
            forwarded.cycles, forwarded.lower_bound,
            "al {alu_latency} p {pipeline}"
        );
        assert_eq!(read.cycles - forwarded.cycles, 3 * (slow - hop));
        for chains in 1..=params.issue_to_writeback() {
            let mut source = String::new();
            for step in 0..6 {
                for c in 0..chains {
                    let (dst, src) = (4 * c + 2, 4 * c + 2 * usize::from(step > 0));
                    writeln!(source, "add R{dst}, R{src}, R{}", 4 * c + 1).unwrap();
                }
            }
            let run = lockstep(&params, Policy::CqPq, &source, 0);
            // Only each chain's first value and the other sources are read.
            assert_eq!(
                run.stats.gpr_reads,
                7 * chains as u64,
                "al {alu_latency} p {pipeline}: {chains} chains"
            );
        }
    }
}

/// The request stage adds one cycle from a read's decision to the GPR and nothing else: on
/// every built-in workload the stage on the GPR's `pipeline 2` takes exactly the cycles of the
/// GPR's registered arbitration (`pipeline 3`, the same read latency), and the RTL shows each
/// read on its port a cycle after the golden model decides it (the harness checks the ports
/// against the previous cycle's reads).
#[test]
fn the_request_stage_costs_one_cycle_of_read_latency() {
    let unstaged = CoreParams {
        request_stage: false,
        ..CoreParams::default()
    };
    let staged = CoreParams {
        request_stage: true,
        ..unstaged.clone()
    };
    let arbitrated = CoreParams {
        gpr: grfgen_hdl::params::GprParams {
            pipeline: 3,
            ..staged.gpr.clone()
        },
        request_stage: false,
        ..staged.clone()
    };
    assert_eq!(staged.read_latency(), arbitrated.read_latency());
    assert_eq!(staged.read_latency(), unstaged.read_latency() + 1);
    for name in grfgen_sim::core::workload::NAMES {
        let mut cycles = Vec::new();
        for params in [&staged, &arbitrated] {
            let workload = builtin(name, params, 9).unwrap();
            let mut device = rtl(params, Policy::CqPq);
            let device = Some(&mut device as &mut dyn CoreDevice);
            let report = run(params, Policy::CqPq, &workload, 9, device, false);
            assert_eq!(
                report.lock_step.mismatches,
                0,
                "{name} {params:?}: {}",
                report.lock_step.first_mismatch.unwrap()
            );
            cycles.push(report.cycles);
        }
        assert_eq!(cycles[0], cycles[1], "{name}");
    }
}

#[test]
fn one_instruction_and_no_instructions() {
    let params = CoreParams::default();
    let one = lockstep(&params, Policy::CqPq, "mad R9, R1, R2, R3\n", 0);
    assert_eq!(one.stats.instructions, 1);
    assert_eq!(one.cycles, one.lower_bound);
    let none = lockstep(&params, Policy::CqPq, "// nothing\n", 0);
    assert_eq!(none.stats.instructions, 0);
    assert_eq!(none.cycles, 0);
}

/// An instruction on `unit` computing `op` from `src` into `writes` registers from `dst`.
fn on(unit: CoreUnit, op: CoreOp, dst: usize, writes: usize, src: &[Source]) -> Instruction {
    Instruction {
        op,
        dst,
        writes,
        src: src.to_vec(),
        unit,
        wait: Wait::default(),
    }
}

/// The lanes of register `name` in `values` (a run's inputs or outputs).
fn lanes(values: &PerWave<Registers>, name: &str) -> Vec<u64> {
    values.wave(0)[name].clone()
}

/// Cycles from an issue to the end of its write-back: `read_latency + alu_latency + 1`.
fn to_finish(params: &CoreParams) -> u64 {
    params.issue_to_writeback() as u64 + 1
}

/// A sync wait holds the head until the result its flag guards is written, and not a cycle
/// longer: a texture result guarded by `(sy)`, then an independent add. Without a wait the
/// add runs in the texture's shadow and the program ends when the texture result lands; with
/// `(sy)` the add issues the cycle after it lands, at the lower bound; `(ss)` does not wait on
/// a texture result.
#[test]
fn a_sync_wait_holds_issue_until_the_result_lands() {
    let params = CoreParams::default();
    let texture = on(CoreUnit::Tex, CoreOp::Mov, 0, 1, &[Source::Reg(8)]);
    let run_with = |ss: bool, sy: bool| {
        let mut add = Instruction::alu(CoreOp::Add, 4, &[9, 10]);
        add.wait = Wait { ss, sy };
        let workload = Workload::new("sync", vec![texture.clone(), add]);
        lockstep_workload(&params, Policy::CqPq, &workload)
    };
    let (free, synced, other) = (
        run_with(false, false),
        run_with(false, true),
        run_with(true, false),
    );
    assert_eq!(free.cycles, free.lower_bound);
    assert_eq!(synced.cycles, synced.lower_bound);
    assert_eq!(synced.cycles, free.cycles + to_finish(&params));
    assert!(synced.stats.sync_stalls > 0);
    assert_eq!((other.cycles, other.stats.sync_stalls), (free.cycles, 0));
}

/// An instruction writing a register a long-latency result still has outstanding waits until
/// it is written (write after write), then issues; the register ends with its value.
#[test]
fn a_write_after_write_waits_for_the_outstanding_result() {
    let params = CoreParams::default();
    let special = on(CoreUnit::Sfu, CoreOp::Mov, 0, 1, &[Source::Reg(8)]);
    let program = |dst: usize| {
        vec![
            special.clone(),
            Instruction::alu(CoreOp::Add, dst, &[9, 10]),
        ]
    };
    let other = lockstep_workload(&params, Policy::CqPq, &Workload::new("other", program(1)));
    let same = lockstep_workload(&params, Policy::CqPq, &Workload::new("same", program(0)));
    assert!(same.stats.waw_stalls > 0);
    assert_eq!(other.stats.waw_stalls, 0);
    assert_eq!(same.cycles, other.cycles + to_finish(&params));
    let (a, b) = (lanes(&same.inputs, "R9"), lanes(&same.inputs, "R10"));
    let sum: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x + y) & 0xffff_ffff)
        .collect();
    assert_eq!(lanes(&same.outputs, "R0"), sum);
}

/// An ALU instruction reading a long-latency result reads it the cycle after the external
/// unit writes it, no earlier (never forwarded) and no later: the program meets its lower
/// bound, and its only read of R0 is in the add's issue cycle.
#[test]
fn an_alu_instruction_reads_a_long_result_the_cycle_after_it_lands() {
    for params in [CoreParams::default(), CoreParams::document()] {
        let special = on(CoreUnit::Sfu, CoreOp::Mov, 0, 1, &[Source::Reg(8)]);
        let add = Instruction::alu(CoreOp::Add, 1, &[0, 9]);
        let report = lockstep_workload(
            &params,
            Policy::CqPq,
            &Workload::new("read", vec![special, add]),
        );
        assert_eq!(report.cycles, report.lower_bound, "{params:?}");
        let issue = (report.cycles - to_finish(&params)) as usize;
        let schedule = report.schedule.as_ref().unwrap();
        let reads_of_r0: Vec<usize> = (0..schedule.len())
            .filter(|&t| schedule[t].iter().any(|r| r.reg == 0))
            .collect();
        assert_eq!(reads_of_r0, [issue], "{params:?}");
        let (a, b) = (lanes(&report.inputs, "R8"), lanes(&report.inputs, "R9"));
        let sum: Vec<u64> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x + y) & 0xffff_ffff)
            .collect();
        assert_eq!(lanes(&report.outputs, "R1"), sum);
    }
}

/// Immediates reach the ALU in place of GPR reads: the operands the RTL shows are compared
/// every cycle; only the register sources are read, and the results are what the program
/// says.
#[test]
fn immediates_reach_the_alu_in_place_of_reads() {
    let params = CoreParams {
        forward: false,
        ..CoreParams::default()
    };
    let imm = Source::Imm;
    let alu = |op, dst, src: &[Source]| on(CoreUnit::Alu, op, dst, 1, src);
    let program = vec![
        alu(CoreOp::Add, 1, &[Source::Reg(0), imm(5)]),
        alu(CoreOp::Mad, 2, &[imm(3), Source::Reg(1), imm(7)]),
        alu(CoreOp::Mov, 3, &[imm(0xffff_ffff)]),
        alu(CoreOp::Sub, 4, &[imm(1), Source::Reg(0)]),
    ];
    let report = lockstep_workload(&params, Policy::CqPq, &Workload::new("imm", program));
    assert_eq!(report.stats.gpr_reads, 3);
    let r0 = lanes(&report.inputs, "R0");
    let each =
        |f: &dyn Fn(u64) -> u64| -> Vec<u64> { r0.iter().map(|&x| f(x) & 0xffff_ffff).collect() };
    assert_eq!(lanes(&report.outputs, "R1"), each(&|x| x + 5));
    assert_eq!(lanes(&report.outputs, "R2"), each(&|x| 3 * (x + 5) + 7));
    assert_eq!(lanes(&report.outputs, "R3"), each(&|_| 0xffff_ffff));
    assert_eq!(
        lanes(&report.outputs, "R4"),
        each(&|x| 1u64.wrapping_sub(x))
    );
}

/// Nops issue one per cycle, read nothing and write nothing back: sixteen of them take 16
/// issue cycles and the pipeline, the lower bound; between a writer and its reader they change
/// no hazard.
#[test]
fn nops_issue_one_per_cycle() {
    let params = CoreParams::default();
    let nops = vec![Instruction::alu(CoreOp::Nop, 0, &[]); 16];
    let report = lockstep_workload(&params, Policy::CqPq, &Workload::new("nops", nops));
    assert_eq!(report.cycles, 16 + to_finish(&params));
    assert_eq!(report.cycles, report.lower_bound);
    assert_eq!((report.stats.instructions, report.stats.gpr_reads), (16, 0));
    assert!(report.outputs.wave(0).is_empty());
    let between = lockstep(
        &params,
        Policy::CqPq,
        "add R1, R2, R3\nnop\nnop\nadd R4, R1, R1\n",
        0,
    );
    assert_eq!(between.cycles, between.lower_bound);
}

/// A long-latency result's write that a write-back to the same bank refuses is presented
/// again until it lands: an SFU result for R4 (bank 0) comes back while a stream of adds is
/// written back into bank 0 every cycle.
#[test]
fn a_long_write_colliding_with_a_write_back_is_retried() {
    let params = CoreParams::default();
    let mut program = vec![on(CoreUnit::Sfu, CoreOp::Mov, 4, 1, &[Source::Reg(20)])];
    for k in 0..24 {
        program.push(Instruction::alu(
            CoreOp::Add,
            [0, 8, 12, 16][k % 4],
            &[21, 22],
        ));
    }
    let workload = Workload {
        latencies: UnitLatencies {
            sfu_latency: 1,
            ..UnitLatencies::default()
        },
        ..Workload::new("collide", program)
    };
    let report = lockstep_workload(&params, Policy::CqPq, &workload);
    assert!(report.stats.external_retries > 0, "{:?}", report.stats);
    assert_eq!(report.stats.long_writes, 1);
    assert_eq!(lanes(&report.outputs, "R4"), lanes(&report.inputs, "R20"));
}

/// A long-latency instruction waits while the pending table has fewer free entries than it
/// writes: a four-register texture result fills a table of four, and an SFU instruction
/// behind it issues only once the first texture register is written; with five entries it
/// does not wait.
#[test]
fn a_full_pending_table_holds_the_next_long_instruction() {
    let program = vec![
        on(CoreUnit::Tex, CoreOp::Mov, 0, 4, &[Source::Reg(8)]),
        on(CoreUnit::Sfu, CoreOp::Mov, 12, 1, &[Source::Reg(9)]),
    ];
    let run_with = |long_results: usize, rtl: bool| {
        let params = CoreParams {
            long_results,
            ..CoreParams::default()
        };
        let workload = Workload::new("full", program.clone());
        match rtl {
            true => lockstep_workload(&params, Policy::CqPq, &workload),
            false => run(&params, Policy::CqPq, &workload, 3, None, true),
        }
    };
    // The full table in lock step; the roomy one, its baseline, on the golden model.
    let (full, roomy) = (run_with(4, true), run_with(5, false));
    assert!(full.stats.full_stalls > 0);
    assert_eq!(roomy.stats.full_stalls, 0);
    assert!(full.cycles > roomy.cycles);
    for report in [&full, &roomy] {
        for k in 0..4 {
            let expected: Vec<u64> = (lanes(&report.inputs, "R8").iter())
                .map(|v| (v + k) & 0xffff_ffff)
                .collect();
            assert_eq!(lanes(&report.outputs, &format!("R{k}")), expected);
        }
    }
}

/// Long-latency writes have priority over the texture-return traffic on write port 1: with
/// traffic in every cycle a program of long-latency instructions takes the cycles it takes
/// without (1R1W banks: port 1's writes take no read away).
#[test]
fn long_writes_have_priority_over_texture_return_traffic() {
    let params = CoreParams::default();
    let program = random_long_program(300, 24, params.long_results, 7);
    let quiet = lockstep_workload(
        &params,
        Policy::CqPq,
        &Workload::new("quiet", program.clone()),
    );
    let busy = Workload {
        external_rate: 100,
        ..Workload::new("busy", program)
    };
    let busy = lockstep_workload(&params, Policy::CqPq, &busy);
    assert_eq!(busy.cycles, quiet.cycles);
    assert!(busy.stats.external_writes > busy.stats.long_writes);
}
