//! Per bank, the lowest-numbered requesting port wins: the rule the GPR applies to its write
//! ports and then to its read ports.

use rust_hdl::prelude::*;

use crate::signals;

/// Fixed-priority selection per bank (combinational): of the ports requesting a bank, the
/// lowest-numbered one wins it. Built `uncontended`, it serves requesters that never ask for
/// one bank twice in a cycle: every request wins, and no priority logic is built.
#[derive(LogicBlock)]
pub struct LowestPortWins {
    /// `hit[port * banks + b]`: the port requests bank `b`.
    pub hit: Vec<Signal<In, Bit>>,
    /// `win[port * banks + b]`: the port is granted bank `b` (one-hot per bank).
    pub win: Vec<Signal<Out, Bit>>,
    /// Per port: granted a bank.
    pub grant: Vec<Signal<Out, Bit>>,
    /// `taken[port * banks + b]`: a lower-numbered port requests bank `b`.
    taken: Vec<Signal<Local, Bit>>,
    /// `won[port * banks + b]`: the port is granted one of banks `0..=b`.
    won: Vec<Signal<Local, Bit>>,
    _ports: usize,
    _banks: usize,
    /// 1 when requests may contend for a bank, 0 when built `uncontended`.
    _contended: usize,
}

impl LowestPortWins {
    /// The selection among `ports` ports over `banks` banks.
    pub fn new(ports: usize, banks: usize) -> Self {
        Self::build(ports, banks, true)
    }

    /// `ports` ports over `banks` banks that never request one bank twice in a cycle.
    pub fn uncontended(ports: usize, banks: usize) -> Self {
        Self::build(ports, banks, false)
    }

    fn build(ports: usize, banks: usize, contended: bool) -> Self {
        Self {
            hit: signals(ports * banks),
            win: signals(ports * banks),
            grant: signals(ports),
            taken: signals(ports * banks),
            won: signals(ports * banks),
            _ports: ports,
            _banks: banks,
            _contended: usize::from(contended),
        }
    }
}

impl Logic for LowestPortWins {
    // A single-value loop binds the bank count (`nb`) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for nb in self._banks..(self._banks + 1) {
            for b in 0..self._banks {
                self.taken[b].next = false;
            }
            for p in 1..self._ports {
                for b in 0..self._banks {
                    self.taken[p * nb + b].next = false;
                    for _contended in 0..self._contended {
                        self.taken[p * nb + b].next =
                            self.taken[(p - 1) * nb + b].val() | self.hit[(p - 1) * nb + b].val();
                    }
                }
            }
            for p in 0..self._ports {
                for b in 0..self._banks {
                    self.win[p * nb + b].next =
                        self.hit[p * nb + b].val() & !self.taken[p * nb + b].val();
                }
                self.won[p * nb].next = self.win[p * nb].val();
                for b in 1..self._banks {
                    self.won[p * nb + b].next =
                        self.won[p * nb + b - 1].val() | self.win[p * nb + b].val();
                }
                self.grant[p].next = self.won[p * nb + nb - 1].val();
            }
        }
    }
}
