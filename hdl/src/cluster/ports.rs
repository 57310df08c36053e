//! The arbiter of the main file's shared ports.

use rust_hdl::prelude::*;

use super::encoding::{Source, OP_BITS, OP_OUT, SEL_BITS};
use crate::checkers::AtMost;
use crate::signals::{constant, constants, signals};

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
///
/// The clock serves only the simulation-only checks of the grants ([`read_port_checks`],
/// [`write_port_checks`]): the arbiter itself is combinational.
#[derive(LogicBlock)]
pub struct MainPorts {
    /// Clock of the simulation-only checks.
    pub clock: Signal<In, Clock>,
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
    /// Simulation-only: the read grants, `(c * read_ports + p) * 2 + k` for source `k` (0 the
    /// first, 1 the second) of cluster `c` on port `p`.
    read_check: AtMost,
    /// Simulation-only: the write grants, as `w_take`.
    write_check: AtMost,
    _clusters: usize,
    _read_ports: usize,
    _write_ports: usize,
}

impl MainPorts {
    /// The arbiter of `clusters` clusters over `read_ports` read and `write_ports` write ports.
    pub fn new(clusters: usize, read_ports: usize, write_ports: usize) -> Self {
        Self {
            clock: Signal::default(),
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
            read_check: read_port_checks(clusters, read_ports),
            write_check: write_port_checks(clusters, write_ports),
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
                self.read_check.clock.next = self.clock.val();
                self.write_check.clock.next = self.clock.val();
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
                        self.read_check.bits[(c * nr + p) * 2].next = self.a_take[c * nr + p].val();
                        self.read_check.bits[(c * nr + p) * 2 + 1].next =
                            self.b_take[c * nr + p].val();
                    }
                    for w in 0..self._write_ports {
                        self.w_take[c * nw + w].next = self.grant[c].val()
                            & self.write[c].val()
                            & (self.writes_below[c].val() == self.number[w].val());
                        self.write_check.bits[c * nw + w].next = self.w_take[c * nw + w].val();
                    }
                }
            }
        }
    }
}

/// The main file's read grants of `clusters` clusters on `read_ports` ports (the selects of the
/// read-address crossbar, per port, and of the operand crossbar, per source, a cycle later):
/// each port read for one source at most, `cluster: main read port <p> granted to <n>
/// sources`, and each source read on one port at most, `cluster: cluster <c> source <a|b>
/// granted <n> main read ports`.
pub(crate) fn read_port_checks(clusters: usize, read_ports: usize) -> AtMost {
    let bit = move |c: usize, p: usize, k: usize| (c * read_ports + p) * 2 + k;
    let ports = (0..read_ports).map(move |p| {
        (
            (0..clusters)
                .flat_map(|c| [bit(c, p, 0), bit(c, p, 1)])
                .collect(),
            format!("cluster: main read port {p} granted to %0d sources"),
        )
    });
    let sources = (0..clusters).flat_map(move |c| {
        ["a", "b"].into_iter().enumerate().map(move |(k, name)| {
            (
                (0..read_ports).map(|p| bit(c, p, k)).collect(),
                format!("cluster: cluster {c} source {name} granted %0d main read ports"),
            )
        })
    });
    AtMost::one_hot(clusters * read_ports * 2, ports.chain(sources))
}

/// The main file's write grants (`w_take`, `c * write_ports + w`; the selects of the write
/// crossbars a cycle later): each write port granted to one cluster at most, `cluster: main
/// write port <w> granted to <n> clusters`, and each cluster to one port at most, `cluster:
/// cluster <c> granted <n> main write ports`.
pub(crate) fn write_port_checks(clusters: usize, write_ports: usize) -> AtMost {
    let ports = (0..write_ports).map(move |w| {
        (
            (0..clusters).map(|c| c * write_ports + w).collect(),
            format!("cluster: main write port {w} granted to %0d clusters"),
        )
    });
    let writers = (0..clusters).map(move |c| {
        (
            (0..write_ports).map(|w| c * write_ports + w).collect(),
            format!("cluster: cluster {c} granted %0d main write ports"),
        )
    });
    AtMost::one_hot(clusters * write_ports, ports.chain(writers))
}
