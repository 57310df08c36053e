//! With several waves: the fetch selection, which wave's offered instruction enters the window
//! (`docs/core.md`, "Waves").

use rust_hdl::prelude::*;

use crate::core::widths::{OpCode, SyncWaits, UnitCode, WaveNumber, Word, WriteCount};
use crate::params::{CoreParams, IssuePolicy, SOURCES};
use crate::signals::{constants, signals};

/// The issue policy's choice among the waves whose offered instruction is ready
/// ([`super::WaveReadiness`]): the first ready wave in the policy's order, which
/// enters the window when a slot is free after this cycle's issue (its parent keeps the wave
/// that entered last, [`IssuePolicy::first_last`]'s after reset, and sets the chosen wave's
/// ready). Round-robin looks at the waves after the one that entered last, in turn; greedy
/// then oldest takes the wave that entered last while it is ready, else the lowest-numbered
/// ready wave. The chosen wave's instruction goes out as the window's offered instruction,
/// with its wave. Vectors of
/// sources are wave-major (`wave * SOURCES + source`). `RI` is the register-index width.
#[derive(LogicBlock)]
pub struct WaveFetch<const RI: usize> {
    /// The wave whose instruction entered last (the policy's state, kept by the parent).
    pub last: Vec<Signal<In, WaveNumber>>,
    /// Per wave: its offered instruction is ready to enter.
    pub ready: Vec<Signal<In, Bit>>,
    /// Per wave: the op code.
    pub op: Vec<Signal<In, OpCode>>,
    /// Per wave: the first destination register.
    pub dst: Vec<Signal<In, Bits<RI>>>,
    /// Per wave: the destination registers written.
    pub writes: Vec<Signal<In, WriteCount>>,
    /// Per wave: the unit.
    pub unit: Vec<Signal<In, UnitCode>>,
    /// Per wave: the sync waits.
    pub waits: Vec<Signal<In, SyncWaits>>,
    /// Per wave and source: the register.
    pub src: Vec<Signal<In, Bits<RI>>>,
    /// Per wave and source: it is a GPR read.
    pub read: Vec<Signal<In, Bit>>,
    /// Per wave and source: the immediate.
    pub imm: Vec<Signal<In, Word>>,
    /// Per wave: it is the chosen one (it enters the window if a slot is free).
    pub pick: Vec<Signal<Out, Bit>>,
    /// A wave's instruction is offered to the window.
    pub instr_valid: Vec<Signal<Out, Bit>>,
    /// The chosen wave.
    pub instr_wave: Vec<Signal<Out, WaveNumber>>,
    /// Its op code.
    pub instr_op: Vec<Signal<Out, OpCode>>,
    /// Its first destination register.
    pub instr_dst: Vec<Signal<Out, Bits<RI>>>,
    /// Its destination registers written.
    pub instr_writes: Vec<Signal<Out, WriteCount>>,
    /// Its unit.
    pub instr_unit: Vec<Signal<Out, UnitCode>>,
    /// Its sync waits.
    pub instr_wait: Vec<Signal<Out, SyncWaits>>,
    /// Its sources.
    pub instr_src: Vec<Signal<Out, Bits<RI>>>,
    /// Per source: a GPR read.
    pub instr_read: Vec<Signal<Out, Bit>>,
    /// Per source: the immediate.
    pub instr_imm: Vec<Signal<Out, Word>>,
    /// Some wave is ready.
    any: Vec<Signal<Local, Bit>>,
    wave_code: Vec<Constant<WaveNumber>>,
    _waves: usize,
    /// 1 for the policy in use, else 0.
    _round_robin: usize,
    _oldest_ready: usize,
    /// 1 with several waves, else 0: a slice of one wave builds this part with no port, and
    /// the emitter leaves it out.
    _tagged: usize,
}

