//! The house rules of the source tree: no file imports a file that imports it back
//! (`scripts/import_circles.py`), and the check finds a circle where there is one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `scripts/import_circles.py` run on the workspace at `tree`.
fn circles(tree: &Path) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/import_circles.py"))
        .arg(tree)
        .output()
        .expect("python3 runs")
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let out = circles(&root());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.trim(), "no import circles");
}

#[test]
fn the_check_names_the_files_of_a_circle_and_follows_re_exports() {
    let tree = tempfile::tempdir().unwrap();
    let src = tree.path().join("sim/src");
    std::fs::create_dir_all(src.join("deep")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
    // lib.rs re-exports `deep::Second`; `first.rs` reaches it through the re-export, and
    // `deep/second.rs` calls back into `first.rs` by a path in its code.
    write(
        "lib.rs",
        "pub mod deep;\npub mod first;\npub use deep::Second;\n",
    );
    write(
        "first.rs",
        "use crate::Second;\n\npub fn first(_: Second) {}\n",
    );
    write("deep/mod.rs", "mod second;\n\npub use second::Second;\n");
    write(
        "deep/second.rs",
        "/// Calls `crate::first::first` only in this comment.\npub struct Second;\n\nfn back() { crate::first::first(Second) }\n",
    );
    let out = circles(tree.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(
        text.trim(),
        "import circle: sim/src/deep/second.rs <-> sim/src/first.rs"
    );
    // Without the call back there is no circle: the comment and the re-exports are not imports.
    write(
        "deep/second.rs",
        "/// `crate::first::first`.\npub struct Second;\n",
    );
    let out = circles(tree.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
