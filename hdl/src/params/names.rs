//! Top-module names: the block, then every parameter of its table in order, each as its
//! abbreviation and its value (`gpr_b4_r256_l4_e32_rp4_wp2_p0_k1r1w_meminferred_bmmod`). One
//! abbreviation means one parameter in every block, and every parameter is always written, so
//! two settings that differ anywhere get different names, in one release and the next.

use super::{Kind, Params};

/// Each parameter name of every design's table, with its abbreviation in module names.
pub const ABBREVIATIONS: &[(&str, &str)] = &[
    ("banks", "b"),
    ("registers", "r"),
    ("lanes", "l"),
    ("element_bits", "e"),
    ("read_ports", "rp"),
    ("write_ports", "wp"),
    ("pipeline", "p"),
    ("bank_kind", "k"),
    ("memory", "mem"),
    ("encoding", "enc"),
    ("bank_map", "bm"),
    ("cq_entries", "cq"),
    ("pq_entries", "pq"),
    ("lookahead", "la"),
    ("alu_latency", "al"),
    ("forward", "fw"),
    ("request_stage", "rq"),
    ("long_results", "lrs"),
    ("waves", "wv"),
    ("issue", "is"),
    ("crossbar", "q"),
    ("registered", "reg"),
    ("eus", "eu"),
    ("threads", "t"),
    ("virtual_blocks", "vb"),
    ("preallocated", "pa"),
    ("fast_regs", "fr"),
    ("slow_regs", "sr"),
    ("slow_latency", "sl"),
    ("low_energy_blocks", "lb"),
    ("mapping", "m"),
    ("clusters", "c"),
    ("local_regs", "lr"),
    ("main_regs", "mr"),
    ("main_read_ports", "mrp"),
    ("main_write_ports", "mwp"),
    ("pool", "pl"),
    ("granularity", "g"),
    ("wave_slots", "ws"),
];

/// The abbreviation of parameter `name` (the name itself for one the table lacks, which a
/// test forbids).
pub fn abbreviation(name: &str) -> &str {
    ABBREVIATIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(name, |(_, a)| a)
}

/// A parameter's value as it appears in a module name: digits as they are, `true`/`false` as
/// `1`/`0`, words in lower case with `:` dropped (`threads:2` is `threads2`) and any other
/// character that an identifier cannot hold as `x`.
fn value_text(kind: Kind, value: &str) -> String {
    match (kind, value) {
        (Kind::Boolean, "true") => "1".into(),
        (Kind::Boolean, _) => "0".into(),
        _ => value
            .chars()
            .filter(|&c| c != ':')
            .map(|c| match c.is_ascii_alphanumeric() {
                true => c.to_ascii_lowercase(),
                false => 'x',
            })
            .collect(),
    }
}

/// The top-module name of `block` (its name with `-` as `_`) for `params`.
pub fn module_name<P: Params>(block: &str, params: &P) -> String {
    let mut name = block.replace('-', "_");
    for param in P::table() {
        name.push('_');
        name.push_str(abbreviation(param.name));
        name.push_str(&value_text(param.kind(), &param.value(params)));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{GprParams, GrfParams};

    #[test]
    fn abbreviations_are_one_to_one() {
        for (i, (name, abbr)) in ABBREVIATIONS.iter().enumerate() {
            for (other, other_abbr) in &ABBREVIATIONS[i + 1..] {
                assert_ne!(name, other, "{name} listed twice");
                assert_ne!(abbr, other_abbr, "{abbr} abbreviates {name} and {other}");
            }
        }
    }

    #[test]
    fn every_parameter_is_written() {
        assert_eq!(
            module_name("gpr", &GprParams::default()),
            "gpr_b4_r256_l4_e32_rp4_wp2_p0_k1r1w_meminferred_bmmod"
        );
        let grf = GrfParams {
            mapping: crate::params::Mapping::Threads(2),
            ..GrfParams::default()
        };
        assert!(module_name("grf", &grf).contains("_mthreads2"));
    }
}
