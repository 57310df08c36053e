//! The emitted hierarchical GRF in Verilator against the golden model.

use grfgen_hdl::params::{GrfParams, GrfStatus};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::check::{Device, Mismatch};
use grfgen_sim::grf::workload::{builtin, random_trace, NAMES};
use grfgen_sim::grf::{
    parse, run, Conditions, GrfCycle, GrfDevice, GrfRequest, GrfRtl, GrfRun, Trace,
};

const L3_LATENCY: u64 = 10;

fn lock_step(params: &GrfParams, trace: &Trace, seed: u64) -> GrfRun {
    let mut device = GrfRtl::build(params, L3_LATENCY, &Setup::new(seed, Rtl::On))
        .expect("Verilator builds the emitted GRF");
    run(
        params,
        trace,
        &Conditions {
            l3_latency: L3_LATENCY,
            max_cycles: 1_000_000,
            ..Conditions::new(seed)
        },
        Some(&mut device as &mut GrfDevice),
    )
}

fn assert_matches(what: &str, report: &GrfRun) {
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{what}: {}",
        report.lock_step.first_mismatch.as_ref().unwrap()
    );
    assert!(!report.stuck, "{what}: did not finish");
}

#[test]
fn every_workload_matches() {
    let params = GrfParams::default();
    for name in NAMES {
        let trace = builtin(name, &params, 3, 6).unwrap();
        let report = lock_step(&params, &trace, 3);
        assert_matches(name, &report);
    }
}

/// Random traffic over every op (waits only with more than one EU: a lone EU parked on a
/// barrier stays there), at least 1,000,000 cycles in all across E = 1, 2, 4 and 8,
/// every fast GRF size, both element widths, slow latencies 2..8, both variant-B mappings and
/// L3 latencies 1..17. Slow (a quarter of an hour on two cores): `make test` has the random
/// traffic of the pipeline options below.
#[test]
#[ignore = "slow (a million co-simulated cycles): scripts/slow-tests.sh runs it"]
fn a_million_cycles_of_random_traffic() {
    use grfgen_hdl::params::Mapping;
    let configs = [
        // (eus, threads, fast, slow, latency, lanes, bits, low blocks, mapping, L3 latency)
        (1, 2, 2, 64, 2, 2, 32, 0, Mapping::None, 10),
        (2, 3, 8, 128, 4, 1, 16, 2, Mapping::Threads(2), 3),
        (4, 2, 4, 128, 3, 2, 32, 0, Mapping::None, 1),
        (4, 4, 16, 256, 5, 1, 32, 4, Mapping::Fraction(50), 17),
        (2, 1, 32, 128, 8, 1, 16, 0, Mapping::None, 6),
        (8, 1, 2, 128, 3, 1, 32, 0, Mapping::None, 2),
    ];
    let mut total = 0;
    for (i, &(eus, threads, fast, slow, latency, lanes, bits, low, mapping, l3)) in
        configs.iter().enumerate()
    {
        let params = GrfParams {
            eus,
            threads,
            fast_regs: fast,
            slow_regs: slow,
            slow_latency: latency,
            lanes,
            element_bits: bits,
            low_energy_blocks: low,
            mapping,
            ..GrfParams::default()
        };
        let mut device_seed = 1000 * i as u64;
        let mut cycles = 0;
        while cycles < 170_000 {
            device_seed += 1;
            let seed = device_seed;
            let trace = random_trace(&params, seed, 200, eus > 1);
            let mut device = GrfRtl::build(&params, l3, &Setup::new(seed, Rtl::On))
                .expect("Verilator builds the emitted GRF");
            let report = run(
                &params,
                &trace,
                &Conditions {
                    l3_latency: l3,
                    max_cycles: 60_000,
                    ..Conditions::new(seed)
                },
                Some(&mut device as &mut GrfDevice),
            );
            assert_eq!(
                report.lock_step.mismatches,
                0,
                "{params:?} L3 latency {l3} seed {seed}: {}",
                report.lock_step.first_mismatch.unwrap()
            );
            cycles += report.cycles;
        }
        total += cycles;
    }
    assert!(total >= 1_000_000);
}

