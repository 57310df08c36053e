//! Registers written by several ports, the lowest-numbered port winning: the storage of the
//! flip-flop file and of the live-value table.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::signals::signals;

/// `groups` arrays of `registers` entries of `lanes` elements in flip-flops, each array written
/// by `write_ports` ports of its own, each port naming the register it writes by one hit line
/// per register (decoded by the parent). A write is stored on the rising edge; when several
/// ports of one group write one register in a cycle, the lowest-numbered port wins. Every
/// value is an output, for the reader to multiplex.
///
/// `E` is the element width.
#[derive(LogicBlock)]
pub struct Cells<const E: usize> {
    /// Clock: writes take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// `(g * write_ports + w) * registers + k`: port `w` of group `g` writes register `k`.
    pub write_hit: Vec<Signal<In, Bit>>,
    /// Write data (`(g * write_ports + w) * lanes + l`).
    pub write_data: Vec<Signal<In, Bits<E>>>,
    /// The registers' values (`(g * registers + k) * lanes + l`).
    pub value: Vec<Signal<Out, Bits<E>>>,
    /// The flip-flops, laid out as `value`.
    cells: Registers<Bits<E>>,
    _groups: usize,
    _registers: usize,
    _lanes: usize,
    _write_ports: usize,
}

impl<const E: usize> Cells<E> {
    /// `groups` arrays of `registers` x `lanes` elements with `write_ports` ports each.
    pub fn new(groups: usize, registers: usize, lanes: usize, write_ports: usize) -> Self {
        let w = groups * write_ports;
        Self {
            clock: Signal::default(),
            write_hit: signals(w * registers),
            write_data: signals(w * lanes),
            value: signals(groups * registers * lanes),
            cells: Registers::new(groups * registers * lanes),
            _groups: groups,
            _registers: registers,
            _lanes: lanes,
            _write_ports: write_ports,
        }
    }
}

impl<const E: usize> Logic for Cells<E> {
    // Loops over a single value (`nn`, `nl`, `nw`) bind run-time sizes to loop variables
    // (docs/rust-hdl.md).
    #[hdl_gen]
    fn update(&mut self) {
        for nn in self._registers..(self._registers + 1) {
            for nl in self._lanes..(self._lanes + 1) {
                for nw in self._write_ports..(self._write_ports + 1) {
                    self.cells.clock.next = self.clock.val();
                    // The highest port first, so that the lowest one wins.
                    for g in 0..self._groups {
                        for k in 0..self._registers {
                            for l in 0..self._lanes {
                                self.cells.d[(g * nn + k) * nl + l].next =
                                    self.cells.q[(g * nn + k) * nl + l].val();
                                for w in 0..self._write_ports {
                                    if self.write_hit[(g * nw + nw - 1 - w) * nn + k].val() {
                                        self.cells.d[(g * nn + k) * nl + l].next =
                                            self.write_data[(g * nw + nw - 1 - w) * nl + l].val();
                                    }
                                }
                                self.value[(g * nn + k) * nl + l].next =
                                    self.cells.q[(g * nn + k) * nl + l].val();
                            }
                        }
                    }
                }
            }
        }
    }
}
