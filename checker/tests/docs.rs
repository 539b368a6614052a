//! The reference in `docs/` points at what is there: every repository path
//! that "Adding an instruction" names exists (a contributor follows it file
//! by file, and a renamed file would leave a step that leads nowhere), every
//! relative link of the README and of `docs/` leads to a file or folder, and
//! `docs/README.md`, the index, lists every page.

use std::path::{Path, PathBuf};

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("checker/ lies in the repository root").to_path_buf()
}

fn read(page: &str) -> String {
    std::fs::read_to_string(repository_root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The pages of `docs/`, by file name.
fn doc_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(repository_root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .collect();
    pages.sort();
    pages
}

/// The text of every code span (between single backticks) of a page, a
/// span broken over two lines included, and every word of its fenced code
/// blocks.
fn code_spans(text: &str) -> Vec<String> {
    let (mut prose, mut spans) = (String::new(), Vec::new());
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if in_block {
            spans.extend(line.split_whitespace().map(str::to_string));
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    spans.extend(prose.split('`').skip(1).step_by(2).map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")));
    spans
}

/// Whether a code span names a path in the repository: it starts with one
/// of the repository's top-level folders or files. Other spans are code,
/// commands or paths elsewhere (`../shared/seeds/`, `~/.cache/ptxcheck`).
fn repository_path(span: &str) -> Option<&str> {
    let top = ["spec/", "smt/", "checker/", "reports/", "docs/", "examples/", ".ci/"];
    let files = ["README.md", "ARCHITECTURE.md", "Cargo.toml", "Cargo.lock"];
    let span = span.trim_end_matches([',', '.', ';', ':', ')']);
    (top.iter().any(|t| span.starts_with(t)) || files.contains(&span)).then_some(span)
}

/// Whether `path` exists. A `<name>` part stands for any name: the folder
/// before it must hold an entry that ends as the path does after it
/// (`spec/src/family/<family>.rs`).
fn exists(root: &Path, path: &str) -> bool {
    let Some(open) = path.find('<') else { return root.join(path).exists() };
    let Some(close) = path[open..].find('>').map(|at| open + at) else { return false };
    let folder = &path[..path[..open].rfind('/').map_or(0, |at| at + 1)];
    let rest = &path[close + 1..];
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else { return false };
    entries.filter_map(Result::ok).any(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        match rest.split_once('/') {
            // `<family>/more`: the rest lies inside some entry.
            Some((tail, more)) => name.ends_with(tail) && exists(&entry.path(), more),
            None => name.ends_with(rest),
        }
    })
}

#[test]
fn every_path_adding_an_instruction_names_exists() {
    let root = repository_root();
    let page = read("docs/adding-an-instruction.md");
    let paths: Vec<String> = code_spans(&page).iter().filter_map(|s| repository_path(s).map(str::to_string)).collect();
    // The page walks through a dozen files at least; a broken extraction finds none.
    assert!(paths.len() > 20, "found only {} paths: {paths:?}", paths.len());
    let missing: Vec<&String> = paths.iter().filter(|p| !exists(&root, p)).collect();
    assert!(missing.is_empty(), "docs/adding-an-instruction.md names paths that do not exist: {missing:?}");
}

#[test]
fn every_relative_link_leads_somewhere() {
    let root = repository_root();
    let mut pages = vec!["README.md".to_string()];
    pages.extend(doc_pages().into_iter().map(|p| format!("docs/{p}")));
    let mut broken = Vec::new();
    for page in &pages {
        let folder = Path::new(page).parent().unwrap_or(Path::new(""));
        for target in read(page).split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(t, _)| t)) {
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap_or(target);
            if !root.join(folder).join(file).exists() {
                broken.push(format!("{page}: ({target})"));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
}

#[test]
fn the_index_lists_every_page() {
    let index = read("docs/README.md");
    for page in doc_pages().into_iter().filter(|p| p != "README.md") {
        assert!(index.contains(&format!("]({page})")), "docs/README.md does not link {page}");
    }
}

#[test]
fn placeholders_and_spans_are_read_as_meant() {
    let root = repository_root();
    assert!(exists(&root, "spec/src/family/<family>.rs"));
    assert!(exists(&root, "checker/src/audit/readings/<family>.rs"));
    assert!(!exists(&root, "spec/src/family/<family>.toml"));
    assert!(!exists(&root, "spec/src/nowhere/<family>.rs"));
    assert_eq!(repository_path("checker/claims/,"), Some("checker/claims/"));
    assert_eq!(repository_path("../shared/seeds/"), None);
    assert_eq!(code_spans("a `b\nc` d `e`\n```sh\nx y\n```\n"), ["x", "y", "b c", "e"]);
}
