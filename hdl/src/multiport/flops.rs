//! RTL of the flip-flop register file: every register in flip-flops, W write decoders, R read
//! multiplexers.

use rust_hdl::prelude::*;

use super::ports::{ReadPorts, WritePorts};

use super::cells::Cells;
use crate::cells::crossbar::Crossbar;
use crate::cells::decoder::Decoder;
use crate::cells::regs::Registers;
use crate::params::MultiportParams;

/// `groups` register files of flip-flops side by side, each with `write_ports` write ports and
/// `read_ports` read ports of its own, all served every cycle (`docs/multiport.md`). A port of
/// one group reaches only its own group's registers: the clustered file builds its local files
/// as groups, one per cluster.
///
/// * A write is stored on the rising edge. When several write ports write one register in a
///   cycle, the lowest-numbered port wins.
/// * A read is registered: `read_data` shows, after the rising edge, the register as it was
///   before that edge's writes. It holds nothing defined after a cycle without a read.
///
/// The read multiplexers are AND-OR trees over decoded addresses (a crossbar with one-hot
/// selects), which synthesise as balanced trees.
///
/// `E` is the element width, `A` the register-index width (`2^A` registers per group).
#[derive(LogicBlock)]
pub struct FlopFile<const E: usize, const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The read ports.
    pub read: ReadPorts<Out, In, E, A>,
    /// The write ports.
    pub write: WritePorts<Out, In, E, A>,
    /// The registers (`(g * registers + k) * lanes + l`) and their writes.
    cells: Cells<E>,
    /// Which register each write port writes.
    writes: Decoder<A>,
    /// Which register each read port reads.
    reads: Decoder<A>,
    /// The read multiplexers, one crossbar per group: inputs are the group's registers,
    /// outputs its read ports.
    read_mux: Crossbar<E>,
    /// The read data registers.
    read_out: Registers<Bits<E>>,
    _groups: usize,
    _registers: usize,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl<const E: usize, const A: usize> FlopFile<E, A> {
    /// Builds one file for `params`; the widths `E` and `A` must match them.
    pub fn new(params: &MultiportParams) -> Self {
        Self::grouped(params, 1)
    }

    /// Builds `groups` files for `params` side by side; the widths `E` and `A` must match them.
    pub fn grouped(params: &MultiportParams, groups: usize) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.register_bits());
        let (n, l) = (params.registers, params.lanes);
        let (r, w) = (groups * params.read_ports, groups * params.write_ports);
        Self {
            clock: Signal::default(),
            read: ReadPorts::new(r, l),
            write: WritePorts::new(w, l),
            cells: Cells::new(groups, n, l, params.write_ports),
            writes: Decoder::new(w, n),
            reads: Decoder::new(r, n),
            read_mux: Crossbar::grouped(groups, n, params.read_ports, l),
            read_out: Registers::new(r * l),
            _groups: groups,
            _registers: n,
            _lanes: l,
            _read_ports: params.read_ports,
            _write_ports: params.write_ports,
        }
    }
}

impl<const E: usize, const A: usize> Logic for FlopFile<E, A> {
    // A loop over a single value (`nl`) binds a run-time size to a loop variable
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            self.cells.clock.next = self.clock.val();
            self.read_out.clock.next = self.clock.val();
            for w in 0..(self._groups * self._write_ports) {
                self.writes.valid[w].next = self.write.valid[w].val();
                self.writes.address[w].next = self.write.reg[w].val();
                for l in 0..self._lanes {
                    self.cells.write_data[w * nl + l].next = self.write.data[w * nl + l].val();
                }
            }
            for k in 0..(self._groups * self._write_ports * self._registers) {
                self.cells.write_hit[k].next = self.writes.hit[k].val();
            }
            for k in 0..(self._groups * self._registers * self._lanes) {
                self.read_mux.inputs[k].next = self.cells.value[k].val();
            }
            for p in 0..(self._groups * self._read_ports) {
                self.reads.valid[p].next = self.read.valid[p].val();
                self.reads.address[p].next = self.read.reg[p].val();
            }
            // Reads: the decoded index selects the register, then a register stage.
            for k in 0..(self._groups * self._read_ports * self._registers) {
                self.read_mux.select[k].next = self.reads.hit[k].val();
            }
            for k in 0..(self._groups * self._read_ports * self._lanes) {
                self.read_out.d[k].next = self.read_mux.outputs[k].val();
                self.read.data[k].next = self.read_out.q[k].val();
            }
        }
    }
}
