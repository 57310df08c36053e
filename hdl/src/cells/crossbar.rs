//! A generic crossbar with a one-hot source select per output, optionally several side by side.

use rust_hdl::prelude::*;

use crate::signals::signals;

/// `groups` independent `inputs` x `outputs` crossbars side by side, each moving entries of
/// `lanes` elements of `E` bits (the GPR uses one group; the shift-and-fill router uses one
/// group per quad).
///
/// Output `o` of group `g` copies input `i` of the same group when
/// `select[(g * outputs + o) * inputs + i]` is high. Selects are one-hot per output; an output
/// with no select bit high is zero. Several outputs may select the same input (broadcast).
/// Purely combinational. Sizes are chosen at run time.
///
/// Each lane of each group is a [`CrossbarLane`] of its own: every lane is the same module,
/// so a synthesis tool that keeps the hierarchy maps one lane and reuses it (the SM-sized
/// GPR's read crossbar is 64 copies of one lane). The wiring between the ports and the lanes
/// is written here rather than by `#[hdl_gen]`, which would print an `if` block and a local
/// signal for every output lane and input (`docs/rust-hdl.md`, 23).
#[derive(LogicBlock)]
pub struct Crossbar<const E: usize> {
    /// Input entries: element `(g * inputs + i) * lanes + l` is lane `l` of input `i` of group `g`.
    pub inputs: Vec<Signal<In, Bits<E>>>,
    /// One-hot source selects: bit `(g * outputs + o) * inputs + i` routes input `i` to output `o`.
    pub select: Vec<Signal<In, Bit>>,
    /// Output entries: element `(g * outputs + o) * lanes + l` is lane `l` of output `o`.
    pub outputs: Vec<Signal<Out, Bits<E>>>,
    /// One crossbar per group and lane: element `g * lanes + l`.
    lane: Vec<CrossbarLane<E>>,
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
        Self::grouped_masked(groups, inputs, outputs, lanes, &vec![None; groups])
    }

    /// As [`Crossbar::grouped`], with group `g`'s outputs ANDed with `masks[g]` (every bit
    /// when `None`): each group drives only the bits of its mask, and the lanes of groups
    /// with different masks are different modules, each synthesized without the bits it
    /// does not drive.
    pub fn grouped_masked(
        groups: usize,
        inputs: usize,
        outputs: usize,
        lanes: usize,
        masks: &[Option<u64>],
    ) -> Self {
        assert_eq!(masks.len(), groups);
        Self {
            inputs: signals(groups * inputs * lanes),
            select: signals(groups * outputs * inputs),
            outputs: signals(groups * outputs * lanes),
            lane: (0..groups * lanes)
                .map(|k| CrossbarLane::new(inputs, outputs, masks[k / lanes]))
                .collect(),
            _groups: groups,
            _inputs: inputs,
            _outputs: outputs,
            _lanes: lanes,
        }
    }

    /// How lane `l` of group `g` is wired to the crossbar's ports.
    fn wiring(&self, g: usize, l: usize) -> LaneWiring {
        let (i, o, lanes) = (self._inputs, self._outputs, self._lanes);
        LaneWiring {
            inputs: (0..i).map(|k| ((g * i + k) * lanes + l, k)).collect(),
            selects: (0..o * i).map(|s| (g * o * i + s, s)).collect(),
            outputs: (0..o).map(|p| ((g * o + p) * lanes + l, p)).collect(),
        }
    }

    /// The module's Verilog: each lane's ports driven from the crossbar's, and the crossbar's
    /// outputs read from the lanes'.
    fn verilog(&self) -> String {
        let (g, i, o, l) = (self._groups, self._inputs, self._outputs, self._lanes);
        let mut text = format!(
            "// {g} group(s) of {i} input(s) x {o} output(s), {l} lane(s) of {E} bits, one \
             crossbar lane module per group and lane.\n\
             always @(*) begin\n"
        );
        for h in 0..g {
            for lane in 0..l {
                let at = h * l + lane;
                let LaneWiring {
                    inputs,
                    selects,
                    outputs,
                } = self.wiring(h, lane);
                for (outer, inner) in inputs {
                    text += &format!("   lane${at}$inputs${inner} = inputs${outer};\n");
                }
                for (outer, inner) in selects {
                    text += &format!("   lane${at}$select${inner} = select${outer};\n");
                }
                for (outer, inner) in outputs {
                    text += &format!("   outputs${outer} = lane${at}$outputs${inner};\n");
                }
            }
        }
        text + "end\n"
    }
}

