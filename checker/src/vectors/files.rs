//! The suite's files, and an implementation's results read back.
//!
//! JSON Lines (`vectors.jsonl`), one object per vector:
//! `{"schema_version":1,"id":0,"variant":"add.u32","reason":{"kind":"boundary","name":"a=0 b=0"},
//! "inputs":{"a":"0x00000000","b":"0x00000000"},"spec":{"d":"0x00000000"},"sm_90":{"d":"0x00000000"}}`;
//! an output a model leaves open is `null`. CSV (`vectors.csv`) has the same
//! fields, each map written `name=value` separated by spaces, and an empty
//! `actual` column to fill in. The layout is documented in `docs/vectors.md`.
//!
//! Results are the same lines with `actual`: a hex string (one output), or
//! an object with every output's value by name (`{"d":"0x1","p":"0x0"}`);
//! in CSV, `0x1` or `d=0x1 p=0x0`. Expected values in a results file are
//! not read: `conform` computes them again from the inputs.

use std::path::Path;

use indexmap::IndexMap;
use ptx_spec::bv::mask;
use ptx_spec::catalogue::{Operand, Variant};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Reason, Vector, SCHEMA_VERSION};
use ptx_spec::bv::{hex, parse_hex};

/// The files `vectors` writes in its folder, besides one PTX module per
/// variant under `ptx/`.
pub const JSONL: &str = "vectors.jsonl";
pub const CSV: &str = "vectors.csv";

/// The CSV header.
pub const CSV_HEADER: [&str; 8] = ["schema_version", "id", "variant", "reason", "inputs", "spec", "sm_90", "actual"];

/// Values by operand name, as hex strings padded to the operand's width
/// (`None`: a value a model leaves open, `null` in the JSON).
pub type Values = IndexMap<String, Option<String>>;

/// One line of `vectors.jsonl`, as `vectors` writes it and `conform`
/// copies it into a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteLine {
    pub schema_version: u32,
    pub id: usize,
    pub variant: String,
    pub reason: Reason,
    pub inputs: Values,
    pub spec: Values,
    pub sm_90: Values,
}

/// A suite line with what an implementation gave: `actual`, or `outcome`
/// (and its `message`) where it gave no value.
#[derive(Serialize)]
pub struct ResultLine {
    #[serde(flatten)]
    pub line: SuiteLine,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Values>,
}

/// Values by operand name, as hex strings padded to the operand's width;
/// `null` where a value is `None`.
pub fn values(ops: &[Operand], values: impl Iterator<Item = Option<u128>>) -> Values {
    ops.iter().zip(values).map(|(o, v)| (o.name.to_string(), v.map(|v| hex(v, o.ty.width())))).collect()
}

/// The suite as JSON Lines, vectors numbered from 0 in order.
pub fn jsonl(vectors: &[Vector]) -> String {
    let mut text = String::new();
    for (id, v) in vectors.iter().enumerate() {
        let (ins, outs) = (v.variant.inputs(), v.variant.outputs());
        let line = SuiteLine {
            schema_version: SCHEMA_VERSION,
            id,
            variant: v.variant.to_string(),
            reason: v.reason.clone(),
            inputs: values(&ins, v.inputs.iter().map(|&x| Some(x))),
            spec: values(&outs, v.spec.iter().copied()),
            sm_90: values(&outs, v.sm_90.iter().copied()),
        };
        text.push_str(&serde_json::to_string(&line).expect("a vector serialises"));
        text.push('\n');
    }
    text
}

