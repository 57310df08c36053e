//! The save phase of a data context switch: a block's 16 rows read out of the slow GRF and
//! written to its context area in L3.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::widths::{BlockMask, BlockOffset, ReadTag, SaveStep};
use crate::params::GrfParams;
use crate::signals::{constant, constants, signals};

/// The save engine (`docs/grf.md`). `latch` records the switched block; `start` begins the
/// save, which reads the block's rows, one a cycle, through the slow-read pipeline, and
/// writes each to L3 as it leaves the pipeline, in the area the block's parity names. With
/// the last write it reports `done` and flips the block's parity, so that the refill takes the
/// other context. `E` is the element width, `A` the slow GRF's row-address width.
#[derive(LogicBlock)]
pub struct SaveEngine<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every block's context in area 0.
    pub reset: Signal<In, Bit>,
    /// Record the switched block this cycle.
    pub latch: Signal<In, Bit>,
    /// Its first row.
    pub base_in: Signal<In, Bits<A>>,
    /// Its one-hot block bit.
    pub block_in: Signal<In, BlockMask>,
    /// The save begins this cycle.
    pub start: Signal<In, Bit>,
    /// The controller is in the save phase.
    pub active: Signal<In, Bit>,
    /// The slow-read pipeline's output: valid, save, tag (the row offset), data.
    pub out_valid: Signal<In, Bit>,
    /// The read leaving the pipeline belongs to a save.
    pub out_save: Signal<In, Bit>,
    /// Its row offset.
    pub out_tag: Signal<In, ReadTag>,
    /// Its data, one element per lane.
    pub out_data: Vec<Signal<In, Bits<E>>>,
    /// Read a row of the block this cycle.
    pub read: Signal<Out, Bit>,
    /// The row.
    pub read_row: Signal<Out, Bits<A>>,
    /// Its offset in the block (the pipeline tag).
    pub read_tag: Signal<Out, ReadTag>,
    /// Write a row to L3 this cycle.
    pub l3_write: Signal<Out, Bit>,
    /// The L3 area written.
    pub l3_area: Signal<Out, Bit>,
    /// The L3 row written.
    pub l3_row: Signal<Out, Bits<A>>,
    /// The data written, one element per lane.
    pub l3_data: Vec<Signal<Out, Bits<E>>>,
    /// The last row is written this cycle.
    pub done: Signal<Out, Bit>,
    /// The saved block's first row.
    pub base: Signal<Out, Bits<A>>,
    /// The area it is saved to.
    pub area: Signal<Out, Bit>,
    save_base: Registers<Bits<A>>,
    save_step: Registers<SaveStep>,
    save_area: Registers<Bit>,
    save_block: Registers<BlockMask>,
    /// Each block's context parity: the area its current context is saved to next.
    parity: Registers<BlockMask>,
    step_now: Signal<Local, SaveStep>,
    base_now: Signal<Local, Bits<A>>,
    block_now: Signal<Local, BlockMask>,
    zero5: Constant<SaveStep>,
    one5: Constant<SaveStep>,
    sixteen5: Constant<SaveStep>,
    fifteen4: Constant<BlockOffset>,
    zero64: Constant<BlockMask>,
    /// Steps 0..15 (5 bits), offsets 0..15 (4 bits and as rows).
    step_number: Vec<Constant<SaveStep>>,
    offset_number: Vec<Constant<BlockOffset>>,
    offset_row: Vec<Constant<Bits<A>>>,
    _lanes: usize,
}

