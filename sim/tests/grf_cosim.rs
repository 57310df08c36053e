//! The emitted hierarchical GRF in Verilator against the golden model.

use grfgen_hdl::params::GrfParams;
use grfgen_sim::grf::workload::{builtin, random_trace, NAMES};
use grfgen_sim::grf::{run, Device, Energy, GrfRtl, GrfRun, Trace};
use grfgen_sim::verilator::BuildOptions;

const L3_LATENCY: u64 = 10;

fn lock_step(params: &GrfParams, trace: &Trace, seed: u64) -> GrfRun {
    let mut device = GrfRtl::build(params, L3_LATENCY, seed, &BuildOptions::default(), None)
        .expect("Verilator builds the emitted GRF");
    run(
        params,
        trace,
        false,
        L3_LATENCY,
        seed,
        &Energy::default(),
        1_000_000,
        Some(&mut device as &mut dyn Device),
    )
}

fn assert_matches(what: &str, report: &GrfRun) {
    assert_eq!(
        report.mismatches,
        0,
        "{what}: {}",
        report.first_mismatch.as_ref().unwrap()
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
/// L3 latencies 1..17.
#[test]
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
            let mut device = GrfRtl::build(&params, l3, seed, &BuildOptions::default(), None)
                .expect("Verilator builds the emitted GRF");
            let report = run(
                &params,
                &trace,
                false,
                l3,
                seed,
                &Energy::default(),
                60_000,
                Some(&mut device as &mut dyn Device),
            );
            assert_eq!(
                report.mismatches,
                0,
                "{params:?} L3 latency {l3} seed {seed}: {}",
                report.first_mismatch.unwrap()
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
    // in the cycle the model answers its first slow read.
    let params = GrfParams::default();
    let slower = GrfParams {
        slow_latency: params.slow_latency + 1,
        ..params.clone()
    };
    let trace = builtin("streaming", &params, 1, 6).unwrap();
    let mut device = GrfRtl::build(&slower, L3_LATENCY, 1, &BuildOptions::default(), None).unwrap();
    let report = run(
        &params,
        &trace,
        false,
        L3_LATENCY,
        1,
        &Energy::default(),
        100_000,
        Some(&mut device as &mut dyn Device),
    );
    let m = report.first_mismatch.expect("the difference is seen");
    assert_eq!(
        (m.port.as_str(), m.expected, m.actual),
        ("req_ready$0", 1, 0),
        "{m}"
    );
}
