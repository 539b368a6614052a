//! Bits of an operand the Semantics block never reads: a block that reads a
//! source operand only through bit ranges (`c[4:0]`, `c[12:8]`) leaves the
//! other bits of it unread. Whether a program must leave them zero, may
//! set them to anything, or is undefined when it does, is for the prose to
//! say; a section whose Description and Notes name the operand with no
//! word of the kind (`ignored`, `unused`, `reserved`, `must be zero`, the
//! operand's bits or an out-of-range value of it) leaves it open.

use std::collections::BTreeSet;

use super::document::{BlockKind, Section};
use crate::audit::finding::{Finding, FindingKind};

/// Words with which a sentence on the operand speaks to its unread bits.
const SPOKEN_FOR: [&str; 7] =
    ["ignored", "unused", "reserved", "must be zero", "must be 0", "bits", "out of range value"];

/// Each bit range of `name` the code writes (`name[4:0]`, `name[0:15]`),
/// as bit numbers; `None` where the code also reads `name` whole.
fn ranges_read(code: &str, name: &str) -> Option<BTreeSet<u32>> {
    let mut bits = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(name).map(|i| i + from) {
        from = i + name.len();
        let before = i.checked_sub(1).map(|k| bytes[k] as char);
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let after = &code[from..];
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let range = after.strip_prefix('[').and_then(|r| r.split_once(']')).map(|(r, _)| r)?;
        let (x, y) = range.split_once(':')?;
        let (x, y): (u32, u32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        bits.extend(x.min(y)..=x.max(y));
    }
    (!bits.is_empty()).then_some(bits)
}

/// The first bit range of `name` the code writes, as written (`c[4:0]`).
fn first_range(code: &str, name: &str) -> Option<String> {
    code.match_indices(&format!("{name}[")).find_map(|(i, m)| {
        let boundary = i == 0 || !code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        let end = code[i..].find(']')?;
        (boundary && end > m.len()).then(|| code[i..=i + end].to_string())
    })
}

/// `{31:13, 7:5}` as "31:13 and 7:5", highest first.
fn spans(bits: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &b in bits {
        match out.last_mut() {
            Some((_, lo)) if *lo == b + 1 => *lo = b,
            _ => out.push((b, b)),
        }
    }
    out
}

/// The width of the section's operands by its Syntax: the widest type a
/// mnemonic names, 32 where it names none.
fn width(s: &Section) -> u32 {
    let lines = s.block(BlockKind::Syntax).into_iter().flat_map(|b| b.code());
    let words = lines.flat_map(|l| l.text.split(['.', ' ', ',', ';']).map(str::to_string).collect::<Vec<_>>());
    words
        .filter_map(|w| {
            let t = w.trim();
            let digits = t.strip_prefix(['b', 'u', 's'])?;
            digits.parse::<u32>().ok().filter(|n| [8, 16, 32, 64].contains(n))
        })
        .max()
        .unwrap_or(32)
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(block) = s.block(BlockKind::Semantics) else { return Vec::new() };
    // The code without its comments, whose words are not reads.
    let code: String = block.code().map(|l| l.text.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let prose = super::typing::sentences(s);
    let n = width(s);
    let mut names: Vec<String> = super::declarations::operands(s).into_iter().collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let Some(read) = ranges_read(&code, &name) else { continue };
        let unread: Vec<u32> = (0..n).rev().filter(|b| !read.contains(b)).collect();
        if unread.is_empty() || read.iter().any(|b| *b >= n) {
            continue;
        }
        let span = format!("`{name}`");
        let about: Vec<&String> = prose.iter().filter(|t| t.contains(&span)).collect();
        if about.iter().any(|t| SPOKEN_FOR.iter().any(|w| t.to_ascii_lowercase().contains(w))) {
            continue;
        }
        let as_text = |v: &[(u32, u32)]| {
            v.iter().map(|(h, l)| if h == l { format!("{h}") } else { format!("{h}:{l}") }).collect::<Vec<_>>()
        };
        let read_spans = as_text(&spans(&read.iter().rev().copied().collect::<Vec<_>>()));
        let unread_spans = as_text(&spans(&unread));
        let mask: u128 = unread.iter().fold(0, |m, b| m | 1u128 << b);
        // The first bit range as the block writes it (`c[4:0]`): a quote
        // short enough to find.
        let fragment = first_range(&code, &name).unwrap_or_else(|| name.clone());
        let mut f = Finding::of_text(
            format!("text-unread-{}-{name}", s.number),
            s.number.clone(),
            FindingKind::Ambiguity,
            fragment,
            format!(
                "the Semantics block reads bits {} of `{name}` and never bits {}; no sentence says whether they \
                 must be zero or are ignored",
                read_spans.join(" and "),
                unread_spans.join(" and ")
            ),
            vec![format!(
                "As the block is written, `{name}` = 0x0 and `{name}` = {mask:#x} (bits {} set) give the same \
                 result, so a program may set them; but no sentence says they are ignored, reserved or must be \
                 zero, and a later version that gives them a meaning would change what such a program does.",
                unread_spans.join(" and ")
            )],
        );
        f.also_quotes.extend(about.iter().map(|t| t.to_string()));
        out.push(f);
    }
    out
}

/// Every source operand the block reads only in part, with the prose
/// silent on the rest, each once.
pub fn check(doc: &super::document::Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::{check, ranges_read};

    fn found(semantics: &str, description: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.9.5. Data Movement: `shfl`\n\nSyntax\n\n```\nshfl.mode.b32 d, a, b, c;\n```\n\n\
             Description\n\n{description}\n\nSemantics\n\n```\n{semantics}\n```\n"
        );
        check(&Document::made(&text)).into_iter().map(|f| f.summary).collect()
    }

    #[test]
    fn bits_of_an_operand_the_block_never_reads_are_found() {
        let block = "cval[4:0] = c[4:0];\nmask[4:0] = c[12:8];\nd = a;";
        assert_eq!(
            found(block, "Operand `c` contains two packed values."),
            ["the Semantics block reads bits 12:8 and 4:0 of `c` and never bits 31:13 and 7:5; no sentence says \
              whether they must be zero or are ignored"]
        );
        // Spoken for, read whole, or read in full: nothing open.
        assert!(found(block, "Operand `c` holds a bound in bits 4:0 and a mask in bits 12:8.").is_empty());
        assert!(found("x = c[4:0] + c;\nd = a;", "Operand `c` is a value.").is_empty());
        assert!(found("x = c[0:15] + c[16:31];\nd = a;", "Operand `c` is a value.").is_empty());
        assert_eq!(ranges_read("y = bc[4:0];", "c"), None);
    }
}
