//! `ptxcheck eval`: one instruction on immediate operands, or on the 32
//! lanes of a warp; its outputs as `d = 0x...` lines, a table per lane, or
//! JSON.

use std::io::{self, Write};
use std::process::ExitCode;

use ptx_spec::catalogue::OperandType;
use serde_json::{json, Map, Value};

use super::render::{deprecations, note, predicate, Table, Width, WidthArgs};
use super::{Format, ModelArgs};
use crate::error::Error;
use crate::eval::{evaluate_in, evaluate_warp_in, parse_active, Evaluation, LaneOutput, LaneValues, WarpEvaluation};
use crate::ptx::parse::parse_instruction;

/// The arguments of `ptxcheck eval`.
#[derive(clap::Args)]
pub struct Args {
    instruction: String,
    /// A register's value in each lane: NAME=V (every lane), NAME=A..B
    /// (32 consecutive values) or NAME=V0,V1,...,V31. Repeatable. Runs
    /// the instruction on all 32 lanes (shfl always does).
    #[arg(long = "lanes", value_name = "NAME=VALUES")]
    lanes: Vec<String>,
    /// Lanes that are active with their guard predicate true, as a mask.
    #[arg(long, value_name = "MASK")]
    active: Option<String>,
    /// Output format: `table` prints `d = 0x...`, `json` an object.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    #[command(flatten)]
    width: WidthArgs,
    #[command(flatten)]
    model: ModelArgs,
}

