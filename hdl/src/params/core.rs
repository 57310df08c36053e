use serde::{Deserialize, Serialize};

use super::{check_range, GprParams, ParamError};

/// Parameters of the shader-core slice (SPEC S1, all of it): a banked GPR with a conflict
/// detector, conflict queue, prefetch queue, operand muxes, an integer ALU and a scheduler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreParams {
    /// The banked GPR underneath. Its elements must be 32 bits (the ALU's lanes) and it has two
    /// write ports (ALU results, external writer).
    #[serde(flatten)]
    pub gpr: GprParams,
    /// Conflict-queue entries: 0..=8 (0: no conflict queue).
    pub cq_entries: usize,
    /// Prefetch-queue entries: 0..=8 (0: no prefetch queue).
    pub pq_entries: usize,
    /// Instructions after the one being issued that preloads and prefetches may serve: 1..=4.
    pub lookahead: usize,
    /// ALU pipeline stages between operand read and write-back: 1..=8.
    pub alu_latency: usize,
}

impl Default for CoreParams {
    fn default() -> Self {
        Self {
            gpr: GprParams::default(),
            cq_entries: 2,
            pq_entries: 4,
            lookahead: 3,
            alu_latency: 2,
        }
    }
}

impl CoreParams {
    /// The ALU's element width: every lane computes on 32-bit wrapping integers.
    pub const ELEMENT_BITS: usize = 32;

    /// Checks every parameter; the first one out of range is reported.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.gpr.validate()?;
        if self.gpr.element_bits != Self::ELEMENT_BITS {
            return Err(ParamError::new(
                "element_bits",
                self.gpr.element_bits,
                "32 (the core's ALU lanes are 32-bit integers)",
            ));
        }
        if self.gpr.write_ports != 2 {
            return Err(ParamError::new(
                "write_ports",
                self.gpr.write_ports,
                "2 (ALU results on port 0, the external writer on port 1)",
            ));
        }
        check_range("cq_entries", self.cq_entries, 0, 8)?;
        check_range("pq_entries", self.pq_entries, 0, 8)?;
        check_range("lookahead", self.lookahead, 1, 4)?;
        check_range("alu_latency", self.alu_latency, 1, 8)
    }

    /// Instruction-window slots: the instruction being issued plus the lookahead.
    pub fn window(&self) -> usize {
        self.lookahead + 1
    }

    /// A module name that encodes the configuration.
    pub fn module_name(&self) -> String {
        format!(
            "core_b{}_r{}_l{}_rp{}_wp{}_cq{}_pq{}_k{}_a{}",
            self.gpr.banks,
            self.gpr.registers,
            self.gpr.lanes,
            self.gpr.read_ports,
            self.gpr.write_ports,
            self.cq_entries,
            self.pq_entries,
            self.lookahead,
            self.alu_latency
        )
    }
}
