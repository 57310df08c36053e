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
    assert_eq!(find("req_reg$3").width, 6);
    assert_eq!(find("resp_data$15").width, 32);
    assert_eq!(find("l3_row").width, 8);
    assert!(e.ports.iter().all(|q| q.name != "resp_data$16"));
    assert!(e.verilog.contains("module grf$controller("));
    assert!(e.verilog.contains("module grf$front("));
}
