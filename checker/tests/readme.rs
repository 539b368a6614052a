//! The commands of the README and of the pages of `docs/`, as a reader
//! types them. Every `ptxcheck` line of their code blocks (and every
//! `cargo run ... -p ptxcheck -- ...` line) must be valid usage of the
//! command line; every one not listed in [`NOT_RUN`] runs from the
//! repository root, as written, and must end with status 0 or 1 (a verdict
//! that is not all good, never bad usage) and print something; and where a
//! line's comment shows the output (`# d = 0x00000003`, `# {"d":"0xffff"}`),
//! the command must print exactly that. A command that several pages show
//! runs once.

mod common;

use std::path::{Path, PathBuf};

use clap::Parser;
use ptxcheck::cmd::Command;

/// The command line as `main.rs` parses it.
#[derive(Parser)]
#[command(name = "ptxcheck")]
struct Cli {
    #[command(subcommand)]
    _command: Command,
}

/// Commands of the README and `docs/` that are parsed but not run here, each
/// with why. The test fails on an entry that no longer matches a line of
/// those pages, so the list cannot go stale and hide a command.
const NOT_RUN: &[(&str, &str)] = &[
    // Slow: seconds to hours. Each is exercised by a test of its own or by `.ci/run`.
    ("ptxcheck prove all", "7-20 s; checker/tests/prove.rs proves every variant, .ci/run runs it"),
    ("ptxcheck prove all --solver cvc5", "26-80 s; checker/tests/prove.rs proves every variant with cvc5"),
    ("ptxcheck prove all --format json --timeout 10 --jobs 2", "7-20 s, as `prove all`; its options are parsed here"),
    ("ptxcheck claims", "5-15 s; checker/tests/cli.rs runs all claims"),
    ("ptxcheck audit", "48 s cold on 2 cores (docs/performance.md); audit --id runs here"),
    ("ptxcheck report", "minutes, and rewrites reports/; .ci/run checks it with report --check"),
    ("ptxcheck report --text NEWER/", "minutes, rewrites reports/, and needs a newer document"),
    ("ptxcheck report --text ../shared/seeds/", "minutes, and rewrites reports/; .ci/run checks it with --check"),
    (
        "ptxcheck text NEWER/ --record-fingerprints checker/text/fingerprints.toml",
        "needs a newer document, and rewrites the project's fingerprints; checker/tests/text.rs records the seeds'",
    ),
    (
        "ptxcheck text ../shared/seeds/ --record-fingerprints checker/text/fingerprints.toml",
        "rewrites the project's fingerprints; checker/tests/text.rs records the seeds' and compares",
    ),
    ("ptxcheck mutants all", "about 8 minutes on 2 cores; .ci/run runs it, checker/tests/mutants.rs a sample"),
    ("ptxcheck prove all --model sm_90", "15-30 s; checker/tests/sm_90.rs proves every variant sm_90 changes"),
    // Needs NVIDIA's wheels (see the README's set-up); checker/tests/vendor.rs and .ci/run run them.
    ("ptxcheck vendor syntax", "needs ptxas from the nvidia-cuda-nvcc-cu12 wheel"),
    ("ptxcheck vendor fold --samples 16", "needs ptxas and cuobjdump from the CUDA wheels"),
    ("ptxcheck vendor syntax --write", "needs ptxas, and rewrites reports/vendor/"),
    ("ptxcheck vendor fold --check", "needs ptxas and cuobjdump from the CUDA wheels"),
    ("ptxcheck vendor fold --write", "needs ptxas and cuobjdump, and rewrites reports/vendor/"),
    (
        "ptxcheck vendor defects --ptxas PTXAS_12_9 --ptxas PTXAS_13_5 --write",
        "needs two ptxas releases and cuobjdump, and rewrites reports/vendor/",
    ),
    // Needs a GPU: checker/tests/vendor.rs runs them, and checks the one-line error without a driver.
    ("ptxcheck hw run --output results.txt", "needs an NVIDIA GPU and its driver"),
    (
        "ptxcheck hw compare results.txt",
        "reads a GPU's results file; checker/tests/vendor.rs compares the committed H100 run",
    ),
    ("ptxcheck hw sweep --output sweep.json", "needs an NVIDIA GPU and its driver; minutes"),
    ("ptxcheck hw sweep add.u16 bfe.u32 --samples 100000", "needs an NVIDIA GPU and its driver"),
    ("ptxcheck conform --gpu suite", "needs an NVIDIA GPU and its driver"),
    // The suite: checker/tests/vectors.rs writes and checks one.
    (
        "ptxcheck vectors all --output suite",
        "12-48 s and 388 MB (docs/vectors.md); checker/tests/vectors.rs writes the suite of seven variants",
    ),
    (
        "ptxcheck conform results.jsonl",
        "reads an implementation's results; checker/tests/vectors.rs makes and checks them",
    ),
    ("ptxcheck conform results.csv --model sm_90", "reads an implementation's results, as above, in CSV"),
    (
        "ptxcheck conform suite --exec ./adapter --save results.jsonl",
        "needs the whole suite and the adapter built; checker/tests/vectors.rs runs the example adapter on a suite",
    ),
    (
        "ptxcheck conform results.jsonl --html conform.html",
        "reads an implementation's results; checker/tests/browser.rs makes them and loads the page in Chromium",
    ),
    (
        "ptxcheck conform results.jsonl --format json",
        "reads an implementation's results; checker/tests/vectors.rs checks the JSON of --exec and of a results file",
    ),
    (
        "ptxcheck vectors and or xor not cnot lop3 shf shl shr --kill-rate",
        "minutes: every mutant of 9.7.8 on the suite, survivors through the solver",
    ),
];

