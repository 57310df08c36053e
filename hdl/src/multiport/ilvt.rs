//! RTL of the invalidation-based live-value-table register file (Abdelhadi and Lemieux, FPGA
//! 2014): the LVT file's replicas, with a table that lives in block RAM, each write port
//! writing only its own bank of it.

use rust_hdl::prelude::*;

use super::ports::{ReadPorts, WritePorts};

use super::feedback::FeedbackBanks;
use super::live_code::{LiveCode, TABLE_BITS};
use super::replicas::Replicas;
use super::write_pipe::WritePipe;
use crate::cells::crossbar::Crossbar;
use crate::params::MultiportParams;

/// An invalidation-based live-value-table register file with `write_ports` (W) write ports and
/// `read_ports` (R) read ports, all served every cycle (`docs/multiport.md`).
///
/// * Data: W banks of R block-RAM replicas ([`Replicas`]), as in the LVT file: write port `w`
///   writes bank `w`, read port `r` reads replica `r` of every bank.
/// * Table: one bank of words per write port, in block RAM, replicated for the other write
///   ports and the read ports ([`FeedbackBanks`]). A write reads the other ports' table
///   banks at its register and writes into its own the word that makes it the live port
///   there, invalidating the others ([`LiveCode`]: binary or one-hot). A read reads every
///   table bank beside the data and selects the bank the words name.
/// * A write commits a cycle after its request (more with stages: [`WritePipe`]), its data
///   and its table word together; when several write ports write one register in a cycle,
///   the lowest-numbered one wins.
///
/// Timing: as the XOR file's. A read sees the writes of two cycles before and earlier (one
/// more per `pipeline` stage); a read in the cycle before a write of the same register
/// commits is undefined, and one in the write's own cycle returns the old value.
///
/// `E` is the element width, `A` the register-index width (`2^A` registers).
#[derive(LogicBlock)]
pub struct IlvtFile<const E: usize, const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The read ports.
    pub read: ReadPorts<Out, In, E, A>,
    /// The write ports.
    pub write: WritePorts<Out, In, E, A>,
    /// The writes, from request to commit.
    pipe: WritePipe<E, A>,
    /// The table's banks.
    live_banks: FeedbackBanks<TABLE_BITS, A>,
    /// What a write writes into the table, and which bank a read's table words name.
    code: LiveCode,
    /// The data replicas: bank `w` is write port `w`'s, replica `r` of it read port `r`'s.
    data: Replicas<E, A>,
    /// Per read port (one group each), the data bank the table names: inputs are write ports.
    output_mux: Crossbar<E>,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
    _depth: usize,
}

impl<const E: usize, const A: usize> IlvtFile<E, A> {
    /// Builds the file for `params`; the widths `E` and `A` must match them.
    pub fn new(params: &MultiportParams) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.register_bits());
        let l = params.lanes;
        let (r, w, depth) = (
            params.read_ports,
            params.write_ports,
            params.feedback_depth(),
        );
        let stages = (params.input_stage(), params.output_stage());
        Self {
            clock: Signal::default(),
            read: ReadPorts::new(r, l),
            write: WritePorts::new(w, l),
            pipe: WritePipe::new(w, l, depth, stages.0),
            live_banks: FeedbackBanks::new((w, r, 1), params.memory, stages, depth),
            code: LiveCode::new(params.encoding, w, r),
            data: Replicas::new((w, r, l), params.memory, stages.0, stages.1),
            output_mux: Crossbar::grouped(r, w, 1, l),
            _lanes: l,
            _read_ports: r,
            _write_ports: w,
            _depth: depth,
        }
    }
}

impl<const E: usize, const A: usize> Logic for IlvtFile<E, A> {
    // Loops over a single value (`nl`, `nr`, `nw`, `nd`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    for nd in self._depth..(self._depth + 1) {
                        self.pipe.clock.next = self.clock.val();
                        self.live_banks.clock.next = self.clock.val();
                        self.data.clock.next = self.clock.val();
                        // Issue: the feedback reads (none with one write port).
                        for w in 0..(self.live_banks.issue_valid.len()) {
                            self.live_banks.issue_valid[w].next = self.write.valid[w].val();
                            self.live_banks.issue_reg[w].next = self.write.reg[w].val();
                        }
                        for w in 0..self._write_ports {
                            // Issue: the pipe.
                            self.pipe.write_valid[w].next = self.write.valid[w].val();
                            self.pipe.write_reg[w].next = self.write.reg[w].val();
                            // Commit: the table word and the data, into bank w.
                            self.live_banks.commit_enable[w].next =
                                self.pipe.commit_enable[w].val();
                            self.live_banks.commit_reg[w].next = self.pipe.commit_reg[w].val();
                            for j in 0..self._write_ports {
                                self.live_banks.recent[w * nw + j].next =
                                    self.pipe.recent[w * nw + j].val();
                                for k in 0..(self._depth - 1) {
                                    self.live_banks.older[(w * nw + j) * (nd - 1) + k].next =
                                        self.pipe.older[(w * nw + j) * (nd - 1) + k].val();
                                }
                            }
                            for j in 0..self._write_ports {
                                self.code.feedback[w * nw + j].next =
                                    self.live_banks.feedback[w * nw + j].val();
                            }
                            self.live_banks.enc[w].next = self.code.enc[w].val();
                            self.data.write_enable[w].next = self.pipe.commit_enable[w].val();
                            self.data.write_address[w].next = self.pipe.commit_reg[w].val();
                            for l in 0..self._lanes {
                                self.pipe.write_data[w * nl + l].next =
                                    self.write.data[w * nl + l].val();
                                self.data.write_data[w * nl + l].next =
                                    self.pipe.commit_data[w * nl + l].val();
                            }
                        }
                        // Reads: every table bank and data bank; the table words pick the bank.
                        for r in 0..self._read_ports {
                            self.live_banks.read_valid[r].next = self.read.valid[r].val();
                            self.live_banks.read_reg[r].next = self.read.reg[r].val();
                            for w in 0..self._write_ports {
                                self.code.words[w * nr + r].next =
                                    self.live_banks.words[w * nr + r].val();
                                self.output_mux.select[r * nw + w].next =
                                    self.code.select[r * nw + w].val();
                                self.data.read_enable[w * nr + r].next = self.read.valid[r].val();
                                self.data.read_address[w * nr + r].next = self.read.reg[r].val();
                                for l in 0..self._lanes {
                                    self.output_mux.inputs[(r * nw + w) * nl + l].next =
                                        self.data.read_data[(w * nr + r) * nl + l].val();
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
}