#[test]
fn the_lock_step_catches_a_design_that_differs_from_the_model() {
    // The RTL's slow GRF answers one cycle later than the model's: EU 0 is seen still busy
    // in the cycle the model answers its first slow read. A small file, whose model builds
    // in a third of the default's time.
    let params = small(2, 1);
    let slower = GrfParams {
        slow_latency: params.slow_latency + 1,
        ..params.clone()
    };
    let trace = builtin("streaming", &params, 1, 6).unwrap();
    let mut device = GrfRtl::build(&slower, L3_LATENCY, &Setup::new(1, Rtl::On)).unwrap();
    let report = run(
        &params,
        &trace,
        &Conditions {
            l3_latency: L3_LATENCY,
            max_cycles: 100_000,
            ..Conditions::new(1)
        },
        Some(&mut device as &mut GrfDevice),
    );
    let m = report
        .lock_step
        .first_mismatch
        .expect("the difference is seen");
    assert_eq!(
        (m.port.as_str(), m.expected, m.actual),
        ("req_ready[0]", 1, 0),
        "{m}"
    );
}

/// Per EU, the responses of a run as (cycle, status, lane 0 of the data).
type Log = Vec<Vec<(u64, GrfStatus, u64)>>;

/// The RTL, recording the responses it showed (equal to the model's, or the run stops).
struct Recorder {
    rtl: GrfRtl,
    log: Log,
}

impl Device for Recorder {
    type Input = Vec<Option<GrfRequest>>;
    type Expected = GrfCycle;

    fn cycle(
        &mut self,
        cycle: u64,
        requests: &Vec<Option<GrfRequest>>,
        expected: &GrfCycle,
    ) -> Result<(), Mismatch> {
        let mismatch = self.rtl.cycle(cycle, requests, expected);
        for (eu, response) in expected.responses.iter().enumerate() {
            if let Some(r) = response {
                self.log[eu].push((cycle, r.status, r.data[0]));
            }
        }
        mismatch
    }
}

/// Runs the trace `text` in lock step (zero mismatches asserted) and returns the report and
/// the responses.
fn directed(params: &GrfParams, text: &str) -> (GrfRun, Log) {
    let trace = parse(text, params).unwrap();
    let rtl = GrfRtl::build(params, L3_LATENCY, &Setup::new(7, Rtl::On)).unwrap();
    let mut recorder = Recorder {
        rtl,
        log: vec![Vec::new(); params.eus],
    };
    let report = run(
        params,
        &trace,
        &Conditions {
            l3_latency: L3_LATENCY,
            max_cycles: 100_000,
            ..Conditions::new(7)
        },
        Some(&mut recorder as &mut GrfDevice),
    );
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{}",
        report.lock_step.first_mismatch.as_ref().unwrap()
    );
    (report, recorder.log)
}

fn statuses(log: &[(u64, GrfStatus, u64)]) -> Vec<GrfStatus> {
    log.iter().map(|r| r.1).collect()
}

fn values(log: &[(u64, GrfStatus, u64)]) -> Vec<u64> {
    log.iter().map(|r| r.2).collect()
}

/// A small GRF with the document's timing (no controller stages), which the directed tests'
/// cycle expectations are written for.
fn small(eus: usize, threads: usize) -> GrfParams {
    GrfParams {
        eus,
        threads,
        fast_regs: 2,
        pipeline: 0,
        ..GrfParams::default()
    }
}

