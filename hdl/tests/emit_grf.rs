//! Emission of the hierarchical GRF.

use grfgen_hdl::design::emit_design;
use grfgen_hdl::grf::Grf;
use grfgen_hdl::params::GrfParams;

#[test]
fn the_grf_emits_with_its_ports() {
    let p = GrfParams::default();
    let e = emit_design::<Grf>(&p, "grf").unwrap();
    if let Ok(dir) = std::env::var("GRFGEN_DUMP") {
        std::fs::write(format!("{dir}/grf.v"), &e.verilog).unwrap();
    }
    let find = |name: &str| e.ports.iter().find(|q| q.name == name).unwrap();
    assert_eq!(find("req_reg").width, 4 * 6);
    assert_eq!(find("resp_data").width, 16 * 32);
    assert_eq!(find("resp_data").elements, Some(16));
    assert_eq!(find("l3_row").width, 8);
    assert_eq!(find("l3_row").elements, None);
    assert!(e.verilog.contains("module grf_controller("));
    assert!(e.verilog.contains("module grf_front("));
    // One front-end control module for the four EUs.
    assert!(e.verilog.contains("module grf_control("));
    assert_eq!(e.verilog.matches("    grf_control control__").count(), 4);
}
