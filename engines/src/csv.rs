//! Comma-separated tables (RFC 4180), for spreadsheets and pandas: a header row, then one row
//! per record; a field holding a comma, a quote or a line break is quoted, its quotes doubled.

use serde_json::Value;

/// `field` as CSV writes it.
fn field(text: &str) -> String {
    match text.contains([',', '"', '\n', '\r']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text.to_string(),
    }
}

/// A JSON value as one CSV field: numbers and words as they are, `null` empty, `true`/`false`,
/// anything else as its JSON text.
pub fn value(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The table of `rows` under `header`, each line ended by `\r\n` as RFC 4180 has it.
pub fn table(header: &[String], rows: &[Vec<String>]) -> String {
    std::iter::once(header)
        .chain(rows.iter().map(Vec::as_slice))
        .map(|row| {
            let fields: Vec<String> = row.iter().map(|f| field(f)).collect();
            fields.join(",") + "\r\n"
        })
        .collect()
}

/// `object`'s scalar fields, nested objects' joined by `_` (`workloads` → `rpt-mad` →
/// `cycles` is `workloads_rpt-mad_cycles`), pushed onto `out` in order.
fn flatten(prefix: &str, object: &Value, out: &mut Vec<(String, String)>) {
    let Some(map) = object.as_object() else {
        out.push((prefix.to_string(), value(object)));
        return;
    };
    for (key, inner) in map {
        let name = match prefix.is_empty() {
            true => key.clone(),
            false => format!("{prefix}_{key}"),
        };
        flatten(&name, inner, out);
    }
}

/// `rows` (JSON objects) as a table: a column per field, nested fields flattened, in the order
/// they first appear; a row without a field leaves it empty.
pub fn objects(rows: &[Value]) -> String {
    let flat: Vec<Vec<(String, String)>> = rows
        .iter()
        .map(|row| {
            let mut fields = Vec::new();
            flatten("", row, &mut fields);
            fields
        })
        .collect();
    let mut header: Vec<String> = Vec::new();
    for (name, _) in flat.iter().flatten() {
        if !header.contains(name) {
            header.push(name.clone());
        }
    }
    let table_rows: Vec<Vec<String>> = flat
        .iter()
        .map(|fields| {
            header
                .iter()
                .map(|h| {
                    fields
                        .iter()
                        .find(|(n, _)| n == h)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    table(&header, &table_rows)
}

/// The `--csv FILE` flag of the commands that print a table.
pub fn arg() -> clap::Arg {
    clap::Arg::new("csv")
        .long("csv")
        .value_name("FILE")
        .help("Also write the table as CSV to FILE (one row per line of the table)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_quotes_or_breaks_are_quoted() {
        let header = vec!["a".to_string(), "b".to_string()];
        let rows = vec![vec!["1,2".to_string(), "say \"hi\"\nthen".to_string()]];
        assert_eq!(
            table(&header, &rows),
            "a,b\r\n\"1,2\",\"say \"\"hi\"\"\nthen\"\r\n"
        );
        assert_eq!(value(&Value::Null), "");
        let rows = [
            serde_json::json!({"name": "a", "w": {"x": {"cycles": 3}}}),
            serde_json::json!({"name": "b", "extra": true}),
        ];
        assert_eq!(
            objects(&rows),
            "name,w_x_cycles,extra\r\na,3,\r\nb,,true\r\n"
        );
        assert_eq!(value(&serde_json::json!(2.5)), "2.5");
    }
}
