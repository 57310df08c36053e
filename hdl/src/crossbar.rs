//! A generic crossbar with a one-hot source select per output.

use rust_hdl::prelude::*;

/// An `inputs` x `outputs` crossbar moving entries of `lanes` elements of `E` bits.
///
/// Output `o` copies input `i` when `select[o * inputs + i]` is high. Selects are one-hot per
/// output; an output with no select bit high is zero. Several outputs may select the same input
/// (broadcast). Purely combinational. Sizes are chosen at run time by [`Crossbar::new`].
#[derive(LogicBlock)]
pub struct Crossbar<const E: usize> {
    /// Input entries, input-major: element `i * lanes + l` is lane `l` of input `i`.
    pub inputs: Vec<Signal<In, Bits<E>>>,
    /// One-hot source selects, output-major: bit `o * inputs + i` routes input `i` to output `o`.
    pub select: Vec<Signal<In, Bit>>,
    /// Output entries, output-major: element `o * lanes + l` is lane `l` of output `o`.
    pub outputs: Vec<Signal<Out, Bits<E>>>,
    /// Zero of width `E`: the value of an output with no source.
    zero: Constant<Bits<E>>,
    _inputs: usize,
    _outputs: usize,
    _lanes: usize,
}

impl<const E: usize> Crossbar<E> {
    /// A crossbar with `inputs` sources and `outputs` destinations of `lanes` elements each.
    pub fn new(inputs: usize, outputs: usize, lanes: usize) -> Self {
        Self {
            inputs: (0..inputs * lanes).map(|_| Default::default()).collect(),
            select: (0..outputs * inputs).map(|_| Default::default()).collect(),
            outputs: (0..outputs * lanes).map(|_| Default::default()).collect(),
            zero: Constant::new(Bits::default()),
            _inputs: inputs,
            _outputs: outputs,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for Crossbar<E> {
    // The single-pass loops over `ni` and `nl` bind the run-time sizes to loop variables:
    // rust-hdl evaluates index arithmetic with loop variables only (see docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for ni in self._inputs..(self._inputs + 1) {
            for nl in self._lanes..(self._lanes + 1) {
                for o in 0..self._outputs {
                    for l in 0..self._lanes {
                        self.outputs[o * nl + l].next = self.zero.val();
                        for i in 0..self._inputs {
                            if self.select[o * ni + i].val() {
                                self.outputs[o * nl + l].next = self.inputs[i * nl + l].val();
                            }
                        }
                    }
                }
            }
        }
    }
}
