//! The banks of the files whose writes read the other write ports' banks first (`xor`, and
//! the table of `ilvt`): each write port's bank, replicated for every other write port and
//! every read port, and the words a write reads from the other banks.

use rust_hdl::prelude::*;

use super::replicas::Replicas;
use crate::cells::regs::Registers;
use crate::params::Memory;
use crate::signals::signals;

/// `write_ports` (W) banks of words, each written by its own write port and read by the
/// W - 1 other write ports (the *feedback*) and by the `read_ports` (R) read ports: W x
/// (W - 1 + R) block-RAM replicas ([`Replicas`]), as LaForest et al.'s XOR file has them.
///
/// * **Issue.** A write port's request reads every other bank at its register
///   (`issue_valid`, `issue_reg`).
/// * **Commit**, `depth` cycles later: `feedback[(w * W + j) * lanes + l]` shows bank `j`'s
///   word at that register as port `w` must take it: the block RAM's, or, where port `j`'s
///   write of `a` cycles before named the same register, the word that write wrote (kept
///   here for `depth` cycles): `recent` says so for `a = 1` at commit, `older` for `a >= 2`
///   a cycle before, when the youngest such word is picked and registered. So the block
///   RAM's word meets only registers on its way to `feedback`: one multiplexer. It is zero
///   for `j == w`. In the same cycle the parent gives back the word `enc` to write, and bank
///   `w` stores it when `commit_enable` says.
/// * **Reads.** `words[(j * R + r) * lanes + l]` is bank `j`'s word at the register read
///   port `r` asked for, with the replicas' read latency.
///
/// Replica `k < W - 1` of bank `j` serves write port `(j + 1 + k) mod W`; replica
/// `W - 1 + r` serves read port `r`.
///
/// `E` is the word width, `A` the register-index width.
#[derive(LogicBlock)]
pub struct FeedbackBanks<const E: usize, const A: usize> {
    /// Clock: reads and writes take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Per write port: it issues a write (its feedback reads run). None with one write port,
    /// which reads no other bank.
    pub issue_valid: Vec<Signal<In, Bit>>,
    /// Per write port: the register it writes (issue). None with one write port.
    pub issue_reg: Vec<Signal<In, Bits<A>>>,
    /// Per read port: it reads.
    pub read_valid: Vec<Signal<In, Bit>>,
    /// Per read port: the register it reads.
    pub read_reg: Vec<Signal<In, Bits<A>>>,
    /// Per write port: its bank is written (commit).
    pub commit_enable: Vec<Signal<In, Bit>>,
    /// Per write port: the register written (commit).
    pub commit_reg: Vec<Signal<In, Bits<A>>>,
    /// Per write port and lane (`w * lanes + l`): the word written (commit).
    pub enc: Vec<Signal<In, Bits<E>>>,
    /// `w * W + j`: bank `j`'s word at `w`'s register is the one written a cycle before
    /// (commit).
    pub recent: Vec<Signal<In, Bit>>,
    /// `(w * W + j) * (depth - 1) + a - 2`: bank `j`'s word at `w`'s register is the one
    /// written `a >= 2` cycles before (a cycle before commit).
    pub older: Vec<Signal<In, Bit>>,
    /// `(w * W + j) * lanes + l`: bank `j`'s word at the register `w` writes (commit).
    pub feedback: Vec<Signal<Out, Bits<E>>>,
    /// `(j * R + r) * lanes + l`: bank `j`'s word at the register `r` reads.
    pub words: Vec<Signal<Out, Bits<E>>>,
    /// The replicas: bank `j`, reader `k` at `j * (W - 1 + R) + k`.
    replicas: Replicas<E, A>,
    /// The words written, by age (`(k * W + j) * lanes + l`, `k + 1` cycles before), as long
    /// as `kept` or `feedback` read them: `max(1, depth - 1)` cycles.
    history: Registers<Bits<E>>,
    /// `(w * W + j) * lanes + l`: the youngest word written two or more cycles before that
    /// bank `j`'s word at `w`'s register must be, picked a cycle before commit.
    kept: Registers<Bits<E>>,
    /// `w * W + j`: `kept` holds such a word.
    kept_valid: Registers<Bit>,
    /// `w * W + j`: every bit when `j != w`, else none.
    other: Vec<Constant<Bits<E>>>,
    /// No bit.
    zero: Constant<Bits<E>>,
    _write_ports: usize,
    _read_ports: usize,
    _lanes: usize,
    _depth: usize,
    _readers: usize,
    _history: usize,
}

