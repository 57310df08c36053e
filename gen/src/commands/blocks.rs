//! `grfgen blocks`: the catalogue.

use grfgen_hdl::catalogue::catalogue;

/// The catalogue as a table, or as JSON.
pub fn blocks(json: bool) -> String {
    let blocks = catalogue();
    if json {
        return serde_json::to_string_pretty(&blocks).expect("catalogue serialises");
    }
    let mut text = String::new();
    for block in &blocks {
        let kind = if block.top_level {
            "top level"
        } else {
            "component"
        };
        text += &format!(
            "{} ({kind}, SPEC {}): {}\n",
            block.name, block.spec, block.title
        );
        let width = block.params.iter().map(|p| p.flag.len()).max().unwrap_or(0);
        for p in &block.params {
            text += &format!(
                "  {:width$}  default {:>4}  allowed {}  ({})\n",
                p.flag, p.default, p.allowed, p.meaning
            );
        }
        text.push('\n');
    }
    text.trim_end().to_string()
}
