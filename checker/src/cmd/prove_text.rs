//! `ptxcheck prove ... --text DIR`: the third proof, each variant's
//! Semantics block as the document in DIR writes it against its SMT
//! encoding, as a table, then each difference with its witness, then the
//! readings and named differences used.

use std::io::{self, Write};
use std::time::Duration;

use serde_json::{json, Value};

use crate::report::data::SemanticsBlock;

use super::render::{inputs_line, note, output_pairs, seconds, Table, Width};
use crate::prove::Counterexample;
use crate::pseudocode::readings::SectionReading;
use crate::text_proof::{Difference, TextProof, TextVerdict};

pub struct TextSummary<'a> {
    pub proofs: &'a [TextProof],
    pub wall: Duration,
}

impl TextSummary<'_> {
    fn count(&self, label: &str) -> usize {
        self.proofs.iter().filter(|p| p.verdict.label() == label).count()
    }

    /// Whether every proof holds or names its difference.
    pub fn accounted(&self) -> bool {
        self.proofs.iter().all(|p| p.verdict.accounted())
    }

    pub fn text(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let rows = self
            .proofs
            .iter()
            .map(|p| {
                let verdict = match &p.verdict {
                    TextVerdict::Proven { narrower: Some(_) } => "proven\n(model narrower)".to_string(),
                    TextVerdict::Named { difference, .. } => format!("named difference\n{}", difference.id),
                    TextVerdict::Differs(cex) => format!("counterexample\n{}", inputs_line(&cex.inputs)),
                    TextVerdict::Stale(d) => format!("stale difference\n{}", d.id),
                    v => v.label().to_string(),
                };
                let mut used: Vec<String> = p.readings.iter().map(|r| r.id.to_string()).collect();
                used.extend(p.fixes.iter().map(|f| format!("fix {f}")));
                let readings = if used.is_empty() { "-".to_string() } else { used.join(", ") };
                vec![p.variant.to_string(), verdict, readings, seconds(p.time)]
            })
            .collect();
        let table = Table::new(&["variant", "text against encoding", "readings", "time"], rows).wrap(1, None);
        writeln!(out, "{}", table.render(width))?;
        self.details(out, width)?;
        self.glossary(out, width)?;
        writeln!(out)?;
        let summary = format!(
            "{} variants against the text: {} proven, {} named difference, {} not read, {} counterexample, \
             {} stale difference, {} unknown, {} timeout; {} wall",
            self.proofs.len(),
            self.count("proven"),
            self.count("named difference"),
            self.count("not read"),
            self.count("counterexample"),
            self.count("stale difference"),
            self.count("unknown"),
            self.count("timeout"),
            seconds(self.wall),
        );
        note(out, width, "", "", &summary)
    }

    fn details(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        for p in self.proofs {
            let v = &p.variant;
            match &p.verdict {
                TextVerdict::Differs(cex) => {
                    writeln!(out)?;
                    writeln!(out, "counterexample for {v}: the Semantics block and the SMT encoding differ")?;
                    witness(out, width, cex)?;
                }
                TextVerdict::Stale(d) => {
                    writeln!(out)?;
                    note(out, width, "", "  ", &format!("stale difference for {v}: `{}` no longer differs", d.id))?;
                }
                TextVerdict::NotRead(why) => {
                    writeln!(out)?;
                    note(out, width, "", "  ", &format!("not read for {v}: {why}"))?;
                }
                TextVerdict::Unknown(why) => {
                    writeln!(out)?;
                    note(out, width, "", "  ", &format!("unknown for {v}: {why}"))?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn glossary(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let mut readings: Vec<&SectionReading> = Vec::new();
        let mut differences: Vec<&Difference> = Vec::new();
        for p in self.proofs {
            for r in &p.readings {
                if !readings.iter().any(|u| u.id == r.id) {
                    readings.push(r);
                }
            }
            if let TextVerdict::Named { difference, .. } | TextVerdict::Stale(difference) = &p.verdict {
                if !differences.iter().any(|d| d.id == difference.id) {
                    differences.push(difference);
                }
            }
        }
        if !readings.is_empty() {
            writeln!(out, "\nReadings of the text (each where C's reading is not the model's):")?;
            for r in readings {
                let change = r.read_as.map_or(String::new(), |to| format!(", read as `{to}`"));
                note(
                    out,
                    width,
                    "  ",
                    "    ",
                    &format!("{} ({}, `{}`{change}): {}", r.id, r.section, r.written, r.why),
                )?;
            }
        }
        if !differences.is_empty() {
            writeln!(out, "\nNamed differences (where the block says less than the model):")?;
            for d in differences {
                let settled = d.assumption.map_or(String::new(), |a| format!(" (assumption {a})"));
                note(out, width, "  ", "    ", &format!("{}{settled}: {}", d.id, d.why))?;
            }
        }
        let narrower: Vec<String> = self
            .proofs
            .iter()
            .filter_map(|p| match &p.verdict {
                TextVerdict::Proven { narrower: Some(ins) } => Some(format!("{} ({})", p.variant, inputs_line(ins))),
                _ => None,
            })
            .collect();
        if !narrower.is_empty() {
            writeln!(out, "\nWhere the model leaves unspecified what the block defines (an input each):")?;
            for line in narrower {
                note(out, width, "  ", "    ", &line)?;
            }
        }
        Ok(())
    }

    pub fn json(&self) -> Value {
        let proofs: Vec<SemanticsBlock> = self.proofs.iter().map(SemanticsBlock::from).collect();
        json!({ "proofs": proofs, "accounted": self.accounted() })
    }
}

/// A witness: the inputs, then each output as the encoding and the text
/// give it.
pub fn witness(out: &mut dyn Write, width: Width, cex: &Counterexample) -> io::Result<()> {
    writeln!(out, "  inputs: {}", inputs_line(&cex.inputs))?;
    output_pairs(out, width, cex, "Semantics block")
}
