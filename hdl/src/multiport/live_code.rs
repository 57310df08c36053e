//! The two codes of the invalidation-based live-value table (Abdelhadi and Lemieux, FPGA
//! 2014): what a write port writes into its table bank, and which write port a read's table
//! words name.

use rust_hdl::prelude::*;

use crate::params::TableEncoding;
use crate::signals::signals;

/// Bits of a table word: a port number (binary) or one bit per port (one-hot), for up to four
/// write ports.
pub const TABLE_BITS: usize = 4;

/// The table code of `write_ports` (W) write ports and `read_ports` (R) read ports.
///
/// * **Binary.** Port `w` writes `w ^ (the other banks' words)`; the live port is the XOR of
///   all banks' words.
/// * **One-hot.** Bit `j` of bank `i`'s word and bit `i` of bank `j`'s tell which of ports
///   `i < j` wrote later: `i` when they differ, `j` when they are equal. Port `w` writes, for
///   each other port `j`, bank `j`'s bit `w`, inverted when `w < j`: later than every other.
///   The live port is the one later than all others, found by one AND per port.
///
/// Combinational. Its Verilog is written per encoding: an option that changes the logic,
/// not its size, cannot be a branch in `#[hdl_gen]` (`docs/rust-hdl.md`, 25).
#[derive(LogicBlock)]
pub struct LiveCode {
    /// `w * W + j`: bank `j`'s word at the register port `w` writes (zero for `j == w`).
    pub feedback: Vec<Signal<In, Bits<TABLE_BITS>>>,
    /// Per write port: the word it writes into its bank.
    pub enc: Vec<Signal<Out, Bits<TABLE_BITS>>>,
    /// `j * R + r`: bank `j`'s word at the register read port `r` reads.
    pub words: Vec<Signal<In, Bits<TABLE_BITS>>>,
    /// `r * W + w`: port `w` wrote read port `r`'s register last.
    pub select: Vec<Signal<Out, Bit>>,
    _encoding: TableEncoding,
}

impl LiveCode {
    /// The code `encoding` for `write_ports` (at most [`TABLE_BITS`]) and `read_ports`.
    pub fn new(encoding: TableEncoding, write_ports: usize, read_ports: usize) -> Self {
        assert!(write_ports <= TABLE_BITS);
        Self {
            feedback: signals(write_ports * write_ports),
            enc: signals(write_ports),
            words: signals(write_ports * read_ports),
            select: signals(read_ports * write_ports),
            _encoding: encoding,
        }
    }

    /// (write ports, read ports).
    fn ports(&self) -> (usize, usize) {
        (self.enc.len(), self.select.len() / self.enc.len())
    }

    /// The word write port `w` writes, given `bank(j)`, bank `j`'s word at its register.
    fn encode(&self, w: usize, bank: impl Fn(usize) -> u64) -> u64 {
        let (nw, _) = self.ports();
        match self._encoding {
            TableEncoding::Binary => (0..nw).fold(w as u64, |x, j| x ^ bank(j)),
            TableEncoding::OneHot => (0..nw)
                .filter(|&j| j != w)
                .map(|j| (((bank(j) >> w) & 1) ^ u64::from(w < j)) << j)
                .sum(),
        }
    }

    /// Whether `word(j)`, bank `j`'s word at a register, names write port `w` as live.
    fn names(&self, w: usize, word: impl Fn(usize) -> u64) -> bool {
        let (nw, _) = self.ports();
        match self._encoding {
            TableEncoding::Binary => (0..nw).fold(0, |x, j| x ^ word(j)) == w as u64,
            TableEncoding::OneHot => (0..nw)
                .filter(|&j| j != w)
                .all(|j| ((word(w) >> j) ^ (word(j) >> w) ^ u64::from(w > j)) & 1 == 1),
        }
    }

    /// The Verilog of write port `w`'s word.
    fn enc_verilog(&self, w: usize) -> String {
        let (nw, _) = self.ports();
        match self._encoding {
            TableEncoding::Binary => {
                let banks: String = (0..nw)
                    .map(|j| format!(" ^ feedback${}", w * nw + j))
                    .collect();
                format!("   enc${w} = {TABLE_BITS}'d{w}{banks};\n")
            }
            TableEncoding::OneHot => {
                let bit = |j: usize| match j < nw && j != w {
                    true => format!("feedback${}[{w}] ^ 1'b{}", w * nw + j, u8::from(w < j)),
                    false => "1'b0".to_string(),
                };
                let bits: Vec<String> = (0..TABLE_BITS).rev().map(bit).collect();
                format!("   enc${w} = {{{}}};\n", bits.join(", "))
            }
        }
    }

    /// The Verilog of read port `r`'s select of write port `w`.
    fn select_verilog(&self, r: usize, w: usize) -> String {
        let (nw, nr) = self.ports();
        let term = match self._encoding {
            TableEncoding::Binary => {
                let banks: Vec<String> = (0..nw).map(|j| format!("words${}", j * nr + r)).collect();
                format!("({}) == {TABLE_BITS}'d{w}", banks.join(" ^ "))
            }
            TableEncoding::OneHot => {
                let pairs: Vec<String> = (0..nw)
                    .filter(|&j| j != w)
                    .map(|j| {
                        let later = u8::from(w > j);
                        format!(
                            "(words${}[{j}] ^ words${}[{w}] ^ 1'b{later})",
                            w * nr + r,
                            j * nr + r
                        )
                    })
                    .chain(["1'b1".to_string()])
                    .collect();
                pairs.join(" & ")
            }
        };
        format!("   select${} = {term};\n", r * nw + w)
    }

    /// The module's Verilog: the words, the selects, and every input read by an `unused_`
    /// wire too, since the one-hot code reads single bits of its words.
    fn verilog(&self) -> String {
        let (nw, nr) = self.ports();
        let inputs: Vec<String> = (0..nw * nw)
            .map(|k| format!("feedback${k}"))
            .chain((0..nw * nr).map(|k| format!("words${k}")))
            .collect();
        let mut text = format!(
            "// {} table code of {nw} write port(s) and {nr} read port(s).\n\
             wire [{}:0] unused_inputs = {{{}}};\n\
             always @(*) begin\n",
            self._encoding,
            inputs.len() * TABLE_BITS - 1,
            inputs.join(", ")
        );
        for w in 0..nw {
            text += &self.enc_verilog(w);
        }
        for r in 0..nr {
            for w in 0..nw {
                text += &self.select_verilog(r, w);
            }
        }
        text + "end\n"
    }
}

impl Logic for LiveCode {
    fn update(&mut self) {
        let (nw, nr) = self.ports();
        for w in 0..nw {
            let word = self.encode(w, |j| self.feedback[w * nw + j].val().to_u64());
            self.enc[w].next = word.into();
        }
        for r in 0..nr {
            for w in 0..nw {
                let live = self.names(w, |j| self.words[j * nr + r].val().to_u64());
                self.select[r * nw + w].next = live;
            }
        }
    }

    fn connect(&mut self) {
        for enc in &mut self.enc {
            enc.connect();
        }
        for select in &mut self.select {
            select.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
