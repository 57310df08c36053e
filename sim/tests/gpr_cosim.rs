//! Lock-step co-simulation of the emitted GPR Verilog (in Verilator) against the golden model.
//! Needs `verilator` and `g++` (the Makefile and .ci/run install them).

use grfgen_hdl::params::{BankKind, BankMap, GprParams, Memory};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::gpr::{
    run, GprModel, GprReport, GprRequests, GprResponse, GprRtl, RandomTraffic, Script,
};

fn gpr(
    banks: usize,
    registers: usize,
    lanes: usize,
    bits: usize,
    rp: usize,
    wp: usize,
) -> GprParams {
    GprParams {
        banks,
        registers,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
        pipeline: 0,
        bank_kind: BankKind::OneReadOneWrite,
        ..GprParams::default()
    }
}

fn rtl(params: &GprParams, seed: u64) -> GprRtl {
    GprRtl::build(params, &Setup::new(seed, Rtl::On)).expect("Verilator builds the emitted GPR")
}

fn random_run(params: &GprParams, seed: u64, cycles: u64) -> GprReport {
    eprintln!(
        "{}: seed {seed}",
        grfgen_hdl::params::module_name("gpr", params)
    );
    let mut model = rtl(params, seed);
    let mut stimulus = RandomTraffic::new(params, seed);
    let report = run(params, &mut stimulus, cycles, Some(&mut model), &|_| {});
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{}: {} (seed {seed})",
        grfgen_hdl::params::module_name("gpr", params),
        report.lock_step.first_mismatch.as_ref().unwrap()
    );
    assert_eq!(report.cycles, cycles);
    assert!(report.conflicts > 0 && report.grants > 0, "{report:?}");
    report
}

#[test]
fn one_bank_100k_random_cycles() {
    random_run(&gpr(1, 256, 4, 32, 4, 2), 101, 100_000);
}

#[test]
fn two_banks_one_read_port_100k_random_cycles() {
    random_run(&gpr(2, 256, 4, 32, 1, 2), 102, 100_000);
}

#[test]
fn default_100k_random_cycles() {
    random_run(&GprParams::default(), 103, 100_000);
}

