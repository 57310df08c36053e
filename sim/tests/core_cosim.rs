//! The emitted core slice in Verilator against the golden model.

use grfgen_hdl::params::CoreParams;
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::core::{builtin, run, CoreDevice, CoreRtl, Policy};

fn rtl(params: &CoreParams, policy: Policy) -> CoreRtl {
    CoreRtl::build(&policy.hardware(params), &Setup::new(1, Rtl::On))
        .expect("Verilator builds the emitted core")
}

#[test]
fn workloads_match_on_every_policy() {
    let params = CoreParams::default();
    for policy in [Policy::CqPq, Policy::Cq, Policy::Naive] {
        for name in grfgen_sim::core::workload::NAMES {
            let mut device = rtl(&params, policy);
            let workload = builtin(name, &params, 5).unwrap();
            let report = run(
                &params,
                policy,
                &workload,
                5,
                Some(&mut device as &mut dyn CoreDevice),
                false,
            );
            assert_eq!(
                report.mismatches,
                0,
                "{name} {policy:?}: {}",
                report.first_mismatch.unwrap()
            );
        }
    }
}

/// Random programs over few registers (many hazards and bank conflicts), external traffic,
/// varied queue sizes, lookahead, ALU latency and read ports, with and without result
/// forwarding and the request stage: at least 1,000,000 cycles in all across 2, 4 and 8 banks
/// and both queue policies (680,000 of them forwarding, at ALU latencies 1 to 4; 510,000
/// through the request stage).
#[test]
fn a_million_cycles_of_random_programs() {
    use grfgen_sim::core::workload::random_program;
    use grfgen_sim::core::Workload;
    let mut total = 0;
    for (i, banks) in [2usize, 4, 8].into_iter().enumerate() {
        for (k, policy) in [Policy::Cq, Policy::CqPq].into_iter().enumerate() {
            let variant = i * 2 + k;
            let params = CoreParams {
                gpr: grfgen_hdl::params::GprParams {
                    banks,
                    registers: 64,
                    lanes: 2,
                    read_ports: [4, 3, 4, 2, 4, 3][variant],
                    ..Default::default()
                },
                cq_entries: [2, 1, 3, 2, 4, 2][variant],
                pq_entries: [4, 2, 6, 3, 8, 4][variant],
                lookahead: [3, 1, 4, 2, 4, 3][variant],
                alu_latency: [2, 1, 3, 2, 4, 1][variant],
                forward: [true, true, true, false, true, false][variant],
                request_stage: [false, true, true, false, true, false][variant],
                long_results: CoreParams::DEFAULT_LONG_RESULTS,
            };
            let mut cycles = 0;
            let mut seed = 100 * variant as u64;
            while cycles < 170_000 {
                seed += 1;
                let workload = Workload {
                    external_rate: (seed % 3 * 30) as u32,
                    ..Workload::new(&format!("random-{seed}"), random_program(8_000, 24, seed))
                };
                let mut device = rtl(&params, policy);
                let report = run(
                    &params,
                    policy,
                    &workload,
                    seed,
                    Some(&mut device as &mut dyn CoreDevice),
                    false,
                );
                assert_eq!(
                    report.mismatches,
                    0,
                    "{params:?} {policy:?} seed {seed}: {}",
                    report.first_mismatch.unwrap()
                );
                cycles += report.cycles;
            }
            total += cycles;
        }
    }
    assert!(total >= 1_000_000);
}

/// Every bank kind: random programs with external traffic, at least 100,000 cycles on each
/// of three shapes per kind (4 banks; 1 bank with 1 read port, the degenerate file; 8 banks
/// with 2 read ports), under naive and cq-pq in turn.
#[test]
fn every_bank_kind_runs_random_programs_in_lock_step() {
    use grfgen_hdl::params::{BankKind, GprParams};
    use grfgen_sim::core::workload::random_program;
    use grfgen_sim::core::Workload;
    for kind in [BankKind::TwoReadsOneWrite, BankKind::SinglePort] {
        for (shape, (banks, read_ports)) in [(4, 4), (1, 1), (8, 2)].into_iter().enumerate() {
            let params = CoreParams {
                gpr: GprParams {
                    banks,
                    registers: 64,
                    lanes: 2,
                    read_ports,
                    bank_kind: kind,
                    ..Default::default()
                },
                ..CoreParams::default()
            };
            let (mut cycles, mut seed) = (0, 500 + 10 * shape as u64);
            while cycles < 100_000 {
                seed += 1;
                let policy = [Policy::Naive, Policy::CqPq][seed as usize % 2];
                let workload = Workload {
                    external_rate: (seed % 3 * 30) as u32,
                    ..Workload::new(&format!("random-{seed}"), random_program(5_000, 24, seed))
                };
                let mut device = rtl(&params, policy);
                let device = Some(&mut device as &mut dyn CoreDevice);
                let report = run(&params, policy, &workload, seed, device, false);
                assert_eq!(
                    report.mismatches,
                    0,
                    "{kind} {params:?} {policy:?} seed {seed}: {}",
                    report.first_mismatch.unwrap()
                );
                cycles += report.cycles;
            }
        }
    }
}

