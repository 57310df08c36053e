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
/// if-statements: `#[hdl_gen]` turns such a chain into a priority mux chain whose depth grows
/// with the input count, while an OR of gated terms synthesises as a balanced tree. With
/// one-hot selects the two are the same function. The OR is taken in chunks of about
/// sqrt(inputs) terms, then over the chunks, so that no chain in the netlist before
/// optimisation is longer than about 2 sqrt(inputs) (a 256-input chain exhausts the stack of
/// the WebAssembly build of Yosys).
#[derive(LogicBlock)]
pub struct Crossbar<const E: usize> {
    /// Input entries: element `(g * inputs + i) * lanes + l` is lane `l` of input `i` of group `g`.
    pub inputs: Vec<Signal<In, Bits<E>>>,
    /// One-hot source selects: bit `(g * outputs + o) * inputs + i` routes input `i` to output `o`.
    pub select: Vec<Signal<In, Bit>>,
    /// Output entries: element `(g * outputs + o) * lanes + l` is lane `l` of output `o`.
    pub outputs: Vec<Signal<Out, Bits<E>>>,
    /// Zero of width `E`: the value of an output with no source.
    zero: Constant<Bits<E>>,
    /// `term[((g * outputs + o) * padded + i) * lanes + l]`: input `i`'s lane `l` if output
    /// `o` selects it, else zero (zero for the padding, `i >= inputs`).
    term: Vec<Signal<Local, Bits<E>>>,
    /// `chunk[((g * outputs + o) * chunks + c) * lanes + l]`: the OR of terms
    /// `c * chunk_size..(c + 1) * chunk_size`.
    chunk: Vec<Signal<Local, Bits<E>>>,
    _groups: usize,
    _inputs: usize,
    /// Terms per chunk: about sqrt(inputs).
    _chunk_size: usize,
    /// Chunks: inputs / chunk size, rounded up.
    _chunks: usize,
    /// Inputs rounded up to whole chunks.
    _padded: usize,
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
        let chunk_size = (1..=inputs).find(|c| c * c >= inputs).unwrap_or(1);
        let chunks = inputs.div_ceil(chunk_size);
        let padded = chunks * chunk_size;
        Self {
            inputs: signals(groups * inputs * lanes),
            select: signals(groups * outputs * inputs),
            outputs: signals(groups * outputs * lanes),
            zero: Constant::new(Bits::default()),
            term: signals(groups * outputs * padded * lanes),
            chunk: signals(groups * outputs * chunks * lanes),
            _groups: groups,
            _inputs: inputs,
            _chunk_size: chunk_size,
            _chunks: chunks,
            _padded: padded,
            _outputs: outputs,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for Crossbar<E> {
    // The single-pass loops over `ni`, `no`, `nl`, `np`, `nq` and `nc` bind the run-time sizes
    // to loop variables: rust-hdl evaluates index arithmetic with loop variables only (see
    // docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for ni in self._inputs..(self._inputs + 1) {
            for no in self._outputs..(self._outputs + 1) {
                for nl in self._lanes..(self._lanes + 1) {
                    for np in self._padded..(self._padded + 1) {
                        for nq in self._chunks..(self._chunks + 1) {
                            for nc in self._chunk_size..(self._chunk_size + 1) {
                                for g in 0..self._groups {
                                    for o in 0..self._outputs {
                                        for l in 0..self._lanes {
                                            for i in 0..self._inputs {
                                                self.term[((g * no + o) * np + i) * nl + l].next =
                                                    self.zero.val();
                                                if self.select[(g * no + o) * ni + i].val() {
                                                    self.term[((g * no + o) * np + i) * nl + l]
                                                        .next =
                                                        self.inputs[(g * ni + i) * nl + l].val();
                                                }
                                            }
                                            for i in self._inputs..self._padded {
                                                self.term[((g * no + o) * np + i) * nl + l].next =
                                                    self.zero.val();
                                            }
                                            self.outputs[(g * no + o) * nl + l].next =
                                                self.zero.val();
                                            for q in 0..self._chunks {
                                                self.chunk[((g * no + o) * nq + q) * nl + l].next =
                                                    self.zero.val();
                                                for c in 0..self._chunk_size {
                                                    self.chunk[((g * no + o) * nq + q) * nl + l]
                                                        .next = self.chunk
                                                        [((g * no + o) * nq + q) * nl + l]
                                                        .val()
                                                        | self.term[((g * no + o) * np
                                                            + q * nc
                                                            + c)
                                                            * nl
                                                            + l]
                                                            .val();
                                                }
                                                self.outputs[(g * no + o) * nl + l].next = self
                                                    .outputs[(g * no + o) * nl + l]
                                                    .val()
                                                    | self.chunk[((g * no + o) * nq + q) * nl + l]
                                                        .val();
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
