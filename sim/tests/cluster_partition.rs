//! Virtual-register partitioning (SPEC S4): the document's two figures, exactly; each rule
//! and its negative cases; and 10,000 random programs that must compute the same outputs after
//! partitioning, keep every cluster to its own local file, and write every global register
//! before reading it.

use grfgen_sim::cluster::kernels::random_program;
use grfgen_sim::cluster::{
    allocate, foreign_local_access, interpret, parse, partition, run_allocated, ClusterOp,
    Physical, Reg, EXAMPLES, FIG11, FIG13,
};
use grfgen_sim::rng::Rng;

fn listing(text: &str) -> Vec<String> {
    let program = parse(text, 3).unwrap();
    partition(&program)
        .program
        .iter()
        .map(|i| i.to_string())
        .collect()
}

#[test]
fn fig11_comes_out_as_the_document_draws_it() {
    let ranges = partition(&parse(FIG11, 3).unwrap()).ranges;
    assert_eq!(ranges.len(), 1);
    assert_eq!(ranges[0].owner, 1, "C1 owns the range: 3 of 6 accesses");
    assert_eq!(
        listing(FIG11),
        [
            "c2: mov v2, #7",   // 1128: W VR2 (the writer's own copy)
            "c2: mov mvr0, v2", //       MOV MVR0, VR2
            "c1: mov v1, mvr0", //       MOV VR1, MVR0 (run by C1, the owner)
            "c1: out v1",       // 1126: C1 unchanged
            "c1: out v1",
            "c1: out v1",
            "c3: out mvr0", // 1132: R MVR0
            "c2: out v2",   // 1130: R VR2
        ]
    );
}

#[test]
fn fig13_comes_out_as_the_document_draws_it() {
    let ranges = partition(&parse(FIG13, 3).unwrap()).ranges;
    assert_eq!(ranges.iter().map(|r| r.owner).collect::<Vec<_>>(), [2, 2]);
    assert_eq!(
        listing(FIG13),
        [
            "c2: mov v1, #3",   // 1330: W VR1
            "c2: mov mvr0, v1", //       MOV MVR0, VR1
            "c1: out mvr0",     // 1326: R MVR0
            "c3: out mvr0",     // 1336: R MVR0
            "c2: out v1",       // 1332: R VR1
            "c3: mov mvr0, #4", // 1338: W MVR0
            "c2: mov v1, mvr0", //       MOV VR1, MVR0 (run by C2, the owner)
            "c2: out v1",       // 1334: R VR1
            "c2: out v1",
            "c1: out mvr0", // 1328: R MVR0
        ]
    );
}

#[test]
fn the_examples_compute_what_they_computed_before() {
    for (name, text) in EXAMPLES {
        let program = parse(text, 3).unwrap();
        let after = partition(&program);
        assert_eq!(
            interpret(&after.program, 1).unwrap(),
            interpret(&program, 1).unwrap(),
            "{name}"
        );
        assert_eq!(foreign_local_access(&after.program), None, "{name}");
    }
}

#[test]
fn r1_copies_out_only_for_other_readers() {
    // The owner writes and only the owner reads: nothing inserted.
    assert_eq!(
        listing("c1: mov v1, #1\nc1: out v1\nc1: out v1"),
        ["c1: mov v1, #1", "c1: out v1", "c1: out v1"]
    );
    // The owner writes, another cluster reads: MOV MVR, VR right after the write.
    assert_eq!(
        listing("c1: mov v1, #1\nc1: out v1\nc2: out v1"),
        [
            "c1: mov v1, #1",
            "c1: mov mvr0, v1",
            "c1: out v1",
            "c2: out mvr0"
        ]
    );
}

#[test]
fn r2_reads_the_main_copy_once_or_copies_it_in() {
    // One read in a non-owner cluster: it reads MVR, no MOV.
    let one = listing("c1: mov v1, #1\nc1: out v1\nc3: add v2, v1, #1\nc3: out v2");
    assert_eq!(
        one,
        [
            "c1: mov v1, #1",
            "c1: mov mvr0, v1",
            "c1: out v1",
            "c3: add v2, mvr0, #1",
            "c3: out v2"
        ]
    );
    // Two reads: MOV VRn, MVR before the first, both read VRn.
    let two = listing("c1: mov v1, #1\nc1: out v1\nc1: out v1\nc3: out v1\nc3: out v1");
    assert_eq!(
        two,
        [
            "c1: mov v1, #1",
            "c1: mov mvr0, v1",
            "c1: out v1",
            "c1: out v1",
            "c3: mov v2, mvr0",
            "c3: out v2",
            "c3: out v2"
        ]
    );
}