#[test]
fn eight_banks_eight_lanes_16_bit_100k_random_cycles() {
    random_run(&gpr(8, 256, 8, 16, 4, 2), 104, 100_000);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_pipeline_option_100k_random_cycles() {
    for pipeline in 1..=GprParams::MAX_PIPELINE {
        let default = GprParams {
            pipeline,
            ..GprParams::default()
        };
        random_run(&default, 110 + pipeline as u64, 100_000);
        let small = GprParams {
            pipeline,
            ..gpr(2, 64, 2, 8, 3, 2)
        };
        random_run(&small, 120 + pipeline as u64, 100_000);
    }
}

/// Every bank kind other than 1R1W, on three shapes each: the default, one bank with one
/// port of each kind (the degenerate file), and 16 banks with every pipeline stage
/// (registered arbitration and the SRAM port stage).
#[test]
fn every_bank_kind_100k_random_cycles() {
    for (k, kind) in [BankKind::TwoReadsOneWrite, BankKind::SinglePort]
        .into_iter()
        .enumerate()
    {
        let seed = 130 + 10 * k as u64;
        for (n, shape) in [
            GprParams::default(),
            gpr(1, 64, 2, 32, 1, 1),
            GprParams {
                pipeline: GprParams::MAX_PIPELINE,
                ..gpr(16, 256, 2, 16, 8, 4)
            },
        ]
        .into_iter()
        .enumerate()
        {
            let p = GprParams {
                bank_kind: kind,
                ..shape
            };
            random_run(&p, seed + n as u64, 100_000);
        }
    }
}

/// The ECP5 block RAM instance (`--memory dp16kd`, simulated by its model): every bank kind
/// without and with the output register (pipeline 0 and the deepest), one kind on each pipeline
/// between, in both of the primitive's widths: 36 bits by 512 rows (the default's banks) and
/// 18 bits by 1024 rows (one bank of 1024 registers of two 8-bit lanes).
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn dp16kd_banks_100k_random_cycles() {
    let take =
        |pipeline, k| pipeline == 0 || pipeline == GprParams::MAX_PIPELINE || k == pipeline % 3;
    let deep = [0, GprParams::MAX_PIPELINE];
    primitive_banks(Memory::Dp16kd, 150, shapes(take, &deep));
}

/// The quick cut of the test above, for `make test`: every bank kind with the output register
/// (the deepest pipeline), the default kind without it, in both widths.
#[test]
fn dp16kd_banks_with_and_without_the_output_register_100k_random_cycles() {
    let take = |pipeline, k| pipeline == GprParams::MAX_PIPELINE || (pipeline == 0 && k == 0);
    let deep = [0, GprParams::MAX_PIPELINE];
    primitive_banks(Memory::Dp16kd, 150, shapes(take, &deep));
}

/// Gowin's `SDPB` and Nexus's `PDPSC16K` instances (`--memory gowin-bsram`, `nexus-ebr`,
/// simulated by their models), 100k random cycles each: the output register on the 1W1R and
/// the single-port kinds (the deepest pipeline), none on the default (pipeline 0), and the
/// 1024-row shape (16 or 18 bits wide) with the output register.
#[test]
fn gowin_and_nexus_banks_with_and_without_the_output_register_100k_random_cycles() {
    let single_port = BankKind::ALL
        .iter()
        .position(|k| k.single_port())
        .expect("a single-port kind");
    let take = |pipeline, k| {
        (pipeline == GprParams::MAX_PIPELINE && (k == 0 || k == single_port))
            || (pipeline == 0 && k == 0)
    };
    let deep = [GprParams::MAX_PIPELINE];
    primitive_banks(Memory::GowinBsram, 190, shapes(take, &deep));
    primitive_banks(Memory::NexusEbr, 200, shapes(take, &deep));
}

/// The default GPR for each pipeline and bank kind (its index in [`BankKind::ALL`]) that
/// `take` takes, and one bank of 1024 registers of two 8-bit lanes (a primitive's deeper,
/// narrower shape) at each of `deep_pipelines`.
fn shapes(take: impl Fn(usize, usize) -> bool, deep_pipelines: &[usize]) -> Vec<GprParams> {
    let mut shapes = vec![];
    for pipeline in 0..=GprParams::MAX_PIPELINE {
        for (k, bank_kind) in BankKind::ALL.into_iter().enumerate() {
            if take(pipeline, k) {
                shapes.push(GprParams {
                    pipeline,
                    bank_kind,
                    ..GprParams::default()
                });
            }
        }
    }
    for &pipeline in deep_pipelines {
        shapes.push(GprParams {
            pipeline,
            ..gpr(1, 1024, 2, 8, 2, 1)
        });
    }
    shapes
}

/// 100k random cycles of each of `shapes` with its banks written as `memory`, the seeds from
/// `seed` on.
fn primitive_banks(memory: Memory, seed: u64, shapes: Vec<GprParams>) {
    for (n, shape) in shapes.into_iter().enumerate() {
        let p = GprParams { memory, ..shape };
        random_run(&p, seed + n as u64, 100_000);
    }
}

/// Every bank map under every bank kind and two pipelines, 100k random cycles each.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn every_bank_map_100k_random_cycles() {
    for (n, map) in [BankMap::Row, BankMap::Xor].into_iter().enumerate() {
        for (k, kind) in BankKind::ALL.into_iter().enumerate() {
            let p = GprParams {
                bank_map: map,
                bank_kind: kind,
                pipeline: 3 * (k % 2),
                ..GprParams::default()
            };
            random_run(&p, 170 + (3 * n + k) as u64, 100_000);
        }
    }
}