#[test]
fn a_dirty_register_is_written_back_when_evicted() {
    // One thread, two fast entries: r0 and r2 share entry 0.
    let params = small(1, 1);
    let (report, log) = directed(
        &params,
        "0 0 write r0 0x11\n\
         0 0 write r2 0x22   # evicts r0 (dirty): write-back, then fill\n\
         0 0 read r0         # miss: from the slow GRF\n\
         0 0 read r2         # miss again: r0 evicted it (clean, no write-back)\n\
         0 0 read r2         # hit\n",
    );
    assert!(!report.stuck);
    assert_eq!(values(&log[0])[2..], [0x11, 0x22, 0x22]);
    assert_eq!((report.stats.fast_hits, report.stats.fast_misses), (1, 4));
    let cycles: Vec<u64> = log[0].iter().map(|r| r.0).collect();
    // A write miss without a victim answers in 2 cycles after being taken; with a dirty
    // victim it waits for the write-back too; a slow read takes the slow latency.
    let gaps: Vec<u64> = cycles.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps[0] > 3, "{cycles:?}");
    assert_eq!(
        gaps[3], 1,
        "a hit answers the cycle after it is taken: {cycles:?}"
    );
}

#[test]
fn a_write_during_a_refill_wins_over_the_refill() {
    // r3 is written back (evicted by r5) into the slow GRF while block 0 is being refilled
    // after a switch: the refill must not overwrite it. r4 comes from L3.
    let params = small(1, 1);
    let (report, log) = directed(
        &params,
        "0 0 switch b0\n\
         0 0 write r3 0x33\n\
         0 0 write r5 0x55   # evicts r3 into the slow GRF during the refill\n\
         0 0 read r3\n\
         0 0 read r4\n\
         0 0 idle 100\n\
         0 0 read r3         # after the refill\n\
         0 0 read r14\n",
    );
    let l3 = grfgen_sim::grf::l3::new_l3(&params, L3_LATENCY, 7);
    // Thread 0's block 0 is physical block 0; the switch loads area 1.
    let from_l3 = |offset: usize| l3.word(params.slow_regs + offset)[0];
    let v = values(&log[0]);
    assert_eq!(v[3..], [0x33, from_l3(4), 0x33, from_l3(14)]);
    assert!(report.stats.redirects >= 1, "{:?}", report.stats);
}

#[test]
fn two_eus_missing_in_the_same_cycle_are_served_in_turn() {
    // EU 2 opens the barrier EUs 0 and 1 wait on; both then miss on r0 in the same cycle.
    let params = small(3, 1);
    let (_, log) = directed(
        &params,
        "0 0 write r0 0xa0\n\
         0 0 write r2 0xa2   # evicts r0 to the slow GRF\n\
         0 0 read r0         # evicts r2 to the slow GRF\n\
         0 0 read r2         # r2 clean in the fast GRF: a later r0 miss needs no write-back\n\
         1 0 write r0 0xb0\n\
         1 0 write r2 0xb2\n\
         1 0 read r0\n\
         1 0 read r2\n\
         0 0 idle 30\n\
         1 0 idle 30\n\
         0 0 wait g1\n\
         1 0 wait g1\n\
         0 0 read r0\n\
         1 0 read r0\n\
         2 0 alloc b1 g1\n\
         2 0 idle 60\n\
         2 0 write r16 1     # the group's one access: the barrier opens\n",
    );
    assert_eq!(
        log[0][4].0, log[1][4].0,
        "both waits answered in the same cycle"
    );
    assert_eq!((log[0][5].2, log[1][5].2), (0xa0, 0xb0));
    let latency = params.slow_latency as u64;
    // Both miss the cycle after the barrier; round robin from EU 2 (served last): EU 0 is
    // taken first and answered a slow read later, EU 1 a slow read after that.
    assert_eq!(log[0][5].0 - log[0][4].0, 2 + latency);
    assert_eq!(log[1][5].0 - log[0][5].0, latency);
}

