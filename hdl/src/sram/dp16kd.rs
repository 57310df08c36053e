//! The SRAM bank as Lattice ECP5 `DP16KD` block RAMs: the instances, and the simulation model
//! written beside a design that uses them.

use super::frame::{self, Bank, Shape};

/// The simulation model of the `DP16KD` subset the instances use (`dp16kd_model.v`).
pub const MODEL: &str = include_str!("dp16kd_model.v");

/// The model's file name beside an emitted design.
pub const MODEL_FILE: &str = "dp16kd_model.v";

/// How an instance of the primitive starts in the Verilog.
pub const INSTANCE: &str = "DP16KD #(";

/// The words for `address_bits` rows: 36 bits (512 words) up to 512 rows, 18 (1024 words)
/// for 1024; the word address sits above the byte enables (`AD[3:0]`, nine bits each, or
/// `AD[1:0]`), which the write sets and the read leaves at zero.
fn shape(address_bits: usize) -> Shape {
    Shape::of(address_bits, 36, false)
}

/// Nine or eighteen pin connections `.<PIN><i>(<vector>[<base + i>])`.
fn pins(pin: &str, count: usize, vector: &str, base: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!(".{pin}{i}({vector}[{}])", base + i))
        .collect()
}

/// One `DP16KD` instance: slice `k` of the word, port A writing and port B reading.
fn instance(k: usize, word: usize, output_register: bool) -> String {
    let regmode = match output_register {
        true => "OUTREG",
        false => "NOREG",
    };
    let mut connections = Vec::new();
    // Write data: DIA (and DIB, the upper half, with 36-bit words).
    connections.extend(pins("DIA", 18, "data_in", k * word));
    match word {
        36 => connections.extend(pins("DIB", 18, "data_in", k * word + 18)),
        _ => connections.extend((0..18).map(|i| format!(".DIB{i}(1'b0)"))),
    }
    connections.extend(pins("ADA", 14, "port_a", 0));
    connections.extend(pins("ADB", 14, "port_b", 0));
    // Read data: {DOB, DOA} with 36-bit words; DOB with 18 (DOA, port A's, unused).
    match word {
        36 => {
            connections.extend(pins("DOA", 18, "data_out", k * word));
            connections.extend(pins("DOB", 18, "data_out", k * word + 18));
        }
        _ => {
            connections.extend(pins("DOA", 18, &format!("unused_port_a_{k}"), 0));
            connections.extend(pins("DOB", 18, "data_out", k * word));
        }
    }
    connections.extend(
        [
            ".CEA(1'b1)",
            ".OCEA(1'b1)",
            ".CLKA(clock)",
            ".WEA(write_enable)",
            ".RSTA(1'b0)",
            ".CEB(read_now)",
            ".OCEB(1'b1)",
            ".CLKB(clock)",
            ".WEB(1'b0)",
            ".RSTB(1'b0)",
        ]
        .map(String::from),
    );
    for port in ["CSA", "CSB"] {
        connections.extend((0..3).map(|i| format!(".{port}{i}(1'b0)")));
    }
    let unused = match word {
        36 => String::new(),
        _ => format!("wire [17:0] unused_port_a_{k};\n"),
    };
    format!(
        "{unused}{INSTANCE}\n   .DATA_WIDTH_A({word}),\n   .DATA_WIDTH_B({word}),\n   \
         .REGMODE_A(\"{regmode}\"),\n   .REGMODE_B(\"{regmode}\"),\n   .GSR(\"DISABLED\")\n) \
         ram_{k} (\n   {}\n);\n",
        connections.join(",\n   ")
    )
}

/// The body of `bank` built from
/// `DP16KD`s (as many as the entry needs side by side): port A writes, port B reads; a
/// single-port bank gives both the one address, the write's when it writes. With
/// `output_register` the read passes through the primitive's output register (a cycle more).
pub fn body(bank: Bank) -> String {
    let shape = shape(bank.address_bits);
    frame::body("dp16kd", &shape, bank, "", |k| {
        instance(k, shape.word, bank.output_register)
    })
}