/// The map decides which reads share a bank: R0..R3 are one bank under `row` (one read
/// granted), four under `mod` and `xor`; R0, R5, R10, R15 are four banks under `mod` and one
/// under `xor`; every register's data comes back through its own row.
#[test]
fn the_bank_map_decides_which_reads_share_a_bank() {
    let grants = |map: BankMap, regs: [usize; 4]| {
        let p = GprParams {
            bank_map: map,
            ..GprParams::default()
        };
        let mut write = GprRequests::idle(&p);
        write.writes = vec![Some(regs[1]), None];
        write.write_data = vec![5, 5, 5, 5, 0, 0, 0, 0];
        let mut read = GprRequests::idle(&p);
        read.reads = regs.iter().map(|&r| Some(r)).collect();
        let responses = directed(&p, vec![write, read]);
        assert_eq!(responses[0].write_grants, [true, false], "{map}");
        // Data after the grant's own clock edge (no pipeline stage).
        let data = &responses[1].read_data;
        if responses[1].read_grants[1] {
            assert_eq!(&data[4..8], &[5, 5, 5, 5], "{map}");
        }
        responses[1].read_grants.clone()
    };
    assert_eq!(grants(BankMap::Mod, [0, 1, 2, 3]), [true; 4]);
    assert_eq!(
        grants(BankMap::Row, [0, 1, 2, 3]),
        [true, false, false, false]
    );
    assert_eq!(grants(BankMap::Xor, [0, 1, 2, 3]), [true; 4]);
    assert_eq!(grants(BankMap::Mod, [0, 5, 10, 15]), [true; 4]);
    assert_eq!(
        grants(BankMap::Xor, [0, 5, 10, 15]),
        [true, false, false, false]
    );
    assert_eq!(grants(BankMap::Row, [0, 5, 10, 15]), [true; 4]);
}

/// 2R1W banks: two reads of one bank are both granted, the third waits; a read of the
/// register being written still waits.
#[test]
fn two_read_banks_grant_two_reads_of_one_bank() {
    let p = GprParams {
        bank_kind: BankKind::TwoReadsOneWrite,
        ..GprParams::default()
    };
    let mut r = GprRequests::idle(&p);
    r.reads = vec![Some(12), Some(0), Some(4), Some(1)]; // three in bank 0
    r.writes[0] = Some(8); // bank 0, not read
    let mut clash = GprRequests::idle(&p);
    clash.writes[0] = Some(12);
    clash.reads = vec![Some(12), Some(0), None, None];
    let responses = directed(&p, vec![r, clash]);
    assert_eq!(responses[0].read_grants, [true, true, false, true]);
    assert_eq!(responses[1].read_grants, [false, true, false, false]);
}

/// 1RW banks: a bank being written serves no read, other banks serve theirs.
#[test]
fn single_port_banks_serve_a_write_or_a_read() {
    let p = GprParams {
        bank_kind: BankKind::SinglePort,
        ..GprParams::default()
    };
    let mut r = GprRequests::idle(&p);
    r.writes[0] = Some(4); // bank 0
    r.write_data[..4].copy_from_slice(&[7, 7, 7, 7]);
    r.reads = vec![Some(8), Some(1), None, None]; // bank 0: refused; bank 1: granted
    let mut next = GprRequests::idle(&p);
    next.reads = vec![Some(4), Some(8), None, None];
    let responses = directed(&p, vec![r, next]);
    assert_eq!(responses[0].write_grants, [true, false]);
    assert_eq!(responses[0].read_grants, [false, true, false, false]);
    assert_eq!(responses[1].read_grants, [true, false, false, false]);
    assert_eq!(&responses[1].read_data[..4], &[7, 7, 7, 7]);
}

