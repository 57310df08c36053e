//! Result forwarding's bookkeeping: which of the head's sources can be taken from the ALU's
//! output or its recent results instead of the GPR, and how many cycles ago that result left
//! the ALU.

use rust_hdl::prelude::*;

use super::pending::CANDIDATES;
use crate::cells::regs::Registers;
use crate::core::widths::Distance;
use crate::params::{CoreParams, SOURCES};
use crate::signals::{constants, signals};

/// Which sources the head forwards (`docs/core.md`, result forwarding). An instruction issued
/// in cycle `t` has its operands at the ALU in cycle `t + read_latency`; a source whose
/// youngest writer in flight has left the ALU by then (its write-back is at most that cycle)
/// is forwarded: the ALU's output if the write-back is that very cycle, otherwise the result
/// of `distance` cycles before, which the data side keeps.
///
/// Registered like the scoreboard's hazards: each cycle computes the forwards of the next
/// cycle's head, which is this head when it stays, slot 1 when the head issues, or the
/// offered instruction when it enters slot 0. In flight next cycle are the head issuing now
/// (flight stage 0 then) and this cycle's flight stages but the last, one stage further; only
/// instructions written back on port 0 count. The youngest writer decides: one at a stage
/// before `alu_latency - 1` (next cycle) rules the source out.
///
/// Without forwarding every vector is empty and only the clock remains. `RI` is the
/// register-index width.
#[derive(LogicBlock)]
pub struct Forwarding<const RI: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// With forwarding (none without): [0] reset, [1] the head issues, [2] the offered
    /// instruction enters slot 0, [3] the head issues and will be written back on port 0.
    pub control: Vec<Signal<In, Bit>>,
    /// With forwarding (none without): the head's destination.
    pub head_dst: Vec<Signal<In, Bits<RI>>>,
    /// With forwarding (none without): the sources of slot 0, slot 1 and the offered
    /// instruction (`candidate * SOURCES + source`).
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// With forwarding (none without): per flight stage still in flight next cycle (all but
    /// the last), it holds an instruction written back on port 0.
    pub flight_valid: Vec<Signal<In, Bit>>,
    /// With forwarding (none without): per flight stage still in flight next cycle, its
    /// destination.
    pub flight_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per head source (none without forwarding): forwarded if still pending.
    pub forward: Vec<Signal<Out, Bit>>,
    /// Per head source (none without forwarding): cycles since its result left the ALU when
    /// the head's operands reach it (0: the ALU's output of that cycle).
    pub distance: Vec<Signal<Out, Distance>>,
    /// Next cycle's forwards and distances.
    held_forward: Registers<Bit>,
    held_distance: Registers<Distance>,
    /// Per candidate source: forwarded next cycle, and its distance.
    clear: Vec<Signal<Local, Bit>>,
    far: Vec<Signal<Local, Distance>>,
    /// Distances 0..=read_latency.
    number: Vec<Constant<Distance>>,
    /// Candidate sources: `CANDIDATES * SOURCES` with forwarding, otherwise 0.
    _candidates: usize,
    /// Head sources: `SOURCES` with forwarding, otherwise 0.
    _forwarded: usize,
    /// This cycle's flight stages still in flight next cycle.
    _staying: usize,
    /// The first of them in the forwarding window (at stage `alu_latency - 1` or later next
    /// cycle): `alu_latency - 2`, or 0 with one ALU stage.
    _first: usize,
    /// The window's stages among them: `_staying - _first`.
    _window: usize,
    /// The distance of stage `_first`: 1 with one ALU stage (the issuing head is at distance
    /// 0), otherwise 0.
    _offset: usize,
    /// 1 with forwarding and one ALU stage (the head issuing now is in the window), else 0.
    _shallow: usize,
    /// 1 with forwarding and two ALU stages or more (the head issuing now is younger than the
    /// window), else 0.
    _deep: usize,
}

impl<const RI: usize> Forwarding<RI> {
    /// The forwarding bookkeeping of `params` (empty without forwarding).
    pub fn new(params: &CoreParams) -> Self {
        let on = usize::from(params.forward);
        let staying = (params.issue_to_writeback() - 1) * on;
        let shallow = on * usize::from(params.alu_latency == 1);
        let first = (params.alu_latency.max(2) - 2) * on;
        Self {
            clock: Default::default(),
            control: signals(4 * on),
            head_dst: signals(on),
            src: signals(CANDIDATES * SOURCES * on),
            flight_valid: signals(staying),
            flight_dst: signals(staying),
            forward: signals(SOURCES * on),
            distance: signals(SOURCES * on),
            held_forward: Registers::stage(SOURCES * on, on == 1),
            held_distance: Registers::stage(SOURCES * on, on == 1),
            clear: signals(CANDIDATES * SOURCES * on),
            far: signals(CANDIDATES * SOURCES * on),
            number: constants((0..=params.read_latency() as u64).filter(|_| on == 1)),
            _candidates: CANDIDATES * SOURCES * on,
            _forwarded: SOURCES * on,
            _staying: staying,
            _first: first,
            _window: staying - first,
            _offset: shallow,
            _shallow: shallow,
            _deep: on - shallow,
        }
    }
}

impl<const RI: usize> Logic for Forwarding<RI> {
    // Single-value loops bind sizes (ns, nw, no, nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.held_forward.clock.next = self.clock.val();
        self.held_distance.clock.next = self.clock.val();
        for ns in self._staying..(self._staying + 1) {
            for nw in self._window..(self._window + 1) {
                for no in self._offset..(self._offset + 1) {
                    for x in 0..self._candidates {
                        // The window's stages oldest first, so that the youngest writer wins.
                        self.clear[x].next = false;
                        self.far[x].next = self.number[0].val();
                        for g in 0..self._window {
                            if self.flight_valid[ns - 1 - g].val()
                                & (self.flight_dst[ns - 1 - g].val() == self.src[x].val())
                            {
                                self.clear[x].next = true;
                                self.far[x].next = self.number[nw - 1 - g + no].val();
                            }
                        }
                        // Younger writers rule it out, in flight or issuing now.
                        for f in 0..self._first {
                            if self.flight_valid[f].val()
                                & (self.flight_dst[f].val() == self.src[x].val())
                            {
                                self.clear[x].next = false;
                            }
                        }
                        for _d in 0..self._deep {
                            if self.control[3].val() & (self.head_dst[0].val() == self.src[x].val())
                            {
                                self.clear[x].next = false;
                            }
                        }
                        for _s in 0..self._shallow {
                            if self.control[3].val() & (self.head_dst[0].val() == self.src[x].val())
                            {
                                self.clear[x].next = true;
                                self.far[x].next = self.number[0].val();
                            }
                        }
                    }
                }
            }
        }
        // Next cycle's head: this one, slot 1 on issue, or the offered instruction.
        for nsrc in SOURCES..(SOURCES + 1) {
            for s in 0..self._forwarded {
                self.held_forward.d[s].next = self.clear[s].val();
                self.held_distance.d[s].next = self.far[s].val();
                if self.control[1].val() {
                    self.held_forward.d[s].next = self.clear[nsrc + s].val();
                    self.held_distance.d[s].next = self.far[nsrc + s].val();
                }
                if self.control[2].val() {
                    self.held_forward.d[s].next = self.clear[2 * nsrc + s].val();
                    self.held_distance.d[s].next = self.far[2 * nsrc + s].val();
                }
                if self.control[0].val() {
                    self.held_forward.d[s].next = false;
                }
                self.forward[s].next = self.held_forward.q[s].val();
                self.distance[s].next = self.held_distance.q[s].val();
            }
        }
    }
}
