//! Banks of block-RAM replicas: each bank written by one port and copied once per reader, the
//! structure every block-RAM multi-ported file is built on (`lvt`, `ilvt`, `xor`).

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::params::Memory;
use crate::signals::signals;
use crate::sram::SramBank;

/// `banks` banks of `readers` 1W1R replicas each, every replica one narrow SRAM per lane.
/// Bank `b` is written by its own write port (every replica of the bank alike); reader `k` of
/// bank `b` reads replica `(b, k)` at its own address.
///
/// * With the input stage, every SRAM input (enables, addresses, write data) is registered:
///   an SRAM sees in cycle `t + 1` what the ports showed in cycle `t`. A bank's write port is
///   registered once for its replicas; each replica's read port has its own copy, next to
///   its SRAM.
/// * Read data shows the row read a cycle after the SRAM's read, as [`SramBank`] says; with
///   the output stage, a cycle later again: through the block RAM's own output register
///   (`DP16KD`) or a fabric register (inferred memory).
/// * A read and a write of the same row of one replica in the same SRAM cycle collide: the
///   read data is undefined. The files built on the replicas say how they avoid relying on it.
///
/// `E` is the element width, `A` the address width.
#[derive(LogicBlock)]
pub struct Replicas<const E: usize, const A: usize> {
    /// Clock: reads and writes take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Per bank: its write port writes this cycle.
    pub write_enable: Vec<Signal<In, Bit>>,
    /// Per bank: the row its write port writes.
    pub write_address: Vec<Signal<In, Bits<A>>>,
    /// Per bank and lane (`b * lanes + l`): the data its write port writes.
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// Per replica (`b * readers + k`): its reader reads this cycle.
    pub read_enable: Vec<Signal<In, Bit>>,
    /// Per replica (`b * readers + k`): the row its reader reads.
    pub read_address: Vec<Signal<In, Bits<A>>>,
    /// Per replica and lane (`(b * readers + k) * lanes + l`): the row read.
    pub read_data: Vec<Signal<Out, Bits<E>>>,
    /// The SRAMs, laid out as `read_data`.
    srams: Vec<SramBank<E, A>>,
    /// Input stage: each bank's write enable.
    port_write_enable: Registers<Bit>,
    /// Input stage: each bank's write row.
    port_write_address: Registers<Bits<A>>,
    /// Input stage: each bank's write data, per lane.
    port_write_data: Registers<Bits<E>>,
    /// Input stage: each replica's read enable.
    port_read_enable: Registers<Bit>,
    /// Input stage: each replica's read row.
    port_read_address: Registers<Bits<A>>,
    /// Output stage in the fabric, for SRAMs without an output register of their own.
    data_stage: Registers<Bits<E>>,
    _banks: usize,
    _readers: usize,
    _lanes: usize,
}

impl<const E: usize, const A: usize> Replicas<E, A> {
    /// `banks` x `readers` replicas of `lanes` lanes written as `memory`, with the input stage
    /// and the output stage where asked.
    pub fn new(
        (banks, readers, lanes): (usize, usize, usize),
        memory: Memory,
        input_stage: bool,
        output_stage: bool,
    ) -> Self {
        let groups = banks * readers;
        let internal = output_stage && memory.is_primitive();
        Self {
            clock: Signal::default(),
            write_enable: signals(banks),
            write_address: signals(banks),
            write_data: signals(banks * lanes),
            read_enable: signals(groups),
            read_address: signals(groups),
            read_data: signals(groups * lanes),
            srams: (0..groups * lanes)
                .map(|_| SramBank::default().in_memory(memory, internal))
                .collect(),
            port_write_enable: Registers::stage(banks, input_stage),
            port_write_address: Registers::stage(banks, input_stage),
            port_write_data: Registers::stage(banks * lanes, input_stage),
            port_read_enable: Registers::copies(groups, input_stage),
            port_read_address: Registers::copies(groups, input_stage),
            data_stage: Registers::stage(groups * lanes, output_stage && !internal),
            _banks: banks,
            _readers: readers,
            _lanes: lanes,
        }
    }
}

impl<const E: usize, const A: usize> Logic for Replicas<E, A> {
    // Loops over a single value (`nk`, `nl`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nk in self._readers..(self._readers + 1) {
            for nl in self._lanes..(self._lanes + 1) {
                self.port_write_enable.clock.next = self.clock.val();
                self.port_write_address.clock.next = self.clock.val();
                self.port_write_data.clock.next = self.clock.val();
                self.port_read_enable.clock.next = self.clock.val();
                self.port_read_address.clock.next = self.clock.val();
                self.data_stage.clock.next = self.clock.val();
                for b in 0..self._banks {
                    self.port_write_enable.d[b].next = self.write_enable[b].val();
                    self.port_write_address.d[b].next = self.write_address[b].val();
                    for l in 0..self._lanes {
                        self.port_write_data.d[b * nl + l].next = self.write_data[b * nl + l].val();
                    }
                    for k in 0..self._readers {
                        self.port_read_enable.d[b * nk + k].next =
                            self.read_enable[b * nk + k].val();
                        self.port_read_address.d[b * nk + k].next =
                            self.read_address[b * nk + k].val();
                        for l in 0..self._lanes {
                            self.srams[(b * nk + k) * nl + l].clock.next = self.clock.val();
                            self.srams[(b * nk + k) * nl + l].write_enable.next =
                                self.port_write_enable.q[b].val();
                            self.srams[(b * nk + k) * nl + l].write_address.next =
                                self.port_write_address.q[b].val();
                            self.srams[(b * nk + k) * nl + l].write_data.next =
                                self.port_write_data.q[b * nl + l].val();
                            self.srams[(b * nk + k) * nl + l].read_enable.next =
                                self.port_read_enable.q[b * nk + k].val();
                            self.srams[(b * nk + k) * nl + l].read_address.next =
                                self.port_read_address.q[b * nk + k].val();
                            self.data_stage.d[(b * nk + k) * nl + l].next =
                                self.srams[(b * nk + k) * nl + l].read_data.val();
                            self.read_data[(b * nk + k) * nl + l].next =
                                self.data_stage.q[(b * nk + k) * nl + l].val();
                        }
                    }
                }
            }
        }
    }
}
