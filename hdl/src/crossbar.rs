//! A generic crossbar with a one-hot source select per output, optionally several side by side.

use rust_hdl::prelude::*;

use crate::signals;

/// `groups` independent `inputs` x `outputs` crossbars side by side, each moving entries of
/// `lanes` elements of `E` bits (the GPR uses one group; the shift-and-fill router uses one
/// group per quad).
///
/// Output `o` of group `g` copies input `i` of the same group when
/// `select[(g * outputs + o) * inputs + i]` is high. Selects are one-hot per output; an output
/// with no select bit high is zero. Several outputs may select the same input (broadcast).
/// Purely combinational. Sizes are chosen at run time.
///
/// Each output is the OR of its inputs, each gated by its select (AND-OR), not a chain of
/// if-statements: a priority mux chain's depth grows with the input count, while an OR of
/// gated terms synthesises as a balanced tree. With one-hot selects the two are the same
/// function. The OR is taken in chunks of about sqrt(inputs) terms, then over the chunks, so
/// that no chain in the netlist before optimisation is longer than about 2 sqrt(inputs) (a
/// 256-input chain exhausts the stack of the WebAssembly build of Yosys).
///
/// The Verilog is written here rather than by `#[hdl_gen]`, which would print an `if` block
/// and a local signal for every output lane and input: one statement per chunk and output
/// lane is a small fraction of that text (`docs/rust-hdl.md`, 23).
#[derive(LogicBlock)]
pub struct Crossbar<const E: usize> {
    /// Input entries: element `(g * inputs + i) * lanes + l` is lane `l` of input `i` of group `g`.
    pub inputs: Vec<Signal<In, Bits<E>>>,
    /// One-hot source selects: bit `(g * outputs + o) * inputs + i` routes input `i` to output `o`.
    pub select: Vec<Signal<In, Bit>>,
    /// Output entries: element `(g * outputs + o) * lanes + l` is lane `l` of output `o`.
    pub outputs: Vec<Signal<Out, Bits<E>>>,
    _groups: usize,
    _inputs: usize,
    _outputs: usize,
    _lanes: usize,
}

impl<const E: usize> Crossbar<E> {
    /// One crossbar with `inputs` sources and `outputs` destinations of `lanes` elements each.
    pub fn new(inputs: usize, outputs: usize, lanes: usize) -> Self {
        Self::grouped(1, inputs, outputs, lanes)
    }

    /// `groups` independent crossbars of `inputs` x `outputs`, `lanes` elements per entry.
    pub fn grouped(groups: usize, inputs: usize, outputs: usize, lanes: usize) -> Self {
        Self {
            inputs: signals(groups * inputs * lanes),
            select: signals(groups * outputs * inputs),
            outputs: signals(groups * outputs * lanes),
            _groups: groups,
            _inputs: inputs,
            _outputs: outputs,
            _lanes: lanes,
        }
    }

    /// The module's Verilog: per output lane, the AND-OR of its inputs over the ports
    /// themselves, one statement per chunk of terms.
    fn verilog(&self) -> String {
        let (g, i, o, l) = (self._groups, self._inputs, self._outputs, self._lanes);
        let chunk = (1..=i).find(|c| c * c >= i).unwrap_or(1);
        let mut text = format!(
            "// {g} group(s) of {i} input(s) x {o} output(s), {l} lane(s) of {E} bits; each \
             output lane is the OR of its inputs gated by their selects, in chunks of {chunk}.\n\
             always @(*) begin\n"
        );
        for h in 0..g {
            for p in 0..o {
                for lane in 0..l {
                    let term = |k: usize| {
                        let select = (h * o + p) * i + k;
                        let input = (h * i + k) * l + lane;
                        format!("({{{E}{{select${select}}}}} & inputs${input})")
                    };
                    let chunks: Vec<String> = (0..i)
                        .step_by(chunk)
                        .map(|first| {
                            let terms: Vec<String> =
                                (first..(first + chunk).min(i)).map(term).collect();
                            format!("({})", terms.join(" | "))
                        })
                        .collect();
                    // One statement per chunk, ORed into the output: Verilator inlines a
                    // single expression into whatever reads it (up to the top's packed
                    // ports, where g++ then needs gigabytes), but not a value built in steps.
                    let output = format!("outputs${}", (h * o + p) * l + lane);
                    for (q, chunk) in chunks.iter().enumerate() {
                        text += &match q {
                            0 => format!("   {output} = {chunk};\n"),
                            _ => format!("   {output} = {output} | {chunk};\n"),
                        };
                    }
                }
            }
        }
        text + "end\n"
    }
}

impl<const E: usize> Logic for Crossbar<E> {
    fn update(&mut self) {
        let (i, o, l) = (self._inputs, self._outputs, self._lanes);
        for h in 0..self._groups {
            for p in 0..o {
                for lane in 0..l {
                    let mut value = Bits::<E>::default();
                    for k in 0..i {
                        if self.select[(h * o + p) * i + k].val() {
                            value = value | self.inputs[(h * i + k) * l + lane].val();
                        }
                    }
                    self.outputs[(h * o + p) * l + lane].next = value;
                }
            }
        }
    }

    fn connect(&mut self) {
        for output in &mut self.outputs {
            output.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