/// Evaluate the instruction: on one thread, or on a warp when it is
/// warp-wide (shfl) or lanes are given.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let warp_wide = parse_instruction(&args.instruction).is_ok_and(|i| i.variant.is_warp_wide());
    if warp_wide || !args.lanes.is_empty() || args.active.is_some() {
        let lanes = args.lanes.iter().map(|l| LaneValues::parse(l)).collect::<Result<Vec<_>, _>>()?;
        let active = args.active.as_deref().map(parse_active).transpose()?.unwrap_or(u32::MAX);
        let e = evaluate_warp_in(&args.instruction, &lanes, active, args.model.model)?;
        match args.format {
            Format::Table => warp_text(out, args.width.resolve(), &e)?,
            Format::Json => writeln!(out, "{:#}", warp_json(&e))?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let e = evaluate_in(&args.instruction, args.model.model)?;
    match args.format {
        Format::Table => evaluation_text(out, &e)?,
        Format::Json => writeln!(out, "{}", evaluation_json(&e))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `d = 0x00000003`, `p = 1`, or `d = unspecified`.
pub fn evaluation_text(out: &mut dyn Write, e: &Evaluation) -> io::Result<()> {
    for w in &e.written {
        match (w.ty, w.value) {
            (_, None) => writeln!(out, "{} = unspecified", w.name)?,
            (OperandType::Pred, Some(v)) => writeln!(out, "{} = {}", w.name, predicate(v))?,
            (OperandType::Bits(_), Some(v)) => writeln!(out, "{} = {}", w.name, v.hex())?,
        }
    }
    Ok(())
}

fn lane_output_text(o: LaneOutput, ty: OperandType) -> String {
    match (o, ty) {
        (LaneOutput::Value(v), OperandType::Pred) => predicate(v).to_string(),
        (LaneOutput::Value(v), _) => v.hex(),
        (LaneOutput::Unspecified, _) => "unspecified".into(),
        (LaneOutput::Unpredictable { source }, _) => format!("unpredictable (lane {source} off)"),
        (LaneOutput::NotWritten, _) => "-".into(),
    }
}

/// A warp evaluation as a table: one row per lane.
pub fn warp_text(out: &mut dyn Write, width: Width, e: &WarpEvaluation) -> io::Result<()> {
    let executing = e.active.count_ones();
    writeln!(out, "{}", e.text)?;
    writeln!(out, "{executing} of 32 lanes execute (active mask {:#010x})", e.active)?;
    let shows_source = e.rows.iter().any(|r| r.source.is_some());
    let mut header: Vec<&str> = vec!["lane"];
    header.extend(e.input_names.iter().map(String::as_str));
    if shows_source {
        header.push("source lane");
    }
    header.extend(e.output_names.iter().map(String::as_str));
    let rows = e
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![r.lane.to_string()];
            row.extend(r.inputs.iter().map(|v| v.hex()));
            if let Some(source) = r.source {
                row.push(if r.executes { source.to_string() } else { "-".into() });
            }
            row.extend(r.outputs.iter().zip(&e.output_types).map(|(o, t)| lane_output_text(*o, *t)));
            row
        })
        .collect();
    // Values never wrap; an output's `unpredictable (lane N off)` may, and
    // the header `source lane` over its numbers.
    let first_output = header.len() - e.output_names.len();
    let mut table = (first_output..header.len()).fold(Table::new(&header, rows), |t, col| t.wrap(col, None));
    if shows_source {
        table = table.wrap(first_output - 1, None);
    }
    writeln!(out, "{}", table.render(width))?;
    if e.rows.iter().any(|r| !r.executes) {
        let text = "-: the lane does not execute (inactive or predicated off) and writes nothing";
        note(out, width, "", "  ", text)?;
    }
    if e.rows.iter().any(|r| r.outputs.iter().any(|o| matches!(o, LaneOutput::Unpredictable { .. }))) {
        let text = "unpredictable: the source lane does not execute (assumption shfl-unpredictable-source)";
        note(out, width, "", "  ", text)?;
    }
    deprecations(out, width, [&e.variant])
}

/// A warp evaluation as JSON: per lane, the inputs and outputs; an output
/// is a hex string or a predicate's 0/1, `"unspecified"`,
/// `"unpredictable"`, or `null` where the lane does not execute.
pub fn warp_json(e: &WarpEvaluation) -> Value {
    let lanes: Vec<Value> = e
        .rows
        .iter()
        .map(|r| {
            let inputs: Map<String, Value> =
                e.input_names.iter().zip(&r.inputs).map(|(n, v)| (n.clone(), json!(v.hex()))).collect();
            let outputs: Map<String, Value> = e
                .output_names
                .iter()
                .zip(&r.outputs)
                .zip(&e.output_types)
                .map(|((n, o), t)| {
                    let v = match (o, t) {
                        (LaneOutput::Value(v), OperandType::Pred) => json!(predicate(*v)),
                        (LaneOutput::Value(v), _) => json!(v.hex()),
                        (LaneOutput::Unspecified, _) => json!("unspecified"),
                        (LaneOutput::Unpredictable { .. }, _) => json!("unpredictable"),
                        (LaneOutput::NotWritten, _) => Value::Null,
                    };
                    (n.clone(), v)
                })
                .collect();
            let mut o = Map::new();
            o.insert("lane".into(), json!(r.lane));
            o.insert("executes".into(), json!(r.executes));
            o.insert("inputs".into(), Value::Object(inputs));
            if let Some(source) = r.source {
                o.insert("source_lane".into(), json!(source));
            }
            o.insert("outputs".into(), Value::Object(outputs));
            Value::Object(o)
        })
        .collect();
    let mut o = Map::new();
    o.insert("instruction".into(), json!(e.text));
    o.insert("variant".into(), json!(e.variant.to_string()));
    o.insert("active".into(), json!(format!("{:#010x}", e.active)));
    if let Some(d) = e.variant.deprecation() {
        o.insert("deprecation".into(), json!(d.to_string()));
    }
    o.insert("lanes".into(), Value::Array(lanes));
    Value::Object(o)
}

/// `{"d":"0x00000003","p":1}`; an unspecified result is `null`.
pub fn evaluation_json(e: &Evaluation) -> Value {
    let map: Map<String, Value> = e
        .written
        .iter()
        .map(|w| {
            let v = match (w.ty, w.value) {
                (_, None) => Value::Null,
                (OperandType::Pred, Some(v)) => json!(predicate(v)),
                (OperandType::Bits(_), Some(v)) => json!(v.hex()),
            };
            (w.name.clone(), v)
        })
        .collect();
    Value::Object(map)
}
