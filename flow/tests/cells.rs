//! The cells of `hdl/src/cells/`, each emitted alone at a few sizes: linted with every
//! Verilator warning on, then co-simulated against a model written here from its documented
//! behaviour (exhaustively where the inputs are few). A failure names the cycle, the port, the
//! expected and the actual value, and the seed. Needs `verilator`.

use grfgen_flow::tools::lint;
use grfgen_hdl::cells::{Crossbar, Decoder, MuxTree, Registers};
use grfgen_hdl::emit::{part, waivers, EmitError, Emitted};
use grfgen_sim::rng::Rng;
use rust_hdl::prelude::Bits;

// Shared with `sim/tests/parts.rs`, which uses all of it; cells have no reset.
#[allow(dead_code)]
#[path = "../../sim/tests/common/part.rs"]
mod part;
use part::Part;

/// Lints `emitted` alone; panics with Verilator's findings.
fn lints_clean(emitted: &Emitted) {
    let dir = tempfile::tempdir().unwrap();
    let top = &emitted.top;
    std::fs::write(dir.path().join(format!("{top}.v")), &emitted.verilog).unwrap();
    std::fs::write(dir.path().join(format!("{top}.vlt")), waivers(top)).unwrap();
    let findings = lint(dir.path(), top).unwrap();
    assert!(findings.is_empty(), "{top}:\n  {}", findings.join("\n  "));
}

/// Emits a cell, lints it and loads it for co-simulation.
fn cell(emitted: Result<Emitted, EmitError>, seed: u64) -> Part {
    let emitted = emitted.expect("the cell emits");
    lints_clean(&emitted);
    Part::load(Ok(emitted), seed)
}

/// A crossbar's output copies the input its one-hot select names, else zero; grouped, each
/// group's outputs choose among that group's inputs only.
#[test]
fn the_crossbar_routes_one_hot_selects_within_each_group() {
    for (seed, groups, inputs, outputs, lanes) in
        [(16, 1, 4, 3, 4), (17, 2, 3, 2, 2), (18, 1, 1, 1, 1)]
    {
        let xbar = Crossbar::<32>::grouped(groups, inputs, outputs, lanes);
        let mut rtl = cell(part("crossbar", xbar), seed);
        let ins = rtl.inputs("inputs", groups * inputs * lanes);
        let select = rtl.inputs("select", groups * outputs * inputs);
        let outs = rtl.outputs("outputs", groups * outputs * lanes);
        let mut rng = Rng::new(seed);
        for _ in 0..2000 {
            let values: Vec<u64> = (0..ins.len())
                .map(|_| rng.next_u64() & 0xffff_ffff)
                .collect();
            for (i, &v) in values.iter().enumerate() {
                rtl.set(ins[i], v);
            }
            let sources: Vec<Option<usize>> = (0..groups * outputs)
                .map(|_| Some(rng.below(inputs)).filter(|_| rng.chance(3, 4)))
                .collect();
            for (o, source) in sources.iter().enumerate() {
                for i in 0..inputs {
                    rtl.set(select[o * inputs + i], (*source == Some(i)) as u64);
                }
            }
            rtl.settle();
            for (o, source) in sources.iter().enumerate() {
                let group = o / outputs;
                for l in 0..lanes {
                    let expected = source.map_or(0, |i| values[(group * inputs + i) * lanes + l]);
                    rtl.expect(
                        || format!("outputs[{o}][{l}] from {source:?} (group {group})"),
                        outs[o * lanes + l],
                        expected,
                    );
                }
            }
            rtl.cycle += 1;
        }
    }
}

/// A decoder's hit `c * locations + k` is high when address `c` is valid and is `k`; an
/// address past the last location hits nothing. Every pair of (valid, address) settings of two
/// decoders over 6 of 8 locations is tried.
#[test]
fn the_decoder_hits_the_one_location_each_valid_address_names() {
    let (count, locations) = (2, 6);
    let mut rtl = cell(part("decoder", Decoder::<3>::new(count, locations)), 19);
    let valid = rtl.inputs("valid", count);
    let address = rtl.inputs("address", count);
    let hit = rtl.outputs("hit", count * locations);
    let settings: Vec<(u64, u64)> = (0..2).flat_map(|v| (0..8).map(move |a| (v, a))).collect();
    for a in &settings {
        for b in &settings {
            for (c, &(v, addr)) in [a, b].into_iter().enumerate() {
                rtl.set(valid[c], v);
                rtl.set(address[c], addr);
            }
            rtl.settle();
            for (c, &(v, addr)) in [a, b].into_iter().enumerate() {
                for k in 0..locations {
                    let expected = (v == 1 && addr == k as u64) as u64;
                    rtl.expect(
                        || format!("hit[{c}][{k}]"),
                        hit[c * locations + k],
                        expected,
                    );
                }
            }
            rtl.cycle += 1;
        }
    }
}

/// A multiplexer tree's output `g` is entry `g * 2^bits + (index[g] mod 2^bits)`: the index's
/// bits above `bits` are not read. Every index of every multiplexer is tried against random
/// entries.
#[test]
fn the_mux_tree_picks_the_entry_its_index_names() {
    for (seed, groups, bits) in [(20, 3, 3), (21, 1, 1), (22, 2, 4)] {
        let mut rtl = cell(part("mux_tree", MuxTree::<16, 4>::new(groups, bits)), seed);
        let entries = rtl.inputs("entries", groups << bits);
        let index = rtl.inputs("index", groups);
        let value = rtl.outputs("value", groups);
        let mut rng = Rng::new(seed);
        for round in 0..8 {
            let values: Vec<u64> = (0..entries.len())
                .map(|_| rng.next_u64() & 0xffff)
                .collect();
            for (e, &v) in values.iter().enumerate() {
                rtl.set(entries[e], v);
            }
            for i in 0..16u64 {
                for (g, &input) in index.iter().enumerate() {
                    rtl.set(input, (i + g as u64 + round) % 16);
                }
                rtl.settle();
                for (g, &output) in value.iter().enumerate() {
                    let i = (i + g as u64 + round) % 16;
                    let expected = values[(g << bits) + (i % (1 << bits)) as usize];
                    rtl.expect(|| format!("value[{g}] at index {i}"), output, expected);
                }
                rtl.cycle += 1;
            }
        }
    }
}

/// Registers (plain, and the kept copies of one value) show on `q` what `d` held at the last
/// rising edge, from zero at power-up.
#[test]
fn registers_show_what_d_held_at_the_last_edge() {
    for (seed, registers) in [
        (23, Registers::<Bits<8>>::new(5)),
        (24, Registers::copies(3, true)),
    ] {
        let count = registers.d.len();
        let mut rtl = cell(part("registers", registers), seed);
        let (clock, d, q) = (
            rtl.input("clock"),
            rtl.inputs("d", count),
            rtl.outputs("q", count),
        );
        let mut rng = Rng::new(seed);
        let mut held = vec![0u64; count];
        for _ in 0..500 {
            let next: Vec<u64> = (0..count).map(|_| rng.next_u64() & 0xff).collect();
            for (k, &v) in next.iter().enumerate() {
                rtl.set(d[k], v);
            }
            rtl.settle();
            for (k, &output) in q.iter().enumerate() {
                rtl.expect(|| format!("q[{k}] before the edge"), output, held[k]);
            }
            rtl.tick(clock);
            held = next;
        }
    }
}