/// `name=value` pairs separated by spaces; an open output is `unspecified`.
fn pairs(ops: &[Operand], values: impl Iterator<Item = Option<u128>>) -> String {
    ops.iter()
        .zip(values)
        .map(|(o, v)| format!("{}={}", o.name, v.map_or("unspecified".to_string(), |v| hex(v, o.ty.width()))))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The suite as CSV, with an empty `actual` column.
pub fn csv(vectors: &[Vector]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER).expect("writing to memory");
    for (id, v) in vectors.iter().enumerate() {
        let (ins, outs) = (v.variant.inputs(), v.variant.outputs());
        w.write_record([
            SCHEMA_VERSION.to_string(),
            id.to_string(),
            v.variant.to_string(),
            v.reason.label(),
            pairs(&ins, v.inputs.iter().map(|&x| Some(x))),
            pairs(&outs, v.spec.iter().copied()),
            pairs(&outs, v.sm_90.iter().copied()),
            String::new(),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("the CSV is text")
}

/// One result of an implementation: a vector's inputs and what it gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `FILE:LINE`, for messages.
    pub at: String,
    pub variant: Variant,
    pub inputs: Vec<u128>,
    /// The outputs it gave; empty where it gave an [`Event`] instead.
    pub actual: Vec<u128>,
    /// What happened instead of a value, and its message, if anything did.
    pub event: Option<Happened>,
    /// Why the vector is in the suite, as the file says (a label).
    pub reason: Option<String>,
}

/// An event and its message, if it came with one.
pub type Happened = (Event, Option<String>);

/// What an implementation may answer instead of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// It raised an error or exception and stopped (division by zero, say).
    Trap,
    /// Its process died (a signal, or an exit before answering).
    Crash,
    /// It does not implement the instruction.
    Unimplemented,
    /// It gave no answer in time.
    Timeout,
}

impl Event {
    pub const ALL: [Event; 4] = [Event::Trap, Event::Crash, Event::Unimplemented, Event::Timeout];

    pub fn word(self) -> &'static str {
        match self {
            Event::Trap => "trap",
            Event::Crash => "crash",
            Event::Unimplemented => "unimplemented",
            Event::Timeout => "timeout",
        }
    }

    /// The event a results file names, or an error listing the words.
    pub fn from_word(word: &str) -> Result<Event, String> {
        Event::ALL.into_iter().find(|e| e.word() == word).ok_or_else(|| {
            let words: Vec<&str> = Event::ALL.iter().map(|e| e.word()).collect();
            format!("outcome `{}` is none of {}", shown(word), words.join(", "))
        })
    }
}

/// A hex value (`0x` optional) of at most `width` bits.
fn value(text: &str, width: u32, what: &str) -> Result<u128, String> {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    let shown = shown(text);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("{what} `{shown}` is not a hex value"));
    }
    // Leading zeros are allowed, however many: only the value's width counts.
    let significant = digits.trim_start_matches('0');
    let wide = || format!("{what} `{shown}` is wider than {width} bits");
    if significant.len() > 32 {
        return Err(wide());
    }
    let v = parse_hex(digits).ok_or_else(wide)?;
    if v & !mask(width) != 0 {
        return Err(wide());
    }
    Ok(v)
}

/// Text from a file, escaped and cut to 40 characters, for a message.
fn shown(text: &str) -> String {
    let escaped: String = text.chars().flat_map(char::escape_default).collect();
    if escaped.chars().count() > 40 {
        format!("{}...", escaped.chars().take(40).collect::<String>())
    } else {
        escaped
    }
}

fn variant(name: &str) -> Result<Variant, String> {
    Variant::from_mnemonic(name).ok_or_else(|| format!("unknown variant `{}`", shown(name)))
}

/// Values by operand name from a JSON object, every operand present.
fn from_object(ops: &[Operand], map: &Map<String, Value>, what: &str) -> Result<Vec<u128>, String> {
    for k in map.keys() {
        if !ops.iter().any(|o| o.name == k) {
            return Err(format!("{what} has no operand `{}`", shown(k)));
        }
    }
    ops.iter()
        .map(|o| match map.get(o.name) {
            Some(Value::String(s)) => value(s, o.ty.width(), &format!("{what}.{}", o.name)),
            Some(_) => Err(format!("{what}.{} is not a hex string", o.name)),
            None => Err(format!("{what} has no `{}`", o.name)),
        })
        .collect()
}

/// Values by operand name from `name=value` pairs, every operand present.
fn from_pairs(ops: &[Operand], text: &str, what: &str) -> Result<Vec<u128>, String> {
    let mut map = Map::new();
    for pair in text.split_whitespace() {
        let (k, v) = pair.split_once('=').ok_or_else(|| format!("{what}: `{}` is not name=value", shown(pair)))?;
        map.insert(k.to_string(), Value::String(v.to_string()));
    }
    from_object(ops, &map, what)
}

/// An `actual` field: one hex value for a one-output variant, or the
/// outputs by name.
pub(crate) fn actual_text(v: &Variant, text: &str) -> Result<Vec<u128>, String> {
    let outs = v.outputs();
    if !text.contains('=') && outs.len() == 1 {
        return Ok(vec![value(text.trim(), outs[0].ty.width(), "actual")?]);
    }
    from_pairs(&outs, text, "actual")
}

/// Results from JSON Lines text; `file` names it in errors.
pub fn read_jsonl(file: &Path, text: &str) -> Result<Vec<Outcome>, String> {
    read_lines(file, text, true)
}

