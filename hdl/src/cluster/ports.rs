//! The arbiter of the main file's shared ports.

use rust_hdl::prelude::*;

use super::encoding::{Source, OP_BITS, OP_OUT, SEL_BITS};
use crate::{constant, constants, signals};

/// Bits of a running count of main-file requests (up to 2 reads per cluster, 8 clusters).
pub const COUNT_BITS: usize = 5;

/// Grants the main file's ports to the clusters (combinational), lowest cluster first: a cluster
/// is granted when its own main reads and writes, added to those of every valid cluster below
/// it, fit in the read and write ports. Since the running counts only grow, the granted
/// clusters are a prefix of the valid ones; a cluster that needs no main port is still denied
/// after a denied one, so that the clusters of a bundle issue in order.
///
/// A granted cluster's main reads take the next free read ports in order (its first source
/// before its second), and its main write the next free write port.
#[derive(LogicBlock)]
pub struct MainPorts {
    /// Per cluster: an instruction is offered.
    pub valid: Vec<Signal<In, Bit>>,
    /// Per cluster: where its first source is (`encoding::Source`).
    pub a_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: where its second source is.
    pub b_sel: Vec<Signal<In, Bits<SEL_BITS>>>,
    /// Per cluster: its operation.
    pub op: Vec<Signal<In, Bits<OP_BITS>>>,
    /// Per cluster: its destination is in the main file.
    pub dst_main: Vec<Signal<In, Bit>>,
    /// Per cluster: its instruction issues this cycle.
    pub grant: Vec<Signal<Out, Bit>>,
    /// `a_take[c * read_ports + p]`: cluster `c`'s first source is read on port `p`.
    pub a_take: Vec<Signal<Out, Bit>>,
    /// `b_take[c * read_ports + p]`: cluster `c`'s second source is read on port `p`.
    pub b_take: Vec<Signal<Out, Bit>>,
    /// `w_take[c * write_ports + w]`: cluster `c` writes on port `w`.
    pub w_take: Vec<Signal<Out, Bit>>,
    /// Per cluster: its first source is in the main file.
    a_main: Vec<Signal<Local, Bit>>,
    /// Per cluster: its second source is in the main file.
    b_main: Vec<Signal<Local, Bit>>,
    /// Per cluster: it writes the main file.
    write: Vec<Signal<Local, Bit>>,
    sel_main: Constant<Bits<SEL_BITS>>,
    op_out: Constant<Bits<OP_BITS>>,
    /// Main reads of the valid clusters below `c` (element `c`), and of all (element `C`).
    reads_below: Vec<Signal<Local, Bits<COUNT_BITS>>>,
    /// `reads_below[c]` plus cluster `c`'s first source: the port of its second.
    reads_mid: Vec<Signal<Local, Bits<COUNT_BITS>>>,
    /// Main writes of the valid clusters below `c` (element `c`), and of all (element `C`).
    writes_below: Vec<Signal<Local, Bits<COUNT_BITS>>>,
    /// The numbers `0..=max(read_ports, write_ports)`.
    number: Vec<Constant<Bits<COUNT_BITS>>>,
    _clusters: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl MainPorts {
    /// The arbiter of `clusters` clusters over `read_ports` read and `write_ports` write ports.
    pub fn new(clusters: usize, read_ports: usize, write_ports: usize) -> Self {
        Self {
            valid: signals(clusters),
            a_sel: signals(clusters),
            b_sel: signals(clusters),
            op: signals(clusters),
            dst_main: signals(clusters),
            a_main: signals(clusters),
            b_main: signals(clusters),
            write: signals(clusters),
            sel_main: constant(Source::Main.code()),
            op_out: constant(OP_OUT),
            grant: signals(clusters),
            a_take: signals(clusters * read_ports),
            b_take: signals(clusters * read_ports),
            w_take: signals(clusters * write_ports),
            reads_below: signals(clusters + 1),
            reads_mid: signals(clusters),
            writes_below: signals(clusters + 1),
            number: constants(0..=read_ports.max(write_ports) as u64),
            _clusters: clusters,
            _read_ports: read_ports,
            _write_ports: write_ports,
        }
    }
}

impl Logic for MainPorts {
    // Single-value loops bind the port counts (`nr`, `nw`) to loop variables.
    #[hdl_gen]
    fn update(&mut self) {
        for nr in self._read_ports..(self._read_ports + 1) {
            for nw in self._write_ports..(self._write_ports + 1) {
                self.reads_below[0].next = self.number[0].val();
                self.writes_below[0].next = self.number[0].val();
                for c in 0..self._clusters {
                    self.a_main[c].next = self.a_sel[c].val() == self.sel_main.val();
                    self.b_main[c].next = self.b_sel[c].val() == self.sel_main.val();
                    self.write[c].next =
                        (self.op[c].val() != self.op_out.val()) & self.dst_main[c].val();
                    self.reads_mid[c].next = self.reads_below[c].val();
                    if self.valid[c].val() & self.a_main[c].val() {
                        self.reads_mid[c].next = self.reads_below[c].val() + self.number[1].val();
                    }
                    self.reads_below[c + 1].next = self.reads_mid[c].val();
                    if self.valid[c].val() & self.b_main[c].val() {
                        self.reads_below[c + 1].next =
                            self.reads_mid[c].val() + self.number[1].val();
                    }
                    self.writes_below[c + 1].next = self.writes_below[c].val();
                    if self.valid[c].val() & self.write[c].val() {
                        self.writes_below[c + 1].next =
                            self.writes_below[c].val() + self.number[1].val();
                    }
                    self.grant[c].next = self.valid[c].val()
                        & (self.reads_below[c + 1].val() <= self.number[nr].val())
                        & (self.writes_below[c + 1].val() <= self.number[nw].val());
                    for p in 0..self._read_ports {
                        self.a_take[c * nr + p].next = self.grant[c].val()
                            & self.a_main[c].val()
                            & (self.reads_below[c].val() == self.number[p].val());
                        self.b_take[c * nr + p].next = self.grant[c].val()
                            & self.b_main[c].val()
                            & (self.reads_mid[c].val() == self.number[p].val());
                    }
                    for w in 0..self._write_ports {
                        self.w_take[c * nw + w].next = self.grant[c].val()
                            & self.write[c].val()
                            & (self.writes_below[c].val() == self.number[w].val());
                    }
                }
            }
        }
    }
}
