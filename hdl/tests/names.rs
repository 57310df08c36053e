//! Top-module names: within each design, two parameter settings that differ get different
//! names (so files and FuseSoC VLNVs never collide), every name is a Verilog identifier, and
//! every parameter of every design has one abbreviation, the same in every design.

use std::collections::BTreeMap;

use grfgen_hdl::design::{Design, DesignVisitor};
use grfgen_hdl::emit::check_top;
use grfgen_hdl::params::{Kind, Params, ABBREVIATIONS};
use grfgen_hdl::visit_designs;

/// Values worth trying for a parameter: small and power-of-two numbers, both booleans, and the
/// words of its allowed values (`K` and `P` in `threads:K`, `fraction:P` made numbers).
fn candidates(kind: Kind, allowed: &str) -> Vec<String> {
    match kind {
        Kind::Boolean => vec!["true".into(), "false".into()],
        Kind::Integer | Kind::Number => [0, 1, 2, 3, 4, 5, 8, 16, 32, 64, 128, 256, 512]
            .iter()
            .map(u64::to_string)
            .collect(),
        Kind::Text => allowed
            .replace(" or ", ", ")
            .split(", ")
            .flat_map(|word| match word.split_once(':') {
                Some((head, _)) => (1..=4)
                    .chain([25, 50])
                    .map(|n| format!("{head}:{n}"))
                    .collect::<Vec<_>>(),
                None => vec![word.trim().to_string()],
            })
            .collect(),
    }
}

/// Valid settings of `P`: the defaults, each parameter moved alone to every candidate value,
/// and each pair of parameters moved together.
fn settings<P: Params>() -> Vec<P> {
    let table = P::table();
    let moves: Vec<(usize, String)> = table
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            candidates(p.kind(), &p.allowed(&P::default()))
                .into_iter()
                .map(move |v| (i, v))
        })
        .collect();
    let mut found = vec![P::default()];
    let mut apply = |changes: &[&(usize, String)]| {
        let mut p = P::default();
        for (i, value) in changes {
            if table[*i].set(&mut p, value).is_err() {
                return;
            }
        }
        if p.validate().is_ok() {
            found.push(p);
        }
    };
    for (k, a) in moves.iter().enumerate() {
        apply(&[a]);
        for b in &moves[k + 1..] {
            if a.0 != b.0 {
                apply(&[a, b]);
            }
        }
    }
    found
}

struct Names {
    /// Every design's parameter names.
    params: Vec<(&'static str, &'static str)>,
    /// Settings checked, per design.
    checked: Vec<(&'static str, usize)>,
}

impl DesignVisitor for Names {
    fn visit<D: Design>(&mut self) {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        let table = D::Params::table();
        for params in settings::<D::Params>() {
            let name = D::top(&params);
            check_top(&name).unwrap_or_else(|e| panic!("{}: {name}: {e}", D::NAME));
            let values: Vec<String> = table.iter().map(|p| p.value(&params)).collect();
            let values = values.join(" ");
            if let Some(other) = seen.insert(name.clone(), values.clone()) {
                assert_eq!(
                    other,
                    values,
                    "{}: settings [{other}] and [{values}] are both named {name}",
                    D::NAME
                );
            }
        }
        self.checked.push((D::NAME, seen.len()));
        self.params.extend(table.iter().map(|p| (D::NAME, p.name)));
    }
}

#[test]
fn different_settings_get_different_names_in_every_design() {
    let mut names = Names {
        params: Vec::new(),
        checked: Vec::new(),
    };
    visit_designs(&mut names);
    for (design, count) in &names.checked {
        assert!(*count >= 10, "{design}: only {count} settings tried");
        eprintln!("{design}: {count} distinct settings, {count} distinct names");
    }
    for (design, param) in &names.params {
        assert!(
            ABBREVIATIONS.iter().any(|(n, _)| n == param),
            "{design}'s parameter {param} has no abbreviation in hdl/src/params/names.rs"
        );
    }
}

#[test]
fn the_settings_that_once_collided_are_named_apart() {
    use grfgen_hdl::grf::Grf;
    use grfgen_hdl::params::{GrfParams, Mapping};
    let default = GrfParams::default();
    let preallocated = GrfParams {
        preallocated: 3,
        ..default.clone()
    };
    let two_part = GrfParams {
        virtual_blocks: 2,
        mapping: Mapping::Threads(1),
        low_energy_blocks: 4,
        ..default.clone()
    };
    let names = [&default, &preallocated, &two_part].map(Grf::top);
    assert_ne!(names[0], names[1]);
    assert_ne!(names[0], names[2]);
    assert_ne!(names[1], names[2]);
}
