//! RTL of the flip-flop register file: every register in flip-flops, W write decoders, R read
//! multiplexers.

use rust_hdl::prelude::*;

use crate::crossbar::Crossbar;
use crate::decoder::Decoder;
use crate::params::MultiportParams;
use crate::regs::Registers;
use crate::signals;

/// A register file of flip-flops with `write_ports` write ports and `read_ports` read ports,
/// all served every cycle (`docs/multiport.md`).
///
/// * A write is stored on the rising edge. When several write ports write one register in a
///   cycle, the lowest-numbered port wins.
/// * A read is registered: `read_data` shows, after the rising edge, the register as it was
///   before that edge's writes. It holds nothing defined after a cycle without a read.
///
/// The read multiplexers are AND-OR trees over decoded addresses (a crossbar with one-hot
/// selects), which synthesise as balanced trees.
///
/// `E` is the element width, `A` the register-index width (`2^A` registers).
#[derive(LogicBlock)]
pub struct FlopFile<const E: usize, const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Read request valid, one per read port.
    pub read_valid: Vec<Signal<In, Bit>>,
    /// Register index of each read, 0..registers-1.
    pub read_reg: Vec<Signal<In, Bits<A>>>,
    /// Read data, port-major (`p * lanes + l`), for the reads of the previous cycle.
    pub read_data: Vec<Signal<Out, Bits<E>>>,
    /// Write request valid, one per write port.
    pub write_valid: Vec<Signal<In, Bit>>,
    /// Register index of each write, 0..registers-1.
    pub write_reg: Vec<Signal<In, Bits<A>>>,
    /// Write data, port-major (`w * lanes + l`).
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// The registers, register-major (`k * lanes + l`).
    cells: Registers<Bits<E>>,
    /// Which register each write port writes.
    writes: Decoder<A>,
    /// Which register each read port reads.
    reads: Decoder<A>,
    /// The read multiplexers: inputs are the registers, outputs the read ports.
    read_mux: Crossbar<E>,
    /// The read data registers.
    read_out: Registers<Bits<E>>,
    _registers: usize,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl<const E: usize, const A: usize> FlopFile<E, A> {
    /// Builds the file for `params`; the widths `E` and `A` must match them.
    pub fn new(params: &MultiportParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.register_bits());
        let (n, l) = (params.registers, params.lanes);
        let (r, w) = (params.read_ports, params.write_ports);
        Self {
            clock: Signal::default(),
            read_valid: signals(r),
            read_reg: signals(r),
            read_data: signals(r * l),
            write_valid: signals(w),
            write_reg: signals(w),
            write_data: signals(w * l),
            cells: Registers::new(n * l),
            writes: Decoder::new(w, n),
            reads: Decoder::new(r, n),
            read_mux: Crossbar::new(n, r, l),
            read_out: Registers::new(r * l),
            _registers: n,
            _lanes: l,
            _read_ports: r,
            _write_ports: w,
        }
    }
}

impl<const E: usize, const A: usize> Logic for FlopFile<E, A> {
    // Loops over a single value (`nn`, `nl`, `nw`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nn in self._registers..(self._registers + 1) {
            for nl in self._lanes..(self._lanes + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    self.cells.clock.next = self.clock.val();
                    self.read_out.clock.next = self.clock.val();
                    for w in 0..self._write_ports {
                        self.writes.valid[w].next = self.write_valid[w].val();
                        self.writes.address[w].next = self.write_reg[w].val();
                    }
                    for p in 0..self._read_ports {
                        self.reads.valid[p].next = self.read_valid[p].val();
                        self.reads.address[p].next = self.read_reg[p].val();
                    }
                    // Writes: the highest port first, so that the lowest one wins.
                    for k in 0..self._registers {
                        for l in 0..self._lanes {
                            self.cells.d[k * nl + l].next = self.cells.q[k * nl + l].val();
                            for w in 0..self._write_ports {
                                if self.writes.hit[(nw - 1 - w) * nn + k].val() {
                                    self.cells.d[k * nl + l].next =
                                        self.write_data[(nw - 1 - w) * nl + l].val();
                                }
                            }
                            self.read_mux.inputs[k * nl + l].next = self.cells.q[k * nl + l].val();
                        }
                    }
                    // Reads: the decoded index selects the register, then a register stage.
                    for k in 0..(self._read_ports * self._registers) {
                        self.read_mux.select[k].next = self.reads.hit[k].val();
                    }
                    for k in 0..(self._read_ports * self._lanes) {
                        self.read_out.d[k].next = self.read_mux.outputs[k].val();
                        self.read_data[k].next = self.read_out.q[k].val();
                    }
                }
            }
        }
    }
}
