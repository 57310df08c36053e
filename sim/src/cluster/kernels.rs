//! The programs a clustered run can take by name: the document's figures, three generated
//! kernels with values that cross clusters, and random programs.

use std::fmt::Write;

use super::program::{parse, ClusterInstr, ClusterOp, Operand, Reg};
use crate::rng::Rng;

/// The programs by name, in the order the command line lists them. `random` draws a new
/// program from the seed.
pub const NAMES: [&str; 6] = [
    "fig11",
    "fig13",
    "broadcast",
    "reduce",
    "pipeline",
    "random",
];

/// Rounds of the generated kernels.
const ROUNDS: usize = 4;

/// `broadcast`: cluster 1 computes a value that every cluster then adds into its own
/// accumulator, round after round; each accumulator starts as an input and is an output.
fn broadcast(clusters: usize) -> String {
    let mut text = String::from("c1: mul v0, v1, #3\n");
    for _ in 0..ROUNDS {
        for c in 1..=clusters {
            let _ = writeln!(text, "c{c}: add v{a}, v{a}, v0", a = 10 + c);
        }
    }
    for c in 1..=clusters {
        let _ = writeln!(text, "c{c}: out v{}", 10 + c);
    }
    text
}

/// `reduce`: every cluster computes a partial result from its own inputs over a few rounds;
/// cluster 1 then sums the partials.
fn reduce(clusters: usize) -> String {
    let mut text = String::new();
    for c in 1..=clusters {
        let _ = writeln!(
            text,
            "c{c}: mul v{p}, v{x}, v{y}",
            p = 10 + c,
            x = 20 + c,
            y = 30 + c
        );
        for r in 0..ROUNDS {
            let _ = writeln!(text, "c{c}: add v{p}, v{p}, #{}", r + c, p = 10 + c);
            let _ = writeln!(text, "c{c}: xor v{p}, v{p}, v{x}", p = 10 + c, x = 20 + c);
        }
    }
    text.push_str("c1: mov v0, v11\n");
    for c in 2..=clusters {
        let _ = writeln!(text, "c1: add v0, v0, v{}", 10 + c);
    }
    text.push_str("c1: out v0\n");
    text
}

/// `pipeline`: one value passes from cluster to cluster, each stage transforming it with a
/// constant of its own; the value is an output after every round.
fn pipeline(clusters: usize) -> String {
    let mut text = String::from("c1: add v0, v1, #1\n");
    for c in 1..=clusters {
        let _ = writeln!(text, "c{c}: mov v{}, #{}", 10 + c, 0x100 * c + 7);
    }
    for _ in 0..ROUNDS {
        for c in 1..=clusters {
            let _ = writeln!(text, "c{c}: mul v0, v0, v{}", 10 + c);
            let _ = writeln!(text, "c{c}: add v0, v0, #{c}");
        }
        let _ = writeln!(text, "c{clusters}: out v0");
    }
    text
}

/// A random program of `count` instructions over `clusters` clusters and virtual registers
/// `v0..v<registers>`: ops, clusters and registers uniform, one source in six an immediate.
pub fn random_program(
    clusters: usize,
    count: usize,
    registers: usize,
    rng: &mut Rng,
) -> Vec<ClusterInstr> {
    let ops = [
        ClusterOp::Mov,
        ClusterOp::Add,
        ClusterOp::Sub,
        ClusterOp::Mul,
        ClusterOp::And,
        ClusterOp::Or,
        ClusterOp::Xor,
        ClusterOp::Out,
    ];
    (0..count)
        .map(|_| {
            let op = ops[rng.below(ops.len())];
            let mut source = || match rng.chance(1, 6) {
                true => Operand::Imm(rng.next_u64() as u32),
                false => Operand::Reg(Reg::Virtual(rng.below(registers))),
            };
            let src = (0..op.sources()).map(|_| source()).collect();
            ClusterInstr {
                cluster: 1 + rng.below(clusters),
                op,
                dst: op.writes().then(|| Reg::Virtual(rng.below(registers))),
                src,
            }
        })
        .collect()
}

/// Shortest and longest random programs, in instructions.
pub const RANDOM_LENGTH: (usize, usize) = (20, 200);

/// The random program of a run: 20 to 200 instructions over twice as many virtual registers
/// as a local file holds (plus two), so that the local files spill.
pub fn random(clusters: usize, local_regs: usize, rng: &mut Rng) -> Vec<ClusterInstr> {
    let (low, high) = RANDOM_LENGTH;
    let count = low + rng.below(high - low + 1);
    random_program(clusters, count, 2 * local_regs + 2, rng)
}

/// The text of the named program for `clusters` clusters, if it has a fixed text (every name
/// but `random`). The figures need three clusters.
pub fn program_text(name: &str, clusters: usize) -> Option<String> {
    match name {
        "fig11" => Some(FIG11.to_string()),
        "fig13" => Some(FIG13.to_string()),
        "broadcast" => Some(broadcast(clusters)),
        "reduce" => Some(reduce(clusters)),
        "pipeline" => Some(pipeline(clusters)),
        _ => None,
    }
}

/// The named program for `clusters` clusters (`random` drawn from `rng`, with local files of
/// `local_regs`), or why there is none.
pub fn named(
    name: &str,
    clusters: usize,
    local_regs: usize,
    rng: &mut Rng,
) -> Result<Vec<ClusterInstr>, String> {
    if name == "random" {
        return Ok(random(clusters, local_regs, rng));
    }
    let text = program_text(name, clusters).ok_or_else(|| {
        format!(
            "invalid value {name} for --example: allowed {}",
            NAMES.join(", ")
        )
    })?;
    parse(&text, clusters).map_err(|e| {
        format!("invalid value {name} for --example: {e} (it needs 3 clusters: --clusters 3)")
    })
}

/// The document's Fig. 11: C2 writes VR1 and later reads it, C1 reads it three times, C3 once;
/// C1 owns the range (3 of 6 accesses).
pub const FIG11: &str = "\
c2: mov v1, #7   ; 1108: W VR1
c1: out v1       ; 1106: R VR1 (C1 reads three times)
c1: out v1
c1: out v1
c3: out v1       ; 1112: R VR1
c2: out v1       ; 1110: R VR1, the range's last read
";

/// The document's Fig. 13: two live ranges of VR1, both owned by C2. Range 1: C2 writes, C1,
/// C3 and C2 read. Range 2: C3 writes, C2 reads twice, C1 reads.
pub const FIG13: &str = "\
c2: mov v1, #3   ; 1310: W VR1 (range 1)
c1: out v1       ; 1306: R
c3: out v1       ; 1316: R
c2: out v1       ; 1312: R
c3: mov v1, #4   ; 1318: W VR1 (range 2)
c2: out v1       ; 1314: R
c2: out v1       ;       R (C2's second read)
c1: out v1       ; 1308: R
";

/// The built-in examples, by name.
pub const EXAMPLES: [(&str, &str); 2] = [("fig11", FIG11), ("fig13", FIG13)];
