//! The GRF's port groups, each declared once and held by every level it passes through
//! (`crate::port_group`): a transaction from a front end to the controller, the controller's
//! answer, the slow GRF's and L3's ports, the EUs' requests and responses, and a fast GRF's
//! stores.

use rust_hdl::prelude::*;

use crate::grf::widths::{
    GlobalThread, GroupNumber, KindCode, OpCode, RegIndex, StatusCode, ThreadIndex,
};
use crate::port_group::port_group;

port_group! {
    /// A transaction per EU, from the front ends (`O` is `Out` there) to the controller.
    pub struct Transactions<const E: usize> new(eus, lanes) {
        /// Per EU: a transaction is waiting.
        valid: O vector Bit [eus],
        /// Per EU: its kind (`codes::kind`).
        kind: O vector KindCode [eus],
        /// Per EU: its global thread (EU * threads + thread).
        thread: O vector GlobalThread [eus],
        /// Per EU: its virtual register (or 16 x virtual block).
        reg: O vector RegIndex [eus],
        /// Per EU: its group (alloc, wait).
        group: O vector GroupNumber [eus],
        /// Per EU and lane: its data (`eu * lanes + l`).
        data: O vector Bits<E> [eus * lanes],
        /// Per EU: the controller takes the transaction this cycle.
        take: I vector Bit [eus],
    }
}

port_group! {
    /// The controller's answer per EU (`O` is `Out` on the controller's side).
    pub struct ControllerAnswers<const E: usize> new(eus, lanes) {
        /// Per EU: an answer is visible this cycle.
        valid: O vector Bit [eus],
        /// Per EU: its status (`GrfStatus`).
        status: O vector StatusCode [eus],
        /// Per EU: the answer is plain: ok, and the register is not in a shared block (so the
        /// front end keeps it in its fast GRF).
        plain: O vector Bit [eus],
        /// Per EU and lane: the data read (`eu * lanes + l`).
        data: O vector Bits<E> [eus * lanes],
    }
}

port_group! {
    /// The slow GRF's ports, one bank per lane addressed together (`O` is `Out` on the
    /// controller's side).
    pub struct SlowGrfPorts<const E: usize, const A: usize> new(lanes) {
        /// Read enable.
        read: O signal Bit,
        /// Read row.
        read_row: O signal Bits<A>,
        /// Read data, one cycle after the read, one element per lane.
        read_data: I vector Bits<E> [lanes],
        /// Write enable.
        write: O signal Bit,
        /// Write row.
        write_row: O signal Bits<A>,
        /// Write data, one element per lane.
        write_data: O vector Bits<E> [lanes],
    }
}

port_group! {
    /// The L3 port, for context switches (`O` is `Out` on the GRF's side).
    pub struct L3Port<const E: usize, const A: usize> new(lanes) {
        /// A request.
        valid: O signal Bit,
        /// The request is a write; reads are answered on `rvalid`, oldest first.
        write: O signal Bit,
        /// Its area (context image 0 or 1): L3 address = area * slow_regs + row.
        area: O signal Bit,
        /// Its row.
        row: O signal Bits<A>,
        /// Write data, one element per lane.
        data: O vector Bits<E> [lanes],
        /// L3 answers the oldest outstanding read.
        rvalid: I signal Bit,
        /// The answer's data, one element per lane.
        rdata: I vector Bits<E> [lanes],
    }
}

port_group! {
    /// The EUs' requests (`O` is `In` on the GRF's side, where the request comes in).
    pub struct EuRequests<const E: usize> new(eus, lanes) {
        /// Per EU: a request is presented.
        valid: O vector Bit [eus],
        /// Per EU: its op (`GrfOp`): 0 read, 1 write, 2 alloc, 3 release, 4 wait, 5 switch.
        op: O vector OpCode [eus],
        /// Per EU: the thread within the EU.
        thread: O vector ThreadIndex [eus],
        /// Per EU: the virtual register (read, write) or 16 x virtual block (alloc, release,
        /// switch).
        reg: O vector RegIndex [eus],
        /// Per EU: the group: alloc (0 private, 1..7 shared) and wait.
        group: O vector GroupNumber [eus],
        /// Per EU and lane: write data.
        data: O vector Bits<E> [eus * lanes],
        /// Per EU: the presented request is taken this cycle.
        ready: I vector Bit [eus],
    }
}

port_group! {
    /// The GRF's responses to the EUs (`O` is `Out` on the GRF's side).
    pub struct EuResponses<const E: usize> new(eus, lanes) {
        /// Per EU: a response is visible this cycle.
        valid: O vector Bit [eus],
        /// Per EU: its status (`GrfStatus`): 0 ok, 1 unmapped, 2 no free block, 3 not owned, 4
        /// already mapped, 5 no such group.
        status: O vector StatusCode [eus],
        /// Per EU and lane: the data of a successful read (zero for the other responses; it
        /// means nothing without `valid`).
        data: O vector Bits<E> [eus * lanes],
    }
}

port_group! {
    /// A store into the EUs' fast GRFs (`O` is `In` on the side that stores).
    pub struct FastStores<const E: usize> new(eus, fast, lanes) {
        /// Per entry: store `dirty`, `thread`, `reg`, `data` there, valid.
        slot: O vector Bit [eus * fast],
        /// Per EU: the stored entry's dirty bit.
        dirty: O vector Bit [eus],
        /// Per EU: the stored entry's thread.
        thread: O vector ThreadIndex [eus],
        /// Per EU: the stored entry's register.
        reg: O vector RegIndex [eus],
        /// Per EU and lane: the stored value.
        data: O vector Bits<E> [eus * lanes],
    }
}
