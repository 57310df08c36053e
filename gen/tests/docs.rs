//! The documentation's shell examples, run: every ```` ```console ```` block of `README.md` and
//! `docs/*.md` is a [trycmd] case, its commands run in one scratch directory (in order, so a
//! later command reads what an earlier one wrote) and their output (standard output and error
//! together) compared with what the page shows; `[..]` and `...` stand in for what depends on
//! the machine (times, paths). An example too slow for `make test` is marked
//! ```` ```console,ignore,slow ````: trycmd skips it here, and `scripts/docs-slow.sh` runs it.

use std::path::{Path, PathBuf};

/// The pages whose examples run: the README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The fenced blocks of `text`: each block's info string and lines.
fn blocks(text: &str) -> Vec<(String, Vec<&str>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), Vec::new())),
            (Some(_), Some(_)) => blocks.push(open.take().expect("a block is open")),
            (Some((_, lines)), None) => lines.push(line),
            (None, None) => {}
        }
    }
    blocks
}

/// The pages that hold examples to run, each with its `console` block count, and the slow
/// examples (`console,ignore,slow`) as one page of `console` blocks to run.
fn examples() -> (Vec<(PathBuf, usize)>, String) {
    let mut fast = Vec::new();
    let mut slow = String::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let found = blocks(&text);
        let count = found.iter().filter(|(info, _)| info == "console").count();
        if count > 0 {
            fast.push((page.clone(), count));
        }
        for (_, lines) in found
            .iter()
            .filter(|(info, _)| info == "console,ignore,slow")
        {
            slow += &format!("```console\n{}\n```\n\n", lines.join("\n"));
        }
    }
    (fast, slow)
}

/// Runs the trycmd cases `pages` in a scratch directory.
fn run(pages: &[PathBuf]) {
    let scratch = tempfile::tempdir().unwrap();
    // Commands write where they run: into the scratch directory, never the repository.
    std::env::set_current_dir(scratch.path()).unwrap();
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("grfgen", Path::new(env!("CARGO_BIN_EXE_grfgen")))
        .timeout(std::time::Duration::from_secs(900));
    for page in pages {
        cases.case(page);
    }
    cases.run();
}

#[test]
fn every_shown_output_is_one_a_command_gives() {
    let (fast, _) = examples();
    let total: usize = fast.iter().map(|(_, n)| n).sum();
    assert!(total >= 5, "the examples run: {fast:?}");
    run(&fast.into_iter().map(|(page, _)| page).collect::<Vec<_>>());
}

#[test]
fn a_page_with_examples_shows_commands_only_in_console_blocks() {
    // trycmd reads a block without an info string as an example: the pages it runs label
    // every block, and a `$ ` command with its output beside it is always a console block.
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let found = blocks(&text);
        let runs = found.iter().any(|(info, _)| info == "console");
        for (info, lines) in &found {
            let shell = lines.iter().any(|l| l.starts_with("$ "));
            assert!(
                !shell || info.starts_with("console"),
                "{}: a `$ ` example outside a console block: {lines:?}",
                page.display()
            );
            assert!(
                !(runs && info.is_empty()),
                "{}: a block without an info string on a page whose examples run: {lines:?}",
                page.display()
            );
        }
    }
}

#[test]
#[ignore = "slow: run by scripts/docs-slow.sh"]
fn the_slow_examples_give_the_output_they_show() {
    let (_, slow) = examples();
    let page = tempfile::Builder::new().suffix(".md").tempfile().unwrap();
    std::fs::write(page.path(), slow).unwrap();
    run(&[page.path().to_path_buf()]);
}

/// The folders below `dir`, each as its path from the repository's root with a trailing `/`.
fn folders_below(root: &Path, dir: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join(dir)).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let below = format!("{dir}{name}/");
            found.extend(folders_below(root, &below));
            found.push(below);
        }
    }
    found
}

/// `docs/architecture.md` matches the tree: every path it names in backquotes (a token under
/// one of the project's folders, of path characters only; a trailing `/` names a folder)
/// exists, and every folder of `hdl/src` is named.
#[test]
fn the_architecture_page_names_only_what_exists_and_every_hardware_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let tokens: Vec<&str> = text
        .lines()
        .flat_map(|line| line.split('`').skip(1).step_by(2))
        .filter(|span| {
            [
                "support/", "hdl/", "sim/", "flow/", "engines/", "gen/", "docs/", "scripts/",
            ]
            .iter()
            .any(|top| span.starts_with(top))
                && span.chars().all(path_char)
        })
        .collect();
    assert!(tokens.len() >= 20, "the page names the tree: {tokens:?}");
    for token in &tokens {
        let path = root.join(token);
        let exists = if token.ends_with('/') {
            path.is_dir()
        } else {
            path.is_file()
        };
        assert!(
            exists,
            "docs/architecture.md names `{token}`, which is not in the tree"
        );
    }
    for folder in folders_below(&root, "hdl/src/") {
        assert!(
            tokens.contains(&folder.as_str()),
            "docs/architecture.md does not name the folder `{folder}`"
        );
    }
}
