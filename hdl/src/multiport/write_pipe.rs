//! The write side shared by the files whose writes read the other write ports' banks first
//! (`xor`, `ilvt`): the same-cycle claims of the lower ports, the delay to the cycle the
//! encoded word is written, and which earlier writes that word must take into account.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::signals::signals;

/// The writes of `write_ports` ports, each carried `depth` cycles from its request (the
/// *issue*) to the cycle its bank is written (the *commit*), with `lanes` elements of data.
///
/// * **Claims.** When several ports write one register in a cycle, only the lowest-numbered
///   one is kept: the others are dropped and never commit.
/// * **Bypass.** A write reads the other banks at its register in its issue cycle; the words
///   arrive `depth` cycles later, when the other ports' writes of the `depth` cycles before
///   have been committed or are being committed, which the read did not see. Where port
///   `j`'s kept write of `a` cycles before port `w`'s names the same register (never for
///   `j == w`), its word, not the block RAM's, is bank `j`'s word there: `recent[w *
///   write_ports + j]` says so for `a = 1` at commit, `older[(w * write_ports + j) * (depth -
///   1) + a - 2]` for `a >= 2` a cycle before commit (when those words are already kept).
/// * The claims and the comparisons are made at issue, or, `late`, a cycle after it (with
///   `depth` 3 and more): the requests are registered first, and so are the XORs of each
///   request's register with the earlier ones', so that a comparison is one reduction of
///   registers.
///
/// `E` is the data width, `A` the register-index width.
#[derive(LogicBlock)]
pub struct WritePipe<const E: usize, const A: usize> {
    /// Clock: every stage moves on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Write request valid, one per write port (issue).
    pub write_valid: Vec<Signal<In, Bit>>,
    /// Register index of each write (issue).
    pub write_reg: Vec<Signal<In, Bits<A>>>,
    /// Write data, port-major (`w * lanes + l`; issue).
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// Per write port: its write of `depth` cycles before was kept (commit).
    pub commit_enable: Vec<Signal<Out, Bit>>,
    /// Per write port: the register of that write (commit).
    pub commit_reg: Vec<Signal<Out, Bits<A>>>,
    /// The data of that write, port-major (`w * lanes + l`; commit).
    pub commit_data: Vec<Signal<Out, Bits<E>>>,
    /// `w * write_ports + j`: port `j`'s write of the cycle before port `w`'s names its
    /// register (commit).
    pub recent: Vec<Signal<Out, Bit>>,
    /// `(w * write_ports + j) * (depth - 1) + a - 2`: port `j`'s write of `a >= 2` cycles
    /// before port `w`'s names its register (a cycle before commit).
    pub older: Vec<Signal<Out, Bit>>,
    /// The requests' valids, registered when `late`.
    front_valid: Registers<Bit>,
    /// The requests' registers, registered when `late`.
    front_reg: Registers<Bits<A>>,
    /// The requests' data, registered when `late`.
    front_data: Registers<Bits<E>>,
    /// `(w * W + j) * (depth + 1) + a`: the XOR of port `w`'s register with that of port
    /// `j`'s write of `a` cycles before (`a = 0`: of the same cycle), registered when `late`.
    difference: Registers<Bits<A>>,
    /// Per stage `s` and port: the write `s + 1` cycles before the front's was kept.
    valid_line: Registers<Bit>,
    /// Per stage and port: the register written, up to commit.
    reg_line: Registers<Bits<A>>,
    /// Per stage, port and lane: the data written, up to commit.
    data_line: Registers<Bits<E>>,
    /// Per stage and port pair (`(s * W + w) * W + j`): the comparison with the write of the
    /// cycle before, up to commit.
    recent_line: Registers<Bit>,
    /// Per stage, port pair and age (`((s * W + w) * W + j) * (depth - 1) + a - 2`): the
    /// comparisons with the writes of two or more cycles before, up to a cycle before commit.
    older_line: Registers<Bit>,
    /// Per port: the front's request after the claims of the lower ports.
    kept: Vec<Signal<Local, Bit>>,
    /// `w * write_ports + o`: port `o` is lower than port `w`.
    lower: Vec<Constant<Bit>>,
    /// `w * write_ports + j`: `j` is another port than `w`.
    other: Vec<Constant<Bit>>,
    _write_ports: usize,
    _lanes: usize,
    _depth: usize,
    _late: usize,
}

