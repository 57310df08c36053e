//! Emission of the banked GPR: ports, widths, module structure, for configurations across the
//! whole width dispatch table.

use grfgen_hdl::design::emit_design;
use grfgen_hdl::emit::{EmitError, PortDirection};
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{BankKind, GprParams};

fn emit_gpr(
    params: &GprParams,
    top: &str,
) -> Result<grfgen_hdl::emit::Emitted, grfgen_hdl::params::ParamError> {
    emit_design::<Gpr>(params, top).map_err(|e| match e {
        EmitError::Param(e) => e,
        EmitError::Rejected(why) => panic!("{why}"),
    })
}

fn params(banks: usize, rows: usize, lanes: usize, bits: usize, rp: usize, wp: usize) -> GprParams {
    GprParams {
        banks,
        registers: banks * rows,
        lanes,
        element_bits: bits,
        read_ports: rp,
        write_ports: wp,
        pipeline: 0,
        bank_kind: BankKind::OneReadOneWrite,
        ..GprParams::default()
    }
}

#[test]
fn default_gpr_has_the_documented_ports() {
    let p = GprParams::default();
    let e = emit_gpr(&p, "gpr_top").unwrap();
    assert_eq!(e.top, "gpr_top");
    let find = |name: &str| e.ports.iter().find(|q| q.name == name).unwrap();
    assert_eq!(find("clock").direction, PortDirection::Input);
    assert_eq!(find("clock").elements, None);
    assert_eq!(find("read_reg").width, 4 * 8);
    assert_eq!(find("read_data").width, 16 * 32);
    assert_eq!(find("read_data").element_width(), 32);
    assert_eq!(find("read_data").direction, PortDirection::Output);
    assert_eq!(find("write_data").width, 8 * 32);
    assert_eq!(find("write_grant").direction, PortDirection::Output);
    // clock, then valid, reg, grant and data of the read and of the write ports.
    assert_eq!(e.ports.len(), 9);
    assert!(e.verilog.contains("module gpr_top("));
    // One SRAM module of 64 rows, instantiated once per bank and lane.
    assert_eq!(e.verilog.matches("reg [31:0] mem [0:63];").count(), 1);
    assert_eq!(
        e.verilog
            .matches("    gpr_top_sram_1r1w_64x32 banks__")
            .count(),
        16
    );
}

#[test]
fn every_element_width_and_extreme_shapes_emit() {
    for (b, rows, l, bits, rp, wp) in [
        (1, 4, 1, 8, 1, 1),
        (16, 1024, 1, 64, 8, 4),
        (2, 16, 3, 16, 1, 1),
        (8, 32, 8, 16, 4, 2),
        (4, 64, 64, 8, 2, 1),
        (16, 4, 2, 32, 8, 4),
    ] {
        let p = params(b, rows, l, bits, rp, wp);
        let e = emit_gpr(&p, &grfgen_hdl::params::module_name("gpr", &p)).unwrap();
        let find = |name: &str| e.ports.iter().find(|q| q.name == name).unwrap();
        assert_eq!(find("read_reg").width, rp * p.register_bits(), "{p:?}");
        assert_eq!(find("write_data").element_width(), bits, "{p:?}");
        assert_eq!(find("write_data").elements, Some(wp * l), "{p:?}");
        assert_eq!(e.ports.len(), 9, "{p:?}");
        let depth = format!("mem [0:{}];", rows - 1);
        assert_eq!(e.verilog.matches(&depth).count(), 1, "{p:?}");
        let sram = format!("_sram_1r1w_{rows}x{bits} banks__");
        assert_eq!(e.verilog.matches(&sram).count(), b * l, "{p:?}");
    }
}

#[test]
fn invalid_parameters_are_errors_not_panics() {
    let bad = params(3, 64, 4, 32, 4, 2);
    assert_eq!(emit_gpr(&bad, "x").unwrap_err().param, "banks");
    let bad = GprParams {
        element_bits: 12,
        ..GprParams::default()
    };
    assert_eq!(emit_gpr(&bad, "x").unwrap_err().param, "element_bits");
}
