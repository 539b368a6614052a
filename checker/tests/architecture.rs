//! The house's layering: no module of the three crates reaches, through
//! its `use` lines and the paths in its code, a module that reaches it back.
//!
//! Each crate's source is read as syntax trees (syn). A module is a file;
//! an inline module (`mod tests { .. }`) belongs to its file. A path that
//! starts with `crate`, `super` or `self` is resolved to the longest module
//! it names, and each such path is an edge from the file that writes it to
//! the file that defines that module. A strongly connected set of two or
//! more files is a circle, shown with the edges (and the lines) that close it.
//!
//! A module sees its ancestors' items as its own scope's: a child's use of
//! its parent is no edge. A parent's use of its child is one, so a parent
//! whose child uses a module that uses the parent is a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// A module's path within its crate (`[]` is the crate root).
type ModPath = Vec<String>;

/// Every file module of one crate, by its module path.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    fn walk(dir: &Path, prefix: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut child = prefix.clone();
                child.push(name);
                walk(&path, &child, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let module = match stem {
                    "mod" => prefix.clone(),
                    "lib" if prefix.is_empty() => prefix.clone(),
                    // The binary is a crate of its own, above the library.
                    "main" if prefix.is_empty() => continue,
                    _ => {
                        let mut m = prefix.clone();
                        m.push(stem.to_owned());
                        m
                    }
                };
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &Vec::new(), &mut out);
    out
}

/// Collects the crate-relative paths one file writes, each resolved to the
/// absolute module path it starts from.
struct References {
    /// The module the visitor is in: the file's, then any inline module.
    module: ModPath,
    paths: Vec<(Vec<String>, usize)>,
}

impl References {
    /// `path` made absolute from the current module, or None if it names
    /// another crate or a local item.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut out = match segments.first()?.as_str() {
            "crate" => Vec::new(),
            "self" | "super" => self.module.clone(),
            _ => return None,
        };
        let mut rest = &segments[1..];
        if segments[0] == "super" {
            out.pop();
        }
        while rest.first().map(String::as_str) == Some("super") {
            out.pop();
            rest = &rest[1..];
        }
        out.extend(rest.iter().filter(|s| s.as_str() != "self").cloned());
        Some(out)
    }

    fn record(&mut self, segments: Vec<String>, line: usize) {
        if let Some(path) = self.absolute(&segments) {
            self.paths.push((path, line));
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                full.push(n.ident.to_string());
                self.record(full, n.ident.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                self.record(full, r.ident.span().start().line);
            }
            syn::UseTree::Glob(g) => self.record(prefix.clone(), g.star_token.span().start().line),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for References {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.content.is_some() {
            self.module.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.module.pop();
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.record(segments, path.span().start().line);
        syn::visit::visit_path(self, path);
    }
}

/// The module a path lands in: its longest prefix that is a file module.
fn owner(path: &[String], files: &BTreeMap<ModPath, PathBuf>) -> ModPath {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|prefix| files.contains_key(prefix)).unwrap_or_default()
}

/// Whether `to` is `from` or contains it: a module sees its ancestors'
/// items as its own scope's.
fn within(from: &ModPath, to: &ModPath) -> bool {
    from.starts_with(to)
}

/// Every edge between file modules of one crate, with the line it is on.
fn edges(src: &Path) -> (BTreeMap<ModPath, PathBuf>, BTreeMap<ModPath, BTreeMap<ModPath, usize>>) {
    let files = modules(src);
    let mut graph: BTreeMap<ModPath, BTreeMap<ModPath, usize>> = BTreeMap::new();
    for (module, file) in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let tree = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut refs = References { module: module.clone(), paths: Vec::new() };
        refs.visit_file(&tree);
        let out = graph.entry(module.clone()).or_default();
        for (path, line) in refs.paths {
            let to = owner(&path, &files);
            if !within(module, &to) {
                out.entry(to).or_insert(line);
            }
        }
    }
    (files, graph)
}

