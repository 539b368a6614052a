//! The errata judged against the text the user has (`ptxcheck text`).
//!
//! Each proposed fix of `checker/errata/root-causes.toml`, applied alone to
//! a copy of the seed text, must leave its root cause fixed and every other
//! one open, and the passes that read the document must find what they
//! found before, less that root cause's findings. Edits of a sentence, a
//! table row, an example comment and a code line, and a deleted section,
//! are each judged as a newer release's would be.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{ptxcheck, stderr, stdout};
use ptxcheck::audit::errata::{self, RootCause, TEXT_PREFIX};
use ptxcheck::audit::literal::check as literal;
use ptxcheck::audit::text::judge;
use serde_json::Value;

/// The seed files, then the modelled sections beyond them, as (name,
/// text), in name order.
fn seed_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "md"))
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files.extend(common::modelled_new_sections(dir));
    files
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// The files, as (name, text), written to a fresh folder.
fn written(files: &[(String, String)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    tmp
}

/// `ptxcheck text --format json` on the files written to a fresh folder.
fn text_of(files: &[(String, String)]) -> Value {
    let (out, err, code) = text_run(files, true);
    assert!(code == 0 || code == 1, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn statuses(v: &Value) -> BTreeMap<String, String> {
    let rcs = v["root_causes"].as_array().unwrap();
    rcs.iter().map(|j| (j["id"].as_str().unwrap().to_string(), j["status"].as_str().unwrap().to_string())).collect()
}

fn finding_ids(v: &Value) -> Vec<String> {
    let mut ids: Vec<String> =
        v["findings"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids
}

/// What is wrong with one root cause's fix, if anything.
fn check_fix(rc: &RootCause, seeds: &[(String, String)], before: &[String]) -> Option<String> {
    let mut files = seeds.to_vec();
    for e in &rc.edits {
        if let Err(why) = judge::apply(&mut files, e) {
            return Some(format!("{}: the edit does not apply: {why}", rc.id));
        }
    }
    let v = text_of(&files);
    let mut wrong = Vec::new();
    for (id, status) in statuses(&v) {
        let want = if id == rc.id { "fixed" } else { "open" };
        if status != want {
            let how =
                v["root_causes"].as_array().unwrap().iter().find(|j| j["id"] == id.as_str()).unwrap()["how"].clone();
            wrong.push(format!("{id} is {status}, not {want} ({how})"));
        }
    }
    let want: Vec<&String> = before.iter().filter(|f| !rc.findings.contains(f)).collect();
    let now = finding_ids(&v);
    // A fix may bring to light a hazard that the defect it removes hid: a
    // finding of a C rule that another root cause's prose settles there
    // (`settles`) is that open root cause's site, not a new defect.
    let revealed = |f: &String| {
        let under =
            v["findings"].as_array().unwrap().iter().find(|x| x["id"] == f.as_str()).unwrap()["root_cause"].clone();
        errata::all().iter().any(|o| o.id != rc.id && under == o.id.as_str() && !o.settles.is_empty())
    };
    for f in now.iter().filter(|f| !want.contains(f) && !revealed(f)) {
        wrong.push(format!("new finding {f}"));
    }
    for f in want.iter().filter(|f| !now.contains(f)) {
        wrong.push(format!("finding {f} of another root cause is gone"));
    }
    (!wrong.is_empty()).then(|| format!("{}: {}", rc.id, wrong.join("; ")))
}

#[test]
fn every_fix_applied_alone_fixes_its_root_cause_and_nothing_else() {
    let Some(dir) = common::spec_text("every_fix_applied_alone_fixes_its_root_cause_and_nothing_else") else { return };
    let seeds = seed_files(&dir);
    let base = text_of(&seeds);
    assert!(statuses(&base).values().all(|s| s == "open"), "the seeds themselves: {:?}", statuses(&base));
    let before = finding_ids(&base);
    let all = errata::all();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let chunks: Vec<&[RootCause]> = all.chunks(all.len().div_ceil(threads)).collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| s.spawn(|| chunk.iter().filter_map(|rc| check_fix(rc, &seeds, &before)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{} of {} fixes fail:\n{}", failures.len(), all.len(), failures.join("\n"));
    // How each fix was checked: by the passes that read the edited text
    // alone (the text pass, and the blocks read from the text as C), or in
    // part by the audit's own checks.
    let by_text = |f: &String| f.starts_with(TEXT_PREFIX) || literal::read_from_text(f);
    let read = all.iter().filter(|rc| rc.findings.iter().all(by_text)).count();
    eprintln!(
        "{read} fixes checked by passes that read the edited text, {} in part by the audit's checks",
        all.len() - read
    );
}

/// `ptxcheck text` on files written to a fresh folder: (stdout, stderr,
/// exit status), with `--format json` where asked.
fn text_run(files: &[(String, String)], json: bool) -> (String, String, i32) {
    let tmp = written(files);
    let mut args = vec!["text", tmp.path().to_str().unwrap()];
    if json {
        args.extend(["--format", "json"]);
    }
    let o = ptxcheck(&args);
    (stdout(&o), stderr(&o), o.status.code().unwrap_or(-1))
}

/// The seed files with `edit` applied (to every rendering of its section).
fn edited(seeds: &[(String, String)], unit: &str, old: &str, new: &str) -> Vec<(String, String)> {
    let mut files = seeds.to_vec();
    let edit = errata::Edit { unit: unit.into(), old: old.into(), new: new.into() };
    judge::apply(&mut files, &edit).unwrap_or_else(|e| panic!("{e}"));
    files
}

/// Every root cause but those named is open.
fn others_open(v: &Value, except: &[&str]) {
    for (id, status) in statuses(v) {
        if !except.contains(&id.as_str()) {
            assert_eq!(status, "open", "{id}");
        }
    }
}

fn judgement<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["root_causes"].as_array().unwrap().iter().find(|j| j["id"] == id).unwrap()
}

#[test]
fn the_seeds_leave_every_root_cause_open_and_no_unit_changed() {
    let Some(dir) = common::spec_text("the_seeds_leave_every_root_cause_open_and_no_unit_changed") else { return };
    let (out, err, code) = text_run(&seed_files(&dir), true);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    others_open(&v, &[]);
    assert_eq!(statuses(&v).len(), errata::all().len());
    for k in ["changed", "added", "removed"] {
        assert_eq!(v["units"][k].as_array().unwrap().len(), 0, "{k}");
    }
    assert_eq!(v["sections_missing"].as_array().unwrap().len(), 0);
    assert_eq!(v["stale"].as_array().unwrap().len(), 0);
    // Every root cause rests on units of the text, and every finding names
    // its own.
    for j in v["root_causes"].as_array().unwrap() {
        assert!(!j["rests_on"].as_array().unwrap().is_empty(), "{}", j["id"]);
    }
    let bare: Vec<&Value> =
        v["findings"].as_array().unwrap().iter().filter(|f| f["units"].as_array().unwrap().is_empty()).collect();
    assert!(bare.is_empty(), "{bare:?}");
}

/// The change a later release made: rem's Notes gained div's sentence on
/// division by zero, word for word the proposed fix of
/// `rem-by-zero-unstated`.
#[test]
fn rems_notes_stating_division_by_zero_fix_its_root_cause() {
    let Some(dir) = common::spec_text("rems_notes_stating_division_by_zero_fix_its_root_cause") else { return };
    let files = edited(
        &seed_files(&dir),
        "9.7.1.9/notes/sentence-1",
        "negative infinity.",
        "negative infinity. Division by zero yields an unspecified, machine-specific value.",
    );
    let (out, _, code) = text_run(&files, true);
    assert_eq!(code, 1, "something to look at");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(judgement(&v, "rem-by-zero-unstated")["status"], "fixed");
    others_open(&v, &["rem-by-zero-unstated"]);
    let added = v["units"]["added"].as_array().unwrap();
    assert_eq!(added.len(), 1, "{added:?}");
    assert_eq!(added[0]["id"], "9.7.1.9/notes/sentence-2");
    assert_eq!(v["assumptions_stated"][0]["id"], "rem-by-zero-unspecified");
    let (table, _, _) = text_run(&files, false);
    assert!(table.contains("unit new: 9.7.1.9/notes/sentence-2"), "{table}");
    assert!(table.contains("assumption rem-by-zero-unspecified: stated by the text now"), "{table}");
    assert!(table.contains("│ fixed      │ 1           │ rem-by-zero-unstated"), "{table}");
}

#[test]
fn an_edited_sentence_is_changed_and_names_what_rests_on_it() {
    let Some(dir) = common::spec_text("an_edited_sentence_is_changed_and_names_what_rests_on_it") else { return };
    let files = edited(&seed_files(&dir), "9.7.1.9/notes/sentence-1", "is machine-dependent and", "is fixed and");
    let (out, _, code) = text_run(&files, true);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let j = judgement(&v, "rem-negative-operands");
    assert_eq!(j["status"], "changed", "{j}");
    assert!(j["how"].as_str().unwrap().contains("passage:rem-negative-machine-dependent"), "{j}");
    let changed = &j["changed"][0];
    assert_eq!(changed["id"], "9.7.1.9/notes/sentence-1");
    assert!(changed["now"]["text"].as_str().unwrap().contains("is fixed and"), "{changed}");
    others_open(&v, &["rem-negative-operands"]);
    // With the recorded release given, the old text stands beside the new,
    // and the passage that is a model assumption is named as one.
    let tmp = written(&files);
    let o = ptxcheck(&["text", tmp.path().to_str().unwrap(), "--since", dir.to_str().unwrap()]);
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("unit changed: 9.7.1.9/notes/sentence-1")).unwrap_or_default();
    assert!(line.contains("now \"The behavior for negative numbers is fixed and"), "{out}");
    assert!(line.contains("was \"The behavior for negative numbers is machine-dependent and"), "{line}");
    assert!(line.contains("assumption:rem-negative-machine-dependent"), "{line}");
}

#[test]
fn an_edited_table_row_is_changed_where_the_edit_is_not_whole() {
    let Some(dir) = common::spec_text("an_edited_table_row_is_changed_where_the_edit_is_not_whole") else { return };
    // Half of the proposed fix: Oper 1 relabelled, Oper 2 not.
    let files =
        edited(&seed_files(&dir), "9.7.8.6/description/table-row-1", "Oper 1 (ta & tb & tc)", "0x80 (ta & tb & tc)");
    let (out, _, _) = text_run(&files, true);
    let v: Value = serde_json::from_str(&out).unwrap();
    let j = judgement(&v, "lop3-table-labels");
    assert_eq!(j["status"], "changed", "{j}");
    assert_eq!(j["changed"][0]["id"], "9.7.8.6/description/table-row-1");
    // The table pass read the new row: the short rows are still found.
    assert_eq!(judgement(&v, "lop3-table-short-rows")["status"], "open");
    others_open(&v, &["lop3-table-labels"]);
}

#[test]
fn an_edited_example_comment_is_read_again() {
    let Some(dir) = common::spec_text("an_edited_example_comment_is_read_again") else { return };
    // Another wording than the proposed fix's, as right.
    let files = edited(
        &seed_files(&dir),
        "9.7.1.6/examples/example-comment-1",
        "// low 32-bits of 24x24-bit signed multiply.",
        "// c plus the low 32 bits of the 24x24-bit signed product.",
    );
    let (out, _, _) = text_run(&files, true);
    let v: Value = serde_json::from_str(&out).unwrap();
    let j = judgement(&v, "mad24-example-comment");
    assert_eq!(j["status"], "fixed", "{j}");
    assert!(j["how"].as_str().unwrap().starts_with("its units changed; the passes that read the text no longer find"));
    others_open(&v, &["mad24-example-comment"]);
}

#[test]
fn an_edited_code_line_unlike_the_fix_is_changed_not_fixed() {
    let Some(dir) = common::spec_text("an_edited_code_line_unlike_the_fix_is_changed_not_fixed") else { return };
    let files = edited(&seed_files(&dir), "9.7.1.15/semantics/statement-4", "(a&mask == 0)", "((a&mask) == 0)");
    let (out, _, code) = text_run(&files, true);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let j = judgement(&v, "clz-precedence");
    assert_eq!(j["status"], "changed", "{j}");
    let how = j["how"].as_str().unwrap();
    assert!(how.contains("literal:9.7.1.15") && how.contains("passage:clz-mask-test"), "{how}");
    assert!(v["stale"].as_array().unwrap().iter().any(|s| s["what"] == "9.7.1.15 Semantics"), "{}", v["stale"]);
    // The declarations pass read the new line and still finds clz's
    // undeclared variables.
    others_open(&v, &["clz-precedence"]);
}

#[test]
fn a_deleted_section_is_named_and_its_root_causes_not_judged() {
    let Some(dir) = common::spec_text("a_deleted_section_is_named_and_its_root_causes_not_judged") else { return };
    let mut files = seed_files(&dir);
    let logic = files.iter_mut().find(|(_, t)| t.contains("#### 9.7.8.4.")).unwrap();
    let (start, end) = (logic.1.find("#### 9.7.8.4.").unwrap(), logic.1.find("#### 9.7.8.5.").unwrap());
    logic.1.replace_range(start..end, "");
    let (out, _, code) = text_run(&files, false);
    assert_eq!(code, 1);
    assert!(out.contains("not in the document: 1 sections (9.7.8.4)"), "{out}");
    let (json, _, _) = text_run(&files, true);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(judgement(&v, "not-pred-complement")["status"], "missing");
    others_open(&v, &["not-pred-complement"]);
    // The errata are not judged against a text that lacks a section.
    let tmp = written(&files);
    let o = ptxcheck(&["report", "--check", "--text", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("section 9.7.8.4 is not in the text") && err.lines().count() == 1, "{err}");
}

#[test]
fn a_text_given_twice_or_two_releases_mixed_is_one_line_and_writes_nothing() {
    let Some(dir) = common::spec_text("a_text_given_twice_or_two_releases_mixed_is_one_line_and_writes_nothing") else {
        return;
    };
    let seeds = seed_files(&dir);
    let newer = edited(&seeds, "9.7.1.9/notes/sentence-1", "negative infinity.", "negative infinity. A new one.");
    let tmp = written(&seeds);
    let (name, text) = newer.iter().find(|(_, t)| t.contains("A new one.")).unwrap();
    let mut both = seeds.clone();
    both.push((format!("z-{name}"), text.clone()));
    let mixed_dir = written(&both);
    let mixed = mixed_dir.path();
    let out = tmp.path().join("prints.toml");
    let d = tmp.path().to_str().unwrap();
    for (args, want) in [
        (vec!["text", d, d], "given twice: the same text as"),
        (vec!["text", mixed.to_str().unwrap()], "is given twice with different text"),
        (vec!["text", mixed.to_str().unwrap(), "--record-fingerprints", out.to_str().unwrap()], "two releases mixed"),
    ] {
        let o = ptxcheck(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want) && err.lines().count() == 1, "{args:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
    assert!(!out.exists(), "nothing is written");
}

/// A block read from the text is read again as the document has it: div's
/// `/` swapped for `%` is a new finding of the literal reading, with its
/// witness, and the root causes resting on that line are changed, not
/// fixed.
#[test]
fn an_operator_swapped_in_a_block_read_as_c_is_a_new_literal_finding() {
    let Some(dir) = common::spec_text("an_operator_swapped_in_a_block_read_as_c_is_a_new_literal_finding") else {
        return;
    };
    let files = edited(&seed_files(&dir), "9.7.1.8/semantics/statement-1", "d = a / b;", "d = a % b;");
    let v = text_of(&files);
    let found = v["findings"].as_array().unwrap().iter().find(|f| f["id"] == "literal-div-wrong-result");
    let found = found.unwrap_or_else(|| panic!("{:#?}", finding_ids(&v)));
    let row = &found["witness"]["rows"][0];
    assert_eq!(row[0], "d");
    assert_ne!(row[1][0], row[1][1], "the literal C and the model's d differ on the witness");
    assert_eq!(judgement(&v, "div-by-zero-value")["status"], "changed");
    assert!(finding_ids(&v).contains(&"literal-div-division-by-zero".to_string()), "`a % b` still divides by b");
}