#[test]
fn a_shared_block_is_freed_when_its_last_reference_goes() {
    // Four physical blocks, nothing pre-allocated.
    let params = GrfParams {
        slow_regs: 64,
        preallocated: 0,
        ..small(2, 1)
    };
    let (report, log) = directed(
        &params,
        "0 0 alloc b0 g1     # block 0 becomes group 1's\n\
         0 0 write r0 0x77\n\
         1 0 idle 20\n\
         1 0 alloc b2 g1     # the same block: 2 references\n\
         1 0 read r32        # EU 0's value, through the slow GRF\n\
         0 0 idle 40\n\
         0 0 release b0      # 1 reference left: still allocated\n\
         1 0 idle 40\n\
         1 0 read r32\n\
         1 0 alloc b0\n\
         1 0 alloc b1\n\
         1 0 alloc b3        # blocks 1, 2, 3 in use\n\
         1 0 release b2      # last reference: block 0 is free again\n\
         1 0 alloc b2        # takes block 0\n\
         1 0 alloc b2        # already mapped\n\
         0 0 idle 200\n\
         0 0 alloc b1        # nothing free\n",
    );
    use GrfStatus::*;
    assert_eq!(statuses(&log[0]), [Ok, Ok, Ok, NoFreeBlock]);
    assert_eq!(
        statuses(&log[1]),
        [Ok, Ok, Ok, Ok, Ok, Ok, Ok, Ok, AlreadyMapped]
    );
    assert_eq!((log[1][1].2, log[1][2].2), (0x77, 0x77));
    assert_eq!(report.stats.l3_reads + report.stats.l3_writes, 0);
}

#[test]
fn a_barrier_with_one_participant_opens_on_its_access_and_rearms() {
    let params = small(1, 1);
    let (report, log) = directed(
        &params,
        "0 0 alloc b1 g2\n\
         0 0 write r16 5\n\
         0 0 wait g2         # one reference, one access: opens at once\n\
         0 0 wait g2         # re-armed: nobody else can access, so it stays parked\n",
    );
    assert_eq!(statuses(&log[0]), [GrfStatus::Ok; 3]);
    assert!(report.stuck, "the second wait parks for good");
}

#[test]
fn a_barrier_with_every_eu_opens_after_the_last_access() {
    let params = small(4, 1);
    let mut text = String::new();
    for eu in 0..4 {
        text += &format!("{eu} 0 alloc b1 g3\n{eu} 0 idle {}\n", 10 + 15 * eu);
        text += &format!("{eu} 0 write r{} {}\n{eu} 0 wait g3\n", 16 + eu, 100 + eu);
        text += &format!("{eu} 0 read r{}\n", 16 + (eu + 1) % 4);
    }
    let (report, log) = directed(&params, &text);
    let last_write = (0..4).map(|eu| log[eu][1].0).max().unwrap();
    for eu in 0..4 {
        assert_eq!(statuses(&log[eu]), [GrfStatus::Ok; 4], "EU {eu}");
        assert!(log[eu][2].0 >= last_write, "EU {eu} passed early: {log:?}");
        assert_eq!(log[eu][3].2, 100 + (eu as u64 + 1) % 4, "EU {eu}");
    }
    // The exchange went through the slow GRF: no L3 traffic.
    assert_eq!(report.stats.l3_reads + report.stats.l3_writes, 0);
}

#[test]
fn a_context_switch_in_the_middle_of_a_stream_round_trips_through_l3() {
    let params = GrfParams::default();
    let mut text = String::new();
    for r in 0..16 {
        text += &format!("0 1 write r{r} {}\n", 0x100 + r);
    }
    text += "0 1 read r1\n0 1 switch b0\n";
    for r in 0..16 {
        text += &format!("0 1 read r{r}\n");
    }
    text += "0 1 switch b0\n";
    for r in 0..16 {
        text += &format!("0 1 read r{r}\n");
    }
    let (report, log) = directed(&params, &text);
    let l3 = grfgen_sim::grf::l3::new_l3(&params, L3_LATENCY, 7);
    // Thread 1 of EU 0 has physical block 1; its other context is L3 area 1.
    let other: Vec<u64> = (0..16)
        .map(|r| l3.word(params.slow_regs + 16 + r)[0])
        .collect();
    let mine: Vec<u64> = (0..16).map(|r| 0x100 + r).collect();
    let v = values(&log[0]);
    assert_eq!(v[16], 0x101);
    assert_eq!(v[18..34], other[..]);
    assert_eq!(v[35..51], mine[..]);
    assert!(
        report.stats.redirects > 0 && report.stats.l3_writes == 32,
        "{:?}",
        report.stats
    );
}

