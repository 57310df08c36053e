//! A simulation-only assertion (`$error`) that fails in a Verilated design is the run's
//! mismatch, with its cycle and message, and nothing printed on standard output; one that
//! holds costs nothing. Shown on a small design and on an emitted one (the core's GPR).
//! Needs `verilator`.

use grfgen_hdl::core::Core;
use grfgen_hdl::design::Design as _;
use grfgen_hdl::emit::{Port, PortDirection};
use grfgen_hdl::params::CoreParams;
use grfgen_sim::check::{end_cycle, Device, Mismatch};
use grfgen_sim::verilator::{build, build_emitted, BuildOptions, Design, Input, VerilatedModel};

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

/// A Verilated design driven one clock per cycle: each cycle's input is one value per input
/// of `inputs`, in order.
struct Driven {
    model: VerilatedModel,
    clock: Input,
    inputs: Vec<Input>,
}

impl Driven {
    /// `model` with its `clock` and the inputs named in `names` (`name` or `name[i]` for
    /// element `i` of a packed port of `count` elements).
    fn new(model: VerilatedModel, names: &[(&str, usize)]) -> Self {
        let mut inputs = Vec::new();
        for &(name, count) in names {
            match count {
                0 => inputs.push(model.input(name).unwrap()),
                n => inputs.extend(model.inputs(name, n).unwrap()),
            }
        }
        Self {
            clock: model.input("clock").unwrap(),
            inputs,
            model,
        }
    }
}

impl Device for Driven {
    type Input = Vec<u64>;
    type Expected = ();

    fn cycle(&mut self, _: u64, values: &Vec<u64>, _: &()) -> Result<(), Mismatch> {
        for (&input, &value) in self.inputs.iter().zip(values) {
            self.model.set(input, value);
        }
        self.model.set(self.clock, 0);
        self.model.eval();
        self.model.set(self.clock, 1);
        self.model.eval();
        Ok(())
    }
}

/// Runs `device` through `cycles`, each cycle's inputs in turn; the first mismatch.
fn first_mismatch(device: &mut Driven, cycles: &[Vec<u64>]) -> Option<Mismatch> {
    cycles.iter().enumerate().find_map(|(cycle, values)| {
        end_cycle(Some(&mut *device), cycle as u64, values, &(), &|_| {}).err()
    })
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
    let model = build(&design, &options(), None).expect("verilator builds the design");
    let mut device = Driven::new(model, &[("bad", 0)]);
    let cycles: Vec<Vec<u64>> = (0..20).map(|c| vec![u64::from(Some(c) == fault)]).collect();
    first_mismatch(&mut device, &cycles)
}

/// Build options: no waveform, seed 1, the default cache.
fn options() -> BuildOptions {
    BuildOptions {
        trace: None,
        seed: 1,
        cache: None,
        clock_mhz: 200.0,
        threads: 1,
    }
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

/// The core's GPR, Verilated on its own and driven as a requester that breaks the scheduler's
/// promise (R0 and R4, both in bank 0, read in one cycle), reports it through the lock-step
/// loop: the emitted design's own check.
#[test]
fn the_cores_gpr_check_fires_in_a_verilated_run() {
    let part = Core::parts(&CoreParams::default())
        .unwrap()
        .into_iter()
        .find(|p| p.top == "core_gpr")
        .expect("the core's GPR part");
    let model = build_emitted(&part, &options(), None).expect("verilator builds the part");
    let mut device = Driven::new(model, &[("read_valid", 4), ("read_reg", 4)]);
    // read_valid for ports 0..4, then read_reg for ports 0..4.
    let reads = |a: u64, b: u64| vec![1, 1, 0, 0, a, b, 0, 0];
    let cycles = [reads(0, 1), reads(2, 3), reads(0, 4)];
    let mismatch = first_mismatch(&mut device, &cycles).expect("the check fires");
    assert_eq!(mismatch.cycle, 2);
    let message = mismatch.assertion.unwrap();
    assert!(
        message.contains("gpr: bank 0 read port 0 granted 2 reads"),
        "{message}"
    );
}