/// Every GPR pipeline option under every bank kind: random programs with external traffic,
/// varied queues, lookahead and ALU latency, at least 100,000 lock-step cycles per pipeline
/// option and bank kind (each read later by the GPR's grant and read latencies, each issue's
/// operands with it); forwarding at ALU latencies 2 and 1 (results kept as long as the
/// read latency), none at 3; the request stage on every other pipeline option and bank kind,
/// so that each pipeline runs with it and without.
#[test]
fn every_gpr_pipeline_option_runs_random_programs_in_lock_step() {
    use grfgen_hdl::params::{BankKind, GprParams};
    use grfgen_sim::core::workload::random_program;
    use grfgen_sim::core::Workload;
    for pipeline in 1..=CoreParams::MAX_GPR_PIPELINE {
        for (k, kind) in BankKind::ALL.into_iter().enumerate() {
            let params = CoreParams {
                gpr: GprParams {
                    banks: [4, 2, 8][k],
                    registers: 64,
                    lanes: 2,
                    read_ports: [4, 3, 2][k],
                    bank_kind: kind,
                    pipeline,
                    ..Default::default()
                },
                cq_entries: [2, 1, 3][k],
                pq_entries: [4, 2, 6][k],
                lookahead: [3, 1, 4][k],
                alu_latency: [2, 1, 3][k],
                forward: k < 2,
                request_stage: (pipeline + k) % 2 == 1,
                long_results: CoreParams::DEFAULT_LONG_RESULTS,
            };
            let (mut cycles, mut seed) = (0, 900 + 10 * (3 * pipeline + k) as u64);
            while cycles < 100_000 {
                seed += 1;
                let policy = [Policy::Naive, Policy::CqPq][seed as usize % 2];
                let workload = Workload {
                    external_rate: (seed % 3 * 30) as u32,
                    ..Workload::new(&format!("random-{seed}"), random_program(6_000, 24, seed))
                };
                let mut device = rtl(&params, policy);
                let device = Some(&mut device as &mut dyn CoreDevice);
                let report = run(&params, policy, &workload, seed, device, false);
                assert_eq!(
                    report.mismatches,
                    0,
                    "pipeline {pipeline} {kind} {policy:?} seed {seed}: {}",
                    report.first_mismatch.unwrap()
                );
                cycles += report.cycles;
            }
        }
    }
}

fn lockstep(
    params: &CoreParams,
    policy: Policy,
    source: &str,
    external_rate: u32,
) -> grfgen_sim::core::CoreRun {
    let program = grfgen_sim::core::parse(source, params.program_registers()).unwrap();
    let workload = grfgen_sim::core::Workload {
        external_rate,
        ..grfgen_sim::core::Workload::new("directed", program)
    };
    let mut device = rtl(params, policy);
    let report = run(
        params,
        policy,
        &workload,
        3,
        Some(&mut device as &mut dyn CoreDevice),
        true,
    );
    assert_eq!(
        report.mismatches,
        0,
        "{}",
        report.first_mismatch.as_ref().unwrap()
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
    let roomy = lockstep(
        &CoreParams {
            cq_entries: 4,
            ..params.clone()
        },
        Policy::Cq,
        source,
        0,
    );
    assert_eq!(small.stats.sc_instructions, 8);
    assert!(small.stats.cq_preloads < 16, "{:?}", small.stats);
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
    let roomy = lockstep(
        &CoreParams {
            pq_entries: 8,
            ..params.clone()
        },
        Policy::CqPq,
        &grfgen_sim::core::workload::matmul4_source(),
        0,
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
        let params = CoreParams {
            gpr: grfgen_hdl::params::GprParams {
                pipeline,
                ..Default::default()
            },
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
        let read = lockstep(&without, Policy::CqPq, chain, 0);
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
                report.mismatches,
                0,
                "{name} {params:?}: {}",
                report.first_mismatch.unwrap()
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
