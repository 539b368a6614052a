//! What the command-line tests share: running the binary and reading what
//! it printed.

// Each test file uses its own part of this.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The proof cache the tests of one run share, empty when the run began,
/// so that a query several tests ask (the same proof, the same audit) is
/// solved once and for real: `PTXCHECK_TEST_CACHE_DIR` where the runner
/// made one for the run (`.ci/run` does, shared by every test binary and
/// every later step), else a folder this test binary makes empty on first
/// use. Never the user's cache, nor one an earlier run left: no verdict in
/// a test comes from before the run. An entry is keyed by the whole query
/// (the solver, its version and options, and the query's text), so a
/// mutant or a changed encoding is another entry (`smt/src/cache.rs`).
pub fn cache_dir() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| match std::env::var_os("PTXCHECK_TEST_CACHE_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => std::path::PathBuf::from(dir),
        // Under the target's scratch folder, kept after the binary ends (a
        // static is never dropped); `cargo clean` removes it.
        None => tempfile::Builder::new()
            .prefix("proof-cache-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("a scratch folder for the proof cache")
            .keep(),
    })
}

/// The proof cache of [`cache_dir`] for the solver work this test process
/// does itself, through the library (which solves every query unless told
/// otherwise). Every test of the binary then shares it; a binary with a
/// test that needs a query to go unanswered does not call this.
pub fn share_cache_in_process() {
    // Only the first call counts, and every call names the same folder.
    ptx_smt::cache::configure(Some(ptx_smt::cache::Cache::in_dir(cache_dir())));
}

/// The command `ptxcheck`, with the run's proof cache ([`cache_dir`]).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxcheck"));
    c.env("PTXCHECK_CACHE_DIR", cache_dir()).env_remove("PTXCHECK_NO_CACHE");
    c
}

