//! A bounded fuzz test of what `eval` and `run` read: the instruction
//! parser, the program parser and executor, and the `--lanes`/`--set`
//! syntax. Inputs are random text and mutations of valid inputs (bytes
//! inserted, deleted or replaced, among them control characters, a
//! byte-order mark, comment markers, huge numbers and huge register
//! ranges). Whatever the input: no panic, an error is one line with no
//! control character in it, and no input takes 2 seconds. A few cases go
//! through the binary too: exit status 2 and exactly one line on standard
//! error. CI runs this in release and in debug, where arithmetic overflow
//! panics.

mod common;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use ptxcheck::eval::{evaluate, evaluate_warp, LaneValues};
use ptxcheck::ptx::parse::parse_instruction;
use ptxcheck::ptx::program::Program;

const LIMIT: Duration = Duration::from_secs(2);

const INSTRUCTIONS: &[&str] = &[
    "shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1",
    "lop3.or.b32 d|p, 0xf0, 0xcc, 0xaa, 0x80, 0",
    "shr.s16 d, -32768, 100",
    "bfe.s32 d, 0xf0, 4, 4;",
    "shfl.up.b32 Ry|p, Rx, 1, 0",
    "add.s32 d, a, 1",
    "and.pred p, true, 0",
    "div.u32 d, 7, 0",
];

const PROGRAMS: &[&str] = &[
    "add.u32 x, y, 1;\n@p add.u32 x, x, y; // again\nmul.wide.u16 w, h, h;",
    ".reg .b32 r<4>;\n.reg .pred q;\nadd.u32 r1, r0, 1; /* note */ @!q sub.u32 r2, r1, r0;",
    ".reg .b32 Rx, Ry;\n.reg .pred p;\nshfl.up.b32 Ry|p, Rx, 0x1, 0x0;\n@p add.u32 Rx, Ry, Rx;",
    "add.u32 x, brand, 1;",
];

const LANES: &[&str] = &["Rx=0..31", "a=100..131", "a=7", "r0=1", "y=-5", "q=1", "brand=0x10"];

/// Pieces the mutations insert: what has broken parsers before, or could.
const PIECES: &[&str] = &[
    "\n",
    "\r",
    "\t",
    "\0",
    "\x1b[31m",
    "\u{feff}",
    "\u{202e}",
    "é",
    "/*",
    "*/",
    "//",
    ";",
    ",",
    "|",
    "@",
    "@!",
    ":",
    "=",
    "..",
    "-",
    "%",
    "_",
    "$",
    "<",
    ">",
    "<1000000000>",
    "<65536>",
    "<100000>",
    ".reg .b32 r<100000>;",
    ".reg .pred p<99999999999999999999999>;",
    "0x1ffffffffffffffffffffffffffffffff",
    "-170141183460469231731687303715884105728",
    "99999999999999999999999999999999999999999",
    "bra",
    "bra.uni L1;",
    "L1:",
    "true",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(PIECES).prop_map(str::to_string),
        2 => any::<char>().prop_map(|c| c.to_string()),
        1 => (1usize..4).prop_map(|k| "9".repeat(10_usize.pow(k as u32))),
        1 => "[ -~]{0,8}",
    ]
}

fn mutated(corpus: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (proptest::sample::select(corpus), proptest::collection::vec(common::edit(piece, 6), 1..5))
            .prop_map(|(seed, edits)| common::mutate(seed, &edits)),
        1 => "\\PC{0,40}",
        1 => any::<String>(),
    ]
}

/// An error message is one line, with nothing in it that acts on a
/// terminal, and never quotes an empty token.
fn one_line(input: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.chars().any(char::is_control), "input {input:?}: message {message:?}");
    // An empty token shows as ``; a backtick in the input may too.
    prop_assert!(input.contains('`') || !message.contains("``"), "input {input:?}: message {message:?}");
    prop_assert!(message.chars().count() < 2000, "input {input:?}: message {message:?}");
    Ok(())
}

