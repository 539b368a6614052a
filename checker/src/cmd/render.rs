//! Pieces of rendering that several commands share: tables, times, values,
//! wrapped text and the deprecation notes. Output always goes into a
//! `Write`, so that it is testable.

use std::io::{self, Write};
use std::time::Duration;

use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;
use tabled::builder::Builder;
use tabled::settings::Style;

/// A table with a header row, drawn with box lines.
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut b = Builder::default();
    b.push_record(header.iter().map(|h| h.to_string()));
    for r in rows {
        b.push_record(r);
    }
    b.build().with(Style::sharp()).to_string()
}

/// `1.234 s`.
pub fn seconds(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// A value in decimal, or `undefined`.
pub fn value_or_undefined(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| b.to_string())
}

/// A register's value: hex, a predicate as 0/1, or `undefined`.
pub fn register_text(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| if b.width() == 1 { b.unsigned().to_string() } else { b.hex() })
}

/// `text` broken into lines of at most `width` characters, at spaces.
pub fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines.join("\n")
}

/// The deprecation notes of the instructions among `variants`, once each.
pub fn deprecations<'a>(out: &mut dyn Write, variants: impl IntoIterator<Item = &'a Variant>) -> io::Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for v in variants {
        if let Some(d) = v.deprecation() {
            if !seen.contains(&v.opcode()) {
                if seen.is_empty() {
                    writeln!(out, "\nNotes:")?;
                }
                seen.push(v.opcode());
                writeln!(out, "  {} ({}): {d}", v.opcode(), v.section())?;
            }
        }
    }
    Ok(())
}