impl<const E: usize, const A: usize> SaveEngine<E, A> {
    /// The save engine for `params`' lanes.
    pub fn new(params: &GrfParams) -> Self {
        let lanes = params.lanes;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            latch: Default::default(),
            base_in: Default::default(),
            block_in: Default::default(),
            start: Default::default(),
            active: Default::default(),
            out_valid: Default::default(),
            out_save: Default::default(),
            out_tag: Default::default(),
            out_data: signals(lanes),
            read: Default::default(),
            read_row: Default::default(),
            read_tag: Default::default(),
            l3_write: Default::default(),
            l3_area: Default::default(),
            l3_row: Default::default(),
            l3_data: signals(lanes),
            done: Default::default(),
            base: Default::default(),
            area: Default::default(),
            save_base: Registers::new(1),
            save_step: Registers::new(1),
            save_area: Registers::new(1),
            save_block: Registers::new(1),
            parity: Registers::new(1),
            step_now: Default::default(),
            base_now: Default::default(),
            block_now: Default::default(),
            zero5: constant(0),
            one5: constant(1),
            sixteen5: constant(GrfParams::BLOCK as u64),
            fifteen4: constant(GrfParams::BLOCK as u64 - 1),
            zero64: constant(0),
            step_number: constants(0..GrfParams::BLOCK as u64),
            offset_number: constants(0..GrfParams::BLOCK as u64),
            offset_row: constants(0..GrfParams::BLOCK as u64),
            _lanes: lanes,
        }
    }
}

impl<const E: usize, const A: usize> Logic for SaveEngine<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.save_base.clock.next = self.clock.val();
        self.save_step.clock.next = self.clock.val();
        self.save_area.clock.next = self.clock.val();
        self.save_block.clock.next = self.clock.val();
        self.parity.clock.next = self.clock.val();
        // The block and step this cycle works on.
        self.base_now.next = self.save_base.q[0].val();
        self.block_now.next = self.save_block.q[0].val();
        if self.latch.val() {
            self.base_now.next = self.base_in.val();
            self.block_now.next = self.block_in.val();
        }
        self.step_now.next = self.save_step.q[0].val();
        self.save_area.d[0].next = self.save_area.q[0].val();
        if self.start.val() {
            self.step_now.next = self.zero5.val();
            self.save_area.d[0].next = (self.parity.q[0].val() & self.block_now.val()).any();
        }
        self.save_base.d[0].next = self.base_now.val();
        self.save_block.d[0].next = self.block_now.val();
        self.save_step.d[0].next = self.step_now.val();
        // Reads: one row a cycle until all 16 are read.
        self.read.next = false;
        self.read_row.next = self.base_now.val();
        self.read_tag.next = self.offset_number[0].val();
        if (self.start.val() | self.active.val()) & (self.step_now.val() < self.sixteen5.val()) {
            // Rows and tags as ORs of one-hot gated constants (a block's first row is a
            // multiple of 16): no adder, no chain of multiplexers.
            for o in 0..GrfParams::BLOCK {
                if self.step_now.val() == self.step_number[o].val() {
                    self.read_row.next = self.read_row.val() | self.offset_row[o].val();
                    self.read_tag.next = self.read_tag.val() | self.offset_number[o].val();
                }
            }
            self.read.next = true;
            self.save_step.d[0].next = self.step_now.val() + self.one5.val();
        }
        // Writes: each row to L3 as it leaves the pipeline.
        self.l3_write.next = self.out_valid.val() & self.out_save.val();
        self.l3_area.next = self.save_area.q[0].val();
        self.l3_row.next = self.save_base.q[0].val();
        for o in 0..GrfParams::BLOCK {
            if self.out_tag.val() == self.offset_number[o].val() {
                self.l3_row.next = self.l3_row.val() | self.offset_row[o].val();
            }
        }
        for l in 0..self._lanes {
            self.l3_data[l].next = self.out_data[l].val();
        }
        self.done.next = self.l3_write.val() & (self.out_tag.val() == self.fifteen4.val());
        self.base.next = self.save_base.q[0].val();
        self.area.next = self.save_area.q[0].val();
        self.parity.d[0].next = self.parity.q[0].val();
        if self.done.val() {
            self.parity.d[0].next = self.parity.q[0].val() ^ self.save_block.q[0].val();
        }
        if self.reset.val() {
            self.parity.d[0].next = self.zero64.val();
        }
    }
}
