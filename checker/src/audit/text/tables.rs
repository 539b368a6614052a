//! Tables read row by row against their header. A truth table has bit
//! columns (a bare name over cells of 0 and 1) and function columns (a
//! header with a Boolean expression over the bit columns in parentheses,
//! or `True` / `False`); a row may instead give each column's value as a
//! number (`immLut`). The pass checks:
//!
//! - that every row has the header's number of cells: a row with fewer is
//!   read by position by every tool that reads the table, so its values
//!   stand under the wrong labels (a gap column, `…`, that a row leaves
//!   out is named);
//! - every cell of a function column against its header's expression, at
//!   that row's bits;
//! - every number of a value row against its column read as a number: the
//!   row whose bits, read as a binary number with the first bit column
//!   most significant, are `i` gives bit `i`.
//!
//! A short row is compared with its gap columns skipped, so one missing
//! gap cell is one finding, not one per value.

use super::document::{Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind};
use crate::ptx::parse::parse_integer;

/// A table of a section: its header's cells and its rows' (the rule under
/// the header left out), each with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub line: usize,
    pub header: Vec<String>,
    pub rows: Vec<(usize, Vec<String>)>,
}

/// A row's cells: split at each `|` outside parentheses (a header's
/// `(ta | tb | tc)` is one cell), the outer pipes dropped, Markdown's bold
/// marks and white space trimmed.
pub fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cell = String::new();
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '|' if depth <= 0 => {
                out.push(std::mem::take(&mut cell));
                continue;
            }
            _ => {}
        }
        cell.push(c);
    }
    out.push(cell);
    out.into_iter().map(|c| c.trim().trim_matches('*').trim().to_string()).collect()
}

/// The tables of a section, in order.
pub fn tables(s: &Section) -> Vec<Table> {
    let mut out = Vec::new();
    let lines: Vec<&Line> =
        s.intro.iter().chain(s.blocks.iter().flat_map(|b| b.lines.iter())).filter(|l| !l.code).collect();
    let mut k = 0;
    while k < lines.len() {
        let is_row = |l: &Line| l.text.trim_start().starts_with('|');
        if !is_row(lines[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < lines.len() && is_row(lines[k]) {
            k += 1;
        }
        let rule = |l: &Line| cells(&l.text).iter().all(|c| !c.is_empty() && c.chars().all(|x| matches!(x, '-' | ':')));
        let mut rows: Vec<(usize, Vec<String>)> =
            lines[start + 1..k].iter().filter(|l| !rule(l)).map(|l| (l.number, cells(&l.text))).collect();
        rows.retain(|(_, c)| c.iter().any(|x| !x.is_empty()));
        out.push(Table { line: lines[start].number, header: cells(&lines[start].text), rows });
    }
    out
}

/// A Boolean expression over a table's bit columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Bit(usize),
    Const(bool),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Xor(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn eval(&self, bits: &[bool]) -> bool {
        match self {
            Expr::Bit(i) => bits[*i],
            Expr::Const(b) => *b,
            Expr::Not(e) => !e.eval(bits),
            Expr::And(a, b) => a.eval(bits) && b.eval(bits),
            Expr::Xor(a, b) => a.eval(bits) != b.eval(bits),
            Expr::Or(a, b) => a.eval(bits) || b.eval(bits),
        }
    }
}

/// `text` parsed with C's precedence (`~`, then `&`, `^`, `|`) over the
/// names `vars`, `True` and `False`; `None` if it is not such an expression.
pub fn parse_expr(text: &str, vars: &[String]) -> Option<Expr> {
    let mut tokens: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if c.is_whitespace() {
            k += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let word: String = chars[k..].iter().take_while(|x| x.is_alphanumeric() || **x == '_').collect();
            k += word.chars().count();
            tokens.push(word);
        } else if "~&^|()".contains(c) {
            tokens.push(c.to_string());
            k += 1;
        } else {
            return None;
        }
    }
    let mut p = Parser { tokens: &tokens, at: 0, vars };
    let e = p.or()?;
    (p.at == tokens.len()).then_some(e)
}

struct Parser<'a> {
    tokens: &'a [String],
    at: usize,
    vars: &'a [String],
}

