//! The emitted multi-ported files against the tools: Verilator's linter with every warning on,
//! iCE40 synthesis (block RAM where the design has replicas, the I-LVT's table included,
//! flip-flops where it has none), and the ECP5 block RAM instances. Needs `verilator` and
//! `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::design::Design;
use grfgen_hdl::multiport::{Flops, Ilvt, Lvt, Xor};
use grfgen_hdl::params::{Memory, MultiportParams, TableEncoding};

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

fn lint_clean<D: Design<Params = MultiportParams>>(configs: &[MultiportParams]) {
    for p in configs {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<D>(dir.path(), p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

/// The shapes every file is linted at.
fn shapes() -> Vec<MultiportParams> {
    vec![
        file(4, 1, 8, 1, 1),
        file(64, 2, 32, 4, 2),
        file(32, 3, 64, 8, 4),
        file(16, 1, 16, 2, 3),
    ]
}

/// `shapes()` and the defaults at every stage count, in every memory.
fn staged_shapes() -> Vec<MultiportParams> {
    let mut configs = shapes();
    configs.push(MultiportParams::default());
    for pipeline in 1..=MultiportParams::MAX_PIPELINE {
        for memory in Memory::ALL {
            configs.push(MultiportParams {
                pipeline,
                memory,
                ..file(16, 2, 16, 3, 3)
            });
        }
    }
    configs
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    lint_clean::<Flops>(&shapes());
    lint_clean::<Lvt>(&staged_shapes());
    lint_clean::<Xor>(&staged_shapes());
}

#[test]
fn ilvt_lint_is_clean_with_all_warnings_on_in_both_encodings() {
    for encoding in TableEncoding::ALL {
        let configs: Vec<MultiportParams> = staged_shapes()
            .into_iter()
            .map(|p| MultiportParams { encoding, ..p })
            .collect();
        lint_clean::<Ilvt>(&configs);
    }
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

/// Every XOR replica is a block RAM: W x (W - 1 + R) per lane.
#[test]
fn ice40_maps_every_xor_replica_to_block_ram() {
    let p = file(64, 2, 16, 3, 2);
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Xor>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    let replicas = p.write_ports * (p.write_ports - 1 + p.read_ports) * p.lanes;
    assert_eq!(stats.count("SB_RAM40_4K"), replicas as u64, "{stats:?}");
}

/// The I-LVT's table is block RAM too, in both encodings: W x R data replicas per lane and
/// W x (W - 1 + R) table replicas, and far fewer flip-flops than the table has entries.
#[test]
fn ice40_maps_the_ilvt_table_to_block_ram() {
    for encoding in TableEncoding::ALL {
        let p = MultiportParams {
            encoding,
            ..file(256, 1, 8, 2, 3)
        };
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Ilvt>(dir.path(), &p);
        let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
        let (r, w) = (p.read_ports, p.write_ports);
        let rams = w * r * p.lanes + w * (w - 1 + r);
        assert_eq!(stats.count("SB_RAM40_4K"), rams as u64, "{p:?}: {stats:?}");
        assert!(
            stats.flip_flops() < p.registers as u64 / 2,
            "{p:?}: {stats:?}"
        );
    }
}

/// With `--memory dp16kd` every replica is `DP16KD` instances: one per replica lane of at
/// most 36 bits (the tables' words included).
#[test]
fn dp16kd_files_instantiate_one_block_ram_per_replica_lane() {
    let p = MultiportParams {
        memory: Memory::Dp16kd,
        pipeline: 2,
        ..file(128, 2, 32, 2, 2)
    };
    let count = |verilog: &str| block_rams(verilog, "t");
    let ilvt = grfgen_hdl::design::emit_design::<Ilvt>(&p, "t").unwrap();
    assert_eq!(count(&ilvt.verilog), 2 * 2 * 2 + 2 * 3);
    let xor = grfgen_hdl::design::emit_design::<Xor>(&p, "t").unwrap();
    assert_eq!(count(&xor.verilog), 2 * 3 * 2);
    let lvt = grfgen_hdl::design::emit_design::<Lvt>(&p, "t").unwrap();
    assert_eq!(count(&lvt.verilog), 2 * 2 * 2);
}

/// The `DP16KD` instances under `module` in `verilog`, each module's once per instance of
/// it: grfgen writes each distinct module once, and an instance as a line `    <module>
/// <name>(`.
fn block_rams(verilog: &str, module: &str) -> usize {
    let body = verilog
        .split("endmodule")
        .find(|m| m.contains(&format!("module {module}(")))
        .unwrap_or_else(|| panic!("no module {module}"));
    let children: usize = body
        .lines()
        .filter_map(|line| {
            let mut words = line.strip_prefix("    ")?.split(' ');
            let (child, name) = (words.next()?, words.next()?);
            let defined = verilog.contains(&format!("module {child}("));
            (name.ends_with('(') && words.next().is_none() && defined).then_some(child)
        })
        .map(|child| block_rams(verilog, child))
        .sum();
    body.matches("DP16KD #(").count() + children
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
