//! GPR release for occupancy (SPEC S5): the document's example, outputs with and without the
//! release over every uniform assignment of the built-in and 1,000 random shaders, the
//! occupancy formula, packing, and the allocator in lock step with its golden model. Needs
//! `verilator` and `g++` (the Makefile and .ci/run install them).

use grfgen_hdl::params::AllocParams;
use grfgen_sim::alloc::examples::{document, nested, random};
use grfgen_sim::alloc::shader::{parse, Stmt};
use grfgen_sim::alloc::{run, AllocOptions, AllocReport, Placement};
use grfgen_sim::block::{Report, Rtl, Setup};
use grfgen_sim::rng::Rng;

fn params(pool: usize, granularity: usize, wave_slots: usize) -> AllocParams {
    AllocParams {
        pool,
        granularity,
        wave_slots,
    }
}

fn draw(example: &str, uniform: &str, placement: Placement, rtl: Rtl) -> AllocReport {
    let options = AllocOptions {
        uniform: uniform.into(),
        placement,
        waves: 40,
        ..AllocOptions::example(example)
    };
    let report = run(&AllocParams::default(), &options, &Setup::new(1, rtl)).unwrap();
    assert_eq!(
        report.mismatch(),
        None,
        "{example} {uniform} {placement:?}: {report:?}"
    );
    assert!(report.outputs_equal, "{example} {uniform} {placement:?}");
    report
}

/// mode=0 selects the simple path: 4 needed, 16 of 20 released; mode=1 releases nothing.
#[test]
fn the_documents_example_releases_16_of_20_only_on_the_simple_path() {
    let simple = draw("document", "mode=0", Placement::Preamble, Rtl::On);
    assert_eq!((simple.allocated_gprs, simple.needed_gprs), (20, 4));
    assert_eq!(simple.released_gprs, 16);
    assert!(!simple.wave_allocations.is_empty());
    assert!(simple.wave_allocations.iter().all(|&a| a == 4));
    let complex = draw("document", "mode=1", Placement::Preamble, Rtl::On);
    assert_eq!((complex.needed_gprs, complex.released_gprs), (20, 0));
    assert!(!complex.wave_allocations.is_empty());
    assert!(complex.wave_allocations.iter().all(|&a| a == 20));
}

/// The release in the main shader: the first waves run at 20 registers, the rest at 4, and
/// every wave's outputs are right.
#[test]
fn the_main_shader_release_applies_to_later_waves_only() {
    let r = draw("document", "mode=0", Placement::MainShader, Rtl::On);
    let early = r.wave_allocations.iter().take_while(|&&a| a == 20).count();
    assert!(early >= 1, "{:?}", r.wave_allocations);
    assert!(
        r.wave_allocations[early..].iter().all(|&a| a == 4),
        "{:?}",
        r.wave_allocations
    );
    assert_eq!(r.released_gprs, 16);
}

/// P = 96, W = 16, g = 4: a footprint of 20 gives 4 waves, one of 4 gives 16 (the wave
/// slots); the draws reach those peaks.
#[test]
fn occupancy_matches_the_hand_computed_values() {
    let p = AllocParams::default();
    assert_eq!((p.occupancy(20), p.occupancy(4)), (4, 16));
    assert_eq!(
        (p.occupancy(18), p.occupancy(5)),
        (4, 12),
        "rounded up to granules of 4"
    );
    assert_eq!(params(96, 1, 16).occupancy(20), 4);
    assert_eq!(params(64, 8, 1).occupancy(4), 1);
    let none = draw("document", "mode=0", Placement::None, Rtl::Off);
    let cp = draw("document", "mode=0", Placement::CommandProcessor, Rtl::Off);
    assert_eq!((none.peak_resident_waves, cp.peak_resident_waves), (4, 16));
    assert_eq!(none.occupancy, (4, 16));
    assert!(
        cp.cycles < none.cycles,
        "{} against {}",
        cp.cycles,
        none.cycles
    );
}