#[test]
fn r3_writes_through_the_main_file_back_to_the_owner() {
    // A non-owner writes and does not read: it writes MVR; MOV VR, MVR on the owner.
    assert_eq!(
        listing("c2: mov v1, #5\nc1: out v1\nc1: out v1"),
        [
            "c2: mov mvr0, #5",
            "c1: mov v1, mvr0",
            "c1: out v1",
            "c1: out v1"
        ]
    );
    // It writes and reads: its own VRn, then MOV MVR, VRn and MOV VR, MVR.
    assert_eq!(
        listing("c2: mov v1, #5\nc1: out v1\nc1: out v1\nc1: out v1\nc2: out v1"),
        [
            "c2: mov v2, #5",
            "c2: mov mvr0, v2",
            "c1: mov v1, mvr0",
            "c1: out v1",
            "c1: out v1",
            "c1: out v1",
            "c2: out v2"
        ]
    );
}

#[test]
fn an_input_read_by_other_clusters_is_copied_out_first() {
    assert_eq!(
        listing("c1: out v4\nc1: out v4\nc2: out v4"),
        [
            "c1: mov mvr0, v4",
            "c1: out v4",
            "c1: out v4",
            "c2: out mvr0"
        ]
    );
}

#[test]
fn an_instruction_reading_and_writing_one_register_ends_one_range_and_starts_the_next() {
    let program = parse("c1: mov v1, #2\nc2: add v1, v1, #1\nc2: out v1", 3).unwrap();
    let after = partition(&program);
    assert_eq!(after.ranges.len(), 2);
    assert_eq!(after.ranges[0].owner, 1, "tie 1-1: the writer's cluster");
    assert_eq!(after.ranges[1].owner, 2);
    assert_eq!(
        interpret(&after.program, 7).unwrap(),
        interpret(&program, 7).unwrap()
    );
    assert_eq!(foreign_local_access(&after.program), None);
}

/// Fig. 14: the two live ranges of VR1 share one local register of C2, and the two of MVR0 one
/// main register.
#[test]
fn fig14_non_overlapping_ranges_share_a_physical_register() {
    let after = partition(&parse(FIG13, 3).unwrap());
    let alloc = allocate(&after, 3, 4, 4).unwrap();
    let writes = |cluster: Option<usize>, reg: Reg| -> Vec<Physical> {
        (0..alloc.program.len())
            .filter(|&i| alloc.program[i].dst == Some(reg))
            .filter(|&i| cluster.is_none_or(|c| alloc.program[i].cluster == c))
            .map(|i| alloc.dst[i].unwrap())
            .collect()
    };
    let local = writes(Some(2), Reg::Virtual(1));
    assert_eq!(local, [Physical::Local(0), Physical::Local(0)]);
    let main = writes(None, Reg::Main(0));
    assert_eq!(main, [Physical::Main(0), Physical::Main(0)]);
    assert_eq!(alloc.local_used, [0, 1, 0]);
    assert_eq!((alloc.main_used, alloc.spills), (1, 0));
}

#[test]
fn a_full_local_file_spills_to_the_main_file_and_a_full_main_file_is_an_error() {
    // Four values live at once in cluster 1, two local registers: two are spilled.
    let text = "c1: mov v1, #1\nc1: mov v2, #2\nc1: mov v3, #3\nc1: mov v4, #4\n\
                c1: out v1\nc1: out v2\nc1: out v3\nc1: out v4";
    let program = parse(text, 1).unwrap();
    let alloc = allocate(&partition(&program), 1, 2, 8).unwrap();
    assert_eq!(
        (alloc.spills, alloc.local_used.clone(), alloc.main_used),
        (2, vec![2], 2)
    );
    assert_eq!(
        run_allocated(&alloc, 1, 3),
        Ok(interpret(&program, 3).unwrap())
    );
    let full = allocate(&partition(&program), 1, 2, 1).unwrap_err();
    assert_eq!(full.needed, 2);
}

