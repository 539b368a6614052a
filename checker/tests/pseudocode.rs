//! `ptxcheck pseudocode`: every Semantics block of the user's copy of the
//! document, and of the sections of release 9.1 beside it (those with a
//! model and those without), read by the pseudocode parser. Each block
//! parses, or each place where it does not is a diagnostic inside the
//! block; the whole output is held as a golden file.

mod common;

use std::path::PathBuf;

use common::{ptxcheck, stderr, stdout};
use ptxcheck::audit::text::{document, semantics};
use ptxcheck::pseudocode;

/// The seeds, and the release's two folders beside them.
fn document_paths(test: &str) -> Option<Vec<PathBuf>> {
    let seeds = common::spec_text(test)?;
    let release = seeds.join("../ptx-9.1");
    if !release.is_dir() {
        common::skip(&format!("{test} needs the release 9.1 sections beside the seeds: {}", release.display()));
        return None;
    }
    Some(vec![seeds, release.join("new-sections"), release.join("no-model")])
}

#[test]
fn every_block_parses_or_has_diagnostics_inside_it() {
    let Some(paths) = document_paths("every_block_parses_or_has_diagnostics_inside_it") else { return };
    let doc = document::read_any(&paths).unwrap();
    let read = semantics::read(&doc);
    // Every instruction section of the three folders has its block.
    assert_eq!(read.len(), 68);
    let mut malformed = 0;
    for r in &read {
        let block = r.section.block(document::BlockKind::Semantics).unwrap();
        let code: Vec<usize> = block.code().map(|l| l.number).collect();
        assert!(!r.parsed.statements.is_empty(), "{}: no statement read", r.section.number);
        for d in &r.parsed.diagnostics {
            malformed += 1;
            assert!(code.contains(&d.pos.line), "{}: {d} is outside the block's code", r.section.number);
            let line = &block.lines.iter().find(|l| l.number == d.pos.line).unwrap().text;
            let at: String = line.chars().skip(d.pos.column - 1).collect();
            assert!(
                at.starts_with(&d.fragment),
                "{}: {d}: `{}` is not at its column in `{line}`",
                r.section.number,
                d.fragment
            );
        }
    }
    // szext's `?` with no `:`, bmsk's five hyphenated names assigned to,
    // prmt's `08`, min's two and max's three statements with no `;` or
    // with two operands side by side.
    assert_eq!(malformed, 12);
}

/// What the parser made of each block, as counts (the project holds none
/// of the document's pseudocode, so the golden file holds none either):
/// its statements and nodes, the notations it uses, where it is malformed.
#[test]
fn what_each_block_is_made_of_is_the_golden_file() {
    let Some(paths) = document_paths("what_each_block_is_made_of_is_the_golden_file") else { return };
    let doc = document::read_any(&paths).unwrap();
    let mut out = String::new();
    for r in semantics::read(&doc) {
        let (mut statements, mut nodes) = (0, 0);
        for s in &r.parsed.statements {
            s.walk(&mut |s| {
                statements += 1;
                s.expressions().iter().for_each(|e| e.walk(&mut |_| nodes += 1));
            });
        }
        let mut notations: Vec<(String, usize)> = Vec::new();
        for (_, n) in &r.parsed.notations {
            match notations.iter_mut().find(|(d, _)| *d == n.describe()) {
                Some((_, k)) => *k += 1,
                None => notations.push((n.describe(), 1)),
            }
        }
        let notations: Vec<String> = notations.iter().map(|(d, k)| format!("{d} x{k}")).collect();
        let file = std::path::Path::new(&r.section.file).file_name().unwrap().to_string_lossy().to_string();
        out.push_str(&format!(
            "{} ({file}:{}): {statements} statements, {nodes} expression nodes, {} comments\n",
            r.section.number,
            r.line,
            r.parsed.comments.len()
        ));
        if !notations.is_empty() {
            out.push_str(&format!("    notations: {}\n", notations.join("; ")));
        }
        for d in &r.parsed.diagnostics {
            out.push_str(&format!("    malformed at {}: {}\n", d.pos, d.message));
        }
    }
    insta::assert_snapshot!("pseudocode_blocks", out);
}

/// Each block printed back as the parser read it parses to the same tree.
#[test]
fn every_block_printed_back_parses_to_the_same_tree() {
    let Some(paths) = document_paths("every_block_printed_back_parses_to_the_same_tree") else { return };
    let doc = document::read_any(&paths).unwrap();
    for r in semantics::read(&doc).iter().filter(|r| r.parsed.diagnostics.is_empty()) {
        let text = pseudocode::print::block(&r.parsed.statements);
        let lines: Vec<pseudocode::SourceLine<'_>> =
            text.lines().enumerate().map(|(k, t)| pseudocode::SourceLine { number: k + 1, text: t }).collect();
        let again = pseudocode::parse(&lines, &semantics::vocabulary(r.section));
        assert!(again.diagnostics.is_empty(), "{}: {:?}", r.section.number, again.diagnostics);
        let shape = |p: &[pseudocode::ast::Stmt]| p.iter().map(|s| s.shape()).collect::<Vec<_>>();
        assert_eq!(shape(&again.statements), shape(&r.parsed.statements), "{}", r.section.number);
    }
}

#[test]
fn the_malformed_places_as_the_command_prints_them() {
    let Some(paths) = document_paths("the_malformed_places_as_the_command_prints_them") else { return };
    let mut args: Vec<&str> = vec!["pseudocode", "--malformed"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let o = ptxcheck(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!("pseudocode_malformed", stdout(&o));
}

#[test]
fn json_gives_every_tree_and_bad_input_is_one_line() {
    let Some(paths) = document_paths("json_gives_every_tree_and_bad_input_is_one_line") else { return };
    let seeds = paths[0].to_str().unwrap();
    let o = ptxcheck(&["pseudocode", seeds, "--section", "9.7.1.21", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["section"], "9.7.1.21");
    assert_eq!(v[0]["malformed"][0]["fragment"], ")");
    assert_eq!(v[0]["statements"].as_array().unwrap().len(), 6);
    for bad in [vec!["pseudocode", "/nonexistent/ptx"], vec!["pseudocode", seeds, "--section", "9.9.9"]] {
        let o = ptxcheck(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("notes.md"), "# Notes\n\nNo sections here.\n").unwrap();
    let o = ptxcheck(&["pseudocode", empty.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no numbered section"), "{}", stderr(&o));
}
