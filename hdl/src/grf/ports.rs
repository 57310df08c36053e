//! The GRF's port groups, each declared once and held by every level it passes through
//! (`crate::port_group`): a transaction from a front end to the controller, the controller's
//! answer, and the slow GRF's and L3's ports.

use rust_hdl::prelude::*;

use crate::grf::widths::{GlobalThread, GroupNumber, KindCode, RegIndex, StatusCode};
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
