//! RTL of the XOR-based register file (LaForest, Liu, Rapati and Steffan, FPGA 2012): one
//! bank per write port, each holding the XOR of its port's data with the other banks', so
//! that the XOR of all banks is the register's value.

use rust_hdl::prelude::*;

use super::ports::{ReadPorts, WritePorts};

use super::feedback::FeedbackBanks;
use super::write_pipe::WritePipe;
use crate::params::MultiportParams;

/// An XOR-based register file with `write_ports` (W) write ports and `read_ports` (R) read
/// ports, all served every cycle (`docs/multiport.md`).
///
/// * Storage: W banks ([`FeedbackBanks`]), each replicated W - 1 + R times: once for every
///   other write port and once for every read port.
/// * A write of `d` to register `n` by port `w` reads the other banks at `n` first, then
///   stores `d ^ (the other banks' words)` in bank `w`: the XOR of all banks at `n` is then
///   `d`. The words come from the block RAMs a cycle after the request (more with stages), and
///   the bank is written then ([`WritePipe`]); words the other ports wrote meanwhile are taken
///   from the pipe instead of the block RAMs.
/// * A read reads its replica of every bank and returns their XOR.
/// * When several write ports write one register in a cycle, the lowest-numbered one wins.
///
/// Timing, as the paper gives it: a write takes two cycles (the other banks' words, then the
/// write), so a read sees the writes of two cycles before and earlier. A read in the cycle
/// right after a write of the same register reads a bank while it is written: undefined
/// (the paper's block RAMs return the old value). A read in the write's own cycle returns the
/// old value. Each `pipeline` stage adds a cycle to the read latency and to the write.
///
/// `E` is the element width, `A` the register-index width (`2^A` registers).
#[derive(LogicBlock)]
pub struct XorFile<const E: usize, const A: usize> {
    /// Clock: writes and reads take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The read ports.
    pub read: ReadPorts<Out, In, E, A>,
    /// The write ports.
    pub write: WritePorts<Out, In, E, A>,
    /// The writes, from request to the bank's write.
    pipe: WritePipe<E, A>,
    /// The banks and their replicas.
    banks: FeedbackBanks<E, A>,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
    _depth: usize,
}

impl<const E: usize, const A: usize> XorFile<E, A> {
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
            banks: FeedbackBanks::new((w, r, l), params.memory, stages, depth),
            _lanes: l,
            _read_ports: r,
            _write_ports: w,
            _depth: depth,
        }
    }
}

impl<const E: usize, const A: usize> Logic for XorFile<E, A> {
    // Loops over a single value (`nl`, `nr`, `nw`, `nd`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    for nd in self._depth..(self._depth + 1) {
                        self.pipe.clock.next = self.clock.val();
                        self.banks.clock.next = self.clock.val();
                        // Issue: the feedback reads (none with one write port).
                        for w in 0..(self.banks.issue_valid.len()) {
                            self.banks.issue_valid[w].next = self.write.valid[w].val();
                            self.banks.issue_reg[w].next = self.write.reg[w].val();
                        }
                        for w in 0..self._write_ports {
                            self.pipe.write_valid[w].next = self.write.valid[w].val();
                            self.pipe.write_reg[w].next = self.write.reg[w].val();
                            self.banks.commit_enable[w].next = self.pipe.commit_enable[w].val();
                            self.banks.commit_reg[w].next = self.pipe.commit_reg[w].val();
                            for j in 0..self._write_ports {
                                self.banks.recent[w * nw + j].next =
                                    self.pipe.recent[w * nw + j].val();
                                for k in 0..(self._depth - 1) {
                                    self.banks.older[(w * nw + j) * (nd - 1) + k].next =
                                        self.pipe.older[(w * nw + j) * (nd - 1) + k].val();
                                }
                            }
                            // The word to write: the data XOR the other banks' words.
                            for l in 0..self._lanes {
                                self.pipe.write_data[w * nl + l].next =
                                    self.write.data[w * nl + l].val();
                                self.banks.enc[w * nl + l].next =
                                    self.pipe.commit_data[w * nl + l].val();
                                for j in 0..self._write_ports {
                                    self.banks.enc[w * nl + l].next = self.banks.enc[w * nl + l]
                                        .val()
                                        ^ self.banks.feedback[(w * nw + j) * nl + l].val();
                                }
                            }
                        }
                        // Reads: the XOR of every bank's word.
                        for r in 0..self._read_ports {
                            self.banks.read_valid[r].next = self.read.valid[r].val();
                            self.banks.read_reg[r].next = self.read.reg[r].val();
                            for l in 0..self._lanes {
                                self.read.data[r * nl + l].next =
                                    self.banks.words[r * nl + l].val();
                                for j in 1..self._write_ports {
                                    self.read.data[r * nl + l].next = self.read.data[r * nl + l]
                                        .val()
                                        ^ self.banks.words[(j * nr + r) * nl + l].val();
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
