//! A bounded fuzz test of what `text` and `pseudocode` read: the document
//! reader and the pseudocode parser, on arbitrary bytes, on mutations of a
//! section written here and of the seeds' files (where the shared text is
//! beside the repository), and on code nested or chained far past any the
//! document holds. Whatever the input: no panic and no stack overflow, an
//! error is one line, and the passes that read a document (with the code
//! read as C) finish on what the reader gives them. CI runs this in release
//! and in debug, where arithmetic overflow panics and frames are larger.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use ptxcheck::audit::text::{self, document};
use ptxcheck::pseudocode::{self, SourceLine, Vocabulary};

/// A section of an instruction set that does not exist, in the document's
/// layout: what the mutations start from when the shared text is absent.
const SECTION: &str = "\
# 9.9.1. Demonstration Instructions: twiddle

#### 9.9.1. [Demonstration Instructions: `twiddle`](#twiddle)

`twiddle`

Twiddle the bits of a value.

Syntax

```
twiddle.mode.type  d, a, b;

.mode = { .up, .down };
.type = { .u32, .s32 };
```

Description

Rotate `a` by `b` bits in the direction `.mode` names; `b` is read modulo 32.

Semantics

```
n = b & 0x1f;
if (.mode == .up) {
    d = (a << n) | (a >> (32 - n));
} else {
    for (i = 0; i < n; i++) { d = (d >> 1) | ((d & 1) << 31); }
}
```

PTX ISA Notes

Introduced in PTX ISA version 9.9.

Target ISA Notes

Requires `sm_99` or higher.

Examples

```
twiddle.up.u32  r1, r2, 3;
@p twiddle.down.s32 r1, r2, r3;
```
";

/// What the mutations insert: Markdown's and C's structure, and what has
/// broken readers before.
const PIECES: &[&str] = &[
    "\n",
    "\r\n",
    "\t",
    "\u{feff}",
    "\u{202e}",
    "é",
    "```",
    "```\n",
    "#### ",
    "### 9.9.2. ",
    "# 9.9.1. ",
    "Semantics\n",
    "Syntax\n",
    "Examples\n",
    "Description\n",
    "(",
    ")",
    "((((((((",
    "))))))))",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "..",
    ":",
    ";",
    "?",
    "|",
    "//",
    "/*",
    "*/",
    "\\",
    "`",
    "=",
    "==",
    ".",
    "0x",
    "99999999999999999999999999999999999999999",
    "def f(x) {",
    "switch (a) { case 1:",
    "for (;;)",
    "if (a)",
    "else",
    "sizeof(",
    "[Thread]",
    "CmpOp",
    "|x|",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(PIECES).prop_map(str::to_string),
        2 => any::<char>().prop_map(|c| c.to_string()),
        1 => (1usize..300).prop_map(|k| "(".repeat(k)),
        1 => "[ -~]{0,12}",
    ]
}

/// The documents the mutations start from: the section above, and the
/// seeds' files where the shared text is there.
fn corpus() -> &'static [String] {
    static CORPUS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut docs = vec![SECTION.to_string()];
        let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds");
        if let Ok(entries) = std::fs::read_dir(&seeds) {
            let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "md" || x == "txt")) {
                if let Ok(text) = std::fs::read_to_string(f) {
                    docs.push(text);
                }
            }
        }
        docs
    })
}

fn mutated_document() -> impl Strategy<Value = String> {
    (any::<usize>(), proptest::collection::vec(common::edit(piece, 40), 0..12))
        .prop_map(|(k, edits)| common::mutate(&corpus()[k % corpus().len()], &edits))
}

/// The code of the Semantics block of [`SECTION`].
fn section_code() -> &'static str {
    SECTION
        .split("Semantics\n\n```\n")
        .nth(1)
        .and_then(|r| r.split("```").next())
        .expect("SECTION has a Semantics block")
}

/// A mutated Semantics block: the code of the section above, or code the
/// generators nest and chain.
fn mutated_code() -> impl Strategy<Value = String> {
    let code = section_code();
    (proptest::collection::vec(common::edit(piece, 40), 0..16), 0usize..4, 1usize..3000).prop_map(
        move |(edits, shape, n)| {
            let seed = match shape {
                0 => code.to_string(),
                1 => format!("d = {}a{};", "(".repeat(n), ")".repeat(n)),
                2 => format!("d = {};", vec!["a"; n].join(" + ")),
                _ => format!("{}d = a;{}", "if (a) { ".repeat(n), " }".repeat(n)),
            };
            common::mutate(&seed, &edits)
        },
    )
}

