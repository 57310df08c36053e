//! A vector of D flip-flops as one module.

use rust_hdl::prelude::*;

use crate::signals;

/// `count` D flip-flops of type `T` on one clock, emitted as a single module (rust-hdl's `DFF`
/// makes one module per flip-flop). Power-up value zero; no reset.
#[derive(LogicBlock, Default)]
pub struct Registers<T: Synth> {
    /// Clock: every `q` takes its `d` on the rising edge.
    pub clock: Signal<In, Clock>,
    /// Next values.
    pub d: Vec<Signal<In, T>>,
    /// Current values.
    pub q: Vec<Signal<Out, T>>,
}

impl<T: Synth> Registers<T> {
    /// `count` registers.
    pub fn new(count: usize) -> Self {
        Self {
            clock: Signal::default(),
            d: signals(count),
            q: signals(count),
        }
    }
}

impl<T: Synth> Logic for Registers<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
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
        let count = self.q.len();
        let init: String = (0..count)
            .map(|i| format!("   q${i} = {}'d0;\n", T::BITS))
            .collect();
        let step: String = (0..count)
            .map(|i| format!("   q${i} <= d${i};\n"))
            .collect();
        Verilog::Custom(format!(
            "// name: registers_{count}x{bits}\ninitial begin\n{init}end\n\n\
             always @(posedge clock) begin\n{step}end\n",
            bits = T::BITS
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "registers".into(),
            clock: "clock".into(),
            inputs: (0..self.d.len()).map(|i| format!("d${i}")).collect(),
            outputs: (0..self.q.len()).map(|i| format!("q${i}")).collect(),
        }]
    }
}
