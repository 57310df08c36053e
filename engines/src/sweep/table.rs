//! A sweep's records as a table: the swept values, then the block's figures.

use std::collections::BTreeMap;

use serde_json::Value;

use super::store::{Record, Spec};

/// The value of `name` in a record: a parameter, else an option.
fn swept_value(record: &Record, name: &str) -> String {
    let value = record
        .parameters
        .get(name)
        .or_else(|| record.options.get(name))
        .cloned()
        .unwrap_or(Value::Null);
    match value {
        Value::String(s) => s,
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// The table of `records` of sweep `spec`: one row per point in index order.
pub fn table(spec: &Spec, records: &BTreeMap<usize, Record>) -> String {
    let Some(first) = records.values().find(|r| r.ok()) else {
        return format!("seed {}: no point finished", spec.seed);
    };
    let swept: Vec<&str> = (spec.parameters.iter().chain(&spec.options))
        .map(|(n, _)| n.as_str())
        .collect();
    let mut header: Vec<String> = swept.iter().map(|s| s.to_string()).collect();
    header.extend(first.metrics.iter().map(|(n, _)| n.clone()));
    let synth = first.ice40.is_some();
    if synth {
        header.extend(["ice40_lut4".into(), "ice40_ram40".into()]);
    }
    header.push("status".into());
    // A column of counts prints as integers, any other to three decimals.
    let counts: Vec<bool> = (0..first.metrics.len())
        .map(|j| {
            records.values().filter(|r| r.ok()).all(|r| {
                r.metrics
                    .get(j)
                    .is_some_and(|(_, v)| v.fract() == 0.0 && v.abs() < 1e15)
            })
        })
        .collect();
    let mut text = format!("seed {}\n{}", spec.seed, header.join("  "));
    for record in records.values() {
        let mut row: Vec<String> = swept.iter().map(|n| swept_value(record, n)).collect();
        for (j, count) in counts.iter().enumerate() {
            row.push(match (record.metrics.get(j), count) {
                (Some((_, v)), true) => format!("{v:.0}"),
                (Some((_, v)), false) => format!("{v:.3}"),
                (None, _) => "-".into(),
            });
        }
        if synth {
            let cell = |kind: &str| {
                (record.ice40.as_ref())
                    .and_then(|s| s.get("by_type")?.get(kind)?.as_u64())
                    .map_or("-".into(), |n| n.to_string())
            };
            row.extend([cell("SB_LUT4"), cell("SB_RAM40_4K")]);
        }
        row.push(record.status.clone());
        let cells: Vec<String> = row
            .iter()
            .zip(&header)
            .map(|(v, h)| format!("{v:>width$}", width = h.len()))
            .collect();
        text += &format!("\n{}", cells.join("  "));
    }
    text
}

/// The names of the keys of `object` (a JSON object), in order.
fn keys(object: &Value) -> impl Iterator<Item = &String> {
    object.as_object().into_iter().flatten().map(|(k, _)| k)
}

/// `records` as CSV: one row per point in index order, with its index, seed and status, a
/// column per parameter and option, one per figure (a figure named like a parameter or option
/// is `<name>_figure`), then the error and the replay command.
pub fn csv(records: &BTreeMap<usize, Record>) -> String {
    let mut inputs: Vec<String> = Vec::new();
    let mut figures: Vec<String> = Vec::new();
    for r in records.values() {
        for key in keys(&r.parameters).chain(keys(&r.options)) {
            if !inputs.contains(key) {
                inputs.push(key.clone());
            }
        }
        for (name, _) in &r.metrics {
            if !figures.contains(name) {
                figures.push(name.clone());
            }
        }
    }
    let figure_column = |name: &String| match inputs.contains(name) {
        true => format!("{name}_figure"),
        false => name.clone(),
    };
    let mut header: Vec<String> = ["index", "seed", "status"].map(String::from).to_vec();
    header.extend(inputs.iter().cloned());
    header.extend(figures.iter().map(figure_column));
    header.extend(["error", "replay"].map(String::from));
    let rows: Vec<Vec<String>> = records
        .values()
        .map(|r| {
            let mut row = vec![r.index.to_string(), r.seed.to_string(), r.status.clone()];
            row.extend(inputs.iter().map(|name| {
                let value = r.parameters.get(name).or_else(|| r.options.get(name));
                value.map(crate::csv::value).unwrap_or_default()
            }));
            row.extend(figures.iter().map(|name| {
                let found = r.metrics.iter().find(|(n, _)| n == name);
                found.map(|(_, v)| v.to_string()).unwrap_or_default()
            }));
            row.push(r.error.clone().unwrap_or_default());
            row.push(r.replay.clone());
            row
        })
        .collect();
    crate::csv::table(&header, &rows)
}
