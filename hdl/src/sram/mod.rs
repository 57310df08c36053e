//! The memory primitive: one synthesizable SRAM bank, 1W1R or single-port, behavioural or
//! built from a vendor's block RAMs (ECP5 `DP16KD`, Gowin `SDPB`, Nexus `PDPSC16K`).
//!
//! This module is the single place where a vendor SRAM macro goes in.

mod dp16kd;
mod frame;
mod gowin_sdpb;
mod nexus_pdpsc16k;

use rust_hdl::prelude::*;

use crate::params::{BankKind, Memory};

/// Every primitive's instance start, model file name and model text.
const MODELS: [(&str, &str, &str); 3] = [
    (dp16kd::INSTANCE, dp16kd::MODEL_FILE, dp16kd::MODEL),
    (
        gowin_sdpb::INSTANCE,
        gowin_sdpb::MODEL_FILE,
        gowin_sdpb::MODEL,
    ),
    (
        nexus_pdpsc16k::INSTANCE,
        nexus_pdpsc16k::MODEL_FILE,
        nexus_pdpsc16k::MODEL,
    ),
];

/// The simulation models a design's Verilog needs beside it, as `(file name, text)`: the
/// model of each primitive it instantiates. Simulators and linters read them; synthesis
/// does not, since it maps the primitives to the device's own.
pub fn simulation_models(verilog: &str) -> Vec<(&'static str, &'static str)> {
    MODELS
        .iter()
        .filter(|(instance, _, _)| verilog.contains(instance))
        .map(|&(_, file, text)| (file, text))
        .collect()
}

/// An SRAM bank: one write port and one synchronous read port on one clock (1W1R), or, built
/// [`SramBank::single_port`], one port that reads or writes (1RW).
///
/// * Read latency: one cycle. `read_data` shows the row addressed in the cycle `read_enable`
///   was high, from the next rising edge on, and holds it while `read_enable` is low.
/// * A read and a write of the same row in the same cycle **collide**: the read data is
///   undefined (`x` in the Verilog, so that `--x-assign unique` simulation exposes any reliance
///   on it). Callers must not let this happen. Block RAMs (iCE40's among them) leave the
///   collision undefined too; promising old or new data would cost a bypass register per bit.
/// * Single-port: the read and the write share one address port. A cycle with
///   `write_enable` high writes and does not read (`read_data` holds); callers never ask for
///   both, so no collision exists.
/// * Power-up contents are all zero (an `initial` block; FPGA block RAM is initialised this
///   way, ASIC flows must not rely on it).
/// * Built [`SramBank::in_memory`] with a primitive ([`Memory::is_primitive`]: `DP16KD`,
///   `SDPB`, `PDPSC16K`), the bank is instances of it (`docs/gpr.md`, Memory); with the output
///   register, read data comes a cycle later (after the second rising edge) and the caller
///   drops its own register there.
///
/// `E` is the entry width in bits, `A` the address width (depth `2^A` rows).
#[derive(LogicBlock, Default)]
pub struct SramBank<const E: usize, const A: usize> {
    /// Clock: reads and writes take effect on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Read enable: when high, the row at `read_address` is read this cycle.
    pub read_enable: Signal<In, Bit>,
    /// Read row, 0..2^A-1.
    pub read_address: Signal<In, Bits<A>>,
    /// Read data, valid one cycle after `read_enable`.
    pub read_data: Signal<Out, Bits<E>>,
    /// Write enable: when high, `write_data` is stored at `write_address` on the rising edge.
    pub write_enable: Signal<In, Bit>,
    /// Write row, 0..2^A-1.
    pub write_address: Signal<In, Bits<A>>,
    /// Write data, one entry.
    pub write_data: Signal<In, Bits<E>>,
    _contents: Vec<Bits<E>>,
    /// Whether the read and the write share one port.
    _single_port: bool,
    /// How the Verilog writes the memory.
    _memory: Memory,
    /// Whether the read passes through the block RAM's output register (primitives only).
    _output_register: bool,
    /// The word read before the output register.
    _latched: Bits<E>,
}

