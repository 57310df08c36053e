//! The text accepted: prefixes, comments, flags, modifiers, atoms.

use std::f32::consts::{E, FRAC_1_PI, LN_2, LOG10_2, LOG2_10, LOG2_E, PI};

use super::*;
use crate::core::ir3::const_value;

#[test]
fn every_encoding_prefix_and_leading_whitespace_is_stripped() {
    let plain = micro("add.f r1.x, r2.y, c3.z");
    for prefixed in [
        ":2:0012:0019[1a2b3c4dx_5e6f7a8bx] add.f r1.x, r2.y, c3.z",
        "\t\t:2:0012:0019[1a2b3c4dx_5e6f7a8bx] add.f r1.x, r2.y, c3.z",
        "0012[1a2b3c4dx_5e6f7a8bx] add.f r1.x, r2.y, c3.z",
        "0012[                   ] add.f r1.x, r2.y, c3.z",
        " \t add.f r1.x, r2.y, c3.z",
    ] {
        assert_eq!(micro(prefixed), plain, "{prefixed}");
    }
}

#[test]
fn comments_directives_labels_and_blank_lines_hold_no_instruction() {
    let text = "; a whole-line comment\n\
                // another\n\
                @localsize 2, 1, 1\n\
                @buf 16  ; g[0]\n\
                \n\
                top_of_loop:\n\
                :1:0004:0006[00000000x_00000000x] l4:\n\
                mov.u32u32 r0.x, r3.y ; trailing\n\
                mov.u32u32 r0.z, r0.w // trailing\n\
                add.u r1.x, r0.x, r0.z\t; dontcare bits in add.u: 01\n\
                end\n";
    let p = program(text);
    assert_eq!(p.stats.figures.instructions, 3);
    assert_eq!(p.instructions.len(), 3);
    let held: Vec<_> = p
        .source
        .lines
        .iter()
        .map(|l| l.instructions.len())
        .collect();
    assert_eq!(held, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
}

#[test]
fn flags_come_in_any_order_glued_or_spaced() {
    for text in [
        "(sy)(ss)(rpt1)mov.f32f32 r0.x, r1.x",
        "(rpt1)(ss) (sy) mov.f32f32 r0.x, r1.x",
        "(ss)(rpt1)(sy)mov.f32f32 r0.x, r1.x",
    ] {
        let ops = micro(text);
        assert_eq!(ops.len(), 2, "{text}");
        assert_eq!(ops[0].wait, Wait { ss: true, sy: true }, "{text}");
        assert_eq!(ops[1].wait, Wait::default(), "{text}");
    }
    let p =
        with_nops("nop(sy)\n(sat)(nop3) add.s r0.y, r0.y, r1.x\n(nop1)(ss)mul.f r0.x, r0.y, r0.z");
    let ops: Vec<_> = p.instructions.iter().map(|i| (i.op, i.wait)).collect();
    let none = Wait::default();
    let sy = Wait {
        ss: false,
        sy: true,
    };
    let ss = Wait {
        ss: true,
        sy: false,
    };
    let nop = CoreOp::Nop;
    let expected = [
        (nop, sy),
        (CoreOp::Add, none),
        (nop, none),
        (nop, none),
        (nop, none),
    ];
    assert_eq!(ops[..5], expected);
    assert_eq!(ops[5..], [(CoreOp::Mul, ss), (nop, none)]);
    assert_eq!(p.stats.figures.nops, 5);
}

#[test]
fn ignored_flags_and_modifiers_are_counted_by_name() {
    let text = "(jp)(sat)add.f r0.x, (neg)r1.x, (abs)r1.y\n\
                (ul)mov.f32f32 r0.y, c<a0.x + 2>\n\
                (eq)nop\n\
                (jp)nop\n\
                mad.f32 r2.x, (absneg)r1.x, (last)r1.y, (neg)(r)r1.z\n\
                bary.f (ei)r3.x, 0, r0.x\n\
                (ei)bary.f r3.y, 1, r0.x\n\
                cov.f32f16 (even)hr8.x, r1.x\n\
                cov.f32u32 (pos_infinity)r9.x, r1.x\n\
                end\n";
    let counted: Vec<(String, u64)> = program(text).stats.flags_ignored.into_iter().collect();
    let expected = [
        ("(abs)", 1),
        ("(absneg)", 1),
        ("(ei)", 2),
        ("(eq)", 1),
        ("(even)", 1),
        ("(jp)", 2),
        ("(last)", 1),
        ("(neg)", 2),
        ("(pos_infinity)", 1),
        ("(sat)", 1),
        ("(ul)", 1),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    assert_eq!(counted, expected);
}

#[test]
fn registers_full_and_half() {
    let op = only("mov.u32u32 r2.z, r5.w");
    assert_eq!((op.dst, op.writes, regs(&op)), (r(2, 2), 1, vec![r(5, 3)]));
    let op = only("mov.f16f16 hr2.z, hr5.w");
    assert_eq!(
        (op.dst, op.writes, regs(&op)),
        (hr(2, 2), 1, vec![hr(5, 3)])
    );
    let p = program("add.f hr0.y, hr0.x, r0.x");
    assert_eq!(
        (p.stats.figures.gpr_reads, p.stats.figures.half_reads),
        (2, 1)
    );
    assert_eq!(regs(&p.instructions[0]), [0, 0]);
}

#[test]
fn constants_in_every_form_read_the_seeded_file() {
    for (operand, index) in [
        ("c3.y", 13),
        ("hc3.y", 6),
        ("c<a0.x + 9>", 9),
        ("hc<a0.x + 9>", 9),
        ("c<a0.x>", 0),
        ("c[17]", 17),
        ("c[a1.x+17]", 17),
        ("c[a0.x + 17]", 17),
        ("(neg)c2.w", 11),
    ] {
        let p = program(&format!("mov.f32f32 r0.x, {operand}"));
        let op = &p.instructions[0];
        assert_eq!(op.src, [Source::Imm(const_value(index))], "{operand}");
        assert_eq!(
            (p.stats.figures.const_reads, p.stats.figures.gpr_reads),
            (1, 0),
            "{operand}"
        );
    }
    assert_ne!(const_value(0), const_value(1));
}

#[test]
fn integer_and_float_immediates_carry_their_bits() {
    let cases = [
        ("77", 77),
        ("-5", (-5i32) as u32),
        ("0xdeadbeef", 0xdead_beef),
        ("(1.000000)", 1f32.to_bits()),
        ("(0.5)", 0.5f32.to_bits()),
        ("(-2.250000)", (-2.25f32).to_bits()),
        ("h(0.625000)", 0.625f32.to_bits()),
        ("h(-1)", (-1f32).to_bits()),
        ("(0x6)", 6),
        ("h(0x2)", 2),
        ("(pi)", PI.to_bits()),
        ("(e)", E.to_bits()),
        ("(1/pi)", FRAC_1_PI.to_bits()),
        ("(log2(e))", LOG2_E.to_bits()),
        ("(1/log2(e))", LN_2.to_bits()),
        ("(log2(10))", LOG2_10.to_bits()),
        ("(1/log2(10))", LOG10_2.to_bits()),
        ("h(pi)", PI.to_bits()),
        ("(nan)", f32::NAN.to_bits()),
        ("(inf)", f32::INFINITY.to_bits()),
        ("(neg)(pi)", PI.to_bits()),
    ];
    for (operand, bits) in cases {
        let p = program(&format!("add.f r1.w, r2.x, {operand}"));
        let op = &p.instructions[0];
        assert_eq!(
            op.src,
            [Source::Reg(r(2, 0)), Source::Imm(bits)],
            "{operand}"
        );
        assert_eq!(p.stats.figures.imm_reads, 1, "{operand}");
    }
}

#[test]
fn predicates_and_address_registers_are_values_but_no_reads() {
    for (operand, value) in [("p0.z", 1), ("!p0.z", 0), ("up0.y", 1), ("a0.x", 0)] {
        let p = program(&format!("movs.s16s16 hr9.x, hr2.w, {operand}"));
        let op = &p.instructions[0];
        assert_eq!(
            op.src,
            [Source::Reg(hr(2, 3)), Source::Imm(value)],
            "{operand}"
        );
        let s = &p.stats.figures;
        assert_eq!(
            (s.gpr_reads, s.const_reads, s.imm_reads),
            (1, 0, 0),
            "{operand}"
        );
    }
    let op = only("mova1 a1.x, 12");
    assert_eq!((op.writes, op.src.as_slice()), (0, &[Source::Imm(12)][..]));
}

#[test]
fn memory_operands_read_the_registers_they_name() {
    let p = program("ldg.a.f32 r5.y, g[r2.z+(r3.x+1)<<2], 1");
    assert_eq!(regs(&p.instructions[0]), [r(2, 2), r(3, 0)]);
    assert_eq!(
        (p.stats.figures.gpr_reads, p.stats.figures.imm_reads),
        (2, 0)
    );
    let op = only("stl.u32 l[r6.w+12], r7.x, 1");
    assert_eq!(regs(&op), [r(6, 3), r(7, 0)]);
    let op = only("ldp.u32 r1.x, p[r9.y-8], 1");
    assert_eq!(regs(&op), [r(9, 1)]);
    let op = only("stg.a.u32 g[r1.x+((r2.y+3)<<2)], r4.x, 1");
    assert_eq!(regs(&op), [r(1, 0), r(2, 1), r(4, 0)]);
    let op = only("stp.u32 p[r0.x + 0], r1.x, 1");
    assert_eq!(regs(&op), [r(0, 0), r(1, 0)]);
    let p = program("ldg.a.f16 hr2.x, g[c4.y+r5.z+16], 1");
    let op = &p.instructions[0];
    assert_eq!(op.src, [Source::Imm(const_value(17)), Source::Reg(r(5, 2))]);
    assert_eq!(
        (p.stats.figures.const_reads, p.stats.figures.gpr_reads),
        (1, 1)
    );
    let op = only("ray_intersection r7.z, [r3.w], r5.x");
    assert_eq!(regs(&op), [r(3, 3), r(5, 0)]);
}

#[test]
fn operands_without_spaces_and_commas_inside_brackets() {
    assert_eq!(
        micro("ldg.f32 r2.y,g[r3.z], 2"),
        micro("ldg.f32 r2.y, g[r3.z], 2")
    );
    assert_eq!(
        micro("stp.f32 p[r1.w-4],r2.y, 1"),
        micro("stp.f32 p[r1.w-4], r2.y, 1")
    );
    let op = only("add.f r1.x, r2.x, (1/log2(e))");
    assert_eq!(op.src, [Source::Reg(r(2, 0)), Source::Imm(LN_2.to_bits())]);
    let op = only("add.f r1.x, c<a0.x + 3>, r2.x");
    assert_eq!(op.src.len(), 2);
}

#[test]
fn resources_targets_offsets_and_render_targets_are_no_values() {
    let op = only("sam (f32)(xyzw)r4.x, r1.x, s#3, t#5");
    assert_eq!(regs(&op), [r(1, 0), r(1, 1)]);
    assert_eq!(op.src.len(), 2);
    let op = only("isam.v (u32)(x)r2.x, r1.y+4, s#0, t#2");
    assert_eq!(op.src, sources(&[r(1, 1)]));
    let p = program("br p0.x, #l40\njump #-12\nbr !p0.y, #done\nshps #l_after\ndone:\nend");
    assert_eq!((p.stats.figures.flow_dropped, p.instructions.len()), (5, 0));
    let p = program("alias.rt.f32.0 rt1.z, (2.000000)\nalias.tex.b32.0 r2.y, c1.w");
    assert_eq!(
        (p.stats.figures.flow_dropped, p.stats.figures.const_reads),
        (2, 0)
    );
}
