//! A simulation-only assertion (`$error`) that fails in a Verilated design is the run's
//! mismatch, with its cycle and message, and nothing printed on standard output; one that
//! holds costs nothing. Needs `verilator`.

use grfgen_hdl::emit::{Port, PortDirection};
use grfgen_sim::check::{end_cycle, Device, Mismatch};
use grfgen_sim::verilator::{build, BuildOptions, Design, Input, VerilatedModel};

/// A counter whose assertion fails when `bad` is high at a rising edge.
const VERILOG: &str = "module asserting(input wire clock, input wire bad, output reg [7:0] count);
initial count = 8'd0;
always @(posedge clock) count <= count + 8'd1;
`ifndef SYNTHESIS
always @(posedge clock) if (bad) $error(\"asserting: bad was high\");
`endif
endmodule
";

/// The design's ports.
fn ports() -> Vec<Port> {
    let port = |name: &str, direction, width| Port {
        name: name.into(),
        direction,
        width,
        elements: None,
        order: None,
    };
    vec![
        port("clock", PortDirection::Input, 1),
        port("bad", PortDirection::Input, 1),
        port("count", PortDirection::Output, 8),
    ]
}

/// The design driven one clock per cycle with `bad` as the input says.
struct Asserting {
    model: VerilatedModel,
    clock: Input,
    bad: Input,
}

impl Device for Asserting {
    type Input = bool;
    type Expected = ();

    fn cycle(&mut self, _: u64, bad: &bool, _: &()) -> Result<(), Mismatch> {
        self.model.set(self.bad, u64::from(*bad));
        self.model.set(self.clock, 0);
        self.model.eval();
        self.model.set(self.clock, 1);
        self.model.eval();
        Ok(())
    }
}

/// Runs 20 cycles, `bad` high in cycle `fault` if any; the first mismatch.
fn run(fault: Option<u64>) -> Option<Mismatch> {
    let ports = ports();
    let design = Design {
        top: "asserting",
        verilog: VERILOG,
        waivers: "",
        ports: &ports,
    };
    let options = BuildOptions {
        trace: None,
        seed: 1,
        cache: None,
    };
    let model = build(&design, &options, None).expect("verilator builds the design");
    let mut device = Asserting {
        clock: model.input("clock").unwrap(),
        bad: model.input("bad").unwrap(),
        model,
    };
    (0..20).find_map(|cycle| {
        let bad = Some(cycle) == fault;
        end_cycle(Some(&mut device), cycle, &bad, &(), &|_| {}).err()
    })
}

#[test]
fn a_failed_assertion_is_the_mismatch_with_its_cycle_and_message() {
    assert_eq!(run(None), None);
    let mismatch = run(Some(7)).expect("the assertion fires");
    assert_eq!(mismatch.cycle, 7);
    assert_eq!(mismatch.port, "assertion");
    let message = mismatch.assertion.clone().unwrap();
    assert!(message.contains("asserting: bad was high"), "{message}");
    let shown = mismatch.to_string();
    assert!(shown.starts_with("RTL assertion at cycle 7:"), "{shown}");
    // A later run on the same thread starts clean.
    assert_eq!(run(None), None);
}
