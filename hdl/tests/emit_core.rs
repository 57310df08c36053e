//! Emission of the core slice.

use grfgen_hdl::core::Core;
use grfgen_hdl::design::emit_design;
use grfgen_hdl::params::CoreParams;

#[test]
fn the_core_slice_emits_with_its_ports() {
    let p = CoreParams::default();
    let e = emit_design::<Core>(&p, "core").unwrap();
    if let Ok(dir) = std::env::var("GRFGEN_DUMP") {
        std::fs::write(format!("{dir}/core.v"), &e.verilog).unwrap();
    }
    let find = |name: &str| e.ports.iter().find(|q| q.name == name).unwrap();
    assert_eq!(find("instr_dst").width, 8);
    assert_eq!(find("alu_operand").width, 12 * 32);
    assert_eq!(find("alu_operand").elements, Some(12));
    assert_eq!(
        find("alu_operand").order.as_deref(),
        Some("source, then lane")
    );
    assert_eq!(find("retire_data").width, 4 * 32);
    assert!(e.verilog.contains("module core_scheduler("));
    assert!(e.verilog.contains("module core_gpr("));
}