/// Paths the commands write to, redirected into a scratch folder
/// so that the test leaves the repository as it found it.
const WRITTEN: &[&str] = &["DIR", "ptx.smt2", "suite", "site"];

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("checker/ lies in the repository root").to_path_buf()
}

/// The pages whose commands are checked: the README, then `docs/*.md` in
/// name order, as paths relative to the repository root.
fn pages() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(repository_root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    let mut pages = vec!["README.md".to_string()];
    pages.extend(docs);
    pages
}

/// One command of a page: its words, and the comment that follows it.
#[derive(Debug)]
struct Line {
    /// The page it is on, relative to the repository root.
    page: String,
    /// As the README writes it, less the comment.
    code: String,
    /// Its words joined by single spaces, `cargo run ... --` as `ptxcheck`.
    text: String,
    words: Vec<String>,
    comment: Option<String>,
}

/// Every `ptxcheck` command in the fenced code blocks of every page.
fn commands() -> Vec<Line> {
    pages().iter().flat_map(|page| page_commands(page)).collect()
}

/// Every command once, in the order first shown: a command that moved from
/// the README to a page of `docs/` and is still shown in both runs once.
fn distinct_commands() -> Vec<Line> {
    let mut seen = std::collections::HashSet::new();
    commands().into_iter().filter(|line| seen.insert(line.text.clone())).collect()
}

/// Every `ptxcheck` command in one page's fenced code blocks.
fn page_commands(page: &str) -> Vec<Line> {
    let text = std::fs::read_to_string(repository_root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
    let mut in_block = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let (code, comment) = split_comment(line);
        if !(code.starts_with("ptxcheck ") || code.starts_with("cargo run ")) {
            continue;
        }
        let Some(words) = shlex::split(code) else { panic!("{page}: unbalanced quotes in `{line}`") };
        // `cargo run ... -p ptxcheck -- ARGS` is `ptxcheck ARGS`.
        let args = match words.first().map(String::as_str) {
            Some("ptxcheck") => words[1..].to_vec(),
            Some("cargo") if words.get(1).is_some_and(|w| w == "run") && words.contains(&"ptxcheck".into()) => {
                match words.iter().position(|w| w == "--") {
                    Some(at) => words[at + 1..].to_vec(),
                    None => continue,
                }
            }
            _ => continue,
        };
        let mut all = vec!["ptxcheck".to_string()];
        all.extend(args);
        lines.push(Line {
            page: page.to_string(),
            code: code.to_string(),
            text: all.join(" "),
            words: all,
            comment: comment.map(str::to_string),
        });
    }
    assert!(!in_block, "{page}: a code block is not closed");
    lines
}

/// A line's code and its `# comment`: a `#` that starts a word outside quotes.
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => return (line[..at].trim_end(), Some(line[at + 1..].trim())),
            _ => {}
        }
        previous = c;
    }
    (line, None)
}

/// The output a comment shows, when it shows one: `d = 0x00000080, p = 1`
/// (one `name = value` line each) or a line of JSON. Other comments describe.
fn shown_output(comment: &str) -> Option<String> {
    if comment.starts_with('{') {
        return Some(format!("{comment}\n"));
    }
    let is_name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let pairs: Vec<&str> = comment.split(", ").collect();
    let all_assignments = pairs.iter().all(|pair| {
        pair.split_once(" = ").is_some_and(|(name, value)| is_name(name) && !value.is_empty() && !value.contains(' '))
    });
    all_assignments.then(|| pairs.iter().map(|pair| format!("{pair}\n")).collect())
}

fn not_run(line: &Line) -> Option<&'static str> {
    NOT_RUN.iter().find(|(text, _)| *text == line.text).map(|(_, why)| *why)
}

