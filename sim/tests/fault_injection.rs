//! A one-bit fault injected into a copy of the emitted GPR is reported by the lock-step run at
//! the first cycle where it shows, on the port where it shows, with the expected and actual
//! values. Needs `verilator` and `g++` (the Makefile and .ci/run install them).

use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::waivers;
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::GprParams;
use grfgen_sim::gpr::{run, GprModel, GprRequests, GprResponse, GprRtl, GprStimulus};
use grfgen_sim::gpr::{GprReport, RandomTraffic};
use grfgen_sim::verilator::{self, verilator_seed, BuildOptions};

const SEED: u64 = 5;
const CYCLES: u64 = 20_000;

/// The emitted default GPR with the top's connection `from` replaced by `to`, and `extra`
/// lines added before its `endmodule`.
fn faulty_verilog(params: &GprParams, from: &str, to: &str, extra: &str) -> (String, String) {
    let emitted = emit_design::<Gpr>(params, &Gpr::top(params)).expect("the GPR emits");
    let text = emitted.simulation_text();
    assert_eq!(text.matches(from).count(), 1, "{from} is in the top once");
    let faulty = text.replacen(from, to, 1);
    let end = faulty.find("endmodule").expect("the top ends");
    let faulty = format!("{}{extra}\n{}", &faulty[..end], &faulty[end..]);
    (emitted.top, faulty)
}

/// Runs the faulty design against the golden model from `SEED`.
fn run_faulty(params: &GprParams, from: &str, to: &str, extra: &str) -> GprReport {
    let (top, verilog) = faulty_verilog(params, from, to, extra);
    let emitted = emit_design::<Gpr>(params, &top).expect("the GPR emits");
    let design = verilator::Design {
        top: &top,
        verilog: &verilog,
        waivers: &waivers(&top),
        ports: &emitted.ports,
    };
    let options = BuildOptions {
        seed: verilator_seed(SEED),
        ..BuildOptions::default()
    };
    let model = verilator::build(&design, &options, None).expect("the faulty copy verilates");
    let mut rtl = GprRtl::with_model(params, model).expect("the copy has the GPR's ports");
    let mut stimulus = RandomTraffic::new(params, SEED);
    run(params, &mut stimulus, CYCLES, Some(&mut rtl), &|_| {})
}

/// The golden model alone from `SEED`: the first cycle where `shows` holds of its response.
fn first_cycle(params: &GprParams, shows: impl Fn(&GprResponse) -> bool) -> u64 {
    let mut model = GprModel::new(params);
    let mut stimulus = RandomTraffic::new(params, SEED);
    let mut requests = GprRequests::idle(params);
    let mut response = GprResponse::new(params);
    for cycle in 0..CYCLES {
        assert!(stimulus.next(cycle, &response, &mut requests));
        model.step(&requests, &mut response);
        if shows(&response) {
            return cycle;
        }
    }
    panic!("the fault never shows in {CYCLES} cycles");
}

/// The mismatch `report` stopped at: at `cycle`, on `port`, the run ending there.
fn found_at(report: GprReport, cycle: u64, port: &str) -> grfgen_sim::check::Mismatch {
    let mismatch = report.lock_step.first_mismatch.expect("the fault is found");
    eprintln!("seed {SEED}: {mismatch}");
    assert_eq!(mismatch.cycle, cycle, "{mismatch}");
    assert_eq!(mismatch.port, port, "{mismatch}");
    assert_eq!(report.cycles, cycle + 1, "the run stops at the mismatch");
    mismatch
}

#[test]
fn a_read_data_bit_stuck_at_zero_is_reported_where_it_first_shows() {
    let params = GprParams::default();
    // Bit 7 of element 5 of read_data (read port 1, lane 1) stuck at zero.
    let report = run_faulty(
        &params,
        ".read_data__5(read_data[191:160])",
        ".read_data__5({read_data[191:168], fault, read_data[166:160]})",
        "    wire fault;\n    assign read_data[167] = 1'b0;",
    );
    let cycle = first_cycle(&params, |r| r.read_data[5] & 0x80 != 0);
    let mismatch = found_at(report, cycle, "read_data[5]");
    assert_eq!(mismatch.expected, mismatch.actual | 0x80, "{mismatch}");
    assert_eq!(mismatch.actual & 0x80, 0, "{mismatch}");
}

#[test]
fn a_write_grant_stuck_at_zero_is_reported_before_the_clock_edge() {
    let params = GprParams::default();
    let report = run_faulty(
        &params,
        ".write_grant__1(write_grant[1])",
        ".write_grant__1(fault)",
        "    wire fault;\n    assign write_grant[1] = 1'b0;",
    );
    let cycle = first_cycle(&params, |r| r.write_grants[1]);
    let mismatch = found_at(report, cycle, "write_grant[1]");
    assert_eq!((mismatch.expected, mismatch.actual), (1, 0), "{mismatch}");
}

#[test]
fn the_unchanged_copy_runs_clean() {
    let params = GprParams::default();
    let report = run_faulty(
        &params,
        ".write_grant__1(write_grant[1])",
        ".write_grant__1(write_grant[1])",
        "",
    );
    assert_eq!(
        report.lock_step.mismatches, 0,
        "{:?}",
        report.lock_step.first_mismatch
    );
    assert_eq!(report.cycles, CYCLES);
}
