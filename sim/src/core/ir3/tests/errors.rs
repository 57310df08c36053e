//! Errors, with their line and column; and no panic on any input.

use super::*;
use crate::rng::Rng;

/// The error's line, column and message.
fn at(text: &str) -> (usize, usize, String) {
    let e = failure(text);
    (e.line, e.column, e.message)
}

#[test]
fn unknown_opcodes_and_undecoded_lines() {
    let (line, column, message) = at("mov.u32u32 r0.x, r3.y\n  frob.f r0.x, r1.x");
    assert_eq!((line, column), (2, 3));
    assert_eq!(message, "unknown opcode `frob.f`");
    let (_, column, message) = at(":3:0001:0001[00000000x_00000000x] (sy)unknown(3,9) r0.x");
    assert_eq!(
        (column, message.as_str()),
        (39, "unknown opcode `unknown(3,9)`")
    );
    let (_, column, message) = at(":5:0002:0002[01234567x_89abcdefx] no match: 0123456789abcdef");
    assert_eq!(column, 35);
    assert!(message.starts_with("unknown opcode"), "{message}");
    let (_, column, message) = at("raw 0x0123456789ABCDEF");
    assert_eq!(column, 1);
    assert!(message.starts_with("unknown opcode"), "{message}");
    let (_, column, _) = at("(sy)(ss)");
    assert_eq!(column, 9);
}

#[test]
fn unknown_operand_forms_name_the_operand() {
    for (text, column, quoted) in [
        ("add.f r0.x, q7, r1.x", 13, "q7"),
        ("add.f r0.x, r1.q, r1.x", 13, "r1.q"),
        ("add.f r0.x, c5, r1.x", 13, "c5"),
        ("add.f r0.x, (1.2.3), r1.x", 13, "(1.2.3)"),
        ("add.f r0.x, r1.x+, r1.x", 13, "r1.x+"),
        ("add.f r0.x, r1.x, #", 19, "#"),
        ("ldg.u32 r0.x, g[r1.x*2], 1", 21, "*2"),
        ("ldg.u32 r0.x, g[r1.x, 1", 15, "g[r1.x, 1"),
        ("ldg.u32 r0.x, g[rr1.x], 1", 17, "rr1.x"),
        ("ldg.u32 r0.x, g[(r1.x], 1", 15, "g[(r1.x], 1"),
        ("ldg.u32 r0.x, 1, g[(r1.x]", 20, "(r1.x"),
        ("ldg.u32 r0.x, g[r1.x)], 1", 21, ")"),
    ] {
        let (_, at_column, message) = at(text);
        assert_eq!(at_column, column, "{text}: {message}");
        assert!(
            message.contains(&format!("`{quoted}`")),
            "{text}: {message}"
        );
    }
    let (_, column, message) = at("mov.u32u32 r0.x, 99999999999");
    assert_eq!(column, 18);
    assert!(message.contains("does not fit in 32 bits"), "{message}");
}

#[test]
fn malformed_flags_operand_lists_and_roles() {
    let cases = [
        (
            "(xx)add.f r0.x, r1.x, r2.x",
            1,
            "unknown instruction flag `(xx)`",
        ),
        ("(rpt8)nop", 1, "`(rpt8)` is above the ISA's most, 7"),
        ("(nop4) nop", 1, "`(nop4)` is above the ISA's most, 3"),
        ("(rpt1)(rpt2)nop", 7, "`(rpt2)` given twice"),
        ("nop(foo)", 4, "unknown instruction flag `(foo)`"),
        ("add.f r0.x, , r1.x", 12, "missing operand"),
        ("add.f r0.x, r1.x,", 18, "missing operand"),
        ("add.f$ r0.x", 6, "unexpected `$ r0.x` after the opcode"),
        ("ldg.u32 r0.x, g[r1.x]", 15, "expected a component count"),
        ("ldg.u32 r0.x", 1, "needs operands and a count"),
        (
            "ldg.u32 r0.x, g[r1.x], r2.x",
            24,
            "expected a component count",
        ),
        (
            "stg.u32 g[r1.x], r2.x, 256",
            24,
            "expected a component count",
        ),
        ("add.f (xy)r0.x, r1.x, r2.x", 7, "belongs before a texture"),
        (
            "sam (f32)(x)r0.x, (xy)r1.x, s#0, t#0",
            19,
            "belongs before a texture",
        ),
        ("add.f 5, r1.x, r2.x", 7, "`5` cannot be a destination"),
        ("add.f r0.x, rt0.x, r2.x", 13, "only a destination"),
        (
            "ldg.u32 r0.x, g[r1.x], 5",
            9,
            "writes 5 registers from r0.x",
        ),
        ("sam.a (f32)(xyzw)hr1.y, r1.x, s#0, t#0", 13, ""),
    ];
    for (text, column, part) in cases.iter().take(cases.len() - 1) {
        let (_, at_column, message) = at(text);
        assert_eq!(at_column, *column, "{text}: {message}");
        assert!(message.contains(part), "{text}: {message}");
    }
    // hr1.y..hr2.y covers three full registers: within the limit.
    assert_eq!(only(cases[cases.len() - 1].0).writes, 3);
}

