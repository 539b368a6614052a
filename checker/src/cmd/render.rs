//! Pieces of rendering that several commands share: tables, times, values,
//! wrapped text and the deprecation notes, and the width they fit. Output
//! always goes into a `Write`, so that it is testable.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;
use tabled::builder::Builder;
use tabled::settings::Style;

use crate::prove::Counterexample;

/// How wide tables and notes may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// As wide as the content: what pipes and files get, so that a tool
    /// reading the output sees the same lines whatever the terminal.
    Natural,
    /// At most this many columns: a terminal's width, or --width.
    Columns(usize),
}

/// The --width option of every command that prints tables.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct WidthArgs {
    /// Fit tables and notes in N columns, wrapping long text (default: the
    /// terminal's width on a terminal; no limit into a pipe or a file).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(MIN_WIDTH as i64..))]
    width: Option<u16>,
}

/// Below this no table has room for its fixed columns.
pub const MIN_WIDTH: usize = 40;

impl WidthArgs {
    /// --width, else the terminal's width when standard output is one.
    pub fn resolve(self) -> Width {
        let terminal = io::stdout()
            .is_terminal()
            .then(|| terminal_size::terminal_size().map(|(terminal_size::Width(w), _)| usize::from(w)))
            .flatten();
        resolve(self.width.map(usize::from), terminal)
    }
}

/// The width from --width and the terminal's width (`None` when standard
/// output is not a terminal, or its size is unknown).
fn resolve(flag: Option<usize>, terminal: Option<usize>) -> Width {
    match (flag, terminal) {
        (Some(n), _) => Width::Columns(n),
        // A terminal too narrow for any table is better overflowed than
        // shredded one character a line.
        (None, Some(n)) => Width::Columns(n.max(MIN_WIDTH)),
        (None, None) => Width::Natural,
    }
}

impl Width {
    /// What is left after an indent of `n` columns.
    pub fn less(self, n: usize) -> Width {
        match self {
            Width::Natural => Width::Natural,
            Width::Columns(w) => Width::Columns(w.saturating_sub(n).max(1)),
        }
    }
}

/// A table with a header row, drawn with box lines, as wide as its content.
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    Table::new(header, rows).render(Width::Natural)
}

/// A table whose long-text columns wrap at spaces to fit a width. The
/// other columns (names, verdicts, numbers) keep their width, so that a
/// row stays easy to find and to copy; they give way only when the wrapping
/// columns alone cannot make the table fit.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// The columns that wrap, with the width they wrap at even when there
    /// is room (`None`: only to fit).
    wraps: Vec<(usize, Option<usize>)>,
}

/// A wrapping column is not made narrower than its longest word, up to
/// this: narrower, words would break.
const LONGEST_KEPT_WORD: usize = 24;

impl Table {
    pub fn new(header: &[&str], rows: Vec<Vec<String>>) -> Table {
        Table { header: header.iter().map(|h| h.to_string()).collect(), rows, wraps: Vec::new() }
    }

    /// Column `col` holds long text: it wraps at spaces to fit the width,
    /// and at `max` columns in any case.
    pub fn wrap(mut self, col: usize, max: Option<usize>) -> Table {
        self.wraps.push((col, max));
        self
    }

