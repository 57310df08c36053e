//! The house rules of the source tree: no file imports a file that imports it back
//! (`scripts/import_circles.py`), and a function over 100 lines says why above it
//! (`scripts/long_functions.py`); each check finds a breach where there is one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `scripts/<script>` run on the workspace at `tree`.
fn check(script: &str, tree: &Path) -> Output {
    Command::new("python3")
        .arg(root().join("scripts").join(script))
        .arg(tree)
        .output()
        .expect("python3 runs")
}

/// `scripts/import_circles.py` run on the workspace at `tree`.
fn circles(tree: &Path) -> Output {
    check("import_circles.py", tree)
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

#[test]
fn a_function_over_100_lines_says_why_and_one_over_120_names_a_rust_hdl_limit() {
    let out = check("long_functions.py", &root());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.trim(), "no function breaks the rule");
    let tree = tempfile::tempdir().unwrap();
    let src = tree.path().join("sim/src");
    std::fs::create_dir_all(&src).unwrap();
    let long = |lines: usize| {
        let body: String = (0..lines - 2)
            .map(|k| format!("    let _ = {k};\n"))
            .collect();
        format!("fn long() {{\n{body}}}\n")
    };
    let cases = [
        (long(100), None),
        (long(101), Some("no `Over 100 lines (101): <reason>`")),
        (
            format!("// Over 100 lines (101): a table.\n{}", long(101)),
            None,
        ),
        (
            format!("// Over 100 lines (99): a table.\n{}", long(101)),
            Some("(101)"),
        ),
        (
            format!("// Over 100 lines (121): a table.\n{}", long(121)),
            Some("names no rust-hdl limit"),
        ),
        (
            format!(
                "// Over 100 lines (121): one loop (docs/rust-hdl.md, 25).\n{}",
                long(121)
            ),
            None,
        ),
    ];
    for (text, breach) in cases {
        std::fs::write(src.join("lib.rs"), &text).unwrap();
        let out = check("long_functions.py", tree.path());
        let said = String::from_utf8_lossy(&out.stdout);
        match breach {
            None => assert!(out.status.success(), "{said}"),
            Some(words) => {
                assert_eq!(out.status.code(), Some(1), "{said}");
                assert!(
                    said.contains("sim/src/lib.rs:") && said.contains(words),
                    "{said}"
                );
            }
        }
    }
}
