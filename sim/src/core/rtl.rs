//! The Verilated core slice as the other side of a lock-step run.

use std::path::Path;

use grfgen_hdl::core::emit_core;
use grfgen_hdl::params::CoreParams;

use super::model::{CycleInput, CycleOutput};
use super::run::Device;
use crate::check::{compare, Mismatch};
use crate::verilator::{self, BuildOptions, PortId, VerilatedModel, VerilatorError};

/// The Verilated core slice with its ports looked up.
pub struct CoreRtl {
    model: VerilatedModel,
    lanes: usize,
    clock: PortId,
    reset: PortId,
    instr_valid: PortId,
    instr_op: PortId,
    instr_dst: PortId,
    instr_src: Vec<PortId>,
    instr_ready: PortId,
    ext_valid: PortId,
    ext_reg: PortId,
    ext_data: Vec<PortId>,
    ext_grant: PortId,
    debug_valid: PortId,
    debug_reg: PortId,
    debug_data: Vec<PortId>,
    read_valid: Vec<PortId>,
    read_reg: Vec<PortId>,
    reads: PortId,
    banks_read: PortId,
    issue: PortId,
    alu_valid: PortId,
    alu_op: PortId,
    alu_operand: Vec<PortId>,
    retire_valid: PortId,
    retire_reg: PortId,
    retire_data: Vec<PortId>,
}

impl CoreRtl {
    /// Emits, verilates (or takes from the cache) and starts the slice for `params` (the
    /// hardware of one policy: see `Policy::hardware`), after one cycle of reset.
    pub fn build(
        params: &CoreParams,
        options: &BuildOptions,
        trace: Option<&Path>,
    ) -> Result<Self, VerilatorError> {
        let top = params.module_name();
        let emitted = emit_core(params, &top).expect("parameters were validated");
        let model = verilator::build_emitted(&emitted, options, trace)?;
        let one = |name: &str| {
            model
                .port(name)
                .unwrap_or_else(|| panic!("core has {name}"))
        };
        let many = |name: &str, n: usize| {
            (0..n)
                .map(|i| one(&format!("{name}${i}")))
                .collect::<Vec<_>>()
        };
        let (l, p) = (params.gpr.lanes, params.gpr.read_ports);
        let mut rtl = Self {
            lanes: l,
            clock: one("clock"),
            reset: one("reset"),
            instr_valid: one("instr_valid"),
            instr_op: one("instr_op"),
            instr_dst: one("instr_dst"),
            instr_src: many("instr_src", 3),
            instr_ready: one("instr_ready"),
            ext_valid: one("ext_valid"),
            ext_reg: one("ext_reg"),
            ext_data: many("ext_data", l),
            ext_grant: one("ext_grant"),
            debug_valid: one("debug_valid"),
            debug_reg: one("debug_reg"),
            debug_data: many("debug_data", l),
            read_valid: many("read_valid", p),
            read_reg: many("read_reg", p),
            reads: one("reads"),
            banks_read: one("banks_read"),
            issue: one("issue"),
            alu_valid: one("alu_valid"),
            alu_op: one("alu_op"),
            alu_operand: many("alu_operand", 3 * l),
            retire_valid: one("retire_valid"),
            retire_reg: one("retire_reg"),
            retire_data: many("retire_data", l),
            model,
        };
        // Every input is driven from the start: Verilator randomises undriven ones.
        for port in [
            rtl.instr_valid,
            rtl.ext_valid,
            rtl.debug_valid,
            rtl.instr_op,
            rtl.instr_dst,
        ] {
            rtl.model.set(port, 0);
        }
        for &port in rtl.instr_src.iter().chain(&rtl.ext_data) {
            rtl.model.set(port, 0);
        }
        for port in [rtl.ext_reg, rtl.debug_reg] {
            rtl.model.set(port, 0);
        }
        rtl.model.set(rtl.reset, 1);
        rtl.tick();
        rtl.model.set(rtl.reset, 0);
        Ok(rtl)
    }

    /// Clock low with the inputs set, then the rising edge.
    fn tick(&mut self) {
        self.model.set(self.clock, 0);
        self.model.eval();
        self.model.set(self.clock, 1);
        self.model.eval();
    }