/// A written register read back: its data reaches the port `read_latency` edges after the
/// read's grant (a cycle after its request with registered arbitration), and not before.
#[test]
fn pipelined_read_data_arrives_pipeline_cycles_later() {
    for pipeline in 0..=GprParams::MAX_PIPELINE {
        let p = GprParams {
            pipeline,
            ..gpr(2, 16, 1, 8, 1, 1)
        };
        let mut write = GprRequests::idle(&p);
        write.writes[0] = Some(5);
        write.write_data[0] = 77;
        let mut read = GprRequests::idle(&p);
        read.reads[0] = Some(5);
        // The read's data edge, then two idle cycles after it.
        let arrival = 1 + p.grant_latency() + p.read_latency() - 1;
        let mut cycles = vec![write, read];
        cycles.extend(std::iter::repeat_n(GprRequests::idle(&p), arrival + 1));
        let data: Vec<u64> = directed(&p, cycles)
            .iter()
            .map(|r| r.read_data[0])
            .collect();
        let mut expected = vec![0; arrival + 3];
        expected[arrival] = 77;
        assert_eq!(data, expected, "pipeline {pipeline}");
    }
}

/// Registered arbitration: a cycle's grants answer the requests of one cycle before with
/// `pipeline` 3, and of two with the registered clash of `pipeline` 4, by the same rules (the
/// clash taken from the writes of the read's own cycle, not from a later cycle's).
#[test]
fn registered_arbitration_grants_one_or_two_cycles_after_the_request() {
    for (pipeline, latency) in [(3, 1), (4, 2)] {
        let p = GprParams {
            pipeline,
            ..GprParams::default()
        };
        let mut conflict = GprRequests::idle(&p);
        conflict.reads = vec![Some(0), Some(4), Some(5), None]; // R0 and R4 share bank 0
        conflict.writes[0] = Some(5); // and R5 is written: its read waits
        let mut later = GprRequests::idle(&p);
        later.writes[0] = Some(0); // a write of R0 a cycle later: R0's read still goes
        let idle = GprRequests::idle(&p);
        let responses = directed(&p, vec![conflict, later, idle.clone(), idle]);
        for early in &responses[..latency] {
            assert_eq!(early.read_grants, [false; 4], "pipeline {pipeline}");
            assert_eq!(early.write_grants, [false; 2], "pipeline {pipeline}");
        }
        let answer = &responses[latency];
        assert_eq!(
            answer.read_grants,
            [true, false, false, false],
            "pipeline {pipeline}"
        );
        assert_eq!(answer.write_grants, [true, false], "pipeline {pipeline}");
        assert_eq!(responses[latency + 1].write_grants, [true, false]);
        assert_eq!(responses[latency + 1].read_grants, [false; 4]);
    }
}

#[test]
fn light_load_without_retries_and_wide_elements() {
    let p = gpr(16, 64, 2, 64, 8, 4);
    let mut model = rtl(&p, 5);
    let mut stimulus = RandomTraffic::new(&p, 5);
    stimulus.load = 30;
    stimulus.retry = false;
    let report = run(&p, &mut stimulus, 50_000, Some(&mut model), &|_| {});
    assert_eq!(
        report.lock_step.mismatches, 0,
        "{:?}",
        report.lock_step.first_mismatch
    );
    assert!(report.lock_step.rtl);
    assert_eq!(report.cycles, 50_000);
    // Light load: reads and writes go through, most of them granted.
    assert!(
        report.read_grants > 10_000 && report.write_grants > 10_000,
        "{report:?}"
    );
    assert!(report.grants * 2 > report.requests, "{report:?}");
}

/// Plays `cycles` through RTL and model in lock step (zero mismatches) and returns the model's
/// responses, so that a test can also check them against the rules.
fn directed(params: &GprParams, cycles: Vec<GprRequests>) -> Vec<GprResponse> {
    let mut model = rtl(params, 9);
    let mut script = Script::new(cycles.clone());
    let report = run(params, &mut script, u64::MAX, Some(&mut model), &|_| {});
    assert_eq!(
        report.lock_step.mismatches, 0,
        "{:?}",
        report.lock_step.first_mismatch
    );
    assert_eq!(report.cycles, cycles.len() as u64);
    let mut golden = GprModel::new(params);
    cycles
        .iter()
        .map(|requests| {
            let mut response = GprResponse::new(params);
            golden.step(requests, &mut response);
            response
        })
        .collect()
}

