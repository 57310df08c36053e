//! Lock-step co-simulation of the emitted multi-ported files (`flops`, `lvt`, `ilvt`, `xor`)
//! in Verilator against their one golden model, each with the timing its documentation
//! gives. Needs `verilator` and `g++` (the Makefile and .ci/run install them).

use grfgen_hdl::design::Design;
use grfgen_hdl::multiport::{
    FlopStructure, IlvtStructure, LvtStructure, Multiport, Structure, XorStructure,
};
use grfgen_hdl::params::{Memory, MultiportParams, TableEncoding};
use grfgen_sim::block::{Rtl, Setup};
use grfgen_sim::gpr::RandomTraffic;
use grfgen_sim::multiport::{run, Contract, MultiportRtl};

fn file(registers: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> MultiportParams {
    MultiportParams {
        registers,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
        ..MultiportParams::default()
    }
}

/// `params` with `pipeline` stages and `memory`.
fn staged(params: MultiportParams, pipeline: usize, memory: Memory) -> MultiportParams {
    MultiportParams {
        pipeline,
        memory,
        ..params
    }
}

/// `params` with the one-hot table.
fn one_hot(params: MultiportParams) -> MultiportParams {
    MultiportParams {
        encoding: TableEncoding::OneHot,
        ..params
    }
}

/// 100,000 random cycles of the file `S` builds in lock step; a few hot registers make
/// same-cycle writes to one register and reads of just-written registers frequent.
fn random_run<S: Structure + Contract>(params: &MultiportParams, seed: u64) {
    let top = Multiport::<S>::top(params);
    eprintln!("{top}: seed {seed}");
    let mut rtl = MultiportRtl::build::<Multiport<S>>(params, &Setup::new(seed, Rtl::On))
        .expect("Verilator builds the emitted file");
    let mut traffic = RandomTraffic::shaped(params.registers, 4, params.lanes, seed);
    let timing = S::timing(params);
    let report = run(
        params,
        timing,
        &mut traffic,
        100_000,
        Some(&mut rtl),
        &|_| {},
    );
    assert_eq!(
        report.lock_step.mismatches,
        0,
        "{top}: {} (seed {seed})",
        report.lock_step.first_mismatch.as_ref().unwrap()
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
    random_run::<FlopStructure>(&file(64, 2, 32, 4, 2), 301);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn flops_with_one_read_and_one_write_port_100k_random_cycles() {
    random_run::<FlopStructure>(&file(4, 1, 8, 1, 1), 302);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn flops_at_8r4w_100k_random_cycles() {
    random_run::<FlopStructure>(&file(32, 3, 64, 8, 4), 303);
}

#[test]
fn lvt_at_the_default_size_100k_random_cycles() {
    random_run::<LvtStructure>(&MultiportParams::default(), 311);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn lvt_with_one_read_and_one_write_port_100k_random_cycles() {
    random_run::<LvtStructure>(&file(4, 1, 8, 1, 1), 312);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn lvt_at_3r4w_100k_random_cycles() {
    random_run::<LvtStructure>(&file(16, 3, 16, 3, 4), 313);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn lvt_with_one_stage_on_dp16kd_100k_random_cycles() {
    let p = staged(file(64, 2, 32, 4, 2), 1, Memory::Dp16kd);
    random_run::<LvtStructure>(&p, 314);
}

#[test]
fn lvt_with_two_stages_100k_random_cycles_in_both_memories() {
    random_run::<LvtStructure>(&staged(file(16, 3, 16, 3, 4), 2, Memory::Inferred), 315);
    random_run::<LvtStructure>(&staged(MultiportParams::default(), 2, Memory::Dp16kd), 316);
}

#[test]
fn xor_at_the_default_size_100k_random_cycles() {
    random_run::<XorStructure>(&MultiportParams::default(), 321);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn xor_with_one_read_and_one_write_port_100k_random_cycles() {
    random_run::<XorStructure>(&file(4, 1, 8, 1, 1), 322);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn xor_at_3r4w_100k_random_cycles() {
    random_run::<XorStructure>(&file(16, 3, 16, 3, 4), 323);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn xor_with_one_stage_on_dp16kd_100k_random_cycles() {
    let p = staged(file(64, 2, 32, 4, 3), 1, Memory::Dp16kd);
    random_run::<XorStructure>(&p, 324);
}

#[test]
fn xor_with_two_stages_100k_random_cycles_in_both_memories() {
    random_run::<XorStructure>(&staged(file(16, 1, 8, 2, 4), 2, Memory::Inferred), 325);
    random_run::<XorStructure>(&staged(file(128, 1, 32, 2, 2), 2, Memory::Dp16kd), 326);
}

#[test]
fn ilvt_binary_at_the_default_size_100k_random_cycles() {
    random_run::<IlvtStructure>(&MultiportParams::default(), 331);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn ilvt_with_one_read_and_one_write_port_100k_random_cycles_in_both_encodings() {
    random_run::<IlvtStructure>(&file(4, 1, 8, 1, 1), 332);
    random_run::<IlvtStructure>(&one_hot(file(4, 1, 8, 1, 1)), 333);
}

#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn ilvt_binary_at_3r4w_and_3w_with_stages_100k_random_cycles() {
    random_run::<IlvtStructure>(&file(16, 3, 16, 3, 4), 334);
    let p = staged(file(32, 2, 16, 2, 3), 1, Memory::Dp16kd);
    random_run::<IlvtStructure>(&p, 335);
    let p = staged(file(128, 1, 32, 2, 2), 2, Memory::Dp16kd);
    random_run::<IlvtStructure>(&p, 336);
}

#[test]
fn ilvt_one_hot_at_the_default_size_100k_random_cycles() {
    random_run::<IlvtStructure>(&one_hot(MultiportParams::default()), 341);
}

#[test]
fn ilvt_one_hot_with_three_and_four_write_ports_and_stages_100k_random_cycles() {
    random_run::<IlvtStructure>(&one_hot(file(16, 3, 16, 3, 4)), 342);
    let p = one_hot(staged(file(32, 2, 16, 2, 3), 1, Memory::Dp16kd));
    random_run::<IlvtStructure>(&p, 343);
    let p = one_hot(staged(file(16, 1, 8, 4, 4), 2, Memory::Inferred));
    random_run::<IlvtStructure>(&p, 344);
    let p = one_hot(staged(file(128, 1, 32, 2, 2), 2, Memory::Dp16kd));
    random_run::<IlvtStructure>(&p, 345);
}
