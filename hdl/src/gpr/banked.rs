//! RTL of the banked GPR: B single-port banks behind a write crossbar and a read crossbar.

use rust_hdl::prelude::*;

use crate::signals::signals;

use super::arbiter::BankArbiter;
use super::delays::{ReadRoute, RequestDelays};
use super::register_map::RegisterMap;
use crate::cells::crossbar::Crossbar;
use crate::cells::regs::Registers;
use crate::checkers::{AtMost, CollisionChecker};
use crate::params::{BankMap, GprParams};
use crate::parts::logic_in_parts;
use crate::sram::SramBank;

/// Banked general-purpose register file (SPEC S1): `banks` SRAM banks, `write_ports` writers
/// through a write crossbar, `read_ports` readers through a read crossbar. A bank is of the
/// `bank_kind` parameter: 1R1W (one SRAM per lane), 2R1W (two 1R1W replicas per lane, written
/// together) or 1RW (one single-port SRAM per lane).
///
/// Register `n` lives in bank `n mod banks`, row `n div banks` (the `mod` bank map; the others
/// rewrite each port's register index first, [`RegisterMap`]). Each cycle every port may carry
/// one request; grants are combinational (same cycle). Arbitration, in this order:
/// 1. Writes: per bank, the lowest-numbered requesting write port wins.
/// 2. Reads of a register that a granted write writes this cycle are not granted (the bank
///    cannot read and write one row in one cycle); with 1RW banks, no read of a bank being
///    written is.
/// 3. Reads: per bank, the lowest-numbered remaining read port wins (the two lowest with
///    2R1W banks).
///
/// A request that is not granted is not performed; the requester retries. Read data appears on
/// `read_data` after the next rising edge and is zero for a port not granted in the previous
/// cycle. A granted read returns the value of the last write granted in an earlier cycle.
///
/// `pipeline` adds register stages: 1 registers the banks' ports, so every bank access happens
/// one cycle after its grant; 2 also registers the data read from the banks, before the read
/// crossbar. Read data appears after the `1 + pipeline`-th rising edge after the grant (zero
/// for a port not granted then). Grants and what a read returns are unchanged.
///
/// `pipeline` 3 also registers the requests (registered arbitration): a cycle's requests are
/// decoded and held, and arbitrated in the next cycle, whose grants answer them; the rest is
/// as with `pipeline` 2, counted from that grant. A requester that retries a refused request
/// learns of the refusal a cycle after asking.
///
/// `pipeline` 4 also registers the clashes (the clash stage: the reads' priority runs a cycle
/// later, so grants answer the requests of two cycles before), every SRAM input (the SRAM port
/// stage: rows, enables and write data selected from the bank port stage, registered next to
/// the block RAMs) and the banks' data once more in the fabric before the read crossbar: read
/// data five cycles after the grant.
///
/// `E` is the element width, `A` the row-address width (`2^A` rows per bank), `RI` the register
/// index width (`A + log2(banks)`).
#[derive(LogicBlock)]
pub struct BankedGpr<const E: usize, const A: usize, const RI: usize> {
    /// Clock: writes and read launches take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Read request valid, one per read port.
    pub read_valid: Vec<Signal<In, Bit>>,
    /// Register index of each read request, 0..registers-1.
    pub read_reg: Vec<Signal<In, Bits<RI>>>,
    /// Read grant, same cycle: the read is performed; data follows after the rising edge.
    pub read_grant: Vec<Signal<Out, Bit>>,
    /// Read data, port-major (`p * lanes + l`), for the reads granted in the previous cycle.
    pub read_data: Vec<Signal<Out, Bits<E>>>,
    /// Write request valid, one per write port.
    pub write_valid: Vec<Signal<In, Bit>>,
    /// Register index of each write request, 0..registers-1.
    pub write_reg: Vec<Signal<In, Bits<RI>>>,
    /// Write data, port-major (`w * lanes + l`).
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// Write grant, same cycle: the write is stored on the rising edge.
    pub write_grant: Vec<Signal<Out, Bit>>,
    /// The SRAMs, `(b * slots + s) * lanes + l`: per bank, one narrow SRAM per read slot and
    /// lane (two replicas written together with `2r1w` banks).
    banks: Vec<SramBank<E, A>>,
    /// Read crossbar: inputs are the banks' read slots, outputs the read ports.
    read_xbar: Crossbar<E>,
    /// Write crossbar: inputs are the write ports, outputs the banks.
    write_xbar: Crossbar<E>,
    /// Which requests each bank serves.
    arbiter: BankArbiter<RI>,
    /// Each read and write port's register through the bank map (none with the `mod` map).
    read_map: Vec<RegisterMap<RI>>,
    write_map: Vec<RegisterMap<RI>>,
    /// Each read and write port's register index as the banks see it.
    read_index: Vec<Signal<Local, Bits<RI>>>,
    write_index: Vec<Signal<Local, Bits<RI>>>,
    /// The requests' rows and write data, delayed to their grant cycle.
    requests: RequestDelays<E, A>,
    /// The read wins, delayed to the read crossbar's selects.
    read_route: ReadRoute,
    /// Bank read data stage (`pipeline` 2), `(b * slots + s) * lanes + l`; wires with `DP16KD`
    /// banks, whose output registers are the stage.
    bank_data: Registers<Bits<E>>,
    /// Fabric data stage (`pipeline` 4, wires otherwise): `bank_data` registered again before
    /// the read crossbar, so that no path runs from a block RAM's output pin through logic.
    fabric_data: Registers<Bits<E>>,
    /// SRAM port stage (`pipeline` 4, wires otherwise): each bank slot's read enable, as the
    /// SRAMs take it (`b * slots + s`).
    sram_read_enable: Registers<Bit>,
    /// SRAM port stage: each bank slot's read row.
    sram_read_row: Registers<Bits<A>>,
    /// SRAM port stage: each bank's write enable.
    sram_write_enable: Registers<Bit>,
    /// SRAM port stage: each bank's write row.
    sram_write_row: Registers<Bits<A>>,
    /// SRAM port stage: each bank's write data, `b * lanes + l` (the write crossbar's output).
    sram_write_data: Registers<Bits<E>>,
    /// Bank port stage (`pipeline` 1, wires otherwise): the wins, write (`write_win`'s layout)
    /// then read (after the writes, `read_win`'s layout). The banks' rows and the write
    /// crossbar are selected after it, so that the stage cuts the arbitration from them.
    port_wins: Registers<Bit>,
    /// Bank port stage: each read port's row.
    port_read_rows: Registers<Bits<A>>,
    /// Bank port stage: each write port's row.
    port_write_rows: Registers<Bits<A>>,
    /// Bank port stage: write data, port-major (`w * lanes + l`).
    port_data: Registers<Bits<E>>,
    /// `read_row[(p * banks + b) * slots + s]`: read port `p`'s row if it won slot `s` of
    /// bank `b`, else zero.
    read_row: Vec<Signal<Local, Bits<A>>>,
    /// `write_row[w * banks + b]`: write port `w`'s row if it won bank `b`, else zero.
    write_row: Vec<Signal<Local, Bits<A>>>,
    /// Row read from each bank's slot (`b * slots + s`) this cycle.
    bank_read_row: Vec<Signal<Local, Bits<A>>>,
    /// Whether each bank's slot is read this cycle.
    bank_read_enable: Vec<Signal<Local, Bit>>,
    /// Row written in each bank this cycle.
    bank_write_row: Vec<Signal<Local, Bits<A>>>,
    /// Whether each bank is written this cycle.
    bank_write_enable: Vec<Signal<Local, Bit>>,
    /// Simulation-only: each bank read port granted to one read port at most
    /// ([`read_slot_checks`]).
    read_slot_check: AtMost,
    /// Simulation-only: the read crossbar's selects, one-hot per output
    /// ([`read_crossbar_checks`]).
    read_crossbar_check: AtMost,
    /// Simulation-only: the write crossbar's selects (the write wins), one-hot per bank
    /// ([`write_crossbar_checks`]).
    write_crossbar_check: AtMost,
    /// Simulation-only: no bank asked for what its kind leaves undefined
    /// ([`collision_checks`]).
    collision_check: CollisionChecker<A>,
    /// Row zero.
    zero_row: Constant<Bits<A>>,
    _banks: usize,
    /// Reads per bank per cycle: 2 with `2r1w` banks, else 1.
    _slots: usize,
    _bank_bits: usize,
    _lanes: usize,
    _read_ports: usize,
    _write_ports: usize,
    /// 1 with a bank map other than `mod`, else 0.
    _mapped: usize,
}