#[test]
fn every_register_written_then_read_back_on_every_port() {
    let p = gpr(4, 64, 2, 16, 4, 2);
    let value = |reg: usize, lane: usize| (reg * 7 + lane * 1000 + 1) as u64;
    let mut cycles = Vec::new();
    // Writes to registers in different banks: both ports granted every cycle.
    for pair in (0..p.registers).collect::<Vec<_>>().chunks(2) {
        let mut r = GprRequests::idle(&p);
        for (port, &reg) in pair.iter().enumerate() {
            r.writes[port] = Some(reg);
            for lane in 0..p.lanes {
                r.write_data[port * p.lanes + lane] = value(reg, lane);
            }
        }
        cycles.push(r);
    }
    for reg in 0..p.registers {
        let mut r = GprRequests::idle(&p);
        r.reads[reg % p.read_ports] = Some(reg);
        cycles.push(r);
    }
    cycles.push(GprRequests::idle(&p));
    let responses = directed(&p, cycles);
    let writes = p.registers / 2;
    assert!(responses[..writes]
        .iter()
        .all(|r| r.write_grants == [true, true]));
    for reg in 0..p.registers {
        let response = &responses[writes + reg];
        let port = reg % p.read_ports;
        assert!(response.read_grants[port]);
        let data = &response.read_data[port * p.lanes..(port + 1) * p.lanes];
        assert_eq!(data, [value(reg, 0), value(reg, 1)], "register {reg}");
    }
}

#[test]
fn all_read_ports_on_one_bank_lowest_port_wins() {
    let p = GprParams::default();
    let mut r = GprRequests::idle(&p);
    r.reads = vec![Some(12), Some(0), Some(4), Some(8)]; // all in bank 0
    let mut retry = r.clone();
    retry.reads[0] = None;
    let responses = directed(&p, vec![r, retry]);
    assert_eq!(responses[0].read_grants, [true, false, false, false]);
    assert_eq!(responses[1].read_grants, [false, true, false, false]);
}

#[test]
fn a_read_and_a_write_of_one_register_the_write_goes_first() {
    let p = GprParams::default();
    let mut first = GprRequests::idle(&p);
    first.writes[0] = Some(5);
    first.write_data[..4].copy_from_slice(&[1, 2, 3, 4]);
    first.reads[0] = Some(5);
    first.reads[1] = Some(9); // same bank as R5, not written: granted
    let mut second = GprRequests::idle(&p);
    second.reads[0] = Some(5);
    let responses = directed(&p, vec![first, second]);
    assert_eq!(responses[0].write_grants, [true, false]);
    assert_eq!(responses[0].read_grants, [false, true, false, false]);
    assert_eq!(responses[1].read_grants, [true, false, false, false]);
    assert_eq!(&responses[1].read_data[..4], &[1, 2, 3, 4]);
}

#[test]
fn two_writes_to_one_bank_lowest_port_wins_and_the_other_retries() {
    let p = GprParams::default();
    let mut first = GprRequests::idle(&p);
    first.writes = vec![Some(2), Some(2)];
    first.write_data = vec![10, 10, 10, 10, 20, 20, 20, 20];
    let mut second = first.clone();
    second.writes[0] = None;
    let mut third = GprRequests::idle(&p);
    third.reads[3] = Some(2);
    let responses = directed(&p, vec![first, second, third]);
    assert_eq!(responses[0].write_grants, [true, false]);
    assert_eq!(responses[1].write_grants, [false, true]);
    assert_eq!(&responses[2].read_data[12..16], &[20, 20, 20, 20]);
}

