//! The emitted multi-ported files against the tools: Verilator's linter with every warning on,
//! and iCE40 synthesis (block RAM where the design has replicas, flip-flops where it has
//! none). Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::design::Design;
use grfgen_hdl::multiport::{Flops, Lvt};
use grfgen_hdl::params::MultiportParams;

fn file(registers: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> MultiportParams {
    MultiportParams {
        registers,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
    }
}

fn lint_clean<D: Design<Params = MultiportParams>>(configs: &[MultiportParams]) {
    for p in configs {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<D>(dir.path(), p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    let configs = [
        file(4, 1, 8, 1, 1),
        file(64, 2, 32, 4, 2),
        file(32, 3, 64, 8, 4),
        file(16, 1, 16, 2, 3),
    ];
    lint_clean::<Flops>(&configs);
    lint_clean::<Lvt>(&[configs.to_vec(), vec![MultiportParams::default()]].concat());
}

/// Every LVT replica is a block RAM, and only the table and the read registers are
/// flip-flops.
#[test]
fn ice40_maps_every_lvt_replica_to_block_ram() {
    // A 256 x 32 replica lane needs two 256 x 16 block RAMs; a 64 x 16 one needs one.
    for (p, rams_per_replica) in [(MultiportParams::default(), 2), (file(64, 3, 16, 3, 2), 1)] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Lvt>(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        let replicas = (p.write_ports * p.read_ports * p.lanes) as u64;
        assert_eq!(
            stats.count("SB_RAM40_4K"),
            replicas * rams_per_replica,
            "{p:?}: {stats:?}"
        );
        // The table holds one bit per register with two write ports; each read port
        // registers its entry.
        let table = (p.registers + p.read_ports) as u64;
        assert_eq!(stats.flip_flops(), table, "{p:?}: {stats:?}");
    }
}

/// The flip-flop file uses no block RAM: every bit of every register is a flip-flop, plus
/// the read data registers.
#[test]
fn ice40_keeps_the_flip_flop_file_in_flip_flops() {
    let p = file(32, 2, 16, 4, 2);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Flops>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    assert_eq!(stats.count("SB_RAM40_4K"), 0, "{stats:?}");
    let bits = (p.registers + p.read_ports) * p.entry_bits();
    assert_eq!(stats.flip_flops() as usize, bits, "{stats:?}");
}
