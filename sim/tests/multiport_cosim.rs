//! Lock-step co-simulation of the emitted multi-ported files (`flops`, `lvt`) in Verilator
//! against their one golden model. Needs `verilator` and `g++` (the Makefile and .ci/run
//! install them).

use grfgen_hdl::design::Design;
use grfgen_hdl::multiport;
use grfgen_hdl::params::MultiportParams;
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::gpr::RandomTraffic;
use grfgen_sim::multiport::{run, MultiportRtl};

fn file(registers: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> MultiportParams {
    MultiportParams {
        registers,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
    }
}

/// 100,000 random cycles of design `D` in lock step; a few hot registers make same-cycle
/// writes to one register and reads of just-written registers frequent.
fn random_run<D: Design<Params = MultiportParams>>(params: &MultiportParams, seed: u64) {
    let top = D::top(params);
    eprintln!("{top}: seed {seed}");
    let mut rtl = MultiportRtl::build::<D>(params, &Setup::new(seed, Rtl::On))
        .expect("Verilator builds the emitted file");
    let mut traffic = RandomTraffic::shaped(params.registers, 4, params.lanes, seed);
    let report = run(params, &mut traffic, 100_000, Some(&mut rtl), &|_| {});
    assert_eq!(
        report.mismatches,
        0,
        "{top}: {} (seed {seed})",
        report.first_mismatch.as_ref().unwrap()
    );
    assert_eq!(report.cycles, 100_000);
    // Every port was busy, and most reads were checked.
    assert!(
        report.reads > 50_000 * params.read_ports as u64,
        "{report:?}"
    );
    assert!(report.undefined_reads < report.reads / 2, "{report:?}");
}

#[test]
fn flops_at_4r2w_100k_random_cycles() {
    random_run::<multiport::Flops>(&file(64, 2, 32, 4, 2), 301);
}

#[test]
fn flops_with_one_read_and_one_write_port_100k_random_cycles() {
    random_run::<multiport::Flops>(&file(4, 1, 8, 1, 1), 302);
}

#[test]
fn flops_at_8r4w_100k_random_cycles() {
    random_run::<multiport::Flops>(&file(32, 3, 64, 8, 4), 303);
}

#[test]
fn lvt_at_the_default_size_100k_random_cycles() {
    random_run::<multiport::Lvt>(&MultiportParams::default(), 311);
}

#[test]
fn lvt_with_one_read_and_one_write_port_100k_random_cycles() {
    random_run::<multiport::Lvt>(&file(4, 1, 8, 1, 1), 312);
}

#[test]
fn lvt_at_3r4w_100k_random_cycles() {
    random_run::<multiport::Lvt>(&file(16, 3, 16, 3, 4), 313);
}