/// One crossbar lane's ports against the crossbar's: pairs of (index in the crossbar's port
/// vector, index in the lane's).
struct LaneWiring {
    /// The lane's inputs.
    inputs: Vec<(usize, usize)>,
    /// The lane's selects.
    selects: Vec<(usize, usize)>,
    /// The lane's outputs.
    outputs: Vec<(usize, usize)>,
}

impl<const E: usize> Logic for Crossbar<E> {
    fn update(&mut self) {
        for h in 0..self._groups {
            for lane in 0..self._lanes {
                let at = h * self._lanes + lane;
                let LaneWiring {
                    inputs,
                    selects,
                    outputs,
                } = self.wiring(h, lane);
                for (outer, inner) in inputs {
                    self.lane[at].inputs[inner].next = self.inputs[outer].val();
                }
                for (outer, inner) in selects {
                    self.lane[at].select[inner].next = self.select[outer].val();
                }
                for (outer, inner) in outputs {
                    self.outputs[outer].next = self.lane[at].outputs[inner].val();
                }
            }
        }
    }

    fn connect(&mut self) {
        for output in &mut self.outputs {
            output.connect();
        }
        for lane in &mut self.lane {
            for input in &mut lane.inputs {
                input.connect();
            }
            for select in &mut lane.select {
                select.connect();
            }
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}

/// One lane of an `inputs` x `outputs` crossbar: output `o` copies input `i` when
/// `select[o * inputs + i]` is high; an output with no select high is zero.
///
/// Each output is the OR of its inputs, each gated by its select (AND-OR), not a chain of
/// if-statements: a priority mux chain's depth grows with the input count, while an OR of
/// gated terms synthesises as a balanced tree. With one-hot selects the two are the same
/// function. The OR is taken in chunks of about sqrt(inputs) terms, then over the chunks, so
/// that no chain in the netlist before optimisation is longer than about 2 sqrt(inputs) (a
/// 256-input chain exhausts the stack of the WebAssembly build of Yosys).
#[derive(LogicBlock)]
pub struct CrossbarLane<const E: usize> {
    /// Input `i`.
    pub inputs: Vec<Signal<In, Bits<E>>>,
    /// One-hot source selects: bit `o * inputs + i` routes input `i` to output `o`.
    pub select: Vec<Signal<In, Bit>>,
    /// Output `o`.
    pub outputs: Vec<Signal<Out, Bits<E>>>,
    /// The output bits this lane drives (the others are zero); every bit when `None`.
    _mask: Option<u64>,
}

impl<const E: usize> CrossbarLane<E> {
    /// A lane with `inputs` sources and `outputs` destinations, driving the bits of `mask`.
    fn new(inputs: usize, outputs: usize, mask: Option<u64>) -> Self {
        Self {
            inputs: signals(inputs),
            select: signals(outputs * inputs),
            outputs: signals(outputs),
            _mask: mask,
        }
    }

    /// The module's Verilog: each output the AND-OR of its inputs, one statement per chunk
    /// of terms.
    fn verilog(&self) -> String {
        let (i, o) = (self.inputs.len(), self.outputs.len());
        let chunk = (1..=i).find(|c| c * c >= i).unwrap_or(1);
        let mut text = format!(
            "// {i} input(s) x {o} output(s) of {E} bits; each output is the OR of its inputs \
             gated by their selects, in chunks of {chunk}.\n\
             always @(*) begin\n"
        );
        for p in 0..o {
            let term = |k: usize| format!("({{{E}{{select${}}}}} & inputs${k})", p * i + k);
            // One statement per chunk, ORed into the output: Verilator inlines a single
            // expression into whatever reads it (up to the top's packed ports, where g++ then
            // needs gigabytes), but not a value built in steps.
            for first in (0..i).step_by(chunk) {
                let terms: Vec<String> = (first..(first + chunk).min(i)).map(term).collect();
                let chunk = terms.join(" | ");
                text += &match first {
                    0 => format!("   outputs${p} = ({chunk});\n"),
                    _ => format!("   outputs${p} = outputs${p} | ({chunk});\n"),
                };
            }
            if let Some(mask) = self._mask {
                text += &format!("   outputs${p} = outputs${p} & {E}'h{mask:x};\n");
            }
        }
        text + "end\n"
    }
}

impl<const E: usize> Logic for CrossbarLane<E> {
    fn update(&mut self) {
        let i = self.inputs.len();
        for (p, output) in self.outputs.iter_mut().enumerate() {
            let mut value = Bits::<E>::default();
            for k in 0..i {
                if self.select[p * i + k].val() {
                    value = value | self.inputs[k].val();
                }
            }
            if let Some(mask) = self._mask {
                value = value & Bits::<E>::from(mask);
            }
            output.next = value;
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