impl<const E: usize, const A: usize> WritePipe<E, A> {
    /// The writes of `write_ports` ports of `lanes` elements, committed `depth` (at least 1)
    /// cycles after issue, compared at issue or, `late` (`depth` 3 and more), a cycle after.
    pub fn new(write_ports: usize, lanes: usize, depth: usize, late: bool) -> Self {
        let off = usize::from(late);
        assert!(depth > 2 * off);
        let w = write_ports;
        let pairs = |keep: fn(usize, usize) -> bool| {
            (0..w * w)
                .map(|k| Constant::new(keep(k / w, k % w)))
                .collect()
        };
        Self {
            clock: Signal::default(),
            write_valid: signals(w),
            write_reg: signals(w),
            write_data: signals(w * lanes),
            commit_enable: signals(w),
            commit_reg: signals(w),
            commit_data: signals(w * lanes),
            recent: signals(w * w),
            older: signals(w * w * (depth - 1)),
            front_valid: Registers::stage(w, late),
            front_reg: Registers::stage(w, late),
            front_data: Registers::stage(w * lanes, late),
            difference: Registers::stage(w * w * (depth + 1), late),
            valid_line: Registers::new(depth * w),
            reg_line: Registers::new((depth - off) * w),
            data_line: Registers::new((depth - off) * w * lanes),
            recent_line: Registers::new((depth - off) * w * w),
            older_line: Registers::new((depth - 1 - off) * w * w * (depth - 1)),
            kept: signals(w),
            lower: pairs(|port, o| o < port),
            other: pairs(|port, j| j != port),
            _write_ports: w,
            _lanes: lanes,
            _depth: depth,
            _late: off,
        }
    }
}

