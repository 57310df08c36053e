//! What every block-RAM primitive's bank shares: the wires between the bank's ports and the
//! instances (the word address above the primitive's low address bits, the entry padded to
//! whole words, the single-port bank's shared row), around the instances a primitive writes.

/// How a primitive's words and addresses are laid out for a given depth.
pub struct Shape {
    /// Bits of one instance's word.
    pub word: usize,
    /// Bits of the word address: the 14-bit address holds it above `low_write`/`low_read`.
    pub address_bits: usize,
    /// The write address's low bits, below the word address (byte enables and fixed bits).
    pub low_write: String,
    /// The read address's low bits.
    pub low_read: &'static str,
}

impl Shape {
    /// The two shapes every primitive here has, for `address_bits` rows: up to 512 rows a
    /// `wide`-bit word, its address above five low bits (four byte enables, all set, and one
    /// unused); 1024 rows a word half as wide, above four (two byte enables and two unused).
    /// The unused bits, and the read's low bits, are `ones` (as Nexus's mapping ties them)
    /// or zeros.
    pub fn of(address_bits: usize, wide: usize, ones: bool) -> Shape {
        let (one, five, two, four) = match ones {
            true => ("1'b1", "5'b11111", "2'b11", "4'b1111"),
            false => ("1'b0", "5'd0", "2'b00", "4'd0"),
        };
        match address_bits <= 9 {
            true => Shape {
                word: wide,
                address_bits: 9,
                low_write: format!("{one}, 4'b1111"),
                low_read: five,
            },
            false => Shape {
                word: wide / 2,
                address_bits: 10,
                low_write: format!("{two}, 2'b11"),
                low_read: four,
            },
        }
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

/// The bank a primitive's instances build.
#[derive(Clone, Copy)]
pub struct Bank {
    /// Bits of an entry.
    pub bits: usize,
    /// Bits of a row address (`2^address_bits` rows).
    pub address_bits: usize,
    /// Whether the read and the write share one address.
    pub single_port: bool,
    /// Whether the read passes through the primitive's output register.
    pub output_register: bool,
}

/// The body of `bank` built from the primitive `name` (lower case) of `shape`, as many
/// `instance(k)` side by side as the entry needs: the write on `port_a` (`data_in`), the read
/// on `port_b` when `read_now` (`data_out`). A single-port bank gives both ports the one
/// address, the write's when it writes. `declarations` go before the instances.
pub fn body(
    name: &str,
    shape: &Shape,
    bank: Bank,
    declarations: &str,
    instance: impl Fn(usize) -> String,
) -> String {
    let Bank {
        bits,
        address_bits,
        single_port,
        output_register,
    } = bank;
    let word = shape.word;
    let slices = bits.div_ceil(word);
    let width = slices * word;
    let rows = 1usize << address_bits;
    let kind = match single_port {
        true => "1rw",
        false => "1r1w",
    };
    let outreg = match output_register {
        true => "_outreg",
        false => "",
    };
    let (write_row, read_row, read_now) = match single_port {
        true => (
            format!(
                "wire [{}:0] row = write_enable ? write_address : read_address;\n",
                address_bits - 1
            ),
            "row",
            "read_enable & ~write_enable",
        ),
        false => (String::new(), "read_address", "read_enable"),
    };
    let write_address = match single_port {
        true => "row",
        false => "write_address",
    };
    let pad = shape.address_bits - address_bits;
    let port_a = concat(&[zeros(pad), write_address.into(), shape.low_write.clone()]);
    let port_b = concat(&[zeros(pad), read_row.into(), shape.low_read.into()]);
    let data_in = concat(&[zeros(width - bits), "write_data".into()]);
    let spare = match width > bits {
        true => format!(
            "wire [{}:0] unused_data_out = data_out[{}:{bits}];\n",
            width - bits - 1,
            width - 1
        ),
        false => String::new(),
    };
    let instances: String = (0..slices).map(instance).collect();
    format!(
        "// name: sram_{name}_{kind}{outreg}_{rows}x{bits}\n\
         {write_row}\
         wire read_now = {read_now};\n\
         wire [13:0] port_a = {port_a};\n\
         wire [13:0] port_b = {port_b};\n\
         wire [{wmsb}:0] data_in = {data_in};\n\
         wire [{wmsb}:0] data_out;\n\
         {spare}\
         always @(*) read_data = data_out[{emsb}:0];\n\
         {declarations}\
         {instances}",
        wmsb = width - 1,
        emsb = bits - 1,
    )
}

/// Instance `k`'s data connections for a primitive whose data pins are `pins` bits wide and
/// whose word is `word` bits: `(data in, data out, declaration)`. A narrower word takes the
/// low pins; the high input pins are tied to zero and the high output pins go to a wire
/// `unused_high_<k>`, which the declaration declares.
pub fn slice(k: usize, word: usize, pins: usize) -> (String, String, String) {
    let range = format!("{}:{}", word * k + word - 1, word * k);
    match word == pins {
        true => (
            format!("data_in[{range}]"),
            format!("data_out[{range}]"),
            String::new(),
        ),
        false => {
            let high = pins - word;
            (
                format!("{{{high}'d0, data_in[{range}]}}"),
                format!("{{unused_high_{k}, data_out[{range}]}}"),
                format!("wire [{}:0] unused_high_{k};\n", high - 1),
            )
        }
    }
}
