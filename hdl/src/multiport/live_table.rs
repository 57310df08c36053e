//! The live-value table of the `lvt` file: which write port wrote each register last, in
//! flip-flops, looked up in one cycle or, split at its middle, in two.

use rust_hdl::prelude::*;

use super::cells::Cells;
use crate::cells::decoder::Decoder;
use crate::cells::mux_tree::MuxTree;
use crate::cells::regs::Registers;
use crate::signals::signals;

/// Bits of a write-port number in the live-value table.
pub const LVT_BITS: usize = 2;

/// A table of one write-port number per register, written by `write_ports` ports and read by
/// `read_ports` ports (LaForest and Steffan's live-value table).
///
/// * A write of port `w` stores `w` at its register on the rising edge; when several ports
///   write one register in a cycle, the lowest-numbered one wins and is stored.
/// * A read looks its register up in the table as it is in the read's cycle (before that
///   cycle's writes) and shows the port number in `live` after one rising edge, or after two
///   when the lookup is split.
/// * With the request stage, every request is registered first and takes effect a cycle
///   later (a read's answer too): a write as the two halves of its index decoded, a read as
///   its index, one copy per row (each copy drives one row's multiplexer tree).
///
/// An index's low half names an entry within a row of `row_size` entries, its high half the
/// row. A write's register is the AND of the two halves' decoded lines. The lookup is two
/// levels of multiplexer trees ([`MuxTree`]): the low half picks one entry in each row, the
/// high half picks the row; split, the rows' picks and the high half are registered between
/// the levels.
///
/// `A` is the register-index width.
#[derive(LogicBlock)]
pub struct LiveTable<const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Write request valid, one per write port.
    pub write_valid: Vec<Signal<In, Bit>>,
    /// Register index of each write.
    pub write_reg: Vec<Signal<In, Bits<A>>>,
    /// Register index of each read.
    pub read_reg: Vec<Signal<In, Bits<A>>>,
    /// Per read port: the port that wrote its register last.
    pub live: Vec<Signal<Out, Bits<LVT_BITS>>>,
    /// Per write port, the low half of its index decoded (when valid).
    write_low: Decoder<A>,
    /// Per write port, the high half of its index decoded (when valid).
    write_high: Decoder<A>,
    /// The decoded halves (`w * (row_size + rows) + k`, the high half's after the low
    /// half's), registered with the request stage.
    write_stage: Registers<Bit>,
    /// The reads' indices, registered with the request stage: one copy per read port and
    /// row (`r * rows + c`).
    read_stage: Registers<Bits<A>>,
    /// The table.
    cells: Cells<LVT_BITS>,
    /// Per read port and row (`r * rows + c`), the entry the low half of the index picks.
    row_pick: MuxTree<LVT_BITS, A>,
    /// The rows' picks, registered when split.
    row_stage: Registers<Bits<LVT_BITS>>,
    /// Per read port, the high half of its index, registered when split.
    high_stage: Registers<Bits<A>>,
    /// Per read port, the row the high half picks.
    pick: MuxTree<LVT_BITS, A>,
    /// The looked-up port numbers.
    result: Registers<Bits<LVT_BITS>>,
    /// The write-port numbers `0..write_ports`.
    port_number: Vec<Constant<Bits<LVT_BITS>>>,
    /// The low half of an index.
    low_mask: Constant<Bits<A>>,
    /// The width of the low half of an index.
    low_bits: Constant<Bits<A>>,
    _write_ports: usize,
    _read_ports: usize,
    _row_size: usize,
    _rows: usize,
}

impl<const A: usize> LiveTable<A> {
    /// A table of `2^A` entries for `write_ports` and `read_ports`, with the request stage or
    /// not, its lookup `split` in two cycles or not.
    pub fn new(write_ports: usize, read_ports: usize, request_stage: bool, split: bool) -> Self {
        let low = A.div_ceil(2);
        let (size, rows) = (1 << low, 1 << (A - low));
        let (r, w) = (read_ports, write_ports);
        Self {
            clock: Signal::default(),
            write_valid: signals(w),
            write_reg: signals(w),
            read_reg: signals(r),
            live: signals(r),
            write_low: Decoder::new(w, size),
            write_high: Decoder::new(w, rows),
            write_stage: Registers::stage(w * (size + rows), request_stage),
            read_stage: Registers::copies(r * rows, request_stage),
            cells: Cells::new(1, 1 << A, 1, w),
            row_pick: MuxTree::new(r * rows, low),
            row_stage: Registers::stage(r * rows, split),
            high_stage: Registers::stage(r, split),
            pick: MuxTree::new(r, A - low),
            result: Registers::new(r),
            port_number: crate::signals::constants(0..w as u64),
            low_mask: crate::signals::constant((size - 1) as u64),
            low_bits: crate::signals::constant(low as u64),
            _write_ports: w,
            _read_ports: r,
            _row_size: size,
            _rows: rows,
        }
    }
}

impl<const A: usize> Logic for LiveTable<A> {
    // Loops over a single value (`ns`, `nc`, `nh`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for ns in self._row_size..(self._row_size + 1) {
            for nc in self._rows..(self._rows + 1) {
                for nh in (self._row_size + self._rows)..(self._row_size + self._rows + 1) {
                    self.write_stage.clock.next = self.clock.val();
                    self.read_stage.clock.next = self.clock.val();
                    self.cells.clock.next = self.clock.val();
                    self.row_stage.clock.next = self.clock.val();
                    self.high_stage.clock.next = self.clock.val();
                    self.result.clock.next = self.clock.val();
                    // Writes: the halves decoded, then their AND names the register.
                    for w in 0..self._write_ports {
                        self.write_low.valid[w].next = self.write_valid[w].val();
                        self.write_low.address[w].next =
                            self.write_reg[w].val() & self.low_mask.val();
                        self.write_high.valid[w].next = self.write_valid[w].val();
                        self.write_high.address[w].next =
                            self.write_reg[w].val() >> self.low_bits.val();
                        for k in 0..self._row_size {
                            self.write_stage.d[w * nh + k].next =
                                self.write_low.hit[w * ns + k].val();
                        }
                        for c in 0..self._rows {
                            self.write_stage.d[w * nh + ns + c].next =
                                self.write_high.hit[w * nc + c].val();
                            for k in 0..self._row_size {
                                self.cells.write_hit[(w * nc + c) * ns + k].next =
                                    self.write_stage.q[w * nh + k].val()
                                        & self.write_stage.q[w * nh + ns + c].val();
                            }
                        }
                        self.cells.write_data[w].next = self.port_number[w].val();
                    }
                    // Reads: the low half picks within every row, the high half the row.
                    for r in 0..self._read_ports {
                        for c in 0..self._rows {
                            self.read_stage.d[r * nc + c].next = self.read_reg[r].val();
                            self.row_pick.index[r * nc + c].next =
                                self.read_stage.q[r * nc + c].val();
                            for k in 0..self._row_size {
                                self.row_pick.entries[(r * nc + c) * ns + k].next =
                                    self.cells.value[c * ns + k].val();
                            }
                            self.row_stage.d[r * nc + c].next =
                                self.row_pick.value[r * nc + c].val();
                            self.pick.entries[r * nc + c].next = self.row_stage.q[r * nc + c].val();
                        }
                        self.high_stage.d[r].next =
                            self.read_stage.q[r * nc].val() >> self.low_bits.val();
                        self.pick.index[r].next = self.high_stage.q[r].val();
                        self.result.d[r].next = self.pick.value[r].val();
                        self.live[r].next = self.result.q[r].val();
                    }
                }
            }
        }
    }
}
