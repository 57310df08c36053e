//! Units, core ops and what each kind of instruction writes and reads.

use super::*;

#[test]
fn each_opcode_family_runs_on_its_unit() {
    let cases = [
        ("mov.u32u32 r0.x, r3.y", CoreUnit::Alu),
        ("cov.f32s32 r0.x, r0.y", CoreUnit::Alu),
        ("cmps.s.lt r0.x, r0.y, 3", CoreUnit::Alu),
        ("sel.b32 r0.x, r0.y, r1.x, r1.y", CoreUnit::Alu),
        ("getwid.u32 r0.x", CoreUnit::Alu),
        ("rcp r0.x, r0.y", CoreUnit::Sfu),
        ("exp2 r0.x, r0.y", CoreUnit::Sfu),
        ("bary.f r0.x, 2, r1.x", CoreUnit::Varying),
        ("flat.b r0.x, 2, r1.x", CoreUnit::Varying),
        ("ldlv.u32 r0.x, l[2], 1", CoreUnit::Varying),
        ("sam (f32)(x)r0.x, r1.x, s#0, t#0", CoreUnit::Tex),
        ("getinfo (u16)(x)hr0.x, t#1", CoreUnit::Tex),
        ("brcst.active.w8 (u32)(x)r3.x, r2.z", CoreUnit::Tex),
        ("quad_shuffle.diag (u32)(x)r2.x, r1.x", CoreUnit::Tex),
        ("ldl.u32 r0.x, l[r1.x], 1", CoreUnit::LocalMem),
        ("stlw.u32 l[r1.x], r0.x, 1", CoreUnit::LocalMem),
        (
            "atomic.add.untyped.1d.u32.1.l r0.w, l[r0.z], r0.w",
            CoreUnit::LocalMem,
        ),
        (
            "atomic.b.add.untyped.1d.u32.1.imm r0.x, r1.y, 0",
            CoreUnit::GlobalMem,
        ),
        ("ldg.u32 r0.x, g[r1.x], 1", CoreUnit::GlobalMem),
        ("ldp.u32 r0.x, p[r1.x], 1", CoreUnit::GlobalMem),
        ("stc.u32 c[8], r0.x, 1", CoreUnit::GlobalMem),
        ("ldc.offset0.1.imm r0.x, r1.x, 0", CoreUnit::GlobalMem),
        ("resinfo.u32.2d r0.x, g[1]", CoreUnit::GlobalMem),
        ("shfl.xor.u32 r1.y, r2.x, 3", CoreUnit::GlobalMem),
    ];
    for (text, unit) in cases {
        assert_eq!(only(text).unit, unit, "{text}");
    }
}

#[test]
fn flow_barriers_and_nops_are_dropped_and_counted() {
    let text = "nop\n(rpt2)nop\nbr p0.x, #l9\nkill p0.x\npredt\ngetone #l9\n(sy)bar.g\n\
                fence.r.w\n(sy)(ss)(jp)lock\nalias.tex.b32.0 r2.y, c1.w\nsleep.l\nccinv\nend";
    let p = program(text);
    assert!(p.instructions.is_empty());
    let s = &p.stats.figures;
    assert_eq!((s.nops, s.flow_dropped, s.instructions), (4, 11, 0));
}

#[test]
fn the_core_op_follows_the_operand_count_and_the_family() {
    let cases = [
        ("mov.u32u32 r0.x, r3.y", CoreOp::Mov),
        ("absneg.f r0.x, r0.y", CoreOp::Mov),
        ("getspid.u32 r0.x", CoreOp::Mov),
        ("add.f r0.x, r0.y, r0.z", CoreOp::Add),
        ("max.f r0.x, r0.y, c1.x", CoreOp::Add),
        ("shl.b r0.x, r0.y, 2", CoreOp::Add),
        ("sub.u r0.x, r0.y, r0.z", CoreOp::Sub),
        ("sub.s r0.x, r0.y, 1", CoreOp::Sub),
        ("mul.f r0.x, r0.y, r0.z", CoreOp::Mul),
        ("mul.u24 r0.x, r0.y, r0.z", CoreOp::Mul),
        ("mull.u r0.x, r0.y, r0.z", CoreOp::Mul),
        ("mad.f32 r0.x, r0.y, r0.z, r0.w", CoreOp::Mad),
        ("madsh.m16 r0.x, r0.y, c2.z, r0.w", CoreOp::Mad),
        ("sel.b32 r0.x, r0.y, p0.x, r0.w", CoreOp::Mad),
    ];
    for (text, op) in cases {
        assert_eq!(only(text).op, op, "{text}");
    }
    assert_eq!(only("getspid.u32 r0.x").src, [Source::Imm(0)]);
}