impl<const E: usize, const A: usize, const RI: usize> BankedGpr<E, A, RI> {
    /// Builds the GPR for `params`; the widths `E`, `A`, `RI` must match them.
    pub fn new(params: &GprParams) -> Self {
        Self::build(params, BankArbiter::new(params))
    }

    /// The GPR for a requester that never reads one bank twice in a cycle nor a register
    /// written in the same cycle (the core slice): every read is granted, and the read
    /// arbitration is not built (`BankArbiter::uncontended_reads`).
    pub fn with_uncontended_reads(params: &GprParams) -> Self {
        Self::build(params, BankArbiter::uncontended_reads(params))
    }

    /// The GPR for the core slice's scheduler, which never asks a bank for more reads than
    /// it serves nor reads a register written in the same cycle: built
    /// [`BankedGpr::with_uncontended_reads`] with one read per bank, and with the full
    /// arbitration (which then grants every read) with two.
    pub fn for_scheduler(params: &GprParams) -> Self {
        match params.bank_kind.reads_per_bank() {
            1 => Self::with_uncontended_reads(params),
            _ => Self::new(params),
        }
    }

    fn build(params: &GprParams, arbiter: BankArbiter<RI>) -> Self {
        assert_eq!(E, params.element_bits);
        assert_eq!(A, params.row_bits());
        assert_eq!(RI, params.register_bits());
        let (b, l) = (params.banks, params.lanes);
        let (p, w) = (params.read_ports, params.write_ports);
        let (staged, data_staged) = (params.pipeline >= 1, params.pipeline >= 2);
        let sram_staged = params.registered_sram_ports();
        // Primitive banks hold the bank data stage in their own output registers.
        let output_register = data_staged && params.memory.is_primitive();
        let (kind, ns) = (params.bank_kind, params.bank_kind.reads_per_bank());
        let mapped = params.bank_map != BankMap::Mod;
        Self {
            clock: Signal::default(),
            read_valid: signals(p),
            read_reg: signals(p),
            read_grant: signals(p),
            read_data: signals(p * l),
            write_valid: signals(w),
            write_reg: signals(w),
            write_data: signals(w * l),
            write_grant: signals(w),
            banks: (0..b * ns * l)
                .map(|_| SramBank::for_kind(kind).in_memory(params.memory, output_register))
                .collect(),
            read_xbar: Crossbar::new(b * ns, p, l),
            write_xbar: Crossbar::new(w, b, l),
            arbiter,
            read_map: (0..p * usize::from(mapped))
                .map(|_| RegisterMap::new(params, false))
                .collect(),
            write_map: (0..w * usize::from(mapped))
                .map(|_| RegisterMap::new(params, false))
                .collect(),
            read_index: signals(p),
            write_index: signals(w),
            requests: RequestDelays::new(params),
            read_route: ReadRoute::new(params, p * b * ns),
            bank_data: Registers::stage(b * ns * l, data_staged && !output_register),
            fabric_data: Registers::stage(b * ns * l, sram_staged),
            sram_read_enable: Registers::stage(b * ns, sram_staged),
            sram_read_row: Registers::stage(b * ns, sram_staged),
            sram_write_enable: Registers::stage(b, sram_staged),
            sram_write_row: Registers::stage(b, sram_staged),
            sram_write_data: Registers::stage(b * l, sram_staged),
            port_wins: Registers::stage((w + p * ns) * b, staged),
            port_read_rows: Registers::stage(p, staged),
            port_write_rows: Registers::stage(w, staged),
            port_data: Registers::stage(w * l, staged),
            read_row: signals(p * b * ns),
            write_row: signals(w * b),
            bank_read_row: signals(b * ns),
            bank_read_enable: signals(b * ns),
            bank_write_row: signals(b),
            bank_write_enable: signals(b),
            read_slot_check: read_slot_checks(params),
            read_crossbar_check: read_crossbar_checks(params),
            write_crossbar_check: write_crossbar_checks(params),
            collision_check: collision_checks(params),
            zero_row: Constant::new(0u64.into()),
            _banks: b,
            _slots: ns,
            _bank_bits: params.bank_bits(),
            _lanes: l,
            _read_ports: p,
            _write_ports: w,
            _mapped: usize::from(mapped),
        }
    }
}