impl Parser<'_> {
    fn eat(&mut self, t: &str) -> bool {
        let hit = self.tokens.get(self.at).is_some_and(|x| x == t);
        self.at += usize::from(hit);
        hit
    }

    fn binary(
        &mut self,
        op: &str,
        next: fn(&mut Self) -> Option<Expr>,
        make: fn(Box<Expr>, Box<Expr>) -> Expr,
    ) -> Option<Expr> {
        let mut e = next(self)?;
        while self.eat(op) {
            e = make(Box::new(e), Box::new(next(self)?));
        }
        Some(e)
    }

    fn or(&mut self) -> Option<Expr> {
        self.binary("|", Self::xor, Expr::Or)
    }

    fn xor(&mut self) -> Option<Expr> {
        self.binary("^", Self::and, Expr::Xor)
    }

    fn and(&mut self) -> Option<Expr> {
        self.binary("&", Self::unary, Expr::And)
    }

    fn unary(&mut self) -> Option<Expr> {
        if self.eat("~") {
            return Some(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("(") {
            let e = self.or()?;
            return self.eat(")").then_some(e);
        }
        let t = self.tokens.get(self.at)?.clone();
        self.at += 1;
        match t.as_str() {
            "True" | "true" => Some(Expr::Const(true)),
            "False" | "false" => Some(Expr::Const(false)),
            _ => self.vars.iter().position(|v| *v == t).map(Expr::Bit),
        }
    }
}

/// A cell that is a gap: the columns a table leaves out.
fn is_gap(cell: &str) -> bool {
    matches!(cell, "…" | "..." | "⋯")
}

fn bit(cell: &str) -> Option<bool> {
    match cell {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// A cell that is a non-negative integer, written as PTX writes one.
fn number(cell: &str) -> Option<u128> {
    parse_integer(cell).and_then(|n| u128::try_from(n).ok())
}

/// A table's reading: its bit columns, each function column's expression,
/// and each row's cells placed under the header's columns.
pub struct Reading {
    pub vars: Vec<String>,
    pub functions: Vec<(usize, Expr)>,
    /// Per row: its line, the header column of each of its cells, and
    /// whether it had the header's number of cells.
    pub placed: Vec<(usize, Vec<Option<String>>, bool)>,
}

/// Read a table: `None` where it is not a truth table (no bit column, or
/// no function column).
pub fn read(t: &Table) -> Option<Reading> {
    let vars: Vec<String> = t
        .header
        .iter()
        .take_while(|h| !h.is_empty() && h.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .cloned()
        .collect();
    if vars.is_empty() {
        return None;
    }
    let functions: Vec<(usize, Expr)> = t
        .header
        .iter()
        .enumerate()
        .skip(vars.len())
        .filter_map(|(i, h)| {
            // The text between the first `(` and the last `)`, where the
            // `)` comes after it (a mangled header may close before it opens).
            let inner = h.find('(').and_then(|a| h.rfind(')').filter(|&b| b > a).map(|b| &h[a + 1..b])).unwrap_or(h);
            parse_expr(inner, &vars).map(|e| (i, e))
        })
        .collect();
    if functions.is_empty() {
        return None;
    }
    let gaps: Vec<usize> = (0..t.header.len()).filter(|&i| is_gap(&t.header[i])).collect();
    let placed = t
        .rows
        .iter()
        .map(|(line, row)| {
            let full = row.len() == t.header.len();
            // A row short by exactly the gap columns skips them.
            let columns: Vec<usize> = if !full && row.len() + gaps.len() == t.header.len() {
                (0..t.header.len()).filter(|i| !gaps.contains(i)).collect()
            } else {
                (0..t.header.len()).collect()
            };
            let mut cells = vec![None; t.header.len()];
            for (c, v) in columns.iter().zip(row) {
                cells[*c] = Some(v.clone());
            }
            (*line, cells, full)
        })
        .collect();
    Some(Reading { vars, functions, placed })
}

fn finding(s: &Section, id: String, fragment: String, summary: String, detail: String) -> Finding {
    Finding::of_text(id, s.number.clone(), FindingKind::Structure, fragment, summary, vec![detail])
}

/// The findings of one table.
fn check_table(s: &Section, nth: usize, t: &Table) -> Vec<Finding> {
    let mut out = Vec::new();
    // Rows of bold cells at the top are more rows of the header (a header
    // cell spanning two rows, `new_val` over `.field3`'s columns), which a
    // Markdown table cannot write but as a row a cell short.
    let bold = |line: usize| {
        s.all_lines().find(|l| l.number == line).is_some_and(|l| {
            let written: Vec<&str> = l.text.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
            !written.is_empty() && written.iter().all(|c| c.len() > 4 && c.starts_with("**") && c.ends_with("**"))
        })
    };
    let header_rows = t.rows.iter().take_while(|(line, _)| bold(*line)).count();
    let short: Vec<&(usize, Vec<String>)> =
        t.rows.iter().skip(header_rows).filter(|(_, r)| r.len() != t.header.len()).collect();
    // A cell that spans rows in the rendered table (`Unified mode` over its
    // textures, samplers and surfaces) leaves the rows under it one cell
    // short, on the left: a table of groups, not cells lost. A table with a
    // gap column (`…`) is read by its gap instead.
    // Cells that span rows on both sides (`.mbarrier::...` and its
    // completion mechanism over three rows of `.dst` and `.src`) leave the
    // rows under them short on both: the same, read by the full rows around.
    let spanned = !t.header.iter().any(|h| is_gap(h))
        && t.rows.first().is_some_and(|(_, r)| r.len() == t.header.len())
        && short.iter().all(|(_, r)| r.len() < t.header.len() && r.len() >= 2)
        && t.rows.iter().filter(|(_, r)| r.len() == t.header.len()).count() >= 2;
    if let (Some(first), Some(last), false) = (short.first(), short.last(), spanned) {
        let gaps: Vec<&String> = t.header.iter().filter(|h| is_gap(h)).collect();
        let counts: Vec<usize> = short.iter().map(|(_, r)| r.len()).collect();
        let missing = if counts.iter().all(|&c| c + gaps.len() == t.header.len()) && !gaps.is_empty() {
            format!("; the gap column `{}` is missing from them, so read by position each value from there on stands one column to the left and `{}` has none", gaps[0], t.header.last().map_or("", String::as_str))
        } else {
            String::new()
        };
        let lines =
            if short.len() == 1 { format!("line {}", first.0) } else { format!("lines {}-{}", first.0, last.0) };
        out.push(finding(
            s,
            format!("text-table-{}-{nth}-cells", s.number),
            collapse_cells(&first.1),
            format!(
                "{} of the table's {} rows ({lines}) {} {} cells where its header has {}{missing}",
                short.len(),
                t.rows.len(),
                if short.len() == 1 { "has" } else { "have" },
                if counts.iter().all(|&c| c == counts[0]) {
                    counts[0].to_string()
                } else {
                    counts.iter().map(usize::to_string).collect::<Vec<_>>().join("/")
                },
                t.header.len()
            ),
            format!(
                "{}:{}: the table's header has {} cells; the rows at {lines} do not.",
                s.file,
                t.line,
                t.header.len()
            ),
        ));
    }
    // Rows by their place in the table, not their line: the ids stay the
    // same in every rendering.
    let row_of = |line: usize| t.rows.iter().position(|(l, _)| *l == line).map_or(0, |p| p + 1);
    let Some(r) = read(t) else { return out };
    let bits_of = |cells: &[Option<String>]| -> Option<Vec<bool>> {
        (0..r.vars.len()).map(|i| cells[i].as_deref().and_then(bit)).collect()
    };
    // Function cells at each bit row.
    for (line, cells, _) in &r.placed {
        let Some(bits) = bits_of(cells) else { continue };
        for (col, e) in &r.functions {
            let Some(cell) = cells[*col].as_deref().and_then(bit) else { continue };
            if cell != e.eval(&bits) {
                out.push(finding(
                    s,
                    format!("text-table-{}-{nth}-cell-{}-{col}", s.number, row_of(*line)),
                    t.header[*col].clone(),
                    format!(
                        "the cell under `{}` at line {line} is {}, the expression gives {}",
                        t.header[*col],
                        u8::from(cell),
                        u8::from(!cell)
                    ),
                    format!(
                        "{}:{line}: the row's bits are {}.",
                        s.file,
                        bits.iter().map(|b| if *b { "1" } else { "0" }).collect::<String>()
                    ),
                ));
            }
        }
    }
    // Value rows: each column read as a number over the bit rows.
    for (line, cells, _) in &r.placed {
        if bits_of(cells).is_some() {
            continue;
        }
        let label = cells[0].clone().unwrap_or_default();
        for (col, e) in &r.functions {
            let Some(stated) = cells[*col].as_deref().and_then(number) else { continue };
            let n = r.vars.len();
            let value: u128 = (0..1u128 << n)
                .filter(|i| e.eval(&(0..n).map(|b| i >> (n - 1 - b) & 1 == 1).collect::<Vec<_>>()))
                .map(|i| 1u128 << i)
                .sum();
            if stated != value {
                out.push(finding(
                    s,
                    format!("text-table-{}-{nth}-value-{}-{col}", s.number, row_of(*line)),
                    t.header[*col].clone(),
                    format!("`{label}` under `{}` is {stated:#x}; the column's bits give {value:#x}", t.header[*col]),
                    format!("{}:{line}: read with the first bit column most significant.", s.file),
                ));
            }
        }
    }
    out
}

fn collapse_cells(cells: &[String]) -> String {
    format!("| {} |", cells.join(" | "))
}

/// The tables of every section, each rendering's once.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for s in &doc.sections {
        for (nth, t) in tables(s).iter().enumerate() {
            for f in check_table(s, nth + 1, t) {
                if !out.iter().any(|o| o.id == f.id) {
                    out.push(f);
                }
            }
        }
    }
    out.extend(values_outside_sets(doc));
    out.extend(examples_outside_combinations(doc));
    out.extend(values_no_row_allows(doc));
    out
}

/// Each cell of a full row under a column the header names by a set of
/// the Syntax (`.src`, `` `.dst` ``, `.completion-mechanism`) that gives
/// the set a value no definition of it has: cp.reduce.async.bulk's table
/// of completion mechanisms, whose `.src` column says `.global` where
/// every form's `.src` is `.shared::cta`. A row with fewer cells than the
/// header is left out (its cells stand under other labels), and so is a
/// value cut short (`.mbarrier::...`).
pub fn values_outside_sets(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        let Some(g) = super::defaults::grammar(s) else { continue };
        for t in tables(s) {
            for (col, head) in t.header.iter().enumerate() {
                let name = head.trim_matches('`').trim().replace('-', "_");
                let Some(values) = g.sets.get(&name) else { continue };
                for (line, row) in t.rows.iter().filter(|(_, r)| r.len() == t.header.len()) {
                    let cell = &row[col];
                    let written: Vec<&str> = cell
                        .split(|c: char| c == '`' || c == ',' || c.is_whitespace())
                        .filter(|w| w.starts_with('.') && !w.ends_with("...") && w.len() > 1)
                        .collect();
                    for w in written.into_iter().filter(|w| !values.iter().any(|v| v == w)) {
                        let list = values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
                        out.push(Finding::of_text(
                            format!(
                                "text-combination-{}-{}-{}",
                                s.number,
                                line,
                                w.trim_start_matches('.').replace("::", "-")
                            ),
                            s.number.clone(),
                            FindingKind::Ambiguity,
                            w.to_string(),
                            format!(
                                "a row of the table gives `{name}` the value `{w}`, which no definition of `{name}` in \
                                 the Syntax has (its values are {list})"
                            ),
                            vec![format!(
                                "At {}:{line}: the row's `{}` column. No form can write it, so either the row or the \
                                 Syntax is wrong.",
                                s.file, head
                            )],
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The dotted values a cell writes (`` `.min`, `.max` `` is `.min`, `.max`).
fn cell_values(cell: &str) -> Vec<&str> {
    cell.split(|c: char| c == '`' || c == ',' || c.is_whitespace())
        .filter(|w| w.starts_with('.') && w.len() > 1)
        .collect()
}

/// Whether a cell's value stands for `value`: itself, or a value cut
/// short that begins it (`.mbarrier::...`).
fn stands_for(cell_value: &str, value: &str) -> bool {
    match cell_value.strip_suffix("...") {
        Some(prefix) => value.starts_with(prefix),
        None => cell_value == value,
    }
}

/// Each column's set, and the rows with their cells in place, by line.
type Combinations = (Vec<Option<String>>, Vec<(usize, Vec<String>)>);

/// A table of combinations: for each column, the set of the Syntax it
/// holds values of (by its header's name, else the one set that has every
/// value its full rows write), and its rows with every cell in place. A
/// row with fewer cells than the header lost the cells it shares with the
/// row above (a span the rendering dropped): each of its cells goes to the
/// next column whose set has its values, and the others are the row
/// above's. None where fewer than two columns hold a set, or a short row's
/// cell fits no column.
fn combinations(t: &Table, sets: &std::collections::BTreeMap<String, Vec<String>>) -> Option<Combinations> {
    let width = t.header.len();
    let full: Vec<&Vec<String>> = t.rows.iter().map(|(_, r)| r).filter(|r| r.len() == width).collect();
    let columns: Vec<Option<String>> = (0..width)
        .map(|col| {
            let named = t.header[col].trim_matches('`').trim().replace('-', "_");
            if sets.contains_key(&named) {
                return Some(named);
            }
            let values: Vec<&str> =
                full.iter().flat_map(|r| cell_values(&r[col])).filter(|v| !v.ends_with("...")).collect();
            let holding: Vec<&String> = sets
                .iter()
                .filter(|(_, vs)| !values.is_empty() && values.iter().all(|v| vs.iter().any(|x| x == v)))
                .map(|(n, _)| n)
                .collect();
            match holding[..] {
                [one] => Some(one.clone()),
                _ => None,
            }
        })
        .collect();
    if columns.iter().flatten().count() < 2 {
        return None;
    }
    let fits = |col: usize, cell: &str| {
        let values = cell_values(cell);
        columns[col]
            .as_ref()
            .and_then(|n| sets.get(n))
            .is_some_and(|vs| !values.is_empty() && values.iter().all(|v| vs.iter().any(|x| stands_for(v, x))))
    };
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    for (line, row) in &t.rows {
        if row.len() == width {
            rows.push((*line, row.clone()));
            continue;
        }
        let mut filled = rows.last()?.1.clone();
        let mut col = 0;
        for cell in row {
            while col < width && !fits(col, cell) {
                col += 1;
            }
            if col == width {
                return None;
            }
            filled[col] = cell.clone();
            col += 1;
        }
        rows.push((*line, filled));
    }
    Some((columns, rows))
}

/// Each example of a section whose qualifiers make a combination no row of
/// a table of combinations allows: cp.reduce.async.bulk's
/// `.global ... .xor.s32`, where the table's `.global` rows give `.xor`
/// only `.b32` and `.b64`. An example that writes no value of a column's
/// set is not read against that table. The fix, where one value of the
/// same width makes a row (`.s32` to `.b32`), is that value.
pub fn examples_outside_combinations(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        let (Some(g), Some(examples), Some(opcode)) =
            (super::defaults::grammar(s), s.block(super::document::BlockKind::Examples), s.opcode())
        else {
            continue;
        };
        for (nth, t) in tables(s).iter().enumerate() {
            let Some((columns, rows)) = combinations(t, &g.sets) else { continue };
            for l in examples.code() {
                let body = crate::ptx::parse::without_guard(l.text.split("//").next().unwrap_or_default()).trim();
                let Some(mnemonic) = body.split_whitespace().next() else { continue };
                let Some(rest) = mnemonic.strip_prefix(opcode).filter(|r| r.starts_with('.')) else { continue };
                let qualifiers: Vec<String> =
                    rest.split('.').filter(|q| !q.is_empty()).map(|q| format!(".{q}")).collect();
                // The example's value for each column that holds a set.
                let mut chosen: Vec<Option<String>> = Vec::new();
                let mut whole = true;
                for c in &columns {
                    let Some(values) = c.as_ref().and_then(|n| g.sets.get(n)) else {
                        chosen.push(None);
                        continue;
                    };
                    let mut written = qualifiers.iter().filter(|q| values.contains(q));
                    match (written.next(), written.next()) {
                        (Some(v), None) => chosen.push(Some(v.clone())),
                        _ => whole = false,
                    }
                }
                if !whole {
                    continue;
                }
                let allows = |choice: &[Option<String>]| {
                    rows.iter().any(|(_, row)| {
                        choice.iter().zip(row).all(|(v, cell)| {
                            v.as_ref().is_none_or(|v| cell_values(cell).iter().any(|c| stands_for(c, v)))
                        })
                    })
                };
                if allows(&chosen) {
                    continue;
                }
                let written: Vec<String> = chosen.iter().flatten().map(|v| format!("`{v}`")).collect();
                let mut f = Finding::of_text(
                    format!("text-combination-{}-{}-example-{}", s.number, nth + 1, l.number),
                    s.number.clone(),
                    FindingKind::Ambiguity,
                    mnemonic.to_string(),
                    format!(
                        "the example `{mnemonic}` writes {}, a combination no row of the table at line {} allows",
                        super::and_list(&written),
                        t.line
                    ),
                    vec![format!(
                        "At {}:{}: the table lists the valid combinations, and no row has all of {}; either the \
                         example or the table is wrong.",
                        s.file,
                        l.number,
                        super::and_list(&written)
                    )],
                );
                // One value of the same width that makes a row.
                let digits = |v: &str| v.trim_start_matches(|c: char| !c.is_ascii_digit()).to_string();
                let mut fixes: Vec<(String, String)> = Vec::new();
                for (k, v) in chosen.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let values = columns[k].as_ref().and_then(|n| g.sets.get(n)).cloned().unwrap_or_default();
                    for other in values.iter().filter(|o| *o != v && !digits(o).is_empty() && digits(o) == digits(v)) {
                        let mut tried = chosen.clone();
                        tried[k] = Some(other.clone());
                        if allows(&tried) {
                            fixes.push((v.clone(), other.clone()));
                        }
                    }
                }
                if let [(old, new)] = &fixes[..] {
                    let at = l.text.find(mnemonic).unwrap_or_default();
                    let fixed = mnemonic.replacen(&format!("{old}."), &format!("{new}."), 1);
                    let fixed = if fixed == mnemonic { mnemonic.replacen(old.as_str(), new, 1) } else { fixed };
                    f.repairs =
                        vec![crate::audit::finding::Repair::at(l.number, &l.text, at, at + mnemonic.len(), &fixed)];
                }
                out.push(f);
            }
        }
    }
    out
}

/// The sets each form of a Syntax block lists under it (its paragraph,
/// as [`super::forms::form_group_indices`] reads them): for each set, its
/// values and the line of its definition.
fn sets_of_each_form(s: &Section) -> Vec<Vec<(String, Vec<String>, &Line)>> {
    let Some(block) = s.block(super::document::BlockKind::Syntax) else { return Vec::new() };
    let code: Vec<&Line> = block.code().collect();
    let lines: Vec<&str> = code.iter().map(|l| l.text.split("//").next().unwrap_or_default().trim()).collect();
    let mut out = Vec::new();
    for group in super::forms::form_group_indices(&lines) {
        let mut sets = Vec::new();
        for (n, &k) in group.iter().enumerate() {
            let Some((name, list)) = lines[k].split_once('=') else { continue };
            let name = name.trim();
            if !name.starts_with('.') || name.contains(char::is_whitespace) {
                continue;
            }
            // The definition runs to its closing brace.
            let mut joined = list.to_string();
            for &next in &group[n + 1..] {
                if joined.contains('}') {
                    break;
                }
                joined.push(' ');
                joined.push_str(lines[next]);
            }
            let inner = joined.split_once('{').map_or("", |(_, r)| r.split('}').next().unwrap_or_default());
            sets.push((name.to_string(), super::defaults::set_values(inner), code[k]));
        }
        out.push(sets);
    }
    out
}

/// Each value a form's list of sets gives that no row of a table of
/// combinations allows with the form's other sets: cp.reduce.async.bulk's
/// first form lists `.b64` among its types, and no row under its one
/// `.dst`, `.shared::cluster`, has `.b64`. The fix drops the value from
/// the list, the reading in which the table is right.
pub fn values_no_row_allows(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        let Some(g) = super::defaults::grammar(s) else { continue };
        let forms = sets_of_each_form(s);
        if forms.len() < 2 {
            continue;
        }
        for (nth, t) in tables(s).iter().enumerate() {
            let Some((columns, rows)) = combinations(t, &g.sets) else { continue };
            for sets in &forms {
                let listed = |name: &str| sets.iter().find(|(n, _, _)| n == name);
                // Only a form that lists every set the table has a column of.
                if columns.iter().flatten().any(|c| listed(c).is_none()) {
                    continue;
                }
                for (k, column) in columns.iter().enumerate() {
                    let Some((name, values, line)) = column.as_deref().and_then(listed) else { continue };
                    for v in values {
                        let allowed = rows.iter().any(|(_, row)| {
                            columns.iter().zip(row).enumerate().all(|(j, (c, cell))| {
                                let in_cell = |x: &String| cell_values(cell).iter().any(|c| stands_for(c, x));
                                match c.as_deref().and_then(listed) {
                                    _ if j == k => in_cell(v),
                                    Some((_, vs, _)) => vs.iter().any(in_cell),
                                    None => true,
                                }
                            })
                        });
                        if allowed {
                            continue;
                        }
                        let others: Vec<String> = columns
                            .iter()
                            .flatten()
                            .filter(|c| *c != name)
                            .filter_map(|c| listed(c))
                            .filter(|(_, vs, _)| vs.len() == 1)
                            .map(|(n, vs, _)| format!("`{n}` `{}`", vs[0]))
                            .collect();
                        let with = if others.is_empty() {
                            String::new()
                        } else {
                            format!(" with {}", super::and_list(&others))
                        };
                        let mut f = Finding::of_text(
                            format!(
                                "text-combination-{}-{}-unallowed-{}-{}",
                                s.number,
                                nth + 1,
                                line.number,
                                v.trim_start_matches('.')
                            ),
                            s.number.clone(),
                            FindingKind::Ambiguity,
                            v.clone(),
                            format!(
                                "a form's list gives `{name}` the value `{v}`, and no row of the table at line {} \
                                 allows it{with}",
                                t.line
                            ),
                            vec![format!(
                                "At {}:{}: the form admits `{v}`, the table of valid combinations has no row for it; \
                                 either the value is dead or the table lacks a row.",
                                s.file, line.number
                            )],
                        );
                        // The value out of the list: `, .b64` (or `.b64, `).
                        let old =
                            [format!(", {v}"), format!("{v}, ")].into_iter().find(|o| line.text.contains(o.as_str()));
                        if let Some(old) = old {
                            f.repairs =
                                vec![crate::audit::finding::Repair { line: line.number, old, new: String::new() }];
                        }
                        out.push(f);
                    }
                }
            }
        }
    }
    out
}

/// Every table row the pass reads (the header and every row of every
/// table), by file and line.
pub fn read_rows(doc: &Document) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for s in &doc.sections {
        for t in tables(s) {
            out.push((s.file.clone(), t.line));
            out.extend(t.rows.iter().map(|(l, _)| (s.file.clone(), *l)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(text: &str) -> Section {
        let lines: Vec<Line> =
            text.lines().enumerate().map(|(i, t)| Line { number: i + 1, text: t.into(), code: false }).collect();
        Section {
            number: "9.9".into(),
            title: String::new(),
            file: "t.md".into(),
            line: 1,
            intro: lines,
            blocks: Vec::new(),
        }
    }

    fn found(text: &str) -> Vec<String> {
        let s = section(text);
        check_table(&s, 1, &tables(&s)[0]).into_iter().map(|f| f.summary).collect()
    }

    #[test]
    fn cells_keep_an_expression_whole() {
        assert_eq!(cells("| ta | Oper 254 (ta | tb) | **0x80** |"), ["ta", "Oper 254 (ta | tb)", "0x80"]);
        let vars = vec!["a".to_string(), "b".to_string()];
        let e = parse_expr("a & ~b | b ^ a", &vars).unwrap();
        // (a & ~b) | (b ^ a)
        assert!(e.eval(&[true, false]) && e.eval(&[false, true]) && !e.eval(&[true, true]));
        assert_eq!(parse_expr("a + b", &vars), None);
    }

    /// A header cell that closes a parenthesis before it opens one, as a
    /// mangled copy may, is read without a panic.
    #[test]
    fn a_header_closed_before_it_opens_is_read() {
        let t = "| a | b | ))))))))Oper 254 (ta |\n| --- | --- | --- |\n| 0 | 0 | 0 |";
        assert!(found(t).len() <= 1);
    }

    #[test]
    fn a_right_table_gives_nothing() {
        let t = "| a | b | And (a & b) | … | Any (a | b) |\n| --- | --- | --- | --- | --- |\n\
                 | 0 | 0 | 0 | … | 0 |\n| 0 | 1 | 0 | … | 1 |\n| 1 | 0 | 0 | … | 1 |\n| 1 | 1 | 1 | … | 1 |\n\
                 | **v** | | **0x8** | **…** | **0xE** |";
        assert_eq!(found(t), Vec::<String>::new());
        // A cell that spans the rows under it, lost in the rendering.
        let spanned =
            "| Mode | Resource | sm_1x | sm_3x |\n| --- | --- | --- | --- |\n| Unified | Textures | 128 | 256 |\n\
                       | Samplers | 128 | 256 |\n| Independent | Textures | 128 | 256 |\n| Samplers | 16 | 32 |";
        assert_eq!(found(spanned), Vec::<String>::new());
        let both_sides =
            "| m | d | s | c |\n| --- | --- | --- | --- |\n| `.a` | `.x` | `.g` | one |\n| `.y` | `.g` |\n\
                          | `.b` | `.x` | `.y` | two |";
        assert_eq!(found(both_sides), Vec::<String>::new());
        // A header cell over two rows: its second row is bold, a cell short.
        let two_rows = "| **v** | **f** | | |\n| --- | --- | --- | --- |\n| **e** | **i** | **s** |\n| 0 | 1 | 2 | 3 |";
        assert_eq!(found(two_rows), Vec::<String>::new());
    }

    #[test]
    fn short_rows_wrong_cells_and_wrong_values_are_found() {
        let t = "| a | b | And (a & b) | … | Any (a | b) |\n| --- | --- | --- | --- | --- |\n\
                 | 0 | 0 | 0 | … | 0 |\n| 0 | 1 | 0 | 1 |\n| 1 | 0 | 1 | 1 |\n| 1 | 1 | 1 | … | 1 |\n\
                 | **v** | | **0x8** | **…** | **0xF** |";
        let f = found(t);
        assert_eq!(f.len(), 3, "{f:?}");
        assert!(
            f[0].starts_with(
                "2 of the table's 5 rows (lines 4-5) have 4 cells where its header has 5; the gap column `…`"
            ),
            "{}",
            f[0]
        );
        assert!(f[1].contains("under `And (a & b)` at line 5 is 1"), "{}", f[1]);
        assert!(f[2].contains("`v` under `Any (a | b)` is 0xf; the column's bits give 0xe"), "{}", f[2]);
    }

    fn reduce(examples: &str) -> Document {
        Document::of_markdown(&format!(
            "#### 9.7.9.25.4.2. Data Movement and Conversion Instructions: `cp.reduce`\n\n`cp.reduce`\n\nReduce.\n\n\
             Syntax\n\n```\ncp.reduce.dst.mech.redOp.type [d], [s], size;\n.dst = {{ .shared::cluster, .global }}\n\
             .mech = {{ .mbarrier::complete_tx::bytes, .bulk_group }}\n.redOp = {{ .add, .xor }}\n\
             .type = {{ .u32, .s32, .b32, .b64 }}\n```\n\nDescription\n\nThe valid combinations:\n\n\
             | `.dst` | `.redOp` | Element type |\n| --- | --- | --- |\n| `.shared::cluster` | `.add` | `.u32` |\n\
             | `.xor` | `.b32` |\n| `.global` | `.add` | `.u32`, `.s32` |\n| `.xor` | `.b32`, `.b64` |\n\n\
             | .mech | `.dst` | Completion |\n| --- | --- | --- |\n| `.mbarrier::...` | `.shared::cluster` | mbarrier |\n\
             | `.bulk_group` | `.global` | bulk |\n\nExamples\n\n```\n{examples}\n```\n"
        ))
    }

    /// Short rows take the cells they lost from the row above, by the set
    /// their values belong to; a value cut short stands for those it begins.
    #[test]
    fn an_example_no_row_of_a_table_of_combinations_allows_is_found_with_its_width_kept() {
        let ok = "cp.reduce.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [d], [s], 16;\n\
                  cp.reduce.global.bulk_group.xor.b64 [d], [s], 16;\ncp.reduce.global.bulk_group.add.s32 [d], [s], 16;";
        assert!(examples_outside_combinations(&reduce(ok)).is_empty());
        let found = examples_outside_combinations(&reduce("cp.reduce.global.bulk_group.xor.s32 [d], [s], 16;"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.contains("`.global`, `.xor` and `.s32`"), "{}", found[0].summary);
        assert_eq!(found[0].repairs[0].new, "cp.reduce.global.bulk_group.xor.b32");
        // Under `.shared::cluster` only `.add.u32` and `.xor.b32`: `.add.s32`
        // has no fix of its width that one change makes (`.b32` is `.xor`'s).
        let found = examples_outside_combinations(&reduce(
            "cp.reduce.shared::cluster.mbarrier::complete_tx::bytes.add.s32 [d], [s], 16;",
        ));
        assert_eq!(found.len(), 1);
        // Under the table of mechanisms, `.bulk_group` goes with `.global` only.
        let found =
            examples_outside_combinations(&reduce("cp.reduce.shared::cluster.bulk_group.add.u32 [d], [s], 16;"));
        assert_eq!(
            found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
            ["text-combination-9.7.9.25.4.2-2-example-36"]
        );
    }

    /// A form's list that gives a value no row allows with the form's other
    /// sets: the value, dropped from the list.
    #[test]
    fn a_value_of_a_forms_list_no_row_allows_is_found_and_dropped() {
        let text = "#### 9.7.9.25.4.2. Data Movement and Conversion Instructions: `cp.reduce`\n\n`cp.reduce`\n\n\
                    Reduce.\n\nSyntax\n\n```\ncp.reduce.dst.redOp.type [d], [s]\n\n.dst = { .shared::cluster }\n\
                    .redOp = { .add, .xor }\n.type = { .u32, .b32, .b64 }\n\ncp.reduce.dst.redOp.type [d], [s]\n\n\
                    .dst = { .global }\n.redOp = { .add, .xor }\n.type = { .u32, .b64 }\n```\n\nDescription\n\n\
                    | `.dst` | `.redOp` | Element type |\n| --- | --- | --- |\n| `.shared::cluster` | `.add` | `.u32` |\n\
                    | `.xor` | `.b32` |\n| `.global` | `.add` | `.u32` |\n| `.xor` | `.b64` |\n";
        let found = values_no_row_allows(&Document::of_markdown(text));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.contains("`.b64`") && found[0].summary.contains("`.dst` `.shared::cluster`"));
        assert_eq!((found[0].repairs[0].old.as_str(), found[0].repairs[0].new.as_str()), (", .b64", ""));
    }
}
