//! With several waves: whether each wave's offered instruction may enter the window
//! (`docs/core.md`, "Waves").

use rust_hdl::prelude::*;

use super::pending::CandidateSpans;
use crate::core::widths::{SyncWaits, UnitCode, WaveNumber, WriteCount};
use crate::params::{CoreParams, CoreUnit, SOURCES};
use crate::signals::{constant, constants, signals};

/// Per wave, whether its offered instruction is ready to enter the window, judged on the state
/// after this cycle's issue, frees and stage moves: no register it reads or writes is
/// outstanding (the pending table's entries after this cycle's free, and the registers an
/// issuing long-latency head takes), its sync waits find no outstanding guard of its own wave,
/// and no source is still to be written by a window slot staying after the issue (one writing
/// that register alone, or a long-latency slot of the same wave writing several) or by an
/// instruction in the ALU (the stages staying in flight, and the issuing head). Vectors of
/// sources are wave-major (`wave * SOURCES + source`). `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct WaveReadiness<const RI: usize> {
    /// The head issues this cycle.
    pub issue: Vec<Signal<In, Bit>>,
    /// Per window slot: it holds an instruction.
    pub slot_valid: Vec<Signal<In, Bit>>,
    /// Per window slot: its first destination.
    pub slot_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per window slot: its destination registers written.
    pub slot_writes: Vec<Signal<In, WriteCount>>,
    /// Per window slot: its unit (`CoreUnit`).
    pub slot_unit: Vec<Signal<In, UnitCode>>,
    /// Per window slot: its wave.
    pub slot_wave: Vec<Signal<In, WaveNumber>>,
    /// Per flight stage staying in flight next cycle: written back on port 0.
    pub flight_write: Vec<Signal<In, Bit>>,
    /// Per flight stage staying in flight next cycle: its register.
    pub flight_dst: Vec<Signal<In, Bits<RI>>>,
    /// Per pending-table entry: valid after this cycle's free.
    pub entry_live: Vec<Signal<In, Bit>>,
    /// Per entry: its register.
    pub entry_reg: Vec<Signal<In, Bits<RI>>>,
    /// Per entry: guarded by `(sy)`.
    pub entry_sy: Vec<Signal<In, Bit>>,
    /// Per entry: its wave.
    pub entry_wave: Vec<Signal<In, WaveNumber>>,
    /// Per `k`: the head's register `dst + k`.
    pub head_plus: Vec<Signal<In, Bits<RI>>>,
    /// Per `k`: the head writes register `dst + k`.
    pub head_covers: Vec<Signal<In, Bit>>,
    /// The head is a long-latency instruction.
    pub head_long: Vec<Signal<In, Bit>>,
    /// The head's results are guarded by `(sy)`.
    pub head_sy: Vec<Signal<In, Bit>>,
    /// Per wave: an instruction is offered.
    pub valid: Vec<Signal<In, Bit>>,
    /// Per wave: the offered instruction's first destination.
    pub dst: Vec<Signal<In, Bits<RI>>>,
    /// Per wave: its destination registers written.
    pub writes: Vec<Signal<In, WriteCount>>,
    /// Per wave: its unit.
    pub unit: Vec<Signal<In, UnitCode>>,
    /// Per wave: its sync waits (bit 0 `(ss)`, bit 1 `(sy)`).
    pub waits: Vec<Signal<In, SyncWaits>>,
    /// Per wave and source: the register.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per wave and source: it is a GPR read.
    pub read: Vec<Signal<In, Bit>>,
    /// Per wave: its offered instruction may enter the window.
    pub ready: Vec<Signal<Out, Bit>>,
    /// The offered instructions' registers `dst + k` (through the bank map).
    spans: CandidateSpans<RI>,
    /// The spans' outputs this block does not read: read by a wire the lint leaves alone.
    spans_unused: Vec<Signal<Local, Bit>>,
    /// Per window slot: it stays after the issue and writes its first destination only, or
    /// (a long-latency instruction writing several registers) every register of its wave.
    one: Vec<Signal<Local, Bit>>,
    many: Vec<Signal<Local, Bit>>,
    /// The issuing head takes entries (a long-latency head writing a register).
    takes: Vec<Signal<Local, Bit>>,
    /// Per wave and source: a result for it is still to come.
    written: Vec<Signal<Local, Bit>>,
    /// Per wave: a register it writes is outstanding after this cycle.
    taken: Vec<Signal<Local, Bit>>,
    /// Per wave: an `(ss)` or `(sy)` guard of its wave is outstanding after this cycle.
    ss: Vec<Signal<Local, Bit>>,
    sy: Vec<Signal<Local, Bit>>,
    /// Wave numbers.
    wave_code: Vec<Constant<WaveNumber>>,
    alu: Constant<UnitCode>,
    one_write: Constant<WriteCount>,
    _window: usize,
    _staying: usize,
    _entries: usize,
    _waves: usize,
    /// 1 with several waves, else 0: a slice of one wave builds this part with no port, and
    /// the emitter leaves it out.
    _tagged: usize,
}