/// Tarjan's strongly connected components of more than one module.
fn circles(graph: &BTreeMap<ModPath, BTreeMap<ModPath, usize>>) -> Vec<BTreeSet<ModPath>> {
    struct State<'a> {
        graph: &'a BTreeMap<ModPath, BTreeMap<ModPath, usize>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        found: Vec<BTreeSet<ModPath>>,
    }
    fn connect<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flat_map(|e| e.keys()) {
            if !s.index.contains_key(w) {
                connect(s, w);
                let low = s.low[w].min(s.low[v]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.index[w].min(s.low[v]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.insert(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            connect(&mut state, v);
        }
    }
    state.found
}

fn name(module: &ModPath) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// Every circle of one crate, described with the edges inside it.
fn describe_circles(src: &Path) -> Vec<String> {
    let (files, graph) = edges(src);
    let (files, graph) = (&files, &graph);
    circles(graph)
        .into_iter()
        .map(|component| {
            let inside: Vec<String> = component
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|(to, _)| component.contains(*to))
                        .map(move |(to, line)| format!("{}:{line} uses {}", shown(&files[from]), name(to)))
                })
                .collect();
            format!(
                "circle of {}:\n    {}",
                component.iter().map(name).collect::<Vec<_>>().join(", "),
                inside.join("\n    ")
            )
        })
        .collect()
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join(name).join("src")
}

/// A file as the workspace names it (`checker/src/error.rs`).
fn shown(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    file.strip_prefix(root).unwrap_or(file).display().to_string()
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let found: Vec<String> = ["checker", "smt", "spec"].iter().flat_map(|c| describe_circles(&crate_src(c))).collect();
    assert!(found.is_empty(), "{} import circle(s):\n{}", found.len(), found.join("\n"));
}

/// The longest a function may be, from its signature to its closing brace.
const MAX_FUNCTION_LINES: usize = 120;

/// Every function (free, in an impl or a trait) longer than the limit, as
/// `file:line name (N lines)`.
fn long_functions(file: &Path) -> Vec<String> {
    struct Long<'a> {
        file: &'a Path,
        found: Vec<String>,
    }
    impl Long<'_> {
        fn measure(&mut self, sig: &syn::Signature, block: &syn::Block) {
            let first = sig.fn_token.span().start().line;
            let last = block.brace_token.span.close().end().line;
            let lines = last + 1 - first;
            if lines > MAX_FUNCTION_LINES {
                self.found.push(format!("{}:{first} {} ({lines} lines)", shown(self.file), sig.ident));
            }
        }
    }
    impl<'ast> Visit<'ast> for Long<'_> {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if let Some(block) = &f.default {
                self.measure(&f.sig, block);
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
    let text = std::fs::read_to_string(file).unwrap();
    let tree = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut long = Long { file, found: Vec::new() };
    long.visit_file(&tree);
    long.found
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn no_function_is_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let long: Vec<String> = ["checker/src", "checker/tests", "smt/src", "spec/src"]
        .iter()
        .flat_map(|d| rust_files(&root.join(d)))
        .flat_map(|f| long_functions(&f))
        .collect();
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_library_does_not_use_the_command_line() {
    let (files, graph) = edges(&crate_src("checker"));
    let cmd = vec!["cmd".to_owned()];
    let uses: Vec<String> = graph
        .iter()
        .filter(|(from, _)| !from.starts_with(&cmd))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|(to, _)| to.starts_with(&cmd))
                .map(|(to, line)| format!("{}:{line} uses {}", shown(&files[from]), name(to)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(uses.is_empty(), "the library uses the command line:\n{}", uses.join("\n"));
}

/// The check itself: a circle made on purpose is found, also through a
/// parent and its child, and a child's use of its parent is not one.
#[test]
fn circles_are_found_through_a_child_but_not_through_a_parent() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\npub mod c;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "pub mod inner;\nuse self::inner::X;\n").unwrap();
    std::fs::write(src.join("a/inner.rs"), "pub struct X;\nfn f() { super::super::b::g(); }\n").unwrap();
    std::fs::write(src.join("b.rs"), "use crate::c::{self, Y};\npub fn g() {}\n").unwrap();
    std::fs::write(src.join("c.rs"), "pub struct Y;\nfn h() -> crate::a::inner::X { todo!() }\n").unwrap();
    let found = describe_circles(src);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("circle of a::inner, b, c:"), "{}", found[0]);
    std::fs::write(src.join("c.rs"), "pub struct Y;\nmod tests { use super::Y; }\n").unwrap();
    assert!(describe_circles(src).is_empty());
    // b uses a, whose child a::inner uses b.
    std::fs::write(src.join("b.rs"), "use crate::a::X;\npub fn g() {}\n").unwrap();
    let found = describe_circles(src);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("circle of a, a::inner, b:"), "{}", found[0]);
}
