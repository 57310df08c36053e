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
