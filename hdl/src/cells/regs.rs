//! A vector of D flip-flops as one module, or, for a pipeline stage that is switched off, the
//! same ports wired straight through.

use rust_hdl::prelude::*;

use crate::emit::PASS_THROUGH;
use crate::signals::signals;

/// `count` D flip-flops of type `T` on one clock, emitted as a single module (rust-hdl's `DFF`
/// makes one module per flip-flop). Power-up value zero; no reset.
///
/// Built with [`Registers::stage`] and `present` false, `q` follows `d` in the same cycle and the
/// clock is unused: an optional pipeline stage keeps one structure whether it is on or off.
///
/// Built with [`Registers::copies`], the flip-flops carry Yosys's `keep` attribute: copies of
/// one value (a control replicated so that each copy drives a few lanes instead of all) are
/// not merged back into one flip-flop by synthesis. Only flip-flops that all carry `keep` stay
/// apart: Yosys still merges a plain register of the same value into a kept one.
#[derive(LogicBlock)]
pub struct Registers<T: Synth> {
    /// Clock: every `q` takes its `d` on the rising edge.
    pub clock: Signal<In, Clock>,
    /// Next values.
    pub d: Vec<Signal<In, T>>,
    /// Current values.
    pub q: Vec<Signal<Out, T>>,
    _wires: bool,
    _keep: bool,
}

impl<T: Synth> Registers<T> {
    /// `count` registers.
    pub fn new(count: usize) -> Self {
        Self::stage(count, true)
    }

    /// A pipeline stage of `count` values: registers when `present`, otherwise wires.
    pub fn stage(count: usize, present: bool) -> Self {
        Self {
            clock: Signal::default(),
            d: signals(count),
            q: signals(count),
            _wires: !present,
            _keep: false,
        }
    }

    /// A pipeline stage of `count` values (see [`Registers::stage`]) holding copies of the
    /// same values, which synthesis must keep apart (Yosys `keep`).
    pub fn copies(count: usize, present: bool) -> Self {
        Self {
            _keep: present,
            ..Self::stage(count, present)
        }
    }

    /// The wired-through stage's Verilog: `q = d`. It is a pass-through primitive, so the
    /// emitter writes these assigns into the parent instead of a module.
    fn wires(&self) -> Verilog {
        let assign: String = (0..self.q.len())
            .map(|i| format!("assign q${i} = d${i};\n"))
            .collect();
        Verilog::Custom(format!("{PASS_THROUGH}\n{assign}"))
    }
}

impl<T: Synth> Logic for Registers<T> {
    fn update(&mut self) {
        // Wired through, the stage follows its input at once; registered, at the clock edge.
        if self._wires || self.clock.pos_edge() {
            for (q, d) in self.q.iter_mut().zip(&self.d) {
                q.next = d.val();
            }
        }
    }

    fn connect(&mut self) {
        for q in &mut self.q {
            q.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        if self._wires {
            return self.wires();
        }
        let count = self.q.len();
        let init: String = (0..count)
            .map(|i| format!("   q${i} = {}'d0;\n", T::BITS))
            .collect();
        let step: String = (0..count)
            .map(|i| format!("   q${i} <= d${i};\n"))
            .collect();
        let (name, keep) = match self._keep {
            true => ("registers_kept", "(* keep *) "),
            false => ("registers", ""),
        };
        Verilog::Custom(format!(
            "// name: {name}_{count}x{bits}\ninitial begin\n{init}end\n\n\
             {keep}always @(posedge clock) begin\n{step}end\n",
            bits = T::BITS
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        if self._wires {
            return Vec::new();
        }
        vec![TimingInfo {
            name: "registers".into(),
            clock: "clock".into(),
            inputs: (0..self.d.len()).map(|i| format!("d${i}")).collect(),
            outputs: (0..self.q.len()).map(|i| format!("q${i}")).collect(),
        }]
    }
}

/// Whether `module`, a module name as grfgen emits it (`<top>_registers_4x32`, or with `_kept`,
/// or a `_2` suffix), is a bank of [`Registers`]: flip-flops only.
pub fn is_register_bank(module: &str) -> bool {
    let Some((_, shape)) = module.rsplit_once("_registers_") else {
        return false;
    };
    let shape = shape.strip_prefix("kept_").unwrap_or(shape);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (size, suffix) = shape.split_once('_').unwrap_or((shape, "1"));
    matches!(size.split_once('x'), Some((count, bits)) if digits(count) && digits(bits))
        && digits(suffix)
}

#[cfg(test)]
mod tests {
    use super::is_register_bank;

    #[test]
    fn register_banks_are_told_by_their_module_names() {
        for bank in [
            "gpr_registers_16x1",
            "core_x_registers_kept_4x32",
            "t_registers_3x3_2",
        ] {
            assert!(is_register_bank(bank), "{bank}");
        }
        for other in [
            "gpr_read_xbar_lane",
            "gpr_sram_1r1w_64x32",
            "t_registers_x3",
            "t_registers_3x3_a",
        ] {
            assert!(!is_register_bank(other), "{other}");
        }
    }
}
