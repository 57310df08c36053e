//! The rules every emitted file keeps (docs/rust-hdl.md, 7): only `[A-Za-z0-9_]` in names (no
//! `$` anywhere), one module per distinct body, packed top ports documented in the header, the
//! same text on every run, and module names that an unrelated parameter leaves alone.

use std::collections::BTreeSet;

use grfgen_hdl::design::{emit_design, Design, DesignVisitor};
use grfgen_hdl::emit::{design_files, Emitted, PortDirection, Timing};
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::{BankKind, GprParams, Params};
use grfgen_hdl::visit_designs;

/// The modules of `verilog`: (name, body with its own name taken out).
fn modules(verilog: &str) -> Vec<(String, String)> {
    verilog
        .split("\nmodule ")
        .skip(1)
        .map(|text| {
            let name = text.split('(').next().unwrap().trim().to_string();
            let body = text.split("endmodule").next().unwrap();
            (name.clone(), body.replacen(&name, "", 1))
        })
        .collect()
}

/// Checks the rules on `emitted` (design `D` at `params`).
fn check<D: Design>(params: &D::Params, emitted: &Emitted) {
    let what = format!("{} {}", D::NAME, emitted.top);
    let timing = Timing::new(200.0, None).unwrap();
    for (file, text) in design_files::<D>(params, emitted, timing) {
        // The one `$` allowed: the system task of the simulation-only assertions.
        let names = text.replace("$error(", "");
        assert!(!names.contains('$'), "{what}: a $ in {file}");
    }
    let found = modules(&emitted.verilog);
    assert_eq!(found.len(), emitted.modules, "{what}");
    let bodies: BTreeSet<&String> = found.iter().map(|(_, body)| body).collect();
    assert_eq!(
        bodies.len(),
        found.len(),
        "{what}: two modules have one body"
    );
    for (name, _) in &found {
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{what}: module {name}"
        );
        assert!(name.starts_with(&emitted.top), "{what}: module {name}");
    }
    assert_eq!(found[0].0, emitted.top, "{what}: the top comes first");
    for port in &emitted.ports {
        let declared = format!(" {}", port.declared());
        let line = (emitted.verilog.lines())
            .take_while(|l| l.starts_with("//"))
            .find(|l| l.contains(&declared));
        assert!(
            line.is_some(),
            "{what}: {} missing from the header",
            port.name
        );
        let direction = match port.direction {
            PortDirection::Input => "input",
            PortDirection::Output => "output",
        };
        let declaration = format!("    {direction} wire{declared};");
        assert!(
            emitted.verilog.lines().any(|l| l == declaration),
            "{what}: the header's {declared} is not the top's declaration"
        );
        let scalar = matches!(port.name.as_str(), "clock" | "reset");
        assert!(!scalar || port.elements.is_none(), "{what}: {}", port.name);
    }
}

struct Rules;

impl DesignVisitor for Rules {
    fn visit<D: Design>(&mut self) {
        let params = D::Params::default();
        let first = emit_design::<D>(&params, &D::top(&params)).unwrap();
        check::<D>(&params, &first);
        let again = emit_design::<D>(&params, &D::top(&params)).unwrap();
        assert_eq!(first.verilog, again.verilog, "{}: two runs differ", D::NAME);
    }
}

#[test]
fn every_design_keeps_the_rules_and_emits_the_same_text_twice() {
    visit_designs(&mut Rules);
}

#[test]
fn the_largest_gpr_keeps_the_rules() {
    let params = GprParams {
        banks: 16,
        registers: 1024,
        lanes: 64,
        element_bits: 32,
        read_ports: 8,
        write_ports: 4,
        pipeline: 0,
        bank_kind: BankKind::TwoReadsOneWrite,
        ..GprParams::default()
    };
    params.validate().unwrap();
    let emitted = emit_design::<Gpr>(&params, "big").unwrap();
    check::<Gpr>(&params, &emitted);
    // 2,048 SRAM instances (two replicas per bank and lane) of one module.
    assert_eq!(
        emitted
            .verilog
            .matches(" big_sram_1r1w_64x32 banks__")
            .count(),
        2048
    );
    // The shell, the body, the arbiter and its two halves, two crossbars and their lanes,
    // the bank rows, the SRAM and the two delay chains: one module each, whatever the counts.
    assert!(emitted.modules <= 13, "{}", emitted.modules);
}

#[test]
fn module_names_do_not_move_with_an_unrelated_parameter() {
    let names = |lanes: usize, element_bits: usize| -> BTreeSet<String> {
        let params = GprParams {
            lanes,
            element_bits,
            ..GprParams::default()
        };
        let emitted = emit_design::<Gpr>(&params, "gpr").unwrap();
        modules(&emitted.verilog)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    };
    // More lanes: the same modules (the SRAM's name holds rows and width only).
    assert_eq!(names(4, 32), names(8, 32));
    // Another width renames the SRAM and nothing else.
    let (a, b) = (names(4, 32), names(4, 16));
    let moved: Vec<_> = a.symmetric_difference(&b).collect();
    assert_eq!(moved, ["gpr_sram_1r1w_64x16", "gpr_sram_1r1w_64x32"]);
}
