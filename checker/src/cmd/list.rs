//! `ptxcheck list`: the catalogue, every legal variant with its syntax,
//! section, operand widths, requirements and assumptions.

use std::io::{self, Write};
use std::process::ExitCode;

use ptx_spec::catalogue::Variant;

use super::render::{Table, Width, WidthArgs};
use super::select;
use crate::error::Error;
use crate::ptx::parse::syntax;

/// The arguments of `ptxcheck list`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(default_values_t = vec!["all".to_string()])]
    targets: Vec<String>,
    #[command(flatten)]
    width: WidthArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = select(&args.targets)?;
    catalogue(out, args.width.resolve(), &variants)?;
    Ok(ExitCode::SUCCESS)
}

/// The catalogue as a table.
pub fn catalogue(out: &mut dyn Write, width: Width, variants: &[Variant]) -> io::Result<()> {
    let rows = variants
        .iter()
        .map(|v| {
            let operands =
                v.operands().iter().map(|o| format!("{}:{}", o.name, o.ty.width())).collect::<Vec<_>>().join(" ");
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
            ]
        })
        .collect();
    // Only the section is a name too short to gain from wrapping; the
    // syntax wraps after its opcode and between operands.
    let table = Table::new(&["syntax", "section", "operand widths", "requires", "assumptions"], rows)
        .wrap(0, None)
        .wrap(2, None)
        .wrap(3, None)
        .wrap(4, None);
    writeln!(out, "{}", table.render(width))?;
    writeln!(out, "{} variants", variants.len())
}