/// The suite's own lines (`vectors.jsonl`, no `actual`), as outcomes with
/// no actual values.
pub fn read_suite(file: &Path, text: &str) -> Result<Vec<Outcome>, String> {
    read_lines(file, text, false)
}

fn read_lines(file: &Path, text: &str, with_actual: bool) -> Result<Vec<Outcome>, String> {
    // Lines are read in parallel; the first bad one, in file order, is the
    // one reported.
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    let read: Vec<Result<Outcome, String>> =
        lines.par_iter().map(|&(n, line)| read_line(file, n, line, with_actual)).collect();
    read.into_iter().collect()
}

fn read_line(file: &Path, n: usize, line: &str, with_actual: bool) -> Result<Outcome, String> {
    let at = format!("{}:{}", file.display(), n + 1);
    let fail = |why: String| format!("{at}: {why}");
    let json: Value = serde_json::from_str(line).map_err(|e| fail(format!("not JSON: {e}")))?;
    let obj = json.as_object().ok_or_else(|| fail("not a JSON object".into()))?;
    let name = obj.get("variant").and_then(Value::as_str).ok_or_else(|| fail("no `variant`".into()))?;
    let v = variant(name).map_err(fail)?;
    let inputs = match obj.get("inputs") {
        Some(Value::Object(m)) => from_object(&v.inputs(), m, "inputs").map_err(fail)?,
        Some(_) => return Err(fail("`inputs` is not an object".into())),
        None => return Err(fail("no `inputs`".into())),
    };
    let event = match (obj.get("outcome"), obj.get("actual")) {
        _ if !with_actual => None,
        (Some(_), Some(_)) => return Err(fail("both `actual` and `outcome`: give one".into())),
        (Some(Value::String(word)), None) => {
            let message = match obj.get("message") {
                None | Some(Value::Null) => None,
                Some(Value::String(m)) => Some(m.clone()),
                Some(_) => return Err(fail("`message` is not a string".into())),
            };
            Some((Event::from_word(word).map_err(fail)?, message))
        }
        (Some(_), None) => return Err(fail("`outcome` is not a string".into())),
        (None, _) => None,
    };
    let actual = match obj.get("actual") {
        _ if !with_actual || event.is_some() => Vec::new(),
        Some(Value::String(s)) => actual_text(&v, s).map_err(fail)?,
        Some(Value::Object(m)) => from_object(&v.outputs(), m, "actual").map_err(fail)?,
        Some(_) => return Err(fail("`actual` is neither a hex string nor an object".into())),
        None => return Err(fail("no `actual` (or `outcome`)".into())),
    };
    let reason = obj
        .get("reason")
        .map(|r| serde_json::from_value::<Reason>(r.clone()).map_or_else(|_| r.to_string(), |r| r.label()));
    Ok(Outcome { at, variant: v, inputs, actual, event, reason })
}

/// Results from CSV text with a header naming at least `variant`, `inputs`
/// and `actual`; `file` names it in errors.
pub fn read_csv(file: &Path, text: &str) -> Result<Vec<Outcome>, String> {
    let mut r = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
    let header = r.headers().map_err(|e| format!("{}:1: not CSV: {e}", file.display()))?.clone();
    let column = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| format!("{}:1: no column `{name}`", file.display()))
    };
    let (cv, ci, ca) = (column("variant")?, column("inputs")?, column("actual")?);
    let cr = header.iter().position(|h| h == "reason");
    let (co, cm) = (header.iter().position(|h| h == "outcome"), header.iter().position(|h| h == "message"));
    let mut out = Vec::new();
    for record in r.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            format!("{}:{line}: not CSV: {e}", file.display())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let at = format!("{}:{line}", file.display());
        let fail = |why: String| format!("{at}: {why}");
        let v = variant(&record[cv]).map_err(fail)?;
        let inputs = from_pairs(&v.inputs(), &record[ci], "inputs").map_err(fail)?;
        let word = co.map(|c| record[c].trim()).filter(|w| !w.is_empty());
        let (actual, event) = match (word, record[ca].trim().is_empty()) {
            (Some(_), false) => return Err(fail("both `actual` and `outcome`: give one".into())),
            (Some(word), true) => {
                let message = cm.map(|c| record[c].to_string()).filter(|m| !m.is_empty());
                (Vec::new(), Some((Event::from_word(word).map_err(fail)?, message)))
            }
            (None, true) => return Err(fail("no `actual` (or `outcome`)".into())),
            (None, false) => (actual_text(&v, &record[ca]).map_err(fail)?, None),
        };
        let reason = cr.map(|c| record[c].to_string()).filter(|r| !r.is_empty());
        out.push(Outcome { at, variant: v, inputs, actual, event, reason });
    }
    Ok(out)
}

