//! The SRAM bank as Gowin `SDPB` semi-dual-port block SRAMs (GW1N, GW2A, GW5A): the
//! instances, and the simulation model written beside a design that uses them.

use super::frame::{self, Bank, Shape};

/// The simulation model of the `SDPB` subset the instances use (`sdpb_model.v`).
pub const MODEL: &str = include_str!("sdpb_model.v");

/// The model's file name beside an emitted design.
pub const MODEL_FILE: &str = "sdpb_model.v";

/// How an instance of the primitive starts in the Verilog.
pub const INSTANCE: &str = "SDPB #(";

/// The words for `address_bits` rows: 32 bits (512 words) up to 512 rows, 16 (1024 words)
/// for 1024; the word address sits above the byte enables (`AD[3:0]`, eight bits each, or
/// `AD[1:0]`), which the write sets and the read leaves at zero (Gowin UG285, SDPB).
fn shape(address_bits: usize) -> Shape {
    Shape::of(address_bits, 32, false)
}

/// One `SDPB` instance: slice `k` of the word, port A writing and port B reading. A 16-bit
/// word is the low half of `DI` and `DO`. `READ_MODE` 1 is the pipeline mode: the read
/// passes through the output register. The reset pins are left out: GW1N and GW2A name them
/// `RESETA` and `RESETB`, GW5A `RESET`, and an instance naming either fails on the other.
fn instance(k: usize, word: usize, output_register: bool) -> String {
    let (data_in, data_out, unused) = frame::slice(k, word, 32);
    format!(
        "{unused}{INSTANCE}\n   .READ_MODE(1'b{mode}),\n   .BIT_WIDTH_0({word}),\n   \
         .BIT_WIDTH_1({word}),\n   .BLK_SEL_0(3'b000),\n   .BLK_SEL_1(3'b000),\n   \
         .RESET_MODE(\"SYNC\")\n) ram_{k} (\n   .CLKA(clock),\n   .CEA(write_enable),\n   \
         .ADA(port_a),\n   .DI({data_in}),\n   .BLKSELA(3'b000),\n   .CLKB(clock),\n   \
         .CEB(read_now),\n   .OCE(1'b1),\n   .ADB(port_b),\n   .BLKSELB(3'b000),\n   \
         .DO({data_out})\n);\n",
        mode = u8::from(output_register),
    )
}

/// The body of `bank` built from
/// `SDPB`s (as many as the entry needs side by side): port A writes, port B reads; a
/// single-port bank gives both the one address, the write's when it writes. With
/// `output_register` the read passes through the primitive's pipeline register (a cycle
/// more).
pub fn body(bank: Bank) -> String {
    let shape = shape(bank.address_bits);
    frame::body("sdpb", &shape, bank, "", |k| {
        instance(k, shape.word, bank.output_register)
    })
}
