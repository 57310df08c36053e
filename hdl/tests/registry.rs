//! Every registered design: its parameter table agrees with its JSON keys, its defaults are
//! valid, and it emits at its defaults with a top name that encodes them.

use grfgen_hdl::catalogue;
use grfgen_hdl::design::{emit_design, Design, DesignVisitor};
use grfgen_hdl::params::Params;

struct Check(Vec<&'static str>);

impl DesignVisitor for Check {
    fn visit<D: Design>(&mut self) {
        let defaults = D::Params::default();
        defaults.validate().unwrap();
        let json = serde_json::to_value(&defaults).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names: Vec<&str> = D::Params::table().iter().map(|p| p.name).collect();
        keys.sort_unstable();
        names.sort_unstable();
        assert_eq!(keys, names, "{}: JSON keys against the table", D::NAME);
        for p in D::Params::table() {
            assert!(!p.doc.is_empty() && !p.value_name.is_empty(), "{}", p.name);
            assert!(!p.allowed(&defaults).is_empty(), "{}", p.name);
        }
        let top = D::top(&defaults);
        let emitted = emit_design::<D>(&defaults, &top).unwrap();
        assert!(
            emitted.verilog.contains(&format!("module {top}(")),
            "{}",
            D::NAME
        );
        assert!(!emitted.ports.is_empty());
        self.0.push(D::NAME);
    }
}

#[test]
fn every_design_is_consistent_and_emits_at_its_defaults() {
    let mut check = Check(Vec::new());
    grfgen_hdl::visit_designs(&mut check);
    let designs = [
        "gpr",
        "core",
        "route",
        "route-full",
        "grf",
        "flops",
        "lvt",
        "ilvt",
        "xor",
        "cluster",
        "alloc",
    ];
    assert_eq!(check.0, designs);
    let listed: Vec<&str> = catalogue().iter().map(|b| b.name).collect();
    assert_eq!(&listed[..designs.len()], &check.0[..]);
}

#[test]
fn a_bad_top_name_is_a_parameter_error() {
    let p = grfgen_hdl::params::GprParams::default();
    let err = emit_design::<grfgen_hdl::gpr::Gpr>(&p, "9lives").unwrap_err();
    assert!(err.to_string().contains("--top"), "{err}");
}
