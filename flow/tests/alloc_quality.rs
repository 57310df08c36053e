//! The emitted GPR pool allocator against the tools: Verilator's linter with every warning
//! on, and iCE40 synthesis (no memories: the allocator is flip-flops and logic). Needs
//! `verilator` and `yosys` (the Makefile and .ci/run install them).

mod common;

use common::emit_to;
use grfgen_flow::tools::{lint, synth, SynthTarget};
use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::params::AllocParams;

fn params(pool: usize, granularity: usize, wave_slots: usize) -> AllocParams {
    AllocParams {
        pool,
        granularity,
        wave_slots,
    }
}

#[test]
fn lint_is_clean_with_all_warnings_on() {
    for p in [
        AllocParams::default(),
        params(8, 1, 1),
        params(256, 1, 32),
        params(16, 16, 2),
        params(12, 4, 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let top = emit_to::<Alloc>(dir.path(), &p);
        let findings = lint(dir.path(), &top).unwrap();
        assert!(findings.is_empty(), "{p:?}:\n{}", findings.join("\n"));
    }
}

/// The state is one flip-flop per granule, a valid bit and two 9-bit fields per slot, and
/// three 32-bit registers; synthesis keeps them all and maps no RAM.
#[test]
fn ice40_keeps_exactly_the_allocators_state() {
    let p = AllocParams::default();
    let dir = tempfile::tempdir().unwrap();
    let top = emit_to::<Alloc>(dir.path(), &p);
    let stats = synth(dir.path(), &top, SynthTarget::Ice40).unwrap();
    assert_eq!(stats.count("SB_RAM40_4K"), 0, "{stats:?}");
    let state = p.granules() + p.wave_slots * (1 + 2 * 9) + 3 * 32;
    assert!(stats.flip_flops() as usize <= state, "{stats:?}");
    assert!(
        stats.flip_flops() as usize >= p.granules() + p.wave_slots,
        "{stats:?}"
    );
}

/// The simulation-only assertions fire: the checker alone, in Icarus Verilog, shown two
/// slots sharing a granule and then a resident allocation that changes. Needs `iverilog`.
#[test]
fn the_simulation_assertions_report_a_broken_allocation() {
    use grfgen_hdl::design::Design;
    let p = params(16, 4, 2);
    let parts = Alloc::parts(&p).unwrap();
    let checker = parts.iter().find(|e| e.top == "alloc_checker").unwrap();
    let ports: Vec<&str> = checker.ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        ports,
        [
            "clock",
            "valid",
            "base",
            "count",
            "next_valid",
            "next_base",
            "next_count"
        ],
        "the testbench below drives these"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("checker.v"), &checker.verilog).unwrap();
    // Slots 0 and 1 launch onto granules 0..2 and 1..3; then slot 0 moves while resident.
    let bench = "module tb;\n  reg clock = 0;\n  reg [1:0] valid = 2'b00;\n  \
                 reg [1:0] next_valid = 2'b11;\n  reg [17:0] base = 18'd0;\n  \
                 reg [17:0] count = 18'd0;\n  reg [17:0] next_base = {9'd1, 9'd0};\n  \
                 reg [17:0] next_count = {9'd2, 9'd2};\n  \
                 alloc_checker dut(.clock(clock), .valid(valid), .base(base), .count(count), \
                 .next_valid(next_valid), .next_base(next_base), .next_count(next_count));\n  \
                 initial begin\n    #1 clock = 1; #1 clock = 0;\n    \
                 valid = 2'b11; base = {9'd3, 9'd0}; count = next_count; \
                 next_base = {9'd3, 9'd2};\n    #1 clock = 1; #1 $finish;\n  \
                 end\nendmodule\n";
    std::fs::write(dir.path().join("tb.v"), bench).unwrap();
    let compiled = std::process::Command::new("iverilog")
        .args(["-g2012", "-o", "sim", "tb.v", "checker.v"])
        .current_dir(dir.path())
        .output()
        .expect("iverilog runs");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = std::process::Command::new("vvp")
        .arg("sim")
        .current_dir(dir.path())
        .output()
        .expect("vvp runs");
    let text =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    // Two launches onto one granule are one report, from the higher slot's check.
    assert_eq!(
        text.matches("slots 0 and 1 share a granule").count(),
        1,
        "{text}"
    );
    assert!(
        text.contains("slot 0's allocation changed while resident"),
        "{text}"
    );
    assert!(!text.contains("more than the pool"), "{text}");
}
