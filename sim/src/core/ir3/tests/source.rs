//! Keeping the text: the register tokens, their roles, and reprinting with renames.

use super::*;
use crate::core::ir3::RegisterUse;

/// A text with every kind of line and register token.
const TEXT: &str = "\u{feff}@localsize 1, 1, 1\r\n\
    ; comment r9.x\r\n\
    :1:0000:0000[00000000x_00000000x] (sy)(rpt1)mov.f32f32 r0.x, (r)r1.w\r\n\
    0001[00000000x_00000000x] add.f hr2.y, (neg)hr3.w, c1.x\n\
    lbl:\n\
    stg.a.u32 g[r4.x+(r5.z<<2)], r6.y, 2 // stores\n\
    \tsam.s2en (f32)(xz)r8.x, r1.y+4, hr9.x\n\
    alias.tex.b32.0 r10.y, c1.w\n\
    br p0.x, #lbl\n\
    end\n\
    nop\n\
    mov.f32f32 r11.x, r12.x\n";

#[test]
fn the_identity_rename_gives_the_text_back() {
    let p = program(TEXT);
    assert_eq!(p.source.text, TEXT);
    assert_eq!(p.source.text_with(|u| u.index), TEXT);
    let short = program("mov.f32f32 r1.x, r2.x");
    assert_eq!(short.source.text_with(|u| u.index), "mov.f32f32 r1.x, r2.x");
}

#[test]
fn renaming_keeps_the_form_and_everything_else() {
    let p = program(TEXT);
    let renamed = p.source.text_with(|u| u.index + 4);
    let expected = TEXT
        .replace("r0.x, (r)r1.w", "r1.x, (r)r2.w")
        .replace("hr2.y, (neg)hr3.w", "hr3.y, (neg)hr4.w")
        .replace("g[r4.x+(r5.z<<2)], r6.y", "g[r5.x+(r6.z<<2)], r7.y")
        .replace("r8.x, r1.y+4, hr9.x", "r9.x, r2.y+4, hr10.x")
        .replace("r10.y, c1.w", "r11.y, c1.w");
    assert_eq!(renamed, expected);
}

#[test]
fn register_uses_say_where_each_token_is() {
    let p = program(TEXT);
    let mut uses = Vec::new();
    p.source.text_with(|u| {
        uses.push(u);
        u.index
    });
    let use_of = |instruction, operand, index, half, destination| RegisterUse {
        instruction,
        operand,
        component: 0,
        index,
        half,
        destination,
    };
    let expected = [
        use_of(0, 0, r(0, 0), false, true),
        use_of(0, 1, r(1, 3), false, false),
        use_of(2, 0, 4 * 2 + 1, true, true),
        use_of(2, 1, 4 * 3 + 3, true, false),
        use_of(3, 0, r(4, 0), false, false),
        use_of(3, 0, r(5, 2), false, false),
        use_of(3, 1, r(6, 1), false, false),
        use_of(4, 0, r(8, 0), false, true),
        use_of(4, 1, r(1, 1), false, false),
        use_of(4, 2, 4 * 9, true, false),
        use_of(5, 0, r(10, 1), false, true),
    ];
    assert_eq!(uses, expected);
    let tokens = &p.source.registers;
    assert_eq!((tokens[0].copies, tokens[0].repeat), (2, false));
    assert_eq!((tokens[1].copies, tokens[1].repeat), (2, true));
    assert_eq!(&TEXT[tokens[8].span.clone()], "r1.y");
}

#[test]
fn lines_keep_their_spans_and_instructions() {
    let p = program(TEXT);
    let lines = &p.source.lines;
    assert_eq!(lines.len(), 12);
    assert_eq!(&TEXT[lines[4].span.clone()], "lbl:");
    assert!(TEXT[lines[0].span.clone()].starts_with("@localsize"));
    let held: Vec<_> = lines.iter().map(|l| l.instructions.clone()).collect();
    let expected = [
        0..0,
        0..0,
        0..2,
        2..3,
        3..3,
        3..4,
        4..5,
        5..6,
        6..7,
        7..8,
        8..8,
        8..8,
    ];
    assert_eq!(held, expected);
    assert_eq!(
        p.stats.figures.nops, 0,
        "nothing after the last end is read"
    );
}