/// Results from `file`, whose text is `text`: CSV if its name ends in
/// `.csv`, JSON Lines otherwise.
pub fn read(file: &Path, text: &str) -> Result<Vec<Outcome>, String> {
    if file.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
        read_csv(file, text)
    } else {
        read_jsonl(file, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_line_read_back_with_its_actual() {
        let v = Variant::from_mnemonic("add.u32").unwrap();
        let vectors = vec![Vector::new(v, vec![5, 7], Reason::Boundary { name: "x".into() })];
        let line = jsonl(&vectors);
        assert!(line.starts_with(r#"{"schema_version":2,"id":0,"variant":"add.u32","reason":{"kind":"boundary","name":"x"},"inputs":{"a":"0x00000005","b":"0x00000007"},"spec":{"d":"0x0000000c"}"#), "{line}");
        let with = line.trim_end().strip_suffix('}').unwrap().to_string() + r#","actual":"0xc"}"#;
        let got = read_jsonl(Path::new("r.jsonl"), &with).unwrap();
        assert_eq!((got[0].inputs.clone(), got[0].actual.clone()), (vec![5, 7], vec![12]));
        let csv_text = csv(&vectors).replace(",\n", ",0x0000000c\n");
        let got = read_csv(Path::new("r.csv"), &csv_text).unwrap();
        assert_eq!(
            (got[0].inputs.clone(), got[0].actual.clone(), got[0].at.as_str()),
            (vec![5, 7], vec![12], "r.csv:2")
        );
    }

    #[test]
    fn an_outcome_stands_for_a_value() {
        let line = r#"{"variant":"div.s32","inputs":{"a":"0x80000000","b":"0xffffffff"},"outcome":"crash","message":"SIGFPE"}"#;
        let got = read_jsonl(Path::new("r.jsonl"), line).unwrap();
        assert_eq!(got[0].event, Some((Event::Crash, Some("SIGFPE".into()))));
        assert!(got[0].actual.is_empty());
        let csv_text = "variant,inputs,actual,outcome,message\ndiv.u32,a=0x7 b=0x0,,trap,\nadd.u32,a=0x1 b=0x1,0x2,,\n";
        let got = read_csv(Path::new("r.csv"), csv_text).unwrap();
        assert_eq!((got[0].event.clone(), got[1].event.clone()), (Some((Event::Trap, None)), None));
        let err = |text: &str| read_jsonl(Path::new("r.jsonl"), text).unwrap_err();
        let both = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x1"},"actual":"0x2","outcome":"trap"}"#;
        assert_eq!(err(both), "r.jsonl:1: both `actual` and `outcome`: give one");
        let word = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x1"},"outcome":"boom"}"#;
        assert_eq!(err(word), "r.jsonl:1: outcome `boom` is none of trap, crash, unimplemented, timeout");
    }

    #[test]
    fn bad_results_name_file_and_line() {
        let err = |text: &str| read_jsonl(Path::new("r.jsonl"), text).unwrap_err();
        assert_eq!(err("\n{"), "r.jsonl:2: not JSON: EOF while parsing an object at line 1 column 1");
        assert_eq!(err(r#"{"variant":"nope","inputs":{},"actual":"0"}"#), "r.jsonl:1: unknown variant `nope`");
        let add = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x10000"},"actual":"0"}"#;
        assert_eq!(err(add), "r.jsonl:1: inputs.b `0x10000` is wider than 16 bits");
        let add = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x1"},"actual":"0xg"}"#;
        assert_eq!(err(add), "r.jsonl:1: actual `0xg` is not a hex value");
        let add = r#"{"variant":"add.u16","inputs":{"a":"0x1"},"actual":"0x2"}"#;
        assert_eq!(err(add), "r.jsonl:1: inputs has no `b`");
        let add = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x1"}}"#;
        assert_eq!(err(add), "r.jsonl:1: no `actual` (or `outcome`)");
        let huge = format!(r#"{{"variant":"add.u16","inputs":{{"a":"0x{}","b":"0x1"}},"actual":"0"}}"#, "f".repeat(40));
        assert!(err(&huge).contains("is wider than 16 bits"), "{}", err(&huge));
    }
}
