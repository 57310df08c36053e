//! The Verilated core slice as the other side of a lock-step run.

use grfgen_hdl::core::Core;
use grfgen_hdl::params::CoreParams;

use super::model::{CycleInput, CycleOutput, Read};
use super::program::{Instruction, Source};
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::verilator::{Input, Output, VerilatedModel, VerilatorError};

/// A core that can also be read back register by register after a run.
pub trait CoreDevice: Device<Input = CycleInput, Expected = CycleOutput> {
    /// Reads register `n`, every lane, through the test port (the core must be idle).
    fn register(&mut self, n: usize) -> Vec<u64>;
}

/// One wave's instruction port: wave 0's are the `instr_*` ports, wave `w`'s the elements
/// `w - 1` of the `wave_*` ports.
struct InstructionPort {
    valid: Input,
    op: Input,
    dst: Input,
    src: Vec<Input>,
    read: Vec<Input>,
    imm: Vec<Input>,
    writes: Input,
    unit: Input,
    wait: Input,
    ready: Output,
}

impl InstructionPort {
    /// Wave 0's port.
    fn first(model: &VerilatedModel) -> Result<Self, VerilatorError> {
        Ok(Self {
            valid: model.input("instr_valid")?,
            op: model.input("instr_op")?,
            dst: model.input("instr_dst")?,
            src: model.inputs("instr_src", 3)?,
            read: model.inputs("instr_read", 3)?,
            imm: model.inputs("instr_imm", 3)?,
            writes: model.input("instr_writes")?,
            unit: model.input("instr_unit")?,
            wait: model.input("instr_wait")?,
            ready: model.output("instr_ready")?,
        })
    }

    /// The ports of waves 1 to `waves - 1` (a slice of one wave has none).
    fn others(model: &VerilatedModel, waves: usize) -> Result<Vec<Self>, VerilatorError> {
        let n = waves - 1;
        if n == 0 {
            return Ok(Vec::new());
        }
        let (valid, op, dst) = (
            model.inputs("wave_valid", n)?,
            model.inputs("wave_op", n)?,
            model.inputs("wave_dst", n)?,
        );
        let (src, read, imm) = (
            model.inputs("wave_src", 3 * n)?,
            model.inputs("wave_read", 3 * n)?,
            model.inputs("wave_imm", 3 * n)?,
        );
        let (writes, unit, wait) = (
            model.inputs("wave_writes", n)?,
            model.inputs("wave_unit", n)?,
            model.inputs("wave_wait", n)?,
        );
        let ready = model.outputs("wave_ready", n)?;
        Ok((0..n)
            .map(|w| Self {
                valid: valid[w],
                op: op[w],
                dst: dst[w],
                src: src[3 * w..3 * w + 3].to_vec(),
                read: read[3 * w..3 * w + 3].to_vec(),
                imm: imm[3 * w..3 * w + 3].to_vec(),
                writes: writes[w],
                unit: unit[w],
                wait: wait[w],
                ready: ready[w],
            })
            .collect())
    }

    /// Every input of the port.
    fn inputs(&self) -> impl Iterator<Item = Input> + '_ {
        [
            self.valid,
            self.op,
            self.dst,
            self.writes,
            self.unit,
            self.wait,
        ]
        .into_iter()
        .chain(self.src.iter().copied())
        .chain(self.read.iter().copied())
        .chain(self.imm.iter().copied())
    }

    /// Offers `instruction` (or none) on the port.
    fn drive(&self, m: &mut VerilatedModel, instruction: Option<&Instruction>) {
        m.set(self.valid, instruction.is_some() as u64);
        let Some(i) = instruction else {
            return;
        };
        m.set(self.op, i.op.code());
        m.set(self.dst, i.dst as u64);
        m.set(self.writes, i.writes as u64);
        m.set(self.unit, i.unit.code());
        m.set(self.wait, u64::from(i.wait.ss) | u64::from(i.wait.sy) << 1);
        for s in 0..3 {
            let (read, register, imm) = match i.src.get(s) {
                Some(&Source::Reg(r)) => (1, r as u64, 0),
                Some(&Source::Imm(v)) => (0, 0, u64::from(v)),
                None => (0, 0, 0),
            };
            m.set(self.read[s], read);
            m.set(self.src[s], register);
            m.set(self.imm[s], imm);
        }
    }
}

