//! A placeholder with a sub-qualifier that the prose writes under another
//! qualifier than the Syntax does: createpolicy's Syntax names
//! `.level::primary_priority`, its prose `.L2::primary_priority`;
//! ld.global.nc's Syntax names `.level1::eviction_priority` and
//! `.level2::eviction_priority`, its notes `.level::eviction_priority`. A
//! reader who looks the prose's name up in the Syntax finds nothing, and
//! where the Syntax has two of the kind, cannot tell which one the prose
//! means.
//!
//! A span the Syntax writes anywhere (as a placeholder or as one of a set's
//! values) is its own. The fix writes the Syntax's name where it has one of
//! the kind, and all of them, joined by "or", where it has several.

use std::collections::BTreeSet;

use super::document::{BlockKind, Document, Section};
use super::retyped::spans;
use crate::audit::finding::{Finding, FindingKind};

/// Every dotted word of a Syntax block: placeholders, set names and
/// values (`.level::primary_priority`, `.L2::evict_last`).
fn syntax_words(s: &Section) -> BTreeSet<String> {
    let Some(b) = s.block(BlockKind::Syntax) else { return BTreeSet::new() };
    let mut out = BTreeSet::new();
    for l in b.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        for w in code.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '_'))) {
            for part in w.split('.').filter(|p| !p.is_empty()) {
                out.insert(format!(".{part}"));
            }
        }
    }
    out
}

fn section(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let words = syntax_words(s);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for l in s.all_lines().filter(|l| !l.code) {
        for span in spans(&l.text) {
            let Some((head, sub)) = span.split_once("::") else { continue };
            // `.shared{::cta, ::cluster}` writes `.shared::cta`.
            let braced = words.contains(head) && words.contains(&format!(".::{sub}"));
            if !head.starts_with('.')
                || sub.is_empty()
                || words.contains(span)
                || braced
                || !seen.insert(span.to_string())
            {
                continue;
            }
            let own: Vec<&String> = words
                .iter()
                .filter(|w| w.split_once("::").is_some_and(|(h, s2)| s2 == sub && h != head && h != "."))
                .collect();
            if own.is_empty() {
                continue;
            }
            let named: Vec<String> = own.iter().map(|w| format!("`{w}`")).collect();
            let instead = named.join(" or ");
            let mut f = Finding::of_text(
                format!("text-subqualifier-{}-{}", s.number, span.trim_start_matches('.').replace("::", "-")),
                s.number.clone(),
                FindingKind::Name,
                format!("`{span}`"),
                format!("the prose writes `{span}`, which the Syntax never does: it names {instead}"),
                vec![format!("{}:{}: \"{}\".", s.file, l.number, l.text.trim())],
            );
            let quoted = format!("`{span}`");
            f.repairs = super::on_each_line(s.all_lines().filter(|m| !m.code), &quoted, &instead);
            out.push(f);
        }
    }
    out
}

/// Every sub-qualifier placeholder the prose writes under another
/// qualifier than the Syntax.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    #[test]
    fn a_placeholder_under_another_qualifier_is_found_with_the_syntax_names() {
        let doc = Document::made(
            "#### 9.7.9.9. Data Movement and Conversion Instructions: `ld.global.nc`\n\n`ld.global.nc`\n\n\
             Syntax\n\n```\nld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}.u32 d, [a];\n\
             .level1::eviction_priority = { .L1::evict_last };\n```\n\nDescription\n\nThe `.L1::evict_last` one, \
             and `.level1::eviction_priority`.\n\nPTX ISA Notes\n\nSupport for `.level::eviction_priority` in 7.4.\n",
        );
        let got: Vec<(String, Vec<String>)> =
            check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| r.new).collect())).collect();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, ["`.level1::eviction_priority` or `.level2::eviction_priority`".to_string()], "{got:?}");
    }
}
