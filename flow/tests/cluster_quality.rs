//! The emitted clustered register file against the tools: Verilator's linter with every
//! warning on, and iCE40 synthesis (the main file's replicas in block RAM, the local files in
//! flip-flops). Needs `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::cluster::Cluster;
use grfgen_hdl::params::ClusterParams;

/// The configuration of `clusters`, `local`, `main` registers and `ports` (read, write).
fn params(clusters: usize, local: usize, main: usize, ports: (usize, usize)) -> ClusterParams {
    let (main_read_ports, main_write_ports) = ports;
    ClusterParams {
        clusters,
        local_regs: local,
        main_regs: main,
        main_read_ports,
        main_write_ports,
    }
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    for p in [
        ClusterParams::default(),
        params(1, 1, 1, (2, 1)),
        params(2, 4, 4, (2, 2)),
        params(8, 64, 1024, (4, 4)),
        params(5, 3, 20, (3, 1)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Cluster>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

/// The main file is read ports x write ports block-RAM replicas (two 256 x 16 RAMs each for
/// 32-bit registers); nothing else is a RAM.
#[test]
fn ice40_maps_the_main_file_to_block_ram_and_nothing_else() {
    for p in [ClusterParams::default(), params(2, 4, 32, (3, 2))] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Cluster>(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        let replicas = (p.main_read_ports * p.main_write_ports) as u64;
        assert_eq!(stats.count("SB_RAM40_4K"), 2 * replicas, "{p:?}: {stats:?}");
        // Every local register is a flip-flop: at least clusters x 2^local bits x 32.
        let local_bits = (p.clusters << p.local_bits()) as u64 * 32;
        assert!(stats.flip_flops() >= local_bits, "{p:?}: {stats:?}");
    }
}
