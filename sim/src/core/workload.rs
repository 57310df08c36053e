//! Built-in workloads: the document's example, random programs (of ALU instructions, and with
//! long-latency instructions, immediates, nops and sync waits), three kernels written in the
//! program format, and a workload with external write traffic.

use std::collections::BTreeMap;
use std::sync::Arc;

use grfgen_hdl::params::{CoreOp, CoreParams, CoreUnit};

use super::external::UnitLatencies;
use super::figures::ProgramFigures;
use super::ir3::Ir3Program;
use super::program::{parse, Instruction, ParseError, Source, Wait};
use crate::rng::Rng;

/// A program to run, with the external write traffic and the external unit that accompany
/// it.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Its name.
    pub name: String,
    /// The instructions, in program order.
    pub program: Vec<Instruction>,
    /// Percent of cycles in which the external writer (EFU / texture return) starts a write.
    pub external_rate: u32,
    /// Values to load into input registers instead of the seeded random ones (a renamed
    /// program gets its original's values this way); the random values are drawn all the same,
    /// so the external traffic that follows is the same.
    pub input_values: BTreeMap<usize, Vec<u64>>,
    /// The latencies of the external unit that writes long-latency results back.
    pub latencies: UnitLatencies,
    /// What the program's text holds (counted before anything runs).
    pub figures: ProgramFigures,
    /// The ir3 program it was read from (its text, the places of its registers), if any.
    pub ir3: Option<Arc<Ir3Program>>,
    /// `--wave-base`: with several waves, wave `w`'s registers start `(w * K) mod banks`
    /// registers later (`super::waves`).
    pub wave_base: usize,
}

impl Workload {
    /// `program` under `name`, without external traffic, with the default latencies.
    pub fn new(name: &str, program: Vec<Instruction>) -> Self {
        Self {
            name: name.to_string(),
            external_rate: 0,
            input_values: BTreeMap::new(),
            latencies: UnitLatencies::default(),
            figures: ProgramFigures::of_core(&program),
            ir3: None,
            wave_base: 0,
            program,
        }
    }
}

/// The names of the built-in workloads.
pub const NAMES: [&str; 7] = [
    "rpt-mad",
    "random",
    "random-long",
    "conv3x3",
    "matmul4",
    "normalize",
    "texture-return",
];

/// The document's worst case: `(rpt3) mad.f32 R0, R0, R4, R8`, every MAD's three sources in
/// one bank (with 4 banks).
pub const RPT_MAD: &str = "(rpt3) mad.f32 R0, R0, R4, R8\n";

/// A 3x3 convolution producing four neighbouring output pixels of one row. Pixels of a 3-row x
/// 6-column patch in R0..R17 (row-major), weights in R18..R26, outputs in R28..R31. The four
/// accumulations are interleaved, as a compiler schedules them, so that each `mad` depends on
/// the one four instructions earlier.
pub fn conv3x3_source() -> String {
    let mut text = String::from("// 3x3 convolution, four outputs R28..R31 of one row\n");
    for tap in 0..9 {
        let (dy, dx) = (tap / 3, tap % 3);
        for out in 0..4 {
            let pixel = dy * 6 + dx + out;
            let weight = 18 + tap;
            let acc = 28 + out;
            if tap == 0 {
                text += &format!("mul.u32 R{acc}, R{pixel}, R{weight}\n");
            } else {
                text += &format!("mad.u32 R{acc}, R{pixel}, R{weight}, R{acc}\n");
            }
        }
    }
    text
}

/// C = A x B for 4x4 matrices: A in R0..R15, B in R16..R31, C in R32..R47 (row-major). The
/// sixteen dot products are interleaved by the inner index.
pub fn matmul4_source() -> String {
    let mut text = String::from("// 4x4 matrix multiply, C[i][j] = sum_k A[i][k] * B[k][j]\n");
    for k in 0..4 {
        for i in 0..4 {
            for j in 0..4 {
                let (a, b, c) = (i * 4 + k, 16 + k * 4 + j, 32 + i * 4 + j);
                if k == 0 {
                    text += &format!("mul.u32 R{c}, R{a}, R{b}\n");
                } else {
                    text += &format!("mad.u32 R{c}, R{a}, R{b}, R{c}\n");
                }
            }
        }
    }
    text
}

/// Normalisation of four 3-vectors: x, y, z of vector v in R(3v)..R(3v+2); the squared length
/// into R12..R15; the reciprocal square root is the EFU's (here it arrives in R16..R19, loaded
/// before the run); the scaled vectors into R20..R31.
pub fn normalize_source() -> String {
    let mut text = String::from("// normalise four vectors: squared lengths, then scale\n");
    for v in 0..4 {
        text += &format!("mul.u32 R{}, R{}, R{}\n", 12 + v, 3 * v, 3 * v);
    }
    for axis in 1..3 {
        for v in 0..4 {
            let c = 3 * v + axis;
            text += &format!("mad.u32 R{0}, R{c}, R{c}, R{0}\n", 12 + v);
        }
    }
    for axis in 0..3 {
        for v in 0..4 {
            text += &format!(
                "mul.u32 R{}, R{}, R{}\n",
                20 + 3 * v + axis,
                3 * v + axis,
                16 + v
            );
        }
    }
    text
}

