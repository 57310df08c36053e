//! The shaders a run can take by name: the document's example, a nested one, and random
//! shaders.

use std::fmt::Write;

use crate::rng::Rng;

/// The named shaders (`traffic` is the allocator alone under random traffic).
pub const NAMES: [&str; 4] = ["document", "nested", "random", "traffic"];

/// Lines that keep `k` registers live at once (r0, the result r1 and `k - 2` temporaries),
/// then fold them into r1: a branch that needs `k` registers after packing (`k >= 3`).
fn burst(k: usize, indent: &str) -> String {
    let mut text = String::new();
    for j in 2..k {
        let _ = writeln!(text, "{indent}add r{j}, r0, #{j}");
    }
    let _ = writeln!(text, "{indent}mul r1, r0, r2");
    for j in 3..k {
        let _ = writeln!(text, "{indent}add r1, r1, r{j}");
    }
    text
}

/// The document's example ([0047]-[0049]): uniform `mode` selects the complex branch (20
/// GPRs, `mode == 1`) or the simple one (4 GPRs).
pub fn document() -> String {
    format!(
        "uniform mode\npreamble:\n  ld r0, #0x40        ; the draw's constants\nmain:\n  \
         ld r0, wave\n  if mode == 1        ; the complex branch: 20 GPRs\n{}  else                \
         ; the simple branch: 4 GPRs\n{}  end\n  out r1\n",
        burst(20, "    "),
        burst(4, "    ")
    )
}

/// Two uniforms and a nested branch: `quality == 2` needs 12 GPRs, with `shadows == 1` 16;
/// otherwise 6.
pub fn nested() -> String {
    format!(
        "uniform quality\nuniform shadows\nmain:\n  ld r0, wave\n  if quality == 2\n{}    \
         if shadows == 1\n      ld r0, r1\n{}    end\n  else\n{}  end\n  out r1\n",
        burst(12, "    "),
        burst(16, "      "),
        burst(6, "    ")
    )
}

/// A random shader: one or two uniforms, 10-40 instructions over r0..r15 with branches nested
/// up to two deep; every read follows a write on every path; outputs at the end.
pub fn random(rng: &mut Rng) -> String {
    let uniforms = 1 + rng.below(2);
    let mut text = String::new();
    for u in 0..uniforms {
        let _ = writeln!(text, "uniform u{u}");
    }
    text.push_str("main:\n  ld r0, wave\n");
    let mut defined = vec![0];
    let mut budget = 10 + rng.below(31);
    block(rng, &mut text, &mut defined, &mut budget, uniforms, 1);
    for _ in 0..1 + rng.below(3) {
        let _ = writeln!(text, "  out r{}", defined[rng.below(defined.len())]);
    }
    text
}

/// Random statements into `text` at nesting `depth`, reading only `defined` registers and
/// adding those every path through the block writes.
fn block(
    rng: &mut Rng,
    text: &mut String,
    defined: &mut Vec<usize>,
    budget: &mut usize,
    uniforms: usize,
    depth: usize,
) {
    let indent = "  ".repeat(depth);
    let ops = ["mov", "add", "sub", "mul", "and", "or", "xor", "ld"];
    while *budget > 0 && !rng.chance(1, 12) {
        *budget -= 1;
        if depth < 3 && rng.chance(1, 5) {
            let _ = writeln!(
                text,
                "{indent}if u{} == {}",
                rng.below(uniforms),
                rng.below(3)
            );
            let mut then = defined.clone();
            block(rng, text, &mut then, budget, uniforms, depth + 1);
            let _ = writeln!(text, "{indent}else");
            let mut other = defined.clone();
            block(rng, text, &mut other, budget, uniforms, depth + 1);
            let _ = writeln!(text, "{indent}end");
            defined.extend(
                then.iter()
                    .filter(|r| other.contains(r) && !defined.contains(r))
                    .collect::<Vec<_>>(),
            );
            continue;
        }
        let op = ops[rng.below(ops.len())];
        let dst = rng.below(16);
        let src = |rng: &mut Rng| match rng.below(6) {
            0 => format!("#{}", rng.below(1000)),
            1 => "wave".to_string(),
            _ => format!("r{}", defined[rng.below(defined.len())]),
        };
        let line = match op {
            "mov" | "ld" => format!("{op} r{dst}, {}", src(rng)),
            _ => format!("{op} r{dst}, {}, {}", src(rng), src(rng)),
        };
        let _ = writeln!(text, "{indent}{line}");
        if !defined.contains(&dst) {
            defined.push(dst);
        }
    }
}

/// The text of the named shader (`random` drawn from `rng`), if it has one.
pub fn shader_text(name: &str, rng: &mut Rng) -> Option<String> {
    match name {
        "document" => Some(document()),
        "nested" => Some(nested()),
        "random" => Some(random(rng)),
        _ => None,
    }
}