/// The stages' clocks, the arbitration, and the requests held for it and for the bank ports.
enum Arbitration {}

/// The bank ports: the wins into the bank port stage, the SRAM accesses and the data stages.
enum BankPorts {}

/// Read data out of the crossbar after the bank access (and the data stages).
enum ReadOut {}

impl<const E: usize, const A: usize, const RI: usize> Logic for BankedGpr<E, A, RI> {
    logic_in_parts!(Arbitration, BankPorts, ReadOut);
}

impl<const E: usize, const A: usize, const RI: usize> crate::parts::Part<Arbitration>
    for BankedGpr<E, A, RI>
{
    // Loops over a single value (`nb`, `ns`, `nl`, `nw`, `bb`) bind run-time sizes to loop
    // variables: rust-hdl evaluates index arithmetic over loop variables only
    // (docs/rust-hdl.md). Every local is written once per evaluation, so rust-hdl's simulator
    // agrees with the Verilog.
    #[hdl_gen]
    fn update(&mut self) {
        self.arbiter.clock.next = self.clock.val();
        self.requests.clock.next = self.clock.val();
        self.port_wins.clock.next = self.clock.val();
        self.port_read_rows.clock.next = self.clock.val();
        self.port_write_rows.clock.next = self.clock.val();
        self.port_data.clock.next = self.clock.val();
        self.read_route.clock.next = self.clock.val();
        self.bank_data.clock.next = self.clock.val();
        self.fabric_data.clock.next = self.clock.val();
        self.sram_read_enable.clock.next = self.clock.val();
        self.sram_read_row.clock.next = self.clock.val();
        self.sram_write_enable.clock.next = self.clock.val();
        self.sram_write_row.clock.next = self.clock.val();
        self.sram_write_data.clock.next = self.clock.val();
        self.read_slot_check.clock.next = self.clock.val();
        self.read_crossbar_check.clock.next = self.clock.val();
        self.write_crossbar_check.clock.next = self.clock.val();
        self.collision_check.clock.next = self.clock.val();
        // Arbitration, and the requests held for it (`pipeline` 3 and 4) and for the bank ports.
        for p in 0..self._read_ports {
            self.read_index[p].next = self.read_reg[p].val();
        }
        for w in 0..self._write_ports {
            self.write_index[w].next = self.write_reg[w].val();
        }
        for _m in 0..self._mapped {
            for p in 0..self._read_ports {
                self.read_map[p].register.next = self.read_reg[p].val();
                self.read_index[p].next = self.read_map[p].mapped.val();
            }
            for w in 0..self._write_ports {
                self.write_map[w].register.next = self.write_reg[w].val();
                self.write_index[w].next = self.write_map[w].mapped.val();
            }
        }
        for bb in self._bank_bits..(self._bank_bits + 1) {
            for p in 0..self._read_ports {
                self.arbiter.read_valid[p].next = self.read_valid[p].val();
                self.arbiter.read_reg[p].next = self.read_index[p].val();
                self.requests.read_row[p].next = self.read_index[p].val().get_bits::<A>(bb);
                self.port_read_rows.d[p].next = self.requests.granted_read_row[p].val();
                self.read_grant[p].next = self.arbiter.read_grant[p].val();
            }
            for w in 0..self._write_ports {
                self.arbiter.write_valid[w].next = self.write_valid[w].val();
                self.arbiter.write_reg[w].next = self.write_index[w].val();
                self.requests.write_row[w].next = self.write_index[w].val().get_bits::<A>(bb);
                self.port_write_rows.d[w].next = self.requests.granted_write_row[w].val();
                self.write_grant[w].next = self.arbiter.write_grant[w].val();
            }
        }
        for k in 0..(self._write_ports * self._lanes) {
            self.requests.write_data[k].next = self.write_data[k].val();
            self.port_data.d[k].next = self.requests.granted_write_data[k].val();
            self.write_xbar.inputs[k].next = self.port_data.q[k].val();
        }
    }
}