impl<const RI: usize> WaveFetch<RI> {
    /// The fetch selection of `params`' waves under its issue policy.
    pub fn new(params: &CoreParams) -> Self {
        let t = usize::from(params.wave_count() > 1);
        let waves = params.wave_count() * t;
        let rr = usize::from(params.issue == IssuePolicy::RoundRobin);
        Self {
            last: signals(t),
            ready: signals(waves),
            op: signals(waves),
            dst: signals(waves),
            writes: signals(waves),
            unit: signals(waves),
            waits: signals(waves),
            src: signals(SOURCES * waves),
            read: signals(SOURCES * waves),
            imm: signals(SOURCES * waves),
            pick: signals(waves),
            instr_valid: signals(t),
            instr_wave: signals(t),
            instr_op: signals(t),
            instr_dst: signals(t),
            instr_writes: signals(t),
            instr_unit: signals(t),
            instr_wait: signals(t),
            instr_src: signals(SOURCES * t),
            instr_read: signals(SOURCES * t),
            instr_imm: signals(SOURCES * t),
            any: signals(t),
            wave_code: constants(0..waves as u64),
            _waves: waves,
            _round_robin: rr * t,
            _oldest_ready: (1 - rr) * t,
            _tagged: t,
        }
    }
}

impl<const RI: usize> Logic for WaveFetch<RI> {
    // Each policy's later loop overrides the earlier: the lowest ready wave of the preferred
    // group wins. Single-value loops bind the wave count (nw) and the sources (nsrc) for index
    // arithmetic. A one-wave slice has `_waves` 0: its loops are never unrolled, but their
    // bounds are still computed, so they may not go below 0.
    #[hdl_gen]
    fn update(&mut self) {
        for _t in 0..self._tagged {
            self.any[0].next = false;
            self.instr_wave[0].next = self.wave_code[0].val();
            for _r in 0..self._round_robin {
                for nw in self._waves..(self._waves + 1) {
                    for j in 0..self._waves.saturating_sub(1) {
                        if self.ready[nw - 1 - j].val()
                            & (self.wave_code[nw - 1 - j].val() <= self.last[0].val())
                        {
                            self.instr_wave[0].next = self.wave_code[nw - 1 - j].val();
                            self.any[0].next = true;
                        }
                    }
                    if self.ready[0].val() {
                        self.instr_wave[0].next = self.wave_code[0].val();
                        self.any[0].next = true;
                    }
                    for j in 0..self._waves.saturating_sub(1) {
                        if self.ready[nw - 1 - j].val()
                            & (self.wave_code[nw - 1 - j].val() > self.last[0].val())
                        {
                            self.instr_wave[0].next = self.wave_code[nw - 1 - j].val();
                            self.any[0].next = true;
                        }
                    }
                }
            }
            for _g in 0..self._oldest_ready {
                for nw in self._waves..(self._waves + 1) {
                    for j in 0..self._waves {
                        if self.ready[nw - 1 - j].val() {
                            self.instr_wave[0].next = self.wave_code[nw - 1 - j].val();
                            self.any[0].next = true;
                        }
                    }
                }
                for w in 0..self._waves {
                    if self.ready[w].val() & (self.wave_code[w].val() == self.last[0].val()) {
                        self.instr_wave[0].next = self.wave_code[w].val();
                        self.any[0].next = true;
                    }
                }
            }
            self.instr_valid[0].next = self.any[0].val();
            // The chosen wave's instruction.
            self.instr_op[0].next = self.op[0].val();
            self.instr_dst[0].next = self.dst[0].val();
            self.instr_writes[0].next = self.writes[0].val();
            self.instr_unit[0].next = self.unit[0].val();
            self.instr_wait[0].next = self.waits[0].val();
            for s in 0..SOURCES {
                self.instr_src[s].next = self.src[s].val();
                self.instr_read[s].next = self.read[s].val();
                self.instr_imm[s].next = self.imm[s].val();
            }
            for w in 0..self._waves {
                self.pick[w].next =
                    self.any[0].val() & (self.instr_wave[0].val() == self.wave_code[w].val());
                if self.instr_wave[0].val() == self.wave_code[w].val() {
                    self.instr_op[0].next = self.op[w].val();
                    self.instr_dst[0].next = self.dst[w].val();
                    self.instr_writes[0].next = self.writes[w].val();
                    self.instr_unit[0].next = self.unit[w].val();
                    self.instr_wait[0].next = self.waits[w].val();
                    for nsrc in SOURCES..(SOURCES + 1) {
                        for s in 0..SOURCES {
                            self.instr_src[s].next = self.src[w * nsrc + s].val();
                            self.instr_read[s].next = self.read[w * nsrc + s].val();
                            self.instr_imm[s].next = self.imm[w * nsrc + s].val();
                        }
                    }
                }
            }
        }
    }
}
