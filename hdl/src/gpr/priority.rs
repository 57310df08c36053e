//! Per bank, the lowest-numbered requesting ports win: the rule the GPR applies to its write
//! ports and then to its read ports.

use rust_hdl::prelude::*;

use crate::signals::signals;

/// Fixed-priority selection per bank (combinational): of the ports requesting a bank, the
/// `capacity` lowest-numbered ones win it, the lowest in slot 0, the next in slot 1. Built
/// `uncontended`, it serves requesters that never ask for one bank twice in a cycle: every
/// request wins slot 0, and no priority logic is built.
#[derive(LogicBlock)]
pub struct LowestPortWins {
    /// `hit[port * banks + b]`: the port requests bank `b`.
    pub hit: Vec<Signal<In, Bit>>,
    /// `win[(port * banks + b) * capacity + s]`: the port is granted slot `s` of bank `b`
    /// (one-hot per bank and slot).
    pub win: Vec<Signal<Out, Bit>>,
    /// Per port: granted a bank.
    pub grant: Vec<Signal<Out, Bit>>,
    /// `taken[(port * banks + b) * capacity + s]`: more than `s` lower-numbered ports request
    /// bank `b` (a thermometer count).
    taken: Vec<Signal<Local, Bit>>,
    /// `won[(port * banks + b) * capacity + s]`: the port is granted one of the slots up to
    /// bank `b`, slot `s`.
    won: Vec<Signal<Local, Bit>>,
    _ports: usize,
    _banks: usize,
    _capacity: usize,
    /// 1 when requests may contend for a bank, 0 when built `uncontended`.
    _contended: usize,
}

impl LowestPortWins {
    /// The selection among `ports` ports over `banks` banks of one slot each.
    pub fn new(ports: usize, banks: usize) -> Self {
        Self::build(ports, banks, 1, true)
    }

    /// The selection among `ports` ports over `banks` banks of `capacity` slots each.
    pub fn with_capacity(ports: usize, banks: usize, capacity: usize) -> Self {
        Self::build(ports, banks, capacity, true)
    }

    /// `ports` ports over `banks` banks of one slot that never request one bank twice in a
    /// cycle.
    pub fn uncontended(ports: usize, banks: usize) -> Self {
        Self::build(ports, banks, 1, false)
    }

    fn build(ports: usize, banks: usize, capacity: usize, contended: bool) -> Self {
        Self {
            hit: signals(ports * banks),
            win: signals(ports * banks * capacity),
            grant: signals(ports),
            taken: signals(ports * banks * capacity),
            won: signals(ports * banks * capacity),
            _ports: ports,
            _banks: banks,
            _capacity: capacity,
            _contended: usize::from(contended),
        }
    }
}

impl Logic for LowestPortWins {
    // Single-value loops bind the bank count (`nb`) and the capacity (`nc`) for index
    // arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nb in self._banks..(self._banks + 1) {
            for nc in self._capacity..(self._capacity + 1) {
                for k in 0..(self._banks * self._capacity) {
                    self.taken[k].next = false;
                }
                for p in 1..self._ports {
                    for b in 0..self._banks {
                        for s in 0..self._capacity {
                            self.taken[(p * nb + b) * nc + s].next = false;
                        }
                        for _contended in 0..self._contended {
                            // One more requester below: the count goes up by one.
                            self.taken[(p * nb + b) * nc].next =
                                self.taken[((p - 1) * nb + b) * nc].val()
                                    | self.hit[(p - 1) * nb + b].val();
                            for s in 1..self._capacity {
                                self.taken[(p * nb + b) * nc + s].next =
                                    self.taken[((p - 1) * nb + b) * nc + s].val()
                                        | (self.hit[(p - 1) * nb + b].val()
                                            & self.taken[((p - 1) * nb + b) * nc + s - 1].val());
                            }
                        }
                    }
                }
                for p in 0..self._ports {
                    for b in 0..self._banks {
                        self.win[(p * nb + b) * nc].next =
                            self.hit[p * nb + b].val() & !self.taken[(p * nb + b) * nc].val();
                        for s in 1..self._capacity {
                            self.win[(p * nb + b) * nc + s].next = self.hit[p * nb + b].val()
                                & self.taken[(p * nb + b) * nc + s - 1].val()
                                & !self.taken[(p * nb + b) * nc + s].val();
                        }
                    }
                    self.won[p * nb * nc].next = self.win[p * nb * nc].val();
                    for k in 1..(self._banks * self._capacity) {
                        self.won[p * nb * nc + k].next =
                            self.won[p * nb * nc + k - 1].val() | self.win[p * nb * nc + k].val();
                    }
                    self.grant[p].next = self.won[p * nb * nc + nb * nc - 1].val();
                }
            }
        }
    }
}