impl<const E: usize, const A: usize, const RI: usize> crate::parts::Part<BankPorts>
    for BankedGpr<E, A, RI>
{
    #[hdl_gen]
    fn update(&mut self) {
        for nb in self._banks..(self._banks + 1) {
            for ns in self._slots..(self._slots + 1) {
                for nl in self._lanes..(self._lanes + 1) {
                    for nw in self._write_ports..(self._write_ports + 1) {
                        // The wins into the bank port stage; the reads' route follows them.
                        for k in 0..(self._write_ports * self._banks) {
                            self.port_wins.d[k].next = self.arbiter.write_win[k].val();
                            self.write_crossbar_check.bits[k].next = self.port_wins.q[k].val();
                        }
                        for k in 0..(self._read_ports * self._banks * self._slots) {
                            self.port_wins.d[nw * nb + k].next = self.arbiter.read_win[k].val();
                            self.read_slot_check.bits[k].next = self.arbiter.read_win[k].val();
                            self.read_route.wins[k].next = self.port_wins.q[nw * nb + k].val();
                        }
                        // Bank ports after the stage: the winner's row (zero when idle), as an
                        // OR of the rows gated by the one-hot wins, not a priority chain.
                        for b in 0..self._banks {
                            for s in 0..self._slots {
                                self.bank_read_enable[b * ns + s].next = false;
                                self.bank_read_row[b * ns + s].next = self.zero_row.val();
                                for p in 0..self._read_ports {
                                    self.read_row[(p * nb + b) * ns + s].next = self.zero_row.val();
                                    if self.port_wins.q[nw * nb + (p * nb + b) * ns + s].val() {
                                        self.read_row[(p * nb + b) * ns + s].next =
                                            self.port_read_rows.q[p].val();
                                    }
                                    self.bank_read_enable[b * ns + s].next = self.bank_read_enable
                                        [b * ns + s]
                                        .val()
                                        | self.port_wins.q[nw * nb + (p * nb + b) * ns + s].val();
                                    self.bank_read_row[b * ns + s].next =
                                        self.bank_read_row[b * ns + s].val()
                                            | self.read_row[(p * nb + b) * ns + s].val();
                                }
                            }
                            self.bank_write_enable[b].next = false;
                            self.bank_write_row[b].next = self.zero_row.val();
                            for w in 0..self._write_ports {
                                self.write_row[w * nb + b].next = self.zero_row.val();
                                if self.port_wins.q[w * nb + b].val() {
                                    self.write_row[w * nb + b].next =
                                        self.port_write_rows.q[w].val();
                                }
                                self.bank_write_enable[b].next = self.bank_write_enable[b].val()
                                    | self.port_wins.q[w * nb + b].val();
                                self.bank_write_row[b].next =
                                    self.bank_write_row[b].val() | self.write_row[w * nb + b].val();
                                self.write_xbar.select[b * nw + w].next =
                                    self.port_wins.q[w * nb + b].val();
                            }
                            // The SRAM port stage, then each slot's SRAM (replica) of each lane:
                            // its own read, the bank's write.
                            self.sram_write_enable.d[b].next = self.bank_write_enable[b].val();
                            self.sram_write_row.d[b].next = self.bank_write_row[b].val();
                            for l in 0..self._lanes {
                                self.sram_write_data.d[b * nl + l].next =
                                    self.write_xbar.outputs[b * nl + l].val();
                            }
                            for s in 0..self._slots {
                                self.sram_read_enable.d[b * ns + s].next =
                                    self.bank_read_enable[b * ns + s].val();
                                self.sram_read_row.d[b * ns + s].next =
                                    self.bank_read_row[b * ns + s].val();
                                self.collision_check.read_enable[b * ns + s].next =
                                    self.sram_read_enable.q[b * ns + s].val();
                                self.collision_check.read_address[b * ns + s].next =
                                    self.sram_read_row.q[b * ns + s].val();
                                self.collision_check.write_enable[b * ns + s].next =
                                    self.sram_write_enable.q[b].val();
                                self.collision_check.write_address[b * ns + s].next =
                                    self.sram_write_row.q[b].val();
                                for l in 0..self._lanes {
                                    self.banks[(b * ns + s) * nl + l].clock.next = self.clock.val();
                                    self.banks[(b * ns + s) * nl + l].read_enable.next =
                                        self.sram_read_enable.q[b * ns + s].val();
                                    self.banks[(b * ns + s) * nl + l].read_address.next =
                                        self.sram_read_row.q[b * ns + s].val();
                                    self.banks[(b * ns + s) * nl + l].write_enable.next =
                                        self.sram_write_enable.q[b].val();
                                    self.banks[(b * ns + s) * nl + l].write_address.next =
                                        self.sram_write_row.q[b].val();
                                    self.banks[(b * ns + s) * nl + l].write_data.next =
                                        self.sram_write_data.q[b * nl + l].val();
                                    self.bank_data.d[(b * ns + s) * nl + l].next =
                                        self.banks[(b * ns + s) * nl + l].read_data.val();
                                    self.fabric_data.d[(b * ns + s) * nl + l].next =
                                        self.bank_data.q[(b * ns + s) * nl + l].val();
                                    self.read_xbar.inputs[(b * ns + s) * nl + l].next =
                                        self.fabric_data.q[(b * ns + s) * nl + l].val();
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

impl<const E: usize, const A: usize, const RI: usize> crate::parts::Part<ReadOut>
    for BankedGpr<E, A, RI>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Read data out of the crossbar after the bank access (and the data stages).
        for k in 0..(self._read_ports * self._banks * self._slots) {
            self.read_crossbar_check.bits[k].next = self.read_route.select[k].val();
            self.read_xbar.select[k].next = self.read_route.select[k].val();
        }
        for k in 0..(self._read_ports * self._lanes) {
            self.read_data[k].next = self.read_xbar.outputs[k].val();
        }
    }
}

/// The GPR's bank read ports (`read_win`, `(p * banks + b) * slots + s`): each granted to one
/// read port at most, `gpr: bank <b> read port <s> granted <n> reads`.
pub(crate) fn read_slot_checks(params: &GprParams) -> AtMost {
    let (b, p, ns) = (
        params.banks,
        params.read_ports,
        params.bank_kind.reads_per_bank(),
    );
    let slots = (0..b).flat_map(|bank| (0..ns).map(move |s| (bank, s)));
    AtMost::one_hot(
        p * b * ns,
        slots.map(|(bank, s)| {
            (
                (0..p).map(|q| (q * b + bank) * ns + s).collect(),
                format!("gpr: bank {bank} read port {s} granted %0d reads"),
            )
        }),
    )
}

/// The read crossbar's selects (registered read wins, layout as `read_win`): one-hot per
/// output, `gpr: read crossbar output <p> selects <n> bank read ports`.
pub(crate) fn read_crossbar_checks(params: &GprParams) -> AtMost {
    let (b, p, ns) = (
        params.banks,
        params.read_ports,
        params.bank_kind.reads_per_bank(),
    );
    AtMost::one_hot(
        p * b * ns,
        (0..p).map(|q| {
            (
                (q * b * ns..(q + 1) * b * ns).collect(),
                format!("gpr: read crossbar output {q} selects %0d bank read ports"),
            )
        }),
    )
}

/// The write crossbar's selects, the write wins (`write_win`, `w * banks + b`): one write per
/// bank, `gpr: write crossbar output <b> (bank <b>) selects <n> write ports`.
pub(crate) fn write_crossbar_checks(params: &GprParams) -> AtMost {
    let (b, w) = (params.banks, params.write_ports);
    AtMost::one_hot(
        w * b,
        (0..b).map(|bank| {
            (
                (0..w).map(|v| v * b + bank).collect(),
                format!("gpr: write crossbar output {bank} (bank {bank}) selects %0d write ports"),
            )
        }),
    )
}

/// The banks' ports as the SRAMs see them (after the port stage), one per bank read port
/// (`b * slots + s`, the bank's write beside each): a 1W1R bank (`1r1w`, and each `2r1w`
/// replica) is never read at the row it writes; a `1rw` bank is never asked to read and write
/// in one cycle. The arbitration's rule 2 is what keeps both (`docs/gpr.md`).
pub(crate) fn collision_checks<const A: usize>(params: &GprParams) -> CollisionChecker<A> {
    let (b, ns) = (params.banks, params.bank_kind.reads_per_bank());
    let single_port = params.bank_kind.single_port();
    let name = move |bank: usize, s: usize| match single_port {
        true => format!("gpr: bank {bank}"),
        false => format!("gpr: bank {bank} read port {s}"),
    };
    CollisionChecker::new(
        (0..b).flat_map(|bank| (0..ns).map(move |s| name(bank, s))),
        single_port,
    )
}
