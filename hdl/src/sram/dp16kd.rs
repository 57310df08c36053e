//! The SRAM bank as Lattice ECP5 `DP16KD` block RAMs: the instances, and the simulation model
//! written beside a design that uses them.

/// The simulation model of the `DP16KD` subset the instances use (`dp16kd_model.v`).
pub const MODEL: &str = include_str!("dp16kd_model.v");

/// The model's file name beside an emitted design.
pub const MODEL_FILE: &str = "dp16kd_model.v";

/// How an instance of the primitive starts in the Verilog.
pub const INSTANCE: &str = "DP16KD #(";

/// Bits of one block RAM word for `address_bits` rows: 36 (512 words) up to 512 rows, 18
/// (1024 words) for 1024.
fn word_bits(address_bits: usize) -> usize {
    match address_bits <= 9 {
        true => 36,
        false => 18,
    }
}

/// `{...}` of the non-empty parts, for a concatenation that may lack padding.
fn concat(parts: &[String]) -> String {
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// `width'd0`, or nothing for no bits.
fn zeros(width: usize) -> String {
    match width {
        0 => String::new(),
        _ => format!("{width}'d0"),
    }
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

/// The body of an SRAM bank of `bits`-bit entries and `2^address_bits` rows built from
/// `DP16KD`s (as many as the entry needs side by side): port A writes, port B reads; a
/// single-port bank gives both the one address, the write's when it writes. With
/// `output_register` the read passes through the primitive's output register (a cycle more).
pub fn body(bits: usize, address_bits: usize, single_port: bool, output_register: bool) -> String {
    let word = word_bits(address_bits);
    let slices = bits.div_ceil(word);
    let width = slices * word;
    let (kind, rows) = match single_port {
        true => ("1rw", 1usize << address_bits),
        false => ("1r1w", 1usize << address_bits),
    };
    let outreg = match output_register {
        true => "_outreg",
        false => "",
    };
    let (write_row, read_row, read_now) = match single_port {
        true => (
            "wire [{amsb}:0] row = write_enable ? write_address : read_address;\n",
            "row",
            "read_enable & ~write_enable",
        ),
        false => ("", "read_address", "read_enable"),
    };
    let write_address = match single_port {
        true => "row",
        false => "write_address",
    };
    // The word address sits above the byte enables (ADA[3:0], nine bits each, or ADA[1:0]).
    let (pad, low_a, low_b) = match word {
        36 => (9 - address_bits, "1'b0, 4'b1111", "5'd0"),
        _ => (10 - address_bits, "2'b00, 2'b11", "4'd0"),
    };
    let port_a = concat(&[zeros(pad), write_address.into(), low_a.into()]);
    let port_b = concat(&[zeros(pad), read_row.into(), low_b.into()]);
    let data_in = concat(&[zeros(width - bits), "write_data".into()]);
    let spare = match width > bits {
        true => format!(
            "wire [{}:0] unused_data_out = data_out[{}:{bits}];\n",
            width - bits - 1,
            width - 1
        ),
        false => String::new(),
    };
    let instances: String = (0..slices)
        .map(|k| instance(k, word, output_register))
        .collect();
    format!(
        "// name: sram_dp16kd_{kind}{outreg}_{rows}x{bits}\n\
         {rows_wire}\
         wire read_now = {read_now};\n\
         wire [13:0] port_a = {port_a};\n\
         wire [13:0] port_b = {port_b};\n\
         wire [{wmsb}:0] data_in = {data_in};\n\
         wire [{wmsb}:0] data_out;\n\
         {spare}\
         always @(*) read_data = data_out[{emsb}:0];\n\
         {instances}",
        rows_wire = write_row.replace("{amsb}", &(address_bits - 1).to_string()),
        wmsb = width - 1,
        emsb = bits - 1,
    )
}