    pub fn render(self, width: Width) -> String {
        let raw: Vec<Vec<String>> = std::iter::once(self.header).chain(self.rows).collect();
        // What pipes and files get: only the columns with a maximum wrap.
        let mut grid = raw.clone();
        for &(col, max) in &self.wraps {
            if let Some(max) = max {
                for row in grid.iter_mut().skip(1) {
                    if let Some(cell) = row.get_mut(col) {
                        *cell = wrap(cell, max);
                    }
                }
            }
        }
        let Width::Columns(target) = width else { return build(&grid).to_string() };
        let natural = build(&grid);
        let total = natural.total_width();
        if total <= target {
            return natural.to_string();
        }
        // Narrow the widest wrapping columns first, down to one level, but
        // none below its longest word (or part of a hyphenated word).
        let columns = grid.first().map_or(0, Vec::len);
        let widths: Vec<usize> =
            (0..columns).map(|col| cells(&grid, col).iter().map(|c| text_width(c)).max().unwrap_or(0)).collect();
        let frame = total - widths.iter().sum::<usize>();
        let wrapping: Vec<usize> = (0..columns).filter(|c| self.wraps.iter().any(|(w, _)| w == c)).collect();
        let floors: Vec<usize> = (0..columns)
            .map(|col| {
                let raw_cells = cells(&raw, col);
                let parts = raw_cells.iter().flat_map(|c| c.split_whitespace()).flat_map(|w| w.split_inclusive('-'));
                parts.map(text_width).max().unwrap_or(1).clamp(1, LONGEST_KEPT_WORD).min(widths[col])
            })
            .collect();
        let fixed: usize = (0..columns).filter(|c| !wrapping.contains(c)).map(|c| widths[c]).sum();
        let room = target.saturating_sub(frame + fixed);
        // The width of each wrapping column when none is wider than `level`
        // or narrower than its floor, if they fit in `room`.
        let limits = |floors: &[usize]| -> Option<Vec<usize>> {
            let limit = |col: usize, level: usize| widths[col].min(level).max(floors[col]);
            let top = wrapping.iter().map(|&c| widths[c]).max().unwrap_or(0);
            let fits = |level: usize| wrapping.iter().map(|&c| limit(c, level)).sum::<usize>() <= room;
            let level = (0..=top).rev().find(|&l| fits(l))?;
            Some((0..columns).map(|c| limit(c, level)).collect())
        };
        let limits = limits(&floors);
        for &col in &wrapping {
            // Without room for whole words, the wrapping columns start
            // again from their text, and the widest columns of all give way.
            let limit = limits.as_ref().map_or(0, |l| l[col]);
            if limit < widths[col] {
                for (row, raw_row) in grid.iter_mut().zip(&raw) {
                    if let (Some(cell), Some(text)) = (row.get_mut(col), raw_row.get(col)) {
                        *cell = if limit == 0 { text.clone() } else { fill(text, limit) };
                    }
                }
            }
        }
        let fitted = build(&grid);
        if fitted.total_width() > target {
            // The columns that do not wrap (names, hex values, inputs) cannot
            // give way without breaking a value: one record per row instead.
            return records(&raw, target);
        }
        fitted.to_string()
    }
}

/// A table too wide for its columns laid out as one record per row: each
/// column's header beside the row's value, one per line, so that no value
/// is ever broken (long text wraps at spaces only).
fn records(raw: &[Vec<String>], target: usize) -> String {
    let Some((header, rows)) = raw.split_first() else { return String::new() };
    let key = header.iter().map(|h| text_width(h)).max().unwrap_or(0);
    // `│ key │ value │`: the frame takes 7 columns.
    let room = target.saturating_sub(key + 7).max(1);
    let options = textwrap::Options::new(room).word_separator(textwrap::WordSeparator::AsciiSpace).break_words(false);
    let mut out = Vec::new();
    for row in rows {
        let grid: Vec<Vec<String>> = header
            .iter()
            .zip(row)
            .map(|(h, v)| {
                let value = v.lines().map(|l| textwrap::fill(l, &options)).collect::<Vec<_>>().join("\n");
                vec![h.clone(), value]
            })
            .collect();
        out.push(build(&grid).to_string());
    }
    out.join("\n")
}

/// Column `col` of `grid`.
fn cells(grid: &[Vec<String>], col: usize) -> Vec<&String> {
    grid.iter().filter_map(|r| r.get(col)).collect()
}

fn build(grid: &[Vec<String>]) -> tabled::Table {
    let mut b = Builder::default();
    for r in grid {
        b.push_record(r.iter().cloned());
    }
    let mut t = b.build();
    t.with(Style::sharp());
    t
}

/// Columns a text takes on a terminal: the widest of its lines.
pub fn text_width(text: &str) -> usize {
    tabled::grid::util::string::get_text_width(text)
}

/// Each line of `text` wrapped in `width` columns: at spaces, else after
/// a hyphen, else inside a word longer than the width.
fn fill(text: &str, width: usize) -> String {
    let options = textwrap::Options::new(width).word_separator(textwrap::WordSeparator::AsciiSpace).break_words(true);
    text.lines().map(|line| textwrap::fill(line, &options)).collect::<Vec<_>>().join("\n")
}

/// A note: `text` after `indent`, on one line, or within the width with
/// its further lines after `hanging`.
pub fn note(out: &mut dyn Write, width: Width, indent: &str, hanging: &str, text: &str) -> io::Result<()> {
    match width {
        Width::Natural => writeln!(out, "{indent}{text}"),
        Width::Columns(n) => {
            let options = textwrap::Options::new(n)
                .initial_indent(indent)
                .subsequent_indent(hanging)
                .word_separator(textwrap::WordSeparator::AsciiSpace)
                // Prose quotes code (`32-n`): a hyphen is no place to break.
                .word_splitter(textwrap::WordSplitter::NoHyphenation)
                .break_words(true);
            writeln!(out, "{}", textwrap::fill(text, options))
        }
    }
}

/// `1.234 s`.
pub fn seconds(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// A value in decimal, or `undefined`.
pub fn value_or_undefined(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| b.to_string())
}

/// A predicate's value, the same in every output of eval and run: `1` or
/// `0`, in text and in JSON (a number). A PTX predicate is a 1-bit
/// register, and 1/0 is what an emulator's state holds, so it compares
/// directly; it also keeps a lane table's columns narrow.
pub fn predicate(v: BitVec) -> u128 {
    v.unsigned()
}