/// Every uniform value a shader's branches test (and one they do not), for `uniforms`.
fn assignments(text: &str) -> Vec<String> {
    let shader = parse(text).unwrap();
    let mut tested: Vec<Vec<u32>> = vec![vec![7]; shader.uniforms.len()];
    fn conds(block: &[Stmt], tested: &mut Vec<Vec<u32>>) {
        for stmt in block {
            if let Stmt::If(_, cond, then, other) = stmt {
                tested[cond.uniform].push(cond.value);
                conds(then, tested);
                conds(other, tested);
            }
        }
    }
    conds(&shader.main, &mut tested);
    let mut all = vec![String::new()];
    for (name, values) in shader.uniforms.iter().zip(&tested) {
        all = all
            .iter()
            .flat_map(|prefix| values.iter().map(move |v| format!("{prefix}{name}={v},")))
            .collect();
    }
    all
}

/// Runs `text` under every uniform assignment and placement (golden model): the outputs with
/// release equal those as written on each wave's own registers, and no wave touches a
/// register beyond its allocation.
fn release_keeps_outputs(text: &str, seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shader.txt");
    std::fs::write(&path, text).unwrap();
    for uniform in assignments(text) {
        for (placement, _) in Placement::ALL {
            let options = AllocOptions {
                shader: Some(path.to_str().unwrap().into()),
                uniform: uniform.clone(),
                placement,
                waves: 12,
                memory_latency: 5,
                ..AllocOptions::default()
            };
            let report = run(&params(64, 2, 6), &options, &Setup::new(seed, Rtl::Off)).unwrap();
            assert_eq!(
                report.mismatch(),
                None,
                "seed {seed} {uniform} {placement:?}:\n{text}"
            );
            assert!(
                report.outputs_equal,
                "seed {seed} {uniform} {placement:?}:\n{text}"
            );
            assert!(report
                .wave_allocations
                .iter()
                .all(|&a| a >= report.needed_gprs));
        }
    }
}

#[test]
fn release_keeps_every_output_of_the_built_in_and_1000_random_shaders() {
    release_keeps_outputs(&document(), 1);
    release_keeps_outputs(&nested(), 1);
    for seed in 0..1000 {
        release_keeps_outputs(&random(&mut Rng::new(seed)), seed);
    }
}

/// A light path whose registers are written high (r17) touches a register beyond the 4 it is
/// left when registers stay as written; packed from r0, the same shader runs clean.
#[test]
fn packing_keeps_the_light_path_inside_its_allocation() {
    let text = "uniform mode\nmain:\n  ld r0, wave\n  if mode == 1\n".to_string()
        + &(2..8)
            .map(|j| format!("    add r{j}, r0, #{j}\n"))
            .collect::<String>()
        + "    mul r1, r0, r2\n"
        + &(3..8)
            .map(|j| format!("    add r1, r1, r{j}\n"))
            .collect::<String>()
        + "  else\n    add r17, r0, #1\n    mul r1, r0, r17\n  end\n  out r1\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("high.txt");
    std::fs::write(&path, &text).unwrap();
    let options = |pack| AllocOptions {
        shader: Some(path.to_str().unwrap().into()),
        uniform: "mode=0".into(),
        pack,
        waves: 8,
        ..AllocOptions::default()
    };
    let setup = Setup::new(1, Rtl::Off);
    let written = run(&AllocParams::default(), &options(false), &setup).unwrap();
    let m = written
        .lock_step
        .first_mismatch
        .expect("a register beyond the allocation");
    assert!(m.port.contains("register r17 (allocation 4)"), "{m}");
    assert!(!written.outputs_equal);
    let packed = run(&AllocParams::default(), &options(true), &setup).unwrap();
    assert_eq!(packed.mismatch(), None);
    assert!(packed.outputs_equal && packed.released_gprs > 0);
}

/// Random launch, retire, footprint and release traffic in lock step: over 1M cycles across
/// three configurations, g = 1 and W = 1 among them. The invariants hold every cycle.
#[test]
fn lock_step_over_a_million_cycles_of_random_traffic() {
    for (p, cycles, seed) in [
        (AllocParams::default(), 400_000, 31),
        (params(64, 1, 8), 350_000, 32),
        (params(32, 8, 1), 300_000, 33),
    ] {
        let options = AllocOptions {
            cycles,
            ..AllocOptions::example("traffic")
        };
        let report = run(&p, &options, &Setup::new(seed, Rtl::On)).unwrap();
        assert!(report.lock_step.rtl);
        assert_eq!(report.mismatch(), None, "{p:?} seed {seed}");
        assert_eq!(report.cycles, cycles);
        assert!(
            report.launches > cycles / 10 && report.launch_stalls > 0,
            "{report:?}"
        );
        assert!(report.released_gprs > 0);
    }
}
