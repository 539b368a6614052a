//! `ptxcheck pseudocode PATH...`: every Semantics block of any section of
//! the PTX ISA, read by the pseudocode parser: the block as it was read,
//! the notations it uses that C does not have, and every place that does
//! not parse, at its line and column.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use super::Format;
use crate::audit::text::{document, semantics};
use crate::error::Error;
use crate::pseudocode::{self, ast::Stmt, Diagnostic, Notation};

/// The arguments of `ptxcheck pseudocode`.
#[derive(clap::Args)]
pub struct Args {
    /// The document: files of plain text or Markdown, or folders (their
    /// .txt and .md files, README.md aside), in the order given. Any
    /// numbered section is read, whether or not ptxcheck models it.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Only the sections whose number is SECTION or starts with it and a
    /// dot (`9.7.3` is every floating-point section).
    #[arg(long, value_name = "SECTION")]
    section: Option<String>,
    /// Only the blocks with malformed code, and only their diagnostics.
    #[arg(long)]
    malformed: bool,
    /// Output format: the blocks as read, or their syntax trees as JSON.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// One block, as the JSON gives it.
#[derive(Serialize)]
struct BlockOut<'a> {
    section: &'a str,
    title: &'a str,
    file: &'a str,
    line: usize,
    statements: &'a [Stmt],
    notations: Vec<NotationOut>,
    malformed: &'a [Diagnostic],
}

#[derive(Serialize)]
struct NotationOut {
    line: usize,
    column: usize,
    notation: Notation,
    description: String,
}

/// The findings are about the spec: they leave the status 0. A path that
/// cannot be read, or that holds no numbered section, is an error (2).
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let doc = document::read_any(&args.paths)?;
    if doc.sections.is_empty() {
        let names: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Error::usage(format!(
            "{}: no numbered section (a heading such as `#### 9.7.3.1. ...`)",
            names.join(", ")
        )));
    }
    let wanted = |number: &str| {
        args.section
            .as_deref()
            .is_none_or(|s| number == s || number.strip_prefix(s).is_some_and(|r| r.starts_with('.')))
    };
    if let Some(s) = args.section.as_deref() {
        if !doc.sections.iter().any(|x| wanted(&x.number)) {
            return Err(Error::usage(format!("--section {s}: the document has no such section")));
        }
    }
    let all: Vec<semantics::Read<'_>> =
        semantics::read(&doc).into_iter().filter(|r| wanted(&r.section.number)).collect();
    let read: Vec<&semantics::Read<'_>> =
        all.iter().filter(|r| !args.malformed || !r.parsed.diagnostics.is_empty()).collect();
    if args.format == Format::Json {
        let blocks: Vec<BlockOut<'_>> = read
            .iter()
            .map(|r| BlockOut {
                section: &r.section.number,
                title: &r.section.title,
                file: &r.section.file,
                line: r.line,
                statements: &r.parsed.statements,
                notations: r
                    .parsed
                    .notations
                    .iter()
                    .map(|(p, n)| NotationOut {
                        line: p.line,
                        column: p.column,
                        notation: n.clone(),
                        description: n.describe(),
                    })
                    .collect(),
                malformed: &r.parsed.diagnostics,
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &blocks).map_err(|e| Error::usage(e.to_string()))?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for r in &read {
        block(r, args.malformed, out)?;
    }
    // The summary counts every block of the sections asked for.
    let with: Vec<&semantics::Read<'_>> = all.iter().filter(|r| !r.parsed.diagnostics.is_empty()).collect();
    let places: usize = with.iter().map(|r| r.parsed.diagnostics.len()).sum();
    let read = &all;
    let mut sections: Vec<&str> = read.iter().map(|r| r.section.number.as_str()).collect();
    sections.sort();
    sections.dedup();
    let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    writeln!(
        out,
        "{} in {}: {} read as written, {} with malformed code ({})",
        count(read.len(), "Semantics block", "Semantics blocks"),
        count(sections.len(), "section", "sections"),
        read.len() - with.len(),
        with.len(),
        count(places, "place", "places"),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn block(r: &semantics::Read<'_>, malformed_only: bool, out: &mut dyn Write) -> Result<(), Error> {
    let file = Path::new(&r.section.file).file_name().map_or(r.section.file.clone(), |f| f.to_string_lossy().into());
    writeln!(out, "{} {} ({file}:{})", r.section.number, r.section.title, r.line)?;
    if !malformed_only {
        for line in pseudocode::print::block(&r.parsed.statements).lines() {
            writeln!(out, "    {line}")?;
        }
        let mut kinds: Vec<(String, Vec<String>)> = Vec::new();
        for (pos, n) in &r.parsed.notations {
            let d = n.describe();
            match kinds.iter_mut().find(|(k, _)| *k == d) {
                Some((_, at)) => at.push(pos.to_string()),
                None => kinds.push((d, vec![pos.to_string()])),
            }
        }
        for (d, at) in kinds {
            writeln!(out, "  notation: {d} at {}", at.join(", "))?;
        }
        if let Some(((p1, n1), (p2, n2))) = r.parsed.mixed_slices() {
            writeln!(out, "  notations mixed: {} at {p1}, {} at {p2}", n1.describe(), n2.describe())?;
        }
    }
    for d in &r.parsed.diagnostics {
        writeln!(out, "  malformed code at {file}:{}: {}", d.pos, d.message)?;
    }
    Ok(())
}