/// `ptxcheck args`, with the run's proof cache ([`cache_dir`]).
pub fn ptxcheck(args: &[&str]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// `ptxcheck args`, solving every query: for a test whose point is a query
/// left unanswered (a time limit that runs out, an interrupted proof), which
/// an answer another test put in the run's cache would settle.
pub fn ptxcheck_uncached(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .args(args)
        .env("PTXCHECK_NO_CACHE", "1")
        .output()
        .expect("the binary runs")
}

/// `ptxcheck args` with the proof cache in `cache` (a folder the test made
/// empty): where a test runs the same queries several times to compare
/// how they print, its first run solves them and the rest read its answers.
pub fn ptxcheck_with_cache(cache: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .args(args)
        .env("PTXCHECK_CACHE_DIR", cache)
        .env_remove("PTXCHECK_NO_CACHE")
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Whether the tests run under CI (`CI` set, and not `0` or `false`), where
/// everything they need is installed and nothing may be skipped.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// A check that cannot run here (a program or the spec text is missing)
/// says so in one line; under CI it fails instead, so CI cannot pass by
/// skipping.
pub fn skip(what: &str) {
    use std::io::Write as _;
    assert!(!under_ci(), "CI: nothing may be skipped, but {what}");
    // Past the test harness's capture of `eprintln!`, so that the line shows
    // for a test that passes.
    let _ = writeln!(std::io::stderr(), "skipped: {what}");
}

/// The copy of the PTX ISA sections the tests read: `PTXCHECK_SPEC_TEXT`
/// (paths as in PATH; the first), by default `../shared/seeds/` beside the
/// repository. Where it is absent, the caller's test is skipped with one
/// line (see [`skip`]) naming `test`.
pub fn spec_text(test: &str) -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os("PTXCHECK_SPEC_TEXT").filter(|v| !v.is_empty()) {
        Some(v) => std::env::split_paths(&v).next()?,
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    skip(&format!(
        "{test} needs the spec text: {} is not a folder (set PTXCHECK_SPEC_TEXT to a copy of sections 9.7.1, 9.7.8 \
         and 9.7.9.5)",
        dir.display()
    ));
    None
}

/// The sections of the vendor's 9.1 release beyond the seeds that the
/// catalogue models so far, by file name in `ptx-9.1/new-sections/` beside
/// the seeds: with the seeds, the text the reports are made from (`.ci/run`
/// names the same files).
pub const MODELLED_NEW_SECTIONS: &[&str] = &[
    "9720_overview.md",
    "9721_extended_precision_arithmetic_instructions_addcc.md",
    "9722_extended_precision_arithmetic_instructions_addc.md",
    "9723_extended_precision_arithmetic_instructions_subcc.md",
    "9724_extended_precision_arithmetic_instructions_subc.md",
    "9725_extended_precision_arithmetic_instructions_madcc.md",
    "9726_extended_precision_arithmetic_instructions_madc.md",
    "9760_overview.md",
    "9761_comparison_and_selection_instructions_set.md",
    "9762_comparison_and_selection_instructions_setp.md",
    "9763_comparison_and_selection_instructions_selp.md",
    "9764_comparison_and_selection_instructions_slct.md",
    "9796_data_movement_and_conversion_instructions_shflsync.md",
    "9797_data_movement_and_conversion_instructions_prmt.md",
];

/// The files of [`MODELLED_NEW_SECTIONS`], found beside the seed folder
/// `seeds`, where the shared folder keeps them.
///
/// # Panics
/// Where one is missing: a test that reads the seeds reads these with them.
pub fn modelled_new_sections(seeds: &std::path::Path) -> Vec<std::path::PathBuf> {
    let dir = seeds.join("../ptx-9.1/new-sections");
    let files: Vec<std::path::PathBuf> = MODELLED_NEW_SECTIONS.iter().map(|f| dir.join(f)).collect();
    if let Some(missing) = files.iter().find(|f| !f.is_file()) {
        panic!("{} is missing: the modelled sections beyond the seeds are read with them", missing.display());
    }
    files
}

/// A copy of the files `files` (each folder's files, each file itself) in
/// a new folder, each file's text as `edit` gives it back: a planted edit
/// of the spec text.
pub fn edited_copy(files: &[std::path::PathBuf], edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    let each = |p: &std::path::PathBuf| -> Vec<std::path::PathBuf> {
        if p.is_dir() {
            std::fs::read_dir(p).unwrap().map(|e| e.unwrap().path()).collect()
        } else {
            vec![p.clone()]
        }
    };
    for path in files.iter().flat_map(each) {
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(copy.path().join(path.file_name().unwrap()), edit(&text)).unwrap();
    }
    copy
}

/// One change a fuzz test makes to a valid input, at a character position
/// taken modulo the input's length.
#[derive(Clone, Debug)]
pub enum Edit {
    Insert(usize, String),
    Delete(usize, usize),
    Replace(usize, String),
}

/// Edits inserting or replacing with what `piece` gives, or deleting up to
/// `longest` characters.
pub fn edit<S>(piece: impl Fn() -> S, longest: usize) -> impl proptest::strategy::Strategy<Value = Edit>
where
    S: proptest::strategy::Strategy<Value = String> + 'static,
{
    use proptest::prelude::*;
    prop_oneof![
        (any::<usize>(), piece()).prop_map(|(at, p)| Edit::Insert(at, p)),
        (any::<usize>(), 1usize..longest.max(2)).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), piece()).prop_map(|(at, p)| Edit::Replace(at, p)),
    ]
}

/// `seed` with `edits` applied, at character boundaries.
pub fn mutate(seed: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for e in edits {
        let at = |i: usize| i % (chars.len() + 1);
        match e {
            Edit::Insert(i, p) => {
                let i = at(*i);
                chars.splice(i..i, p.chars());
            }
            Edit::Delete(i, n) => {
                let i = at(*i);
                let end = (i + n).min(chars.len());
                chars.drain(i..end);
            }
            Edit::Replace(i, p) => {
                let i = at(*i);
                let end = (i + 1).min(chars.len());
                chars.splice(i..end, p.chars());
            }
        }
    }
    chars.into_iter().collect()
}