/// A register's value: hex, a predicate as 0/1, or `undefined`.
pub fn register_text(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| if b.width() == 1 { predicate(b).to_string() } else { b.hex() })
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
pub fn deprecations<'a>(
    out: &mut dyn Write,
    width: Width,
    variants: impl IntoIterator<Item = &'a Variant>,
) -> io::Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for v in variants {
        if let Some(d) = v.deprecation() {
            if !seen.contains(&v.opcode()) {
                if seen.is_empty() {
                    writeln!(out, "\nNotes:")?;
                }
                seen.push(v.opcode());
                note(out, width, "  ", "    ", &format!("{} ({}): {d}", v.opcode(), v.section()))?;
            }
        }
    }
    Ok(())
}

/// Inputs beyond which a witness shows only its non-zero inputs (shfl's
/// model reads every lane of the warp; a minimised witness is mostly 0).
const FEW_INPUTS: usize = 8;

/// The inputs of a witness worth showing, and how many zeros were left out.
pub fn shown_inputs(inputs: &[(String, BitVec)]) -> (Vec<&(String, BitVec)>, usize) {
    if inputs.len() <= FEW_INPUTS {
        return (inputs.iter().collect(), 0);
    }
    let shown: Vec<_> = inputs.iter().filter(|(_, v)| v.unsigned() != 0).collect();
    let hidden = inputs.len() - shown.len();
    (shown, hidden)
}

/// A witness's inputs on one line (`a=0x1 b=0x2`), its zeros left out
/// past a few inputs.
pub fn inputs_line(inputs: &[(String, BitVec)]) -> String {
    let (shown, hidden) = shown_inputs(inputs);
    let mut inputs: Vec<String> = shown.iter().map(|(n, v)| format!("{n}={}", v.hex())).collect();
    if hidden > 0 {
        inputs.push("others 0".into());
    }
    inputs.join(" ")
}

/// Each output of a witness on both sides, the second side headed
/// `other` (`concrete`, `Semantics block`), indented under its headline.
pub fn output_pairs(out: &mut dyn Write, width: Width, cex: &Counterexample, other: &str) -> io::Result<()> {
    let rows = cex
        .outputs
        .iter()
        .map(|o| {
            let mark = if o.smt == o.concrete { "" } else { "differs" };
            vec![o.name.clone(), value_or_undefined(o.smt), value_or_undefined(o.concrete), mark.to_string()]
        })
        .collect();
    for line in Table::new(&["output", "SMT encoding", other, ""], rows).render(width.less(2)).lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_comes_from_the_flag_else_a_terminal_else_none() {
        assert_eq!(resolve(Some(100), Some(80)), Width::Columns(100));
        assert_eq!(resolve(Some(60), None), Width::Columns(60));
        assert_eq!(resolve(None, Some(80)), Width::Columns(80));
        assert_eq!(resolve(None, Some(12)), Width::Columns(MIN_WIDTH));
        assert_eq!(resolve(None, None), Width::Natural);
    }

    #[test]
    fn a_table_too_wide_for_its_values_becomes_records_and_breaks_none() {
        let hex = |v: u64| format!("0x{v:016x}");
        let header = ["output", "model", "reading-one", "reading-two", "reading-three", "reading-four"];
        let rows = vec![std::iter::once("d".to_string()).chain((1..6).map(|k| hex(u64::MAX / k))).collect::<Vec<_>>()];
        let out = Table::new(&header, rows.clone()).render(Width::Columns(80));
        assert!(out.lines().all(|l| text_width(l) <= 80), "{out}");
        for v in &rows[0][1..] {
            assert!(out.lines().any(|l| l.contains(v.as_str())), "{v} broken:\n{out}");
        }
        assert!(out.contains("│ reading-two   │ 0x5555555555555555 │"), "{out}");
        // Where it fits, it stays one table.
        assert_eq!(Table::new(&header, rows.clone()).render(Width::Columns(200)).lines().count(), 5);
    }

    #[test]
    fn only_the_wrapping_columns_wrap_while_they_can() {
        let rows = vec![vec!["shf.l.wrap.b32".to_string(), "a long text that wraps at spaces to fit".to_string()]];
        let table = || Table::new(&["name", "text"], rows.clone()).wrap(1, None);
        let natural = table().render(Width::Natural);
        assert_eq!(natural, table().render(Width::Columns(80)));
        let fitted = table().render(Width::Columns(40));
        assert!(fitted.lines().all(|l| text_width(l) <= 40), "{fitted}");
        assert!(
            fitted.contains("│ shf.l.wrap.b32 │ a long text that   │\n│                │ wraps at spaces to │"),
            "{fitted}"
        );
    }
}