#[test]
fn non_gpr_destinations_and_the_sentinel_write_nothing() {
    for text in [
        "cmps.f.lt p0.x, r1.x, r2.x",
        "cmps.u.lt up0.y, r1.x, r2.x",
        "mova a0.x, hr1.x",
        "ldg.k.u32 c[16], g[r1.x+8], 1",
        "ldc.1.k.imm.base0 c[a1.x], 0, 0",
        "bary.f r63.x, 2, r0.x",
        "bary.f (ei)hr63.x, 2, r0.x",
        "(rpt1)mov.f32f32 r63.x, (r)r1.x",
    ] {
        let p = program(text);
        assert!(p.instructions.iter().all(|op| op.writes == 0), "{text}");
        assert!(!p.instructions.is_empty(), "{text}");
    }
    let p = read("add.f r0.x, r63.x, r0.y", 256, &Ir3Options::default()).unwrap();
    assert_eq!(regs(&p.instructions[0]), [r(63, 0), r(0, 1)]);
}

#[test]
fn more_than_three_operands_split_into_micro_ops() {
    let ops = micro("(ss)gat.f16u32 r1.y, hr4.x, hr4.y, hr4.z, hr4.w");
    assert_eq!(ops.len(), 2);
    assert_eq!(
        (ops[0].op, ops[0].writes, regs(&ops[0])),
        (CoreOp::Mad, 0, vec![8, 8, 9])
    );
    assert_eq!((ops[1].op, ops[1].writes), (CoreOp::Mov, 1));
    assert_eq!((ops[1].dst, regs(&ops[1])), (r(1, 1), vec![9]));
    assert_eq!(
        ops[0].wait,
        Wait {
            ss: true,
            sy: false
        }
    );
    assert_eq!(ops[1].wait, Wait::default());
    assert!(ops.iter().all(|op| op.unit == CoreUnit::Alu));
    let ops = micro("samgq (f32)(x)r4.x, r1.z, r5.x, s#0, t#0");
    let shape: Vec<_> = ops
        .iter()
        .map(|op| (op.op, op.src.len(), op.writes))
        .collect();
    assert_eq!(shape, [(CoreOp::Mad, 3, 0), (CoreOp::Mad, 3, 1)]);
    let ops = micro("samgq.a (f32)(xy)r4.x, r1.z, r5.x, s#0, t#0");
    let shape: Vec<_> = ops
        .iter()
        .map(|op| (op.op, op.src.len(), op.writes))
        .collect();
    assert_eq!(
        shape,
        [
            (CoreOp::Mad, 3, 0),
            (CoreOp::Mad, 3, 0),
            (CoreOp::Mov, 1, 2)
        ]
    );
    assert!(ops.iter().all(|op| op.unit == CoreUnit::Tex));
    let p = program("samgq.a (f32)(xy)r4.x, r1.z, r5.x, s#0, t#0");
    assert_eq!(p.origin, [0, 0, 0]);
}

