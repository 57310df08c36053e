//! RTL of the live-value-table register file (LaForest and Steffan, FPGA 2010): one block-RAM
//! replica per write port and read port, and a table of which write port last wrote each
//! register.

use rust_hdl::prelude::*;

use super::ports::{ReadPorts, WritePorts};

use super::live_table::{LiveTable, LVT_BITS};
use super::replicas::Replicas;
use crate::cells::crossbar::Crossbar;
use crate::params::MultiportParams;

/// A live-value-table register file with `write_ports` (W) write ports and `read_ports` (R)
/// read ports, all served every cycle (`docs/multiport.md`).
///
/// * Storage: W banks of R block-RAM replicas ([`Replicas`]). Write port `w` writes its bank's
///   R replicas `(w, 0..R)`; read port `r` reads replica `r` of every bank.
/// * The live-value table ([`LiveTable`], in flip-flops) records which write port wrote each
///   register last; when several write ports write one register in a cycle, the
///   lowest-numbered one wins and is recorded.
/// * A read fetches its W replicas and looks the table up in the same cycle; the table's
///   answer arrives beside the block RAMs' data and selects the replica that holds the live
///   value.
///
/// With `pipeline` 1 the block RAMs' output register (a fabric register with inferred
/// memory) is a stage and the table's lookup is split in two cycles; with `pipeline` 2 every
/// block-RAM input and the table's requests are registered too. Each stage adds a cycle of
/// read latency; a read still sees every write of an earlier cycle.
///
/// A read of a register that a write port writes in the same cycle reads a replica while it
/// is written: its data is undefined, as in the block RAMs (`x` in the Verilog).
///
/// `E` is the element width, `A` the register-index width (`2^A` registers).
#[derive(LogicBlock)]
pub struct LvtFile<const E: usize, const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The read ports.
    pub read: ReadPorts<Out, In, E, A>,
    /// The write ports.
    pub write: WritePorts<Out, In, E, A>,
    /// The replicas: bank `w` is write port `w`'s, replica `r` of it read port `r`'s.
    replicas: Replicas<E, A>,
    /// The live-value table: per register, the write port that wrote it last.
    live_table: LiveTable<A>,
    /// Per read port (one group each), the replica the table names: inputs are write ports.
    output_mux: Crossbar<E>,
    /// The write-port numbers `0..write_ports`.
    port_number: Vec<Constant<Bits<LVT_BITS>>>,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl<const E: usize, const A: usize> LvtFile<E, A> {
    /// Builds the file for `params`; the widths `E` and `A` must match them.
    pub fn new(params: &MultiportParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.register_bits());
        assert!(params.write_ports <= 1 << LVT_BITS);
        let l = params.lanes;
        let (r, w) = (params.read_ports, params.write_ports);
        let (input, output) = (params.input_stage(), params.output_stage());
        Self {
            clock: Signal::default(),
            read: ReadPorts::new(r, l),
            write: WritePorts::new(w, l),
            replicas: Replicas::new((w, r, l), params.memory, input, output),
            live_table: LiveTable::new(w, r, input, output),
            output_mux: Crossbar::grouped(r, w, 1, l),
            port_number: crate::signals::constants(0..w as u64),
            _lanes: l,
            _read_ports: r,
            _write_ports: w,
        }
    }
}

impl<const E: usize, const A: usize> Logic for LvtFile<E, A> {
    // Loops over a single value (`nl`, `nr`, `nw`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    self.replicas.clock.next = self.clock.val();
                    self.live_table.clock.next = self.clock.val();
                    // Writes: bank w takes write port w; the table records w.
                    for w in 0..self._write_ports {
                        self.replicas.write_enable[w].next = self.write.valid[w].val();
                        self.replicas.write_address[w].next = self.write.reg[w].val();
                        for l in 0..self._lanes {
                            self.replicas.write_data[w * nl + l].next =
                                self.write.data[w * nl + l].val();
                        }
                        self.live_table.write_valid[w].next = self.write.valid[w].val();
                        self.live_table.write_reg[w].next = self.write.reg[w].val();
                    }
                    // Reads: replica r of every bank, and the table beside them; the table's
                    // answer picks the bank.
                    for r in 0..self._read_ports {
                        self.live_table.read_reg[r].next = self.read.reg[r].val();
                        for w in 0..self._write_ports {
                            self.replicas.read_enable[w * nr + r].next = self.read.valid[r].val();
                            self.replicas.read_address[w * nr + r].next = self.read.reg[r].val();
                            self.output_mux.select[r * nw + w].next =
                                self.live_table.live[r].val() == self.port_number[w].val();
                            for l in 0..self._lanes {
                                self.output_mux.inputs[(r * nw + w) * nl + l].next =
                                    self.replicas.read_data[(w * nr + r) * nl + l].val();
                            }
                        }
                        for l in 0..self._lanes {
                            self.read.data[r * nl + l].next =
                                self.output_mux.outputs[r * nl + l].val();
                        }
                    }
                }
            }
        }
    }
}
