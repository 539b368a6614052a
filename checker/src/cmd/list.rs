//! `ptxcheck list`: the catalogue, every legal variant with its syntax,
//! section, operand widths, requirements and assumptions.

use std::io::{self, Write};
use std::process::ExitCode;

use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::{Model, Rule};

use super::render::{note, Table, Width, WidthArgs};
use super::{select, ModelArgs};
use crate::error::Error;
use crate::ptx::parse::syntax;

/// The arguments of `ptxcheck list`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(default_values_t = vec!["all".to_string()])]
    targets: Vec<String>,
    #[command(flatten)]
    width: WidthArgs,
    #[command(flatten)]
    model: ModelArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = select(&args.targets)?;
    let model = args.model.model;
    catalogue_in(out, args.width.resolve(), &variants, model)?;
    if model != Model::Spec {
        rules(out, args.width.resolve(), &variants, model)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A vendor model's rules that change any of `variants`, in full: what each
/// changes, the hardware's rule, what stays unspecified, and the evidence.
pub fn rules(out: &mut dyn Write, width: Width, variants: &[Variant], model: Model) -> io::Result<()> {
    let names: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let used: Vec<&Rule> =
        model.rules().iter().filter(|r| r.variants.iter().any(|v| names.iter().any(|n| n == v))).collect();
    if used.is_empty() {
        return writeln!(out, "\nNo {model} rule changes these variants: {model} gives what spec gives.");
    }
    writeln!(out, "\n{model} rules: where {model} differs from spec, and the hardware results behind it")?;
    for r in used {
        writeln!(out)?;
        note(out, width, "", "  ", &format!("{} ({}; {}: {})", r.id, r.section, r.change.label(), r.assumption))?;
        note(out, width, "  ", "  ", &format!("variants: {}", r.variants.join(", ")))?;
        note(out, width, "  ", "  ", &format!("rule: {}", r.rule))?;
        if !r.open.is_empty() {
            note(out, width, "  ", "  ", &format!("left unspecified: {}", r.open))?;
        }
        let per: Vec<String> = r.evidence.iter().map(|(v, n)| format!("{v} {n}")).collect();
        note(
            out,
            width,
            "  ",
            "  ",
            &format!("evidence: {} H100 results in its case ({})", r.results(), per.join(", ")),
        )?;
    }
    Ok(())
}

/// The catalogue as a table (see [`catalogue_in`]).
pub fn catalogue(out: &mut dyn Write, width: Width, variants: &[Variant]) -> io::Result<()> {
    catalogue_in(out, width, variants, Model::Spec)
}

/// The catalogue as a table; for a vendor model, with a column of the
/// model's rules that change each variant.
pub fn catalogue_in(out: &mut dyn Write, width: Width, variants: &[Variant], model: Model) -> io::Result<()> {
    let rows = variants
        .iter()
        .map(|v| {
            let mut operands =
                v.operands().iter().map(|o| format!("{}:{}", o.name, o.ty.width())).collect::<Vec<_>>().join(" ");
            // 9.7.2's carry flag, which no operand names.
            match (v.reads_flag(), v.writes_flag()) {
                (true, true) => operands.push_str("\nreads, writes CC.CF"),
                (true, false) => operands.push_str("\nreads CC.CF"),
                (false, true) => operands.push_str("\nwrites CC.CF"),
                (false, false) => {}
            }
            let assumptions = v.assumptions().iter().map(|a| a.id).collect::<Vec<_>>().join(", ");
            vec![
                syntax(v),
                v.section().to_string(),
                operands,
                match v.deprecation() {
                    Some(d) => {
                        let mut cell = format!("{}\ndeprecated from PTX {}", v.requirement(), d.since);
                        if let Some((ptx, sm)) = d.removed {
                            cell.push_str(&format!("\nnot on sm_{sm}+ from PTX {ptx}"));
                        }
                        cell
                    }
                    None => v.requirement().to_string(),
                },
                if assumptions.is_empty() { "-".into() } else { assumptions },
                {
                    let rules: Vec<&str> = model.rules_for(v).iter().map(|r| r.id).collect();
                    if rules.is_empty() {
                        "-".into()
                    } else {
                        rules.join(", ")
                    }
                },
            ]
        })
        .collect();
    // Only the section is a name too short to gain from wrapping; the
    // syntax wraps after its opcode and between operands.
    let rules_header = format!("{model} rules");
    let mut header = vec!["syntax", "section", "operand widths", "requires", "assumptions"];
    let mut rows: Vec<Vec<String>> = rows;
    if model == Model::Spec {
        rows.iter_mut().for_each(|r| drop(r.pop()));
    } else {
        header.push(&rules_header);
    }
    let mut table = Table::new(&header, rows).wrap(0, None).wrap(2, None).wrap(3, None).wrap(4, None);
    if model != Model::Spec {
        table = table.wrap(5, None);
    }
    writeln!(out, "{}", table.render(width))?;
    writeln!(out, "{} variants", variants.len())
}
