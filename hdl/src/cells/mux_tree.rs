//! Binary multiplexer trees: several independent `2^bits`-to-1 multiplexers, each selecting
//! by the low bits of its own index.

use rust_hdl::prelude::*;

use crate::signals::signals;

/// `groups` multiplexers of `2^bits` entries of `E` bits: output `g` is entry
/// `g * 2^bits + (index[g] mod 2^bits)`. Combinational.
///
/// Each is a binary tree of two-input multiplexers, the index's bit 0 choosing at the leaves:
/// the shape FPGA tools map onto their wide-multiplexer cells (ECP5: two LUT4s and a `PFUMX`
/// per four inputs), shallower than an AND-OR of decoded selects over as many entries. The
/// tree's levels are written out here, since `#[hdl_gen]` cannot write a structure whose
/// width shrinks from level to level (`docs/rust-hdl.md`, 20).
///
/// `E` is the entry width, `A` the index width (`bits <= A`; the higher bits are not read).
#[derive(LogicBlock)]
pub struct MuxTree<const E: usize, const A: usize> {
    /// Entries: `g * 2^bits + k` is entry `k` of multiplexer `g`.
    pub entries: Vec<Signal<In, Bits<E>>>,
    /// Per multiplexer, its index; only the low `bits` bits are read.
    pub index: Vec<Signal<In, Bits<A>>>,
    /// Per multiplexer, the entry its index names.
    pub value: Vec<Signal<Out, Bits<E>>>,
    _bits: usize,
}

impl<const E: usize, const A: usize> MuxTree<E, A> {
    /// `groups` multiplexers of `2^bits` entries (`bits <= A`).
    pub fn new(groups: usize, bits: usize) -> Self {
        assert!(bits <= A);
        Self {
            entries: signals(groups << bits),
            index: signals(groups),
            value: signals(groups),
            _bits: bits,
        }
    }

    /// The module's Verilog: per multiplexer, one wire per node of its tree.
    fn verilog(&self) -> String {
        let (groups, bits) = (self.index.len(), self._bits);
        let mut text = format!(
            "// {groups} multiplexer(s) of {} entries of {E} bits, as binary trees.\n",
            1usize << bits
        );
        if bits < A {
            let indices: Vec<String> = (0..groups)
                .map(|g| format!("index${g}[{}:{bits}]", A - 1))
                .collect();
            text += &format!(
                "wire [{}:0] unused_index = {{{}}};\n",
                groups * (A - bits) - 1,
                indices.join(", ")
            );
        }
        let mut outputs = String::new();
        for g in 0..groups {
            // Level 0 is the entries; level `v + 1` node `k` picks from level `v`'s nodes
            // `2k` and `2k + 1` by the index's bit `v`.
            let node = |v: usize, k: usize| match v {
                0 => format!("entries${}", (g << bits) + k),
                _ => format!("tree_{g}_{v}_{k}"),
            };
            for v in 0..bits {
                for k in 0..(1usize << (bits - v - 1)) {
                    text += &format!(
                        "wire [{}:0] {} = index${g}[{v}] ? {} : {};\n",
                        E - 1,
                        node(v + 1, k),
                        node(v, 2 * k + 1),
                        node(v, 2 * k)
                    );
                }
            }
            outputs += &format!("   value${g} = {};\n", node(bits, 0));
        }
        text + "always @(*) begin\n" + &outputs + "end\n"
    }
}

impl<const E: usize, const A: usize> Logic for MuxTree<E, A> {
    fn update(&mut self) {
        let size = 1usize << self._bits;
        for (g, value) in self.value.iter_mut().enumerate() {
            let k = self.index[g].val().index() % size;
            value.next = self.entries[g * size + k].val();
        }
    }

    fn connect(&mut self) {
        for value in &mut self.value {
            value.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
