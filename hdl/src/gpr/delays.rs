//! The banked GPR's delay chains: what travels beside the arbitration and the bank accesses,
//! so that it arrives with them.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::params::GprParams;
use crate::signals::signals;

/// The requests' rows and write data on their way to the bank port stage, a cycle per
/// arbitration stage: the request stage (`pipeline` 3 and 4) and the clash stage (`pipeline`
/// 4), each wires when off. `E` is the element width, `A` the row-address width.
#[derive(LogicBlock)]
pub struct RequestDelays<const E: usize, const A: usize> {
    /// Clock of the stages present.
    pub clock: Signal<In, Clock>,
    /// Each read's row, in the request cycle.
    pub read_row: Vec<Signal<In, Bits<A>>>,
    /// Each write's row, in the request cycle.
    pub write_row: Vec<Signal<In, Bits<A>>>,
    /// Each write's data, port-major (`w * lanes + l`), in the request cycle.
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// Each read's row, in its grant cycle.
    pub granted_read_row: Vec<Signal<Out, Bits<A>>>,
    /// Each write's row, in its grant cycle.
    pub granted_write_row: Vec<Signal<Out, Bits<A>>>,
    /// Each write's data, in its grant cycle.
    pub granted_write_data: Vec<Signal<Out, Bits<E>>>,
    /// Request stage: the rows and data held for the arbitration of the next cycle.
    held_read_row: Registers<Bits<A>>,
    held_write_row: Registers<Bits<A>>,
    held_write_data: Registers<Bits<E>>,
    /// Clash stage: the same, a cycle later still.
    late_read_row: Registers<Bits<A>>,
    late_write_row: Registers<Bits<A>>,
    late_write_data: Registers<Bits<E>>,
    _read_ports: usize,
    _write_ports: usize,
    _write_lanes: usize,
}

impl<const E: usize, const A: usize> RequestDelays<E, A> {
    /// The delays of `params`' arbitration stages.
    pub fn new(params: &GprParams) -> Self {
        let (p, w, l) = (params.read_ports, params.write_ports, params.lanes);
        let (held, late) = (params.registered_arbitration(), params.registered_clash());
        Self {
            clock: Signal::default(),
            read_row: signals(p),
            write_row: signals(w),
            write_data: signals(w * l),
            granted_read_row: signals(p),
            granted_write_row: signals(w),
            granted_write_data: signals(w * l),
            held_read_row: Registers::stage(p, held),
            held_write_row: Registers::stage(w, held),
            held_write_data: Registers::stage(w * l, held),
            late_read_row: Registers::stage(p, late),
            late_write_row: Registers::stage(w, late),
            late_write_data: Registers::stage(w * l, late),
            _read_ports: p,
            _write_ports: w,
            _write_lanes: w * l,
        }
    }
}

impl<const E: usize, const A: usize> Logic for RequestDelays<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.held_read_row.clock.next = self.clock.val();
        self.held_write_row.clock.next = self.clock.val();
        self.held_write_data.clock.next = self.clock.val();
        self.late_read_row.clock.next = self.clock.val();
        self.late_write_row.clock.next = self.clock.val();
        self.late_write_data.clock.next = self.clock.val();
        for p in 0..self._read_ports {
            self.held_read_row.d[p].next = self.read_row[p].val();
            self.late_read_row.d[p].next = self.held_read_row.q[p].val();
            self.granted_read_row[p].next = self.late_read_row.q[p].val();
        }
        for w in 0..self._write_ports {
            self.held_write_row.d[w].next = self.write_row[w].val();
            self.late_write_row.d[w].next = self.held_write_row.q[w].val();
            self.granted_write_row[w].next = self.late_write_row.q[w].val();
        }
        for k in 0..self._write_lanes {
            self.held_write_data.d[k].next = self.write_data[k].val();
            self.late_write_data.d[k].next = self.held_write_data.q[k].val();
            self.granted_write_data[k].next = self.late_write_data.q[k].val();
        }
    }
}

/// The read wins on their way from the bank port stage to the read crossbar's selects: a
/// cycle to the SRAM port stage (`pipeline` 4), the bank's registered read, the bank data
/// stage (`pipeline` 2 and up) and the fabric data stage (`pipeline` 4), each wires when off.
#[derive(LogicBlock)]
pub struct ReadRoute {
    /// Clock of the stages present.
    pub clock: Signal<In, Clock>,
    /// The read wins as the bank port stage gives them (`read_win`'s layout).
    pub wins: Vec<Signal<In, Bit>>,
    /// The same wins when their data reach the read crossbar: its selects.
    pub select: Vec<Signal<Out, Bit>>,
    /// When the SRAMs take the read.
    sram: Registers<Bit>,
    /// When the data leave the banks.
    read: Registers<Bit>,
    /// When the data leave the bank data stage.
    data: Registers<Bit>,
    /// When the data leave the fabric data stage.
    fabric: Registers<Bit>,
    _wins: usize,
}

impl ReadRoute {
    /// The route of `params`' `wins` read wins.
    pub fn new(params: &GprParams, wins: usize) -> Self {
        let sram_staged = params.registered_sram_ports();
        Self {
            clock: Signal::default(),
            wins: signals(wins),
            select: signals(wins),
            sram: Registers::stage(wins, sram_staged),
            read: Registers::new(wins),
            data: Registers::stage(wins, params.pipeline >= 2),
            fabric: Registers::stage(wins, sram_staged),
            _wins: wins,
        }
    }
}

impl Logic for ReadRoute {
    #[hdl_gen]
    fn update(&mut self) {
        self.sram.clock.next = self.clock.val();
        self.read.clock.next = self.clock.val();
        self.data.clock.next = self.clock.val();
        self.fabric.clock.next = self.clock.val();
        for k in 0..self._wins {
            self.sram.d[k].next = self.wins[k].val();
            self.read.d[k].next = self.sram.q[k].val();
            self.data.d[k].next = self.read.q[k].val();
            self.fabric.d[k].next = self.data.q[k].val();
            self.select[k].next = self.fabric.q[k].val();
        }
    }
}
