//! Every input parser reads a file the same way whatever its line endings (`\n`, `\r\n`, a
//! lone `\r`) and with or without a UTF-8 byte-order mark: the same instructions, and an error
//! on the line an editor shows.

use grfgen_hdl::params::GrfParams;

/// `lines` joined with each ending, with and without a BOM.
fn variants(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for end in ["\n", "\r\n", "\r"] {
        let text = lines.join(end) + end;
        out.push(format!("\u{feff}{text}"));
        out.push(text);
    }
    out
}

#[test]
fn core_programs() {
    let good = ["mad.f32 R0, R0, R4, R8", "mov R1, R2"];
    for text in variants(&good) {
        let program = grfgen_sim::core::program::parse(&text, 32).unwrap();
        assert_eq!(program.len(), 2, "{text:?}");
    }
    for text in variants(&["mov R1, R2", "", "bogus R1"]) {
        let err = grfgen_sim::core::program::parse(&text, 32).unwrap_err();
        assert_eq!(err.line, 3, "{text:?}: {err}");
    }
}

#[test]
fn grf_traces() {
    let params = GrfParams::default();
    for text in variants(&["0 0 write r5 7", "0 0 read r5"]) {
        let trace = grfgen_sim::grf::parse(&text, &params).expect("a valid trace");
        let steps: usize = trace.iter().map(Vec::len).sum();
        assert_eq!(steps, 2, "{text:?}");
    }
    for text in variants(&["0 0 write r5 7", "# note", "0 0 jump r5"]) {
        let err = grfgen_sim::grf::parse(&text, &params).unwrap_err();
        assert_eq!(err.line, 3, "{text:?}: {err}");
    }
}

#[test]
fn cluster_programs() {
    for text in variants(&["c1: mov v1, #1", "c2: out v1"]) {
        assert_eq!(
            grfgen_sim::cluster::parse(&text, 3).unwrap().len(),
            2,
            "{text:?}"
        );
    }
    for text in variants(&["c1: mov v1, #1", "", "c9: out v1"]) {
        let err = grfgen_sim::cluster::parse(&text, 3).unwrap_err();
        assert_eq!((err.line, err.column), (3, 1), "{text:?}: {err}");
    }
}

#[test]
fn shaders() {
    for text in variants(&["uniform mode", "main:", "  ld r0, wave", "  out r0"]) {
        let shader = grfgen_sim::alloc::shader::parse(&text).unwrap();
        assert_eq!(
            (shader.uniforms.len(), shader.instructions),
            (1, 2),
            "{text:?}"
        );
    }
    for text in variants(&["main:", "  ld r0, wave", "  if mode == 1"]) {
        let err = grfgen_sim::alloc::shader::parse(&text).unwrap_err();
        assert_eq!(err.line, 3, "{text:?}: {err}");
    }
}

/// A trace value wider than the element is an error on its line, not a value cut short.
#[test]
fn grf_trace_values_must_fit_the_element() {
    let params = GrfParams::default();
    assert_eq!(params.element_bits, 32);
    assert!(grfgen_sim::grf::parse("0 0 write r5 0xffffffff\n", &params).is_ok());
    let err =
        grfgen_sim::grf::parse("0 0 read r1\n0 0 write r5 0x1ffffffff\n", &params).unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    assert!(
        err.message.contains("wider than the 32-bit element"),
        "{err}"
    );
    let lanes = grfgen_sim::grf::parse("0 0 write r5 1,2,3,0x100000000\n", &params).unwrap_err();
    assert!(lanes.message.contains("0x100000000"), "{lanes}");
}