/// `count` instructions with random ops and uniformly random registers below `registers`.
pub fn random_program(count: usize, registers: usize, seed: u64) -> Vec<Instruction> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let op = RANDOM_OPS[rng.below(RANDOM_OPS.len())];
            let dst = rng.below(registers);
            let src: Vec<usize> = (0..op.sources()).map(|_| rng.below(registers)).collect();
            Instruction::alu(op, dst, &src)
        })
        .collect()
}

/// The ops of random programs: every op that computes.
const RANDOM_OPS: [CoreOp; 5] = [
    CoreOp::Mov,
    CoreOp::Add,
    CoreOp::Sub,
    CoreOp::Mul,
    CoreOp::Mad,
];

/// `count` instructions over registers below `registers`: one in four runs on a
/// long-latency unit (each unit alike, writing 0 to 4 registers but no more than the
/// `long_results` entries of the pending table), one in twelve is a `nop`, one in sixteen ALU
/// instructions keeps no result, one source in five is an immediate, one instruction in ten
/// waits on `(ss)` and one in twelve on `(sy)`.
pub fn random_long_program(
    count: usize,
    registers: usize,
    long_results: usize,
    seed: u64,
) -> Vec<Instruction> {
    let mut rng = Rng::new(seed);
    let most = Instruction::MAX_WRITES.min(long_results).min(registers);
    (0..count)
        .map(|_| {
            let mut instruction = match rng.chance(1, 12) {
                true => Instruction::alu(CoreOp::Nop, 0, &[]),
                false => random_operation(&mut rng, registers, most),
            };
            instruction.wait = Wait {
                ss: rng.chance(1, 10),
                sy: rng.chance(1, 12),
            };
            instruction
        })
        .collect()
}

/// One instruction of [`random_long_program`] that computes, writing at most `most` registers
/// when it runs on a long-latency unit.
fn random_operation(rng: &mut Rng, registers: usize, most: usize) -> Instruction {
    let op = RANDOM_OPS[rng.below(RANDOM_OPS.len())];
    let src = (0..op.sources())
        .map(|_| match rng.chance(1, 5) {
            true => Source::Imm(rng.next_u64() as u32),
            false => Source::Reg(rng.below(registers)),
        })
        .collect();
    let unit = match rng.chance(1, 4) {
        true => CoreUnit::ALL[1 + rng.below(CoreUnit::ALL.len() - 1)],
        false => CoreUnit::Alu,
    };
    let writes = match unit {
        CoreUnit::Alu => usize::from(!rng.chance(1, 16)),
        _ => rng.below(most + 1),
    };
    Instruction {
        op,
        dst: rng.below(registers + 1 - writes.max(1)),
        writes,
        src,
        unit,
        wait: Wait::default(),
    }
}

/// Instructions of the random workloads unless a run asks otherwise.
pub const RANDOM_INSTRUCTIONS: usize = 256;

/// The built-in workload `name`; `random` draws from `seed`.
pub fn builtin(name: &str, params: &CoreParams, seed: u64) -> Result<Workload, String> {
    builtin_sized(name, params, seed, RANDOM_INSTRUCTIONS)
}

/// The built-in workload `name`, the random ones `instructions` long and drawn from `seed`.
pub fn builtin_sized(
    name: &str,
    params: &CoreParams,
    seed: u64,
    instructions: usize,
) -> Result<Workload, String> {
    let registers = params.program_registers();
    let source = match name {
        "rpt-mad" => RPT_MAD.to_string(),
        "conv3x3" => conv3x3_source(),
        "matmul4" => matmul4_source(),
        "normalize" => normalize_source(),
        "random" | "texture-return" => {
            return Ok(Workload {
                external_rate: if name == "random" { 0 } else { 50 },
                ..Workload::new(name, random_program(instructions, registers.max(1), seed))
            })
        }
        "random-long" => {
            let program =
                random_long_program(instructions, registers.max(1), params.long_results, seed);
            return Ok(Workload::new(name, program));
        }
        other => {
            return Err(format!(
                "invalid value {other} for --workload: allowed {}",
                NAMES.join(", ")
            ))
        }
    };
    let program = parse(&source, registers).map_err(|e: ParseError| {
        format!(
            "invalid value {name} for --workload: it needs more than the {registers} registers left to programs ({e})"
        )
    })?;
    Ok(Workload::new(name, program))
}