impl<const RI: usize> WaveReadiness<RI> {
    /// The readiness of `params`' waves (with one wave, none: no port and no logic).
    pub fn new(params: &CoreParams) -> Self {
        let t = usize::from(params.wave_count() > 1);
        let (w, n, waves) = (
            params.window() * t,
            params.long_results * t,
            params.wave_count() * t,
        );
        let staying = (params.issue_to_writeback() - 1) * t;
        Self {
            issue: signals(t),
            slot_valid: signals(w),
            slot_dst: signals(w),
            slot_writes: signals(w),
            slot_unit: signals(w),
            slot_wave: signals(w),
            flight_write: signals(staying),
            flight_dst: signals(staying),
            entry_live: signals(n),
            entry_reg: signals(n),
            entry_sy: signals(n),
            entry_wave: signals(n),
            head_plus: signals(4 * t),
            head_covers: signals(4 * t),
            head_long: signals(t),
            head_sy: signals(t),
            valid: signals(waves),
            dst: signals(waves),
            writes: signals(waves),
            unit: signals(waves),
            waits: signals(waves),
            src: signals(SOURCES * waves),
            read: signals(SOURCES * waves),
            ready: signals(waves),
            spans: CandidateSpans::new(&params.gpr, waves),
            spans_unused: signals(t),
            one: signals(w),
            many: signals(w),
            takes: signals(t),
            written: signals(SOURCES * waves),
            taken: signals(waves),
            ss: signals(waves),
            sy: signals(waves),
            wave_code: constants(0..waves as u64),
            alu: constant(CoreUnit::Alu.code()),
            one_write: constant(1),
            _window: w,
            _staying: staying,
            _entries: n,
            _waves: waves,
            _tagged: t,
        }
    }
}

impl<const RI: usize> Logic for WaveReadiness<RI> {
    // Single-value loops bind the sources (nsrc) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        for _t in 0..self._tagged {
            // The slots staying after the issue (the head leaves when it issues).
            for j in 0..self._window {
                self.one[j].next =
                    self.slot_valid[j].val() & (self.slot_writes[j].val() == self.one_write.val());
                self.many[j].next = self.slot_valid[j].val()
                    & (self.slot_unit[j].val() != self.alu.val())
                    & (self.slot_writes[j].val() > self.one_write.val());
            }
            if self.issue[0].val() {
                self.one[0].next = false;
                self.many[0].next = false;
            }
            self.takes[0].next =
                self.issue[0].val() & self.head_long[0].val() & self.head_covers[0].val();
            self.spans_unused[0].next = self.spans.head_long.val() | self.spans.head_sy.val();
            for w in 0..self._waves {
                self.spans.cand_dst[w].next = self.dst[w].val();
                self.spans.cand_writes[w].next = self.writes[w].val();
                self.spans.cand_unit[w].next = self.unit[w].val();
                self.spans_unused[0].next =
                    self.spans_unused[0].val() | self.spans.takes[w].val().any();
                // Its wave's guards: the entries after the free, and the issuing head's.
                self.ss[w].next = false;
                self.sy[w].next = false;
                for e in 0..self._entries {
                    if self.entry_live[e].val()
                        & (self.entry_wave[e].val() == self.wave_code[w].val())
                    {
                        self.ss[w].next = self.ss[w].val() | !self.entry_sy[e].val();
                        self.sy[w].next = self.sy[w].val() | self.entry_sy[e].val();
                    }
                }
                if self.takes[0].val() & (self.slot_wave[0].val() == self.wave_code[w].val()) {
                    self.ss[w].next = self.ss[w].val() | !self.head_sy[0].val();
                    self.sy[w].next = self.sy[w].val() | self.head_sy[0].val();
                }
                // Its sources: written by a slot, a flight stage, the issuing head, or outstanding.
                for nsrc in SOURCES..(SOURCES + 1) {
                    for s in 0..SOURCES {
                        self.written[w * nsrc + s].next = false;
                        for j in 0..self._window {
                            self.written[w * nsrc + s].next = self.written[w * nsrc + s].val()
                                | (self.one[j].val()
                                    & (self.slot_dst[j].val() == self.src[w * nsrc + s].val()))
                                | (self.many[j].val()
                                    & (self.slot_wave[j].val() == self.wave_code[w].val()));
                        }
                        for f in 0..self._staying {
                            self.written[w * nsrc + s].next = self.written[w * nsrc + s].val()
                                | (self.flight_write[f].val()
                                    & (self.flight_dst[f].val() == self.src[w * nsrc + s].val()));
                        }
                        for e in 0..self._entries {
                            self.written[w * nsrc + s].next = self.written[w * nsrc + s].val()
                                | (self.entry_live[e].val()
                                    & (self.entry_reg[e].val() == self.src[w * nsrc + s].val()));
                        }
                        for k in 0..4 {
                            self.written[w * nsrc + s].next = self.written[w * nsrc + s].val()
                                | (self.issue[0].val()
                                    & self.head_covers[k].val()
                                    & (self.head_plus[k].val() == self.src[w * nsrc + s].val()));
                        }
                        self.written[w * nsrc + s].next =
                            self.written[w * nsrc + s].val() & self.read[w * nsrc + s].val();
                    }
                }
                // The registers it writes: outstanding after the free, or taken by the head.
                self.taken[w].next = false;
                for k in 0..4 {
                    for e in 0..self._entries {
                        self.taken[w].next = self.taken[w].val()
                            | (self.spans.covers[w * 4 + k].val()
                                & self.entry_live[e].val()
                                & (self.entry_reg[e].val() == self.spans.plus[w * 4 + k].val()));
                    }
                    for h in 0..4 {
                        self.taken[w].next = self.taken[w].val()
                            | (self.spans.covers[w * 4 + k].val()
                                & self.takes[0].val()
                                & self.head_covers[h].val()
                                & (self.head_plus[h].val() == self.spans.plus[w * 4 + k].val()));
                    }
                }
                for nsrc in SOURCES..(SOURCES + 1) {
                    self.ready[w].next = self.valid[w].val()
                        & !self.written[w * nsrc].val()
                        & !self.written[w * nsrc + 1].val()
                        & !self.written[w * nsrc + 2].val()
                        & !self.taken[w].val()
                        & !(self.waits[w].val().get_bit(0) & self.ss[w].val())
                        & !(self.waits[w].val().get_bit(1) & self.sy[w].val());
                }
            }
        }
    }
}
