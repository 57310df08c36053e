//! The first dirty entry of a switch's block, found a cycle before its write-back's data is
//! chosen.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::params::GrfParams;
use crate::signals::signals;

/// Every EU's next first dirty entry (`docs/grf.md`), registered as a copy per lane so that
/// each copy selects one lane's write-back data. With the switch's search registered
/// (`pipeline` 4 and up) it is the first live entry when `hold` takes them, else the entry
/// found now or, once that one is cleaned, the held entry after it: all three from registers
/// and lookups, so the decisions reach the copies through one multiplexer. Without it the
/// copies are wires from the first live entry. Vectors are EU-major: per entry
/// `[e * fast_regs + i]`, per entry and lane `[(e * fast_regs + i) * lanes + l]`.
#[derive(LogicBlock)]
pub struct FirstDirty {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per entry: valid, dirty and of the named block.
    pub live: Vec<Signal<In, Bit>>,
    /// Per entry: held for the switch's search (`pipeline` 4 and up).
    pub held: Vec<Signal<In, Bit>>,
    /// Per EU: the live entries are held this cycle.
    pub hold: Vec<Signal<In, Bit>>,
    /// Per EU: the front end writes back its first held entry, if there is one, this cycle
    /// (the found entry is cleaned).
    pub flush: Vec<Signal<In, Bit>>,
    /// Per entry and lane: it is the first held entry (the first live one when wired).
    pub first: Vec<Signal<Out, Bit>>,
    copies: Registers<Bit>,
    /// Per entry: the first live entry, and the held entry after the found one.
    first_live: Vec<Signal<Local, Bit>>,
    second: Vec<Signal<Local, Bit>>,
    /// Per EU, as the entries are scanned: some live entry, some held entry after the found
    /// one, some held entry.
    seen_live: Vec<Signal<Local, Bit>>,
    seen_second: Vec<Signal<Local, Bit>>,
    seen_held: Vec<Signal<Local, Bit>>,
    /// Per EU: the found entry is cleaned (a flush with some entry held).
    cleaned: Vec<Signal<Local, Bit>>,
    /// The search is registered.
    scan: Constant<Bit>,
    _eus: usize,
    _fast: usize,
    _lanes: usize,
}

impl FirstDirty {
    /// The first dirty entries of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes, fast) = (params.eus, params.lanes, params.fast_regs);
        let scan = params.pipeline >= 4;
        Self {
            clock: Default::default(),
            live: signals(eus * fast),
            held: signals(eus * fast),
            hold: signals(eus),
            flush: signals(eus),
            first: signals(eus * fast * lanes),
            copies: Registers::copies(eus * fast * lanes, scan),
            first_live: signals(eus * fast),
            second: signals(eus * fast),
            seen_live: signals(eus),
            seen_second: signals(eus),
            seen_held: signals(eus),
            cleaned: signals(eus),
            scan: Constant::new(scan),
            _eus: eus,
            _fast: fast,
            _lanes: lanes,
        }
    }
}

impl Logic for FirstDirty {
    // Single-value loops bind the lanes (nl) and entries (nf) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.copies.clock.next = self.clock.val();
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    self.seen_live[e].next = false;
                    self.seen_second[e].next = false;
                    self.seen_held[e].next = false;
                    for i in 0..self._fast {
                        self.first_live[e * nf + i].next =
                            self.live[e * nf + i].val() & !self.seen_live[e].val();
                        self.seen_live[e].next =
                            self.seen_live[e].val() | self.live[e * nf + i].val();
                        self.second[e * nf + i].next = self.held[e * nf + i].val()
                            & !self.copies.q[(e * nf + i) * nl].val()
                            & !self.seen_second[e].val();
                        self.seen_second[e].next =
                            self.seen_second[e].val() | self.second[e * nf + i].val();
                        self.seen_held[e].next =
                            self.seen_held[e].val() | self.held[e * nf + i].val();
                    }
                    self.cleaned[e].next = self.flush[e].val() & self.seen_held[e].val();
                    for i in 0..self._fast {
                        for l in 0..self._lanes {
                            self.copies.d[(e * nf + i) * nl + l].next =
                                self.first_live[e * nf + i].val();
                            if self.scan.val() & !self.hold[e].val() {
                                self.copies.d[(e * nf + i) * nl + l].next =
                                    self.copies.q[(e * nf + i) * nl + l].val();
                            }
                            if self.scan.val() & !self.hold[e].val() & self.cleaned[e].val() {
                                self.copies.d[(e * nf + i) * nl + l].next =
                                    self.second[e * nf + i].val();
                            }
                            self.first[(e * nf + i) * nl + l].next =
                                self.copies.q[(e * nf + i) * nl + l].val();
                        }
                    }
                }
            }
        }
    }
}
