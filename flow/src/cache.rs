//! Results of synthesis and place and route kept on disk, keyed by everything that decides
//! them: the Verilog (the design's and the timing harness's), the tool and its version, and the
//! script or options. `flow`, `compare`, `sweep` and `explore` share them, so a design that
//! did not change is not synthesized or placed again. Entries live in
//! `$GRFGEN_CACHE/results/<kind>-<key>.json` beside the Verilator models; removing them is
//! always safe.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Bumped when what an entry holds changes meaning.
const FORMAT: &str = "results-2";

/// The key of a result decided by `parts` (texts, versions, options), in hex.
pub fn key(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    hash.update(FORMAT.as_bytes());
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file of entry `kind`-`key`.
fn path(kind: &str, key: &str) -> PathBuf {
    grfgen_sim::verilator::cache_dir()
        .join("results")
        .join(format!("{kind}-{key}.json"))
}

/// The result stored under `kind` and `key`, if there is a readable one.
pub fn get<T: DeserializeOwned>(kind: &str, key: &str) -> Option<T> {
    let text = std::fs::read_to_string(path(kind, key)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Stores `value` under `kind` and `key`: written beside its name and renamed, so that a reader
/// never sees half of it. A cache that cannot be written is no error (the result stands).
pub fn put<T: Serialize>(kind: &str, key: &str, value: &T) {
    let target = path(kind, key);
    let Some(dir) = target.parent() else { return };
    let Ok(text) = serde_json::to_string(value) else {
        return;
    };
    let partial = dir.join(format!(".{kind}-{key}.{}", std::process::id()));
    let written = std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&partial, text))
        .and_then(|_| std::fs::rename(&partial, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
}

/// The version line a tool prints for `flag` (`yosys -V`), asked once per process; empty when
/// the tool does not answer (the run that needs it then fails on its own and names it).
pub fn version(tool: &Path, flag: &str) -> String {
    static VERSIONS: OnceLock<Mutex<HashMap<PathBuf, String>>> = OnceLock::new();
    let versions = VERSIONS.get_or_init(Mutex::default);
    if let Some(found) = versions.lock().unwrap_or_else(|e| e.into_inner()).get(tool) {
        return found.clone();
    }
    let said = Command::new(tool)
        .arg(flag)
        .output()
        .map(|out| {
            let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&out.stderr));
            // A YoWASP tool's first run says it is preparing itself: not part of the version.
            text.lines()
                .filter(|l| !l.starts_with("Preparing to run"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    versions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(tool.to_path_buf(), said.clone());
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_where_any_part_differs_and_parts_do_not_run_together() {
        assert_eq!(key(&["a", "b"]), key(&["a", "b"]));
        assert_ne!(key(&["a", "b"]), key(&["a", "c"]));
        assert_ne!(key(&["ab", ""]), key(&["a", "b"]));
    }
}
