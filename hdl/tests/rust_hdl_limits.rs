//! Executable record of the rust-hdl 0.46 limits this project works around
//! (docs/rust-hdl.md). Each test is the smallest design that shows one limit; if rust-hdl
//! ever lifts it, the test fails and the workaround can go.

use rust_hdl::prelude::*;

/// A block with a vector of sub-blocks that each hold a vector of signals.
#[derive(LogicBlock, Default)]
struct Leaf {
    pub value: Vec<Signal<In, Bit>>,
}

impl Logic for Leaf {
    fn update(&mut self) {}
}

#[derive(LogicBlock, Default)]
struct NestedIndex {
    pub inputs: Vec<Signal<In, Bit>>,
    leaves: Vec<Leaf>,
    _count: usize,
}

impl Logic for NestedIndex {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._count {
            for j in 0..self._count {
                self.leaves[i].value[j].next = self.inputs[j].val();
            }
        }
    }
}

#[test]
fn only_the_first_index_of_a_signal_path_is_resolved() {
    let mut block = NestedIndex {
        inputs: (0..2).map(|_| Signal::default()).collect(),
        leaves: (0..2)
            .map(|_| Leaf {
                value: (0..2).map(|_| Signal::default()).collect(),
            })
            .collect(),
        _count: 2,
    };
    block.connect_all();
    let verilog = generate_verilog_unchecked(&block);
    // `leaves[i].value[j]` becomes `leaves$1$value[j]`: the second index stays unresolved,
    // which is not valid Verilog. Hence the project's flat vectors (`x[a * n + b]`).
    assert!(verilog.contains("leaves$1$value[j]"), "{verilog}");
}

#[derive(LogicBlock, Default)]
struct Precedence {
    pub a: Signal<In, Bits<4>>,
    pub b: Signal<In, Bits<4>>,
    pub c: Signal<In, Bits<4>>,
    pub y: Signal<Out, Bit>,
}

impl Logic for Precedence {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = self.a.val() & self.b.val() == self.c.val();
    }
}

#[test]
fn binary_operators_are_emitted_without_parentheses() {
    let mut block = Precedence::default();
    block.connect_all();
    let verilog = generate_verilog(&block);
    // Rust reads `a & b == c` as `(a & b) == c`; Verilog reads the emitted text as
    // `a & (b == c)`. The project always writes the parentheses itself.
    assert!(verilog.contains("y = a & b == c;"), "{verilog}");
}

#[derive(LogicBlock, Default)]
struct IndexArithmetic {
    pub inputs: Vec<Signal<In, Bit>>,
    pub outputs: Vec<Signal<Out, Bit>>,
    _rows: usize,
    _columns: usize,
}

impl Logic for IndexArithmetic {
    // Transposes a rows x columns matrix of bits. Index arithmetic sees loop variables only,
    // so the column count is bound to `nc` by a loop over the single value `_columns`.
    #[hdl_gen]
    fn update(&mut self) {
        for nc in self._columns..(self._columns + 1) {
            for nr in self._rows..(self._rows + 1) {
                for r in 0..self._rows {
                    for c in 0..self._columns {
                        self.outputs[c * nr + r].next = self.inputs[r * nc + c].val();
                    }
                }
            }
        }
    }
}

#[test]
fn single_value_loops_bind_run_time_sizes_for_index_arithmetic() {
    let mut block = IndexArithmetic {
        inputs: (0..6).map(|_| Signal::default()).collect(),
        outputs: (0..6).map(|_| Signal::default()).collect(),
        _rows: 2,
        _columns: 3,
    };
    block.connect_all();
    let verilog = generate_verilog(&block);
    // Row 1, column 2 of the input (index 5) lands at column 2, row 1 of the output (index 5);
    // row 0, column 2 (index 2) at index 4.
    assert!(verilog.contains("outputs$4 = inputs$2;"), "{verilog}");
    assert!(verilog.contains("outputs$1 = inputs$3;"), "{verilog}");
}

#[derive(LogicBlock, Default)]
struct Widen {
    pub narrow: Signal<In, Bits<4>>,
    pub wide: Signal<Out, Bits<8>>,
}

impl Logic for Widen {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide.next = bit_cast::<8, 4>(self.narrow.val());
    }
}

#[test]
fn bit_cast_does_not_widen_in_the_verilog() {
    let mut block = Widen::default();
    block.connect_all();
    let verilog = generate_verilog(&block);
    // The 4-bit input is masked with an 8-bit constant, not extended: the Verilog means the
    // right thing, but Verilator's WIDTH lint rejects the 4-bit operand of an 8-bit AND. Hence
    // the GRF keeps equal widths on both sides (tables of wide constants selected by a narrow
    // value, instead of widening the narrow value).
    assert!(verilog.contains("wide = ((narrow) & 8'hff);"), "{verilog}");
}