impl<const E: usize, const A: usize> SramBank<E, A> {
    /// A single-port bank: one read or one write per cycle.
    pub fn single_port() -> Self {
        Self {
            _single_port: true,
            ..Self::default()
        }
    }

    /// The SRAM of one bank (or one read slot of it) of `kind`: single-port for 1RW banks,
    /// 1W1R otherwise.
    pub fn for_kind(kind: BankKind) -> Self {
        match kind.single_port() {
            true => Self::single_port(),
            false => Self::default(),
        }
    }

    /// The bank written as `memory`; with `output_register` (primitives only) reads pass
    /// through the block RAM's output register, a cycle more.
    pub fn in_memory(self, memory: Memory, output_register: bool) -> Self {
        assert!(
            memory.is_primitive() || !output_register,
            "only primitive banks have an output register"
        );
        Self {
            _memory: memory,
            _output_register: output_register,
            ..self
        }
    }

    /// The memory array and its power-up contents (all zero), named `sram_<kind>_<rows>x<E>`.
    fn array(kind: &str) -> String {
        format!(
            "\
// name: sram_{kind}_{rows}x{E}
reg [{msb}:0] mem [0:{last}];
integer row;

initial begin
   for (row = 0; row <= {last}; row = row + 1) begin
      mem[row] = {E}'d0;
   end
end

",
            msb = E - 1,
            rows = 1usize << A,
            last = (1usize << A) - 1,
        )
    }

    /// The single-port bank's Verilog: the write, if any, takes the shared address.
    fn single_port_hdl() -> String {
        format!(
            "\
wire [{amsb}:0] address = write_enable ? write_address : read_address;

always @(posedge clock) begin
   if (write_enable) begin
      mem[address] <= write_data;
   end else if (read_enable) begin
      read_data <= mem[address];
   end
end
",
            amsb = A - 1,
        )
    }

    /// The 1W1R bank's Verilog: a read of the row being written returns `x`.
    fn two_port_hdl() -> String {
        format!(
            "\
always @(posedge clock) begin
   if (read_enable) begin
      if (write_enable && write_address == read_address) begin
         read_data <= {E}'bx;
      end else begin
         read_data <= mem[read_address];
      end
   end
   if (write_enable) begin
      mem[write_address] <= write_data;
   end
end
"
        )
    }
}

impl<const E: usize, const A: usize> Logic for SramBank<E, A> {
    fn update(&mut self) {
        if self._contents.is_empty() {
            self._contents = vec![Bits::default(); 1 << A];
        }
        if self.clock.pos_edge() {
            if self._output_register {
                self.read_data.next = self._latched;
            }
            // rust-hdl has no `x`: a colliding read returns the old contents here.
            if self.read_enable.val() && !(self._single_port && self.write_enable.val()) {
                let word = self._contents[self.read_address.val().index()];
                match self._output_register {
                    true => self._latched = word,
                    false => self.read_data.next = word,
                }
            }
            if self.write_enable.val() {
                self._contents[self.write_address.val().index()] = self.write_data.val();
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let bank = frame::Bank {
            bits: E,
            address_bits: A,
            single_port: self._single_port,
            output_register: self._output_register,
        };
        Verilog::Custom(match (self._memory, self._single_port) {
            (Memory::Dp16kd, _) => dp16kd::body(bank),
            (Memory::GowinBsram, _) => gowin_sdpb::body(bank),
            (Memory::NexusEbr, _) => nexus_pdpsc16k::body(bank),
            (Memory::Inferred, true) => Self::array("1rw") + &Self::single_port_hdl(),
            (Memory::Inferred, false) => Self::array("1r1w") + &Self::two_port_hdl(),
        })
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "sram_bank".into(),
            clock: "clock".into(),
            inputs: vec![
                "read_enable".into(),
                "read_address".into(),
                "write_enable".into(),
                "write_address".into(),
                "write_data".into(),
            ],
            outputs: vec!["read_data".into()],
        }]
    }
}