#[test]
fn the_comparison_catches_a_model_that_differs_from_the_rtl() {
    // RTL with 4 banks, model with 8 (same register count, same ports): the arbitration
    // differs, and the lock-step comparison must say where.
    let rtl_params = GprParams::default();
    let model_params = GprParams {
        banks: 8,
        ..GprParams::default()
    };
    let mut model = rtl(&rtl_params, 3);
    let mut stimulus = RandomTraffic::new(&model_params, 3);
    let report = run(
        &model_params,
        &mut stimulus,
        10_000,
        Some(&mut model),
        &|_| {},
    );
    assert_eq!(report.lock_step.mismatches, 1);
    let m = report.lock_step.first_mismatch.unwrap();
    assert!(
        m.port.contains("grant") || m.port.contains("read_data"),
        "{m}"
    );
    assert!(m.cycle < 10_000);
    assert!(
        report.cycles == m.cycle + 1,
        "the run stops at the mismatch"
    );
}

#[test]
fn the_comparison_catches_a_model_without_the_rtls_stage() {
    let staged = GprParams {
        pipeline: 1,
        ..GprParams::default()
    };
    let mut device = rtl(&staged, 5);
    let unstaged = GprParams::default();
    let mut stimulus = RandomTraffic::new(&unstaged, 5);
    let report = run(&unstaged, &mut stimulus, 1_000, Some(&mut device), &|_| {});
    let m = report
        .lock_step
        .first_mismatch
        .expect("read data comes a cycle late");
    assert!(m.port.starts_with("read_data"), "{m}");
}

#[test]
fn a_seed_replays_the_same_run() {
    let p = gpr(2, 64, 1, 8, 3, 2);
    let a = random_run(&p, 77, 20_000);
    let b = random_run(&p, 77, 20_000);
    let c = random_run(&p, 78, 20_000);
    assert_eq!(
        (a.requests, a.grants, a.conflicts),
        (b.requests, b.grants, b.conflicts)
    );
    assert_ne!((a.requests, a.grants), (c.requests, c.grants));
}

#[test]
fn waveforms_are_written_on_request() {
    let p = gpr(2, 16, 1, 8, 2, 1);
    let dir = tempfile::tempdir().unwrap();
    for name in ["run.vcd", "run.fst"] {
        let path = dir.path().join(name);
        let setup = Setup {
            waveform: Some(&path),
            ..Setup::new(1, Rtl::On)
        };
        let mut model = GprRtl::build(&p, &setup).unwrap();
        let mut stimulus = RandomTraffic::new(&p, 1);
        let report = run(&p, &mut stimulus, 200, Some(&mut model), &|_| {});
        assert_eq!(report.lock_step.mismatches, 0);
        drop(model);
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 1000, "{name}: {} bytes", bytes.len());
        if name.ends_with(".vcd") {
            let text = String::from_utf8_lossy(&bytes);
            assert!(text.contains("$enddefinitions"));
            assert!(text.contains("read_grant"));
        }
    }
}

/// A model evaluated on two threads (`--verilator-threads 2`) runs the same cycles as one on
/// a single thread: no mismatch over 100k cycles with either.
#[test]
fn a_model_on_two_threads_runs_like_one_on_one() {
    let p = GprParams::default();
    let reports: Vec<_> = [1, 2]
        .into_iter()
        .map(|threads| {
            let setup = Setup {
                threads,
                ..Setup::new(5, Rtl::On)
            };
            let mut model = GprRtl::build(&p, &setup).unwrap();
            let mut stimulus = RandomTraffic::new(&p, 5);
            run(&p, &mut stimulus, 100_000, Some(&mut model), &|_| {})
        })
        .collect();
    for report in &reports {
        assert_eq!(report.lock_step.mismatches, 0, "{report:?}");
        assert_eq!(report.cycles, 100_000);
    }
}
