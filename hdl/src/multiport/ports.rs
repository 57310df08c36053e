//! The ports every multi-ported file has, declared once (`crate::port_group`): its reads and its
//! writes.

use rust_hdl::prelude::*;

use crate::port_group::port_group;

port_group! {
    /// The read ports (`O` is `Out` on the file's side).
    pub struct ReadPorts<const E: usize, const A: usize> new(ports, lanes) {
        /// Read request valid, one per read port.
        valid: I vector Bit [ports],
        /// Register index of each read, 0..registers-1.
        reg: I vector Bits<A> [ports],
        /// Read data, port-major (`p * lanes + l`), for the reads of the file's latency before.
        data: O vector Bits<E> [ports * lanes],
    }
}

port_group! {
    /// The write ports (`I` is `In` on the file's side).
    pub struct WritePorts<const E: usize, const A: usize> new(ports, lanes) {
        /// Write request valid, one per write port.
        valid: I vector Bit [ports],
        /// Register index of each write, 0..registers-1.
        reg: I vector Bits<A> [ports],
        /// Write data, port-major (`w * lanes + l`).
        data: I vector Bits<E> [ports * lanes],
    }
}
