//! The SRAM bank as Lattice Nexus `PDPSC16K` block RAMs (pseudo dual port, one clock;
//! CrossLink-NX, Certus-NX): the instances, and the simulation model written beside a design
//! that uses them.

use super::frame::{self, Bank, Shape};

/// The simulation model of the `PDPSC16K` subset the instances use (`pdpsc16k_model.v`).
pub const MODEL: &str = include_str!("pdpsc16k_model.v");

/// The model's file name beside an emitted design.
pub const MODEL_FILE: &str = "pdpsc16k_model.v";

/// How an instance of the primitive starts in the Verilog.
pub const INSTANCE: &str = "PDPSC16K #(";

/// The words for `address_bits` rows: 36 bits (`X36`, 512 words) up to 512 rows, 18 (`X18`,
/// 1024 words) for 1024. The word address sits above the write's byte enables (`ADW[3:0]`,
/// nine bits each, or `ADW[1:0]`) and the bits the mode leaves unused, which are tied high
/// as Yosys's own mapping of the primitive ties them.
fn shape(address_bits: usize) -> Shape {
    Shape::of(address_bits, 36, true)
}

/// One `PDPSC16K` instance: slice `k` of the word; `OUTREG` "USED" passes the read through
/// the output register, which the read clock enable enables too. The chip selects match
/// their decode (both `111`), the reset is held low. The error flags of the ECC this bank does
/// not use (`ONEBITERR`, `TWOBITERR`) are left out: nextpnr-nexus 0.11 stops with an internal
/// error on a design that connects them.
fn instance(k: usize, word: usize, output_register: bool) -> String {
    let (data_in, data_out, unused) = frame::slice(k, word, 36);
    let (outreg, read_enable) = match output_register {
        true => ("USED", "read_now | read_then"),
        false => ("BYPASSED", "read_now"),
    };
    format!(
        "{unused}{INSTANCE}\n   .DATA_WIDTH_W(\"X{word}\"),\n   .DATA_WIDTH_R(\"X{word}\"),\n   \
         .OUTREG(\"{outreg}\"),\n   .RESETMODE(\"SYNC\"),\n   .GSR(\"DISABLED\"),\n   \
         .ECC(\"DISABLED\"),\n   .CSDECODE_W(\"111\"),\n   .CSDECODE_R(\"111\")\n) ram_{k} (\n   \
         .CLK(clock),\n   .CEW(write_enable),\n   .CSW(3'b111),\n   .ADW(port_a),\n   \
         .DI({data_in}),\n   .CER({read_enable}),\n   .CSR(3'b111),\n   .RST(1'b0),\n   \
         .ADR(port_b),\n   .DO({data_out})\n);\n"
    )
}

/// The body of `bank` built from `PDPSC16K`s (as many as the entry needs side by side); a
/// single-port bank gives both ports the one address, the write's when it writes. With the
/// output register the read passes through it (a cycle more): the read clock enable `CER`
/// also enables that register, so it stays high the cycle after a read (`read_then`), when
/// the register takes the word; the word the array reads then is not used.
pub fn body(bank: Bank) -> String {
    let shape = shape(bank.address_bits);
    let declarations = match bank.output_register {
        true => "reg read_then = 1'b0;\nalways @(posedge clock) read_then <= read_now;\n",
        false => "",
    };
    frame::body("pdpsc16k", &shape, bank, declarations, |k| {
        instance(k, shape.word, bank.output_register)
    })
}