#[test]
fn ten_thousand_random_programs_keep_their_outputs_and_their_locality() {
    for seed in 0..10_000u64 {
        let mut rng = Rng::new(seed);
        let clusters = 2 + rng.below(3);
        let count = 20 + rng.below(181);
        let registers = 2 + rng.below(12);
        let program = random_program(clusters, count, registers, &mut rng);
        let after = partition(&program);
        let reference = interpret(&program, seed).unwrap();
        let text: Vec<String> = program.iter().map(|i| i.to_string()).collect();
        let replay = || format!("seed {seed}:\n{}", text.join("\n"));
        assert_eq!(
            interpret(&after.program, seed),
            Ok(reference.clone()),
            "{}",
            replay()
        );
        assert_eq!(foreign_local_access(&after.program), None, "{}", replay());
        // The rewrite only adds MOVs: every original instruction is there, in order, on its
        // cluster and with its operation; every other one is a MOV.
        let kept: Vec<(usize, ClusterOp)> = (after.program.iter().zip(&after.original))
            .filter(|(_, &original)| original)
            .map(|(i, _)| (i.cluster, i.op))
            .collect();
        let given: Vec<(usize, ClusterOp)> = program.iter().map(|i| (i.cluster, i.op)).collect();
        assert_eq!(kept, given, "{}", replay());
        assert!(
            (after.program.iter().zip(&after.original)).all(|(i, &o)| o || i.op == ClusterOp::Mov),
            "{}",
            replay()
        );
        // Local files of 1-3 registers force spills; the clustered files, register by
        // register, still give the reference outputs.
        let local_regs = 1 + rng.below(3);
        let alloc = allocate(&after, clusters, local_regs, 64).unwrap();
        assert!(
            alloc.local_used.iter().all(|&n| n <= local_regs),
            "{}",
            replay()
        );
        let run = run_allocated(&alloc, clusters, seed);
        assert_eq!(run, Ok(reference), "local {local_regs}: {}", replay());
        assert_eq!(foreign_local_access(&alloc.program), None, "{}", replay());
    }
}

/// The document's hand counts: Fig. 11 serves 5 of its 6 accesses locally after partitioning,
/// Fig. 13 4 of 8; the baseline (every shared register in the main file) serves none.
#[test]
fn the_figures_serve_the_hand_counted_accesses_locally() {
    use grfgen_hdl::params::ClusterParams;
    use grfgen_sim::cluster::compile_report;
    let params = ClusterParams::default();
    for (text, local, total, movs) in [(FIG11, 5, 6, 2), (FIG13, 4, 8, 2)] {
        let program = parse(text, 3).unwrap();
        let (_, _, report) = compile_report(&program, &params, false).unwrap();
        assert_eq!(
            (report.local_accesses, report.accesses, report.movs),
            (local, total, movs)
        );
        let (_, _, base) = compile_report(&program, &params, true).unwrap();
        assert_eq!(
            (base.local_accesses, base.accesses, base.movs),
            (0, total, 0)
        );
    }
}

/// The baseline computes the same outputs, on the clustered files too.
#[test]
fn the_baseline_keeps_the_outputs_of_a_thousand_random_programs() {
    use grfgen_sim::cluster::{baseline, interpret_partitioned};
    for seed in 0..1_000u64 {
        let mut rng = Rng::new(seed);
        let clusters = 2 + rng.below(3);
        let program = random_program(clusters, 20 + rng.below(181), 2 + rng.below(12), &mut rng);
        let reference = interpret(&program, seed).unwrap();
        let base = baseline(&program);
        assert_eq!(
            interpret_partitioned(&base, seed),
            Ok(reference.clone()),
            "seed {seed}"
        );
        let alloc = allocate(&base, clusters, 1 + rng.below(3), 64).unwrap();
        assert_eq!(
            run_allocated(&alloc, clusters, seed),
            Ok(reference),
            "seed {seed}"
        );
        assert_eq!(foreign_local_access(&alloc.program), None, "seed {seed}");
    }
}

/// The highest register numbers a program may name compile and run like low ones: the
/// compiler keeps no table indexed by register number.
#[test]
fn the_highest_register_numbers_compile_like_low_ones() {
    use grfgen_hdl::params::ClusterParams;
    use grfgen_sim::cluster::{compile_report, MAX_REGISTER};
    let text = |a: usize, b: usize| {
        format!("c1: mov v{a}, #5\nc2: add v{b}, v{a}, #1\nc1: out v{b}\nc3: out v{a}\n")
    };
    let params = ClusterParams::default();
    let low = parse(&text(1, 2), 3).unwrap();
    let high = parse(&text(MAX_REGISTER - 1, MAX_REGISTER), 3).unwrap();
    let (_, _, low_report) = compile_report(&low, &params, false).unwrap();
    let (_, _, high_report) = compile_report(&high, &params, false).unwrap();
    assert_eq!(high_report.allocated, low_report.allocated);
    assert_eq!(interpret(&high, 1).unwrap(), interpret(&low, 1).unwrap());
}
