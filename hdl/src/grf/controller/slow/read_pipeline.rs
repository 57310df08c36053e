//! The slow GRF's read pipeline: a read's tag travels beside it until its data leaves.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::{EuNumber, ReadTag};
use crate::params::GrfParams;
use crate::signals::{constants, signals};

/// The read pipeline behind the slow GRF's block RAM (`docs/grf.md`): a read launched in a
/// cycle leaves `slow_latency` cycles later with its tags; its data is the block RAM's output
/// (one cycle after the read) carried through `slow_latency - 2` more stages. `E` is the
/// element width.
#[derive(LogicBlock)]
pub struct SlowReadPipeline<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the pipeline empties.
    pub reset: Signal<In, Bit>,
    /// A read is launched this cycle.
    pub launch: Signal<In, Bit>,
    /// It belongs to a context switch's save phase (else it answers an EU).
    pub launch_save: Signal<In, Bit>,
    /// Its tag: the EU to answer, or the save's row offset.
    pub launch_tag: Signal<In, ReadTag>,
    /// The register read is shared.
    pub launch_shared: Signal<In, Bit>,
    /// The block RAM's read data, one element per lane (one cycle after the read).
    pub sram_data: Vec<Signal<In, Bits<E>>>,
    /// A read leaves the pipeline this cycle.
    pub out_valid: Signal<Out, Bit>,
    /// It belongs to a save phase.
    pub out_save: Signal<Out, Bit>,
    /// Its tag.
    pub out_tag: Signal<Out, ReadTag>,
    /// Its data, one element per lane.
    pub out_data: Vec<Signal<Out, Bits<E>>>,
    /// Per EU: the read leaving next cycle answers it (valid, not a save's, and its tag the
    /// EU's number), decoded from the stage before the last, so that the answer unit
    /// registers it.
    pub next_answers: Vec<Signal<Out, Bit>>,
    /// The shared bit of the read leaving next cycle.
    pub next_shared: Signal<Out, Bit>,
    /// Per EU: its number.
    eu_number: Vec<Constant<EuNumber>>,
    /// Per stage: valid, save, tag; and shared, up to the stage before the last.
    valid: Registers<Bit>,
    save: Registers<Bit>,
    tag: Registers<ReadTag>,
    shared: Registers<Bit>,
    /// Data stages after the block RAM's output, stage-major.
    data: Registers<Bits<E>>,
    _stages: usize,
    _lanes: usize,
    _eus: usize,
}

impl<const E: usize> SlowReadPipeline<E> {
    /// The pipeline for `params`' slow latency and lanes.
    pub fn new(params: &GrfParams) -> Self {
        let (stages, lanes, eus) = (params.slow_latency, params.lanes, params.eus);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_save: Default::default(),
            launch_tag: Default::default(),
            launch_shared: Default::default(),
            sram_data: signals(lanes),
            out_valid: Default::default(),
            out_save: Default::default(),
            out_tag: Default::default(),
            out_data: signals(lanes),
            next_answers: signals(eus),
            next_shared: Default::default(),
            eu_number: constants(0..eus as u64),
            valid: Registers::new(stages),
            save: Registers::new(stages),
            tag: Registers::new(stages),
            shared: Registers::new(stages - 1),
            data: Registers::new((stages - 1) * lanes),
            _stages: stages,
            _lanes: lanes,
            _eus: eus,
        }
    }
}

impl<const E: usize> Logic for SlowReadPipeline<E> {
    // Single-value loops bind lanes (nl) and stages (ns) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.clock.next = self.clock.val();
        self.save.clock.next = self.clock.val();
        self.tag.clock.next = self.clock.val();
        self.shared.clock.next = self.clock.val();
        self.data.clock.next = self.clock.val();
        self.valid.d[0].next = self.launch.val() & !self.reset.val();
        self.save.d[0].next = self.launch_save.val();
        self.tag.d[0].next = self.launch_tag.val();
        self.shared.d[0].next = self.launch_shared.val();
        for k in 1..self._stages {
            self.valid.d[k].next = self.valid.q[k - 1].val() & !self.reset.val();
            self.save.d[k].next = self.save.q[k - 1].val();
            self.tag.d[k].next = self.tag.q[k - 1].val();
        }
        for k in 1..(self._stages - 1) {
            self.shared.d[k].next = self.shared.q[k - 1].val();
        }
        for nl in self._lanes..(self._lanes + 1) {
            for ns in self._stages..(self._stages + 1) {
                for l in 0..self._lanes {
                    self.data.d[l].next = self.sram_data[l].val();
                    for k in 1..(self._stages - 1) {
                        self.data.d[k * nl + l].next = self.data.q[(k - 1) * nl + l].val();
                    }
                    self.out_data[l].next = self.data.q[(ns - 2) * nl + l].val();
                }
                self.out_valid.next = self.valid.q[ns - 1].val();
                self.out_save.next = self.save.q[ns - 1].val();
                self.out_tag.next = self.tag.q[ns - 1].val();
                self.next_shared.next = self.shared.q[ns - 2].val();
                for e in 0..self._eus {
                    self.next_answers[e].next = self.valid.q[ns - 2].val()
                        & !self.save.q[ns - 2].val()
                        & (self.tag.q[ns - 2].val() == self.eu_number[e].val())
                        & !self.reset.val();
                }
            }
        }
    }
}