/// An error is one line, with nothing in it that acts on a terminal.
fn one_line(input: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.chars().any(char::is_control), "input {input:?}: message {message:?}");
    prop_assert!(message.chars().count() < 2000, "input {input:?}: message {message:?}");
    Ok(())
}

fn parse_code(code: &str) -> pseudocode::Parsed {
    let lines: Vec<SourceLine<'_>> =
        code.lines().enumerate().map(|(i, text)| SourceLine { number: i + 1, text }).collect();
    pseudocode::parse(&lines, &Vocabulary { operators: vec!["CmpOp".into()] })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn bytes(bytes in proptest::collection::vec(any::<u8>(), 0..4000)) {
        if let Err(e) = document::parse_any("f.md", &bytes) {
            one_line("bytes", &e.to_string())?;
        }
    }

    #[test]
    fn documents(text in mutated_document()) {
        if let Err(e) = document::parse_any("f.md", text.as_bytes()) {
            one_line(&text, &e.to_string())?;
        }
    }

    #[test]
    fn code(code in mutated_code()) {
        let parsed = parse_code(&code);
        for d in &parsed.diagnostics {
            one_line(&code, &d.to_string())?;
        }
        // A walk of the whole tree: it recurses as deep as the tree is.
        let printed = pseudocode::print::block(&parsed.statements);
        // Each line printed stands for code the block holds.
        prop_assert!(printed.lines().count() <= code.len() + 1, "{code:?} printed as {printed:?}");
    }
}

proptest! {
    // Each case is a whole `text` run: every pass, and the code read as C.
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_pass_finishes_on_a_mutated_document(text in mutated_document()) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("9991_twiddle.md");
        std::fs::write(&file, &text).unwrap();
        if let Err(e) = text::run(&[file]) {
            one_line(&text, &e.to_string())?;
        }
    }
}

/// Code nested or chained far past the reader's limits, in a section of its
/// own, through the binary: `text` and `pseudocode` answer with a finding
/// of malformed code at the place the reader stopped, in time.
#[test]
fn code_nested_or_chained_past_the_limits_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 5_000;
    let (nested, long) = (("too-deep", "nested more than"), ("too-long", "an expression of more than"));
    let cases: Vec<((&str, &str), String)> = vec![
        (nested, format!("d = {}a{};", "(".repeat(deep), ")".repeat(deep))),
        (nested, format!("{}d = a;{}", "{ ".repeat(deep), " }".repeat(deep))),
        (nested, format!("{}d = a;", "if (a) ".repeat(deep))),
        (nested, format!("d = {}a;", "-".repeat(deep))),
        (nested, format!("d = {}a;", "a = ".repeat(deep))),
        (nested, format!("d = {}a;", "a ? a : ".repeat(deep))),
        (nested, format!("d = {}a{};", "f(".repeat(deep), ")".repeat(deep))),
        (long, format!("d = {};", vec!["a"; 300_000].join(" + "))),
        (long, format!("d = a{};", ".b".repeat(300_000))),
        (long, format!("d = {};", vec!["a"; 300_000].join(", "))),
    ];
    for (k, ((code, words), block)) in cases.iter().enumerate() {
        let text = SECTION.replace(section_code(), &format!("{block}\n"));
        let file = dir.path().join(format!("999{k}_twiddle.md"));
        std::fs::write(&file, &text).unwrap();
        let path = file.to_str().unwrap();
        for (args, wanted) in
            [(vec!["text", path, "--format", "json"], code), (vec!["pseudocode", path, "--malformed"], words)]
        {
            let start = Instant::now();
            let o = common::ptxcheck(&args);
            let took = start.elapsed();
            let (out, err) = (common::stdout(&o), common::stderr(&o));
            assert!(matches!(o.status.code(), Some(0 | 1)), "case {k} {args:?}: {:?}: {err}", o.status);
            assert!(
                out.contains(wanted),
                "case {k} {args:?}: no `{wanted}` in the output: {}",
                &out[..out.len().min(600)]
            );
            assert!(took < Duration::from_secs(60), "case {k} {args:?} took {took:?}");
        }
    }
}