#[test]
fn the_pages_name_commands() {
    let lines = commands();
    // docs/commands.md alone has over thirty; a broken extraction finds none.
    assert!(lines.len() > 30, "found only {} commands in the README and docs/", lines.len());
    let readme: Vec<&Line> = lines.iter().filter(|l| l.page == "README.md").collect();
    assert!(readme.len() > 10, "found only {} commands in README.md", readme.len());
    assert!(readme.iter().any(|l| l.text == "ptxcheck prove all"), "the main job is in the README");
    for page in pages() {
        if page != "docs/README.md" {
            let n = lines.iter().filter(|l| l.page == page).count();
            println!("{page}: {n} commands");
        }
    }
}

#[test]
fn every_command_is_valid_usage() {
    for line in commands() {
        if let Err(e) = Cli::try_parse_from(&line.words) {
            panic!("{}: `{}` is not valid usage:\n{e}", line.page, line.code);
        }
    }
}

#[test]
fn every_command_not_run_is_on_a_page() {
    let lines = commands();
    for (text, _) in NOT_RUN {
        assert!(
            lines.iter().any(|l| l.text == *text),
            "NOT_RUN lists `{text}`, which neither the README nor a page of docs/ has"
        );
    }
}

#[test]
fn every_fast_command_runs_as_written() {
    let root = repository_root();
    let scratch = tempfile::tempdir().unwrap();
    let (mut ran, mut failures) = (0, Vec::new());
    for line in distinct_commands() {
        if let Some(why) = not_run(&line) {
            println!("not run: `{}`: {why}", line.text);
            continue;
        }
        // The spec text: the copy the tests read (`PTXCHECK_SPEC_TEXT`, by
        // default the seeds beside the repository); without one, the
        // command is skipped.
        let text_at = |w: &String| w.starts_with("../shared/seeds");
        let mut words = line.words.clone();
        if words.iter().any(text_at) {
            let Some(dir) = common::spec_text(&format!("`{}`", line.text)) else { continue };
            for w in words.iter_mut().filter(|w| text_at(w)) {
                *w = dir.display().to_string();
            }
        }
        let mut written = None;
        let args: Vec<String> = words[1..]
            .iter()
            .map(|word| match WRITTEN.iter().find(|w| word == *w || word.starts_with(&format!("{w}/"))) {
                Some(w) => {
                    written = Some(scratch.path().join(w));
                    scratch.path().join(word).display().to_string()
                }
                None => word.clone(),
            })
            .collect();
        let o = common::command()
            .args(&args)
            .current_dir(&root)
            .output()
            .unwrap_or_else(|e| panic!("`{}` does not start: {e}", line.text));
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        let (page, code) = (&line.page, &line.code);
        if !matches!(o.status.code(), Some(0 | 1)) {
            failures.push(format!("{page}: `{code}` exits with {:?}: {}", o.status.code(), stderr.trim()));
        } else if let Some(path) = &written {
            // A command that writes a file may print nothing; the file is its output.
            if !path.exists() {
                failures.push(format!("{page}: `{code}` does not write {}", path.display()));
            }
        } else if stdout.trim().is_empty() {
            failures.push(format!("{page}: `{code}` prints nothing: {}", stderr.trim()));
        } else if let Some(expected) = line.comment.as_deref().and_then(shown_output) {
            if stdout != expected {
                failures.push(format!("{page}: `{code}` prints {stdout:?}, not {expected:?} as its comment shows"));
            }
        }
        ran += 1;
    }
    assert!(failures.is_empty(), "commands that do not run as written:\n{}", failures.join("\n"));
    assert!(ran >= 20, "only {ran} commands ran");
}

#[test]
fn comments_that_show_an_output_are_recognised() {
    assert_eq!(shown_output("d = 0x00000003").as_deref(), Some("d = 0x00000003\n"));
    assert_eq!(shown_output("d = 0x00000080, p = 1").as_deref(), Some("d = 0x00000080\np = 1\n"));
    assert_eq!(shown_output(r#"{"d":"0xffff"}"#).as_deref(), Some("{\"d\":\"0xffff\"}\n"));
    assert_eq!(shown_output("every variant; exit 0 only if all are proven"), None);
    assert_eq!(shown_output("segments of 8 lanes, each reads its lane 5"), None);
    assert_eq!(
        split_comment("ptxcheck eval 'add.s32 d, a, 1' --lanes a=-16..15   # any instruction"),
        ("ptxcheck eval 'add.s32 d, a, 1' --lanes a=-16..15", Some("any instruction"))
    );
    assert_eq!(split_comment("ptxcheck eval 'a # b'"), ("ptxcheck eval 'a # b'", None));
}