#[test]
fn registers_above_the_file_name_the_first_one_past_it() {
    let (line, column, message) = at("nop\nmov.u32u32 r60.x, r1.x");
    assert_eq!((line, column), (2, 12));
    let expected = "register r60.x (index 240) is above the file: \
                    the program registers are r0.x..r59.w";
    assert_eq!(message, expected);
    let (_, column, message) = at("mov.f16f16 hr0.x, hr120.x");
    assert_eq!(column, 19);
    let expected = "register hr120.x (index 240) is above the file: \
                    the program registers are hr0.x..hr119.w";
    assert_eq!(message, expected);
    let (_, column, message) = at("(rpt3)mov.u32u32 r59.z, r0.x");
    assert_eq!(column, 18);
    assert!(
        message.starts_with("register r60.x (index 240)"),
        "{message}"
    );
    let (_, column, message) = at("(rpt3)add.u r0.x, (r)r59.z, 1");
    assert_eq!(column, 22);
    assert!(
        message.starts_with("register r60.x (index 240)"),
        "{message}"
    );
    let (_, _, message) = at("ldg.u32 r59.z, g[r1.x], 3");
    assert!(
        message.starts_with("register r60.x (index 240)"),
        "{message}"
    );
    let (_, _, message) = at("stg.u32 g[r1.x], r59.w, 2");
    assert!(
        message.starts_with("register r60.x (index 240)"),
        "{message}"
    );
    let (_, column, message) = at("mov.u32u32 r0.x, r63.x");
    assert_eq!(
        (column, message.starts_with("register r63.x (index 252)")),
        (18, true)
    );
    let e = read("mov.u32u32 r0.x, r2.z", 10, &Ir3Options::default()).unwrap_err();
    assert!(
        e.message.ends_with("the program registers are r0.x..r2.y"),
        "{e}"
    );
    let e = read("mov.u32u32 r0.x, r3.y", 0, &Ir3Options::default()).unwrap_err();
    assert!(
        e.message.ends_with("the file has no program registers"),
        "{e}"
    );
    let (_, _, message) = at("mov.u32u32 r0.x, r99999999999999999999999.x");
    assert!(message.contains("is above the file"), "{message}");
}

#[test]
fn relative_register_addressing_cannot_be_modelled() {
    for (text, column) in [
        ("mov.u32u32 r0.x, r<a0.x + 3>", 18),
        ("mov.s16s16 hr<a0.x>, hr1.y", 12),
        ("add.u r0.x, r0.y, (neg)hr<a0.x + 8>", 24),
        ("ldg.u32 r0.x, g[r1.x+r<a0.x>], 1", 22),
    ] {
        let (_, at_column, message) = at(text);
        assert_eq!(at_column, column, "{text}");
        assert!(
            message.starts_with("relative register addressing `"),
            "{message}"
        );
        assert!(message.ends_with("` cannot be modelled"), "{message}");
    }
}

#[test]
fn messages_quote_escaped_and_cut() {
    let long = format!("x{}", "y".repeat(80));
    let (_, _, message) = at(&format!("{long} r0.x"));
    assert_eq!(message, format!("unknown opcode `x{}...`", "y".repeat(39)));
    let (_, _, message) = at("add.f r0.x, q\u{1b}[31m, r1.x");
    assert!(message.contains("q\\u{1b}[31m"), "{message}");
}

#[test]
fn no_input_makes_the_reader_panic() {
    let mut rng = Rng::new(7);
    let alphabet: Vec<char> = "rhcpglat#.:;,[]()<>+-!01234xyzw_ \t\né\u{7}"
        .chars()
        .collect();
    let valid = "(sy)(rpt1)mad.f32 r1.x, (r)c2.y, hr3.z, (neg)r4.w\n\
                 sam.3d.a (f32)(xz)r2.x, r1.x, r2.y, s#0, t#1\n\
                 stg.a.u32 g[r1.x+(r2.y<<2)], r3.z, 2\n(nop2) bary.f r0.x, (r)2, r0.x\nend";
    for round in 0..3000 {
        let text: String = if round % 3 == 2 {
            let bytes: Vec<u8> = (0..rng.below(80)).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else if round % 3 == 0 {
            (0..rng.below(60))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        } else {
            let mut chars: Vec<char> = valid.chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len());
                chars[at] = alphabet[rng.below(alphabet.len())];
            }
            chars.into_iter().collect()
        };
        for registers in [0, 3, 240, usize::MAX] {
            if let Ok(p) = read(&text, registers, &Ir3Options { keep_nops: true }) {
                assert_eq!(p.source.text_with(|u| u.index), text);
                assert_eq!(p.instructions.len(), p.origin.len());
                assert!(p
                    .instructions
                    .iter()
                    .all(|op| op.src.len() == op.op.sources()));
            }
        }
    }
}