#[test]
fn every_fault_kind_is_reported_counted_and_harmless() {
    // Four physical blocks: EU 0's and EU 1's pre-allocated ones and two free.
    let params = GrfParams {
        slow_regs: 64,
        ..small(2, 1)
    };
    let (report, log) = directed(
        &params,
        "0 0 write r1 0x5a\n\
         0 0 read r20        # block 1 unmapped\n\
         0 0 write r33 1     # block 2 unmapped: the value goes nowhere\n\
         0 0 switch b3       # unmapped\n\
         0 0 release b1      # not owned\n\
         0 0 alloc b0        # already mapped\n\
         0 0 wait g4         # no such group\n\
         0 0 alloc b1\n\
         0 0 alloc b2        # the last free block\n\
         0 0 alloc b3        # no free block\n\
         0 0 read r1\n\
         0 0 read r33\n",
    );
    use GrfStatus::*;
    assert_eq!(
        statuses(&log[0]),
        [
            Ok,
            Unmapped,
            Unmapped,
            Unmapped,
            NotOwned,
            AlreadyMapped,
            NoSuchGroup,
            Ok,
            Ok,
            NoFreeBlock,
            Ok,
            Ok
        ]
    );
    assert_eq!(values(&log[0])[10..], [0x5a, 0], "faults changed nothing");
    assert_eq!(report.stats.faults, 7);
    assert!(!report.stuck);
}

#[test]
fn a_group_dying_turns_its_waiters_away() {
    // EU 1 waits on group 5 without belonging to it; the group's only member leaves.
    let params = small(2, 1);
    let (report, log) = directed(
        &params,
        "0 0 alloc b1 g5\n\
         0 0 idle 40\n\
         0 0 release b1\n\
         1 0 idle 10\n\
         1 0 wait g5\n\
         1 0 read r0\n",
    );
    assert!(!report.stuck);
    assert_eq!(statuses(&log[0]), [GrfStatus::Ok; 2]);
    assert_eq!(statuses(&log[1]), [GrfStatus::NoSuchGroup, GrfStatus::Ok]);
    assert_eq!(
        log[1][0].0, log[0][1].0,
        "turned away when the release is answered"
    );
}

/// The directed run of `text` on `params` with `pipeline`: its report, and per EU the cycles
/// its answers came in.
fn answer_times(params: GrfParams, pipeline: usize, text: &str) -> (GrfRun, Vec<Vec<u64>>) {
    let params = GrfParams { pipeline, ..params };
    let (report, log) = directed(&params, text);
    let times = log
        .iter()
        .map(|eu| eu.iter().map(|r| r.0).collect())
        .collect();
    (report, times)
}

/// The directed run of `text` on one EU with one thread and `pipeline`: per answer, the cycles
/// since the answer before it (the first: since the start). The run must not get stuck.
fn answer_gaps(text: &str, pipeline: usize) -> Vec<u64> {
    let (report, times) = answer_times(small(1, 1), pipeline, text);
    assert!(!report.stuck);
    let mut gaps = vec![times[0][0]];
    gaps.extend(times[0].windows(2).map(|w| w[1] - w[0]));
    gaps
}

