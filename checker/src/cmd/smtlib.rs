//! `ptxcheck smtlib`: the SMT encodings as SMT-LIB2, on standard output or
//! into a file that is replaced whole.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{select, ModelArgs};
use crate::error::Error;
use crate::output::Output;
use crate::smtlib::export_in;

/// The arguments of `ptxcheck smtlib`.
#[derive(clap::Args)]
pub struct Args {
    /// `all`, an instruction (`bfe`) or a variant (`bfe.s32`).
    #[arg(required = true)]
    targets: Vec<String>,
    /// Write to this file (replaced whole, never left half-written)
    /// instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    model: ModelArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = select(&args.targets)?;
    let output = args.output.as_deref().map(Output::file).transpose()?;
    let text = export_in(&variants, args.model.model);
    match output {
        Some(output) => output.write(&[&text])?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