#[test]
fn loads_write_their_count_and_stores_read_theirs() {
    let op = only("ldg.u32 r1.y, g[r2.x+4], 3");
    assert_eq!((op.dst, op.writes, regs(&op)), (r(1, 1), 3, vec![r(2, 0)]));
    let op = only("ldl.u16 hr0.y, l[r1.x], 4");
    assert_eq!((op.dst, op.writes), (0, 3));
    let op = only("ldlv.u32 r2.x, l[3], 2");
    assert_eq!(
        (op.dst, op.writes, op.src.as_slice()),
        (8, 2, &[Source::Imm(0)][..])
    );
    let op = only("ldib.b.untyped.1d.u32.3.imm r5.y, r2.w, 1");
    assert_eq!((op.dst, op.writes), (r(5, 1), 3));
    assert_eq!(op.src, [Source::Reg(r(2, 3)), Source::Imm(1)]);
    let op = only("ldc.u.offset1.2.imm r7.x, r1.x, 3");
    assert_eq!((op.dst, op.writes), (r(7, 0), 2));
    assert_eq!(only("resinfo.u32.3d r1.x, g[2]").writes, 3);
    assert_eq!(only("resinfo.b.untyped.2d.u32.1.imm r1.x, 0").writes, 1);
    assert_eq!(
        only("ldgb.untyped.4d.f32.4 r2.x, g[0], r1.x, r1.z").writes,
        4
    );

    let p = program("stg.u32 g[r1.x+8], r2.y, 3");
    let reads: Vec<usize> = p.instructions.iter().flat_map(|op| op.reads()).collect();
    assert_eq!(reads, [r(1, 0), r(2, 1), r(2, 2), r(2, 3)]);
    assert!(p.instructions.iter().all(|op| op.writes == 0));
    assert_eq!(
        (p.stats.figures.gpr_reads, p.stats.figures.imm_reads),
        (4, 0)
    );
    let p = program("stc.u32 c[a1.x+8], r3.z, 2");
    assert_eq!(regs(&p.instructions[0]), [r(3, 2), r(3, 3)]);
    assert_eq!(p.stats.figures.const_reads, 0);
    let p = program("stsc.f32 c[40], 12, 4");
    assert_eq!(p.instructions[0].src, [Source::Imm(12)]);
    assert_eq!(
        (p.stats.figures.imm_reads, p.stats.figures.const_reads),
        (1, 0)
    );
    let p = program("stib.b.untyped.1d.u32.2.imm r6.z, r1.w, 2");
    let reads: Vec<usize> = p.instructions.iter().flat_map(|op| op.reads()).collect();
    assert_eq!(reads, [r(6, 2), r(6, 3), r(1, 3)]);
    let op = only("stgb.untyped.4d.u32.1 g[0], r0.x, r0.y, r0.w");
    assert_eq!(regs(&op), [r(0, 0), r(0, 1), r(0, 3)]);
    assert_eq!(regs(&only("stg.u32 g[r1.x], r2.y, 0")), [r(1, 0)]);
    let p = program("stg.u16 g[r1.x], hr2.y, 3");
    assert_eq!(
        (p.stats.figures.gpr_reads, p.stats.figures.half_reads),
        (4, 3)
    );
    let reads: Vec<usize> = p.instructions.iter().flat_map(|op| op.reads()).collect();
    assert_eq!(reads, [r(1, 0), hr(2, 1), hr(2, 2), hr(2, 3)]);
}

#[test]
fn texture_write_masks_span_lowest_to_highest() {
    for (mask, dst, writes) in [
        ("(xyzw)r4.x", r(4, 0), 4),
        ("(xz)r4.x", r(4, 0), 3),
        ("(yz)r4.x", r(4, 1), 2),
        ("(w)r4.x", r(4, 3), 1),
        ("(xyzw)hr2.x", hr(2, 0), 2),
        ("(yzw)hr2.y", hr(2, 2), 2),
        ("r4.x", r(4, 0), 1),
    ] {
        let op = only(&format!("sam (f32){mask}, r1.x, s#0, t#0"));
        assert_eq!((op.dst, op.writes), (dst, writes), "{mask}");
    }
    assert_eq!(only("dsx (x)r2.x, r1.x").writes, 1);
    assert_eq!(only("dsx r2.x, r1.x").writes, 1);
    assert_eq!(only("rgetinfo (u16)(xyzw)hr0.x").writes, 2);
}

#[test]
fn texture_coordinates_by_mode() {
    for (mnemonic, extra, reads) in [
        ("sam", "", vec![6, 7]),
        ("sam.3d", "", vec![6, 7, 8]),
        ("sam.a", "", vec![6, 7, 8]),
        ("sam.1d", "", vec![6]),
        ("isam.v", "", vec![6]),
        ("getlod", "", vec![6, 7]),
        ("gather4r.p", "", vec![6, 7, 8]),
        ("sam.3d.a.p", "", vec![6, 7, 8, 9, 10]),
        ("samb", "r3.x, ", vec![6, 7, 12]),
        ("saml.a", "r3.x, ", vec![6, 7, 8, 12]),
        ("samgq.1d", "r3.x, ", vec![6, 12, 13]),
        ("samgp2.3d", "r3.x, ", vec![6, 7, 8, 12, 13, 14, 15, 16, 17]),
        ("getsize", "", vec![6]),
        ("dsy", "", vec![6]),
        ("sam.s2en", "hr3.x, ", vec![6, 7, 6]),
        ("isaml.s2en.base0", "r2.y, r3.z, ", vec![6, 7, 9, 14]),
    ] {
        let text = format!("{mnemonic} (f32)(x)r8.x, r1.z, {extra}s#0, t#0");
        let p = program(&text);
        let read: Vec<usize> = p.instructions.iter().flat_map(|op| op.reads()).collect();
        assert_eq!(read, reads, "{text}");
        assert_eq!(p.stats.figures.gpr_reads as usize, reads.len(), "{text}");
    }
}