impl<const E: usize, const A: usize> Logic for WritePipe<E, A> {
    // Loops over a single value (`nw`, `nl`, `nd`, `off`) bind run-time sizes to loop
    // variables (docs/rust-hdl.md).
    // Over 100 lines (120): most of it is one loop, and `#[hdl_gen]` takes no call to a
    // function of ours; split into parts (`hdl/src/parts.rs`), the loop's unrolled statements
    // would change order, and the Verilog with them (docs/rust-hdl.md, 25).
    #[hdl_gen]
    fn update(&mut self) {
        for nw in self._write_ports..(self._write_ports + 1) {
            for nl in self._lanes..(self._lanes + 1) {
                for nd in self._depth..(self._depth + 1) {
                    for off in self._late..(self._late + 1) {
                        self.front_valid.clock.next = self.clock.val();
                        self.front_reg.clock.next = self.clock.val();
                        self.front_data.clock.next = self.clock.val();
                        self.difference.clock.next = self.clock.val();
                        self.valid_line.clock.next = self.clock.val();
                        self.reg_line.clock.next = self.clock.val();
                        self.data_line.clock.next = self.clock.val();
                        self.recent_line.clock.next = self.clock.val();
                        self.older_line.clock.next = self.clock.val();
                        for w in 0..self._write_ports {
                            self.front_valid.d[w].next = self.write_valid[w].val();
                            self.front_reg.d[w].next = self.write_reg[w].val();
                            // A lower port writing the same register claims it.
                            self.kept[w].next = self.front_valid.q[w].val();
                            for o in 0..self._write_ports {
                                if self.lower[w * nw + o].val()
                                    & self.front_valid.q[o].val()
                                    & !self.difference.q[(w * nw + o) * (nd + 1)].val().any()
                                {
                                    self.kept[w].next = false;
                                }
                            }
                            self.valid_line.d[w].next = self.kept[w].val();
                            self.reg_line.d[w].next = self.front_reg.q[w].val();
                            for l in 0..self._lanes {
                                self.front_data.d[w * nl + l].next =
                                    self.write_data[w * nl + l].val();
                                self.data_line.d[w * nl + l].next =
                                    self.front_data.q[w * nl + l].val();
                            }
                            // The request's register against the other ports' of the same
                            // cycle and the earlier writes', by age (`late`: the write of the
                            // cycle before is still in the front).
                            for j in 0..self._write_ports {
                                self.difference.d[(w * nw + j) * (nd + 1)].next =
                                    self.write_reg[w].val() ^ self.write_reg[j].val();
                                for x in 0..self._late {
                                    self.difference.d[(w * nw + j) * (nd + 1) + 1 + x].next =
                                        self.write_reg[w].val() ^ self.front_reg.q[j].val();
                                }
                                for k in self._late..self._depth {
                                    self.difference.d[(w * nw + j) * (nd + 1) + 1 + k].next =
                                        self.write_reg[w].val()
                                            ^ self.reg_line.q[(k - off) * nw + j].val();
                                }
                            }
                            // The other ports' kept writes still in the line, by age.
                            for j in 0..self._write_ports {
                                self.recent_line.d[w * nw + j].next = self.other[w * nw + j].val()
                                    & self.valid_line.q[j].val()
                                    & !self.difference.q[(w * nw + j) * (nd + 1) + 1].val().any();
                                for k in 1..self._depth {
                                    self.older_line.d[(w * nw + j) * (nd - 1) + k - 1].next =
                                        self.other[w * nw + j].val()
                                            & self.valid_line.q[k * nw + j].val()
                                            & !self.difference.q[(w * nw + j) * (nd + 1) + 1 + k]
                                                .val()
                                                .any();
                                }
                            }
                        }
                        // The stages after the first.
                        for s in 1..self._depth {
                            for w in 0..self._write_ports {
                                self.valid_line.d[s * nw + w].next =
                                    self.valid_line.q[(s - 1) * nw + w].val();
                            }
                        }
                        for s in 1..(self._depth - self._late) {
                            for w in 0..self._write_ports {
                                self.reg_line.d[s * nw + w].next =
                                    self.reg_line.q[(s - 1) * nw + w].val();
                            }
                            for k in 0..(self._write_ports * self._lanes) {
                                self.data_line.d[s * nw * nl + k].next =
                                    self.data_line.q[(s - 1) * nw * nl + k].val();
                            }
                            for k in 0..(self._write_ports * self._write_ports) {
                                self.recent_line.d[s * nw * nw + k].next =
                                    self.recent_line.q[(s - 1) * nw * nw + k].val();
                            }
                        }
                        for s in 1..(self._depth - 1 - self._late) {
                            for b in 0..(self._write_ports * self._write_ports * (self._depth - 1))
                            {
                                self.older_line.d[s * nw * nw * (nd - 1) + b].next =
                                    self.older_line.q[(s - 1) * nw * nw * (nd - 1) + b].val();
                            }
                        }
                        // Commit: the last stages.
                        for w in 0..self._write_ports {
                            self.commit_enable[w].next =
                                self.valid_line.q[(nd - 1 - off) * nw + w].val();
                            self.commit_reg[w].next =
                                self.reg_line.q[(nd - 1 - off) * nw + w].val();
                            for l in 0..self._lanes {
                                self.commit_data[w * nl + l].next =
                                    self.data_line.q[((nd - 1 - off) * nw + w) * nl + l].val();
                            }
                            for j in 0..self._write_ports {
                                self.recent[w * nw + j].next =
                                    self.recent_line.q[((nd - 1 - off) * nw + w) * nw + j].val();
                                for k in 1..self._depth {
                                    self.older[(w * nw + j) * (nd - 1) + k - 1].next = self
                                        .older_line
                                        .q[(((nd - 2 - off) * nw + w) * nw + j) * (nd - 1) + k - 1]
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
