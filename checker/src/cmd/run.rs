//! `ptxcheck run`: a straight-line PTX program on concrete values; the
//! registers it writes, per lane for a program with shfl.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use ptx_spec::bv::BitVec;
use serde_json::{json, Map, Value};

use super::render::{note, predicate, register_text, Table, Width, WidthArgs};
use super::{Format, ModelArgs};
use crate::error::Error;
use crate::eval::parse_active;
use crate::ptx::parse::escaped;
use crate::run::Run;

/// The arguments of `ptxcheck run`.
#[derive(clap::Args)]
pub struct Args {
    /// The program's file.
    file: PathBuf,
    /// An input register's value: NAME=V, or per lane for a program with
    /// shfl (NAME=A..B, NAME=V0,...,V31). Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUES")]
    set: Vec<String>,
    /// Lanes that execute, as a mask (programs with shfl run on 32 lanes).
    #[arg(long, value_name = "MASK")]
    active: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    #[command(flatten)]
    width: WidthArgs,
    #[command(flatten)]
    model: ModelArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let file = &args.file;
    let name = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| Error::file(format!("cannot read {}", escaped(&name)), e))?;
    let source = crate::run::text(&name, &bytes)?;
    let active = args.active.as_deref().map(parse_active).transpose()?.unwrap_or(u32::MAX);
    let r = crate::run::run_in(&name, source, &args.set, active, args.model.model)?;
    match args.format {
        Format::Table => run_text(out, args.width.resolve(), &r)?,
        Format::Json => writeln!(out, "{:#}", run_json(&r))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A program run: `r = 0x...` per written register, or one row per lane.
pub fn run_text(out: &mut dyn Write, width: Width, r: &Run) -> io::Result<()> {
    if r.lanes == 1 {
        for (name, values) in &r.written {
            writeln!(out, "{name} = {}", register_text(values[0]))?;
        }
    } else {
        writeln!(out, "{} of 32 lanes execute (active mask {:#010x})", r.active.count_ones(), r.active)?;
        let mut header = vec!["lane"];
        header.extend(r.written.iter().map(|(n, _)| n.as_str()));
        let rows = (0..r.lanes)
            .map(|lane| {
                let mut row = vec![lane.to_string()];
                row.extend(r.written.iter().map(|(_, vs)| register_text(vs[lane])));
                row
            })
            .collect();
        writeln!(out, "{}", Table::new(&header, rows).render(width))?;
    }
    if r.written.iter().any(|(_, vs)| vs.iter().any(Option::is_none)) {
        let text = "undefined: never written in that lane, or unspecified or unpredictable by the spec";
        note(out, width, "", "  ", text)?;
    }
    Ok(())
}

/// A program run as JSON: each written register's value per lane (hex, a
/// predicate as 0/1, `null` where undefined).
pub fn run_json(r: &Run) -> Value {
    let value = |v: &Option<BitVec>| match v {
        Some(b) if b.width() == 1 => json!(predicate(*b)),
        Some(b) => json!(b.hex()),
        None => Value::Null,
    };
    let registers: Map<String, Value> = r
        .written
        .iter()
        .map(|(n, vs)| {
            (n.clone(), if r.lanes == 1 { value(&vs[0]) } else { Value::Array(vs.iter().map(value).collect()) })
        })
        .collect();
    json!({"lanes": r.lanes, "active": format!("{:#010x}", r.active), "registers": registers})
}
