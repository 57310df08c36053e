//! `(rptN)` expansion, nops, waits, origins, the statistics and where reading stops.

use super::*;
use crate::core::ir3::const_value;

#[test]
fn repeat_without_r_advances_only_the_destination() {
    let ops = micro("(rpt2)add.f r4.x, r1.x, r2.y");
    let shape: Vec<_> = ops.iter().map(|op| (op.dst, regs(op))).collect();
    let sources = vec![r(1, 0), r(2, 1)];
    let expected = [
        (r(4, 0), sources.clone()),
        (r(4, 1), sources.clone()),
        (r(4, 2), sources),
    ];
    assert_eq!(shape, expected);
}

#[test]
fn repeat_with_r_advances_registers_constants_and_immediates() {
    let ops = micro("(rpt2)add.f r4.x, (r)r1.w, r2.y");
    let reads: Vec<_> = ops.iter().map(regs).collect();
    assert_eq!(
        reads,
        [[r(1, 3), r(2, 1)], [r(2, 0), r(2, 1)], [r(2, 1), r(2, 1)]]
    );
    let ops = micro("(rpt1)mad.f32 r6.z, (r)c7.w, r1.x, (r)hc4.y");
    let c = |i| Source::Imm(const_value(i));
    assert_eq!(ops[0].src, [c(31), Source::Reg(r(1, 0)), c(8)]);
    assert_eq!(ops[1].src, [c(32), Source::Reg(r(1, 0)), c(9)]);
    let ops = micro("(rpt2)bary.f r10.y, (r)6, r0.x");
    let inlocs: Vec<_> = ops.iter().map(|op| (op.dst, op.src[0])).collect();
    let imm = Source::Imm;
    assert_eq!(inlocs, [(41, imm(6)), (42, imm(7)), (43, imm(8))]);
    let ops = micro("(rpt1)mov.u32u32 r0.x, (r)c<a0.x + 4>");
    assert_eq!((ops[0].src[0], ops[1].src[0]), (c(4), c(5)));
}

#[test]
fn repeat_advances_half_registers_in_half_steps() {
    let ops = micro("(rpt3)mov.f16f16 hr3.x, (r)hr5.z");
    let shape: Vec<_> = ops.iter().map(|op| (op.dst, regs(op)[0])).collect();
    assert_eq!(shape, [(6, 11), (6, 11), (7, 12), (7, 12)]);
}

#[test]
fn repeat_groups_carry_nops_once_and_waits_on_the_first_copy() {
    let p = with_nops("(sy)(rpt1)(nop2) mul.f r0.x, (r)r1.x, r2.x\nend");
    let shape: Vec<_> = p
        .instructions
        .iter()
        .map(|op| (op.op, op.wait.sy))
        .collect();
    let expected = [
        (CoreOp::Mul, true),
        (CoreOp::Mul, false),
        (CoreOp::Nop, false),
        (CoreOp::Nop, false),
    ];
    assert_eq!(shape, expected);
    assert_eq!(p.origin, [0, 1, 1, 1]);
    assert_eq!((p.stats.figures.nops, p.stats.figures.instructions), (2, 2));
}

/// A program with one instruction of every class, nops and padding after its `end`.
const MIXED: &str = "@localsize 1, 1, 1\n\
    :0:0000:0000[00000000x_00000000x] (rpt1)nop\n\
    mov.u32u32 r0.x, 4\n\
    (nop2) add.f r0.y, r0.x, c2.z\n\
    (rpt1)mov.f16f16 hr2.x, (r)hr1.x\n\
    rcp r1.x, r0.y\n\
    sam (f32)(xyzw)r4.x, r0.x, s#0, t#0\n\
    stg.u32 g[r0.z], r4.x, 4\n\
    bary.f r5.x, 1, r0.x\n\
    ldl.u32 r6.x, l[r0.w], 1\n\
    br p0.x, #l2\n\
    bar.g\n\
    end\n\
    nop\n\
    nop\n\
    (nop3) nop\n";