impl<const E: usize, const A: usize> FeedbackBanks<E, A> {
    /// `write_ports` banks for `read_ports` readers, `lanes` wide, in `memory`, with the
    /// replicas' input and output stages as asked and writes committed `depth` cycles after
    /// issue.
    pub fn new(
        (write_ports, read_ports, lanes): (usize, usize, usize),
        memory: Memory,
        (input_stage, output_stage): (bool, bool),
        depth: usize,
    ) -> Self {
        let w = write_ports;
        let readers = w - 1 + read_ports;
        let ones = u64::MAX >> (64 - E);
        let issuers = w * usize::from(w > 1);
        let history = (depth - 1).max(1);
        Self {
            clock: Signal::default(),
            issue_valid: signals(issuers),
            issue_reg: signals(issuers),
            read_valid: signals(read_ports),
            read_reg: signals(read_ports),
            commit_enable: signals(w),
            commit_reg: signals(w),
            enc: signals(w * lanes),
            recent: signals(w * w),
            older: signals(w * w * (depth - 1)),
            feedback: signals(w * w * lanes),
            words: signals(w * read_ports * lanes),
            replicas: Replicas::new((w, readers, lanes), memory, input_stage, output_stage),
            history: Registers::new(history * w * lanes),
            kept: Registers::new(w * w * lanes),
            kept_valid: Registers::new(w * w),
            other: crate::signals::constants((0..w * w).map(|k| ones * u64::from(k / w != k % w))),
            zero: crate::signals::constant(0),
            _write_ports: w,
            _read_ports: read_ports,
            _lanes: lanes,
            _depth: depth,
            _readers: readers,
            _history: history,
        }
    }
}

impl<const E: usize, const A: usize> Logic for FeedbackBanks<E, A> {
    // Loops over a single value (`nw`, `nr`, `nl`, `nd`, `nk`) bind run-time sizes to loop
    // variables (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nw in self._write_ports..(self._write_ports + 1) {
            for nr in self._read_ports..(self._read_ports + 1) {
                for nl in self._lanes..(self._lanes + 1) {
                    for nd in self._depth..(self._depth + 1) {
                        for nk in self._readers..(self._readers + 1) {
                            self.replicas.clock.next = self.clock.val();
                            self.history.clock.next = self.clock.val();
                            self.kept.clock.next = self.clock.val();
                            self.kept_valid.clock.next = self.clock.val();
                            for j in 0..self._write_ports {
                                // Commit: bank j takes port j's word, and keeps it for the
                                // bypass.
                                self.replicas.write_enable[j].next = self.commit_enable[j].val();
                                self.replicas.write_address[j].next = self.commit_reg[j].val();
                                for l in 0..self._lanes {
                                    self.replicas.write_data[j * nl + l].next =
                                        self.enc[j * nl + l].val();
                                    self.history.d[j * nl + l].next = self.enc[j * nl + l].val();
                                }
                                // Issue: the other write ports read bank j at their registers.
                                for k in 0..(self._write_ports - 1) {
                                    self.replicas.read_enable[j * nk + k].next =
                                        self.issue_valid[(j + 1 + k) % nw].val();
                                    self.replicas.read_address[j * nk + k].next =
                                        self.issue_reg[(j + 1 + k) % nw].val();
                                }
                                // Reads.
                                for r in 0..self._read_ports {
                                    self.replicas.read_enable[j * nk + nw - 1 + r].next =
                                        self.read_valid[r].val();
                                    self.replicas.read_address[j * nk + nw - 1 + r].next =
                                        self.read_reg[r].val();
                                    for l in 0..self._lanes {
                                        self.words[(j * nr + r) * nl + l].next =
                                            self.replicas.read_data[(j * nk + nw - 1 + r) * nl + l]
                                                .val();
                                    }
                                }
                            }
                            for s in 1..self._history {
                                for k in 0..(self._write_ports * self._lanes) {
                                    self.history.d[s * nw * nl + k].next =
                                        self.history.q[(s - 1) * nw * nl + k].val();
                                }
                            }
                            // The youngest word of two or more cycles before, a cycle
                            // early; then the feedback at commit, a write of the cycle before
                            // winning over it and both over the block RAM.
                            for w in 0..self._write_ports {
                                for j in 0..self._write_ports {
                                    self.kept_valid.d[w * nw + j].next = false;
                                    for l in 0..self._lanes {
                                        self.kept.d[(w * nw + j) * nl + l].next = self.zero.val();
                                    }
                                    for k in 1..self._depth {
                                        if self.older[(w * nw + j) * (nd - 1) + nd - k - 1].val() {
                                            self.kept_valid.d[w * nw + j].next = true;
                                            for l in 0..self._lanes {
                                                self.kept.d[(w * nw + j) * nl + l].next = self
                                                    .history
                                                    .q[((nd - k - 1) * nw + j) * nl + l]
                                                    .val();
                                            }
                                        }
                                    }
                                    for l in 0..self._lanes {
                                        self.feedback[(w * nw + j) * nl + l].next = self
                                            .replicas
                                            .read_data[(j * nk + (w + nw - j - 1) % nw) * nl + l]
                                            .val()
                                            & self.other[w * nw + j].val();
                                        if self.kept_valid.q[w * nw + j].val() {
                                            self.feedback[(w * nw + j) * nl + l].next =
                                                self.kept.q[(w * nw + j) * nl + l].val();
                                        }
                                        if self.recent[w * nw + j].val() {
                                            self.feedback[(w * nw + j) * nl + l].next =
                                                self.history.q[j * nl + l].val();
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