/// The pick stage (`pipeline` 1), the entry looked up as it loads (`pipeline` 2), the
/// bookkeeping a cycle later (`pipeline` 3), the switch's search registered (`pipeline` 4) and
/// the answer registered at the front end (`pipeline` 5): random traffic in lock step, at least
/// 100,000 cycles each across one, two and four EUs.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn the_pick_stage_100k_random_cycles() {
    let files: Vec<GrfParams> = [1, 2, 4]
        .map(|eus| GrfParams {
            eus,
            fast_regs: 4,
            slow_regs: 128,
            ..GrfParams::default()
        })
        .to_vec();
    for pipeline in 1..=GrfParams::MAX_PIPELINE {
        pick_stage_cycles(&files, pipeline, 100_000);
    }
}

/// The quick cut of the test above, for `make test`: every stage option on one EU count each
/// (two EUs on options 1 to 3, one on 4 and 5), at least 20,000 cycles each, on the small
/// files of the directed tests (two fast registers, one thread), whose models they build anyway.
#[test]
fn the_pick_stage_20k_random_cycles_on_one_eu_count_each() {
    for pipeline in 1..=GrfParams::MAX_PIPELINE {
        let eus = [2, 2, 2, 1, 1][pipeline - 1];
        pick_stage_cycles(&[small(eus, 1)], pipeline, 20_000);
    }
}

/// At least `min_cycles` lock-step cycles of random traffic with `pipeline`, on each file of
/// `files` in turn.
fn pick_stage_cycles(files: &[GrfParams], pipeline: usize, min_cycles: u64) {
    let mut cycles = 0;
    for (i, file) in files.iter().cycle().enumerate() {
        if cycles >= min_cycles {
            break;
        }
        let params = GrfParams {
            pipeline,
            ..file.clone()
        };
        let eus = params.eus;
        let seed = 500 + i as u64;
        // Waits only with more than one EU; random waits can leave an EU parked for good,
        // which ends the run early: the cycles run are what count.
        let trace = random_trace(&params, seed, 200, eus > 1);
        let report = lock_step(&params, &trace, seed);
        assert_eq!(
            report.lock_step.mismatches,
            0,
            "{params:?} seed {seed}: {}",
            report.lock_step.first_mismatch.unwrap()
        );
        cycles += report.cycles;
    }
}

/// With the pick stage a miss is answered one cycle later, and two misses in the same cycle
/// are still served back to back.
#[test]
fn the_pick_stage_delays_each_answer_by_one_cycle_not_the_next() {
    // Both EUs miss on a cold fast GRF in the first cycle: one transaction each, no victim.
    let trace = "0 0 read r0\n1 0 read r0\n";
    let answers = |pipeline| {
        let params = GrfParams {
            pipeline,
            ..small(2, 1)
        };
        let (_, log) = directed(&params, trace);
        (log[0][0].0, log[1][0].0)
    };
    let (direct, staged) = (answers(0), answers(1));
    assert_eq!(staged.0, direct.0 + 1, "EU 0's miss: {direct:?} {staged:?}");
    assert_eq!(staged.1, direct.1 + 1, "EU 1's miss: {direct:?} {staged:?}");
    assert_eq!(answers(2), staged, "the early lookup costs no cycle");
}