#[test]
fn statistics_count_after_expansion_up_to_the_last_end() {
    let s = program(MIXED).stats;
    let f = &s.figures;
    let classes = (f.alu, f.sfu, f.tex, f.mem, f.varying);
    assert_eq!((f.instructions, classes), (9, (4, 1, 1, 2, 1)));
    assert_eq!(
        (f.gpr_reads, f.half_reads, f.const_reads, f.imm_reads),
        (13, 2, 1, 2)
    );
    assert_eq!((f.nops, f.flow_dropped, s.micro_ops), (4, 3, 10));
    assert!(s.flags_ignored.is_empty());
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(
        (json["micro_ops"].as_u64(), json["isa"].as_str()),
        (Some(10), Some("ir3"))
    );
    assert_eq!(
        json["gpr_reads"], 13,
        "the figures sit beside the micro-ops"
    );
}

#[test]
fn kept_nops_become_nop_micro_ops_in_place() {
    let p = with_nops(MIXED);
    assert_eq!(p.stats.micro_ops, 14);
    assert_eq!(p.instructions.len(), 14);
    assert_eq!(p.origin, [0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 8, 8, 9, 10]);
    let nops: Vec<usize> = (0..14)
        .filter(|&i| p.instructions[i].op == CoreOp::Nop)
        .collect();
    assert_eq!(nops, [0, 1, 4, 5]);
    let nop = &p.instructions[0];
    assert_eq!((nop.writes, nop.src.len(), nop.unit), (0, 0, CoreUnit::Alu));
    let without = program(MIXED);
    let kept: Vec<_> = p
        .instructions
        .into_iter()
        .filter(|op| op.op != CoreOp::Nop)
        .collect();
    assert_eq!(kept, without.instructions);
}

#[test]
fn waits_of_dropped_instructions_pass_to_the_next_micro_op() {
    let text = "(ss)nop\n(sy)br p0.x, #l3\nadd.u r0.x, r0.y, r0.z\nadd.u r0.x, r0.y, r0.z";
    let ops = micro(text);
    assert_eq!(ops[0].wait, Wait { ss: true, sy: true });
    assert_eq!(ops[1].wait, Wait::default());
    let ops = with_nops(text).instructions;
    assert_eq!(
        (ops[0].op, ops[0].wait),
        (
            CoreOp::Nop,
            Wait {
                ss: true,
                sy: false
            }
        )
    );
    assert_eq!(
        (ops[1].op, ops[1].wait),
        (
            CoreOp::Add,
            Wait {
                ss: false,
                sy: true
            }
        )
    );
}

#[test]
fn reading_stops_after_the_last_end_or_runs_to_the_last_line() {
    let text = "mov.u32u32 r0.x, r3.y\nend\nmov.u32u32 r0.z, r0.y\nend\nno match: 0123\nnop";
    let p = program(text);
    assert_eq!(
        (
            p.stats.figures.instructions,
            p.stats.figures.flow_dropped,
            p.stats.figures.nops
        ),
        (2, 2, 0)
    );
    assert_eq!(p.source.lines[4].instructions, 4..4);
    let p = program("mov.u32u32 r0.x, r3.y\nnop\n(rpt1)nop");
    assert_eq!((p.stats.figures.instructions, p.stats.figures.nops), (1, 3));
    let p = program("");
    assert_eq!((p.instructions.len(), p.stats), (0, Default::default()));
}

#[test]
fn origins_count_every_instruction_copy() {
    let p = program("nop\n(rpt2)add.f r0.x, r1.x, r1.y\nbr p0.x, #l0\nmul.f r2.x, r1.x, r1.y");
    assert_eq!(p.origin, [1, 2, 3, 5]);
    let lines: Vec<_> = p
        .source
        .lines
        .iter()
        .map(|l| l.instructions.clone())
        .collect();
    assert_eq!(lines, [0..1, 1..4, 4..5, 5..6]);
}
