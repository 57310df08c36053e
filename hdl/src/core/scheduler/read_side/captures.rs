//! Where each read's data goes: the read scheduler's decision for every read port, carried
//! through the GPR's read latency to meet the data it names.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::core::widths::{CaptureCode, EntryIndex};
use crate::params::{CaptureKind, CoreParams};
use crate::signals::{constant, signals};

/// The capture delay line (registered): per read port, the capture kind and the latch or queue
/// entry of a read reaching the GPR come out the GPR's latency later
/// (`CoreParams::gpr_latency`), with the read's data.
/// Reset clears every stage's kind to "nowhere", so that no data in flight is captured.
#[derive(LogicBlock)]
pub struct CaptureDelay {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no read in flight.
    pub reset: Signal<In, Bit>,
    /// Per read port: where this cycle's read goes (`CaptureKind` code).
    pub read_kind: Vec<Signal<In, CaptureCode>>,
    /// Per read port: the latch (source number) or queue entry of this cycle's read.
    pub read_index: Vec<Signal<In, EntryIndex>>,
    /// Per read port, for the data arriving this cycle: where it goes.
    pub capture_kind: Vec<Signal<Out, CaptureCode>>,
    /// Per read port, for the data arriving this cycle: the latch or queue entry.
    pub capture_index: Vec<Signal<Out, EntryIndex>>,
    /// Per read port, for each of the `gpr_latency` cycles (stage-major, `stage * ports +
    /// port`): where a read that reached the GPR that many cycles ago goes, and the latch or entry.
    kind_r: Registers<CaptureCode>,
    index_r: Registers<EntryIndex>,
    nowhere: Constant<CaptureCode>,
    _read_ports: usize,
    /// The delay stages after the first: `gpr_latency - 1`.
    _later: usize,
    /// Where the last stage starts: `(gpr_latency - 1) * ports`.
    _last_port: usize,
}

impl CaptureDelay {
    /// The capture delay line of the core described by `params`.
    pub fn new(params: &CoreParams) -> Self {
        let p = params.gpr.read_ports;
        let latency = params.gpr_latency();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            read_kind: signals(p),
            read_index: signals(p),
            capture_kind: signals(p),
            capture_index: signals(p),
            kind_r: Registers::new(p * latency),
            index_r: Registers::new(p * latency),
            nowhere: constant(CaptureKind::Nowhere.code()),
            _read_ports: p,
            _later: latency - 1,
            _last_port: (latency - 1) * p,
        }
    }
}

impl Logic for CaptureDelay {
    // A single-value loop binds the port count (np) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.kind_r.clock.next = self.clock.val();
        self.index_r.clock.next = self.clock.val();
        for p in 0..self._read_ports {
            self.kind_r.d[p].next = self.read_kind[p].val();
            if self.reset.val() {
                self.kind_r.d[p].next = self.nowhere.val();
            }
            self.index_r.d[p].next = self.read_index[p].val();
        }
        for np in self._read_ports..(self._read_ports + 1) {
            for k in 0..self._later {
                for p in 0..self._read_ports {
                    self.kind_r.d[(k + 1) * np + p].next = self.kind_r.q[k * np + p].val();
                    if self.reset.val() {
                        self.kind_r.d[(k + 1) * np + p].next = self.nowhere.val();
                    }
                    self.index_r.d[(k + 1) * np + p].next = self.index_r.q[k * np + p].val();
                }
            }
            for last in self._last_port..(self._last_port + 1) {
                for p in 0..self._read_ports {
                    self.capture_kind[p].next = self.kind_r.q[last + p].val();
                    self.capture_index[p].next = self.index_r.q[last + p].val();
                }
            }
        }
    }
}