/// With the bookkeeping a cycle later (`pipeline` 3) the group's own answers (an opening
/// barrier's, a dying group's, an open `wait`'s) come one cycle later than with `pipeline` 2;
/// every other answer keeps its cycle.
#[test]
fn the_bookkeeping_stage_delays_only_the_groups_answers() {
    let times = |text: &str, pipeline| answer_times(small(2, 1), pipeline, text);
    // EU 1 parks on group 5; EU 0, its only member, opens the barrier with a write (which
    // re-arms it: one reference, one EU passed), opens it again with a second write and
    // waits at the open barrier itself; then leaves while EU 1 waits again: the group dies.
    let text = "0 0 alloc b1 g5\n\
                0 0 idle 40\n\
                0 0 write r16 7\n\
                0 0 idle 5\n\
                0 0 write r16 8\n\
                0 0 idle 10\n\
                0 0 wait g5\n\
                0 0 idle 40\n\
                0 0 release b1\n\
                1 0 idle 10\n\
                1 0 wait g5\n\
                1 0 idle 30\n\
                1 0 wait g5\n";
    let (two, before) = times(text, 2);
    let (three, after) = times(text, 3);
    assert!(!two.stuck && !three.stuck);
    // EU 0: the alloc and the writes keep their cycles; the wait at the open barrier is a
    // cycle later, and so the release that follows it.
    assert_eq!(after[0].len(), 5);
    assert_eq!(after[0][..3], before[0][..3], "alloc and writes");
    assert_eq!(after[0][3], before[0][3] + 1, "wait at the open barrier");
    assert_eq!(
        after[0][4],
        before[0][4] + 1,
        "release, issued a cycle later"
    );
    // EU 1: let through by the write, turned away by the release, each a cycle later
    // than the answer to the access or release that decides it.
    assert_eq!(after[1].len(), 2);
    assert_eq!(
        before[1][0], before[0][1],
        "let through with the write's answer"
    );
    assert_eq!(
        after[1][0],
        after[0][1] + 1,
        "let through a cycle after the write's answer"
    );
    assert_eq!(
        before[1][1], before[0][4],
        "turned away with the release's answer"
    );
    assert_eq!(
        after[1][1],
        after[0][4] + 1,
        "turned away a cycle after the release's answer"
    );
}

/// With the switch's search registered (`pipeline` 4) a switch is answered one cycle later
/// than with `pipeline` 3, whatever its dirty entries, and every other answer keeps its cycle.
#[test]
fn the_registered_search_delays_each_switch_by_one_cycle() {
    // Two dirty entries of block 0, then a switch that writes both back; a read after the
    // switch; a switch with nothing dirty. Each waits until the one before has settled (the
    // switch's save to L3 included), so that each is timed alone.
    let text = "0 0 write r0 1\n\
                0 0 write r1 2\n\
                0 0 switch b0\n\
                0 0 idle 200\n\
                0 0 read r1\n\
                0 0 idle 200\n\
                0 0 switch b0\n";
    let (before, after) = (answer_gaps(text, 3), answer_gaps(text, 4));
    assert_eq!(after.len(), 5);
    assert_eq!(after[..2], before[..2], "writes");
    assert_eq!(after[2], before[2] + 1, "switch with two dirty entries");
    assert_eq!(after[3], before[3], "read");
    assert_eq!(after[4], before[4] + 1, "switch with none dirty");
}

/// With the answer registered at the front end (`pipeline` 5) every answered transaction takes
/// one cycle more than with `pipeline` 4, and a hit keeps its cycle.
#[test]
fn the_answer_stage_delays_each_answered_transaction_by_one_cycle() {
    // Two fast entries: r0 and r2 share entry 0. A write miss on a cold fast GRF, a read that
    // hits it, a write miss on the other entry, a read that misses on entry 0 (its dirty
    // victim written back after the answer: two transactions), and a switch that writes r1
    // back before it goes out (two transactions).
    let text = "0 0 write r0 1\n\
                0 0 read r0\n\
                0 0 write r1 2\n\
                0 0 read r2\n\
                0 0 idle 200\n\
                0 0 switch b0\n";
    let (before, after) = (answer_gaps(text, 4), answer_gaps(text, 5));
    assert_eq!(after.len(), 5);
    assert_eq!(after[0], before[0] + 1, "write miss");
    assert_eq!(after[1], before[1], "read hit");
    assert_eq!(after[2], before[2] + 1, "write miss, clean victim");
    assert_eq!(after[3], before[3] + 2, "read miss, dirty victim");
    assert_eq!(after[4], before[4] + 2, "switch with one dirty entry");
}