/// The Verilated core slice with its ports resolved.
pub struct CoreRtl {
    model: VerilatedModel,
    clock: Input,
    reset: Input,
    /// Per wave, its instruction port.
    instr: Vec<InstructionPort>,
    ext_valid: Input,
    ext_reg: Input,
    ext_data: Vec<Input>,
    ext_result: Input,
    ext_grant: Output,
    debug_valid: Input,
    debug_reg: Input,
    debug_data: Vec<Output>,
    read_valid: Vec<Output>,
    read_reg: Vec<Output>,
    reads: Output,
    banks_read: Output,
    banks_read_twice: Output,
    issue: Output,
    alu_valid: Output,
    alu_op: Output,
    alu_operand: Vec<Output>,
    retire_valid: Output,
    retire_reg: Output,
    retire_data: Vec<Output>,
    long_valid: Output,
    long_reg: Output,
    long_writes: Output,
    long_unit: Output,
    long_data: Vec<Output>,
    /// Cycles from a GPR read request to its data (`CoreParams::read_latency`).
    read_latency: usize,
    /// With the request stage, the read ports show the reads decided the cycle before: those
    /// reads, kept for the next cycle's check (none before the first cycle).
    staged_reads: Option<Vec<Option<Read>>>,
}

impl CoreRtl {
    /// Emits, verilates (or takes from the cache) and starts the slice for `params` (the
    /// hardware of one policy: see `Policy::hardware`), after one cycle of reset.
    pub fn build(params: &CoreParams, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Core>(params)?;
        let (l, p) = (params.gpr.lanes, params.gpr.read_ports);
        let mut rtl = Self {
            clock: model.input("clock")?,
            reset: model.input("reset")?,
            instr: std::iter::once(InstructionPort::first(&model)?)
                .chain(InstructionPort::others(&model, params.wave_count())?)
                .collect(),
            ext_valid: model.input("ext_valid")?,
            ext_reg: model.input("ext_reg")?,
            ext_data: model.inputs("ext_data", l)?,
            ext_result: model.input("ext_result")?,
            ext_grant: model.output("ext_grant")?,
            debug_valid: model.input("debug_valid")?,
            debug_reg: model.input("debug_reg")?,
            debug_data: model.outputs("debug_data", l)?,
            read_valid: model.outputs("read_valid", p)?,
            read_reg: model.outputs("read_reg", p)?,
            reads: model.output("reads")?,
            banks_read: model.output("banks_read")?,
            banks_read_twice: model.output("banks_read_twice")?,
            issue: model.output("issue")?,
            alu_valid: model.output("alu_valid")?,
            alu_op: model.output("alu_op")?,
            alu_operand: model.outputs("alu_operand", 3 * l)?,
            retire_valid: model.output("retire_valid")?,
            retire_reg: model.output("retire_reg")?,
            retire_data: model.outputs("retire_data", l)?,
            long_valid: model.output("long_valid")?,
            long_reg: model.output("long_reg")?,
            long_writes: model.output("long_writes")?,
            long_unit: model.output("long_unit")?,
            long_data: model.outputs("long_data", l)?,
            read_latency: params.read_latency(),
            staged_reads: params
                .request_stage
                .then(|| vec![None; params.gpr.read_ports]),
            model,
        };
        // Every input is driven from the start: Verilator randomises undriven ones.
        let inputs: Vec<Input> = [
            rtl.ext_valid,
            rtl.debug_valid,
            rtl.ext_reg,
            rtl.ext_result,
            rtl.debug_reg,
        ]
        .into_iter()
        .chain(rtl.instr.iter().flat_map(InstructionPort::inputs))
        .chain(rtl.ext_data.iter().copied())
        .collect();
        for port in inputs {
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

    /// Drives the cycle's instruction and external write with the clock low.
    fn drive(&mut self, input: &CycleInput) {
        let m = &mut self.model;
        m.set(self.clock, 0);
        m.set(self.debug_valid, 0);
        for (w, port) in self.instr.iter().enumerate() {
            port.drive(m, input.instructions.get(w).and_then(Option::as_ref));
        }
        m.set(self.ext_valid, input.external.is_some() as u64);
        if let Some(external) = &input.external {
            m.set(self.ext_reg, external.reg as u64);
            m.set(self.ext_result, u64::from(external.result));
            for (l, &v) in external.values.iter().enumerate() {
                m.set(self.ext_data[l], v);
            }
        }
        m.eval();
    }

    /// Compares `expected` with `ports`, element by element, naming each `name$k`.
    fn lanes(
        &self,
        cycle: u64,
        name: &str,
        ports: &[Output],
        expected: impl IntoIterator<Item = u64>,
    ) -> Result<(), Mismatch> {
        for (k, (value, &port)) in expected.into_iter().zip(ports).enumerate() {
            compare(
                cycle,
                || format!("{name}[{k}]"),
                value,
                self.model.get(port),
            )?;
        }
        Ok(())
    }

    /// Compares the reads and the scalar outputs of the cycle.
    fn check_control(
        &self,
        cycle: u64,
        input: &CycleInput,
        expected: &CycleOutput,
    ) -> Result<(), Mismatch> {
        let (mut banks, mut twice) = (0u64, 0u64);
        let reads = self.staged_reads.as_ref().unwrap_or(&expected.reads);
        for (p, read) in reads.iter().enumerate() {
            let valid = self.model.get(self.read_valid[p]);
            compare(
                cycle,
                || format!("read_valid[{p}]"),
                read.is_some() as u64,
                valid,
            )?;
            if let Some(r) = read {
                twice |= banks & (1 << r.bank);
                banks |= 1 << r.bank;
                let actual = self.model.get(self.read_reg[p]);
                compare(cycle, || format!("read_reg[{p}]"), r.reg as u64, actual)?;
            }
        }
        let count = reads.iter().flatten().count() as u64;
        let external = input.external.is_some() && expected.external_granted;
        for (w, port) in self.instr.iter().enumerate() {
            let name = || match w {
                0 => "instr_ready".to_string(),
                w => format!("wave_ready[{}]", w - 1),
            };
            let ready = expected.ready.get(w).copied().unwrap_or(false);
            compare(cycle, name, ready as u64, self.model.get(port.ready))?;
        }
        for (name, value, port) in [
            ("reads", count, self.reads),
            ("banks_read", banks, self.banks_read),
            ("banks_read_twice", twice, self.banks_read_twice),
            ("issue", expected.issued as u64, self.issue),
            ("alu_valid", expected.alu.is_some() as u64, self.alu_valid),
            (
                "retire_valid",
                expected.retire.is_some() as u64,
                self.retire_valid,
            ),
            (
                "long_valid",
                expected.long.is_some() as u64,
                self.long_valid,
            ),
            ("ext_grant", external as u64, self.ext_grant),
        ] {
            compare(cycle, || name.into(), value, self.model.get(port))?;
        }
        Ok(())
    }
}

impl Device for CoreRtl {
    type Input = CycleInput;
    type Expected = CycleOutput;

    fn cycle(
        &mut self,
        cycle: u64,
        input: &CycleInput,
        expected: &CycleOutput,
    ) -> Result<(), Mismatch> {
        self.drive(input);
        self.check_control(cycle, input, expected)?;
        if let Some(alu) = &expected.alu {
            compare(
                cycle,
                || "alu_op".into(),
                alu.op.code(),
                self.model.get(self.alu_op),
            )?;
            let operands = alu.operands.iter().flatten().copied();
            self.lanes(cycle, "alu_operand", &self.alu_operand, operands)?;
        }
        if let Some(retire) = &expected.retire {
            let actual = self.model.get(self.retire_reg);
            compare(cycle, || "retire_reg".into(), retire.reg as u64, actual)?;
            let values = retire.values.iter().copied();
            self.lanes(cycle, "retire_data", &self.retire_data, values)?;
        }
        if let Some(long) = &expected.long {
            for (name, value, port) in [
                ("long_reg", long.reg as u64, self.long_reg),
                ("long_writes", long.writes as u64, self.long_writes),
                ("long_unit", long.unit.code(), self.long_unit),
            ] {
                compare(cycle, || name.into(), value, self.model.get(port))?;
            }
            let values = long.values.iter().copied();
            self.lanes(cycle, "long_data", &self.long_data, values)?;
        }
        if let Some(staged) = &mut self.staged_reads {
            staged.clone_from(&expected.reads);
        }
        self.model.set(self.clock, 1);
        self.model.eval();
        Ok(())
    }
}

impl CoreDevice for CoreRtl {
    fn register(&mut self, n: usize) -> Vec<u64> {
        for port in &self.instr {
            self.model.set(port.valid, 0);
        }
        self.model.set(self.ext_valid, 0);
        self.model.set(self.debug_valid, 1);
        self.model.set(self.debug_reg, n as u64);
        self.tick();
        self.model.set(self.debug_valid, 0);
        // The data arrives after the GPR's read latency.
        for _ in 1..self.read_latency {
            self.tick();
        }
        self.model.set(self.clock, 0);
        self.model.eval();
        let values = self.debug_data.iter().map(|&p| self.model.get(p)).collect();
        self.model.set(self.clock, 1);
        self.model.eval();
        values
    }
}