    fn get(&self, port: PortId) -> u64 {
        self.model.get(port)
    }
}

impl Device for CoreRtl {
    fn cycle(
        &mut self,
        cycle: u64,
        input: &CycleInput,
        expected: &CycleOutput,
    ) -> Option<Mismatch> {
        let m = &mut self.model;
        m.set(self.clock, 0);
        m.set(self.debug_valid, 0);
        match &input.instruction {
            Some(i) => {
                m.set(self.instr_valid, 1);
                m.set(self.instr_op, i.op.code());
                m.set(self.instr_dst, i.dst as u64);
                for s in 0..3 {
                    m.set(self.instr_src[s], i.src.get(s).copied().unwrap_or(0) as u64);
                }
            }
            None => m.set(self.instr_valid, 0),
        }
        match &input.external {
            Some((reg, data)) => {
                m.set(self.ext_valid, 1);
                m.set(self.ext_reg, *reg as u64);
                for (l, &v) in data.iter().enumerate() {
                    m.set(self.ext_data[l], v);
                }
            }
            None => m.set(self.ext_valid, 0),
        }
        m.eval();
        let mut banks = 0u64;
        for (p, read) in expected.reads.iter().enumerate() {
            let valid = self.get(self.read_valid[p]);
            if let Err(x) = compare(
                cycle,
                || format!("read_valid${p}"),
                read.is_some() as u64,
                valid,
            ) {
                return Some(x);
            }
            if let Some(r) = read {
                banks |= 1 << r.bank;
                if let Err(x) = compare(
                    cycle,
                    || format!("read_reg${p}"),
                    r.reg as u64,
                    self.get(self.read_reg[p]),
                ) {
                    return Some(x);
                }
            }
        }
        let count = expected.reads.iter().flatten().count() as u64;
        for (name, expected_value, port) in [
            ("instr_ready", expected.ready as u64, self.instr_ready),
            ("reads", count, self.reads),
            ("banks_read", banks, self.banks_read),
            ("issue", expected.issued as u64, self.issue),
            ("alu_valid", expected.alu.is_some() as u64, self.alu_valid),
            (
                "retire_valid",
                expected.retire.is_some() as u64,
                self.retire_valid,
            ),
            (
                "ext_grant",
                (input.external.is_some() && expected.external_granted) as u64,
                self.ext_grant,
            ),
        ] {
            if let Err(x) = compare(cycle, || name.into(), expected_value, self.get(port)) {
                return Some(x);
            }
        }
        let lanes = self.lanes;
        if let Some(alu) = &expected.alu {
            if let Err(x) = compare(
                cycle,
                || "alu_op".into(),
                alu.op.code(),
                self.get(self.alu_op),
            ) {
                return Some(x);
            }
            for (s, values) in alu.operands.iter().enumerate() {
                for (l, &v) in values.iter().enumerate() {
                    let k = s * lanes + l;
                    if let Err(x) = compare(
                        cycle,
                        || format!("alu_operand${k}"),
                        v,
                        self.get(self.alu_operand[k]),
                    ) {
                        return Some(x);
                    }
                }
            }
        }
        if let Some(retire) = &expected.retire {
            if let Err(x) = compare(
                cycle,
                || "retire_reg".into(),
                retire.reg as u64,
                self.get(self.retire_reg),
            ) {
                return Some(x);
            }
            for (l, &v) in retire.values.iter().enumerate() {
                if let Err(x) = compare(
                    cycle,
                    || format!("retire_data${l}"),
                    v,
                    self.get(self.retire_data[l]),
                ) {
                    return Some(x);
                }
            }
        }
        self.model.set(self.clock, 1);
        self.model.eval();
        None
    }

    fn register(&mut self, n: usize) -> Vec<u64> {
        self.model.set(self.instr_valid, 0);
        self.model.set(self.ext_valid, 0);
        self.model.set(self.debug_valid, 1);
        self.model.set(self.debug_reg, n as u64);
        self.tick();
        self.model.set(self.debug_valid, 0);
        self.model.set(self.clock, 0);
        self.model.eval();
        let values = self.debug_data.iter().map(|&p| self.model.get(p)).collect();
        self.model.set(self.clock, 1);
        self.model.eval();
        values
    }
}