fn in_time(input: &str, start: Instant) -> Result<(), TestCaseError> {
    prop_assert!(start.elapsed() < LIMIT, "input {input:?} took {:?}", start.elapsed());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn instructions(text in mutated(INSTRUCTIONS)) {
        let start = Instant::now();
        if let Err(e) = parse_instruction(&text) {
            one_line(&text, &e.to_string())?;
        }
        if let Err(e) = evaluate(&text) {
            one_line(&text, &e.to_string())?;
        }
        in_time(&text, start)?;
    }

    #[test]
    fn lanes(text in mutated(INSTRUCTIONS), spec in mutated(LANES), active in any::<u32>()) {
        let start = Instant::now();
        match LaneValues::parse(&spec) {
            Err(e) => one_line(&spec, &e.to_string())?,
            Ok(lanes) => {
                if let Err(e) = evaluate_warp(&text, &[lanes], active) {
                    one_line(&format!("{text} --lanes {spec}"), &e.to_string())?;
                }
            }
        }
        in_time(&spec, start)?;
    }

    #[test]
    fn programs(text in mutated(PROGRAMS), set in proptest::collection::vec(mutated(LANES), 0..3)) {
        let start = Instant::now();
        if let Err(e) = Program::parse(&text) {
            one_line(&text, &e.to_string())?;
        }
        if let Err(e) = ptxcheck::run::run("p.ptx", &text, &set, u32::MAX) {
            one_line(&format!("{text} --set {set:?}"), &e.to_string())?;
        }
        in_time(&text, start)?;
    }
}

/// The binary on inputs of the kinds above: exit status 2, one line on
/// standard error, nothing on standard output, in time.
#[test]
fn the_binary_answers_bad_input_with_one_line() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let huge = file("huge.ptx", b".reg .b32 r<1000000000>;\nadd.u32 r1, r0, 1;\n");
    let open = file("open.ptx", b"add.u32 x, y, 1;\n/* never closed\n");
    let binary = file("binary.ptx", b"add.u32 x, y, 1;\n\xff\xfe\n");
    let escape = file("escape.ptx", b"add.u32 x, \x1b[2J, 1;\n");
    let ok = file("ok.ptx", "\u{feff}add.u32 x, brand, 1; /* fine */\n".as_bytes());
    let long = "9".repeat(10_000);
    let eval_long = format!("add.u32 d, {long}, 1");
    let cases: Vec<Vec<&str>> = vec![
        vec!["eval", "add.s32 %, 1, 2"],
        vec!["eval", ".b32 d, 1, 2"],
        vec!["eval", "lop3.or.b32 |p, 1, 2, 3, 4, 1"],
        vec!["eval", "add.u32 d, \x1b[31mx\ny, 1"],
        vec!["eval", &eval_long],
        vec!["eval", "add.u32 d, 0x1ffffffffffffffffffffffffffffffff, 1"],
        vec!["eval", "shfl.up.b32 d, a, 1, 0", "--lanes", "a=1..99999999999999999999999999999999999999999"],
        vec!["eval", "shfl.up.b32 d, a, 1, 0", "--lanes", "a=-170141183460469231731687303715884105728..0"],
        vec!["run", &huge],
        vec!["run", &open],
        vec!["run", &binary],
        vec!["run", &escape],
        vec!["run", &ok, "--set", "brand="],
        vec!["run", &ok, "--set", "%=1"],
    ];
    for args in &cases {
        let start = Instant::now();
        let o = common::ptxcheck(args);
        let took = start.elapsed();
        let err = common::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.ends_with('\n'), "{args:?}: {err:?}");
        assert_eq!(err.matches('\n').count(), 1, "{args:?}: {err:?}");
        assert!(!err.trim_end().chars().any(char::is_control), "{args:?}: {err:?}");
        assert!(err.len() < 400, "{args:?}: {err:?}");
        assert!(common::stdout(&o).is_empty(), "{args:?}");
        assert!(took < LIMIT, "{args:?} took {took:?}");
    }
    let o = common::ptxcheck(&["run", &ok, "--set", "brand=1"]);
    assert_eq!((o.status.code(), common::stdout(&o).as_str()), (Some(0), "x = 0x00000002\n"), "{}", common::stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
